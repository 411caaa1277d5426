"""The runner's long-lived heap, settled once the suite is collected: the SDK imported, then frozen for the collector.

By then the heap holds what lives until the process exits: modules and classes (the MCP SDK's pydantic models
are most of them), the spec model and the items. Each full pass of Python's cyclic collector walks all of it:
a whole-suite run made 17 such passes (2.0 CPU-s) and pytest's unraisable-exception clean-up makes 5 more at exit
(0.5 CPU-s, more than a short run's scenarios). `gc.freeze()` moves what is alive into the permanent generation,
which the passes skip; reference counting still frees those objects, and whatever the scenarios create stays
young and is collected as before.
"""

from __future__ import annotations

import gc

from cruxgate.conformance.target.stdio_transport import load_sdk


def settle(needs_server: bool, hypothesis_later: bool) -> None:
    """Import the SDK when a scenario will talk to a server, and hypothesis when the run will import it anyway (its
    pytest plugin's summary, the fuzz phase); then freeze everything alive out of the GC's passes."""
    if needs_server:
        load_sdk()  # its classes live as long as the process; imported here, they are frozen with the rest
    if hypothesis_later:
        # On import, hypothesis registers the PRNGs of its entry-point plugins (trio's) and asks
        # gc.get_referrers, which does not see frozen objects, whether anything holds them: imported after
        # the freeze, it would warn that trio's module-level PRNG is about to be garbage-collected.
        import hypothesis  # noqa: F401
    gc.freeze()
