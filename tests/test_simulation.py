"""The simulator (enumerate.simulation): its generator against numpy's Philox, its shuffle against a
plain Python reimplementation of the documented algorithm, its raise bits against the count
table, its settlement cells against an independent evaluation of the same games, reproducibility
over threads, chunks and a Dask cluster, the statistics, and that the verdict catches a wrong pay."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from cli_runner import run_cli
from reference import QUALIFIER_KEY, poker_keys

from enumerate.analysis.situation import locate
from enumerate.rules.progressive import MeterPay, Progressive
from enumerate.simulation import _simulate, settle
from enumerate.simulation.simulate import (
    CHUNK,
    Dealt,
    Tally,
    exact_figures,
    make_plan,
    raise_mask,
    run,
    run_many,
    simulate,
)
from enumerate.simulation.statistics import chi_square, chi_square_sf, mean_estimate
from evaluator.errors import StudoddsError
from evaluator.ranking import Category
from studodds.api import load_variant

SEED = (0x0123456789ABCDEF << 64) | 0xFEDCBA9876543210
K0, K1 = SEED & (2**64 - 1), SEED >> 64


@pytest.fixture(scope="module")
def us_plan(us_counts):
    v = load_variant("us-common")
    mask = raise_mask(us_counts, v)
    return v, mask, make_plan(us_counts, v, mask)


# ------------------------------------------------------------------------------ the generator

@pytest.mark.parametrize("c1, c2", [(1, 0), (2, 0), (77, 1), (2**40 + 5, 1), (2**64 - 1, 0)])
def test_philox_is_numpys(c1, c2):
    """The block at counter (j, c1, c2, 0) is numpy.random.Philox(key=seed, counter=(c2 << 128) | (c1 << 64))'s
    j-th block."""
    words = np.random.Philox(key=SEED, counter=(c2 << 128) | (c1 << 64)).random_raw(8).tolist()
    assert _simulate.philox_block(K0, K1, 1, c1, c2, 0) + _simulate.philox_block(K0, K1, 2, c1, c2, 0) == words


def _first_word(seed: int, game: int) -> int:
    """Game g's first word: word g mod 4 of the block at counter (1, g // 4, 0, 0)."""
    return int(np.random.Philox(key=seed, counter=(game // 4) << 64).random_raw(4)[game % 4])


def _python_deal(seed: int, game: int) -> list[int]:
    """The documented shuffle, written plainly: the game's first word, then (for a rejected word)
    the words of its own stream; ten mixed-radix digits by successive multiplication, a word
    rejected when the final low word < 2^64 mod P."""
    P = 1
    for m in range(43, 53):
        P *= m
    words = [_first_word(seed, game)]
    words += np.random.Philox(key=seed, counter=(1 << 128) | (game << 64)).random_raw(64).tolist()
    for w in words:
        digits, r = [], w
        for i in range(10):
            r *= 52 - i
            digits.append(r >> 64)
            r &= 2**64 - 1
        if r >= (2**64) % P:
            break
    assert (w * P) >> 64 == sum(d * np.prod([52 - j for j in range(i + 1, 10)], dtype=object) for i, d in enumerate(digits))
    deck = list(range(52))
    for i, d in enumerate(digits):
        deck[i], deck[i + d] = deck[i + d], deck[i]
    return deck[:10]


def test_deal_follows_the_documented_algorithm():
    dealt = _simulate.deal_games(K0, K1, 1000, 300)
    assert [_python_deal(SEED, 1000 + g) for g in range(300)] == dealt.tolist()


@pytest.mark.slow
def test_rejected_words_are_replaced():
    """Find games whose first word is rejected (about 3 in 1,000) and check them too."""
    P = _simulate.DEALS
    limit = (2**64) % P
    rejected = []
    for g in range(1, 40_000):
        w = _first_word(SEED, g)
        if (w * P) & (2**64 - 1) < limit:
            rejected.append(g)
    assert rejected
    for g in rejected[:20]:
        assert _simulate.deal_games(K0, K1, g, 1)[0].tolist() == _python_deal(SEED, g)


def test_deals_are_uniform():
    d = _simulate.deal_games(K0, K1, 0, 520_000)
    assert all(len(set(row)) == 10 for row in d[:5000].tolist())
    for position in range(10):
        counts = np.bincount(d[:, position], minlength=52)
        test = chi_square([(str(c), int(n), Fraction(1, 52)) for c, n in enumerate(counts)])
        assert test.p_value > 1e-4, (position, test)


# ------------------------------------------------------------------------------ strategy and cells

def test_raise_bits_are_the_count_tables_decisions(us_counts, us_plan):
    v, mask, plan = us_plan
    rng = np.random.default_rng(3)
    for _ in range(3000):
        cards = rng.choice(52, 6, replace=False)
        hand, up = tuple(sorted(int(c) for c in cards[:5])), int(cards[5])
        row, col = locate(us_counts, hand, up)
        assert plan.decision(hand, up) == bool(mask[row, col]), (hand, up)


@pytest.mark.slow
def test_cells_match_an_independent_evaluation(us_counts, us_plan):
    """The kernel's cells for 20,000 games equal a count made here: the same cards, the tests'
    own evaluator, the decision from the count table via locate()."""
    v, mask, plan = us_plan
    n = 20_000
    dealt = _simulate.deal_games(K0, K1, 5_000, n).astype(np.int64)
    pk, dk = poker_keys(dealt[:, :5]), poker_keys(dealt[:, 5:])
    cat = pk // 13**5
    is_royal = (cat == 8) & ((dealt[:, :5] // 4).min(axis=1) == 8)
    category = np.where(is_royal, 9, cat)
    expected = np.zeros(50, np.int64)
    for g in range(n):
        row, col = locate(us_counts, tuple(sorted(dealt[g, :5].tolist())), int(dealt[g, 5]))
        if not mask[row, col]:
            state = settle.FOLDED
        elif dk[g] < QUALIFIER_KEY:
            state = settle.NO_QUALIFY
        else:
            state = settle.WIN if pk[g] > dk[g] else settle.TIE if pk[g] == dk[g] else settle.LOSE
        expected[state * 10 + category[g]] += 1
    tally = plan.run(SEED, 5_000, n, threads=2)
    assert tally.cells.tolist() == expected.tolist()


def test_same_counts_on_any_threads_and_chunks(us_plan):
    v, mask, plan = us_plan
    one = plan.run(SEED, 10, 300_001, threads=1)
    two = plan.run(SEED, 10, 300_001, threads=2)
    a, b = plan.run(SEED, 10, 123_457, threads=2), plan.run(SEED, 123_467, 176_544, threads=1)
    a.add(b)
    for t in (two, a):
        assert t.cells.tolist() == one.cells.tolist()


def test_a_cancelled_chunk_stops(us_plan):
    v, mask, plan = us_plan
    tally = plan.run(SEED, 0, 1_000_000, threads=2, cancel=np.ones(1, np.int32))
    assert tally.cells.sum() == 0


# ------------------------------------------------------------------------------ money and statistics

def test_settlement_of_the_rules():
    v = load_variant("max-payout")                           # raise capped at 100 antes
    assert settle.winning_hand(v, Category.ROYAL_FLUSH) == 1 + 100
    assert settle.winning_hand(v, Category.FULL_HOUSE) == 1 + 2 * 7
    b = load_variant("ante-bonus")
    assert settle.cell_net(b, settle.LOSE, Category.FLUSH) == -3 + 2
    assert settle.cell_row(b, settle.TIE, Category.FLUSH) == "push_bonus_flush"
    assert settle.cell_net(load_variant("raise-one-ante"), settle.LOSE, Category.HIGH_CARD) == -2


def test_meter_ledger_by_hand():
    side = Progressive({Category.ROYAL_FLUSH: MeterPay(Fraction(1)), Category.STRAIGHT_FLUSH: MeterPay(Fraction(1, 10))},
                       contribution=Fraction(1, 2), seed=Fraction(10))
    ledger = settle.MeterLedger(side)
    assert ledger.award(3, Category.STRAIGHT_FLUSH) == Fraction(1, 10) * (10 + 2)        # games 0..3 contributed
    assert ledger.award(5, Category.ROYAL_FLUSH) == Fraction(108, 10) + 1
    assert ledger.meter == 10 and ledger.cycles == 1 and ledger.sum_k == 6
    assert ledger.sum_y == Fraction(12, 10) + Fraction(118, 10)


def test_statistics():
    assert abs(chi_square_sf(3.841458820694124, 1) - 0.05) < 1e-12
    assert abs(chi_square_sf(30.0, 3) - 1.3800570312932545e-06) < 1e-15
    e = mean_estimate([1, 1, 2], [Fraction(-1), Fraction(1), Fraction(0)], Fraction(0))
    assert e.value == 0 and e.z == 0
    impossible = chi_square([("a", 5, Fraction(1)), ("b", 1, Fraction(0))])
    assert impossible.p_value == 0 and impossible.impossible == ("b",)
    rare = chi_square([("a", 99_990, Fraction(9999, 10000)), ("b", 9, Fraction(9, 100000)), ("c", 1, Fraction(1, 100000))])
    assert rare.pooled == ("c", "b") and rare.dof == 1


# ------------------------------------------------------------------------------ the verdict

@pytest.mark.slow
def test_quick_run_agrees_and_a_wrong_pay_is_caught(us_counts, monkeypatch):
    v = load_variant("us-common")
    good = simulate(us_counts, v, 2_000_000, seed=1)
    assert good.passed, good.verdict
    real = settle.winning_hand
    monkeypatch.setattr(settle, "winning_hand",
                        lambda variant, c: real(variant, c) + (2 if c == Category.ONE_PAIR else 0))  # one pair pays 2 to 1
    bad = simulate(us_counts, v, 2_000_000, seed=1)
    assert not bad.passed and "base game (per ante)" in bad.verdict
    assert bad.frequencies[0].test.p_value == good.frequencies[0].test.p_value   # the cells themselves are unchanged


@pytest.mark.slow
def test_a_flush_paid_six_instead_of_five_is_caught_at_1e8(us_counts, monkeypatch):
    real = settle.winning_hand
    monkeypatch.setattr(settle, "winning_hand",
                        lambda variant, c: real(variant, c) + (2 if c == Category.FLUSH else 0))
    bad = simulate(us_counts, load_variant("us-common"), 100_000_000, seed=2026)
    assert not bad.passed
    assert any(r.estimate.z is not None and r.estimate.z > 4 for r in bad.returns)


BUILTINS = ["ante-bonus", "cyberstud", "envy-bonus", "five-plus-one", "max-payout", "nz-1994", "palms-managua",
            "progressive-100-75-50", "progressive-150-100-50", "progressive-250-150-100", "progressive-500-100-50",
            "progressive-500-250-100", "raise-one-ante", "royal-200", "uk-casino-stud", "us-common"]


#: Built-ins with switching or a sixth card: the simulator plays the plain game and refuses them.
DRAWS = ["oasis-one-card", "sixth-card"]


def test_builtins_listed():
    from studodds import api
    assert sorted(v.name for v in api.variants()) == sorted(BUILTINS + DRAWS)
    for name in DRAWS:
        with pytest.raises(StudoddsError, match="the simulation .* is not supported for this kind of table"):
            api.simulate(name, games=1000)


@pytest.mark.slow
def test_every_builtin_agrees_at_1e8():
    """10^8 games of every built-in, seed 2026: every |z| < 4 and every chi-square p > 1e-4.  The
    games are dealt and ranked once for all sixteen (each table's counts are the ones it gives
    alone: test_one_deal_settled_under_many_tables_is_each_tables_own)."""
    from studodds import api
    runs = api.simulate_many(BUILTINS, games=100_000_000, seed=2026)
    assert [s.variant for s in runs] == BUILTINS
    for s in runs:
        assert s.games == 100_000_000
        assert s.passed, f"{s.variant}: {s.verdict}"
        assert all(r.estimate.exact is not None for r in s.returns if r.name.startswith("base"))


#: Tables whose kernel paths differ: a side bet on the player's hand and the up card (best five
#: of six), a progressive with a meter award, a side bet lost on a fold (the combined strategy).
SHARED = ["five-plus-one", "progressive-100-75-50", "palms-managua"]


@pytest.fixture(scope="module")
def shared_plans(us_counts):
    vs = [load_variant(n) for n in SHARED]
    assert {v.qualifier for v in vs} == {load_variant("us-common").qualifier}      # us_counts is their table
    return vs, [make_plan(us_counts, v, raise_mask(us_counts, v)) for v in vs]


def test_one_deal_settled_under_many_tables_is_each_tables_own(shared_plans, monkeypatch):
    """run_many deals and ranks each chunk once and settles it under every plan: the counts,
    side-bet bins, progressive bins and meter ledger of each plan equal the plan run alone, over
    four chunks (the meter's awards in game order across them; chunks of 2^18 games here) and on
    any number of threads."""
    from enumerate.simulation import simulate as sim
    monkeypatch.setattr(sim, "CHUNK", 1 << 18)
    vs, plans = shared_plans
    games = 3 * (1 << 18) + 54_321
    many = run_many(plans, vs, games, 99, threads=2)
    for v, plan, (tally, ledger) in zip(vs, plans, many):
        alone, alone_ledger = run(plan, v, games, 99, threads=1)
        assert tally.games == alone.games == games
        assert tally.cells.tolist() == alone.cells.tolist(), v.name
        assert tally.bets.tolist() == alone.bets.tolist(), v.name
        assert tally.progressive.tolist() == alone.progressive.tolist(), v.name
        assert (ledger is None) == (alone_ledger is None)
        if ledger is not None:
            assert (ledger.paid, ledger.cycles) == (alone_ledger.paid, alone_ledger.cycles)
    assert any(t.bets.any() for t, _ in many) and any(ledger is not None and ledger.cycles for _, ledger in many)
    # one chunk: Plan.run from games dealt once gives the counts of dealing them itself, and meter events on uneven thread splits
    for threads in (1, 3):
        dealt = Dealt.deal(SEED, 777, 100_003, need_six=True, threads=threads)
        for plan in plans:
            a, b = plan.run(SEED, 777, 100_003, threads, dealt=dealt), plan.run(SEED, 777, 100_003, threads)
            assert a.cells.tolist() == b.cells.tolist() and a.bets.tolist() == b.bets.tolist()
            assert a.progressive.tolist() == b.progressive.tolist()
            assert a.event_games.tolist() == b.event_games.tolist()
            assert a.event_categories.tolist() == b.event_categories.tolist()
        assert sum(len(plan.run(SEED, 777, 100_003, threads, dealt=dealt).event_games) for plan in plans) > 0    # a meter award in it
    assert dealt.up.tolist() == _simulate.deal_games(K0, K1, 777, 100_003)[:, 5].tolist()


def test_settle_ranked_refuses_short_buffers(us_plan):
    v, mask, plan = us_plan
    dealt = Dealt.deal(SEED, 0, 1000, need_six=False)
    with pytest.raises(ValueError, match="shorter than the chunk"):
        plan.run(SEED, 0, 1001, dealt=Dealt(0, 1001, dealt.up, dealt.ranked))
    with pytest.raises(ValueError, match="not the games asked for"):
        plan.run(SEED, 1, 1000, dealt=dealt)
    with pytest.raises(ValueError, match="shorter than the chunk"):
        _simulate.deal_ranked(K0, K1, 0, 10, 1, 0, np.zeros(9, np.uint8), np.zeros((10, 4), np.int16),
                              np.zeros(1, np.int32))
    with pytest.raises(ValueError, match="one variant a plan"):
        run_many([plan, plan], [v], 10, 1)


@pytest.mark.parametrize("variants, message", [
    ("us-common", "variants: a list of tables, not str"),
    ([], "variants: name at least one table"),
    (["us-common", "sixth-card"], "the simulation .* is not supported for this kind of table"),
    (["us-common", "no-such-table"], "no-such-table"),
])
def test_simulate_many_bad_input(variants, message):
    from studodds import api
    with pytest.raises(StudoddsError, match=message):
        api.simulate_many(variants, games=1000)


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_counts(us_counts):
    distributed = pytest.importorskip("distributed")
    v = load_variant("progressive-100-75-50")
    mask = raise_mask(us_counts, v)
    plan = make_plan(us_counts, v, mask)
    games = 2 * CHUNK + 12_345
    local, local_ledger = run(plan, v, games, 9, threads=2)
    other = load_variant("five-plus-one")
    plans = [plan, make_plan(us_counts, other, raise_mask(us_counts, other))]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote, remote_ledger = run(plan, v, games, 9, scheduler=cluster.scheduler_address)
        shared = run_many(plans, [v, other], games, 9, scheduler=cluster.scheduler_address)
    assert shared[0][0].cells.tolist() == local.cells.tolist() and shared[0][1].paid == local_ledger.paid
    assert shared[1][0].bets.tolist() == run(plans[1], other, games, 9, threads=2)[0].bets.tolist()
    assert remote.cells.tolist() == local.cells.tolist()
    assert remote.progressive.tolist() == local.progressive.tolist()
    assert (remote_ledger.paid, remote_ledger.cycles) == (local_ledger.paid, local_ledger.cycles)
    ex = exact_figures(us_counts, v, mask)
    assert ex.progressive_rtp is not None


# ------------------------------------------------------------------------------ the command line

@pytest.mark.slow
def test_simulate_command_json():
    r = run_cli("simulate", "royal-200", "--games", "1e6", "--seed", "3", "--threads", "2", "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["kind"] == "simulation" and data["games"] == 1_000_000 and data["passed"]
    again = json.loads(run_cli("simulate", "royal-200", "--games", "1000000", "--seed", "3", "--threads", "1",
                               "--json", "--quiet").stdout)
    assert again["frequencies"] == data["frequencies"] and again["returns"] == data["returns"]


@pytest.mark.parametrize("args, message", [
    (["--games", "abc"], "--games"),
    (["--games", "1"], "--games"),
    (["--games", "1e40"], "--games"),
    (["--seed", "-1"], "--seed"),
    (["--strategy", "sometimes"], "--strategy"),
    (["--strategy", "no_such_module:f"], "--strategy"),
])
def test_simulate_bad_input(args, message):
    r = run_cli("simulate", *args, "--quiet")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and message in r.stderr, r.stderr


@pytest.mark.slow
def test_simulate_a_simple_strategy():
    from studodds import api
    s = api.simulate("us-common", games=1_000_000, seed=4, strategy="pair or better")
    exact = api.strategies("us-common").results
    assert s.strategy == "pair or better" and s.passed
    assert s.returns[0].estimate.exact == next(r.analysis.expected_return for r in exact if r.name == "pair or better")


@pytest.mark.slow
def test_batch_simulate_is_checked(tmp_path):
    out = tmp_path / "out"
    r = run_cli("batch", "palms-managua", "progressive-100-75-50", "--out", str(out), "--simulate", "2e6",
                "--simulate-seed", "8", "--formats", "md", "--quiet")       # the formats are tested elsewhere
    assert r.returncode == 0, r.stderr
    summary = json.loads((out / "palms-managua" / "summary.json").read_text())
    assert summary["simulation"]["games"] == 2_000_000 and summary["simulation"]["seed"] == 8
    assert "seconds" not in summary["simulation"]
    assert "## Simulation check" in (out / "palms-managua" / "report.md").read_text()
    # the batch ran both tables on one deal; check runs each alone from (games, seed): the same figures
    assert json.loads((out / "progressive-100-75-50" / "summary.json").read_text())["simulation"]["passed"]
    assert run_cli("check", str(out), "--quiet").returncode == 0
    summary["simulation"]["returns"][0]["z"] = 1.5
    (out / "palms-managua" / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    assert run_cli("check", str(out), "--quiet").returncode == 1


def test_tally_add():
    a = Tally(2, np.ones(50, np.int64), np.zeros((0, 1), np.int64), np.zeros(11, np.int64), np.zeros(0), np.zeros(0))
    a.add(Tally(3, np.ones(50, np.int64), np.zeros((0, 1), np.int64), np.ones(11, np.int64), np.zeros(0), np.zeros(0)))
    assert a.games == 5 and a.cells.sum() == 100 and a.progressive.sum() == 11


@pytest.mark.slow
def test_progressive_lost_on_a_fold_is_hit_only_on_raised_hands(us_counts):
    """With a progressive lost on a fold, its exact hit probabilities are over the raised hands:
    they sum to the raise probability, and a 2 x 10^6-game run agrees with them."""
    from enumerate.rules.variant_file import load_builtin, parse_variant_text
    v = parse_variant_text(load_builtin("progressive-100-75-50").text.replace("fold_forfeits = false",
                                                                              "fold_forfeits = true"), "x")
    mask = raise_mask(us_counts, v)
    ex = exact_figures(us_counts, v, mask)
    assert sum(ex.progressive_probabilities.values()) == ex.base.raise_probability
    s = simulate(us_counts, v, 2_000_000, seed=3)
    assert s.passed, s.verdict

