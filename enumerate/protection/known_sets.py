"""The inputs of the exposure kernel: known dealer-card sets up to suit relabelling, and every
hand in strength order with its strategy-chart group.

A set of j known dealer cards is one of C(52, j); relabelling the four suits (24 ways) changes
no count, so the kernel sees one representative per class, weighted by the class size.
"""
from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from enumerate.core.engine import hand_tables
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)    # 24 x 4

#: Player hand groups of the strategy charts, in increasing strength (kernel group ids).
GROUPS: tuple[str, ...] = (
    "no pair below A-K", "A-K high",
    *(f"pair of {r}s" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")),
    "two pair", "three of a kind", "straight or better",
)


@cache
def known_sets(j: int) -> tuple[np.ndarray, np.ndarray]:
    """``(cards, weight)``: one sorted representative of each suit-relabelling class of j-card
    sets, (n, j) uint8 in increasing colex order, and the class sizes (int64, summing to
    C(52, j))."""
    sets = np.array(list(itertools.combinations(range(52), j)), dtype=np.int64)      # (N, j)
    ranks, suits = sets & ~3, sets & 3
    weights = 52 ** np.arange(j, dtype=np.int64)
    best = np.full(sets.shape[0], np.iinfo(np.int64).max, dtype=np.int64)
    for perm in _PERMS:
        images = np.sort(ranks | perm[suits], axis=1)
        best = np.minimum(best, images @ weights[::-1])   # order-preserving code of the sorted image
    own = np.sort(sets, axis=1) @ weights[::-1]
    codes, weight = np.unique(best, return_counts=True)
    reps = sets[np.isin(own, codes)]
    reps = reps[np.argsort(np.sort(reps, axis=1) @ weights[::-1])]
    if reps.shape[0] != codes.shape[0] or int(weight.sum()) != sets.shape[0]:
        raise AssertionError("suit classes of known sets are inconsistent")
    return np.ascontiguousarray(reps, dtype=np.uint8), weight.astype(np.int64)


class SortedHands:
    """All 2,598,960 hands in increasing strength: sorted cards, card masks, strengths and
    chart groups (:data:`GROUPS`)."""

    def __init__(self) -> None:
        t = hand_tables()
        self.cards = t.sorted_cards
        self.masks = t.sorted_masks
        self.strength = np.repeat(np.arange(len(t.class_start) - 1, dtype=np.int16),
                                  np.diff(t.class_start)).astype(np.int16)
        self.group = _groups(self.cards, CATEGORY_BY_STRENGTH[self.strength])
        # the four per-suit rank masks, 16 bits each
        suits = np.zeros(self.cards.shape[0], dtype=np.uint64)
        for i in range(5):
            c = self.cards[:, i].astype(np.uint64)
            suits |= np.uint64(1) << ((c & np.uint64(3)) * np.uint64(16) + (c >> np.uint64(2)))
        self.suits = suits


def _groups(cards: np.ndarray, category: np.ndarray) -> np.ndarray:
    top = np.sort((cards >> 2).astype(np.int64), axis=1)
    pair_rank = top[np.arange(top.shape[0]), np.argmax(top[:, :-1] == top[:, 1:], axis=1)]
    group = np.full(cards.shape[0], 17, dtype=np.uint8)
    high = category == Category.HIGH_CARD
    group[high] = np.where((top[high, 4] == 12) & (top[high, 3] == 11), 1, 0)
    pair = category == Category.ONE_PAIR
    group[pair] = 2 + pair_rank[pair]
    group[category == Category.TWO_PAIR] = 15
    group[category == Category.TRIPS] = 16
    return group


@cache
def sorted_hands() -> SortedHands:
    """The per-process :class:`SortedHands` (built once, about a second)."""
    return SortedHands()
