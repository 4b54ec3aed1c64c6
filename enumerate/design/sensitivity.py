"""Exact sensitivity of a paytable: what one unit of each pay is worth, and how far each pay can
move before the optimal strategy changes.

At a fixed strategy the total result over all T = 19,933,230,517,200 combinations is linear in
every pay: a raise pay p_c multiplies the raise (r antes) on every winning raised hand of its
categories, so d(total) / d(p_c) = r * W_c; the ante pays multiply the ante on every raised
hand the player wins (``player_wins``: W = sum of W_c) or the dealer does not qualify
(``dealer_does_not_qualify``: NQ).  Per ante the edge moves by that over T; the element of risk
by that over the average wager (fixed with the strategy).

The optimal strategy stays the same while no situation changes side.  A situation of category
c raises iff its key P_c = a_w + r p_c + 1 + r exceeds its threshold t (the threshold index), so the
raised set is the same for every P_c in (t_below, t_above]: the largest threshold below the key
and the smallest at or above it.  In pays that is the exact interval (lower, upper] of the
report; at a pay just above ``upper`` the situations of ``t_above`` start to raise (they are
indifferent at ``upper`` itself: EV(raise) = EV(fold)), at ``lower`` those of ``t_below`` stop.
Moving ``player_wins`` by x moves every key by x; ``dealer_does_not_qualify`` enters the
condition as nq * (a_nq - g / nq) > 0 with g the rest of it, so its flip points are the
situations' exact g / nq.  The total is continuous at every flip point (the flipping situations
are indifferent there), so the figures are piecewise linear in each pay.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, TypedDict

import numpy as np

from enumerate.analysis.base import Analysis, analysis_from_stats
from enumerate.analysis.stats import Stat
from enumerate.analysis.threshold_index import ThresholdIndex, threshold_index
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.jsonform import exact, exact_or_none
from enumerate.core.shapes import Count, Exact, ExactOrNull, shape
from enumerate.core.tabular import tabular
from enumerate.design.grid import check_designable, pay_slots
from enumerate.rules.settlement import Settlement
from enumerate.rules.variant import Variant, VariantJSON
from evaluator.cards import RANKS, format_card, format_hand
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

#: Example situations listed per flip.
EXAMPLES = 3
_TOL = 1e-9


class FlipExampleJSON(TypedDict):
    hand: str
    up: str


@shape("design_flip")
class DesignFlipJSON(TypedDict):
    pay: Exact
    direction: Literal["fold_to_raise", "raise_to_fold"]
    situations: Count
    by_category: dict[str, Count]
    by_up_rank: dict[str, Count]
    examples: list[FlipExampleJSON]


@shape("design_pay_sensitivity")
class DesignPaySensitivityJSON(TypedDict):
    pay: str
    value: Exact
    total_loss_antes_per_unit: Exact
    house_edge_per_unit: Exact
    element_of_risk_per_unit: Exact
    rtp_per_unit: Exact
    strategy_unchanged_from: ExactOrNull
    strategy_unchanged_to: ExactOrNull
    flip_below: DesignFlipJSON | None
    flip_above: DesignFlipJSON | None


@dataclass(frozen=True)
class FlipSet:
    """Situations whose optimal action changes at a flip point of one pay.

    ``at``: the pay where it happens -- past it (above an upper flip point, at or below a lower
    one) the situations fold instead of raising (``raise_to_fold``) or the reverse."""

    at: Fraction
    direction: Literal["fold_to_raise", "raise_to_fold"]
    situations: int                         # concrete situations, of 122,151,120
    by_category: dict[str, int]
    by_up_rank: dict[str, int]
    examples: tuple[tuple[str, str], ...]   # (player hand, up card)

    def to_dict(self) -> DesignFlipJSON:
        return {"pay": exact(self.at), "direction": self.direction, "situations": self.situations,
                "by_category": self.by_category, "by_up_rank": self.by_up_rank,
                "examples": [{"hand": h, "up": u} for h, u in self.examples]}


@dataclass(frozen=True)
class PaySensitivity:
    """One pay: its value, the exact change of the figures per unit of it at the current
    strategy, and the interval (lower, upper] over which that strategy stays optimal."""

    pay: str                                # "full_house", ..., "ante_player_wins", "ante_dealer_does_not_qualify"
    value: Fraction
    total_loss_per_unit: Fraction           # antes over all combinations
    house_edge_per_unit: Fraction
    element_of_risk_per_unit: Fraction
    rtp_per_unit: Fraction
    lower: FlipSet | None                   # None: no flip down to a pay of 0
    upper: FlipSet | None                   # None: no flip however large the pay

    def to_dict(self) -> DesignPaySensitivityJSON:
        return {"pay": self.pay, "value": exact(self.value),
                "total_loss_antes_per_unit": exact(self.total_loss_per_unit),
                "house_edge_per_unit": exact(self.house_edge_per_unit),
                "element_of_risk_per_unit": exact(self.element_of_risk_per_unit),
                "rtp_per_unit": exact(self.rtp_per_unit),
                "strategy_unchanged_from": exact_or_none(self.lower.at if self.lower else None),
                "strategy_unchanged_to": exact_or_none(self.upper.at if self.upper else None),
                "flip_below": self.lower.to_dict() if self.lower else None,
                "flip_above": self.upper.to_dict() if self.upper else None}


@shape("design_sensitivity", document=True)
class DesignSensitivityJSON(TypedDict):
    kind: Literal["design_sensitivity"]
    variant: VariantJSON
    house_edge_per_ante: Exact
    element_of_risk_per_total_wager: Exact
    average_total_wager_antes: Exact
    note: str
    pays: list[DesignPaySensitivityJSON]


@tabular("pays", 'pays')
@dataclass(frozen=True)
class Sensitivity:
    """Every pay's sensitivity for a variant (kind "design_sensitivity")."""

    analysis: Analysis
    pays: tuple[PaySensitivity, ...]

    def to_dict(self) -> DesignSensitivityJSON:
        a = self.analysis
        return {"kind": "design_sensitivity", "variant": a.variant.to_dict(),
                "house_edge_per_ante": exact(a.house_edge), "element_of_risk_per_total_wager": exact(a.element_of_risk),
                "average_total_wager_antes": exact(a.average_wager),
                "note": "per unit of each pay at the current optimal strategy, which stays optimal while the pay "
                        "is in (strategy_unchanged_from, strategy_unchanged_to]; null ends: no flip that way",
                "pays": [p.to_dict() for p in self.pays]}


def _flip_set(table: CountTable, at: Fraction, direction: Literal["fold_to_raise", "raise_to_fold"], where: list[tuple[int, int]],
              weight: np.ndarray) -> FlipSet:
    """A FlipSet of situations given as (count-table row, up column)."""
    by_cat: dict[str, int] = {}
    by_up: dict[str, int] = {}
    total = 0
    for row, col in where:
        w = int(weight[row])
        total += w
        key = Category(int(CATEGORY_BY_STRENGTH[table.strength[row]])).key
        by_cat[key] = by_cat.get(key, 0) + w
        rank = RANKS[int(table.up[row, col]) >> 2]
        by_up[rank] = by_up.get(rank, 0) + w
    examples = tuple((format_hand(int(x) for x in table.hands[row]), format_card(int(table.up[row, col])))
                     for row, col in where[:EXAMPLES])
    ranks = {r: by_up[r] for r in reversed(RANKS) if r in by_up}
    return FlipSet(at, direction, total, by_cat, ranks, examples)


def _nearest_thresholds(index: ThresholdIndex, keys: list[tuple[Category, Fraction]]) -> tuple[Any, Any]:
    """The nearest thresholds below and above each category's key, over the categories, as
    (distance in key units, [(category, sorted positions)]) each, or None."""
    def nearer(best: Any, d: Fraction, c: Category, positions: list[int]) -> Any:
        if best is None or d < best[0]:
            return (d, [(c, positions)])
        if d == best[0]:
            best[1].append((c, positions))
        return best

    below: Any = None
    above: Any = None
    for c, key in keys:
        b, a = index.neighbours(c, key)
        if b is not None:
            below = nearer(below, key - b[0], c, b[1])
        if a is not None:
            above = nearer(above, a[0] - key, c, a[1])
    return below, above


def sensitivity(table: CountTable, variant: Variant) -> Sensitivity:
    """Exact sensitivity of every raise pay and both ante pays (see the module docstring)."""
    check_designable(variant)
    index = threshold_index(table, variant.ante_no_qualify, variant.ante_win, variant.raise_antes)
    stats, _ = index.statistics({c: variant.pay(c) for c in Category})
    a = analysis_from_stats(table, variant, stats)          # the base game's figures, from the same statistics
    t = a.total_combinations
    weight = table.weight.astype(np.int64)

    def sens(name: str, value: Fraction, d_total: int, lower: FlipSet | None, upper: FlipSet | None) -> PaySensitivity:
        d_edge = Fraction(-d_total, t)
        return PaySensitivity(name, value, Fraction(-d_total), d_edge, d_edge / a.average_wager,
                              -d_edge / a.average_wager, lower, upper)

    def flips(found: Any, to_pay: Any, direction: Literal["fold_to_raise", "raise_to_fold"]) -> FlipSet | None:
        if found is None:
            return None
        at = to_pay(found[0])
        if at < 0:
            return None
        where = [index.situation(k) for _, ks in found[1] for k in ks]
        return _flip_set(table, at, direction, where, weight)

    out = []
    r = variant.raise_antes                # a raise pay moves the key (a win's net) r times as fast
    for slot in pay_slots(variant):
        value = variant.raise_pays[slot.categories[0]]
        wins = sum(int(stats[c, Stat.WIN]) for c in slot.categories)
        below, above = _nearest_thresholds(index, [(c, index.pay_key(value)) for c in slot.categories])
        out.append(sens(slot.key, value, r * wins,
                        flips(below, lambda d, v=value: v - d / r, "raise_to_fold"),
                        flips(above, lambda d, v=value: v + d / r, "fold_to_raise")))
    # the ante pay of a win moves every category's key by the same amount
    a_w = variant.ante_win
    below, above = _nearest_thresholds(index, [(c, index.pay_key(variant.pay(c))) for c in Category])
    out.append(sens("ante_player_wins", a_w, int(stats[:, Stat.WIN].sum()),
                    flips(below, lambda d: a_w - d, "raise_to_fold"),
                    flips(above, lambda d: a_w + d, "fold_to_raise")))
    nq_all = int(stats[:, Stat.NO_QUALIFY].sum())
    low, high = _no_qualify_flips(table, variant)
    out.append(sens("ante_dealer_does_not_qualify", variant.ante_no_qualify, nq_all,
                    None if low is None else _flip_set(table, low[0], "raise_to_fold", low[1], weight),
                    None if high is None else _flip_set(table, high[0], "fold_to_raise", high[1], weight)))
    return Sensitivity(a, tuple(out))


def _no_qualify_flips(table: CountTable, variant: Variant) -> tuple[Any, Any]:
    """(value, situations) of the nearest flip points of the ante pay when the dealer does not
    qualify, below (largest g/nq < a_nq, not below 0) and above (smallest g/nq >= a_nq).

    Scaled by q (a common denominator): raise iff nq * u > G with u = a_nq * q and
    G = f N q - l q * nq - win * p_c - l q * tie, p_c = (a_w + r pay_c + l) * q: with a raise of r
    antes, f = r (a fold's net less a lost hand's) and l = 1 + r (what a lost hand costs), from
    the settlement."""
    s = Settlement.of(variant)
    keys = [s.over_loss(c, "player_wins") for c in Category]
    fold, lose = s.over_loss(None, "folded"), -s.net(None, "dealer_wins")
    q = math.lcm(variant.ante_no_qualify.denominator, *(k.denominator for k in keys))
    p = np.array([int(k * q) for k in keys], dtype=np.int64)
    u = variant.ante_no_qualify * q
    nq = table.no_qualify.astype(np.int64)
    g = (int(fold * q) * COMPLETIONS - int(lose * q) * nq - int(lose * q) * table.tie.astype(np.int64)
         - table.win.astype(np.int64) * p[CATEGORY_BY_STRENGTH[table.strength]][:, None])
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.where(nq > 0, g / np.where(nq > 0, nq, 1), np.nan)
    uf = float(u)
    margin = _TOL * max(1.0, abs(uf))

    valid = nq > 0

    def exact_pick(mask: np.ndarray, below: bool) -> Any:
        rows, cols = np.nonzero(mask)
        values = [(Fraction(int(g[r, c]), int(nq[r, c])), (int(r), int(c))) for r, c in zip(rows, cols)]
        values = [(v, rc) for v, rc in values if (v < u if below else v >= u)]
        if not values:
            return None
        best = max(v for v, _ in values) if below else min(v for v, _ in values)
        return best, [rc for v, rc in values if v == best]

    def nearest(below: bool) -> Any:
        near = valid & (np.abs(x - uf) <= margin)               # decided exactly
        found = exact_pick(near, below)
        if found is None:
            side = valid & ((x < uf - margin) if below else (x > uf + margin))
            if not side.any():
                return None
            cand = np.where(side, x, -np.inf if below else np.inf)
            best = cand.max() if below else cand.min()
            found = exact_pick(side & (np.abs(x - best) <= _TOL * max(1.0, abs(best))), below)
        if found is None or found[0] < 0:
            return None
        return found[0] / q, found[1]

    return nearest(True), nearest(False)
