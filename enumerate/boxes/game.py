"""The whole game of one player on two boxes, exactly.

A round deals the player two hands P and Q (ten cards), the dealer an up card u from the 42
left and four hole cards from the 41 after it.  Each box raises or folds seeing P, Q and u
(:mod:`enumerate.rules.boxes`), so each box plays the game of a player who sees one other hand:
box 1 is the seen-hand game with partner Q, box 2 the same game with the roles swapped.  The
rank-pattern kernel of :mod:`enumerate.boxes.seen_ranks` counts it over every (P, Q, u) and
every hole-card set -- 16,956,561,337,605,489,600 deals, each box's combinations -- and, counted
as pairs, also the boxes' joint moments:

* per box: the return table (hole-card sets by the box's category and outcome), the value and
  the raises, and, for comparison, the value of the normal game's decisions on the same deals
  (a box played alone): their difference is what seeing the other box gains;
* per round: the cross moment E[X1 X2] of the two boxes' results, so the covariance
  Cov = E[X1 X2] - E[X1]^2, the variance of a round Var(X1 + X2) = 2 Var(X) + 2 Cov (the same
  dealer meets both boxes, so their results are correlated), and the share of rounds where both
  raise.

Every figure is exact (integers and fractions).  The sums are checked when made and when read:
the normal decisions' value must be the count table's game, the return table must give the
value, and over the whole game the second box's value and second moment must equal the first's.
A certified table keeps the sums (boxes_game.json, :data:`KEPT`), so ``check`` reads
them back instead of recounting (about 2 core-hours).

Not counted: the number of indifferent decisions (raising worth exactly folding), which the
kernel does not separate; it changes no figure.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from enumerate.analysis.base import Analysis, return_table
from enumerate.boxes.seen_game import COMPLETIONS, SeenHandSlice, kept_game, whole_game_result
from enumerate.boxes.shapes import BoxesFiguresJSON, TwoBoxesJSON
from enumerate.core import exact_game
from enumerate.core.engine import CountTable
from enumerate.core.jsonform import exact
from enumerate.rules.variant import Variant
from evaluator.ranking import Category, strength_by_index


@dataclass(frozen=True)
class BoxesFigures:
    """What the two boxes add to a box's analysis (see the module docstring): the seen-hand
    slice's two-box figures (``pair``, its JSON) with the one-box game beside them."""

    house_edge_per_box: Fraction
    house_edge_alone: Fraction
    both_raise: Fraction
    covariance: Fraction
    variance_per_box: Fraction
    pair: TwoBoxesJSON

    @property
    def gain_per_box(self) -> Fraction:
        return self.house_edge_alone - self.house_edge_per_box

    @property
    def round_variance(self) -> Fraction:
        return 2 * self.variance_per_box + 2 * self.covariance

    @property
    def correlation(self) -> Fraction:
        return self.covariance / self.variance_per_box

    @property
    def round_std_dev(self) -> float:
        """The standard deviation of a round of both boxes, antes (display only)."""
        return math.sqrt(self.round_variance)

    @property
    def independent_std_dev(self) -> float:
        """What it would be were the boxes independent (two hands against two dealers), antes."""
        return math.sqrt(2 * self.variance_per_box)

    def to_dict(self) -> BoxesFiguresJSON:
        return {**self.pair, "boxes": 2, "house_edge_one_box_alone": exact(self.house_edge_alone),
                "std_dev_per_round_if_independent_antes": self.independent_std_dev, "indifferent_decisions": None}


#: The whole game a table of two boxes keeps (boxes_game.json): the seen-hand game counted as pairs.
KEPT = kept_game("boxes_game.json")


def whole_game(variant: Variant, counts: CountTable, *, threads: int = 1, progress: Callable[[int], None] | None = None,
               use_cache: bool = True) -> SeenHandSlice:
    """Count the whole game of ``variant`` (a table with [boxes]): the seen-hand game counted as
    pairs (:func:`enumerate.core.exact_game.whole_game`: its shards in the user cache, keyed by
    the table's rules), or the kept sums given, checked as a run checks its own (KeptSumsError
    when they do not add up)."""
    total, n = exact_game.whole_game(KEPT, variant, counts, threads=threads, progress=progress, use_cache=use_cache)
    return whole_game_result(variant, total, n)


def boxes_analysis(variant: Variant, s: SeenHandSlice) -> tuple[Analysis, BoxesFigures]:
    """One box's analysis (its return table, house edge, element of risk, variance, raises by
    category) and the figures of the two boxes, from the whole game's sums ``s``."""
    rows = s.return_rows()
    pair = s.two_boxes()
    spread = s.spread()
    if rows is None or pair is None or spread is None or not s.slice.whole_game:
        raise AssertionError("two boxes need the whole game counted as pairs by rank patterns")
    total = s.sums.situations * COMPLETIONS
    by: dict[tuple[Category, str], int] = {(c, o): sets for c, o, _, sets in rows}
    wins = {c: by.get((c, "raised_win"), 0) for c in Category}
    nq, tie, lose, folded = (sum(by.get((c, o), 0) for c in Category)
                             for o in ("raised_no_qualify", "raised_tie", "raised_lose", "folded"))
    single = variant.single_box()
    table, expected, second = return_table(single, wins, nq, tie, lose, folded, total)
    if expected != s.seeing:
        raise AssertionError("the return table does not give the value seen")
    raised = s.sums.seen_raised
    by_category = {}
    for c in Category:
        cells = [by.get((c, o), 0) for o in ("raised_no_qualify", "raised_win", "raised_tie", "raised_lose")]
        all_sets = sum(cells) + by.get((c, "folded"), 0)
        by_category[c] = (sum(cells) // COMPLETIONS, all_sets // COMPLETIONS)
    if sum(r for r, _ in by_category.values()) != raised:
        raise AssertionError("the raises by category do not add up to the raises")
    # whatever the boxes do, the dealer's five cards are a uniform 5-set of the deck (the deal is
    # exchangeable): he qualifies as often as a random hand reaches the qualifier
    strengths = strength_by_index()
    qualifies = Fraction(int(np.count_nonzero(strengths >= single.qualifier.threshold)), strengths.shape[0])
    analysis = Analysis.of_outcomes(variant, table, total, expected, second, raised,
                                    Fraction(raised, s.sums.situations), None, qualifies, by_category)
    covariance, _, both = pair
    pair_json = s.two_boxes_json()
    assert pair_json is not None
    figures = BoxesFigures(-s.seeing, -s.not_seeing, both, covariance, spread[0], pair_json)
    return analysis, figures
