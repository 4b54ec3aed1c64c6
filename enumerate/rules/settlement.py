"""The settlement of the base game, in one place: what a hand nets, in antes, from the player's
category and how the hand ended.

A hand ends in one of five states: folded, or raised and then the dealer does not qualify, the
player wins, it is a push, or the dealer wins.  With a raise of ``r`` antes, ante pays ``a_nq``
(dealer does not qualify) and ``a_w`` (player wins), the raise pay ``p_c`` actually paid for a
win with category ``c`` (the posted pay cut to the maximum payout, see
:meth:`~enumerate.rules.variant.Variant.pay`) and an ante bonus ``b_c`` paid on every raised hand
of category ``c``:

=========================  ======================
state                      net result (antes)
=========================  ======================
folded                     -1
dealer does not qualify    a_nq + b_c
player wins                a_w + r * p_c + b_c
push                       b_c
dealer wins                -(1 + r) + b_c
=========================  ======================

Everything exact derives from :meth:`Settlement.net`: the raise decision's integer coefficients
(:class:`enumerate.raise_value.RaiseValue`), the rows of the return table
(:func:`enumerate.analysis.base.return_table`), the cells of the PAR sheet
(:mod:`enumerate.analysis.par`) and a situation's EV(raise) (:mod:`enumerate.analysis.ev`).  A
rule of settlement (a raise of another size, a bonus, a cap) is changed here and nowhere else.
The simulator settles its games with a copy of its own (:mod:`enumerate.simulation.settle`), on
purpose: it is the independent witness of these figures.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from enumerate.rules.variant import Variant
from evaluator.ranking import Category

#: How a hand ends, in the order the PAR sheet lists them.
STATES = ("folded", "dealer_does_not_qualify", "player_wins", "push", "dealer_wins")


@dataclass(frozen=True)
class Settlement:
    """The base game's settlement of one variant (see the module docstring)."""

    raise_antes: int
    ante_no_qualify: Fraction
    ante_win: Fraction
    pays: tuple[Fraction, ...]          # raise pay actually paid, by category 0..9
    bonus: tuple[Fraction, ...]         # ante bonus on a raised hand, by category 0..9

    @classmethod
    def of(cls, variant: Variant) -> "Settlement":
        return cls(variant.raise_antes, variant.ante_no_qualify, variant.ante_win,
                   tuple(variant.pay(c) for c in Category), tuple(variant.bonus_by_category()))

    def net(self, category: Category | int | None, state: str) -> Fraction:
        """What a hand of ``category`` that ends in ``state`` nets, in antes.  ``category``
        None: the state's result without an ante bonus (a player win needs the category)."""
        bonus = Fraction(0) if category is None else self.bonus[int(category)]
        if state == "folded":
            return Fraction(-1)
        if state == "dealer_does_not_qualify":
            return self.ante_no_qualify + bonus
        if state == "player_wins":
            if category is None:
                raise ValueError("a player win is settled by the player's category")
            return self.ante_win + self.raise_antes * self.pays[int(category)] + bonus
        if state == "push":
            return bonus
        if state == "dealer_wins":
            return Fraction(-1 - self.raise_antes) + bonus
        raise ValueError(f"unknown state {state!r}")

    def staked(self, raised: bool) -> int:
        """The antes a hand stakes: the ante, and the raise when it raised."""
        return 1 + self.raise_antes if raised else 1

    def average_stake(self, raise_share: Fraction) -> Fraction:
        """The antes staked on average when a share ``raise_share`` of the hands raise (the
        element of risk's denominator)."""
        return self.staked(False) + (self.staked(True) - self.staked(False)) * raise_share

    def over_loss(self, category: Category | int | None, state: str) -> Fraction:
        """What ending in ``state`` nets above a lost raised hand (the coefficient of that state
        in the raise decision; a bonus is in both nets and cancels unless the state is a fold)."""
        return self.net(category, state) - self.net(category, "dealer_wins")

    def with_pays(self, pay: Fraction) -> "Settlement":
        """The same settlement with every raise pay ``pay`` (for an index over pays)."""
        return replace(self, pays=(Fraction(pay),) * len(self.pays))

    def ev_raise(self, category: Category | int, no_qualify: int, win: int, tie: int, completions: int) -> Fraction:
        """EV(raise) in antes of a hand of ``category`` against ``completions`` equally likely
        dealer hands, of which ``no_qualify`` do not qualify, the player beats ``win``, ties
        ``tie`` and loses to the rest."""
        lose = completions - no_qualify - win - tie
        counts = {"dealer_does_not_qualify": no_qualify, "player_wins": win, "push": tie, "dealer_wins": lose}
        return sum((self.net(category, s) * n for s, n in counts.items()), Fraction(0)) / completions
