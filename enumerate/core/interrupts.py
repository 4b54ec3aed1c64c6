"""Signals as exceptions that a user's code cannot be mistaken for.

A user's strategy or module is input: whatever it raises -- an exception, ``SystemExit``, even
``KeyboardInterrupt`` -- is its failure, reported as a :class:`~evaluator.errors.StudoddsError`
naming it.  A Ctrl-C that arrives *while* that code runs is not its failure: it is the user
stopping the job, and must stop it (exit 130 on the command line, ``KeyboardInterrupt`` in
Python).  Python raises the same ``KeyboardInterrupt`` for both, so the two are told apart by
type: the command line's handlers (and :func:`signals_marked`, around a user's code called from
Python) raise :class:`Interrupted` for SIGINT and :class:`Terminated` for SIGTERM, and code that
wraps a user's call re-raises :data:`RECEIVED` before it reports anything else.

``Interrupted`` is a ``KeyboardInterrupt``, so every ``except KeyboardInterrupt`` -- the command
line's exit 130, the kernels' cancellation (:func:`enumerate.core.parallel.interruptible`), a
Python user's own handler -- treats it as before.
"""
from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Interrupted(KeyboardInterrupt):
    """SIGINT, as received (not a ``KeyboardInterrupt`` that some code raised itself)."""


class Terminated(BaseException):
    """SIGTERM, turned into an exception so that temporary files are cleaned up."""


#: What a wrapper of user code re-raises as it is: the signals the process received.
RECEIVED = (Interrupted, Terminated)

#: The exception of a signal received since :func:`forget` -- kept because the first raise can be
#: lost: compiled code that clears errors (a Cython module's import-time registration with
#: ``collections.abc``, measured losing a Ctrl-C that landed in it) swallows it, and the job
#: would run to its end.  :func:`raise_if_received` at the points where work is committed raises
#: it again.
_received: type[BaseException] | None = None


def failure_text(exc: BaseException) -> str:
    """What a user's code raised, for the message that names it: the exception's type, then its
    text (at most 200 characters) when it has one -- ``ValueError: bad hand``, ``SystemExit``."""
    text = str(exc)[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def raise_interrupted(signum: int, frame: object) -> None:
    """A SIGINT handler: raise :class:`Interrupted`."""
    global _received
    _received = Interrupted
    raise Interrupted()


def raise_terminated(signum: int, frame: object) -> None:
    """A SIGTERM handler: raise :class:`Terminated` (a second SIGTERM while it is handled is
    ignored: the process is already stopping)."""
    global _received
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _received = Terminated
    raise Terminated()


def forget() -> None:
    """Start afresh: no signal received (a command line run's start; the end of user code)."""
    global _received
    _received = None


def raise_if_received() -> None:
    """Raise the exception of a signal received since :func:`forget` (again, if its first raise
    was swallowed); nothing otherwise.  Called before a file or folder is committed, before a
    kernel starts, and when a command's work is done."""
    if _received is not None:
        raise _received()


def exit_as_returned() -> None:
    """Call when the process is to exit with a code of its own (130 for a Ctrl-C, 2 for a user
    strategy that raised KeyboardInterrupt).  CPython 3.11 remembers a plain KeyboardInterrupt
    that passed through code run from a string -- a dataclass's or a named tuple's generated
    methods, made while a module is imported; a user's ``exec`` -- and at exit kills the process
    with SIGINT instead of the code asked for; it forgets when code is next run from a string,
    which an empty string does."""
    exec("")                                    # resets the interpreter's record, runs nothing


@contextmanager
def signals_marked() -> Iterator[None]:
    """Around a call of user code: a SIGINT in the meantime raises :class:`Interrupted` (and
    does so when the context ends if the user's code swallowed it).  Only where Python's default
    handler is in place (the command line installs its own, which already does) and on the main
    thread (the only one that receives signals); elsewhere a no-op."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    forget()
    previous = signal.signal(signal.SIGINT, raise_interrupted)
    try:
        yield
        raise_if_received()
    finally:
        signal.signal(signal.SIGINT, previous)
        forget()
