"""Exact analysis of the base game (ante and raise) from the engine's counts.

All totals are exact: integers or ``fractions.Fraction``.  Money is in antes: a result "per
ante" is per unit of the ante wager; "per total wagered" divides by ante plus raises.
Optimal strategy: raise iff EV(raise) > EV(fold) = -1 ante, situation by situation, decided by
the integer form of :mod:`enumerate.raise_value`; or a fixed set of raised situations.

The aggregation kernel (``_aggregate.pyx``) sums, per player hand category, the situations, the
raised ones and the dealer outcomes of the raised ones (the columns of
:class:`~enumerate.analysis.stats.Stat`); :func:`analysis_from_stats` turns those ten rows into
the return table, the house edge, the element of risk and the variance.  The full game -- rule variants and side bets on top
of this -- is :mod:`enumerate.game.analysis`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal, TypedDict

import numpy as np

from enumerate.analysis import _aggregate
from enumerate.analysis.stats import Stat
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.jsonform import exact
from enumerate.core.memo import TableMemo
from enumerate.core.shapes import BY_CATEGORY, Count, Exact, MinItems, Pattern, shape
from enumerate.core.tabular import tabular
from enumerate.raise_value import RaiseValue
from enumerate.rules.sanity import player_has_edge, warnings_for
from enumerate.rules.settlement import Settlement
from enumerate.rules.variant import PAY_CATEGORIES, Variant, VariantJSON
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category


@shape("return_row")
class ReturnRowJSON(TypedDict):
    outcome: Annotated[str, Pattern("^[a-z][a-z0-9_]*$")]
    label: str
    net_result_antes: Exact
    combinations: Count
    probability: Exact
    return_per_ante: Exact


@dataclass(frozen=True)
class ReturnRow:
    """One outcome of a hand: net result per ante, its combinations, probability and return.

    ``outcome`` is the snake_case identifier (``player_wins_full_house``, ``dealer_wins``),
    ``event`` the same in words."""

    outcome: str
    event: str
    pays: Fraction            # net result of the hand, in antes (ante + raise, after the bet)
    combinations: int
    probability: Fraction
    contribution: Fraction    # pays * probability, per ante

    def to_dict(self) -> ReturnRowJSON:
        return {"outcome": self.outcome, "label": self.event, "net_result_antes": exact(self.pays),
                "combinations": self.combinations, "probability": exact(self.probability),
                "return_per_ante": exact(self.contribution)}


class RaiseShareJSON(TypedDict):
    """How many situations of a category are raised."""

    raised_situations: Count
    situations: Count
    raise_share: Exact


class BaseAnalysisJSON(TypedDict):
    """The figures of the base game; the analysis's JSON
    (:class:`enumerate.game.analysis.AnalysisJSON`) adds those of its features."""

    kind: Literal["analysis"]
    variant: VariantJSON
    strategy: str
    total_combinations: Count
    total_loss_antes: Exact
    house_edge_per_ante: Exact
    element_of_risk_per_total_wager: Exact
    rtp_per_ante: Exact
    rtp_per_total_wagered: Exact
    expected_return_per_ante: Exact
    average_total_wager_antes: Exact
    variance_antes_squared: Exact
    standard_deviation_antes: float
    raise_probability: Exact
    raised_situations: Count
    indifferent_situations: Count | None
    dealer_qualifies_probability: Exact
    hit_frequency: Exact
    return_table: Annotated[list[ReturnRowJSON], MinItems(5)]
    #: optimal play gives the player the edge (a negative house edge): no house would deal the game as read
    player_has_edge: bool
    warnings: list[str]
    raise_by_category: Annotated[dict[str, RaiseShareJSON], BY_CATEGORY]


@tabular("return_table", 'return-table rows')
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
    indifferent_situations: int | None   # situations where EV(raise) == -1 exactly (None: not counted)
    dealer_qualifies: Fraction      # over all combinations, whatever the player does
    hit_frequency: Fraction         # probability that the hand wins money
    rows: tuple[ReturnRow, ...]
    raise_by_category: dict[Category, tuple[int, int]]   # -> (raised situations, situations)

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the net result per hand, in antes (display only)."""
        return math.sqrt(self.variance)

    @property
    def expected_return(self) -> Fraction:
        """Expected net result per ante (the negative of the house edge)."""
        return -self.house_edge

    @property
    def rtp_per_ante(self) -> Fraction:
        """Return to player per ante, as vendors and labs quote it: what comes back of each ante
        staked, 1 - house edge (the lower figure of a quoted "RTP 94.78% - 97.44%")."""
        return 1 - self.house_edge

    @property
    def rtp_per_total_wagered(self) -> Fraction:
        """Return to player per unit wagered (ante and raise together): 1 - element of risk (the
        higher figure of a quoted RTP range)."""
        return 1 - self.element_of_risk

    @classmethod
    def of_outcomes(cls, variant: Variant, rows: tuple[ReturnRow, ...], total: int, expected: Fraction,
                    second: Fraction, raised: int, raise_probability: Fraction, indifferent: int | None,
                    dealer_qualifies: Fraction, raise_by_category: dict[Category, tuple[int, int]],
                    hit_frequency: Fraction | None = None, wager: Fraction | None = None) -> "Analysis":
        """The analysis of a game from its outcomes -- the one place every kind's analysis is
        assembled: the return table ``rows`` over ``total`` combinations, the expected result
        per ante and its second moment, the raises (``raised`` decisions, a share
        ``raise_probability`` of them), the indifferent decisions (None: not counted), how
        often the dealer qualifies and the raises by category.  The house edge is -expected;
        the total loss over every combination -expected x total; the average wager the
        settlement's stake at that raise share, and the element of risk the house edge over
        it; the hit frequency the share of combinations whose row nets a win, unless given (a
        table with fees counts a hand by what it nets less its fee) and the average wager
        the settlement's unless given (a kind with wagers of its own: insurance)."""
        if wager is None:
            wager = Settlement.of(variant).average_stake(raise_probability)
        return cls(variant=variant, total_combinations=total, total_loss=-expected * total, house_edge=-expected,
                   element_of_risk=-expected / wager, average_wager=wager, variance=second - expected * expected,
                   raise_probability=raise_probability, raised_situations=raised, indifferent_situations=indifferent,
                   dealer_qualifies=dealer_qualifies,
                   hit_frequency=hit_frequency if hit_frequency is not None
                   else sum((r.probability for r in rows if r.pays > 0), Fraction(0)),
                   rows=rows, raise_by_category=raise_by_category)

    def to_dict(self) -> BaseAnalysisJSON:
        """Every figure in the JSON convention of :mod:`enumerate.core.jsonform` (kind "analysis");
        ``studodds analyze --json`` prints this and ``summary.json`` holds it."""
        return {
            "kind": "analysis",
            "variant": self.variant.to_dict(),
            "strategy": "optimal",
            "total_combinations": self.total_combinations,
            "total_loss_antes": exact(self.total_loss),
            "house_edge_per_ante": exact(self.house_edge),
            "element_of_risk_per_total_wager": exact(self.element_of_risk),
            "rtp_per_ante": exact(self.rtp_per_ante),
            "rtp_per_total_wagered": exact(self.rtp_per_total_wagered),
            "expected_return_per_ante": exact(self.expected_return),
            "average_total_wager_antes": exact(self.average_wager),
            "variance_antes_squared": exact(self.variance),
            "standard_deviation_antes": self.standard_deviation,
            "raise_probability": exact(self.raise_probability),
            "raised_situations": self.raised_situations,
            "indifferent_situations": self.indifferent_situations,
            "dealer_qualifies_probability": exact(self.dealer_qualifies),
            "hit_frequency": exact(self.hit_frequency),
            "return_table": [r.to_dict() for r in self.rows],
            "player_has_edge": player_has_edge(self.house_edge),
            "warnings": self.warnings(),
            "raise_by_category": {
                c.key: {"raised_situations": raised, "situations": total,
                        "raise_share": exact(Fraction(raised, total) if total else 0)}
                for c, (raised, total) in sorted(self.raise_by_category.items(), reverse=True)},
        }

    def warnings(self) -> list[str]:
        """Sanity warnings of the rules and the result (see :mod:`enumerate.rules.sanity`)."""
        return warnings_for(self.variant, self.house_edge)


def analyze(counts: CountTable, variant: Variant, force: np.ndarray | None = None,
            threads: int = 1) -> Analysis:
    """Exact return table and headline figures of the base game of ``variant``, under optimal
    strategy unless ``force`` (uint8, shape of the counts, 1 = raise) fixes the raise decisions.
    (:func:`enumerate.game.analysis.analyze_game` adds the rule variants' figures and side bets.)"""
    if force is None:
        return analysis_from_stats(counts, variant, optimal_statistics(counts, variant, threads)[0])
    stats, _ = raw_statistics(counts, variant, [force], with_chart=False, threads=threads)
    return analysis_from_stats(counts, variant, stats[1])


#: Per count table: the last optimal strategy's (raise key, stats, chart or None) -- the
#: strategies, the analysis and the certification figures of one table ask for it in turn.
_LAST_OPTIMAL: TableMemo[None, tuple[tuple[int, int, bytes, int, bytes], np.ndarray, np.ndarray | None]] = \
    TableMemo("the last optimal strategy's statistics")


def optimal_statistics(counts: CountTable, variant: Variant, threads: int = 1,
                       chart: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """(stats, chart) of the optimal strategy (see :func:`raw_statistics`; the chart only when
    asked for), by the one-pass kernel; the last ones made are kept with the table."""
    key = RaiseValue.of(variant).key()
    kept = _LAST_OPTIMAL.find(counts, None)
    if kept is not None and kept[0] == key and (kept[2] is not None or not chart):
        return kept[1], kept[2]
    (stats,), made = raw_statistics(counts, variant, [], with_chart=chart, threads=threads)
    keep_optimal(counts, variant, stats, made)
    return stats, made


def keep_optimal(counts: CountTable, variant: Variant, stats: np.ndarray, chart: np.ndarray | None) -> None:
    """Keep ``variant``'s optimal (stats, chart) with the table (however they were made)."""
    _LAST_OPTIMAL.put(counts, None, (RaiseValue.of(variant).key(), stats, chart))


def raw_statistics(counts: CountTable, variant: Variant, masks: list[np.ndarray], with_chart: bool = True,
                   threads: int = 1) -> tuple[np.ndarray, np.ndarray | None]:
    """``(stats, chart)`` of :func:`enumerate.analysis._aggregate.aggregate_all`: per category (10, 8)
    int64 statistics with the columns of :class:`enumerate.analysis.stats.Stat` for the optimal strategy
    (row 0) and each fixed mask (rows 1..).  For a fixed mask every statistic but
    ``Stat.INDIFFERENT`` is independent of the paytable."""
    check_table(counts, variant)
    value = RaiseValue.of(variant)
    stacked = (np.ascontiguousarray(np.stack(masks), dtype=np.uint8) if masks
               else np.zeros((0, 0, 0), dtype=np.uint8))
    stats, chart = _aggregate.aggregate_all(
        CATEGORY_BY_STRENGTH[counts.strength], counts.strength, counts.weight.astype(np.int64), counts.up,
        counts.no_qualify, counts.win, counts.tie, value.c_nq, value.c_win, value.c_tie,
        value.thresholds, stacked, threads, with_chart)
    return stats, chart


def check_table(counts: CountTable, variant: Variant) -> None:
    """StudoddsError unless ``counts`` was made for the variant's qualifier."""
    if counts.qualifier != variant.qualifier.threshold:
        raise StudoddsError(f"the count table was made for qualifier strength {counts.qualifier}, "
                            f"variant {variant.name!r} needs {variant.qualifier.threshold}")


def analysis_from_stats(counts: CountTable, variant: Variant, stats: np.ndarray) -> Analysis:
    """Assemble the exact analysis from the (10, 8) per-category statistics."""
    situations, raised_c, indifferent_c, nq_c, win_c, tie_c, lose_c, nq_all = (stats[:, k] for k in Stat)
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

    split = {c: (int(nq_c[c]), int(tie_c[c]), int(lose_c[c])) for c in Category}
    rows, expected, second = return_table(variant, wins, nq, tie, lose, folded, total, split)
    return Analysis.of_outcomes(variant, rows, total, expected, second, raised, Fraction(raised, total_situations),
                                int(indifferent_c.sum()), Fraction(qualifies, total), by_category)


def return_table(variant: Variant, wins: dict[Category, int], no_qualify: int, tie: int, lose: int,
                 folded: int, total: int,
                 by_category: dict[Category, tuple[int, int, int]] | None = None,
                 ) -> tuple[tuple[ReturnRow, ...], Fraction, Fraction]:
    """The return table of a strategy from its outcome counts over ``total`` combinations
    (``wins``: raised hands the player wins by category; the others over raised hands except
    ``folded``), with the expected net result per ante and its second moment.  With an ante
    bonus, ``by_category`` (the raised hands' no-qualify, push and lose counts by category) splits
    those outcomes by the bonus they carry."""
    s = Settlement.of(variant)
    bonus = s.bonus
    rows: list[ReturnRow] = []

    def row(outcome: str, event: str, pays: Fraction, comb: int) -> None:
        p = Fraction(comb, total)
        rows.append(ReturnRow(outcome, event, Fraction(pays), comb, p, pays * p))

    for c in PAY_CATEGORIES:
        if c == Category.ROYAL_FLUSH and not variant.royal_separate:
            continue
        comb = wins[c]
        if c == Category.STRAIGHT_FLUSH and not variant.royal_separate:
            comb += wins[Category.ROYAL_FLUSH]
        row(f"player_wins_{c.key}", f"player wins with {c.label}", s.net(c, "player_wins"), comb)
    bonus_rows = [c for c in PAY_CATEGORIES if bonus[c] != 0]
    split = by_category or {}
    if bonus_rows and not split:
        raise AssertionError("an ante bonus needs the outcome counts by category")
    rest = [no_qualify, tie, lose]
    for c in bonus_rows:
        for k in range(3):
            rest[k] -= split[c][k]
    row("dealer_does_not_qualify", "dealer does not qualify", s.net(None, "dealer_does_not_qualify"), rest[0])
    row("push", "push", s.net(None, "push"), rest[1])
    row("fold", "fold", s.net(None, "folded"), folded)
    row("dealer_wins", "dealer wins", s.net(None, "dealer_wins"), rest[2])
    for c in bonus_rows:
        nq_c, tie_c, lose_c = split[c]
        row(f"dealer_does_not_qualify_bonus_{c.key}", f"dealer does not qualify, ante bonus for {c.label}",
            s.net(c, "dealer_does_not_qualify"), nq_c)
        row(f"push_bonus_{c.key}", f"push, ante bonus for {c.label}", s.net(c, "push"), tie_c)
        row(f"dealer_wins_bonus_{c.key}", f"dealer wins, ante bonus for {c.label}", s.net(c, "dealer_wins"), lose_c)

    if sum(r.combinations for r in rows) != total:
        raise AssertionError("return table combinations do not sum to the total")
    expected = sum((r.contribution for r in rows), Fraction(0))
    second = sum((r.pays * r.pays * r.probability for r in rows), Fraction(0))
    return tuple(rows), expected, second
