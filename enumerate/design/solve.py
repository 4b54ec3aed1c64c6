"""Solving for a target: the paytables of a design whose house edge, element of risk or RTP is a
given value, exactly where possible and closest otherwise.

Every candidate of the grid (the moving pays over their values, with the order constraints) is
ranked by its exact distance to the target: doubles choose the few candidates that can be
closest, exact rationals rank those.  With one moving pay the target is also solved in
rationals: the figure is linear in the pay between two flip points of the strategy (see
:mod:`enumerate.design.sensitivity`), so bisection over the pay, each step solving the linear
piece it lands on, finds the exact pay -- which need not lie on the grid's steps.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal, TypedDict

import numpy as np

from enumerate.analysis.threshold_index import ThresholdIndex, threshold_index
from enumerate.core.engine import CountTable
from enumerate.core.jsonform import exact
from enumerate.core.shapes import Count, Exact, ExactOrNull, OneOf, shape
from enumerate.core.tabular import tabular
from enumerate.design.criteria import domain_refusal, figure_name, signed_amount
from enumerate.design.grid import Axis, Candidate, DesignAxisJSON, DesignCandidateJSON, PayGrid, build_grid, evaluate_pays, pay_slots
from enumerate.design.search import CHUNK, _chunks
from enumerate.design.sensitivity import _nearest_thresholds
from enumerate.rules.variant import Variant, VariantJSON
from evaluator.errors import ParameterError, StudoddsError

#: Figures a target can be given in.
TARGETS = ("house_edge", "element_of_risk", "rtp")
_TOL = 1e-9


class TargetJSON(TypedDict):
    """The figure a solve aims at and its value."""

    figure: Annotated[str, OneOf(list(TARGETS))]
    value: Exact


class ClosestJSON(DesignCandidateJSON):
    """A candidate and its exact distance to the target."""

    distance: Exact


class ExactPayJSON(TypedDict):
    """With one moving pay: the exact pay that reaches the target, or why none does."""

    pay: str
    value: ExactOrNull
    note: str
    figures: DesignCandidateJSON | None


@shape("design_solve", document=True)
class DesignSolveJSON(TypedDict):
    """The JSON of the paytables closest to a target (kind "design_solve")."""

    kind: Literal["design_solve"]
    variant: VariantJSON
    target: TargetJSON
    moving_pays: list[DesignAxisJSON]
    better_hand_never_pays_less: bool
    candidates: Count
    ordered_candidates: Count
    exact_hits: Count
    closest: list[ClosestJSON]
    exact_pay: ExactPayJSON | None
    note: str


@dataclass(frozen=True)
class Target:
    """A figure and the value it should take."""

    figure: str
    value: Fraction

    @classmethod
    def parse(cls, text: str) -> "Target":
        """``house_edge=3%``, ``element_of_risk=0.02``, ``rtp=98%``."""
        name, sep, value = text.partition("=")
        if not sep:
            raise StudoddsError(f"{text!r}: write a target as FIGURE=VALUE, e.g. house_edge=3%")
        figure = figure_name(name)
        if figure not in TARGETS:
            raise StudoddsError(f"{text!r}: a target is one of {', '.join(TARGETS)}")
        try:
            amount = signed_amount(value)
        except StudoddsError as exc:
            raise StudoddsError(f"{text!r}: {exc}") from None
        reason = domain_refusal(figure, amount, amount)
        if reason is not None:
            raise StudoddsError(f"{text!r}: {reason}")
        return cls(figure, amount)

    def check_table(self, variant: Variant) -> None:
        """StudoddsError when no paytable of ``variant``'s table reaches the target (a house
        edge beyond what its raise can lose)."""
        reason = domain_refusal(self.figure, self.value, self.value, variant)
        if reason is not None:
            raise StudoddsError(f"{self.figure}={self.value}: {reason}")

    def to_dict(self) -> TargetJSON:
        return {"figure": self.figure, "value": exact(self.value)}


@dataclass(frozen=True)
class ExactPay:
    """With one moving pay: the exact pay that reaches the target, or why none does."""

    pay: str
    value: Fraction | None
    note: str
    candidate: Candidate | None

    def to_dict(self) -> ExactPayJSON:
        return {"pay": self.pay, "value": None if self.value is None else exact(self.value), "note": self.note,
                "figures": None if self.candidate is None else self.candidate.to_dict()}


@tabular("closest", 'closest paytables')
@dataclass(frozen=True)
class SolveResult:
    """The candidates closest to the target, best first (kind "design_solve")."""

    variant: Variant
    target: Target
    axes: tuple[Axis, ...]
    ordered_only: bool
    candidates: int
    ordered: int
    exact_hits: int                             # candidates exactly on target
    best: tuple[tuple[Candidate, Fraction], ...]   # (candidate, exact distance to the target)
    exact_pay: ExactPay | None
    seconds: float

    def to_dict(self) -> DesignSolveJSON:
        return {"kind": "design_solve", "variant": self.variant.to_dict(), "target": self.target.to_dict(),
                "moving_pays": [a.to_dict() for a in self.axes], "better_hand_never_pays_less": self.ordered_only,
                "candidates": self.candidates, "ordered_candidates": self.ordered, "exact_hits": self.exact_hits,
                "closest": [{**c.to_dict(), "distance": exact(d)} for c, d in self.best],
                "exact_pay": None if self.exact_pay is None else self.exact_pay.to_dict(),
                "note": "every figure is exact for the optimal strategy of its paytable"}


def _value(c: Candidate, figure: str) -> Fraction:
    return Fraction(c.figure(figure))


def solve(table: CountTable, variant: Variant, target: Target, axes: list[Axis] | tuple[Axis, ...], *,
          ordered: bool = True, best: int = 10, chunk: int = CHUNK,
          progress: Callable[[int], None] | None = None) -> SolveResult:
    """The ``best`` candidates of the grid closest to ``target`` (ties by grid order), how many
    reach it exactly, and with one moving pay the exact pay that reaches it."""
    if not axes:
        raise ParameterError("vary", "solving needs at least one pay to move (KEY=LO..HI)")
    if best < 1:
        raise ParameterError("best", "must be at least 1")
    target.check_table(variant)
    start = time.perf_counter()
    grid = build_grid(table, variant, axes, order=ordered)
    goal = float(target.value)
    kept_at = np.zeros((len(grid.axes), 0), dtype=np.int64)
    kept_index = np.zeros(0, dtype=np.int64)
    kept_d = np.zeros(0)
    n_ordered = 0
    hits = 0
    for a, b in _chunks(grid.size, chunk):
        block = grid.block(a, b)
        n_ordered += len(block)
        d = np.abs(grid.floats(block)[target.figure] - goal)
        near = np.flatnonzero(d <= _TOL * max(1.0, abs(goal)))
        hits += sum(_value(grid.candidate(block.at[:, j]), target.figure) == target.value for j in near)
        at = np.concatenate([kept_at, block.at], axis=1)
        index = np.concatenate([kept_index, block.index])
        dist = np.concatenate([kept_d, d])
        if dist.size > best:
            limit = np.partition(dist, best - 1)[best - 1]
            keep = dist <= limit * (1 + _TOL) + _TOL * max(1.0, abs(goal))
            at, index, dist = at[:, keep], index[keep], dist[keep]
        kept_at, kept_index, kept_d = at, index, dist
        if progress:
            progress(b - a)
    ranked = sorted(((abs(_value(c, target.figure) - target.value), int(i), c)
                     for i, c in ((kept_index[j], grid.candidate(kept_at[:, j])) for j in range(kept_index.size))),
                    key=lambda t: (t[0], t[1]))
    exact_pay = None
    if len(grid.axes) == 1:
        exact_pay = _exact_pay(table, variant, grid, target)
    return SolveResult(variant, target, grid.axes, ordered, grid.size, n_ordered, hits,
                       tuple((c, d) for d, _, c in ranked[:best]), exact_pay, time.perf_counter() - start)


def _order_bounds(grid: PayGrid, key: str) -> tuple[Fraction | None, Fraction | None]:
    """The fixed pays next to ``key`` that bound it under the order constraints."""
    keys = [s.key for s in grid.slots]
    i = keys.index(key)
    better = next((grid.fixed_pays[k] for k in reversed(keys[:i]) if k in grid.fixed_pays), None)
    worse = next((grid.fixed_pays[k] for k in keys[i + 1:] if k in grid.fixed_pays), None)
    return worse, better


def _exact_pay(table: CountTable, variant: Variant, grid: PayGrid, target: Target) -> ExactPay:
    axis = grid.axes[0]
    lo, hi = axis.values[0], axis.values[-1]
    if grid.order:
        worse, better = _order_bounds(grid, axis.key)
        lo = max(lo, worse) if worse is not None else lo
        hi = min(hi, better) if better is not None else hi
    index = threshold_index(table, variant.ante_no_qualify, variant.ante_win, variant.raise_antes)
    slot = next(s for s in pay_slots(variant) if s.key == axis.key)

    def at(x: Fraction) -> Candidate:
        return evaluate_pays(index, variant, {axis.key: x})

    if lo > hi:
        return ExactPay(axis.key, None, "the order constraints leave no room for this pay", None)
    f_lo, f_hi = _value(at(lo), target.figure), _value(at(hi), target.figure)
    for x, fx in ((lo, f_lo), (hi, f_hi)):
        if fx == target.value:
            return ExactPay(axis.key, x, "reached exactly", at(x))
    if not min(f_lo, f_hi) < target.value < max(f_lo, f_hi):
        return ExactPay(axis.key, None, f"out of reach: from pay {lo} to {hi} the {target.figure} runs from "
                        f"{float(f_lo):.6%} to {float(f_hi):.6%}", None)
    for _ in range(400):
        x = (lo + hi) / 2
        below, above = _piece(index, slot.categories, x)
        pb = max(x - below / 2, Fraction(0)) if below is not None else Fraction(0)
        pa = x + above / 2 if above is not None else None
        y = pa if pa is not None and pa != x else (pb + x) / 2
        fx, fy = _value(at(x), target.figure), _value(at(y), target.figure)
        if fx == fy:
            return ExactPay(axis.key, None, "the figure does not move with this pay here", None)
        root = x + (target.value - fx) * (y - x) / (fy - fx)
        if pb < root and (pa is None or root <= pa) and lo <= root <= hi:
            c = at(root)
            if _value(c, target.figure) == target.value:
                return ExactPay(axis.key, root, "reached exactly (the optimal strategy of this pay is the one of "
                                f"the interval ({pb}, {pa if pa is not None else 'inf'}])", c)
        # the figure is monotone in the pay: the target lies beyond the piece on the root's side
        if pa is not None and root > pa:
            new_lo, new_hi = pa, hi
        elif root <= pb:
            new_lo, new_hi = lo, pb
        else:
            return ExactPay(axis.key, None, "the figure is not monotone in this pay here: see the closest candidates", None)
        if new_lo >= new_hi:
            return ExactPay(axis.key, None, f"no pay reaches it exactly: the figure jumps past it at pay {new_lo}", None)
        lo, hi = new_lo, new_hi
    return ExactPay(axis.key, None, "not found in 400 steps", None)


def _piece(index: ThresholdIndex, categories: tuple, x: Fraction) -> tuple[Fraction | None, Fraction | None]:
    """Key distances from pay x's key to the nearest thresholds below and above."""
    below, above = _nearest_thresholds(index, [(c, index.pay_key(x)) for c in categories])
    return (below[0] if below else None), (above[0] if above else None)
