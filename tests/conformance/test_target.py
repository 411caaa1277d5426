"""Target profiles: the schema, the bundled reference profile, and the command-line overrides."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from cruxgate import extras
from cruxgate.conformance.target.profile import (
    ProfileError,
    default_profile_path,
    fill,
    http_headers,
    load_profile,
    resolve,
)
from cruxgate.conformance.target.workspace import Workspace, WorkspaceError, render_config


def test_bundled_reference_profile_is_valid_and_default():
    target = resolve("stdio")
    assert target.name == "cruxgate-reference"
    assert target.supports("stdio") and target.supports("http")
    assert "corrupt_manifest" in target.hooks
    assert load_profile(default_profile_path())["config"] == {"format": "toml", "filename": "cruxgate.toml"}


def test_server_cmd_with_a_profile_replaces_only_the_launch_command():
    profile = str(default_profile_path())
    target = resolve("stdio", profile, server_cmd="strace -f my-server --root {workspace} --config {config}")
    reference = resolve("stdio")
    assert target.transports["stdio"]["command"] == ["strace", "-f", "my-server",
                                                     "--root", "{workspace}", "--config", "{config}"]
    assert target.index_command == reference.index_command
    assert target.hooks == reference.hooks and target.config_filename == reference.config_filename
    assert target.transports["http"] == reference.transports["http"]


def test_http_headers_carry_the_secret_the_server_wrote(tmp_path):
    spec = resolve("http").transports["http"]
    assert spec["headers"] == {"Authorization": "Bearer {secret}"}, "the reference profile sends its token"
    assert "{state}/http-token" in spec["command"] and spec["secret_file"] == "{state}/http-token"
    (tmp_path / "http-token").write_text("s3cret-token\n")
    assert http_headers(spec, {"state": str(tmp_path)}, 1.0) == {"Authorization": "Bearer s3cret-token"}
    with pytest.raises(ProfileError, match="did not write its secret_file"):
        http_headers(spec, {"state": str(tmp_path / "none")}, 0.2)
    assert http_headers({"url": "http://x/mcp"}, {}, 0.2) == {}


def test_server_cmd_drops_the_profile_http_auth():
    spec = resolve("http", server_cmd="my-server --port {port}").transports["http"]
    assert "headers" not in spec and "secret_file" not in spec


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_server_cmd_alone_borrows_nothing_from_the_reference(transport):
    target = resolve(transport, server_cmd="my-server --root {workspace}")
    assert target.name == "server-cmd: my-server --root {workspace}"
    assert list(target.transports) == [transport]  # no second transport: a cross-transport scenario skips
    assert target.transports[transport]["command"] == ["my-server", "--root", "{workspace}"]
    assert target.index_command is None and target.hooks == {} and target.tools is None
    assert target.no_prewarm_args is None and not target.relocatable_index and target.setup == []


def test_without_the_reference_extra_the_default_target_is_a_usage_error(monkeypatch):
    monkeypatch.setattr(extras, "missing", lambda extra: ["tantivy", "scipy"] if extra == "reference" else [])
    with pytest.raises(ProfileError, match=r"not installed \(missing tantivy, scipy\).*--server-cmd CMD.*"
                                           r"pip install 'cruxgate\[reference\]'"):
        resolve("stdio")
    assert resolve("stdio", server_cmd="my-server").name == "server-cmd: my-server"  # a named target needs no extra


def test_server_url_needs_http_and_drops_stdio():
    target = resolve("http", server_url="http://127.0.0.1:9/mcp")
    assert target.fixed_url == "http://127.0.0.1:9/mcp" and not target.supports("stdio")
    with pytest.raises(ProfileError, match="--target=http"):
        resolve("stdio", server_url="http://127.0.0.1:9/mcp")


def test_bad_profile_names_the_path(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"name": "x", "transports": {"http": {"command": ["srv"]}}}))
    with pytest.raises(ProfileError, match=r"transports\.http: 'url' is a required property"):
        load_profile(bad)


def test_fill_substitutes_placeholders():
    assert fill(["{python}", "--root", "{workspace}", "{port}"], {"workspace": "/w", "port": "9"}) == \
        [sys.executable, "--root", "/w", "9"]
    with pytest.raises(ProfileError, match="bad placeholder"):
        fill(["{nope}"], {})


def test_config_is_written_in_the_profile_format():
    config = {"search": {"ranking_explain_level": "full", "limits": {"max": 5}}, "prewarm": False}
    assert tomllib.loads(render_config(config, "toml")) == config
    assert yaml.safe_load(render_config(config, "yaml")) == config
    assert render_config({}, "toml") == ""


def test_workspace_copies_the_fixture_commits_and_refuses_escapes(tmp_path):
    fixture = tmp_path / "fixture"
    (fixture / "src").mkdir(parents=True)
    (fixture / "src" / "a.py").write_text("x = 1\n")
    workspace = Workspace(resolve("stdio"), fixture, {"a": 1}, git=True)
    try:
        assert (workspace.path / "src" / "a.py").read_text() == "x = 1\n"
        assert (workspace.path / ".git").is_dir()
        assert tomllib.loads(workspace.config_path.read_text()) == {"a": 1}
        assert not workspace.config_path.is_relative_to(workspace.path)  # the config is never indexed
        workspace.edit({"path": "src/a.py", "append": "y = 2\n"})
        workspace.commit("second")
        assert (workspace.path / "src" / "a.py").read_text() == "x = 1\ny = 2\n"
        with pytest.raises(WorkspaceError, match="leaves the workspace"):
            workspace.edit({"path": "../outside.py", "write": "boom"})
        with pytest.raises(WorkspaceError, match="exited with status 3"):
            workspace.run([sys.executable, "-c", "import sys; print('nope', file=sys.stderr); sys.exit(3)"], 10,
                          "index")
    finally:
        workspace.remove()
    assert not workspace.root.exists()


def test_index_is_reused_only_when_relocatable_and_independent_of_config():
    target = resolve("stdio")
    assert target.relocatable_index and target.reuses_index()
    target.index_command = ["srv", "index", "{workspace}", "--config", "{config}"]
    assert not target.reuses_index()
    target.index_command, target.relocatable_index = ["srv", "index", "{workspace}"], False
    assert not target.reuses_index()


def _profile_with(tmp_path, extra: dict) -> str:
    data = {**load_profile(default_profile_path()), **extra}
    path = tmp_path / "budget.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


def test_the_payload_budget_moves_to_the_profile_key_or_skips_where_it_cannot_be_set(tmp_path):
    from cruxgate.conformance.runner.collect import _sets_budget
    from cruxgate.conformance.spec.loader import load_scenarios

    config = {"search": {"max_response_bytes": 2048, "ranking_explain_level": "full"}}
    assert resolve("stdio").budget_config(config) == config  # ours: the key the spec writes
    moved = resolve("stdio", _profile_with(tmp_path, {"payload_budget": {"key": "limits.payload.bytes"}}))
    assert moved.budget_config(config) == {"search": {"ranking_explain_level": "full"},
                                           "limits": {"payload": {"bytes": 2048}}}
    fixed = resolve("stdio", _profile_with(tmp_path, {"payload_budget": {"fixed": "a 64 KB constant"}}))
    assert fixed.budget_fixed == "a 64 KB constant" and fixed.budget_key is None
    budgeted = {s.id for s in load_scenarios() if _sets_budget(s)}
    assert {"AP-SAFETY-01", "FR-105c-01"} <= budgeted and "AP-EXPLAIN-01" not in budgeted
    with pytest.raises(ProfileError):
        resolve("stdio", _profile_with(tmp_path, {"payload_budget": {"key": "nodot"}}))


def test_the_profile_example_of_the_docs_is_valid_and_shows_every_key(tmp_path):
    # docs/conformance.md "Target profiles" is where a team learns the format: it must load, and name every key.
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "conformance.md").read_text(encoding="utf-8")
    section = page.split("\n## Target profiles\n", 1)[1]
    example = re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1)
    (tmp_path / "my-server.yaml").write_text(example, encoding="utf-8")
    data = load_profile(tmp_path / "my-server.yaml")
    schema = json.loads((root / "schemas" / "target-profile.schema.json").read_text(encoding="utf-8"))
    assert set(data) == set(schema["properties"]), set(schema["properties"]) - set(data)
    http = schema["properties"]["transports"]["properties"]["http"]
    assert set(data["transports"]["http"]) == set(http["properties"])
