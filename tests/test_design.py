"""Paytable design: sensitivities against finite differences of full re-analyses (flip points
included), every reported candidate re-analysed from scratch, exact bounds and fronts against
brute force, the solver's exact pay, and the Dask path against the local run."""
import json
import math
from dataclasses import replace
from fractions import Fraction as F

import numpy as np
import pytest
from cli_runner import run_cli

from enumerate.analysis.base import analyze
from enumerate.design.criteria import Bound, Objective, feasible, pareto_front
from enumerate.design.grid import Axis, build_grid, pay_slots
from enumerate.design.search import search
from enumerate.design.sensitivity import sensitivity
from enumerate.design.solve import Target, solve
from enumerate.rules.variant_file import dump_toml, load_builtin, parse_variant_text, with_raise_pays
from evaluator.errors import StudoddsError
from evaluator.ranking import Category
from studodds import api


def simplest_between(a, b):
    """The rational with the smallest denominator strictly between 0 <= a < b (keeps the
    re-analysed variants within the kernel's 64-bit range)."""
    fl = math.floor(a)
    if fl + 1 < b:
        return F(fl + 1)
    if a == fl:
        return fl + 1 / F(math.floor(1 / (b - fl)) + 1)
    return fl + 1 / simplest_between(1 / (b - fl), 1 / (a - fl))


def largest_win(a):
    return max(r.pays for r in a.rows if r.combinations)


def same_figures(candidate, a):
    return (candidate.total_loss, candidate.house_edge, candidate.element_of_risk, candidate.variance,
            candidate.hit_frequency, candidate.raise_probability, candidate.largest_win) == \
        (a.total_loss, a.house_edge, a.element_of_risk, a.variance, a.hit_frequency, a.raise_probability, largest_win(a))


# ---------------------------------------------------------------- parsing (quick)

def test_axis_bound_target_objective_parse():
    assert Axis.parse("full_house=6..8/0.5").values == (6, F(13, 2), 7, F(15, 2), 8)
    assert Axis.parse("flush=7,5,6,5").values == (5, 6, 7)
    assert Axis.parse("one_pair=1..2/1/4").values == (1, F(5, 4), F(3, 2), F(7, 4), 2)
    assert Axis.parse("one_pair=1/2..1.5/1/2").values == (F(1, 2), 1, F(3, 2))
    assert Bound.parse("edge=2.5%..3%") == Bound("house_edge", F(1, 40), F(3, 100))
    assert Bound.parse("hit_frequency=0.38..") == Bound("hit_frequency", F(38, 100), None)
    assert Target.parse("rtp=98%") == Target("rtp", F(49, 50))
    assert Target.parse("house_edge=-1%").value == F(-1, 100)
    assert Objective.parse("sd:min") == Objective("standard_deviation", False)
    for bad in ("full_house", "fullhouse=1..2", "full_house=3..1", "full_house=1..2/0", "flush=a,b"):
        with pytest.raises(StudoddsError):
            Axis.parse(bad)
    for bad in ("edge=..", "edge=3%..2%", "colour=1..2", "edge=3%"):
        with pytest.raises(StudoddsError):
            Bound.parse(bad)
    with pytest.raises(StudoddsError):
        Target.parse("hit_frequency=40%")


def test_pareto_front_against_brute_force():
    rng = np.random.default_rng(7)
    for trial in range(30):
        n, k = int(rng.integers(1, 60)), int(rng.integers(1, 4))
        keys = [rng.integers(0, 6, n) for _ in range(k)]
        got = set(pareto_front(keys).tolist())
        want = {i for i in range(n)
                if not any(all(kk[j] >= kk[i] for kk in keys) and any(kk[j] > kk[i] for kk in keys) for j in range(n))}
        assert got == want, trial


def test_variant_file_writer_round_trips():
    for name in ("us-common", "palms-managua", "progressive-100-75-50", "max-payout", "ante-bonus"):
        src = load_builtin(name)
        text = with_raise_pays(src, {"full_house": F(15, 2), **{s.key: src.variant.raise_pays[s.categories[0]]
                                                                for s in pay_slots(src.variant) if s.key != "full_house"}},
                               "designed", "a test")
        v = parse_variant_text(text, "designed")
        assert v.name == "designed" and v.posted_pay(Category.FULL_HOUSE) == F(15, 2)
        assert replace(v, name=src.variant.name, description=src.variant.description,
                       raise_pays=src.variant.raise_pays) == src.variant
    assert dump_toml({"a": F(1, 3), "b": {"c": True}}) == 'a = "1/3"\n\n[b]\nc = true\n'


def test_design_refuses_what_it_does_not_model(us_counts):
    for name in ("ante-bonus", "max-payout"):
        with pytest.raises(StudoddsError):
            build_grid(us_counts, api.load_variant(name), [Axis.parse("flush=5..6")])
    v = api.load_variant("uk-casino-stud")
    with pytest.raises(StudoddsError, match="royal_flush"):          # the UK table has no separate royal pay
        build_grid(us_counts, v, [Axis.parse("royal_flush=100..200")])
    with pytest.raises(StudoddsError, match="twice"):
        build_grid(us_counts, v, [Axis.parse("flush=5..6"), Axis.parse("flush=7..8")])


# ---------------------------------------------------------------- exactness (slow)

@pytest.mark.parametrize("name", ["raise-one-ante", "us-common"])
def test_a_design_candidate_equals_the_analysis_at_any_raise_size(us_counts, name):
    """The grid's nets and stakes come from the settlement: a candidate at the variant's own
    pays is the one-pass kernel's analysis, figure by figure, for a raise of 1 or 2 antes."""
    v = api.load_variant(name)
    grid = build_grid(us_counts, v, [Axis.parse(f"flush={v.raise_pays[Category.FLUSH]}")])
    c, a = grid.candidate([0]), analyze(us_counts, v)
    assert (c.total_loss, c.house_edge, c.element_of_risk, c.variance) == (a.total_loss, a.house_edge, a.element_of_risk, a.variance)
    assert (c.hit_frequency, c.raise_probability) == (a.hit_frequency, a.raise_probability)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["us-common", "uk-casino-stud", "raise-one-ante"])
def test_sensitivities_equal_finite_differences(us_counts, name):
    """Every pay's sensitivity equals the difference of two full re-analyses, up to and at the
    upper flip point; past it and at the lower one exactly the reported situations flip."""
    v = api.load_variant(name)
    s = sensitivity(us_counts, v)
    a = s.analysis
    slots = {sl.key: sl for sl in pay_slots(v)}

    def moved(p, x):
        if p.pay == "ante_player_wins":
            return replace(v, ante_win=x)
        if p.pay == "ante_dealer_does_not_qualify":
            return replace(v, ante_no_qualify=x)
        return replace(v, raise_pays={**v.raise_pays, **{c: x for c in slots[p.pay].categories}})

    flips = 0
    for p in s.pays:
        hi = p.upper.at if p.upper else p.value + 3
        lo = p.lower.at if p.lower else max(F(0), p.value - F(1, 2))
        for x in (hi, simplest_between(lo, p.value) if p.lower else lo):
            b = analyze(us_counts, moved(p, x))
            assert b.raised_situations == a.raised_situations, (p.pay, x)
            assert b.total_loss - a.total_loss == (x - p.value) * p.total_loss_per_unit, (p.pay, x)
            assert b.house_edge - a.house_edge == (x - p.value) * p.house_edge_per_unit
            assert b.element_of_risk - a.element_of_risk == (x - p.value) * p.element_of_risk_per_unit
            assert (1 - b.element_of_risk) - (1 - a.element_of_risk) == (x - p.value) * p.rtp_per_unit
        if p.upper:
            u = p.upper.at
            b = analyze(us_counts, moved(p, simplest_between(u, u + F(1, 4 * u.denominator ** 2))))
            assert b.raised_situations - a.raised_situations == p.upper.situations, p.pay
            flips += 1
        if p.lower:
            b = analyze(us_counts, moved(p, p.lower.at))
            assert a.raised_situations - b.raised_situations == p.lower.situations, p.pay
            assert b.total_loss - a.total_loss == (p.lower.at - p.value) * p.total_loss_per_unit
            flips += 1
    # pair, high card and both ante pays have flip points at a 2-ante raise; at 1 ante, two of them
    assert flips >= (2 if v.raise_antes == 1 else 5)


@pytest.mark.slow
def test_search_candidates_reanalysed_from_scratch(us_counts):
    """A search moving always-raised categories and one moving the pair and high-card pays: the
    front and a sample of the feasible set re-analysed by the one-pass kernel give the same
    exact figures; the feasible count and the front equal brute force over exact rationals."""
    v = api.load_variant("us-common")
    cases = [
        ([Axis.parse("full_house=5..10"), Axis.parse("flush=4..8"), Axis.parse("straight=3..6")],
         (Bound.parse("house_edge=3%..5%"), Bound.parse("element_of_risk=..2.4%")),
         (Objective("house_edge", True), Objective("standard_deviation", True))),
        ([Axis.parse("one_pair=1/2..2/1/4"), Axis.parse("high_card=0..1.5/1/4"), Axis.parse("two_pairs=1..3/1/2")],
         (Bound.parse("hit_frequency=0.3..0.5"), Bound.parse("standard_deviation=1.5..3")),
         (Objective("house_edge", True), Objective("hit_frequency", True), Objective("largest_win", False))),
    ]
    for axes, bounds, objectives in cases:
        result = search(us_counts, v, axes, bounds=bounds, objectives=objectives, chunk=37)
        grid = build_grid(us_counts, v, axes)
        every = grid.block(0, grid.size)
        assert result.ordered == len(every)
        exact = [grid.candidate(every.at[:, j]) for j in range(len(every))]

        def ok(c):
            return all((b.lo is None or c.figure(b.figure) >= b.lo if b.figure != "standard_deviation"
                        else b.lo is None or c.variance >= b.lo ** 2) and
                       (b.hi is None or c.figure(b.figure) <= b.hi if b.figure != "standard_deviation"
                        else b.hi is None or c.variance <= b.hi ** 2) for b in bounds)
        feasible_exact = [c for c in exact if ok(c)]
        assert result.feasible == len(feasible_exact) == int(feasible(grid, every, bounds).sum()) > 0

        def key(c):
            return tuple(F(c.figure(o.figure)) if o.figure != "standard_deviation" else c.variance for o in objectives)
        signs = [1 if o.maximize else -1 for o in objectives]

        def dominates(x, y):
            kx, ky = key(x), key(y)
            return all(s * a >= s * b for s, a, b in zip(signs, kx, ky)) and any(s * a > s * b for s, a, b in zip(signs, kx, ky))
        front_exact = {tuple(sorted(c.pays.items())) for c in feasible_exact
                       if not any(dominates(d, c) for d in feasible_exact)}
        assert {tuple(sorted(c.pays.items())) for c in result.front} == front_exact
        sample = list(result.front) + feasible_exact[:: max(1, len(feasible_exact) // 8)]
        for c in sample:
            assert same_figures(c, analyze(us_counts, c.variant(v))), c.pays


@pytest.mark.slow
def test_solve_full_house_for_three_percent(us_counts):
    """The exact full-house pay for a 3% edge on the UK table: its edge, from two re-analyses
    at pays with the same strategy (the figure is linear there), is exactly 3%; the grid's
    closest candidates are ranked by exact distance and agree with re-analysis."""
    v = api.load_variant("uk-casino-stud")
    r = solve(us_counts, v, Target.parse("house_edge=3%"), [Axis.parse("full_house=8..20/1/2")])
    x = r.exact_pay.value
    assert x is not None and 19 < x < 20
    a19, a20 = (analyze(us_counts, replace(v, raise_pays={**v.raise_pays, Category.FULL_HOUSE: F(p)}))
                for p in (19, 20))
    assert a19.raised_situations == a20.raised_situations
    assert a19.house_edge + (x - 19) * (a20.house_edge - a19.house_edge) == F(3, 100)
    assert [c.pays["full_house"] for c, _ in r.best[:3]] == [19, F(39, 2), F(37, 2)]
    distances = [d for _, d in r.best]
    assert distances == sorted(distances) and r.exact_hits == 0
    for c, d in r.best[:3]:
        b = analyze(us_counts, c.variant(v))
        assert same_figures(c, b) and d == abs(b.house_edge - F(3, 100))


@pytest.mark.slow
def test_solve_pair_pay_and_exact_hits(us_counts):
    """Solving the pair pay (a category whose strategy moves with its pay) and a target that
    grid candidates reach exactly."""
    v = api.load_variant("uk-casino-stud")
    r = solve(us_counts, v, Target.parse("house_edge=3%"), [Axis.parse("one_pair=1..3/1/20")], ordered=False)
    x = r.exact_pay.value
    pair = Category.ONE_PAIR
    lo, hi = (analyze(us_counts, replace(v, raise_pays={**v.raise_pays, pair: p})) for p in (F(1), F(11, 10)))
    assert lo.raised_situations == hi.raised_situations
    assert lo.house_edge + (x - 1) * (hi.house_edge - lo.house_edge) * 10 == F(3, 100)
    hit = analyze(us_counts, replace(v, raise_pays={**v.raise_pays, pair: F(6, 5)}))
    r = solve(us_counts, v, Target("house_edge", hit.house_edge), [Axis.parse("one_pair=1..3/1/20")], ordered=False)
    assert r.exact_hits == 1 and r.best[0][1] == 0 and r.best[0][0].pays["one_pair"] == F(6, 5)
    assert r.exact_pay.value == F(6, 5)


@pytest.mark.slow
def test_search_on_dask_equals_local(us_counts):
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster
    v = api.load_variant("us-common")
    axes = [Axis.parse("four_of_a_kind=15..40/5"), Axis.parse("full_house=5..12"), Axis.parse("flush=4..9")]
    bounds = (Bound.parse("house_edge=2%..5%"),)
    local = search(us_counts, v, axes, bounds=bounds, chunk=50)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster):
        remote = search(us_counts, v, axes, bounds=bounds, chunk=50, scheduler=cluster.scheduler_address)
    assert remote.to_dict() == local.to_dict() and local.feasible > 0


@pytest.mark.slow
def test_design_commands(tmp_path):
    out = tmp_path / "best.toml"
    r = run_cli("design", "solve", "uk-casino-stud", "--target", "house_edge=3%", "--vary", "full_house=15..22",
                "--write", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    assert "exact pay: full_house = 79260080527/4156118820" in r.stdout
    assert api.load_variant(str(out)).posted_pay(Category.FULL_HOUSE) == 19
    printed = run_cli("design", "solve", "uk-casino-stud", "--target", "house_edge=3%", "--vary", "full_house=15..22",
                      "--json", "--quiet")
    assert json.loads(printed.stdout) == api.solve("uk-casino-stud", "house_edge=3%", "full_house=15..22").to_dict()
    png, csv = tmp_path / "front.png", tmp_path / "feasible.csv"
    r = run_cli("design", "search", "--vary", "full_house=5..9", "--vary", "flush=4..7", "--bound", "house_edge=..5%",
                "--plot", str(png), "--csv", str(csv), "--quiet")
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = csv.read_text().splitlines()
    feasible_line = next(x for x in r.stdout.splitlines() if "feasible" in x)
    assert f"{len(lines) - 1:,} feasible" in feasible_line
    for args, message in [(["design", "solve", "--target", "house_edge=3%", "--vary", "fullhouse=1..2"], "not a raise pay"),
                          (["design", "search", "--vary", "flush=1..2", "--bound", "edge=3%"], "FIGURE=LO..HI"),
                          (["design", "solve", "--target", "house_edge=3%", "--vary", "flush=1..2", "--write", "x.txt"], ".toml"),
                          (["design", "solve", "ante-bonus", "--target", "house_edge=3%", "--vary", "flush=1..2"],
                           "without an ante bonus")]:
        r = run_cli(*args, "--quiet")
        assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


def test_a_house_edge_beyond_what_the_table_can_lose_is_refused_before_any_counting(monkeypatch):
    """A hand loses at most its ante and its raise: 1 + r antes.  A bound or target is read
    against the widest table (a raise of 10 antes), then against the table's own raise before
    the count table is asked for."""
    base = load_builtin("us-common").variant
    four, one = replace(base, raise_antes=4), replace(base, raise_antes=1)
    bound, target = Bound.parse("house_edge=4..4.5"), Target.parse("house_edge=4.5")     # read: some table could
    bound.check_table(four)
    target.check_table(four)
    for check in (bound.check_table, target.check_table):
        with pytest.raises(StudoddsError, match=r"a raise of 2 ante\(s\).*lies in \[-inf, 3\]"):
            check(base)
    with pytest.raises(StudoddsError, match="lies in"):
        Bound.parse("house_edge=12..13")
    def no_counting(*args, **kwargs):
        raise AssertionError("counted before refusing")
    monkeypatch.setattr(api, "count_table", no_counting)
    with pytest.raises(api.ParameterError, match="target.*no paytable of 'us-common'"):
        api.solve(one, "house_edge=2.5", "full_house=5..6")
    with pytest.raises(api.ParameterError, match="bounds.*no paytable"):
        api.search(base, "full_house=5..6", bounds=["house_edge=3.5.."])
