"""Concrete situations (player's five cards, dealer up card) and their rows in a count table.

Suit relabelling maps every situation onto one whose player hand is canonical (per-suit rank
masks non-increasing in suit order); the counts are the same for both.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.shapes import Count
from evaluator.ranking import hand_index


class SituationCountsJSON(TypedDict):
    """A situation's dealer completions by outcome."""

    no_qualify: Count
    win: Count
    tie: Count
    lose: Count


@dataclass(frozen=True)
class SituationCounts:
    """Dealer outcomes over the 163,185 hole-card sets of one situation."""

    no_qualify: int
    win: int
    tie: int
    lose: int

    @property
    def total(self) -> int:
        return self.no_qualify + self.win + self.tie + self.lose

    def to_dict(self) -> SituationCountsJSON:
        return {"no_qualify": self.no_qualify, "win": self.win, "tie": self.tie, "lose": self.lose}


def canonical(cards: tuple[int, ...], up: int) -> tuple[tuple[int, ...], int]:
    """Relabel suits so that the player's per-suit rank masks are non-increasing; returns the
    sorted canonical player cards and the correspondingly relabelled up card."""
    masks = [0, 0, 0, 0]
    for c in cards:
        masks[c & 3] |= 1 << (c >> 2)
    # new suit k is the old suit with the k-th largest mask (ties broken by old suit: any
    # choice among equal masks gives the same player hand)
    order = sorted(range(4), key=lambda s: (-masks[s], s))
    new_suit = {old: new for new, old in enumerate(order)}
    relabel = lambda c: (c & ~3) | new_suit[c & 3]  # noqa: E731
    return tuple(sorted(relabel(c) for c in cards)), relabel(up)


def locate(table: CountTable, cards: tuple[int, ...], up: int) -> tuple[int, int]:
    """Row and column of a concrete situation in ``table``."""
    canon, u = canonical(tuple(cards), up)
    index = table.hand_indices
    key = hand_index(canon)
    row = int(np.searchsorted(index, key))
    if row >= index.shape[0] or index[row] != key:
        raise AssertionError("canonical hand missing from the count table")
    col = int(np.flatnonzero(table.up[row] == u)[0])
    return row, col


def counts_of(table: CountTable, cards: tuple[int, ...], up: int) -> SituationCounts:
    """Exact dealer-outcome counts of one concrete situation."""
    row, col = locate(table, cards, up)
    nq, win, tie = (int(a[row, col]) for a in (table.no_qualify, table.win, table.tie))
    return SituationCounts(nq, win, tie, COMPLETIONS - nq - win - tie)
