"""Hand strength, categories and hand indices: the public face of the lookup-table evaluator.

Strength is an integer 0..7461: higher is better, equal means an exact tie in poker order.
Every 5-card set also has a *colex index* 0..2,598,959: with its cards sorted,
c0 < c1 < ... < c4, the index is C(c0, 1) + C(c1, 2) + C(c2, 3) + C(c3, 4) + C(c4, 5).  The
count engine stores hands by this index, so it is computed here and nowhere else.

Nothing outside this package imports the compiled module ``evaluator._eval``; what the rest of
the project needs from it is re-exported here.

>>> strength("As Ks Qs Js Ts") == N_STRENGTHS - 1
True
>>> category(strength("7h 7d 7c 2s 2d")).key
'full_house'
>>> hand_index((0, 1, 2, 3, 4)), hand_index((47, 48, 49, 50, 51))
(0, 2598959)
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from evaluator import _eval
from evaluator.cards import parse_hand
from evaluator.errors import StudoddsError

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
        """Name in words, e.g. ``"full house"``."""
        return _LABELS[self]

    @property
    def key(self) -> str:
        """snake_case name used in variant files and JSON, e.g. ``"full_house"``."""
        return _KEYS[self]

    @classmethod
    def from_key(cls, key: str) -> "Category":
        """The category of a variant-file key such as ``"two_pairs"``; KeyError if none."""
        return _BY_KEY[key]


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
_KEYS = {c: label.replace(" ", "_") for c, label in _LABELS.items()}
_BY_KEY = {k: c for c, k in _KEYS.items()}

#: Category of every strength, as a read-only int16 array of length 7462.
CATEGORY_BY_STRENGTH: np.ndarray = _eval.CATEGORY_BY_STRENGTH
#: Five cards of one hand of each strength (read-only (7462, 5) uint8).
REPRESENTATIVE_BY_STRENGTH: np.ndarray = _eval.REPRESENTATIVE_BY_STRENGTH


def _check_cards(cards: str | Iterable[int]) -> tuple[int, ...]:
    if isinstance(cards, str):
        return parse_hand(cards)
    out = tuple(int(c) for c in cards)
    if len(out) != 5:
        raise StudoddsError(f"expected 5 cards, got {len(out)}")
    if any(not 0 <= c < 52 for c in out):
        raise StudoddsError(f"bad card number in {out}: expected 0..51")
    if len(set(out)) != 5:
        raise StudoddsError(f"duplicate card in {out}")
    return out


def strength(cards: str | Iterable[int]) -> int:
    """Strength 0..7461 of five distinct cards (text such as ``"As Kd Jh 8c 3s"`` or ints).

    >>> strength("As Ks Qs Js Ts")
    7461
    >>> strength("2c 3d 4h 5s 7c")
    0
    """
    return int(_eval.strengths_of(np.array([_check_cards(cards)], dtype=np.uint8), 1)[0])


def hand_index(cards: Iterable[int]) -> int:
    """Colex index 0..2598959 of five distinct cards (ints 0..51, any order)."""
    return sum(math.comb(card, i + 1) for i, card in enumerate(sorted(int(x) for x in cards)))


def colex_indices(sets: np.ndarray, positions: Sequence[int] | None = None) -> np.ndarray:
    """Colex index of each row of an (n, k) array of sorted, distinct labels (cards, or labels of
    any set), as int64 -- of its columns at ``positions`` only, when given (no copy is made): the
    rows of k labels below m are numbered 0..C(m, k) - 1."""
    out = np.zeros(sets.shape[0], dtype=np.int64)
    for i, p in enumerate(range(sets.shape[1]) if positions is None else positions):
        column = sets[:, p]
        out += np.array([math.comb(x, i + 1) for x in range(int(column.max(initial=0)) + 1)], dtype=np.int64)[column]
    return out


def hand_indices(hands: np.ndarray) -> np.ndarray:
    """Colex index of each row of an (n, 5) array of distinct cards (any order), as int32."""
    return _eval.hand_indices(np.ascontiguousarray(hands, dtype=np.uint8))


def hands_of_indices(indices: np.ndarray) -> np.ndarray:
    """Inverse of :func:`hand_indices`: the sorted cards of each colex index, (n, 5) uint8."""
    return _eval.cards_of_indices(np.ascontiguousarray(indices, dtype=np.int32))


def category(strength_value: int) -> Category:
    """Category of a strength; 7461 (the royal flush) is ROYAL_FLUSH."""
    if not 0 <= strength_value < N_STRENGTHS:
        raise StudoddsError(f"strength {strength_value} is outside 0..{N_STRENGTHS - 1}")
    return Category(int(CATEGORY_BY_STRENGTH[strength_value]))


def strengths(hands: np.ndarray, threads: int = 0, check: bool = True) -> np.ndarray:
    """Vectorised strength of an (n, 5) integer array of cards; returns int16 of length n.

    Rows must hold five distinct cards 0..51 (checked; StudoddsError names the first bad row).
    ``threads`` 0 lets OpenMP choose.  ``check=False`` skips the check (it sorts every row,
    the larger part of the cost) for a caller that built the rows from distinct cards itself.
    """
    a = np.asarray(hands)
    if a.ndim != 2 or a.shape[1] != 5:
        raise StudoddsError(f"hands must have shape (n, 5), got {a.shape}")
    if not check:
        return _eval.strengths_of(np.ascontiguousarray(a, dtype=np.uint8), threads)
    if a.size and (a.min() < 0 or a.max() > 51):
        bad = int(np.flatnonzero(((a < 0) | (a > 51)).any(axis=1))[0])
        raise StudoddsError(f"row {bad} has a card outside 0..51: {a[bad].tolist()}")
    a = np.ascontiguousarray(a, dtype=np.uint8)
    s = np.sort(a, axis=1)
    dup = (s[:, 1:] == s[:, :-1]).any(axis=1)
    if dup.any():
        bad = int(np.flatnonzero(dup)[0])
        raise StudoddsError(f"row {bad} has a duplicate card: {a[bad].tolist()}")
    return _eval.strengths_of(a, threads)


def best_strengths(hands: Sequence[Sequence[int]]) -> np.ndarray:
    """The strength of the best five cards of each hand of five or six distinct cards (int64,
    unchecked: the caller dealt them), the hands of each size ranked together on one thread (a
    few microseconds a thousand hands: a team of threads costs more than it saves)."""
    out = np.zeros(len(hands), dtype=np.int64)
    for size in (5, 6):
        rows = [i for i, h in enumerate(hands) if len(h) == size]
        if not rows:
            continue
        cards = np.array([hands[i] for i in rows], dtype=np.uint8)
        fives = [cards] if size == 5 else [np.delete(cards, k, axis=1) for k in range(6)]
        out[rows] = np.max([strengths(f, threads=1, check=False) for f in fives], axis=0)
    if any(len(h) not in (5, 6) for h in hands):
        raise StudoddsError("a hand ranked by its best five has five or six cards")
    return out


@lru_cache(maxsize=1)
def rank_counts_by_strength() -> np.ndarray:
    """(7462, 13) read-only: how many cards of each rank (deuce first) a hand of each strength
    holds (suits do not matter here)."""
    ranks = REPRESENTATIVE_BY_STRENGTH.astype(np.int64) >> 2
    out = (ranks[:, :, None] == np.arange(13)).sum(axis=1)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=1)
def ordering_fingerprint() -> str:
    """SHA-256 of the strength of every hand in colex order (int16 little-endian).

    It pins the whole hand ordering: caches and certified tables record it, so results made
    by another ordering are never mixed up with these."""
    return hashlib.sha256(_eval.strength_by_index().astype("<i2").tobytes()).hexdigest()


def openmp_enabled() -> bool:
    """True if the compiled modules were built with OpenMP (parallel loops use every thread
    asked for); False for a serial build."""
    return bool(_eval.OPENMP)


def debug_build() -> bool:
    """True if the evaluator is the bounds-checking debug build."""
    return bool(_eval.DEBUG_BUILD)


def cython_version() -> str:
    """The Cython version that generated the compiled modules' C code."""
    return str(_eval.CYTHON_VERSION)


def strength_by_index() -> np.ndarray:
    """Strength of every hand by its colex index (read-only int16, length 2,598,960), made on
    the first call (about 10 ms) and kept."""
    return _eval.strength_by_index()


if TYPE_CHECKING:  # pragma: no cover - the type of the name made on first use
    STRENGTH_BY_INDEX: np.ndarray


def __getattr__(name: str) -> Any:
    """``STRENGTH_BY_INDEX``: the strength of every hand by its colex index (read-only int16,
    length 2,598,960), made on first use (:func:`evaluator._eval.strength_by_index`)."""
    if name == "STRENGTH_BY_INDEX":
        return _eval.strength_by_index()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
