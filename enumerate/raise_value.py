"""The raise decision as an exact integer linear form: the core every analysis shares.

A situation (player hand, up card) has, over the C(46, 4) = 163,185 dealer hole-card sets, the
counts ``no_qualify``, ``win`` and ``tie`` (:class:`enumerate.core.engine.CountTable`); the rest
lose.  Folding loses the ante.  Raising ``r`` antes is worth, per dealer hand, the ante pay and
the raise pay when the dealer qualifies and loses, the ante pay alone when the dealer does not
qualify, nothing on a tie and ``-(1 + r)`` when the dealer wins.  Multiplying by the common
denominator ``scale`` of every pay and by the 163,185 completions turns EV(raise) into an integer
linear form in the three counts, so the optimal decision "raise iff EV(raise) > -1" is one integer
comparison per situation -- no rounding anywhere.  :class:`RaiseValue` holds the coefficients;
every module that decides or values a raise (the aggregation kernel, side bets, the progressive,
hole-card exposure, collusion, the strategy pictures) builds it with :meth:`RaiseValue.of`.

The coefficients come from the one settlement of the base game
(:mod:`enumerate.rules.settlement`): each is a state's net result less a lost hand's, and the
threshold is a folded hand's net less a lost hand's.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.rules.settlement import Settlement
from enumerate.rules.variant import Variant
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category


@dataclass(frozen=True)
class RaiseValue:
    """EV(raise) of a situation, exactly, as an integer linear form in its counts.

    With ``n`` = 163,185 completions, lose = n - no_qualify - win - tie, a raise of ``r`` antes and
    an ante bonus ``b_c`` paid on a raised hand of category c (both in antes):

        EV(raise) * scale * n = no_qualify * c_nq + win * c_win[c] + tie * c_tie - c_lose * n + b_c * scale * n

    with c_nq = (a_nq + 1 + r) * scale, c_win[c] = (a_w + r * pay_c + 1 + r) * scale,
    c_tie = c_lose = (1 + r) * scale; so EV(raise) > EV(fold) = -1 iff the form
    ``no_qualify * c_nq + win * c_win[c] + tie * c_tie`` exceeds ``thresholds[c]`` =
    (r - b_c) * scale * n.  The standard game (r = 2, no bonus) raises iff the form exceeds
    2 * scale * n for every category.
    """

    scale: int
    c_nq: int
    c_win: np.ndarray      # by category 0..9
    c_tie: int
    thresholds: np.ndarray  # by category 0..9: raise iff form > thresholds[c]
    bonus: np.ndarray      # ante bonus by category, times scale

    @property
    def c_lose(self) -> int:
        """What a lost raised hand costs, times scale: (1 + r) * scale, the same as c_tie."""
        return self.c_tie

    def key(self) -> tuple[int, int, bytes, int, bytes]:
        """What decides every raise: equal keys, equal decisions in every situation."""
        return (self.scale, self.c_nq, self.c_win.tobytes(), self.c_tie, self.thresholds.tobytes())

    @property
    def c_fold(self) -> int:
        """What folding nets above a lost raised hand, times scale, per dealer hand: the raise
        threshold per completion when it is the same for every category (r * scale; see
        :attr:`raise_above`)."""
        return self.raise_above // COMPLETIONS

    @property
    def denominator(self) -> int:
        return self.scale * COMPLETIONS

    @property
    def raise_above(self) -> int:
        """The threshold when it is the same for every category (StudoddsError otherwise: an
        ante bonus makes it depend on the category)."""
        if (self.thresholds != self.thresholds[0]).any():
            raise StudoddsError("this analysis does not support an ante bonus")
        return int(self.thresholds[0])

    @classmethod
    def of(cls, variant: Variant) -> "RaiseValue":
        """The form of ``variant``'s raise.  A table with draws (switching, a sixth card) is
        refused: its decision comes after the draw, with other cards out of play, and only
        :mod:`enumerate.draws` values it (with the form of :meth:`Variant.base_game`)."""
        if variant.draws is not None:
            raise StudoddsError(f"variant {variant.name!r} lets the player switch or buy cards before the "
                                "decision: this analysis covers the plain game only (switching and buying "
                                "are analysed by 'analyze', 'hand', 'batch', 'check' and 'diff')")
        # every coefficient is a state's net result less a lost hand's, from the one settlement
        s = Settlement.of(variant)
        # the common denominator of every amount the settlement reads (each net result, and so
        # each coefficient below, is then a whole number of 1/scale antes)
        scale = math.lcm(*(v.denominator for v in [s.ante_no_qualify, s.ante_win, *s.pays, *s.bonus]))

        above_loss = s.over_loss
        c_win = [int(above_loss(c, "player_wins") * scale) for c in Category]
        c_nq = int(above_loss(None, "dealer_does_not_qualify") * scale)    # a bonus is in both nets: it cancels
        c_tie = int(above_loss(None, "push") * scale)
        b = [int(x * scale) for x in s.bonus]
        if max(c_win + [c_nq, c_tie] + [abs(x) for x in b]) * COMPLETIONS * 4 >= 2**62:
            raise StudoddsError(f"variant {variant.name!r}: pays too large for exact 64-bit evaluation")
        # raise iff EV(raise) > EV(fold): the form exceeds (folded - lost) * scale * completions
        thresholds = [int(above_loss(c, "folded") * scale) * COMPLETIONS for c in Category]
        return cls(scale, c_nq, np.array(c_win, dtype=np.int64), c_tie, np.array(thresholds, dtype=np.int64),
                   np.array(b, dtype=np.int64))

    def form(self, counts: CountTable) -> np.ndarray:
        """The linear form for every situation of ``counts`` (int32 when it fits, else int64;
        :meth:`of` guarantees int64 suffices)."""
        bound = (max(abs(self.c_nq), int(np.abs(self.c_win).max()), self.c_tie)) * COMPLETIONS
        dtype = np.int32 if bound < 2**31 else np.int64
        category = CATEGORY_BY_STRENGTH[counts.strength]
        c_win = self.c_win.astype(dtype)[category][:, None]
        form: np.ndarray = counts.win.astype(dtype) * c_win
        form += counts.no_qualify.astype(dtype) * self.c_nq
        form += counts.tie.astype(dtype) * self.c_tie
        return form

    def row_thresholds(self, counts: CountTable) -> np.ndarray:
        """(rows, 1) int64: each row's raise threshold (by its category)."""
        return self.thresholds[CATEGORY_BY_STRENGTH[counts.strength]][:, None]

    def optimal(self, counts: CountTable) -> np.ndarray:
        """Boolean raise decisions of the optimal strategy for every situation."""
        return self.form(counts) > self.row_thresholds(counts)

    def optimal_numerators(self, counts: CountTable) -> np.ndarray:
        """EV of the optimal decision (raise, or fold at -1) * denominator for every situation, int64."""
        return np.where(self.optimal(counts), self.ev_numerators(counts), -self.scale * COMPLETIONS)

    def ev_numerators(self, counts: CountTable) -> np.ndarray:
        """EV(raise) * denominator for every situation, int64."""
        bonus = self.bonus[CATEGORY_BY_STRENGTH[counts.strength]][:, None] * COMPLETIONS
        return self.form(counts).astype(np.int64) - self.c_lose * COMPLETIONS + bonus
