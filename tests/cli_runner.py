"""Run the command line in-process (fast) or as a subprocess (the real thing, for smoke tests)."""
import contextlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args, cwd=None):
    """``studodds ARGS`` through ``studodds.cli.main(argv)`` in this process, from ``cwd``."""
    from studodds.cli import main
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in args])
    finally:
        os.chdir(old)
    return Result(code, out.getvalue(), err.getvalue())


def run_process(*args, cwd=None, env=None, timeout=600):
    """``python -m studodds ARGS`` as a subprocess."""
    r = subprocess.run([sys.executable, "-m", "studodds", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, env=env, timeout=timeout, stdin=subprocess.DEVNULL)
    return Result(r.returncode, r.stdout, r.stderr)


def hears_sigint() -> None:
    """``preexec_fn`` of a process a test interrupts: SIGINT back to its default, as a terminal
    would deliver it.  A test runner started in the background (``cmd &``, nohup, some CI shells)
    has SIGINT ignored, every child inherits that, and a Python started that way rightly keeps
    ignoring it, so the signal under test would never arrive."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)
