"""Determinism: result files are byte-identical across runs, thread counts and cache states."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest


def _batch(out: Path, cache_dir: Path, threads: str):
    env = dict(os.environ, STUDODDS_CACHE_DIR=str(cache_dir), OMP_NUM_THREADS=threads)
    env.pop("STUDODDS_THREADS", None)
    r = subprocess.run([sys.executable, "-m", "studodds", "batch", "us-common", "uk-casino-stud", "--out", str(out),
                        "--quiet"], capture_output=True, text=True, env=env, cwd=tempfile.mkdtemp())
    assert r.returncode == 0, r.stderr
    files = {str(f.relative_to(out)): f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()}
    for name in ("us-common", "uk-casino-stud"):      # where and when: recorded, not a result
        assert json.loads(files.pop(f"{name}/environment.json"))["kind"] == "environment"
    return files


@pytest.mark.slow
def test_byte_identical_across_threads_and_cache_state(tmp_path):
    cold1 = _batch(tmp_path / "a", tmp_path / "cache1", "1")       # cold cache, one thread
    cold2 = _batch(tmp_path / "b", tmp_path / "cache2", "2")       # cold cache, two threads
    warm1 = _batch(tmp_path / "c", tmp_path / "cache2", "1")       # warm cache, one thread
    warm2 = _batch(tmp_path / "d", tmp_path / "cache1", "2")       # warm cache, two threads
    assert len(cold1) == 14                                         # 2 variants x 7 files
    assert cold1 == cold2 == warm1 == warm2
    cache1 = next((tmp_path / "cache1").iterdir()).read_bytes()
    cache2 = next((tmp_path / "cache2").iterdir()).read_bytes()
    assert cache1 == cache2                                         # the cache itself too
