"""Synthetic scenario items shaped like the runner's, for testing the gate plugins with pytester."""

from __future__ import annotations

import textwrap

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Not `pytest_plugins = ["pytester"]`: pytest refuses that outside the rootdir conftest.
    if not config.pluginmanager.has_plugin("pytester"):
        config.pluginmanager.import_plugin("pytester")

# A tiny stand-in for conformance/plugin.py: one item per line of a *.scn file
# ("<scenario id> pass|fail|skip|informative [tool,...]"), carrying the same
# attributes and markers as the runner's items.
SYNTHETIC_CONFTEST = textwrap.dedent(
    '''
    import pytest
    from cruxgate.conformance.report import baseline, results_json


    def pytest_addoption(parser):
        baseline.add_options(parser)
        results_json.add_options(parser)


    def pytest_configure(config):
        baseline.register(config)
        results_json.register(config)
        config.stash[results_json.SERVER_INFO_KEY] = {"name": "synthetic", "version": "9.9"}
        config.stash[results_json.TARGET_PROFILE_KEY] = "synthetic-profile"
        config.stash[results_json.TRANSPORT_KEY] = "stdio"


    def pytest_collect_file(parent, file_path):
        if file_path.suffix == ".scn":
            return ScenarioFile.from_parent(parent, path=file_path)


    class ScenarioFile(pytest.File):
        def collect(self):
            for line in self.path.read_text().splitlines():
                if not line.strip():
                    continue
                sid, behaviour, *rest = line.split()
                tools = rest[0].split(",") if rest else ["search_code"]
                requirement = sid.rsplit("-", 1)[0]
                scenario = {
                    "id": sid,
                    "title": "title of " + sid,
                    "source": "000 > Scenario: " + sid,
                    "level": "MUST",
                    "coverage": "informative" if behaviour == "informative" else "executable",
                    "tools": tools,
                    "behaviour": behaviour,
                }
                item = ScenarioItem.from_parent(self, name=sid, scenario=scenario)
                item.requirement = {"id": requirement, "level": "MUST"}
                item.add_marker(pytest.mark.document("agent-protocol"))
                item.add_marker(pytest.mark.requirement(requirement))
                item.add_marker(pytest.mark.level("MUST"))
                for tool in tools:
                    item.add_marker(pytest.mark.tool(tool))
                yield item


    class ScenarioItem(pytest.Item):
        def __init__(self, *, scenario, **kwargs):
            super().__init__(**kwargs)
            self.scenario = scenario

        def runtest(self):
            behaviour = self.scenario["behaviour"]
            if behaviour == "fail":
                raise AssertionError(self.scenario["id"] + ": THEN metadata carries ranking_reasons\\nsecond line")
            if behaviour == "skip":
                pytest.skip("target lacks tool find_references")
            if behaviour == "informative":
                pytest.skip("informative: not testable over the wire")

        def repr_failure(self, excinfo):
            return str(excinfo.value)

        def reportinfo(self):
            return self.path, 0, self.scenario["id"]
    '''
)


@pytest.fixture
def scenarios(pytester: pytest.Pytester):
    """Write the synthetic runner conftest and return a function that writes a .scn file."""
    pytester.makeconftest(SYNTHETIC_CONFTEST)
    pytester.makeini("[pytest]\nmarkers =\n    document\n    requirement\n    level\n    tool\n")

    def write(*lines: str) -> None:
        pytester.path.joinpath("cases.scn").write_text("\n".join(lines) + "\n")

    return write
