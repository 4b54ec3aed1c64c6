"""Brute-force spot checks: the counts of sampled situations recomputed by evaluating every one
of the 163,185 dealer completions directly (no inclusion-exclusion, no sweep)."""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from enumerate.analysis.situation import SituationCounts, counts_of
from enumerate.core.engine import COMPLETIONS, CountTable
from evaluator.ranking import strengths


@lru_cache(maxsize=1)
def _hole_sets() -> np.ndarray:
    return np.array(list(itertools.combinations(range(46), 4)), dtype=np.uint8)


def brute_force(cards: tuple[int, ...], up: int, qualifier: int, threads: int = 1) -> SituationCounts:
    """Counts of one situation by evaluating all 163,185 dealer hands."""
    rest = np.array([c for c in range(52) if c not in cards and c != up], dtype=np.uint8)
    dealer = np.empty((COMPLETIONS, 5), dtype=np.uint8)
    dealer[:, :4] = rest[_hole_sets()]
    dealer[:, 4] = up
    d = strengths(dealer, threads=threads).astype(np.int64)
    p = int(strengths(np.array([cards], dtype=np.uint8))[0])
    q = d >= qualifier
    nq = int((~q).sum())
    win = int((q & (d < p)).sum()) if p >= qualifier else 0
    tie = int((q & (d == p)).sum())
    return SituationCounts(nq, win, tie, COMPLETIONS - nq - win - tie)


def sample_situations(n: int, seed: int = 20261129) -> list[tuple[tuple[int, ...], int]]:
    """``n`` situations drawn with a fixed seed (the same in every run)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        cards = rng.choice(52, size=6, replace=False)
        out.append((tuple(int(c) for c in cards[:5]), int(cards[5])))
    return out


def spot_check(table: CountTable, n: int = 8, threads: int = 1) -> int:
    """Compare ``n`` sampled situations against brute force; raise AssertionError on any
    difference, return the number checked."""
    for cards, up in sample_situations(n):
        fast = counts_of(table, cards, up)
        slow = brute_force(cards, up, table.qualifier, threads)
        if fast != slow:
            raise AssertionError(f"spot check failed for {cards} up {up}: engine {fast}, brute force {slow}")
    return n
