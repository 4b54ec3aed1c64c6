"""Resources: peak memory of a cold count, and clear errors when memory or disk runs out."""
import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

PEAK = """
import os
os.environ["STUDODDS_CACHE_DIR"] = {cache!r}
from enumerate.core.engine import compute_counts
from enumerate.rules.qualifier import Qualifier
compute_counts(Qualifier.ace_king().threshold)
status = open("/proc/self/status").read()
print(next(l.split()[1] for l in status.splitlines() if l.startswith("VmHWM")))
"""

LIMITED = """
import resource, signal, sys
kind, amount = sys.argv[1], int(sys.argv[2])
if kind == "fsize":
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)      # a full disk: writes fail with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (amount, amount))
else:
    resource.setrlimit(resource.RLIMIT_AS, (amount, amount))
from studodds.cli import main
sys.exit(main(sys.argv[3:]))
"""


@pytest.mark.slow
def test_peak_memory_of_a_cold_count_is_under_2_gb(tmp_path):
    r = subprocess.run([sys.executable, "-c", PEAK.format(cache=str(tmp_path))], capture_output=True, text=True,
                       cwd=tempfile.mkdtemp())
    assert r.returncode == 0, r.stderr
    peak_kb = int(r.stdout.strip())
    assert peak_kb < 2 * 1024 * 1024, f"peak {peak_kb / 1024:.0f} MB"


def _limited(kind, amount, *args, cache=None):
    env = dict(os.environ)
    if cache:
        env["STUDODDS_CACHE_DIR"] = str(cache)
    return subprocess.run([sys.executable, "-c", LIMITED, kind, str(amount), *args], capture_output=True, text=True,
                          cwd=tempfile.mkdtemp(), env=env)


@pytest.mark.slow
def test_full_disk_gives_a_clear_error_and_no_half_written_file(us_counts, tmp_path):
    out = tmp_path / "out"
    r = _limited("fsize", 200_000, "batch", "us-common", "--out", str(out), "--quiet")
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("studodds: error: ") and "File too large" in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    files = [f for f in out.rglob("*") if f.is_file()]
    assert not [f for f in files if f.name.endswith(".studodds-tmp")]
    # whatever was written is whole: rendered files are compared with a normal run
    full = tmp_path / "full"
    assert subprocess.run([sys.executable, "-m", "studodds", "batch", "us-common", "--out", str(full), "--quiet"],
                          cwd=tempfile.mkdtemp()).returncode == 0
    for f in files:
        if f.name == "environment.json":            # machine and date: whole, but its time differs
            assert json.loads(f.read_text())["kind"] == "environment"
            continue
        assert f.read_bytes() == (full / f.relative_to(out)).read_bytes()


@pytest.mark.slow
def test_full_disk_while_writing_the_count_cache(tmp_path):
    r = _limited("fsize", 1_000_000, "analyze", "--quiet", cache=tmp_path)
    # the cache cannot be written: a warning, and the answer is still exact
    assert r.returncode == 0, r.stderr
    assert "1,041,372,912,372" in r.stdout
    assert "could not write count cache" in r.stderr
    # nothing half-written: only the evaluator's fingerprint memo (65 bytes, whole) fits the limit
    left = list(tmp_path.iterdir())
    assert all(re.fullmatch(r"evaluator-[0-9a-f]{16}\.txt", f.name) and re.fullmatch(r"[0-9a-f]{64}\n", f.read_text())
               for f in left), left
    assert len(left) <= 1


@pytest.mark.slow
def test_out_of_memory_gives_a_clear_error(tmp_path):
    r = _limited("as", 350 * 1024 * 1024, "analyze", "--no-cache", "--quiet", "--threads", "1", cache=tmp_path)
    assert r.returncode == 2, (r.returncode, r.stderr[-500:])
    assert r.stderr.strip().splitlines()[-1].startswith("studodds: error: out of memory")
    assert "Traceback" not in r.stderr
