"""The MCP server: tools over stdio and Streamable HTTP, freshness, prewarm and background indexing."""
