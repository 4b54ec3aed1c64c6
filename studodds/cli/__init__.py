"""The ``studodds`` command line (also ``python -m studodds``): parse, call the public API, print.

One module per command group -- :mod:`~studodds.cli.game` (analyze, variants, hand, ev-table,
strategies, plots, diff), :mod:`~studodds.cli.certify` (batch, check), :mod:`~studodds.cli.simulation` (simulate),
:mod:`~studodds.cli.progressive`, :mod:`~studodds.cli.protection` (holecards, edgesort,
collusion), :mod:`~studodds.cli.design` -- each registering its commands; the conventions they
share are :mod:`~studodds.cli.common`.  No command computes anything itself.

Each command prints either text or, with ``--json``, the returned object's ``to_dict()`` (the
convention of :mod:`enumerate.core.jsonform`, schema in ``studodds/schema.json``).

Exit codes: 0 done; 1 ``check`` found differences, or ``simulate`` is not consistent with the
exact figures; 2 bad input (a :class:`StudoddsError`, a usage error, or a file the system
refused: one line on stderr naming the problem); 3 internal error (a bug: one line, and the
traceback with ``--debug`` or ``STUDODDS_DEBUG=1``); 130 / 143 interrupted / terminated.  A
closed output pipe (``studodds analyze | head``) ends quietly.
"""
from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
import tempfile
import threading
import traceback
import warnings
from collections.abc import Sequence
from typing import Any

from enumerate.core import interrupts
from evaluator.errors import StudoddsError
from studodds import __version__, api
from studodds.cli import certify, design, draws, game, progressive, protection, simulation
from studodds.cli.common import EXIT_BAD_INPUT, EXIT_INTERNAL, Parser, error_text, one_line

__all__ = ["build_parser", "main"]

#: The command groups, in the order ``studodds --help`` lists their commands.
GROUPS = (game, certify, simulation, draws, progressive, protection, design)


def version_text() -> str:
    return (f"studodds {__version__} (engine {api.ENGINE_VERSION}, "
            f"OpenMP {'on' if api.openmp_enabled() else 'off: serial build'})")


class _Version(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *a: Any, **kw: Any) -> None:
        print(version_text())
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="studodds", description="Exhaustive, exact odds for Caribbean Stud Poker.")
    parser.add_argument("--version", action=_Version)
    parser.add_argument("--debug", action="store_true", help="show the traceback of an internal error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for group in GROUPS:
        group.register(sub)
    return parser


def _format_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                    line: str | None = None) -> str:
    return f"studodds: warning: {one_line(message)}\n"


def _quiet_broken_pipe() -> int:
    """The reader went away (``studodds analyze | head``): stop quietly.  Python would try to
    flush stdout again at exit and complain, so point stdout at /dev/null first."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0


def os_error_text(exc: OSError) -> str:
    """The one line for a file the system refused: the file when the error names one; a full
    disk without a file name is a temporary file, so the temporary folder is named."""
    if exc.filename:
        return f"studodds: error: {exc.filename}: {exc.strerror or exc}"
    if exc.errno == errno.ENOSPC:
        return (f"studodds: error: no space left on device: free space in the output folder or in the temporary "
                f"folder {tempfile.gettempdir()} (set TMPDIR to another)")
    return f"studodds: error: {exc.strerror or exc}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    warnings.formatwarning = _format_warning
    main_thread = threading.current_thread() is threading.main_thread()
    # SIGINT and SIGTERM raise exceptions that no user code can be taken for (enumerate.core.interrupts);
    # a SIGINT ignored from the start (a job started in the background) stays ignored
    previous = ((signal.getsignal(signal.SIGINT), signal.signal(signal.SIGTERM, interrupts.raise_terminated))
                if main_thread else None)
    if previous is not None and previous[0] in (signal.default_int_handler, interrupts.raise_interrupted):
        signal.signal(signal.SIGINT, interrupts.raise_interrupted)
    interrupts.forget()
    try:
        code = _run(argv)
        interrupts.raise_if_received()              # a signal whose exception was swallowed on the way
        return code
    except KeyboardInterrupt:
        if main_thread:
            signal.signal(signal.SIGINT, signal.SIG_IGN)   # a second Ctrl-C while this one is reported
        print("studodds: interrupted", file=sys.stderr)
        return 130
    except interrupts.Terminated:
        print("studodds: terminated", file=sys.stderr)
        return 143
    finally:
        interrupts.exit_as_returned()               # the code returned is the process's exit code
        interrupts.forget()                         # the record has served this run (main may be called again)
        if previous is not None and signal.getsignal(signal.SIGINT) is interrupts.raise_interrupted:
            signal.signal(signal.SIGINT, previous[0])     # (not if a Ctrl-C set it to be ignored meanwhile)
        if previous is not None:
            signal.signal(signal.SIGTERM, previous[1])


def _run(argv: Sequence[str] | None) -> int:
    """Parse ``argv`` and run its command: the exit code, every error turned into its one line.
    An error that a signal caused -- an import it cut short (which Python 3.11 may wrap in a
    RuntimeError), a clean-up it disturbed -- is not reported: the signal is raised instead."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:                         # --help, --version, usage errors
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_BAD_INPUT
    except Exception:                                 # (argparse's clean-up can fail when a Ctrl-C cuts it short)
        interrupts.raise_if_received()
        raise
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        code: int = args.func(args)
        sys.stdout.flush()
        return code
    except Exception as exc:
        interrupts.raise_if_received()
        return _failure(exc, args.command, args.debug or os.environ.get("STUDODDS_DEBUG", "") not in ("", "0"))


def _failure(exc: Exception, command: str, debug: bool) -> int:
    """Print the one line for ``exc`` (a closed output pipe: nothing) and return its exit code."""
    if isinstance(exc, BrokenPipeError):
        return _quiet_broken_pipe()
    if isinstance(exc, MemoryError):
        print(f"studodds: error: out of memory in 'studodds {command}': free memory or run fewer jobs at once "
              "(a cold count needs about 0.4 GB, the whole game of a table with draws about 3.6 GB; every size an "
              "option sets is checked against its limit first)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if isinstance(exc, StudoddsError):
        print(error_text(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    if isinstance(exc, OSError):
        print(one_line(os_error_text(exc)), file=sys.stderr)
        return EXIT_BAD_INPUT
    if debug:                                         # a bug: say so, show the traceback on request
        traceback.print_exception(exc)
    print(one_line(f"studodds: internal error: {type(exc).__name__}: {exc}") +
          ("" if debug else " (run with --debug or STUDODDS_DEBUG=1 for the traceback)"), file=sys.stderr)
    return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
