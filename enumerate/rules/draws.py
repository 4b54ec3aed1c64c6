"""Improving the hand before the decision: switching cards and buying a sixth card.

After seeing the five cards and the dealer's up card, and before raising or folding, the player
may take **one** of these actions, when the table offers it:

* **switch** ``k`` cards (Oasis Poker): discard ``k`` of the five cards and receive ``k`` from
  the 46 unseen, for a fee of ``fees[k]`` antes.  The discarded cards are out of play: they can
  no longer be among the dealer's hole cards, which come from the 46 - ``k`` cards still live.
  A count missing from ``fees`` is not allowed.  With ``all_five_must_raise`` a player who
  switches all five cards must raise (no fold).
* **buy** a sixth card (a Russian Poker option) for ``buy_fee`` antes: the player receives one
  of the 46 unseen cards and plays the best five of six; the dealer's hole cards come from the
  45 cards left.

Fees are paid in antes, are not returned and are not wagers: the house edge counts them as the
player's loss per ante, and the element of risk divides the loss (fees included) by the ante
and raise wagered; the fees per hand are reported beside it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Annotated, Any, TypedDict

from enumerate.core.jsonform import exact
from enumerate.core.shapes import Exact, MinProperties, PropertyNames
from evaluator.errors import StudoddsError


class SwitchJSON(TypedDict):
    """Schema: switching cards before the decision: fee (antes) by number of cards; a number not listed is not allowed"""

    fees_antes: Annotated[dict[str, Exact], PropertyNames({"pattern": "^[1-5]$"}), MinProperties(1)]
    all_five_must_raise: bool


class BuyCardJSON(TypedDict):
    """Schema: buying a sixth card (best five of six) before the decision"""

    fee_antes: Exact


@dataclass(frozen=True)
class SwitchRule:
    """Which numbers of cards may be switched, and for what fee (antes) each."""

    fees: Mapping[int, Fraction]
    all_five_must_raise: bool = False

    def __post_init__(self) -> None:
        fees = {int(k): Fraction(v) for k, v in sorted(self.fees.items())}
        if not fees:
            raise StudoddsError("switch: no number of cards is allowed (fees is empty)")
        bad = [k for k in fees if not 1 <= k <= 5]
        if bad:
            raise StudoddsError(f"switch: {bad[0]} cards: one to five cards may be switched")
        if any(v < 0 for v in fees.values()):
            raise StudoddsError("switch: a fee cannot be negative")
        if self.all_five_must_raise and 5 not in fees:
            raise StudoddsError("switch: all_five_must_raise needs a fee for switching 5 cards")
        object.__setattr__(self, "fees", MappingProxyType(fees))

    @property
    def most(self) -> int:
        """The largest number of cards that may be switched."""
        return max(self.fees)

    def to_dict(self) -> SwitchJSON:
        return {"fees_antes": {str(k): exact(v) for k, v in self.fees.items()},
                "all_five_must_raise": self.all_five_must_raise}

    def text(self) -> str:
        fees = ", ".join(f"{k} card{'s' if k > 1 else ''} for {v} ante{'s' if v != 1 else ''}"
                         for k, v in self.fees.items())
        return f"switch {fees}" + ("; switching all five forces a raise" if self.all_five_must_raise else "")


@dataclass(frozen=True)
class Draws:
    """The pre-decision actions a table offers: ``switch`` (None when not offered) and
    ``buy_fee`` (the price of a sixth card, None when not offered); at least one of them."""

    switch: SwitchRule | None = None
    buy_fee: Fraction | None = None

    def __post_init__(self) -> None:
        if self.switch is None and self.buy_fee is None:
            raise StudoddsError("a table with draws offers switching, a sixth card or both")
        if self.buy_fee is not None:
            if Fraction(self.buy_fee) < 0:
                raise StudoddsError("buy_card.fee: a fee cannot be negative")
            object.__setattr__(self, "buy_fee", Fraction(self.buy_fee))

    def fee(self, switched: int) -> Fraction:
        """The fee for switching ``switched`` cards (0: keeping the hand costs nothing)."""
        if switched == 0:
            return Fraction(0)
        if self.switch is None or switched not in self.switch.fees:
            raise StudoddsError(f"switching {switched} cards is not allowed at this table")
        return self.switch.fees[switched]

    def text(self) -> str:
        parts = [] if self.switch is None else [self.switch.text()]
        if self.buy_fee is not None:
            parts.append(f"buy a sixth card for {self.buy_fee} ante{'s' if self.buy_fee != 1 else ''}")
        return "; or ".join(parts) + " (one action a hand, before the decision)"


def parse_fees(table: Mapping[str, Any], parse) -> dict[int, Fraction]:
    """``{"1": 1, "2": "3/2"}`` (keys: numbers of cards as text) to fees; ``parse`` reads an amount."""
    out: dict[int, Fraction] = {}
    for key, value in table.items():
        k = str(key)
        if k not in ("1", "2", "3", "4", "5"):      # exactly: " 1", "01" or "¹" would be a second key for 1
            raise StudoddsError(f"{str(key)[:20]!r}: a number of cards written 1, 2, 3, 4 or 5 "
                                "(such as fees = { 1 = 1, 2 = 2 })")
        out[int(k)] = parse(k, value)
    return out
