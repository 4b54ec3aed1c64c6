"""Figures only some rule variants have, on top of the base analysis.

* A maximum payout cuts a pay once ``ante * (ante pay + r * pay)`` exceeds the cap, so the house
  edge depends on the ante size.  For every ante at which one more pay starts to be cut (the
  largest ante at which it is still paid in full) the game is re-analysed with the capped pays,
  optimal strategy recomputed (:class:`CapRow`).
* A raised hand left face down and settled as a loss (:class:`RuleVariantFigures`
  ``face_down_cost``): optimal play turns every raised hand over, so the edge does not move; the
  figure is what each raised hand left face down loses against settling it, the mean net result
  of a raised hand plus the ``1 + r`` antes it forfeits.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Annotated, NotRequired, TypedDict

from enumerate.analysis.base import Analysis, analysis_from_stats, raw_statistics
from enumerate.core.engine import CountTable
from enumerate.core.jsonform import exact
from enumerate.core.shapes import Exact, MinItems, shape
from enumerate.rules.variant import PAY_CATEGORIES, Variant
from evaluator.ranking import Category


class CapRowJSON(TypedDict):
    """The edge at one ante size under a maximum payout."""

    ante: Exact
    cap_antes: Exact
    capped_categories: list[str]
    house_edge_per_ante: Exact
    element_of_risk_per_total_wager: Exact


class FaceDownHandJSON(TypedDict):
    """What a raised hand left face down costs."""

    settled_as: str
    cost_per_raised_hand_left_face_down_antes: Exact
    note: str


@shape("rule_variants")
class RuleVariantsJSON(TypedDict):
    """The JSON of the figures of the rule variants."""

    max_payout_by_ante: NotRequired[Annotated[list[CapRowJSON], MinItems(1)]]
    face_down_hand: NotRequired[FaceDownHandJSON]


@dataclass(frozen=True)
class CapRow:
    """The game at one ante size under a maximum payout: the cap in antes, the categories it
    cuts, and the exact edge (optimal strategy recomputed for the capped pays)."""

    ante: Fraction
    cap_antes: Fraction
    capped: tuple[Category, ...]
    house_edge: Fraction
    element_of_risk: Fraction

    def to_dict(self) -> CapRowJSON:
        return {"ante": exact(self.ante), "cap_antes": exact(self.cap_antes),
                "capped_categories": [c.key for c in self.capped], "house_edge_per_ante": exact(self.house_edge),
                "element_of_risk_per_total_wager": exact(self.element_of_risk)}


@dataclass(frozen=True)
class RuleVariantFigures:
    """Figures only some rule variants have: the edge by ante size under a maximum payout, and
    what a raised hand left face down costs when it is settled as a loss."""

    by_ante: tuple[CapRow, ...] = ()
    face_down_cost: Fraction | None = None     # antes lost per raised hand left face down

    def to_dict(self) -> RuleVariantsJSON:
        out: RuleVariantsJSON = {}
        if self.by_ante:
            out["max_payout_by_ante"] = [r.to_dict() for r in self.by_ante]
        if self.face_down_cost is not None:
            out["face_down_hand"] = {
                "settled_as": "loss of ante and raise",
                "cost_per_raised_hand_left_face_down_antes": exact(self.face_down_cost),
                "note": "optimal play turns every raised hand over, so the rule does not change the house "
                        "edge; the cost is what each raised hand left face down loses against settling it"}
        return out


def rule_variant_figures(counts: CountTable, variant: Variant, a: Analysis,
                         threads: int = 1) -> RuleVariantFigures | None:
    """The edge at every ante size where a maximum payout starts to cut a pay, and the cost of a
    raised hand left face down (see :class:`RuleVariantFigures`); None for neither rule."""
    if variant.max_payout is None and not variant.face_down_loses:
        return None
    cost = None
    if variant.face_down_loses:
        raised = Fraction(a.raised_situations, counts.n_situations)
        played = sum((r.contribution for r in a.rows if r.outcome != "fold"), Fraction(0))
        cost = played / raised + 1 + variant.raise_antes if raised else Fraction(0)
    rows: list[CapRow] = []
    cap = variant.max_payout
    if cap is not None:
        for ante in variant.cap_antes():
            at = replace(cap, ante=ante)
            v = replace(variant, max_payout=at, side_bets=())
            b = a if ante == cap.ante else analysis_from_stats(
                counts, v, raw_statistics(counts, v, [], with_chart=False, threads=threads)[0][0])
            capped = tuple(c for c in PAY_CATEGORIES if v.pay(c) < v.posted_pay(c))
            rows.append(CapRow(ante, at.antes, capped, b.house_edge, b.element_of_risk))
    return RuleVariantFigures(tuple(rows), cost)
