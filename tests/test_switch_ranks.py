"""The switch game counted by rank patterns (enumerate.draws.switch_ranks) against the class path of
enumerate.draws.exact (every situation through the dead-card engine, itself tested against brute
force over every draw and dealer completion in test_draws_hand): the situations of a group --
every concrete hand with the group's rank pattern, up to the suits other than the up card's --
valued one by one give the same exact sums (situations, outcomes by final category, EV, raises,
strategy chart) as the group counted by rank patterns.  The groups cover every situation once; a
run checks itself against the count table and goes through the same runner and checkpoints."""
import dataclasses
import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from checkpoints import forge_shard
from test_draws import EVERY_SWITCH, ONE_AND_BUY

from enumerate.core import exact_game
from enumerate.core.slices import SITUATIONS, Slice, sealed
from enumerate.draws import exact as ex
from enumerate.draws import switch_ranks as swr
from enumerate.draws.actions import BUY_KIND
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant_file import load_variant_file, parse_variant_text
from evaluator.cards import RANKS
from evaluator.errors import ParameterError, StudoddsError
from evaluator.ranking import Category
from studodds.api import load_variant

GALEWIND_FILE = "docs/variants/oasis-galewind.toml"
GALEWIND = load_variant_file(GALEWIND_FILE).variant
ONLINE = load_variant_file("docs/variants/oasis-online.toml").variant
#: Switch one or two cards, or buy a sixth card; every switch set (Galewind's fees) and buying; buying only.
BOTH = parse_variant_text(ONE_AND_BUY, "both.toml")
EVERY = parse_variant_text(EVERY_SWITCH, "every.toml")
SIXTH = load_variant("sixth-card")
#: BOTH with a free sixth card: bought wherever it helps at all, flushes included.
FREE = parse_variant_text(ONE_AND_BUY.replace('fee = "1/2"', "fee = 0"), "free.toml")
ALL = frozenset(Category)
FIELDS = ("situations", "outcomes", "ev", "raised", "chart")


@pytest.fixture(scope="module")
def table():
    from studodds import api
    return api.count_table("us-common")


def _pattern(text):
    return np.bincount([RANKS.index(c) for c in text], minlength=13).astype(np.uint8)


def _both(variant, ranks, ru, categories=ALL):
    """The group (ranks, up rank) by rank patterns, and its situations one by one by the class path."""
    h = _pattern(ranks)
    mine = swr.shard_fields(variant, h[None, :], np.array([ru], dtype=np.uint8), categories)
    cards, w = swr.group_situations(h, ru, categories)
    ref = ex.value_shard(variant, cards, np.full(cards.shape[0], 4 * ru, dtype=np.uint8), w, threads=2).to_json()
    return mine, ref


def test_a_small_group_equals_the_class_path():
    """Four aces and a king against a five: two situations (the king of the up card's suit or not)."""
    mine, ref = _both(GALEWIND, "AAAAK", 3)
    assert {f: mine[f] for f in FIELDS} == {f: ref[f] for f in FIELDS}
    assert sum(mine["situations"]) == 4 * 4 == sum(mine["chart"].values())


@pytest.mark.slow
@pytest.mark.parametrize("variant, ranks, up", [
    (GALEWIND, "AKT42", 3),       # five ranks: flushes kept, drawn and both; the up rank absent
    (GALEWIND, "55A93", 3),       # a pair of the up rank: no s0 flush with it
    (ONLINE, "77KK2", 12),        # one ante a card; two pairs
])
def test_groups_equal_the_class_path(variant, ranks, up):
    mine, ref = _both(variant, ranks, RANKS.index(up) if isinstance(up, str) else up)
    assert {f: mine[f] for f in FIELDS} == {f: ref[f] for f in FIELDS}


def test_the_groups_are_every_situation():
    """The groups' weights add up to every (hand, up card) pair, and to a slice's situations."""
    h, up, w = swr.groups(Slice())
    assert int(w.sum()) == SITUATIONS and up.shape[0] == swr.whole_game_groups() == 80119
    for sl in (Slice.parse("A,K", "royal_flush"), Slice.parse("2", "four_of_a_kind"), Slice.parse("7", "flush")):
        assert int(swr.groups(sl)[2].sum()) == int(sl.classes()[2].sum())


@pytest.mark.parametrize("ranks, ru", [("AKT42", 3), ("55A93", 3), ("JJJ33", 9), ("98765", 4)])
def test_a_groups_situations_are_its_hands_up_to_suits(ranks, ru):
    """Every concrete hand with the pattern against the up card (ru, 0) is in exactly one orbit of
    the permutations of suits 1-3, whose representative is listed, weighted by the orbit (times
    the four up cards)."""
    h = _pattern(ranks)
    cards, w = swr.group_situations(h, ru, ALL)
    listed = {tuple(c): int(x) for c, x in zip(cards.tolist(), w.tolist())}
    found = {}
    for combo in itertools.product(*[itertools.combinations([4 * r + s for s in range(4) if 4 * r + s != 4 * ru], k)
                                     for r, k in enumerate(h.tolist()) if k]):
        hand = [c for part in combo for c in part]
        orbit = {tuple(sorted(4 * (c >> 2) + ((0,) + p)[c & 3] for c in hand)) for p in itertools.permutations((1, 2, 3))}
        rep = [o for o in orbit if o in listed]
        assert len(rep) == 1
        found[rep[0]] = 4 * len(orbit)
    assert found == listed


@pytest.mark.slow
def test_prohibitive_fees_are_the_plain_game(table):
    """Every switch priced out: every situation keeps, and the slice's EV is the plain game's
    (the run's own check compares the value of keeping with the count table as well)."""
    text = open(GALEWIND_FILE).read().replace("fees = { 1 = 1, 2 = 2, 3 = 3, 4 = 2, 5 = 1 }",
                                                "fees = { 1 = 1000, 2 = 1000, 3 = 1000, 4 = 1000, 5 = 1000 }")
    text = text.replace("all_five_must_raise = true", "")
    v = parse_variant_text(text, "dear.toml")
    sl = Slice.parse("A", "four_of_a_kind")
    got = ex.run_slice(v, text, sl, table=table, threads=2)
    pairs, keep = swr.keep_check(table, v, swr.groups(sl), sl.categories)
    assert got.to_dict()["action_shares"] == {"keep": {"exact": "1", "value": 1.0}}
    assert got.expected == Fraction(keep, pairs * RaiseValue.of(v.base_game()).scale * math.comb(46, 4))


def test_a_run_is_checked_and_resumed(tmp_path, monkeypatch, table):
    """A few groups through the runner: the figures of the kernel, the check against the count
    table passes, a rerun reads the checkpoint, a forged or foreign one is refused."""
    sl = Slice.parse("A", None)
    few = tuple(a[-5:] for a in swr.groups(sl))        # the last five groups
    monkeypatch.setattr(ex, "BY_RANKS", dataclasses.replace(ex.BY_RANKS, classes=lambda sl: few, shard=2))
    folder = tmp_path / "ck"
    first = ex.run_slice(GALEWIND, "galewind", sl, table=table, checkpoint=folder)
    direct = swr.shard_fields(GALEWIND, few[0], few[1], ALL)
    assert str(first.sums.ev) == direct["ev"] and first.method == "rank_patterns"
    assert first.to_dict()["method"] == "rank_patterns" and first.classes == 5
    again = ex.run_slice(GALEWIND, "galewind", sl, table=table, checkpoint=folder)
    strip = {"core_seconds_per_class", "whole_game_core_hours"}
    assert {k: v for k, v in again.to_dict().items() if k not in strip} == \
        {k: v for k, v in first.to_dict().items() if k not in strip}
    assert json.loads((folder / "run.json").read_text())["kind"] == "draws_exact_ranks_checkpoint"

    def one_less(sums):                  # still adds up on its own: only the run's check sees it
        sums["keep"] -= 1
    refusals = [(one_less, sl, "sums do not add up.*was edited"),
                (lambda sums: sums.update(actions=[0]), sl, "no per-class actions"),
                (lambda sums: sums.update(keep=True), sl, "value of keeping"),
                (lambda sums: sums["situations"].__setitem__(0, sums["situations"][0] + 4), sl, "do not add up|cover"),
                (lambda sums: None, Slice.parse("A", "royal_flush"), "another variant file, slice or version")]
    stored = (folder / "shard-0000001.json").read_text()
    for change, other, needle in refusals:
        (folder / "shard-0000001.json").write_text(stored)
        forge_shard(folder, 1, change)
        with pytest.raises(ParameterError, match=needle):
            ex.run_slice(GALEWIND, "galewind", other, table=table, checkpoint=folder)


def test_a_run_by_rank_patterns_needs_the_count_table():
    with pytest.raises(ValueError, match="count table"):
        ex.run_slice(GALEWIND, "galewind", Slice.parse("A", "royal_flush"))


def test_which_tables_are_counted_by_rank_patterns():
    """Every table with draws, a sixth card for sale or not; the class path when asked for."""
    assert ex.method(GALEWIND) == ex.method(ONLINE) == ex.method(BOTH) == ex.method(SIXTH) == "rank_patterns"
    assert ex.method(BOTH, "situation_classes") == "situation_classes"
    plain = parse_variant_text(ONE_AND_BUY[:ONE_AND_BUY.index("[switch]")], "plain.toml")
    assert "no switching or sixth card" in swr.supported(plain)
    with pytest.raises(StudoddsError, match="no switching or sixth card"):
        swr.SwitchRules(plain)
    with pytest.raises(StudoddsError, match="no switching or sixth card"):
        ex.method(plain, "rank_patterns")
    with pytest.raises(ValueError, match="no method 'by_hunch'"):
        ex.method(BOTH, "by_hunch")
    from enumerate.draws import _switch_ranks
    from enumerate.draws.actions import BUY
    assert _switch_ranks.BUY_ACTION == BUY              # the rank kernel codes buying as every other kernel
    rules = swr.SwitchRules(BOTH)
    assert rules.allowed.tolist() == [1, 1, 1, 0, 0, 0, 1] and rules.fees[BUY_KIND] == Fraction(1, 2)
    assert rules.tden[BUY_KIND] == rules.tden[1] and rules.draws[BUY_KIND] == 46


@pytest.mark.parametrize("variant, ranks, up, categories", [
    (FREE, "AKT42", 3, frozenset({Category.FLUSH})),    # a flush: bought cards of its suit (six suited) or not
    (FREE, "QJT98", 6, frozenset({Category.STRAIGHT_FLUSH})),
    (SIXTH, "AAAAK", 3, ALL),                           # buying only: the up card's suit, quads kept
])
def test_buying_in_a_small_group_equals_the_class_path(variant, ranks, up, categories):
    mine, ref = _both(variant, ranks, up, categories)
    assert {f: mine[f] for f in FIELDS} == {f: ref[f] for f in FIELDS}
    assert sum(mine["situations"]) == sum(mine["chart"].values()) > 0
    assert mine["situations"][BUY_KIND] > 0 or variant is SIXTH


@pytest.mark.slow
@pytest.mark.parametrize("variant, ranks, up", [
    (BOTH, "QQ953", 5),         # four of a suit and the bought card of it; a pair kept or broken
    (EVERY, "KK774", 7),        # every switch set, the five forced, and buying; the up rank in the hand
    (SIXTH, "J8632", 0),        # buying only, against a deuce: four-flushes of every suit
])
def test_buying_in_a_group_equals_the_class_path(variant, ranks, up):
    mine, ref = _both(variant, ranks, up)
    assert {f: mine[f] for f in FIELDS} == {f: ref[f] for f in FIELDS}
    assert mine["situations"][BUY_KIND] > 0


@pytest.mark.slow
def test_the_analysis_of_a_slice_is_its_figures(table):
    """whole_game_analysis of a slice: the same house edge, element of risk, variance, raise share
    and return table as the slice's own figures; every row's combinations over one denominator."""
    sl = Slice.parse("9", "four_of_a_kind")
    s = ex.run_slice(GALEWIND, "g", sl, table=table, threads=2)
    a, figures = ex.whole_game_analysis(s)
    d = s.to_dict()
    assert a.house_edge == -s.expected and a.element_of_risk == s.element_of_risk and a.variance == s.variance
    assert [r.to_dict() for r in a.rows] == d["return_table"]
    assert a.total_combinations % s.situations == 0
    assert sum(r.combinations for r in a.rows if not r.outcome.startswith("fee_")) == a.total_combinations
    assert a.raise_probability == s.raise_probability
    raised, decided = map(sum, zip(*a.raise_by_category.values()))
    assert raised == a.raised_situations and decided * 1 == s.situations * (decided // s.situations)
    assert figures.action_shares == {k: Fraction(v["exact"]) for k, v in d["action_shares"].items()}
    assert list(figures.strategy) == d["strategy"] and figures.fees_per_hand == s.fees_per_hand


@pytest.mark.slow
def test_a_switch_table_is_certified_and_checked(tmp_path, monkeypatch):
    """batch -> check on a table switching several cards, its "whole game" cut to a few groups: the
    analysis, report and switch_game.json written; check recounts (from the cache) or reads the
    committed sums (the default) and finds the table unchanged; an edited sum -- its checksum
    left or made anew, balanced or not --, a damaged or a missing file is named as the table's
    difference, and the check goes on."""
    from studodds import certify
    few = tuple(a[-4:] for a in swr.groups(Slice.parse("A", None)))
    real = swr.groups
    monkeypatch.setattr(swr, "groups", lambda sl: few if sl.whole_game else real(sl))
    monkeypatch.setattr(swr, "whole_game_groups", lambda: few[1].shape[0])   # not the cached count of every group
    monkeypatch.setattr(exact_game, "cache_folder", lambda kept, variant: tmp_path / "switch-cache")
    out = tmp_path / "out"
    certify.batch([GALEWIND_FILE], out, formats="md")
    folder = out / "oasis-galewind"
    assert (tmp_path / "switch-cache" / "shard-0000000.json").is_file()
    sums = json.loads((folder / "switch_game.json").read_text())
    assert sums["kind"] == "switch_game_sums" and sum(sums["situations"]) == int(few[2].sum())
    report = (folder / "report.md").read_text()
    assert "by rank patterns" in report and "1 to 5 switch that many cards" in report
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["analysis"]["draws"]["switched_card_by_position"] == {}
    for recount in (True, False):
        result = certify.check(out, recount=recount)
        assert [t.status for t in result.tables] == ["ok"], result.tables[0].differences
        assert result.tables[0].kept_sums == {"switch_game.json": "recounted (--recount)" if recount else
                                              "read back and verified"}

    def named(data, sealed_again=True):
        (folder / "switch_game.json").write_text(json.dumps(sealed(data) if sealed_again else data, indent=1) + "\n")
        t = certify.check(out).tables[0]
        assert t.status == "unreadable" and t.differences[0].file == "switch_game.json", t
        return t.differences[0].old

    body = {k: v for k, v in sums.items() if k != "sha256"}
    edited = json.loads(json.dumps(body))
    edited["keep"] += 1                                      # adds up on its own: the count table sees it
    assert "checksum does not match" in named({**edited, "sha256": sums["sha256"]}, sealed_again=False)
    assert "do not add up" in named(edited)                  # the checksum made anew: the sums still do not add up
    edited = json.loads(json.dumps(body))
    row = next(r for kind in edited["outcomes"] for r in kind if r[1] > 0)
    moved = min(1000, row[1])
    row[1] -= moved                                          # moved between two outcomes: the totals balance
    row[2] += moved
    assert "do not add up" in named(edited)
    assert "not the sums of a whole switch game" in named({**body, "groups": 5})
    assert "no checksum" in named(body, sealed_again=False)
    (folder / "switch_game.json").write_text("{")
    assert certify.check(out).tables[0].status == "unreadable"
    (folder / "switch_game.json").unlink()
    t = certify.check(out).tables[0]
    assert t.status == "unreadable" and "missing" in t.differences[0].old and "--recount" in t.differences[0].old


def test_check_takes_a_boolean_recount(tmp_path):
    from studodds import certify
    with pytest.raises(ParameterError, match="recount"):
        certify.check(tmp_path, recount="no")


def test_a_damaged_shard_of_the_user_cache_is_valued_again(tmp_path, monkeypatch):
    """The whole game's shards in the user cache are the program's own: an edited or truncated
    shard, a stranger in the folder or a run.json of another run is said in one warning and
    counted again -- never an error naming an option the user did not give."""
    import warnings
    few = tuple(a[-4:] for a in swr.groups(Slice.parse("A", None)))
    real = swr.groups
    monkeypatch.setattr(swr, "groups", lambda sl: few if sl.whole_game else real(sl))
    monkeypatch.setattr(swr, "whole_game_groups", lambda: few[1].shape[0])   # not the cached count of every group
    cache = tmp_path / "switch-cache"
    monkeypatch.setattr(exact_game, "cache_folder", lambda kept, variant: cache)
    first = load_variant(GALEWIND_FILE)
    from studodds import api
    good = api.analyze(first).to_dict()
    shard = cache / "shard-0000000.json"
    text = shard.read_text()
    damages = [("edited", lambda: shard.write_text(text.replace('"', "'", 1))),
               ("digit changed", lambda: shard.write_text(text.replace("1", "2", 1))),
               ("truncated", lambda: shard.write_text(text[:40])),
               ("a stranger", lambda: (cache / "notes.txt").write_text("x")),
               ("another run", lambda: (cache / "run.json").write_text('{"kind": "other"}\n'))]
    for what, damage in damages:
        damage()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            again = api.analyze(first).to_dict()
        assert again == good, what
        said = [str(w.message) for w in caught if "cache of" in str(w.message)]
        assert len(said) == 1 and ("valued again" in said[0] or "counted again" in said[0]), (what, said)
        assert not any(advice in said[0] for advice in ("--checkpoint", "remove it", "remove that", "name a new")), said
        assert json.loads(shard.read_text())["sums"] and not (cache / "notes.txt").exists()
