"""A table of two boxes (the [boxes] rule): the section parsed and refused, the kind and what it
refuses, the certified table's figures read back from its exact sums and tied to the one-box
table and to protection.json's two-box figures (the same kernel run keyed apart), the committed
sums verified when read (an edited or damaged file is named), and the report and workbook.

The kernel itself -- each box decided seeing both hands, the boxes' cross moment -- is checked
against a brute force over every concrete pair of hands in tests/test_two_boxes.py."""
import json
import shutil
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import run_cli
from fuzzstats import tick
from hypothesis import given, settings
from hypothesis import strategies as st

from enumerate.core.slices import sealed, unsealed
from enumerate.game.kinds import kind_of, require
from enumerate.rules.boxes import Boxes
from enumerate.rules.variant_file import parse_variant, parse_variant_text
from evaluator.errors import ParameterError, StudoddsError

REPO = Path(__file__).resolve().parent.parent
FILE = REPO / "docs" / "variants" / "us-common-two-boxes.toml"
TEXT = FILE.read_text()
TABLE = REPO / "results" / "us-common-two-boxes"


def _with(section: str) -> str:
    return TEXT[:TEXT.index("[boxes]")] + section


def test_the_boxes_section_makes_a_table_of_two_boxes():
    v = parse_variant_text(TEXT, "two.toml")
    assert v.boxes == Boxes(2, "seeing_both_hands")
    assert v.to_dict()["boxes"] == {"count": 2, "decisions": "seeing_both_hands"}
    one = v.single_box()
    assert one.boxes is None and one.raise_pays == v.raise_pays and one.qualifier == v.qualifier
    assert kind_of(v).name == "boxes" and kind_of(one).name == "plain"


@pytest.mark.parametrize("section, message", [
    ("[boxes]\ncount = 3\ndecisions = \"seeing_both_hands\"\n", "boxes.count: 3: two boxes are modelled"),
    ("[boxes]\ncount = true\ndecisions = \"seeing_both_hands\"\n", "boxes.count: True: two boxes are modelled"),
    ("[boxes]\ncount = \"2\"\ndecisions = \"seeing_both_hands\"\n", "boxes.count: '2': two boxes are modelled"),
    ("[boxes]\ncount = 2.0\ndecisions = \"seeing_both_hands\"\n", "boxes.count: 2.0"),
    ("[boxes]\ncount = 2\ndecisions = \"first_box_blind\"\n", "boxes.decisions: 'first_box_blind': one of seeing_both_hands"),
    ("[boxes]\ncount = 2\ndecisions = 1\n", "boxes.decisions: 1"),
    ("[boxes]\ncount = 2\n", "boxes.decisions: missing"),
    ("[boxes]\ndecisions = \"seeing_both_hands\"\n", "boxes.count: missing"),
    ("[boxes]\ncount = 2\ndecisions = \"seeing_both_hands\"\nseats = 2\n", "boxes.seats: unknown key"),
    ("boxes = 2\n", "boxes: must be a table"),
    ("[boxes]\ncount = 2\ndecisions = \"seeing_both_hands\"\n[switch]\nfees = { 1 = 1 }\n",
     "boxes: two boxes at a table with switching or a sixth card are not modelled"),
    ("[boxes]\ncount = 2\ndecisions = \"seeing_both_hands\"\n[buy_card]\nfee = 1\n", "a sixth card are not modelled"),
])
def test_a_bad_boxes_section_is_one_line_naming_the_key(section, message):
    text = section + _with("") if section.startswith("boxes =") else _with(section)
    with pytest.raises(StudoddsError) as e:
        parse_variant_text(text, "two.toml")
    assert str(e.value).startswith("two.toml: ") and message in str(e.value) and "\n" not in str(e.value)


_values = st.one_of(st.integers(-5, 5), st.booleans(), st.floats(allow_nan=True), st.text(max_size=20),
                    st.sampled_from(["seeing_both_hands", "2", ""]), st.lists(st.integers(), max_size=2),
                    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.one_of(_values, st.dictionaries(st.sampled_from(["count", "decisions", "seats", "Count"]), _values,
                                          max_size=4)))
def test_fuzz_the_boxes_section(section):
    """Any [boxes] value: a table of two boxes, or one line starting with the file's name."""
    tick("boxes section")
    doc = tomllib.loads(TEXT)
    doc["boxes"] = section
    try:
        v = parse_variant(doc, "fuzz.toml")
    except StudoddsError as exc:
        assert str(exc).startswith("fuzz.toml: boxes") and "\n" not in str(exc)
    else:
        assert v.boxes == Boxes() and section == {"count": 2, "decisions": "seeing_both_hands"}


@pytest.mark.parametrize("extra, message", [
    ("[ante_bonus]\nstraight = 1\n", "not with an ante bonus"),
    ("face_down_hand = \"loses\"\n", "not with a hand left face down"),
])
def test_two_boxes_are_refused_where_the_kernel_does_not_model_them(extra, message):
    top = "face_down_hand" in extra
    text = (extra + TEXT) if top else (TEXT + "\n" + extra)
    v = parse_variant_text(text, "x.toml")
    with pytest.raises(StudoddsError, match=message):
        require(v, "analyze")


@pytest.mark.parametrize("analysis, command", [("hand", "one hand's EVs"), ("simulate", "the simulation"),
                                               ("protection", "game protection"), ("diff", "a comparison")])
def test_what_a_table_of_two_boxes_does_not_support(analysis, command):
    v = parse_variant_text(TEXT, "two.toml")
    with pytest.raises(StudoddsError, match=f"is a table of two boxes .*: {command}.* is not supported for this kind"):
        require(v, analysis)


@pytest.mark.parametrize("args", [("hand", "As Kd Jh 8c 3s", "--up", "7d", "--variant", FILE),
                                  ("simulate", FILE, "--games", "1000"),
                                  ("batch", FILE, "--protection", "--out", "never"),
                                  ("batch", FILE, "--simulate", "1000", "--out", "never"),
                                  ("holecards", FILE)])
def test_the_commands_refuse_it_in_one_line(tmp_path, args):
    r = run_cli(*args, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "two boxes" in r.stderr, r.stderr
    assert not (tmp_path / "never").exists()


# ------------------------------------------------------------------------------ the certified table

@pytest.fixture(scope="module")
def committed():
    """The committed table's whole game, from its boxes_game.json (verified against the count table)."""
    from enumerate.boxes import game
    from enumerate.core import exact_game
    from studodds import api
    v = api.load_variant(FILE)
    with exact_game.given(game.KEPT, v, unsealed(json.loads((TABLE / "boxes_game.json").read_text()))):
        s = game.whole_game(v, api.count_table(v))
    return v, s


@pytest.mark.slow
def test_the_committed_sums_give_the_committed_figures_and_protection_jsons(committed):
    """From boxes_game.json: the summary's analysis to the last digit; per box the seen-hand game
    of results/us-common/protection.json (counted there with the one-box file's key); one box
    alone the us-common table's house edge."""
    from enumerate.boxes.game import boxes_analysis
    from enumerate.game.analysis import _game
    v, s = committed
    a, figures = boxes_analysis(v, s)
    summary = json.loads((TABLE / "summary.json").read_text())["analysis"]
    made = _game(a, {"boxes": figures}).to_dict()
    assert made["return_table"] == summary["return_table"] and made["boxes"] == summary["boxes"]
    assert made["house_edge_per_ante"] == summary["house_edge_per_ante"] and summary["indifferent_situations"] is None
    seen = json.loads((REPO / "results" / "us-common" / "protection.json").read_text())["seen_hand"]
    two = seen["two_boxes"]
    for key in ("house_edge_per_box", "gain_per_box_antes", "both_boxes_raise_share", "correlation_of_the_boxes",
                "covariance_of_the_boxes_antes_squared", "variance_per_round_antes_squared"):
        assert made["boxes"][key] == two[key], key
    assert made["house_edge_per_ante"] == seen["house_edge_seeing_partner"]
    assert made["variance_antes_squared"] == seen["seeing_variance_per_hand"]
    alone = json.loads((REPO / "results" / "us-common" / "summary.json").read_text())["analysis"]
    assert made["boxes"]["house_edge_one_box_alone"] == alone["house_edge_per_ante"]
    assert Fraction(made["boxes"]["variance_per_round_antes_squared"]["exact"]) == 2 * Fraction(
        summary["variance_antes_squared"]["exact"]) + 2 * Fraction(made["boxes"]["covariance_of_the_boxes_antes_squared"]["exact"])
    rows = summary["return_table"]
    assert sum(r["combinations"] for r in rows) == summary["total_combinations"] == s.sums.situations * 101_270
    assert max(r["combinations"] for r in rows) < 2**63           # pandas reads every row as int64


@pytest.mark.slow
def test_edited_committed_sums_are_refused(committed, tmp_path):
    """A damaged boxes_game.json is named by check as the table's difference, and the check goes
    on: any edit with the checksum left as it was; with the checksum made anew, a field out of
    shape, an old version, the wrong digest, a sum that still adds up on its own (the count table
    sees it), the second box's value (the symmetry sees it), a cross moment changed (the figures
    differ); a file that is not JSON; a missing file (named at once, with what to do)."""
    from studodds import certify
    out = tmp_path / "out"
    shutil.copytree(TABLE, out / TABLE.name)
    good = unsealed(json.loads((TABLE / "boxes_game.json").read_text()))
    assert [t.status for t in certify.check(out).tables] == ["ok"]

    def edited(change, seal=True):
        data = json.loads(json.dumps(good))
        change(data)
        (out / TABLE.name / "boxes_game.json").write_text(json.dumps(sealed(data) if seal else data))
        return certify.check(out).tables[0]

    def unreadable(t):
        assert t.status == "unreadable" and t.differences[0].file == "boxes_game.json", t
        return t.differences[0].old

    assert "no checksum" in unreadable(edited(lambda d: None, seal=False))
    t = edited(lambda d: None)
    assert t.status == "ok"
    text = (out / TABLE.name / "boxes_game.json").read_text()
    (out / TABLE.name / "boxes_game.json").write_text(text.replace('"seen": "', '"seen": "1', 1))
    assert "checksum does not match" in unreadable(certify.check(out).tables[0])
    for change, status in [(lambda d: d.update(version=1), "not the sums of a whole two-box game"),
                           (lambda d: d["sums"].update(digest="0" * 64), "digest"),
                           (lambda d: d["sums"]["returns"].__setitem__(0, "1"), "return table"),
                           (lambda d: d["sums"].pop("pairs"), "no two-box sums")]:
        assert status in unreadable(edited(change))
    for field, index in (("seen", None), ("pairs", 2)):
        def bump(d, field=field, index=index):
            if index is None:
                d["sums"][field] = str(int(d["sums"][field]) + 1)
            else:
                d["sums"][field][index] = str(int(d["sums"][field][index]) + 1)
        assert "do not add up" in unreadable(edited(bump))
    t = edited(lambda d: d["sums"]["pairs"].__setitem__(0, str(int(d["sums"]["pairs"][0]) + 24)))
    assert t.status != "ok" and any("covariance" in d.figure for d in t.differences)
    (out / TABLE.name / "boxes_game.json").write_text("{")
    assert "not valid JSON" in unreadable(certify.check(out).tables[0])
    (out / TABLE.name / "boxes_game.json").unlink()
    assert "missing" in unreadable(certify.check(out).tables[0])
    with pytest.raises(ParameterError, match="recount: True or False"):
        certify.check(out, recount="no")


def test_the_workbook_and_report_of_a_table_of_two_boxes():
    """The committed summary makes a workbook with a Two boxes sheet and no empty N hands sheet;
    the report says what was not counted and where the exact sums are."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("xlsxwriter")
    import io

    from studodds.reports.xlsx import workbook_bytes
    summary = json.loads((TABLE / "summary.json").read_text())
    sheets = pd.read_excel(io.BytesIO(workbook_bytes(summary, (TABLE / "strategy.csv").read_text())), sheet_name=None)
    assert "N hands" not in sheets and "Two boxes" in sheets
    boxes = sheets["Two boxes"].set_index(sheets["Two boxes"].columns[0])
    assert boxes.loc["house edge per box", "exact"] == summary["analysis"]["boxes"]["house_edge_per_box"]["exact"]
    report = (TABLE / "report.md").read_text()
    assert "## Two boxes" in report and "worth exactly the same: not counted" in report
    assert "boxes_game.json" in report and "both boxes' cards and the up card" in report
