"""Dealer qualifiers written the way rules state them.

A qualifier "X or better" is the weakest 5-card hand that contains the ranks X; the dealer
qualifies iff its hand is at least that strong.

>>> from evaluator.ranking import strength
>>> parse_qualifier("AK").threshold == strength("Ah Kd 4c 3s 2c")     # Ace/King or better
True
>>> parse_qualifier("44").threshold == strength("4h 4d 5c 3s 2c")     # pair of fours or better
True
>>> parse_qualifier("none").threshold
0
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from evaluator import _eval
from evaluator.cards import RANKS, parse_hand
from evaluator.ranking import N_STRENGTHS, strength
from enumerate.variant import Qualifier

_NAMES = {"AK": "Ace/King or better", "NONE": "none (the dealer always qualifies)"}


@lru_cache(maxsize=1)
def _rank_counts_by_strength() -> np.ndarray:
    """(7462, 13) rank counts of one hand of each strength (suits do not matter here)."""
    ranks = _eval.REPRESENTATIVE_BY_STRENGTH.astype(np.int64) >> 2
    return (ranks[:, :, None] == np.arange(13)).sum(axis=1)


def parse_qualifier(text: str) -> Qualifier:
    """Parse ``"AK"``, ``"AK432"``, ``"44"``, ``"QQ55"``, ``"none"`` or five cards
    (``"Ah Kd 4c 3s 2c"``); raise ValueError for an impossible qualifier."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("qualifier must be text such as \"AK\", \"44\" or \"none\"")
    t = text.strip()
    if t.upper() == "NONE":
        return Qualifier(0, _NAMES["NONE"])
    if len(t.split()) == 5:
        return Qualifier(strength(parse_hand(t)), f"{t} or better")
    ranks = t.upper().replace("10", "T")
    bad = [c for c in ranks if c not in RANKS]
    if bad:
        raise ValueError(f"qualifier {text!r}: {bad[0]!r} is not a rank (use 2-9, T, J, Q, K, A)")
    if len(ranks) > 5:
        raise ValueError(f"qualifier {text!r}: more than five ranks")
    need = np.zeros(13, dtype=np.int64)
    for c in ranks:
        need[RANKS.index(c)] += 1
    if need.max() > 4:
        raise ValueError(f"qualifier {text!r}: a rank appears more than four times")
    contains = (_rank_counts_by_strength() >= need).all(axis=1)
    threshold = int(np.flatnonzero(contains)[0])
    assert threshold < N_STRENGTHS
    return Qualifier(threshold, _NAMES.get(ranks, f"{ranks} or better"))
