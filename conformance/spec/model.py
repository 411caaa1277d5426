"""The typed scenario model: documents, requirements, scenarios, steps, expectations and the basis of every check.

The spec loader (conformance/spec/loader.py) is the only place that turns
YAML into these objects; every other module reads the model. A step kind is
one class here (its YAML key, how it parses, describes and runs itself, what
it calls, checks, captures, evaluates and needs, and whether it changes the
workspace): adding one touches that class and the spec format schema, nothing
else (the loader's cross-checks and the coverage table ask the step).

Every check has a basis: the document statement it enforces (with its level and
the quoted sentence), the error registry, the MCP specification, or a reading of
ours where the documents are silent (an id of spec/readings.yaml). Only quoted
document MUSTs and the registry gate by default; the rest are warnings
(``--strict`` gates them too).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, Protocol

if TYPE_CHECKING:
    from cruxgate.conformance.target.wire import Connection
    from cruxgate.conformance.target.workspace import Workspace

LEVELS = ("MUST", "SHOULD", "MAY")
DOCUMENT, REGISTRY, MCP, READING = "document", "registry", "mcp", "reading"
BASIS_KINDS = (DOCUMENT, REGISTRY, MCP, READING)
READING_REF = re.compile(r"^reading (R[0-9]+)$")  # `basis: reading R7` names an entry of spec/readings.yaml
# A quote that can gate holds the normative word, "only", or the number it enforces (a registry rule needs none).
NORMATIVE_WORDS = re.compile(r"\bMUST\b|\bonly\b|[0-9]")
# Check arguments that are operands (a `$capture` or a JMESPath over the answer); the others are literals.
OPERAND_ARGS = ("path", "a", "b", "total")
WIRE_SCENARIO_ID = "MCP-WIRE-01"  # the runner's built-in wire scenario: it judges no requirement, so it is no run
CHECK_KEYS = ("check", "basis", "when_present")  # the keys of a YAML check that are not its arguments
CAPTURE_REF = re.compile(r"^\$([a-z][a-z0-9_]*)$")  # an operand naming a value an earlier step captured


@dataclass(frozen=True, slots=True)
class Quote:
    """The exact words a check enforces: a source (`000`, or `README` for seeds/README.md), a line, the words."""

    file: str
    line: int
    text: str

    @classmethod
    def from_yaml(cls, body: Mapping[str, Any] | None) -> Quote | None:
        """A YAML `quote: {file, line, text}` (None when absent)."""
        return None if not body else cls(str(body["file"]), int(body["line"]), str(body["text"]))

    @property
    def normative(self) -> bool:
        """Whether the words can gate: they hold MUST / MUST NOT, "only", or a number."""
        return bool(NORMATIVE_WORDS.search(self.text))

    def __str__(self) -> str:
        return f'{self.file}:{self.line} "{self.text}"'


@dataclass(frozen=True, slots=True)
class Basis:
    """Why a check exists: which statement it enforces (quoted), at which level; or which reading of ours."""

    kind: str   # document | registry | mcp | reading
    ref: str    # a seed anchor ("000 > Requirement: ..."), what the registry / MCP says, or a reading id (R7)
    level: str  # MUST | SHOULD | MAY, or `reading` for a reading of ours (never MUST)
    quote: Quote | None = None
    reading_ref: str | None = None  # an MCP convention's entry in spec/readings.yaml (R3, R15, R16)

    @property
    def gates(self) -> bool:
        """Whether a breach fails the run by default (document MUSTs, always quoted, and the registry)."""
        return self.kind == REGISTRY or (self.kind == DOCUMENT and self.level == "MUST")

    @property
    def reading(self) -> str | None:
        """The reading id (R7) when the basis is a reading of ours, or the reading that documents an MCP convention."""
        return self.ref if self.kind == READING else self.reading_ref

    @property
    def severity(self) -> str:
        """'error' for a gating basis, else 'warning'."""
        return "error" if self.gates else "warning"

    def __str__(self) -> str:
        if self.kind == READING:
            return f"reading {self.ref} (docs/readings.md)"
        quoted = f" {self.quote}" if self.quote is not None else ""
        return f"{self.ref}{quoted} [{self.kind} {self.level}]"


def reading(reading_id: str) -> Basis:
    """The basis of a check enforcing reading `reading_id` of spec/readings.yaml (a warning at most)."""
    return Basis(READING, reading_id, READING)


# Bases the runner applies on its own, to every answer.
REGISTRY_ENVELOPE = Basis(REGISTRY, "error registry: a tool failure carries {error: {code, message, data?}} "
                          "with a registry code (seeds/README.md, 'Referenced but not provided')", "MUST",
                          Quote("README", 34, "Every tool failure is an envelope"))
MCP_IS_ERROR = Basis(MCP, "MCP specification, tools: a tool execution error is a result with isError: true", "SHOULD",
                     reading_ref="R3")
MCP_STRUCTURED_TEXT = Basis(MCP, "MCP specification, tools: structuredContent SHOULD also be sent as JSON "
                            "in a text content item", "SHOULD", reading_ref="R16")
MCP_STDIO = Basis(MCP, "MCP specification, stdio transport: the server MUST NOT write anything to stdout "
                  "that is not a valid MCP message", "MUST", reading_ref="R15")
JSONRPC_NOTIFICATION = Basis(MCP, "JSON-RPC 2.0 (MCP base protocol): the server MUST NOT reply to a notification",
                             "MUST", reading_ref="R15")
MCP_IDS = Basis(MCP, "JSON-RPC 2.0 (MCP base protocol): a response carries the id of the request it answers", "MUST")


@dataclass(frozen=True, slots=True)
class ToolRule:
    """A tool the documents define: mandatory, or part of an optional capability group a profile may claim."""

    name: str
    source: str                 # the seed anchor that defines the tool
    surface: str | None = None  # the scenario that owns the tool's presence (the rest are blocked by it)
    group: str | None = None    # optional capability group (e.g. scored-search); None: mandatory
    output: Basis | None = None  # the basis of its payload contract (the fuzz phase's FZ-OUTPUT): quoted, or a reading


@dataclass(frozen=True, slots=True)
class Requirement:
    """One requirement of a spec document."""

    id: str
    title: str
    source: str
    level: str
    statement: str
    coverage: str
    document: str
    also: tuple[str, ...] = ()
    reason: str | None = None
    benchmark: str | None = None


@dataclass(frozen=True, slots=True)
class Check:
    """A named check with its arguments as written (operands are resolved when it runs)."""

    name: str
    args: Mapping[str, Any]
    basis: Basis
    when_present: bool = False  # an operand that selects nothing leaves the check unjudged (said), not failed

    def describe(self) -> str:
        """`name {args}` for messages."""
        return f"{self.name} {json.dumps(dict(self.args), ensure_ascii=False, default=str)}"

    def operands(self) -> Iterator[str]:
        """Every operand string of the check: its operand arguments and the strings among its `parts`."""
        for name in OPERAND_ARGS:
            if isinstance(self.args.get(name), str):
                yield self.args[name]
        for part in self.args.get("parts", []):
            if isinstance(part, str):
                yield part


@dataclass(frozen=True, slots=True)
class Expect:
    """What one answer must be: outcome, error code, a schema fragment and named checks."""

    outcome: str = "success"        # success | error | any
    error_code: str | None = None
    schema: Any = None
    schema_basis: Basis | None = None
    checks: tuple[Check, ...] = ()

    def bases(self) -> tuple[Basis, ...]:
        """The basis of the outcome and schema (when judged) and of each named check."""
        judged = self.schema is not None or self.outcome != "any" or self.error_code is not None
        own = (self.schema_basis,) if judged and self.schema_basis is not None else ()
        return own + tuple(check.basis for check in self.checks)


def parse_basis(body: str | Mapping[str, Any] | None, default: Basis) -> Basis:
    """A basis as YAML writes it: `registry`, `mcp: <rule>`, `reading R7`, or `{source?, quote}` (quoted)."""
    if body is None:
        return default
    if isinstance(body, Mapping):
        return Basis(DOCUMENT, str(body.get("source", default.ref)), str(body.get("level", default.level)),
                     Quote.from_yaml(body.get("quote")))
    if body == REGISTRY:
        return REGISTRY_ENVELOPE
    match = READING_REF.match(body)
    if match:
        return reading(match.group(1))
    kind, _, rest = body.partition(":")
    if kind == MCP and rest.strip():
        return Basis(MCP, rest.strip(), default.level)
    return Basis(DOCUMENT, body, default.level)


def parse_check(body: Mapping[str, Any], default: Basis) -> Check:
    """A YAML check: its name, its arguments as written, its basis (default: the enclosing one)."""
    args = {key: value for key, value in body.items() if key not in CHECK_KEYS}
    return Check(body["check"], args, parse_basis(body.get("basis"), default), bool(body.get("when_present")))


def parse_expect(body: Mapping[str, Any] | None, default: Basis) -> Expect:
    """A YAML expect block; its `basis` is the default of its schema and checks."""
    body = body or {}
    basis = parse_basis(body.get("basis"), default)
    return Expect(outcome=body.get("outcome", "error" if "error_code" in body else "success"),
                  error_code=body.get("error_code"), schema=body.get("schema"), schema_basis=basis,
                  checks=tuple(parse_check(check, basis) for check in body.get("checks", [])))


class WorkspaceContext(Protocol):
    """What a workspace step may use: the workspace and a restart (no server, no judge)."""

    transport: str

    def workspace(self) -> Workspace: ...

    def restart(self, config: dict[str, Any] | None, prewarm: bool) -> None: ...


class StepContext(Protocol):
    """What a running step may use: servers, the workspace, captures and the judge."""

    transport: str
    captures: dict[str, Any]

    def server(self, transport: str | None) -> Connection: ...

    def workspace(self) -> Workspace: ...

    def restart(self, config: dict[str, Any] | None, prewarm: bool) -> None: ...

    def call(self, tool: str, args: dict[str, Any], transport: str | None) -> Any: ...

    def list_tools(self, transport: str | None) -> list[dict[str, Any]]: ...

    def judge(self, expect: Expect, response: Any) -> None: ...

    def judge_listing(self, expect: Expect, listing: dict[str, Any]) -> None: ...

    def capture(self, spec: Mapping[str, str], payload: Any) -> None: ...

    def fail(self, message: str) -> NoReturn: ...

    def compare(self, check: Check) -> None: ...

    def skip(self, reason: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a scenario; each kind is a subclass registered under its YAML key."""

    kind: ClassVar[str]
    mutates: ClassVar[bool] = False       # changes the workspace, index or server: no sharing
    workspace_only: ClassVar[bool] = False  # needs no running server (may run before servers start)

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        """The step from its YAML mapping (`basis`: the scenario's, for the checks it carries)."""
        return cls()

    def transport(self) -> str | None:
        """The transport this step names, if any."""
        return None

    def tools(self) -> tuple[str, ...]:
        """The tools this step calls."""
        return ()

    def checks(self) -> tuple[Check, ...]:
        """The named checks this step judges with (their operands must compile and be captured first)."""
        return ()

    def bases(self) -> tuple[Basis, ...]:
        """The basis of everything this step can fail on (its checks, and its answer's outcome and schema)."""
        return tuple(check.basis for check in self.checks())

    def captures(self) -> Mapping[str, str]:
        """{name: JMESPath} of the values this step captures for later steps."""
        return {}

    def conditions(self) -> tuple[tuple[str, str], ...]:
        """(where in the step's YAML, JMESPath) of each condition the step evaluates itself."""
        return ()

    def hooks(self) -> tuple[str, ...]:
        """The target hooks this step runs (the scenario must list them)."""
        return ()

    def needs(self) -> tuple[str, ...]:
        """What this step asks of a target beyond a started server, as the coverage table says it."""
        return ()

    def describe(self, default_transport: str) -> str:
        """A short human description of the step."""
        return self.kind

    def run(self, context: StepContext) -> None:
        """Perform the step."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class WorkspaceStep(Step):
    """A step that changes the workspace, index or server and needs no running server."""

    mutates: ClassVar[bool] = True
    workspace_only: ClassVar[bool] = True

    def run(self, context: WorkspaceContext) -> None:  # a StepContext is a WorkspaceContext too
        """Perform the step on the workspace."""
        raise NotImplementedError


STEP_KINDS: dict[str, type[Step]] = {}


class StepFailed(AssertionError):
    """A step that failed; carries its number and a one-line description for the report."""

    def __init__(self, index: int, description: str, cause: BaseException) -> None:
        super().__init__(f"step {index + 1} ({description}): {cause}")
        self.index, self.description, self.cause = index, description, cause


@contextmanager
def _as_step(index: int, step: Step, transport: str) -> Iterator[None]:
    """Any failure inside is step `index`'s, named as such (a skip passes through)."""
    import pytest

    try:
        yield
    except pytest.skip.Exception:
        raise
    except Exception as exc:  # a broken server or workspace is this step's failure
        raise StepFailed(index, step.describe(transport), exc) from exc


def run_steps(steps: tuple[Step, ...], context: StepContext, start: int = 0,
              on_step: Callable[[int], None] | None = None) -> None:
    """Run steps[start:] in order; the first failure stops them as a StepFailed."""
    for index in range(start, len(steps)):
        if on_step is not None:
            on_step(index)
        with _as_step(index, steps[index], context.transport):
            steps[index].run(context)


def run_leading(steps: Sequence[Step], context: WorkspaceContext) -> None:
    """Run a scenario's leading workspace steps, before any server starts; the first failure is a StepFailed."""
    for index, step in enumerate(steps):
        if not isinstance(step, WorkspaceStep):
            raise TypeError(f"step {index + 1} ({step.kind}) needs a server; it cannot lead")
        with _as_step(index, step, context.transport):
            step.run(context)


def step_kind(cls: type[Step]) -> type[Step]:
    """Register a step class under its YAML key."""
    STEP_KINDS[cls.kind] = cls
    return cls


@step_kind
@dataclass(frozen=True, slots=True)
class Call(Step):
    """call: a tool call whose answer is judged and captured."""

    kind: ClassVar[str] = "call"
    tool: str
    args: Mapping[str, Any] = field(default_factory=dict)
    via: str | None = None
    expect: Expect = field(default_factory=Expect)
    capture: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        return cls(tool=step["call"], args=step.get("args") or {}, via=step.get("transport"),
                   expect=parse_expect(step.get("expect"), basis), capture=step.get("capture") or {})

    def transport(self) -> str | None:
        return self.via

    def tools(self) -> tuple[str, ...]:
        return (self.tool,)

    def checks(self) -> tuple[Check, ...]:
        return self.expect.checks

    def bases(self) -> tuple[Basis, ...]:
        return self.expect.bases()

    def captures(self) -> Mapping[str, str]:
        return self.capture

    def describe(self, default_transport: str) -> str:
        args = json.dumps(dict(self.args), ensure_ascii=False)
        return f"call {self.tool} {args[:200]} over {self.via or default_transport}"

    def argument_refs(self) -> tuple[str, ...]:
        """The captures its arguments name (an argument written `$name` takes that earlier capture's value)."""
        return tuple(match.group(1) for value in self.args.values()
                     if isinstance(value, str) and (match := CAPTURE_REF.match(value)))

    def run(self, context: StepContext) -> None:
        args = {key: context.captures.get(match.group(1)) if isinstance(value, str) and
                (match := CAPTURE_REF.match(value)) else value for key, value in self.args.items()}
        response = context.call(self.tool, args, self.via)
        context.judge(self.expect, response)
        context.capture(self.capture, response.payload)


@step_kind
@dataclass(frozen=True, slots=True)
class Compare(Step):
    """compare: a named check over captured values."""

    kind: ClassVar[str] = "compare"
    check: Check

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        return cls(check=parse_check(step["compare"], basis))

    def checks(self) -> tuple[Check, ...]:
        return (self.check,)

    def describe(self, default_transport: str) -> str:
        return f"compare {self.check.name}"

    def run(self, context: StepContext) -> None:
        context.compare(self.check)


@step_kind
@dataclass(frozen=True, slots=True)
class ListTools(Step):
    """list_tools: the tools/list answer, judged by schema and checks."""

    kind: ClassVar[str] = "list_tools"
    via: str | None = None
    expect: Expect = field(default_factory=Expect)
    capture: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        body = step["list_tools"] or {}
        return cls(via=body.get("transport"), expect=parse_expect(body.get("expect"), basis),
                   capture=body.get("capture") or {})

    def transport(self) -> str | None:
        return self.via

    def checks(self) -> tuple[Check, ...]:
        return self.expect.checks

    def bases(self) -> tuple[Basis, ...]:
        return self.expect.bases()

    def captures(self) -> Mapping[str, str]:
        return self.capture

    def describe(self, default_transport: str) -> str:
        return f"list tools over {self.via or default_transport}"

    def run(self, context: StepContext) -> None:
        listing = {"tools": context.list_tools(self.via)}
        context.judge_listing(self.expect, listing)
        context.capture(self.capture, listing)


@step_kind
@dataclass(frozen=True, slots=True)
class Edit(WorkspaceStep):
    """edit: append to, write or delete one workspace file."""

    kind: ClassVar[str] = "edit"
    path: str
    append: str | None = None
    write: str | None = None
    delete: bool = False

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        body = step["edit"]
        return cls(path=body["path"], append=body.get("append"), write=body.get("write"),
                   delete=bool(body.get("delete")))

    def describe(self, default_transport: str) -> str:
        verb = "delete" if self.delete else "write" if self.write is not None else "append to"
        return f"edit: {verb} {self.path}"

    def run(self, context: WorkspaceContext) -> None:
        target = context.workspace().resolve(self.path)
        if self.delete:
            target.unlink(missing_ok=True)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        if self.write is not None:
            target.write_text(self.write, encoding="utf-8")
        else:
            with target.open("a", encoding="utf-8") as handle:
                handle.write(self.append or "")


@step_kind
@dataclass(frozen=True, slots=True)
class Commit(WorkspaceStep):
    """commit: git add -A && git commit in the workspace."""

    kind: ClassVar[str] = "commit"
    message: str

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        return cls(message=step["commit"])

    def describe(self, default_transport: str) -> str:
        return f"commit {self.message}"

    def run(self, context: WorkspaceContext) -> None:
        context.workspace().commit(self.message)


@step_kind
@dataclass(frozen=True, slots=True)
class Reindex(WorkspaceStep):
    """reindex: run the profile's index command."""

    kind: ClassVar[str] = "reindex"

    def run(self, context: WorkspaceContext) -> None:
        context.workspace().index()


@step_kind
@dataclass(frozen=True, slots=True)
class Restart(WorkspaceStep):
    """restart: stop the servers, optionally with another config or without prewarm."""

    kind: ClassVar[str] = "restart"
    config: Mapping[str, Any] | None = None
    prewarm: bool = True

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        body = step["restart"] or {}
        return cls(config=body.get("config"), prewarm=body.get("prewarm", True))

    def needs(self) -> tuple[str, ...]:
        return () if self.prewarm else ("no-prewarm start",)

    def run(self, context: WorkspaceContext) -> None:
        context.workspace()
        context.restart(dict(self.config) if self.config is not None else None, self.prewarm)


@step_kind
@dataclass(frozen=True, slots=True)
class Hook(WorkspaceStep):
    """hook: run a target hook that puts the index into a state no client can produce."""

    kind: ClassVar[str] = "hook"
    name: str

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        return cls(name=step["hook"])

    def hooks(self) -> tuple[str, ...]:
        return (self.name,)

    def describe(self, default_transport: str) -> str:
        return f"hook {self.name}"

    def run(self, context: WorkspaceContext) -> None:
        context.workspace().hook(self.name)


@step_kind
@dataclass(frozen=True, slots=True)
class Wait(Step):
    """wait: call a tool until a JMESPath condition holds or the timeout passes."""

    kind: ClassVar[str] = "wait"
    tool: str
    until: str
    timeout: float
    args: Mapping[str, Any] = field(default_factory=dict)
    interval: float = 0.2

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        body = step["wait"]
        return cls(tool=body["call"], until=body["until"], timeout=float(body["timeout"]),
                   args=body.get("args") or {}, interval=float(body.get("interval", 0.2)))

    def tools(self) -> tuple[str, ...]:
        return (self.tool,)

    def conditions(self) -> tuple[tuple[str, str], ...]:
        return (("wait.until", self.until),)

    def describe(self, default_transport: str) -> str:
        return f"wait for {self.until} via {self.tool}"

    def run(self, context: StepContext) -> None:
        import jmespath

        deadline = time.monotonic() + self.timeout
        while True:
            last = context.call(self.tool, dict(self.args), None).payload
            if jmespath.search(self.until, last):
                return
            if time.monotonic() >= deadline:
                context.fail(f"{self.until!r} did not become true within {self.timeout:g}s; last payload: "
                             f"{json.dumps(last, ensure_ascii=False)[:400]}")
            time.sleep(self.interval)


@step_kind
@dataclass(frozen=True, slots=True)
class Require(Step):
    """require: skip the scenario, saying why, unless a condition over the captures holds (its WHEN did not happen)."""

    kind: ClassVar[str] = "require"
    that: str
    reason: str

    @classmethod
    def from_yaml(cls, step: Mapping[str, Any], basis: Basis) -> Step:
        body = step["require"]
        return cls(that=body["that"], reason=body["reason"])

    def conditions(self) -> tuple[tuple[str, str], ...]:
        return (("require.that", self.that),)

    def describe(self, default_transport: str) -> str:
        return f"require {self.that}"

    def run(self, context: StepContext) -> None:
        import jmespath

        match = CAPTURE_REF.match(self.that)
        value = context.captures.get(match.group(1)) if match else jmespath.search(self.that, context.captures)
        if not value:
            context.skip(f"precondition not met: {self.reason}")


@dataclass(frozen=True, slots=True)
class Scenario:
    """One replayable scenario (or a requirement's stand-in when it has none), with its requirement."""

    id: str
    title: str
    source: str
    level: str
    when: str
    then: str
    coverage: str                    # executable | hook | benchmark | informative
    requirement: Requirement
    also: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    hooks: tuple[str, ...] = ()
    transports: tuple[str, ...] = ()
    fixture: str | None = None
    git: bool = False
    config: Mapping[str, Any] = field(default_factory=dict)
    reason: str | None = None
    benchmark: str | None = None
    declared_basis: Basis | None = None  # the default basis of its checks: its quoted source, or a reading
    steps: tuple[Step, ...] = ()

    @property
    def document(self) -> str:
        """The spec document the scenario belongs to."""
        return self.requirement.document

    @property
    def basis(self) -> Basis:
        """The default basis of the scenario's checks: as declared (quoted source or reading), else its source."""
        return self.declared_basis or Basis(DOCUMENT, self.source, self.level)

    @property
    def runs(self) -> bool:
        """Whether the scenario is executed over the wire (not reported as informative or benchmark)."""
        return self.coverage in ("executable", "hook")

    def mutates(self) -> bool:
        """Whether it changes its workspace or server (then it cannot share them)."""
        return any(step.mutates for step in self.steps)

    def leading_steps(self) -> int:
        """How many steps at the start change only the workspace (they run before any server starts)."""
        count = 0
        while count < len(self.steps) and self.steps[count].workspace_only:
            count += 1
        return count

    def environment_key(self, default_fixture: str) -> str:
        """What makes two scenarios' environments interchangeable: fixture, git and config."""
        return json.dumps({"fixture": self.fixture or default_fixture, "git": self.git, "config": self.config},
                          sort_keys=True, default=dict)

    def used_transports(self, default: str) -> list[str]:
        """Every transport the scenario uses (its declared ones, then any a step names)."""
        used = list(self.transports)
        for step in self.steps:
            chosen = step.transport()
            if chosen and chosen not in used:
                used.append(chosen)
        return used or [default]

    def main_transport(self, default: str) -> str:
        """The transport unmarked steps use: the first of a cross-transport scenario's, else the run's."""
        return self.used_transports(default)[0] if self.transports else default
