"""The Streamable HTTP transport: /mcp behind the owner's token and the Host/Origin checks, on uvicorn."""

from __future__ import annotations

from typing import Any

from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route

from .http_access import BearerToken, transport_security
from .http_connections import DeadlineH11Protocol
from .http_options import HttpOptions
from .http_sessions import PerClientSessionManager

MCP_PATH = "/mcp"
KEEP_ALIVE_SECONDS = 5  # uvicorn's default, stated: an idle keep-alive connection is closed after it
MAX_HEAD_BYTES = 16 * 1024  # request line + headers; larger is answered 400 (uvicorn's default, stated)
MAX_SESSIONS = 10_000  # all clients together (the SDK's default); at it, the least recently used idle one goes


def http_app(server: Any, options: HttpOptions) -> Starlette:
    """The ASGI app: /mcp served by a per-client session manager, every request checked first."""
    manager = PerClientSessionManager(
        server, per_client=options.per_client, session_idle_timeout=options.idle_seconds,
        max_sessions=MAX_SESSIONS,
        security_settings=transport_security(options.host, options.allow_hosts, options.allow_origins))
    middleware = [Middleware(BearerToken, token=options.token)] if options.token is not None else []
    return Starlette(routes=[Route(MCP_PATH, endpoint=StreamableHTTPASGIApp(manager))], middleware=middleware,
                     lifespan=lambda app: manager.run())


async def serve_http(server: Any, options: HttpOptions) -> None:
    """Serve until interrupted."""
    import uvicorn

    config = uvicorn.Config(http_app(server, options), host=options.host, port=options.port, log_level="warning",
                            http=DeadlineH11Protocol.with_timeout(options.request_timeout),
                            timeout_keep_alive=KEEP_ALIVE_SECONDS, h11_max_incomplete_event_size=MAX_HEAD_BYTES,
                            # X-Forwarded-For from a local client would name any address it likes: the
                            # per-client session cap counts the connection's own peer address.
                            proxy_headers=False)
    await uvicorn.Server(config).serve()
