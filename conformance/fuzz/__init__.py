"""The fuzz phase of the gate (`pytest conformance/ --fuzz`, `cruxgate fuzz`): schema-driven arguments for every
tool the target lists, named checks on every answer, shrunk findings with a replay command.

Modules: `odd_values` (the inputs nobody writes down), `strategies` (arguments from input schemas), `validity`
(is an argument set valid for the advertised schema and the spec's?), `calls` (one call observed), `checks` (the
named checks on an observation), `items` (pytest collection and the hypothesis run), `database` (where failing
examples and findings are kept), `replay` (`cruxgate fuzz replay`), `command` (`cruxgate fuzz`), `plugin`
(options and the summary). `reaper` serves the whole runner (no server outlives an interrupted run);
it lives here until the runner's target/lifecycle/wire modules get a package of their own.
"""
