"""A Russian Poker table with draws, counted by rank patterns (enumerate/russian/ranks.py), is the
situation-class path's game to the last integer: per group of situations (rank pattern, up rank)
its sums -- situations by best action, EVs, fees, raise and insurance shares, insurance staked,
return-table rows, strategy chart, options taken by hand group -- are those of its situations valued one by one
(enumerate/russian/draws.py, itself held to the literal brute force in test_russian_draws.py),
under rules that move every term of the kernel's form: two combinations (a six bought paid by all
six cards), insurance lost or returned, the ante returned or paid, the ante by hand, fees in
halves; and with the bought game (the kernel's final term) under both readings of every purchase
rule, against up ranks a purchase never replaces and against those it may (the term's side part:
the dealer's hole cards of another suit).  The bounded sums -- leaves summed at once, side parts
by pairs (s0 ranks, a suit's dead ranks) -- are also held to the term without bounds (every leaf
by itself, every draw's suits apart), and the term's sums over leaves and draws to their leaves
and draws one by one.  A stored rank shard that does not add up is refused; the kernel's exact
comparison of two actions is held to fractions."""
import math
from fractions import Fraction
from itertools import combinations_with_replacement

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_russian_final_hand import variant

from enumerate.core.slices import Slice
from enumerate.draws import _switch_ranks
from enumerate.draws.switch_ranks import group_situations, value_groups
from enumerate.russian import options, ranks
from enumerate.russian import slice as rs
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
#: With the bought game: each rule set's purchase readings (the highest card replaced, again on
#: its rank, hands compared; the lowest, kept, the qualifier applying again, a fee of a half) and
#: groups against up ranks whose purchases never replace the up card -- quads, flushes (a
#: flush's bought games, the draws that make one), trips with A-K (purchases that gain), and an
#: exchange of three to five cards -- then against up ranks a purchase may replace (the side part).
BOUGHT = [
    ("[ante_pays]\nplayer_wins = 0\n[switch]\nfees = { 1 = 1, 2 = 1 }\n[buy_card]\nfee = 1\n[two_combinations]\n"
     "[insurance]\n[buy_game]\n", [("33332", "6", {Category.QUADS}), ("AK952", "5", {Category.FLUSH}),
                                    ("888AK", "6", {Category.TRIPS}), ("888AK", "9", {Category.TRIPS}),
                                    ("33332", "A", {Category.QUADS}), ("AK952", "Q", {Category.FLUSH})]),
    ("[ante_pays]\ndealer_does_not_qualify_with = { straight = 4 }\n[switch]\nfees = { 1 = 1, 2 = \"1/2\" }\n"
     "[buy_card]\nfee = 2\n[two_combinations]\nstraight_with_pair = \"straight_and_pair\"\n[insurance]\n"
     "limit = \"the_payout\"\ndealer_qualifies = \"returned_unless_player_wins\"\n[buy_game]\nfee = \"1/2\"\n"
     "replaces = \"lowest\"\nsame_rank = \"kept\"\nafter = \"qualifier_applies\"\n",
     [("33332", "T", {Category.QUADS}), ("AK952", "J", {Category.FLUSH}), ("888AK", "K", {Category.TRIPS}),
      ("888AK", "9", {Category.TRIPS})]),
    ("[ante_pays]\nplayer_wins = 0\n[switch]\nfees = { 3 = 1, 4 = 1, 5 = 1 }\n[two_combinations]\n[insurance]\n"
     "[buy_game]\n", [("AK952", "4", {Category.FLUSH}), ("AK952", "8", {Category.FLUSH})]),
    # an insured box barred from buying: trips and quads insure or buy, against up ranks a purchase
    # never replaces and one it may (the side part, valued leaf by leaf with its insurance)
    ("[ante_pays]\nplayer_wins = 0\n[switch]\nfees = { 1 = 1, 2 = 1 }\n[buy_card]\nfee = 1\n[two_combinations]\n"
     "[insurance]\n[buy_game]\ninsured = \"may_not_buy\"\n",
     [("AAAK2", "3", {Category.TRIPS}), ("AAAKK", "2", {Category.FULL_HOUSE}), ("AAAK7", "Q", {Category.TRIPS})]),
]


def pattern(text: str) -> np.ndarray:
    h = np.zeros(13, dtype=np.uint8)
    for c in text:
        h[RANKS.index(c)] += 1
    return h


def _both_ways(v, text: str, up: str, categories) -> rs.SliceSums:
    """The group's sums by rank patterns, held to its situations valued one by one."""
    h, ru = pattern(text), RANKS.index(up)
    cards, weights = group_situations(h, ru, frozenset(categories))
    fields = ranks.shard_fields(v, h[None, :], np.array([ru], dtype=np.uint8), frozenset(categories))
    got = rs.rank_shard_sums(fields, "", weights, shard=False)
    want = rs.value_shard(v, cards, np.full(len(cards), 4 * ru, dtype=np.uint8), weights)
    for name in ("situations", "rows", "denominators", "ev", "fees", "staked", "raised", "insured", "qualifies", "chart",
                 "options"):
        assert getattr(got, name) == getattr(want, name), (text, up, name)
    assert got.options and sum(c[0] for c in got.options.values()) == got.raised    # the cells share out the raises
    assert sum(c[1] for c in got.options.values()) == got.insured
    return got


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_group_by_rank_patterns_is_its_situations_one_by_one(rules):
    v = variant(rules)
    for text, up, categories in GROUPS:
        _both_ways(v, text, up, categories)


@pytest.mark.slow
@pytest.mark.parametrize("rules,groups", BOUGHT)
def test_a_group_with_the_bought_game_by_rank_patterns_is_its_situations_one_by_one(rules, groups):
    v = variant(rules)
    for text, up, categories in groups:
        got = _both_ways(v, text, up, categories)
        assert any("game bought" in label for kind in got.rows for label in kind), (text, up)
        assert any(c[3] > 0 for c in got.options.values()), (text, up)     # the cells count the games bought
    if "may_not_buy" in rules:                                  # the reading changes what is counted
        free = variant(rules.replace('insured = "may_not_buy"\n', ""))
        for text, up, categories in (groups[0], groups[-1]):
            h, ru = pattern(text)[None, :], np.array([RANKS.index(up)], dtype=np.uint8)
            barred, allowed = (ranks.shard_fields(t, h, ru, frozenset(categories)) for t in (v, free))
            assert Fraction(barred["ev"]) < Fraction(allowed["ev"]) and barred["insured"] != allowed["insured"]
    plain = variant(rules.split("[buy_game]")[0])
    text, up, categories = groups[-1]
    fields = ranks.shard_fields(plain, pattern(text)[None, :], np.array([RANKS.index(up)], dtype=np.uint8),
                                frozenset(categories))
    assert Fraction(fields["ev"]) < got.ev                      # buying the game is worth something here


@pytest.mark.slow
def test_a_straight_the_replacement_ties_by_rank_patterns_is_its_situations_one_by_one():
    """A straight kept against a nine: a dealer A Q J T 9 who buys a king ties it (a push), or
    beats it with a straight flush when his four kept cards are of the up card's suit -- flush
    moves from a push to a loss, counted by the keys as by the situations one by one."""
    v = variant("[ante_pays]\nplayer_wins = 0\n[switch]\nfees = { 1 = 1 }\n[buy_game]\n")
    got = _both_ways(v, "9TJQK", "9", {Category.STRAIGHT})
    assert any("game bought, push" in label for kind in got.rows for label in kind)


def test_the_six_index_counts_every_multiset_of_six_ranks_once():
    index = sorted(ranks.six_index(r) for r in combinations_with_replacement(range(13), 6))
    assert index == list(range(_switch_ranks.SIX_PATTERNS)) and math.comb(18, 6) == _switch_ranks.SIX_PATTERNS


@pytest.mark.slow
@pytest.mark.parametrize("rules,groups", BOUGHT)
def test_the_bounded_sums_are_every_leaf_and_every_draws_suits_apart(rules, groups):
    """The kernel's sums with the term's bounds (leaves summed at once, side parts by pairs) are
    those without them (every leaf by itself, the side parts situation by situation with every
    suit of the draws apart) -- which the side-part groups above only reach where a mask's leaves
    do not all raise or all fold."""
    v = variant(rules)
    rr = ranks.rank_rules(v)
    for text, up, categories in groups:
        h, ru = pattern(text)[None, :], np.array([RANKS.index(up)], dtype=np.uint8)
        want = ranks.shard_fields(v, h, ru, frozenset(categories))
        try:
            rr.bounded = False
            got = ranks.shard_fields(v, h, ru, frozenset(categories))
        finally:
            rr.bounded = True
        for name in ("situations", "rows", "denominators", "ev", "fees", "staked", "raised", "insured", "qualifies", "chart"):
            assert got[name] == want[name], (text, up, name)


def test_the_bought_game_by_rank_patterns_against_every_up_card():
    buy = variant("[switch]\nfees = { 2 = 1 }\n[buy_game]\n")
    lowest = variant("[switch]\nfees = { 2 = 1 }\n[buy_game]\nreplaces = \"lowest\"\n")
    for v in (buy, lowest):
        assert ranks.supported(v) is None
        assert rs.method(v) == "rank_patterns" and rs.method(v, sl=Slice.parse("A")) == "rank_patterns"
    assert rs.method(variant(RULE_SETS[0])) == "rank_patterns"


def test_the_purchase_term_checks_its_shapes():
    from enumerate.russian import _bought
    from enumerate.russian.bought import rank_sets
    one = np.ones(1, dtype=np.int64)
    rules = _bought.Rules(4, rank_sets(1, 1277, True), -3, 1, 1277, False, True, 1)
    with pytest.raises(ValueError, match="shapes do not match"):
        _bought.RankTerm(rules, one, np.ones(2, dtype=np.int64), np.ones(7, dtype=np.int64))
    assert _bought.RankTerm(rules, one, one, np.ones(7, dtype=np.int64)).capsule() is not None


def test_the_kernel_refuses_anything_but_a_final_term_capsule():
    rules = ranks.RussianRankRules(variant(RULE_SETS[0]))
    rules.term = lambda ru: object()                          # not a capsule
    with pytest.raises(ValueError, match="invalid PyCapsule"):
        value_groups(rules, variant(RULE_SETS[0]).qualifier.threshold, pattern("AK952")[None, :], 5,
                     frozenset([Category.FLUSH]))


_BIG = st.integers(-(2**100), 2**100)
_UNIT = st.integers(1, 2**40)


@settings(max_examples=300, deadline=None)
@given(_BIG, st.integers(0, 6), _BIG, st.integers(0, 6), st.lists(_UNIT, min_size=7, max_size=7),
       st.lists(st.integers(1, 2**24), min_size=7, max_size=7), st.lists(st.integers(0, 7), min_size=7, max_size=7),
       st.integers(1, 4))
def test_the_kernels_exact_comparison_of_two_actions_is_that_of_fractions(va, ka, vb, kb, tden, unit, fee, fee_den):
    got = _switch_ranks.better_for_tests(va, ka, vb, kb, tden, unit, fee, fee_den)
    ev_a = Fraction(va, tden[ka] * unit[ka]) - Fraction(fee[ka], fee_den)
    ev_b = Fraction(vb, tden[kb] * unit[kb]) - Fraction(fee[kb], fee_den)
    assert got == (va > vb if ka == kb else ev_a > ev_b)


def test_a_rank_shard_that_does_not_add_up_is_refused():
    weights = np.array([4, 8])
    good = {"digest": "", "situations": [12, 0, 0, 0, 0, 0, 0], "rows": [{"x": ["fold", "-1", 12 * 5]}] + [{}] * 6,
            "denominators": [5, 0, 0, 0, 0, 0, 0], "ev": "-12", "fees": "0", "staked": "0", "raised": "0",
            "insured": "0", "qualifies": "6", "chart": {"a|2|keep and fold": 12}, "actions": [], "seconds": 0.0}
    assert rs.SliceSums.from_json(good, weights, ranks=True).situations[0] == 12
    for change, needle in [({"actions": [0, 0]}, "no per-class actions"),
                           ({"chart": {"a|2|keep and fold": 11}}, "do not add up"),
                           ({"situations": [11, 1, 0, 0, 0, 0, 0]}, "rows of 'keep' do not cover")]:
        with pytest.raises(ValueError, match=needle):
            rs.SliceSums.from_json({**good, **change}, weights, ranks=True)
    assert rs.SliceSums.from_json(good, weights, ranks=True).options is None      # kept before the options were
    cells = {**good, "options": {"a|2": ["0", "0", "0", "0"]}}
    assert rs.SliceSums.from_json(cells, weights, ranks=True).options == {"a|2": [0, 0, 0, 0]}
    for cells_json, needle in [([], "not an object"), ({"a|3": ["0"] * 4}, "do not cover"), ({}, "do not cover"),
                            ({"a|2": ["0"] * 3}, "not \\[raised"), ({"a|2": "0000"}, "not \\[raised"),
                            ({"a|2": ["1", "2", "0", "0"]}, "out of range"), ({"a|2": ["13", "0", "0", "0"]}, "out of range"),
                            ({"a|2": ["1", "0", "1", "2"]}, "out of range"), ({"a|2": ["-1", "0", "0", "0"]}, "out of range"),
                            ({"a|2": ["x", "0", "0", "0"]}, "not an exact fraction"), ({"a|2": ["1", "0", "0", "0"]}, "do not add up")]:
        with pytest.raises(ValueError, match=needle):
            rs.SliceSums.from_json({**good, "options": cells_json}, weights, ranks=True)


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6),
                    lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=6), c, max_size=4),
                    max_leaves=12))
def test_stored_option_cells_of_any_shape_are_read_or_refused_with_a_value_error(data):
    chart = {"a|2|keep and fold": 12}
    try:
        got = options.from_json(data, chart)
    except ValueError:
        return
    assert set(got) == {"a|2"} and all(len(c) == 4 for c in got.values())


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


_LEAF_RULES = ["[ante_pays]\nplayer_wins = 0\n[switch]\nfees = { 2 = 1 }\n[two_combinations]\n[insurance]\n[buy_game]\n",
               "[switch]\nfees = { 2 = 1 }\n[buy_game]\nfee = \"1/2\"\nreplaces = \"lowest\"\nsame_rank = \"kept\"\n"
               "after = \"qualifier_applies\"\n"]


def _key_case(rules, ru, dead, mask, opts):
    """A term against up rank ru, the unseen cards of each rank (the final hand and two discards
    from ``dead``: 44 unseen), the unseen ranks ``mask`` allows of a suit, and distinct options."""
    v = variant(rules)
    rr = ranks.rank_rules(v)
    rr.term(ru)
    term = rr._terms[ru, True]
    count = [0] * 13
    count[ru] = 1
    for r in dead:                                  # the final hand and the two discards: 44 cards unseen
        while count[r] == 4:
            r = (r + 1) % 13
        count[r] += 1
    unseen = np.array([4 - c for c in count], dtype=np.int32)
    assert unseen.sum() == 44
    us = mask & ~(1 << ru) & sum(1 << r for r in range(13) if unseen[r])
    seen, opt = set(), []
    for r, a, b in opts:
        if (us >> r) & 1 and r not in seen:
            seen.add(r)
            opt.append((r, a, b))
    return rr, term, unseen, us, opt


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_LEAF_RULES), st.integers(0, 12), st.integers(2467, 7461),
       st.lists(st.integers(0, 12), min_size=7, max_size=7), st.integers(0, 2**13 - 1),
       st.lists(st.tuples(st.integers(0, 12), st.integers(1, 3), st.integers(1, 3)), max_size=5), st.integers(1, 6))
def test_a_keys_corrections_summed_over_leaves_are_its_leaves_one_by_one(rules, up, strength, dead, mask, opts, mult):
    """The bought game's s0 corrections of one key summed over the leaves by a product and a
    polynomial per rank set equal the leaves valued one by one, each within the key's bounds."""
    from enumerate.russian import _bought
    rr, term, unseen, unseen0, opt = _key_case(rules, up, dead, mask, opts)
    got = _bought.leaf_sum_for_tests(term, unseen, strength, int(rr.pclass[strength]), 2, unseen0,
                                     [o[0] for o in opt], [o[1] for o in opt], [o[2] for o in opt], mult)
    assume(got is not None)                         # a key whose purchases may gain, of one kind of flush move a set
    assert got[0] == got[1]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_LEAF_RULES), st.integers(5, 12), st.integers(2467, 7461),
       st.lists(st.integers(0, 12), min_size=7, max_size=7), st.integers(0, 2**13 - 1),
       st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3), st.integers(1, 3)), max_size=5), st.integers(1, 6))
def test_a_keys_side_part_summed_over_draws_is_its_draws_one_by_one(rules, up, strength, dead, mask, opts, mult):
    """The bought game's side part of one key (the up card replaced, the hole cards of another
    suit) summed over draws by sets and subsets of their moves equals the draws valued one by
    one, each within the key's bounds."""
    from enumerate.russian import _bought
    rr, term, unseen, us, opt = _key_case(rules, up, dead, mask, opts)
    got = _bought.leaf_sum_for_tests(term, unseen, strength, int(rr.pclass[strength]), 2, us,
                                     [o[0] for o in opt], [o[1] for o in opt], [o[2] for o in opt], mult, side=True)
    assume(got is not None and got[2])              # a key whose purchases may gain, with a side part
    assert got[0] == got[1]


@pytest.mark.slow
def test_a_slice_with_the_bought_game_against_an_up_card_a_purchase_replaces():
    v = variant(BOUGHT[0][0])
    got = rs.slice_run(v, "", Slice.parse("9", "royal_flush")).run(threads=1)
    assert got.method == "rank_patterns" and got.sums.situations[6] == got.situations
    assert "class by class" not in got.text()
    assert any("game bought" in r.event for r in got.return_rows())
