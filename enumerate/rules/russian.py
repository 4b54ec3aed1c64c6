"""The options that make Caribbean Stud Russian Poker (Lunar Poker): buying the game and insurance.

Both are decided by the player against the dealer's hand or its chance of qualifying, after the
draw (:mod:`enumerate.rules.draws`) and with the bet:

* **buying the game** (``[buy_game]``): when the dealer does not qualify, a player who raised may,
  seeing the dealer's five cards, pay ``fee`` antes **instead of** the ante's pay; the dealer then
  replaces one card -- his ``highest`` (most houses' texts), his ``lowest`` (the card one analyst
  calls the most common) or the ``first_dealt`` (one house's text; named, not counted yet) -- with
  the next card of the deck.  A replacement of the removed card's rank is ``replaced_again`` (two
  houses' texts) or ``kept`` ("only one card can be exchanged").  Then the qualifier applies again
  (``after = "qualifier_applies"``, the default, as every casino text read deals it: a dealer who
  now qualifies is compared as usual, the bet live; one still short pays the ante 1 to 1 and
  returns the bet, the fee lost), or -- a reading no casino text found deals, kept to measure what
  it would give away -- the hands are compared whatever the dealer's new hand
  (``"hands_compared"``, the family's common wording "the hands are then compared" read
  literally).  A box that took insurance ``may_buy`` (one house's text, the default) or
  ``may_not_buy`` (one rules summary: the player then insures only when the insurance is worth
  more than the purchases he gives up with it).  The decision is one per final hand, dealer hand
  and dead cards; the replacement comes from the cards the player has not seen.
* **insurance** (``[insurance]``): with a final hand of ``needs`` or better (three of a kind in
  every text), a stake up to a limit -- ``half_the_payout`` or ``the_payout``: the bet's possible
  win with that hand -- paid 1 to 1 when the dealer does not qualify.  When the dealer qualifies
  the stake is ``lost`` (most texts) or ``returned_unless_player_wins`` (one house: returned when
  the dealer's hand beats or ties the player's).  Its value is linear in the stake, so the
  player stakes the limit or nothing; it is decided with the bet and settled on the dealer's
  first five cards (a player may still buy the game after collecting it, unless ``[buy_game]``
  says an insured box ``may_not_buy``).

Fees are not wagers (as a draw's): the house edge counts them as the player's loss per ante.  An
insurance stake is a wager of its own, settled 1 to 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NotRequired, TypedDict

from enumerate.core.jsonform import exact
from enumerate.core.shapes import Exact
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

#: Which dealer card a bought game replaces.
REPLACES = ("highest", "lowest", "first_dealt")
#: What happens to a replacement of the removed card's rank.
SAME_RANK = ("replaced_again", "kept")
#: How a bought game is settled.
AFTER = ("qualifier_applies", "hands_compared")
#: Whether a box that took insurance may still buy the game.
INSURED = ("may_buy", "may_not_buy")
#: The readings of [buy_game] the engine names but does not count yet: (key, value) -> why.
NOT_COUNTED = {("replaces", "first_dealt"): "the first card dealt replaced"}
#: The most an insurance stake may be: a share of the bet's possible win.
LIMITS = {"half_the_payout": Fraction(1, 2), "the_payout": Fraction(1)}
#: What an insurance stake does when the dealer qualifies.
ON_QUALIFY = ("lost", "returned_unless_player_wins")


class BuyGameJSON(TypedDict):
    """Schema: buying the game when the dealer does not qualify: a fee instead of the ante's pay, one dealer card replaced"""

    fee_antes: Exact
    replaces: Literal["highest", "lowest", "first_dealt"]
    same_rank: Literal["replaced_again", "kept"]
    after: Literal["hands_compared", "qualifier_applies"]
    insured: NotRequired[Literal["may_not_buy"]]


class InsuranceJSON(TypedDict):
    """Schema: insurance against a dealer who does not qualify, for a hand of 'needs' or better"""

    needs: str
    limit: Literal["half_the_payout", "the_payout"]
    dealer_qualifies: Literal["lost", "returned_unless_player_wins"]


def _one_of(key: str, value: object, allowed) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise StudoddsError(f"{key}: {value!r:.40}: one of {', '.join(allowed)}")


@dataclass(frozen=True)
class BuyGame:
    """The [buy_game] rule (see the module docstring)."""

    fee: Fraction = Fraction(1)
    replaces: Literal["highest", "lowest", "first_dealt"] = "highest"
    same_rank: Literal["replaced_again", "kept"] = "replaced_again"
    after: Literal["hands_compared", "qualifier_applies"] = "qualifier_applies"
    insured: Literal["may_buy", "may_not_buy"] = "may_buy"

    def __post_init__(self) -> None:
        if Fraction(self.fee) < 0:
            raise StudoddsError("buy_game.fee: a fee cannot be negative")
        object.__setattr__(self, "fee", Fraction(self.fee))
        _one_of("buy_game.replaces", self.replaces, REPLACES)
        _one_of("buy_game.same_rank", self.same_rank, SAME_RANK)
        _one_of("buy_game.after", self.after, AFTER)
        _one_of("buy_game.insured", self.insured, INSURED)

    def to_dict(self) -> BuyGameJSON:
        """The rule as JSON; ``insured`` only when it is not the default (a table that names no
        such rule keeps the JSON, and so the kept sums and checkpoints, it had before the key)."""
        out: BuyGameJSON = {"fee_antes": exact(self.fee), "replaces": self.replaces,
                            "same_rank": self.same_rank, "after": self.after}
        if self.insured != "may_buy":
            out["insured"] = "may_not_buy"
        return out

    def not_counted(self) -> str | None:
        """The reading this rule names that the engine does not count yet, in words, or None."""
        for (key, value), what in NOT_COUNTED.items():
            if getattr(self, key) == value:
                return f"buy_game.{key} = \"{value}\" ({what}) is a reading the engine does not count yet"
        return None

    def text(self) -> str:
        again = "a card of its rank is replaced again" if self.same_rank == "replaced_again" else \
            "a card of its rank is kept"
        after = "the hands are then compared" if self.after == "hands_compared" else \
            "the qualifier then applies again"
        card = "first card dealt" if self.replaces == "first_dealt" else f"{self.replaces} card"
        insured = "" if self.insured == "may_buy" else "; a box that took insurance may not buy"
        return (f"when the dealer does not qualify, the player may buy the game for {self.fee} "
                f"ante{'s' if self.fee != 1 else ''} instead of the ante's pay: the dealer replaces his {card} "
                f"({again}); {after}{insured}")


@dataclass(frozen=True)
class Insurance:
    """The [insurance] rule (see the module docstring)."""

    needs: Category = Category.TRIPS
    limit: Literal["half_the_payout", "the_payout"] = "half_the_payout"
    dealer_qualifies: Literal["lost", "returned_unless_player_wins"] = "lost"

    def __post_init__(self) -> None:
        if not isinstance(self.needs, Category):
            raise StudoddsError("insurance.needs: a hand category such as \"three_of_a_kind\"")
        _one_of("insurance.limit", self.limit, LIMITS)
        _one_of("insurance.dealer_qualifies", self.dealer_qualifies, ON_QUALIFY)

    @property
    def share(self) -> Fraction:
        """The largest stake as a share of the bet's possible win."""
        return LIMITS[self.limit]

    def to_dict(self) -> InsuranceJSON:
        return {"needs": self.needs.key, "limit": self.limit,
                "dealer_qualifies": self.dealer_qualifies}

    def text(self) -> str:
        limit = "half the bet's possible win" if self.limit == "half_the_payout" else "the bet's possible win"
        lost = "lost when the dealer qualifies" if self.dealer_qualifies == "lost" else \
            "returned when the dealer qualifies and the player does not win, lost when he wins"
        return (f"insurance with {self.needs.label} or better: a stake up to {limit}, paid 1 to 1 when the dealer "
                f"does not qualify, {lost}")
