"""Game protection: exposed hole cards, edge sorting and collusion, against brute force and the
normal game."""
import itertools
import math
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from reference import QUALIFIER_KEY, poker_keys

from enumerate.analysis.base import analyze
from enumerate.core.array_store import ArrayCache
from enumerate.protection import _collusion, _exposure
from enumerate.protection import collusion as co
from enumerate.protection import exposure as ex
from enumerate.protection.known_sets import GROUPS, known_sets, sorted_hands
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant_file import load_builtin
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH

US = load_builtin("us-common").variant
UK = load_builtin("uk-casino-stud").variant      # another paytable and rules, same qualifier
ONE = load_builtin("raise-one-ante").variant      # a raise of one ante: the kernel's threshold from the settlement
SUITS = list(itertools.permutations(range(4)))


@pytest.fixture(scope="module")
def hands():
    return sorted_hands()


def _counts(hands, known, marked=(), rows=None, burn=False):
    """The kernel's per-hand counts for one known set, for every hand once or for the hands
    ``rows`` (increasing, so still in strength order: the completions do not depend on which
    hands are queried)."""
    j = len(known)
    n_levels = 6 - j if marked else 1
    sel = slice(None) if rows is None else np.asarray(rows)
    rows = SimpleNamespace(**{k: np.ascontiguousarray(getattr(hands, k)[sel])
                              for k in ("cards", "masks", "suits", "strength", "group")})
    spec = ex.KernelSpec(j, rows, US.qualifier.threshold, RaiseValue.of(US), ex.level_of_card(marked), n_levels,
                         burn=burn)
    out = np.zeros((rows.cards.shape[0], 52 if burn else n_levels, 4), dtype=np.int32)
    _exposure.exposure_counts(spec, np.array(sorted(known), dtype=np.uint8), out)
    return out


def _brute(player, known, marked=()):
    """(no_qualify, win, tie, completions) per level by enumerating every unseen dealer set with
    the independent evaluator."""
    rest = [c for c in range(52) if c not in player and c not in known]
    r = 5 - len(known)
    combos = np.array(list(itertools.combinations(rest, r)), dtype=np.int64).reshape(-1, r)
    dealer = np.concatenate([combos, np.tile(np.array(sorted(known)), (len(combos), 1))], axis=1)
    d = poker_keys(dealer)
    p = int(poker_keys(np.array([player]))[0])
    level = np.isin(combos // 4, list(marked)).sum(axis=1) if marked else np.zeros(len(combos), dtype=np.int64)
    out = []
    for lvl in range(6 - len(known) if marked else 1):
        sel = level == lvl
        q = d[sel] >= QUALIFIER_KEY
        out.append((int((~q).sum()), int((q & (d[sel] < p)).sum()), int((q & (d[sel] == p)).sum()), int(sel.sum())))
    return out


@pytest.mark.parametrize("j,marked", [(2, ()), (3, ()), (4, ()), pytest.param(1, (12, 11), marks=pytest.mark.slow),
                                      pytest.param(2, (12,), marks=pytest.mark.slow)])
def test_kernel_counts_equal_brute_force_on_sampled_information_sets(hands, j, marked):
    rng = np.random.default_rng(100 + j + len(marked))
    known = [int(c) for c in rng.choice(52, j, replace=False)]
    kmask = np.uint64(sum(1 << c for c in known))
    free = np.flatnonzero((hands.masks & kmask) == 0)
    rows = np.sort(np.concatenate([rng.choice(free, 6 if j <= 2 else 12, replace=False),
                                   np.flatnonzero((hands.masks & kmask) != 0)[:2]]))
    counts = _counts(hands, known, marked, rows=rows)
    for k, i in enumerate(rows):
        player = [int(c) for c in hands.cards[i]]
        if set(player) & set(known):
            assert (counts[k] == -1).all()
        else:
            assert [tuple(int(x) for x in row) for row in counts[k]] == _brute(player, known, marked), (player, known)


@pytest.mark.parametrize("n_hands", [pytest.param(2, id="quick"), pytest.param(10, id="more", marks=pytest.mark.slow)])
def test_burn_card_counts_equal_brute_force(hands, n_hands):
    rng = np.random.default_rng(21 + n_hands)
    u = 41
    pool = np.flatnonzero(~((hands.masks >> np.uint64(u)) & np.uint64(1)).astype(bool))
    rows = np.sort(rng.choice(pool, n_hands, replace=False))
    meeting = np.flatnonzero(((hands.masks >> np.uint64(u)) & np.uint64(1)).astype(bool))[:1]
    rows = np.sort(np.concatenate([rows, meeting]))
    out = _counts(hands, [u], rows=rows, burn=True)
    checked = 0
    for k, i in enumerate(rows):
        player = [int(c) for c in hands.cards[i]]
        if u in player:
            assert (out[k] == -1).all()
            continue
        for b in rng.choice([c for c in range(52) if c not in player and c != u], 2, replace=False):
            rest = [c for c in range(52) if c not in player and c not in (u, b)]
            holes = np.array(list(itertools.combinations(rest, 4)), dtype=np.int64)
            d = poker_keys(np.concatenate([holes, np.full((len(holes), 1), u)], axis=1))
            p = int(poker_keys(np.array([player]))[0])
            q = d >= QUALIFIER_KEY
            want = (int((~q).sum()), int((q & (d < p)).sum()), int((q & (d == p)).sum()), len(holes))
            assert tuple(int(x) for x in out[k, b]) == want
            checked += 1
        assert (out[k, player + [u]] == -1).all()
    assert checked == 2 * n_hands


@pytest.mark.parametrize("j", [pytest.param(2, marks=pytest.mark.slow), 3, pytest.param(4, marks=pytest.mark.slow)])
def test_fast_paths_and_symmetry_reduction_equal_the_plain_sweep(hands, j):
    """Per known set: the mask/popcount fast path with suit-class reduction equals the generic
    inclusion-exclusion path over every hand, and the statistics equal a numpy aggregation of
    the kernel's counts."""
    reps, _ = known_sets(j)
    value = RaiseValue.of(US)
    pick = reps[[0, len(reps) // 3, len(reps) - 1]] if j < 4 else reps[list(range(0, 16)) + [len(reps) - 1]]
    pick = np.ascontiguousarray(pick)

    def run(reduce, generic):
        st = np.zeros((len(pick), 10, 10), dtype=np.int64)
        ch = np.zeros((len(pick), 1, len(GROUPS), 2), dtype=np.int64)
        spec = ex.KernelSpec(j, hands, US.qualifier.threshold, value, ex.level_of_card(()), 1,
                             reduce=bool(reduce), generic=bool(generic))
        _exposure.exposure_stats(spec, pick, st, ch, 2)
        return st, ch

    fast, fast_chart = run(1, 0)
    plain, plain_chart = run(0, 1)
    assert (fast == plain).all()
    assert (fast_chart == plain_chart).all()
    # numpy aggregation of the counts of the first known set
    c = _counts(hands, [int(x) for x in pick[0]])[:, 0, :].astype(np.int64)
    ok = c[:, 0] >= 0
    cat = CATEGORY_BY_STRENGTH[hands.strength][ok]
    nq, win, tie, n = (c[ok, k] for k in range(4))
    form = nq * value.c_nq + win * value.c_win[cat] + tie * value.c_tie
    raised = form > 2 * value.scale * n
    col = _exposure.COLUMNS
    for k in range(10):
        s = cat == k
        r = s & raised
        assert plain[0, k, col["sets"]] == s.sum()
        assert plain[0, k, col["raised_sets"]] == r.sum()
        assert plain[0, k, col["win"]] == win[r].sum()
        assert plain[0, k, col["lose"]] == (n - nq - win - tie)[r].sum()
        assert plain[0, k, col["no_qualify_all"]] == nq[s].sum()


@pytest.mark.slow
@pytest.mark.parametrize("marked,burn", [((11, 12), False), ((), True)], ids=["edge-sort", "burn-card"])
def test_symmetry_reduction_with_levels_and_burn_card_equals_every_hand(hands, marked, burn):
    """One known card: the suit-class reduction of the player hands (with sorted-count levels, or
    with every burn card) gives the same statistics as every hand once."""
    reps, _ = known_sets(1)
    pick = np.ascontiguousarray(reps[[0, 7]] if not burn else reps[[12]])
    value = RaiseValue.of(US)
    n_levels = 5 if marked else 1

    def run(reduce):
        st = np.zeros((len(pick), 10, 10), dtype=np.int64)
        ch = np.zeros((len(pick), n_levels, len(GROUPS), 2), dtype=np.int64)
        spec = ex.KernelSpec(1, hands, US.qualifier.threshold, value, ex.level_of_card(marked), n_levels,
                             reduce=bool(reduce), generic=True, burn=burn)
        _exposure.exposure_stats(spec, pick, st, ch, 2)
        return st, ch

    reduced, reduced_chart = run(1)
    plain, plain_chart = run(0)
    assert (reduced == plain).all() and (reduced_chart == plain_chart).all()
    assert reduced[:, :, _exposure.COLUMNS["sets"]].sum() > 0


@pytest.mark.parametrize("j", [1, 2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_known_set_classes_cover_every_set_once(j):
    reps, weight = known_sets(j)
    seen = {}
    for rep, w in zip(reps, weight):
        orbit = {tuple(sorted((int(c) & ~3) | p[int(c) & 3] for c in rep)) for p in SUITS}
        assert len(orbit) == w
        for s in orbit:
            assert s not in seen
            seen[s] = 1
    assert len(seen) == math.comb(52, j)


@pytest.mark.parametrize("variant", [US, pytest.param(UK, marks=pytest.mark.slow), pytest.param(ONE, marks=pytest.mark.slow)],
                         ids=["us", "uk", "raise-1"])
def test_no_exposed_hole_card_is_the_normal_game(us_counts, variant):
    """The kernel with only the up card known (its raise threshold and outcomes) is the count
    table's analysis, whatever the raise size."""
    normal = analyze(us_counts, variant)
    k0 = ex.hole_cards(us_counts, variant, 0, use_cache=False)
    assert k0.total_combinations == normal.total_combinations
    assert k0.house_edge == normal.house_edge
    assert [r.combinations for r in k0.rows] == [r.combinations for r in normal.rows]
    assert k0.raised_sets == normal.raised_situations
    assert k0.indifferent_sets == normal.indifferent_situations
    assert k0.variance == normal.variance


@pytest.mark.slow
def test_edge_sorting_with_nothing_sorted_is_the_normal_game(us_counts):
    normal = analyze(us_counts, US)
    a = ex.edge_sort(us_counts, US, (), use_cache=False)
    assert a.house_edge == normal.house_edge and a.total_combinations == normal.total_combinations
    assert [r.combinations for r in a.rows] == [r.combinations for r in normal.rows]


@pytest.mark.slow
def test_edge_sorting_every_rank_sorted_is_the_normal_game(us_counts):
    """Every card sorted: the count of sorted hole cards is always 4, which tells nothing."""
    normal = analyze(us_counts, US)
    a = ex.edge_sort(us_counts, US, tuple(range(13)), use_cache=False)
    assert a.house_edge == normal.house_edge


@pytest.mark.slow
def test_all_five_and_none_visible_against_brute_force(us_counts):
    rng = np.random.default_rng(7)
    value = RaiseValue.of(US)
    table_all = ex._all_visible(us_counts, US)
    none = ex._none_visible(us_counts, US)
    col = _exposure.COLUMNS
    assert sum(table_all[:, col["combinations"]]) == ex.DEALS == sum(none[:, col["combinations"]])
    # no dealer card visible: the decision of a sampled hand equals brute force over every
    # (up card, hole cards) deal
    all5 = np.array(list(itertools.combinations(range(47), 5)), dtype=np.int64)
    for _ in range(1):
        player = sorted(int(c) for c in rng.choice(52, 5, replace=False))
        rest = np.array([c for c in range(52) if c not in player])
        d = poker_keys(rest[all5])
        p = int(poker_keys(np.array([player]))[0])
        q = d >= QUALIFIER_KEY
        nq, win, tie = int((~q).sum()), int((q & (d < p)).sum()), int((q & (d == p)).sum())
        cat = int(CATEGORY_BY_STRENGTH[__import__("evaluator.ranking", fromlist=["strength"]).strength(player)])
        # every dealer hand counted once per choice of its up card (5)
        form = 5 * (nq * value.c_nq + win * int(value.c_win[cat]) + tie * value.c_tie)
        from enumerate.analysis.situation import counts_of
        cs = [counts_of(us_counts, tuple(player), u) for u in range(52) if u not in player]
        assert sum(c.no_qualify for c in cs) == 5 * nq and sum(c.win for c in cs) == 5 * win
        assert sum(c.tie for c in cs) == 5 * tie
        assert form == sum(c.no_qualify * value.c_nq + c.win * int(value.c_win[cat]) + c.tie * value.c_tie for c in cs)


def test_all_five_visible_raises_exactly_the_outcomes_worth_more_than_folding(us_counts):
    a = ex.hole_cards(us_counts, US, 4)
    rows = {r.outcome: r for r in a.rows}
    assert rows["dealer_wins"].combinations == 0            # always folded
    normal = analyze(us_counts, US)
    nrows = {r.outcome: r for r in normal.rows}
    # every deal the dealer would win is folded; everything else raised
    total_lose = sum(int(x) for x in (us_counts.lose.sum(axis=1) * us_counts.weight))
    assert rows["fold"].combinations == total_lose
    assert sum(r.combinations for k, r in rows.items() if k.startswith("player_wins")) >= \
        sum(r.combinations for k, r in nrows.items() if k.startswith("player_wins"))


def test_partial_exposure_mixes_exactly(us_counts):
    t = ex.hole_card_table(us_counts, US, (-1, 4), (Fraction(0), Fraction(1), Fraction(1, 3)), use_cache=False)
    none, full = t.level(-1), t.level(4)
    parts = [ex.partial_exposure(none, full, p) for p in (Fraction(0), Fraction(1), Fraction(1, 3))]
    assert parts[0]["house_edge_per_ante"]["exact"] == str(none.house_edge)
    assert parts[1]["house_edge_per_ante"]["exact"] == str(full.house_edge)
    assert Fraction(parts[2]["house_edge_per_ante"]["exact"]) == (2 * none.house_edge + full.house_edge) / 3
    with pytest.raises(StudoddsError):
        ex.partial_exposure(none, full, Fraction(3, 2))


@pytest.mark.slow
def test_exposure_cache_resumes_and_detects_corruption(us_counts, tmp_path, monkeypatch):
    """An interrupted kernel run resumes from its last checkpoint; a corrupted cache file is
    detected and recomputed (one known card: 13 known-set classes, a second or two each run)."""
    monkeypatch.setenv("STUDODDS_CACHE_DIR", str(tmp_path))
    marked = ()
    meta = ex._cache_meta(1, marked, US, RaiseValue.of(US))
    checkpoint = ArrayCache(ex._cache_path(meta), meta, "exposure").checkpoint_path
    calls = []
    real = _exposure.exposure_stats

    def interrupted(*args, **kw):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(_exposure, "exposure_stats", interrupted)
    with pytest.raises(KeyboardInterrupt):
        ex.kernel_statistics(US, 1, marked, chunk=4)
    assert checkpoint.exists()                                # two chunks checkpointed
    monkeypatch.setattr(_exposure, "exposure_stats", real)
    done = []
    stats, _ = ex.kernel_statistics(US, 1, marked, chunk=4, progress=done.append)
    assert done[0] == 8                                       # resumed after the checkpoint
    assert not checkpoint.exists()
    cold, _ = ex.kernel_statistics(US, 1, marked, use_cache=False)
    assert (stats == cold).all()
    path = ex._cache_path(meta)
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x10
    path.write_bytes(bytes(data))
    with pytest.warns(UserWarning, match="exposure cache .* unusable .*rebuilding"):
        again, _ = ex.kernel_statistics(US, 1, marked)        # corruption detected: recomputed
    assert (again == cold).all()


@pytest.mark.slow
def test_exact_protection_figures_reproduce_the_committed_ones(us_counts):
    import json
    from pathlib import Path
    committed = json.loads((Path(__file__).parents[1] / "results" / "us-common" / "protection.json").read_text())
    by_level = {d["exposed_hole_cards"]: d for d in committed["hole_cards"]["levels"]}
    # 1 hole card (and the instant levels) in full; 2 and 3 hole cards take about 50 s and 4 min
    # cold, so their kernel is checked on sampled known-set classes above instead
    t = ex.hole_card_table(us_counts, US, (-1, 0, 1, 4), use_cache=False)
    for a in t.levels:
        assert a.to_dict() == by_level[a.exposed_hole_cards]
    assert ex.edge_sort(us_counts, US, (11, 12), use_cache=False).to_dict() == committed["edge_sort"]


# ---------------------------------------------------------------------------------------------
# collusion


@pytest.mark.slow
def test_collusion_counts_equal_brute_force():
    rng = np.random.default_rng(3)
    for m in (0, 5, 31):
        player, up, seen = co.draw_chunk(11, m, 3, m)
        out = np.zeros((3, 3), dtype=np.int32)
        _collusion.completion_counts(player, up, seen, US.qualifier.threshold, out, 2)
        for i in range(3):
            dead = set(int(c) for c in player[i]) | {int(up[i])} | set(int(c) for c in seen[i])
            rest = [c for c in range(52) if c not in dead]
            holes = np.array(list(itertools.combinations(rest, 4)), dtype=np.int64)
            d = poker_keys(np.concatenate([holes, np.full((len(holes), 1), int(up[i]))], axis=1))
            p = int(poker_keys(player[i:i + 1].astype(np.int64))[0])
            q = d >= QUALIFIER_KEY
            assert tuple(out[i]) == (int((~q).sum()), int((q & (d < p)).sum()), int((q & (d == p)).sum()))
    del rng


def test_normal_decisions_match_the_count_table(us_counts):
    from enumerate.analysis.ev import situation_ev
    player, up, _ = co.draw_chunk(5, 0, 40, 0)
    got = co.normal_decisions(us_counts, US, player, up)
    for i in range(40):
        s = situation_ev(us_counts, US, [int(c) for c in player[i]], int(up[i]))
        assert bool(got[i]) == (s.action == "raise")


@pytest.mark.slow
def test_collusion_without_partners_agrees_with_the_exact_edge(us_counts):
    normal = analyze(us_counts, US)
    e = co.estimate(us_counts, US, normal, partners=0, samples=3000, seed=2)
    assert e.mean_gain == 0 and e.house_edge == normal.house_edge   # no information, no gain
    lo, hi = e.plain_interval                                       # the direct estimator
    assert lo <= float(normal.house_edge) <= hi


def test_collusion_is_reproducible_whatever_the_threads(us_counts):
    normal = analyze(us_counts, US)
    a = co.estimate(us_counts, US, normal, partners=6, samples=co.CHUNK + 500, seed=9, threads=1)
    b = co.estimate(us_counts, US, normal, partners=6, samples=co.CHUNK + 500, seed=9, threads=2)
    assert a.mean_gain == b.mean_gain and a.gain_standard_deviation == b.gain_standard_deviation
    assert a.raise_probability == b.raise_probability
    c = co.estimate(us_counts, US, normal, partners=6, samples=co.CHUNK + 500, seed=10, threads=2)
    assert c.mean_gain != a.mean_gain
    assert a.mean_gain > 0                                          # seeing 30 cards helps


def test_user_strategy_normal_play_gains_nothing_and_never_beats_optimal(us_counts):
    from enumerate.analysis.situation import locate
    normal = analyze(us_counts, US)
    optimal = RaiseValue.of(US).optimal(us_counts)

    def normal_play(hand, up, seen):
        row, col = locate(us_counts, hand, up)
        return bool(optimal[row, col])

    def always(hand, up, seen):
        return True

    e = co.estimate(us_counts, US, normal, partners=2, samples=600, seed=4, strategy=normal_play)
    assert e.mean_gain == 0
    best = co.estimate(us_counts, US, normal, partners=2, samples=600, seed=4)
    worse = co.estimate(us_counts, US, normal, partners=2, samples=600, seed=4, strategy=always)
    assert worse.mean_gain < best.mean_gain


@pytest.mark.slow
def test_collusion_on_a_dask_local_cluster_equals_the_local_run(us_counts):
    import distributed  # in the test extra: this test never skips
    normal = analyze(us_counts, US)
    local = co.estimate(us_counts, US, normal, partners=6, burn_card=True, samples=2 * co.CHUNK + 100, seed=5)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = co.estimate(us_counts, US, normal, partners=6, burn_card=True, samples=2 * co.CHUNK + 100, seed=5,
                             scheduler=cluster.scheduler_address)
    assert remote.mean_gain == local.mean_gain
    assert remote.gain_standard_deviation == local.gain_standard_deviation
    assert remote.raise_probability == local.raise_probability
