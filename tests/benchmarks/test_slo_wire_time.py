"""The SLO harness times each call on the wire (the server's part) and reports the whole call beside it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPDeprecationWarning

from cruxgate.conformance.slo.harness import latency
from cruxgate.conformance.slo.sampling import interleave
from cruxgate.conformance.slo.server import BenchServer
from cruxgate.conformance.slo.settings import Settings
from cruxgate.conformance.target.profile import resolve

FAKE_SERVER = Path(__file__).resolve().parents[1] / "conformance" / "servers" / "fake_server.py"
FAKE_RAW = f"{{python}} {FAKE_SERVER} serve --raw --workspace {{workspace}} --index-on-start"
# ~2 MB in each of the answer's two forms: the client's parsing and schema check of it take milliseconds.
LARGE_OUTLINE = f"{FAKE_RAW} --outline-symbols 20000"
ARGS = {"path": "a.py"}


def bench_server(tmp_path: Path, server_cmd: str) -> BenchServer:
    """The harness's own BenchServer over the runner's stdio transport, serving a one-file workspace."""
    fixtures = tmp_path / "fixtures"
    (fixtures / "tiny").mkdir(parents=True)
    (fixtures / "tiny" / "a.py").write_text("def a():\n    return 1\n", encoding="utf-8")
    return BenchServer(resolve("stdio", server_cmd=server_cmd), "stdio", fixtures, "tiny")


@pytest.fixture
def large_answer_server(tmp_path: Path) -> Iterator[BenchServer]:
    """A server whose outline is large."""
    server = bench_server(tmp_path, LARGE_OUTLINE)
    try:
        yield server
    finally:
        server.close()


@pytest.mark.parametrize(("flaw", "floor_method"), [("", "ping"), (" --flaw no_ping", "tools/list")])
def test_the_floor_is_a_ping_where_the_protocol_has_one_and_the_sdk_warns_of_nothing(
        tmp_path: Path, flaw: str, floor_method: str) -> None:
    # The SDK's deprecation warnings raise here, in whichever thread the call runs: a harness that sent a
    # deprecated call would either fail the call or (in the probe) fall back to tools/list.
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("error", MCPDeprecationWarning)
        server = bench_server(tmp_path, FAKE_RAW + flaw)
        try:
            assert server.floor_method == floor_method
            assert all(server.noop() > 0.0 for _ in range(3))
        finally:
            server.close()
    assert not [str(warning.message) for warning in seen if issubclass(warning.category, MCPDeprecationWarning)]


def test_each_sample_holds_its_wire_time_inside_the_whole_call(large_answer_server: BenchServer) -> None:
    server = large_answer_server
    floor, outline = interleave([server.noop, lambda _: server.call("get_file_outline", ARGS)], rounds=5, warmup=1)
    for sample in floor + outline:
        # The transport's stamps, not the fallback for a call without them (wire == total): the client's
        # handling of the answer (parsing it, checking it against the outputSchema) comes after the last byte.
        assert 0.0 < sample.wire < sample.total, sample


def test_a_latency_row_judges_the_wire_and_reports_the_client_side_beside_it(
        large_answer_server: BenchServer) -> None:
    settings = Settings(smoke=True, rounds=5, paired_factor=1, warmup=1, starts=1, token_queries=1, query_set=1)
    measurement = latency("SC-103", large_answer_server, settings,
                          lambda _: large_answer_server.call("get_file_outline", ARGS))
    assert measurement.p95 is not None and measurement.client_p95 is not None and measurement.floor_p95 is not None
    assert measurement.value == measurement.p95 < measurement.client_p95
    assert measurement.samples == 5

