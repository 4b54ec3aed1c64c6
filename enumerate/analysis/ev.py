"""Call/fold EVs of player hands, exactly.

EV(raise) is in antes per hand (ante + raise of 2 antes at stake), EV(fold) = -1 ante.  The
player sees the up card before deciding, so the EV of a hand before the up card is seen is the
average over the 47 possible up cards of max(EV(raise), EV(fold)).
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal, TypedDict

import numpy as np

from enumerate.analysis.base import check_table
from enumerate.analysis.situation import SituationCounts, SituationCountsJSON, counts_of
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.jsonform import exact, exact_or_none
from enumerate.core.shapes import Exact, ExactOrNull, MaxItems, MinItems, Pattern, shape
from enumerate.core.tabular import tabular
from enumerate.rules.settlement import Settlement
from enumerate.rules.variant import Variant
from evaluator.cards import format_card, format_hand, parse_card, parse_hand
from evaluator.errors import StudoddsError
from evaluator.ranking import category, strength

Cards = str | Iterable[int]
Card = str | int


def _card_number(c: object) -> int:
    """A card number: a whole number 0..51 (an int or a numpy integer, never a bool or a float)."""
    if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)):
        raise StudoddsError(f"a card is text such as 7d or a number 0..51, got {type(c).__name__} {str(c)[:20]!r}")
    if not 0 <= int(c) < 52:
        raise StudoddsError(f"a card number is 0..51, got {int(c)}")
    return int(c)


def as_hand(cards: Cards) -> tuple[int, ...]:
    """Five distinct cards from text (``"As Kd Jh 8c 3s"``) or card numbers 0..51."""
    if isinstance(cards, str):
        return parse_hand(cards)
    if isinstance(cards, (bytes, dict)) or not isinstance(cards, Iterable):
        raise StudoddsError(f"a hand is text such as 'As Kd Jh 8c 3s' or five card numbers 0..51, "
                            f"got {type(cards).__name__} {str(cards)[:40]!r}")
    items = list(itertools.islice(iter(cards), 6))
    out = tuple(_card_number(c) for c in items)
    if len(out) != 5 or len(set(out)) != 5:
        raise StudoddsError(f"expected five distinct cards 0..51, got {out}")
    return out


def as_card(card: Card) -> int:
    """One card from text (``"7d"``) or its number 0..51."""
    if isinstance(card, str):
        return parse_card(card)
    return _card_number(card)

FOLD = Fraction(-1)


@shape("situation")
class SituationJSON(TypedDict):
    """The JSON of one situation: its counts and the EVs of raising and folding."""

    up: Annotated[str, Pattern("^[2-9TJQKA][cdhs]$")]
    counts: SituationCountsJSON
    ev_raise_antes: Exact
    ev_fold_antes: Exact
    action: Literal["raise", "fold", "either"]
    margin_antes: Exact


@shape("hand", document=True)
class HandJSON(TypedDict):
    """The JSON of a hand against the up cards (kind "hand")."""

    kind: Literal["hand"]
    hand: str
    variant: str
    completions_per_situation: Literal[163185]
    situations: Annotated[list[SituationJSON], MinItems(1), MaxItems(47)]
    ev_before_up_card_antes: ExactOrNull


@dataclass(frozen=True)
class SituationEV:
    """One situation: counts over the 163,185 dealer completions and the exact EVs (antes)."""

    cards: tuple[int, ...]
    up: int
    counts: SituationCounts
    ev_raise: Fraction
    ev_fold: Fraction = FOLD

    @property
    def action(self) -> Literal["raise", "fold", "either"]:
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
        """EV of the optimal action, in antes."""
        return max(self.ev_raise, self.ev_fold)

    def to_dict(self) -> SituationJSON:
        return {"up": format_card(self.up), "counts": self.counts.to_dict(),
                "ev_raise_antes": exact(self.ev_raise), "ev_fold_antes": exact(self.ev_fold),
                "action": self.action, "margin_antes": exact(self.margin)}


@tabular("situations", 'situations')
@dataclass(frozen=True)
class HandEVs:
    """A player hand against one up card (one row) or all 47 (with ``ev_before_up_card``: the
    hand's EV under optimal play before the up card is seen, in antes)."""

    cards: tuple[int, ...]
    variant: str
    rows: tuple[SituationEV, ...]
    ev_before_up_card: Fraction | None

    def to_dict(self) -> HandJSON:
        """kind "hand": what ``studodds hand --json`` prints."""
        return {"kind": "hand", "hand": format_hand(self.cards), "variant": self.variant,
                "completions_per_situation": COMPLETIONS,
                "situations": [r.to_dict() for r in self.rows],
                "ev_before_up_card_antes": exact_or_none(self.ev_before_up_card)}


def ev_raise(counts: SituationCounts, cards: tuple[int, ...], variant: Variant) -> Fraction:
    """Exact EV(raise) in antes from a situation's counts."""
    return Settlement.of(variant).ev_raise(category(strength(cards)), counts.no_qualify, counts.win, counts.tie,
                                           COMPLETIONS)


def situation_ev(table: CountTable, variant: Variant, cards: Cards, up: Card) -> SituationEV:
    """EVs of one concrete situation: the player's five cards and the dealer's up card, as text
    (``"As Kd Jh 8c 3s"``, ``"7d"``) or card numbers."""
    check_table(table, variant)
    hand, u = as_hand(cards), as_card(up)
    if u in hand:
        raise StudoddsError(f"up card {format_card(u)} is also in the player's hand")
    c = counts_of(table, hand, u)
    return SituationEV(hand, u, c, ev_raise(c, hand, variant))


def hand_evs(table: CountTable, variant: Variant, cards: Cards) -> tuple[list[SituationEV], Fraction]:
    """EVs against each of the 47 up cards, and the hand's EV before the up card is seen."""
    hand = as_hand(cards)
    rows = [situation_ev(table, variant, hand, u) for u in range(52) if u not in hand]
    return rows, sum((r.best for r in rows), Fraction(0)) / len(rows)


def hand_report(table: CountTable, variant: Variant, cards: Cards, up: Card | None = None) -> HandEVs:
    """:class:`HandEVs` of a hand against ``up``, or against every up card when it is None."""
    if up is not None:
        row = situation_ev(table, variant, cards, up)
        return HandEVs(row.cards, variant.name, (row,), None)
    rows, before = hand_evs(table, variant, cards)
    return HandEVs(rows[0].cards, variant.name, tuple(rows), before)
