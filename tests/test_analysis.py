"""Published figures and internal consistency of the exact analysis."""
from fractions import Fraction

import pytest
from reference import brute_force_counts, parse

from enumerate.analysis.base import analyze
from enumerate.analysis.situation import counts_of
from enumerate.core.engine import COMPLETIONS
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant_file import load_builtin


def us_common():
    return load_builtin("us-common").variant


TOTAL_COMBINATIONS = 19_933_230_517_200
PUBLISHED_TOTAL_LOSS = 1_041_372_912_372


@pytest.fixture(scope="module")
def us(us_counts):
    return analyze(us_counts, us_common())


@pytest.mark.debug_sample
def test_published_total_loss_exactly(us):
    assert us.total_combinations == TOTAL_COMBINATIONS
    assert us.total_loss == PUBLISHED_TOTAL_LOSS
    assert isinstance(us.total_loss, Fraction) and us.total_loss.denominator == 1


def test_published_rounded_figures(us):
    assert round(float(us.house_edge) * 100, 3) == 5.224
    assert round(float(us.element_of_risk) * 100, 3) == 2.555
    assert us.house_edge == Fraction(PUBLISHED_TOTAL_LOSS, TOTAL_COMBINATIONS)


def test_return_table_sums_exactly(us):
    assert sum(r.combinations for r in us.rows) == TOTAL_COMBINATIONS
    assert sum(r.probability for r in us.rows) == 1
    assert -sum(r.contribution for r in us.rows) == us.house_edge
    assert sum(r.pays * r.combinations for r in us.rows) == -PUBLISHED_TOTAL_LOSS
    events = [r.event for r in us.rows]
    assert events[0] == "player wins with royal flush"
    assert events[-4:] == ["dealer does not qualify", "push", "fold", "dealer wins"]


def test_element_of_risk_and_variance_definitions(us):
    fold = next(r for r in us.rows if r.event == "fold")
    p_raise = 1 - fold.probability
    assert us.raise_probability == p_raise
    assert us.element_of_risk == us.house_edge / (1 + 2 * p_raise)
    second = sum(r.pays ** 2 * r.probability for r in us.rows)
    assert us.variance == second - us.house_edge ** 2
    assert 2.2 < us.standard_deviation < 2.3


def test_decisions_match_brute_force_ev(us_counts):
    """Optimal decision of sampled situations from brute-force counts and exact Fractions."""
    value = RaiseValue.of(us_common())
    pays = {0: 1, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 7, 7: 20, 8: 50, 9: 100}
    from evaluator.ranking import category, strength
    for text, up in [("Ah Kd Jc 8s 3c", "7d"), ("Ah Kd Qc 8s 3c", "Qd"), ("Ah Kd 5c 4s 2c", "9d"),
                     ("2c 2d 5h 7s 9c", "Ad"), ("Ah Kd Jc 8s 3c", "Jd"), ("Ah Kd 6c 4s 2c", "Kh")]:
        p, u = parse(text), parse(up)[0]
        nq, win, tie, lose = brute_force_counts(p, u)
        pay = pays[int(category(strength(p)))]
        ev_raise = Fraction(nq + win * (1 + 2 * pay) - 3 * lose, COMPLETIONS)
        c = counts_of(us_counts, tuple(p), u)
        form = c.no_qualify * value.c_nq + c.win * int(value.c_win[category(strength(p))]) + c.tie * value.c_tie
        assert Fraction(form - 3 * value.denominator, value.denominator) == ev_raise
        assert (form > value.raise_above) == (ev_raise > -1)
