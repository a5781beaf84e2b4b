"""The ``measurelab`` command line.

Each subcommand lives in its own module ``measurelab.cli.<name>`` (``-`` in a command's
name is ``_`` in its module's) with two functions, ``add_parser(subparsers)`` and
``run(args) -> int``; helpers shared by commands are private modules (``_models``,
``_options`` …). Errors of the user's input
(:class:`MeasurelabError`) print one line on standard error and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from measurelab.exceptions import MeasurelabError

SUBCOMMANDS = ("measures", "evaluate", "versus", "ranks", "compare-measures", "study",
               "reproduce", "demo", "power")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, status 2, as argparse does
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line parser; ``only`` builds just that subcommand's options (the
    others' modules, and what they import, are then not loaded)."""
    parser = _Parser(
        prog="measurelab",
        description="Measures that judge classifiers: evaluate, compare, reproduce.",
    )
    from measurelab import __version__

    parser.add_argument("--version", action="version", version=f"measurelab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in SUBCOMMANDS:
        if only is not None and name != only:
            continue
        try:
            mod = importlib.import_module(f"measurelab.cli.{name.replace('-', '_')}")
        except ModuleNotFoundError as exc:
            if exc.name == f"measurelab.cli.{name.replace('-', '_')}":
                continue  # subcommand not built yet
            raise
        p = mod.add_parser(sub)
        p.set_defaults(_run=mod.run)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line (the first non-option word), if any."""
    for a in argv:
        if not a.startswith("-"):
            return a if a in SUBCOMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_command(args_list))
    args = parser.parse_args(args_list)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except MeasurelabError as exc:
        print(f"measurelab {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a path the user gave cannot be used: one line, no traceback
        if exc.filename is None:
            raise
        print(f"measurelab {args.command}: error: {_os_problem(exc)}", file=sys.stderr)
        return 2


def _os_problem(exc: OSError) -> str:
    """One line for an operating-system error on a user's path."""
    name = str(exc.filename)
    if len(name) > 80:
        name = "…" + name[-79:]
    if isinstance(exc, FileExistsError | NotADirectoryError):
        return f"{name!r} is in the way: a file where a folder is needed (or the reverse)"
    if isinstance(exc, PermissionError):
        return f"{name!r}: permission denied"
    return f"{name!r}: {exc.strerror or type(exc).__name__}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
