"""`strategies` on a Russian Poker table without draws: each simple strategy's raise taken from
the strategy, the insurance and the purchases as a player who raised takes them where they pay.

A fixed strategy's sums over sampled count-table rows are its situations valued one by one by the
final-hand engine (itself held to the literal brute force in test_russian_final_hand.py), with
the raise the strategy's; optimal play's own raises, given as a strategy, are optimal play to the
last integer; the command prints optimal play as `analyze` counts it; a table with draws is refused
in one line before any counting."""
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_cli
from test_reliability_hostile import refused
from test_russian_final_hand import LUNAR, RULE_SETS, US, variant
from test_russian_game import expected_sums

from enumerate.analysis.strategies import raise_at_least, simple_strategies, strategy_mask
from enumerate.core.engine import COMPLETIONS
from enumerate.russian.game import analysis_of, game_sums, strategy_sums
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category, strength
from studodds import api

REPO = Path(__file__).resolve().parents[1]
#: Lunar's options without the bought game: the whole game in seconds, for the command line's tests.
QUICK = "[ante_pays]\nplayer_wins = 0\n[two_combinations]\n[insurance]\n"


def _rows(counts):
    cats = CATEGORY_BY_STRENGTH[counts.strength]
    return [int(np.flatnonzero(cats == Category.TRIPS)[5]), int(np.flatnonzero(cats == Category.ONE_PAIR)[-1]),
            int(np.flatnonzero(cats == Category.HIGH_CARD)[-1])]


@pytest.mark.parametrize("rules", [LUNAR, RULE_SETS[1]], ids=["lunar", "rules1"])
def test_a_fixed_strategy_is_its_situations_one_by_one(us_counts, rules):
    """Raise with a pair or better against every up card but an odd-ranked one, the high cards with
    the opposite: raises optimal play folds and folds it raises, each situation's insurance and
    purchases then as a raiser takes them."""
    v = variant(rules)
    rows = _rows(us_counts)
    pair = us_counts.strength >= strength("2c 2d 3h 4s 5c")
    odd = (us_counts.up.astype(np.int64) >> 2) % 2 == 1
    mask = np.where(pair[:, None], ~odd, odd)
    optimal, fixed = strategy_sums(us_counts, v, [mask], rows=np.array(rows))
    assert (optimal.raises != fixed.raises)[rows].any()             # the strategy is not optimal play
    combos, st, values = expected_sums(us_counts, v, rows, fixed.dn, raises=mask)
    assert fixed.combinations == combos
    assert (fixed.strategy == st).all()
    assert Fraction(fixed.values, fixed.scale * fixed.dn * COMPLETIONS) == values
    assert st[..., 5].sum() > 0                                      # games bought under the strategy
    assert Fraction(fixed.values) < Fraction(optimal.values)


def test_optimal_plays_raises_as_a_strategy_are_optimal_play(us_counts):
    v = variant(LUNAR)
    rows = np.array(_rows(us_counts))
    optimal, = strategy_sums(us_counts, v, [], rows=rows)
    again = strategy_sums(us_counts, v, [optimal.raises], rows=rows)
    for a in again:
        assert a.combinations == optimal.combinations and a.values == optimal.values
        assert (a.strategy == optimal.strategy).all() and a.stakes == optimal.stakes


@pytest.mark.slow
def test_the_command_prints_optimal_play_as_analyze_counts_it(us_counts, tmp_path, monkeypatch):
    (tmp_path / "lunar.toml").write_text(US + QUICK)
    real, made = api.strategies, {}

    def once(v, **options):           # the text run prints the object the JSON run printed: counted once
        key = (str(v), options.get("raise_at_least"))
        if key not in made:
            made[key] = real(v, **options)
        return made[key]
    monkeypatch.setattr(api, "strategies", once)
    r = run_cli("strategies", "lunar.toml", "--raise-at-least", "AQ", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    import jsonschema
    jsonschema.Draft202012Validator(json.loads((REPO / "studodds" / "schema.json").read_text())).validate(d)
    names = [s["name"] for s in d["strategies"]]
    assert names == ["optimal", *simple_strategies(), "AQ or better"]
    a, _ = analysis_of(variant(QUICK), game_sums(us_counts, variant(QUICK), threads=2))     # analyze's figures
    best = d["strategies"][0]
    assert best["house_edge_per_ante"]["exact"] == str(a.house_edge) and best["cost_vs_optimal_per_ante"]["exact"] == "0"
    for s in d["strategies"][1:]:
        assert Fraction(s["cost_vs_optimal_per_ante"]["exact"]) > 0, s["name"]
        assert Fraction(s["house_edge_per_ante"]["exact"]) - a.house_edge == Fraction(s["cost_vs_optimal_per_ante"]["exact"])
    text = run_cli("strategies", "--raise-at-least", "AQ", "lunar.toml", cwd=tmp_path).stdout
    assert "three rules of thumb" in text and "AQ or better" in text and len(made) == 1


def test_a_table_with_draws_is_refused_in_one_line(tmp_path):
    (tmp_path / "lunar.toml").write_text(US + LUNAR + "[buy_card]\nfee = 1\n")
    refused(tmp_path, "strategies", "lunar.toml", needle="a simple draw strategy's game is a whole game of its own")


def test_a_bad_strategy_is_named_before_any_counting(us_counts):
    v = variant(QUICK)
    with pytest.raises(StudoddsError, match="strategy wrong must return a raise mask"):
        api.strategies(v, extra={"wrong": lambda hands, up: np.ones(3, dtype=bool)})
    assert strategy_mask(us_counts, raise_at_least(strength("2c 2d 3h 4s 5c"))).any()


def test_certification_figures_are_the_plain_games():
    with pytest.raises(StudoddsError, match="made for the plain game"):
        api.certification(variant(QUICK))
