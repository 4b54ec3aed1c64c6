"""The instant payout on a dealt hand (``[ante_pays] instant_payout``; Lunar Poker's, 58 Pa. Code
§ 671a.12(a)): read, written back, fuzzed and refused in one line as every rule; a dealt hand of a
listed category nets its pay and nothing else, by every path (one hand by the draws counted one by
one and by the rank kernel, a slice class by class and by rank patterns); a slice with the rule is
the same slice without those hands plus each of them at its pay; without draws the same: the hands paid at once
leave the game and add their pay."""
import json
import math
import tomllib
from fractions import Fraction

import numpy as np
import pytest
from cli_runner import run_cli
from fuzzstats import tick
from hypothesis import given, settings
from hypothesis import strategies as st
from test_russian_final_hand import LUNAR, US, variant
from test_russian_slice import SIXTH

from enumerate.core.engine import COMPLETIONS
from enumerate.core.slices import Slice
from enumerate.draws.labels import INSTANT_LABEL
from enumerate.rules.variant_file import parse_variant, parse_variant_text
from enumerate.russian import slice as rs
from enumerate.russian.draws import situation_actions
from enumerate.russian.game import game_sums, return_rows
from enumerate.russian.situation_ranks import situation_by_ranks
from evaluator.cards import parse_hand
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

INSTANT = "instant_payout = { royal_flush = 1000, straight_flush = 250 }\n"
#: A table with a sixth card for sale (a class takes milliseconds) and Pennsylvania's paytable C.
TABLE = SIXTH.replace("player_wins = 0\n", "player_wins = 0\n" + INSTANT)


def test_the_rule_is_read_and_written_back():
    v = variant(TABLE)
    assert dict(v.ante_instant) == {Category.STRAIGHT_FLUSH: 250, Category.ROYAL_FLUSH: 1000} and v.russian
    assert v.to_dict()["ante_pays"]["instant_payout"] == {"royal_flush": {"exact": "1000", "value": 1000.0},
                                                         "straight_flush": {"exact": "250", "value": 250.0}}
    assert "instant_payout" not in variant(SIXTH).to_dict()["ante_pays"]     # no key where the rule is not named


@pytest.mark.parametrize(("value", "message"), [
    ("4", "ante_pays.instant_payout: must be a table of pays by hand, such as { royal_flush = 1000"),
    ("{}", "ante_pays.instant_payout: must be a table"),
    ("{ royal = 1000 }", "ante_pays.instant_payout.royal: unknown key (did you mean 'royal_flush'?)"),
    ("{ royal_flush = -1 }", "ante_pays.instant_payout.royal_flush: must not be negative"),
    ("{ royal_flush = \"x\" }", "ante_pays.instant_payout.royal_flush"),
])
def test_a_bad_instant_payout_is_one_line_naming_the_key(value, message):
    with pytest.raises(StudoddsError) as e:
        parse_variant_text(US + f"[ante_pays]\ninstant_payout = {value}\n", "x.toml")
    assert str(e.value).startswith("x.toml: ") and message in str(e.value) and "\n" not in str(e.value)


_values = st.one_of(st.integers(-3, 2000), st.booleans(), st.floats(allow_nan=True), st.text(max_size=12),
                    st.sampled_from(["1/2", "250", "-1", "1e9"]), st.lists(st.integers(), max_size=2))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(["instant_payout", "player_wins_unless"]),
       st.one_of(_values, st.sampled_from(["drew_or_bought", "drew", "bought"]),
                 st.dictionaries(st.sampled_from([c.key for c in Category] + ["royal", "Royal_flush"]), _values,
                                 max_size=4)))
def test_fuzz_the_ante_rules_of_russian_poker(key, value):
    """Any value of [ante_pays] instant_payout or player_wins_unless: a Russian table with that
    rule, or one line naming the key."""
    tick("russian ante rules")
    doc = tomllib.loads(US)
    doc["ante_pays"] = {key: value}
    try:
        v = parse_variant(doc, "fuzz.toml")
    except StudoddsError as exc:
        assert str(exc).startswith(f"fuzz.toml: ante_pays.{key}") and "\n" not in str(exc), str(exc)
    else:
        assert v.russian
        if key == "instant_payout":
            assert isinstance(value, dict) and len(v.ante_instant) == len(value)
            assert all(p >= 0 for p in v.ante_instant.values())
        else:
            assert value == v.ante_win_unless == "drew_or_bought"


@pytest.mark.parametrize(("hand", "pay"), [("Ah Kh Qh Jh Th", 1000), ("5d 4d 3d 2d Ad", 250)])
def test_a_dealt_hand_listed_is_paid_at_once_by_every_path(hand, pay):
    v = variant(TABLE)
    cards = tuple(parse_hand(hand))
    for s in (situation_actions(v, cards, 0, rows=True), situation_by_ranks(v, cards, 0)):
        assert len(s.actions) == 1 and s.best.instant and s.best.label == INSTANT_LABEL
        assert s.ev == pay and s.best.fee == 0 and s.best.raised == s.best.insured == s.best.bought == 0
    (outcome, label, net, c), = situation_actions(v, cards, 0, rows=True).best.rows
    assert net == pay and c == situation_actions(v, cards, 0, rows=True).best.denominator
    assert outcome.startswith("instant_payout_") and f"{pay} to 1 at once" in label
    played = situation_actions(v, tuple(parse_hand("Kh Qh Jh Th 9h")), 0)       # a straight flush too: 250
    assert played.ev == 250
    assert len(situation_actions(v, tuple(parse_hand("Kh Qh Jh Th 9c")), 0).actions) == 2   # a straight: played


def test_without_draws_the_hands_paid_at_once_leave_the_game_and_add_their_pay(us_counts):
    """The whole game without draws, on sampled count-table rows: the played rows' sums are those
    of the table without the rule; the straight and royal flushes dealt add their pay, alone."""
    v, plain = variant(LUNAR.replace("player_wins = 0\n", "player_wins = 0\n" + INSTANT)), variant(LUNAR)
    assert dict(v.ante_instant) and v.draws is None
    cats = CATEGORY_BY_STRENGTH[us_counts.strength]
    paid = [int(np.flatnonzero(cats == Category.ROYAL_FLUSH)[0]), int(np.flatnonzero(cats == Category.STRAIGHT_FLUSH)[3])]
    played = [int(np.flatnonzero(cats == Category.ONE_PAIR)[-1]), int(np.flatnonzero(cats == Category.STRAIGHT)[2])]
    got = game_sums(us_counts, v, rows=np.array(paid + played))
    base = game_sums(us_counts, plain, rows=np.array(played))
    n = COMPLETIONS * got.dn
    w = [47 * int(us_counts.weight[r]) for r in paid]
    assert (got.dn, got.scale) == (base.dn, base.scale)
    assert got.combinations == base.combinations and got.qualifies == base.qualifies and got.stakes == base.stakes
    assert got.instant == {Category.ROYAL_FLUSH: w[0] * n, Category.STRAIGHT_FLUSH: w[1] * n}
    assert got.values == base.values + (1000 * w[0] + 250 * w[1]) * got.scale * n
    assert got.situations == base.situations + sum(w) and int(got.strategy[..., 1].sum()) == int(base.strategy[..., 1].sum())
    rows, expected, _, meanings = return_rows(v, got, got.situations * n)
    assert rows[0].outcome == "instant_payout_royal_flush" and rows[0].combinations == w[0] * n
    assert meanings[0]["event"] == "instant_payout"
    assert expected == Fraction(got.values, got.scale * n * got.situations)


@pytest.mark.parametrize("draws", [True, False], ids=["with draws", "without draws"])
def test_one_hand_through_the_cli(tmp_path, draws):
    text = variant_text()
    (tmp_path / "pa.toml").write_text(text if draws else text.split("[buy_card]")[0])
    out = run_cli("hand", "Ah Kh Qh Jh Th", "pa.toml", "--up", "9d", cwd=tmp_path).stdout
    assert "paid 1000 to 1 on the ante at once" in out and "best action paid at once, EV 1000.000000" in out
    every = json.loads(run_cli("hand", "9h Kh Qh Jh Th", "pa.toml", "--json", cwd=tmp_path).stdout)
    assert len(every["situations"]) == 47 and every["ev_before_up_card_antes"]["exact"] == "250"


def variant_text() -> str:
    head, tables = TABLE.split("[", 1)
    return US.replace('qualifier = "AK"\n', 'qualifier = "AK"\n' + head) + "[" + tables


@pytest.mark.slow
def test_a_slice_is_the_played_hands_plus_the_hands_paid_at_once():
    """The hands paid at once class by class and by rank patterns: the same figures; with the
    straights beside them (by rank patterns), against the table without the rule, the straights'
    sums are the same and each straight or royal flush dealt adds its pay, alone."""
    v, plain = variant(TABLE), variant(SIXTH)
    paid_slice = Slice.parse("A", "straight_flush,royal_flush")
    by_classes = rs.slice_run(v, "", paid_slice, None, "situation_classes").run(threads=2)
    by_ranks = rs.slice_run(v, "", paid_slice, None, "rank_patterns").run(threads=2)
    strip = {"core_seconds_per_class", "whole_game_core_hours", "method", "classes"}
    assert ({k: x for k, x in by_ranks.to_dict().items() if k not in strip}
            == {k: x for k, x in by_classes.to_dict().items() if k not in strip})
    got = rs.slice_run(v, "", Slice.parse("A", "straight,straight_flush,royal_flush"), None,
                       "rank_patterns").run(threads=2)
    straights = rs.slice_run(plain, "", Slice.parse("A", "straight"), None, "rank_patterns").run(threads=2)
    cards, up, weight = paid_slice.classes()
    pays = [Fraction(1000 if max(cards[i]) >> 2 == 12 and min(cards[i]) >> 2 == 8 else 250) for i in range(len(weight))]
    paid = sum(int(w) * p for w, p in zip(weight.tolist(), pays))
    assert by_classes.sums.ev == paid and by_classes.situations == int(weight.sum())
    assert got.situations == straights.situations + int(weight.sum())
    assert got.sums.ev == straights.sums.ev + paid
    assert got.sums.raised == straights.sums.raised and got.sums.fees == straights.sums.fees
    assert got.sums.qualifies == straights.sums.qualifies          # a hand paid at once meets no dealer
    rows = {r.outcome: r for r in got.return_rows()}
    royal, sf = rows["instant_payout_royal_flush"], rows["instant_payout_straight_flush"]
    n = got.situations
    assert royal.probability == Fraction(int(sum(w for w, p in zip(weight.tolist(), pays) if p == 1000)), n)
    assert sf.probability == Fraction(int(sum(w for w, p in zip(weight.tolist(), pays) if p == 250)), n)
    assert (royal.pays, sf.pays) == (1000, 250)
    assert sum(c for k, c in got.sums.chart.items() if k.endswith("|" + INSTANT_LABEL)) == int(weight.sum())
    assert math.isclose(float(got.expected), float(got.sums.ev / n))


def test_the_workbook_reads_a_row_paid_at_once_from_its_rule():
    """The workbook's live net of a row paid at once is the input of its rule (what a reviewer
    edits), as every other row's net is made of the table's inputs."""
    from enumerate.russian.report import RUSSIAN_REPORT
    v = variant(TABLE).to_dict()
    meaning = {"outcome": "instant_payout_royal_flush", "event": "instant_payout", "combinations": ["royal_flush"],
               "insured": False}
    analysis = {"variant": v, "russian": {"return_table_rows": [meaning]}}
    inputs = {name: value for name, _, value in RUSSIAN_REPORT.workbook_inputs(analysis)}
    assert inputs["instant_royal_flush"] == 1000 and inputs["instant_straight_flush"] == 250
    assert RUSSIAN_REPORT.net_terms(analysis) == {"instant_payout_royal_flush": [(1, ("instant_royal_flush",))]}


def test_the_strategy_chart_names_a_hand_paid_at_once():
    """A cell whose hands are paid at once has its own code in the chart and its legend (a
    certified table with draws and the instant payout once failed to render without it)."""
    from enumerate.draws.report import chart_rows, legend
    paid = {"hand_group": "straight flush", "up_rank": "A", "actions": {INSTANT_LABEL: {"exact": "1"}}}
    raised = {"hand_group": "pair of 2s", "up_rank": "A", "actions": {"keep and raise": {"exact": "3/4"}}}
    assert chart_rows([paid, raised], only_draws=False) == [["straight flush", "P", *[""] * 12],
                                                             ["pair of 2s", "R*", *[""] * 12]]
    assert chart_rows([paid, raised], only_draws=True) == []
    assert "P paid at once on the ante" in legend(variant(TABLE))
    assert "P paid at once" not in legend(variant(SIXTH))
