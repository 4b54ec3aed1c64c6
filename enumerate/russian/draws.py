"""Every draw action of one situation of Russian Poker, valued exactly.

On a table with the draws (:mod:`enumerate.rules.draws`: exchange cards or buy a sixth card, for
a fee) and the options of Russian Poker, an action of a situation (the player's five cards and the
up card) is worth

    EV(action) = -fee + (1 / #draws) * sum over draws of max(-1, EV(raise | final hand) + max(0, EV(insurance)))

(the raise alone when switching all five forces it), where EV(raise | final hand) counts the
dealer's hands among the cards still unseen -- the discarded cards are out of play -- and, against
each that does not qualify, buys the game when that is worth more than the ante's pay.  The
dealer's counts of every draw come from the dead-card engine of the draws
(:func:`enumerate.draws.hand.draw_outcomes`), the purchases from the rank-set kernel
(:mod:`enumerate.russian.bought`), the pays from the two combinations of the final hand: a five-card
hand's pay is a function of its strength (one table), a six-card hand's is counted per draw.
Every draw's value is an integer in units of 1 / (scale * dn * n) antes, n = C(m - k, 4) dealer
sets; the sums are exact.  A dealt hand paid at once on the ante (``[ante_pays] instant_payout``)
has one action, which nets that pay (:func:`instant_situations`).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, combinations
from typing import Literal

import numpy as np

from enumerate.draws.actions import BUY, action_label
from enumerate.draws.hand import allowed_actions, draw_outcomes
from enumerate.draws.labels import INSTANT_LABEL
from enumerate.rules.variant import Variant
from enumerate.russian.bought import purchase_unit, purchases
from enumerate.russian.game import EVENTS, IntegerNets, event_columns, event_combinations, instant_row, key_of, row_of
from enumerate.russian.settle import HandPay, RussianSettlement, best_category, pays_by_strength
from evaluator.errors import StudoddsError
from evaluator.ranking import colex_indices


def _subsets(m: int, k: int) -> np.ndarray:
    """Every k-subset of 0..m-1 as rows (lexicographic order)."""
    count = math.comb(m, k)
    return np.fromiter(chain.from_iterable(combinations(range(m), k)), dtype=np.int64, count=count * k).reshape(count, k)


def _big_sum(values: np.ndarray) -> int:
    """The exact sum of int64 values whose total may leave 64 bits."""
    high, low = np.divmod(values, 1 << 32)
    return (int(high.sum()) << 32) + int(low.sum())


@dataclass(frozen=True)
class RussianAction:
    """One action of a situation: ``kind`` "keep", "switch" (``discard``: the cards given up) or
    "buy"; its fee, its draws and the dealer's hole-card sets per draw, the exact EV after the
    optimal decisions on every draw (fee included, antes), and how many draws raise, how many of
    those insure, and over them how many dealer hands are bought; over every draw, raised or
    folded, how many of the dealer's hole-card sets qualify; over the draws raised, how many do not."""

    kind: Literal["keep", "switch", "buy"]
    discard: tuple[int, ...]
    fee: Fraction
    draws: int
    completions: int
    ev: Fraction
    raised: int
    insured: int
    bought: int
    forced_raise: bool
    qualifies: int = 0
    #: over the draws raised, the dealer's hole-card sets that do not qualify
    short: int = 0
    #: with ``rows``: the outcomes of the action's draws as return-table rows (outcome, label, net
    #: result less the fee, combinations: each draw counts ``denominator // draws``); ``staked``:
    #: the insurance staked over the draws (antes, summed)
    rows: tuple[tuple[str, str, Fraction, int], ...] | None = None
    denominator: int = 0
    staked: Fraction = Fraction(0)
    #: the dealt hand is paid at once on the ante and the round ends (``[ante_pays] instant_payout``):
    #: the situation's one action, a "keep" that neither raises nor meets the dealer
    instant: bool = False

    @property
    def label(self) -> str:
        return INSTANT_LABEL if self.instant else action_label(self.kind, self.discard)


def instant_situations(variant: Variant, cards: tuple[int, ...], ups: list[int]) -> list[RussianSituation] | None:
    """The situations against each up card of ``ups`` when the dealt hand is paid at once on the
    ante (``[ante_pays] instant_payout``), whatever the up card: each one action that nets the
    pay over every dealer hole-card set and replacement share (each dealer set counts ``dn``
    combinations, as a kept hand's do, so its row joins the others of its kind); None when the
    hand is played."""
    s = RussianSettlement.of(variant)
    hand = tuple(sorted(cards))
    pay = s.instant_pay(hand)
    if pay is None:
        return None
    n = math.comb(46, 4)
    dn = purchase_unit(s, 46)
    action = RussianAction("keep", (), Fraction(0), 1, n, pay, 0, 0, 0, False, 0, 0,
                           rows=((*instant_row(best_category(hand), pay), n * dn),), denominator=n * dn, instant=True)
    return [RussianSituation(hand, up, (action,)) for up in ups]


@dataclass(frozen=True)
class RussianSituation:
    """Every allowed action of one situation, best first (ties: the order of the table's actions)."""

    cards: tuple[int, ...]
    up: int
    actions: tuple[RussianAction, ...]

    @classmethod
    def ranked(cls, cards: tuple[int, ...], up: int, actions: list[RussianAction]) -> RussianSituation:
        """The situation with ``actions`` (in the table's order) best first, ties in that order."""
        order = sorted(range(len(actions)), key=lambda i: (-actions[i].ev, i))
        return cls(cards, up, tuple(actions[i] for i in order))

    @property
    def best(self) -> RussianAction:
        return self.actions[0]

    @property
    def ev(self) -> Fraction:
        """The situation's value: its best action's EV."""
        return self.best.ev


def situation_actions(variant: Variant, cards: tuple[int, ...], up: int, threads: int = 1,
                      actions: list[int] | None = None, rows: bool = False) -> RussianSituation:
    """Every allowed action of the situation (``cards`` against ``up``), or those of ``actions``
    (switch masks over the sorted hand, and :data:`~enumerate.draws.actions.BUY`), valued exactly;
    with ``rows``, each with its draws' outcomes as return-table rows."""
    d = variant.draws
    if d is None:
        raise StudoddsError(f"variant {variant.name!r} offers no switching or sixth card")
    instant = instant_situations(variant, cards, [up])
    if instant is not None:
        return instant[0]
    s = RussianSettlement.of(variant)
    hand = tuple(sorted(cards))
    unseen = np.array([c for c in range(52) if c not in hand and c != up], dtype=np.int64)
    out = []
    for action in allowed_actions(variant) if actions is None else actions:
        k = 1 if action == BUY else bin(action).count("1")
        fee = d.buy_fee if action == BUY else d.fee(k)
        assert fee is not None
        forced = action == 31 and d.switch is not None and d.switch.all_five_must_raise
        out.append(_action(variant, s, hand, up, unseen, action, k, fee, forced, threads, rows))
    return RussianSituation.ranked(hand, up, out)


def _final_pays(s: RussianSettlement, hand: tuple[int, ...], action: int, drawn: np.ndarray,
                strengths: np.ndarray) -> tuple[tuple[HandPay, ...], np.ndarray]:
    """The distinct pays of the draws' final hands, and each draw's index among them."""
    if action != BUY:
        pays, index = pays_by_strength(s)
        return pays, index[strengths]
    found: dict[HandPay, int] = {}
    which = np.array([found.setdefault(s.hand_pay(hand + (int(row[0]),)), len(found)) for row in drawn],
                     dtype=np.int64)
    return tuple(found), which


def _action(variant: Variant, s: RussianSettlement, hand: tuple[int, ...], up: int, unseen: np.ndarray, action: int,
            k: int, fee: Fraction, forced: bool, threads: int, rows: bool = False) -> RussianAction:
    """One action's draws, each valued with the optimal raise, insurance and purchases (and, with
    ``rows``, their outcomes by return-table row)."""
    m = len(unseen)
    subsets = _subsets(m, k)
    n = math.comb(m - k, 4)
    counts = draw_outcomes(hand, up, variant.qualifier.threshold, action, colex_indices(subsets),
                           unseen.astype(np.uint8), threads).astype(np.int64)
    strengths, nq, win, tie = counts.T
    lose = n - nq - win - tie
    drawn = unseen[subsets]
    pays, which = _final_pays(s, hand, action, drawn, strengths)
    integer = IntegerNets.of(s, pays, drew=action != 0)
    scale = integer.scale
    draws = len(subsets)
    dn, gains, bought = 1, np.zeros(draws, dtype=np.int64), np.zeros(draws, dtype=np.int64)
    ends = np.zeros((draws, 4), dtype=np.int64)
    if s.buy_game is not None:
        masks = np.full(draws, sum(1 << int(c) for c in unseen), dtype=np.uint64)
        for j in range(k):
            masks &= ~(np.uint64(1) << drawn[:, j].astype(np.uint64))
        p = purchases(s, variant.qualifier.threshold, strengths, pays, which, masks, up, threads)
        dn, gains, bought, ends = p.unit // scale, p.gains, p.bought, p.outcomes
    states = (nq, win, tie, lose)
    integer.check_bound(dn * n, "the draws")
    best, fold, raises, taken = integer.decide(which, states, n, dn, gains, forced)
    buying = integer.buying(taken)
    bought, ends = np.where(buying, bought, 0), np.where(buying[:, None], ends, 0)
    ev = Fraction(_big_sum(np.where(raises, best, fold)), scale * dn * n * draws) - fee
    discard = () if action in (0, BUY) else tuple(c for j, c in enumerate(hand) if (action >> j) & 1)
    kind: Literal["keep", "switch", "buy"] = "keep" if action == 0 else "buy" if action == BUY else "switch"
    out = RussianAction(kind, discard, fee, draws, n, ev, int(raises.sum()), int(taken.sum()),
                        int(bought[raises].sum()), forced, draws * n - int(nq.sum()), int(nq[raises].sum()),
                        staked=Fraction(int(np.where(taken, integer.stake[which], 0).sum()), scale))
    if not rows:
        return out
    found = event_combinations(len(pays), which, taken, raises, event_columns(states, bought, ends, dn),
                               np.ones(draws, dtype=np.int64), n * dn)
    table = []
    for index, c in enumerate(found):
        if c:
            e, pay, ins = key_of(index, len(pays))
            table.append((*row_of(s, EVENTS[e], pays[pay], bool(ins), fee, action != 0), int(c)))
    if sum(c for _, _, _, c in table) != draws * n * dn:
        raise AssertionError("an action's rows do not cover its draws and dealer hands")
    return dataclasses.replace(out, rows=tuple(table), denominator=draws * n * dn)
