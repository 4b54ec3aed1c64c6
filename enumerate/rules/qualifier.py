"""Dealer qualifiers written the way rules state them.

A qualifier "X or better" is the weakest 5-card hand that contains the ranks X; the dealer
qualifies iff its hand is at least that strong.

>>> parse_qualifier("AK").threshold == strength("Ah Kd 4c 3s 2c")     # Ace/King or better
True
>>> parse_qualifier("44").threshold == strength("4h 4d 5c 3s 2c")     # pair of fours or better
True
>>> parse_qualifier("none").threshold
0
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, TypedDict

import numpy as np

from enumerate.core.shapes import Maximum, Minimum
from evaluator.cards import RANKS, parse_hand
from evaluator.errors import StudoddsError
from evaluator.ranking import N_STRENGTHS, rank_counts_by_strength, strength


class QualifierJSON(TypedDict):
    """A qualifier's JSON: its rule and the lowest strength that meets it."""

    rule: str
    threshold_strength: Annotated[int, Minimum(0), Maximum(N_STRENGTHS - 1)]


_NAMES = {"AK": "Ace/King or better", "NONE": "none (the dealer always qualifies)"}


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
        return cls(strength("Ah Kd 4c 3s 2c"), _NAMES["AK"])

    @property
    def always_qualifies(self) -> bool:
        """True when the dealer qualifies with every hand (qualifier "none")."""
        return self.threshold == 0

    def to_dict(self) -> QualifierJSON:
        return {"rule": self.label, "threshold_strength": self.threshold}


def parse_qualifier(text: str) -> Qualifier:
    """Parse ``"AK"``, ``"AK432"``, ``"44"``, ``"QQ55"``, ``"none"`` or five cards
    (``"Ah Kd 4c 3s 2c"``); raise StudoddsError for an impossible qualifier."""
    if not isinstance(text, str) or not text.strip():
        raise StudoddsError("qualifier must be text such as \"AK\", \"44\" or \"none\"")
    t = text.strip()
    if t.upper() == "NONE":
        return Qualifier(0, _NAMES["NONE"])
    if len(t.split()) == 5:
        return Qualifier(strength(parse_hand(t)), f"{t} or better")
    ranks = t.upper().replace("10", "T")
    bad = [c for c in ranks if c not in RANKS]
    if bad:
        raise StudoddsError(f"qualifier {text!r}: {bad[0]!r} is not a rank (use 2-9, T, J, Q, K, A)")
    if len(ranks) > 5:
        raise StudoddsError(f"qualifier {text!r}: more than five ranks")
    need = np.zeros(13, dtype=np.int64)
    for c in ranks:
        need[RANKS.index(c)] += 1
    if need.max() > 4:
        raise StudoddsError(f"qualifier {text!r}: a rank appears more than four times")
    contains = (rank_counts_by_strength() >= need).all(axis=1)
    threshold = int(np.flatnonzero(contains)[0])
    assert threshold < N_STRENGTHS
    return Qualifier(threshold, _NAMES.get(ranks, f"{ranks} or better"))
