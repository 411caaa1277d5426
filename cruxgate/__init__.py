"""cruxgate: a conformance gate and reference server for code-search MCP servers."""

# The one place the version is written: hatchling reads it for the distribution's metadata
# ([tool.hatch.version] in pyproject.toml), and a checkout run from PYTHONPATH, never installed,
# reports the version of its own code rather than whatever copy happens to be installed.
__version__ = "0.1.0"
