"""A Caribbean Stud rule variant: raise paytable, ante pays and dealer qualifier.

Pays are exact rationals (``fractions.Fraction``) "to 1", per unit of the wager they pay on.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Mapping

from evaluator.ranking import Category, strength
from enumerate.progressive import SideBet

#: Raise categories from the top down, as paytables list them.
PAY_CATEGORIES = tuple(reversed(Category))


@dataclass(frozen=True)
class Qualifier:
    """The dealer qualifies iff the dealer's hand strength is at least ``threshold``.

    ``threshold`` 0 means the dealer always qualifies.  ``label`` is how rules name it.
    """

    threshold: int
    label: str

    @classmethod
    def ace_king(cls) -> "Qualifier":
        """"Ace/King or better": any pair or better, or high card holding an Ace and a King.
        The weakest such hand is A-K-4-3-2 of mixed suits."""
        return cls(strength("Ah Kd 4c 3s 2c"), "Ace/King or better")


@dataclass(frozen=True)
class Variant:
    """Everything that decides the base game's return.

    * ``raise_pays``: pay on the raise, "to 1", for a win with each category (royal flush
      included: when the table does not list it separately it pays as a straight flush).
    * ``ante_no_qualify`` / ``ante_win``: pay on the ante when the dealer does not qualify /
      when the player beats a qualifying dealer (both 1 to 1 in every published rule set).
    """

    name: str
    raise_pays: Mapping[Category, Fraction]
    royal_separate: bool = True
    ante_no_qualify: Fraction = Fraction(1)
    ante_win: Fraction = Fraction(1)
    qualifier: Qualifier = field(default_factory=Qualifier.ace_king)
    description: str = ""
    side_bet: "SideBet | None" = None

    def __post_init__(self) -> None:
        pays = {Category(k): Fraction(v) for k, v in self.raise_pays.items()}
        if not self.royal_separate and Category.ROYAL_FLUSH not in pays:
            pays[Category.ROYAL_FLUSH] = pays.get(Category.STRAIGHT_FLUSH, Fraction(0))
        missing = [c.label for c in Category if c not in pays]
        if missing:
            raise ValueError(f"variant {self.name!r}: no raise pay for {', '.join(missing)}")
        negative = [c.label for c, v in pays.items() if v < 0]
        if negative:
            raise ValueError(f"variant {self.name!r}: negative raise pay for {', '.join(negative)}")
        object.__setattr__(self, "raise_pays", MappingProxyType(pays))
        object.__setattr__(self, "ante_no_qualify", Fraction(self.ante_no_qualify))
        object.__setattr__(self, "ante_win", Fraction(self.ante_win))

    def pay(self, category: Category) -> Fraction:
        """Raise pay ("to 1") for a win with ``category``."""
        return self.raise_pays[category]


def us_common() -> Variant:
    """The embedded default: the common US paytable of GAME.md (built-in ``us-common``)."""
    from enumerate.variant_file import load_builtin
    return load_builtin("us-common").variant
