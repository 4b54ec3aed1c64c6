"""The evaluator against published counts, an independent evaluator, and a golden hash."""
import hashlib
import itertools

import numpy as np
import pytest
from reference import poker_keys

from evaluator._rank_keys import RANK_KEYS
from evaluator.cards import parse_hand
from evaluator.ranking import (
    CATEGORY_BY_STRENGTH,
    N_HANDS,
    N_STRENGTHS,
    STRENGTH_BY_INDEX,
    Category,
    category,
    hand_index,
    hand_indices,
    hands_of_indices,
    strength,
    strengths,
)

# SHA-256 of the strength of every hand, int16 little-endian, hands in colex order.  It pins
# the full ordering of all 2,598,960 hands: any change to the evaluator changes it.
GOLDEN_ORDERING_SHA256 = "c266188bf74c1a996a0415392a9a3293dbed9444185fca638f995c28b80fca59"


@pytest.fixture(scope="module")
def all_hands():
    return hands_of_indices(np.arange(N_HANDS, dtype=np.int32))


def test_published_category_counts_over_all_hands():
    cats = np.bincount(CATEGORY_BY_STRENGTH[STRENGTH_BY_INDEX], minlength=10)
    assert cats.tolist() == [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
    assert cats[8] + cats[9] == 40
    assert cats.sum() == N_HANDS


def test_7462_distinct_strengths():
    assert len(np.unique(STRENGTH_BY_INDEX)) == N_STRENGTHS
    assert STRENGTH_BY_INDEX.min() == 0 and STRENGTH_BY_INDEX.max() == N_STRENGTHS - 1
    # categories occupy contiguous, increasing strength ranges
    assert (np.diff(CATEGORY_BY_STRENGTH) >= 0).all()
    assert np.bincount(CATEGORY_BY_STRENGTH).tolist() == [1277, 2860, 858, 858, 10, 1277, 156, 156, 9, 1]


def test_golden_hash_of_the_full_ordering():
    digest = hashlib.sha256(STRENGTH_BY_INDEX.astype("<i2").tobytes()).hexdigest()
    assert digest == GOLDEN_ORDERING_SHA256


@pytest.mark.slow
def test_ordering_equals_independent_evaluator_on_all_hands(all_hands):
    keys = poker_keys(all_hands)
    # the strengths must be exactly the dense ranks of the independent keys
    _, dense = np.unique(keys, return_inverse=True)
    assert np.array_equal(dense.ravel(), STRENGTH_BY_INDEX)


def test_cards_of_indices_is_colex(all_hands):
    assert np.array_equal(hand_indices(all_hands), np.arange(N_HANDS))
    expected_first = list(itertools.islice(itertools.combinations(range(52), 5), 1))[0]
    assert tuple(all_hands[0]) == expected_first


@pytest.mark.debug_sample
def test_vectorised_and_keysum_paths_agree_with_the_table(all_hands):
    rng = np.random.default_rng(7)
    shuffled = np.ascontiguousarray(rng.permuted(all_hands, axis=1))  # unsorted card order
    assert np.array_equal(strengths(shuffled), STRENGTH_BY_INDEX)
    assert np.array_equal(strengths(shuffled, threads=1), STRENGTH_BY_INDEX)


def test_rank_keys_give_distinct_sums():
    sums = [sum(RANK_KEYS[r] for r in combo)
            for combo in itertools.combinations_with_replacement(range(13), 5)
            if all(combo.count(r) <= 4 for r in combo)]
    assert len(sums) == 6175 and len(set(sums)) == 6175


@pytest.mark.parametrize("better,worse", [
    ("As Ks Qs Js Ts", "Ks Qs Js Ts 9s"),       # royal over king-high straight flush
    ("5h 4h 3h 2h Ah", "Ac Ad Ah As Kc"),       # steel wheel over quad aces
    ("6c 5d 4h 3s 2c", "Ac 2d 3h 4s 5c"),       # six-high straight over the wheel
    ("Ac 2d 3h 4s 5c", "Ac Ad Ah Kc 9d"),       # wheel over trips
    ("Ah Kd 4c 3s 2c", "Ah Qd Jc 9s 8c"),       # Ace/King over Ace/Queen
    ("2c 2d 3h 4s 5c", "Ah Kd Qc Js 9c"),       # any pair over high card
    ("Kc Kd 2h 2s 3c", "Qc Qd Jh Js Ac"),       # two pairs: top pair decides
    ("Ac Ad 5h 4s 3c", "Ac Ad 5h 4s 2c"),       # last kicker decides
])
@pytest.mark.debug_sample
def test_known_orderings(better, worse):
    assert strength(better) > strength(worse)


def test_exact_ties_across_suits():
    assert strength("Ah Kd Jc 8s 3c") == strength("As Kc Jd 8h 3h")
    assert strength("2c 3c 4c 5c 7c") == strength("2d 3d 4d 5d 7d")


def test_categories_and_api():
    assert category(strength("As Ks Qs Js Ts")) is Category.ROYAL_FLUSH
    assert category(strength("9s Ks Qs Js Ts")) is Category.STRAIGHT_FLUSH
    assert category(strength("Ah Kd 4c 3s 2c")) is Category.HIGH_CARD
    assert strength(parse_hand("As Ks Qs Js Ts")) == N_STRENGTHS - 1
    assert hand_index([0, 1, 2, 3, 4]) == 0
    assert Category.TWO_PAIR.label == "two pairs"


@pytest.mark.parametrize("bad,message", [
    ([0, 1, 2, 3], "expected 5 cards"),
    ([0, 1, 2, 3, 3], "duplicate"),
    ([0, 1, 2, 3, 52], "0..51"),
])
def test_bad_hands_raise(bad, message):
    with pytest.raises(ValueError, match=message):
        strength(bad)


def test_vectorised_rejects_bad_rows():
    with pytest.raises(ValueError, match="row 1 has a duplicate"):
        strengths(np.array([[0, 1, 2, 3, 4], [5, 5, 6, 7, 8]]))
    with pytest.raises(ValueError, match="row 0 has a card outside"):
        strengths(np.array([[0, 1, 2, 3, 60]]))
    with pytest.raises(ValueError, match="shape"):
        strengths(np.zeros((3, 4), dtype=int))
