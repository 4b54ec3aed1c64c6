"""The bought game of many final hands at once, exactly, by the dealer's rank sets and by rank.

What buying the game adds to raising a final hand, over the dealer hands that do not qualify,
needs the dealer's whole hand (the purchase is decided seeing it).  :mod:`enumerate.russian.final_hand`
evaluates every dealer hand and every replacement (3.4 million hands for one final hand); the
kernel ``_bought.pyx`` gets the same sums from the dealer's rank sets: a hand that does not qualify
holds five ranks, and the value of its purchase depends on its ranks, on how many cards of each
rank the player has not seen, and -- only when the four cards kept are of one suit -- on which
cards of that suit are unseen (the module docstring of ``_bought.pyx`` has the decomposition).
About 500 rank sets of 13 ranks each instead of 163,185 dealer hands of 42 replacements each;
and those sums are made once per *key* -- the final hand's strength, pay and unseen cards of each
rank -- and corrected per final hand for its suits (a few bit tests a rank set).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import numpy as np

from enumerate.russian import _bought
from enumerate.russian.settle import STATES, HandPay, RussianSettlement
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


def purchase_unit(s: RussianSettlement, unseen: int) -> int:
    """How many combinations a dealer hand counts with ``unseen`` cards unseen: one per share of
    a bought game's replacement pool (:func:`pool_multiple`), or 1 at a table without the purchase."""
    b = s.buy_game
    return 1 if b is None else pool_multiple(unseen, b.same_rank == "replaced_again")


@dataclass(frozen=True)
class Purchases:
    """Per final hand: the dealer hands that do not qualify, those whose game is bought, how the
    purchases end (columns win, push, lose, short: each a sum over the hands bought of the share
    of their pool ending so, in units of 1 / ``dn``), and what buying adds to the sum of raise
    values over the dealer hands, in units of 1 / ``unit`` antes."""

    no_qualify: np.ndarray
    bought: np.ndarray
    outcomes: np.ndarray
    dn: int
    gains: np.ndarray
    unit: int

    def gain(self, i: int) -> Fraction:
        """What buying adds for final hand ``i`` (antes, summed over the dealer hands)."""
        return Fraction(int(self.gains[i]), self.unit)

    def ends(self, i: int) -> dict[str, Fraction]:
        """How final hand ``i``'s purchases end: the dealer hands bought that end won, pushed, lost
        or still short, each counted by the share of its pool (they sum to the hands bought)."""
        return {name: Fraction(int(x), self.dn) for name, x in zip(_bought.OUTCOME_NAMES, self.outcomes[i].tolist())}


def net_scale(s: RussianSettlement, hands: Sequence[HandPay]) -> int:
    """The least integer that makes every net of the final hands ``hands`` whole (with the fee,
    every insurance stake and every instant payout)."""
    values = [s.net(h, state) for h in hands for state in STATES] + [s.insurance_stake(h) for h in hands]
    values += [pay for _, pay in s.instant]
    if s.buy_game is not None:
        values.append(s.buy_game.fee)
    return math.lcm(*(Fraction(x).denominator for x in values))


def purchases(s: RussianSettlement, threshold: int, players: np.ndarray, pays: Sequence[HandPay],
              which: np.ndarray, unseen: np.ndarray, up: int, threads: int = 1,
              count_no_qualify: bool = False) -> Purchases:
    """The bought games of final hands of strengths ``players`` and pays ``pays[which]``, with
    unseen cards ``unseen`` (52-bit masks, as many cards in each) against the up card ``up``.
    The dealer hands that do not qualify are counted for every hand with ``count_no_qualify``,
    else only for those whose purchase could gain (0 for the others)."""
    b = s.buy_game
    if b is None:
        raise StudoddsError("the table does not offer buying the game ([buy_game])")
    count = int(unseen[0]).bit_count() if len(unseen) else 52
    if count < 9:
        raise StudoddsError("a final hand valued with its bought games leaves at least nine cards unseen")
    scale = net_scale(s, pays)
    which = np.asarray(which)
    win, ante = (np.array([int(s.net(p, state, bought=True) * scale) for p in pays], dtype=np.int64)[which]
                 for state in ("player_wins", "dealer_does_not_qualify"))
    lose = int(s.net(pays[0], "dealer_wins") * scale) if len(pays) else 0
    if len(pays) and s.net(pays[0], "push") != 0:
        raise StudoddsError("the bought-game kernels settle a push as nothing")
    dn = purchase_unit(s, count)
    players = np.ascontiguousarray(players, dtype=np.int16)
    unseen = np.ascontiguousarray(unseen, dtype=np.uint64)
    sets = rank_sets(up >> 2, threshold, b.replaces == "highest")
    rules = _bought.Rules(up, sets, lose, int(b.fee * scale), threshold, b.after == "qualifier_applies",
                          b.same_rank == "replaced_again", dn)
    first, key = np.unique(_keys(players, which, unseen), return_index=True, return_inverse=True)[1:]
    keys = np.zeros((len(first), _bought.KEY_COLUMNS), dtype=np.int64)
    c = np.zeros((len(first), 4 * len(sets)), dtype=np.int16)
    pool = np.zeros((len(first), len(sets)), dtype=np.int32)
    _bought.key_values(rules, players[first], win[first], ante[first], unseen[first], count_no_qualify, keys, c, pool,
                       threads)
    n = len(win)
    nq, bought = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    outcomes = np.zeros((n, 4), dtype=np.int64)
    status = _bought.hand_values(rules, players, win, ante, unseen, key.astype(np.int64).reshape(-1), keys, c, pool,
                                 count_no_qualify, count, nq, bought, outcomes, threads)
    if status == 2:
        raise StudoddsError("final hands valued together have as many unseen cards")
    fee = int(b.fee * scale)
    # the outcomes of a hand sum to its hands bought times dn: every term below is at most 4 * top * nets
    top = int(np.abs(outcomes).max(initial=0))
    if status == 1 or 8 * top * (int(np.abs(win).max(initial=0)) + abs(lose) + abs(fee)
                                 + 2 * int(np.abs(ante).max(initial=0))) >= 2**62:
        raise StudoddsError("pays too large for exact 64-bit sums of the bought game")
    gains = outcomes[:, 0] * win + outcomes[:, 2] * lose + outcomes[:, 3] * ante - (fee + ante) * dn * bought
    return Purchases(nq, bought, outcomes, dn, gains, scale * dn)


#: Unseen cards among the four of a rank, by the rank's 4-bit mask.
_POPCOUNT4 = np.array([bin(m).count("1") for m in range(16)], dtype=np.uint64)


def _keys(players: np.ndarray, which: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """What a final hand's bought games share with others, as one number: its strength, its pay
    and the unseen cards of each rank (3 bits a rank)."""
    if len(which) and int(which.max()) >= 1 << 11:
        raise StudoddsError("too many distinct pays among the final hands valued together")
    out = (which.astype(np.uint64) << np.uint64(52)) | (players.astype(np.uint64) << np.uint64(39))
    for r in range(13):
        out |= _POPCOUNT4[(unseen >> np.uint64(4 * r)) & np.uint64(15)] << np.uint64(3 * r)
    return out
