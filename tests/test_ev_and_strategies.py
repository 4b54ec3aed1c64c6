"""Per-hand EVs, the EV table export, simple strategies and the readable strategy."""
import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_cli
from reference import brute_force_counts, parse

from enumerate.analysis import ev_table, strategies
from enumerate.analysis.base import analyze
from enumerate.analysis.ev import hand_evs, situation_ev
from enumerate.analysis.selfcheck import sample_situations
from enumerate.rules.variant_file import load_builtin
from evaluator.ranking import CATEGORY_BY_STRENGTH, category, strength

REPO = Path(__file__).resolve().parent.parent
OUTSIDE = tempfile.mkdtemp(prefix="studodds-cwd-")
US_PAYS = {0: 1, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 7, 7: 20, 8: 50, 9: 100}


@pytest.fixture(scope="module")
def us():
    return load_builtin("us-common").variant


def _brute_ev(cards, up):
    nq, win, tie, lose = brute_force_counts(list(cards), up)
    pay = US_PAYS[int(category(strength(cards)))]
    return Fraction(nq + win * (1 + 2 * pay) - 3 * lose, 163185)


def test_hand_evs_equal_brute_force(us_counts, us):
    cases = sample_situations(6, seed=11) + [(tuple(parse("As Kd Jh 8c 3s")), parse("7d")[0]),
                                             (tuple(parse("Ah Kd Qc 8s 3c")), parse("Qd")[0])]
    for cards, up in cases:
        ev = situation_ev(us_counts, us, cards, up)
        assert ev.ev_raise == _brute_ev(cards, up)
        assert ev.action == ("raise" if ev.ev_raise > -1 else "fold")
        assert ev.margin == abs(ev.ev_raise + 1)


def test_hand_without_up_card(us_counts, us):
    cards = tuple(parse("As Kd Jh 8c 3s"))
    rows, before = hand_evs(us_counts, us, cards)
    assert len(rows) == 47 and {r.up for r in rows} == set(range(52)) - set(cards)
    assert before == sum(max(r.ev_raise, Fraction(-1)) for r in rows) / 47


@pytest.fixture(scope="module")
def evt(us_counts, us):
    return ev_table.build(us_counts, us)


def test_ev_table_expands_exactly_and_reproduces_totals(evt, us_counts, us):
    assert len(evt) == 5_649_150
    assert int(evt.multiplicity.astype(np.int64).sum()) == 122_151_120
    best = np.maximum(evt.ev_raise_num, -evt.ev_denominator)
    total = Fraction(int((best * evt.multiplicity.astype(np.int64)).sum()) * 163185, evt.ev_denominator)
    assert total == -analyze(us_counts, us).total_loss == -1_041_372_912_372
    raised = int(evt.multiplicity[evt.action == 1].astype(np.int64).sum())
    assert raised == analyze(us_counts, us).raised_situations
    assert ((evt.no_qualify.astype(np.int64) + evt.win + evt.tie + evt.lose) == 163185).all()


def test_ev_table_lookup_and_npz_round_trip(evt, us_counts, us, tmp_path):
    path = tmp_path / "ev.npz"
    ev_table.save_npz(evt, path)
    back = ev_table.load_npz(path)
    assert back.ev_denominator == evt.ev_denominator and np.array_equal(back.ev_raise_num, evt.ev_raise_num)
    for cards, up in sample_situations(5, seed=3) + [(tuple(parse("2c 2d 2h 2s 3c")), parse("3s")[0])]:
        row = back.lookup(cards, up)
        ev = situation_ev(us_counts, us, cards, up)
        assert Fraction(int(back.ev_raise_num[row]), back.ev_denominator) == ev.ev_raise
        assert int(back.win[row]) == ev.counts.win


def _direct_total(table, mask) -> int:
    """Total return of a fixed strategy in antes, by numpy over every situation (independent of
    the Cython aggregation)."""
    pay = np.array([US_PAYS[c] for c in range(10)], dtype=np.int64)[CATEGORY_BY_STRENGTH[table.strength]][:, None]
    nq, win, lose = table.no_qualify.astype(np.int64), table.win.astype(np.int64), table.lose
    raised = nq + win * (1 + 2 * pay) - 3 * lose
    per = np.where(mask.astype(bool), raised, -163185)
    return int((per.sum(axis=1) * table.weight).sum())


@pytest.mark.slow
@pytest.mark.debug_sample
def test_simple_strategies_equal_a_direct_count(us_counts, us):
    results, chart = strategies.evaluate(us_counts, us, strategies.simple_strategies())
    assert results[0].name == "optimal" and results[0].analysis.total_loss == 1_041_372_912_372
    for r in results[1:]:
        mask = strategies.strategy_mask(us_counts, strategies.simple_strategies()[r.name])
        assert r.analysis.total_loss == -_direct_total(us_counts, mask), r.name
        assert r.cost > 0
    by_name = {r.name: r for r in results}
    # raising everything: the direct formula with an all-ones mask, and a known ordering
    assert by_name["raise everything"].analysis.raise_probability == 1
    assert by_name["three rules of thumb"].cost < by_name["A-K-J-8-3 or better"].cost < by_name["Ace/King or better"].cost
    assert int(chart.total.sum()) == 122_151_120


def test_rules_of_thumb_on_single_hands(us_counts):
    def decide(text, up):
        cards = np.array([sorted(parse(text))], dtype=np.uint8)
        return bool(strategies.rules_of_thumb(cards, np.array([[parse(up)[0]]], dtype=np.uint8))[0, 0])
    assert decide("Ah Kd 9c 7s 4h", "9d")          # rule 1: up 2..Q matches a rank
    assert not decide("Ah Kd 9c 7s 4h", "8d")
    assert decide("Ah Kd Jc 7s 4h", "Ac")          # rule 2: up A/K and a J
    assert decide("Ah Kd Qc 7s 4h", "6c")          # rule 3: Q held, up 6 < fourth-highest 7
    assert not decide("Ah Kd Qc 7s 4h", "8c")
    assert decide("2h 2d 9c 7s 4h", "Kc")          # pairs always raise


def test_readable_strategy_committed_for_every_builtin():
    for name in ["us-common", "uk-casino-stud", "royal-200", "cyberstud"]:
        md = (REPO / "results" / name / "strategy.md").read_text()
        assert "Always raise:" in md and "| player ranks |" in md
        assert (REPO / "results" / name / "strategy.csv").read_text().startswith("category,player_ranks,raised_up_A,situations_up_A,")
    for png in ["strategy_ak.png", "return_table.png", "ev_by_category.png"]:
        assert (REPO / "results" / "us-common" / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def run(*args):
    return run_cli(*args, cwd=OUTSIDE)


def test_cli_hand(us_counts):
    r = run("hand", "As Kd Jh 8c 3s", "--up", "7d", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "-169283/163185" in r.stdout and "fold" in r.stdout
    r = run("hand", "As Kd Jh 8c 3s", "--json", "--quiet")
    data = json.loads(r.stdout)
    assert len(data["situations"]) == 47 and data["ev_before_up_card_antes"] is not None
    for args, needle in [(["hand", "As Kd Jh 8c 3s", "--up", "As"], "also in the player's hand"),
                         (["hand", "As Kd Jh 8c", "--up", "7d"], "expected 5 cards"),
                         (["hand", "As Kd Jh 8c 3x"], "bad card '3x'"),
                         (["ev-table", "--out", os.path.join(OUTSIDE, "x.txt")], "must end in .npz or .csv"),
                         (["strategies", "--raise-at-least", "AKZ"], "--raise-at-least")]:
        r = run(*args, "--quiet")
        assert r.returncode == 2 and needle in r.stderr and r.stderr.count("\n") == 1, (args, r.stderr)


def test_cli_strategies_threshold_matches_named(us_counts):
    r = run("strategies", "--raise-at-least", "AKJ83", "--quiet")
    assert r.returncode == 0, r.stderr
    lines = {line[:28].strip(): line[28:].split()[0] for line in r.stdout.splitlines()[1:]}
    assert lines["AKJ83 or better"] == lines["A-K-J-8-3 or better"]
    assert lines["optimal"] == "1,041,372,912,372"


def test_plots_without_matplotlib_say_what_to_install():
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from studodds.cli import main; sys.exit(main(['plots', '--out', 'p', '--quiet']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=OUTSIDE)
    assert r.returncode == 2 and "pip install" in r.stderr and "matplotlib" in r.stderr
    assert not os.path.exists(os.path.join(OUTSIDE, "p"))


MEMORY_PROBE = """
import gc, json, sys
import studodds

def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20

sizes = []
for _ in range(3):
    studodds.clear_memory()                     # a freshly loaded table every time
    r = studodds.strategies("us-common")
    assert r.results[0].analysis.total_loss == 1041372912372
    del r
    gc.collect()
    sizes.append(rss_mb())
print(json.dumps(sizes))
"""


@pytest.mark.slow
def test_repeated_strategy_evaluations_do_not_grow_memory(us_counts):
    """No cache keyed by object ids: three evaluations on freshly loaded tables in one process
    grow its resident memory by less than 30 MB after the first."""
    r = subprocess.run([sys.executable, "-c", MEMORY_PROBE], capture_output=True, text=True, cwd=OUTSIDE,
                       env=dict(os.environ, STUDODDS_THREADS="2"))
    assert r.returncode == 0, r.stderr
    sizes = json.loads(r.stdout)
    assert sizes[2] - sizes[0] < 30, sizes


@pytest.mark.slow
def test_count_tables_are_read_only_and_comparable(us_counts):
    from enumerate.core.counts import load_or_compute
    fresh = load_or_compute(us_counts.qualifier, use_cache=False)
    for table in (fresh, us_counts):
        for name in ("hands", "weight", "strength", "up", "no_qualify", "win", "tie"):
            assert not getattr(table, name).flags.writeable, name
    assert fresh == us_counts and not (fresh != us_counts)
    assert hash(fresh) == hash(us_counts)
    with pytest.raises(ValueError):
        fresh.win[0, 0] = 1
