"""The count cache: round trip, corruption detection and rebuild, atomic writes."""
import os
import warnings

import numpy as np
import pytest

from enumerate.core import array_store as cache
from enumerate.core import atomic
from enumerate.core.counts import cache_path, load_or_compute


def test_round_trip(tmp_path):
    arrays = {"a": np.arange(10, dtype=np.uint32), "b": np.ones((3, 4), dtype=np.int16)}
    cache.save_arrays(tmp_path / "x.bin", {"k": 1}, arrays)
    back = cache.load_arrays(tmp_path / "x.bin", {"k": 1})
    assert all(np.array_equal(back[k], v) and back[k].dtype == v.dtype for k, v in arrays.items())


def _corruptions(data: bytes):
    yield "truncated", data[:-7]
    yield "header-only", data[:40]
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x10
    yield "bit flip", bytes(flipped)
    yield "empty", b""
    yield "garbage", b"\x00" * 100


def test_corruption_is_detected(tmp_path):
    path = tmp_path / "x.bin"
    cache.save_arrays(path, {"k": 1}, {"a": np.arange(1000, dtype=np.uint32)})
    good = path.read_bytes()
    for what, bad in _corruptions(good):
        path.write_bytes(bad)
        with pytest.raises(cache.CacheError):
            cache.load_arrays(path, {"k": 1})
    path.write_bytes(good)
    with pytest.raises(cache.CacheError, match="other inputs"):
        cache.load_arrays(path, {"k": 2})


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    path = tmp_path / "y.bin"
    path.write_bytes(b"old")

    def chunks():
        yield b"new part"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic.atomic_write_bytes(path, chunks())
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["y.bin"]


@pytest.mark.slow
def test_corrupted_count_cache_is_rebuilt_with_a_warning(us_counts, own_cache):
    path = cache_path(us_counts.qualifier)
    good = path.read_bytes()
    data = bytearray(good)
    data[-1000] ^= 0xFF
    path.write_bytes(bytes(data))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = load_or_compute(us_counts.qualifier)
    assert any("rebuilding" in str(w.message) for w in caught)
    assert np.array_equal(table.win, us_counts.win)
    assert path.read_bytes() == good          # rebuilt byte-identically


def test_two_layouts_of_the_cache_keep_files_of_their_own(tmp_path, monkeypatch):
    """Two versions of the package sharing a cache folder (a release beside the current tree) do
    not rebuild each other's files on every run: the file layout is part of every cache file's
    name, the count cache's and every keyed file's, so each version finds its own file and
    never reads the other's as a damaged cache."""
    monkeypatch.setenv("STUDODDS_CACHE_DIR", str(tmp_path))
    arrays = {"a": np.arange(10, dtype=np.uint32)}
    names = {}
    old, new = cache.FORMAT, cache.FORMAT + 1
    for layout in (old, new):
        monkeypatch.setattr(cache, "FORMAT", layout)
        monkeypatch.setattr(cache, "MAGIC", f"STUDODDS-ARRAYS {layout}\n".encode())
        names[layout] = (cache_path(1), cache.keyed_path("draws-q1", {"k": 1}))
        assert all(f"-f{layout}-" in p.name for p in names[layout])
        for path in names[layout]:
            cache.ArrayCache(path, {"k": 1}, "test").save(arrays)
    assert set(names[old]).isdisjoint(names[new])
    for layout in names:                     # each version reads its own file back, without a warning
        monkeypatch.setattr(cache, "FORMAT", layout)
        monkeypatch.setattr(cache, "MAGIC", f"STUDODDS-ARRAYS {layout}\n".encode())
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for path in names[layout]:
                assert np.array_equal(cache.ArrayCache(path, {"k": 1}, "test").load()["a"], arrays["a"])
