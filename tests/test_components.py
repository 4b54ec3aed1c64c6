"""RTP by component and the largest exposure of one game (enumerate.game.components)."""
from fractions import Fraction

import pytest

from enumerate.analysis.certification import certification_figures
from enumerate.analysis.strategies import evaluate
from enumerate.game.analysis import analyze_game
from enumerate.game.components import components
from enumerate.progressive.analysis import long_run
from studodds.api import load_variant


def _parts(table, name):
    v = load_variant(name)
    a = analyze_game(table, v)
    results, _ = evaluate(table, v, {})
    figures = certification_figures(table, results[0].analysis, [], hands=(1,))
    return a, components(a, *figures.ante_and_raise(), figures.largest_win()[0])


def test_base_game_components(us_counts):
    a, (parts, exposure) = _parts(us_counts, "us-common")
    ante, raise_ = parts
    assert ante.net_per_game + raise_.net_per_game == a.expected_return
    assert raise_.average_wager == 2 * a.raise_probability
    assert raise_.rtp == 1 + raise_.net_per_game / raise_.average_wager
    assert exposure.total_antes == 201 and exposure.progressive_fixed is None


@pytest.mark.slow          # counts a second table (the side bets' dealer threshold), about 1.5 s
def test_side_bets_and_exposure(us_counts):
    a, (parts, exposure) = _parts(us_counts, "palms-managua")
    names = [p.name for p in parts]
    assert names == ["ante", "raise", "side bet bonus", "side bet power_play", "side bet super_power", "base game and side bets"]
    total = parts[-1]
    assert total.net_per_game == sum((p.net_per_game for p in parts[:-1]), Fraction(0))
    assert total.average_wager == 1 + parts[1].average_wager + 3
    assert dict(exposure.side_bets) == {"bonus": 100, "power_play": 6, "super_power": 20}
    assert exposure.total_antes == 201 + 126


@pytest.mark.slow
def test_progressive_component(us_counts):
    a, (parts, exposure) = _parts(us_counts, "progressive-100-75-50")
    prog = parts[-1]
    assert prog.rtp == long_run(a.variant.progressive).return_to_player
    assert exposure.progressive_fixed == 100 and exposure.progressive_meter
