"""The one settlement of the base game against the simulator's independent statement of it: for
every built-in variant (a maximum payout and an ante bonus among them), every category and every
way a hand ends, the same net result."""
from fractions import Fraction

import pytest

from enumerate.raise_value import RaiseValue
from enumerate.rules.settlement import STATES, Settlement
from enumerate.rules.variant_file import builtin_names, load_builtin
from enumerate.simulation.settle import base_cells
from evaluator.ranking import Category

PLAIN = [n for n in builtin_names() if load_builtin(n).variant.draws is None]


@pytest.mark.parametrize("name", PLAIN)
def test_the_settlement_agrees_with_the_simulators_own(name):
    v = load_builtin(name).variant
    s = Settlement.of(v)
    for cell in base_cells(v):
        mine = s.net(Category(cell.category), STATES[cell.state])
        assert cell.net == mine, (name, STATES[cell.state], Category(cell.category), cell.net, mine)


@pytest.mark.parametrize("name", PLAIN)
def test_the_raise_value_is_the_settlements_ev(name):
    """EV(raise) from the integer form equals the settlement's EV(raise) for a few count triples."""
    v = load_builtin(name).variant
    rv, s = RaiseValue.of(v), Settlement.of(v)
    n = 163_185
    for c in (Category.HIGH_CARD, Category.ONE_PAIR, Category.FLUSH):
        for nq, win, tie in ((70_000, 40_000, 10), (0, 0, 0), (1, 163_000, 100)):
            form = nq * rv.c_nq + win * int(rv.c_win[c]) + tie * rv.c_tie
            ev = Fraction(form - rv.c_lose * n + int(rv.bonus[c]) * n, rv.scale * n)
            assert ev == s.ev_raise(c, nq, win, tie, n)
            assert (form > int(rv.thresholds[c])) == (ev > -1)
