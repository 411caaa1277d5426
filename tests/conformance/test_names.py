"""Profile names and set-up: renamed arguments and fields, env placeholders, setup/teardown and the state folder."""

from __future__ import annotations

import sys

from cruxgate.conformance.target.names import NameMap
from cruxgate.conformance.target.profile import Target
from cruxgate.conformance.target.workspace import Workspace


def test_arguments_go_out_in_the_targets_names_and_fields_come_back_in_ours():
    names = NameMap({"find_references": {"arguments": {"symbol": "symbol_name"},
                                         "fields": {"line_start": "line", "file_path": "path"}}})
    assert names.arguments("find_references", {"symbol": "f", "limit": 3}) == {"symbol_name": "f", "limit": 3}
    answer = {"file_path": "a.py", "references": [{"path": "b.py", "line_start": 4}], "line": 9}
    assert names.fields("find_references", answer) == {"path": "a.py", "references": [{"path": "b.py", "line": 4}],
                                                       "line": 9}
    assert names.arguments("search_code", {"query": "x"}) == {"query": "x"}  # no table: unchanged


def test_a_listed_input_schema_reads_back_in_our_argument_names():
    names = NameMap({"find_references": {"arguments": {"symbol": "symbol_name"}}})
    listed = [{"name": "find_references", "inputSchema": {"type": "object", "required": ["symbol_name"],
                                                          "properties": {"symbol_name": {"type": "string"}}}},
              {"name": "health_check", "inputSchema": {"type": "object"}}]
    back = names.tools(listed)
    assert back[0]["inputSchema"]["properties"] == {"symbol": {"type": "string"}}
    assert back[0]["inputSchema"]["required"] == ["symbol"] and back[1] == listed[1]


def test_setup_and_teardown_run_with_placeholders_and_env_gets_the_state_folder(tmp_path):
    log = tmp_path / "log.txt"
    record = [sys.executable, "-c", f"import os,sys; open({str(log)!r}, 'a').write(sys.argv[1] + ' ' + "
                                    f"os.environ['CRUX_STATE'] + chr(10))"]
    target = Target(name="t", transports={"stdio": {"command": ["x"]}}, env={"CRUX_STATE": "{state}"},
                    setup=[[*record, "setup:{workspace}"]], teardown=[[*record, "teardown:{state}"]])
    workspace = Workspace(target, None, {}, git=False)
    assert workspace.state.is_dir() and workspace.env()["CRUX_STATE"] == str(workspace.state)
    workspace.remove()
    lines = log.read_text().splitlines()
    assert lines == [f"setup:{workspace.path} {workspace.state}", f"teardown:{workspace.state} {workspace.state}"]
    assert not workspace.root.exists()
