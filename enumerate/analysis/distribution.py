"""The distribution of the net result: one hand exactly, N hands by convolution.

One hand: the return table is the exact distribution of the net result (antes): each row is a
value with its combinations out of 19,933,230,517,200.  Rows with the same value merge.

N independent hands (each from a fresh deck): the distribution of the sum is the N-fold
convolution of the one-hand distribution.

* Up to :data:`EXACT_UP_TO` hands it is computed exactly, in integers: the numbers of
  combinations of N hands, over the total to the power N (values scaled by the common
  denominator of the pays, so every sum is an integer).
* Beyond, in floating point, by FFT convolution with repeated squaring.  Its error is bounded
  by the conservative estimate :func:`fft_error_bound`: an absolute error on every probability
  (and so on every cumulative probability, times the support length), checked in the tests
  against the exact computation.

From a distribution: the probability of being ahead (sum > 0), even (= 0) and behind, and the
5%, 50% and 95% quantiles (the smallest value whose cumulative probability reaches q).  The
normal approximation with the same mean and variance is given beside it.

Volatility index: VI(c) = z((1 + c) / 2) x standard deviation, the half-width of the central
c-interval of one hand's result under the normal approximation (per hand, in antes).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import numpy as np

from enumerate.analysis.base import Analysis
from enumerate.core.jsonform import exact
from evaluator.errors import ParameterError

#: N up to this are convolved exactly in integers.
EXACT_UP_TO = 10
#: The numbers of hands a certified report tabulates.
DEFAULT_HANDS = (1, 10, 100, 1_000, 10_000)
#: Quantiles reported.
QUANTILES = (Fraction(1, 20), Fraction(1, 2), Fraction(19, 20))
#: Confidence levels of the volatility index.
VI_LEVELS = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))


def one_hand(a: Analysis) -> tuple[int, dict[int, int]]:
    """(scale, {scaled net value: combinations}) of one hand: net value / scale antes."""
    scale = math.lcm(*(r.pays.denominator for r in a.rows))
    out: dict[int, int] = {}
    for r in a.rows:
        if r.combinations:
            v = int(r.pays * scale)
            out[v] = out.get(v, 0) + r.combinations
    return scale, out


#: The most memory the net-result table of one number of hands may take; a larger need is refused
#: (with the estimate) before it is allocated.
MEMORY_BUDGET = 2 << 30


def memory_needed(a: Analysis, n: int) -> int:
    """Bytes the distribution of ``n`` hands takes at its peak: the packed integer power of the
    exact path (input, result and one temporary), or the FFT grid and its transforms."""
    scale, one = one_hand(a)
    lo, hi = min(one), max(one)
    if n == 1:
        return 64 * len(one)
    if n <= EXACT_UP_TO:
        width = ((a.total_combinations ** n).bit_length() + 7) // 8 + 1
        return 3 * width * (n * (hi - lo) + 1)
    total = a.total_combinations
    mean = sum(v * c for v, c in one.items()) / total
    var = sum((v - mean) ** 2 * c for v, c in one.items()) / total
    b = max(abs(lo - mean), abs(hi - mean))
    m = 1 << (min(n * (hi - lo) + 1, 2 * math.ceil(bernstein_width(n, var, b)) + 1) - 1).bit_length()
    return 40 * m                      # the grid, its transform (complex) and the inverse


def check_memory(a: Analysis, n: int) -> None:
    """ParameterError naming ``hands`` when the table of ``n`` hands would need more than
    :data:`MEMORY_BUDGET` (the net results of a paytable whose pays share a large denominator
    are spread over that many slots)."""
    need = memory_needed(a, n)
    if need > MEMORY_BUDGET:
        scale, _ = one_hand(a)
        raise ParameterError("hands", f"the net-result table of {n:,} hands of {a.variant.name!r} needs about "
                                      f"{need / 2**30:,.1f} GB (its pays share the denominator {scale:,}); at most "
                                      f"{MEMORY_BUDGET / 2**30:.0f} GB: ask for fewer hands")


def exact_n_hands(a: Analysis, n: int) -> dict[int, int]:
    """{scaled sum: combinations of n hands} exactly (total: total_combinations ** n).

    The n-th power of the one-hand polynomial by Kronecker substitution: the combinations are
    packed into one integer, a slot of B bytes per value, and Python's integer power does the
    convolution.  Every coefficient of the power is below total^n < 256^B, so no slot carries
    into the next and the slots read back are exact."""
    _, one = one_hand(a)
    if n == 1:                          # the one-hand distribution itself, however wide its support
        return dict(one)
    lo, hi = min(one), max(one)
    width = ((a.total_combinations ** n).bit_length() + 7) // 8 + 1
    packed = bytearray(width * (hi - lo + 1))
    for v, c in one.items():
        packed[(v - lo) * width:(v - lo + 1) * width] = c.to_bytes(width, "little")
    power = (int.from_bytes(bytes(packed), "little") ** n).to_bytes(width * (n * (hi - lo) + 1), "little")
    out: dict[int, int] = {}
    for j in range(n * (hi - lo) + 1):
        c = int.from_bytes(power[j * width:(j + 1) * width], "little")
        if c:
            out[n * lo + j] = c
    return out


#: Probability allowed to fall outside the FFT window (added to the error bound).
TAIL = 1e-18


def fft_error_bound(grid: int, hands: int) -> float:
    """Conservative absolute error bound of every probability of the N-hand distribution from
    rounding: irfft(rfft(p)^N) on a grid of M points.  Each transform of a probability vector
    (entries >= 0, sum 1) is accurate to about c * u * log2(M) per coefficient (u = 2^-53; the
    usual FFT error bound), and the N-th power of a coefficient of modulus at most 1 multiplies
    that error by at most N.  With c = 10 and the two transforms: 10 * u * log2(M) * (N + 2)."""
    u = 2.0 ** -53
    return 10 * u * max(1.0, math.log2(max(grid, 2))) * (hands + 2)


def bernstein_width(n: int, variance: float, b: float, tail: float = TAIL) -> float:
    """t with P(|S_n - n mu| >= t) <= tail by Bernstein's inequality, for a sum of n independent
    results with variance ``variance`` each and |X - mu| <= b:
    P(|S_n - n mu| >= t) <= 2 exp(-t^2 / (2 (n variance + b t / 3)))."""
    ell = math.log(2 / tail)
    k = 2 * ell * b / 3
    return (k + math.sqrt(k * k + 8 * ell * n * variance)) / 2


def float_n_hands(a: Analysis, n: int) -> tuple[int, np.ndarray, float]:
    """(offset, probabilities, error bound): probabilities[k] = P(scaled sum == k + offset).

    The sum is computed on a circular grid of M points centred on its mean and wide enough that
    Bernstein's inequality puts at most :data:`TAIL` of the probability outside (that mass would
    wrap around; it is added to the error bound); M is never more than the full support."""
    scale, one = one_hand(a)
    lo, hi = min(one), max(one)
    total = a.total_combinations
    mean = sum(v * c for v, c in one.items()) / total                      # scaled units
    var = sum((v - mean) ** 2 * c for v, c in one.items()) / total
    b = max(abs(lo - mean), abs(hi - mean))
    support = n * (hi - lo) + 1
    width = 2 * math.ceil(bernstein_width(n, var, b)) + 1
    m = 1 << (min(support, width) - 1).bit_length()
    start = n * lo if m >= support else math.floor(n * mean) - m // 2      # the window [start, start + m)
    base = np.zeros(m)
    for v, c in one.items():
        base[v % m] += c / total
    ring = np.fft.irfft(np.fft.rfft(base) ** n, m)
    # ring[k] = P(sum = s) for the one s in the window with s = k (mod m)
    p = np.roll(ring, -(start % m))
    return start, np.clip(p, 0.0, None), fft_error_bound(m, n) + (TAIL if m < support else 0.0)


@dataclass(frozen=True)
class NHands:
    """The net result after ``hands`` hands (antes): exact or floating point, and the normal
    approximation beside it."""

    hands: int
    exact: bool
    error_bound: float                 # absolute, on each probability (0 when exact)
    ahead: Fraction | float
    even: Fraction | float
    behind: Fraction | float
    quantiles: dict[Fraction, Fraction]     # q -> net result (antes)
    normal_ahead: float
    normal_quantiles: dict[Fraction, float]

    def to_dict(self) -> dict[str, Any]:
        def prob(x: Fraction | float) -> dict[str, Any] | float:
            return exact(x) if isinstance(x, Fraction) else float(x)
        return {"hands": self.hands, "method": "exact" if self.exact else "fft",
                "error_bound": self.error_bound,
                "ahead": prob(self.ahead), "even": prob(self.even), "behind": prob(self.behind),
                "quantiles": [{"quantile": exact(q), "net_result_antes": exact(v)} for q, v in self.quantiles.items()],
                "normal": {"ahead": self.normal_ahead,
                           "quantiles": [{"quantile": exact(q), "net_result_antes": v}
                                         for q, v in self.normal_quantiles.items()]}}


def n_hands(a: Analysis, n: int) -> NHands:
    """The distribution of the net result of ``n`` hands, summarised."""
    if n < 1:
        raise ValueError("n must be at least 1")
    check_memory(a, n)
    scale, _ = one_hand(a)
    mean, sd = float(a.expected_return) * n, math.sqrt(float(a.variance) * n)
    normal = NormalDist(mean, sd)
    normal_q = {q: normal.inv_cdf(float(q)) for q in QUANTILES}
    normal_ahead = 1 - normal.cdf(0.0)
    if n <= EXACT_UP_TO:
        dist = exact_n_hands(a, n)
        total = a.total_combinations ** n
        values = sorted(dist)
        ahead = Fraction(sum(dist[v] for v in values if v > 0), total)
        even = Fraction(dist.get(0, 0), total)
        quantiles = {}
        for q in QUANTILES:
            need, acc = q * total, 0
            for v in values:
                acc += dist[v]
                if acc >= need:
                    quantiles[q] = Fraction(v, scale)
                    break
        return NHands(n, True, 0.0, ahead, even, 1 - ahead - even, quantiles, normal_ahead, normal_q)
    offset, p, bound = float_n_hands(a, n)
    grid = np.arange(len(p)) + offset
    cum = np.cumsum(p)
    float_q = {q: Fraction(int(grid[min(int(np.searchsorted(cum, float(q) - bound * len(p))), len(p) - 1)]), scale)
               for q in QUANTILES}
    f_ahead = float(p[grid > 0].sum())
    f_even = float(p[grid == 0].sum())
    return NHands(n, False, bound, f_ahead, f_even, 1.0 - f_ahead - f_even, float_q, normal_ahead, normal_q)


def volatility_index(a: Analysis) -> dict[Fraction, float]:
    """VI(c) = z((1 + c)/2) x standard deviation per hand (antes), for each level c."""
    return {c: NormalDist().inv_cdf(float((1 + c) / 2)) * a.standard_deviation for c in VI_LEVELS}
