"""What a paytable change changes: headline figures, return tables, the situations whose
optimal action flips and, for tables that decide after a draw, the strategy by hand group.

A kind that keeps every situation's decision (the plain game, the switch game) gives the flips
situation by situation.  A whole game counted by rank patterns keeps its strategy only as a
chart -- per hand group and up-card rank, how many situations take each action -- so two such
tables are compared cell by cell: each action's situations in A and in B, and, exactly, the
least number of situations that must take another action for the counts to move from A's to
B's (half the sum of the counts' absolute changes: no fewer situations can have changed, and the
chart cannot say that more did)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal, NotRequired, TypedDict

import numpy as np

from enumerate.analysis.base import ReturnRowJSON
from enumerate.core.engine import CountTable
from enumerate.core.jsonform import exact, exact_or_none
from enumerate.core.shapes import CategoryKey, Count, Exact, ExactOrNull, Pattern, shape
from enumerate.core.tabular import tabular
from enumerate.game.analysis import GameAnalysis
from enumerate.game.kinds import diff_kind
from enumerate.rules.compare import RuleChange, RuleChangeJSON, rule_changes
from enumerate.rules.sanity import player_has_edge
from enumerate.rules.variant import Variant, VariantJSON
from evaluator.cards import RANKS
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category


class FlipCellJSON(TypedDict):
    """The situations of one player category and up-card rank whose action flips."""

    category: CategoryKey
    up_rank: str
    raise_to_fold: Count
    fold_to_raise: Count


class StrategyCellJSON(TypedDict):
    """One hand group against one up-card rank whose actions' shares change from A to B."""

    hand_group: str
    up_rank: Annotated[str, Pattern("^[2-9TJQKA]$")]
    situations: Count
    actions_a: dict[str, Exact]
    actions_b: dict[str, Exact]
    moved_at_least: Count


class StrategyChangesJSON(TypedDict):
    """The strategy charts of two tables with draws compared cell by cell."""

    cells_compared: Count
    situations: Count
    moved_at_least: Count
    cells: list[StrategyCellJSON]


class FlipsJSON(TypedDict):
    """The situations whose optimal action changes from A to B."""

    raise_to_fold: Count
    fold_to_raise: Count
    cells: list[FlipCellJSON]


@shape("diff_figure")
class DiffFigureJSON(TypedDict):
    """A figure in A and B and its change."""

    a: Exact
    b: Exact
    delta: Exact


class BothJSON(TypedDict):
    """A display-only figure in A and B."""

    a: float
    b: float


class DiffRowJSON(TypedDict):
    """One outcome's return-table rows in A and B (null where a table lacks it) and the change."""

    outcome: str
    label: str
    a: ReturnRowJSON | None
    b: ReturnRowJSON | None
    delta_return_per_ante: Exact


class SideBetEdgesJSON(TypedDict):
    """A side bet's house edge in A and B (null where a variant lacks it) and the change."""

    name: str
    house_edge_a: ExactOrNull
    house_edge_b: ExactOrNull
    delta: ExactOrNull


@shape("diff", document=True)
class DiffJSON(TypedDict):
    """The JSON of what changes from variant A to variant B (kind "diff")."""

    kind: Literal["diff"]
    a: VariantJSON
    b: VariantJSON
    rule_changes: list[RuleChangeJSON]
    figures: dict[str, DiffFigureJSON]
    standard_deviation_antes: BothJSON
    return_table: list[DiffRowJSON]
    action_flips: FlipsJSON | None
    #: per table, whether optimal play gives the player the edge (a game no house would deal as read)
    player_has_edge: dict[Literal["a", "b"], bool]
    strategy_changes: NotRequired[StrategyChangesJSON]
    side_bets: NotRequired[list[SideBetEdgesJSON]]


@dataclass(frozen=True)
class Flips:
    """Concrete situations (of 122,151,120) whose optimal action changes from A to B, by player
    category and up-card rank: ``cells[(category, up_rank)] = (raise->fold, fold->raise)``.  On
    a table with draws "raise" means keeping the dealt hand and raising with it (a switch or a
    purchase counts as not raising the dealt hand)."""

    to_fold: int
    to_raise: int
    cells: dict[tuple[Category, int], tuple[int, int]]

    def to_dict(self) -> FlipsJSON:
        return {"raise_to_fold": self.to_fold, "fold_to_raise": self.to_raise,
                "cells": [{"category": c.key, "up_rank": RANKS[r], "raise_to_fold": tf, "fold_to_raise": tr}
                          for (c, r), (tf, tr) in self.cells.items()]}


def flips(counts_a: CountTable, a: Variant, counts_b: CountTable, b: Variant, threads: int = 1) -> Flips | None:
    """Per player category and up-card rank, the situations where optimal play raises the dealt
    hand under one variant and not the other (each kind of table says what it raises); None when
    a table's kind keeps no decision per situation (its strategy chart is compared instead)."""
    ra = diff_kind(a).raises_dealt_hand(counts_a, a, threads)
    rb = diff_kind(b).raises_dealt_hand(counts_b, b, threads) if ra is not None else None
    if ra is None or rb is None:
        return None
    w = counts_a.weight.astype(np.int64)[:, None]
    cat = CATEGORY_BY_STRENGTH[counts_a.strength].astype(np.int64)[:, None]
    up_rank = counts_a.up.astype(np.int64) >> 2
    cells: dict = {}
    for direction, mask in ((0, ra & ~rb), (1, ~ra & rb)):
        key = (np.broadcast_to(cat, mask.shape) * 13 + up_rank)[mask]
        weighted = np.zeros(130, dtype=np.int64)
        np.add.at(weighted, key, np.broadcast_to(w, mask.shape)[mask])
        for k in np.flatnonzero(weighted):               # weights are >= 1: non-zero = non-empty
            cell = cells.setdefault((Category(int(k) // 13), int(k) % 13), [0, 0])
            cell[direction] = int(weighted[k])
    to_fold = sum(v[0] for v in cells.values())
    to_raise = sum(v[1] for v in cells.values())
    return Flips(to_fold, to_raise, {k: tuple(v) for k, v in sorted(cells.items())})


@dataclass(frozen=True)
class StrategyCell:
    """One cell of two strategy charts: each action's situations in A and in B."""

    hand_group: str
    up_rank: str
    situations: int
    a: dict[str, int]
    b: dict[str, int]

    @property
    def moved_at_least(self) -> int:
        """The fewest situations that take another action in B (half the counts' total change)."""
        return sum(abs(self.b.get(k, 0) - self.a.get(k, 0)) for k in set(self.a) | set(self.b)) // 2

    def to_dict(self) -> StrategyCellJSON:
        def shares(c: dict[str, int]) -> dict[str, Exact]:
            return {k: exact(Fraction(n, self.situations)) for k, n in sorted(c.items(), key=lambda x: (-x[1], x[0]))}
        return {"hand_group": self.hand_group, "up_rank": self.up_rank, "situations": self.situations,
                "actions_a": shares(self.a), "actions_b": shares(self.b), "moved_at_least": self.moved_at_least}


@dataclass(frozen=True)
class StrategyChanges:
    """Two tables' strategy charts (by hand group and up-card rank) compared: the cells that change."""

    cells_compared: int
    situations: int
    cells: tuple[StrategyCell, ...]

    @property
    def moved_at_least(self) -> int:
        return sum(c.moved_at_least for c in self.cells)

    def to_dict(self) -> StrategyChangesJSON:
        return {"cells_compared": self.cells_compared, "situations": self.situations,
                "moved_at_least": self.moved_at_least, "cells": [c.to_dict() for c in self.cells]}


def _chart_counts(a: GameAnalysis) -> dict[tuple[str, str], tuple[int, dict[str, int]]] | None:
    """A table's strategy chart as counts: (hand group, up rank) -> (situations, action -> situations)."""
    if a.draws is None or not a.draws.strategy:
        return None
    out: dict[tuple[str, str], tuple[int, dict[str, int]]] = {}
    for row in a.draws.strategy:
        n = row["situations"]
        counts = {}
        for label, share in row["actions"].items():
            c = Fraction(share["exact"]) * n
            if c.denominator != 1:
                raise AssertionError("a strategy chart's share is not a whole number of situations")
            counts[label] = int(c)
        out[(row["hand_group"], row["up_rank"])] = (n, counts)
    return out


def strategy_changes(a: GameAnalysis, b: GameAnalysis) -> StrategyChanges | None:
    """The cells of A's and B's strategy charts whose actions' counts differ (the cells where the
    one chart has situations the other lacks are not compared), the most moved first; None unless
    both tables keep a chart (tables with draws)."""
    ca, cb = _chart_counts(a), _chart_counts(b)
    if ca is None or cb is None:
        return None
    both = [k for k in ca if k in cb and ca[k][0] == cb[k][0]]
    cells = [StrategyCell(g, r, ca[(g, r)][0], ca[(g, r)][1], cb[(g, r)][1]) for g, r in both
             if {k: v for k, v in ca[(g, r)][1].items() if v} != {k: v for k, v in cb[(g, r)][1].items() if v}]
    cells.sort(key=lambda c: -c.moved_at_least)            # stable: the charts' order among equals
    return StrategyChanges(len(both), sum(ca[k][0] for k in both), tuple(cells))


#: The headline figures a diff compares, as (JSON key, GameAnalysis attribute).
DIFF_FIGURES = (("house_edge_per_ante", "house_edge"), ("element_of_risk_per_total_wager", "element_of_risk"),
                ("rtp_per_ante", "rtp_per_ante"), ("rtp_per_total_wagered", "rtp_per_total_wagered"),
                ("expected_return_per_ante", "expected_return"), ("raise_probability", "raise_probability"),
                ("hit_frequency", "hit_frequency"), ("variance_antes_squared", "variance"),
                ("total_loss_antes", "total_loss"))


@tabular("return_table", 'return-table rows')
@dataclass(frozen=True)
class VariantDiff:
    """What changes from variant A to variant B: figures, return tables and flipped actions."""

    a: GameAnalysis
    b: GameAnalysis
    #: the situations whose raise of the dealt hand flips; None when a table keeps no decision per
    #: situation (a Russian Poker table with draws: its ``strategy`` chart is compared instead)
    flips: Flips | None
    #: how the two tables are named in print: their names, or, when both have one name, the
    #: name and where each came from ("us-common (built-in)", "us-common (my/us-common.toml)")
    labels: tuple[str, str] | None = None
    #: the strategy charts compared cell by cell, when both tables have draws
    strategy: StrategyChanges | None = None

    @property
    def label_a(self) -> str:
        return self.labels[0] if self.labels else self.a.variant.name

    @property
    def label_b(self) -> str:
        return self.labels[1] if self.labels else self.b.variant.name

    def rule_changes(self) -> list[RuleChange]:
        """The rules that differ from A to B (name and description are not rules)."""
        return rule_changes(self.a.variant.to_dict(), self.b.variant.to_dict())

    def side_bet_edges(self) -> list[tuple[str, Fraction | None, Fraction | None]]:
        """(name, house edge in A, in B) of every side bet of either variant (None where a
        variant lacks it), then ``"combined game"`` with the edge per total wagered."""
        def edges(a: GameAnalysis) -> dict[str, Fraction]:
            if a.side_bets is None:
                return {}
            out = {b.bet.name: b.house_edge for b in a.side_bets.bets}
            out["combined game"] = a.side_bets.combined.house_edge_per_total_wager
            return out
        ea, eb = edges(self.a), edges(self.b)
        names = [n for n in ea if n != "combined game"] + [n for n in eb if n not in ea and n != "combined game"]
        if ea or eb:
            names.append("combined game")
        return [(n, ea.get(n), eb.get(n)) for n in names]

    def to_dict(self) -> DiffJSON:
        """kind "diff": what ``studodds diff --json`` prints."""
        bets = self.side_bet_edges()
        rows_a = {r.outcome: r for r in self.a.rows}
        rows_b = {r.outcome: r for r in self.b.rows}
        outcomes = list(rows_a) + [o for o in rows_b if o not in rows_a]
        zero = Fraction(0)
        table: list[DiffRowJSON] = []
        for o in outcomes:
            ra, rb = rows_a.get(o), rows_b.get(o)
            table.append({"outcome": o, "label": (ra or rb).event,  # type: ignore[union-attr]
                          "a": ra.to_dict() if ra else None, "b": rb.to_dict() if rb else None,
                          "delta_return_per_ante": exact((rb.contribution if rb else zero)
                                                         - (ra.contribution if ra else zero))})
        out: DiffJSON = {
            "kind": "diff",
            "a": self.a.variant.to_dict(),
            "b": self.b.variant.to_dict(),
            "rule_changes": [c.to_dict() for c in self.rule_changes()],
            "figures": {key: {"a": exact(getattr(self.a, attr)), "b": exact(getattr(self.b, attr)),
                              "delta": exact(getattr(self.b, attr) - getattr(self.a, attr))}
                        for key, attr in DIFF_FIGURES},
            "standard_deviation_antes": {"a": self.a.standard_deviation, "b": self.b.standard_deviation},
            "return_table": table,
            "action_flips": self.flips.to_dict() if self.flips is not None else None,
            "player_has_edge": {"a": player_has_edge(self.a.house_edge), "b": player_has_edge(self.b.house_edge)},
        }
        if self.strategy is not None:
            out["strategy_changes"] = self.strategy.to_dict()
        if bets:
            out["side_bets"] = [{"name": n, "house_edge_a": exact_or_none(x), "house_edge_b": exact_or_none(y),
                                 "delta": None if x is None or y is None else exact(y - x)} for n, x, y in bets]
        return out
