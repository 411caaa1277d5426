"""A scenario's workspace: a temp copy of a golden fixture, its config file, and the edits steps make."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from cruxgate.conformance.target import reaper
from cruxgate.conformance.target.deadline import NO_DEADLINE, Deadline
from cruxgate.conformance.target.output_tail import OutputTail
from cruxgate.conformance.target.profile import ProfileError, Target, fill, fill_one

TAIL_CHARS = 2000


class WorkspaceError(Exception):
    """Preparing or changing a workspace failed; the message says which command and how."""


def tail(text: str, limit: int = TAIL_CHARS) -> str:
    """The last `limit` characters of `text`, marked when cut."""
    text = text.strip()
    return text if len(text) <= limit else "..." + text[-limit:]


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise WorkspaceError(f"config value {value!r} cannot be written as TOML")


def to_toml(data: dict[str, Any], prefix: str = "") -> str:
    """Nested dicts as TOML: scalars first, then one [table] per nested dict."""
    lines = [f"{json.dumps(k)} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    out = ("\n".join(lines) + "\n") if lines else ""
    for key, value in data.items():
        if isinstance(value, dict):
            name = f"{prefix}.{json.dumps(key)}" if prefix else json.dumps(key)
            out += f"\n[{name}]\n" + to_toml(value, name)
    return out


def render_config(config: dict[str, Any], fmt: str) -> str:
    """A scenario's config dict in the profile's format (an empty config is the server's defaults)."""
    if fmt == "json":
        return json.dumps(config, indent=2) + "\n"
    if fmt == "yaml":
        return yaml.safe_dump(config, sort_keys=False) if config else "{}\n"
    return to_toml(config)


class Workspace:
    """A temp dir holding `workspace/` (the fixture copy), `state/` (the target's own) and the config file."""

    def __init__(self, target: Target, fixture: Path | None, config: dict[str, Any], git: bool,
                 template: Workspace | None = None, parent: Path | None = None,
                 deadline: Deadline = NO_DEADLINE, mark: str | None = None) -> None:
        """Copy `fixture`, or an indexed `template` workspace with its state, into a new temp dir (under `parent`;
        its processes' mark under `mark`)."""
        self.target = target
        self.deadline = deadline
        self.mark = reaper.new_mark(mark)  # every command and server of this workspace runs under it
        self.root = Path(tempfile.mkdtemp(prefix="cruxgate-", dir=parent))
        self.path = self.root / "workspace"
        self.state = self.root / "state"
        self.config_path = self.root / target.config_filename
        try:
            self._fill(fixture, config, git, template)
        except BaseException:
            self.remove()  # a half-made workspace is not left behind
            raise

    def _fill(self, fixture: Path | None, config: dict[str, Any], git: bool, template: Workspace | None) -> None:
        target = self.target
        if template is not None:
            shutil.copytree(template.path, self.path, symlinks=True)
            shutil.copytree(template.state, self.state, symlinks=True)
        elif fixture is not None:
            shutil.copytree(fixture, self.path, symlinks=True)
        else:
            self.path.mkdir()
        self.state.mkdir(exist_ok=True)
        self.write_config(config)
        if git and not (self.path / ".git").exists():
            self._git("init", "-q", "-b", "main")
            self._git("add", "-A")
            self._git("commit", "-q", "--allow-empty", "-m", "cruxgate fixture")
        if template is None:
            for number, argv in enumerate(target.setup, 1):
                self.run(fill(argv, self.placeholders()), target.timeouts["index"], f"setup command {number}")

    def placeholders(self, port: int | str = "") -> dict[str, str]:
        """Values for the profile's argv templates."""
        return {"workspace": str(self.path), "config": str(self.config_path), "state": str(self.state),
                "port": str(port)}

    def env(self) -> dict[str, str]:
        """The environment every command of the target gets: ours plus the profile's, placeholders filled."""
        values = self.placeholders()
        return {**os.environ, **{name: fill_one(value, values) for name, value in self.target.env.items()},
                reaper.MARK: self.mark}

    def write_config(self, config: dict[str, Any]) -> None:
        """(Re)write the config file in the profile's format."""
        self.config_path.write_text(render_config(config, self.target.config_format), encoding="utf-8")

    def run(self, argv: list[str], timeout: float, what: str, bounded: bool = True) -> None:
        """Run a profile command (setup, index, hook) to completion or fail with its output tail.

        Its output is kept as a bounded tail; on a timeout its whole tree is stopped. What it leaves running
        when it succeeds (a daemon a setup command starts) is stopped with the workspace. `bounded`: the run's
        deadline for the target limits it too (not a teardown: it cleans up after the target).
        """
        wait, cut = self.deadline.bound(timeout) if bounded else (timeout, False)
        if cut and wait <= 0:
            raise WorkspaceError(f"{what} not run: {self.deadline.why()}: {argv}")
        env = self.env()
        env[reaper.MARK] = mark = reaper.new_mark(self.mark)
        with OutputTail() as output:
            try:
                process = subprocess.Popen(argv, cwd=self.path, env=env, stdin=subprocess.DEVNULL,
                                           stdout=output.fileno(), stderr=output.fileno(), start_new_session=True)
            except OSError as exc:
                raise WorkspaceError(f"{what} could not start: {argv}: {exc}") from None
            output.started()
            reaper.track(process.pid, mark)
            try:
                returncode = process.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                reaper.stop_tree(process.pid, mark, grace=1)
                process.wait()
                limit = f"was cut: {self.deadline.why()}" if cut else f"did not finish within {wait:g}s"
                raise WorkspaceError(f"{what} {limit}: {argv}\n{output.text(TAIL_CHARS)}") from None
            except BaseException:  # interrupted: the command does not outlive the wait
                reaper.stop_tree(process.pid, mark, grace=1)
                raise
            finally:
                if process.poll() is not None:
                    reaper.untrack(process.pid)
            if returncode != 0:
                raise WorkspaceError(f"{what} exited with status {returncode}: {argv}\n{output.text(TAIL_CHARS)}")

    def index(self) -> None:
        """Run the profile's index_command (a target without one indexes on its own)."""
        if self.target.index_command:
            self.run(fill(self.target.index_command, self.placeholders()), self.target.timeouts["index"],
                     "index_command")

    def hook(self, name: str) -> None:
        """Run the profile's hook `name`."""
        self.run(fill(self.target.hooks[name], self.placeholders()), self.target.timeouts["hook"], f"hook {name}")

    def resolve(self, relative: str) -> Path:
        """A workspace-relative path, refused when it would leave the workspace."""
        candidate = (self.path / relative).resolve()
        if not candidate.is_relative_to(self.path.resolve()):
            raise WorkspaceError(f"edit path {relative!r} leaves the workspace")
        return candidate

    def edit(self, spec: dict[str, Any]) -> None:
        """Apply an edit step: append to, write or delete one file."""
        path = self.resolve(spec["path"])
        if spec.get("delete"):
            path.unlink(missing_ok=True)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        if "write" in spec:
            path.write_text(spec["write"], encoding="utf-8")
        else:
            with path.open("a", encoding="utf-8") as handle:
                handle.write(spec["append"])

    def commit(self, message: str) -> None:
        """git add -A && git commit in the workspace."""
        self._git("add", "-A")
        self._git("commit", "-q", "--allow-empty", "-m", message)

    def _git(self, *args: str) -> None:
        env = {**os.environ, "GIT_AUTHOR_NAME": "cruxgate", "GIT_AUTHOR_EMAIL": "cruxgate@localhost",
               "GIT_COMMITTER_NAME": "cruxgate", "GIT_COMMITTER_EMAIL": "cruxgate@localhost",
               "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
        done = subprocess.run(["git", *args], cwd=self.path, env=env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise WorkspaceError(f"git {' '.join(args)} failed: {tail(done.stderr)}")

    def remove(self) -> None:
        """Run the profile's teardown commands, then delete the temp dir (a failing teardown is only logged)."""
        for number, argv in enumerate(self.target.teardown, 1):
            try:
                self.run(fill(argv, self.placeholders()), self.target.timeouts["hook"], f"teardown command {number}",
                         bounded=False)
            except (WorkspaceError, ProfileError) as exc:
                sys.stderr.write(f"cruxgate: {exc}\n")
        reaper.stop_tree(None, self.mark, grace=0.5)  # what its commands and servers left running
        shutil.rmtree(self.root, ignore_errors=True)
