"""The exact game with switches of any number of cards (and a sixth card for sale or not), counted by
rank patterns: the whole game in a few core-hours instead of ~1,800.

:mod:`enumerate.draws.exact` values each situation (player hand, up card) up to suits with the
dead-card engine, 6,319,573 classes at about a core-second each.  This module counts the same sums
another way, from the observation that makes the seen-hand game cheap
(:mod:`enumerate.core.rank_patterns`): **the dealer's only possible flush is in the up card's suit
s0**, so with the up card fixed to (ru, s0) the dealer's counts against a final hand depend on the
cards out of play only through their rank pattern and the ranks whose s0 card is dead.

For a situation H against (ru, s0), switching the cards X draws k = |X| of the 46 unseen cards --
whatever is discarded -- and the dealer's hole cards avoid all of H and the draw D.  So:

* the hole-card weights of a draw depend only on h + d (h, d the rank patterns of H and D): one
  pass over the 1,820 hole patterns per **group** (h, ru) and draw pattern d serves every situation
  with that pattern and every discard of |d| cards, which differ only in the final hand's strength
  h - x + d (a cut point of the same prefix sums);
* the s0 flushes are corrected by the ranks D0 = SH + SD whose s0 card the player (SH) or the draw
  (SD) holds, a table lookup (:func:`tables`);
* the draws of pattern d are leaves (d, SD), each standing for a product of binomials of concrete
  draws (the s0 card of each drawn rank drawn or not, the other suits' cards shared out); their
  values depend on the situation only through SH -- except for the draws that make the final hand
  a **flush**, which are few (the kept cards all of one suit and the draw all of it) and are
  corrected per situation.

**Buying a sixth card** is one more action drawn like a one-card switch -- the dealer avoids the six
cards -- whose final hand is the best five of the six: the same leaves, valued at that hand, and
the draws that give the six a flush corrected per situation (the kernel's docstring).

Each situation's 32 switch actions and the purchase are then exact sums, the best one (the table's
tie order: keep, then fewer cards, then the order of the cards, then buying) is chosen by exact
128-bit comparisons of the EVs less the fees, and its outcomes are summed by kind of action (the class path's :class:`ShardSums`, with
the value of keeping in every situation besides).  The situations of a group are the concrete
hands with its pattern up to the permutations of the three suits other than s0.

Two checks come free.  Keeping is the plain game, so the value of keeping summed over a slice's
situations equals the plain game's optimal result over them from the count table, to the last
integer (:func:`keep_check`, run at the end of every run by :mod:`enumerate.draws.exact`); and the
return table the outcomes make values to the EV sum.  :mod:`enumerate.draws.exact`'s class path
(every situation through the dead-card engine) is the independent path this one is tested against.
"""
from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, NamedTuple

import numpy as np

from enumerate.core.parallel import interruptible
from enumerate.core.projection import Projection
from enumerate.core.rank_patterns import pattern_keys, patterns, situation_keys, strength_of_patterns, up_tables
from enumerate.core.slices import Slice
from enumerate.draws import _switch_ranks
from enumerate.draws.actions import KINDS, action_kind, cards_drawn, chart_key
from enumerate.draws.game import hand_group
from enumerate.draws.hand import OUTCOME_STATS, raise_form
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant import Variant
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

#: Groups (player rank pattern, up rank) per shard (a checkpoint file; some 10 core-seconds).
SHARD = 64
#: Bump when what a shard holds or how it is valued changes.
VERSION = 1
#: Core-seconds a group when every switch size 1..5 is allowed, measured on the reference
#: machine (docs/speed.md: 0.044-0.050 for the Russian draws and Galewind on one day, 0.103 for
#: Galewind on another): what a whole game is projected from before it starts
#: (:mod:`enumerate.core.projection`), never a figure of it.
CORE_SECONDS_PER_GROUP = 0.1


def core_seconds_per_group(variant: Variant) -> float:
    """About what a group of ``variant``'s whole game costs: :data:`CORE_SECONDS_PER_GROUP` in
    proportion to the work of its switch sizes -- a size k values C(5, k) discards against the
    C(12 + k, k) rank patterns of the k cards drawn -- so a table switching one or two cards is
    projected at a twentieth of one switching any number (measured: 2.5 minutes on one thread,
    projected 6)."""
    def work(k: int) -> int:
        return math.comb(5, k) * math.comb(12 + k, k)
    d = variant.draws
    sizes = [] if d is None or d.switch is None else list(d.switch.fees)
    mine = sum(work(k) for k in sizes) + (13 if d is not None and d.buy_fee is not None else 0)
    return CORE_SECONDS_PER_GROUP * max(mine, 13) / sum(work(k) for k in range(1, 6))


def whole_game_projection(variant: Variant) -> Projection:
    """What counting ``variant``'s whole switch game from nothing costs (:func:`core_seconds_per_group`)."""
    return Projection("the whole switch game", whole_game_groups(), "group", core_seconds_per_group(variant))
UNSEEN = 46
KIND_FIELDS = _switch_ranks.kind_fields(len(Category))
GROUP_FIELDS = _switch_ranks.group_fields(len(Category))
N_STRENGTHS = 7462


def supported(variant: Variant) -> str | None:
    """Why the rank patterns do not count ``variant``'s game with draws (None: they do)."""
    d = variant.draws
    if d is None or (d.switch is None and d.buy_fee is None):
        return "the table offers no switching or sixth card"
    return None


# ---------------------------------------------------------------------------------------------
# Groups and their situations

def _flush_strengths(h: np.ndarray) -> tuple[int, int | None]:
    """The strengths of the five-card hands of pattern h: not suited, and suited (None: not distinct)."""
    nf = int(strength_of_patterns(h[None, :].astype(np.int64), False)[0])
    fl = int(strength_of_patterns(h[None, :].astype(np.int64), True)[0]) if (h <= 1).all() else None
    return nf, fl


@cache
def _pattern_categories() -> tuple[np.ndarray, np.ndarray]:
    """Per five-card rank pattern (in :func:`patterns` order): its category unsuited and suited
    (-1: not five distinct ranks)."""
    p = patterns(5).astype(np.int64)
    nf = CATEGORY_BY_STRENGTH[strength_of_patterns(p, False)]
    fl = np.full(p.shape[0], -1, dtype=np.int64)
    distinct = (p <= 1).all(axis=1)
    fl[distinct] = CATEGORY_BY_STRENGTH[strength_of_patterns(p[distinct], True)]
    return nf, fl


@lru_cache(maxsize=8)
def groups(sl: Slice) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(patterns (N, 13) uint8, up ranks (N,) uint8, situations (N,) int64): the groups of the
    slice -- every player rank pattern against each of its up ranks that has a situation in the
    slice's categories -- in a fixed order, each with its concrete (hand, up card) situations in
    the slice (four up cards of the rank)."""
    p = patterns(5)
    nf, fl = _pattern_categories()
    cats = np.array(sorted(int(c) for c in sl.categories))
    ps, us, ws = [], [], []
    for ru in sorted(sl.up_ranks):
        ok = p[:, ru] <= 3
        avail = np.where(np.arange(13) == ru, 3, 4)
        total = np.prod(np.vectorize(math.comb)(np.broadcast_to(avail, p.shape), p.astype(np.int64)), axis=1)
        suited = np.where(fl >= 0, np.where(p[:, ru] > 0, 3, 4), 0)      # s0 cannot be suited with the up rank
        n = np.where(np.isin(nf, cats), total - suited, 0) + np.where(np.isin(fl, cats), suited, 0)
        ok &= n > 0
        ps.append(p[ok])
        us.append(np.full(int(ok.sum()), ru, dtype=np.uint8))
        ws.append(4 * n[ok])
    out = (np.ascontiguousarray(np.concatenate(ps), dtype=np.uint8), np.concatenate(us),
           np.concatenate(ws).astype(np.int64))
    for a in out:
        a.flags.writeable = False            # kept by the cache: a slice's groups are made once a process
    return out


@cache
def whole_game_groups() -> int:
    """The groups of the whole game (player rank pattern, up rank): 80,119."""
    return int(groups(Slice())[1].shape[0])


def group_situations(h: np.ndarray, ru: int, categories: frozenset[Category]) -> tuple[np.ndarray, np.ndarray]:
    """(cards (n, 5) uint8 sorted, weights (n,) int64): the situations of the group (h, ru) in
    ``categories``, one hand per orbit of the permutations of suits 1-3 (the up card is (ru, 0)),
    weighted by its orbit times the four up cards.  The representative is the hand whose suit
    rank sets (as 13-bit numbers) are non-increasing over suits 1, 2, 3."""
    choices = []
    for r in np.flatnonzero(h):
        suits = (1, 2, 3) if r == ru else (0, 1, 2, 3)
        choices.append([[4 * int(r) + s for s in combo] for combo in itertools.combinations(suits, int(h[r]))])
    nf, fl = _flush_strengths(h)
    cat_nf, cat_fl = CATEGORY_BY_STRENGTH[nf], (CATEGORY_BY_STRENGTH[fl] if fl is not None else None)
    cards, weights = [], []
    for parts in itertools.product(*choices):
        hand = sorted(c for part in parts for c in part)
        m = [0, 0, 0, 0]
        for c in hand:
            m[c & 3] |= 1 << (c >> 2)
        if not m[1] >= m[2] >= m[3]:
            continue
        suited = max(bin(x).count("1") for x in m) == 5
        if (cat_fl if suited else cat_nf) not in categories:
            continue
        stab = 6 if m[1] == m[2] == m[3] else 2 if (m[1] == m[2] or m[2] == m[3]) else 1
        cards.append(hand)
        weights.append(4 * (6 // stab))
    return np.array(cards, dtype=np.uint8).reshape(-1, 5), np.array(weights, dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# The tables of an up rank

class SwitchTables:
    """What the kernel reads for the up rank ``ru``: the hole patterns and their cuts at every
    strength, and the s0 flushes' corrections by strength class and dead s0 ranks."""

    def __init__(self, ru: int, qualifier: int, threads: int = 1) -> None:
        t = up_tables(ru, qualifier)
        self.hole_i, self.iq = t.hole_i, t.iq
        strengths = np.arange(N_STRENGTHS)
        self.cut_lo = np.maximum(np.searchsorted(t.hole_st, strengths, "left"), t.iq).astype(np.int32)
        self.cut_hi = np.maximum(np.searchsorted(t.hole_st, strengths, "right"), t.iq).astype(np.int32)
        values = np.unique(np.concatenate([t.fl_st, t.fl_nf]).astype(np.int64))
        at = np.searchsorted(values, strengths)
        equal = (at < values.size) & (values[np.minimum(at, values.size - 1)] == strengths)
        self.cls = (2 * at + equal).astype(np.int16)
        n_cls = 2 * values.size + 1
        self.gtab = np.zeros((n_cls, 4096, 3), dtype=np.int16)
        _switch_ranks.flush_tables(t.fl_mask, np.searchsorted(values, t.fl_st).astype(np.int32),
                                   np.searchsorted(values, t.fl_nf).astype(np.int32),
                                   (t.fl_st < qualifier).astype(np.uint8), (t.fl_nf < qualifier).astype(np.uint8),
                                   self.gtab, threads)


@lru_cache(maxsize=2)
def switch_tables(ru: int, qualifier: int) -> SwitchTables:
    return SwitchTables(ru, qualifier)


@cache
def draw_patterns() -> tuple[np.ndarray, np.ndarray]:
    """Every rank pattern of 0..5 cards, by size ((n, 13) int8) and the offsets of each size."""
    rows = [patterns(k) for k in range(6)]
    off = np.cumsum([0] + [r.shape[0] for r in rows]).astype(np.int64)
    return np.ascontiguousarray(np.concatenate(rows), dtype=np.int8), off


class SwitchRules:
    """The table's rules as the kernel reads them: the classes of final hand and what raising and
    insuring each is worth (by default the plain game's raise form by category, no insurance;
    ``scale`` given: the caller sets them, as :mod:`enumerate.russian.ranks` does), which numbers
    of cards may be switched and whether a sixth card may be bought (kind 6), their fees over one
    denominator, whether switching five forces the raise, and each kind's unit tden[k] = scale *
    C(46 - k', 4) * C(46, k'), k' = k but 1 for buying (a draw of one card)."""

    def __init__(self, variant: Variant, scale: int | None = None) -> None:
        reason = supported(variant)
        if reason is not None:
            raise StudoddsError(f"variant {variant.name!r}: {reason}")
        d = variant.draws
        assert d is not None
        none = np.zeros(0, dtype=np.int16)
        self.cins, self.pc6, self.pc6_five, self.pc6_six = np.zeros((0, 4), dtype=np.int64), none, none, none
        if scale is None:
            value = raise_form(variant, math.comb(UNSEEN, 5))
            self.scale = value.scale
            # the classes of final hand are the categories: raising nets nq * c_nq + win * c_win +
            # tie * c_tie - n * (c_tie - bonus), no insurance
            self.pclass = CATEGORY_BY_STRENGTH.astype(np.int16)
            self.cnet = np.array([[value.c_nq, value.c_win[c], value.c_tie, value.bonus[c] - value.c_tie]
                                  for c in range(len(Category))], dtype=np.int64)
        else:
            self.scale = scale
        switch = d.switch.fees if d.switch is not None else {}
        self.allowed = np.array([1] + [int(k in switch) for k in range(1, 6)] + [int(d.buy_fee is not None)],
                                dtype=np.uint8)
        fees = [d.fee(k) if self.allowed[k] else Fraction(0) for k in range(6)]
        fees.append(d.buy_fee if d.buy_fee is not None else Fraction(0))
        self.fees = fees
        self.fee_den = math.lcm(*(f.denominator for f in fees))
        self.fee_num = np.array([int(f * self.fee_den) for f in fees], dtype=np.int64)
        self.forced5 = bool(d.switch is not None and d.switch.all_five_must_raise)
        self.draws = [math.comb(UNSEEN, cards_drawn(k)) for k in range(len(KINDS))]
        self.tden = [self.scale * math.comb(UNSEEN - cards_drawn(k), 4) * self.draws[k] for k in range(len(KINDS))]
        top = max(self.tden)
        if (2**62 * top * self.fee_den + int(np.abs(self.fee_num).max()) * top * top) >= 2**126:
            raise StudoddsError(f"variant {variant.name!r}: pays or fees too fine for exact 128-bit comparison")

    @property
    def n_stat(self) -> int:
        """The kernel's outcome classes: the classes of final hand, twice with insurance."""
        return self.cnet.shape[0] * (2 if self.cins.shape[0] else 1)

    #: The fields a final term adds per outcome class (none here; enumerate/draws/_final_term.pxd).
    n_term = 0
    #: With a final term that never takes away: the coefficients (as ``cnet``) of a raise worth at
    #: least raising with the term, by which the kernel leaves out the discards no situation of a
    #: group can take (None: every discard valued with the term).
    cnet_hi: np.ndarray | None = None
    #: The coefficients (as ``cnet``) of a dealt hand kept, where its pays differ from a drawn
    #: hand's (a table that pays the ante on a win only without a draw), or None: ``cnet``'s.
    cnet_kept: np.ndarray | None = None
    #: Per field of a kind's sums after the situations' count, the column of each situation's sums
    #: it adds to (-1: none), or None: no sums per situation (:func:`value_groups`).
    sit_col: np.ndarray | None = None

    def term(self, ru: int) -> object | None:
        """The final term the kernel adds to raising against the up rank ``ru`` (a capsule), or None."""
        return None


# ---------------------------------------------------------------------------------------------
# One shard

class GroupValues(NamedTuple):
    """What :func:`value_groups` returns for its groups against one up rank."""

    #: per group its sums (n, group_fields(n_stat, n_term)), exact ints
    sums: np.ndarray
    #: per group its situations (cards, weights)
    sits: list[tuple[np.ndarray, np.ndarray]]
    #: per situation, every group's in order: the best action's mask, whether keeping raises
    best: np.ndarray
    keep_raised: np.ndarray
    #: per situation, the best action's fields summed by the rules' columns (``sit_col``), or None
    columns: np.ndarray | None


def value_groups(rules: SwitchRules, qualifier: int, h: np.ndarray, ru: int, categories: frozenset[Category],
                 threads: int = 1, actions: Callable[[np.ndarray, int], np.ndarray] | None = None) -> GroupValues:
    """The groups ``h`` (rank patterns) against the up rank ``ru`` valued by the kernel; with
    ``actions`` (a strategy's draw: the situations' cards, sorted, up card of suit 0, and the up
    rank -> each one's switch mask over its cards or BUY_ACTION), each situation takes that action
    in place of its best, and the sums are the strategy's."""
    t = switch_tables(ru, qualifier)
    sits = [group_situations(row, ru, categories) for row in h]
    off = np.cumsum([0] + [c.shape[0] for c, _ in sits]).astype(np.int64)
    cards = np.ascontiguousarray(np.concatenate([c for c, _ in sits]) if sits else np.zeros((0, 5), np.uint8),
                                 dtype=np.uint8)
    w = np.ascontiguousarray(np.concatenate([x for _, x in sits]) if sits else np.zeros(0, np.int64), dtype=np.int64)
    dvec, d_off = draw_patterns()
    out = np.zeros((h.shape[0], _switch_ranks.group_fields(rules.n_stat, rules.n_term), 2), dtype=np.uint64)
    best = np.zeros(cards.shape[0], dtype=np.int8)
    keep_raised = np.zeros(cards.shape[0], dtype=np.uint8)
    col = rules.sit_col
    columns = None if col is None else np.zeros((cards.shape[0], int(col.max(initial=-1)) + 1), dtype=np.int64)
    interruptible(lambda cancel: _switch_ranks.value_groups(
        ru, np.ascontiguousarray(h, dtype=np.int8), off, cards, w, dvec, d_off, t.hole_i, t.iq,
        t.cut_lo, t.cut_hi, t.cls, t.gtab, rules.allowed, rules.forced5, rules.scale, rules.pclass,
        rules.cnet, rules.cins, rules.pc6, rules.pc6_five, rules.pc6_six,
        np.array(rules.tden, dtype=np.int64), rules.fee_num, rules.fee_den, out, best, keep_raised, threads, cancel,
        rules.term(ru), None, rules.cnet_hi, col, columns, rules.cnet_kept,
        None if actions is None else np.ascontiguousarray(actions(cards, ru), dtype=np.int8)))
    lo = out[:, :, 0].astype(object)
    hi = out[:, :, 1].astype(np.int64).astype(object)
    return GroupValues(hi * (1 << 64) + lo, sits, best, keep_raised, columns)


def situation_groups(labels: dict[tuple[int, ...], str], sits: list[tuple[np.ndarray, np.ndarray]]) -> list[str]:
    """The hand group of each situation of ``sits`` (groups in order); ``labels`` keeps the groups
    found (by ranks and the most cards of a suit)."""
    out = []
    for cards, _ in sits:
        for hand in cards.tolist():
            suits = [x & 3 for x in hand]
            gk = (*sorted(x >> 2 for x in hand), max(suits.count(s) for s in range(4)))
            group = labels.get(gk)
            if group is None:
                group = labels[gk] = hand_group(tuple(hand))
            out.append(group)
    return out


def add_chart(chart: dict[str, int], groups: list[str], weights: list[int], ru: int, best: np.ndarray,
              keep_raised: np.ndarray) -> None:
    """Count situations against the up rank ``ru`` -- their hand groups (:func:`situation_groups`)
    and weights, in order, each with its best action and whether keeping raises -- into the
    strategy chart's cells."""
    for i, (group, wt) in enumerate(zip(groups, weights)):
        j = action_kind(int(best[i]))
        label = ("keep and raise" if keep_raised[i] else "keep and fold") if j == 0 else KINDS[j]
        ck = chart_key(group, ru, label)
        chart[ck] = chart.get(ck, 0) + wt


def shard_fields(variant: Variant, h: np.ndarray, up: np.ndarray, categories: frozenset[Category],
                 threads: int = 1) -> dict[str, Any]:
    """A shard's sums, as :class:`enumerate.draws.exact.ShardSums` holds them (the fields of its
    JSON, without the digest), plus ``keep``: the value of keeping summed over every situation,
    in units of scale * C(46, 4) per situation."""
    start = time.perf_counter()
    rules = SwitchRules(variant)
    q = variant.qualifier.threshold
    situations = [0] * len(KINDS)
    value = [0] * len(KINDS)
    raised = [0] * len(KINDS)
    outcomes = [[[0] * len(OUTCOME_STATS) for _ in Category] for _ in KINDS]
    keep = 0
    chart: dict[str, int] = {}
    labels: dict[tuple[int, ...], str] = {}
    for ru in sorted(set(up.tolist())):
        rows = np.flatnonzero(up == ru)
        sums, sits, best, keep_raised, _ = value_groups(rules, q, h[rows], ru, categories, threads)
        total = sums.sum(axis=0)
        for j in range(len(KINDS)):
            base = KIND_FIELDS * j
            situations[j] += int(total[base])
            value[j] += int(total[base + 1])
            raised[j] += int(total[base + 2])
            for c in range(len(Category)):
                for s in range(len(OUTCOME_STATS)):
                    outcomes[j][c][s] += int(total[base + 3 + 8 * c + s])
        keep += int(total[GROUP_FIELDS - 1])
        add_chart(chart, situation_groups(labels, sits), [wt for _, w in sits for wt in w.tolist()], ru, best,
                  keep_raised)
    ev = sum((Fraction(value[j], rules.tden[j]) - rules.fees[j] * situations[j] for j in range(len(KINDS))),
             Fraction(0))
    raised_share = sum((Fraction(raised[j], rules.draws[j]) for j in range(len(KINDS))), Fraction(0))
    return {"situations": situations, "outcomes": outcomes, "ev": str(ev), "raised": str(raised_share), "chart": chart,
            "actions": [], "keep": keep, "seconds": time.perf_counter() - start}


def keep_check(table: Any, variant: Variant, groups: tuple[np.ndarray, np.ndarray, np.ndarray],
               categories: frozenset[Category]) -> tuple[int, int]:
    """(situations, the plain game's optimal result summed over them in units of scale *
    C(46, 4)) over the situations of ``groups`` in ``categories``, from the count table: what the
    value of keeping over a run's situations must come to."""
    ev = RaiseValue.of(variant.base_game()).optimal_numerators(table)
    on = np.isin(situation_keys(table), pattern_keys(groups[0], groups[1]))
    on &= np.isin(CATEGORY_BY_STRENGTH[table.strength], [int(c) for c in categories])[:, None]
    w = table.weight[:, None]
    return int((w * on).sum()), sum(int(x) for x in (ev * on * w).sum(axis=1))
