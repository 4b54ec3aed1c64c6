"""The exact value of seeing one partner's hand (enumerate.protection.seen_hand): a class's
player hands against the collusion kernel (which evaluates every hole-card set of a situation on
its own) and the normal decisions of the count table, a slice against its concrete partner hands
valued without suit classes, forged checkpoints, and the command's refusals."""
import dataclasses
import itertools

import numpy as np
import pytest
from checkpoints import forge_shard

from enumerate.boxes import seen_game
from enumerate.core.slices import Slice
from enumerate.protection import _collusion
from enumerate.protection import seen_hand as sh
from enumerate.protection.collusion import decision_values, normal_decisions
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant_file import load_builtin
from evaluator.errors import ParameterError, StudoddsError
from evaluator.ranking import strengths

US = load_builtin("us-common").variant


@pytest.fixture(scope="module")
def table():
    from studodds import api
    return api.count_table("us-common")


@pytest.mark.slow
def test_a_class_values_its_player_hands_like_the_collusion_kernel(table):
    """Sampled player hands of a class: the engine's counts, V (seeing the partner) and N (the
    normal decision) equal the collusion kernel's counts and values of the same situations."""
    normal = sh.Normal.of(table, US)
    rng = np.random.default_rng(32)
    for _ in range(2):
        deck = rng.permutation(52)
        partner, up = tuple(sorted(int(c) for c in deck[:5])), int(deck[5])
        v, n, seen, usual = sh.class_values(US, normal, partner, up, threads=2)
        assert v.shape == (sh.PLAYER_HANDS,) and (v >= n).all() and ((seen != usual) | (v == n)).all()
        unseen = np.array([c for c in range(52) if c not in partner and c != up], dtype=np.uint8)
        labels, _ = sh.five_sets()
        rows = rng.choice(sh.PLAYER_HANDS, 400, replace=False)
        player = np.ascontiguousarray(unseen[labels[rows]])
        counts = np.zeros((len(rows), 3), dtype=np.int32)
        _collusion.completion_counts(player, np.full(len(rows), up, dtype=np.uint8),
                                     np.tile(np.array(partner, dtype=np.uint8), (len(rows), 1)),
                                     US.qualifier.threshold, counts, 2)
        raise_v, fold = decision_values(RaiseValue.of(US), strengths(player), counts[:, 0], counts[:, 1], counts[:, 2],
                                        sh.COMPLETIONS)
        assert (v[rows] == np.maximum(raise_v, fold)).all()
        expected_normal = normal_decisions(table, US, player, np.full(len(rows), up, dtype=np.uint8))
        assert (usual[rows] == expected_normal).all() and (n[rows] == np.where(expected_normal, raise_v, fold)).all()


def test_the_normal_decisions_by_hand_are_the_count_tables(table):
    """Normal.by_hand (every hand through the canonical map) against the count table's decisions
    read hand by hand (relabelled on their own), for sampled hands and up cards, hands holding the
    up card False."""
    from evaluator.ranking import hand_indices, hands_of_indices
    normal = sh.Normal.of(table, US)
    rng = np.random.default_rng(7)
    for up in (0, 25, 51):
        got = normal.by_hand(up)
        hands = hands_of_indices(rng.choice(2598960, 30000, replace=False).astype(np.int32))
        holds = (hands == up).any(axis=1)
        assert holds.any() and not got[hand_indices(hands[holds])].any()
        free = hands[~holds]
        expected = normal_decisions(table, US, free, np.full(free.shape[0], up, dtype=np.uint8))
        assert expected.any() and not expected.all()
        assert (got[hand_indices(free)] == expected).all()


@pytest.mark.slow
def test_a_slice_equals_its_concrete_partner_hands(table):
    """Three classes (a royal flush against an ace) and the twelve concrete partner hands they
    stand for, each valued on its own: the same exact sums."""
    sl = Slice.parse("A", "royal_flush")
    got = sh.run_slice(US, "us-common", table, sl, threads=2)
    normal = sh.Normal.of(table, US)
    seen = usual = 0
    hands = 0
    for suit in range(4):
        partner = tuple(sorted(4 * r + suit for r in range(8, 13)))
        for up in range(48, 52):
            if up in partner:
                continue
            v, n, _, _ = sh.class_values(US, normal, partner, up, threads=2)
            seen += int(v.sum())
            usual += int(n.sum())
            hands += 1
    assert hands == 12 and got.sums.situations == 12 * sh.PLAYER_HANDS
    assert got.sums.seen == seen and got.sums.normal == usual and got.seeing > got.not_seeing


def test_a_forged_shard_is_refused(tmp_path, monkeypatch, table):
    monkeypatch.setattr(sh, "BY_CLASSES", dataclasses.replace(sh.BY_CLASSES, shard=2))
    monkeypatch.setattr(sh, "class_values", lambda variant, normal, partner, up, threads=1: (
        np.full(3, 5), np.full(3, 4), np.ones(3, bool), np.zeros(3, bool)))       # three hands a class: cheap
    monkeypatch.setattr(sh, "PLAYER_HANDS", 3)
    monkeypatch.setattr(seen_game, "PLAYER_HANDS", 3)          # what a shard is verified against
    monkeypatch.setattr(sh, "five_sets", lambda: None)
    monkeypatch.setattr(sh.Normal, "by_hand", lambda self, up: None)
    sl = Slice.parse("A", "royal_flush")
    folder = tmp_path / "ck"
    first = sh.run_slice(US, "us-common", table, sl, checkpoint=folder)
    assert first.sums.seen == 3 * 4 * 15 and first.sums.changed == 3 * 4 * 3
    again = sh.run_slice(US, "us-common", table, sl, checkpoint=folder)
    assert again.to_dict() == first.to_dict()
    forge_shard(folder, 0, lambda sums: sums.update(seen=sums["normal"], normal=sums["seen"]))  # seeing worth less
    with pytest.raises(ParameterError, match="worth less"):
        sh.run_slice(US, "us-common", table, sl, checkpoint=folder)
    forge_shard(folder, 0, lambda sums: sums.update(situations="7"))
    with pytest.raises(ParameterError, match="not its classes' player hands"):
        sh.run_slice(US, "us-common", table, sl, checkpoint=folder)
    with pytest.raises(ParameterError, match="another variant file, slice or version"):
        sh.run_slice(US, "us-common", table, Slice.parse("K", "royal_flush"), checkpoint=folder)


def test_the_sets_are_every_five_set_in_colex_order():
    labels, packed = sh.five_sets()
    assert labels.shape == (sh.PLAYER_HANDS, 5) and tuple(labels[1]) == (0, 1, 2, 3, 5)
    assert (packed[:3] == [sum(int(x) << (6 * i) for i, x in enumerate(labels[j])) for j in range(3)]).all()
    assert list(itertools.islice(map(tuple, labels[-2:].tolist()), 2)) == [(40, 42, 43, 44, 45), (41, 42, 43, 44, 45)]


def test_the_command_refuses_what_only_sampling_takes():
    from cli_runner import run_cli
    for args, needle in [(["--partners", "2", "--exact"], "one partner"),
                         (["--partners", "1", "--exact", "--burn", "yes"], "burn"),
                         (["--partners", "1", "--exact", "--samples", "10"], "samples"),
                         (["--partners", "1", "--exact", "--seed", "3"], "seed"),
                         (["--partners", "1", "--exact", "--up", "Z"], "not a rank"),
                         (["--partners", "1", "--hands", "flush"], "goes with --exact"),
                         (["oasis-one-card", "--partners", "1", "--exact"], "not supported for this kind of table")]:
        r = run_cli("collusion", *args, "--quiet")
        assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)
    with pytest.raises(StudoddsError):
        import studodds
        studodds.collusion_exact("oasis-one-card")
