"""The exact value of seeing one partner's hand, counted by rank patterns: the whole game in
about 90 core-minutes.

:mod:`enumerate.protection.seen_hand` sweeps the dealer's hole cards once per class (partner's
hand, up card) -- 6,319,573 classes, some 560 core-hours for the whole game.  This module counts
the same sums another way, from one observation: **the dealer's five cards include the up card,
so the only flush the dealer can make is in the up card's suit**.  Fix the up card (ru, s0).  For
a player P and a partner Q, the dealer's C(41, 4) hole-card sets split by their rank pattern h
(how many cards of each rank): a pattern is prod_r C(a_r, h_r) sets, a_r = 4 - p_r - q_r - [r = ru]
with p and q the rank patterns of P and Q -- suits do not enter -- and every set is the
non-flush hand of its ranks except that a pattern of four distinct ranks avoiding ru is also
exactly one s0 flush when none of its s0 cards is dead.  So the dealer's counts (no qualifier,
win, tie) of (P, Q, u) depend on P only through its strength (its rank pattern and whether it is
a flush) and on (P, Q) only through (p, q) and D0, the ranks whose s0 card P or Q holds:

    counts(P, Q, u) = rank part(p, q)  +  G_sp[D0].

The rank part is one pass over the 1,820 hole rank patterns sorted by the dealer's strength (no
qualifier, win and tie are three prefix sums); G_sp[D0] moves each s0 flush avoiding D0 from the
class of its non-flush hand to the flush's class, for all 4,096 sets D0 at once by a subset-sum
transform over the 12 other ranks.  The normal game's decision of (P, u) is the same formula with
no partner: rank part(p, 0) + G_sp[SP], SP the ranks of P's s0 cards.

Every concrete (P, Q) is then one leaf (p, q, SP, SQ) -- SQ the ranks of Q's s0 cards -- with a
multiplicity that is a product over ranks of binomials (the other three suits' cards of each
rank shared out between P and Q), and P is a flush exactly when SP is all of five distinct ranks
(an s0 flush) or, with SP empty, in 3 of its 3^5 choices among the other suits.  Per leaf both
decisions are exact integer comparisons (:mod:`enumerate.raise_value`'s form, as the class sweep
makes them), so the sums -- situations, the value seeing the partner V, the value of the normal
decision N, the raises and the changed decisions -- are the class sweep's, to the last integer,
in units of 1 / (scale * 101,270) antes.  A "class" here is (player rank pattern, up rank):
6,175 patterns less the 12 holding four cards of the up rank, 80,119 classes for the whole game,
each weighted by its concrete (P, u) pairs; every leaf is summed over all partner patterns.

Two checks come free.  N summed over every partner is the normal game itself (each hole set is
counted once for each partner hand that avoids it), so a whole up-rank slice's N equals the
normal game's expected result on that slice from the count table -- :func:`run_slice` verifies
it on every run.  And the situations are every (P, Q, u) of the slice.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from enumerate.boxes import _seen_ranks
from enumerate.core.parallel import interruptible
from enumerate.core.projection import Projection
from enumerate.core.rank_patterns import UpTables, pattern_keys, patterns, situation_keys, strength_of_patterns, up_tables
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant import Variant
from evaluator.ranking import CATEGORY_BY_STRENGTH

#: Player rank patterns per shard (a checkpoint file; about 5 core-seconds).
SHARD = 64
#: Bump when what a shard holds or how it is valued changes.
VERSION = 2
#: Core-seconds a class, measured on the reference machine (docs/speed.md: 0.069 for the seen
#: game, 0.076-0.102 counted as pairs): what a whole game is projected from before it starts
#: (:mod:`enumerate.core.projection`), never a figure of it.
CORE_SECONDS_PER_CLASS = 0.07
CORE_SECONDS_PER_CLASS_AS_PAIRS = 0.09
#: The concrete partner hands of each (player hand, up card), and the hole-card sets of each.
PLAYER_HANDS = math.comb(46, 5)
FIELDS = ("situations", "seen", "normal", "seen_raised", "normal_raised", "changed")
#: The kernel's sums: FIELDS, then the return table of the game seen (10 categories x 5 outcomes).
SUMS = len(FIELDS) + 50
#: With two boxes, then: the cross moment of the boxes' results (units 1 / (scale^2 * 101,270)
#: antes^2 a situation), the situations where both boxes raise, and the other box's own value and
#: second moment (units 1 / (scale * 101,270) and 1 / (scale^2 * 101,270)): on a slice that holds
#: every (P, Q) with (Q, P) -- any slice of up ranks -- they equal the player's box's.
PAIR_FIELDS = ("cross", "both_raised", "other_value", "other_square")


def player_patterns(ru: int) -> np.ndarray:
    """The player rank patterns possible against an up card of rank ``ru``."""
    p = patterns(5)
    return np.ascontiguousarray(p[p[:, ru] <= 3])


def pattern_weights(p: np.ndarray, ru: np.ndarray) -> np.ndarray:
    """Concrete (player hand, up card) pairs of each (rank pattern, up rank): 4 up cards, and
    C(4, p_r) cards of each rank (C(3, p_ru) of the up rank)."""
    avail = 4 - (np.arange(13)[None, :] == ru[:, None]).astype(np.int64)
    c = np.vectorize(math.comb)(avail, p.astype(np.int64))
    return 4 * c.prod(axis=1)


def classes(up_ranks: frozenset[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(patterns (N, 13) uint8, up ranks (N,) uint8, weights (N,) int64): the (player rank
    pattern, up rank) classes of the up ranks, in a fixed order."""
    ps, us = [], []
    for ru in sorted(up_ranks):
        p = player_patterns(ru)
        ps.append(p)
        us.append(np.full(p.shape[0], ru, dtype=np.uint8))
    p = np.concatenate(ps).astype(np.uint8)
    u = np.concatenate(us)
    return np.ascontiguousarray(p), u, pattern_weights(p, u.astype(np.int64))


def whole_game_classes() -> int:
    """The classes (player rank pattern, up rank) of the whole game: 80,119."""
    return sum(player_patterns(ru).shape[0] for ru in range(13))


def whole_game_projection(what: str, pairs: bool = True) -> Projection:
    """What counting the whole game from nothing costs (``pairs``: as two boxes), projected from
    the measured core-seconds a class."""
    return Projection(what, whole_game_classes(), "class",
                      CORE_SECONDS_PER_CLASS_AS_PAIRS if pairs else CORE_SECONDS_PER_CLASS)


def _strengths(p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(non-flush strength, flush strength or -1, their categories) of each five-card rank pattern."""
    distinct = (p <= 1).all(axis=1)
    s_nf = strength_of_patterns(p.astype(np.int64), False)
    s_fl = np.full(p.shape[0], -1, dtype=np.int16)
    s_fl[distinct] = strength_of_patterns(p[distinct].astype(np.int64), True)
    cat_nf = CATEGORY_BY_STRENGTH[s_nf].astype(np.int8)
    cat_fl = np.where(distinct, CATEGORY_BY_STRENGTH[np.maximum(s_fl, 0)], 0).astype(np.int8)
    return np.ascontiguousarray(s_nf), s_fl, cat_nf, cat_fl


def partner_cuts(t: UpTables, q: np.ndarray, qualifier: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(cuts (n, 10) int32, categories (n, 2) int8, the qualifier's bank row): what the two-box
    kernel reads of each partner pattern, for its non-flush and its flush strength s -- the
    qualifier's prefix index, then the prefix index and :attr:`UpTables.flush_below` row of the
    sets below max(s, qualifier) and below max(s + 1, qualifier)."""
    s_nf, s_fl, cat_nf, cat_fl = _strengths(q)
    s_fl = np.where(s_fl < 0, s_nf, s_fl).astype(np.int64)
    parts = []
    for s in (s_nf.astype(np.int64), s_fl):
        lo, hi = np.maximum(s, qualifier), np.maximum(s + 1, qualifier)
        parts += [np.full(s.size, t.iq), np.searchsorted(t.hole_st, lo, "left"), t.below_row(lo),
                  np.searchsorted(t.hole_st, hi, "left"), t.below_row(hi)]
    cats = np.stack([cat_nf, np.where((q <= 1).all(axis=1), cat_fl, cat_nf)], axis=1).astype(np.int8)
    return (np.ascontiguousarray(np.stack(parts, axis=1), dtype=np.int32), np.ascontiguousarray(cats),
            int(t.below_row(np.array([qualifier]))[0]))


def pattern_sums(variant: Variant, p: np.ndarray, ru: int, q: np.ndarray | None = None,
                 threads: int = 1, pairs: bool = False) -> np.ndarray:
    """(n, 56) object array of exact ints: for each player pattern ``p`` against an up card of rank
    ``ru`` (of one suit), the sums of :data:`FIELDS` and the return table of the game seen
    (per category: raised hands' hole-card sets by outcome, folded hands') over every partner
    pattern of ``q`` (default: all) and every suit assignment.  With ``pairs`` (n, 58): the
    partner is the player's second box, and :data:`PAIR_FIELDS` follow."""
    value = RaiseValue.of(variant)
    qualifier = variant.qualifier.threshold
    t = up_tables(ru, qualifier)
    p = np.ascontiguousarray(p, dtype=np.int8)
    q = patterns(5) if q is None else np.ascontiguousarray(q, dtype=np.int8)
    sp_nf, sp_fl, cat_nf, cat_fl = _strengths(p)
    cuts = np.stack([np.searchsorted(t.hole_st, sp_nf, "left"), np.searchsorted(t.hole_st, sp_nf, "right"),
                     np.searchsorted(t.hole_st, sp_fl, "left"), np.searchsorted(t.hole_st, sp_fl, "right")],
                    axis=1).astype(np.int32)
    coef = np.array([value.c_nq, value.c_tie, value.c_lose, value.scale], dtype=np.int64)
    out = np.zeros((p.shape[0], SUMS + (len(PAIR_FIELDS) if pairs else 0), 2), dtype=np.uint64)
    extra: dict[str, Any] = {}
    if pairs:
        qcuts, qcat, bq = partner_cuts(t, q, qualifier)
        extra = {"qcuts": qcuts, "qcat": qcat, "bank": t.flush_below[1], "bq": bq}
    interruptible(lambda cancel: _seen_ranks.value_patterns(
        ru, p, sp_nf, sp_fl, cat_nf, cat_fl, np.ascontiguousarray(cuts), q, t.hole_i,
        t.iq, t.fl_mask, t.fl_st, t.fl_nf, qualifier, coef,
        np.ascontiguousarray(value.c_win, dtype=np.int64), np.ascontiguousarray(value.thresholds, dtype=np.int64),
        out, threads, cancel, **extra))
    lo = out[:, :, 0].astype(object)
    hi = out[:, :, 1].astype(np.int64).astype(object)
    return hi * (1 << 64) + lo


def shard_sums(variant: Variant, cards: np.ndarray, up: np.ndarray, threads: int = 1, pairs: bool = False) -> list[int]:
    """The sums of a shard's classes (player rank pattern, up rank), over every partner and all
    four up cards of each rank: :data:`FIELDS`, then the return table of the game seen (and with
    ``pairs`` the two boxes' :data:`PAIR_FIELDS`)."""
    total = [0] * (SUMS + (len(PAIR_FIELDS) if pairs else 0))
    for ru in sorted(set(up.tolist())):
        rows = np.flatnonzero(up == ru)
        sums = pattern_sums(variant, cards[rows].astype(np.int8), ru, threads=threads, pairs=pairs)
        total = [a + 4 * int(x) for a, x in zip(total, sums.sum(axis=0))]
    return total


def normal_check(table: Any, variant: Variant, cls: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[int, int]:
    """(concrete (hand, up card) pairs, the normal game's optimal result summed over them in
    units of 1 / (scale * 163,185) antes) over the classes ``cls`` (player rank pattern, up rank),
    from the count table: what the normal decisions' value N over every partner must come to
    (see the module docstring)."""
    ev = RaiseValue.of(variant).optimal_numerators(table)
    on = np.isin(situation_keys(table), pattern_keys(cls[0], cls[1]))
    w = table.weight[:, None]
    return int((w * on).sum()), sum(int(x) for x in (ev * on * w).sum(axis=1))
