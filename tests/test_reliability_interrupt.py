"""Interruption: a batch killed with SIGINT, SIGTERM or SIGKILL at random points leaves every
previously written result intact, no half-written file, and a rerun completes the batch."""
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from cli_runner import hears_sigint, wait_until_it_catches

pytestmark = pytest.mark.slow

VARIANTS = ["us-common", "uk-casino-stud", "royal-200", "cyberstud", "progressive-100-75-50"]
OUTSIDE = tempfile.mkdtemp(prefix="studodds-int-")
MARK = b"\n<!-- previous version -->\n"


def batch(out: Path, env=None):
    return subprocess.Popen([sys.executable, "-m", "studodds", "batch", *VARIANTS, "--out", str(out), "--replace", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=OUTSIDE, env=env, preexec_fn=hears_sigint)


@pytest.fixture(scope="module")
def expected(us_counts, tmp_path_factory):
    out = tmp_path_factory.mktemp("expected")
    start = time.monotonic()
    p = batch(out)
    p.communicate(timeout=600)
    assert p.returncode == 0
    files = {str(f.relative_to(out)): f.read_bytes() for f in out.rglob("*") if f.is_file()
             and f.name != "environment.json"}
    return files, time.monotonic() - start


def _prepare(folder: Path, expected):
    """A results folder holding an older version of every file plus an unrelated table."""
    for rel, data in expected.items():
        f = folder / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(data + MARK)
    keep = folder / "unrelated-table"
    keep.mkdir()
    (keep / "summary.json").write_text('{"kept": true}\n')


def _check_state(folder: Path, expected, allow_temporaries: bool):
    # a temporary is anything named *.studodds-tmp: a file being written, or a batch's staging
    # folder and everything in it
    temporaries = [f for f in folder.rglob("*") if any(part.endswith(".studodds-tmp") for part in f.relative_to(folder).parts)]
    if not allow_temporaries:
        assert not temporaries, temporaries
    for f in folder.rglob("*"):
        if not f.is_file() or f in temporaries:
            continue
        rel = str(f.relative_to(folder))
        if f.name == "environment.json":          # differs by date; it must be whole
            assert json.loads(f.read_text())["kind"] == "environment"
            continue
        if rel.startswith("unrelated-table"):
            assert f.read_text() == '{"kept": true}\n'
            continue
        data = f.read_bytes()
        assert data in (expected[rel], expected[rel] + MARK), f"{rel} is neither the old nor the new file"
    return len(temporaries)


CASES = [(sig, k) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL) for k in range(2)]


@pytest.mark.parametrize("sig,k", CASES, ids=lambda x: getattr(x, "name", str(x)))
def test_kill_at_a_random_point_then_rerun(expected, tmp_path, sig, k):
    expected, duration = expected
    rng = random.Random(1000 * int(sig) + k)
    _prepare(tmp_path, expected)
    fraction = rng.uniform(0.1, 0.8)                     # somewhere inside a run of this length
    for _attempt in range(6):
        p = batch(tmp_path)
        # never before the command's handlers are in place (SIGTERM's is put there together with
        # SIGINT's), however long a loaded machine takes to start the interpreter
        wait_until_it_catches(p, signal.SIGTERM)
        time.sleep(fraction * duration)
        p.send_signal(sig)
        _, err = p.communicate(timeout=120)
        err = err.decode()
        if p.returncode != 0:
            break
        # the batch won the race and completed: the files are all new, which is a valid state
        # but tests nothing; start again from old files and signal twice as early
        _check_state(tmp_path, expected, allow_temporaries=False)
        shutil.rmtree(tmp_path)
        tmp_path.mkdir()
        _prepare(tmp_path, expected)
        fraction /= 2
    assert p.returncode != 0, "the batch always finished before the signal"
    if sig == signal.SIGINT:
        assert p.returncode == 130 and err.strip().splitlines()[-1] == "studodds: interrupted"
        assert "Traceback" not in err
    elif sig == signal.SIGTERM:
        assert p.returncode == 143 and err.strip().splitlines()[-1] == "studodds: terminated"
        assert "Traceback" not in err
    _check_state(tmp_path, expected, allow_temporaries=(sig == signal.SIGKILL))
    rerun = batch(tmp_path)
    rerun.communicate(timeout=600)
    assert rerun.returncode == 0
    assert _check_state(tmp_path, expected, allow_temporaries=False) == 0
    for rel, data in expected.items():                      # the rerun completed everything
        assert (tmp_path / rel).read_bytes() == data
