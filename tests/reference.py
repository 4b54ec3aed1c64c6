"""An independent, obviously-correct reference for the tests: a numpy hand evaluator written
from the rules (no lookup tables, nothing shared with the Cython code) and a brute-force
counter over all 163,185 dealer hole-card sets of a situation."""
from __future__ import annotations

import itertools

import numpy as np

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


def poker_keys(hands: np.ndarray) -> np.ndarray:
    """A key per row of an (n, 5) card array; keys compare like the hands in poker order."""
    hands = np.asarray(hands, dtype=np.int64)
    ranks = hands // 4
    suits = hands % 4
    counts = (ranks[:, :, None] == np.arange(13)).sum(axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (counts > 0).sum(axis=1)
    # ranks ordered by (count, rank), most significant first
    order = np.argsort(-(counts * 16 + np.arange(13)), axis=1, kind="stable")[:, :5]
    significant = np.where(np.take_along_axis(counts, order, axis=1) > 0, order, 0)
    top_count = counts.max(axis=1)
    hi = ranks.max(axis=1)
    lo = ranks.min(axis=1)
    wheel = (distinct == 5) & (np.sort(ranks, axis=1) == [0, 1, 2, 3, 12]).all(axis=1)
    straight = (distinct == 5) & ((hi - lo == 4) | wheel)
    straight_top = np.where(wheel, 3, hi)
    category = np.select(
        [straight & flush, top_count == 4, (top_count == 3) & (distinct == 2), flush, straight,
         top_count == 3, distinct == 3, distinct == 4],
        [STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, PAIR],
        default=HIGH,
    )
    digits = significant.copy()
    digits[straight] = 0
    digits[straight, 0] = straight_top[straight]
    key = category.copy()
    for j in range(5):
        key = key * 13 + digits[:, j]
    return key


def parse(text: str) -> list[int]:
    ranks, suits = "23456789TJQKA", "cdhs"
    return [ranks.index(t[0].upper()) * 4 + suits.index(t[1].lower()) for t in text.split()]


QUALIFIER_KEY = int(poker_keys(np.array([parse("Ah Kd 4c 3s 2c")]))[0])
_HOLE_SETS = np.array(list(itertools.combinations(range(46), 4)), dtype=np.int64)


def brute_force_counts(player: list[int], up: int, qualifier_key: int = QUALIFIER_KEY):
    """(no_qualify, win, tie, lose) over every dealer hole-card set, by direct evaluation."""
    assert len(set(player) | {up}) == 6
    rest = np.array([c for c in range(52) if c not in player and c != up], dtype=np.int64)
    dealer = np.concatenate([rest[_HOLE_SETS], np.full((len(_HOLE_SETS), 1), up)], axis=1)
    d = poker_keys(dealer)
    p = int(poker_keys(np.array([player]))[0])
    qualifies = d >= qualifier_key
    no_qualify = int((~qualifies).sum())
    win = int((qualifies & (d < p)).sum())
    tie = int((qualifies & (d == p)).sum())
    lose = int((qualifies & (d > p)).sum())
    assert no_qualify + win + tie + lose == 163185
    return no_qualify, win, tie, lose
