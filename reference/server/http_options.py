"""serve-mcp's HTTP options: their defaults, their arguments, and the checks made before anything listens."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cruxgate.reference.index.state import STATE_DIR, private_state_dir

TOKEN_ENV = "CRUXGATE_HTTP_TOKEN"
TOKEN_FILE = "http-token"  # under the workspace's state folder unless --token-file names another
DEFAULT_PER_CLIENT = 128
DEFAULT_IDLE_SECONDS = 600.0
DEFAULT_REQUEST_TIMEOUT = 10.0


class AccessError(Exception):
    """A token or bind address serve-mcp refuses to start with; the message says why."""


@dataclass
class HttpOptions:
    """What serve-mcp's HTTP options decide."""

    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = None  # None: no token asked (loopback with --no-auth only)
    allow_hosts: list[str] = field(default_factory=list)
    allow_origins: list[str] = field(default_factory=list)
    per_client: int = DEFAULT_PER_CLIENT
    idle_seconds: float = DEFAULT_IDLE_SECONDS
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT


def add_http_arguments(parser: argparse.ArgumentParser) -> None:
    """The HTTP access and resource options of serve-mcp."""
    http = parser.add_argument_group("HTTP access (docs/server.md, Streamable HTTP)")
    http.add_argument("--token-file", metavar="FILE",
                      help=f"bearer token file, created 0600 when missing or not private "
                           f"(default WORKSPACE/{STATE_DIR}/{TOKEN_FILE}); ${TOKEN_ENV} gives the token instead")
    http.add_argument("--no-auth", action="store_true",
                      help="serve without a token (loopback --host only): every local user can then use the server")
    http.add_argument("--allow-host", action="append", default=[], metavar="HOST",
                      help="also accept this Host header (HOST matches any port; HOST:PORT and HOST:* as written)")
    http.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                      help="also accept this Origin header (e.g. https://example.test:*)")
    http.add_argument("--max-sessions-per-client", type=int, default=DEFAULT_PER_CLIENT, metavar="N",
                      help="sessions one client address may hold; for a new one its least recently used idle "
                           f"session is closed (default {DEFAULT_PER_CLIENT})")
    http.add_argument("--session-idle-timeout", type=float, default=DEFAULT_IDLE_SECONDS, metavar="SECONDS",
                      help=f"close a session with no request for this long (default {DEFAULT_IDLE_SECONDS:g})")
    http.add_argument("--request-timeout", type=float, default=DEFAULT_REQUEST_TIMEOUT, metavar="SECONDS",
                      help="close a connection whose request has not fully arrived after this long "
                           f"(default {DEFAULT_REQUEST_TIMEOUT:g})")


def http_options(args: argparse.Namespace, workspace: Path) -> HttpOptions:
    """The HTTP transport's options; the token is read or created here, before anything listens."""
    from .http_access import is_loopback, resolve_token

    if args.max_sessions_per_client < 1 or args.session_idle_timeout <= 0 or args.request_timeout <= 0:
        raise AccessError("--max-sessions-per-client, --session-idle-timeout and --request-timeout must be positive")
    options = HttpOptions(host=args.host, port=args.port, allow_hosts=args.allow_host,
                          allow_origins=args.allow_origin, per_client=args.max_sessions_per_client,
                          idle_seconds=args.session_idle_timeout, request_timeout=args.request_timeout)
    if args.no_auth:
        if not is_loopback(args.host):
            raise AccessError(f"--no-auth is refused with --host {args.host}: off loopback the server always asks "
                              "for its token")
        print("serve-mcp: --no-auth: every local user can use this server", file=sys.stderr)
        return options
    if args.token_file:
        token_file = Path(args.token_file)
    else:
        try:
            token_file = private_state_dir(workspace) / TOKEN_FILE
        except OSError as exc:
            raise AccessError(f"cannot write the state folder of {workspace}: {exc.strerror or exc}") from None
    options.token, where = resolve_token(token_file, TOKEN_ENV)
    print(f"serve-mcp: requests need `Authorization: Bearer <token>`, the token in {where}", file=sys.stderr)
    return options
