"""The certification figures against independent computations: worst play from the raw counts,
the N-hand distribution by direct enumeration and against its own exact path, the normal
approximation and volatility index from their definitions, and the breakdowns' identities."""
import math
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

from enumerate.analysis.base import analyze
from enumerate.analysis.certification import certification_figures, dealer_qualifies_by_up_rank, worst_play
from enumerate.analysis.distribution import exact_n_hands, float_n_hands, n_hands, one_hand, volatility_index
from enumerate.core.engine import COMPLETIONS
from enumerate.rules.variant_file import load_builtin
from evaluator.ranking import CATEGORY_BY_STRENGTH


@pytest.fixture(scope="module")
def us(us_counts):
    return analyze(us_counts, load_builtin("us-common").variant)


def test_worst_play_equals_a_direct_count(us_counts, us):
    """Worst play: in every situation the smaller of EV(raise) and EV(fold) = -1, summed from the
    raw counts with the paytable applied directly (not through the aggregation kernel)."""
    v = us.variant
    pays = np.array([int(v.pay(c)) for c in range(10)], dtype=np.int64)
    t = us_counts
    nq, win, tie = (x.astype(np.int64) for x in (t.no_qualify, t.win, t.tie))
    lose = COMPLETIONS - nq - win - tie
    cat = CATEGORY_BY_STRENGTH[t.strength].astype(np.int64)
    ev_raise_n = nq * 1 + win * (1 + 2 * pays[cat])[:, None] - 3 * lose     # times COMPLETIONS
    worst_n = np.minimum(ev_raise_n, -COMPLETIONS)
    total = int((worst_n * t.weight.astype(np.int64)[:, None]).sum())
    expected = Fraction(total, t.n_situations * COMPLETIONS)
    from enumerate.analysis.strategies import evaluate, raise_all
    everything = evaluate(t, us.variant, {"raise everything": raise_all})[0][1].analysis
    worst = worst_play(us, everything)
    assert worst.expected_return == expected
    assert worst.expected_return < us.expected_return
    # and the raise rate behind its element of risk: raise exactly where raising is worse
    raised = int(((ev_raise_n < -COMPLETIONS) * t.weight.astype(np.int64)[:, None]).sum())
    assert worst.average_wager == 1 + 2 * Fraction(raised, t.n_situations)


def test_two_hands_by_direct_enumeration(us):
    """The exact convolution for 2 hands against a plain double loop over the return table."""
    total = us.total_combinations
    direct: dict = {}
    for r in us.rows:
        for s in us.rows:
            key = r.pays + s.pays
            direct[key] = direct.get(key, 0) + r.combinations * s.combinations
    scale, _ = one_hand(us)
    got = {Fraction(k, scale): v for k, v in exact_n_hands(us, 2).items()}
    assert got == {k: v for k, v in direct.items() if v}
    assert sum(got.values()) == total ** 2
    h = n_hands(us, 2)
    assert h.ahead == Fraction(sum(v for k, v in direct.items() if k > 0), total ** 2)
    assert h.even == Fraction(direct.get(0, 0), total ** 2)


def test_fft_path_agrees_with_the_exact_one_within_its_bound(us):
    exact = exact_n_hands(us, 10)
    total = us.total_combinations ** 10
    offset, p, bound = float_n_hands(us, 10)
    assert 0 < bound < 1e-11
    worst = max(abs(p[k - offset] - float(Fraction(v, total))) for k, v in exact.items())
    assert worst <= bound
    assert abs(p.sum() - 1) < 1e-12


def test_normal_approximation_and_volatility_index_from_their_definitions(us):
    sd = math.sqrt(us.variance)
    for n in (1, 100):
        h = n_hands(us, n)
        normal = NormalDist(float(us.expected_return) * n, sd * math.sqrt(n))
        assert h.normal_ahead == pytest.approx(1 - normal.cdf(0), abs=1e-12)
        assert h.normal_quantiles[Fraction(1, 2)] == pytest.approx(normal.mean, abs=1e-9)
    vi = volatility_index(us)
    assert vi[Fraction(95, 100)] == pytest.approx(1.959963984540054 * sd, rel=1e-12)
    assert vi[Fraction(90, 100)] < vi[Fraction(95, 100)] < vi[Fraction(99, 100)]


def test_breakdown_identities(us_counts, us):
    from enumerate.analysis.strategies import evaluate, simple_strategies
    results, _ = evaluate(us_counts, us.variant, simple_strategies())
    f = certification_figures(us_counts, us, results[1:], hands=(1, 10, 100))
    ante, raise_ = f.ante_and_raise()
    assert ante + raise_ == us.expected_return
    assert f.rtp_per_ante == 1 - Fraction(1041372912372, 19933230517200)
    by_rank = dealer_qualifies_by_up_rank(us_counts)
    assert sum(by_rank.values()) / 13 == us.dealer_qualifies          # the up card's rank is uniform
    assert by_rank[12] == by_rank[11] and by_rank[12] > by_rank[0]
    win, comb = f.largest_win()
    assert win == 201 and comb == us.rows[0].combinations
    d = f.to_dict()
    assert d["rtp_by_strategy"][0]["name"] == "worst possible play"
    assert [h["hands"] for h in d["n_hands"]] == [1, 10, 100]
    assert d["n_hands"][0]["method"] == "exact" and d["n_hands"][2]["method"] == "fft"


def test_windowed_fft_equals_the_full_support_one(us):
    """The circular window around the mean (tails beyond Bernstein's bound wrap) against the
    full-support transform computed here directly."""
    scale, one = one_hand(us)
    lo, hi = min(one), max(one)
    n = 1000
    base = np.zeros(hi - lo + 1)
    for v, c in one.items():
        base[v - lo] = c / us.total_combinations
    support = n * (hi - lo) + 1
    m = 1 << (support - 1).bit_length()
    full = np.fft.irfft(np.fft.rfft(base, m) ** n, m)[:support]
    offset, p, bound = float_n_hands(us, n)
    assert len(p) < support                                   # the window is narrower than the support
    k = np.arange(len(p)) + offset - n * lo                   # positions in the full array
    assert np.max(np.abs(p - full[k])) <= bound + 1e-15
    assert abs(full[k].sum() - 1) < 1e-12                     # the window holds all the mass


@pytest.mark.slow
def test_the_n_hand_table_is_configurable_and_check_follows_it(tmp_path, us_counts):
    import json as _json

    from cli_runner import run_cli
    r = run_cli("batch", "us-common", "--out", str(tmp_path), "--hands", "3,1,50", "--quiet")
    assert r.returncode == 0, r.stderr
    data = _json.loads((tmp_path / "us-common" / "summary.json").read_text())
    assert [h["hands"] for h in data["certification"]["n_hands"]] == [1, 3, 50]
    assert run_cli("check", str(tmp_path), "--quiet").returncode == 0
    for bad in ("0", "x", "2000000"):
        r = run_cli("batch", "us-common", "--out", str(tmp_path / "b"), "--hands", bad, "--quiet")
        assert r.returncode == 2 and "--hands" in r.stderr


# --- the N-hand figures: every fast path against a slow, obviously-correct one -----------------

def _summary_from_full(full: dict[int, int], total: int):
    """(ahead, even, {q: scaled quantile}) read off a whole distribution."""
    from enumerate.analysis.distribution import QUANTILES
    ahead = Fraction(sum(c for s, c in full.items() if s > 0), total)
    quantiles, acc = {}, 0
    for s in sorted(full):
        acc += full[s]
        for q in QUANTILES:
            if q not in quantiles and acc >= q * total:
                quantiles[q] = s
    return ahead, Fraction(full.get(0, 0), total), quantiles


def _variant_with(us_counts, **pays):
    from dataclasses import replace as _replace
    v = load_builtin("us-common").variant
    from evaluator.ranking import Category
    raise_pays = {**v.raise_pays, **{Category.from_key(k): Fraction(x) for k, x in pays.items()}}
    return analyze(us_counts, _replace(v, raise_pays=raise_pays))


@pytest.mark.parametrize("n", [2, 3, 7, 10])
def test_exact_lower_part_equals_the_whole_convolution(us, n):
    """The truncated power (only sums up to a cut above the 95% quantile) gives the same exact
    figures as the full-support convolution."""
    from enumerate.analysis.distribution import exact_summary
    _, one = one_hand(us)
    assert exact_summary(one, n) == _summary_from_full(exact_n_hands(us, n), us.total_combinations ** n)


def test_sparse_and_dense_lower_parts_agree(us, monkeypatch):
    from enumerate.analysis import distribution
    _, one = one_hand(us)
    dense = distribution.exact_lower_part(one, 10, 25)
    monkeypatch.setattr(distribution, "DENSE_SLOTS", 0)
    assert distribution.exact_lower_part(one, 10, 25) == dense
    assert dense and max(dense) <= 25


def test_exact_figures_with_large_prime_denominators_by_multinomial_enumeration(us_counts):
    """Pays over large prime denominators: the sparse exact path against a plain enumeration of
    every multiset of outcomes with its multinomial count."""
    from itertools import combinations_with_replacement

    from enumerate.analysis.distribution import exact_summary
    a = _variant_with(us_counts, one_pair="4021/9082", high_card="1829/2488")
    scale, one = one_hand(a)
    assert scale > 10**6
    n = 4
    full: dict[int, int] = {}
    for combo in combinations_with_replacement(sorted(one), n):
        ways = math.factorial(n)
        for v in set(combo):
            ways //= math.factorial(combo.count(v))
        full[sum(combo)] = full.get(sum(combo), 0) + ways * math.prod(one[v] for v in combo)
    assert exact_summary(one, n) == _summary_from_full(full, a.total_combinations ** n)


@pytest.mark.parametrize("royal", [100, 1090])
@pytest.mark.parametrize("n", [100, 1000, 10000])
def test_conditioned_path_agrees_with_the_lattice_fft(us_counts, royal, n):
    """Large wins counted apart and joined in the transform: the same figures as the plain
    transform on the whole lattice, within the two bounds."""
    from enumerate.analysis.distribution import conditioned_n_hands
    a = _variant_with(us_counts, royal_flush=royal)
    scale, one = one_hand(a)
    ahead, even, quantiles, bound = conditioned_n_hands(one, n)
    plain = n_hands(a, n)
    assert abs(ahead - plain.ahead) <= bound + plain.error_bound * 2 * n
    assert abs(even - plain.even) <= bound + plain.error_bound
    assert 0 < bound < 1e-6
    for q, v in quantiles.items():
        assert abs(Fraction(v, scale) - plain.quantiles[q]) <= 1


def test_bracketed_path_contains_the_lattice_figures(us_counts, monkeypatch):
    """On a grid too small for the lattice the results are rounded down and up: the figures of
    the whole lattice lie within the stated (wider) bound, and the quantiles reported are lower
    bounds of the true ones."""
    from enumerate.analysis import distribution
    a = _variant_with(us_counts, high_card="3/2")
    scale, one = one_hand(a)
    exact = distribution.conditioned_n_hands(one, 100)
    monkeypatch.setattr(distribution, "GRID_MAX", 1 << 9)
    ahead, even, quantiles, bound = distribution.conditioned_n_hands(one, 100)
    assert bound > 100 * exact[3]                          # really bracketed
    assert abs(ahead - exact[0]) <= bound + exact[3]
    assert abs(even - exact[1]) <= bound + exact[3]
    for q, v in quantiles.items():
        assert v <= exact[2][q]


def test_n_hands_takes_the_bounded_path_for_a_huge_pay(us_counts):
    """A royal flush paying 10^9 would spread the lattice grid over billions of points: the
    conditioned path keeps it to the common results, with the large win counted apart."""
    a = _variant_with(us_counts, royal_flush=10**9)
    h = n_hands(a, 1000)
    assert not h.exact and 0 < h.error_bound < 1e-6
    small = n_hands(_variant_with(us_counts, royal_flush=100), 1000)
    # a royal flush in 1,000 hands (p about 0.08%) wins outright: P(ahead) rises by about that
    assert 0 < h.ahead - small.ahead < 0.001


@pytest.mark.parametrize("pays", [{"royal_flush": 10**9},                                   # the largest pay
                                  pytest.param({"one_pair": "99989/99991", "high_card": "99961/99971"},  # denominators near 10^10
                                               marks=pytest.mark.slow)])
def test_the_largest_pays_and_denominators_analysed_stay_bounded(us_counts, pays):
    """Pays as large, or denominators as large, as 64-bit exact analysis allows: every row of the
    default N-hand table is made, the exact ones exact, the others within a stated bound."""
    a = _variant_with(us_counts, **pays)
    for n in (1, 10, 100, 1000, 10000):
        h = n_hands(a, n)
        assert 0 <= h.ahead <= 1 and 0 <= h.even <= 1
        if n <= 10:
            assert h.exact and isinstance(h.ahead, Fraction)
        else:
            assert not h.exact and 0 < h.error_bound < 0.05
