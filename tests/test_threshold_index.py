"""The batch fast path (ThresholdIndex) against the one-pass kernel, exactly."""
from fractions import Fraction

import numpy as np
import pytest

from enumerate.analysis.base import raw_statistics
from enumerate.analysis.threshold_index import ThresholdIndex
from enumerate.rules.variant import Variant
from enumerate.rules.variant_file import load_builtin
from evaluator.ranking import Category
from studodds import certify


def _random_pays(rng):
    pays = {}
    for c in Category:
        kind = rng.integers(3)
        if kind == 0:
            pays[c] = Fraction(int(rng.integers(0, 30)))
        elif kind == 1:
            pays[c] = Fraction(int(rng.integers(0, 90)), int(rng.integers(1, 9)))
        else:
            pays[c] = Fraction(int(rng.integers(0, 4)))
    return pays


@pytest.mark.parametrize("ante", [(Fraction(1), Fraction(1), 2), pytest.param((Fraction(1, 2), Fraction(2), 2), marks=pytest.mark.slow),
                                  pytest.param((Fraction(3, 2), Fraction(0), 2), marks=pytest.mark.slow),
                                  pytest.param((Fraction(1), Fraction(1), 1), marks=pytest.mark.slow), pytest.param((Fraction(1, 2), Fraction(1), 3), marks=pytest.mark.slow)])
def test_index_equals_kernel_for_random_paytables(us_counts, ante):
    """Every raise size: the index's coefficients come from the settlement, like the kernel's."""
    rng = np.random.default_rng(17)
    index = ThresholdIndex(us_counts, *ante)
    for k in range(12):
        v = Variant(f"r{k}", _random_pays(rng), ante_no_qualify=ante[0], ante_win=ante[1], raise_antes=ante[2])
        stats, _ = index.statistics(v.raise_pays)
        (kernel,), _ = raw_statistics(us_counts, v, [])
        assert np.array_equal(stats, kernel), (k, ante)


@pytest.mark.debug_sample
def test_index_handles_exact_indifference(us_counts):
    """A paytable chosen so that some situations are exactly indifferent."""
    us = load_builtin("us-common").variant
    index = ThresholdIndex(us_counts, Fraction(1), Fraction(1))
    # find a high-card situation with win > 0 and set the Ace/King pay to its exact threshold
    cat = Category.HIGH_CARD
    from evaluator.ranking import CATEGORY_BY_STRENGTH
    rows = np.flatnonzero((CATEGORY_BY_STRENGTH[us_counts.strength] == cat) & (us_counts.win.max(axis=1) > 0))
    i = rows[len(rows) // 2]
    j = int(np.flatnonzero(us_counts.win[i])[0])
    nq, win, tie = (int(a[i, j]) for a in (us_counts.no_qualify, us_counts.win, us_counts.tie))
    threshold = Fraction(2 * 163185 - 4 * nq - 3 * tie, win)     # P = 1 + 2 pay + 3 at indifference
    pay = (threshold - 4) / 2
    if pay < 0:
        pytest.skip("sampled situation has no non-negative indifferent pay")
    pays = dict(us.raise_pays)
    pays[cat] = pay
    v = Variant("tie", pays)
    stats, _ = index.statistics(v.raise_pays)
    (kernel,), _ = raw_statistics(us_counts, v, [])
    assert np.array_equal(stats, kernel)
    assert stats[cat, 2] > 0


@pytest.mark.slow
def test_batch_via_index_is_byte_identical(monkeypatch):
    """A certified table is the same whether its optimal statistics come from the threshold
    index (from the first paytable on) or from the one-pass kernel (never the index)."""
    from enumerate.analysis import strategies
    sources = [load_builtin(n) for n in ("us-common", "uk-casino-stud", "royal-200", "cyberstud", "raise-one-ante")]
    rendered = []
    for start in (1, 10**9):
        monkeypatch.setattr(strategies, "INDEX_FROM", start)
        rendered.append([certify.render(s, 8) for s in sources])
    assert rendered[0] == rendered[1]


@pytest.mark.slow
def test_a_chart_kept_from_one_raise_size_is_never_given_to_another(us_counts):
    """Charts are kept by (ante pays, raise, raised set): the same pays under a raise of 1 and of
    2 antes, each through its own index, each get the one-pass kernel's own chart."""
    from dataclasses import replace

    from enumerate.analysis import strategies
    one = load_builtin("raise-one-ante").variant
    for v in (replace(one, raise_antes=2), one, replace(one, raise_antes=3)):
        index = ThresholdIndex(us_counts, v.ante_no_qualify, v.ante_win, v.raise_antes)
        _, chart = strategies.evaluate(us_counts, v, {}, index)
        _, kernel = strategies.evaluate(us_counts, v, {}, None)
        assert np.array_equal(chart.raised, kernel.raised) and np.array_equal(chart.total, kernel.total), v.raise_antes
