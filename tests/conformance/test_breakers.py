"""The breaker catalogue: every MUST statement it lists is broken alone, and the scenario that owns it fails.

Each breaker (servers/breakers.py) runs through the allowed-rewrites proxy in front of the reference, with
only its owning scenario selected. The default run takes the catalogue's sample; CRUXGATE_BREAKERS=all runs
every breaker (docs/breakers.md, docs/conformance.md "The runner's own tests"). The coverage table in
docs/breakers.md is generated from the catalogue and kept equal by a test.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cruxgate.conformance.spec.loader import load_scenarios
from cruxgate.conformance.spec.model import DOCUMENT, Call, Quote, Scenario
from gate_harness import (
    PROXY,
    assert_owner_failed,
    owner_jobs,
    proxied_http_profile,
    proxied_profile,
    proxied_streamable_profile,
    run_suite,
    selected,
    side_by_side,
)
from test_fairness import OWNERS

sys.path.insert(0, str(PROXY.parent))
from breakers import BY_NAME, CATALOGUE, CATALOGUE_000, STATEMENTS_000
from breakers_rest import DOCUMENTS, UNBROKEN

ALL = os.environ.get("CRUXGATE_BREAKERS", "sample") == "all"
CHOSEN = [breaker for breaker in CATALOGUE if ALL or breaker.sample]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "breakers.md"
SEEDS = Path(os.environ.get("CRUXGATE_SEEDS", "../shared/seeds"))  # .ci/run sets it (tests/spec/test_readings.py)
HEADER = """# The breaker catalogue

Generated from `tests/conformance/servers/breakers.py` by
`python3 tests/conformance/test_breakers.py`; a test keeps this page equal to it.

Each row is one MUST statement of the source documents, the one-rule rewrite that breaks it (applied by the
allowed-rewrites proxy in front of the reference server) and the scenario that must fail because of it.
`pytest tests/conformance/test_breakers.py` runs the rows marked *sample*;
`CRUXGATE_BREAKERS=all pytest tests/conformance/test_breakers.py` runs every row. These runs are over stdio; every
run also takes three rows over HTTP (`HTTP_SUBSET`: one per kind of answer; docs/conformance.md says why three), in
both dialects the gate's client reads: upstream's (one JSON answer per POST) and the reference's Streamable HTTP
(SSE). The breakers of `tests/conformance/test_fairness.py` (OWNERS) run in every default run and are not repeated here.
"""


def killer(name: str) -> str:
    """The scenario that kills a breaker of the catalogue or of test_fairness.py's OWNERS."""
    return BY_NAME[name].scenario if name in BY_NAME else OWNERS[name]


def statements_000() -> list[str]:
    """Every line of 000 that holds a MUST, with its breakers (and their killing scenarios) or why none."""
    covered = sum(1 for statement in STATEMENTS_000 if statement.breakers)
    lines = ["", "## The MUST statements of 000", "",
             f"{len(STATEMENTS_000)} lines of 000 hold a MUST: {covered} have a breaker, "
             f"{len(STATEMENTS_000) - covered} cannot have one (the reason says why, as it says what a breaker leaves "
             "unreached). A breaker in *italics* is one of test_fairness.py's OWNERS.", "",
             "| line | statement | breakers (killed by) |", "|---|---|---|"]
    for statement in STATEMENTS_000:
        quote = statement.quote.replace("|", "\\|")
        told = ", ".join((f"`{name}`" if name in BY_NAME else f"*`{name}`*") + f" ({killer(name)})"
                         for name in statement.breakers)
        told = f"{told}. {statement.reason}" if told and statement.reason else told or f"none: {statement.reason}"
        lines.append(f"| {statement.line} | {quote} | {told} |")
    return lines


def table() -> str:
    """The coverage table: statement -> breaker -> killing scenario; then 000's statements, each covered or not."""
    lines = [HEADER, f"{len(CATALOGUE)} breakers.", "",
             "| statement | source | breaker | what it does | killed by | run |", "|---|---|---|---|---|---|"]
    for breaker in CATALOGUE:
        quote = breaker.quote.replace("|", "\\|")
        lines.append(f"| {quote} | {breaker.source} | `{breaker.name}` | {breaker.summary} | {breaker.scenario} | "
                     f"{'sample' if breaker.sample else 'all'} |")
    return "\n".join(lines + statements_000()) + "\n\n" + coverage()


def gating_statements(scenarios: list[Scenario]) -> list[tuple[Scenario, Quote]]:
    """Each (scenario, quoted sentence) a replayed scenario of DOCUMENTS gates on, in spec order."""
    found = []
    for scenario in scenarios:
        if scenario.document in DOCUMENTS and scenario.runs:
            quotes = [basis.quote for step in scenario.steps for basis in step.bases()
                      if basis.gates and basis.kind == DOCUMENT and basis.quote is not None]
            found += [(scenario, quote) for quote in dict.fromkeys(quotes)]
    return found


def not_replayed(scenarios: list[Scenario]) -> list[Scenario]:
    """The MUST scenarios of DOCUMENTS on a document basis that no wire answer judges (benchmarks, informative)."""
    return [scenario for scenario in scenarios if scenario.document in DOCUMENTS and not scenario.runs
            and scenario.level == "MUST" and scenario.basis.kind == DOCUMENT]


def breakers_of(scenario: str) -> list[str]:
    """The one-rule breakers its scenario kills: the catalogue's, and test_fairness.py's (OWNERS)."""
    return ([f"`{breaker.name}`" for breaker in CATALOGUE if breaker.scenario == scenario]
            + [f"`{name}` (fairness)" for name, owner in OWNERS.items() if owner == scenario])


def coverage() -> str:
    """Statement -> breakers -> scenario for every gating statement of DOCUMENTS, then what has no breaker and why."""
    scenarios = load_scenarios()
    rows, missing = [], []
    for scenario, quote in gating_statements(scenarios):
        words = quote.text.replace("|", "\\|")
        names = breakers_of(scenario.id)
        rows.append(f"| {words} | {quote.file}:{quote.line} | {scenario.id} | {', '.join(names) or '—'} |")
        if not names:
            missing.append(f"| {scenario.id} | {quote.file}:{quote.line} | {UNBROKEN.get(scenario.id, '?')} |")
    for scenario in not_replayed(scenarios):
        why = scenario.reason or f"a {scenario.coverage} target: benchmarks/ measures it over many calls"
        missing.append(f"| {scenario.id} | {scenario.source} | {why} |")
    broken = sum(1 for line in rows if not line.endswith("| — |"))
    return "\n".join([
        f"## Coverage of {', '.join(f'`spec/{name}.yaml`' for name in DOCUMENTS)}", "",
        "Each gating statement (a quoted MUST, 'only' or number) a replayed scenario of these files judges, and the "
        "breakers its scenario kills (this catalogue's, and `test_fairness.py`'s OWNERS, marked *fairness*).", "",
        f"{len(rows)} (scenario, statement) pairs; {broken} with a breaker, {len(rows) - broken} without; "
        f"{len(not_replayed(scenarios))} MUST scenarios no single answer judges.", "",
        "| statement | source | scenario | breakers |", "|---|---|---|---|", *rows, "",
        "### Without a breaker", "", "| scenario | source | why |", "|---|---|---|", *missing, ""])


def test_each_breaker_names_a_must_scenario_of_the_spec_and_a_distinct_rewrite():
    scenarios = {scenario.id: scenario for scenario in load_scenarios()}
    for breaker in CATALOGUE:
        assert breaker.scenario in scenarios, breaker.name
        assert scenarios[breaker.scenario].level == "MUST", breaker.name
        assert scenarios[breaker.scenario].runs, breaker.name
    assert len({breaker.rewrite for breaker in CATALOGUE}) == len(CATALOGUE) == len(BY_NAME)


def test_each_quote_stands_at_its_line_in_the_seeds():
    if not SEEDS.is_dir():
        pytest.skip(f"the seeds are not at {SEEDS} (set CRUXGATE_SEEDS)")
    files = {path.name[:3]: path.read_text(encoding="utf-8").splitlines() for path in SEEDS.glob("0*.txt")}
    for breaker in CATALOGUE:
        seed, line = breaker.source.split(":")
        assert breaker.quote in files[seed][int(line) - 1], breaker.name


def test_each_must_line_of_000_is_listed_with_its_words():
    if not SEEDS.is_dir():
        pytest.skip(f"the seeds are not at {SEEDS} (set CRUXGATE_SEEDS)")
    seed = next(SEEDS.glob("000_*.txt")).read_text(encoding="utf-8").splitlines()
    assert [statement.line for statement in STATEMENTS_000] == [n for n, line in enumerate(seed, 1) if "MUST" in line]
    for statement in STATEMENTS_000:
        assert statement.quote in seed[statement.line - 1], statement.line


def test_each_statement_of_000_has_known_breakers_or_says_why_not():
    for statement in STATEMENTS_000:
        assert statement.breakers or statement.reason, statement.line  # a reason may also say what is left
        assert all(name in BY_NAME or name in OWNERS for name in statement.breakers), statement.line
    listed = {(name, statement.line) for statement in STATEMENTS_000 for name in statement.breakers}
    for breaker in CATALOGUE_000:  # each new breaker is listed at the line it quotes
        assert (breaker.name, int(breaker.source.split(":")[1])) in listed, breaker.name


def test_every_gating_statement_of_the_rest_has_a_breaker_or_says_why_not():
    scenarios = load_scenarios()
    bare = {scenario.id for scenario, _ in gating_statements(scenarios) if not breakers_of(scenario.id)}
    assert bare == set(UNBROKEN), "give each a breaker, or its reason in breakers_rest.UNBROKEN"
    assert len(gating_statements(scenarios)) > 40


def test_the_coverage_table_in_docs_is_generated_from_the_catalogue():
    assert DOCS.read_text(encoding="utf-8") == table(), "run python3 tests/conformance/test_breakers.py"


@pytest.fixture(scope="module")
def killed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """One suite run per selected breaker, of its owning scenario only, and the metadata-less server's run of the
    scenarios that check metadata (when selected); over HTTP, the subset's runs and one unbroken run of their owning
    scenarios. Two at a time (they wait on servers), the longest first."""
    base = tmp_path_factory.mktemp("catalogue")
    jobs: dict[str, Callable[[], dict]] = {}
    if selected(request, METADATA_TEST):
        scope = " or ".join(metadata_chosen())
        jobs[METADATA_TEST] = lambda: run_suite(base / "no_metadata", proxied_profile(base / "no_metadata",
                                                                                      "no_metadata"), "-k", scope)[1]
    owners = {breaker.name: breaker.scenario for breaker in CHOSEN if breaker.name in selected(request, KILL_TEST)}
    jobs |= owner_jobs(base, owners, proxied_profile)
    owning = " or ".join(sorted({BY_NAME[name].scenario for name in HTTP_SUBSET}))

    def control(dialect: str) -> Callable[[], dict]:
        directory = base / dialect / "unbroken"
        return lambda: run_suite(directory, HTTP_DIALECTS[dialect](directory), "--target=http", "-k", owning)[1]

    jobs |= {f"unbroken over {dialect}": control(dialect) for dialect in selected(request, HTTP_CONTROL_TEST)}
    for dialect in HTTP_DIALECTS:
        over_http = {name: BY_NAME[name].scenario for name in HTTP_SUBSET
                     if f"{dialect}-{name}" in selected(request, HTTP_KILL_TEST)}
        broken = owner_jobs(base / dialect, over_http, HTTP_DIALECTS[dialect], "--target=http")
        jobs |= {f"{name} over {dialect}": job for name, job in broken.items()}
    return side_by_side(jobs)


KILL_TEST = "test_the_breaker_is_killed_by_the_scenario_that_owns_its_statement"
METADATA_TEST = "test_a_server_without_metadata_fails_every_scenario_that_checks_metadata"
HTTP_KILL_TEST = "test_over_http_the_breaker_is_killed_too"
HTTP_CONTROL_TEST = "test_over_http_the_owning_scenarios_pass_unbroken"
# Over HTTP, a subset. A breaker rewrites an answer before a transport carries it, and the checks judge the payload
# the client hands them, whichever transport that was: the catalogue is transport-independent. What an HTTP run adds
# is the gate's HTTP client carrying each kind of answer to the checks intact, so the subset is one breaker per kind:
# a tool's answer (results and metadata are one body), a tool's error envelope, the tools/list answer. Each run
# costs about 8.5 CPU-s; the whole catalogue over HTTP would add about 100 runs for no other path. The client reads
# two dialects, so the subset runs over both: upstream's HTTP transport (one JSON body per POST, no session:
# servers/upstream_http.py in front of the reference's stdio server) and the reference's own Streamable HTTP (SSE
# events, a session; servers/streamable_proxy.py relaying it). The stdio_* breakers break one transport on purpose
# (AP-ERRORS compares the two): with both behind the proxy they would break neither alone.
HTTP_SUBSET = ("compact_drops_stable_id", "error_as_text", "search_code_lists_no_explain")
HTTP_DIALECTS = {"upstream": proxied_http_profile, "streamable": proxied_streamable_profile}


@pytest.mark.parametrize("name", [breaker.name for breaker in CHOSEN])
def test_the_breaker_is_killed_by_the_scenario_that_owns_its_statement(killed, name):
    assert_owner_failed(killed[name], BY_NAME[name].scenario)


@pytest.mark.parametrize(("dialect", "name"), [(dialect, name) for dialect in HTTP_DIALECTS for name in HTTP_SUBSET],
                         ids=[f"{dialect}-{name}" for dialect in HTTP_DIALECTS for name in HTTP_SUBSET])
def test_over_http_the_breaker_is_killed_too(killed, dialect, name):
    results = killed[f"{name} over {dialect}"]
    assert results["transport"] == "http"
    assert_owner_failed(results, BY_NAME[name].scenario)
    # Killed on a call the HTTP client carried (AP-ERRORS-01 calls over stdio first; that side is not broken here).
    owner = next(record for record in results["scenarios"] if record["id"] == BY_NAME[name].scenario)
    assert owner["calls"][-1]["transport"] == "http", owner["failure_message"]


@pytest.mark.parametrize("dialect", HTTP_DIALECTS)
def test_over_http_the_owning_scenarios_pass_unbroken(killed, dialect):
    # The same proxy and transport with no rule broken (the allowed rewrites on, which fail no scenario:
    # test_fairness.py; AP-ERRORS-01 warns on their missing isError), so the kills above are the breakers'.
    results = killed[f"unbroken over {dialect}"]
    # The relay rewrote what the client got over HTTP (the allowed rewrites add an implementation's own field).
    assert any(call["transport"] == "http" and "x_proxy" in call.get("answer", "")
               for record in results["scenarios"] for call in record.get("calls") or []), results
    outcomes = {record["id"]: record["outcome"] for record in results["scenarios"]}
    assert results["transport"] == "http"
    owners = {BY_NAME[name].scenario for name in HTTP_SUBSET}
    assert {owner: outcomes.get(owner) for owner in owners if outcomes.get(owner) not in ("passed", "warned")} == {}


def checks_metadata(scenario: Scenario) -> bool:
    """Whether a call of the scenario requires `metadata` in its schema, or reads it in a check, on a gating basis."""
    for step in scenario.steps:
        if not isinstance(step, Call):
            continue
        schema, basis = step.expect.schema, step.expect.schema_basis
        if isinstance(schema, dict) and "metadata" in schema.get("required", []) and basis and basis.gates:
            return True
        if any(check.basis.gates and any("metadata" in operand for operand in check.operands())
               for check in step.expect.checks):
            return True
    return False


# The three the issue found passing a server that sends no metadata; CRUXGATE_BREAKERS=all takes every one.
METADATA_SAMPLE = ("AP-INTENT-01", "FR-116-01", "AP-CONFIG-01")


def metadata_checking() -> list[str]:
    """The ids of the replayed scenarios that check metadata."""
    return sorted(scenario.id for scenario in load_scenarios() if scenario.runs and checks_metadata(scenario))


def metadata_chosen() -> list[str]:
    """The scenarios the metadata-less server is run against: the sample, or with CRUXGATE_BREAKERS=all every one."""
    return metadata_checking() if ALL else list(METADATA_SAMPLE)


def test_a_server_without_metadata_fails_every_scenario_that_checks_metadata(killed):
    checking = metadata_checking()
    assert set(METADATA_SAMPLE) <= set(checking) and len(checking) > 40
    chosen = metadata_chosen()
    results = killed[METADATA_TEST]
    outcomes = {record["id"]: record["outcome"] for record in results["scenarios"]}
    escaped = {sid: outcomes.get(sid) for sid in chosen if outcomes.get(sid) not in ("failed", "skipped")}
    assert escaped == {}, escaped


if __name__ == "__main__":
    DOCS.write_text(table(), encoding="utf-8")
