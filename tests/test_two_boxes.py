"""One player on two boxes, each decided seeing both hands (enumerate.boxes.seen_ranks with
``pairs``): the kernel's cross moment of the boxes' results and its count of rounds where both
raise, against a brute force over every concrete pair of hands and every dealer hole-card set
with the reference evaluator (tests/reference.py, nothing shared with the kernels); the kernel
is symmetric in the two boxes; the flush bank against a direct count; a shard's pair sums and
the options refused."""
import itertools
from fractions import Fraction

import numpy as np
import pytest
from cli_runner import run_cli
from reference import QUALIFIER_KEY, STRAIGHT_FLUSH, poker_keys

from enumerate.boxes import seen_ranks as sr
from enumerate.boxes.seen_game import SeenHandSlice, SeenSums
from enumerate.core.rank_patterns import patterns, up_tables
from enumerate.core.slices import Slice
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant_file import load_builtin
from evaluator.cards import RANKS
from evaluator.errors import StudoddsError

US = load_builtin("us-common").variant
#: the permutations of suits 1-3 (suit 0 is the up card's)
PERMS = [(0,) + p for p in itertools.permutations((1, 2, 3))]


def _pattern(text):
    return np.bincount([RANKS.index(c) for c in text], minlength=13).astype(np.int8)


def _category(key):
    cat = int(key) // 13 ** 5
    return 9 if cat == STRAIGHT_FLUSH and int(key) // 13 ** 4 % 13 == 12 else cat


def _hands(pattern, avoid):
    for combo in itertools.product(*[itertools.combinations([4 * r + s for s in range(4) if 4 * r + s not in avoid], k)
                                     for r, k in enumerate(pattern.tolist()) if k]):
        yield tuple(sorted(c for part in combo for c in part))


def _brute(p, q, ru):
    """(situations, cross moment, both raise) over every concrete (P, Q) with rank patterns p and
    q against the up card (ru, suit 0): each box decided on its own counts against the hole-card
    sets avoiding both hands, the product of their results summed over those sets.  P runs over
    its orbits under the permutations of suits 1-3 (each orbit's pairs are the same up to suits)."""
    value = RaiseValue.of(US)
    up = 4 * ru
    rest = np.array([c for c in range(52) if c != up])
    holes = rest[np.array(list(itertools.combinations(range(51), 4)))]
    keys = poker_keys(np.concatenate([holes, np.full((holes.shape[0], 1), up)], axis=1))
    masks = (np.int64(1) << holes).sum(axis=1)
    sets, fold = 101270, -value.scale * 101270
    net = np.array([[value.c_nq - value.c_lose, int(value.c_win[c]) - value.c_lose, value.c_tie - value.c_lose,
                     -value.c_lose] for c in range(10)], dtype=np.int64)
    orbits = {}
    for h in _hands(p, {up}):
        rep = min(tuple(sorted(4 * (c >> 2) + perm[c & 3] for c in h)) for perm in PERMS)
        orbits[rep] = orbits.get(rep, 0) + 1
    n = cross = both = 0
    for hand, w in orbits.items():
        on = (masks & sum(1 << c for c in hand)) == 0
        d, m = keys[on], masks[on]
        kp = int(poker_keys(np.array([hand]))[0])
        qualifies = d >= QUALIFIER_KEY
        x1 = net[_category(kp)][np.where(~qualifies, 0, np.where(d < kp, 1, np.where(d == kp, 2, 3)))]
        for other in _hands(q, set(hand) | {up}):
            kq = int(poker_keys(np.array([other]))[0])
            ok = (m & sum(1 << c for c in other)) == 0
            dd, qq = d[ok], qualifies[ok]
            assert dd.size == sets
            x2 = net[_category(kq)][np.where(~qq, 0, np.where(dd < kq, 1, np.where(dd == kq, 2, 3)))]
            a = x1[ok]
            r1, r2 = a.sum() > fold, x2.sum() > fold
            cross += w * int(((a if r1 else -value.scale) * (x2 if r2 else -value.scale)).sum())
            both += w * int(r1 and r2)
            n += w
    return n, cross, both


def _kernel(p, q, ru):
    s = sr.pattern_sums(US, p[None, :], ru, q=q[None, :], pairs=True)[0]
    return int(s[0]), int(s[sr.SUMS]), int(s[sr.SUMS + 1])


@pytest.mark.slow
def test_the_cross_moment_equals_brute_force():
    """P a flush in s0, in another suit, or none (its five ranks), Q quads with a kicker: 4,096
    pairs.  The other way round (Q's flushes through the bank) is the symmetry test's."""
    assert _kernel(_pattern("AKT42"), _pattern("99996"), 3) == _brute(_pattern("AKT42"), _pattern("99996"), 3)


def test_the_kernel_is_symmetric_in_the_two_boxes():
    """(P, Q) and (Q, P) are the same rounds: the cross moment and the rounds where both raise do
    not depend on which box the kernel calls the player's -- for pairs of patterns with flushes
    of both boxes, shared ranks, the up rank held; and the seen-hand sums are unchanged."""
    rng = np.random.default_rng(7)
    for ru in (3, 12):
        ps = patterns(5)
        pick = [ps[rng.choice(ps.shape[0])], _pattern("AKT42"), _pattern("8764" + RANKS[ru]), _pattern("QJ953")]
        pick = [a for a in pick if a[ru] <= 3]
        for a, b in itertools.combinations(pick, 2):
            if (a.astype(int) + b + (np.arange(13) == ru) > 4).any():
                continue
            assert _kernel(a, b, ru) == _kernel(b, a, ru)
            plain = sr.pattern_sums(US, a[None, :], ru, q=b[None, :])[0]
            assert (sr.pattern_sums(US, a[None, :], ru, q=b[None, :], pairs=True)[0, :sr.SUMS] == plain).all()


def test_the_flush_bank_counts_the_flushes_wrongly_below_a_strength():
    """bank[row(c), D0] = minus the s0 flush patterns avoiding D0 whose non-flush hand is below c
    and whose flush is not, by a direct count over the 495 patterns."""
    t = up_tables(5, US.qualifier.threshold)
    _, bank = t.flush_below
    rng = np.random.default_rng(3)
    for c, d0 in zip(rng.integers(0, 7463, 100).tolist(), rng.integers(0, 4096, 100).tolist()):
        want = -sum(1 for f in range(495) if not t.fl_mask[f] & d0 and t.fl_nf[f] < c <= t.fl_st[f])
        assert bank[t.below_row(np.array([c]))[0], d0] == want


def test_over_a_closed_set_of_patterns_the_other_box_is_the_players():
    """Player and other box both over one set of rank patterns: every (P, Q) comes with (Q, P), so
    the other box's value and second moment -- read through the flush bank -- equal the player's
    box's value and the second moment of the return table -- through the s0 flush tables."""
    value = RaiseValue.of(US)
    nets = np.array([[value.c_nq - value.c_lose, int(value.c_win[c]) - value.c_lose, value.c_tie - value.c_lose,
                      -value.c_lose, -value.scale] for c in range(10)], dtype=object)
    for ru, texts in ((3, ["AKT42", "99996", "QJ953", "87643", "KK772", "AAQQ5", "JT987"]),
                      (12, ["KQJT9", "55552", "T8642", "KKQQJ", "22333"])):
        closed = np.stack([_pattern(t) for t in texts])
        s = sr.pattern_sums(US, closed, ru, q=closed, pairs=True).sum(axis=0)
        returns = np.array([int(x) for x in s[6:sr.SUMS]], dtype=object).reshape(10, 5)
        assert int(s[sr.SUMS + 2]) == int(s[1]) and int(s[sr.SUMS + 3]) == int((returns * nets * nets).sum())
        # the figures of a round of both boxes, from such sums
        total = [int(x) for x in s]
        sums = SeenSums("d", **dict(zip(SeenSums.FIELDS, total)), returns=total[6:sr.SUMS], pairs=total[sr.SUMS:])
        result = SeenHandSlice(US, Slice(), len(texts), sums, None, "rank_patterns")
        boxes = result.to_dict()["two_boxes"]
        variance = Fraction(result.to_dict()["seeing_variance_per_hand"]["exact"])
        cross = Fraction(total[sr.SUMS], total[0] * 101270 * value.scale ** 2)
        covariance = Fraction(boxes["covariance_of_the_boxes_antes_squared"]["exact"])
        assert covariance == cross - result.seeing ** 2
        assert Fraction(boxes["variance_per_round_antes_squared"]["exact"]) == 2 * variance + 2 * covariance
        assert Fraction(boxes["correlation_of_the_boxes"]["exact"]) == covariance / variance
        assert Fraction(boxes["both_boxes_raise_share"]["exact"]) == Fraction(total[sr.SUMS + 1], total[0])
        sums.pairs[2] += 1                                          # no longer alike: no round of two alike boxes
        assert "two_boxes" not in result.to_dict() and not result.symmetric()


@pytest.mark.parametrize("pairs", [["1"], ["1", "x", "1", "1"], "1234", [1, 2, 3, 4], ["1", "2", "3"]])
def test_a_shards_malformed_pair_sums_are_refused(pairs):
    good = SeenSums("d", situations=1370754, seen=0, normal=0, returns=[0] * 49 + [1370754 * 101270],
                    pairs=[5, 0, 0, 0])
    data = good.to_json()
    assert SeenSums.from_json(data, np.array([1])).pairs == [5, 0, 0, 0]
    data["pairs"] = pairs
    with pytest.raises(ValueError, match="pairs"):
        SeenSums.from_json(data, np.array([1]))
    data["pairs"] = ["5", "1", "0", "0"]          # both raise more often than one box does
    with pytest.raises(ValueError, match="both boxes"):
        SeenSums.from_json(data, np.array([1]))
    data["pairs"] = ["5", "0", "0", "-1"]
    with pytest.raises(ValueError, match="negative"):
        SeenSums.from_json(data, np.array([1]))


def test_two_boxes_options_are_checked():
    from studodds import api
    with pytest.raises(StudoddsError, match="two_boxes"):
        api.collusion_exact("us-common", up="A", two_boxes="yes")
    with pytest.raises(StudoddsError, match="--hands"):
        api.collusion_exact("us-common", up="A", hands="royal_flush", two_boxes=True)
    r = run_cli("collusion", "--partners", "1", "--two-boxes")
    assert r.returncode == 2 and "--two-boxes goes with --exact" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("collusion", "--two-boxes", "--partners", "1", "--exact", "--up", "A", "--hands", "royal_flush")
    assert r.returncode == 2 and "--hands" in r.stderr.splitlines()[-1]
