"""The whole game of a Russian Poker table with draws through analyze, batch and check
(enumerate/russian/draws_game.py): its figures are those of the slice of every situation counted
by rank patterns, a certified table keeps their sums and ``check`` reads them back instead of
counting, an edited kept file is named, and two such tables are compared by their strategy charts.

The whole game takes a day of CPU; here the game's classes are cut to a few groups (five ranks in
a row against an ace), which the protocol counts as it would the 80,119 -- the same shards, the
same kept file, the same checks."""
import json
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from test_russian_final_hand import LUNAR, US

from enumerate.core import exact_game
from enumerate.core.slices import Slice, sealed, unsealed
from enumerate.draws import switch_ranks
from enumerate.game import kinds
from enumerate.russian import draws_game, ranks
from enumerate.russian import slice as rs
from enumerate.russian.draws_game import RUSSIAN_DRAWS_GAME

REPO = Path(__file__).resolve().parents[1]
#: The house's Lunar options with a sixth card for sale (an exchange too would only cost time here).
DRAWS = LUNAR + "[buy_card]\nfee = 1\n"
#: Every group of five ranks in a row against an ace: its categories hold all of their situations.
PART = Slice.parse("A", "straight,straight_flush,royal_flush")


@pytest.fixture
def small_game(monkeypatch, own_cache, tmp_path):
    """The whole game cut to PART's groups; a table file of the Lunar rules with draws."""
    groups = switch_ranks.groups
    part = groups(PART)
    monkeypatch.setattr(switch_ranks, "groups", lambda sl: part if sl == Slice() else groups(sl))
    monkeypatch.setattr(switch_ranks, "whole_game_groups", lambda: part[1].shape[0])
    path = tmp_path / "lunar-draws.toml"
    path.write_text(US.replace('name = "lunar"', 'name = "lunar-draws"') + DRAWS)
    return path


@pytest.mark.slow
def test_the_whole_game_with_draws_is_analysed_certified_and_checked(small_game, tmp_path, monkeypatch):
    from studodds import api, certify
    v = api.load_variant(small_game)
    assert kinds.require(v, "analyze").name == "russian"
    a = api.analyze(small_game)
    part = rs.slice_run(v, "", PART).run(threads=1)
    assert a.expected_return == part.expected and a.element_of_risk == part.element_of_risk
    assert a.variance == part.variance and a.average_wager == part.average_wager
    assert a.dealer_qualifies == part.sums.qualifies / part.situations and 0 < a.dealer_qualifies < 1
    assert a.raise_probability == part.sums.raised / part.situations
    assert [r.to_dict() for r in a.rows] == [r.to_dict() for r in part.return_rows()]
    assert a.draws is not None and sum(a.draws.action_shares.values()) == 1
    assert a.russian is not None and a.russian.insure_share == part.sums.insured / part.situations
    assert 0 < a.russian.bought_of_no_qualify <= 1 and a.russian.fees_per_hand > 0

    out = tmp_path / "out"
    certify.batch([small_game], out, formats="md,html")
    folder = out / v.name
    kept = unsealed(json.loads((folder / "russian_game.json").read_text()))
    assert kept["kind"] == "russian_game_sums" and Fraction(kept["ev"]) == part.sums.ev
    report = (folder / "report.md").read_text()
    assert "## Switching and buying" in report and "## The options" in report and "by rank patterns" in report
    assert "Insurance:" in report and "Buying the game:" in report
    assert "nets the ante's pay + 2X." in report and "(a raise pay" not in report    # no full house row to show
    assert "the strategy by hand group and up card stands for them" in report     # and no empty table
    assert "a whole game of its own" in report and "'studodds diff' of the two" in report   # each option's worth
    assert "| hand group |" in (folder / "strategy.md").read_text()
    # how often the options after the draw are taken, by hand group and up card: they share out the whole's
    rows = a.draws.strategy
    for share, whole in (("raise_share", part.sums.raised), ("insure_share", part.sums.insured)):
        assert sum(Fraction(r[share]["exact"]) * r["situations"] for r in rows) == whole, share
    assert part.sums.raised > 0
    assert any(Fraction(r["bought_share_of_no_qualify"]["exact"]) > 0 for r in rows)
    assert "### Insured, percent of the best action's draws" in report
    strategy = (folder / "strategy.md").read_text()
    assert "### Insured, percent of the best action's draws" in strategy and "### Games bought" in strategy
    assert (folder / "strategy.csv").read_text().startswith(
        "hand_group,up_rank,situations,action,share,share_exact,raise_share,raise_share_exact,insure_share,")

    def never(*args, **kwargs):
        raise AssertionError("the check counted the game instead of reading its kept sums")
    monkeypatch.setattr(exact_game, "run", never)
    result = certify.check(out)
    assert result.tables[0].status == "ok" and not result.tables[0].differences, result.tables[0]
    assert result.tables[0].kept_sums == {"russian_game.json": "read back and verified"}

    body = unsealed(json.loads((folder / "russian_game.json").read_text()))
    body["ev"] = str(Fraction(body["ev"]) + 1)                                   # edited, resealed
    (folder / "russian_game.json").write_text(json.dumps(sealed(body)))
    t = certify.check(out).tables[0]
    assert t.status != "ok" and t.differences[0].file == "russian_game.json"



@pytest.mark.parametrize("name", ["lunar-house", "lunar-pennsylvania", "russian-classic"])
def test_the_rule_sets_to_certify_are_whole_games_by_rank_patterns(name):
    """Each rule set docs/russian.md certifies is a Russian table with draws that analyze and
    batch count by rank patterns, and names the source of its rules."""
    from studodds import api
    v = api.load_variant(str(REPO / "docs" / "variants" / f"{name}.toml"))
    kind = kinds.require(v, "analyze")
    assert kind.name == "russian" and v.draws is not None and v.buy_game is not None
    assert ranks.supported(v) is None and kind.kept_game(v) is RUSSIAN_DRAWS_GAME
    assert "core-hours" in draws_game.projection(v).text(2)
    assert v.description.count("(") >= 4, "each rule's source is named in the description"


@pytest.mark.slow
def test_two_tables_with_draws_are_compared_by_their_strategy_charts(small_game, tmp_path):
    """``diff`` of two Russian tables with draws: the figures and return tables of their whole
    games, no flips by situation (none is kept), and the strategy charts cell by cell -- with a
    sixth card priced out of reach in B every situation that bought one in A moves, and no other."""
    from cli_runner import run_cli

    from studodds import api
    dear = tmp_path / "lunar-dear.toml"
    dear.write_text(small_game.read_text().replace('name = "lunar-draws"', 'name = "lunar-dear"')
                    .replace("[buy_card]\nfee = 1\n", "[buy_card]\nfee = 1000\n"))
    a, b = api.analyze(small_game), api.analyze(dear)
    d = api.diff(small_game, dear)
    assert d.flips is None and d.strategy is not None
    out = d.to_dict()
    assert out["action_flips"] is None
    assert Fraction(out["figures"]["house_edge_per_ante"]["delta"]["exact"]) == b.house_edge - a.house_edge != 0
    assert [c.to_dict()["rule"] for c in d.rule_changes()] == ["buy_card.fee_antes"]
    bought = {(r["hand_group"], r["up_rank"]): Fraction(r["actions"].get("buy a sixth card", {"exact": "0"})["exact"])
              * r["situations"] for r in a.draws.strategy}
    assert sum(bought.values()) > 0 and all(
        "buy a sixth card" not in r["actions"] for r in b.draws.strategy)
    s = d.strategy
    assert s.cells_compared == len(a.draws.strategy) and s.situations == sum(r["situations"] for r in a.draws.strategy)
    assert {(c.hand_group, c.up_rank): c.moved_at_least for c in s.cells} == {k: n for k, n in bought.items() if n}
    assert s.moved_at_least == sum(bought.values())
    assert [c.moved_at_least for c in s.cells] == sorted((c.moved_at_least for c in s.cells), reverse=True)

    r = run_cli("diff", str(small_game), str(dear), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == out                                # the CLI prints the API's object
    schema = json.loads((REPO / "studodds" / "schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(out)
    text = run_cli("diff", str(dear), str(small_game)).stdout
    assert "Optimal action flips by situation: not compared" in text
    assert f"at least {s.moved_at_least:,} of {s.situations:,} situations take another action" in text


@pytest.mark.slow
def test_a_whole_game_counted_elsewhere_is_certified_from_its_checkpoint(small_game, own_cache, tmp_path):
    """``draws-exact`` of the whole game with ``--checkpoint`` (as on a cluster), then ``batch
    --checkpoint`` of that folder: the table is certified from those shards -- none counted again,
    none written to the user cache -- and a shard the folder lacks is counted into it."""
    from cli_runner import run_cli

    from studodds import api, certify
    v = api.load_variant(small_game)
    ck = tmp_path / "ck"
    whole = api.draws_exact(small_game, checkpoint=ck)
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in ck.iterdir()}
    assert any(n.startswith("shard-") for n in before)
    cache = exact_game.cache_folder(RUSSIAN_DRAWS_GAME, v)
    out = tmp_path / "out"
    r = run_cli("batch", str(small_game), "--checkpoint", str(ck), "--out", str(out), "--formats", "md", "--json")
    assert r.returncode == 0, r.stderr
    assert {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in ck.iterdir()} == before   # read, not counted
    assert not cache.exists() or not any(cache.iterdir())
    kept = unsealed(json.loads((out / v.name / "russian_game.json").read_text()))
    assert Fraction(kept["ev"]) == whole.sums.ev
    assert json.loads((out / v.name / "summary.json").read_text())["analysis"]["expected_return_per_ante"]["exact"] \
        == str(whole.expected)
    assert certify.check(out).ok
    assert kept["strategy"] == whole.sums.strategy and len(kept["strategy"]) >= 1       # every shard's best actions
    from enumerate.core.exact_game import read_kept
    with pytest.raises(ValueError, match="strategy is not every shard's"):           # one shard's strategy dropped
        read_kept(RUSSIAN_DRAWS_GAME, {**kept, "strategy": dict(list(kept["strategy"].items())[1:])})

    shard = next(ck.glob("shard-*.json"))
    shard.unlink()                                            # a shard the run has not done yet
    a = api.analyze(small_game, checkpoint=ck)
    assert a.expected_return == whole.expected
    assert not cache.exists() or not any(cache.iterdir())                           # counted into the checkpoint, not the cache

    def sums(raw: bytes) -> dict:
        return {k: v for k, v in json.loads(raw)["sums"].items() if k != "seconds"}
    assert sums(shard.read_bytes()) == sums(before[shard.name][1])


@pytest.mark.slow
def test_a_checkpoint_that_is_not_the_tables_whole_game_is_refused_before_anything_is_written(small_game, own_cache,
                                                                                              tmp_path):
    from test_reliability_hostile import refused

    from studodds import api
    ck = tmp_path / "ck"
    api.draws_exact(small_game, checkpoint=ck)
    other = tmp_path / "other.toml"
    other.write_text(small_game.read_text().replace("fee = 1\n", "fee = 2\n"))
    refused(tmp_path, "batch", str(other), "--checkpoint", str(ck), "--out", str(tmp_path / "out"),
            needle="made for another variant file")
    refused(tmp_path, "analyze", str(other), "--checkpoint", str(ck), needle="made for another variant file")
    shard = sorted(ck.glob("shard-*.json"))[0]
    body = json.loads(shard.read_text())
    body["sums"]["ev"] = "0" if body["sums"].get("ev") != "0" else "1"
    shard.write_text(json.dumps(body))
    refused(tmp_path, "batch", str(small_game), "--checkpoint", str(ck), "--out", str(tmp_path / "out"),
            needle=f"{shard.name}: its checksum does not match its content")
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_two_whole_games_counted_elsewhere_are_compared_from_their_checkpoints(small_game, own_cache, tmp_path):
    """What an option is worth from two runs done elsewhere: ``diff A B --checkpoint`` of the two
    folders (in either order: each is read for the table whose run it holds) gives the figures of
    the two whole games -- none counted again, nothing written to the user cache -- and a folder
    that holds neither run, a second folder of one table or an edited shard is refused before
    anything is counted."""
    from cli_runner import run_cli
    from test_reliability_hostile import refused

    from studodds import api
    dear = tmp_path / "lunar-dear.toml"
    dear.write_text(small_game.read_text().replace('name = "lunar-draws"', 'name = "lunar-dear"')
                    .replace("[buy_card]\nfee = 1\n", "[buy_card]\nfee = 2\n"))
    ck_a, ck_b = tmp_path / "ck-a", tmp_path / "ck-b"
    whole_a, whole_b = api.draws_exact(small_game, checkpoint=ck_a), api.draws_exact(dear, checkpoint=ck_b)
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for ck in (ck_a, ck_b) for p in ck.iterdir()}
    r = run_cli("diff", str(small_game), str(dear), "--checkpoint", str(ck_b), "--checkpoint", str(ck_a), "--json")
    assert r.returncode == 0, r.stderr
    assert {p: (p.stat().st_mtime_ns, p.read_bytes()) for ck in (ck_a, ck_b) for p in ck.iterdir()} == before
    for v in (small_game, dear):                                 # read from the folders, not counted into the cache
        cache = exact_game.cache_folder(RUSSIAN_DRAWS_GAME, api.load_variant(v))
        assert not cache.exists() or not any(cache.iterdir())
    figures = json.loads(r.stdout)["figures"]["house_edge_per_ante"]
    assert Fraction(figures["delta"]["exact"]) == whole_a.expected - whole_b.expected != 0
    assert json.loads(r.stdout) == api.diff(small_game, dear).to_dict()   # the same as counted in the cache

    refused(tmp_path, "diff", str(small_game), str(dear), "--checkpoint", str(ck_a), "--checkpoint", str(ck_a),
            needle="a second checkpoint of the whole game of 'lunar-draws'")
    other = tmp_path / "other.toml"
    other.write_text(small_game.read_text().replace("fee = 1\n", "fee = 3\n"))
    refused(tmp_path, "diff", str(other), str(dear), "--checkpoint", str(ck_a),
            needle="not a checkpoint of the whole game of 'lunar-draws' or 'lunar-dear'")
    shard = sorted(ck_a.glob("shard-*.json"))[0]
    body = json.loads(shard.read_text())
    body["sums"]["ev"] = "0" if body["sums"].get("ev") != "0" else "1"
    shard.write_text(json.dumps(body))
    refused(tmp_path, "diff", str(small_game), str(dear), "--checkpoint", str(ck_a),
            needle=f"{shard.name}: its checksum does not match its content")


def test_a_stored_count_of_a_whole_game_with_the_bought_game_reads_back():
    """A kept whole game's return-table rows count situations x draws x dealer sets x replacement
    shares: the house's Lunar game 1.5e27 combinations (about 2**91), read back; a count no
    whole game can reach, or not a count, is refused."""
    from enumerate.core.slices import COUNT_LIMIT, read_count
    total = 1478262843475644020034240000
    assert read_count(total) == total and total < COUNT_LIMIT
    for bad in (COUNT_LIMIT, -1, True, 1.0, "1"):
        with pytest.raises(ValueError):
            read_count(bad)


@pytest.mark.parametrize("fee", [Fraction(0), Fraction(1), Fraction(1, 2), Fraction(3)])
def test_a_rows_draw_fee_is_read_back_from_its_outcome(fee):
    """The workbook's live net results take a row's draw fee from its outcome id, which row_of
    writes: every event, insured or not, reads back the fee it was made with."""
    from test_russian_final_hand import variant

    from enumerate.russian.game import draw_fee_of, row_of
    from enumerate.russian.settle import HandPay, RussianSettlement
    from evaluator.ranking import Category
    s = RussianSettlement.of(variant(LUNAR))
    pay = HandPay(Category.TRIPS, Category.HIGH_CARD, Fraction(4))
    for event in ("player_wins", "bought_won", "dealer_does_not_qualify", "bought_short", "push", "bought_push",
                  "dealer_wins", "bought_lost", "fold"):
        for insured in (False, True):
            outcome, _, _ = row_of(s, event, pay, insured, fee)
            assert draw_fee_of(outcome) == fee, (event, insured, outcome)


@pytest.mark.slow
def test_another_tables_kept_sums_are_named_as_a_difference_and_the_check_goes_on(tmp_path):
    """A valid kept-sums file of another table (Pennsylvania's copied into the house's folder) is
    that table's difference -- one line, exit 1 -- and the tables after it are still checked; each
    certified table's own sums hold every row its rules make."""
    import shutil
    import subprocess
    import sys

    from studodds import api
    house_table, pa_table = "lunar-house", "lunar-pennsylvania"
    for name in (house_table, pa_table):
        shutil.copytree(REPO / "results" / name, tmp_path / name)
    shutil.copy(REPO / "results" / pa_table / "russian_game.json", tmp_path / house_table)
    run = subprocess.run([sys.executable, "-m", "studodds", "check", str(tmp_path)], capture_output=True, text=True,
                         cwd=tmp_path)            # outside the source tree: the installed package runs
    assert run.returncode == 1 and "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
    lines = run.stdout.splitlines()
    house = [line for line in lines if line.startswith(str(tmp_path / house_table))]
    assert len(house) == 1 and "russian_game.json: another table's sums" in house[0], run.stdout
    assert "rows these rules cannot make" in house[0] and "ante_x_4" in house[0]          # the 4 to 1 ante pay the house does not deal
    assert any(line.startswith(str(tmp_path / pa_table)) and "unchanged" in line for line in lines)
    for own, other in ((house_table, pa_table), (pa_table, house_table)):
        v = api.load_variant(str(tmp_path / own / "variant.toml"))
        sums = [RUSSIAN_DRAWS_GAME.from_kept(unsealed(json.loads((REPO / "results" / t / "russian_game.json")
                                                                  .read_text()))) for t in (own, other)]
        assert rs.rules_problem(v, sums[0]) is None
        assert "rows these rules cannot make" in (rs.rules_problem(v, sums[1]) or "")


def test_the_certified_house_table_bounds_what_insurance_and_the_purchase_are_worth():
    """An option the player may decline is worth at most what it returns under the certified
    strategy (that strategy without it is a legal play of the table without it): recomputed here
    from results/lunar-house's return table and row meanings alone, with the table's pays -- the
    bounds docs/russian.md gives, and the purchase's bound at least its exact worth from the two
    whole games (the table without it counted apart: a check of the engine across whole games)."""
    import csv

    folder = REPO / "results" / "lunar-house"
    analysis = json.loads((folder / "summary.json").read_text())["analysis"]
    v = analysis["variant"]
    assert v["insurance"] == {"needs": "three_of_a_kind", "limit": "half_the_payout", "dealer_qualifies": "lost"}
    assert v["buy_game"]["after"] == "qualifier_applies" and Fraction(v["buy_game"]["fee_antes"]["exact"]) == 1
    assert Fraction(v["ante_pays"]["player_wins"]["exact"]) == 0 and "dealer_does_not_qualify_with" not in v["ante_pays"]
    pay = {k: Fraction(p["exact"]) for k, p in v["raise_pays"].items()}
    meaning = {m["outcome"]: m for m in analysis["russian"]["return_table_rows"]}
    short_first = {"dealer_does_not_qualify", "bought_won", "bought_push", "bought_lost", "bought_short"}
    insurance = bought = Fraction(0)
    rows = list(csv.DictReader((folder / "return_table.csv").open()))
    assert {r["outcome"] for r in rows} == set(meaning)
    for r in rows:
        m, p = meaning[r["outcome"]], Fraction(r["probability_exact"])
        win = 2 * sum(pay[c] for c in m["combinations"])          # the bet of two antes at its pays
        if m["insured"]:                                          # the stake: half the bet's possible win
            insurance += p * (win / 2 if m["event"] in short_first else -win / 2)
        purchase = {"bought_won": -1 + win, "bought_push": -1, "bought_lost": -1 - 3, "bought_short": -1 + 1}
        if m["event"] in purchase:                                # against taking the ante's 1 to 1
            bought += p * (purchase[m["event"]] - 1)
    assert insurance == Fraction(479542582273957, 785025987852106000)
    assert bought == Fraction(27023964523014545129411, 589418996601133979280000)
    worth = Fraction(503727487843582011308669, 11198960935421545606320000)   # lunar-house-without-purchase's diff
    house_edge = Fraction(analysis["house_edge_per_ante"]["exact"])
    assert 0 < worth <= bought and house_edge + insurance < 0        # without insurance still a player edge
    page = (REPO / "docs" / "russian.md").read_text()
    for shown in ("479542582273957/785025987852106000", "27023964523014545129411/589418996601133979280000",
                  f"{float(100 * (house_edge + insurance)):.6f}%", f"{float(100 * (bought - worth)):.6f}"):
        assert shown in page, shown


def test_the_rules_of_thumb_figures_the_docs_give_add_up_to_the_certified_tables():
    """The rules of thumb's whole games (counted elsewhere: docs/russian.md gives each house edge
    exactly) sit above the certified optimal play of the same table, and the cost the page gives
    is that difference, to the last digit -- the page's arithmetic held to results/."""
    page = (REPO / "docs" / "russian.md").read_text()
    for table, played, cost in (("lunar-house", "350459243567857577501/164690601991493317740000",
                                 "54669990258217951780759/3732986978473848535440000"),
                                ("lunar-pennsylvania", "1054157472364969881539/13444130774815781040000",
                                 "325132150630936163602739/11198960935421545606320000")):
        optimal = Fraction(json.loads((REPO / "results" / table / "summary.json").read_text())
                           ["analysis"]["house_edge_per_ante"]["exact"])
        assert played in page and cost in page, table
        assert Fraction(played) - optimal == Fraction(cost) > 0, table
        for shown in (f"{float(100 * Fraction(played)):.6f}%", f"{float(100 * Fraction(cost)):.6f} points"):
            assert shown in page, shown
