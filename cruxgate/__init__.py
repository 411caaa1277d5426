"""cruxgate: a conformance gate and reference server for code-search MCP servers."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("cruxgate")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0.0.0+unknown"
