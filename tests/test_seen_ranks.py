"""The seen-hand game counted by rank patterns (enumerate.boxes.seen_ranks) against the
class sweep of enumerate.protection.seen_hand (itself tested against the collusion kernel, which
evaluates every hole-card set of a situation on its own): every concrete partner hand of a rank
pattern, grouped into suit classes here and swept one by one, gives the same six exact sums as
the rank patterns.  The normal decisions' value over every partner is checked against the count
table; shards, checkpoints and the command go through the same runner as the class sweep."""
import dataclasses
import itertools
import json
from collections import Counter

import numpy as np
import pytest
from checkpoints import forge_shard

from enumerate.boxes import seen_ranks as sr
from enumerate.core.slices import Slice
from enumerate.protection import seen_hand as sh
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant_file import load_builtin
from evaluator.cards import RANKS
from evaluator.errors import ParameterError

US = load_builtin("us-common").variant


@pytest.fixture(scope="module")
def table():
    from studodds import api
    return api.count_table("us-common")


def _pattern(text):
    return np.bincount([RANKS.index(c) for c in text], minlength=13).astype(np.int8)


def _swept(table, partner_ranks, ru):
    """The six sums over every concrete partner hand with these ranks and every up card of rank
    ru, by the class sweep: the (partner, up card) pairs grouped into suit classes here."""
    perms = list(itertools.permutations(range(4)))
    groups = Counter()
    by_rank = Counter(RANKS.index(c) for c in partner_ranks)
    for combo in itertools.product(*[itertools.combinations([4 * r + s for s in range(4)], k)
                                     for r, k in by_rank.items()]):
        partner = [c for part in combo for c in part]
        for up in range(4 * ru, 4 * ru + 4):
            if up not in partner:
                groups[min((tuple(sorted(4 * (c >> 2) + p[c & 3] for c in partner)), 4 * ru + p[up & 3])
                           for p in perms)] += 1
    normal = sh.Normal.of(table, US)
    out = [0] * 6
    for (partner, up), w in groups.items():
        v, n, seen, usual = sh.class_values(US, normal, partner, up, threads=2)
        for i, x in enumerate((v.size, v.sum(), n.sum(), seen.sum(), usual.sum(), (seen != usual).sum())):
            out[i] += w * int(x)
    return out


def _counted(partner_ranks, ru):
    """The six sums by rank patterns; the return table of the game seen checked on the way: its
    hole-card sets are every situation's, and valued at the settlement's net results it is V."""
    sums = sr.pattern_sums(US, sr.player_patterns(ru), ru, q=_pattern(partner_ranks)[None, :], threads=2)
    total = [4 * int(x) for x in sums.sum(axis=0)]
    value = RaiseValue.of(US)
    returns = np.array(total[6:], dtype=object).reshape(10, 5)
    assert returns.sum() == total[0] * 101270 and returns[:, 4].sum() == (total[0] - total[3]) * 101270
    nets = [[value.c_nq - value.c_lose, int(value.c_win[c]) - value.c_lose, value.c_tie - value.c_lose,
             -value.c_lose, -value.scale] for c in range(10)]
    assert (returns * np.array(nets, dtype=object)).sum() == total[1]
    return total[:6]


@pytest.mark.debug_sample
@pytest.mark.parametrize("partner, up", [("AAAAK", "2")])
def test_a_partner_pattern_equals_the_class_sweep(table, partner, up):
    """Quads against a deuce: two suit classes; every player pattern, flushes included."""
    assert _counted(partner, RANKS.index(up)) == _swept(table, partner, RANKS.index(up))


@pytest.mark.slow
@pytest.mark.parametrize("partner, up", [("AKT42", "5"),      # 187 classes: the partner's s0 cards, flushes
                                         ("55A93", "5")])     # the partner holds two of the up rank
def test_more_partner_patterns_equal_the_class_sweep(table, partner, up):
    assert _counted(partner, RANKS.index(up)) == _swept(table, partner, RANKS.index(up))


def test_the_normal_decisions_over_every_partner_are_the_normal_game(table):
    """For sampled player patterns, N summed over every partner pattern is the normal game's
    optimal result on those hands (from the count table), and the situations are every (P, Q)."""
    rng = np.random.default_rng(5)
    for ru in (0, 12):
        p = sr.player_patterns(ru)
        p = p[rng.choice(p.shape[0], 6, replace=False)]
        sums = sr.pattern_sums(US, p, ru, threads=2)
        assert (sums[:, 1] >= sums[:, 2]).all() and (sums[:, 1] > sums[:, 2]).any()
        cls = (p, np.full(6, ru), sr.pattern_weights(p, np.full(6, ru)))
        pairs, normal = sr.normal_check(table, US, cls)
        assert pairs == cls[2].sum() and 4 * sums[:, 0].sum() == pairs * sr.PLAYER_HANDS
        assert 4 * sums[:, 2].sum() * 163185 == normal * sr.PLAYER_HANDS * 101270


def test_the_classes_are_every_deal():
    """Every (player hand, up card) pair is in exactly one class."""
    cards, up, weight = sr.classes(frozenset(range(13)))
    assert int(weight.sum()) == 2598960 * 47 and cards.shape[0] == sr.whole_game_classes() == up.shape[0]
    assert (cards.sum(axis=1) == 5).all() and (cards[np.arange(up.size), up] <= 3).all()
    assert sr.patterns(5).shape[0] == 6175 and sr.patterns(4).shape[0] == 1820


def test_a_run_is_checked_and_resumed(tmp_path, monkeypatch, table):
    """A few classes through the runner: figures equal to the kernel's, the check against the count
    table passes, a rerun reads the checkpoint, a forged or foreign one is refused."""
    cls = sr.classes(frozenset([12]))
    few = tuple(a[:6] for a in cls)
    monkeypatch.setattr(sh, "BY_RANKS", dataclasses.replace(sh.BY_RANKS, classes=lambda sl: few, shard=4))
    sl = Slice.parse("A", None)
    folder = tmp_path / "ck"
    first = sh.run_slice(US, "us-common", table, sl, checkpoint=folder)
    expected = sr.pattern_sums(US, few[0].astype(np.int8), 12)
    assert first.sums.seen == 4 * sum(expected[:, 1]) and first.method == "rank_patterns"
    assert first.to_dict()["method"] == "rank_patterns"
    assert sh.run_slice(US, "us-common", table, sl, checkpoint=folder).to_dict() == first.to_dict()
    key = json.loads((folder / "run.json").read_text())
    assert key["kind"] == "collusion_exact_ranks_checkpoint"

    def one_less(sums):                  # still adds up on its own: only the run's checks see it
        for f in ("seen", "normal"):
            sums[f] = str(int(sums[f]) - 1)
    refusals = [(one_less, sl, "sums do not add up.*was edited"),
                (lambda sums: sums.update(situations="7"), sl, "not its classes' player hands"),
                (lambda sums: None, Slice.parse("A", "royal_flush"), "another variant file, slice or version")]
    for change, other, needle in refusals:
        forge_shard(folder, 1, change)
        with pytest.raises(ParameterError, match=needle):
            sh.run_slice(US, "us-common", table, other, checkpoint=folder)


def test_the_certified_seen_hand_game_holds_together():
    """results/us-common/protection.json's whole seen-hand game (2 core-hours to recount: `check`
    does it, CI does not): every situation; the normal decisions' edge is the certified normal
    game's; the return table is the situations' hole-card sets and values to the edge seen; the
    round of two boxes is their variances and covariance."""
    from fractions import Fraction
    from pathlib import Path
    folder = Path(__file__).resolve().parents[1] / "results" / "us-common"
    seen = json.loads((folder / "protection.json").read_text())["seen_hand"]
    summary = json.loads((folder / "summary.json").read_text())
    assert seen["method"] == "rank_patterns" and seen["slice"]["label"] == "the whole game"
    assert seen["situations"] == 2598960 * 47 * sr.PLAYER_HANDS and seen["share_of_situations"]["exact"] == "1"
    assert seen["house_edge_not_seeing"]["exact"] == summary["analysis"]["house_edge_per_ante"]["exact"]
    rows = seen["seeing_return_table"]
    assert sum(int(r["hole_card_sets"]) for r in rows) == seen["situations"] * 101270
    assert sum(Fraction(r["probability"]["exact"]) for r in rows) == 1
    assert -sum(Fraction(r["contribution"]["exact"]) for r in rows) == Fraction(seen["house_edge_seeing_partner"]["exact"])
    gain = Fraction(seen["house_edge_not_seeing"]["exact"]) - Fraction(seen["house_edge_seeing_partner"]["exact"])
    assert gain == Fraction(seen["gain_per_hand_antes"]["exact"]) > 0
    # counted as one player's two boxes: a round of both is two boxes' variance and twice their covariance
    boxes = seen["two_boxes"]
    variance = Fraction(seen["seeing_variance_per_hand"]["exact"])
    covariance = Fraction(boxes["covariance_of_the_boxes_antes_squared"]["exact"])
    assert Fraction(boxes["variance_per_round_antes_squared"]["exact"]) == 2 * variance + 2 * covariance
    assert Fraction(boxes["correlation_of_the_boxes"]["exact"]) == covariance / variance
    assert boxes["house_edge_per_box"] == seen["house_edge_seeing_partner"]
    assert 0 < Fraction(boxes["both_boxes_raise_share"]["exact"]) < Fraction(seen["raise_share_seeing"]["exact"])
