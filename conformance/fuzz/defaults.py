"""The fuzz phase's defaults, in a module light enough for `cruxgate fuzz` to import before pytest starts.

(Importing the runner first would load anyio ahead of pytest, which then cannot rewrite its plugin.)
"""

EXAMPLES = 100  # per tool, like Schemathesis' default max examples
CALL_TIMEOUT = 10.0  # seconds; a fuzz call that takes longer is a hang (a shrink replays it many times)
OUT = ".cruxgate-fuzz"
