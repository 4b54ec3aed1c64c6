"""Variant files: strict validation, exact rational pays, qualifiers, the built-in library."""
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from enumerate.analysis.base import analyze
from enumerate.rules.qualifier import parse_qualifier
from enumerate.rules.variant_file import builtin_names, load_builtin, load_variant_file, parse_variant_text, resolve_many
from evaluator.errors import StudoddsError
from evaluator.ranking import Category, strength

GOOD = """
name = "t"
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


def variant_text(**replace):
    text = GOOD
    for old, new in replace.items():
        text = text.replace(old, new)
    return text


def test_good_file_parses(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text(GOOD)
    src = load_variant_file(p)
    assert src.variant.pay(Category.FULL_HOUSE) == 7 and src.variant.royal_separate
    assert len(src.sha256) == 64


@pytest.mark.parametrize("text,message", [
    (variant_text(**{"\nflush = 5": "\nflsuh = 5"}), "raise_pays.flsuh: unknown key (did you mean 'flush'?)"),
    ("qualifer = 'AK'\n" + GOOD, "bad.toml: qualifer: unknown key (did you mean 'qualifier'?)"),
    (variant_text(**{"full_house = 7\n": ""}), "raise_pays: missing pay for full_house"),
    (variant_text(**{"\nflush = 5": "\nflush = -5"}), "raise_pays.flush: must not be negative"),
    (variant_text(**{"\nflush = 5": '\nflush = "five"'}), "raise_pays.flush: 'five' is not a number"),
    (variant_text(**{"\nflush = 5": "\nflush = true"}), "raise_pays.flush: must be a number, not true/false"),
    (variant_text(**{"\nflush = 5": "\nflush = [5]"}), "raise_pays.flush: must be a number, got list"),
    (variant_text(**{"\nflush = 5": '\nflush = "5/0"'}), "raise_pays.flush: '5/0' is not a number"),
    (variant_text(**{"\nflush = 5": "\nflush = nan"}), "raise_pays.flush: must be a finite number"),
    (GOOD.replace('name = "t"', 'name = "t"\nqualifier = "AAAAA"'), "qualifier: qualifier 'AAAAA': a rank appears more than four times"),
    (GOOD.replace('name = "t"', 'name = "t"\nqualifier = "AX"'), "qualifier: qualifier 'AX': 'X' is not a rank"),
    (GOOD.replace('name = "t"', 'name = "t"\nqualifier = "AKQJT9"'), "more than five ranks"),
    (GOOD.replace('name = "t"', 'name = ""'), "name: missing or empty"),
    (GOOD.replace('name = "t"', 'name = "a/b"'), "may hold only letters"),
    (GOOD.replace("[raise_pays]", "[raise_pays]\n[ante_pays]\nplayer_wins = -1\n[raise_pays2]"), "unknown key"),
    (GOOD + "\n[ante_pays]\nplayer_wins = -1\n", "ante_pays.player_wins: must not be negative"),
    (GOOD + "\n[progressive]\ncontribution = \"120%\"\n[progressive.pays]\nflush = 50\n", "progressive.contribution: cannot exceed 100%"),
    (GOOD + "\n[progressive]\n[progressive.pays]\nstraight = 50\n", "progressive.pays.straight: unknown key"),
    (GOOD + "\n[progressive]\n[progressive.pays]\nroyal_flush = \"150% meter\"\n", "cannot exceed 100% of the meter"),
    (GOOD + "\n[progressive]\nfold_forfeits = 1\n[progressive.pays]\nflush = 5\n", "progressive.fold_forfeits: must be true or false"),
    ("name = [", "not valid TOML"),
])
def test_validation_errors_name_file_key_and_reason(text, message):
    with pytest.raises(StudoddsError) as info:
        parse_variant_text(text, "bad.toml")
    msg = str(info.value)
    assert msg.startswith("bad.toml: ")
    assert message in msg
    assert "\n" not in msg


def test_unreadable_and_odd_paths(tmp_path):
    with pytest.raises(StudoddsError, match="no such file"):
        load_variant_file(tmp_path / "missing.toml")
    with pytest.raises(StudoddsError, match="is a folder"):
        load_variant_file(tmp_path)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00\x01garbage")
    with pytest.raises(StudoddsError, match="not a UTF-8 text file"):
        load_variant_file(binary)


def test_duplicate_names_are_rejected(tmp_path):
    (tmp_path / "a.toml").write_text(GOOD)
    (tmp_path / "b.toml").write_text(GOOD)
    with pytest.raises(StudoddsError, match="'t' is also the name of"):
        resolve_many([str(tmp_path)])


def test_royal_folded_into_straight_flush():
    v = parse_variant_text(variant_text(**{"royal_flush = 100\n": ""}), "x")
    assert not v.royal_separate and v.pay(Category.ROYAL_FLUSH) == 50


def test_qualifier_forms():
    assert parse_qualifier("AK").threshold == strength("Ah Kd 4c 3s 2c")
    assert parse_qualifier("ak432").threshold == strength("Ah Kd 4c 3s 2c")
    assert parse_qualifier("44").threshold == strength("4h 4d 5c 3s 2c")
    assert parse_qualifier("A").threshold == strength("Ah 6d 4c 3s 2c")      # A-5-4-3-2 is a straight
    assert parse_qualifier("QQ55").threshold == strength("Qh Qd 5c 5s 2c")
    assert parse_qualifier("none").threshold == 0
    assert parse_qualifier("Ah Kd 4c 3s 2c").threshold == strength("Ah Kd 4c 3s 2c")


def test_builtin_library():
    names = builtin_names()
    for expected in ["us-common", "uk-casino-stud", "royal-200", "cyberstud", "progressive-100-75-50",
                     "progressive-150-100-50"]:
        assert expected in names
    uk = load_builtin("uk-casino-stud").variant
    assert not uk.royal_separate
    assert (uk.pay(Category.STRAIGHT_FLUSH), uk.pay(Category.FULL_HOUSE), uk.pay(Category.FLUSH),
            uk.pay(Category.ONE_PAIR), uk.pay(Category.HIGH_CARD)) == (50, 8, 6, 1, 1)
    cyber = load_builtin("cyberstud").variant
    assert cyber.pay(Category.ROYAL_FLUSH) == 999 and cyber.pay(Category.TWO_PAIR) == 1


def _independent_total(counts, pays: dict, ante_nq=Fraction(1), ante_win=Fraction(1)) -> Fraction:
    """Total return over all combinations, computed with numpy int64 per situation and Python
    Fractions per category (a different path from the Cython aggregation)."""
    from evaluator.ranking import CATEGORY_BY_STRENGTH
    cat = CATEGORY_BY_STRENGTH[counts.strength]
    total = Fraction(0)
    nq = counts.no_qualify.astype(np.int64)
    win = counts.win.astype(np.int64)
    lose = counts.lose
    for c in Category:
        rows = cat == c
        if not rows.any():
            continue
        pay = Fraction(pays[c])
        d = pay.denominator * ante_nq.denominator * ante_win.denominator
        a_nq = int(ante_nq * d)
        a_win = int((ante_win + 2 * pay) * d)
        ev = nq[rows] * a_nq + win[rows] * a_win - 3 * d * lose[rows]       # EV(raise) * 163185 * d
        best = np.maximum(ev, -163185 * d)
        total += Fraction(int((best.sum(axis=1) * counts.weight[rows]).sum()), d)
    return total


def test_exact_rational_pays(us_counts):
    text = variant_text(**{"full_house = 7": 'full_house = "22/3"', "high_card = 1": 'high_card = "2.5"',
                           "\nflush = 5": "\nflush = 5.25"})
    v = parse_variant_text(text, "x")
    assert v.pay(Category.FULL_HOUSE) == Fraction(22, 3)
    assert v.pay(Category.HIGH_CARD) == Fraction(5, 2)
    assert v.pay(Category.FLUSH) == Fraction(21, 4)
    a = analyze(us_counts, v)
    assert -a.total_loss == _independent_total(us_counts, dict(v.raise_pays))


def test_us_total_by_the_independent_path(us_counts):
    v = load_builtin("us-common").variant
    assert _independent_total(us_counts, dict(v.raise_pays)) == -1_041_372_912_372


@pytest.fixture(scope="module")
def pair_counts():
    from enumerate.core.counts import load_or_compute
    return load_or_compute(parse_qualifier("44").threshold)


def test_qualifier_variant_counts_differ_and_match_brute_force(us_counts, pair_counts):
    from enumerate.analysis.selfcheck import brute_force, sample_situations
    from enumerate.analysis.situation import counts_of
    assert not np.array_equal(pair_counts.no_qualify, us_counts.no_qualify)
    q = parse_qualifier("44").threshold
    for cards, up in sample_situations(6, seed=5) + [((51, 47, 20, 9, 2), 13), ((12, 13, 30, 31, 44), 14)]:
        assert counts_of(pair_counts, cards, up) == brute_force(cards, up, q)
    v = parse_variant_text(GOOD.replace('name = "t"', 'name = "t"\nqualifier = "44"'), "x")
    a = analyze(pair_counts, v)
    assert -a.total_loss == _independent_total(pair_counts, dict(v.raise_pays))
    assert a.dealer_qualifies < analyze(us_counts, load_builtin("us-common").variant).dealer_qualifies


@pytest.mark.slow
def test_no_qualifier_means_dealer_always_qualifies():
    from enumerate.analysis.selfcheck import brute_force, sample_situations
    from enumerate.analysis.situation import counts_of
    from enumerate.core.counts import load_or_compute
    table = load_or_compute(0)
    assert int(table.no_qualify.max()) == 0
    for cards, up in sample_situations(4, seed=9):
        assert counts_of(table, cards, up) == brute_force(cards, up, 0)


def _variant_text(**changes):
    text = (Path(__file__).resolve().parent.parent / "enumerate" / "rules" / "variants" / "us-common.toml").read_text()
    for old, new in changes.items():
        text = text.replace(old.replace("_eq_", " = "), new)
    return text


SANITY = [
    ("royal below straight flush", {"royal_flush_eq_100": "royal_flush = 40"},
     "raise_pays.royal_flush (40) pays less than the weaker raise_pays.straight_flush (50)"),
    pytest.param("qualifier none", {'qualifier_eq_"AK"': 'qualifier = "none"'},
                 "qualifier \"none\": the dealer always qualifies", marks=pytest.mark.slow),
    pytest.param("player edge", {"player_wins_eq_1": "player_wins = 5"}, "the player has the edge", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("case,changes,needle", SANITY, ids=["royal below straight flush", "qualifier none", "player edge"])
def test_sanity_warnings_are_printed_reported_and_strict(tmp_path, us_counts, case, changes, needle):
    from cli_runner import run_cli
    f = tmp_path / "odd.toml"
    f.write_text(_variant_text(**changes).replace('name = "us-common"', 'name = "odd"'))
    r = run_cli("analyze", str(f), "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"studodds: warning: odd: {needle}" in r.stderr
    r = run_cli("analyze", str(f), "--strict", "--quiet", cwd=tmp_path)
    assert r.returncode == 2 and needle in r.stderr and r.stderr.count("\n") == 1
    r = run_cli("batch", str(f), "--out", str(tmp_path / "out"), "--quiet", cwd=tmp_path)
    assert r.returncode == 0
    report = (tmp_path / "out" / "odd" / "report.md").read_text()
    assert "## Warnings" in report and needle in report
    assert needle in " ".join(json.loads((tmp_path / "out" / "odd" / "summary.json").read_text())["analysis"]["warnings"])
    r = run_cli("batch", str(f), "--out", str(tmp_path / "strict"), "--strict", "--quiet", cwd=tmp_path)
    assert r.returncode == 2 and not (tmp_path / "strict" / "odd" / "summary.json").exists()
    if case == "qualifier none":
        assert "Dealer does not qualify: ante pays" not in report and "the dealer always qualifies" in report


def test_built_in_variants_have_no_warnings():
    for name in builtin_names():
        from enumerate.rules.sanity import rule_warnings
        assert rule_warnings(load_builtin(name).variant) == [], name
