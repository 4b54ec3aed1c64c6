"""Every long kernel stops when signalled with SIGINT or SIGTERM (a hang bound, not a speed test), with one line and the signal's
exit code: the exposure kernel (hole cards, edge sorting), the collusion sampler and the design
search.  Each run is a real process, signalled while its kernel is busy."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

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


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("name", sorted(LONG_RUNS))
def test_a_busy_kernel_stops_when_signalled(us_counts, tmp_path, name, sig):
    p = subprocess.Popen([sys.executable, "-m", "studodds", *LONG_RUNS[name], "--quiet"], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                         preexec_fn=hears_sigint)
    time.sleep(5)                  # start, a cold count, the hand lists: the kernel is busy by now
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
