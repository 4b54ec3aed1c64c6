"""What a paytable change changes: headline figures, return tables, and the situations whose
optimal action flips."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NotRequired, TypedDict

import numpy as np

from enumerate.analysis.base import ReturnRowJSON
from enumerate.core.engine import CountTable
from enumerate.core.jsonform import exact, exact_or_none
from enumerate.core.shapes import CategoryKey, Count, Exact, ExactOrNull, shape
from enumerate.core.tabular import tabular
from enumerate.game.analysis import GameAnalysis
from enumerate.game.kinds import diff_kind
from enumerate.rules.compare import RuleChange, RuleChangeJSON, rule_changes
from enumerate.rules.variant import Variant, VariantJSON
from evaluator.cards import RANKS
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category


class FlipCellJSON(TypedDict):
    """The situations of one player category and up-card rank whose action flips."""

    category: CategoryKey
    up_rank: str
    raise_to_fold: Count
    fold_to_raise: Count


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
    action_flips: FlipsJSON
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


def flips(counts_a: CountTable, a: Variant, counts_b: CountTable, b: Variant, threads: int = 1) -> Flips:
    """Per player category and up-card rank, the situations where optimal play raises the dealt
    hand under one variant and not the other (each kind of table says what it raises)."""
    threads = threads
    ra, rb = diff_kind(a).raises_dealt_hand(counts_a, a, threads), diff_kind(b).raises_dealt_hand(counts_b, b, threads)
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
    flips: Flips
    #: how the two tables are named in print: their names, or, when both have one name, the
    #: name and where each came from ("us-common (built-in)", "us-common (my/us-common.toml)")
    labels: tuple[str, str] | None = None

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
            "action_flips": self.flips.to_dict(),
        }
        if bets:
            out["side_bets"] = [{"name": n, "house_edge_a": exact_or_none(x), "house_edge_b": exact_or_none(y),
                                 "delta": None if x is None or y is None else exact(y - x)} for n, x, y in bets]
        return out
