"""The progressive side bet: published break-even meters, sharing, long run, combined game."""
import math
from fractions import Fraction
from itertools import combinations

import pytest

from enumerate.progressive import analysis as sb
from enumerate.rules.progressive import MeterPay, Progressive
from enumerate.rules.variant_file import load_builtin, parse_variant_text
from evaluator.ranking import Category


def side(name):
    return load_builtin(name).variant.progressive


def test_published_break_even_meters():
    a = sb.break_even_meter(side("progressive-100-75-50"))
    b = sb.break_even_meter(side("progressive-150-100-50"))
    assert f"{float(a):,.2f}" == "263,205.26"
    assert f"{float(b):,.2f}" == "246,784.21"
    assert sb.return_to_player(side("progressive-100-75-50"), a) == 1      # exactly break-even


def test_hit_probabilities_come_from_the_evaluator():
    counts = sb.hit_counts()
    assert (counts[Category.ROYAL_FLUSH], counts[Category.STRAIGHT_FLUSH], counts[Category.QUADS],
            counts[Category.FULL_HOUSE], counts[Category.FLUSH]) == (4, 36, 624, 3744, 5108)


def test_capped_meter_pay_break_even():
    base = side("progressive-100-75-50")
    pays = dict(base.pays)
    pays[Category.ROYAL_FLUSH] = MeterPay(Fraction(1), Fraction(200_000))
    capped = Progressive(pays, base.contribution, base.seed, base.fold_forfeits)
    be = sb.break_even_meter(capped)
    assert be is not None and sb.return_to_player(capped, be) == 1 and be > 263205
    pays[Category.ROYAL_FLUSH] = MeterPay(Fraction(1), Fraction(1000))
    pays[Category.STRAIGHT_FLUSH] = MeterPay(Fraction(1, 10), Fraction(100))
    assert sb.break_even_meter(Progressive(pays, base.contribution)) is None


def _direct_distribution(deck, groups, players):
    """P(player 1's group, counts of the others per group) by enumerating every deal."""
    group_of = {}
    for g, hands in enumerate(groups):
        for h in hands:
            group_of[h] = g
    out = {}
    total = 0

    def deal(used, seats):
        nonlocal total
        if len(seats) == players:
            total += 1
            first = group_of.get(seats[0])
            counts = [0] * len(groups)
            for h in seats[1:]:
                if h in group_of:
                    counts[group_of[h]] += 1
            key = (first, tuple(counts))
            out[key] = out.get(key, 0) + 1
            return
        for h in combinations([c for c in range(deck) if c not in used], 5):
            h = frozenset(h)
            deal(used | h, seats + [h])

    deal(frozenset(), [])
    return {k: Fraction(v, total) for k, v in out.items()}, total


GROUPS = (
    (frozenset({0, 1, 2, 3, 4}), frozenset({4, 5, 6, 7, 8}), frozenset({1, 3, 5, 7, 9})),   # "straight flushes"
    (frozenset({7, 8, 9, 10, 11}), frozenset({0, 2, 4, 6, 8})),                          # "royals"
)


@pytest.mark.parametrize("deck,players", [(12, 2), pytest.param(15, 3, marks=pytest.mark.slow)])
def test_sharing_probabilities_equal_direct_enumeration(deck, players):
    exact = sb.joint_hit_distribution(GROUPS, players, deck=deck)
    direct, total = _direct_distribution(deck, GROUPS, players)
    assert total == math.prod(math.comb(deck - 5 * t, 5) for t in range(players))
    for key in set(exact) | set(direct):
        assert exact.get(key, 0) == direct.get(key, 0), key
    # and the shared awards
    pays = [MeterPay(Fraction(1, 10)), MeterPay(Fraction(1))]
    meter = Fraction(1000)
    direct_award = sum(p * sb.share_of(first, [c + (g == first) for g, c in enumerate(counts)], pays, meter)
                       for (first, counts), p in direct.items() if first is not None)
    assert sb.expected_award(exact, pays, meter) == direct_award


def _plain_walk(groups, max_total):
    """Every collection of pairwise disjoint hands, one by one, by count vector."""
    hands = [(g, h) for g, group in enumerate(groups) for h in group]
    out = {}

    def walk(start, used, counts):
        out[counts] = out.get(counts, 0) + 1
        if sum(counts) < max_total:
            for i in range(start, len(hands)):
                g, h = hands[i]
                if not (h & used):
                    walk(i + 1, used | h, counts[:g] + (counts[g] + 1,) + counts[g + 1:])

    walk(0, frozenset(), (0,) * len(groups))
    return out


@pytest.mark.parametrize("groups, most", [
    (GROUPS, 3),
    (sb.meter_hand_groups(side("progressive-100-75-50"))[1], 4),           # one component a suit
    ((sb.meter_hand_groups(side("progressive-100-75-50"))[1][0][:12],
      tuple(frozenset({4 * r + s for s in range(4)} | {k}) for r in (0, 5) for k in (48, 49, 50))), 3),   # quads join suits
])
def test_disjoint_collections_by_components_equal_the_plain_walk(groups, most):
    for n in range(1, most + 1):
        assert sb._disjoint_collections(tuple(groups), n) == _plain_walk(groups, n), n


@pytest.mark.slow
def test_sharing_at_a_real_table():
    s = side("progressive-100-75-50")
    one = sb.sharing(s, 263205, 1)
    two = sb.sharing(s, 263205, 2)
    seven = sb.sharing(s, 263205, 7)
    assert one.two_or_more_meter_hits == 0 and one.return_lowered_by == 0
    assert one.meter_award_per_player == one.single_player_meter_award
    assert 0 < two.two_or_more_meter_hits < seven.two_or_more_meter_hits < Fraction(1, 10**7)
    assert 0 < two.return_lowered_by < seven.return_lowered_by
    # two players both holding straight flushes (disjoint ones) is possible; the exact count of
    # ordered disjoint pairs of meter hands fixes the probability
    cats, groups = sb.meter_hand_groups(s)
    hands = [h for g in groups for h in g]
    pairs = sum(1 for a in hands for b in hands if not (a & b))
    assert two.two_or_more_meter_hits == Fraction(pairs, math.comb(52, 5) * math.comb(47, 5))


@pytest.mark.slow
def test_long_run_against_simulation():
    """Boosted hit probabilities so that a simulation converges; the renewal formulas hold for any."""
    probs = {Category.ROYAL_FLUSH: Fraction(1, 400), Category.STRAIGHT_FLUSH: Fraction(1, 90),
             Category.QUADS: Fraction(1, 60), Category.FULL_HOUSE: Fraction(1, 30), Category.FLUSH: Fraction(1, 25)}
    s = Progressive({Category.ROYAL_FLUSH: MeterPay(Fraction(1)), Category.STRAIGHT_FLUSH: MeterPay(Fraction(1, 10)),
                 Category.QUADS: Fraction(10), Category.FULL_HOUSE: Fraction(5), Category.FLUSH: Fraction(2)},
                contribution=Fraction(7, 10), seed=Fraction(50))
    lr = sb.long_run(s, probs)
    mean, se = sb.simulate_long_run(s, probs, wagers=3_000_000, seed=4)
    assert abs(mean - float(lr.return_to_player)) < 5 * se
    assert lr.return_to_player + lr.house_retention == 1
    # royal pays the whole meter: everything contributed returns to players, plus the seed
    fixed = sum(probs[k] * v for k, v in s.pays.items() if not isinstance(v, MeterPay))
    assert lr.return_to_player == s.contribution + fixed + probs[Category.ROYAL_FLUSH] * s.seed


@pytest.mark.slow
def test_long_run_partial_royal_share_against_simulation():
    probs = {Category.ROYAL_FLUSH: Fraction(1, 300), Category.STRAIGHT_FLUSH: Fraction(1, 50), Category.FLUSH: Fraction(1, 20)}
    s = Progressive({Category.ROYAL_FLUSH: MeterPay(Fraction(1, 2)), Category.STRAIGHT_FLUSH: MeterPay(Fraction(1, 4)),
                 Category.FLUSH: Fraction(3)}, contribution=Fraction(1, 2), seed=Fraction(20))
    lr = sb.long_run(s, probs)
    mean, se = sb.simulate_long_run(s, probs, wagers=3_000_000, seed=8)
    assert abs(mean - float(lr.return_to_player)) < 5 * se


def test_combined_game(us_counts):
    from enumerate.analysis.base import analyze
    v = load_builtin("progressive-100-75-50").variant
    be = sb.break_even_meter(v.progressive)
    c = sb.combined(us_counts, v, be)
    assert c.side_return == 0                         # exactly break-even, every side hand raised or not
    assert c.base_return == analyze(us_counts, v).expected_return
    assert c.strategy_changes == 0
    assert c.house_edge_per_total == -c.base_return / (analyze(us_counts, v).average_wager + 1)
    forfeit = parse_variant_text(load_builtin("progressive-100-75-50").text.replace("fold_forfeits = false",
                                                                                   "fold_forfeits = true"), "x")
    c2 = sb.combined(us_counts, forfeit, be, Fraction(1, 5))
    assert c2.fold_forfeits and c2.side_wager == Fraction(1, 5)
    # folded hands lose the side wager: the side return is the no-forfeit one minus what folds forfeit
    c3 = sb.combined(us_counts, v, be, Fraction(1, 5))
    assert c2.side_return <= c3.side_return


def test_progressive_cli_errors(us_counts):
    import tempfile

    from cli_runner import run_cli
    cwd = tempfile.mkdtemp()
    for args, needle in [(["progressive", "--meter", "abc"], "--meter"),
                         (["progressive", "--variant", "us-common"], "has no [progressive] side bet"),
                         (["progressive", "--side-wager", "0"], "--side-wager")]:
        r = run_cli(*args, "--quiet", cwd=cwd)
        assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr, r.stderr


@pytest.mark.slow
def test_capped_meter_long_run_is_simulated_with_a_confidence_interval():
    """A capped meter pay has no exact long-run formula: the return is simulated, labelled, and
    its 95% interval holds the exact return when the cap never binds; award quantiles respect
    the cap."""
    base = load_builtin("progressive-100-75-50").variant.progressive
    exact_rtp = sb.long_run(base).return_to_player
    loose = Progressive(pays={**base.pays, Category.ROYAL_FLUSH: MeterPay(Fraction(1), Fraction(10**9))},
                        contribution=base.contribution, seed=base.seed)
    lr = sb.long_run(loose)
    assert lr.return_to_player is None and lr.simulated_return is not None
    estimate, half = lr.simulated_return
    assert 0 < half < 0.02
    assert abs(estimate - float(exact_rtp)) <= half
    tight = Progressive(pays={**base.pays, Category.ROYAL_FLUSH: MeterPay(Fraction(1), Fraction(100_000))},
                        contribution=base.contribution, seed=base.seed)
    lr = sb.long_run(tight)
    assert all(v <= 100_000 for v in lr.royal_award_quantiles.values())
    assert max(lr.meter_at_royal_quantiles.values()) > 100_000          # the meter itself is not capped
    assert lr.simulated_return[0] < estimate                             # a binding cap lowers the return
    from enumerate.progressive.figures import figures
    from studodds.reports.progressive import text
    data = figures(tight)
    assert data["long_run"]["return_to_player_simulated"]["estimate"] == lr.simulated_return[0]
    assert "SIMULATED, 95% confidence interval" in text("capped", data)


# ---------------------------------------------------------------------------------------------
# reserve (reseed) rate, ceiling and overflow; the figures in regulators' terms

import dataclasses  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from evaluator.errors import StudoddsError  # noqa: E402

C = Category
#: Boosted odds, so that a wager-by-wager simulation of a few million wagers sees many cycles.
BOOSTED = {**sb.hit_probabilities(), C.ROYAL_FLUSH: Fraction(1, 2000), C.STRAIGHT_FLUSH: Fraction(1, 500)}
ROYAL_ONLY = Progressive({C.ROYAL_FLUSH: MeterPay(Fraction(1)), C.QUADS: Fraction(100)}, Fraction(7, 10), Fraction(100))
WITH_SF = dataclasses.replace(ROYAL_ONLY, pays={**ROYAL_ONLY.pays, C.STRAIGHT_FLUSH: MeterPay(Fraction(1, 10))})


def test_a_reserve_is_a_higher_seed_on_average():
    """The meter restarts at the seed plus the last cycle's reserve, independent of this cycle:
    every long-run figure is that of the seed + reserve / P(royal), exactly."""
    r = BOOSTED[C.ROYAL_FLUSH]
    for base in (ROYAL_ONLY, WITH_SF):
        with_reserve = sb.long_run(dataclasses.replace(base, reserve=Fraction(1, 20)), BOOSTED)
        higher_seed = sb.long_run(dataclasses.replace(base, seed=base.seed + Fraction(1, 20) / r), BOOSTED)
        assert with_reserve.return_to_player == higher_seed.return_to_player
        assert with_reserve.meter_at_royal == higher_seed.meter_at_royal


@pytest.mark.parametrize("rules,exact", [
    (dict(reserve=Fraction(1, 20)), True),
    (dict(ceiling=Fraction(2500)), True),                               # the pool drifts down: conservation
    (dict(ceiling=Fraction(800), reserve=Fraction(1, 20)), True),       # drifts up: every royal at the ceiling
    (dict(ceiling=Fraction(2500), overflow="retained"), False),
], ids=["reserve", "ceiling", "ceiling-reached", "retained"])
def test_long_run_with_reserve_and_ceiling_against_a_wager_by_wager_simulation(rules, exact):
    """The long-run return (exact where the module says so, else from the seeded cycles) against
    an independent simulation of the meter wager by wager: within 4 standard errors."""
    side = dataclasses.replace(ROYAL_ONLY, **rules)
    lr = sb.long_run(side, BOOSTED)
    mean, se = sb.simulate_long_run(side, BOOSTED, 4_000_000, seed=3)
    if exact:
        assert lr.return_to_player is not None and lr.simulated_return is None
        assert abs(float(lr.return_to_player) - mean) < 4 * se
    else:
        assert lr.return_to_player is None
        estimate, half = lr.simulated_return
        assert abs(estimate - mean) < 4 * math.hypot(se, half / 1.96)


def test_a_stable_pool_returns_every_contribution():
    """With the royal taking all of the meter and the overflow reseeded, nothing leaves but as
    awards: the return is the fixed pays + contribution + reserve + seed x P(royal)."""
    r = BOOSTED[C.ROYAL_FLUSH]
    side = dataclasses.replace(ROYAL_ONLY, ceiling=Fraction(5000), reserve=Fraction(1, 50))
    rtp = sb.long_run(side, BOOSTED).return_to_player
    assert rtp == sb.fixed_return(side, BOOSTED) + Fraction(7, 10) + Fraction(1, 50) + 100 * r
    assert sb.long_run_return(side, BOOSTED) == rtp
    reached = dataclasses.replace(ROYAL_ONLY, ceiling=Fraction(800), reserve=Fraction(1, 20))
    assert sb.long_run(reached, BOOSTED).return_to_player == sb.fixed_return(reached, BOOSTED) + 800 * r
    assert sb.long_run(dataclasses.replace(WITH_SF, ceiling=Fraction(2500)), BOOSTED).return_to_player is None


def test_no_reserve_or_ceiling_leaves_every_figure_as_it_was():
    for name in ("progressive-100-75-50", "progressive-500-250-100"):
        s = side(name)
        assert not s.carried and "reserve" not in s.to_dict() and "ceiling" not in s.to_dict()


def test_the_figures_in_regulators_terms():
    from enumerate.progressive.figures import figures
    s = side("progressive-100-75-50")
    d = figures(s)
    royal = next(h for h in d["hits"] if h["category"] == "royal_flush")
    assert Fraction(royal["one_in"]["exact"]) == 649_740
    reg = d["regulatory"]
    assert (Fraction(reg["return_fixed_awards"]["exact"]) + Fraction(reg["return_jackpot_awards"]["exact"])
            == Fraction(d["long_run"]["return_to_player"]["exact"]))
    assert reg["every_award_within_the_cap"] and reg["odds_cap_one_in"] == 100_000_000
    tight = figures(s, odds_cap=100_000)
    assert tight["regulatory"]["awards_rarer_than_the_cap"] == ["royal_flush"]
    assert not tight["regulatory"]["every_award_within_the_cap"]


PROGRESSIVE = """name = "p"
qualifier = "AK"
[raise_pays]
straight_flush = 50
four_of_a_kind = 20
full_house = 8
flush = 6
straight = 4
three_of_a_kind = 3
two_pairs = 2
one_pair = 1
high_card = 1
[progressive]
contribution = "15%"
seed = 10000
{extra}
[progressive.pays]
royal_flush = "100% meter"
flush = 50
"""


def test_reserve_ceiling_and_overflow_are_read_from_the_variant_file():
    v = parse_variant_text(PROGRESSIVE.format(extra='reserve = "2%"\nceiling = 250000\noverflow = "retained"'), "t")
    p = v.progressive
    assert (p.reserve, p.ceiling, p.overflow) == (Fraction(1, 50), Fraction(250000), "retained")
    assert v.to_dict()["progressive"]["reserve"]["exact"] == "1/50"
    assert v.to_dict()["progressive"]["overflow"] == "retained"


@pytest.mark.parametrize("extra,key", [
    ('reserve = "-1%"', "progressive.reserve"),
    ('reserve = "90%"', "progressive.reserve"),                 # 15% + 90% > 100% of the wager
    ("ceiling = 5000", "progressive.ceiling"),                  # below the seed
    ("ceiling = true", "progressive.ceiling"),
    ('ceiling = 20000\noverflow = "house"', "progressive.overflow"),
    ('overflow = "reseed"', "progressive.overflow"),            # no ceiling
    ("overflow = [1]", "progressive.overflow"),
    ("reserve_rate = 1", "progressive.reserve_rate"),
])
def test_a_bad_reserve_ceiling_or_overflow_is_one_line_naming_the_key(extra, key):
    with pytest.raises(StudoddsError, match=key.replace(".", r"\.")) as caught:
        parse_variant_text(PROGRESSIVE.format(extra=extra), "t")
    assert "\n" not in str(caught.value)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(["reserve", "ceiling", "overflow"]),
                       st.one_of(st.integers(-10**6, 10**9), st.text(max_size=12), st.booleans(), st.floats(),
                                 st.lists(st.integers(), max_size=2)), max_size=3))
def test_fuzz_the_reserve_ceiling_and_overflow(values):
    """Whatever the three keys hold, the variant file is read or refused in one line naming a
    key of the progressive -- never another error."""
    import json
    extra = "\n".join(f"{k} = {json.dumps(v, ensure_ascii=False) if not isinstance(v, float) or math.isfinite(v) else 1}"
                      for k, v in values.items())
    try:
        v = parse_variant_text(PROGRESSIVE.format(extra=extra), "t")
    except StudoddsError as exc:
        assert "progressive." in str(exc) and "\n" not in str(exc)
    else:
        assert v.progressive.reserve >= 0 and (v.progressive.ceiling is None or v.progressive.ceiling > 10000)
