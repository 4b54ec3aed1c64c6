"""``python -m studodds`` and the ``studodds`` script run the studodds command line.

The command line is imported here, inside :func:`run`, with the SIGINT and SIGTERM handlers of
:mod:`enumerate.core.interrupts` already in place, so that a Ctrl-C during its import (a few
tenths of a second) ends as any other does -- one line, exit 130 (143 for SIGTERM) -- not with
a traceback or the signal's default death, and is not lost where compiled code swallows it."""
import signal
import sys

from enumerate.core import interrupts


def run() -> int:
    """The ``studodds`` entry point: import the command line and run it on ``sys.argv``."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:    # (an ignored SIGINT stays ignored)
        signal.signal(signal.SIGINT, interrupts.raise_interrupted)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, interrupts.raise_terminated)
    try:
        try:
            from studodds.cli import main  # here, not at the top: its import is what a Ctrl-C may cut short
        except Exception:
            interrupts.raise_if_received()      # an import error that the Ctrl-C caused (numpy reports one)
            raise
        interrupts.raise_if_received()          # a Ctrl-C that the import swallowed
    except KeyboardInterrupt:
        print("studodds: interrupted", file=sys.stderr)
        interrupts.exit_as_returned()
        return 130
    except interrupts.Terminated:
        print("studodds: terminated", file=sys.stderr)
        return 143
    return main()


if __name__ == "__main__":
    sys.exit(run())
