"""Two boxes in the reports (:class:`enumerate.analysis.sections.KindReport`): the figures of a
round of both boxes, the raise shares by category, and the method of the seen-hand rank-pattern
kernel counted as pairs (:mod:`enumerate.boxes.game`)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from enumerate.analysis.sections import Sections, Sheet, TextPart, figure_rows, provenance_lines


def boxes_markdown(a: Any) -> list[str]:
    """The "Two boxes" section of report.md: per box against one box played alone, and the
    spread of a round of both."""
    b = a.boxes
    assert b is not None
    rows = [("House edge per box (per ante)", f"{float(b.house_edge_per_box):.6%}", str(b.house_edge_per_box)),
            ("House edge of one box played alone", f"{float(b.house_edge_alone):.6%}", str(b.house_edge_alone)),
            ("Gain per box from seeing the other box (antes)", f"{float(b.gain_per_box):.6f}", str(b.gain_per_box)),
            ("Both boxes raise", f"{float(b.both_raise):.6%}", str(b.both_raise)),
            ("Covariance of the boxes' results (antes squared)", f"{float(b.covariance):.6f}", str(b.covariance)),
            ("Correlation of the boxes' results", f"{float(b.correlation):.6f}", str(b.correlation)),
            ("Variance of a round of both boxes (antes squared)", f"{float(b.round_variance):.6f}",
             str(b.round_variance)),
            ("Standard deviation of a round (antes)", f"{b.round_std_dev:.6f}", f"sqrt({b.round_variance})")]
    return ["## Two boxes", "",
            "One player plays two boxes against one dealer hand and decides each box seeing both boxes' cards and "
            "the up card. Each box's result depends on its own decision and the dealer's cards only, so the decisions "
            "do not depend on each other or on their order. The figures above are those of one box (one ante); a "
            "round of both boxes stakes two antes and loses twice the house edge per box.", "",
            *figure_rows(rows), "",
            f"The same dealer hand meets both boxes, so their results are correlated: two independent boxes would "
            f"have a standard deviation of {b.independent_std_dev:.6f} antes a round. Counted exactly over every pair of hands, "
            "up card and hole-card set; the exact sums are in boxes_game.json, which `studodds check` reads back and "
            "verifies instead of recounting them."]


def boxes_strategy_markdown(a: Any) -> str:
    """strategy.md of a table of two boxes: how often a box raises, by its category."""
    assert a.variant.boxes is not None
    lines = [f"# Optimal strategy: {a.variant.name}", "", f"Two boxes: {a.variant.boxes.text()}.", "",
             "A box raises when raising is worth more than folding against the dealer hands left once both boxes' "
             "cards and the up card are seen: the decision depends on all eleven cards, so it has no chart by hand "
             "and up card. How often each category of the box's hand raises, over every situation (both hands and "
             "the up card):", "", "| box's hand | situations raised | of | share |", "|---|---:|---:|---:|"]
    for c, (raised, total) in sorted(a.raise_by_category.items(), reverse=True):
        lines.append(f"| {c.label} | {raised:,} | {total:,} | {raised / total if total else 0:.4%} |")
    return "\n".join(lines) + "\n"


def boxes_strategy_csv(a: Any) -> str:
    """strategy.csv of a table of two boxes: category, situations, raised, share (a decimal
    beside the exact fraction)."""
    lines = ["category,situations,raised_situations,raise_share,raise_share_exact"]
    for c, (raised, total) in sorted(a.raise_by_category.items(), reverse=True):
        share = Fraction(raised, total) if total else Fraction(0)
        lines.append(f"{c.key},{total},{raised},{float(share):.12f},{share}")
    return "\n".join(lines) + "\n"


def _boxes_method(prov: Mapping[str, Any]) -> list[str]:
    """Method and provenance of a table of two boxes."""
    return ["## Method", "",
            "Exact, in integers, by rank patterns. A box's decision sees eleven cards, its own hand, the other box's and "
            "the up card; the dealer's four hole cards are any of the C(41, 4) = 101,270 sets of the cards left. The "
            "situations are grouped by the ranks of the box's hand and the up card; within a group, one sweep of the "
            "dealer's rank patterns in strength order gives, for every other box's hand, both boxes' dealer outcomes "
            "at once, each box decides by exact integer comparison of EV(raise) and EV(fold), and the sums take each "
            "box's outcomes, the value of the normal decisions on the same deals, and the product of the two boxes' "
            "results (their joint outcomes are the overlaps of runs in one dealer order). Checked on every run: the "
            "normal decisions' value equals the one-box game counted by the count table, the return table gives the "
            "value, and the second box's value and second moment equal the first box's; sampled pairs of hands are "
            "compared in the tests with a brute-force enumeration of every dealer completion.",
            "", *provenance_lines(prov, f"Combinations per box: {prov['total_combinations']:,} (both boxes' hands, up card "
                                   "and dealer hole-card sets)", "the one-box game")]


class BoxesReport(Sections):
    """What a table of two boxes says in the reports."""

    def rules(self, variant: Any) -> list[str]:
        return [f"- Two boxes: {variant.boxes.text()}; each box has its own ante and is settled by the rules above.",
                "- Strategy: optimal for each box: raise iff EV(raise) > EV(fold) = -1 ante against the dealer hands "
                f"left once both boxes' cards and the up card are seen, in each of the "
                f"{math.comb(52, 5) * math.comb(47, 5) * 42:,} situations (box's hand, other box's hand, up card).", ""]

    def closing(self, a: Any, prov: Mapping[str, Any]) -> list[str]:
        return boxes_markdown(a) + [""] + _boxes_method(prov)

    def text(self, a: Any) -> list[TextPart]:
        b = a.boxes
        return ["", "Two boxes (the figures above are one box's; each box decided seeing both hands):",
                f"House edge per box          {float(b.house_edge_per_box):.6%}   one box played alone "
                f"{float(b.house_edge_alone):.6%}; seeing the other box gains {float(b.gain_per_box):.6f} antes a box",
                f"Both boxes raise            {float(b.both_raise):.6%}",
                f"Correlation of the boxes    {float(b.correlation):.6f}   covariance {float(b.covariance):.6f} antes^2",
                f"SD of a round of both       {b.round_std_dev:.6f} antes   (two independent boxes: "
                f"{b.independent_std_dev:.6f})"]

    def strategy_files(self, a: Any) -> dict[str, str]:
        return {"strategy.md": boxes_strategy_markdown(a), "strategy.csv": boxes_strategy_csv(a)}

    def workbook(self, analysis: Mapping[str, Any]) -> list[Sheet]:
        boxes = analysis.get("boxes")
        if not boxes:
            return []
        rows: list[list[Any]] = []
        for key, value in boxes.items():
            if isinstance(value, dict):
                rows.append([key.replace("_", " "), value["value"], value["exact"]])
            elif isinstance(value, float):
                rows.append([key.replace("_", " "), value, None])
        return [("Two boxes", ["figure (one player, two boxes, each decided seeing both hands)", "value", "exact"], rows)]


BOXES_REPORT = BoxesReport()
