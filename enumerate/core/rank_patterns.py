"""Rank patterns: the tables every kernel counting by rank patterns shares.

A *rank pattern* is how many cards of each rank a set holds (a vector of 13 counts, at most four
of a rank); suits do not enter.  Against an up card (ru, s0) the dealer's four hole cards fall into
the 1,820 hole patterns of four cards, each of prod_r C(a_r, h_r) concrete sets when a_r cards of
rank r are left, and only the suit s0 can make the dealer a flush (his five cards include the up
card): a hole pattern of four distinct ranks avoiding ru is exactly one s0 flush when none of its
s0 cards is dead.  :class:`UpTables` holds, for one up rank, the hole patterns sorted by the
strength of the dealer's non-flush hand and the 495 s0 flush patterns with both of their strengths
(used by the seen-hand game, :mod:`enumerate.boxes.seen_ranks`, and the switch game,
:mod:`enumerate.draws.switch_ranks`).
"""
from __future__ import annotations

import itertools
from functools import cache, cached_property, lru_cache
from typing import Any

import numpy as np

from evaluator.ranking import CATEGORY_BY_STRENGTH, Category, rank_counts_by_strength


@cache
def patterns(size: int) -> np.ndarray:
    """Every rank pattern of ``size`` cards ((n, 13) int8, at most four of a rank), in a fixed
    order (lexicographic in the sorted ranks)."""
    rows = []
    for combo in itertools.combinations_with_replacement(range(13), size):
        v = np.bincount(np.array(combo, dtype=np.int64), minlength=13)
        if v.max() <= 4:
            rows.append(v)
    out = np.array(rows, dtype=np.int8)
    out.flags.writeable = False
    return out


def pattern_keys(pattern: np.ndarray, ru: np.ndarray) -> np.ndarray:
    """One integer per (rank pattern, up rank)."""
    return (pattern.astype(np.int64) @ (5 ** np.arange(13, dtype=np.int64))) * 13 + ru.astype(np.int64)


@cache
def _strengths_by_pattern(flush: bool) -> tuple[np.ndarray, np.ndarray]:
    """(sorted pattern keys, strengths): the evaluator's rank counts of every strength, inverted
    for the flushes or for the other hands (each rank pattern is one strength of either kind)."""
    counts = rank_counts_by_strength()
    strength = np.arange(counts.shape[0])
    flushes = np.isin(CATEGORY_BY_STRENGTH[strength], [Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH])
    chosen = strength[flushes == flush]
    keys = pattern_keys(counts[chosen], np.zeros(chosen.size, dtype=np.int64))
    order = np.argsort(keys)
    return keys[order], chosen[order]


def strength_of_patterns(pattern: np.ndarray, flush: bool) -> np.ndarray:
    """Strength of the hand with each five-card rank pattern, a flush or not (flush rows must
    have five distinct ranks)."""
    keys, strength = _strengths_by_pattern(flush)
    wanted = pattern_keys(pattern, np.zeros(pattern.shape[0], dtype=np.int64))
    at = np.minimum(np.searchsorted(keys, wanted), keys.size - 1)
    if not (keys[at] == wanted).all():
        raise ValueError("a rank pattern that is no five-card hand" + (" flush" if flush else ""))
    return strength[at].astype(np.int16)


class UpTables:
    """What the kernel reads for the up rank ``ru``: the dealer's hole rank patterns sorted by
    the strength of their hand with the up card, and the s0 flushes."""

    def __init__(self, ru: int, qualifier: int) -> None:
        holes = patterns(4)
        holes = holes[holes[:, ru] <= 3]
        with_up = holes.astype(np.int64)
        with_up[:, ru] += 1
        st = strength_of_patterns(with_up, False)
        order = np.argsort(st, kind="stable")
        self.hole_st = np.ascontiguousarray(st[order])
        holes = holes[order]
        #: each hole pattern's (rank, multiplicity) pairs, zero-padded; hole_i = 5 * rank + multiplicity
        self.hole_r = np.zeros((holes.shape[0], 4), dtype=np.int8)
        self.hole_m = np.zeros((holes.shape[0], 4), dtype=np.int8)
        for i, h in enumerate(holes):
            nz = np.flatnonzero(h)
            self.hole_r[i, :nz.size] = nz
            self.hole_m[i, :nz.size] = h[nz]
        self.hole_i = np.ascontiguousarray(5 * self.hole_r + self.hole_m, dtype=np.uint8)
        self.iq = int(np.searchsorted(self.hole_st, qualifier, side="left"))
        others = [r for r in range(13) if r != ru]
        subsets = np.array(list(itertools.combinations(range(12), 4)), dtype=np.int64)
        ranks = np.array(others)[subsets]
        pat = np.zeros((subsets.shape[0], 13), dtype=np.int64)
        np.put_along_axis(pat, ranks, 1, axis=1)
        pat[:, ru] += 1
        self.fl_mask = np.ascontiguousarray((1 << subsets).sum(axis=1).astype(np.int32))
        self.fl_st = np.ascontiguousarray(strength_of_patterns(pat, True))
        self.fl_nf = np.ascontiguousarray(strength_of_patterns(pat, False))


    @cached_property
    def flush_below(self) -> tuple[np.ndarray, np.ndarray]:
        """(edges, bank): what the s0 flushes change in the count of hole-card sets whose hand is
        below a strength c, for every set D0 of dead s0 ranks at once.  A flush avoiding D0 is
        counted by the rank part at its non-flush strength nf; its true strength is fl > nf, so
        it is wrongly counted below c exactly when nf < c <= fl.  bank[row(c), D0] = minus the
        flush patterns avoiding D0 with nf < c <= fl, row(c) = searchsorted(edges, c, "right");
        the rows change only at the edges nf + 1 and fl + 1 (fewer than a thousand rows)."""
        edges = np.unique(np.concatenate([self.fl_nf.astype(np.int64) + 1, self.fl_st.astype(np.int64) + 1]))
        rep = np.concatenate([[edges[0] - 1], edges])                   # one strength c of each row
        active = (self.fl_nf[None, :] < rep[:, None]) & (rep[:, None] <= self.fl_st[None, :])
        z = np.zeros((rep.size, 4096), dtype=np.int32)
        z[:, self.fl_mask] = active                                     # every pattern's mask is its own
        for bit in range(12):                                           # sum over the subsets of each mask
            v = z.reshape(rep.size, 1 << (11 - bit), 2, 1 << bit)
            v[:, :, 1, :] += v[:, :, 0, :]
        bank = np.ascontiguousarray(-z[:, ::-1], dtype=np.int16)        # D0 -> the patterns within its complement
        bank.flags.writeable = False
        return edges, bank

    def below_row(self, c: np.ndarray) -> np.ndarray:
        """The row of :attr:`flush_below` for each strength cut c."""
        return np.searchsorted(self.flush_below[0], c, side="right").astype(np.int32)


@lru_cache(maxsize=32)
def up_tables(ru: int, qualifier: int) -> UpTables:
    return UpTables(ru, qualifier)


def situation_keys(table: Any) -> np.ndarray:
    """(rows, 47): the key of each count-table situation's (player rank pattern, up rank), as
    :func:`pattern_keys` makes it -- to sum a table over classes of rank patterns."""
    pattern = rank_counts_by_strength()[table.strength]
    return pattern_keys(pattern, np.zeros(pattern.shape[0], dtype=np.int64))[:, None] + (table.up >> 2).astype(np.int64)
