"""The engine's counts against brute-force enumeration of every dealer completion."""
import json
from pathlib import Path

import numpy as np
import pytest
from reference import brute_force_counts, parse

from enumerate.analysis.situation import canonical, counts_of
from enumerate.core.engine import COMPLETIONS


def _sample_situations(seed: int = 2024):
    """At least 300 situations, weighted towards the delicate ones."""
    rng = np.random.default_rng(seed)
    out = []

    def random_up(player):
        rest = [c for c in range(52) if c not in player]
        return int(rng.choice(rest))

    # 1. uniformly random situations
    for _ in range(150):
        cards = rng.choice(52, size=6, replace=False)
        out.append((tuple(int(c) for c in cards[:5]), int(cards[5])))
    # 2. wheels and steel wheels (ace low), and six-high straights
    for text in ["Ac 2d 3h 4s 5c", "Ah 2h 3h 4h 5h", "As 2s 3d 4c 5h", "2c 3d 4h 5s 6c"]:
        p = parse(text)
        for _ in range(10):
            out.append((tuple(p), random_up(p)))
    # 3. Ace/King high hands, the borderline of the strategy
    for _ in range(50):
        ranks = [12, 11] + list(rng.choice(11, size=3, replace=False))
        suits = rng.integers(0, 4, size=5)
        cards = [int(r) * 4 + int(s) for r, s in zip(ranks, suits)]
        if len(set(c & 3 for c in cards)) == 1:
            cards[0] ^= 1                               # avoid a flush
        out.append((tuple(cards), random_up(cards)))
    # 4. hands that the dealer can tie exactly: high cards and pairs, up card of a rank the
    #    player holds, and the up card of a rank the player does not hold
    for text in ["Ah Kd 9c 7s 4h", "Ah Kd Qc Js 9h", "Kc Kd 7h 5s 2c", "Ac Ad Kh Qs Jc", "9c 8d 6h 4s 3c"]:
        p = parse(text)
        for up in [p[2] ^ 1, p[4] ^ 2, random_up(p), random_up(p)]:
            out.append((tuple(p), int(up)))
    # 5. pairs matching the up card's rank, and trips / two pairs with the up card matching
    for _ in range(50):
        r = int(rng.integers(13))
        pair = [r * 4, r * 4 + 1]
        others = [c for c in rng.permutation(52) if c >> 2 != r][:3]
        player = pair + [int(c) for c in others]
        up = r * 4 + int(rng.integers(2, 4))
        out.append((tuple(player), up))
    for text, up in [("7c 7d 7h 2s 3c", "7s"), ("Qc Qd 5h 5s 9c", "Qh"), ("Qc Qd 5h 5s 9c", "5d"),
                     ("Ac As Ad Ah Kc", "Kd"), ("Ts Js Qs Ks As", "9s"), ("Ts Js Qs Ks As", "Ah"),
                     ("2c 3c 4c 5c 7c", "6c"), ("2c 3c 4c 5c 7c", "Ac"), ("Ah Kh 4h 3h 2c", "5h")]:
        out.append((tuple(parse(text)), parse(up)[0]))
    return out


SITUATIONS = _sample_situations()


def test_sample_is_large_and_delicate():
    assert len(SITUATIONS) >= 300
    assert len({(tuple(sorted(p)), u) for p, u in SITUATIONS}) >= 280


GOLDEN = Path(__file__).parent / "data" / "brute_force_counts.json"


def _golden():
    rows = json.loads(GOLDEN.read_text())["situations"]
    assert [(tuple(r["player"]), r["up"]) for r in rows] == SITUATIONS, "regenerate with tests/make_golden.py"
    return [tuple(r["counts"]) for r in rows]


@pytest.mark.debug_sample
def test_counts_equal_the_golden_brute_force_counts(us_counts):
    """Quick tier: all sampled situations against the brute-force counts stored in
    tests/data (the slow test below recomputes them)."""
    golden = _golden()
    for (player, up), want in zip(SITUATIONS, golden):
        got = counts_of(us_counts, player, up)
        assert (got.no_qualify, got.win, got.tie, got.lose) == want, (player, up)
        assert sum(want) == COMPLETIONS


@pytest.mark.slow
@pytest.mark.parametrize("k", range(len(SITUATIONS)))
def test_counts_equal_brute_force(us_counts, k):
    """Full tier: brute force recomputed, against the engine and the golden file."""
    player, up = SITUATIONS[k]
    got = counts_of(us_counts, player, up)
    slow = brute_force_counts(list(player), up)
    assert (got.no_qualify, got.win, got.tie, got.lose) == slow
    assert tuple(slow) == _golden()[k]


def test_some_sampled_situations_tie_and_win(us_counts):
    ties = [counts_of(us_counts, p, u).tie for p, u in SITUATIONS]
    assert sum(t > 0 for t in ties) >= 20


def test_table_shape_and_weights(us_counts):
    assert us_counts.hands.shape == (134_459, 5)
    assert us_counts.up.shape == (134_459, 47)
    assert int(us_counts.weight.sum()) == 2_598_960
    assert us_counts.n_situations == 122_151_120
    assert set(np.unique(us_counts.weight).tolist()) <= {1, 2, 4, 6, 12, 24}
    lose = us_counts.lose
    assert lose.min() >= 0
    assert (us_counts.no_qualify.astype(np.int64) + us_counts.win + us_counts.tie + lose == COMPLETIONS).all()


@pytest.mark.slow
def test_distinct_situations_up_to_suits():
    """5,649,150 situations are distinct up to suit relabelling (the published count)."""
    from itertools import permutations

    from enumerate.core.engine import hand_tables
    t = hand_tables()
    # count orbits of (canonical hand, up card) under the hand's stabiliser, by Burnside
    n_orbits = 0
    perms = list(permutations(range(4)))
    for cards, weight in zip(t.cards_by_index[t.canon_index], t.canon_weight):
        stabiliser = 24 // int(weight)
        if stabiliser == 1:
            n_orbits += 47
            continue
        hand = sorted(int(c) for c in cards)
        fixed_total = 0
        for perm in perms:
            image = sorted((c & ~3) | perm[c & 3] for c in hand)
            if image == hand:
                fixed_total += sum(1 for u in range(52) if u not in hand and (u & ~3) | perm[u & 3] == u)
        n_orbits += fixed_total // stabiliser
    assert n_orbits == 5_649_150


def test_canonical_relabelling_keeps_counts(us_counts):
    p, u = parse("Ah Kd Jc 8s 3c"), parse("7d")[0]
    q, v = parse("As Kh Jd 8c 3d"), parse("7h")[0]         # swap c<->d, h<->s
    assert counts_of(us_counts, tuple(p), u) == counts_of(us_counts, tuple(q), v)
    cp, cu = canonical(tuple(p), u)
    assert counts_of(us_counts, cp, cu) == counts_of(us_counts, tuple(p), u)


@pytest.mark.slow
def test_thread_count_does_not_change_counts(us_counts):
    """Counts are integers from independent per-thread sweeps: 1 thread and 3 agree exactly."""
    from enumerate.core.engine import compute_counts
    one = compute_counts(us_counts.qualifier, threads=1)
    three = compute_counts(us_counts.qualifier, threads=3, chunks=5)
    for name in ("no_qualify", "win", "tie"):
        assert np.array_equal(getattr(one, name), getattr(us_counts, name))
        assert np.array_equal(getattr(three, name), getattr(us_counts, name))


@pytest.mark.debug_sample
def test_the_build_is_the_one_asked_for():
    """CI runs a sample under the bounds-checking debug build with STUDODDS_EXPECT_DEBUG_BUILD=1;
    everywhere else the optimised build must be the one installed."""
    import os

    from studodds.api import debug_build
    assert debug_build() == (os.environ.get("STUDODDS_EXPECT_DEBUG_BUILD", "") == "1")


def _all_hands():
    from evaluator.ranking import N_HANDS, hands_of_indices, strength_by_index
    cards = np.ascontiguousarray(hands_of_indices(np.arange(N_HANDS)).astype(np.uint8))
    masks = np.zeros(N_HANDS, dtype=np.uint64)
    for i in range(5):
        masks |= np.uint64(1) << cards[:, i].astype(np.uint64)
    return cards, masks, strength_by_index()


def test_the_inclusion_exclusion_read_counts_the_hands_it_names():
    """The plain read of ``_counters.pxd`` (hands below x that contain some cards and avoid
    others, any number of them dead) against counting the hands themselves, and the count
    engine's fast read (every up card of a player hand) against the plain one."""
    from enumerate.core import _engine
    from enumerate.core.engine import hand_tables
    cards, masks, strength = _all_hands()
    rng = np.random.default_rng(20261202)
    for x in (1, 1500, 4000, 6185, 7461):
        below = strength < x
        state = np.zeros(_engine.COUNTERS_PER_STATE, dtype=np.int32)
        _engine.add_hands(state, np.ascontiguousarray(cards[below]))
        for _ in range(12):
            deck = rng.permutation(52).astype(np.uint8)
            n_with, n_avoid = int(rng.integers(1, 6)), int(rng.integers(0, 12))
            with_cards, avoid = np.sort(deck[:n_with]), deck[n_with:n_with + n_avoid]
            g = sum(np.uint64(1) << np.uint64(c) for c in with_cards)
            a = sum((np.uint64(1) << np.uint64(c) for c in avoid), np.uint64(0))
            expected = int(np.count_nonzero(below & ((masks & g) == g) & ((masks & a) == 0)))
            assert _engine.hands_below_with(state, x, with_cards, avoid) == expected, (x, with_cards, avoid)
        t = hand_tables()
        rows = rng.choice(t.canon_cards_by_strength.shape[0], 4, replace=False)
        for j in rows:
            out = np.zeros((j + 1, 52), dtype=np.int32)            # row j is hand j's
            _engine.count_below_all(state, x, t.canon_cards_by_strength, int(j), int(j) + 1, out, 1)
            p = t.canon_cards_by_strength[j]
            for u in range(52):
                want = 0 if u in p else _engine.hands_below_with(state, x, np.array([u], np.uint8), p)
                assert out[j, u] == want, (x, p, u)


@pytest.mark.parametrize("with_cards, avoid", [([], []), ([1, 2, 3, 4, 5, 6], []), ([3], [3]), ([4], list(range(5, 22))),
                                               ([2, 2], [])])
def test_the_read_refuses_what_it_cannot_count(with_cards, avoid):
    from enumerate.core import _engine
    state = np.zeros(_engine.COUNTERS_PER_STATE, dtype=np.int32)
    with pytest.raises(ValueError):
        _engine.hands_below_with(state, 100, np.array(with_cards, np.uint8), np.array(avoid, np.uint8))
