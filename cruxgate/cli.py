"""The `cruxgate` console script: routes each sub-command to the part that owns it."""

from __future__ import annotations

import os
import sys

# Sub-commands of the reference server and of the conformance side; each part keeps
# its own argument parsing, so this router never grows logic of its own.
REFERENCE_COMMANDS = ("index", "serve-mcp", "search", "locate", "hook")
CONFORMANCE_COMMANDS = ("run", "spec", "surface", "fuzz", "report", "slo")

USAGE = f"""usage: cruxgate COMMAND [ARGS...]

reference server:  {", ".join(REFERENCE_COMMANDS)}
conformance:       {", ".join(CONFORMANCE_COMMANDS)}

`cruxgate COMMAND --help` describes each command; `cruxgate -V` prints the version.
The gate: `cruxgate run` (options from cruxgate.toml or [tool.cruxgate] in pyproject.toml), which runs
`pytest --pyargs cruxgate.conformance` with them. The reference server's commands need
`pip install 'cruxgate[reference]'`."""


def main(argv: list[str] | None = None) -> int:
    """Run one cruxgate sub-command and return its exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    if args[0] in ("-V", "--version"):
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
    try:
        return run(args)
    except ModuleNotFoundError as exc:
        if args[0] not in REFERENCE_COMMANDS or (exc.name or "").split(".")[0] == "cruxgate":
            raise
        # The extra's distributions are looked up only now: reading every requirement's metadata costs a tenth
        # of a second, which a command that imports fine (a one-file re-index) should not pay.
        from cruxgate import extras

        absent = extras.missing(extras.REFERENCE)
        what = ", ".join(absent) if absent else f"module {exc.name}"  # a checkout's metadata lists no extra
        print(f"cruxgate {args[0]}: the reference server is not installed (missing {what}); "
              f"install it with: {extras.install_hint(extras.REFERENCE)}", file=sys.stderr)
        return 2


def script() -> None:
    """The console script and `python -m cruxgate`: `main()`, then exit with its code."""
    code = main()
    if sys.argv[1:2] == ["index"]:
        # Everything the run wrote is committed, closed and joined by now; the interpreter's teardown (freeing the
        # modules and every object left) cost a one-file re-index of 20k files about 0.1 CPU-s and 0.2-0.4 s wall.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    script()
