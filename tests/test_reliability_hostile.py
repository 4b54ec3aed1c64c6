"""Hostile input: what a careless user or an attacker gives every option of every command and
every key of the variant file.

Each case must end with exit code 2 and one line on stderr naming the problem, with no
traceback, no file written, and within a time bound; the parsers themselves are fuzzed with
hypothesis and must decide any text within a fraction of a second.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from enumerate.design.criteria import Bound
from enumerate.design.grid import Axis
from enumerate.design.solve import Target
from enumerate.rules.amounts import MAX_PAY, parse_amount, parse_rational
from evaluator.errors import StudoddsError

ROOT = Path(__file__).resolve().parents[1]
GOOD = (ROOT / "enumerate" / "rules" / "variants" / "us-common.toml").read_text()
PROGRESSIVE = (ROOT / "enumerate" / "rules" / "variants" / "progressive-100-75-50.toml").read_text()
SIDE = (ROOT / "enumerate" / "rules" / "variants" / "palms-managua.toml").read_text()
CAPPED = (ROOT / "enumerate" / "rules" / "variants" / "max-payout.toml").read_text()

#: Numbers no amount may be: each is refused wherever an amount is read.
BAD_NUMBERS = ["1e999999999", "1e-999999999", "nan", "inf", "", "1/0", "9" * 1000, "0x10", "\x00", "1e41"]
#: CPU seconds a refused input may take, the command line's start included (in-process): a hang
#: bound, not a speed test (CPU time does not grow on a loaded machine; refusing counts nothing,
#: while the work a refusal must prevent costs minutes).
CPU_BOUND = 20.0


def refused(tmp_path: Path, *args: str, needle: str = "") -> None:
    """Run ``studodds ARGS`` in a fresh folder and check the whole contract of bad input."""
    before = {p for p in tmp_path.rglob("*")}
    cpu_start = time.process_time()
    # as a user's interpreter runs it, writing bytecode (PYTHONDONTWRITEBYTECODE unset): a user's
    # module imported from the folder must leave no __pycache__ there either
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, False
    try:
        r = run_cli(*args, cwd=tmp_path)
    finally:
        sys.dont_write_bytecode = writes
    cpu_seconds = time.process_time() - cpu_start
    assert r.returncode == 2, (args, r.returncode, r.stdout[-500:], r.stderr[-500:])
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("studodds: error: "), (args, r.stderr)
    assert "Traceback" not in r.stderr and r.stdout == "", args
    assert needle in r.stderr, (args, needle, r.stderr)
    assert {p for p in tmp_path.rglob("*")} == before, ("a file was written", args)
    assert cpu_seconds < CPU_BOUND, (args, cpu_seconds)            # a hang bound in CPU time


def _variant(tmp_path: Path, base: str, old: str, new: str) -> str:
    assert old in base, old
    path = tmp_path / "v.toml"
    path.write_text(base.replace(old, new, 1))
    return str(path)


# --- numbers, wherever an option takes one ---------------------------------------------------

OPTION_NUMBERS = [
    (("progressive", "--meter", "{x}"), "--meter"),
    (("progressive", "--side-wager", "{x}"), "--side-wager"),
    (("holecards", "--exposed", "0", "--share", "{x}"), "--share"),
    (("design", "solve", "--target", "house_edge={x}", "--vary", "full_house=7..8"), "--target"),
    (("design", "search", "--bound", "house_edge={x}..", "--vary", "full_house=7..8"), "--bound"),
    (("design", "search", "--vary", "full_house={x}..9"), "--vary"),
]


@pytest.mark.parametrize("command,needle,x", [
    pytest.param(c, n, x, id=f"{' '.join(c[:3])}-{x!r:.14}") for c, n in OPTION_NUMBERS for x in BAD_NUMBERS
    if not (x == "" and n == "--share")])          # an empty --share is no share at all: valid
def test_bad_numbers_in_options(tmp_path, us_counts, command, needle, x):
    refused(tmp_path, *(a.replace("{x}", x) for a in command), needle=needle)


# --- numbers, wherever a variant file takes one ----------------------------------------------

FILE_NUMBERS = [
    (GOOD, "full_house = 7", 'full_house = "{x}"', "raise_pays.full_house"),
    (GOOD, "player_wins = 1", 'player_wins = "{x}"', "ante_pays.player_wins"),
    (PROGRESSIVE, 'contribution = "70%"', 'contribution = "{x}"', "progressive.contribution"),
    (SIDE, '"one_pair 8-A" = 1', '"one_pair 8-A" = "{x}"', "side_bets"),
    (CAPPED, "amount = 10000", 'amount = "{x}"', "max_payout.amount"),
]


@pytest.mark.parametrize("x", [x for x in BAD_NUMBERS if x != "\x00"], ids=lambda x: repr(x)[:14])
@pytest.mark.parametrize("base,old,new,needle", FILE_NUMBERS, ids=[f[3] for f in FILE_NUMBERS])
def test_bad_numbers_in_variant_files(tmp_path, base, old, new, needle, x):
    path = _variant(tmp_path, base, old, new.replace("{x}", x))
    refused(tmp_path, "analyze", path, needle=needle)


# --- every key of the variant file, given a value of the wrong kind --------------------------

ENVY = (ROOT / "enumerate" / "rules" / "variants" / "envy-bonus.toml").read_text()
RULES = (ROOT / "enumerate" / "rules" / "variants" / "ante-bonus.toml").read_text()
NZ = (ROOT / "enumerate" / "rules" / "variants" / "nz-1994.toml").read_text()
ONE = (ROOT / "enumerate" / "rules" / "variants" / "raise-one-ante.toml").read_text()
WRONG_KEYS = [
    (GOOD, 'name = "us-common"', "name = [1]", "name"),
    (GOOD, 'name = "us-common"', 'name = "a\u0000b"', "not valid TOML"),
    (GOOD, "description = ", "description = 5 #", "description"),
    (GOOD, 'qualifier = "AK"', 'qualifier = "ZZ"', "qualifier"),
    (GOOD, 'qualifier = "AK"', "qualifier = 7", "qualifier"),
    (GOOD, "[raise_pays]", "raise_pays = 3\n[nothing]", "raise_pays"),
    (GOOD, "[ante_pays]", "[ante_pays]\nplayer_loses = 1", "ante_pays"),
    (ONE, "raise_antes = 1", 'raise_antes = "x"', "raise_antes"),
    (ONE, "raise_antes = 1", "raise_antes = 1000000000000", "raise_antes"),
    (NZ, 'face_down_hand = "loses"', 'face_down_hand = "maybe"', "face_down_hand"),
    (CAPPED, 'covers = "raise"', 'covers = "everything"', "max_payout.covers"),
    (CAPPED, "ante = 100", "ante = 0", "max_payout.ante"),
    (RULES, "[ante_bonus]", "[ante_bonus]\nfive_aces = 1", "ante_bonus"),
    (SIDE, 'kind = "player_hand"', 'kind = "lottery"', "side_bets.bonus.kind"),
    (SIDE, "fold_forfeits = false", 'fold_forfeits = "no"', "side_bets.bonus.fold_forfeits"),
    (SIDE, "fold_forfeits = false", "fold_forfeits = false\nwager = -1", "side_bets.bonus.wager"),
    (SIDE, 'dealer_at_least = "22"', 'dealer_at_least = "ZZ"', "side_bets.power_play.dealer_at_least"),
    (SIDE, 'tie = "push"', 'tie = "maybe"', "side_bets.power_play.tie"),
    (SIDE, '"one_pair 2-7" = "push"', '"one_pair 2-Z" = "push"', "side_bets.bonus.pays"),
    (SIDE, '"one_pair 2-7" = "push"', '"one_pair 7-9" = "push"', "side_bets.bonus.pays: 'one_pair 7-9' and 'one_pair 8-A' both cover"),
    (ENVY, "players = 7", "players = 99", "players"),
    (ENVY, "players = 7", "players = 7\nsplit = true", "envy"),
    (PROGRESSIVE, "seed = 0", "seed = -1", "progressive.seed"),
    (PROGRESSIVE, "fold_forfeits = false", 'fold_forfeits = "x"', "progressive.fold_forfeits"),
    (PROGRESSIVE, 'royal_flush = "100% meter"', 'royal_flush = { meter = "10%", cap = -5 }', "progressive.pays.royal_flush"),
]


@pytest.mark.parametrize("base,old,new,needle", WRONG_KEYS, ids=[f"{w[3]}-{i}" for i, w in enumerate(WRONG_KEYS)])
def test_every_key_of_the_variant_file_refuses_a_wrong_value(tmp_path, base, old, new, needle):
    path = _variant(tmp_path, base, old, new)
    refused(tmp_path, "analyze", path, needle=needle)


# --- the rest of the options, each given something it cannot take ---------------------------

@pytest.mark.parametrize("args,needle", [
    (("design", "search", "--vary", "full_house=7..8", "--front", "house_edge:sideways"), "--front"),
    (("design", "search", "--vary", "full_house=7..8", "--front", "luck:max"), "--front"),
    (("design", "search", "--vary", "full_house=7..8", "--csv", "rows.txt"), "--csv"),
    (("design", "search", "--vary", "full_house=7..8", "--plot", "front.jpg"), "--plot"),
    (("design", "search", "--vary", "royal=7..8"), "--vary"),
    (("design", "search", "--vary", "full_house"), "--vary"),
    (("design", "solve", "--vary", "full_house=7..8", "--target", "luck=3%"), "--target"),
    (("design", "solve", "--vary", "full_house=7..8"), "--target"),
    (("strategies", "--raise-at-least", "AKQJT9"), "--raise-at-least"),
    (("collusion", "--strategy", "no_such_module_anywhere:f", "--samples", "10"), "--strategy"),
    (("collusion", "--strategy", "nocolon", "--samples", "10"), "--strategy"),
    (("collusion", "--burn", "maybe"), "invalid choice"),
    (("collusion", "--partners", "1,x"), "--partners"),
    (("edgesort", "--ranks", "A,K,X"), "--ranks"),
    (("plots", "--out", "/proc/no"), "--out"),
    (("check", "--no-protection", "nowhere"), "FOLDER"),
    (("check", "--no-switch-game", "nowhere"), "FOLDER"),
    (("diff", "us-common", "/dev/zero"), "not a regular file"),
    (("variants", "--threads", "0"), "--threads"),
    (("analyze", "us-common", "--checkpoint", "ck"), "its whole game is not counted in shards"),
    (("batch", "us-common", "--checkpoint", "ck", "--out", "o"), "its whole game is not counted in shards"),
    (("batch", "us-common", "royal-200", "--checkpoint", "ck", "--out", "o"), "certify that table alone"),
    (("batch", "--checkpoint", "ck", "--out", "o"), "certify that table alone"),
    (("analyze", "sixth-card", "--checkpoint", "ck"), "its whole game is not counted in shards"),
    (("analyze", str(ROOT / "docs" / "variants" / "oasis-online.toml"), "--checkpoint", "/nonexistent/ck"),
     "/nonexistent: no such folder"),
    (("analyze", str(ROOT / "docs" / "variants" / "oasis-online.toml"), "--checkpoint", "/dev/null"), "not a folder"),
    (("analyze", str(ROOT / "docs" / "variants" / "oasis-online.toml"), "--checkpoint", " "), "a folder path"),
    (("diff", "us-common", "royal-200", "--checkpoint", "ck"), "has a whole game counted in shards"),
    (("diff", str(ROOT / "docs" / "variants" / "oasis-online.toml"), "us-common", "--checkpoint", "ck"),
     "ck: not a checkpoint of the whole game of 'oasis-online' or 'us-common'"),
    (("diff", str(ROOT / "docs" / "variants" / "oasis-online.toml"), "us-common", "--checkpoint", "/nonexistent/ck"),
     "/nonexistent: no such folder"),
    (("diff", str(ROOT / "docs" / "variants" / "oasis-online.toml"), "us-common", "--checkpoint", "/dev/null"),
     "not a checkpoint of the whole game"),
    (("diff", "us-common", "royal-200", "--checkpoint", "a", "--checkpoint", "b", "--checkpoint", "c"),
     "3 folders: diff reads one checkpoint for each of its two tables at most"),
])
def test_every_option_refuses_what_it_cannot_take(tmp_path, us_counts, args, needle):
    refused(tmp_path, *args, needle=needle)


# --- files that are not variant files --------------------------------------------------------

def test_a_fifo_is_not_a_variant_file(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    refused(tmp_path, "analyze", str(fifo), needle="not a regular file")


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_not_a_variant_file(tmp_path, path):
    refused(tmp_path, "analyze", path, needle="not a regular file")
    refused(tmp_path, "design", "sensitivity", path, needle="not a regular file")


# --- impossible requests, refused before any work --------------------------------------------

@pytest.mark.parametrize("args,needle", [
    (("design", "search", "--vary", "full_house=1..1000", "--vary", "flush=1..1000", "--vary", "straight=1..1000",
      "--vary", "two_pairs=1..1000"), "candidate paytables"),
    (("design", "search", "--vary", "full_house=0..1000000/0.0001"), "values: at most"),
    (("design", "search", "--vary", "full_house=7..8", "--bound", "raise_probability=1.5..2"), "no paytable"),
    (("design", "search", "--vary", "full_house=7..8", "--bound", "standard_deviation=-5..-1"), "no paytable"),
    (("design", "search", "--vary", "full_house=7..8", "--bound", "hit_frequency=..-1%"), "no paytable"),
    (("design", "solve", "--vary", "full_house=7..8", "--target", "house_edge=500%"), "no paytable"),
    (("design", "solve", "--vary", "full_house=7..8", "--target", "element_of_risk=2"), "no paytable"),
    (("design", "solve", "--vary", "full_house=7..8", "--target", "rtp=-1%"), "no paytable"),
    (("collusion", "--seed", "-1", "--samples", "10"), "--seed"),
    (("collusion", "--seed", str(2**130), "--samples", "10"), "--seed"),
    (("collusion", "--samples", "1000000000000000000"), "--samples"),
    (("collusion", "--samples", "1"), "--samples"),
    (("collusion", "--partners", "7"), "--partners"),
    (("collusion", "--samples", "10", "--scheduler", "tcp://[::1"), "--scheduler"),
    (("collusion", "--samples", "10", "--scheduler", "\x01"), "--scheduler"),
    (("holecards", "--exposed", "5"), "--exposed"),
    (("holecards", "--exposed", "-1"), "--exposed"),
    (("holecards", "--exposed", "0", "--share", "3/2"), "--share"),
    (("edgesort", "--ranks", "XYZ"), "--ranks"),
    (("batch", "us-common", "--hands", "0"), "--hands"),
    (("batch", "us-common", "--hands", "x"), "--hands"),
    (("batch", "us-common", "--formats", "docx"), "--formats"),
    (("batch", "us-common", "--protection", "9"), "--protection"),
    (("batch", "ante-bonus", "--protection", "0"), "without an ante bonus"),
    (("hand", "As Kd Jh 8c 3s", "--up", "As"), "--up"),
    (("hand", "As Kd Jh 8c 3s", "us-common", "--variant", "royal-200"), "given twice"),
    (("ev-table", "--out", "x.xlsx"), "--out"),
    (("design", "solve", "--vary", "full_house=7..8", "--target", "house_edge=3%", "--write", "x.txt"), "--write"),
    (("design", "solve", "--vary", "full_house=7..8", "--target", "house_edge=3%", "--best", "0"), "--best"),
    (("analyze", "--threads", "-2"), "--threads"),
])
def test_impossible_requests_are_refused_up_front(tmp_path, us_counts, args, needle):
    refused(tmp_path, *args, needle=needle)


# --- user code is input ----------------------------------------------------------------------

STRATEGIES = {
    "raises": "def f(hand, up, seen):\n    raise ValueError('boom')\n",
    "says_no": "def f(hand, up, seen):\n    return 'no'\n",
    "says_none": "def f(hand, up, seen):\n    return None\n",
    "array": "import numpy as np\ndef f(hand, up, seen):\n    return np.array([True, False])\n",
    "signature": "def f(hand):\n    return True\n",
    "exits": "import sys\ndef f(hand, up, seen):\n    sys.exit(0)\n",
    "interrupts": "def f(hand, up, seen):\n    raise KeyboardInterrupt\n",
    "exits_on_import": "import sys\nsys.exit(3)\ndef f(hand, up, seen):\n    return True\n",
    "not_a_function": "f = 3\n",
}


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_a_bad_user_strategy_is_bad_input(tmp_path, us_counts, name):
    module = tmp_path / f"strat_{name}.py"
    module.write_text(STRATEGIES[name])
    refused(tmp_path, "collusion", "--samples", "20", "--partners", "1", "--strategy", f"{module}:f",
            needle="strategy")


# --- check names damage ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def committed(tmp_path_factory, us_counts):
    folder = tmp_path_factory.mktemp("committed")
    r = run_cli("batch", "us-common", "--out", str(folder / "t"), "--formats", "md", "--quiet", cwd=folder)
    assert r.returncode == 0, r.stderr
    return folder / "t"


@pytest.mark.parametrize("damage,file,needle", [
    (lambda p: p.write_text("{garbled"), "summary.json", "summary.json: not valid JSON ("),
    (lambda p: p.write_text(p.read_text()[:500]), "summary.json", "summary.json: not valid JSON, it ends early"),
    (lambda p: p.write_text('{"kind": "other"}'), "summary.json", "not a 'certified_table' object"),
    (lambda p: p.write_bytes(b"\xff\xfe"), "summary.json", "not UTF-8"),
    (lambda p: p.write_text("name = "), "variant.toml", "variant.toml:"),
    (lambda p: p.unlink(), "variant.toml", "variant.toml: no such file"),
])
def test_check_names_the_damaged_file(tmp_path, committed, damage, file, needle):
    import shutil
    copy = tmp_path / "t"
    shutil.copytree(committed, copy)
    damage(copy / "us-common" / file)
    r = run_cli("check", str(copy), "--quiet", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert needle in r.stdout, r.stdout


def test_check_names_a_damaged_protection_file_and_does_not_recompute(tmp_path, committed):
    import shutil
    copy = tmp_path / "t"
    shutil.copytree(committed, copy)
    good = (ROOT / "results" / "us-common" / "protection.json").read_text()
    for text, needle in ((good[: len(good) // 2], "protection.json: not valid JSON, it ends early"),
                         (good.replace('"exposed_hole_cards": 4', '"exposed_hole_cards": 9'), "invalid exposure level 9")):
        (copy / "us-common" / "protection.json").write_text(text)
        for extra in ((), ("--no-protection",)):
            start = time.process_time()
            r = run_cli("check", str(copy), "--quiet", *extra, cwd=tmp_path)
            assert r.returncode == 1 and needle in r.stdout, (extra, r.stdout)
            assert r.stdout.splitlines()[0].count("difference") == 0   # named as damage, not as figures
            assert time.process_time() - start < 60                    # nothing recomputed (CPU-minutes)


# --- the parsers, fuzzed ---------------------------------------------------------------------

def _decided(parse, value):
    """A parser decides at once: a hang bound in CPU time (a number like 1e999999999 must not
    be expanded), generous enough for any machine."""
    start = time.process_time()
    try:
        parse(value)
    except StudoddsError:
        pass
    assert time.process_time() - start < 5, value


NUMBERISH = st.one_of(
    st.text(max_size=40),
    st.from_regex(r"[+-]?\d{0,60}(\.\d{0,60})?([eE][+-]?\d{1,12})?", fullmatch=True),
    st.from_regex(r"\d{1,60}/\d{1,60}", fullmatch=True),
)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, derandomize=True)
@given(NUMBERISH)
def test_amounts_are_decided_at_once(text):
    _decided(parse_rational, text)
    try:
        value = parse_amount(text)
    except StudoddsError:
        return
    assert isinstance(value, Fraction) and 0 <= value <= MAX_PAY and value.denominator <= MAX_PAY


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(NUMBERISH, NUMBERISH)
def test_design_parsers_are_decided_at_once(a, b):
    for parse, text in ((Axis.parse, f"full_house={a}..{b}"), (Axis.parse, f"flush={a},{b}"),
                        (Bound.parse, f"house_edge={a}..{b}"), (Target.parse, f"rtp={a}")):
        _decided(parse, text)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, derandomize=True)
@given(NUMBERISH)
def test_variant_file_numbers_are_decided_at_once(text):
    doc = tomllib.loads(GOOD)
    doc["raise_pays"]["full_house"] = text
    from enumerate.rules.variant_file import parse_variant
    _decided(lambda d: parse_variant(d, "fuzz.toml"), doc)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.one_of(NUMBERISH, NUMBERISH.map(lambda t: t + "%")))
def test_shares_are_decided_at_once(text):
    """``--share`` / ``shares=``: a number from 0 to 1 (or a percentage), decided at once."""
    from studodds.api import _share
    _decided(_share, text)
    try:
        value = _share(text)
    except StudoddsError:
        return
    assert 0 <= value <= 1


@pytest.mark.slow
def test_pays_over_large_prime_denominators_certify_in_bounded_memory(tmp_path, us_counts):
    """Pays over large prime-ish denominators spread the net results over millions of slots (the
    dense N-hand table was killed at 23 GB): the whole certified table, default N-hand rows
    included, is made in well under 1 GB and passes its own check."""
    path = _variant(tmp_path, GOOD.replace("one_pair = 1", 'one_pair = "4021/9082"'), "high_card = 1",
                    'high_card = "1829/2488"')
    # VmHWM: this process's own peak (ru_maxrss would carry over the forking test process's)
    probe = ("import re, sys; from studodds.cli import main; code = main(sys.argv[1:]); "
             "print(re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1), file=sys.stderr); "
             "sys.exit(code)")
    r = subprocess.run([sys.executable, "-c", probe, "batch", path, "--out", "t", "--formats", "md", "--quiet"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    peak_mb = int(r.stderr.strip().splitlines()[-1]) / 1024
    assert peak_mb < 1024, (peak_mb, r.stderr)
    rows = json.loads((tmp_path / "t" / "us-common" / "summary.json").read_text())["certification"]["n_hands"]
    assert [h["hands"] for h in rows] == [1, 10, 100, 1000, 10000]
    assert [h["method"] for h in rows] == ["exact", "exact", "fft", "fft", "fft"]
    assert all(0 < h["error_bound"] < 0.01 for h in rows[2:])
    assert run_cli("check", "t", "--quiet", cwd=tmp_path).returncode == 0
