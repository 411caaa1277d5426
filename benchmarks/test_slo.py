"""The p95 SLO benchmarks, as the spec names them (benchmarks/test_slo.py::test_...).

The harness ships in the package (`cruxgate.conformance.slo.harness`, run by `cruxgate slo`); pytest
collects its tests from here too, so a checkout runs the very same code:

    python3 -m pytest benchmarks/test_slo.py --slo-smoke -q
"""

from cruxgate.conformance.slo.harness import *  # noqa: F403 - pytest collects the harness's tests from here
