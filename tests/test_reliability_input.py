"""Bad input: every CLI argument and variant field, plus property-based fuzzing of the parsers.

Every failure must be one line on stderr naming the problem, exit code 2, no traceback, and no
output file left behind."""
import tempfile
from pathlib import Path

import pytest
from cli_runner import run_cli
from fuzzstats import tick
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from enumerate.rules.variant_file import load_variant_file, parse_variant, parse_variant_text
from evaluator.cards import parse_card, parse_hand
from evaluator.errors import StudoddsError

WORK = Path(tempfile.mkdtemp(prefix="studodds-bad-"))
GOOD_VARIANT = (Path(__file__).resolve().parent.parent / "enumerate" / "rules" / "variants" / "us-common.toml").read_text()


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def run(*args):
    return run_cli(*args, cwd=WORK)


def _variant_file(name: str, text: str | bytes) -> str:
    p = WORK / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(p)


@pytest.fixture(scope="module", autouse=True)
def warm(us_counts):
    (WORK / "a_file").write_text("x")
    (WORK / "empty_dir").mkdir(exist_ok=True)


def cases():
    """(command line, text the error must contain)."""
    out = WORK / "out"
    return [
        (["analyze", "nope"], "unknown variant 'nope'"),
        (["analyze", "--threads", "0"], "--threads: must be from 1 to 256, got 0"),
        (["analyze", "--threads", "two"], "is not a whole number of threads from 1 to 256"),
        (["analyze", "--bogus"], "unrecognized arguments"),
        (["analyze", str(WORK / "missing.toml")], "no such file"),
        (["analyze", str(WORK / "empty_dir")], "is a folder"),
        (["analyze", "__empty__"], "name: missing or empty"),
        (["analyze", "__binary__"], "not a UTF-8 text file"),
        (["analyze", "__huge__"], "file too large"),
        (["analyze", "__huge_pay__"], "raise_pays.full_house: too large"),
        (["analyze", "__many_fractions__"], "pays too large for exact 64-bit"),
        (["analyze", "__neg__"], "must not be negative"),
        (["analyze", "__typo__"], "did you mean 'full_house'"),
        (["batch", "nope", "--out", str(out)], "unknown variant"),
        (["batch", "us-common", "--out", str(WORK / "a_file")], "exists and is not a folder"),
        (["batch", str(WORK / "empty_dir"), "--out", str(out)], "holds no .toml"),
        (["batch", "us-common", "us-common", "--out", str(out)], "is also the name of"),
        (["batch", "us-common", "--out", "/proc/no/such"], "/proc/no/such"),
        (["check", str(WORK / "missing")], "no such folder"),
        (["check", str(WORK / "empty_dir")], "holds no certified table"),
        (["diff", "us-common", "nope"], "unknown variant 'nope'"),
        (["diff", "us-common"], "diff compares two tables: name both"),
        (["hand", "As Kd Jh 8c"], "expected 5 cards"),
        (["hand", "As Kd Jh 8c 3s 2d"], "expected 5 cards"),
        (["hand", "As Kd Jh 8c Xs"], "bad card 'Xs'"),
        (["hand", "As As Jh 8c 3s"], "duplicate card As"),
        (["hand", "", "--up", "7d"], "expected 5 cards"),
        (["hand", "As Kd Jh 8c 3s", "--up", "As"], "also in the player's hand"),
        (["hand", "As Kd Jh 8c 3s", "--up", "1x"], "bad card '1x'"),
        (["hand", "As Kd Jh 8c 3s", "--variant", "nope"], "unknown variant"),
        (["hand", "\x01\x02\x03 \x7f"], "bad card"),
        (["hand", "A" * 100000], "bad card"),
        (["ev-table", "--out", str(WORK / "x.txt")], "must end in .npz or .csv"),
        (["ev-table", "--out", str(WORK / "no" / "x.npz")], "no such folder"),
        (["ev-table", "--out", "/proc/x.npz"], "/proc/x.npz"),
        (["ev-table"], "the following arguments are required: --out"),
        (["strategies", "--raise-at-least", "AKZ"], "--raise-at-least"),
        (["strategies", "--raise-at-least", "AAAAA"], "more than four times"),
        (["plots", "--out", str(WORK / "a_file")], ""),
        (["progressive", "--meter", "lots"], "--meter"),
        (["progressive", "--meter", "-5"], "must not be negative"),
        (["progressive", "--side-wager", "0"], "--side-wager"),
        (["progressive", "--variant", "us-common"], "has no [progressive] side bet"),
        (["nosuchcommand"], "invalid choice"),
    ]


def _materialise(args):
    special = {
        "__empty__": lambda: _variant_file("empty.toml", ""),
        "__binary__": lambda: _variant_file("binary.toml", bytes(range(256)) * 4),
        "__huge__": lambda: _variant_file("huge.toml", "# " + "x" * (2 << 20)),
        "__huge_pay__": lambda: _variant_file("hugepay.toml", GOOD_VARIANT.replace("full_house = 7", "full_house = 1000000000000000000000")),
        "__neg__": lambda: _variant_file("neg.toml", GOOD_VARIANT.replace("full_house = 7", "full_house = -7")),
        "__many_fractions__": lambda: _variant_file("frac.toml", GOOD_VARIANT.replace("full_house = 7", 'full_house = "7/999999937"').replace("\nflush = 5", '\nflush = "5/999999929"').replace("straight = 4", 'straight = "4/999999893"')),
        "__typo__": lambda: _variant_file("typo.toml", GOOD_VARIANT.replace("full_house = 7", "full_hosue = 7")),
    }
    return [special[a]() if a in special else a for a in args]


def test_key_with_a_newline_gives_one_line():
    """Found by the fuzzer: a key holding a newline must not split the error message."""
    import tomllib
    doc = tomllib.loads(GOOD_VARIANT)
    doc["raise_pays"]["\n"] = 1
    with pytest.raises(StudoddsError) as info:
        parse_variant(doc, "fuzz.toml")
    assert "\n" not in str(info.value) and "raise_pays.'\\n': unknown key" in str(info.value)


def test_newline_in_a_path_gives_one_line():
    r = run("analyze", str(WORK / "no\nsuch.toml"), "--quiet")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no such file" in r.stderr


@pytest.mark.parametrize("args,needle", cases(),                 # ids without the random folder name
                         ids=lambda x: " ".join(x).replace(str(WORK), "WORK")[:40] if isinstance(x, list) else None)
def test_every_bad_cli_argument(args, needle):
    before = _files(WORK)
    r = run(*_materialise(args), "--quiet") if args[0] not in ("nosuchcommand",) else run(*args)
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("studodds: error: "), r.stderr
    assert needle in lines[0]
    created = _files(WORK) - before - {"empty.toml", "binary.toml", "huge.toml", "hugepay.toml", "neg.toml", "typo.toml", "frac.toml"}
    assert not created, created                     # never a partial output file


# ----------------------------------------------------------------------------------- fuzzing

@pytest.mark.slow
@settings(max_examples=3000, deadline=None, derandomize=True)
@given(st.text(max_size=12))
def test_fuzz_card_parser(text):
    tick("card parser")
    try:
        card = parse_card(text)
    except StudoddsError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert 0 <= card < 52


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, derandomize=True)
@given(st.one_of(st.text(max_size=40), st.lists(st.text(max_size=4), max_size=7)))
def test_fuzz_hand_parser(value):
    tick("hand parser")
    try:
        cards = parse_hand(value)
    except StudoddsError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert len(set(cards)) == 5


_scalars = st.one_of(st.integers(-10**20, 10**20), st.floats(allow_nan=True), st.booleans(),
                     st.text(max_size=8), st.sampled_from(["5/2", "70%", "1/0", "-1", "2.5", "100% meter", "AK", "none", "44"]))
_values = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                       max_leaves=6)
_keys = st.sampled_from(["name", "description", "qualifier", "raise_pays", "ante_pays", "progressive", "royal_flush",
                         "straight_flush", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind",
                         "two_pairs", "one_pair", "high_card", "pays", "contribution", "seed", "fold_forfeits",
                         "dealer_does_not_qualify", "player_wins", "meter", "cap", "bogus"])


@st.composite
def variant_documents(draw):
    """Mostly-valid variant documents with random damage."""
    import tomllib
    doc = tomllib.loads(GOOD_VARIANT)
    for _ in range(draw(st.integers(0, 4))):
        target = draw(st.sampled_from(["top", "raise_pays", "ante_pays", "progressive"]))
        table = doc if target == "top" else doc.setdefault(target, {})
        if not isinstance(table, dict):
            continue
        if table and draw(st.booleans()):
            table.pop(draw(st.sampled_from(sorted(table))), None)
        else:
            table[draw(_keys)] = draw(_values)
    return doc


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(variant_documents())
def test_fuzz_variant_parser(doc):
    tick("variant parser")
    try:
        v = parse_variant(doc, "fuzz.toml")
    except StudoddsError as exc:
        msg = str(exc)
        assert msg.startswith("fuzz.toml") and "\n" not in msg
    else:
        assert all(p >= 0 for p in v.raise_pays.values())


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, derandomize=True)
@given(st.binary(max_size=300))
def test_fuzz_variant_bytes(data):
    tick("variant file bytes")
    path = WORK / "fuzz.toml"
    path.write_bytes(data)
    try:
        load_variant_file(path)
    except StudoddsError as exc:
        assert "\n" not in str(exc)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, derandomize=True)
@given(st.text(max_size=200))
def test_fuzz_variant_text(text):
    tick("variant file text")
    try:
        parse_variant_text(text, "t.toml")
    except StudoddsError as exc:
        assert "\n" not in str(exc)
