"""The fuzz phase's settings, declared once as an option table: its pytest plugin and `cruxgate fuzz` are both
made from it (`--fuzz-NAME` in each). `--fuzz` itself, which turns the phase on, is pytest's alone: `cruxgate
fuzz` always passes it.

Light enough for `cruxgate fuzz` to import before pytest starts (importing the runner first would load anyio
ahead of pytest, which then cannot rewrite its plugin).
"""

from __future__ import annotations

from cruxgate.conformance.spec.loader import DEFAULT_FIXTURE
from cruxgate.conformance.target.option_table import Option, OptionTable

EXAMPLES = 100  # per tool, like Schemathesis' default max examples
CALL_TIMEOUT = 10.0  # seconds; a fuzz call that takes longer is a hang (a shrink replays it many times)
OUT = ".cruxgate-fuzz"

# A command passes on only the options it was given, so pytest's defaults (below) hold for both.
OPTIONS = OptionTable("fuzz phase (as for pytest --fuzz)", (
    Option("fuzz-examples", "count", "N", f"generated examples per tool, after the coverage cases (default "
           f"{EXAMPLES})", default=EXAMPLES),
    Option("fuzz-seed", "count", "SEED", "seed of the generated examples (default: random, printed in the header)"),
    Option("fuzz-phases", "text", "PHASES", "coverage (each hostile value in each argument), fuzzing (hypothesis); "
           "default both", default="coverage,fuzzing"),
    Option("fuzz-exclude-checks", "text", "IDS", "comma-separated fuzz check ids not to run (e.g. FZ-OUTPUT for a "
           "server with its own payloads)", default=""),
    Option("fuzz-call-timeout", "seconds", "SECONDS", f"a fuzz call with no answer by then is a hang (default "
           f"{CALL_TIMEOUT:g})", default=CALL_TIMEOUT),
    Option("fuzz-fixture", "text", "NAME", f"the fixture repository the fuzzed server serves (default "
           f"{DEFAULT_FIXTURE})", default=DEFAULT_FIXTURE),
    Option("fuzz-out", "path", "DIR", f"the fuzz output folder: example database, findings.json (default {OUT})",
           default=OUT),
))
