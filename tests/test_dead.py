"""The dead-card engine (enumerate/core/_dead.pyx) against counting the dealer's hole sets one by
one: every set's no-qualify count and every query's win and tie counts, on a full deck and on
reduced decks, the same however many threads split the work; and the checks of its inputs."""
import itertools

import numpy as np
import pytest

from enumerate.core import _dead
from evaluator._eval import strengths_of

NO = _dead.NO_LABEL_VALUE


def pack(labels) -> int:
    return sum((labels[i] if i < len(labels) else NO) << (6 * i) for i in range(5))


class Holes:
    """Every hole set of the unseen cards with the up card, evaluated once; a set's live hole
    sets are those holding none of its labels."""

    def __init__(self, unseen, up):
        holes = np.array(list(itertools.combinations(range(len(unseen)), 4)), dtype=np.int64)
        cards = np.sort(np.concatenate([np.asarray(unseen, dtype=np.int64)[holes],
                                        np.full((len(holes), 1), up)], axis=1), axis=1)
        self.strength = np.asarray(strengths_of(cards.astype(np.uint8)))
        self.mask = (np.int64(1) << holes).sum(axis=1)

    def counts(self, labels, s, q):
        live = self.strength[(self.mask & sum(1 << x for x in labels)) == 0]
        nq = int((live < q).sum())
        if s < q:
            return nq, 0, 0
        return nq, int(((live >= q) & (live < s)).sum()), int((live == s).sum())


def run(unseen, up, q, sets, queries, threads, complete=None):
    packed = np.array([pack(x) for x in sets], dtype=np.uint32)
    complete = np.full(6, -1, dtype=np.int64) if complete is None else np.array(complete, dtype=np.int64)
    qset = np.array([i for i, _ in queries], dtype=np.int32)
    qstr = np.array([s for _, s in queries], dtype=np.int16)
    nq = np.zeros(len(sets), np.int32)
    win = np.zeros(len(queries), np.int32)
    tie = np.zeros(len(queries), np.int32)
    assert _dead.dead_counts_of(np.array(unseen, dtype=np.uint8), up, q, packed, complete, qset, qstr, nq, win, tie,
                                np.zeros(1, np.int32), threads) == 0
    return nq, win, tie


@pytest.mark.parametrize("deck_size,seed", [(52, 1), (52, 2), (30, 3), (16, 4)])
def test_counts_equal_the_hole_sets_counted_one_by_one(deck_size, seed):
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52)[:deck_size]
    up, unseen = int(deck[0]), sorted(int(c) for c in deck[6:])
    m = len(unseen)
    holes = Holes(unseen, up)
    q = int(rng.integers(1000, 6000))
    sets = [tuple(sorted(rng.choice(m, k, replace=False).tolist())) for k in range(6) for _ in range(25)]
    # strengths anywhere, at the qualifier, and at the hole sets' own strengths (ties certain)
    queries = [(i, int(rng.integers(0, 7462))) for i in range(len(sets))]
    queries += [(i, q) for i in range(0, len(sets), 7)]
    queries += [(i, int(rng.choice(holes.strength))) for i in range(len(sets)) for _ in range(2)]
    got = [run(unseen, up, q, sets, queries, t) for t in (1, 2, 3)]
    for other in got[1:]:
        assert all((a == b).all() for a, b in zip(got[0], other))
    nq, win, tie = got[0]
    for j, (i, s) in enumerate(queries):
        assert (nq[i], win[j], tie[j]) == holes.counts(sets[i], s, q), (sets[i], s)


def colex(m, k):
    """The k-sets of 0..m-1 in colex order."""
    return sorted(itertools.combinations(range(m), k), key=lambda c: c[::-1])


@pytest.mark.debug_sample
def test_every_query_of_a_small_deck():
    """Nine unseen cards: every set of 0..5 labels against every strength the hole sets take,
    the sets of each size declared complete runs (read by the fast path) or not."""
    unseen, up = [0, 5, 9, 14, 22, 31, 40, 47, 51], 27
    holes = Holes(unseen, up)
    sets = [c for k in range(6) for c in colex(9, k)]
    offsets = [sum(len(colex(9, j)) for j in range(k)) for k in range(6)]
    strengths = sorted(set(holes.strength.tolist()) | {0, 7461})
    q = strengths[len(strengths) // 2]
    queries = [(i, s) for i in range(len(sets)) for s in strengths[::3]]
    plain = run(unseen, up, q, sets, queries, 2)
    for complete in (offsets, [-1, offsets[1], -1, offsets[3], -1, offsets[5]]):
        assert all((a == b).all() for a, b in zip(plain, run(unseen, up, q, sets, queries, 2, complete)))
    nq, win, tie = plain
    for j, (i, s) in enumerate(queries):
        assert (nq[i], win[j], tie[j]) == holes.counts(sets[i], s, q)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_the_complete_runs_of_a_full_deck_read_like_single_sets(k):
    """All k-sets of 46 unseen cards, no-qualify counts by the fast path and one by one."""
    rng = np.random.default_rng(k)
    deck = rng.permutation(52)
    up, unseen = int(deck[0]), np.array(sorted(int(c) for c in deck[6:]), dtype=np.uint8)
    from math import comb
    n = comb(46, k)
    from enumerate.draws import _hand
    sets = np.empty(n, dtype=np.uint32)
    # the sets as the per-hand kernel makes them, checked by the engine against its claim
    sets[:] = _hand._queries(np.array(sorted(deck[1:6]), dtype=np.uint8), unseen,
                             np.array([(1 << k) - 1], dtype=np.int32), 1)[0]
    out = []
    for complete in ([-1] * 6, [-1] * k + [0] + [-1] * (5 - k)):
        nq = np.zeros(n, np.int32)
        e = np.zeros(0, np.int32)
        _dead.dead_counts_of(unseen, up, 3000, sets, np.array(complete, dtype=np.int64), e, e.astype(np.int16),
                             nq, e, e, np.zeros(1, np.int32), 2)
        out.append(nq)
    assert (out[0] == out[1]).all() and out[0].min() >= 0


def test_no_queries_and_the_extreme_qualifiers():
    unseen, up = list(range(1, 47)), 0
    sets = [(), (0, 1, 2, 3, 4)]
    for q in (0, 7462):
        nq, win, tie = run(unseen, up, q, sets, [], 1)
        assert nq.tolist() == ([0, 0] if q == 0 else [163_185, 101_270])
    nq, win, tie = run(unseen, up, 0, sets, [(0, 7461), (1, 0)], 2)
    assert win[0] + tie[0] == 163_185 and win[1] == 0


@pytest.mark.debug_sample
@pytest.mark.parametrize("change,message", [
    (dict(unseen=np.arange(3, dtype=np.uint8)), "between 4 and"),
    (dict(unseen=np.array([3, 2, 5, 7, 9], dtype=np.uint8)), "increasing"),
    (dict(up=1), "without the up card"),
    (dict(q=7463), "qualifier"),
    (dict(sets=np.array([pack((1, 0))], dtype=np.uint32)), "increasing and below"),
    (dict(sets=np.array([pack((40,))], dtype=np.uint32)), "increasing and below"),
    (dict(sets=np.array([pack((1,)) & ~(63 << 12)], dtype=np.uint32)), "NO_LABEL"),
    (dict(qset=np.array([1], dtype=np.int32)), "set index"),
    (dict(qstr=np.array([7462], dtype=np.int16)), "strength"),
    (dict(nq=np.zeros(2, np.int32)), "one nq per set"),
    (dict(complete=np.array([-1, -1, 0, -1, -1, -1])), "run past the end"),
    (dict(complete=np.array([-1, 0, -1, -1, -1, -1]), sets=np.array([pack((1,))] * 10, dtype=np.uint32),
          nq=np.zeros(10, np.int32)), "not the 1-set of colex rank 0"),
    (dict(complete=np.array([-1, -1, -1])), "one offset"),
])
def test_the_engine_refuses_what_it_cannot_count(change, message):
    args = dict(unseen=np.array(range(1, 11), dtype=np.uint8), up=0, q=2000,
                sets=np.array([pack((1, 2))], dtype=np.uint32), qset=np.zeros(1, np.int32),
                qstr=np.array([3000], dtype=np.int16), nq=np.zeros(1, np.int32), complete=np.full(6, -1))
    args.update(change)
    with pytest.raises(ValueError, match=message):
        _dead.dead_counts_of(args["unseen"], args["up"], args["q"], args["sets"],
                             np.asarray(args["complete"], dtype=np.int64), args["qset"], args["qstr"],
                             args["nq"], np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(1, np.int32), 1)


@pytest.mark.slow
def test_a_seen_second_hand_counts_like_the_collusion_kernel():
    """A partner's hand out of play: every player hand of the 46 other cards as one complete run
    of 5-sets (the fast path), sampled hands against the collusion kernel, which evaluates every
    hole-card set of each situation on its own."""
    from math import comb

    from enumerate.protection import _collusion
    from enumerate.rules.variant_file import load_builtin
    q = load_builtin("us-common").variant.qualifier.threshold
    rng = np.random.default_rng(11)
    deck = rng.permutation(52)
    partner, up = np.sort(deck[:5]).astype(np.uint8), int(deck[5])
    unseen = np.array(sorted(int(c) for c in deck[6:]), dtype=np.uint8)
    hands = np.array(list(itertools.combinations(range(46), 5)), dtype=np.int64)
    hands = hands[np.lexsort(hands.T)]                # colex order: the largest label varies slowest
    assert len(hands) == comb(46, 5) and tuple(hands[1]) == (0, 1, 2, 3, 5)
    sets = (hands << (6 * np.arange(5))).sum(axis=1).astype(np.uint32)
    strength = np.asarray(strengths_of(unseen[hands])).astype(np.int16)
    n = len(sets)
    nq, win, tie = np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int32)
    _dead.dead_counts_of(unseen, up, q, sets, np.array([-1] * 5 + [0]), np.arange(n, dtype=np.int32), strength,
                         nq, win, tie, np.zeros(1, np.int32), 2)
    rows = rng.choice(n, 300, replace=False)
    out = np.zeros((len(rows), 3), dtype=np.int32)
    _collusion.completion_counts(np.ascontiguousarray(unseen[hands[rows]]), np.full(len(rows), up, dtype=np.uint8),
                                 np.tile(partner, (len(rows), 1)), q, out, 2)
    assert (out == np.stack([nq[rows], win[rows], tie[rows]], axis=1)).all()
