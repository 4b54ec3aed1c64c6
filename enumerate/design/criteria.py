"""What a design asks of a paytable: bounds on its figures, and the objectives of a Pareto front.

Bounds are decided exactly.  House edge, hit frequency, raise probability and largest win are
integers over a common denominator in every candidate, so a bound is one integer comparison;
element of risk, RTP and standard deviation are first compared as doubles, and every candidate
within a relative 1e-9 of a bound is decided again with exact rationals.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

import numpy as np

from enumerate.core.jsonform import exact_or_none
from enumerate.core.shapes import ExactOrNull
from enumerate.design.grid import Block, PayGrid
from enumerate.rules.amounts import parse_amount
from enumerate.rules.variant import MAX_RAISE_ANTES, Variant
from evaluator.errors import StudoddsError

#: The figures a design can bound or optimise, with how they are named in JSON.
FIGURES = {
    "house_edge": "house edge per ante",
    "element_of_risk": "element of risk (per total wagered)",
    "rtp": "return to player per total wagered (1 - element of risk)",
    "hit_frequency": "probability that a hand wins money",
    "standard_deviation": "standard deviation of a hand's net result, antes",
    "largest_win": "largest net result of a hand, antes",
    "raise_probability": "share of situations raised",
}
_TOL = 1e-9
#: The values each figure can take at all, (lowest, highest), None for no end.  A hand loses at
#: most its ante and its raise, 1 + r antes for a raise of r antes, so the house edge is at most
#: 1 + r per ante (:func:`domain`: at any table r is at most MAX_RAISE_ANTES, at a given table
#: its own raise), and the element of risk at most 1 per unit wagered (RTP at least 0).
DOMAIN: dict[str, tuple[Fraction | None, Fraction | None]] = {
    "house_edge": (None, Fraction(1 + MAX_RAISE_ANTES)),
    "element_of_risk": (None, Fraction(1)),
    "rtp": (Fraction(0), None),
    "hit_frequency": (Fraction(0), Fraction(1)),
    "standard_deviation": (Fraction(0), None),
    "largest_win": (None, None),
    "raise_probability": (Fraction(0), Fraction(1)),
}


def domain(figure: str, variant: Variant | None = None) -> tuple[Fraction | None, Fraction | None]:
    """The values ``figure`` can take at all, at any table or at ``variant``'s."""
    low, high = DOMAIN[figure]
    if figure == "house_edge" and variant is not None:
        high = Fraction(1 + variant.raise_antes)
    return low, high


def domain_refusal(figure: str, lo: Fraction | None, hi: Fraction | None, variant: Variant | None = None) -> str | None:
    """Why no paytable (at any table, or at ``variant``'s) has ``figure`` in [lo, hi] (None:
    no end), or None when some could."""
    low, high = domain(figure, variant)
    if (high is not None and lo is not None and lo > high) or (low is not None and hi is not None and hi < low):
        at = "" if variant is None else f" of {variant.name!r} (a raise of {variant.raise_antes} ante(s))"
        return (f"no paytable{at} has a {figure} there (it lies in "
                f"[{'-inf' if low is None else low}, {'inf' if high is None else high}])")
    return None


def figure_name(text: str) -> str:
    """A figure's name, also from its usual short forms (edge, eor, sd, hit, win)."""
    aliases = {"edge": "house_edge", "he": "house_edge", "eor": "element_of_risk", "sd": "standard_deviation",
               "hit": "hit_frequency", "win": "largest_win", "max_win": "largest_win", "raise": "raise_probability"}
    key = text.strip().lower().replace("-", "_")
    name = aliases.get(key, key)
    if name not in FIGURES:
        raise StudoddsError(f"{text!r} is not a figure (one of {', '.join(FIGURES)})")
    return name


class BoundJSON(TypedDict):
    """A bound on a figure: its least and greatest value (null: open)."""

    figure: str
    min: ExactOrNull
    max: ExactOrNull


@dataclass(frozen=True)
class Bound:
    """lo <= figure <= hi (either may be None)."""

    figure: str
    lo: Fraction | None
    hi: Fraction | None

    @classmethod
    def parse(cls, text: str) -> "Bound":
        """``figure=LO..HI``, ``figure=LO..`` or ``figure=..HI``; numbers as 0.03, 3%, "3/100".

        >>> Bound.parse("house_edge=2.5%..3%").hi
        Fraction(3, 100)
        """
        name, sep, spec = text.partition("=")
        if not sep or ".." not in spec:
            raise StudoddsError(f"{text!r}: write a bound as FIGURE=LO..HI, FIGURE=LO.. or FIGURE=..HI")
        lo_text, _, hi_text = spec.partition("..")
        try:
            lo = signed_amount(lo_text) if lo_text.strip() else None
            hi = signed_amount(hi_text) if hi_text.strip() else None
        except StudoddsError as exc:
            raise StudoddsError(f"{text!r}: {exc}") from None
        if lo is None and hi is None:
            raise StudoddsError(f"{text!r}: give at least one end")
        if lo is not None and hi is not None and hi < lo:
            raise StudoddsError(f"{text!r}: the range is empty")
        figure = figure_name(name)
        reason = domain_refusal(figure, lo, hi)
        if reason is not None:
            raise StudoddsError(f"{text!r}: {reason}")
        return cls(figure, lo, hi)

    def text(self) -> str:
        """The bound as it is written, ``figure=LO..HI``."""
        return f"{self.figure}={'' if self.lo is None else self.lo}..{'' if self.hi is None else self.hi}"

    def check_table(self, variant: Variant) -> None:
        """StudoddsError when no paytable of ``variant``'s table meets the bound (a house edge
        beyond what its raise can lose)."""
        reason = domain_refusal(self.figure, self.lo, self.hi, variant)
        if reason is not None:
            raise StudoddsError(f"{self.text()!r}: {reason}")

    def to_dict(self) -> BoundJSON:
        return {"figure": self.figure, "min": exact_or_none(self.lo), "max": exact_or_none(self.hi)}


def signed_amount(text: str) -> Fraction:
    """A figure's value as a variant file writes an amount (0.03, 3%, 3/100), with a sign."""
    t = text.strip()
    return -parse_amount(t[1:]) if t.startswith("-") else parse_amount(t)


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


def _floor(x: Fraction) -> int:
    return x.numerator // x.denominator


def feasible(grid: PayGrid, block: Block, bounds: tuple[Bound, ...]) -> np.ndarray:
    """Boolean mask of the block's candidates that meet every bound, decided exactly."""
    keep = np.ones(len(block), dtype=bool)
    s, t, n = grid.scale, grid.combinations, grid.situations
    integer = {"house_edge": ("total", -1, s * t), "hit_frequency": ("hits", 1, t),
               "raise_probability": ("raised", 1, n), "largest_win": ("best", 1, s)}
    floats: dict[str, np.ndarray] | None = None
    for b in bounds:
        if b.figure in integer:
            col, sign, unit = integer[b.figure]
            v = block.sums[col] * sign if sign < 0 else block.sums[col]
            if b.lo is not None:
                keep &= v >= _ceil(b.lo * unit)
            if b.hi is not None:
                keep &= v <= _floor(b.hi * unit)
            continue
        floats = floats if floats is not None else grid.floats(block)
        x = floats[b.figure]
        for end, side in ((b.lo, 1), (b.hi, -1)):
            if end is None:
                continue
            e = float(end)
            margin = _TOL * max(1.0, abs(e))
            keep &= (x - e) * side > -margin                  # clearly on the wrong side: out
            near = np.flatnonzero(keep & (np.abs(x - e) <= margin))
            for j in near:                                    # decide the near ones exactly
                c = grid.candidate(block.at[:, j])
                if b.figure == "standard_deviation":          # sd >= lo iff variance >= lo^2
                    value, limit = c.variance, end * end
                else:
                    value, limit = Fraction(c.figure(b.figure)), end
                keep[j] = value >= limit if side > 0 else value <= limit
    return keep


@dataclass(frozen=True)
class Objective:
    """A figure of the Pareto front and whether more (``max``) or less (``min``) is better."""

    figure: str
    maximize: bool

    @classmethod
    def parse(cls, text: str) -> "Objective":
        name, _, way = text.partition(":")
        way = way.strip().lower() or "max"
        if way not in ("max", "min"):
            raise StudoddsError(f"{text!r}: an objective is FIGURE:max or FIGURE:min")
        return cls(figure_name(name), way == "max")

    def text(self) -> str:
        return f"{self.figure}:{'max' if self.maximize else 'min'}"


def objective_keys(grid: PayGrid, block: Block, objectives: tuple[Objective, ...]) -> list[np.ndarray]:
    """One key array per objective, larger = better: the exact integers for house edge, hit
    frequency, raise probability and largest win; doubles rounded to 12 significant digits for
    element of risk, RTP and standard deviation (so that equal figures compare equal)."""
    floats: dict[str, np.ndarray] | None = None
    keys = []
    integer = {"house_edge": ("total", -1), "hit_frequency": ("hits", 1), "raise_probability": ("raised", 1),
               "largest_win": ("best", 1)}
    for o in objectives:
        if o.figure in integer:
            col, sign = integer[o.figure]
            k = block.sums[col] * sign
        else:
            floats = floats if floats is not None else grid.floats(block)
            k = _round12(floats[o.figure])
        keys.append(k if o.maximize else -k)
    return keys


def _round12(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        mag = np.where(x == 0, 0, np.floor(np.log10(np.abs(x))))
    return np.round(x / 10.0 ** (mag - 11)) * 10.0 ** (mag - 11)


def pareto_front(keys: list[np.ndarray]) -> np.ndarray:
    """Positions of the non-dominated candidates (larger is better in every key), best first
    by the first key.  Candidates equal in every key are all kept."""
    n = keys[0].shape[0] if keys else 0
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if any(k.dtype == object for k in keys):                 # Python integers (pays beyond 64 bits)
        order = np.array(sorted(range(n), key=lambda i: tuple(-k[i] for k in keys)), dtype=np.int64)
    else:
        order = np.lexsort(tuple(-k for k in reversed(keys)))  # first key descending, then the next ...
    remaining = order
    front = []
    while remaining.size:
        j = remaining[0]
        front.append(j)
        no_better = np.ones(remaining.size, dtype=bool)
        worse = np.zeros(remaining.size, dtype=bool)
        for k in keys:
            here = k[remaining]
            no_better &= here <= k[j]
            worse |= here < k[j]
        dominated = no_better & worse
        dominated[0] = True
        remaining = remaining[~dominated]
    return np.array(front, dtype=np.int64)
