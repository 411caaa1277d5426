"""cruxgate conformance runner: replays spec/ against any MCP server, over the wire only."""
