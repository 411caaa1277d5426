"""The target options, declared once as an option table: the pytest plugin, `cruxgate run`, `cruxgate slo` and
`cruxgate fuzz` are each made from it.

Each says how to reach the server under test (transport, profile, command, URL and its token), how long the
run may wait on it, and where the fixtures are.
"""

from __future__ import annotations

import os
from pathlib import Path

from cruxgate.conformance.target import deadline
from cruxgate.conformance.target.option_table import Option, OptionTable

SERVER_TOKEN_ENV = "CRUXGATE_SERVER_TOKEN"  # the bearer token for --server-url, where no other user can read it

OPTIONS = OptionTable("target (as for pytest conformance/)", (
    Option("target", "choice", None, "transport to reach the target over: stdio (default) or http (the "
           "server is started on a free loopback port)", choices=("stdio", "http"), default="stdio"),
    Option("target-profile", "path", "FILE", "target profile YAML (schemas/target-profile.schema.json): "
           "how to start, index and configure the server; default: the bundled reference"),
    Option("server-cmd", "text", "CMD", "the server's launch command ({workspace}, {config}, {state}, "
           "{port} placeholders): with a profile it replaces only the launch command, alone it is the "
           "whole target (no index command, no hooks)"),
    Option("server-url", "text", "URL", "a running Streamable HTTP server (with --target=http): nothing "
           "is prepared, and scenarios that change its workspace or config skip"),
    Option("server-token-file", "path", "FILE", "with --server-url: send `Authorization: Bearer <token>`, "
           f"the token read from FILE (the reference's: WORKSPACE/.cruxgate/http-token); "
           f"${SERVER_TOKEN_ENV} gives the token instead"),
    Option("target-deadline", "seconds", "SECONDS", "every wait on the target ends by then, counted from "
           f"its first use, and sooner once {deadline.rule_summary()}; later "
           f"scenarios are not run (default: {deadline.DEFAULT_SECONDS:g} for the gate, none for the SLO "
           "harness; 0: none)"),
    Option("fixtures-dir", "path", "DIR", "fixture repositories (default: the bundled golden/fixtures/)"),
))


def server_token(token_file: str | None) -> str | None:
    """The bearer token for --server-url: the file's text, else $CRUXGATE_SERVER_TOKEN, else None (OSError, or
    ValueError for an empty one)."""
    if token_file:
        token = Path(token_file).read_text(encoding="utf-8", errors="replace").strip()
        if not token:
            raise ValueError(f"--server-token-file {token_file} is empty")
        return token
    return os.environ.get(SERVER_TOKEN_ENV, "").strip() or None
