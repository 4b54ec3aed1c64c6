"""The comparison of two strategy charts (enumerate/game/diff.py's ``strategy_changes``), which is
all a diff can say of the decisions of tables whose whole game keeps its strategy as a chart.

The charts here are made up (a chart is per hand group and up-card rank, each action's share of
its situations): the least number of situations that must move, half the sum of the counts'
changes, is checked against a literal count -- the situations, one by one, of A's assignment
turned into B's by keeping as many as possible where they are -- and the comparison is
symmetric, zero only for equal charts, and never more than the situations."""
from fractions import Fraction
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from enumerate.core.jsonform import exact
from enumerate.game.diff import strategy_changes

ACTIONS = ("keep and raise", "keep and fold", "buy a sixth card", "switch the lowest single card")


def analysis(chart: dict[tuple[str, str], dict[str, int]]) -> SimpleNamespace:
    """An analysis with only a strategy chart (what strategy_changes reads), from counts."""
    rows = [{"hand_group": g, "up_rank": r, "situations": sum(c.values()),
             "actions": {k: exact(Fraction(n, sum(c.values()))) for k, n in c.items() if n}}
            for (g, r), c in chart.items()]
    return SimpleNamespace(draws=SimpleNamespace(strategy=tuple(rows)))


@st.composite
def two_charts(draw):
    """Two charts over the same cells and situations, the actions' counts drawn independently."""
    cells = draw(st.lists(st.tuples(st.sampled_from(("pair of 2s", "three of a kind", "A-K high")),
                                    st.sampled_from("23456789TJQKA")), min_size=1, max_size=6, unique=True))
    a, b = {}, {}
    for cell in cells:
        n = draw(st.integers(1, 40))
        for chart in (a, b):
            cuts = sorted(draw(st.lists(st.integers(0, n), min_size=len(ACTIONS) - 1, max_size=len(ACTIONS) - 1)))
            counts = [hi - lo for lo, hi in zip([0, *cuts], [*cuts, n])]
            chart[cell] = dict(zip(ACTIONS, counts))
    return a, b


def literal_moves(a: dict[str, int], b: dict[str, int]) -> int:
    """Situations laid out one by one under A, then reassigned to B's counts keeping every one
    that can stay: those that had to go elsewhere."""
    situations = [k for k, n in a.items() for _ in range(n)]
    room = dict(b)
    stay = []
    for k in situations:
        if room.get(k, 0) > 0:
            room[k] -= 1
            stay.append(k)
    return len(situations) - len(stay)


@settings(max_examples=200, deadline=None)
@given(two_charts())
def test_the_least_moves_are_counted_and_the_comparison_is_symmetric(charts):
    a, b = charts
    d = strategy_changes(analysis(a), analysis(b))
    back = strategy_changes(analysis(b), analysis(a))
    assert d is not None and back is not None
    assert d.cells_compared == len(a) and d.situations == sum(sum(c.values()) for c in a.values())
    moved = {(c.hand_group, c.up_rank): c.moved_at_least for c in d.cells}
    for cell in a:
        literal = literal_moves(a[cell], b[cell])
        assert moved.get(cell, 0) == literal
        assert (cell in moved) == ({k: n for k, n in a[cell].items() if n} != {k: n for k, n in b[cell].items() if n})
    assert d.moved_at_least == back.moved_at_least <= d.situations
    assert [c.moved_at_least for c in d.cells] == sorted(moved.values(), reverse=True)
    assert all(sum(Fraction(x["exact"]) for x in c.to_dict()["actions_b"].values()) == 1 for c in d.cells)


def test_tables_without_a_chart_have_no_strategy_comparison():
    plain = SimpleNamespace(draws=None)
    chart = analysis({("pair of 2s", "A"): {"keep and raise": 3}})
    assert strategy_changes(plain, chart) is None and strategy_changes(chart, plain) is None
    assert strategy_changes(chart, chart).cells == () and strategy_changes(chart, chart).moved_at_least == 0


def test_a_cell_of_other_situations_is_not_compared():
    a = analysis({("pair of 2s", "A"): {"keep and raise": 3}, ("A-K high", "2"): {"keep and fold": 2}})
    b = analysis({("pair of 2s", "A"): {"keep and raise": 4}, ("A-K high", "2"): {"keep and raise": 2}})
    d = strategy_changes(a, b)
    assert d.cells_compared == 1 and d.situations == 2 and d.moved_at_least == 2
