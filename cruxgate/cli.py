"""The `cruxgate` console script: routes each sub-command to the part that owns it."""

from __future__ import annotations

import sys

# Sub-commands of the reference server and of the conformance side; each part keeps
# its own argument parsing, so this router never grows logic of its own.
REFERENCE_COMMANDS = ("index", "serve-mcp", "search", "locate", "hook")
CONFORMANCE_COMMANDS = ("spec", "surface", "fuzz", "report", "slo")

USAGE = f"""usage: cruxgate COMMAND [ARGS...]

reference server:  {", ".join(REFERENCE_COMMANDS)}
conformance:       {", ".join(CONFORMANCE_COMMANDS)}

`cruxgate COMMAND --help` describes each command.
The conformance suite itself runs under pytest: `pytest conformance/ --target=stdio`."""


def main(argv: list[str] | None = None) -> int:
    """Run one cruxgate sub-command and return its exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    if args[0] == "--version":
        from cruxgate import __version__

        print(f"cruxgate {__version__}")
        return 0
    if args[0] in REFERENCE_COMMANDS:
        from cruxgate.reference.cli import main as run
    elif args[0] in CONFORMANCE_COMMANDS:
        from cruxgate.conformance.cli import main as run
    else:
        print(f"cruxgate: unknown command {args[0]!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
