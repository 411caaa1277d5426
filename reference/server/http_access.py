"""Who may use the HTTP transport: the owner's bearer token, and the Host and Origin allow-lists."""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import stat
from pathlib import Path

from mcp.server.transport_security import TransportSecuritySettings
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from .http_options import AccessError

MIN_TOKEN_CHARS = 16
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def is_loopback(host: str) -> bool:
    """Whether `host` (a --host value) binds loopback only: 127.0.0.0/8, ::1 or the name localhost."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # another name may resolve to any interface


def _private_token(path: Path) -> str | None:
    """The token in `path` when it is a regular file of ours that only we can read, else None."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None  # a link, someone else's file, or one others may have read: its token is not a secret
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    try:
        token = os.read(fd, 4096).decode("ascii", errors="replace").strip()
    finally:
        os.close(fd)
    return token if len(token) >= MIN_TOKEN_CHARS else None


def token_from_file(path: Path) -> str:
    """The token kept in `path` (created 0600, its folder 0700, when missing or not private)."""
    token = _private_token(path)
    if token is not None:
        return token  # kept across restarts: a client configured once keeps working
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)  # O_CREAT's mode only applies to a new file
        os.write(fd, (token + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return token


def resolve_token(token_file: Path, env_name: str) -> tuple[str, str]:
    """(token, where it comes from): the environment variable `env_name` when set, else the token file's."""
    given = os.environ.get(env_name)
    if given is not None:
        if len(given.strip()) < MIN_TOKEN_CHARS:
            raise AccessError(f"${env_name} must hold at least {MIN_TOKEN_CHARS} characters")
        return given.strip(), f"${env_name}"
    try:
        return token_from_file(token_file), str(token_file)
    except OSError as exc:
        raise AccessError(f"cannot write the token file {token_file}: {exc.strerror or exc}") from None


def _bracketed(host: str) -> str:
    """`host` as it appears in a Host header (an IPv6 address in brackets)."""
    try:
        return f"[{host.strip('[]')}]" if ipaddress.ip_address(host.strip("[]")).version == 6 else host
    except ValueError:
        return host


def transport_security(bind_host: str, allow_hosts: list[str], allow_origins: list[str]) -> TransportSecuritySettings:
    """Host and Origin checks, on whatever --host is: loopback names, the bound address, and the allow-lists.

    A wildcard bind (0.0.0.0, ::) adds no name: a client that reaches it by another name is named with
    --allow-host. A bare allowed name matches any port; `name:port` and `name:*` are taken as written.
    """
    names = list(LOOPBACK_NAMES)
    try:
        wildcard = ipaddress.ip_address(bind_host.strip("[]")).is_unspecified
    except ValueError:
        wildcard = False
    if not wildcard and _bracketed(bind_host) not in names:
        names.append(_bracketed(bind_host))
    hosts = [form for name in names for form in (name, f"{name}:*")]
    for entry in allow_hosts:
        bare = not entry.endswith("]") and entry.count(":") == 0
        hosts += [entry, f"{entry}:*"] if bare else [entry]
    origins = [form for name in names for form in (f"http://{name}", f"http://{name}:*")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=origins + list(allow_origins))


class BearerToken:
    """ASGI middleware: every HTTP request carries `Authorization: Bearer <token>`, or gets 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = token.encode("ascii")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass an authorized request (and lifespan events) on; answer any other with 401."""
        if scope["type"] == "http" and not self._authorized(scope):
            response = Response("missing or wrong bearer token (Authorization: Bearer <token>)\n", status_code=401,
                                headers={"WWW-Authenticate": 'Bearer realm="cruxgate"'}, media_type="text/plain")
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _authorized(self, scope: Scope) -> bool:
        given = [value for name, value in scope.get("headers", ()) if name == b"authorization"]
        if len(given) != 1:
            return False
        scheme, _, credentials = given[0].partition(b" ")
        # Constant time: how long the check takes says nothing about how much of the token matched.
        return scheme.lower() == b"bearer" and hmac.compare_digest(credentials.strip(), self._expected)
