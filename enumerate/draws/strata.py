"""Strata of the situations for estimating the gain of switching two or more cards.

The gain of a situation (what the best switch of two or more cards adds over the best action
with at most one card, zero when it adds nothing) is far from evenly spread: where the best
action with at most one card is worth much more than folding, no switch of two or more cards
pays its fee, and the dealer's up card decides most of the rest (a low up card leaves him more
often unqualified).  A uniform sample spends most of its work on situations whose gain is zero.

Stratified sampling spends it where the gain varies.  The strata are fixed before any sampling,
from the exact whole game with at most one switched card (:mod:`enumerate.draws.game`), which
values every one of the 122,151,120 situations: a situation's stratum is its up card's rank
(13) and the class of its best value with at most one card, V1 -- ``fold`` (V1 = -1: keeping and
folding is best), ``weak`` (-1 < V1 <= -4/5) and ``other`` (V1 > -4/5).  Each stratum's weight
is its exact share of the situations.  The estimate of the mean gain is

    sum_h W_h * mean_h,     variance  sum_h W_h^2 * s_h^2 / n_h

(``s_h`` the sample standard deviation of stratum h, ``n_h`` its sample size).  The sample sizes
follow Neyman's allocation, n_h proportional to W_h * s_h, which minimises that variance: a
pilot of :data:`PILOT_SHARDS` shards in every stratum estimates s_h, the rest of the budget is
allocated in whole shards by the pilot's W_h * s_h (largest remainders first), and the estimate
uses every sample, the pilot's included.  A stratum whose pilot shows no gain keeps its pilot
only; its share of situations that gain is bounded by Wilson's interval, reported beside.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from enumerate.core.engine import CountTable
from enumerate.draws.game import SITUATION_COMBINATIONS, DrawCounts
from evaluator.cards import RANKS

#: Shards of every stratum's pilot.
PILOT_SHARDS = 3
#: V1 classes: the best value with at most one card is -1 (fold), in (-1, WEAK], above WEAK.
WEAK = Fraction(-4, 5)
CLASSES = ("fold", "weak", "other")
#: Bump when the strata or the allocation change: a checkpoint of other strata is refused.
VERSION = 1


@dataclass(frozen=True)
class Strata:
    """Every situation up to suits in its stratum: ``members[h]`` the flat situations
    (count-table row * 47 + up column) of stratum h, ``cumulative[h]`` their running weights
    (player hands of the suit class), ``weights[h]`` the stratum's number of situations."""

    labels: tuple[str, ...]
    weights: tuple[int, ...]
    members: tuple[np.ndarray, ...]
    cumulative: tuple[np.ndarray, ...]

    @property
    def total(self) -> int:
        return sum(self.weights)

    def share(self, h: int) -> Fraction:
        return Fraction(self.weights[h], self.total)

    def situation(self, h: int, position: int) -> int:
        """The flat situation holding weight ``position`` (0 <= position < weights[h])."""
        return int(self.members[h][int(np.searchsorted(self.cumulative[h], position, side="right"))])


def strata(table: CountTable, one_card: DrawCounts) -> Strata:
    """The strata of :mod:`this module <enumerate.draws.strata>` from the exact one-card game."""
    unit = one_card.scale * SITUATION_COMBINATIONS         # best is in 1 / unit antes
    best = one_card.best
    v1 = np.where(best == -unit, 0, np.where(best * WEAK.denominator <= WEAK.numerator * unit, 1, 2))
    rank = table.up.astype(np.int64) // 4
    code = (rank * len(CLASSES) + v1).ravel()
    weight = np.repeat(table.weight.astype(np.int64), 47)
    labels, weights, members, cumulative = [], [], [], []
    for r in range(13):
        for c, name in enumerate(CLASSES):
            idx = np.flatnonzero(code == r * len(CLASSES) + c).astype(np.int64)
            if idx.size == 0:
                continue
            cum = np.cumsum(weight[idx])
            labels.append(f"up {RANKS[r]}, {name}")
            weights.append(int(cum[-1]))
            members.append(idx)
            cumulative.append(cum)
    return Strata(tuple(labels), tuple(weights), tuple(members), tuple(cumulative))


def allocate(weights: tuple[int, ...], pilot_sd: list[float], total_shards: int) -> list[int]:
    """Shards per stratum: the pilot's everywhere, the rest by Neyman's allocation (W_h * s_h,
    whole shards, largest remainders first).  Deterministic in its arguments."""
    n = len(weights)
    base = [PILOT_SHARDS] * n
    rest = total_shards - sum(base)
    score = [w * s for w, s in zip(weights, pilot_sd)]
    norm = sum(score)
    if rest <= 0 or norm <= 0:
        return base
    exact = [rest * s / norm for s in score]
    whole = [int(x) for x in exact]
    left = rest - sum(whole)
    order = sorted(range(n), key=lambda h: (-(exact[h] - whole[h]), h))
    for h in order[:left]:
        whole[h] += 1
    return [b + w for b, w in zip(base, whole)]
