"""A Caribbean Stud rule variant: raise paytable, ante pays and dealer qualifier.

Pays are exact rationals (``fractions.Fraction``) "to 1", per unit of the wager they pay on.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Annotated, Literal, NotRequired, TypedDict

from enumerate.core.jsonform import exact
from enumerate.core.shapes import BY_CATEGORY, Exact, Maximum, Minimum, shape
from enumerate.rules.boxes import Boxes, BoxesJSON
from enumerate.rules.combinations import TwoCombinations, TwoCombinationsJSON
from enumerate.rules.draws import BuyCardJSON, Draws, SwitchJSON
from enumerate.rules.hands import HandPaysJSON, HandPaytable
from enumerate.rules.progressive import Progressive, ProgressiveRulesJSON
from enumerate.rules.qualifier import Qualifier, QualifierJSON
from enumerate.rules.russian import BuyGame, BuyGameJSON, Insurance, InsuranceJSON
from enumerate.rules.sidebets import SideBet, SideBetRulesJSON
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

#: Raise categories from the top down, as paytables list them.
PAY_CATEGORIES = tuple(reversed(Category))


def ante_bonus_by_category(table: HandPaytable) -> list[Fraction]:
    """The amount of an ante-bonus table for each category; StudoddsError when the table pays
    differently within a category (an ante bonus pays by category)."""
    classes = table.classes()
    amounts = table.amounts(Fraction(0))
    out: list[Fraction] = []
    for c in Category:
        values = {amounts[int(k)] for k in set(classes[CATEGORY_BY_STRENGTH == c].tolist())}
        if len(values) != 1:
            raise StudoddsError(f"ante_bonus: pays differently within {c.label} (an ante bonus pays by category)")
        out.append(values.pop())
    return out


#: The largest raise a table may have, in antes.
MAX_RAISE_ANTES = 10


class MaxPayoutJSON(TypedDict):
    """The JSON of a maximum payout."""

    amount: Exact
    ante: Exact
    covers: Literal["raise", "ante_and_raise"]
    cap_antes: Exact


class AntePaysJSON(TypedDict):
    """What the ante pays when the dealer does not qualify and when the player wins."""

    dealer_does_not_qualify: Exact
    player_wins: Exact
    dealer_does_not_qualify_with: NotRequired[Annotated[dict[str, Exact], BY_CATEGORY]]
    instant_payout: NotRequired[Annotated[dict[str, Exact], BY_CATEGORY]]
    player_wins_unless: NotRequired[Literal["drew_or_bought"]]


@shape("variant")
class VariantJSON(TypedDict):
    """The JSON of a variant's rules."""

    name: str
    description: str
    qualifier: QualifierJSON
    raise_pays: Annotated[dict[str, Exact], BY_CATEGORY]
    royal_pays_separately: bool
    ante_pays: AntePaysJSON
    progressive: ProgressiveRulesJSON | None
    raise_antes: NotRequired[Annotated[int, Minimum(1), Maximum(MAX_RAISE_ANTES)]]
    max_payout: NotRequired[MaxPayoutJSON]
    ante_bonus: NotRequired[HandPaysJSON]
    face_down_hand: NotRequired[Literal["loses"]]
    side_bets: NotRequired[dict[str, SideBetRulesJSON]]
    switch: NotRequired[SwitchJSON]
    buy_card: NotRequired[BuyCardJSON]
    boxes: NotRequired[BoxesJSON]
    two_combinations: NotRequired[TwoCombinationsJSON]
    insurance: NotRequired[InsuranceJSON]
    buy_game: NotRequired[BuyGameJSON]


@dataclass(frozen=True)
class MaxPayout:
    """A table's maximum payout per hand: ``amount`` (currency) at an ante of ``ante`` (currency),
    so the cap is ``amount / ante`` antes.  ``covers`` is ``"raise"`` (the raise win is capped)
    or ``"ante_and_raise"`` (the ante and raise wins together)."""

    amount: Fraction
    ante: Fraction
    covers: Literal["raise", "ante_and_raise"] = "raise"

    @property
    def antes(self) -> Fraction:
        """The cap in antes."""
        return self.amount / self.ante

    def to_dict(self) -> MaxPayoutJSON:
        return {"amount": exact(self.amount), "ante": exact(self.ante), "covers": self.covers,
                "cap_antes": exact(self.antes)}


@dataclass(frozen=True)
class Variant:
    """Everything that decides the base game's return.

    * ``raise_pays``: pay on the raise, "to 1", for a win with each category (royal flush
      included: when the table does not list it separately it pays as a straight flush).
    * ``ante_no_qualify`` / ``ante_win``: pay on the ante when the dealer does not qualify /
      when the player beats a qualifying dealer (both 1 to 1 in every published rule set).
    * ``progressive``: the progressive jackpot side bet, if the table offers one.
    * ``raise_antes``: the raise, in antes (2 in every published rule set; 1 in some games).
    * ``max_payout``: the table's maximum payout per hand; :meth:`pay` applies it.
    * ``ante_bonus``: an amount (in antes) paid on the player's hand whenever the player raises,
      whatever the dealer holds.
    * ``face_down_loses``: a raised hand left face down is settled as a loss (New Zealand rules).
    * ``side_bets``: side bets with fixed pays (:mod:`enumerate.sidebets`).
    * ``draws``: switching cards or buying a sixth card before the decision
      (:mod:`enumerate.rules.draws`); None for the plain game.
    * ``boxes``: one player on two boxes, each decided seeing both hands
      (:mod:`enumerate.rules.boxes`); None for one box.
    * ``two_combinations``, ``insurance``, ``buy_game``: the options of Russian Poker
      (:mod:`enumerate.rules.combinations`, :mod:`enumerate.rules.russian`); None when the table
      does not offer them.
    * ``ante_no_qualify_with``: the ante's pay when the dealer does not qualify and the player's
      final hand is of a listed category or better (the best listed at or below it; Lunar Poker in
      Pennsylvania pays 4 to 1 from a straight); empty for every other table.
    * ``ante_instant``: the instant payout of Lunar Poker (58 Pa. Code § 671a.12(a), the game's
      publisher): a player dealt a hand of a listed category is paid its pay on the ante at once
      (to 1) and his round ends -- no draw, no bet, no option; empty for every other table.
    * ``ante_win_unless``: ``"drew_or_bought"``: the ante's pay on a win (``ante_win``) is made
      only when the player neither drew nor bought the game, else the ante is returned (one
      rules summary of classic Russian Poker).  None for every other table.
    """

    name: str
    raise_pays: Mapping[Category, Fraction]
    royal_separate: bool = True
    ante_no_qualify: Fraction = Fraction(1)
    ante_win: Fraction = Fraction(1)
    qualifier: Qualifier = field(default_factory=Qualifier.ace_king)
    description: str = ""
    progressive: Progressive | None = None
    raise_antes: int = 2
    max_payout: MaxPayout | None = None
    ante_bonus: HandPaytable | None = None
    face_down_loses: bool = False
    side_bets: tuple[SideBet, ...] = ()
    draws: Draws | None = None
    boxes: Boxes | None = None
    two_combinations: TwoCombinations | None = None
    insurance: Insurance | None = None
    buy_game: BuyGame | None = None
    ante_no_qualify_with: Mapping[Category, Fraction] = field(default_factory=dict)
    ante_instant: Mapping[Category, Fraction] = field(default_factory=dict)
    ante_win_unless: str | None = None

    def __post_init__(self) -> None:
        pays = {Category(k): Fraction(v) for k, v in self.raise_pays.items()}
        if not self.royal_separate and Category.ROYAL_FLUSH not in pays:
            pays[Category.ROYAL_FLUSH] = pays.get(Category.STRAIGHT_FLUSH, Fraction(0))
        missing = [c.label for c in Category if c not in pays]
        if missing:
            raise StudoddsError(f"variant {self.name!r}: no raise pay for {', '.join(missing)}")
        negative = [c.label for c, v in pays.items() if v < 0]
        if negative:
            raise StudoddsError(f"variant {self.name!r}: negative raise pay for {', '.join(negative)}")
        object.__setattr__(self, "raise_pays", MappingProxyType(pays))
        object.__setattr__(self, "ante_no_qualify", Fraction(self.ante_no_qualify))
        object.__setattr__(self, "ante_win", Fraction(self.ante_win))
        object.__setattr__(self, "side_bets", tuple(self.side_bets))
        object.__setattr__(self, "ante_no_qualify_with", MappingProxyType(
            {Category(k): Fraction(v) for k, v in sorted(self.ante_no_qualify_with.items())}))
        object.__setattr__(self, "ante_instant", MappingProxyType(
            {Category(k): Fraction(v) for k, v in sorted(self.ante_instant.items())}))
        if any(v < 0 for v in self.ante_instant.values()):
            raise StudoddsError(f"variant {self.name!r}: an instant payout cannot be negative")
        if self.ante_win_unless not in (None, "drew_or_bought"):
            raise StudoddsError(f"variant {self.name!r}: ante_pays.player_wins_unless: \"drew_or_bought\" or none")
        if isinstance(self.raise_antes, bool) or not isinstance(self.raise_antes, int) or not 1 <= self.raise_antes <= 10:
            raise StudoddsError(f"variant {self.name!r}: the raise must be 1 to 10 antes")

    def posted_pay(self, category: Category) -> Fraction:
        """Raise pay ("to 1") for a win with ``category`` as the paytable posts it."""
        return self.raise_pays[category]

    def pay(self, category: Category) -> Fraction:
        """Raise pay ("to 1") actually paid for a win with ``category``: the posted pay, cut
        down by the maximum payout when the table has one."""
        posted = self.raise_pays[category]
        if self.max_payout is None:
            return posted
        room = self.max_payout.antes - self._capped_ante()
        return max(Fraction(0), min(posted, room / self.raise_antes))

    def _capped_ante(self) -> Fraction:
        """The part of a win's ante pay the maximum payout covers (antes)."""
        return self.ante_win if self.max_payout is not None and self.max_payout.covers == "ante_and_raise" else Fraction(0)

    def cap_antes(self) -> list[Fraction]:
        """The ante sizes (in the cap's money) at which the maximum payout starts to cut a pay --
        for each raise pay the largest ante at which a win is still paid in full -- and the
        table's own ante, sorted; [] without a maximum payout."""
        cap = self.max_payout
        if cap is None:
            return []
        covered = {self._capped_ante() + self.raise_antes * p for p in self.raise_pays.values()}
        return sorted({cap.ante} | {cap.amount / c for c in covered if c > 0})

    def base_game(self) -> "Variant":
        """The same table without its draws: the game the player faces once the hand is final
        (the raise/fold decision after a switch or a purchase is settled by these rules)."""
        return self if self.draws is None else replace(self, draws=None)

    def single_box(self) -> "Variant":
        """The same table played on one box (the rules each box is settled by)."""
        return self if self.boxes is None else replace(self, boxes=None)

    def bonus_by_category(self) -> list[Fraction]:
        """The ante bonus (antes) paid on a raised hand of each category (0 without a bonus)."""
        if self.ante_bonus is None:
            return [Fraction(0)] * len(Category)
        return ante_bonus_by_category(self.ante_bonus)

    def to_dict(self) -> VariantJSON:
        """The rules in the JSON convention: keys as in the variant file; the keys of the rule
        variants each only when it differs from the standard game (so a standard variant's JSON
        is what it always was)."""
        out: VariantJSON = {
            "name": self.name,
            "description": self.description,
            "qualifier": self.qualifier.to_dict(),
            "raise_pays": {c.key: exact(self.pay(c)) for c in PAY_CATEGORIES
                           if self.royal_separate or c != Category.ROYAL_FLUSH},
            "royal_pays_separately": self.royal_separate,
            "ante_pays": {"dealer_does_not_qualify": exact(self.ante_no_qualify),
                          "player_wins": exact(self.ante_win)},
            "progressive": None if self.progressive is None else self.progressive.to_dict(),
        }
        if self.ante_no_qualify_with:
            out["ante_pays"]["dealer_does_not_qualify_with"] = {c.key: exact(v) for c, v in
                                                                 reversed(list(self.ante_no_qualify_with.items()))}
        if self.ante_win_unless is not None:
            out["ante_pays"]["player_wins_unless"] = "drew_or_bought"
        if self.ante_instant:
            out["ante_pays"]["instant_payout"] = {c.key: exact(v) for c, v in reversed(list(self.ante_instant.items()))}
        if self.raise_antes != 2:
            out["raise_antes"] = self.raise_antes
        if self.max_payout is not None:
            out["max_payout"] = self.max_payout.to_dict()
        if self.ante_bonus is not None:
            out["ante_bonus"] = self.ante_bonus.to_dict()
        if self.face_down_loses:
            out["face_down_hand"] = "loses"
        if self.side_bets:
            out["side_bets"] = {b.name: b.to_dict() for b in self.side_bets}
        if self.draws is not None and self.draws.switch is not None:
            out["switch"] = self.draws.switch.to_dict()
        if self.draws is not None and self.draws.buy_fee is not None:
            out["buy_card"] = {"fee_antes": exact(self.draws.buy_fee)}
        if self.boxes is not None:
            out["boxes"] = self.boxes.to_dict()
        if self.two_combinations is not None:
            out["two_combinations"] = self.two_combinations.to_dict()
        if self.insurance is not None:
            out["insurance"] = self.insurance.to_dict()
        if self.buy_game is not None:
            out["buy_game"] = self.buy_game.to_dict()
        return out

    def beside_the_base_game(self) -> list[str]:
        """The rules beside the base game's pays, qualifier, raise and maximum payout that the
        table has, named (what a kind that models the base game alone refuses)."""
        return [what for what, there in (("an ante bonus", self.ante_bonus is not None),
                                         ("side bets", bool(self.side_bets)),
                                         ("a progressive", self.progressive is not None),
                                         ("a hand left face down", self.face_down_loses)) if there]

    @property
    def russian(self) -> bool:
        """True if the table has a rule of Russian Poker (two combinations paid, insurance,
        buying the game, an ante pay by the hand when the dealer does not qualify, an instant
        payout on a dealt hand)."""
        return (self.two_combinations is not None or self.insurance is not None or self.buy_game is not None
                or bool(self.ante_no_qualify_with) or bool(self.ante_instant) or self.ante_win_unless is not None)

