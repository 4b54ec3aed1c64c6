"""The bought game of many final hands at once, exactly, by the dealer's rank sets.

What buying the game adds to raising a final hand, over the dealer hands that do not qualify,
needs the dealer's whole hand (the purchase is decided seeing it).  :mod:`enumerate.russian.final_hand`
evaluates every dealer hand and every replacement (3.4 million hands for one final hand); the
kernel ``_bought.pyx`` gets the same sums from the dealer's rank sets: a hand that does not qualify
holds five ranks, and the value of its purchase depends on its ranks, on how many cards of each
rank the player has not seen, and -- only when the four cards kept are of one suit -- on which
cards of that suit are unseen (the module docstring of ``_bought.pyx`` has the decomposition).
About 500 rank sets of 13 ranks each instead of 163,185 dealer hands of 42 replacements each.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import numpy as np

from enumerate.russian import _bought
from enumerate.russian.settle import RussianSettlement
from evaluator._rank_keys import RANK_KEYS
from evaluator.errors import StudoddsError
from evaluator.ranking import strength


@lru_cache(maxsize=128)
def rank_sets(up_rank: int, threshold: int, highest: bool) -> np.ndarray:
    """The five-rank sets holding ``up_rank`` whose hand (no flush) does not reach ``threshold``,
    as rows (13-bit mask, rank removed by a purchase, evaluator key of the four ranks kept)."""
    rows = []
    for others in combinations([r for r in range(13) if r != up_rank], 4):
        ranks = sorted(others + (up_rank,))
        if strength([r * 4 + (1 if i == 0 else 0) for i, r in enumerate(ranks)]) >= threshold:
            continue
        removed = ranks[-1] if highest else ranks[0]
        rows.append((sum(1 << r for r in ranks), removed, sum(RANK_KEYS[r] for r in ranks if r != removed)))
    out = np.array(rows, dtype=np.int32).reshape(-1, _bought.SET_COLUMNS)
    out.flags.writeable = False
    return out


def pool_multiple(unseen: int, redraw: bool) -> int:
    """A common multiple of every pool a replacement may come from, with ``unseen`` cards unseen:
    less the four hole cards, and less up to four more of the removed rank when it is redrawn."""
    return math.lcm(*range(unseen - 8, unseen - 3)) if redraw else unseen - 4


@dataclass(frozen=True)
class Purchases:
    """Per final hand: the dealer hands that do not qualify, those whose game is bought, and what
    buying adds to the sum of raise values over the dealer hands (antes)."""

    no_qualify: np.ndarray
    bought: np.ndarray
    gains: tuple[Fraction, ...]


def purchases(s: RussianSettlement, threshold: int, players: np.ndarray, pays: list[Fraction], unseen: np.ndarray,
              up: int, threads: int = 1) -> Purchases:
    """The bought games of final hands of strengths ``players``, bet pays ``pays`` and unseen cards
    ``unseen`` (52-bit masks, as many cards in each) against the up card ``up``."""
    b = s.buy_game
    if b is None:
        raise StudoddsError("the table does not offer buying the game ([buy_game])")
    counts = {int(x).bit_count() for x in unseen.tolist()}
    if len(counts) != 1 or min(counts) < 9:
        raise StudoddsError("final hands valued together have as many unseen cards, at least nine")
    wins = [s.net(p, "player_wins") for p in pays]
    nets = [s.net(Fraction(0), "dealer_wins"), s.net(Fraction(0), "dealer_does_not_qualify"), b.fee]
    scale = math.lcm(*(x.denominator for x in wins + nets))
    lose, ante, fee = (int(x * scale) for x in nets)
    dn = pool_multiple(counts.pop(), b.same_rank == "replaced_again")
    n = len(pays)
    nq, bought, gains = (np.zeros(n, dtype=np.int64) for _ in range(3))
    ok = _bought.bought_values(np.ascontiguousarray(players, dtype=np.int16),
                               np.array([int(w * scale) for w in wins], dtype=np.int64),
                               np.ascontiguousarray(unseen, dtype=np.uint64), up,
                               rank_sets(up >> 2, threshold, b.replaces == "highest"), lose, ante, fee, threshold,
                               b.after == "qualifier_applies", b.same_rank == "replaced_again", dn, nq, bought, gains,
                               threads)
    if not ok:
        raise StudoddsError("pays too large for exact 64-bit sums of the bought game")
    return Purchases(nq, bought, tuple(Fraction(int(g), scale * dn) for g in gains.tolist()))
