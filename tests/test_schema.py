"""Every command's --json output, and every committed summary.json, validates against the one
committed schema (studodds/schema.json); the schema is strict enough to reject a wrong shape."""
import argparse
import copy
import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from cli_runner import run_cli

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(resources.files("studodds").joinpath("schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema == json.loads((REPO / "studodds" / "schema.json").read_text())   # the installed one is the repo's
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def work(tmp_path_factory, us_counts):
    folder = tmp_path_factory.mktemp("schema")
    # a table switching up to two cards: draws-sample on it takes a tenth of a second a situation
    online = (REPO / "docs" / "variants" / "oasis-online.toml").read_text()
    (folder / "two-cards.toml").write_text(online.replace("oasis-online", "two-cards").replace(
        "fees = { 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5 }", "fees = { 1 = 1, 2 = 2 }"))
    russian = (REPO / "enumerate" / "rules" / "variants" / "us-common.toml").read_text().split("[ante_pays]")[0]
    (folder / "russian.toml").write_text(russian + "[ante_pays]\nplayer_wins = 0\n[two_combinations]\n[insurance]\n"
                                                   "[buy_game]\n")
    (folder / "russian-draws.toml").write_text(russian + "[buy_card]\nfee = 1\n[insurance]\n[buy_game]\n")
    return folder


def commands(work: Path):
    return {
        "analyze": ["analyze"],
        "analyze-file": ["analyze", str(REPO / "enumerate" / "rules" / "variants" / "uk-casino-stud.toml")],
        "variants": ["variants"],
        "batch": ["batch", "us-common", "--out", str(work / "out")],
        "check": ["check", str(work / "out")],
        "hand": ["hand", "As Kd Jh 8c 3s"],
        "hand-up": ["hand", "As Kd Jh 8c 3s", "--up", "7d"],
        "hand-draws": ["hand", "As Kd Jh 8c 3s", "--up", "7d", "--variant", "oasis-one-card"],
        "hand-russian": ["hand", "Qc Qd Qh Ac Kd", str(work / "russian.toml"), "--up", "7s"],
        "hand-russian-draws": ["hand", "Qc Qd Qh Ac Kd", str(work / "russian-draws.toml"), "--up", "7s"],
        "analyze-draws": ["analyze", "sixth-card"],
        "batch-draws": ["batch", "oasis-one-card", "--out", str(work / "draws")],
        "draws-sample": ["draws-sample", str(work / "two-cards.toml"), "--situations", "16"],
        "draws-exact": ["draws-exact", str(work / "two-cards.toml"), "--up", "A", "--hands", "royal_flush"],
        "ev-table": ["ev-table", "--out", str(work / "ev.npz")],
        "strategies": ["strategies", "--raise-at-least", "AKJ83"],
        "plots": ["plots", "--out", str(work / "pictures")],
        "progressive": ["progressive"],
        "diff": ["diff", "us-common", "royal-200"],
        "analyze-side-bets": ["analyze", "palms-managua"],
        "analyze-rule-variants": ["analyze", "max-payout"],
        "diff-side-bets": ["diff", "palms-managua", "five-plus-one"],
        "holecards": ["holecards", "--exposed", "none,0,4", "--share", "1/4"],
        "edgesort": ["edgesort", "--ranks", "AK"],
        "collusion": ["collusion", "--partners", "0,6", "--burn", "both", "--samples", "2000"],
        "collusion-exact": ["collusion", "--partners", "1", "--exact", "--up", "A", "--hands", "royal_flush"],
        "simulate": ["simulate", "envy-bonus", "--games", "1e6", "--seed", "5"],
        "simulate-side-bets": ["simulate", "palms-managua", "--games", "1e6", "--seed", "5"],
        "simulate-progressive": ["simulate", "progressive-100-75-50", "--games", "2e6"],
        "design-sensitivity": ["design", "sensitivity", "uk-casino-stud"],
        "design-solve": ["design", "solve", "uk-casino-stud", "--target", "house_edge=3%", "--vary", "full_house=15..22"],
        "design-search": ["design", "search", "--vary", "full_house=5..9", "--vary", "one_pair=1..2/1/2",
                          "--bound", "house_edge=..6%", "--front", "house_edge:max,hit_frequency:max,sd:min"],
    }


KINDS = {"analyze": "analysis", "analyze-file": "analysis", "variants": "variants", "batch": "batch", "check": "check",
         "hand": "hand", "hand-up": "hand", "hand-draws": "hand_draws", "hand-russian": "russian_hand",
         "hand-russian-draws": "russian_hand_draws", "analyze-draws": "analysis",
         "batch-draws": "batch", "draws-sample": "draws_sample", "draws-exact": "draws_exact", "ev-table": "ev_table", "strategies": "strategies", "plots": "plots",
         "progressive": "progressive", "diff": "diff", "holecards": "hole_cards", "edgesort": "exposure",
         "collusion": "collusion_table", "collusion-exact": "collusion_exact", "simulate": "simulation", "simulate-side-bets": "simulation",
         "simulate-progressive": "simulation",
         "analyze-side-bets": "analysis", "analyze-rule-variants": "analysis",
         "diff-side-bets": "diff", "design-sensitivity": "design_sensitivity", "design-solve": "design_solve",
         "design-search": "design_search"}


def test_every_command_has_json(validator, work):
    from studodds.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = set(sub.choices)
    assert names == {args[0] for args in commands(work).values()}, "a command without a --json test"
    for name, p in sub.choices.items():
        tasks = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        for q in ([p] if not tasks else list(tasks[0].choices.values())):     # "design" has tasks, each with --json
            assert any("--json" in a.option_strings for a in q._actions), (name, q.prog)
    tasks = next(a for a in sub.choices["design"]._actions if isinstance(a, argparse._SubParsersAction))
    assert set(tasks.choices) == {args[1] for args in commands(work).values() if args[0] == "design"}


@pytest.mark.parametrize("case", [pytest.param(k, marks=pytest.mark.slow)
                                  if k in ("analyze-draws", "batch-draws", "draws-sample", "draws-exact", "plots", "progressive", "holecards", "edgesort", "collusion", "analyze-side-bets", "analyze-rule-variants",
                                           "diff-side-bets", "design-sensitivity", "design-solve", "design-search",
                                           "simulate-side-bets", "simulate-progressive", "ev-table", "simulate") else k
                                  for k in KINDS])
def test_json_output_validates(validator, work, case):
    args = commands(work)[case]
    if case == "check" and not (work / "out").exists():
        assert run_cli(*commands(work)["batch"], "--quiet").returncode == 0
    r = run_cli(*args, "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["kind"] == KINDS[case]
    errors = sorted(validator.iter_errors(data), key=str)
    assert not errors, errors[0].message


def test_committed_protection_validates(validator):
    files = sorted((REPO / "results").glob("*/protection.json"))
    assert files
    for f in files:
        errors = list(validator.iter_errors(json.loads(f.read_text())))
        assert not errors, (f, errors[0].message)


@pytest.mark.slow
def test_committed_summaries_validate(validator):
    files = sorted((REPO / "results").glob("*/summary.json"))
    assert len(files) >= 9
    for f in files:
        errors = list(validator.iter_errors(json.loads(f.read_text())))
        assert not errors, (f, errors[0].message)


@pytest.mark.slow
def test_summary_holds_the_objects_the_commands_print(work):
    """summary.json's analysis / strategies / progressive are what analyze / strategies /
    progressive --json print."""
    out = work / "same"
    assert run_cli("batch", "progressive-100-75-50", "--out", str(out), "--quiet").returncode == 0
    summary = json.loads((out / "progressive-100-75-50" / "summary.json").read_text())
    for key, args in [("analysis", ["analyze", "progressive-100-75-50"]),
                      ("strategies", ["strategies", "--variant", "progressive-100-75-50"]),
                      ("progressive", ["progressive", "--variant", "progressive-100-75-50"])]:
        printed = json.loads(run_cli(*args, "--json", "--quiet").stdout)
        assert summary[key] == printed, key


def test_python_api_returns_what_the_cli_prints():
    import studodds
    printed = json.loads(run_cli("analyze", "royal-200", "--json", "--quiet").stdout)
    assert studodds.analyze("royal-200").to_dict() == printed
    printed = json.loads(run_cli("hand", "As Kd Jh 8c 3s", "--up", "7d", "--json", "--quiet").stdout)
    assert studodds.hand("As Kd Jh 8c 3s", up="7d").to_dict() == printed


@pytest.mark.parametrize("damage", ["float for exact", "unknown key", "category label", "missing kind"])
def test_schema_rejects_a_wrong_shape(validator, damage):
    good = json.loads((REPO / "results" / "us-common" / "summary.json").read_text())
    bad = copy.deepcopy(good)
    a = bad["analysis"]
    if damage == "float for exact":
        a["house_edge_per_ante"] = 0.0522
    elif damage == "unknown key":
        a["surprise"] = 1
    elif damage == "category label":
        a["variant"]["raise_pays"]["full house"] = a["variant"]["raise_pays"].pop("full_house")
    else:
        del bad["kind"]
    assert not list(validator.iter_errors(good))
    assert list(validator.iter_errors(bad))


def test_return_table_into_pandas_and_without_it(monkeypatch):
    """to_pandas gives the return table with exact columns; without pandas it says what to install."""
    import sys
    from fractions import Fraction

    import studodds
    a = studodds.analyze("us-common")
    df = a.to_pandas()
    assert list(df["outcome"])[0] == "player_wins_royal_flush"
    assert sum(df["combinations"]) == a.total_combinations
    assert sum(df["return_per_ante"], Fraction(0)) == a.expected_return
    monkeypatch.setitem(sys.modules, "pandas", None)
    try:
        a.to_pandas()
    except studodds.StudoddsError as exc:
        assert "pip install pandas" in str(exc)
    else:
        raise AssertionError("to_pandas without pandas must raise StudoddsError")


def test_the_side_bet_kinds_of_the_schema_are_the_registered_ones():
    """Adding a side-bet kind (docs/architecture.md) fails here until its JSON is in the schema."""
    from enumerate.rules.sidebets import KINDS
    defs = json.loads((REPO / "studodds" / "schema.json").read_text())["$defs"]
    for shape in ("side_bet_rules", "side_bet"):
        assert defs[shape]["properties"]["kind"]["enum"] == list(KINDS)


def test_the_schema_is_generated_from_the_declared_shapes():
    """The committed file is exactly what the generator makes of the declared shapes, every
    definition included (run python -m studodds.reports.schema): nothing in it is hand-written."""
    from enumerate.core.shapes import SHAPES, SHARED
    from studodds.reports import schema
    committed = (REPO / "studodds" / "schema.json").read_text()
    made = schema.schema()
    assert schema.text(made) == committed
    assert set(made["$defs"]) == set(SHAPES) | set(SHARED)
    assert len(made["$defs"]) >= 54 and len(made["oneOf"]) >= 23


def test_every_document_is_told_apart_by_its_kind():
    """A shape registered as a document (what a command prints or a results file holds) has a
    ``kind`` that is its name, so a reader can tell which object it holds."""
    from studodds.reports import schema
    made = schema.schema()
    for ref in made["oneOf"]:
        name = ref["$ref"].rsplit("/", 1)[1]
        assert made["$defs"][name]["properties"]["kind"] == {"const": name}, name


def test_a_declared_shape_that_differs_from_the_file_is_caught():
    from enumerate.core import shapes
    from studodds.reports import schema
    committed = json.loads((REPO / "studodds" / "schema.json").read_text())
    changed = copy.deepcopy(committed)
    changed["$defs"]["rule_change"]["required"] = ["rule", "old"]
    assert schema.schema() != changed and schema.schema() == committed     # the declaration wins
    assert shapes.json_schema(list[shapes.Exact]) == {"type": "array", "items": {"$ref": "#/$defs/exact"}}
    assert shapes.json_schema(dict[str, int | None]) == {"type": "object", "additionalProperties":
                                                         {"oneOf": [{"type": "integer"}, {"type": "null"}]}}


def test_a_key_that_may_be_absent_is_not_required():
    from enumerate.core.shapes import definition
    from enumerate.simulation.simulate import SimulationReturnJSON
    d = definition(SimulationReturnJSON)
    assert "note" in d["properties"] and "note" not in d["required"] and d["additionalProperties"] is False


@pytest.mark.parametrize("path", sorted((REPO / "docs" / "samples").glob("*.json")), ids=lambda p: p.name)
def test_the_kept_results_of_long_runs_validate(validator, path):
    """The outputs of long runs kept beside the docs (a sample, an exact slice) are what the
    command prints: they validate against the schema of their kind."""
    data = json.loads(path.read_text())
    assert data["kind"] in {"draws_sample", "draws_exact", "collusion_exact"}
    errors = sorted(validator.iter_errors(data), key=str)
    assert not errors, f"{path.name}: {errors[0].message}"
