"""Leading workspace steps run before a scenario's servers start; their failures are kept for the scenario."""

from __future__ import annotations

from conformance.steps import StepFailed, leading_count, run_leading


class _Workspace:
    def __init__(self, fail_on: str | None = None):
        self.done, self.fail_on = [], fail_on

    def hook(self, name):
        if name == self.fail_on:
            raise RuntimeError(f"hook {name} exited with status 1")
        self.done.append(("hook", name))

    def edit(self, spec):
        self.done.append(("edit", spec["path"]))


class _Environment:
    def __init__(self, workspace):
        self.workspace, self.leading, self.started = workspace, None, []

    def server(self, transport):
        self.started.append(transport)
        raise AssertionError("no server may start during the leading steps")


def test_leading_count_stops_at_the_first_step_that_needs_a_server():
    steps = [{"hook": "corrupt_manifest"}, {"edit": {"path": "a", "append": "x"}}, {"call": "health_check"},
             {"hook": "not_indexed"}]
    assert leading_count(steps) == 2
    assert leading_count([{"call": "health_check"}, {"hook": "x"}]) == 0


def test_run_leading_applies_only_workspace_steps_and_records_them():
    environment = _Environment(_Workspace())
    run_leading(environment, {"steps": [{"hook": "corrupt_manifest"}, {"edit": {"path": "a.py", "append": "x"}},
                                        {"call": "health_check"}]})
    assert environment.leading == (2, None)
    assert environment.workspace.done == [("hook", "corrupt_manifest"), ("edit", "a.py")]
    assert environment.started == []


def test_a_failing_leading_step_is_kept_with_its_step_number():
    environment = _Environment(_Workspace(fail_on="corrupt_manifest"))
    run_leading(environment, {"steps": [{"edit": {"path": "a.py", "append": "x"}}, {"hook": "corrupt_manifest"},
                                        {"call": "health_check"}]})
    count, error = environment.leading
    assert count == 2 and isinstance(error, StepFailed)
    assert str(error).startswith("step 2 (hook corrupt_manifest): hook corrupt_manifest exited with status 1")
