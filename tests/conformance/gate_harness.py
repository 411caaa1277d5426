"""Helpers that run the conformance runner as a user would (a pytest subprocess).

Against the fake server and the test spec, or the bundled reference for the CI recipe.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from cruxgate import conformance

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SERVER = HERE / "servers" / "fake_server.py"
SUITE = Path(conformance.__file__).resolve().parent / "suite.yaml"
SERVE = f"{{python}} {SERVER} serve --raw --workspace {{workspace}}"  # the fast raw stdio form
RUN_TIMEOUT = 120
# Plugins the runner does not need; skipping their imports saves ~0.8 s per runner process.
LEAN = ("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:syrupy", "-p", "no:anyio")


@dataclass
class GateRun:
    """One finished runner invocation: exit code, output and its JSON results."""

    returncode: int
    output: str
    results: dict[str, Any] | None
    junit: ElementTree.Element | None
    report: str | None

    def outcomes(self, outcome: str) -> set[str]:
        """Scenario ids with the given JSON outcome."""
        return {r["id"] for r in (self.results or {}).get("scenarios", []) if r["outcome"] == outcome}

    def record(self, scenario_id: str) -> dict[str, Any]:
        """The JSON record of one scenario."""
        return next(r for r in self.results["scenarios"] if r["id"] == scenario_id)


def write_profile(directory: Path, relocatable: bool = True, **timeouts: float) -> Path:
    """The fake server's profile, its script path filled in (optionally indexing every workspace, other timeouts)."""
    text = (DATA / "profile.yaml").read_text(encoding="utf-8").replace("SERVER", str(SERVER))
    if not relocatable:
        text = text.replace("relocatable_index: true", "relocatable_index: false")
    if timeouts:
        text = text.replace("timeouts: {start: 20, call: 5, index: 20, hook: 20}",
                            "timeouts: " + json.dumps({"start": 20, "call": 5, "index": 20, "hook": 20, **timeouts}))
    path = directory / f"profile-{len(list(directory.glob('profile-*')))}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def run_gate(directory: Path, *args: str, flaw: str | None = None, tools: str | None = None,
             profile: Path | None = None, anchor: str | None = None, env: dict[str, str] | None = None) -> GateRun:
    """Run `pytest conformance/suite.yaml` with the test spec against the fake server (--server-cmd swaps a flaw in);
    `env`: variables added to the runner's environment (its servers inherit them)."""
    directory.mkdir(parents=True, exist_ok=True)
    profile = profile or write_profile(directory)
    out = directory / "out"
    out.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "pytest", anchor or str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q", "-rs",
               "--spec-dir", str(DATA / "spec"), "--fixtures-dir", str(DATA / "fixtures"),
               "--target-profile", str(profile), "--conformance-json", str(out / "results.json"),
               "--junitxml", str(out / "junit.xml"), "--conformance-report", str(out / "report.md"), *args]
    if flaw or tools:
        command += ["--server-cmd",
                    SERVE + (f" --flaw {flaw}" if flaw else "") + (f" --tools {tools}" if tools else "")]
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          env={**os.environ, **env} if env else None)
    read = lambda name: (out / name).read_text(encoding="utf-8") if (out / name).exists() else None  # noqa: E731
    results = read("results.json")
    junit = read("junit.xml")
    return GateRun(done.returncode, done.stdout + done.stderr, json.loads(results) if results else None,
                   ElementTree.fromstring(junit) if junit else None, read("report.md"))


PROXY = HERE / "servers" / "allowed_rewrites_proxy.py"  # rewrites, breaks, or twins the reference's answers


def proxied_profile(directory: Path, breaker: str | None = None) -> Path:
    """The reference profile with its stdio server behind the proxy (rewriting, or breaking one rule)."""
    from cruxgate.conformance.target.profile import default_profile_path

    text = default_profile_path().read_text(encoding="utf-8")
    serve = '["{python}", "-m", "cruxgate", "serve-mcp"'
    assert serve in text
    mode = f'"--break", "{breaker}", ' if breaker else ""
    text = text.replace(serve, f'["{{python}}", "{PROXY}", {mode}"--", "{{python}}", "-m", "cruxgate", "serve-mcp"', 1)
    name = f"reference-breaking-{breaker}" if breaker else "reference-behind-allowed-rewrites"
    text = text.replace("name: cruxgate-reference", f"name: {name}")
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "proxied.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def proxied_http_profile(directory: Path, breaker: str | None = None) -> Path:
    """`proxied_profile` with its HTTP transport behind the proxy too: upstream's HTTP transport
    (servers/upstream_http.py) in front of the reference's stdio server, rewriting as over stdio. The breaker (when
    given) is on the HTTP side only: a scenario that also calls over stdio (AP-ERRORS) then fails on its HTTP call,
    the one an HTTP run is for."""
    return _http_side(directory, breaker, lambda stdio, mode: [*stdio[:2], "--http", "{port}", *mode, *stdio[2:]],
                      "http://127.0.0.1:{port}/")


STREAMABLE_PROXY = HERE / "servers" / "streamable_proxy.py"  # the same rewrites over the reference's own HTTP


def proxied_streamable_profile(directory: Path, breaker: str | None = None) -> Path:
    """`proxied_http_profile` over the reference's own Streamable HTTP (SSE answers, a session) instead, relayed
    by servers/streamable_proxy.py."""
    import yaml  # here: only the HTTP breaker runs read a profile back

    from cruxgate.conformance.target.profile import default_profile_path

    http = yaml.safe_load(default_profile_path().read_text(encoding="utf-8"))["transports"]["http"]
    serve = [part.replace("{port}", "INNER_PORT") for part in http["command"]]
    return _http_side(directory, breaker, lambda _, mode: ["{python}", str(STREAMABLE_PROXY), "{port}", *mode, "--",
                                                           *serve], http["url"], http)


def _http_side(directory: Path, breaker: str | None, command: Callable[[list[str], list[str]], list[str]], url: str,
               base: dict[str, Any] | None = None) -> Path:
    """`proxied_profile` (no breaker on stdio) with its HTTP transport `command(stdio command, breaker args)`."""
    import yaml

    path = proxied_profile(directory)
    profile = yaml.safe_load(path.read_text(encoding="utf-8"))
    stdio, mode = profile["transports"]["stdio"]["command"], ["--break", breaker] if breaker else []
    profile["transports"]["http"] = {**(base or {}), "command": command(stdio, mode), "url": url}
    if breaker:
        profile["name"] = f"reference-breaking-{breaker}-over-http"
    path.write_text(yaml.safe_dump(profile, sort_keys=False), encoding="utf-8")
    return path


def run_suite(directory: Path, profile: Path, *args: str,
              env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], dict]:
    """The conformance suite against `profile`, with its JSON results (`env`: variables added to the runner's)."""
    directory.mkdir(parents=True, exist_ok=True)
    out = directory / "results.json"
    done = subprocess.run([sys.executable, "-m", "pytest", str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q",
                           "--target-profile", str(profile), "--conformance-json", str(out), *args],
                          cwd=directory, capture_output=True, text=True, timeout=900,
                          env={**os.environ, **env} if env else None)
    return done, json.loads(out.read_text(encoding="utf-8"))


def side_by_side(jobs: dict[str, Callable[[], Any]], workers: int = 2) -> dict[str, Any]:
    """Each job's result by name, `workers` jobs running at a time (runner runs mostly wait on servers); they start
    in the order given, so a long one listed first runs beside the short ones that follow."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        return {name: future.result() for name, future in futures.items()}


def owner_jobs(base: Path, owners: dict[str, str], profile_for: Any,
               *args: str) -> dict[str, Callable[[], dict[str, Any]]]:
    """One job per breaker: the run (with the runner's `args`) of the scenario that owns its rule, giving its JSON
    results."""
    def job(breaker: str) -> Callable[[], dict[str, Any]]:
        directory = base / breaker
        return lambda: run_suite(directory, profile_for(directory, breaker), *args, "-k", owners[breaker])[1]

    return {breaker: job(breaker) for breaker in owners}


def selected(request: Any, test: str) -> set[str]:
    """The parameter ids of `test` (a function name) this session runs: a module fixture runs only their jobs."""
    return {item.name.removeprefix(test).strip("[]") for item in request.session.items
            if getattr(item, "originalname", None) == test}


def assert_owner_failed(results: dict[str, Any], scenario: str) -> None:
    """The run failed, and it failed the scenario that owns the broken rule."""
    outcomes = {record["id"]: record["outcome"] for record in results["scenarios"]}
    assert outcomes[scenario] == "failed", results["scenarios"]
    assert results["exit_status"] == 1


# Scenarios the reference answers from a shared, unchanged workspace: one server start.
RECIPE_SUBSET = "RC-ENUMS-01 or AP-COMPACT-01"


@dataclass
class RecipeRun:
    """The docs/gate.md CI recipe's commands, run in `directory`: gate, surface snapshot, surface diff."""

    directory: Path
    steps: list[subprocess.CompletedProcess[str]]


def run_recipe(directory: Path) -> RecipeRun:
    """Run the recipe as written (pip-installed form: --pyargs) against the bundled reference profile."""
    from cruxgate.conformance.target.profile import default_profile_path

    reports, profile = directory / "reports", str(default_profile_path())
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "conformance-baseline.yaml").write_text("[]\n", encoding="utf-8")
    commands = [
        [sys.executable, "-m", "pytest", "--pyargs", "cruxgate.conformance", *LEAN, "-p", "no:cacheprovider",
         "--target-profile", profile, "--baseline", "conformance-baseline.yaml",
         "--junitxml", "reports/conformance.xml", "--conformance-json", "reports/conformance.json",
         "--conformance-report", "reports/conformance.md", "-k", RECIPE_SUBSET],
        [sys.executable, "-m", "cruxgate.cli", "surface", "snapshot", "--target-profile", profile,
         "--out", str(reports / "surface.json")],
        [sys.executable, "-m", "cruxgate.cli", "surface", "diff",
         str(reports / "surface.json"), str(reports / "surface.json")],
    ]
    return RecipeRun(directory, [subprocess.run(command, cwd=directory, capture_output=True, text=True,
                                                timeout=RUN_TIMEOUT)
                                 for command in commands])
