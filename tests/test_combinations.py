"""Two combinations paid: the rule's function against a literal reading written for the tests
(every subset of the cards classified on its own by the reference evaluator, every pair of them
tried), on every five-card rank pattern and sampled six-card hands, under each reading; and the
sums of the 21 double combinations casinos publish."""
import itertools
import random

import numpy as np
import pytest
from reference import FLUSH, FULL_HOUSE, STRAIGHT, STRAIGHT_FLUSH, parse, poker_keys

from enumerate.rules.combinations import TwoCombinations, check_hand_size, combinations_of, two_best
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

US = (1, 1, 2, 3, 4, 5, 7, 20, 50, 100)        # raise pays by category, high card (A-K) first
RULES = [TwoCombinations(), TwoCombinations("straight_and_pair"), TwoCombinations(ace_king=False)]

#: The published double combinations and their sums (US pays), each with a witness hand.
PUBLISHED = [
    ("As Ks Qs Js Ts 9s", "royal + SF", 150), ("As Ks Qs Js Ts 2s", "royal + flush", 105),
    ("As Ks Qs Js Ts 9d", "royal + straight", 104), ("Ks Qs Js Ts 9s 8s", "SF + SF", 100),
    ("Ks Qs Js Ts 9s 2s", "SF + flush", 55), ("Ks Qs Js Ts 9s 9d", "SF + straight", 54),
    ("5s 4s 3s 2s As Kd", "SF + A-K", 51), ("Ac Ad Ah As Kc Kd", "4K + FH", 27),
    ("Ac Ad Ah As Kc", "4K + A-K", 21), ("Ac Ad Ah Kc Kd Ks", "FH + FH", 14),
    ("Kc Kd Kh Qc Qd As", "FH + A-K", 8), ("Ah 9h 7h 5h 3h 2h", "flush + flush", 10),
    ("9h 8h 7h 6h 2h Tc", "flush + straight", 9), ("Qh 9h 7h 5h 3h Qc", "flush + pair", 6),
    ("Kh 9h 7h 5h 3h Ac", "flush + A-K", 6), ("Kc Qd Jh Ts 9c 9d", "straight + straight", 8),
    ("5c 4d 3h 2s Ac Kd", "straight + A-K", 5), ("Qc Qd Qh Ac Kd", "trips + A-K", 4),
    ("Qc Qd Jh Jc Ks Kd", "two pairs + two pairs", 4), ("Qc Qd 5h 5c Ad Ks", "two pairs + A-K", 3),
    ("2c 2d 9h Ac Kd", "pair + A-K", 2),
]


def _literal_category(sub: tuple[int, ...], ace_king: bool):
    """What the cards ``sub`` make by themselves, read from the rule's table; None: not a combination."""
    ranks = [c // 4 for c in sub]
    n, distinct = len(sub), len(set(ranks))
    if n == 2:
        if distinct == 1:
            return Category.ONE_PAIR
        return Category.HIGH_CARD if ace_king and sorted(ranks) == [11, 12] else None
    if n == 3:
        return Category.TRIPS if distinct == 1 else None
    if n == 4:
        if distinct == 1:
            return Category.QUADS
        return Category.TWO_PAIR if distinct == 2 and sorted(ranks).count(ranks[0]) == 2 else None
    key = int(poker_keys(np.array([sub]))[0])
    cat = key // 13 ** 5
    if cat == STRAIGHT_FLUSH:
        return Category.ROYAL_FLUSH if sorted(ranks) == [8, 9, 10, 11, 12] else Category.STRAIGHT_FLUSH
    return {STRAIGHT: Category.STRAIGHT, FLUSH: Category.FLUSH, FULL_HOUSE: Category.FULL_HOUSE}.get(cat)


def literal_pay(cards, pays, rule: TwoCombinations) -> int:
    """The pay of ``cards`` as the rule reads: every subset that is a combination by itself; the
    first of the best category, the second using a card the first does not (and, read as a
    straight and a pair, not a straight of the first's ranks); the best sum."""
    found = [(cat, set(sub)) for n in (2, 3, 4, 5) for sub in itertools.combinations(cards, n)
             if (cat := _literal_category(sub, rule.ace_king)) is not None]
    if not found:
        return pays[0]
    best = max(cat for cat, _ in found)
    straights = (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
    total = pays[best]
    for c1, s1 in found:
        if c1 != best:
            continue
        for c2, s2 in found:
            if s2 <= s1:
                continue
            if (rule.straight_with_pair == "straight_and_pair" and c1 in straights and c2 in straights
                    and {c // 4 for c in s1} == {c // 4 for c in s2}):
                continue
            total = max(total, pays[c1] + pays[c2])
    return total


def pay(cards, rule) -> int:
    first, second = two_best(cards, US, rule)
    return US[first] + (0 if second is None else US[second])


@pytest.mark.parametrize("text,name,total", PUBLISHED)
def test_the_published_double_combinations(text, name, total):
    cards = parse(text)
    assert pay(cards, TwoCombinations()) == total, name
    assert literal_pay(cards, US, TwoCombinations()) == total, name


def test_the_published_list_is_every_double_combination():
    """Every first + second met on constructed and sampled hands is one of the 21 published."""
    published = {tuple(two_best(parse(t), US, TwoCombinations())) for t, _, _ in PUBLISHED}
    assert len(published) == 21
    rng = random.Random(48)
    seen = set()
    for _ in range(4000):
        cards = rng.sample(range(52), rng.choice((5, 6)))
        first, second = two_best(cards, US, TwoCombinations())
        if second is not None:
            seen.add((first, second))
    assert seen <= published and len(seen) >= 8


def _rank_patterns():
    """One five-card hand for every multiset of ranks (a non-flush suit assignment), and every
    five distinct ranks once more as a flush."""
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        used: dict[int, int] = {}
        cards = []
        for r in ranks:
            cards.append(r * 4 + used.get(r, 0))
            used[r] = used.get(r, 0) + 1
        if len(set(ranks)) == 5:
            cards[0] = ranks[0] * 4 + 1           # not a flush
            yield cards
            yield [r * 4 + 2 for r in ranks]
        else:
            yield cards


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES, ids=["default", "straight_and_pair", "no_ace_king"])
def test_every_five_card_pattern_against_the_literal_reading(rule):
    for cards in _rank_patterns():
        assert pay(cards, rule) == literal_pay(cards, US, rule), cards


@pytest.mark.parametrize("rule", RULES, ids=["default", "straight_and_pair", "no_ace_king"])
def test_sampled_six_card_hands_against_the_literal_reading(rule):
    rng = random.Random(6)
    hands = [rng.sample(range(52), 6) for _ in range(300)]
    suited = [[r * 4 + 3 for r in rng.sample(range(13), 6)] for _ in range(40)]
    runs = [[(lo + i) % 13 * 4 + rng.randrange(4) for i in range(6)] for lo in range(8) for _ in range(3)]
    for cards in hands + suited + runs + [parse(t) for t, _, _ in PUBLISHED]:
        assert pay(cards, rule) == literal_pay(cards, US, rule), cards


def test_the_readings_differ_where_the_houses_do():
    assert pay(parse("Kc Qd Jh Ts 9c 9d"), TwoCombinations("straight_and_pair")) == 5
    assert pay(parse("As Ks Qs Js Ts Ad"), TwoCombinations("straight_and_pair")) == 101
    assert pay(parse("As Ks Qs Js Ts Ad"), TwoCombinations()) == 104
    assert pay(parse("Qc Qd Qh Ac Kd"), TwoCombinations(ace_king=False)) == 3
    # two different straights stay two straights under either reading
    assert pay(parse("Ac Kd Qh Js Tc 9d"), TwoCombinations("straight_and_pair")) == 8


def test_a_five_card_second_needs_a_card_outside_the_first():
    assert pay(parse("Ac Ad Kc Kd 2h"), TwoCombinations()) == 2       # A-K lies inside the two pairs
    assert pay(parse("Ac Ad Kc 7d 2h"), TwoCombinations()) == 2       # the king is outside the pair
    assert pay(parse("Ac Ad Ah Kc Kd"), TwoCombinations()) == 7       # a full house uses every card
    assert combinations_of(parse("Ac Qd 9h 7c 2d")) == []


@pytest.mark.parametrize("cards", [[1, 2, 3, 4], [1, 1, 2, 3, 4], [1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 52]])
def test_a_hand_of_the_wrong_size_is_refused(cards):
    with pytest.raises(StudoddsError, match="five or six distinct cards"):
        check_hand_size(cards)


@pytest.mark.parametrize("kw", [{"straight_with_pair": "both"}, {"ace_king": "yes"}])
def test_a_bad_reading_is_refused(kw):
    with pytest.raises(StudoddsError, match="two_combinations"):
        TwoCombinations(**kw)
