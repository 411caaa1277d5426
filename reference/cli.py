"""Command line of the reference server: each sub-command lives in the layer that owns it."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# name -> module that defines `add_arguments(parser)` and `run(args) -> int`.
# Modules are imported only for the command that runs, so `cruxgate index` does not
# pay for the MCP SDK import and `serve-mcp` starts as fast as it can.
COMMANDS = {
    "index": ("cruxgate.reference.index.command", "Index a workspace (tree-sitter -> SQLite + Tantivy)."),
    "hook": ("cruxgate.reference.index.hooks", "Put a workspace's index into a test state (conformance hooks)."),
    "search": ("cruxgate.reference.protocol.command", "Search code in an indexed workspace (search_code)."),
    "locate": ("cruxgate.reference.protocol.command", "Locate a symbol definition (locate_symbol)."),
    "serve-mcp": ("cruxgate.reference.server.command", "Serve the workspace over MCP (stdio or Streamable HTTP)."),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Build the parser; only the chosen command's module is imported."""
    parser = argparse.ArgumentParser(prog="cruxgate", description="cruxgate reference server")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            importlib.import_module(module_name).add_arguments(p, name)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse `argv` and run the chosen command."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = args_list[0] if args_list and args_list[0] in COMMANDS else None
    args = build_parser(command).parse_args(args_list)
    # Everything these commands create (index generations, the HTTP token) holds the workspace's text or
    # a secret: owner-only files (0600) and folders (0700), whatever umask the shell had.
    os.umask(0o077)
    module = importlib.import_module(COMMANDS[args.command][0])
    return module.run(args)
