"""The target under test: a validated profile plus the command-line overrides that adjust it."""

from __future__ import annotations

import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import yaml
from jsonschema.exceptions import best_match

from cruxgate import extras
from cruxgate.conformance.spec.paths import profiles_dir
from cruxgate.conformance.spec.schemas import validator_for
from cruxgate.conformance.target.options import server_token

PROFILE_SCHEMA_ID = "https://cruxgate.dev/schemas/target-profile.json"
DEFAULT_PROFILE = "reference.yaml"
DEFAULT_TIMEOUTS = {"start": 30.0, "call": 30.0, "index": 180.0, "hook": 60.0}
DEFAULT_HTTP_URL = "http://127.0.0.1:{port}/mcp"
BUDGET_KEY = "search.max_response_bytes"  # the key the spec's scenarios write a smaller payload budget under (004)


class ProfileError(Exception):
    """A target profile that cannot be used; the message names the file and the problem."""


@dataclass
class Target:
    """Everything the runner needs to know to start and drive one server implementation."""

    name: str
    transports: dict[str, dict[str, Any]]
    index_command: list[str] | None = None
    config_format: str = "toml"
    config_filename: str = "config.toml"
    hooks: dict[str, list[str]] = field(default_factory=dict)
    timeouts: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_TIMEOUTS))
    tools: list[str] | None = None
    env: dict[str, str] = field(default_factory=dict)
    no_prewarm_args: list[str] | None = None
    relocatable_index: bool = False
    names: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool -> its name, arguments/fields renames
    setup: list[list[str]] = field(default_factory=list)     # run once per workspace, before indexing
    teardown: list[list[str]] = field(default_factory=list)  # run when a workspace is removed
    fixed_url: str | None = None  # --server-url: a running server the runner neither starts nor prepares
    fixed_headers: dict[str, str] = field(default_factory=dict)  # sent to it (its bearer token)
    # How the target's payload budget is set (R34): the dotted config key that takes the bytes, or None with
    # `budget_fixed` saying why it cannot be set (the scenarios that need a smaller budget then skip).
    budget_key: str | None = BUDGET_KEY
    budget_fixed: str | None = None

    def budget_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """A scenario's config with the budget at the target's key (our `search.max_response_bytes` moved)."""
        section, _, name = BUDGET_KEY.partition(".")
        if self.budget_key in (None, BUDGET_KEY) or name not in (config.get(section) or {}):
            return config
        out = {key: dict(value) if isinstance(value, dict) else value for key, value in config.items()}
        value = out[section].pop(name)
        if not out[section]:
            out.pop(section)
        *parents, leaf = self.budget_key.split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
        return out

    def reuses_index(self) -> bool:
        """Whether one indexed copy of a fixture may be copied for every environment (saves an index run each)."""
        return self.relocatable_index and not any("{config}" in part for part in self.index_command or [])

    def supports(self, transport: str) -> bool:
        """Whether the target can be reached over `transport`."""
        return transport in self.transports


def default_profile_path() -> Path:
    """The bundled reference profile."""
    return profiles_dir() / DEFAULT_PROFILE


def load_profile(path: str | Path) -> dict[str, Any]:
    """Read a profile file and validate it against schemas/target-profile.schema.json."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ProfileError(f"cannot read target profile {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise ProfileError(f"target profile {path} is not valid YAML: {exc}") from None
    error = best_match(validator_for(PROFILE_SCHEMA_ID).iter_errors(data))
    if error is not None:
        where = ".".join(map(str, error.absolute_path)) or "(root)"
        raise ProfileError(f"target profile {path}: {where}: {error.message}")
    return cast("dict[str, Any]", data)  # the profile schema makes a profile an object


def from_profile(data: dict[str, Any]) -> Target:
    """A Target from validated profile data."""
    config = data.get("config") or {}
    return Target(
        name=data["name"],
        transports={name: dict(spec) for name, spec in data["transports"].items()},
        index_command=data.get("index_command"),
        config_format=config.get("format", "toml"),
        config_filename=config.get("filename", "config.toml"),
        hooks=dict(data.get("hooks") or {}),
        timeouts={**DEFAULT_TIMEOUTS, **{k: float(v) for k, v in (data.get("timeouts") or {}).items()}},
        tools=data.get("tools"),
        env=dict(data.get("env") or {}),
        no_prewarm_args=data.get("no_prewarm_args"),
        relocatable_index=bool(data.get("relocatable_index", False)),
        names={tool: dict(spec or {}) for tool, spec in (data.get("names") or {}).items()},
        setup=[list(argv) for argv in data.get("setup") or []],
        teardown=[list(argv) for argv in data.get("teardown") or []],
        budget_key=(data.get("payload_budget") or {}).get("key", None if "payload_budget" in data else BUDGET_KEY),
        budget_fixed=(data.get("payload_budget") or {}).get("fixed"),
    )


def resolve(transport: str, profile: str | None = None, server_cmd: str | None = None,
            server_url: str | None = None, server_token_file: str | None = None) -> Target:
    """The target the options name: a profile, a bare --server-cmd or --server-url, else the bundled reference.

    A target is only what its profile or command says: a server given by its command alone gets no index
    command, no hooks, no config file name and no transport but the one it was started for. A running server
    (--server-url) gets the bearer token of --server-token-file or $CRUXGATE_SERVER_TOKEN, if any.
    """
    if server_url and transport != "http":
        raise ProfileError("--server-url reaches a running server over Streamable HTTP: use it with --target=http")
    if server_token_file and not server_url:
        raise ProfileError("--server-token-file is the token of a running server: use it with --server-url (a "
                           "server the runner starts gets its headers from its profile)")
    if profile:
        target = from_profile(load_profile(profile))
    elif server_cmd or server_url:
        target = Target(name=f"server-cmd: {' '.join(str(server_cmd).split())[:80]}" if server_cmd
                        else f"server-url: {server_url}", transports={})
    else:
        absent = extras.missing(extras.REFERENCE)
        if absent:
            raise ProfileError(
                f"no target named, and the default one, the bundled reference server, is not installed (missing "
                f"{', '.join(absent)}): name your server with --target-profile FILE or --server-cmd CMD, or "
                f"{extras.install_hint(extras.REFERENCE)}")
        target = from_profile(load_profile(default_profile_path()))
    if server_cmd:
        # Only the launch command of the chosen transport changes; a profile's index command, config and hooks stay.
        argv = shlex.split(server_cmd)
        if not argv:
            raise ProfileError("--server-cmd is empty")
        spec = dict(target.transports.get(transport) or {})
        spec["command"] = argv
        # How to authenticate belongs to the launch command (the profile's writes the secret file): not lent.
        spec.pop("headers", None)
        spec.pop("secret_file", None)
        if transport == "http":
            spec.setdefault("url", DEFAULT_HTTP_URL)
        target.transports[transport] = spec
    if server_url:
        target.fixed_url = server_url
        target.transports = {"http": {"url": server_url}}
        try:
            token = server_token(server_token_file)
        except (OSError, ValueError) as exc:
            raise ProfileError(f"cannot read the server's token: {exc}") from None
        if token:
            target.fixed_headers = {"Authorization": f"Bearer {token}"}
    return target


def http_headers(spec: dict[str, Any], values: dict[str, str], wait: float) -> dict[str, str]:
    """The http transport's `headers`, placeholders filled; {secret} is the stripped text of its `secret_file`.

    The server may write that file as it starts: it is waited for up to `wait` seconds (ProfileError after).
    """
    headers: dict[str, str] = spec.get("headers") or {}
    if not headers:
        return {}
    values = dict(values)
    if spec.get("secret_file"):
        path = Path(fill_one(spec["secret_file"], values))
        deadline = time.monotonic() + wait
        while True:
            try:
                values["secret"] = path.read_text(encoding="utf-8", errors="replace").strip()
            except OSError:
                values["secret"] = ""
            if values["secret"]:
                break
            if time.monotonic() >= deadline:
                raise ProfileError(f"the server did not write its secret_file {path} within {wait:g}s")
            time.sleep(0.05)
    return {name: fill_one(value, values) for name, value in headers.items()}


def fill(template: list[str], values: dict[str, str]) -> list[str]:
    """Substitute {python}, {workspace}, {config}, {state} and {port} in an argv template."""
    return [fill_one(part, values) for part in template]


def fill_one(text: str, values: dict[str, str]) -> str:
    """Substitute the placeholders in one string (an argv part or an environment value)."""
    merged = {"python": sys.executable, **values}
    try:
        return text.format(**merged)
    except (KeyError, IndexError, ValueError) as exc:
        raise ProfileError(f"bad placeholder in {text!r}: {exc}") from None
