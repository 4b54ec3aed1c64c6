"""A Russian Poker table with draws but no bought game, counted by rank patterns
(enumerate/russian/ranks.py), is the situation-class path's game to the last integer: per group
of situations (rank pattern, up rank) its sums -- situations by best action, EVs, fees, raise and
insurance shares, insurance staked, return-table rows, strategy chart -- are those of its
situations valued one by one (enumerate/russian/draws.py, itself held to the literal brute force
in test_russian_draws.py), under rules that move every term of the kernel's form: two
combinations (a six bought paid by all six cards), insurance lost or returned, the ante returned
or paid, the ante by hand, fees in halves.  A stored rank shard that does not add up is refused."""
import math
from itertools import combinations_with_replacement

import numpy as np
import pytest
from test_russian_final_hand import variant

from enumerate.core.slices import Slice
from enumerate.draws import _switch_ranks
from enumerate.draws.switch_ranks import group_situations, value_groups
from enumerate.russian import ranks
from enumerate.russian import slice as rs
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

RULE_SETS = [
    "[ante_pays]\nplayer_wins = 0\n[switch]\nfees = { 1 = 1, 2 = 1 }\n[buy_card]\nfee = 1\n[two_combinations]\n"
    "[insurance]\n",
    "[ante_pays]\ndealer_does_not_qualify_with = { straight = 4 }\n[switch]\nfees = { 1 = 1, 2 = \"1/2\" }\n"
    "[buy_card]\nfee = 2\n[two_combinations]\nstraight_with_pair = \"straight_and_pair\"\n[insurance]\n"
    "limit = \"the_payout\"\ndealer_qualifies = \"returned_unless_player_wins\"\n",
]
RANKS = "23456789TJQKA"
#: (hand ranks, up rank, categories): a six bought of four of a kind and a pair (4K + FH), a flush
#: (sixes of five and six suited cards), a pair with A-K and four of a suit (flush draws, two
#: combinations), trips (insurance), four to a straight with a pair (a six of a straight with a pair).
GROUPS = [("33332", "7", {Category.QUADS}), ("AK952", "7", {Category.FLUSH}),
          ("AKQ99", "5", {Category.ONE_PAIR}), ("888AK", "Q", {Category.TRIPS}),
          ("A5433", "K", {Category.ONE_PAIR})]


def pattern(text: str) -> np.ndarray:
    h = np.zeros(13, dtype=np.uint8)
    for c in text:
        h[RANKS.index(c)] += 1
    return h


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_group_by_rank_patterns_is_its_situations_one_by_one(rules):
    v = variant(rules)
    for text, up, categories in GROUPS:
        h, ru = pattern(text), RANKS.index(up)
        cards, weights = group_situations(h, ru, frozenset(categories))
        fields = ranks.shard_fields(v, h[None, :], np.array([ru], dtype=np.uint8), frozenset(categories))
        got = rs.SliceSums.from_json({"digest": "", **fields}, weights, ranks=True)
        want = rs.value_shard(v, cards, np.full(len(cards), 4 * ru, dtype=np.uint8), weights)
        for name in ("situations", "rows", "denominators", "ev", "fees", "staked", "raised", "insured", "chart"):
            assert getattr(got, name) == getattr(want, name), (text, up, name)


def test_the_six_index_counts_every_multiset_of_six_ranks_once():
    index = sorted(ranks.six_index(r) for r in combinations_with_replacement(range(13), 6))
    assert index == list(range(_switch_ranks.SIX_PATTERNS)) and math.comb(18, 6) == _switch_ranks.SIX_PATTERNS


def test_the_bought_game_is_left_to_the_class_path():
    buy = variant("[switch]\nfees = { 2 = 1 }\n[buy_game]\n")
    assert "buying the game" in ranks.supported(buy)
    assert rs.method(buy) == "situation_classes"
    with pytest.raises(StudoddsError, match="buying the game is not counted by rank patterns"):
        rs.method(buy, "rank_patterns")
    assert rs.method(variant(RULE_SETS[0])) == "rank_patterns"


def test_a_rank_shard_that_does_not_add_up_is_refused():
    weights = np.array([4, 8])
    good = {"digest": "", "situations": [12, 0, 0, 0, 0, 0, 0], "rows": [{"x": ["fold", "-1", 12 * 5]}] + [{}] * 6,
            "denominators": [5, 0, 0, 0, 0, 0, 0], "ev": "-12", "fees": "0", "staked": "0", "raised": "0",
            "insured": "0", "chart": {"a|2|keep and fold": 12}, "actions": [], "seconds": 0.0}
    assert rs.SliceSums.from_json(good, weights, ranks=True).situations[0] == 12
    for change, needle in [({"actions": [0, 0]}, "no per-class actions"),
                           ({"chart": {"a|2|keep and fold": 11}}, "do not add up"),
                           ({"situations": [11, 1, 0, 0, 0, 0, 0]}, "rows of 'keep' do not cover")]:
        with pytest.raises(ValueError, match=needle):
            rs.SliceSums.from_json({**good, **change}, weights, ranks=True)


def test_a_slice_by_rank_patterns_prints_its_method():
    v = variant(RULE_SETS[0])
    got = rs.slice_run(v, "", Slice.parse("A", "royal_flush")).run(threads=1)
    assert got.method == "rank_patterns" and got.to_dict()["method"] == "rank_patterns"
    assert "by rank patterns" in got.text() and got.expected > 100 and got.sums.raised == got.situations
    assert got.sums.situations[6] == got.situations                  # a royal flush buys a sixth card


def test_the_kernel_refuses_a_class_out_of_range():
    rules = ranks.RussianRankRules(variant(RULE_SETS[0]))
    rules.pclass = rules.pclass.copy()
    rules.pclass[100] = rules.cnet.shape[0]                  # one past the last class
    h = pattern("AK952")[None, :]
    with pytest.raises(ValueError, match="a class of final hand out of range"):
        value_groups(rules, variant(RULE_SETS[0]).qualifier.threshold, h, 5, frozenset([Category.FLUSH]))
