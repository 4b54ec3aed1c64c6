"""The report parts of a table of two boxes: the round of both boxes, and the raise shares."""
from __future__ import annotations

from fractions import Fraction

from enumerate.game.analysis import GameAnalysis


def boxes_markdown(a: GameAnalysis) -> list[str]:
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
            "| figure | value | exact |", "|---|---:|---|", *[f"| {n} | {v} | `{e}` |" for n, v, e in rows], "",
            f"The same dealer hand meets both boxes, so their results are correlated: two independent boxes would "
            f"have a standard deviation of {b.independent_std_dev:.6f} antes a round. Counted exactly over every pair of hands, "
            "up card and hole-card set; the exact sums are in boxes_game.json, which `studodds check` reads back and "
            "verifies instead of recounting them."]


def boxes_strategy_markdown(a: GameAnalysis) -> str:
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


def boxes_strategy_csv(a: GameAnalysis) -> str:
    """strategy.csv of a table of two boxes: category, situations, raised, share (a decimal
    beside the exact fraction)."""
    lines = ["category,situations,raised_situations,raise_share,raise_share_exact"]
    for c, (raised, total) in sorted(a.raise_by_category.items(), reverse=True):
        share = Fraction(raised, total) if total else Fraction(0)
        lines.append(f"{c.key},{total},{raised},{float(share):.12f},{share}")
    return "\n".join(lines) + "\n"
