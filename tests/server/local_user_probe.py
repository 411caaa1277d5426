"""What another local user gets from an owner's workspace and HTTP server (stdlib only: run by that user).

usage: local_user_probe.py URL WORKSPACE SECRET_FILE -> one JSON object on stdout.
"""

from __future__ import annotations

import http.client
import json
import os
import sys
from urllib.parse import urlsplit

HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def post(url: str, message: dict, session: str | None) -> tuple[int, str, str | None]:
    """(status, body, mcp-session-id) of one JSON-RPC POST."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    headers = dict(HEADERS, **({"mcp-session-id": session} if session else {}))
    conn.request("POST", parts.path, body=json.dumps(message), headers=headers)
    response = conn.getresponse()
    body = response.read().decode("utf-8", errors="replace")
    conn.close()
    return response.status, body, response.getheader("mcp-session-id")


def through_server(url: str) -> dict:
    """Try the MCP handshake, then search and index_repo, as a client without the owner's token."""
    status, body, session = post(url, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}}, None)
    seen: dict = {"initialize": status}
    bodies = [body]
    if status != 200:
        return {**seen, "bodies": body}
    post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    for number, (tool, arguments) in enumerate([
            ("search_code", {"query": "VAULT_MARKER", "detail_level": "context"}),
            ("search", {"query": "VAULT_MARKER"}),
            ("index_repo", {"force": True})], start=2):
        status, body, _ = post(url, {"jsonrpc": "2.0", "id": number, "method": "tools/call",
                                     "params": {"name": tool, "arguments": arguments}}, session)
        seen[tool] = status
        bodies.append(body)
    return {**seen, "bodies": "".join(bodies)}


def readable(path: str) -> bool:
    """Whether this user can open `path` and read a byte of it."""
    try:
        with open(path, "rb") as handle:
            handle.read(1)
        return True
    except OSError:
        return False


def main() -> None:
    """Probe and print the findings."""
    url, workspace, secret_file = sys.argv[1:4]
    state = os.path.join(workspace, ".cruxgate")
    index_files = []
    for root, _dirs, files in os.walk(os.path.join(workspace, ".cruxgate")):
        index_files += [os.path.join(root, name) for name in files]
    try:
        listed = os.listdir(state)
    except OSError:
        listed = None
    findings = {"uid": os.getuid(), "secret_file_readable": readable(secret_file), "state_listed": listed,
                "index_files_readable": [path for path in index_files if readable(path)],
                # Named, not listed: a folder that cannot be listed may still be entered.
                "database_readable": any(readable(os.path.join(state, f"gen-{n}", "index.db")) for n in (1, 2, 3))}
    findings.update(through_server(url))
    print(json.dumps(findings))


if __name__ == "__main__":
    main()
