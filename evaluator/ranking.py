"""Hand strength and categories (public API over the Cython lookup tables).

Strength is an integer 0..7461: higher is better, equal means an exact tie in poker order.
"""
from __future__ import annotations

from enum import IntEnum

import numpy as np

from evaluator import _eval

#: Number of distinct 5-card hand ranks.
N_STRENGTHS = 7462
#: Number of 5-card hands from one deck: C(52, 5).
N_HANDS = 2_598_960


class Category(IntEnum):
    """Hand categories in poker order.  ROYAL_FLUSH is the top straight flush, kept apart
    because paytables may pay it separately."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Category.HIGH_CARD: "high card",
    Category.ONE_PAIR: "one pair",
    Category.TWO_PAIR: "two pairs",
    Category.TRIPS: "three of a kind",
    Category.STRAIGHT: "straight",
    Category.FLUSH: "flush",
    Category.FULL_HOUSE: "full house",
    Category.QUADS: "four of a kind",
    Category.STRAIGHT_FLUSH: "straight flush",
    Category.ROYAL_FLUSH: "royal flush",
}

#: Category of every strength, as an int16 array of length 7462.
CATEGORY_BY_STRENGTH: np.ndarray = _eval.CATEGORY_BY_STRENGTH
#: Strength of every hand by its colex index (see :func:`hand_index`).
STRENGTH_BY_INDEX: np.ndarray = _eval.STRENGTH_BY_INDEX


def _check_cards(cards) -> tuple[int, ...]:
    from evaluator.cards import parse_hand
    if isinstance(cards, str):
        return parse_hand(cards)
    cards = tuple(int(c) for c in cards)
    if len(cards) != 5:
        raise ValueError(f"expected 5 cards, got {len(cards)}")
    if any(not 0 <= c < 52 for c in cards):
        raise ValueError(f"bad card number in {cards}: expected 0..51")
    if len(set(cards)) != 5:
        raise ValueError(f"duplicate card in {cards}")
    return cards


def strength(cards) -> int:
    """Strength 0..7461 of five distinct cards (text such as ``"As Kd Jh 8c 3s"`` or ints).

    >>> strength("As Ks Qs Js Ts")
    7461
    >>> strength("2c 3d 4h 5s 7c")
    0
    """
    c = _check_cards(cards)
    return int(_eval.STRENGTH_BY_INDEX[hand_index(c)])


def hand_index(cards) -> int:
    """Colex index 0..2598959 of five distinct cards (ints, any order)."""
    s = sorted(int(x) for x in cards)
    return sum(_eval.binomial(card, i + 1) for i, card in enumerate(s))


def category(strength_value: int) -> Category:
    """Category of a strength; 7461 (the royal flush) is ROYAL_FLUSH."""
    if not 0 <= strength_value < N_STRENGTHS:
        raise ValueError(f"strength {strength_value} is outside 0..{N_STRENGTHS - 1}")
    return Category(int(CATEGORY_BY_STRENGTH[strength_value]))


def strengths(hands: np.ndarray, threads: int = 0) -> np.ndarray:
    """Vectorised strength of an (n, 5) integer array of cards; returns int16 of length n.

    Rows must hold five distinct cards 0..51 (checked; ValueError names the first bad row).
    """
    a = np.asarray(hands)
    if a.ndim != 2 or a.shape[1] != 5:
        raise ValueError(f"hands must have shape (n, 5), got {a.shape}")
    if a.size and (a.min() < 0 or a.max() > 51):
        bad = int(np.flatnonzero(((a < 0) | (a > 51)).any(axis=1))[0])
        raise ValueError(f"row {bad} has a card outside 0..51: {a[bad].tolist()}")
    a = np.ascontiguousarray(a, dtype=np.uint8)
    s = np.sort(a, axis=1)
    dup = (s[:, 1:] == s[:, :-1]).any(axis=1)
    if dup.any():
        bad = int(np.flatnonzero(dup)[0])
        raise ValueError(f"row {bad} has a duplicate card: {a[bad].tolist()}")
    return _eval.strengths_of(a, threads)
