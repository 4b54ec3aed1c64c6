"""Call/fold EVs of player hands, exactly.

EV(raise) is in antes per hand (ante + raise of 2 antes at stake), EV(fold) = -1 ante.  The
player sees the up card before deciding, so the EV of a hand before the up card is seen is the
average over the 47 possible up cards of max(EV(raise), EV(fold)).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from evaluator.ranking import category, strength
from enumerate.engine import COMPLETIONS, CountTable
from enumerate.situation import SituationCounts, counts_of
from enumerate.variant import Variant

FOLD = Fraction(-1)


@dataclass(frozen=True)
class SituationEV:
    """One situation: counts over the 163,185 dealer completions and the exact EVs (antes)."""

    cards: tuple[int, ...]
    up: int
    counts: SituationCounts
    ev_raise: Fraction
    ev_fold: Fraction = FOLD

    @property
    def action(self) -> str:
        """"raise", "fold", or "either" when the two are exactly equal."""
        if self.ev_raise > self.ev_fold:
            return "raise"
        return "fold" if self.ev_raise < self.ev_fold else "either"

    @property
    def margin(self) -> Fraction:
        """How much the optimal action is worth over the other, in antes (>= 0)."""
        return abs(self.ev_raise - self.ev_fold)

    @property
    def best(self) -> Fraction:
        return max(self.ev_raise, self.ev_fold)


def ev_raise(counts: SituationCounts, cards: tuple[int, ...], variant: Variant) -> Fraction:
    """Exact EV(raise) in antes from a situation's counts."""
    pay = variant.pay(category(strength(cards)))
    total = (counts.no_qualify * variant.ante_no_qualify + counts.win * (variant.ante_win + 2 * pay)
             - 3 * counts.lose)
    return Fraction(total) / COMPLETIONS


def situation_ev(table: CountTable, variant: Variant, cards: tuple[int, ...], up: int) -> SituationEV:
    """EVs of one concrete situation (player's cards, up card)."""
    if table.qualifier != variant.qualifier.threshold:
        raise ValueError("the count table was made for another qualifier")
    c = counts_of(table, tuple(cards), up)
    return SituationEV(tuple(cards), up, c, ev_raise(c, tuple(cards), variant))


def hand_evs(table: CountTable, variant: Variant, cards: tuple[int, ...]) -> tuple[list[SituationEV], Fraction]:
    """EVs against each of the 47 up cards, and the hand's EV before the up card is seen."""
    rows = [situation_ev(table, variant, cards, u) for u in range(52) if u not in cards]
    return rows, sum((r.best for r in rows), Fraction(0)) / len(rows)
