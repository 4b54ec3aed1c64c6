"""Exact analysis of a variant from the engine's counts.

All totals are exact: integers or ``fractions.Fraction``.  Money is in antes: a result "per
ante" is per unit of the ante wager; "per total wagered" divides by ante plus raises.
Optimal strategy: raise iff EV(raise) > EV(fold) = -1 ante, situation by situation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from evaluator.ranking import CATEGORY_BY_STRENGTH, Category
from enumerate.engine import COMPLETIONS, CountTable
from enumerate.variant import PAY_CATEGORIES, Variant


@dataclass(frozen=True)
class ReturnRow:
    """One outcome of a hand: net result per ante, its combinations, probability and return."""

    event: str
    pays: Fraction            # net result of the hand, in antes
    combinations: int
    probability: Fraction
    contribution: Fraction    # pays * probability, per ante


@dataclass(frozen=True)
class Analysis:
    """Exact figures for one variant under optimal strategy.

    ``total_loss`` is the player's net loss in antes summed over all combinations of player
    hand, up card and dealer hole cards (19,933,230,517,200 with one deck).
    """

    variant: Variant
    total_combinations: int
    total_loss: Fraction
    house_edge: Fraction            # expected loss per ante
    element_of_risk: Fraction       # expected loss per unit of total amount wagered
    average_wager: Fraction         # expected ante + raise, in antes
    variance: Fraction              # of the net result per hand, in antes squared
    raise_probability: Fraction     # share of situations raised
    raised_situations: int          # concrete situations (of 122,151,120) where raising
    indifferent_situations: int     # concrete situations where EV(raise) == -1 exactly
    dealer_qualifies: Fraction      # over all combinations, whatever the player does
    hit_frequency: Fraction         # probability that the hand wins money
    rows: tuple[ReturnRow, ...]
    raise_by_category: dict         # Category -> (raised situations, situations)

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the net result per hand, in antes (display only)."""
        return math.sqrt(self.variance)

    @property
    def expected_return(self) -> Fraction:
        """Expected net result per ante (the negative of the house edge)."""
        return -self.house_edge


@dataclass(frozen=True)
class RaiseValue:
    """EV(raise) of a situation, exactly, as an integer linear form in its counts.

    With ``n`` = 163,185 completions and lose = n - no_qualify - win - tie:

        EV(raise) * scale * n = no_qualify * c_nq + win * c_win[category] + tie * c_tie - 3 * scale * n

    so EV(raise) > EV(fold) = -1 iff the form exceeds ``raise_above`` = 2 * scale * n.
    """

    scale: int
    c_nq: int
    c_win: np.ndarray      # by category 0..9
    c_tie: int

    @property
    def denominator(self) -> int:
        return self.scale * COMPLETIONS

    @property
    def raise_above(self) -> int:
        return 2 * self.scale * COMPLETIONS

    @classmethod
    def of(cls, variant: Variant) -> "RaiseValue":
        pays = [variant.pay(c) for c in Category]
        scale = math.lcm(*(v.denominator for v in [variant.ante_no_qualify, variant.ante_win, *pays]))
        c_win = [int((variant.ante_win + 2 * p + 3) * scale) for p in pays]
        c_nq = int((variant.ante_no_qualify + 3) * scale)
        if max(c_win + [c_nq, 3 * scale]) * COMPLETIONS >= 2**62:
            raise ValueError(f"variant {variant.name!r}: pays too large for exact 64-bit evaluation")
        return cls(scale, c_nq, np.array(c_win, dtype=np.int64), 3 * scale)

    def form(self, counts: CountTable) -> np.ndarray:
        """The linear form for every situation of ``counts`` (int32 when it fits, else int64;
        :meth:`of` guarantees int64 suffices)."""
        bound = (max(abs(self.c_nq), int(np.abs(self.c_win).max()), self.c_tie)) * COMPLETIONS
        dtype = np.int32 if bound < 2**31 else np.int64
        category = CATEGORY_BY_STRENGTH[counts.strength]
        c_win = self.c_win.astype(dtype)[category][:, None]
        form = counts.win.astype(dtype) * c_win
        form += counts.no_qualify.astype(dtype) * dtype(self.c_nq)
        form += counts.tie.astype(dtype) * dtype(self.c_tie)
        return form

    def optimal(self, counts: CountTable) -> np.ndarray:
        """Boolean raise decisions of the optimal strategy for every situation."""
        return self.form(counts) > self.raise_above

    def ev_numerators(self, counts: CountTable) -> np.ndarray:
        """EV(raise) * denominator for every situation, int64."""
        return self.form(counts).astype(np.int64) - 3 * self.denominator


def analyze(counts: CountTable, variant: Variant, force: np.ndarray | None = None) -> Analysis:
    """Exact return table and headline figures of ``variant``, under optimal strategy unless
    ``force`` (uint8, shape of the counts, 1 = raise) fixes the raise decisions."""
    masks = [] if force is None else [force]
    stats, _ = raw_statistics(counts, variant, masks, with_chart=False)
    return analysis_from_stats(counts, variant, stats[len(masks)])


def raw_statistics(counts: CountTable, variant: Variant, masks: list[np.ndarray], with_chart: bool = True):
    """``(stats, chart)`` of :func:`enumerate._aggregate.aggregate_all`: per category (10, 8)
    int64 (situations, raised, indifferent, no_qualify, win, tie, lose -- those four over raised
    situations -- and no_qualify over all) for the optimal strategy (row 0) and each fixed mask
    (rows 1..).  For a fixed mask every statistic but "indifferent" is independent of the
    paytable."""
    from enumerate import _aggregate
    from enumerate.engine import default_threads
    if counts.qualifier != variant.qualifier.threshold:
        raise ValueError("the count table was made for another qualifier")
    value = RaiseValue.of(variant)
    stacked = (np.ascontiguousarray(np.stack(masks), dtype=np.uint8) if masks
               else np.zeros((0, 0, 0), dtype=np.uint8))
    stats, chart = _aggregate.aggregate_all(
        CATEGORY_BY_STRENGTH[counts.strength], counts.strength, counts.weight.astype(np.int64), counts.up,
        counts.no_qualify, counts.win, counts.tie, value.c_nq, value.c_win, value.c_tie,
        value.raise_above, stacked, default_threads(), with_chart)
    return stats, chart


def analysis_from_stats(counts: CountTable, variant: Variant, stats: np.ndarray) -> Analysis:
    """Assemble the exact analysis from the (10, 8) per-category statistics."""
    situations, raised_c, indifferent_c, nq_c, win_c, tie_c, lose_c, nq_all = (stats[:, k] for k in range(8))
    total_situations = int(situations.sum())
    if total_situations != counts.n_situations:
        raise AssertionError("aggregation lost situations")
    total = total_situations * COMPLETIONS
    raised = int(raised_c.sum())
    nq, tie, lose = int(nq_c.sum()), int(tie_c.sum()), int(lose_c.sum())
    wins = {c: int(win_c[c]) for c in Category}
    if nq + tie + lose + sum(wins.values()) != raised * COMPLETIONS:
        raise AssertionError("raised situations' outcomes do not add up")
    folded = (total_situations - raised) * COMPLETIONS
    qualifies = total - int(nq_all.sum())
    by_category = {c: (int(raised_c[c]), int(situations[c])) for c in Category}

    rows: list[ReturnRow] = []

    def row(event: str, pays: Fraction, comb: int) -> None:
        p = Fraction(comb, total)
        rows.append(ReturnRow(event, Fraction(pays), comb, p, pays * p))

    for c in PAY_CATEGORIES:
        if c == Category.ROYAL_FLUSH and not variant.royal_separate:
            continue
        comb = wins[c]
        if c == Category.STRAIGHT_FLUSH and not variant.royal_separate:
            comb += wins[Category.ROYAL_FLUSH]
        row(f"player wins with {c.label}", variant.ante_win + 2 * variant.pay(c), comb)
    row("dealer does not qualify", variant.ante_no_qualify, nq)
    row("push", Fraction(0), tie)
    row("fold", Fraction(-1), folded)
    row("dealer wins", Fraction(-3), lose)

    if sum(r.combinations for r in rows) != total:
        raise AssertionError("return table combinations do not sum to the total")
    expected = sum((r.contribution for r in rows), Fraction(0))
    second = sum((r.pays * r.pays * r.probability for r in rows), Fraction(0))
    average_wager = 1 + 2 * Fraction(raised, total_situations)
    return Analysis(
        variant=variant,
        total_combinations=total,
        total_loss=-expected * total,
        house_edge=-expected,
        element_of_risk=-expected / average_wager,
        average_wager=average_wager,
        variance=second - expected * expected,
        raise_probability=Fraction(raised, total_situations),
        raised_situations=raised,
        indifferent_situations=int(indifferent_c.sum()),
        raise_by_category=by_category,
        dealer_qualifies=Fraction(qualifies, total),
        hit_frequency=sum((r.probability for r in rows if r.pays > 0), Fraction(0)),
        rows=tuple(rows),
    )
