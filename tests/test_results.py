"""Certified tables: batch output, the committed results/, and `check` catching a change."""
import json
import shutil
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import run_cli

from enumerate.core.slices import sealed, unsealed

REPO = Path(__file__).resolve().parent.parent
OUTSIDE = tempfile.mkdtemp(prefix="studodds-cwd-")


def studodds(*args):
    return run_cli(*args, "--quiet", cwd=OUTSIDE)


@pytest.fixture(scope="module", autouse=True)
def warm(us_counts):
    """The session cache holds the Ace/King counts."""


@pytest.mark.slow
def test_committed_results_are_reproduced(whole_draws_games):
    """What CI checks: `studodds check results/` on the committed tables, as a user runs it.
    protection.json (exposed hole cards: minutes cold) is checked by tests/test_protection.py
    instead; the whole switch games, the two-box game and us-common's seen hand (core-hours
    cold) are read from their kept sums (switch_game.json, boxes_game.json, seen_hand.json) --
    the default --, verified against the count table, and everything made from them recomputed."""
    r = studodds("check", str(REPO / "results"), "--no-protection")
    assert r.returncode == 0, r.stdout + r.stderr
    for name in ("us-common", "uk-casino-stud"):
        assert f"{name}: unchanged" in r.stdout
    assert "us-common: unchanged (protection.json not checked: --no-protection)" in r.stdout
    assert "lunar-without-draws: unchanged" in r.stdout          # Russian Poker's options, counted anew
    for name, kept in (("us-common-two-boxes", "boxes_game.json"), ("oasis-galewind", "switch_game.json"),
                       ("russian-draws", "switch_game.json"), ("lunar-house", "russian_game.json"),
                       ("lunar-pennsylvania", "russian_game.json"),
                       ("russian-classic", "russian_game.json")):
        assert f"{name}: unchanged (whole games verified from their kept sums: {kept};" in r.stdout


def test_every_kept_whole_game_is_sealed_and_named():
    """Every table whose whole game takes core-hours keeps its sums, sealed with their checksum;
    us-common's seen hand is the two-box game's whole game (the same rules: the same sums)."""
    from enumerate.core.slices import unsealed
    from enumerate.game.kinds import kind_of
    from enumerate.rules.variant_file import load_variant_file
    names = {"draws": "switch_game.json", "boxes": "boxes_game.json", "russian": "russian_game.json"}
    for folder in sorted((REPO / "results").iterdir()):
        v = load_variant_file(folder / "variant.toml").variant
        kind = kind_of(v)
        game = kind.kept_game(v)
        expected = set() if game is None else {game.file}
        assert game is None or game.file == names[kind.name]
        if (folder / "protection.json").exists() and "seen_hand" in json.loads((folder / "protection.json").read_text()):
            expected.add("seen_hand.json")
        assert {f.name for f in folder.glob("*_*.json") if f.name.endswith(("_game.json", "seen_hand.json"))} == expected
        for name in expected:
            unsealed(json.loads((folder / name).read_text()))
    assert (unsealed(json.loads((REPO / "results/us-common/seen_hand.json").read_text()))
            == unsealed(json.loads((REPO / "results/us-common-two-boxes/boxes_game.json").read_text())))


def test_committed_us_table_holds_the_published_figure():
    data = json.loads((REPO / "results" / "us-common" / "summary.json").read_text())
    assert data["kind"] == "certified_table"
    assert data["analysis"]["total_loss_antes"]["exact"] == "1041372912372"
    assert data["provenance"]["self_checks"]["return_table_rows_sum_to_total"] is True
    assert data["provenance"]["self_checks"]["brute_force_spot_checks_agree"] >= 8


@pytest.mark.parametrize("mutate", [pytest.param("combination", marks=pytest.mark.slow), "exact",
                                    pytest.param("csv", marks=pytest.mark.slow)])
def test_check_fails_on_a_one_unit_change(tmp_path, mutate):
    shutil.copytree(REPO / "results" / "us-common", tmp_path / "us-common")
    summary = tmp_path / "us-common" / "summary.json"
    if mutate == "combination":
        data = json.loads(summary.read_text())
        data["analysis"]["return_table"][0]["combinations"] += 1
        summary.write_text(json.dumps(data, indent=2) + "\n")
        needle = "analysis.return_table[player_wins_royal_flush].combinations: old 16759741 -> new 16759740"
    elif mutate == "exact":
        data = json.loads(summary.read_text())
        data["analysis"]["total_loss_antes"]["exact"] = "1041372912373"
        summary.write_text(json.dumps(data, indent=2) + "\n")
        needle = "analysis.total_loss_antes.exact: old '1041372912373' -> new '1041372912372'"
    else:
        csv = tmp_path / "us-common" / "return_table.csv"
        csv.write_text(csv.read_text().replace("16759740", "16759741"))
        needle = "return_table.csv: line 2"
    r = studodds("check", str(tmp_path), "--no-protection")   # protection: minutes cold
    assert r.returncode == 1
    assert needle in r.stdout
    assert "1 with differences" in r.stdout


def test_batch_writes_all_files_and_is_deterministic(tmp_path):
    r1 = studodds("batch", "uk-casino-stud", "--out", str(tmp_path / "a"))
    r2 = studodds("batch", "uk-casino-stud", "--out", str(tmp_path / "b"))
    assert r1.returncode == 0 and r2.returncode == 0, r1.stderr + r2.stderr
    for name in ("uk-casino-stud",):
        for f in ("summary.json", "return_table.csv", "report.md", "variant.toml"):
            assert (tmp_path / "a" / name / f).read_bytes() == (tmp_path / "b" / name / f).read_bytes()
    report = (tmp_path / "a" / "uk-casino-stud" / "report.md").read_text()
    for needle in ["## Return table", "House edge", "Element of risk", "Standard deviation", "Hit frequency",
                   "Probability of raising", "Dealer qualifies", "Variant file SHA-256", "19,933,230,517,200",
                   "straight flush (royal included) | 50"]:
        assert needle in report
    assert not [p for p in (tmp_path / "a").rglob("*.tmp")]


def test_diff_shows_flips_and_deltas(tmp_path):
    richer = (REPO / "enumerate" / "rules" / "variants" / "us-common.toml").read_text()
    richer = richer.replace('name = "us-common"', 'name = "ak-pays-2"').replace("high_card = 1", "high_card = 2")
    (tmp_path / "ak2.toml").write_text(richer)
    r = studodds("diff", "us-common", str(tmp_path / "ak2.toml"))
    assert r.returncode == 0, r.stderr
    assert "house edge (per ante)" in r.stdout and "exact" in r.stdout
    flips_line = next(line for line in r.stdout.splitlines() if line.startswith("Optimal action flips"))
    assert "0 situations raise -> fold" in flips_line and " 0 fold -> raise" not in flips_line
    assert "high card" in r.stdout


@pytest.mark.parametrize("args,needle", [
    (["analyze", "nope"], "unknown variant 'nope'"),
    (["analyze", "/nonexistent/x.toml"], "/nonexistent/x.toml: no such file"),
    (["check", "/nonexistent"], "no such folder of results"),
    (["batch", "/nonexistent/dir/x.toml"], "no such file"),
    (["batch", "us-common", "--seen-hand", "--out", "/nonexistent/dir"], "goes into protection.json: add --protection"),
])
def test_cli_errors_are_one_line(args, needle):
    r = studodds(*args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert needle in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_cli_bad_variant_file(tmp_path):
    (tmp_path / "typo.toml").write_text('name = "x"\n[raise_pays]\nflsh = 5\n')
    r = studodds("analyze", str(tmp_path / "typo.toml"))
    assert r.returncode == 2
    assert "typo.toml: raise_pays.flsh: unknown key (did you mean 'flush'?)" in r.stderr
    assert not list(Path(OUTSIDE).iterdir())


def test_variants_lists_the_library():
    r = studodds("variants")
    assert r.returncode == 0 and "uk-casino-stud" in r.stdout and "cyberstud" in r.stdout


@pytest.mark.slow
def test_check_recomputes_protection_and_catches_a_change(tmp_path):
    """batch --protection (the fast levels here) writes protection.json and the report section;
    check recomputes the committed levels and names a changed figure."""
    r = studodds("batch", "us-common", "--out", str(tmp_path), "--protection", "none,0,4")
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "us-common"
    assert "## Game protection" in (folder / "report.md").read_text()
    assert studodds("check", str(tmp_path)).returncode == 0
    r = studodds("check", str(tmp_path), "--no-protection")
    assert r.returncode == 0 and "protection.json not checked" in r.stdout
    path = folder / "protection.json"
    data = json.loads(path.read_text())
    data["edge_sort"]["house_edge_per_ante"]["exact"] = "-1/14"
    path.write_text(json.dumps(data, indent=2) + "\n")
    r = studodds("check", str(tmp_path))
    assert r.returncode == 1
    assert "protection.json: edge_sort.house_edge_per_ante.exact" in r.stdout


def test_batch_refuses_a_seen_hand_that_is_not_true_or_false(tmp_path):
    from evaluator.errors import ParameterError
    from studodds import certify
    for bad in ("yes", 1, None):
        with pytest.raises(ParameterError, match="seen_hand"):
            certify.batch(["us-common"], tmp_path / "out", protection=[4], seen_hand=bad)
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_check_recomputes_the_seen_hand_game(tmp_path, monkeypatch):
    """batch --seen-hand puts the seen-hand game into protection.json and the report (here over a
    few classes: the whole game is core-hours); check recomputes it and names a changed figure."""
    from enumerate.boxes import seen_ranks
    from enumerate.core import exact_game
    from studodds import certify
    few = tuple(a[:3] for a in seen_ranks.classes(frozenset([12])))
    monkeypatch.setattr(seen_ranks, "classes", lambda up_ranks: few)
    monkeypatch.setattr(exact_game, "cache_folder", lambda kept, variant: tmp_path / "seen-cache")   # not the run's cache
    certify.batch(["us-common"], tmp_path / "out", formats="md", protection=[4], seen_hand=True)
    assert (tmp_path / "seen-cache" / "shard-0000000.json").is_file()
    tmp_path = tmp_path / "out"
    folder = tmp_path / "us-common"
    data = json.loads((folder / "protection.json").read_text())
    seen = data["seen_hand"]
    assert seen["kind"] == "collusion_exact" and seen["method"] == "rank_patterns"
    assert seen["core_seconds_per_class"] is None and seen["situations"] == int(few[2].sum()) * 1370754
    # counted as one player's two boxes, but three player patterns against every other box are no
    # slice of up ranks: the boxes are not alike, so there is no round of two alike boxes to report
    assert "two_boxes" not in seen
    assert "### A second hand seen" in (folder / "report.md").read_text()
    good = (folder / "seen_hand.json").read_text()
    kept = unsealed(json.loads(good))
    assert kept["kind"] == "two_boxes_sums" and kept["classes"] == 3
    for recount in (False, True):
        result = certify.check(tmp_path, recount=recount)
        assert [t.status for t in result.tables] == ["ok"] and result.tables[0].protection == "checked"
        assert result.tables[0].kept_sums == {"seen_hand.json": "recounted (--recount)" if recount else
                                              "read back and verified"}
    kept["sums"]["seen"] = str(int(kept["sums"]["seen"]) + 1)
    (folder / "seen_hand.json").write_text(json.dumps(sealed(kept), indent=1) + "\n")
    t = certify.check(tmp_path).tables[0]
    assert t.status == "unreadable" and t.differences[0].old.startswith("seen_hand.json: "), t
    assert certify.check(tmp_path, protection=False).tables[0].status == "ok"      # not read without protection
    (folder / "seen_hand.json").unlink()
    t = certify.check(tmp_path).tables[0]
    assert t.status == "unreadable" and "seen_hand.json: missing" in t.differences[0].old
    assert certify.check(tmp_path, recount=True).tables[0].status == "differs"        # recounted: the file is missing
    (folder / "seen_hand.json").write_text(good)
    seen["gain_per_hand_antes"]["exact"] = "1/7"
    (folder / "protection.json").write_text(json.dumps(data, indent=2) + "\n")
    result = certify.check(tmp_path)
    assert result.tables[0].status == "differs"
    assert any("seen_hand.gain_per_hand_antes.exact" in d.figure for d in result.tables[0].differences)
    data["seen_hand"] = ["not an object"]
    (folder / "protection.json").write_text(json.dumps(data, indent=2) + "\n")
    assert certify.check(tmp_path).tables[0].status == "unreadable"


def test_check_names_the_changed_pay_on_its_first_line(tmp_path):
    """Changing one pay in a committed table's variant.toml: the first line says which rule
    changed and the headline deltas; the details follow; exit 1."""
    shutil.copytree(REPO / "results" / "us-common", tmp_path / "us-common")
    toml = tmp_path / "us-common" / "variant.toml"
    toml.write_text(toml.read_text().replace("full_house = 7", "full_house = 8"))
    r = studodds("check", str(tmp_path))
    assert r.returncode == 1
    first, second = r.stdout.splitlines()[:2]
    assert first.startswith(f"{tmp_path / 'us-common'}: rules changed: raise_pays.full_house 7 -> 8;"), first
    assert "house edge 5.224306% -> " in second and "element of risk" in second
    data = json.loads(studodds("check", str(tmp_path), "--json").stdout)
    entry = data["tables"][0]
    assert entry["status"] == "rules_changed"
    assert entry["rule_changes"] == [{"rule": "raise_pays.full_house", "old": "7", "new": "8"}]
    assert Fraction(entry["headline"]["house_edge_per_ante"]["delta"]["exact"]) < 0
    assert data["causes"] == [first]


def test_diff_names_the_rule_differences_first():
    r = studodds("diff", "us-common", "uk-casino-stud")
    assert r.returncode == 0
    assert r.stdout.splitlines()[1] == ("Rules changed: raise_pays.royal_flush 100 -> -; raise_pays.full_house 7 -> 8; "
                                        "raise_pays.flush 5 -> 6; royal_pays_separately true -> false")
    assert studodds("diff", "us-common", "us-common").stdout.splitlines()[1] == "Rules changed: none (same rules)"


def test_same_variant_from_two_working_directories_gives_identical_files(tmp_path):
    """By relative path from one folder and by absolute path from another: byte-identical
    result files, and no absolute path inside any of them."""
    here = tmp_path / "work"
    here.mkdir()
    (here / "house.toml").write_text((REPO / "enumerate" / "rules" / "variants" / "us-common.toml").read_text()
                                     .replace('name = "us-common"', 'name = "house"'))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert run_cli("batch", "house.toml", "--out", str(tmp_path / "a"), "--quiet", cwd=here).returncode == 0
    assert run_cli("batch", str(here / "house.toml"), "--out", str(tmp_path / "b"), "--quiet",
                   cwd=elsewhere).returncode == 0
    a, b = tmp_path / "a" / "house", tmp_path / "b" / "house"
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir()) and "environment.json" in names
    for name in names:
        if name == "environment.json":                 # machine and date: recorded apart
            assert json.loads((a / name).read_text())["kind"] == "environment"
            continue
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
        assert str(tmp_path) not in (a / name).read_text(), name
    assert json.loads((a / "summary.json").read_text())["provenance"]["variant_origin"] == "file house.toml"


def test_batch_never_replaces_a_table_unless_told(tmp_path):
    """A table folder that holds files is refused before any work, named with what to do, and
    left byte for byte as it was; --replace replaces each folder whole (no file of the old one
    left), and a table folder that does not exist yet is simply written."""
    shutil.copytree(REPO / "results" / "uk-casino-stud", tmp_path / "uk-casino-stud")
    (tmp_path / "uk-casino-stud" / "notes.txt").write_text("a lab's own file\n")
    before = {p.name: p.read_bytes() for p in (tmp_path / "uk-casino-stud").iterdir()}
    r = studodds("batch", "royal-200", "uk-casino-stud", "--out", str(tmp_path), "--formats", "md")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == (f"studodds: error: --out: {tmp_path / 'uk-casino-stud'}: already holds a table; "
                                "add --replace to replace it, or write the new tables elsewhere with --out DIR")
    assert {p.name: p.read_bytes() for p in (tmp_path / "uk-casino-stud").iterdir()} == before
    assert not (tmp_path / "royal-200").exists(), "nothing is written when one table is refused"
    r = studodds("batch", "uk-casino-stud", "--out", str(tmp_path), "--formats", "md", "--replace")
    assert r.returncode == 0, r.stderr
    after = sorted(p.name for p in (tmp_path / "uk-casino-stud").iterdir())
    assert "notes.txt" not in after and "report.html" not in after and "variant.toml" in after
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "no staging or aside folder is left"
    assert studodds("check", str(tmp_path / "uk-casino-stud")).returncode == 0


def test_check_takes_one_table_and_tells_a_report_change_from_a_figure_change(tmp_path):
    """check of one table folder (not only of their parent); a change to the report alone is
    "report differs, figures identical" naming the file and section, still exit 1; a change to
    a figure is "figures differ"."""
    table = tmp_path / "uk-casino-stud"
    shutil.copytree(REPO / "results" / "uk-casino-stud", table)
    r = studodds("check", str(table))
    assert r.returncode == 0 and r.stdout.splitlines()[0] == f"{table}: unchanged", r.stdout + r.stderr
    report = table / "report.md"
    report.write_text(report.read_text().replace("## Return table\n", "## Return table\n\nA line a lab added.\n", 1))
    r = studodds("check", str(table))
    assert r.returncode == 1
    first = r.stdout.splitlines()[0]
    assert first.startswith(f"{table}: report differs, figures identical: report.md (section 'Return table', "), first
    entry = json.loads(studodds("check", str(table), "--json").stdout)["tables"][0]
    assert entry["status"] == "report_differs" and entry["differences"][0]["section"] == "Return table"
    summary = table / "summary.json"
    data = json.loads(summary.read_text())
    data["analysis"]["total_loss_antes"]["exact"] = "1"
    summary.write_text(json.dumps(data, indent=2) + "\n")
    r = studodds("check", str(table))
    assert r.returncode == 1 and "rules unchanged, figures differ" in r.stdout.splitlines()[0]


def test_check_of_a_folder_without_tables_says_what_to_name(tmp_path):
    r = studodds("check", str(tmp_path))
    assert r.returncode == 2 and "name a table folder such as results/us-common" in r.stderr


def test_pdf_brings_its_html_and_a_wrong_chromium_path_is_named(tmp_path, monkeypatch):
    """--formats pdf adds the html it is printed from; a STUDODDS_CHROMIUM that names no program
    is named in the warning (the rest of the table is written)."""
    monkeypatch.setenv("STUDODDS_CHROMIUM", "/nonexistent/chromium-typo")
    r = studodds("batch", "uk-casino-stud", "--out", str(tmp_path), "--formats", "pdf")
    assert r.returncode == 0, r.stderr
    files = {p.name for p in (tmp_path / "uk-casino-stud").iterdir()}
    assert "report.html" in files and "report.pdf" not in files
    assert "STUDODDS_CHROMIUM=/nonexistent/chromium-typo names no program" in r.stderr


def test_the_seen_hand_is_made_from_its_kept_sums():
    """us-common's protection.json holds the seen-hand game that check makes from seen_hand.json
    (verified against the count table), to the last digit; an edit of the sums is named."""
    from enumerate.core.slices import KeptSumsError, unsealed
    from studodds import api
    folder = REPO / "results" / "us-common"
    sums = unsealed(json.loads((folder / "seen_hand.json").read_text()))
    seen = api.seen_hand_game(folder / "variant.toml", sums=sums).to_dict()
    seen["core_seconds_per_class"] = seen["whole_game_core_hours"] = None
    assert seen == json.loads((folder / "protection.json").read_text())["seen_hand"]
    sums["sums"]["normal"] = str(int(sums["sums"]["normal"]) + 1)
    with pytest.raises(KeptSumsError, match="do not add up"):
        api.seen_hand_game(folder / "variant.toml", sums=sums)


def test_a_game_the_house_would_lose_is_named_by_summary_check_and_diff():
    """A table whose optimal play gives the player the edge says so as a field of summary.json,
    on its line of ``check`` and on the first line of ``diff``; a house game says nothing."""
    for name in sorted(p.name for p in (REPO / "results").iterdir()):
        a = json.loads((REPO / "results" / name / "summary.json").read_text())["analysis"]
        assert a["player_has_edge"] is (Fraction(a["house_edge_per_ante"]["exact"]) < 0), name
    r = studodds("check", str(REPO / "results" / "raise-one-ante"))
    assert r.returncode == 0, r.stdout + r.stderr
    first = r.stdout.splitlines()[0]
    assert first.startswith(str(REPO / "results" / "raise-one-ante") + ": unchanged")
    assert "the player has the edge under optimal play (house edge -1.431321% per ante)" in first
    j = json.loads(studodds("check", str(REPO / "results" / "raise-one-ante"), "--json").stdout)
    assert j["tables"][0]["player_has_edge"] is True
    j = json.loads(studodds("check", str(REPO / "results" / "royal-200"), "--json").stdout)
    assert j["tables"][0]["player_has_edge"] is False
    assert "player has the edge" not in studodds("check", str(REPO / "results" / "royal-200")).stdout
    d = studodds("diff", "us-common", str(REPO / "results" / "raise-one-ante" / "variant.toml"))
    assert d.returncode == 0, d.stderr
    first = d.stdout.splitlines()[0]
    assert first.startswith("A: us-common") and " -- B: the player has the edge" in first and "A: the" not in first
    j = json.loads(studodds("diff", "us-common", str(REPO / "results" / "raise-one-ante" / "variant.toml"),
                            "--json").stdout)
    assert j["player_has_edge"] == {"a": False, "b": True}
