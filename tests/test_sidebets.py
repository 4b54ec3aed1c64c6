"""Side bets and rule variants of the base game, against independent direct enumeration."""
from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from reference import brute_force_counts, parse, poker_keys

from enumerate.core.counts import load_or_compute
from enumerate.core.engine import COMPLETIONS
from enumerate.core.memo import TableMemo
from enumerate.game.analysis import analyze_game as analyze
from enumerate.rules.hands import HandPaytable, HandSpec
from enumerate.rules.qualifier import parse_qualifier
from enumerate.rules.variant_file import load_builtin, parse_variant_text
from enumerate.sidebets import analysis as sa
from evaluator.errors import StudoddsError
from evaluator.ranking import N_HANDS, hand_indices, hands_of_indices

US = """
[raise_pays]
royal_flush = 100
straight_flush = 50
four_of_a_kind = 20
full_house = 7
flush = 5
straight = 4
three_of_a_kind = 3
two_pairs = 2
one_pair = 1
high_card = 1
"""


def variant(text: str):
    return parse_variant_text('name = "t"\n' + text + US, "t.toml")


def _category_and_rank(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Independent category (0..8, royal as 8 with top rank 12) and principal rank from the
    reference evaluator's key."""
    key = poker_keys(cards)
    digits = [(key // 13 ** (4 - j)) % 13 for j in range(5)]
    return key // 13 ** 5, digits[0]


@pytest.fixture(scope="module")
def palms(us_counts):
    return analyze(us_counts, load_builtin("palms-managua").variant)


@pytest.mark.slow
def test_palms_bonus_reproduces_the_published_return(palms):
    a = palms
    bonus = a.side_bets.bets[0]
    assert bonus.expected == Fraction(-12007, 162435)
    assert round(float(bonus.expected), 6) == -0.073919          # Wizard of Odds: -0.073919
    counts = {r.outcome: r.combinations for r in bonus.rows}
    assert counts["one_pair_8_to_A"] == 591_360 and counts["one_pair_2_to_7"] == 506_880
    # independently: every hand through the reference evaluator
    cards = hands_of_indices(np.arange(N_HANDS, dtype=np.int32))
    cat, rank = _category_and_rank(cards)
    assert int(((cat == 1) & (rank >= 6)).sum()) == 591_360
    assert int(((cat == 1) & (rank < 6)).sum()) == 506_880
    assert int((cat == 0).sum()) == counts["loses"]


@pytest.mark.slow
def test_best_of_six_equals_the_reference_on_sampled_situations(us_counts):
    best = sa.best_of_six(us_counts)
    rng = np.random.default_rng(5)
    rows = rng.integers(0, us_counts.hands.shape[0], 400)
    cols = rng.integers(0, 47, 400)
    from evaluator.ranking import STRENGTH_BY_INDEX
    for i, j in zip(rows, cols):
        six = list(us_counts.hands[i]) + [int(us_counts.up[i, j])]
        fives = np.array([sorted(c) for c in __import__("itertools").combinations(six, 5)])
        keys = poker_keys(fives)
        top = fives[int(np.argmax(keys))]
        assert STRENGTH_BY_INDEX[hand_indices(np.array([top], dtype=np.uint8))[0]] == best[i, j]


@pytest.mark.slow
def test_five_plus_one_counts(us_counts):
    a = analyze(us_counts, load_builtin("five-plus-one").variant)
    bet = a.side_bets.bets[0]
    rows = {r.outcome: r.combinations for r in bet.rows}
    assert bet.total == math.comb(52, 5) * 47
    # a royal among six cards: 4 royals x 47 sixth cards, each six-card set split 6 ways
    assert rows["royal_flush"] == 4 * 47 * 6
    assert bet.expected == sum((r.contribution for r in bet.rows), Fraction(0))


@pytest.mark.slow
@pytest.mark.parametrize("hand,up", [("8h 8d Kc 3s 2c", "As"), ("Ah Kd Qc 7s 2c", "5d"),
                                      ("Th Td 9c 9s 2c", "9d"), ("2h 3h 4h 5h 7d", "6h")])
def test_dealer_beaten_counts_equal_brute_force(hand, up):
    t = parse_qualifier("22").threshold
    table = load_or_compute(t)
    from enumerate.analysis.situation import counts_of
    cards, u = parse(hand), parse(up)[0]
    c = counts_of(table, tuple(sorted(cards)), u)
    pair_key = int(poker_keys(np.array([parse("2h 2d 3c 4s 5c")]))[0])
    _, win, tie, _ = brute_force_counts(cards, u, pair_key)
    assert (c.win, c.tie) == (win, tie)


@pytest.mark.slow
def test_power_play_against_the_published_counts(palms):
    a = palms
    power = a.side_bets.bets[1]
    every = {r.outcome: r.combinations for r in power.as_settled_on_the_cards}
    # every deal counted once per up card: five times the published deal count
    win, tie = every["any"] // 5, every["any_tie"] // 5
    assert (win, tie) == (499_213_035_912, 32_507_580)
    published_win, published_push = 498_699_759_720, 1_059_059_964
    # the published tally moved the same number of won and lost deals into pushes
    assert win - published_win == (published_push - tie) // 2 == 513_276_192


@pytest.mark.slow
def test_fold_forfeit_recomputes_the_strategy(us_counts):
    v = variant('[side_bets.x]\nkind = "player_and_up"\nfold_forfeits = true\nwager = 1\n'
                'pays = { three_of_a_kind = 7, straight = 10 }\n')
    a = analyze(us_counts, v)
    combined = a.side_bets.combined
    assert combined.situations_decided_differently > 0
    # independently, situation by situation, from the counts and the reference evaluator
    rng = np.random.default_rng(1)
    best = sa.best_of_six(us_counts)
    from enumerate.analysis.ev import ev_raise
    from enumerate.analysis.situation import counts_of
    from evaluator.ranking import CATEGORY_BY_STRENGTH
    value = {3: Fraction(7), 4: Fraction(10)}
    raised = sa.analyze_side_bets(us_counts, v).combined.raise_probability
    assert 0 < raised < 1
    for i, j in zip(rng.integers(0, us_counts.hands.shape[0], 60), rng.integers(0, 47, 60)):
        hand = tuple(int(x) for x in us_counts.hands[i])
        up = int(us_counts.up[i, j])
        ev = ev_raise(counts_of(us_counts, hand, up), hand, v)
        side = value.get(int(CATEGORY_BY_STRENGTH[best[i, j]]), Fraction(-1))
        assert (ev + side > -1 + -1) == bool(_combined_mask(us_counts, v)[i, j])


_MASKS = TableMemo("test: combined raise masks")


def _combined_mask(table, v):
    def make():
        from enumerate.raise_value import RaiseValue
        value = RaiseValue.of(v)
        total = value.form(table).astype(np.int64) - value.row_thresholds(table)
        bet = v.side_bets[0]
        g, d = sa.gain(bet, table, None)
        return total * d + g * value.scale > 0
    return _MASKS.get(table, v.name, make)


def _edge_by_hand(table, v) -> Fraction:
    """The house edge from the counts by plain integer sums per situation (no kernel):
    EV(raise) * n * d, with d the common denominator of the pays, against EV(fold) = -1."""
    from evaluator.ranking import CATEGORY_BY_STRENGTH
    r = v.raise_antes
    bonus = v.bonus_by_category()
    d = math.lcm(*(x.denominator for x in [v.ante_no_qualify, v.ante_win, *bonus,
                                           *(v.pay(c) for c in v.raise_pays)]))
    total = 0
    cat = CATEGORY_BY_STRENGTH[table.strength]
    lose = table.lose.astype(np.int64)
    for c in range(10):
        sel = cat == c
        pay = v.ante_win + r * v.pay(c)
        ev = (table.no_qualify[sel].astype(np.int64) * int(v.ante_no_qualify * d)
              + table.win[sel].astype(np.int64) * int(pay * d) - lose[sel] * (1 + r) * d
              + int(bonus[c] * d) * COMPLETIONS)
        best = np.maximum(ev, -d * COMPLETIONS)
        total += int((best.sum(axis=1) * table.weight[sel].astype(np.int64)).sum())
    return -Fraction(total, d * COMPLETIONS * table.n_situations)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["raise-one-ante", "ante-bonus", "max-payout"])
def test_rule_variant_edges_equal_direct_sums(us_counts, name):
    v = load_builtin(name).variant
    assert analyze(us_counts, v).house_edge == _edge_by_hand(us_counts, v)


@pytest.mark.slow
def test_rule_variants_reach_the_return_table(us_counts):
    v = load_builtin("raise-one-ante").variant
    a = analyze(us_counts, v)
    rows = {r.outcome: r.pays for r in a.rows}
    assert rows["dealer_wins"] == -2 and rows["player_wins_full_house"] == 1 + 7
    assert a.average_wager == 1 + a.raise_probability
    cap = load_builtin("max-payout").variant
    assert cap.pay(__import__("evaluator.ranking", fromlist=["Category"]).Category.ROYAL_FLUSH) == 50
    b = analyze(us_counts, cap)
    antes = [r.ante for r in b.rule_variants.by_ante]
    assert Fraction(100) in antes and antes == sorted(antes)
    assert all(x.house_edge <= y.house_edge for x, y in zip(b.rule_variants.by_ante, b.rule_variants.by_ante[1:]))


@pytest.mark.slow
def test_face_down_cost(us_counts):
    a = analyze(us_counts, load_builtin("nz-1994").variant)
    us = analyze(us_counts, load_builtin("us-common").variant)
    assert a.house_edge == us.house_edge
    played = sum((r.contribution for r in us.rows if r.outcome != "fold"), Fraction(0))
    assert a.rule_variants.face_down_cost == played / us.raise_probability + 3


@pytest.mark.slow
def test_disjoint_pair_counts_equal_direct_count():
    from evaluator.ranking import STRENGTH_BY_INDEX
    spec = HandPaytable.parse({"straight_flush": 1, "royal_flush": 2})
    cls = spec.classes().astype(np.int64)[STRENGTH_BY_INDEX]
    got = sa.disjoint_pair_counts(cls, 2, cls, 2)
    idx = np.flatnonzero(cls >= 0)
    cards = hands_of_indices(idx.astype(np.int32)).astype(np.int64)
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), cards), axis=1)
    disjoint = (masks[:, None] & masks[None, :]) == 0
    for a in range(2):
        for b in range(2):
            assert got[a, b] == int(disjoint[np.ix_(cls[idx] == a, cls[idx] == b)].sum())


@pytest.mark.slow
def test_envy_mean_is_linear_in_the_players():
    v = load_builtin("envy-bonus").variant
    table = load_or_compute(v.qualifier.threshold)
    a = analyze(table, v)
    envy = a.side_bets.bets[0].envy
    p = Fraction(4 * 100 + 36 * 25 + 624 * 5, N_HANDS)
    assert [e.envy_per_wager for e in envy] == [(n - 1) * p for n in range(1, 8)]
    assert envy[0].variance == a.side_bets.bets[0].variance


@pytest.mark.parametrize("text,needle", [
    ('[side_bets.b]\nkind = "player_hand"\npays = { "one_pair 8-A" = 1, "one_pair" = 2 }\n', "both cover"),
    ('[side_bets.b]\nkind = "coin"\npays = { flush = 1 }\n', "kind"),
    ('[side_bets.b]\nkind = "player_hand"\npays = { "one_pair 9-3" = 1 }\n', "low to high"),
    ('[side_bets.b]\nkind = "dealer_beaten"\npays = { any = 6 }\n', "dealer_at_least"),
    ('raise_antes = 0\n', "raise_antes"),
    ('[side_bets.b]\nkind = "player_and_up"\npays = { flush = 1 }\n[side_bets.b.envy]\npays = { flush = 1 }\n',
     "player_hand bet"),
    ('[side_bets.b]\nkind = "player_hand"\nfold_forfeits = true\npays = { flush = 1 }\n'
     '[side_bets.b.envy]\npays = { flush = 1 }\n', "stands on a fold"),
    ('[ante_bonus]\n"one_pair 8-A" = 1\n', "by category"),
    ('[max_payout]\namount = 100\n', "ante"),
])
def test_bad_rules_are_named(text, needle):
    with pytest.raises(StudoddsError, match=needle):
        variant(text)


def test_hand_specs_round_trip():
    for key in ["flush", "one_pair 8-A", "three_of_a_kind Q", "two_pairs+", "any"]:
        assert HandSpec.parse(key).key == key


def test_standard_variants_keep_their_json(us_counts):
    v = load_builtin("us-common").variant
    assert "side_bets" not in v.to_dict() and "raise_antes" not in v.to_dict()
    with pytest.raises(StudoddsError, match="game-protection"):
        from studodds import api
        api.hole_cards(replace(v, ante_bonus=load_builtin("ante-bonus").variant.ante_bonus), exposed=[0])


def test_a_side_bet_added_or_removed_is_one_rule_change():
    from enumerate.rules.compare import rule_changes
    a = load_builtin("palms-managua").variant.to_dict()
    b = load_builtin("us-common").variant.to_dict()
    changes = [c.text() for c in rule_changes(a, b)]
    assert changes == ["side_bets.bonus player_hand bet -> -", "side_bets.power_play dealer_beaten bet -> -",
                       "side_bets.super_power dealer_beaten bet -> -"]


@pytest.mark.slow
def test_diff_compares_side_bets():
    from studodds import api
    d = api.diff("palms-managua", "five-plus-one")
    edges = {n: (x, y) for n, x, y in d.side_bet_edges()}
    assert edges["bonus"] == (Fraction(12007, 162435), None)
    assert edges["five_plus_one"] == (None, Fraction(12816, 149695))
    a, b = d.a.side_bets, d.b.side_bets
    assert edges["combined game"] == (a.combined.house_edge_per_total_wager, b.combined.house_edge_per_total_wager)


@pytest.mark.slow
def test_certification_figures_follow_the_rule_variants(us_counts):
    from enumerate.analysis.certification import certification_figures
    from evaluator.ranking import Category
    v = load_builtin("ante-bonus").variant
    a = analyze(us_counts, v)
    ante, raise_ = certification_figures(us_counts, a, []).ante_and_raise()
    assert ante + raise_ == a.expected_return
    # the raise alone: r x pay on a win, -r when the dealer wins, nothing otherwise
    expected_raise = sum((r.probability * (v.raise_antes * v.pay(Category.from_key(r.outcome[len("player_wins_"):]))
                                           if r.outcome.startswith("player_wins_") else
                                           -v.raise_antes if r.outcome.startswith("dealer_wins") else 0)
                          for r in a.rows), Fraction(0))
    assert raise_ == expected_raise
    one = analyze(us_counts, load_builtin("raise-one-ante").variant)
    worst = certification_figures(us_counts, one, []).worst
    never_raised = 1 - Fraction(one.raised_situations + one.indifferent_situations, us_counts.n_situations)
    assert worst.average_wager == 1 + never_raised


@pytest.mark.slow
def test_workbook_has_the_side_bets():
    import io
    import json
    from pathlib import Path

    import openpyxl

    from studodds.reports.xlsx import workbook_bytes
    folder = Path(__file__).resolve().parent.parent / "results" / "palms-managua"
    summary = json.loads((folder / "summary.json").read_text())
    wb = openpyxl.load_workbook(io.BytesIO(workbook_bytes(summary, (folder / "strategy.csv").read_text())))
    rows = list(wb["Side bets"].iter_rows(min_row=2, values_only=True))
    bets = summary["analysis"]["side_bets"]["bets"]
    assert [r[3] for r in rows if r[0] == "bonus" and r[1] != "house edge"] == \
        [r["combinations"] for r in bets[0]["return_table"]]
    assert ("power_play", "house edge", "5858599339/47460072660") in [(r[0], r[1], r[7]) for r in rows]
