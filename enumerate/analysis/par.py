"""PAR-sheet figures of the base game: every game state of every player hand category, exactly.

A PAR sheet (the casino industry's "probability and accounting report") lists how often each
paying outcome occurs in each game state.  Under optimal strategy a hand ends in one of five
states -- folded, or raised and then: the dealer does not qualify, the dealer qualifies and the
player wins, ties, or loses -- and its net result depends on the state and the player's hand
category (a raised win pays the category's raise pay).  The aggregation kernel already counts
these per category (:class:`enumerate.analysis.stats.Stat`): folded combinations are the
situations not raised times the 163,185 dealer completions, the others are counted over the dealer
hole cards of raised situations.  So the table is exact integers, and its column sums are the
rows of the return table.

Reachability: a lab standard asks that every advertised award be reachable at least once in 100
million games, or that its odds be shown.  :attr:`ParSheet.unreachable` lists the paying cells
whose probability is below 1 / :data:`REACH_GAMES` (expected fewer than once in that many games).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypedDict

import numpy as np

from enumerate.analysis.base import raw_statistics
from enumerate.analysis.stats import Stat
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.jsonform import exact
from enumerate.core.shapes import CategoryKey, Count, Exact
from enumerate.rules.settlement import Settlement
from enumerate.rules.variant import PAY_CATEGORIES, Variant
from evaluator.ranking import Category

#: The game states of a hand, in PAR-sheet order.
State = Literal["folded", "dealer_does_not_qualify", "player_wins", "push", "dealer_wins"]
STATES: tuple[State, ...] = ("folded", "dealer_does_not_qualify", "player_wins", "push", "dealer_wins")
#: An award is "reachable" when it is expected at least once in this many games.
REACH_GAMES = 100_000_000


class ParCellJSON(TypedDict):
    """One category in one game state."""

    category: CategoryKey
    state: State
    combinations: Count
    net_result_antes: Exact
    probability: Exact
    one_in: Exact | None


class UnreachableJSON(TypedDict):
    """A paying cell expected less than once in the reachability check's games."""

    category: CategoryKey
    state: State
    one_in: Exact


class ReachabilityJSON(TypedDict):
    """The reachability check: the games it counts and the cells it flags."""

    games: int
    unreachable: list[UnreachableJSON]


class ParSheetJSON(TypedDict):
    """The PAR table of the base game under optimal strategy."""

    total_combinations: int
    states: list[State]
    cells: list[ParCellJSON]
    reachability: ReachabilityJSON


@dataclass(frozen=True)
class ParCell:
    """One category in one game state: its combinations (of the total), net result in antes
    (ante and raise together, ante bonus included) and probability."""

    category: Category
    state: State
    combinations: int
    net_result: Fraction
    probability: Fraction

    @property
    def one_in(self) -> Fraction | None:
        return 1 / self.probability if self.probability else None

    def to_dict(self) -> ParCellJSON:
        return {"category": self.category.key, "state": self.state, "combinations": self.combinations,
                "net_result_antes": exact(self.net_result), "probability": exact(self.probability),
                "one_in": exact(self.one_in) if self.one_in is not None else None}


@dataclass(frozen=True)
class ParSheet:
    """The PAR table of a variant's base game under optimal strategy."""

    variant: str
    total_combinations: int
    cells: tuple[ParCell, ...]

    def cell(self, category: Category, state: str) -> ParCell:
        return next(c for c in self.cells if c.category == category and c.state == state)

    def state_total(self, state: str) -> int:
        return sum(c.combinations for c in self.cells if c.state == state)

    @property
    def unreachable(self) -> tuple[ParCell, ...]:
        """Paying cells (net result > 0, combinations > 0) expected less than once in
        :data:`REACH_GAMES` games."""
        return tuple(c for c in self.cells if c.net_result > 0 and c.combinations
                     and c.probability * REACH_GAMES < 1)

    def warnings(self) -> list[str]:
        """The reachability check as a sanity warning (empty when every award is reachable)."""
        if not self.unreachable:
            return []
        rarest = min(self.unreachable, key=lambda c: c.probability)
        return [f"{len(self.unreachable)} paying outcome(s) are expected less than once in {REACH_GAMES:,} games "
                f"(the rarest: {rarest.category.label}, {rarest.state.replace('_', ' ')}, 1 in "
                f"{float(rarest.one_in or 0):,.0f}); the PAR sheet shows their odds"]

    def to_dict(self) -> ParSheetJSON:
        return {"total_combinations": self.total_combinations,
                "states": list(STATES), "cells": [c.to_dict() for c in self.cells],
                "reachability": {"games": REACH_GAMES,
                                 "unreachable": [{"category": c.category.key, "state": c.state,
                                                  "one_in": exact(1 / c.probability)} for c in self.unreachable]}}


def net_result(variant: Variant, category: Category, state: str) -> Fraction:
    """The net result in antes of a hand of ``category`` ending in ``state``: the settlement's
    (:mod:`enumerate.rules.settlement`)."""
    return Settlement.of(variant).net(category, state)


def par_sheet(counts: CountTable, variant: Variant, threads: int = 1) -> ParSheet:
    """The exact PAR table of ``variant`` under optimal strategy (see the module docstring)."""
    (stats,), _ = raw_statistics(counts, variant, [], with_chart=False, threads=threads)
    return par_from_stats(variant, stats)


def par_from_stats(variant: Variant, stats: np.ndarray) -> ParSheet:
    """The PAR table from the (10, 8) per-category statistics of the optimal strategy."""
    total = int(stats[:, Stat.SITUATIONS].sum()) * COMPLETIONS
    cells = []
    for category in PAY_CATEGORIES:
        row = stats[category]
        combos = {"folded": int(row[Stat.SITUATIONS] - row[Stat.RAISED]) * COMPLETIONS,
                  "dealer_does_not_qualify": int(row[Stat.NO_QUALIFY]), "player_wins": int(row[Stat.WIN]),
                  "push": int(row[Stat.TIE]), "dealer_wins": int(row[Stat.LOSE])}
        for state in STATES:
            cells.append(ParCell(category, state, combos[state], net_result(variant, category, state),
                                 Fraction(combos[state], total)))
    return ParSheet(variant.name, total, tuple(cells))


def expected_return(sheet: ParSheet) -> Fraction:
    """Sum of net result x probability over the cells: the base game's expected return per
    ante (equal to :attr:`Analysis.expected_return` for a table without a capped payout)."""
    return sum((c.net_result * c.probability for c in sheet.cells), Fraction(0))
