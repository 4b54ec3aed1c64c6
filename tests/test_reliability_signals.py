"""Every long kernel stops when signalled with SIGINT or SIGTERM (a hang bound, not a speed test), with one line and the signal's
exit code: the exposure kernel (hole cards, edge sorting), the collusion sampler and the design
search.  Each run is a real process, signalled while its kernel is busy."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_runner import hears_sigint

LONG_RUNS = {
    "two-hole-cards": ["holecards", "--exposed", "2", "--no-cache"],         # fast path, two unseen cards
    "three-hole-cards": ["holecards", "--exposed", "3", "--no-cache"],       # the batched one-unseen-card path
    "burn-card": ["collusion", "--partners", "0", "--burn", "yes", "--no-cache"],   # the generic path
    "collusion": ["collusion", "--partners", "1", "--samples", "2000000"],
    "design": ["design", "search", "--vary", "full_house=1..200", "--vary", "flush=1..200", "--vary", "straight=1..200",
               "--vary", "three_of_a_kind=1..200", "--any-order"],
}


#: CPU time a run has used when its start-up is over: imports, the variant, the cached count or a
#: cold one take under a second and a half of it.
STARTED_CPU_SECONDS = 3.0


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, all its threads (``/proc/PID/stat`` fields 14, 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _running_threads(pid: int) -> int:
    """Threads of a process running right now (state R in ``/proc/PID/task/*/stat``)."""
    running = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            running += task.joinpath("stat").read_text().rsplit(")", 1)[1].split()[0] == "R"
        except OSError:                  # the thread ended meanwhile
            pass
    return running


def _busy(p: subprocess.Popen, limit: float = 60.0) -> None:
    """Wait until the run's kernel is busy: start-up over (:data:`STARTED_CPU_SECONDS` of CPU) and
    two threads running at once on three looks in a row -- a kernel's parallel loop, not the
    single-threaded preparation (the hand lists) before it.  Not a fixed sleep: short on a quiet
    machine, longer on a loaded one; after ``limit`` seconds the signal is sent anyway and the
    run's stop is what is tested."""
    end = time.monotonic() + limit
    seen = 0
    while p.poll() is None and time.monotonic() < end and seen < 3:
        try:
            busy = _cpu_seconds(p.pid) >= STARTED_CPU_SECONDS and _running_threads(p.pid) >= 2
        except OSError:                      # the run ended meanwhile
            return
        seen = seen + 1 if busy else 0
        time.sleep(0.02)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("name", sorted(LONG_RUNS))
def test_a_busy_kernel_stops_when_signalled(us_counts, tmp_path, name, sig):
    p = subprocess.Popen([sys.executable, "-m", "studodds", *LONG_RUNS[name], "--quiet"], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                         preexec_fn=hears_sigint)
    _busy(p)
    assert p.poll() is None, f"{name} finished before the signal: make the run longer"
    sent = time.monotonic()
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    stopped = time.monotonic() - sent
    assert p.returncode == (130 if sig == signal.SIGINT else 143), (p.returncode, err[-500:])
    assert err.strip().splitlines()[-1] == ("studodds: interrupted" if sig == signal.SIGINT else "studodds: terminated")
    assert "Traceback" not in err
    # a hang bound, not a speed test: a kernel that did not poll for the signal would run on for
    # minutes; a loaded machine may take a few seconds to schedule the stop
    assert stopped < 30, f"{name}: {stopped:.2f} s after the signal"
