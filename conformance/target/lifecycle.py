"""Target lifecycle: prepared workspaces with their servers, shared across scenarios when nothing mutates them.

A scenario asks for its target in one call, `Lifecycle.lease(scenario)`: a
lease holds a workspace with the scenario's fixture and config, its leading
workspace steps (edits, hooks, restarts before any call) already applied, the
servers started on demand, and the clean-up.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal

from cruxgate.conformance.spec.model import Scenario, run_leading
from cruxgate.conformance.target import reaper
from cruxgate.conformance.target.deadline import DEFAULT_SECONDS, KNOWN_GOOD, Deadline
from cruxgate.conformance.target.names import NameMap
from cruxgate.conformance.target.profile import Target, fill, http_headers
from cruxgate.conformance.target.wire import Connection, ServerFailure, WireDefect, free_port
from cruxgate.conformance.target.workspace import Workspace, WorkspaceError

FAIL_FAST_PREFIX = "target did not start; see "
SHARED_ENVIRONMENTS = 2  # live shared environments kept at once (items are grouped, so 2 suffice)
PREFETCH = 3  # environments prepared ahead of the scenario that runs


class Environment:
    """A workspace prepared for one fixture+config, and the servers started on it (one per transport)."""

    def __init__(self, runner: Lifecycle, fixture: str, config: dict[str, Any], git: bool) -> None:
        self.runner = runner
        self.target = runner.target
        self.config = config
        self.prewarm = True
        self.servers: dict[str, Connection] = {}
        self.workspace: Workspace | None = None
        self.start_failures: dict[str, ServerFailure] = {}
        self.leading: tuple[int, BaseException | None] = (0, None)  # leading workspace steps applied, error
        self.origin = "(unnamed environment)"  # the scenario it was prepared for, named by fail-fast messages
        self._starts = 0
        # One lock per transport: a background prefetch may be starting the server a scenario asks for.
        self._locks = {transport: threading.Lock() for transport in self.target.transports}
        if self.target.fixed_url:
            return  # a running server: the runner prepares nothing
        if self.target.reuses_index():
            self.workspace = Workspace(self.target, None, config, git, template=runner.template(fixture, git),
                                       parent=runner.temp, deadline=runner.deadline, mark=runner.mark)
            return
        self.workspace = Workspace(self.target, runner.fixture_path(fixture), config, git, parent=runner.temp,
                                   deadline=runner.deadline, mark=runner.mark)
        try:
            self.workspace.index()
        except WorkspaceError:
            self.workspace.remove()
            raise

    def server(self, transport: str) -> Connection:
        """The live server over `transport`, started (or restarted after a crash or hang) on demand."""
        with self._locks[transport]:
            return self._server(transport)

    def _server(self, transport: str) -> Connection:
        current = self.servers.get(transport)
        if current is not None and not current.broken:
            return current
        if current is not None:
            current.close()
            del self.servers[transport]
        if transport in self.start_failures:
            raise self.start_failures[transport]  # a server that cannot start is not retried per scenario
        self.runner.fail_fast([transport])  # no start attempt on a dead target
        try:
            connection = self._connect(transport)
        except ServerFailure as exc:
            if exc.kind == "deadline":
                raise  # the run's deadline cut the start: no verdict on whether the target starts
            self.start_failures[transport] = exc
            self.runner.note_start(transport, self.origin, exc)
            raise
        self.runner.note_start(transport, self.origin, None)
        self.servers[transport] = connection
        return connection

    def _connect(self, transport: str) -> Connection:
        connection = self._open(transport)
        connection.exit_probe = lambda: self.probe_exits(transport)
        return connection

    def probe_exits(self, transport: str) -> tuple[str | None, str | None]:
        """The exit rule's probe: KNOWN_GOOD sent to a fresh server over `transport` (stopped after); the call as sent
        and how the server exited on it (None: it did not exit), or (None, None) when the server lists no
        health_check. The environment's own servers are left as they are."""
        names = NameMap(self.target.names)
        tool, arguments = KNOWN_GOOD
        sent = f"{tool} {json.dumps(arguments)}"
        try:
            fresh = self._open(transport)
        except ServerFailure as exc:
            first = str(exc).splitlines()[0] if str(exc) else exc.kind
            return sent, None if exc.kind == "deadline" else f"it did not start: {first}"
        try:
            if tool not in {entry.get("name") for entry in names.tools(fresh.list_tools())}:
                return None, None
            fresh.call_tool(names.tool(tool), names.arguments(tool, arguments), probe=True)
        except ServerFailure as exc:
            return sent, str(exc).splitlines()[0] if exc.kind == "closed" else None
        finally:
            fresh.close()
        return sent, None

    def _open(self, transport: str) -> Connection:
        spec = self.target.transports[transport]
        timeouts = self.target.timeouts
        self._starts += 1
        if self.target.fixed_url:
            fixed = dict(self.target.fixed_headers)
            return Connection(self.runner.portal, "http", url=self.target.fixed_url, timeouts=timeouts,
                              deadline=self.runner.deadline, headers=(lambda: fixed) if fixed else None).open()
        assert self.workspace is not None
        port = free_port() if transport == "http" else ""
        values = self.workspace.placeholders(port)
        argv = fill(spec["command"], values)
        if not self.prewarm:
            argv += list(self.target.no_prewarm_args or [])
        url = spec["url"].format(port=port) if transport == "http" else None
        headers = None
        if transport == "http" and spec.get("headers"):
            headers = lambda: http_headers(spec, values, timeouts["start"])  # noqa: E731 - read once it listens
        return Connection(self.runner.portal, transport, argv=argv, url=url, cwd=self.workspace.path,
                          env=self.workspace.env(), timeouts=timeouts, defect_sink=self.runner.wire_defects,
                          deadline=self.runner.deadline, headers=headers).open()

    def restart(self, config: dict[str, Any] | None, prewarm: bool) -> None:
        """Stop every server, rewrite the config if given, and let the next call start them again."""
        self.stop_servers()
        self.start_failures.clear()
        if config is not None and self.workspace is not None:
            config = self.target.budget_config(config)
            self.config = config
            self.workspace.write_config(config)
        self.prewarm = prewarm

    def stop_servers(self) -> None:
        """Close every server of this environment."""
        for connection in self.servers.values():
            connection.close()
        self.servers.clear()

    def close(self) -> None:
        """Stop the servers and delete the workspace."""
        self.stop_servers()
        if self.workspace is not None:
            self.workspace.remove()


class Lifecycle:
    """Session-wide owner of the event-loop portal and of the shared environments."""

    def __init__(self, target: Target, fixtures_dir: Path, default_fixture: str,
                 deadline_seconds: float = DEFAULT_SECONDS) -> None:
        self.target = target
        self.tools: dict[str, set[str]] = {}  # transport -> tool names tools/list answered
        self.wire_defects: list[WireDefect] = []  # what any server of the session wrote that is not JSON-RPC
        self.fixtures_dir = fixtures_dir
        self.default_fixture = default_fixture
        # Every workspace of the run lives in one temp folder, removed at close whatever happened to each.
        self.temp = Path(tempfile.mkdtemp(prefix="cruxgate-run-"))
        self.mark = reaper.new_mark()  # every process of this lifecycle's targets runs under it
        # Counted from the first moment the run needs the target: every wait on it ends by then.
        self.deadline = Deadline(deadline_seconds, call_timeout=target.timeouts["call"])
        self.deadline_owner: str | None = None  # the scenario that failed once the deadline had passed
        self._stack = contextlib.ExitStack()
        self.portal = self._stack.enter_context(start_blocking_portal())
        self._shared: OrderedDict[str, Environment | Exception] = OrderedDict()
        self._templates: dict[tuple[str, bool], Workspace | WorkspaceError] = {}
        self._template_lock = threading.Lock()
        self._background = ThreadPoolExecutor(max_workers=PREFETCH, thread_name_prefix="cruxgate-prefetch")
        self._prefetched: dict[str, Future[Environment]] = {}  # scenario id -> its environment being prepared
        self._warming: set[tuple[int, str]] = set()
        # fail fast: a transport whose very first server start failed is a dead target; until a start
        # succeeds, every later start fails at once naming the first failure's scenario (no wait, no workspace).
        self.started: set[str] = set()
        self.dead: dict[str, tuple[str, ServerFailure]] = {}
        reaper.install()  # no server outlives an interrupted or SIGTERM-killed run

    def note_start(self, transport: str, origin: str, failure: ServerFailure | None) -> None:
        """Record a server start: a success keeps the transport alive; a first failure marks it dead."""
        if failure is None:
            self.started.add(transport)
            self.dead.pop(transport, None)
        elif transport not in self.started:
            self.dead.setdefault(transport, (origin, failure))

    def check_deadline(self, scenario_id: str) -> None:
        """Once the run's deadline for the target has passed (or the pace rule ended it), a scenario is not run
        (skipped, naming the scenario that failed for it); when none did (it passed between two scenarios), this
        one fails, naming it."""
        if not self.deadline.passed():
            return
        if self.deadline_owner is not None:
            pytest.skip(f"not run: {self.deadline.why()}; see {self.deadline_owner}")
        self.deadline_owner = scenario_id
        raise ServerFailure(f"{self.deadline.why()} before this scenario started; "
                            "the scenarios after it are not run").tagged("deadline")

    def note_failure(self, scenario_id: str) -> None:
        """A scenario failed: once the deadline has passed, the first such is the one the others point to."""
        if self.deadline.passed() and self.deadline_owner is None:
            self.deadline_owner = scenario_id

    def fail_fast(self, transports: list[str]) -> None:
        """Raise at once when one of `transports` is a dead target: 'target did not start; see <first scenario>'."""
        for transport in transports:
            if transport in self.dead and transport not in self.started:
                origin, failure = self.dead[transport]
                first = str(failure).splitlines()[0]
                raise ServerFailure(f"{FAIL_FAST_PREFIX}{origin} ({first})", failure.stderr_tail)

    def fixture_path(self, fixture: str) -> Path:
        """The fixture repository `fixture`, or WorkspaceError."""
        path = self.fixtures_dir / fixture
        if not path.is_dir():
            raise WorkspaceError(f"fixture {fixture!r} not found in {self.fixtures_dir}")
        return path

    def template(self, fixture: str, git: bool) -> Workspace:
        """The fixture copied and indexed once (relocatable indexes only); environments copy it."""
        key = (fixture, git)
        with self._template_lock:
            return self._template_locked(key)

    def _template_locked(self, key: tuple[str, bool]) -> Workspace:
        fixture, git = key
        if key not in self._templates:
            try:
                workspace = Workspace(self.target, self.fixture_path(fixture), {}, git, parent=self.temp,
                                      deadline=self.deadline, mark=self.mark)
                try:
                    workspace.index()
                except WorkspaceError:
                    workspace.remove()
                    raise
                self._templates[key] = workspace
            except WorkspaceError as exc:
                self._templates[key] = exc
        found = self._templates[key]
        if isinstance(found, WorkspaceError):
            raise found
        return found

    def _prepare(self, scenario: Scenario, transports: Sequence[str] = ()) -> Environment:
        config = self.target.budget_config(dict(scenario.config))
        environment = Environment(self, scenario.fixture or self.default_fixture, config, scenario.git)
        environment.origin = scenario.id  # fail-fast messages name it
        if scenario.mutates():
            # Leading workspace steps run before any server starts, so a server sees the state a hook
            # produced from its first moment (a damaged segment must make prewarm fail).
            count = scenario.leading_steps()
            try:
                run_leading(scenario.steps[:count], Lease(environment, True, 0))
            except BaseException as exc:  # noqa: BLE001 - a skip too: the scenario re-raises it when it runs
                environment.leading = (count, exc)
                return environment  # the scenario reports the failed step; no server needed
            environment.leading = (count, None)
        for transport in transports:
            self._start_quietly(environment, transport)
        return environment

    def prefetch(self, upcoming: list[tuple[Scenario, list[str]]], current: Scenario) -> None:
        """Prepare, in the background, the environments the next scenarios need while `current` runs.

        `upcoming` lists (scenario, transports it uses) in run order. Starting a server is the slow part of
        a scenario and mostly waiting, so up to PREFETCH environments get ready in parallel.
        """
        if self.deadline.passed():
            return  # nothing more is prepared once the run's deadline for the target has passed
        claimed_keys = {current.environment_key(self.default_fixture)} if not current.mutates() else set()
        for scenario, transports in upcoming:
            if len(self._prefetched) >= PREFETCH:
                return
            if scenario.id in self._prefetched or any(t in self.dead for t in transports):
                continue  # nothing is prepared for a dead target
            if not scenario.mutates():
                key = scenario.environment_key(self.default_fixture)
                shared = self._shared.get(key)
                if isinstance(shared, Environment):
                    self._warm(shared, transports)
                if key in self._shared or key in claimed_keys:
                    continue  # it will share an environment that exists or is being prepared
                claimed_keys.add(key)
            self._prefetched[scenario.id] = self._background.submit(self._prepare, scenario, transports)

    def _warm(self, environment: Environment, transports: list[str]) -> None:
        """Start, in the background, the servers a shared environment will be asked for (cross-transport ones)."""
        for transport in transports:
            if transport not in environment.servers and transport not in environment.start_failures \
                    and (id(environment), transport) not in self._warming:
                self._warming.add((id(environment), transport))
                self._background.submit(self._start_quietly, environment, transport)

    @staticmethod
    def _start_quietly(environment: Environment, transport: str) -> None:
        with contextlib.suppress(ServerFailure):  # kept in environment.start_failures for the scenario to report
            environment.server(transport)

    def _claim(self, scenario: Scenario) -> Environment | None:
        """The environment prefetched for `scenario`, if any (preparation errors propagate)."""
        future = self._prefetched.pop(scenario.id, None)
        return future.result() if future is not None else None

    def _drop_prefetched(self, keep: AbstractSet[str] = frozenset()) -> None:
        """Close prefetched environments whose scenario is not in `keep`."""
        for scenario_id in [sid for sid in self._prefetched if sid not in keep]:
            future = self._prefetched.pop(scenario_id)
            with contextlib.suppress(Exception):  # a failed preparation has nothing to close
                future.result().close()

    @contextlib.contextmanager
    def lease(self, scenario: Scenario) -> Iterator[Lease]:
        """A ready target for `scenario`: its environment with the leading steps applied; released on exit."""
        environment, private = self._acquire(scenario)
        try:
            yield Lease(environment, private, environment.leading[0] if private else 0)
        finally:
            if private:
                environment.close()

    def _acquire(self, scenario: Scenario) -> tuple[Environment, bool]:
        """An environment for `scenario` and whether it is private (the caller must release it)."""
        if scenario.mutates():
            return self._claim(scenario) or self._prepare(scenario), True
        key = scenario.environment_key(self.default_fixture)
        if key in self._shared:
            self._shared.move_to_end(key)
            found = self._shared[key]
            if isinstance(found, Exception):
                raise found  # preparing it failed once; do not pay for the same failure again
            return found, False
        while len(self._shared) >= SHARED_ENVIRONMENTS:
            _, oldest = self._shared.popitem(last=False)
            if isinstance(oldest, Environment):
                oldest.close()
        try:
            environment = self._claim(scenario) or self._prepare(scenario)
        except (WorkspaceError, ServerFailure) as exc:
            self._shared[key] = exc
            raise
        self._shared[key] = environment
        return environment, False

    def close(self) -> None:
        """Close every shared environment and the portal; stop every process of the run; remove its temp folder."""
        try:
            self._drop_prefetched()
            self._background.shutdown(wait=True)
            for environment in self._shared.values():
                if isinstance(environment, Environment):
                    environment.close()
            self._shared.clear()
            for template in self._templates.values():
                if isinstance(template, Workspace):
                    template.remove()
            self._stack.close()
        finally:  # whatever failed above, nothing of the run stays behind
            reaper.reap(root=self.mark)  # a server whose close went wrong (or a prefetch leaked) is stopped here
            reaper.uninstall()
            shutil.rmtree(self.temp, ignore_errors=True)


class Lease:
    """One scenario's hold on an environment: its servers, workspace and restart, and how far it is prepared."""

    def __init__(self, environment: Environment, private: bool, first_step: int) -> None:
        self.environment = environment
        self.private = private
        self.first_step = first_step  # steps before it were applied when the environment was prepared
        self.transport = ""

    @property
    def target(self) -> Target:
        """The target the environment runs."""
        return self.environment.target

    @property
    def error(self) -> BaseException | None:
        """The failure (or skip) of a leading step, for the scenario to report."""
        return self.environment.leading[1] if self.private else None

    def server(self, transport: str) -> Connection:
        """The live server over `transport` (started on demand)."""
        return self.environment.server(transport)

    def workspace(self) -> Workspace:
        """The workspace; a running server (--server-url) has none, and the scenario is skipped."""
        if self.environment.workspace is None:
            pytest.skip("the target is a running server (--server-url): the runner cannot change its workspace")
        return self.environment.workspace

    def restart(self, config: dict[str, Any] | None, prewarm: bool) -> None:
        """Stop the servers, optionally rewriting the config; the next call starts them (without prewarm if asked)."""
        if not prewarm and self.target.no_prewarm_args is None:
            pytest.skip(f"target {self.target.name} has no no-prewarm variant (no_prewarm_args)")
        self.environment.restart(config, prewarm)
