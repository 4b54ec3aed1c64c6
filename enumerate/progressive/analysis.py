"""Exact analysis of the progressive jackpot side bet.

Units: everything is per unit of side wager; the meter is in side-wager units (a $1 wager with a
meter of $263,205.26 is ``meter = 263205.26``).

Meter model (stated, because rule texts differ):

* every side wager adds ``contribution`` (default 70%) to the meter before its hand is settled;
* a meter award pays ``share x meter`` (capped at ``cap`` when given) out of the meter;
* after a royal flush the meter resets to ``seed`` (whatever the royal award left over returns to
  the house, which also funds the seed), plus, when the table has them, the reserve gathered
  since the last royal (``reserve``: that share of every wager goes to the reserve, not the
  meter) and the overflow a meter at its ``ceiling`` turned away (``overflow = "reseed"``; with
  "retained" the operator keeps it): the two go to a pool, and each new jackpot starts at the
  seed plus as much of the pool as fits under the ceiling;
* several winners on one deal: lesser awards are paid first, and players
  with the same award share that award's amount equally (each level's amount is computed on the
  meter left after the lesser levels were paid).

The side bet wins on the player's own five cards, so hit probabilities are category counts over
the 2,598,960 hands, computed from the evaluator.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import TypedDict

import numpy as np

from enumerate.analysis.base import analyze
from enumerate.core.engine import COMPLETIONS
from enumerate.core.intervals import Z95
from enumerate.core.jsonform import exact
from enumerate.core.shapes import Count, Exact, shape
from enumerate.raise_value import RaiseValue
from enumerate.rules.progressive import MeterPay, Progressive
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, N_HANDS, Category, hands_of_indices, strength_by_index


@lru_cache(maxsize=1)
def hit_counts() -> dict[Category, int]:
    """Number of the 2,598,960 hands in each category (royal flush apart)."""
    counts = np.bincount(CATEGORY_BY_STRENGTH[strength_by_index()], minlength=10)
    return {c: int(counts[c]) for c in Category}


def hit_probabilities() -> dict[Category, Fraction]:
    return {c: Fraction(n, N_HANDS) for c, n in hit_counts().items()}


def _award(pay, meter: Fraction) -> Fraction:
    """Gross award per unit wager of one pay at a meter level."""
    if isinstance(pay, MeterPay):
        amount = pay.share * meter
        return min(amount, pay.cap) if pay.cap is not None else amount
    return Fraction(pay)


def fixed_return(side: Progressive, probabilities=None) -> Fraction:
    """Expected gross pay per unit wager from the fixed (non-meter) pays alone."""
    p = probabilities or hit_probabilities()
    return sum((p[k] * v for k, v in side.pays.items() if not isinstance(v, MeterPay)), Fraction(0))


def return_to_player(side: Progressive, meter, probabilities=None) -> Fraction:
    """Expected gross pay per unit side wager at a meter level (1 = break even)."""
    p = probabilities or hit_probabilities()
    m = Fraction(meter)
    return sum((p[c] * _award(pay, m) for c, pay in side.pays.items()), Fraction(0))


def expected_net(side: Progressive, meter, probabilities=None) -> Fraction:
    """Expected net result per unit side wager (the player's edge; negative is the house's)."""
    return return_to_player(side, meter, probabilities) - 1


def break_even_meter(side: Progressive, probabilities=None) -> Fraction | None:
    """The smallest meter at which the side bet returns exactly 1, or None if it never does
    (all meter pays capped too low); 0 if it already does at an empty meter."""
    p = probabilities or hit_probabilities()
    if side.ceiling is not None:                     # a meter at its ceiling grows no more
        found = break_even_meter(replace(side, ceiling=None), p)
        return found if found is not None and found <= side.ceiling else None
    if return_to_player(side, 0, p) >= 1:
        return Fraction(0)
    # RTP is piecewise linear and non-decreasing; its kinks are where a capped pay saturates
    kinks = sorted({pay.cap / pay.share for pay in side.pays.values()
                    if isinstance(pay, MeterPay) and pay.cap is not None})
    lo = Fraction(0)
    for hi in kinks + [None]:
        slope = sum((p[c] * pay.share for c, pay in side.pays.items() if isinstance(pay, MeterPay)
                     and (pay.cap is None or pay.cap / pay.share > lo)), Fraction(0))
        base = return_to_player(side, lo, p)
        if slope > 0:
            m = lo + (1 - base) / slope
            if hi is None or m <= hi:
                return m
        if hi is None:
            return None
        lo = hi
    return None


def return_curve(side: Progressive, meters) -> list[tuple[Fraction, Fraction]]:
    """(meter, net return per unit wager) for each meter level."""
    return [(Fraction(m), expected_net(side, m)) for m in meters]


# ------------------------------------------------------------------------------------ long run

#: The quantiles of the meter at the royal (and of the royal's award) that a long run reports.
QUANTILES = (Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(9, 10), Fraction(99, 100))


@dataclass(frozen=True)
class LongRun:
    """Long-run figures of the side bet over jackpot cycles (royal reset to royal reset).

    Exact (``Fraction``) when no meter pay is capped.  With a capped meter pay the exact
    figures that would need the meter's full distribution are ``None`` and the return to player
    is estimated by simulating :data:`QUANTILE_CYCLES` seeded jackpot cycles instead
    (``simulated_return``: estimate and 95% confidence half-width), labelled as such.
    ``royal_award_quantiles`` are the quantiles of what the royal actually pays (the cap
    applied), beside those of the meter itself (which a cap does not limit).
    """

    return_to_player: Fraction | None      # gross, per unit wager
    house_retention: Fraction | None       # 1 - return_to_player
    cycle_wagers: Fraction                 # expected side wagers per cycle (1 / P(royal))
    meter_at_royal: Fraction | None        # expected meter when the royal hits (before paying)
    mean_meter: Fraction | None            # expected meter at a random wager's settlement
    meter_at_royal_quantiles: dict         # q -> meter value at a royal (exact when no other meter award)
    quantiles_exact: bool
    royal_award_quantiles: dict | None = None           # q -> royal award (cap applied), None if fixed
    simulated_return: tuple[float, float] | None = None  # (estimate, 95% half-width) when capped


def long_run(side: Progressive, probabilities=None) -> LongRun:
    """Renewal argument over a jackpot cycle.

    With r = P(royal) per wager, the cycle length K is geometric (mean 1/r).  Between royals each
    other meter award of share f and probability q (per wager, given no royal) multiplies the
    meter by (1 - f) on a hit, so the expected meter after j non-royal wagers is
    mu_j = seed * a^j + c * a * (1 - a^j) / (1 - a), with a = 1 - sum f * q / (1 - r).  Summing the
    geometric series gives the expected meter at the royal and the time-average meter in closed
    form; expected payouts per cycle divided by expected wagers per cycle give the return.
    """
    p = probabilities or hit_probabilities()
    if side.carried:
        return _long_run_carried(side, p)
    royal = side.pays.get(Category.ROYAL_FLUSH)
    r = p[Category.ROYAL_FLUSH]
    c, seed = side.contribution, side.seed
    others = {k: v for k, v in side.pays.items() if isinstance(v, MeterPay) and k != Category.ROYAL_FLUSH}
    fixed = fixed_return(side, p)
    quantiles = {}
    qs = QUANTILES
    if not others:
        for q in qs:
            # smallest k with P(K <= k) >= q, K geometric(r): 1 - (1 - r)^k >= q
            k = math.ceil(math.log(1 - float(q)) / math.log(1 - float(r)))
            quantiles[q] = seed + c * k
    else:
        sample = _simulated_meter_at_royal(side, p, QUANTILE_CYCLES)
        for q in qs:
            quantiles[q] = Fraction(float(np.quantile(sample, float(q)))).limit_denominator(100)
    award_q = None
    if isinstance(royal, MeterPay):
        award_q = {q: (min(royal.share * m, royal.cap) if royal.cap is not None else royal.share * m)
                   for q, m in quantiles.items()}
    if side.capped:
        meters, other_awards = _simulate_cycles(side, p, QUANTILE_CYCLES)
        royal_awards = np.zeros(len(meters))
        if isinstance(royal, MeterPay):
            royal_awards = float(royal.share) * meters
            if royal.cap is not None:
                royal_awards = np.minimum(royal_awards, float(royal.cap))
        per_cycle = other_awards + royal_awards
        estimate = float(fixed) + float(r) * float(per_cycle.mean())
        half = Z95 * float(r) * float(per_cycle.std(ddof=1)) / math.sqrt(len(per_cycle))
        return LongRun(None, None, 1 / r, None, None, quantiles, not others, award_q, (estimate, half))
    rtp, mean_at_royal, mean_meter = _renewal(side, p)
    return LongRun(rtp, 1 - rtp, 1 / r, mean_at_royal, mean_meter, quantiles, not others, award_q)


def long_run_return(side: Progressive, probabilities=None) -> Fraction | None:
    """The long-run return to player of :func:`long_run` alone (None when a cap makes it
    inexact), without the quantiles' simulated cycles."""
    p = probabilities or hit_probabilities()
    if side.carried:
        return _carried_exact(side, p)[0]
    if side.capped:
        return None
    return _renewal(side, p)[0]


def _carried_exact(side: Progressive, p) -> tuple[Fraction | None, Fraction | None, Fraction | None]:
    """(return to player, expected meter at the royal, mean meter) of a table with a reserve or
    a ceiling, where they are exact, else None:

    * **a reserve, no ceiling**: the meter restarts at S = seed + reserve x K', K' the last
      cycle's length, independent of this cycle; every figure of the renewal is linear in the
      start, so it is the renewal of an uncapped meter (:func:`_renewal`) with the seed
      E[S] = seed + reserve / P(royal);
    * **a ceiling whose overflow is reseeded**, the royal the only meter award and paying all of
      an uncapped meter: the pool (reserve and overflow) is a reflected random walk that gains
      (contribution + reserve) x K - (ceiling - seed) a cycle.  When it drifts down --
      (contribution + reserve) / P(royal) < ceiling - seed -- no money stays in it for good, so by
      conservation the long-run return is the fixed pays + contribution + reserve + seed x
      P(royal) (the seed the only money put in from outside); when it drifts up, the pool grows
      without bound (that money is never paid) and every royal finds the meter at its ceiling:
      fixed pays + ceiling x P(royal);
    * anything else (a capped award without a ceiling, an overflow retained, other meter awards
      or a royal paying a share of the meter under a ceiling, a pool without drift): None, and
      :func:`long_run` simulates."""
    r = p[Category.ROYAL_FLUSH]
    royal = side.pays.get(Category.ROYAL_FLUSH)
    if side.ceiling is None:
        if side.capped:
            return None, None, None
        return _renewal(replace(side, seed=side.seed + side.reserve / r, reserve=Fraction(0)), p)
    whole_royal = isinstance(royal, MeterPay) and royal.share == 1 and royal.cap is None
    others = [v for k, v in side.pays.items() if isinstance(v, MeterPay) and k != Category.ROYAL_FLUSH]
    inflow, room = (side.contribution + side.reserve) / r, side.ceiling - side.seed
    if side.overflow != "reseed" or not whole_royal or others or inflow == room:
        return None, None, None
    fixed = fixed_return(side, p)
    rtp = fixed + side.contribution + side.reserve + side.seed * r if inflow < room else fixed + side.ceiling * r
    return rtp, (rtp - fixed) / r, None


def _long_run_carried(side: Progressive, p) -> LongRun:
    """:func:`long_run` of a table with a reserve or a ceiling: the exact figures of
    :func:`_carried_exact` where there are some, the quantiles (and the return where it is not
    exact) from :data:`QUANTILE_CYCLES` seeded cycles run one after another (each carries its
    reserve and overflow into the next)."""
    r = p[Category.ROYAL_FLUSH]
    royal = side.pays.get(Category.ROYAL_FLUSH)
    rtp, at_royal, mean_meter = _carried_exact(side, p)
    meters, other_awards, royal_awards = _simulate_carried_cycles(side, p, QUANTILE_CYCLES)
    qs = QUANTILES
    quantiles = {q: Fraction(float(np.quantile(meters, float(q)))).limit_denominator(100) for q in qs}
    award_q = None
    if isinstance(royal, MeterPay):
        award_q = {q: Fraction(float(np.quantile(royal_awards, float(q)))).limit_denominator(100) for q in qs}
    simulated = None
    if rtp is None:
        per_cycle = other_awards + royal_awards
        # the cycles carry money from one to the next: the interval comes from 100 batches of
        # consecutive cycles, whose means are close to independent
        batches = per_cycle[: len(per_cycle) // 100 * 100].reshape(100, -1).mean(axis=1)
        estimate = float(fixed_return(side, p)) + float(r) * float(per_cycle.mean())
        half = Z95 * float(r) * float(batches.std(ddof=1)) / math.sqrt(len(batches))
        simulated = (estimate, half)
    return LongRun(rtp, None if rtp is None else 1 - rtp, 1 / r, at_royal, mean_meter, quantiles, False, award_q,
                   simulated)


def _simulate_carried_cycles(side: Progressive, p, cycles: int,
                             seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``cycles`` jackpot cycles one after another, the first from the seed: for each, the meter
    when the royal hits, the other meter awards paid during it and the royal's award (caps
    applied); the meter stops at the ceiling; the reserve (and the reseeded overflow) go to a
    pool, and each new jackpot starts at the seed plus as much of the pool as fits under the
    ceiling."""
    rng = np.random.default_rng(SIMULATION_SEED if seed is None else seed)
    royal = side.pays.get(Category.ROYAL_FLUSH)
    r = float(p[Category.ROYAL_FLUSH])
    others = [(float(p[k] / (1 - p[Category.ROYAL_FLUSH])), float(v.share), None if v.cap is None else float(v.cap))
              for k, v in side.pays.items() if isinstance(v, MeterPay) and k != Category.ROYAL_FLUSH]
    c, s0, rho = float(side.contribution), float(side.seed), float(side.reserve)
    ceiling = math.inf if side.ceiling is None else float(side.ceiling)
    reseed = side.overflow == "reseed"
    lengths = rng.geometric(r, size=cycles)
    at_royal, paid, royal_paid = np.empty(cycles), np.zeros(cycles), np.zeros(cycles)
    start, pool = s0, 0.0
    for i, k in enumerate(lengths.tolist()):
        events = sorted((j, o) for o, (q, _, _) in enumerate(others)
                        for j in (rng.integers(1, k, size=rng.binomial(k - 1, q)).tolist() if k > 1 else []))
        meter, last, total, spilled = start, 0, 0.0, 0.0
        for j, o in events:
            grown = meter + c * (j - last)
            meter, spilled, last = min(grown, ceiling), spilled + max(0.0, grown - ceiling), j
            _, share, cap = others[o]
            amount = share * meter if cap is None else min(share * meter, cap)
            meter -= amount
            total += amount
        grown = meter + c * (k - last)
        meter, spilled = min(grown, ceiling), spilled + max(0.0, grown - ceiling)
        at_royal[i], paid[i] = meter, total
        if isinstance(royal, MeterPay):
            award = float(royal.share) * meter
            royal_paid[i] = award if royal.cap is None else min(award, float(royal.cap))
        pool += rho * k + (spilled if reseed else 0.0)
        start = min(ceiling, s0 + pool)
        pool -= start - s0
    return at_royal, paid, royal_paid


def _renewal(side: Progressive, p) -> tuple[Fraction, Fraction, Fraction]:
    """(return to player, expected meter at the royal, mean meter) of an uncapped meter, in
    closed form (:func:`long_run`)."""
    royal = side.pays.get(Category.ROYAL_FLUSH)
    r = p[Category.ROYAL_FLUSH]
    c, seed = side.contribution, side.seed
    others = {k: v for k, v in side.pays.items() if isinstance(v, MeterPay) and k != Category.ROYAL_FLUSH}
    a = 1 - sum((v.share * p[k] / (1 - r) for k, v in others.items()), Fraction(0))
    s = 1 - r
    if a == 1:
        mean_at_royal = seed + c / r
        # sum_j P(K >= j) (mu_{j-1} + c) with mu = seed + c (j - 1)
        per_cycle_meter = seed / r + c / r + c * s / (r * r)
    else:
        g = 1 - s * a
        mean_at_royal = r * seed / g + c * a / (1 - a) * (1 - r / g) + c
        per_cycle_meter = seed / g + c * a / (1 - a) * (1 / r - 1 / g) + c / r
    mean_meter = per_cycle_meter * r
    # money conservation per cycle: seed + c*E[K] = E[other meter awards] + E[meter at royal]
    other_pay = (seed + c / r - mean_at_royal) * r
    royal_pay = (royal.share * mean_at_royal * r) if isinstance(royal, MeterPay) else Fraction(0)
    rtp = fixed_return(side, p) + other_pay + royal_pay
    return rtp, mean_at_royal, mean_meter


#: Jackpot cycles simulated (seeded, so reports are reproducible) for the quantiles of the meter
#: at the royal when other meter awards reduce the meter.
QUANTILE_CYCLES = 20_000


def _simulated_meter_at_royal(side: Progressive, p, cycles: int, seed: int = 20261129) -> np.ndarray:
    """The meter when the royal hits, for ``cycles`` simulated cycles (meter awards other than the
    royal are taken from the meter; caps applied)."""
    return _simulate_cycles(side, p, cycles, seed)[0]


#: Seed of every simulation in certified figures (the same numbers on every run).
SIMULATION_SEED = 20261129


def _simulate_cycles(side: Progressive, p, cycles: int, seed: int = SIMULATION_SEED) -> tuple[np.ndarray, np.ndarray]:
    """For ``cycles`` simulated jackpot cycles: the meter when the royal hits, and the meter
    awards other than the royal paid during the cycle (caps applied).  The same arguments give
    the same numbers (seeded), so a report's several figures share one run (kept, read-only)."""
    key = (repr(side.to_dict()), tuple(sorted(p.items())), cycles, seed)
    if key not in _CYCLES:
        out, paid = _run_cycles(side, p, cycles, seed)
        out.flags.writeable = False
        paid.flags.writeable = False
        if len(_CYCLES) >= 8:
            _CYCLES.pop(next(iter(_CYCLES)))
        _CYCLES[key] = (out, paid)
    return _CYCLES[key]


#: The runs of :func:`_simulate_cycles` kept in this process, by (rules, probabilities, cycles, seed).
_CYCLES: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _run_cycles(side: Progressive, p, cycles: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    r = float(p[Category.ROYAL_FLUSH])
    others = [(float(p[k] / (1 - p[Category.ROYAL_FLUSH])), float(v.share), None if v.cap is None else float(v.cap))
              for k, v in side.pays.items() if isinstance(v, MeterPay) and k != Category.ROYAL_FLUSH]
    c, s0 = float(side.contribution), float(side.seed)
    lengths = rng.geometric(r, size=cycles)
    out = np.empty(cycles)
    paid = np.zeros(cycles)
    binomial, integers = rng.binomial, rng.integers
    for i, k in enumerate(lengths.tolist()):
        # the random numbers in the order they were always drawn: per other award its count, then
        # (when the cycle has wagers before the royal) its wagers; events in wager order, the
        # awards in pay-table order at one wager (a stable sort)
        at: list[int] = []
        award: list[int] = []
        for o, (q, _, _) in enumerate(others):
            n = binomial(k - 1, q)
            if k > 1:
                js = integers(1, k, size=n).tolist()
                at += js
                award += [o] * len(js)
        meter, last, total = s0, 0, 0.0
        for e in sorted(range(len(at)), key=at.__getitem__):
            j = at[e]
            _, share, cap = others[award[e]]
            meter += c * (j - last)
            last = j
            amount = share * meter
            if cap is not None:
                amount = min(amount, cap)
            meter -= amount
            total += amount
        paid[i] = total
        out[i] = meter + c * (k - last)
    return out, paid


def simulate_long_run(side: Progressive, probabilities: dict[Category, Fraction], wagers: int, seed: int = 1):
    """Monte Carlo of the meter model, wager by wager (for tests): mean gross pay per wager and
    its standard error (the reserve, the ceiling and its overflow honoured)."""
    rng = np.random.default_rng(seed)
    cats = [k for k in side.pays]
    probs = np.array([float(probabilities[k]) for k in cats])
    draws = rng.choice(len(cats) + 1, size=wagers, p=np.append(probs, 1 - probs.sum()))
    meter: float = float(side.seed)
    c, rho = float(side.contribution), float(side.reserve)
    ceiling = math.inf if side.ceiling is None else float(side.ceiling)
    pool = reserve = spilled = 0.0
    pays = np.zeros(wagers)
    hits = np.flatnonzero(draws < len(cats))
    last = -1
    amount: float
    for i in (int(x) for x in hits):
        grown = meter + c * (i - last)
        meter, spilled, reserve = min(grown, ceiling), spilled + max(0.0, grown - ceiling), reserve + rho * (i - last)
        last = i
        k = cats[draws[i]]
        pay = side.pays[k]
        if isinstance(pay, MeterPay):
            amount = float(pay.share) * meter
            if pay.cap is not None:
                amount = min(amount, float(pay.cap))
            meter -= amount
            if k == Category.ROYAL_FLUSH:
                pool += reserve + (spilled if side.overflow == "reseed" else 0.0)
                meter = min(ceiling, float(side.seed) + pool)
                pool -= meter - float(side.seed)
                reserve = spilled = 0.0
        else:
            amount = float(pay)
        pays[i] = amount
    return pays.mean(), pays.std(ddof=1) / math.sqrt(wagers)


# ------------------------------------------------------------------------------ several players

@lru_cache(maxsize=4)
def _disjoint_collections(groups: tuple[tuple[frozenset, ...], ...], max_total: int) -> dict:
    """D[(x_0, x_1, ...)]: number of collections with x_g hands from group g, all pairwise
    disjoint (hands as frozensets of cards), for x_0 + x_1 + ... <= max_total.

    Hands that share no card with any hand of another set of hands never conflict with it, so the
    hands split into the connected components of "shares a card" (the straight and royal flushes:
    one component a suit); a collection is a collection in each component, and D is the product
    of the components' counts (a convolution of count vectors), each component walked alone."""
    hands = [(g, h) for g, group in enumerate(groups) for h in group]
    parent = list(range(len(hands)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    holder: dict[int, int] = {}
    for i, (_, h) in enumerate(hands):
        for card in h:
            if card in holder:
                parent[root(i)] = root(holder[card])
            else:
                holder[card] = i
    components: dict[int, list] = {}
    for i, hand in enumerate(hands):
        components.setdefault(root(i), []).append(hand)
    zero = (0,) * len(groups)
    out: dict = {zero: 1}
    for members in components.values():
        local = _walk_collections(members, len(groups), max_total)
        product_: dict = {}
        for a, n in out.items():
            for b, m in local.items():
                if sum(a) + sum(b) <= max_total:
                    key = tuple(x + y for x, y in zip(a, b))
                    product_[key] = product_.get(key, 0) + n * m
        out = product_
    return out


def _walk_collections(hands: list, n_groups: int, max_total: int) -> dict:
    """The collections of pairwise disjoint hands among ``hands`` ((group, card set) pairs), by
    their count vector, each listed once (the empty one included)."""
    out: dict = {}

    def walk(start: int, used: frozenset, counts: tuple):
        out[counts] = out.get(counts, 0) + 1
        if sum(counts) == max_total:
            return
        for i in range(start, len(hands)):
            g, h = hands[i]
            if not (h & used):
                walk(i + 1, used | h, counts[:g] + (counts[g] + 1,) + counts[g + 1:])

    walk(0, frozenset(), (0,) * n_groups)
    return out


def _falling_hands(deck: int, k: int) -> int:
    total = 1
    for t in range(k):
        total *= math.comb(deck - 5 * t, 5)
    return total


def meter_hand_groups(side: Progressive) -> tuple[list[Category], tuple[tuple[frozenset, ...], ...]]:
    """The meter-paid categories (lowest first) and the 5-card hands of each."""
    cats = sorted((k for k, v in side.pays.items() if isinstance(v, MeterPay)))
    return cats, tuple(_hands_of(k) for k in cats)


@lru_cache(maxsize=10)
def _hands_of(category: Category) -> tuple[frozenset, ...]:
    """Every 5-card hand of a category, as card sets (decoded once per category)."""
    indices = np.flatnonzero(CATEGORY_BY_STRENGTH[strength_by_index()] == category).astype(np.int32)
    return tuple(frozenset(int(x) for x in row) for row in hands_of_indices(indices))


def joint_hit_distribution(groups, n_players: int, deck: int = 52) -> dict:
    """For player 1 in group a (or None: no meter hand) and the other n-1 players: the exact
    probability of each (a, counts of the others per group).  Cards come from one deck."""
    D = _disjoint_collections(tuple(groups), n_players)
    G = len(groups)
    result: dict = {}

    def moment(first, others):
        """P(player 1 in `first` and specific players in the groups `others` (counts))."""
        tot = list(others)
        if first is not None:
            tot[first] += 1
        key = tuple(tot)
        if key not in D:
            return Fraction(0)
        ordered = D[key]
        for x in tot:
            ordered *= math.factorial(x)
        k = sum(tot)
        return Fraction(ordered, _falling_hands(deck, k)) if k else Fraction(1)

    m = n_players - 1
    vectors = [v for v in product(range(m + 1), repeat=G) if sum(v) <= m]

    def exactly(first, counts):
        """P(player 1 in `first` (None: unconstrained) and exactly `counts` others per group),
        by inclusion-exclusion over the supersets of specified players."""
        prob = Fraction(0)
        for extra in vectors:
            big = tuple(c + e for c, e in zip(counts, extra))
            if sum(big) > m:
                continue
            ways = math.factorial(m) // math.prod(math.factorial(x) for x in big) // math.factorial(m - sum(big))
            coef = math.prod(math.comb(b, c) for b, c in zip(big, counts))
            prob += (-1) ** sum(extra) * coef * ways * moment(first, big)
        return prob

    for counts in vectors:
        in_groups = [exactly(g, counts) for g in range(G)]
        for g in range(G):
            result[(g, counts)] = in_groups[g]
        # player 1 holding no meter hand: the rest of the probability of these counts
        result[(None, counts)] = exactly(None, counts) - sum(in_groups)
    return result


def share_of(first: int, winners: list[int], pays: list, meter: Fraction) -> Fraction:
    """Player 1's award when it holds level ``first`` and ``winners[g]`` players (it included)
    hold level g: lesser levels are paid first, from the meter; equal levels share."""
    left = meter
    for g, pay in enumerate(pays):
        if winners[g] == 0:
            continue
        amount = _award(pay, left)
        if g == first:
            return amount / winners[g]
        left -= amount
    return Fraction(0)


def expected_award(dist: dict, pays: list, meter: Fraction) -> Fraction:
    """Player 1's expected meter award under the joint hit distribution ``dist``."""
    award = Fraction(0)
    for (first, counts), prob in dist.items():
        if first is None or prob == 0:
            continue
        winners = list(counts)
        winners[first] += 1
        award += prob * share_of(first, winners, pays, meter)
    return award


@dataclass(frozen=True)
class TableSharing:
    players: int
    two_or_more_meter_hits: Fraction       # P(at least two players hit a meter award on one deal)
    meter_award_per_player: Fraction       # expected meter awards to one player per wager
    single_player_meter_award: Fraction
    return_to_player: Fraction             # gross, per unit wager, at the meter
    return_lowered_by: Fraction            # single-player return minus this


def sharing(side: Progressive, meter, players: int) -> TableSharing:
    """Exact effect of several players at one table (one deck) at a meter level."""
    cats, groups = meter_hand_groups(side)
    m = Fraction(meter)
    dist = joint_hit_distribution(groups, players)
    award = expected_award(dist, [side.pays[k] for k in cats], m)
    # P(two or more players hit): from the marginal of the number of meter hands at the table
    counts_at_table: dict[int, Fraction] = {}
    for (first, counts), prob in dist.items():
        n_hits = sum(counts) + (first is not None)
        counts_at_table[n_hits] = counts_at_table.get(n_hits, Fraction(0)) + prob
    two_plus = sum((v for k, v in counts_at_table.items() if k >= 2), Fraction(0))
    p = hit_probabilities()
    single = sum((p[k] * _award(side.pays[k], m) for k in cats), Fraction(0))
    fixed = fixed_return(side, p)
    return TableSharing(players, two_plus, award, single, fixed + award, single - award)


# ---------------------------------------------------------------------------- combined game

@shape("combined_game")
class CombinedGameJSON(TypedDict):
    """The JSON of the base game and the progressive at a meter, decided together."""

    meter: Exact
    side_wager_antes: Exact
    fold_forfeits: bool
    base_return_per_hand_antes: Exact
    side_return_per_hand_antes: Exact
    average_total_wager_antes: Exact
    house_edge_per_total_wager: Exact
    raise_probability: Exact
    situations_decided_differently: Count


@dataclass(frozen=True)
class Combined:
    """Base game plus side bet at a meter, with the raise/fold strategy recomputed for both.

    Money in antes per hand; ``side_wager`` is the side bet's size in antes."""

    meter: Fraction
    side_wager: Fraction
    fold_forfeits: bool
    base_return: Fraction            # expected base-game result per hand (antes)
    side_return: Fraction            # expected side-bet result per hand (antes)
    average_total_wager: Fraction    # ante + expected raise + side wager (antes)
    house_edge_per_total: Fraction   # expected loss / average total wager
    raise_probability: Fraction
    strategy_changes: int            # concrete situations decided differently from the base game

    def to_dict(self) -> CombinedGameJSON:
        return {"meter": exact(self.meter), "side_wager_antes": exact(self.side_wager),
                "fold_forfeits": self.fold_forfeits,
                "base_return_per_hand_antes": exact(self.base_return),
                "side_return_per_hand_antes": exact(self.side_return),
                "average_total_wager_antes": exact(self.average_total_wager),
                "house_edge_per_total_wager": exact(self.house_edge_per_total),
                "raise_probability": exact(self.raise_probability),
                "situations_decided_differently": self.strategy_changes}


def combined(table, variant, meter, side_wager=Fraction(1), threads: int = 1) -> Combined:
    """Exact combined figures; the strategy maximises base EV plus side EV per situation."""
    side = variant.progressive
    if side is None:
        raise StudoddsError(f"variant {variant.name!r} has no progressive side bet")
    m, s = Fraction(meter), Fraction(side_wager)
    gross = {k: _award(v, m) for k, v in side.pays.items()}
    value = RaiseValue.of(variant)
    form = value.form(table).astype(np.int64)
    cat = CATEGORY_BY_STRENGTH[table.strength]
    threshold = np.empty(10, dtype=np.int64)
    for c in Category:
        # raise iff EV(raise) + side(raise) > EV(fold) + side(fold); the side bet differs between
        # the two only when a fold forfeits it: then raising keeps the gross award
        bonus = s * gross.get(c, Fraction(0)) if side.fold_forfeits else Fraction(0)
        t = value.thresholds[c] - bonus * value.scale * COMPLETIONS
        threshold[c] = math.floor(t)                 # form is an integer: form > t iff form > floor(t)
    do_raise = form > threshold[cat][:, None]
    base_optimal = value.optimal(table)
    w = table.weight.astype(np.int64)[:, None]
    changes = int((np.where(do_raise != base_optimal, 1, 0) * w).sum())
    a = analyze(table, variant, force=do_raise.astype(np.uint8), threads=threads)
    total_situations = table.n_situations
    side_ret = Fraction(0)
    for c in Category:
        raised, situations = a.raise_by_category[c]
        win = gross.get(c, Fraction(0)) * s - s
        folded = situations - raised
        side_ret += raised * win + folded * (-s if side.fold_forfeits else win)
    side_ret /= total_situations
    base_ret = a.expected_return
    wager = a.average_wager + s
    return Combined(m, s, side.fold_forfeits, base_ret, side_ret, wager, -(base_ret + side_ret) / wager,
                    a.raise_probability, changes)
