"""The certified math report of a variant, in Markdown (``report.md``)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from enumerate.analysis import Analysis
from enumerate.progressive.figures import ProgressiveReport
from enumerate.strategies import StrategyResult
from evaluator.ranking import Category
from studodds.reports.progressive import text as progressive_text
from studodds.reports.text import pays_text


def report_md(a: Analysis, provenance: dict[str, Any], simple: Sequence[StrategyResult] = (),
              side: ProgressiveReport | None = None) -> str:
    """The certified math report of a variant (``report.md``)."""
    v = a.variant
    prov = provenance
    lines = [f"# Caribbean Stud Poker: {v.name}", "", v.description or "", ""]
    warnings = a.warnings()
    if warnings:
        lines += ["## Warnings", "", "The figures below are exact for these rules, but the rules look unusual:", ""]
        lines += [f"- **{w}**" for w in warnings]
        lines.append("")
    lines += ["## Rules and paytable", "",
              "- One 52-card deck; player and dealer receive five cards, the dealer's fifth face up.",
              "- The player folds (losing the ante) or raises exactly twice the ante."]
    if v.qualifier.always_qualifies:
        lines.append("- Dealer qualifier: none: the dealer always qualifies (no ante-only pay).")
    else:
        lines += [f"- Dealer qualifier: {v.qualifier.label} (threshold hand strength {v.qualifier.threshold} of 0..7461).",
                  f"- Dealer does not qualify: ante pays {pays_text(v.ante_no_qualify)} to 1, raise is returned."]
    lines += [f"- Player beats a qualifying dealer: ante pays {pays_text(v.ante_win)} to 1, raise pays:", "",
             "| hand | raise pays (to 1) |", "|---|---:|"]
    for c in sorted(v.raise_pays, reverse=True):
        if c == Category.ROYAL_FLUSH and not v.royal_separate:
            continue
        label = "straight flush (royal included)" if c == Category.STRAIGHT_FLUSH and not v.royal_separate else c.label
        lines.append(f"| {label} | {pays_text(v.pay(c))} |")
    lines += ["", "- Equal hands push; a higher dealer hand takes ante and raise.",
              "- Strategy: optimal, raise iff EV(raise) > EV(fold) = -1 ante, for each of the "
              "122,151,120 (player hand, up card) situations.", ""]
    if side is not None and v.progressive is not None:
        p = v.progressive
        lines += ["Progressive side bet: " + ", ".join(f"{c.label} {p.pay_text(c)}" for c in sorted(p.pays, reverse=True)) +
                  f"; meter contribution {p.contribution}; seed {p.seed}; fold forfeits: "
                  f"{p.fold_forfeits} (see the section below).", ""]
    lines += ["## Return table", "",
              "Net result: what the hand wins (+) or loses (-), ante and raise together, in antes; a win with "
              "a raise pay of X to 1 nets ante pay + 2X (a full house at 7 to 1: 1 + 14 = 15).", "",
              "| outcome | net result (antes) | combinations | probability | return |", "|---|---:|---:|---:|---:|"]
    for r in a.rows:
        lines.append(f"| {r.event} | {pays_text(r.pays)} | {r.combinations:,} | {float(r.probability):.10f} | "
                     f"{float(r.contribution):.10f} |")
    lines.append(f"| **total** | | {a.total_combinations:,} | 1.0000000000 | {float(a.expected_return):.10f} |")
    fig = [("House edge (per ante)", f"{float(a.house_edge):.6%}", str(a.house_edge)),
           ("Element of risk (per total wagered)", f"{float(a.element_of_risk):.6%}", str(a.element_of_risk)),
           ("Total loss over all combinations (antes)", f"{float(a.total_loss):,.0f}" if a.total_loss.denominator == 1
            else f"{float(a.total_loss):,.4f}", str(a.total_loss)),
           ("Standard deviation (antes)", f"{a.standard_deviation:.6f}", f"sqrt({a.variance})"),
           ("Average total wager (antes)", f"{float(a.average_wager):.6f}", str(a.average_wager)),
           ("Hit frequency", f"{float(a.hit_frequency):.6%}", str(a.hit_frequency)),
           ("Probability of raising", f"{float(a.raise_probability):.6%}", str(a.raise_probability)),
           ("Dealer qualifies", f"{float(a.dealer_qualifies):.6%}", str(a.dealer_qualifies))]
    lines += ["", "## Figures", "", "| figure | value | exact |", "|---|---:|---|"]
    lines += [f"| {name} | {val} | `{ex}` |" for name, val, ex in fig]
    lines += ["", "## Strategy statistics", "", "| player hand | situations raised | of | share |", "|---|---:|---:|---:|"]
    for c, (raised, total) in sorted(a.raise_by_category.items(), reverse=True):
        share = raised / total if total else 0
        lines.append(f"| {c.label} | {raised:,} | {total:,} | {share:.4%} |")
    if simple:
        lines += ["", "## Simple strategies (exact)", "", "| strategy | house edge | element of risk | cost vs optimal |",
                  "|---|---:|---:|---:|"]
        for s in simple:
            lines.append(f"| {s.name} | {float(s.analysis.house_edge):.6%} | "
                         f"{float(s.analysis.element_of_risk):.6%} | {float(s.cost):.6%} |")
        lines += ["", "The optimal strategy in readable form: strategy.md; every cell: strategy.csv."]
    if side is not None:
        lines += ["", "## Progressive side bet", "", "```", progressive_text(a.variant.name, side.figures, side.combined), "```"]
    lines += ["", f"Situations where raising and folding are worth exactly the same: {a.indifferent_situations:,}.",
              "", "## Provenance", "",
              f"- Tool: studodds {prov['tool_version']}, engine version {prov['engine_version']}",
              f"- Evaluator ordering SHA-256: `{prov['evaluator_ordering_sha256']}`",
              f"- Variant file SHA-256: `{prov['variant_file_sha256']}` ({prov['variant_origin']})",
              f"- Combinations enumerated: {prov['total_combinations']:,} "
              "(2,598,960 player hands x 47 up cards x 163,185 dealer hole-card sets)"]
    checks = prov["self_checks"]
    lines += [f"- Self-check: return table rows sum to the total: {'passed' if checks['return_table_rows_sum_to_total'] else 'FAILED'}",
              f"- Self-check: probabilities sum to one: {'passed' if checks['probabilities_sum_to_one'] else 'FAILED'}",
              f"- Self-check: {checks['brute_force_spot_checks_agree']} sampled situations agree with a brute-force "
              "enumeration of all 163,185 dealer completions: passed", ""]
    return "\n".join(lines)
