"""Every action of one Russian Poker situation, from the rank-pattern kernel of the whole game.

The kernel of :mod:`enumerate.russian.ranks` values every situation of a group (a player rank
pattern against an up rank) action by action before it keeps each situation's best; asked for
those rows (``_switch_ranks.value_groups(..., rows=...)``), a group of one situation gives every
decision of one hand: each action's value after the optimal raise, insurance and purchases on
every draw, its raised and insured draws, the dealer hands bought.  The situation is put in the
kernel's frame -- the up card's suit made suit 0, the other suits 1, 2, 3 in order -- and each
action's switch mask (over the sorted hand in that frame) read back as the cards it discards.

Units, as the whole game's (:func:`enumerate.russian.ranks.shard_fields`): an action of kind j
draws C(46, k) card sets, each against C(46 - k, 4) dealer hole-card sets; its value is in units
of 1 / (tden[j] * dn[j]) antes before the fee; draws raised and insured are counted per draw, the
games bought and the dealer hands that qualify per draw and hole-card set -- the same integers as
the situation's draws counted one by one (:func:`enumerate.russian.draws.situation_actions`, which
the tests compare action by action).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from functools import partial
from typing import Literal

import numpy as np

from enumerate.core.parallel import interruptible
from enumerate.draws import _switch_ranks
from enumerate.draws.actions import BUY, action_kind, cards_drawn
from enumerate.draws.hand import allowed_actions
from enumerate.draws.switch_ranks import UNSEEN, draw_patterns, switch_tables
from enumerate.rules.variant import Variant
from enumerate.russian.draws import RussianAction, RussianSituation, instant_situations
from enumerate.russian.ranks import RussianRankRules, rank_rules, supported
from evaluator.errors import StudoddsError


def _frame(cards: tuple[int, ...], up: int) -> tuple[tuple[int, ...], dict[int, int]]:
    """The situation in the kernel's frame (the up card's suit 0, the others 1, 2, 3 in order):
    its sorted cards, and each of them mapped back to the card it stands for."""
    su = up & 3
    order = [su] + [s for s in range(4) if s != su]
    to_frame = {s: i for i, s in enumerate(order)}
    back = {4 * (c >> 2) + to_frame[c & 3]: c for c in cards}
    return tuple(sorted(back)), back


def situation_by_ranks(variant: Variant, cards: tuple[int, ...], up: int, threads: int = 1) -> RussianSituation:
    """Every allowed action of the situation (``cards`` against ``up``), valued exactly by the
    rank-pattern kernel: the same actions, values and counts as
    :func:`enumerate.russian.draws.situation_actions`, best first (ties: the table's order)."""
    return situations_by_ranks(variant, cards, [up], threads)[0]


def situations_by_ranks(variant: Variant, cards: tuple[int, ...], ups: list[int], threads: int = 1,
                        progress: Callable[[int], None] | None = None, *, use_cache: bool = True
                        ) -> list[RussianSituation]:
    """:func:`situation_by_ranks` against each up card of ``ups`` (in their order), the up cards of
    one rank together: a group each, or -- one up card of its rank -- its kinds of action shared
    among the threads (:func:`_kind_bins`); ``progress`` is called with the number of up cards done;
    ``use_cache``: the table's classes of final hand read from (or kept in) the disk cache."""
    reason = supported(variant)
    if reason is not None:
        raise StudoddsError(f"variant {variant.name!r}: {reason}")
    instant = instant_situations(variant, cards, ups)
    if instant is not None:                           # paid at once whatever the up card: no kernel
        if progress is not None:
            progress(len(ups))
        return instant
    rules = rank_rules(variant, use_cache=use_cache)
    found: dict[int, RussianSituation] = {}
    for ru in sorted({u >> 2 for u in ups}):
        mine = [u for u in ups if u >> 2 == ru]
        frames = [_frame(cards, u) for u in mine]
        bins = _kind_bins(rules.allowed, threads if len(mine) == 1 else 1)
        term = rules.term(ru)          # made here, once: the calls side by side share it
        rows = interruptible(partial(_rows, rules, variant, ru, term, frames, bins, threads))
        for i, u in enumerate(mine):
            found[u] = _situation(variant, rules, cards, u, frames[i], rows[i])
        if progress is not None:
            progress(len(mine))
    return [found[u] for u in ups]


#: About what each kind of action (keep, switch 1..5, buy) costs the kernel for one situation: its
#: draw rank patterns times its discard patterns (buying: the one-card draws' 13).
_KIND_COST = (1, 65, 910, 4550, 9100, 6188, 13)


def _kind_bins(allowed: np.ndarray, threads: int) -> list[list[int]]:
    """The table's kinds of action in at most ``threads`` bins of about equal cost, the largest
    first each into the bin with the least (keep, which every call of the kernel values, in the
    first)."""
    bins: list[list[int]] = [[0] for _ in range(max(1, threads))]
    cost = [0] * len(bins)
    for k in sorted((k for k in range(1, 7) if allowed[k]), key=lambda k: -_KIND_COST[k]):
        b = cost.index(min(cost))
        bins[b].append(k)
        cost[b] += _KIND_COST[k]
    return [b for b in bins if len(b) > 1] or bins[:1]


def _rows(rules: RussianRankRules, variant: Variant, ru: int, term: object | None,
          frames: list[tuple[tuple[int, ...], dict[int, int]]], bins: list[list[int]], threads: int,
          cancel: np.ndarray) -> np.ndarray:
    """The kernel's rows of the situations ``frames`` against the up rank ru (each its own group),
    each bin of kinds in a call of its own, those calls side by side; every action's row from the
    call that values its kind."""
    t = switch_tables(ru, variant.qualifier.threshold)
    dvec, d_off = draw_patterns()
    n, n_stat, n_term = len(frames), rules.n_stat, rules.n_term
    h = np.zeros((n, 13), dtype=np.int8)
    for c in frames[0][0]:
        h[:, c >> 2] += 1
    cards = np.array([f for f, _ in frames], dtype=np.uint8)
    shape = (n, _switch_ranks.ACTIONS, _switch_ranks.kind_fields(n_stat, n_term) - 1, 2)

    def call(kinds: list[int]) -> np.ndarray:
        allowed = np.array([int(k in kinds and bool(rules.allowed[k])) for k in range(7)], dtype=np.uint8)
        rows = np.zeros(shape, dtype=np.uint64)
        _switch_ranks.value_groups(
            ru, h, np.arange(n + 1, dtype=np.int64), cards, np.ones(n, dtype=np.int64), dvec, d_off, t.hole_i,
            t.iq, t.cut_lo, t.cut_hi, t.cls, t.gtab, allowed, rules.forced5, rules.scale, rules.pclass, rules.cnet,
            rules.cins, rules.pc6, rules.pc6_five, rules.pc6_six, np.array(rules.tden, dtype=np.int64),
            rules.fee_num, rules.fee_den, np.zeros((n, _switch_ranks.group_fields(n_stat, n_term), 2), dtype=np.uint64),
            np.zeros(n, dtype=np.int8), np.zeros(n, dtype=np.uint8), max(1, threads // len(bins)), cancel,
            term, rows, cnet_kept=rules.cnet_kept)
        return rows

    if len(bins) == 1:
        return call(bins[0])
    with ThreadPoolExecutor(len(bins)) as pool:
        parts = list(pool.map(call, bins))
    rows = np.zeros(shape, dtype=np.uint64)
    for b, (kinds, part) in enumerate(zip(bins, parts)):
        for a in range(_switch_ranks.ACTIONS):
            k = action_kind(a)
            if k in kinds and (k or b == 0):
                rows[:, a] = part[:, a]
    return rows


def _situation(variant: Variant, rules: RussianRankRules, cards: tuple[int, ...], up: int,
               frame: tuple[tuple[int, ...], dict[int, int]], rows: np.ndarray) -> RussianSituation:
    """A situation's actions from its rows of the kernel (see the module docstring)."""
    sums = (rows[:, :, 1].astype(np.int64).astype(object) << 64) + rows[:, :, 0].astype(object)
    hand = tuple(sorted(cards))
    framed, back = frame
    n_pay, n_stat, per = len(rules.pays), rules.n_stat, 8 + rules.n_term
    out = []
    for action in allowed_actions(variant):
        j = action_kind(action)
        k = cards_drawn(j)
        discard = () if action in (0, BUY) else tuple(c for i, c in enumerate(hand) if (action >> i) & 1)
        mask = BUY if action == BUY else sum(1 << i for i, c in enumerate(framed) if back[c] in discard)
        row = [int(x) for x in sums[mask]]
        stats = [row[2 + per * c: 2 + per * (c + 1)] for c in range(n_stat)]
        draws, n = math.comb(UNSEEN, k), math.comb(UNSEEN - k, 4)
        fee = rules.fees[j]
        kind: Literal["keep", "switch", "buy"] = "keep" if action == 0 else "buy" if action == BUY else "switch"
        out.append(RussianAction(
            kind, discard, fee, draws, n, Fraction(row[0], rules.tden[j] * rules.dn[j]) - fee, row[1],
            sum(st[0] for c, st in enumerate(stats) if c >= n_pay), sum(st[8] for st in stats) if rules.n_term else 0,
            action == 31 and bool(rules.forced5), draws * n - sum(st[1] + st[7] for st in stats),
            sum(st[1] for st in stats),
            staked=Fraction(sum(int(rules.nets.stake[c - n_pay]) * stats[c][0] for c in range(n_pay, n_stat)),
                            rules.scale)))
    return RussianSituation.ranked(hand, up, out)


def by_ranks(variant: Variant, *, use_cache: bool = False) -> bool:
    """Whether :func:`situation_by_ranks` values this table's situations (else the draws are
    counted one by one): a table with draws whose rules the rank kernel reads (made here, with
    ``use_cache`` their classes of final hand from the disk cache)."""
    if variant.draws is None or supported(variant) is not None:
        return False
    try:
        rank_rules(variant, use_cache=use_cache)
    except StudoddsError:
        return False
    return True
