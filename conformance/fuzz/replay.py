"""`cruxgate fuzz replay TOOL ARGUMENTS`: one call with the given arguments, judged by every fuzz check.

The one-line command each finding reports (like the curl line Schemathesis prints): it prepares the same
environment the fuzz phase used (default fixture, default config, the canary beside the workspace),
starts the target, calls the tool once and prints the answer and each check's verdict. Exit status 1
when a check whose basis gates fails (with --strict: any check), else 0.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from cruxgate.conformance.fuzz.database import read_arguments

REPLAY_OPTIONS = ("target", "target_profile", "server_cmd", "server_url", "server_token_file", "fixtures_dir",
                  "fuzz_fixture", "fuzz_call_timeout")


def command_line(tool: str, arguments: str, options: dict[str, Any]) -> str:
    """The shell line that replays one call: `cruxgate fuzz replay TOOL 'JSON'` plus the run's target options."""
    words = ["cruxgate", "fuzz", "replay", tool, arguments]
    for name in REPLAY_OPTIONS:
        value = options.get(name)
        if value is not None and not (name == "target" and value == "stdio"):
            words += ["--" + name.replace("_", "-"), str(value)]
    return " ".join(shlex.quote(word) for word in words)


def replay(tool_name: str, arguments_ref: str, args: argparse.Namespace) -> int:
    """Replay one call (arguments: JSON or @FILE; args: the target options); print the answer and each verdict."""
    from cruxgate.conformance.fuzz import options as fuzz_options
    from cruxgate.conformance.fuzz.calls import TargetLost
    from cruxgate.conformance.fuzz.checks import FUZZ_CHECKS
    from cruxgate.conformance.fuzz.session import FuzzSession
    from cruxgate.conformance.spec import paths
    from cruxgate.conformance.spec.loader import DEFAULT_FIXTURE, SpecError, load_documents, tool_rules
    from cruxgate.conformance.target.lifecycle import Lifecycle
    from cruxgate.conformance.target.profile import ProfileError, resolve
    from cruxgate.conformance.target.wire import ServerFailure
    from cruxgate.conformance.target.workspace import WorkspaceError

    try:
        arguments = read_arguments(arguments_ref)
        transport = args.target or "stdio"
        target = resolve(transport, args.target_profile, args.server_cmd, args.server_url, args.server_token_file)
    except (ValueError, OSError, ProfileError) as exc:
        print(f"cruxgate fuzz replay: {exc}", file=sys.stderr)
        return 2
    try:
        rules = tool_rules(load_documents(args.spec_dir))
    except SpecError as exc:
        print(f"cruxgate fuzz replay: the spec does not load: {exc}", file=sys.stderr)
        return 2
    fixtures = Path(args.fixtures_dir) if args.fixtures_dir else paths.fixtures_dir()
    runner = Lifecycle(target, fixtures, DEFAULT_FIXTURE)
    session = None
    try:
        session = FuzzSession(runner, transport, (fuzz_options.CALL_TIMEOUT if args.fuzz_call_timeout is None
                                                  else args.fuzz_call_timeout),
                              args.fuzz_fixture or DEFAULT_FIXTURE, "cruxgate fuzz replay",
                              rules)
        tool = session.tools.get(tool_name)
        if tool is None:
            print(f"cruxgate fuzz replay: the target does not list tool {tool_name!r} "
                  f"(it lists {', '.join(sorted(session.tools))})", file=sys.stderr)
            return 2
        validity = tool.judge(arguments)
        observation = session.caller().observe(tool.name, arguments, validity)
    except (ServerFailure, WorkspaceError, TargetLost) as exc:
        print(f"cruxgate fuzz replay: the target did not start: {exc}", file=sys.stderr)
        return 2
    finally:
        if session is not None:
            session.close()
        runner.close()
    failing = 0
    print(f"call:   {tool.name} {json.dumps(arguments, ensure_ascii=True)[:2000]}")
    print(f"input:  {validity.describe()}")
    flag = f", isError {str(observation.response.is_error).lower()}" if observation.response is not None else ""
    print(f"answer: {observation.excerpt(2000)}  ({observation.elapsed * 1000:.0f} ms{flag})")
    if observation.stderr_tail():
        print("server stderr (tail):\n" + observation.stderr_tail())
    context = tool.context
    for check in FUZZ_CHECKS.values():
        message = check(observation, context)
        basis = check.basis_in(context)
        verdict = "ok" if not message else ("FAIL" if basis.gates or args.strict else "warn")
        failing += verdict == "FAIL"
        detail = f": {message}" if message else ""
        print(f"  {verdict:4} {check.id} [{basis.kind} {basis.level}] {check.title}{detail}")
    return 1 if failing else 0
