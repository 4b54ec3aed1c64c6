"""Count tables on demand: from the on-disk cache when it is valid, else computed and cached.

The cache lives under :func:`enumerate.core.array_store.cache_dir` and is keyed by everything that
changes the counts: the qualifier threshold, :data:`enumerate.core.engine.ENGINE_VERSION`, the
SHA-256 of the evaluator's whole hand ordering (:func:`evaluator.ranking.ordering_fingerprint`)
and the cache file's layout (:data:`enumerate.core.array_store.FORMAT`).
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from enumerate.core import array_store as cache
from enumerate.core.atomic import atomic_write_text
from enumerate.core.engine import ENGINE_VERSION, CountTable, compute_counts, hand_tables
from evaluator import _eval
from evaluator.ranking import ordering_fingerprint

_FIELDS = ("hands", "weight", "strength", "up", "no_qualify", "win", "tie")


def fingerprint_memo() -> Path | None:
    """The file that remembers the fingerprint for this build of the evaluator (named by the
    compiled module's path, size and modification time); None when the module cannot be read."""
    module = Path(_eval.__file__)
    try:
        st = module.stat()
    except OSError:
        return None
    build = f"{module.resolve()}\0{st.st_size}\0{st.st_mtime_ns}".encode()
    return cache.cache_dir() / f"evaluator-{hashlib.sha256(build).hexdigest()[:16]}.txt"


@lru_cache(maxsize=1)
def evaluator_fingerprint() -> str:
    """:func:`~evaluator.ranking.ordering_fingerprint`, remembered for this build of the
    evaluator in the cache folder (a file named by the compiled module's path, size and
    modification time), so a warm start neither makes the 2,598,960-hand strength table nor
    hashes it.  It only names cache files: a stale or damaged memo can make a cache miss (the
    counts are then recomputed from the evaluator itself), never a wrong table; certified
    tables record the fingerprint computed afresh."""
    memo = fingerprint_memo()
    if memo is None:
        return ordering_fingerprint()
    try:
        text = memo.read_text(encoding="ascii").strip()
        if re.fullmatch(r"[0-9a-f]{64}", text):
            return text
    except (OSError, UnicodeDecodeError):
        pass
    fingerprint = ordering_fingerprint()
    try:
        atomic_write_text(memo, fingerprint + "\n")
    except OSError:
        pass                                        # a read-only cache folder: recomputed next time
    return fingerprint


def _cache_meta(qualifier: int) -> dict[str, Any]:
    return {"kind": "counts", "qualifier": qualifier, "engine_version": ENGINE_VERSION,
            "evaluator": evaluator_fingerprint()}


def cache_path(qualifier: int) -> Path:
    """Where the count table of a qualifier threshold is cached: the name carries every input
    (the engine version, the evaluator) and the file layout, so another version of the package
    sharing the cache folder keeps a file of its own."""
    meta = _cache_meta(qualifier)
    return cache.cache_dir() / f"counts-q{qualifier}-e{ENGINE_VERSION}-{cache.format_tag()}-{meta['evaluator'][:12]}.bin"


def count_steps() -> int:
    """The progress steps of a count: each canonical hand twice (the sweep's two passes)."""
    return 2 * hand_tables().canon_index.shape[0]


def load_or_compute(
    qualifier: int,
    *,
    use_cache: bool = True,
    threads: int = 1,
    progress: Callable[[int], None] | None = None,
) -> CountTable:
    """The count table for a qualifier threshold.

    A valid cache is used as is.  A missing one is computed and stored; an invalid one
    (truncated, corrupted, other version) is reported with a warning, recomputed and replaced.
    ``progress(n)`` is told of the :func:`count_steps` as they finish (none when the cache is read).
    """
    stored = cache.ArrayCache(cache_path(qualifier), _cache_meta(qualifier), "count", enabled=use_cache)
    arrays = stored.load(_FIELDS)
    if arrays is not None:
        return CountTable(qualifier=qualifier, **{k: arrays[k] for k in _FIELDS})
    table = compute_counts(qualifier, threads=threads, progress=progress)
    stored.save({k: getattr(table, k) for k in _FIELDS})
    return table
