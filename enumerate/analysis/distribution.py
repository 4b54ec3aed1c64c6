"""The distribution of the net result: one hand exactly, N hands by convolution.

One hand: the return table is the exact distribution of the net result (antes): each row is a
value with its combinations out of 19,933,230,517,200.  Rows with the same value merge; about
fifteen distinct values remain, whatever the pays.

N independent hands (each from a fresh deck): the distribution of the sum S is the N-fold
convolution of the one-hand distribution.  Only a few of its figures are reported -- P(S > 0),
P(S = 0), P(S < 0) and the 5%, 50% and 95% quantiles (the smallest value whose cumulative
probability reaches q) -- and all of them lie in the lower part of the distribution: below the
95% quantile, which by Cantelli's inequality P(S - E[S] >= k sd) <= 1 / (1 + k^2) is at most
E[S] + sqrt(19) sd.  So only the lower part is computed, and its cost follows the number of
distinct net results, never the size of a pay or of the pays' common denominator.

* Up to :data:`EXACT_UP_TO` hands, exactly, in integers (:func:`exact_lower_part`): the numbers
  of combinations of N hands with each sum up to a cut (values scaled by the common
  denominator of the pays, so every sum is an integer), over the total to the power N.  The
  N-th power of the one-hand polynomial is taken by repeated squaring, every product truncated
  at the cut: packed into one integer (Kronecker substitution) when the cut spans few slots,
  else as a sparse polynomial, whose terms are bounded by the multisets of N distinct values.
* Beyond, in floating point by FFT, every probability within a stated bound:

  - when the sum's likely range spans at most :data:`LATTICE_MAX` slots, on the whole lattice
    (:func:`float_n_hands`): a circular grid centred on the mean, wide enough that
    Bernstein's inequality puts at most :data:`TAIL` outside, the N-th power of the
    transform; its error is bounded by :func:`fft_error_bound`;
  - otherwise (a very large pay, or pays sharing a large denominator) by
    :func:`conditioned_n_hands`: the rare large wins are taken out and counted exactly by how
    many of them occur (a binomial; more than a few is below :data:`TAIL`), the other results
    are convolved by FFT on a grid of at most :data:`GRID_MAX` points, and the two are joined
    in the transform.  When even the common results span too many slots, every net result is
    rounded down, and separately up, to a coarser grid: the sum with rounded-down results is
    at most S and the one with rounded-up results at least S, so the two bracket every
    cumulative probability of S, and half the gap between them is added to the stated bound.

Volatility index: VI(c) = z((1 + c) / 2) x standard deviation, the half-width of the central
c-interval of one hand's result under the normal approximation (per hand, in antes).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist
from typing import Annotated, Any, Literal, TypedDict, TypeVar

import numpy as np

from enumerate.analysis.base import Analysis
from enumerate.core.jsonform import exact
from enumerate.core.shapes import Exact, Minimum, shape
from evaluator.errors import ParameterError

#: N up to this are convolved exactly in integers.
EXACT_UP_TO = 10
#: The numbers of hands a certified report tabulates.
DEFAULT_HANDS = (1, 10, 100, 1_000, 10_000)
#: The most hands of the N-hand table.
MAX_HANDS = 1_000_000


def check_hands(hands: Any) -> tuple[int, ...]:
    """The numbers of hands of the N-hand table: distinct whole numbers 1..1,000,000, sorted
    (ParameterError naming ``hands`` otherwise)."""
    try:
        if isinstance(hands, (str, bytes)):
            raise TypeError("text")
        items = list(hands)
        if any(isinstance(h, bool) or int(h) != h for h in items):
            raise TypeError("whole numbers")
        values = sorted({int(h) for h in items})
    except (TypeError, ValueError):
        raise ParameterError("hands", f"{hands!r:.60} is not a list of whole numbers such as 1,10,100") from None
    if not values or values[0] < 1 or values[-1] > MAX_HANDS:
        raise ParameterError("hands", f"give numbers of hands from 1 to {MAX_HANDS:,}")
    return tuple(values)


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


def exact_n_hands(a: Analysis, n: int) -> dict[int, int]:
    """{scaled sum: combinations of n hands} exactly, over the whole support (total:
    total_combinations ** n): the reference the fast paths are checked against.

    The n-th power of the one-hand polynomial by Kronecker substitution: the combinations are
    packed into one integer, a slot of B bytes per value, and Python's integer power does the
    convolution.  Every coefficient of the power is below total^n < 256^B, so no slot carries
    into the next and the slots read back are exact.  Its size follows the span of the net
    results times the pays' common denominator: :func:`n_hands` never calls it."""
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


#: The exact lower part is packed into one integer when its cut spans at most this many slots,
#: else kept as a sparse polynomial.
DENSE_SLOTS = 1 << 15
#: k of Cantelli's inequality with 1 / (1 + k^2) < 1/20: E[S] + k sd is above the 95% quantile.
CANTELLI_K = 4.4


def moments(one: Mapping[int, float], total: float) -> tuple[float, float]:
    """Mean and variance of one hand's scaled net result, from {value: combinations} over
    ``total`` (or {value: probability} over 1) -- floating point: they only place cuts and
    windows, never a reported figure."""
    mean = sum(v * c for v, c in one.items()) / total
    return mean, sum((v - mean) ** 2 * c for v, c in one.items()) / total


def exact_lower_part(one: dict[int, int], n: int, top: int) -> dict[int, int]:
    """{s: combinations of n hands summing to s} for every s <= ``top``, exactly.

    With the values shifted by the smallest one, lo, every exponent is >= 0 and a sum s <= top
    has exponent s - n lo <= top - n lo =: d; a product truncated at d has the same terms up to
    d as the full one, so the power is taken by repeated squaring with every product truncated.
    Dense: one packed integer masked to d + 1 slots (each slot wide enough for total^n, so no
    slot carries into the next).  Sparse: a dict of the exponents <= d."""
    lo = min(one)
    d = top - n * lo
    if d < 0:
        return {}
    terms = sorted((v - lo, c) for v, c in one.items() if v - lo <= d)
    if d + 1 <= DENSE_SLOTS:
        width = ((sum(one.values()) ** n).bit_length() + 7) // 8 + 1
        bits, mask = 8 * width, (1 << (8 * width * (d + 1))) - 1
        base = sum(c << (bits * e) for e, c in terms)
        packed = _power(base, n, lambda x, y: (x * y) & mask)
        raw = packed.to_bytes(width * (d + 1), "little")
        out = {}
        for e in range(d + 1):
            c = int.from_bytes(raw[e * width:(e + 1) * width], "little")
            if c:
                out[e + n * lo] = c
        return out
    sparse = _power(dict(terms), n, lambda x, y: _truncated_product(x, y, d))
    return {e + n * lo: c for e, c in sparse.items()}


def _power(base: Any, n: int, mul: Any) -> Any:
    """base ** n (n >= 1) by repeated squaring with the product ``mul``; no square beyond the
    highest bit of n is taken."""
    result = None
    while True:
        if n & 1:
            result = base if result is None else mul(result, base)
        n >>= 1
        if not n:
            return result
        base = mul(base, base)


Number = TypeVar("Number", int, float)


def _truncated_product(x: Mapping[int, Number], y: Mapping[int, Number], d: int) -> dict[int, Number]:
    """The product of two sparse polynomials (exponents sorted, >= 0) up to exponent d: exact
    with integer coefficients, a distribution of sums with probabilities."""
    out: dict[int, Number] = {}
    ys = list(y.items())
    for e1, c1 in x.items():
        limit = d - e1
        for e2, c2 in ys:
            if e2 > limit:
                break
            out[e1 + e2] = out.get(e1 + e2, 0) + c1 * c2
    return dict(sorted(out.items()))


def exact_summary(one: dict[int, int], n: int) -> tuple[Fraction, Fraction, dict[Fraction, int]]:
    """(P(S > 0), P(S = 0), {q: smallest scaled s with P(S <= s) >= q}) of n hands, exactly,
    from the lower part of the distribution up to a cut above the 95% quantile: the exact
    count up to the cut shows whether it is; a first guess from the results that are not rare,
    else Cantelli's inequality places it."""
    per_hand = sum(one.values())
    total = per_hand ** n
    mean, var = moments(one, per_hand)
    # First try a cut from the results that are not rare (a rare large win inflates the variance
    # but hardly moves the 95% quantile), then Cantelli's, which always holds, then doubling.
    common = {v: c for v, c in one.items() if c * 20 * n >= per_hand}
    c_mean, c_var = moments(common, sum(common.values()))
    cuts = [math.ceil(n * mean + 2.5 * math.sqrt(n * c_var)), math.ceil(n * mean + CANTELLI_K * math.sqrt(n * var))]
    top = -1
    while True:
        top = max(0, cuts.pop(0) if cuts else 2 * top + 1)
        lower = exact_lower_part(one, n, top)
        if sum(lower.values()) * QUANTILES[-1].denominator >= total * QUANTILES[-1].numerator:
            break
    quantiles: dict[Fraction, int] = {}
    acc, at_most_zero = 0, 0
    pending = list(QUANTILES)
    for s, c in sorted(lower.items()):
        acc += c
        if s <= 0:
            at_most_zero = acc
        while pending and acc * pending[0].denominator >= total * pending[0].numerator:
            quantiles[pending.pop(0)] = s
    return Fraction(total - at_most_zero, total), Fraction(lower.get(0, 0), total), quantiles


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


def lattice_grid(one: dict[int, int], total: int, n: int) -> tuple[int, int, int]:
    """(M, start, support) of :func:`float_n_hands`: the grid of M points holds the window
    [start, start + M) of the scaled sum, whose whole support has ``support`` points."""
    lo, hi = min(one), max(one)
    mean, var = moments(one, total)
    b = max(abs(lo - mean), abs(hi - mean))
    support = n * (hi - lo) + 1
    width = 2 * math.ceil(bernstein_width(n, var, b)) + 1
    m = 1 << (min(support, width) - 1).bit_length()
    return m, (n * lo if m >= support else math.floor(n * mean) - m // 2), support


def float_n_hands(a: Analysis, n: int) -> tuple[int, np.ndarray, float]:
    """(offset, probabilities, error bound): probabilities[k] = P(scaled sum == k + offset).

    The sum is computed on a circular grid of M points centred on its mean and wide enough that
    Bernstein's inequality puts at most :data:`TAIL` of the probability outside (that mass would
    wrap around; it is added to the error bound); M is never more than the full support."""
    _, one = one_hand(a)
    total = a.total_combinations
    m, start, support = lattice_grid(one, total, n)
    ring = np.fft.irfft(power_of_transform(_spectrum(tuple(sorted(one.items())), total, m), n), m)
    # ring[k] = P(sum = s) for the one s in the window with s = k (mod m)
    p = np.roll(ring, -(start % m))
    return start, np.clip(p, 0.0, None), fft_error_bound(m, n) + (TAIL if m < support else 0.0)


def _on_ring(dist: Iterable[tuple[int, float]], m: int) -> np.ndarray:
    """A distribution {value: probability} on a circular grid of m points (value mod m)."""
    ring = np.zeros(m)
    for v, p in dist:
        ring[v % m] += p
    return ring


@lru_cache(maxsize=8)
def _spectrum(one: tuple[tuple[int, int], ...], total: int, m: int) -> np.ndarray:
    """The transform of the one-hand distribution on a circular grid of m points (shared by the
    numbers of hands whose windows have the same size)."""
    spec = np.fft.rfft(_on_ring(((v, c / total) for v, c in one), m))
    spec.flags.writeable = False
    return spec


def power_of_transform(spec: np.ndarray, n: int) -> np.ndarray:
    """spec ** n, by repeated squaring where |spec|^n is a double at all and 0 where it is below
    the smallest one (|z|^n < e^-740: the neglected terms change no probability by as much as
    2^-1000).  For many hands the transform of the sum vanishes away from the low frequencies,
    so only a few of its coefficients are raised."""
    if n == 0:
        return np.ones(len(spec), dtype=complex)
    magnitude2 = spec.real ** 2 + spec.imag ** 2
    with np.errstate(divide="ignore"):
        keep = np.flatnonzero(np.log(magnitude2) * (n / 2) > -740.0)
    out = np.zeros(len(spec), dtype=complex)
    out[keep] = _power(spec[keep], n, np.multiply)
    return out


#: The plain transform on the whole lattice is used up to this many points (a few milliseconds;
#: every table under results/ fits); wider sums take the conditioned path.
LATTICE_MAX = 1 << 17
#: The most points of an FFT grid (the transforms of the conditioned path take a few times
#: 16 bytes a point: well under 1 GB).
GRID_MAX = 1 << 20
#: Results more than this many standard deviations above the mean are "large wins", counted
#: exactly by how many occur rather than convolved.
LARGE_WIN_SDS = 30.0
#: The most large wins considered in N hands (more than that has probability below TAIL, else
#: fewer results are treated as large).
MAX_LARGE_WINS = 40


@dataclass(frozen=True)
class Lower:
    """Cumulative probabilities F[i] = P(sum <= (start + i) unit) on a grid, each within
    ``bound``; below the grid F is within ``bound`` of 0, above it within ``bound`` of 1."""

    start: int
    unit: int
    cdf: np.ndarray
    bound: float

    def at(self, x: int) -> tuple[float, float]:
        """(F at the scaled value x, a multiple of ``unit``; how far F may be from it beyond
        ``bound``): above the grid F lies between its last value and 1."""
        i = x // self.unit - self.start
        if i < 0:
            return 0.0, 0.0
        if i >= len(self.cdf):
            last = float(self.cdf[-1])
            return (1 + last) / 2, (1 - last) / 2
        return float(self.cdf[i]), 0.0


def _binomial_tail(n: int, p: float, j: int) -> float:
    """An upper bound of P(Binomial(n, p) >= j): C(n, j) p^j <= (n p)^j / j!."""
    return math.exp(j * math.log(n * p) - math.lgamma(j + 1)) if p > 0 else 0.0


def _split_large_wins(values: dict[int, float], n: int) -> tuple[dict[int, float], int]:
    """The large wins (values more than LARGE_WIN_SDS sd above the mean, fewest first dropped
    until at most MAX_LARGE_WINS of them in n hands is certain up to TAIL) and that count."""
    mean, var = moments(values, 1)
    sd = math.sqrt(var)
    large = sorted((v for v in values if v > max(0.0, mean + LARGE_WIN_SDS * sd)), reverse=True)
    while large:
        p_large = sum(values[v] for v in large)
        most = next((j for j in range(min(n, MAX_LARGE_WINS) + 1)
                     if j == n or _binomial_tail(n, p_large, j + 1) <= TAIL / 4), None)
        if most is not None:
            return {v: values[v] for v in large}, most
        large.pop()
    return {}, 0


def _conditioned_cdf(values: dict[int, float], n: int, unit: int) -> Lower | None:
    """The lower part of the distribution of the sum of n draws of ``values`` (scaled net result
    -> probability, every value a multiple of ``unit``), or None if its grid would exceed
    GRID_MAX points.

    With L the large wins, J ~ Binomial(n, P(L)) of the n results are large and the other n - J
    follow the common results' distribution; given J = j, S = (sum of n - j common results) +
    (sum of j large wins).  In the transform: sum_j P(J = j) phi_common^(n - j) phi_large,j,
    where phi_large,j is the transform of the j-fold sum of large wins (given that they are
    large), truncated to the sums that can land in the grid (the others put below TAIL there).
    The grid is twice the window of the common part, so the shifted window never wraps."""
    large, most = _split_large_wins(values, n)
    p_large = sum(large.values())
    common = {v // unit: p / (1 - p_large) for v, p in values.items() if v not in large}
    large_u = {v // unit: p / p_large for v, p in sorted(large.items())}        # sorted: a truncated product
    mean_c, var_c = moments(common, 1)            # never empty: a value at or below the mean is common
    lo_c, hi_c = min(common), max(common)
    b = max(abs(lo_c - mean_c), abs(hi_c - mean_c))
    starts, ends = [], []
    for j in range(most + 1):
        w = bernstein_width(n - j, var_c, b)
        starts.append(math.floor((n - j) * mean_c - w))
        ends.append(math.ceil((n - j) * mean_c + w))
    # above the 95% quantile of the common results' sum (a quantile beyond the grid is reported
    # as its last point: still a lower bound)
    top = math.ceil(n * mean_c + CANTELLI_K * math.sqrt(n * var_c))
    start, end = min(starts), max(max(ends), top)
    window = end - start + 1
    if window > GRID_MAX // 2:
        return None
    m = 2 << (window - 1).bit_length()                   # twice the window, a power of two
    spec = np.fft.rfft(_on_ring(common.items(), m))
    heavy: list[dict[int, float]] = [{0: 1.0}]            # the j-fold sums of large wins, truncated
    for _ in range(most):
        heavy.append(_truncated_product(heavy[-1], large_u, window - 1))
    # Horner: sum_j w_j H_j C^(n - j) = C^(n - most) (...((w_0 H_0) C + w_1 H_1) C + ... + w_most H_most)
    total = np.zeros(len(spec), dtype=complex)
    for j in range(most + 1):
        if j:
            total *= spec
        weight = math.comb(n, j) * p_large ** j * (1 - p_large) ** (n - j) if p_large else 1.0
        if not heavy[j] or not weight:
            continue                                      # every such sum lands above the grid
        if list(heavy[j]) == [0]:
            total += weight * heavy[j][0]
            continue
        total += weight * np.fft.rfft(_on_ring(heavy[j].items(), m))
    total *= power_of_transform(spec, n - most)
    dist = np.roll(np.fft.irfft(total, m), -(start % m))[:window]
    cdf = np.cumsum(np.clip(dist, 0.0, None))
    u = 2.0 ** -53
    bound = (math.sqrt(window) * 10 * u * math.log2(m) * (n + 3)   # the transforms, summed over <= window points
             + window * u                                           # the running sum
             + 3 * TAIL)                                            # outside the windows; more large wins
    return Lower(start, unit, cdf, bound)


def conditioned_n_hands(one: dict[int, int], n: int) -> tuple[float, float, dict[Fraction, int], float]:
    """(P(S > 0), P(S = 0), {q: scaled quantile (a lower bound of the q-quantile)}, error bound)
    of n hands by :func:`_conditioned_cdf`, on the whole lattice when its grid fits in
    GRID_MAX points, else bracketed between the sums of rounded-down and rounded-up results on
    the finest grid that fits."""
    total = sum(one.values())
    unit = 1
    while True:
        down: dict[int, float] = {}
        up: dict[int, float] = {}
        for v, c in one.items():
            down[(v // unit) * unit] = down.get((v // unit) * unit, 0.0) + c / total
            up[-(-v // unit) * unit] = up.get(-(-v // unit) * unit, 0.0) + c / total
        low = _conditioned_cdf(down, n, unit)
        high = low if unit == 1 or low is None else _conditioned_cdf(up, n, unit)
        if low is not None and high is not None:
            break
        if unit > 4 * max(abs(v) for v in one):          # every result is within one unit of 0
            raise RuntimeError(f"no grid of {GRID_MAX:,} points holds {n:,} hands")
        unit *= 2
    # sum(up) >= S >= sum(down): P(sum(up) <= x) <= P(S <= x) <= P(sum(down) <= x)
    e = max(low.bound, high.bound)
    (f_hi, x_hi), (f_lo, x_lo), (g_lo, y_lo) = low.at(0), high.at(0), high.at(-unit)
    at_most_zero = (f_hi + f_lo) / 2
    ahead_bound = e + (f_hi - f_lo) / 2 + max(x_hi, x_lo)
    if unit == 1:                                         # the whole lattice: P(S = 0) = F(0) - F(-1)
        even, even_bound = max(0.0, f_hi - g_lo), 2 * e + x_hi + y_lo
    else:                                                 # 0 <= P(S = 0) <= F_down(0) - F_up(-unit)
        top_even = max(0.0, f_hi - g_lo) + 2 * e + x_hi + y_lo
        even, even_bound = top_even / 2, top_even / 2
    bound = max(ahead_bound, even_bound)
    quantiles = {}
    for q in QUANTILES:
        i = int(np.searchsorted(low.cdf, float(q) - e))
        quantiles[q] = (low.start + min(i, len(low.cdf) - 1)) * unit
    return min(1.0, max(0.0, 1.0 - at_most_zero)), even, quantiles, bound


class QuantileJSON(TypedDict):
    quantile: Exact
    net_result_antes: Exact


class NormalQuantileJSON(TypedDict):
    quantile: Exact
    net_result_antes: float


class NormalJSON(TypedDict):
    ahead: float
    quantiles: list[NormalQuantileJSON]


@shape("n_hands")
class NHandsJSON(TypedDict):
    hands: Annotated[int, Minimum(1)]
    method: Literal["exact", "fft"]
    error_bound: Annotated[float, Minimum(0)]
    ahead: Exact | float
    even: Exact | float
    behind: Exact | float
    quantiles: list[QuantileJSON]
    normal: NormalJSON


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

    def to_dict(self) -> NHandsJSON:
        def prob(x: Fraction | float) -> Exact | float:
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
    scale, one = one_hand(a)
    mean, sd = float(a.expected_return) * n, math.sqrt(float(a.variance) * n)
    normal = NormalDist(mean, sd)
    normal_q = {q: normal.inv_cdf(float(q)) for q in QUANTILES}
    normal_ahead = 1 - normal.cdf(0.0)
    if n <= EXACT_UP_TO:
        ahead, even, scaled = exact_summary(one, n)
        quantiles = {q: Fraction(v, scale) for q, v in scaled.items()}
        return NHands(n, True, 0.0, ahead, even, 1 - ahead - even, quantiles, normal_ahead, normal_q)
    if lattice_grid(one, a.total_combinations, n)[0] > LATTICE_MAX:
        f_ahead, f_even, scaled_f, bound = conditioned_n_hands(one, n)
        return NHands(n, False, bound, f_ahead, f_even, 1.0 - f_ahead - f_even,
                      {q: Fraction(v, scale) for q, v in scaled_f.items()}, normal_ahead, normal_q)
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
