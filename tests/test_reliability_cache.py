"""Cache integrity: damaged or stale caches are detected and rebuilt; concurrent fills agree."""
import json
import os
import struct
import subprocess
import sys
import tempfile
import warnings
import zlib

import numpy as np
import pytest

from enumerate.core import array_store as cache
from enumerate.core import atomic
from enumerate.core.counts import _cache_meta, cache_path, load_or_compute
from evaluator.ranking import ordering_fingerprint


@pytest.fixture()
def good_bytes(us_counts, own_cache):
    return cache_path(us_counts.qualifier).read_bytes()


def _damaged(good: bytes):
    yield "truncated", good[: len(good) // 2]
    yield "truncated tail", good[:-1]
    flipped = bytearray(good)
    flipped[len(good) - 12345] ^= 0x01
    yield "one bit flipped", bytes(flipped)
    header_len = struct.unpack("<Q", good[len(cache.MAGIC):len(cache.MAGIC) + 8])[0]
    start = len(cache.MAGIC) + 12
    header = json.loads(good[start:start + header_len])
    header["meta"]["engine_version"] = -1
    new = json.dumps(header, sort_keys=True).encode()
    yield "wrong version", cache.MAGIC + struct.pack("<QI", len(new), zlib.crc32(new)) + new + good[start + header_len:]
    # the header is covered too: one flipped bit in an array's offset, or a shape digit changed
    text = good[start:start + header_len].decode()
    for what, old, repl in (("offset bit flipped", '"offset": 0', '"offset": 1'),
                            ("shape digit changed", '"shape": [', '"shape": [1')):
        assert old in text, what
        yield what, good[:start] + text.replace(old, repl, 1).encode() + good[start + header_len:]
    # and a header whose checksum was made to match still has to fit the file
    header = json.loads(good[start:start + header_len])
    name = next(iter(header["arrays"]))
    header["arrays"][name]["length"] += 8
    new = json.dumps(header, sort_keys=True).encode()
    yield "layout beyond the file", cache.MAGIC + struct.pack("<QI", len(new), zlib.crc32(new)) + new + good[start + header_len:]
    yield "not a cache", b"hello"


@pytest.mark.parametrize("which", [pytest.param(w, marks=() if w == "one bit flipped" else pytest.mark.slow) for w in
                                   ["truncated", "truncated tail", "one bit flipped", "wrong version", "offset bit flipped",
                                    "shape digit changed", "layout beyond the file", "not a cache"]])
def test_damaged_cache_is_rebuilt_with_a_warning(us_counts, good_bytes, which):
    path = cache_path(us_counts.qualifier)
    bad = dict(_damaged(good_bytes))[which]
    path.write_bytes(bad)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = load_or_compute(us_counts.qualifier)
    assert any("rebuilding" in str(w.message) for w in caught), which
    for name in ("no_qualify", "win", "tie"):
        assert np.array_equal(getattr(table, name), getattr(us_counts, name))
    assert path.read_bytes() == good_bytes


@pytest.mark.slow
def test_cli_warns_in_one_line_and_still_answers(us_counts, good_bytes):
    path = cache_path(us_counts.qualifier)
    path.write_bytes(good_bytes[:-100])
    r = subprocess.run([sys.executable, "-m", "studodds", "analyze", "--quiet"], capture_output=True, text=True,
                       cwd=tempfile.mkdtemp())
    assert r.returncode == 0 and "1,041,372,912,372" in r.stdout
    assert r.stderr.startswith("studodds: warning: count cache") and r.stderr.count("\n") == 1
    assert path.read_bytes() == good_bytes


@pytest.mark.slow
def test_two_processes_fill_one_cache_concurrently(us_counts, tmp_path):
    env = dict(os.environ, STUDODDS_CACHE_DIR=str(tmp_path))
    cmd = [sys.executable, "-m", "studodds", "analyze", "--json", "--quiet"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tempfile.mkdtemp())
             for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    a, b = (json.loads(o[0]) for o in outs)
    assert a == b and a["total_loss_antes"]["exact"] == "1041372912372"
    files = sorted(os.listdir(tmp_path))
    memo = [f for f in files if f.startswith("evaluator-") and f.endswith(".txt")]   # the evaluator's fingerprint
    files = [f for f in files if f not in memo]
    assert len(memo) == 1 and (tmp_path / memo[0]).read_text().strip() == ordering_fingerprint()
    assert len(files) == 1 and files[0].endswith(".bin"), files     # one cache, no temporaries
    arrays = cache.load_arrays(tmp_path / files[0], _cache_meta(us_counts.qualifier))
    assert np.array_equal(arrays["win"], us_counts.win)


def test_stale_temporaries_of_dead_writers_are_removed(tmp_path):
    dead = tmp_path / f".x.bin.999999999.abc{atomic.TMP_SUFFIX}"
    mine = tmp_path / f".x.bin.{os.getppid()}.abc{atomic.TMP_SUFFIX}"       # a live process
    dead.write_bytes(b"partial")
    mine.write_bytes(b"partial")
    assert atomic.remove_stale_temporaries(tmp_path) == 1
    assert not dead.exists() and mine.exists()
