"""The statistics a simulation is judged by: intervals, z-scores, a chi-square test.

* **Mean of a per-game amount** X over N games: the sample mean, the sample standard deviation
  s, the 95% interval mean +- 1.959964 s / sqrt(N), and z = (mean - exact) / (s / sqrt(N)).
* **Ratio** (return per total wagered, sum X / sum W): the delta method, standard error
  sqrt(sum (X - R W)^2 / (N (N - 1))) / mean(W).
* **Renewal cycles** (the progressive meter): the same ratio over complete jackpot cycles, Y the
  meter awards of a cycle and K its games.
* **Goodness of fit** of outcome frequencies to exact probabilities: Pearson's chi-square with
  the rarest rows pooled until the pool expects at least 5 games, p-value from the regularised
  upper incomplete gamma function Q(dof / 2, x / 2) (series and continued fraction, Numerical
  Recipes section 6.2).  An outcome observed although its exact probability is 0 gives p = 0.

Sums enter as exact integers or ``Fraction``; floats appear only in the final statistics.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from enumerate.core.intervals import Z95

#: Rows are pooled until the pool expects at least this many games.
MIN_EXPECTED = 5


@dataclass(frozen=True)
class Estimate:
    """A sampled mean with its standard error; ``exact`` the figure it estimates (None if no
    exact figure exists)."""

    value: Fraction
    standard_error: float
    exact: Fraction | None

    @property
    def interval(self) -> tuple[float, float]:
        """95% confidence interval."""
        v = float(self.value)
        return v - Z95 * self.standard_error, v + Z95 * self.standard_error

    @property
    def z(self) -> float | None:
        """(estimate - exact) / standard error; None without an exact figure or when the
        standard error is 0 (then 0 if they agree, infinity if not)."""
        if self.exact is None:
            return None
        diff = float(self.value - self.exact)
        if self.standard_error == 0:
            return 0.0 if self.value == self.exact else math.copysign(math.inf, diff)
        return diff / self.standard_error


def mean_estimate(counts: Sequence[int], values: Sequence[Fraction], exact: Fraction | None) -> Estimate:
    """The mean of a per-game amount that takes ``values[i]`` in ``counts[i]`` games."""
    n = sum(counts)
    total = sum((c * v for c, v in zip(counts, values)), Fraction(0))
    square = sum((c * v * v for c, v in zip(counts, values)), Fraction(0))
    mean = total / n
    var = (square - n * mean * mean) / (n - 1) if n > 1 else Fraction(0)
    return Estimate(mean, math.sqrt(float(var) / n), exact)


def ratio_estimate(counts: Sequence[int], values: Sequence[Fraction], weights: Sequence[Fraction | int],
                   exact: Fraction | None) -> Estimate:
    """sum X / sum W for a per-game amount X and weight W, whole or a fraction (an insurance
    stake is wagered too), with its delta-method standard error."""
    n = sum(counts)
    sx = sum((c * v for c, v in zip(counts, values)), Fraction(0))
    sw: Fraction | int = sum((c * w for c, w in zip(counts, weights)), 0)
    r = sx / sw
    resid = sum((c * (v - r * w) ** 2 for c, v, w in zip(counts, values, weights)), Fraction(0))
    se = math.sqrt(float(resid) / (n * (n - 1))) / (sw / n) if n > 1 else 0.0
    return Estimate(r, se, exact)


def cycle_estimate(cycles: int, sum_y: Fraction, sum_k: int, sum_yy: Fraction, sum_kk: int,
                   sum_yk: Fraction) -> tuple[Fraction, float] | None:
    """(sum Y / sum K, its standard error) over complete renewal cycles; None for fewer than 2."""
    if cycles < 2:
        return None
    r = sum_y / sum_k
    resid = sum_yy - 2 * r * sum_yk + r * r * sum_kk
    return r, math.sqrt(max(float(resid), 0.0) / (cycles * (cycles - 1))) / (sum_k / cycles)


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:                                  # series for P(a, x)
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300                                  # continued fraction for Q(a, x) (Lentz)
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(log_front) * h


def chi_square_sf(x: float, dof: int) -> float:
    """P(chi-square with ``dof`` degrees of freedom >= x).

    >>> round(chi_square_sf(3.841458820694124, 1), 6), round(chi_square_sf(10.0, 10), 6)
    (0.05, 0.440493)
    """
    if dof < 1:
        return 1.0
    return _gamma_q(dof / 2, x / 2)


@dataclass(frozen=True)
class ChiSquare:
    """Pearson's test of observed counts against exact probabilities (see the module)."""

    statistic: float
    dof: int
    p_value: float
    pooled: tuple[str, ...]          # the rows pooled into one bin (rarest first)
    impossible: tuple[str, ...]      # rows observed although their exact probability is 0


def chi_square(rows: Sequence[tuple[str, int, Fraction]]) -> ChiSquare:
    """Test ``(name, observed, probability)`` rows (the probabilities sum to 1)."""
    n = sum(o for _, o, _ in rows)
    impossible = tuple(name for name, o, p in rows if p == 0 and o > 0)
    live = sorted((r for r in rows if r[2] > 0), key=lambda r: r[2])
    pool = [r for r in live if n * r[2] < MIN_EXPECTED]
    common = [r for r in live if n * r[2] >= MIN_EXPECTED]
    while pool and n * sum((r[2] for r in pool), Fraction(0)) < MIN_EXPECTED and common:
        pool.append(common.pop(0))
    bins = [(o, p) for _, o, p in common]
    if pool:
        bins.append((sum(r[1] for r in pool), sum((r[2] for r in pool), Fraction(0))))
    stat = sum(float((o - n * p) ** 2 / (n * p)) for o, p in bins)
    dof = len(bins) - 1
    p_value = 0.0 if impossible else chi_square_sf(stat, dof)
    return ChiSquare(stat, dof, p_value, tuple(r[0] for r in pool) if len(pool) > 1 else (), impossible)
