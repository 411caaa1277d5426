"""A minimal stdio MCP server with two tools, for testing `cruxgate surface snapshot`."""

from typing import Literal

from mcp.server.mcpserver import MCPServer

server = MCPServer("two-tools", version="1.0")


@server.tool(description="Search code by text.")
def search_code(query: str, detail_level: Literal["location", "signature", "context"] = "signature") -> dict:
    return {"results": []}


@server.tool(description="Report health.")
def health_check() -> dict:
    return {"status": "ok"}


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--http-port":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
