"""``python -m studodds`` and the ``studodds`` script run the studodds command line.

A Ctrl-C (or SIGTERM) at any moment ends as any other does -- one line, exit 130 (143) -- not
with a traceback or the signal's default death:

* the first statements of this module, before it imports anything of the package, put in place
  handlers that only record a signal (:func:`_record`): from here on nothing can be cut short;
* :func:`run` then installs the handlers of :mod:`enumerate.core.interrupts` and reports a
  recorded signal as the interruption before it does anything else;
* the command line is imported inside :func:`run` with those handlers in place, so a Ctrl-C
  during its import (a few tenths of a second) is reported too, and is not lost where compiled
  code swallows it.

What no code of ours can reach is the interpreter's own start-up (``site`` and the ``.pth``
files of the installed packages, some tens of milliseconds) and the import of the ``studodds``
package itself (its ``__init__`` imports only its version: about a millisecond), which come
before this module runs."""
import signal
import sys

#: Signals received before :func:`run` installed its handlers (while the package was imported).
_EARLY: list[int] = []


def _record(signum: int, frame: object) -> None:
    """The first handler: remember the signal, raise nothing (nothing is running yet)."""
    _EARLY.append(signum)


def _is_the_command() -> bool:
    """Whether this process is the command line's own -- ``python -m studodds`` or the
    ``studodds`` script -- and not a program that imports this module (a test calling
    :func:`run`), whose signal handlers are not ours to change at import."""
    import os.path  # lazy: only this check needs it (already loaded by the interpreter's start-up)
    return __name__ == "__main__" or os.path.basename(sys.argv[0] if sys.argv else "") in ("studodds", "studodds.exe")


if _is_the_command():
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:    # (an ignored SIGINT stays ignored)
        signal.signal(signal.SIGINT, _record)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _record)

from enumerate.core import interrupts  # noqa: E402 - after the handlers that record a signal


def run() -> int:
    """The ``studodds`` entry point: import the command line and run it on ``sys.argv``."""
    if signal.getsignal(signal.SIGINT) in (signal.default_int_handler, _record):
        signal.signal(signal.SIGINT, interrupts.raise_interrupted)
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, _record):
        signal.signal(signal.SIGTERM, interrupts.raise_terminated)
    try:
        if _EARLY:                              # received while the package was imported
            (interrupts.raise_terminated if _EARLY[0] == signal.SIGTERM else interrupts.raise_interrupted)(_EARLY[0], None)
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
