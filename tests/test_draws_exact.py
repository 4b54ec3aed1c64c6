"""The exact game with switches over a slice of situations (enumerate.draws.exact): the suit
classes against every concrete situation, the outcomes against the whole-game kernel of the
one-card table, shards and checkpoints (resumed, split, damaged, forged), the slice parser and
the command's refusals."""
import dataclasses
import json
import os
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_draws import ONE_AND_BUY

from enumerate.core.slices import shard_digest
from enumerate.draws import exact as ex
from enumerate.draws.actions import BUY_KIND
from enumerate.draws.hand import BUY, situation_draws
from enumerate.rules.variant_file import parse_variant_text
from evaluator.errors import ParameterError, StudoddsError
from evaluator.ranking import Category, category, strength

#: Switch one or two cards, or buy: cheap enough to value every concrete situation of a slice.
TWO = parse_variant_text(ONE_AND_BUY, "both.toml")


def _concrete(sl):
    """Every concrete situation of a slice: (hand, up), from the 2,598,960 hands."""
    from enumerate.core.engine import hand_tables
    from evaluator.ranking import CATEGORY_BY_STRENGTH, strength_by_index
    hands = hand_tables().cards_by_index
    cats = CATEGORY_BY_STRENGTH[strength_by_index()]
    for hand in hands[np.isin(cats, [int(c) for c in sl.categories])].tolist():
        assert category(strength(tuple(hand))) in sl.categories
        for up in range(52):
            if up not in hand and up // 4 in sl.up_ranks:
                yield tuple(hand), up


def test_the_classes_of_a_slice_are_its_situations_up_to_suits():
    """Class weights add up to the concrete situations, for slices of every size up to the whole
    game (6,319,573 classes, 122,151,120 situations)."""
    whole = ex.Slice()
    cards, up, weight = whole.classes()
    assert up.shape[0] == ex.CLASSES and int(weight.sum()) == ex.SITUATIONS
    sl = ex.Slice.parse("A,K", "royal_flush")
    cards, up, weight = sl.classes()
    assert int(weight.sum()) == sum(1 for _ in _concrete(sl)) == 24
    sl = ex.Slice.parse("2", "four_of_a_kind")
    assert int(sl.classes()[2].sum()) == sum(1 for _ in _concrete(sl))


def test_a_slice_equals_the_sum_over_its_concrete_situations():
    """The slice's exact EV (from the best actions and again from its return table) equals the
    mean best EV over every concrete situation valued one by one, suits not reduced; counted by
    rank patterns (the default, buying included) it gives the same figures."""
    from studodds import api
    sl = ex.Slice.parse("A,K", "royal_flush")
    got = ex.run_slice(TWO, ONE_AND_BUY, sl, threads=2, by="situation_classes")
    evs = [situation_draws(TWO, hand, up, threads=2).best.ev for hand, up in _concrete(sl)]
    assert got.situations == len(evs) == 24 and got.expected == sum(evs, Fraction(0)) / len(evs)
    rows = got.return_rows()                      # asserts that both paths agree
    assert sum(r.probability for r in rows if not r.outcome.startswith("fee_")) == 1
    assert got.share == Fraction(24, ex.SITUATIONS)
    ranks = ex.run_slice(TWO, ONE_AND_BUY, sl, threads=2, table=api.count_table("us-common"))
    assert ranks.method == "rank_patterns" and ranks.classes == 2
    same = {"situations", "share_of_situations", "expected_return_per_ante", "house_edge_per_ante", "element_of_risk",
            "standard_deviation_antes", "raise_probability", "fees_per_hand_antes", "action_shares", "return_table",
            "strategy"}
    assert {k: v for k, v in ranks.to_dict().items() if k in same} == {k: v for k, v in got.to_dict().items() if k in same}


@pytest.mark.slow
def test_the_outcomes_equal_the_whole_game_kernel_of_the_one_card_table():
    """For sampled rows of the count table (all 47 up cards each), the best actions and their
    outcomes by final category summed by the slice code equal the one-card whole-game kernel's
    choice and accounting (another exact path: dead-card counts per canonical hand)."""
    from enumerate.core.engine import canonical_map
    from enumerate.core.parallel import interruptible
    from enumerate.draws import _game, game
    from studodds import api
    table = api.count_table("us-common")
    v = parse_variant_text(ONE_AND_BUY.replace('fees = { 1 = 1, 2 = "3/2" }', "fees = { 1 = 1 }"), "one.toml")
    canon, perms = canonical_map()
    coef = game.coefficients(v)
    rng = np.random.default_rng(32)
    rows = rng.choice(table.hands.shape[0], 3, replace=False)
    dead = game.dead_counts(table, rows=rows)                 # the words these rows read, by the kernel's sweep
    for row in rows:
        values, scale = game.action_values(table, v, rows=(int(row), int(row) + 1), dead=dead)   # this row only
        action, _, _ = game.choose(v, values, scale)
        acc = np.zeros((1, 3, 10, 8), dtype=np.int64)
        interruptible(lambda cancel, row=int(row): _game.account(
            np.ascontiguousarray(table.hands), np.ascontiguousarray(table.weight, dtype=np.int64),
            np.ascontiguousarray(table.strength, dtype=np.int16), table.up, table.no_qualify, table.win, table.tie, dead,
            canon, perms, np.ascontiguousarray(action & 7), row, row + 1, *coef, acc, cancel, 1))
        cards = table.hands[row:row + 1].repeat(47, axis=0)
        sums = ex.value_shard(v, cards, table.up[row].copy(), np.full(47, int(table.weight[row]), dtype=np.int64), 2)
        mine = np.array(sums.outcomes, dtype=np.int64)
        keep = mine[0] * 42                        # the kernel counts a kept hand's dealer sets 42 times
        keep[:, [ex.RAISED, ex.INDIFFERENT]] = mine[0][:, [ex.RAISED, ex.INDIFFERENT]] * 46   # and its decisions 46
        assert np.array_equal(keep, acc[0, 0])
        assert np.array_equal(mine[1], acc[0, 1]) and np.array_equal(mine[BUY_KIND], acc[0, 2])
        codes = {0: 0, 6: BUY, **{i: 1 << (i - 1) for i in range(1, 6)}}
        assert sums.actions == [codes[int(a) & 7] for a in action[row]]


@pytest.fixture
def small_shards(monkeypatch):
    monkeypatch.setattr(ex, "BY_CLASSES", dataclasses.replace(ex.BY_CLASSES, shard=2))


def test_shards_resume_and_split_to_the_same_figures(tmp_path, small_shards):
    sl = ex.Slice.parse("A,K", "royal_flush")
    folder = tmp_path / "ck"
    first = ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, threads=1, by="situation_classes")
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["run.json", "shard-0000000.json", "shard-0000001.json", "shard-0000002.json"]
    (folder / "shard-0000001.json").unlink()               # an interrupted run: one shard missing
    again = ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, threads=2, by="situation_classes")
    resumed = ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, threads=2, by="situation_classes")   # nothing left to value
    plain = ex.run_slice(TWO, ONE_AND_BUY, sl, threads=2, by="situation_classes")
    strip = {"core_seconds_per_class", "whole_game_core_hours"}
    dicts = [{k: v for k, v in r.to_dict().items() if k not in strip} for r in (first, again, resumed, plain)]
    assert dicts[0] == dicts[1] == dicts[2] == dicts[3]
    assert resumed.seconds_per_class == again.seconds_per_class > 0 and first.seconds_per_class > 0
    with pytest.raises(ParameterError, match="another variant file, slice or version"):
        ex.run_slice(TWO, ONE_AND_BUY, ex.Slice.parse("A", "royal_flush"), checkpoint=folder, by="situation_classes")


def test_a_damaged_or_forged_checkpoint_is_refused(tmp_path, small_shards):
    sl = ex.Slice.parse("A,K", "royal_flush")
    folder = tmp_path / "ck"
    ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, threads=1, by="situation_classes")
    shard = folder / "shard-0000000.json"
    good = shard.read_text()
    data = json.loads(good)
    data["sums"]["situations"][0] += 1                      # edited
    shard.write_text(json.dumps(data))
    with pytest.raises(ParameterError, match="checksum does not match"):
        ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, by="situation_classes")
    key = json.loads((folder / "run.json").read_text())     # forged with a good checksum: the sums must add up
    data["sha256"] = shard_digest(key, 0, data["sums"])
    shard.write_text(json.dumps(data))
    with pytest.raises(ParameterError, match="do not add up"):
        ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, by="situation_classes")
    other = json.loads((folder / "shard-0000001.json").read_text())   # another shard's (valid) sums
    shard.write_text(json.dumps({"shard": 0, "sha256": shard_digest(key, 0, other["sums"]), "sums": other["sums"]}))
    with pytest.raises(ParameterError, match="holds other classes"):
        ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, by="situation_classes")
    for text in ("", "{", "[1, 2]", '{"shard": 0}', "nan"):
        shard.write_text(text)
        with pytest.raises(ParameterError):
            ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, by="situation_classes")
    shard.unlink()
    os.mkfifo(shard)                                        # never opened: it would block
    with pytest.raises(ParameterError, match="not a regular file"):
        ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, by="situation_classes")
    shard.unlink()
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(ParameterError, match="which no run of draws-exact writes"):
        ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=folder, by="situation_classes")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "thesis.tex").write_text("mine")
    with pytest.raises(ParameterError, match="not a checkpoint of draws-exact"):
        ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=busy, by="situation_classes")
    assert sorted(p.name for p in busy.iterdir()) == ["thesis.tex"]
    with pytest.raises(ParameterError, match="not a folder"):
        ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=busy / "thesis.tex", by="situation_classes")


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=30), st.sampled_from(["2-6,A", "a", "10", "T-A", "6-2", "all", " ,"])),
       st.one_of(st.none(), st.text(max_size=30),
                 st.sampled_from(["full_house", "Full House", "four-of-a-kind,flush", "all", "pair", ","])))
def test_any_slice_text_gives_a_slice_or_one_named_refusal(up, hands):
    try:
        sl = ex.Slice.parse(up, hands)
    except ParameterError as err:
        assert err.parameter in ("up", "hands") and "\n" not in str(err)
        return
    assert sl.up_ranks and sl.categories and sl.up_ranks <= set(range(13)) and sl.categories <= set(Category)


def test_the_slice_parser_reads_ranges_and_categories():
    sl = ex.Slice.parse("2-6, a", "full house,four-of-a-kind")
    assert sl.up_ranks == {0, 1, 2, 3, 4, 12} and sl.categories == {Category.FULL_HOUSE, Category.QUADS}
    assert sl.label() == "up card 2, 3, 4, 5, 6, A; player hands full house, four of a kind"
    assert ex.Slice.parse("all", None).whole_game and ex.Slice.parse("10", None).up_ranks == {8}


def test_the_command_refuses_bad_input_in_one_line(tmp_path):
    from cli_runner import run_cli
    galewind = "docs/variants/oasis-galewind.toml"
    for args, needle in [(["draws-exact", "us-common"], "only for a Russian Poker table (two combinations paid, insurance or buying the game) or a table with draws"),
                         (["draws-exact", "sixth-card"], "offers no switching"),
                         (["draws-exact", galewind, "--up", "1"], "up"),
                         (["draws-exact", galewind, "--up", "6-2"], "runs downwards"),
                         (["draws-exact", galewind, "--hands", "pairs"], "not a hand category"),
                         (["draws-exact", galewind, "--checkpoint", str(tmp_path / "no" / "ck")], "no such folder"),
                         (["draws-exact", galewind, "--scheduler", "tcp://127.0.0.1:1", "--up", "A", "--hands",
                           "royal_flush"], "--scheduler: nothing listens at tcp://127.0.0.1:1 (connection refused)")]:
        r = run_cli(*args, "--quiet")
        assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)
    assert not list(tmp_path.iterdir())


def test_the_command_prints_the_slice_and_its_json(tmp_path):
    from cli_runner import run_cli
    (tmp_path / "both.toml").write_text(ONE_AND_BUY)
    r = run_cli("draws-exact", "--up", "A", "--json", str(tmp_path / "both.toml"), "--hands", "royal_flush", "--quiet")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["kind"] == "draws_exact" and d["exact"] is True and d["situations"] == 12
    assert d["method"] == "rank_patterns" and d["classes"] == 1        # one group: the pattern AKQJT, up rank A
    assert sum(Fraction(x["probability"]["exact"]) for x in d["return_table"] if not x["outcome"].startswith("fee")) == 1


def test_refusals_of_the_api(tmp_path):
    import studodds
    with pytest.raises(StudoddsError, match="offers no switching"):
        studodds.draws_exact("sixth-card")
    with pytest.raises(ParameterError, match="checkpoint"):
        studodds.draws_exact("docs/variants/oasis-galewind.toml", checkpoint=5)


@pytest.mark.slow
def test_a_slice_where_every_hand_is_kept_equals_the_count_table():
    """Four of a kind against a deuce on a table switching one or two cards: every situation keeps
    and raises, so the slice's exact EV is the plain game's raise EV over the same situations,
    read from the count table (the count engine, not the dead-card engine)."""
    from enumerate.core.engine import COMPLETIONS
    from enumerate.raise_value import RaiseValue
    from evaluator.ranking import CATEGORY_BY_STRENGTH
    from studodds import api
    sl = ex.Slice.parse("2", "four_of_a_kind")
    got = ex.run_slice(TWO, ONE_AND_BUY, sl, threads=2, by="situation_classes")
    assert got.sums.situations[0] == got.situations and list(got.sums.chart.values()) == [got.situations]
    base = TWO.base_game()
    table = api.count_table(base)
    rv = RaiseValue.of(base)
    cats = CATEGORY_BY_STRENGTH[table.strength]
    forms = rv.form(table).astype(np.int64)
    total = 0
    for r in np.flatnonzero(cats == int(Category.QUADS)):
        for c in range(47):
            if int(table.up[r, c]) // 4 == 0:
                form = int(forms[r, c]) - rv.c_lose * COMPLETIONS + int(rv.bonus[cats[r]]) * rv.scale * COMPLETIONS
                total += int(table.weight[r]) * form
    assert got.expected == Fraction(total, got.situations * rv.scale * COMPLETIONS)


@pytest.mark.slow
def test_a_slice_on_a_dask_cluster_equals_the_local_run(tmp_path, small_shards):
    """Shards valued by Dask worker processes give the very integers of the local run."""
    distributed = pytest.importorskip("distributed")
    sl = ex.Slice.parse("A,K", "royal_flush")
    local = ex.run_slice(TWO, ONE_AND_BUY, sl, threads=2, by="situation_classes")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = ex.run_slice(TWO, ONE_AND_BUY, sl, checkpoint=tmp_path / "ck", scheduler=cluster.scheduler_address, by="situation_classes")
    strip = {"core_seconds_per_class", "whole_game_core_hours"}
    assert ({k: v for k, v in remote.to_dict().items() if k not in strip}
            == {k: v for k, v in local.to_dict().items() if k not in strip})
    assert len(list((tmp_path / "ck").iterdir())) == 1 + 3
