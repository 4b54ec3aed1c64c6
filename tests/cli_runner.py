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


def catches(pid: int, sig: int) -> bool:
    """Whether process ``pid`` has a handler of its own for ``sig`` (Linux: the SigCgt mask of
    /proc/PID/status, bit ``sig - 1``)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    return False


def wait_until_it_catches(p: subprocess.Popen, sig: int, limit: float = 120.0) -> None:
    """Wait until the command ``p`` runs has put its own handler for ``sig`` in place -- for
    SIGTERM, the first statements of ``studodds/__main__.py`` -- or has ended.  Not a fixed sleep:
    a loaded machine may take seconds to start an interpreter, and a signal before the handler is
    the interpreter's default death, which no code of ours can reach."""
    import time
    end = time.monotonic() + limit
    while p.poll() is None and time.monotonic() < end:
        try:
            if catches(p.pid, sig):
                return
        except OSError:                          # ended meanwhile
            return
        time.sleep(0.005)
    assert p.poll() is not None, f"no handler for signal {sig} after {limit} s"
