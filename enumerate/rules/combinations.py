"""Two combinations paid (a Russian Poker rule): the two best combinations of the player's final
cards are paid on the bet, their pays summed.

The rule as casinos print it: the hand's best combination is paid, and so is the best second
combination of the same cards, provided the second uses **at least one card the first does
not**; the second is paid when the hand beats the dealer even if it alone would not.  A
*combination* is a set of the player's cards that is, by itself, one of the paytable's hands:

========================  =======================================================
combination               its cards
========================  =======================================================
A-K                       an ace and a king (paid as the paytable's high card)
one pair                  two cards of a rank
two pairs                 two pairs of two ranks
three of a kind           three cards of a rank
straight, flush, ...      five cards that make the hand (a full house: a three and a pair)
four of a kind            four cards of a rank
========================  =======================================================

With five cards a second combination exists only beside a pair, two pairs, trips or quads
(``K K 7 A 2``: a pair of kings and A-K, which uses the ace the pair does not); with six cards
(a bought sixth card) every pair of combinations can occur: the sums are those of the 21 double
combinations casinos list (royal + straight flush 150 ... pair + A-K 2).

Two readings differ between houses, and each is a rule (:class:`TwoCombinations`):

* ``straight_with_pair``: ``K Q J T 9 9`` holds two straights (the two nines) -- paid as **two
  straights** (the default: the house rules that pay "straight + straight" and list no
  "straight + pair") or as a **straight and a pair** (a second straight with the first's ranks is
  then not a combination);
* ``ace_king``: A-K counts as a combination (the default, as every published list of double
  combinations has it) or not.

The pay of a hand is ``pay(first) + max pay(second)`` over the combinations of its best category
(the category its best five cards make, which is what the dealer's hand is compared with) and the
combinations each allows second; the table's maximum payout then caps the sum.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal, TypedDict

from evaluator.errors import StudoddsError
from evaluator.ranking import Category

#: The readings of a straight whose rank is doubled (two straights of the same ranks).
STRAIGHT_WITH_PAIR = ("two_straights", "straight_and_pair")
ACE, KING = 12, 11
#: The five ranks of each straight, the wheel (A-2-3-4-5) first.
STRAIGHTS = (frozenset((12, 0, 1, 2, 3)),) + tuple(frozenset(range(lo, lo + 5)) for lo in range(9))


class TwoCombinationsJSON(TypedDict):
    """Schema: the two best combinations of the final hand are paid, summed"""

    straight_with_pair: Literal["two_straights", "straight_and_pair"]
    ace_king: bool


@dataclass(frozen=True)
class TwoCombinations:
    """The [two_combinations] rule (see the module docstring)."""

    straight_with_pair: Literal["two_straights", "straight_and_pair"] = "two_straights"
    ace_king: bool = True

    def __post_init__(self) -> None:
        if self.straight_with_pair not in STRAIGHT_WITH_PAIR:
            raise StudoddsError(f"two_combinations.straight_with_pair: {self.straight_with_pair!r:.40}: "
                                f"one of {', '.join(STRAIGHT_WITH_PAIR)}")
        if not isinstance(self.ace_king, bool):
            raise StudoddsError("two_combinations.ace_king: must be true or false")

    def to_dict(self) -> TwoCombinationsJSON:
        return {"straight_with_pair": self.straight_with_pair, "ace_king": self.ace_king}

    def text(self) -> str:
        reading = "two straights" if self.straight_with_pair == "two_straights" else "a straight and a pair"
        ak = "A-K counts as a combination" if self.ace_king else "A-K is not a combination"
        return (f"the two best combinations of the final hand are paid, the second using a card the first does not "
                f"(a straight with a pair is paid as {reading}; {ak})")


@dataclass(frozen=True)
class Combination:
    """A set of the player's cards that makes one paytable hand by itself."""

    category: Category
    cards: frozenset[int]
    straight: frozenset[int] | None = None     # the ranks of a straight, straight flush or royal


def _five_card(cards: Sequence[int]) -> Combination | None:
    """Five cards as a straight, flush, straight flush or royal (None: none of these)."""
    ranks = frozenset(c >> 2 for c in cards)
    flush = len({c & 3 for c in cards}) == 1
    straight = ranks if ranks in STRAIGHTS else None
    if straight is not None and flush:
        royal = ranks == STRAIGHTS[-1]
        return Combination(Category.ROYAL_FLUSH if royal else Category.STRAIGHT_FLUSH, frozenset(cards), straight)
    if straight is not None:
        return Combination(Category.STRAIGHT, frozenset(cards), straight)
    if flush:
        return Combination(Category.FLUSH, frozenset(cards))
    return None


def combinations_of(cards: Iterable[int], ace_king: bool = True) -> list[Combination]:
    """Every combination among ``cards`` (five or six distinct cards, see the module docstring)."""
    hand = tuple(cards)
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        by_rank.setdefault(c >> 2, []).append(c)
    out: list[Combination] = []
    sets = {n: [(r, frozenset(s)) for r, cs in by_rank.items() for s in combinations(cs, n)] for n in (2, 3, 4)}
    kinds = {2: Category.ONE_PAIR, 3: Category.TRIPS, 4: Category.QUADS}
    for n, kind in kinds.items():
        out.extend(Combination(kind, s) for _, s in sets[n])
    for (r1, p1), (r2, p2) in combinations(sets[2], 2):
        if r1 != r2:
            out.append(Combination(Category.TWO_PAIR, p1 | p2))
    out.extend(Combination(Category.FULL_HOUSE, t | p) for rt, t in sets[3] for rp, p in sets[2] if rt != rp)
    if ace_king:
        out.extend(Combination(Category.HIGH_CARD, frozenset((a, k)))
                   for a in by_rank.get(ACE, ()) for k in by_rank.get(KING, ()))
    for five in combinations(hand, 5):
        made = _five_card(five)
        if made is not None:
            out.append(made)
    return out


def pay_key(cards: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the combinations of five or six cards depend on, so that hands of one key are paid
    alike: their ranks, sorted, and the ranks of a suit they hold five or more of (a flush or a
    straight flush), else ()."""
    hand = tuple(cards)
    suited = next((sorted(c >> 2 for c in hand if c & 3 == s) for s in range(4)
                   if sum(1 for c in hand if c & 3 == s) >= 5), [])
    return tuple(sorted(c >> 2 for c in hand)), tuple(suited)


def _second_allowed(first: Combination, second: Combination, rule: TwoCombinations) -> bool:
    """May ``second`` be paid beside ``first``: it uses a card ``first`` does not, and is not a
    straight of the first's ranks when such a straight is read as a straight and a pair."""
    if second.cards <= first.cards:
        return False
    return not (rule.straight_with_pair == "straight_and_pair" and first.straight is not None
                and second.straight == first.straight)


def two_best(cards: Iterable[int], pays: Sequence, rule: TwoCombinations) -> tuple[Category, Category | None]:
    """The two combinations paid for ``cards`` under ``rule``: the best category (the first) and
    the category of the best second one (None when no combination may be second).  ``pays``: the
    raise pay of each category 0..9 (A-K is paid as high card), which orders the seconds."""
    found = combinations_of(cards, rule.ace_king)
    best = max((c.category for c in found), default=Category.HIGH_CARD)
    firsts = [c for c in found if c.category == best]
    top: tuple | None = None
    for first in firsts:
        for second in found:
            if _second_allowed(first, second, rule):
                candidate = (pays[int(second.category)], int(second.category))
                top = candidate if top is None or candidate > top else top
    if not firsts or top is None:
        return best, None
    return best, Category(top[1])


def check_hand_size(cards: Sequence[int]) -> None:
    """StudoddsError unless ``cards`` are five or six distinct cards 0..51."""
    if len(cards) not in (5, 6) or len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards):
        raise StudoddsError("two combinations are counted on five or six distinct cards")
