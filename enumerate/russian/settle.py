"""The settlement of Russian Poker, in one place: what a raised hand nets, in antes, however it ends.

A raised hand of the player's final cards F (five, or six after a bought sixth card), whose bet of
``r`` antes wins ``P(F)`` to 1 (the best combination's pay, plus the second's under
``[two_combinations]``, cut to the table's maximum payout), ends in one of these states:

=================================  ==============================================
state                              net result (antes)
=================================  ==============================================
dealer does not qualify            a_nq(F) (the ante's pay; the bet is returned)
player wins                        a_w + r * P(F)
push                               0
dealer wins                        -(1 + r)
game bought, then player wins      -fee + a_w' + r * P(F)
game bought, then push / loses     -fee, -fee - (1 + r)
game bought, dealer still short    -fee + a_nq  (only when the qualifier applies again)
=================================  ==============================================

and folding nets -1. The ante's pay on a win a_w is the table's; a_w' after a purchase is the same,
unless the ante is paid only when the player neither drew nor bought the game (``[ante_pays]
player_wins_unless = "drew_or_bought"``, one rules summary of classic Russian Poker): then a win
after a purchase, or after a draw, returns the ante (a_w' = 0) --
:meth:`RussianSettlement.ante_on_win`. Under ``[ante_pays] instant_payout`` (Lunar Poker: 58 Pa.
Code § 671a.12(a), the game's publisher) a player *dealt* a hand of a listed category is paid its
pay on the ante at once and his round ends -- no draw, no bet, no option -- whatever the dealer
holds: the situation nets that pay (:meth:`RussianSettlement.instant_pay`), its one outcome. The
ante's pay a_nq(F) is the table's, or -- under ``[ante_pays] dealer_does_not_qualify_with`` -- that
of the best category listed at or below the final hand's (Pennsylvania's Lunar Poker: 4 to 1 from a
straight). An insurance stake ``s`` -- the limit, ``share * r * P(F)``, for a final hand of the
rule's category or better -- adds +s when the dealer's five cards do not qualify and -s when they do
(or -s only when the player wins, under "returned unless the player wins"). Every exact figure of
the game (:mod:`enumerate.russian.final_hand` and the kernels after it) takes its nets from
:class:`RussianSettlement`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import numpy as np

from enumerate.rules.combinations import TwoCombinations, check_hand_size, two_best
from enumerate.rules.russian import BuyGame, Insurance
from enumerate.rules.variant import Variant
from evaluator.errors import StudoddsError
from evaluator.ranking import REPRESENTATIVE_BY_STRENGTH, Category, category, strength

#: The weakest pair's strength: a dealer short of a qualifier of a pair or less holds five ranks.
FIRST_PAIR_STRENGTH = 1277
#: How a hand that raised ends (the states of the table above, bought game apart).
STATES = ("dealer_does_not_qualify", "player_wins", "push", "dealer_wins")


def settlement_refusal(variant: Variant) -> str | None:
    """Why the game's settlement does not model this table's rules, or None."""
    left_out = variant.beside_the_base_game()
    if left_out:
        return f"the options of Russian Poker are modelled without {' or '.join(left_out)}"
    if variant.buy_game is not None and variant.buy_game.not_counted() is not None:
        return variant.buy_game.not_counted()
    if variant.ante_win_unless is not None and variant.max_payout is not None \
            and variant.max_payout.covers == "ante_and_raise":
        return ("ante_pays.player_wins_unless = \"drew_or_bought\" with a maximum payout that covers the ante "
                "is not counted (the bet's cap would depend on the purchase)")
    if variant.buy_game is not None and variant.qualifier.threshold > FIRST_PAIR_STRENGTH:
        return ("buying the game is modelled for a dealer who qualifies with a pair or less (a hand that does not "
                "qualify has five ranks, one highest)")
    return None


@dataclass(frozen=True)
class HandPay:
    """What a win pays on the bet, to 1, for one final hand: its best combination (the hand's
    category), the second one paid beside it (None: none) and their pay, capped."""

    first: Category
    second: Category | None
    pay: Fraction

    @property
    def label(self) -> str:
        """The combinations paid, in words ("two pairs + A-K": a second high card is what the
        high-card pay pays as a combination, A-K)."""
        if self.second is None:
            return self.first.label
        return f"{self.first.label} + {'A-K' if self.second == Category.HIGH_CARD else self.second.label}"


@dataclass(frozen=True)
class RussianSettlement:
    """The settlement of one Russian Poker variant (see the module docstring)."""

    raise_antes: int
    ante_no_qualify: Fraction
    ante_win: Fraction
    ante_with: tuple[tuple[Category, Fraction], ...]   # the ante's pay (dealer short) from a category up
    posted: tuple[Fraction, ...]          # raise pay by category 0..9, as posted
    cap: Fraction | None                  # the most a win's bet may pay, to 1 (None: no maximum)
    two: TwoCombinations | None
    insurance: Insurance | None
    buy_game: BuyGame | None
    instant: tuple[tuple[Category, Fraction], ...] = ()    # a dealt category's instant pay on the ante
    ante_win_unless: str | None = None    # "drew_or_bought": a_w only when the player neither drew nor bought

    @property
    def insured_may_not_buy(self) -> bool:
        """Whether a box that took insurance is barred from buying the game ([buy_game] insured)."""
        return self.buy_game is not None and self.buy_game.insured == "may_not_buy"

    @classmethod
    def of(cls, variant: Variant) -> "RussianSettlement":
        refusal = settlement_refusal(variant)
        if refusal is not None:
            raise StudoddsError(f"variant {variant.name!r}: {refusal}")
        cap = None
        if variant.max_payout is not None:
            ante = variant.ante_win if variant.max_payout.covers == "ante_and_raise" else Fraction(0)
            cap = max(Fraction(0), (variant.max_payout.antes - ante) / variant.raise_antes)
        return cls(variant.raise_antes, variant.ante_no_qualify, variant.ante_win,
                   tuple(variant.ante_no_qualify_with.items()), tuple(variant.posted_pay(c) for c in Category), cap,
                   variant.two_combinations,
                   variant.insurance, variant.buy_game, tuple(variant.ante_instant.items()), variant.ante_win_unless)

    def instant_pay(self, dealt: Sequence[int]) -> Fraction | None:
        """What the ante is paid at once for the ``dealt`` five cards (the round then ends), or
        None: no instant payout for them, the hand is played."""
        if not self.instant:
            return None
        return dict(self.instant).get(best_category(dealt))

    def hand_pay(self, cards: Sequence[int]) -> HandPay:
        """The bet's pay, to 1, of a win with the final ``cards`` (five or six)."""
        check_hand_size(cards)
        if self.two is not None:
            first, second = two_best(cards, self.posted, self.two)
        else:
            first, second = best_category(cards), None
        total = self.posted[first] + (Fraction(0) if second is None else self.posted[second])
        return HandPay(first, second, total if self.cap is None else min(total, self.cap))

    def ante_short(self, first: Category) -> Fraction:
        """The ante's pay when the dealer does not qualify, for a final hand of category ``first``."""
        listed = [v for c, v in self.ante_with if c <= first]
        return listed[-1] if listed else self.ante_no_qualify

    @property
    def drawn_win_apart(self) -> bool:
        """Whether a win after a draw nets otherwise than a kept hand's (its ante's pay)."""
        return self.ante_on_win(drew=True) != self.ante_on_win()

    def ante_on_win(self, *, drew: bool = False, bought: bool = False) -> Fraction:
        """The ante's pay when the player beats a qualifying dealer, after a draw (``drew``) or a
        purchase (``bought``) or neither."""
        if self.ante_win_unless == "drew_or_bought" and (drew or bought):
            return Fraction(0)
        return self.ante_win

    def net(self, hand: HandPay, state: str, *, drew: bool = False, bought: bool = False) -> Fraction:
        """What a raised final hand ``hand`` nets when it ends in ``state`` (no fee, no insurance),
        after a draw (``drew``) or in a bought game (``bought``) or neither."""
        if state == "dealer_does_not_qualify":
            return self.ante_short(hand.first)
        if state == "player_wins":
            return self.ante_on_win(drew=drew, bought=bought) + self.raise_antes * hand.pay
        if state == "push":
            return Fraction(0)
        if state == "dealer_wins":
            return Fraction(-1 - self.raise_antes)
        raise ValueError(f"unknown state {state!r}")

    def insurance_stake(self, hand: HandPay) -> Fraction:
        """The stake an insured hand puts up: the limit (0 when the hand may not insure)."""
        if self.insurance is None or hand.first < self.insurance.needs:
            return Fraction(0)
        return self.insurance.share * self.raise_antes * hand.pay

    def insurance_net(self, stake: Fraction, state: str) -> Fraction:
        """What an insurance ``stake`` nets when the dealer's first five cards end the hand in ``state``."""
        if state == "dealer_does_not_qualify":
            return stake
        if self.insurance is not None and self.insurance.dealer_qualifies == "returned_unless_player_wins":
            return -stake if state == "player_wins" else Fraction(0)
        return -stake


@lru_cache(maxsize=8)
def pays_by_strength(s: RussianSettlement) -> tuple[tuple[HandPay, ...], np.ndarray]:
    """The distinct pays of five-card hands and, per strength 0..7461, the index of its own."""
    pays: dict[HandPay, int] = {}
    index = np.zeros(len(REPRESENTATIVE_BY_STRENGTH), dtype=np.int64)
    for st, cards in enumerate(REPRESENTATIVE_BY_STRENGTH.tolist()):
        index[st] = pays.setdefault(s.hand_pay(cards), len(pays))
    index.flags.writeable = False
    return tuple(pays), index


def best_category(cards: Sequence[int]) -> Category:
    """The category of the best five of ``cards`` (five or six)."""
    return category(best_strength(cards))


def best_strength(cards: Sequence[int]) -> int:
    """The strength of the best five of ``cards`` (five or six)."""
    return max(strength(five) for five in combinations(tuple(cards), 5))
