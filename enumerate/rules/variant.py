"""A Caribbean Stud rule variant: raise paytable, ante pays and dealer qualifier.

Pays are exact rationals (``fractions.Fraction``) "to 1", per unit of the wager they pay on.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from enumerate.jsonform import exact
from enumerate.progressive.rules import Progressive
from enumerate.rules.qualifier import Qualifier
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

#: Raise categories from the top down, as paytables list them.
PAY_CATEGORIES = tuple(reversed(Category))


@dataclass(frozen=True)
class Variant:
    """Everything that decides the base game's return.

    * ``raise_pays``: pay on the raise, "to 1", for a win with each category (royal flush
      included: when the table does not list it separately it pays as a straight flush).
    * ``ante_no_qualify`` / ``ante_win``: pay on the ante when the dealer does not qualify /
      when the player beats a qualifying dealer (both 1 to 1 in every published rule set).
    * ``progressive``: the progressive jackpot side bet, if the table offers one.
    """

    name: str
    raise_pays: Mapping[Category, Fraction]
    royal_separate: bool = True
    ante_no_qualify: Fraction = Fraction(1)
    ante_win: Fraction = Fraction(1)
    qualifier: Qualifier = field(default_factory=Qualifier.ace_king)
    description: str = ""
    progressive: Progressive | None = None

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

    def pay(self, category: Category) -> Fraction:
        """Raise pay ("to 1") for a win with ``category``."""
        return self.raise_pays[category]

    def to_dict(self) -> dict[str, Any]:
        """The rules in the JSON convention: keys as in the variant file."""
        return {
            "name": self.name,
            "description": self.description,
            "qualifier": {"rule": self.qualifier.label, "threshold_strength": self.qualifier.threshold},
            "raise_pays": {c.key: exact(self.pay(c)) for c in PAY_CATEGORIES
                           if self.royal_separate or c != Category.ROYAL_FLUSH},
            "royal_pays_separately": self.royal_separate,
            "ante_pays": {"dealer_does_not_qualify": exact(self.ante_no_qualify),
                          "player_wins": exact(self.ante_win)},
            "progressive": None if self.progressive is None else self.progressive.to_dict(),
        }

