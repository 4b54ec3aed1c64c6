"""PAR-sheet figures against the return table, the exact expected return, and a direct count
from the raw counts with the optimal decisions taken independently of the aggregation kernel."""
from fractions import Fraction

import numpy as np
import pytest

from enumerate.analysis.base import analyze
from enumerate.analysis.par import REACH_GAMES, STATES, expected_return, par_sheet
from enumerate.core.engine import COMPLETIONS
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant_file import builtin_names, load_builtin
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category
from studodds import api

ROW_OF_STATE = {"dealer_does_not_qualify": "dealer_does_not_qualify", "push": "push", "dealer_wins": "dealer_wins"}


@pytest.mark.parametrize("name", [n for n in builtin_names() if load_builtin(n).variant.draws is None])
def test_par_columns_are_the_return_table_rows(name):
    """Every built-in of the plain game (a table with draws has no PAR sheet of the plain kind)."""
    v = load_builtin(name).variant
    counts = api.count_table(v)
    a = analyze(counts, v)
    sheet = par_sheet(counts, v)
    rows = {r.outcome: r.combinations for r in a.rows}
    assert sum(c.combinations for c in sheet.cells) == a.total_combinations == sheet.total_combinations
    assert sheet.state_total("folded") == rows["fold"]
    for c in Category:
        if f"player_wins_{c.key}" in rows:
            wins = sheet.cell(c, "player_wins").combinations
            if c == Category.STRAIGHT_FLUSH and "player_wins_royal_flush" not in rows:    # paid as one
                wins += sheet.cell(Category.ROYAL_FLUSH, "player_wins").combinations
            assert wins == rows[f"player_wins_{c.key}"]
    for state, row in ROW_OF_STATE.items():               # with an ante bonus, rows split by the bonus paid
        assert sheet.state_total(state) == sum(n for k, n in rows.items() if k == row or k.startswith(row + "_bonus_"))
    if v.max_payout is None:                               # a cap changes net results beyond the base rules
        assert expected_return(sheet) == a.expected_return


def test_par_cells_by_a_direct_count(us_counts):
    """Folded and raised-and-no-qualify combinations per category, summed with numpy from the
    raw counts and the optimal decisions of RaiseValue (not through the aggregation kernel)."""
    v = load_builtin("us-common").variant
    sheet = par_sheet(us_counts, v)
    raised = RaiseValue.of(v).optimal(us_counts)
    w = us_counts.weight.astype(np.int64)[:, None]
    cat = np.broadcast_to(CATEGORY_BY_STRENGTH[us_counts.strength][:, None], raised.shape)
    for c in (Category.HIGH_CARD, Category.ONE_PAIR, Category.FLUSH):
        mask = cat == c
        folded = int((w * (mask & ~raised)).sum()) * COMPLETIONS
        nq = int((w * np.where(mask & raised, us_counts.no_qualify, 0)).sum())
        win = int((w * np.where(mask & raised, us_counts.win, 0)).sum())
        assert sheet.cell(c, "folded").combinations == folded
        assert sheet.cell(c, "dealer_does_not_qualify").combinations == nq
        assert sheet.cell(c, "player_wins").combinations == win


def test_reachability_flags_the_awards_rarer_than_once_in_a_hundred_million_games():
    v = load_builtin("ante-bonus").variant
    sheet = par_sheet(api.count_table(v), v)
    flagged = {(c.category, c.state) for c in sheet.unreachable}
    for c in sheet.cells:
        paying = c.net_result > 0 and c.combinations > 0
        assert ((c.category, c.state) in flagged) == (paying and c.probability < Fraction(1, REACH_GAMES))
    assert (Category.STRAIGHT_FLUSH, "push") in flagged         # a bonus paid on a tie of straight flushes
    assert not par_sheet(api.count_table(load_builtin("us-common").variant),
                         load_builtin("us-common").variant).unreachable
    d = sheet.to_dict()
    assert d["states"] == list(STATES) and len(d["cells"]) == 10 * len(STATES)
    assert d["reachability"]["games"] == REACH_GAMES


@pytest.mark.slow
def test_an_unreachable_award_is_a_sanity_warning_of_the_certified_table(tmp_path, us_counts):
    """ante-bonus pays its bonus on ties of straight flushes, 1 in 36.9 billion: the batch says so,
    the report's warnings list it, and --strict refuses the table."""
    from cli_runner import run_cli
    r = run_cli("batch", "ante-bonus", "--out", str(tmp_path / "t"), "--formats", "md", "--quiet")
    assert r.returncode == 0 and "expected less than once in 100,000,000 games" in r.stderr
    assert "expected less than once in 100,000,000 games" in (tmp_path / "t" / "ante-bonus" / "report.md").read_text()
    r = run_cli("batch", "ante-bonus", "--out", str(tmp_path / "s"), "--formats", "md", "--strict", "--quiet")
    assert r.returncode == 2 and "100,000,000 games" in r.stderr and not (tmp_path / "s" / "ante-bonus").exists()
