"""Paytables on a five-card hand, with sub-categories by rank: side bets, the ante bonus, envy.

A paytable maps *hand specifications* to pays.  A specification is written as a variant-file
key:

* ``flush``: every flush (royal flush and straight flush are categories of their own);
* ``one_pair 8-A``: a pair of eights through aces; ``one_pair 2-7``: a lower pair;
* ``three_of_a_kind Q``: trips of queens only;
* ``two_pairs+``: two pairs or any better hand; ``any``: every hand.

The rank a range refers to is the category's *principal rank*: the pair of a one-pair hand,
the higher pair of two pairs, the trips of three of a kind or a full house, the quads of four of
a kind, the top card of a straight or straight flush (5 for A-2-3-4-5), the highest card of a
flush or a high-card hand.

>>> p = HandPaytable.parse({"one_pair 8-A": 1, "one_pair 2-7": "push", "two_pairs+": 2})
>>> from evaluator.ranking import strength
>>> p.outcome(strength("8h 8d Kc 3s 2c")), p.outcome(strength("7h 7d Kc 3s 2c"))
(Fraction(1, 1), 'push')
>>> p.outcome(strength("Ah Kd 9c 3s 2c")) is None          # not listed: the bet loses
True
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any, Final, Literal, Union

import numpy as np

from enumerate.core.jsonform import exact
from enumerate.core.shapes import Def, Exact, MinProperties, shared
from enumerate.rules.amounts import parse_amount
from evaluator.cards import RANKS
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, N_STRENGTHS, Category, rank_counts_by_strength

#: A pay: a multiple "to 1" (or an amount), or ``"push"`` (the wager is returned).
Pay = Union[Fraction, str]
PUSH: Final = "push"

#: A hand paytable's JSON: each listed hand's pay (``"push"``: the wager is returned), keys as in
#: the variant file.
HandPaysJSON = Annotated[dict[str, Exact | Literal["push"]], MinProperties(1), Def("hand_pays")]
shared(HandPaysJSON)


@lru_cache(maxsize=1)
def principal_rank_by_strength() -> np.ndarray:
    """(7462,) the principal rank (0 = deuce .. 12 = ace) of every strength (see the module)."""
    counts = rank_counts_by_strength()
    out = np.empty(N_STRENGTHS, dtype=np.int64)
    for s in range(N_STRENGTHS):
        c = counts[s]
        ranks = sorted((r for r in range(13) if c[r]), key=lambda r: (-c[r], -r))
        cat = CATEGORY_BY_STRENGTH[s]
        wheel = cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and ranks[0] == 12 and c[3]
        out[s] = 3 if wheel else ranks[0]
    out.flags.writeable = False
    return out


def _rank(text: str, key: str) -> int:
    t = text.strip().upper().replace("10", "T")
    if len(t) != 1 or t not in RANKS:
        raise StudoddsError(f"{key!r}: {text!r} is not a rank (use 2-9, T, J, Q, K, A)")
    return RANKS.index(t)


@dataclass(frozen=True)
class HandSpec:
    """Hands of ``category`` (and, with ``or_better``, every stronger category) whose principal
    rank lies in ``low..high``; ``category`` None means every hand."""

    category: Category | None
    low: int = 0
    high: int = 12
    or_better: bool = False

    @classmethod
    def parse(cls, key: str) -> "HandSpec":
        """``"flush"``, ``"one_pair 8-A"``, ``"three_of_a_kind Q"``, ``"two_pairs+"``, ``"any"``."""
        text = key.strip()
        if text == "any":
            return cls(None)
        name, _, ranks = text.partition(" ")
        better = name.endswith("+")
        name = name.rstrip("+")
        try:
            cat = Category.from_key(name)
        except KeyError:
            allowed = ", ".join(c.key for c in reversed(Category))
            raise StudoddsError(f"{key!r}: {name!r} is not a hand category ({allowed}, or \"any\")") from None
        if not ranks.strip():
            return cls(cat, or_better=better)
        if better:
            raise StudoddsError(f"{key!r}: a rank range cannot be combined with '+'")
        lo, sep, hi = ranks.strip().partition("-")
        low = _rank(lo, key)
        high = _rank(hi, key) if sep else low
        if high < low:
            raise StudoddsError(f"{key!r}: the range runs from low to high ({RANKS[high]}-{RANKS[low]})")
        return cls(cat, low, high)

    @property
    def key(self) -> str:
        """The specification as written in a variant file."""
        if self.category is None:
            return "any"
        if self.or_better:
            return self.category.key + "+"
        if (self.low, self.high) == (0, 12):
            return self.category.key
        return f"{self.category.key} {RANKS[self.low]}" + (f"-{RANKS[self.high]}" if self.high != self.low else "")

    @property
    def outcome_key(self) -> str:
        """The specification as an outcome identifier of a return table: ``"one_pair_8_to_A"``,
        ``"two_pairs_or_better"``."""
        return self.key.replace(" ", "_").replace("+", "_or_better").replace("-", "_to_")

    @property
    def label(self) -> str:
        """The specification in words: ``"one pair 8-A"``, ``"two pairs or better"``."""
        if self.category is None:
            return "any hand"
        if self.or_better:
            return f"{self.category.label} or better"
        return self.key.replace(self.category.key, self.category.label)

    def mask(self) -> np.ndarray:
        """(7462,) bool: the strengths this specification covers."""
        if self.category is None:
            return np.ones(N_STRENGTHS, dtype=bool)
        cat = CATEGORY_BY_STRENGTH
        if self.or_better:
            return cat >= self.category
        rank = principal_rank_by_strength()
        return (cat == self.category) & (rank >= self.low) & (rank <= self.high)


@dataclass(frozen=True)
class HandPaytable:
    """Pays on a five-card hand, by :class:`HandSpec`; specifications must not overlap.

    ``pays`` holds (specification, pay) from the best hand down; a pay is a ``Fraction`` or
    :data:`PUSH`.  A hand no specification covers gets no pay (``outcome`` None)."""

    pays: tuple[tuple[HandSpec, Pay], ...]

    @classmethod
    def parse(cls, table: Any, *, allow_push: bool = True, where: str = "pays") -> "HandPaytable":
        """From a variant-file table ``{"one_pair 8-A": 1, "one_pair 2-7": "push", ...}``."""
        if not isinstance(table, dict) or not table:
            raise StudoddsError(f"{where}: missing table of pays by hand")
        items: list[tuple[HandSpec, Pay]] = []
        for key, value in table.items():
            try:
                spec = HandSpec.parse(key)
            except StudoddsError as exc:
                raise StudoddsError(f"{where}.{exc}") from None
            if isinstance(value, str) and value.strip().lower() == PUSH:
                if not allow_push:
                    raise StudoddsError(f"{where}.{key}: a push is not possible here")
                items.append((spec, PUSH))
                continue
            try:
                items.append((spec, parse_amount(value)))
            except StudoddsError as exc:
                raise StudoddsError(f"{where}.{key}: {exc}") from None
        table_ = cls(tuple(items))
        try:
            table_.classes()                  # overlaps are errors
        except StudoddsError as exc:
            raise StudoddsError(f"{where}{str(exc).removeprefix('pays')}") from None
        return table_

    def classes(self) -> np.ndarray:
        """(7462,) int16: the index in ``pays`` covering each strength, -1 for none."""
        out = np.full(N_STRENGTHS, -1, dtype=np.int16)
        for i, (spec, _) in enumerate(self.pays):
            m = spec.mask()
            clash = m & (out >= 0)
            if clash.any():
                other = self.pays[int(out[np.flatnonzero(clash)[0]])][0].key
                raise StudoddsError(f"pays: {spec.key!r} and {other!r} both cover some hands")
            if not m.any():
                raise StudoddsError(f"pays: {spec.key!r} covers no hand")
            out[m] = i
        return out

    def outcome(self, strength: int) -> Pay | None:
        """The pay of a hand of this strength, or None when it is not in the paytable."""
        i = int(self.classes()[strength])
        return None if i < 0 else self.pays[i][1]

    def amounts(self, unlisted: Fraction, push: Fraction = Fraction(0)) -> list[Fraction]:
        """Net result per class index, with ``unlisted`` appended last (for class -1)."""
        return [push if p == PUSH else Fraction(p) for _, p in self.pays] + [unlisted]

    def to_dict(self) -> HandPaysJSON:
        return {spec.key: (PUSH if pay == PUSH else exact(Fraction(pay))) for spec, pay in self.pays}

    def text(self) -> str:
        return ", ".join(f"{spec.label} {pay if pay == PUSH else pay}" for spec, pay in self.pays)
