"""Streamable HTTP sessions held per client: each client address keeps at most N, the least recently used go first.

The SDK's manager has one limit for all clients (10,000 by default) and a 30-minute idle expiry: a client
that opens sessions and never closes them fills it, and every other client is answered 503 until they
expire. Here a client at its own cap makes room by closing its least recently used session that has
no request in flight (an open GET stream counts as one, so a connected client's session stays); the
global limit does the same across clients. Only when every candidate is busy is the new one refused.
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from mcp.server.streamable_http import MCP_SESSION_ID_HEADER, StreamableHTTPServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.datastructures import Headers
from starlette.types import Receive, Scope, Send

# The admission hook of the SDK's manager gets no request: the client and the sessions its request opens
# travel beside it, in the task that serves the request.
_CLIENT: ContextVar[str] = ContextVar("cruxgate_http_client", default="")
_OPENED: ContextVar[list[str] | None] = ContextVar("cruxgate_http_opened", default=None)


@dataclass
class _Held:
    client: str
    last_used: float
    in_flight: int = 0


class PerClientSessionManager(StreamableHTTPSessionManager):
    """The SDK's session manager with a per-client cap and least-recently-used eviction."""

    def __init__(self, app: Any, *, per_client: int, **kwargs: Any) -> None:
        if per_client <= 0:
            raise ValueError("per_client must be a positive number of sessions")
        super().__init__(app, **kwargs)
        self.per_client = per_client
        self._held: dict[str, _Held] = {}

    def held(self, client: str) -> int:
        """How many sessions `client` (an address) holds now."""
        return sum(entry.client == client for entry in self._held.values())

    async def _handle_stateful_request(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = str((scope.get("client") or ("",))[0])
        held = self._held.get(Headers(scope=scope).get(MCP_SESSION_ID_HEADER) or "")
        opened: list[str] = []
        tokens = (_CLIENT.set(client), _OPENED.set(opened))
        if held is not None:
            held.in_flight += 1
            held.last_used = time.monotonic()
        try:
            await super()._handle_stateful_request(scope, receive, send)
        finally:
            _OPENED.reset(tokens[1])
            _CLIENT.reset(tokens[0])
            for entry in [held, *(self._held.get(session) for session in opened)]:
                if entry is not None:
                    entry.in_flight -= 1
                    entry.last_used = time.monotonic()

    def _admit_session(self, requestor: Any) -> StreamableHTTPServerTransport | None:
        # Runs under the manager's admission lock, so counting and evicting here cannot race another admission.
        client = _CLIENT.get()
        mine = [session for session, entry in self._held.items() if entry.client == client]
        if len(mine) >= self.per_client and not self._evict(mine):
            return None  # every session of this client is busy: only this client is refused
        if self.max_sessions is not None and len(self._server_instances) >= self.max_sessions:
            self._evict(list(self._held))
        transport = super()._admit_session(requestor)
        if transport is not None and transport.mcp_session_id is not None:
            # In flight from the start: the request that opens it is being served.
            self._held[transport.mcp_session_id] = _Held(client, time.monotonic(), in_flight=1)
            opened = _OPENED.get()
            if opened is not None:
                opened.append(transport.mcp_session_id)
        return transport

    def _evict(self, candidates: list[str]) -> bool:
        """Close the least recently used idle session among `candidates`; False when all are busy."""
        idle = [session for session in candidates
                if self._held[session].in_flight <= 0 and session in self._server_instances]
        if not idle:
            return False
        oldest = min(idle, key=lambda session: self._held[session].last_used)
        transport = self._server_instances.pop(oldest)  # forgotten now: its id answers 404 from here on
        self._session_owners.pop(oldest, None)
        self._held.pop(oldest, None)
        assert self._task_group is not None  # admission only happens while the manager runs
        self._task_group.start_soon(self._discard_session, oldest, transport)
        return True

    async def _discard_session(self, session_id: str, transport: StreamableHTTPServerTransport) -> None:
        self._held.pop(session_id, None)
        await super()._discard_session(session_id, transport)
