"""An exact slice of a Russian Poker table with draws (draws-exact), situation class by situation
class: its sums are its situations valued one by one (each checked against the final hands and
the literal brute force in test_russian_draws.py), however the shards are split or resumed; a
damaged or forged checkpoint is refused; the command prints it and its JSON, and refuses a table
without draws in one line."""
import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from cli_runner import run_cli
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_reliability_hostile import refused
from test_russian_final_hand import LUNAR, US, variant

from enumerate.core.slices import Slice, shard_digest
from enumerate.russian import slice as rs
from enumerate.russian.draws import situation_actions
from evaluator.errors import ParameterError

REPO = Path(__file__).resolve().parents[1]
#: The Lunar options with a sixth card for sale (no exchange: a class takes milliseconds).
SIXTH = LUNAR + "[buy_card]\nfee = 1\n"
SLICE = ("A,K", "royal_flush,straight_flush")


def run(v, sl, checkpoint=None, threads=1, by="situation_classes"):
    return rs.slice_run(v, "", sl, checkpoint, by).run(threads=threads)


@pytest.fixture
def small_shards(monkeypatch):
    monkeypatch.setattr(rs, "BY_CLASSES", dataclasses.replace(rs.BY_CLASSES, shard=2))


@pytest.mark.slow
def test_a_slice_is_its_situations_one_by_one():
    v = variant(SIXTH)
    sl = Slice.parse(*SLICE)
    got = run(v, sl, threads=2)
    cards, up, weight = sl.classes()
    best = [situation_actions(v, tuple(h), u).best for h, u in zip(cards.tolist(), up.tolist())]
    w = weight.tolist()
    assert got.situations == sum(w) and got.classes == len(w) > 4
    assert got.sums.ev == sum(x * b.ev for x, b in zip(w, best))
    assert got.sums.fees == sum(x * b.fee for x, b in zip(w, best))
    assert got.sums.raised == sum(Fraction(x * b.raised, b.draws) for x, b in zip(w, best))
    assert got.sums.situations[6] == sum(x for x, b in zip(w, best) if b.kind == "buy")
    assert got.expected == got.sums.ev / sum(w)
    rows = got.return_rows()                                  # checked against the EVs as it is made
    assert sum(r.probability for r in rows) == 1 and len({r.outcome for r in rows}) == len(rows)
    counted = [situation_actions(v, tuple(h), u, actions=[a], rows=True).best
               for h, u, a in zip(cards.tolist(), up.tolist(), got.sums.actions)]
    assert got.sums.staked == sum(Fraction(x, c.draws) * c.staked for x, c in zip(w, counted))
    assert got.variance > 0 and got.average_wager == 1 + 2 * got.sums.raised / sum(w) + got.sums.staked / sum(w)
    assert got.sums.qualifies == sum(Fraction(x * b.qualifies, b.draws * b.completions) for x, b in zip(w, best))
    assert 0 < got.sums.qualifies < sum(w)
    ranked = run(v, sl, by="rank_patterns")                  # the default way: the same figures
    strip = {"core_seconds_per_class", "whole_game_core_hours", "method", "classes"}
    assert ranked.method == "rank_patterns" and rs.method(v, sl=sl) == "rank_patterns"
    assert ({k: x for k, x in ranked.to_dict().items() if k not in strip}
            == {k: x for k, x in got.to_dict().items() if k not in strip})


@pytest.mark.slow
def test_shards_resume_and_split_to_the_same_figures(tmp_path, small_shards):
    v = variant(SIXTH)
    sl = Slice.parse(*SLICE)
    folder = tmp_path / "ck"
    first = run(v, sl, folder)
    shards = sorted(p for p in folder.iterdir() if p.name.startswith("shard-"))
    assert len(shards) >= 3
    shards[1].unlink()                                       # an interrupted run: one shard missing
    again = run(v, sl, folder, threads=2)
    plain = run(v, sl, threads=2)
    strip = {"core_seconds_per_class", "whole_game_core_hours"}
    dicts = [{k: x for k, x in r.to_dict().items() if k not in strip} for r in (first, again, plain)]
    assert dicts[0] == dicts[1] == dicts[2]
    with pytest.raises(ParameterError, match="another variant file, slice or version"):
        run(v, Slice.parse("A", "royal_flush"), folder)


@pytest.mark.slow
def test_a_damaged_or_forged_checkpoint_is_refused(tmp_path, small_shards):
    v = variant(SIXTH)
    sl = Slice.parse(*SLICE)
    folder = tmp_path / "ck"
    run(v, sl, folder)
    shard = folder / "shard-0000000.json"
    data = json.loads(shard.read_text())
    data["sums"]["situations"][6] += 1                       # edited
    shard.write_text(json.dumps(data))
    with pytest.raises(ParameterError, match="checksum does not match"):
        run(v, sl, folder)
    key = json.loads((folder / "run.json").read_text())      # forged with a good checksum: the sums must add up
    data["sha256"] = shard_digest(key, 0, data["sums"])
    shard.write_text(json.dumps(data))
    with pytest.raises(ParameterError, match="do not add up"):
        run(v, sl, folder)
    data["sums"]["situations"][6] -= 1
    data["sums"]["insured"] = str(Fraction(data["sums"]["raised"]) + 1)   # more draws insured than raised
    data["sha256"] = shard_digest(key, 0, data["sums"])
    shard.write_text(json.dumps(data))
    with pytest.raises(ParameterError, match="share out of range"):
        run(v, sl, folder)


def test_the_command_prints_the_slice_and_its_json(tmp_path):
    (tmp_path / "sixth.toml").write_text(US + SIXTH)
    r = run_cli("draws-exact", "sixth.toml", "--up", "A", "--hands", "royal_flush", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    schema = json.loads((REPO / "studodds" / "schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["kind"] == "russian_exact" and data["action_shares"] == {"buy a sixth card": {"exact": "1", "value": 1.0}}
    text = run_cli("draws-exact", "--hands", "royal_flush", "sixth.toml", "--up", "A", cwd=tmp_path).stdout
    assert "exact slice 'up card A; player hands royal flush'" in text and "\npush; fee 1 " in text


def test_a_table_without_draws_is_refused_in_one_line(tmp_path):
    (tmp_path / "lunar.toml").write_text(US + LUNAR)
    refused(tmp_path, "draws-exact", "lunar.toml", "--up", "A", needle="the table offers no draws")


@pytest.mark.slow
def test_a_slice_on_a_dask_cluster_equals_the_local_run(tmp_path, small_shards):
    """Shards valued by Dask worker processes give the very integers of the local run."""
    distributed = pytest.importorskip("distributed")
    v = variant(SIXTH)
    sl = Slice.parse(*SLICE)
    local = run(v, sl, threads=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = rs.slice_run(v, "", sl, tmp_path / "ck", "situation_classes").run(scheduler=cluster.scheduler_address)
    strip = {"core_seconds_per_class", "whole_game_core_hours"}
    assert ({k: x for k, x in remote.to_dict().items() if k not in strip}
            == {k: x for k, x in local.to_dict().items() if k not in strip})


# -- the game played with a simple draw strategy ------------------------------------------------

HOUSE = REPO / "docs" / "variants" / "lunar-house.toml"


@pytest.mark.slow
def test_a_strategy_s_groups_are_their_situations_actions_one_by_one():
    """The house's table played with the rules of thumb: a shard's sums over groups where they
    exchange two cards (three of a kind) and stand pat or exchange three (a pair) are, situation by
    situation, the strategy's action taken from that situation's every action valued alone
    (enumerate.russian.situation_ranks: the situation put in the kernel's frame itself), never
    more than the best action."""
    from enumerate.draws.switch_ranks import group_situations, groups
    from enumerate.russian import ranks
    from enumerate.russian.draw_strategies import action_taken, rules_of_thumb
    from enumerate.russian.situation_ranks import situations_by_ranks
    from studodds.api import load_variant
    v = load_variant(str(HOUSE))
    for hands in ("three_of_a_kind", "one_pair"):
        sl = Slice.parse("9", hands)
        h, up, _ = groups(sl)
        pick = [i for i in range(len(up)) if len(group_situations(h[i], int(up[i]), frozenset(sl.categories))[1]) <= 12][:2]
        got = ranks.shard_fields(v, h[pick], up[pick], frozenset(sl.categories), threads=1, actions=rules_of_thumb)
        ev = fees = Fraction(0)
        n = 0
        for i in pick:
            cards, w = group_situations(h[i], int(up[i]), frozenset(sl.categories))
            for c, x in zip(cards.tolist(), w.tolist()):
                situation = situations_by_ranks(v, tuple(c), [4 * int(up[i])])[0]
                taken = action_taken(situation, "rules-of-thumb")
                assert taken.ev <= situation.best.ev
                ev += x * taken.ev
                fees += x * taken.fee
                n += x
        assert Fraction(got["ev"]) == ev and Fraction(got["fees"]) == fees and sum(got["situations"]) == n, hands


@pytest.mark.slow
def test_a_strategy_s_slice_four_of_a_kind_stands_pat():
    """Four of a kind stands pat under the rules of thumb: the same game as the stand-pat strategy,
    below the best play (which buys a sixth card with some), every situation kept."""
    from studodds.api import load_variant
    v = load_variant(str(HOUSE))
    sl = Slice.parse("2", "four_of_a_kind")
    one = rs.slice_run(v, "", sl, None, played="rules-of-thumb").run(threads=2)
    keep = rs.slice_run(v, "", sl, None, played="stand-pat").run(threads=2)
    best = rs.slice_run(v, "", sl, None).run(threads=2)
    assert one.played == "rules-of-thumb" and one.sums.ev == keep.sums.ev and one.sums.situations == keep.sums.situations
    assert one.sums.situations[0] == one.situations and one.sums.ev <= best.sums.ev


@pytest.mark.parametrize("args, needle", [
    (["--strategy", "optimal"], "--strategy: the name of a simple draw strategy: stand-pat, rules-of-thumb"),
    (["--strategy", "rules-of-thumb", "docs/variants/oasis-online.toml"], "is played on a Russian Poker table"),
])
def test_a_strategy_s_slice_is_refused_in_one_line(tmp_path, args, needle):
    ck = tmp_path / "ck"
    target = [] if any(a.endswith(".toml") for a in args) else [str(HOUSE)]
    r = run_cli("draws-exact", *target, *args, "--up", "A", "--checkpoint", str(ck), cwd=REPO)
    assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not ck.exists()
    (tmp_path / "six.toml").write_text(US.replace('name = "lunar"', 'name = "six"') + SIXTH)
    r = run_cli("draws-exact", str(tmp_path / "six.toml"), "--strategy", "rules-of-thumb", "--up", "A", cwd=REPO)
    assert r.returncode == 2 and "exchanges 2, 3, 4 cards, which table 'six' does not offer" in r.stderr


def test_a_strategy_s_slice_is_named_in_its_text_and_json_and_keeps_checkpoints_of_its_own(tmp_path):
    ck = tmp_path / "ck"
    args = ["draws-exact", str(HOUSE), "--up", "2", "--hands", "royal_flush", "--checkpoint", str(ck)]
    r = run_cli(*args, "--strategy", "rules-of-thumb", "--json", cwd=REPO)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    jsonschema.Draft202012Validator(json.loads((REPO / "studodds" / "schema.json").read_text())).validate(d)
    assert d["played_with"] == "rules-of-thumb" and d["action_shares"] == {"buy a sixth card": {"exact": "1", "value": 1.0}}
    text = run_cli(*args, "--strategy", "stand-pat", cwd=REPO)
    assert text.returncode == 2 and "made for" in text.stderr        # a checkpoint of another run is refused
    text = run_cli(*args[:-2], "--strategy", "stand-pat", cwd=REPO).stdout
    assert "played with the draw strategy 'stand-pat'" in text and "Action taken: keep 100.0000%" in text
    best = run_cli(*args[:-2], "--json", cwd=REPO)
    assert "played_with" not in json.loads(best.stdout)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.one_of(st.text(max_size=20), st.integers(), st.booleans(), st.floats(), st.lists(st.text(max_size=3))))
def test_fuzz_a_strategy_name_of_an_exact_slice_is_one_parameter_error(name):
    """Anything but a strategy's name is one ParameterError naming the names, before any counting."""
    from enumerate.russian.draw_strategies import STRATEGIES
    from studodds import api
    assume(not isinstance(name, str) or name not in STRATEGIES)
    with pytest.raises(ParameterError, match="the name of a simple draw strategy: stand-pat, rules-of-thumb"):
        api.draws_exact(str(HOUSE), up="A", hands="royal_flush", strategy=name)
