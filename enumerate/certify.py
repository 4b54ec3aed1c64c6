"""Certified odds tables: per variant, ``summary.json``, ``return_table.csv``, ``report.md`` and
the ``variant.toml`` they were made from, written atomically into ``<out>/<variant>/``; and the
regression check that recomputes them.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, replace
from pathlib import Path
from fractions import Fraction
from typing import Any

from enumerate import __version__
from enumerate.analysis import Analysis
from enumerate.cache import atomic_write_text
from enumerate.counts import evaluator_fingerprint
from enumerate.engine import ENGINE_VERSION
from enumerate.report import analysis_dict, pays_text
from enumerate.variant_file import VariantSource, load_variant_file
from evaluator.ranking import Category

FILES = ("summary.json", "return_table.csv", "strategy.md", "strategy.csv", "report.md", "variant.toml")
SPOT_CHECKS = 8


def summary(a: Analysis, source: VariantSource, spot_checks: int) -> dict[str, Any]:
    """Everything certified about a variant, exact values as fraction strings."""
    data = analysis_dict(a)
    data["strategy"] = {
        c.label: {"raised_situations": raised, "situations": total,
                  "raise_share": f"{raised}/{total}" if total else "0"}
        for c, (raised, total) in sorted(a.raise_by_category.items(), reverse=True)
    }
    if a.variant.side_bet is not None:
        from enumerate.sidebet_report import figures
        data["progressive_side_bet"] = figures(a.variant.side_bet)
    data["provenance"] = {
        "tool": "studodds", "tool_version": __version__, "engine_version": ENGINE_VERSION,
        "evaluator_ordering_sha256": evaluator_fingerprint(),
        "variant_file_sha256": source.sha256, "variant_origin": source.origin,
        "total_combinations": a.total_combinations,
        "self_checks": {
            "return_table_rows_sum_to_total": sum(r.combinations for r in a.rows) == a.total_combinations,
            "probabilities_sum_to_one": sum(r.probability for r in a.rows) == 1,
            "brute_force_spot_checks_agree": spot_checks,
        },
    }
    return data


def return_table_csv(a: Analysis) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["event", "pays", "combinations", "probability", "return", "probability_exact", "return_exact"])
    for r in a.rows:
        w.writerow([r.event, pays_text(r.pays), r.combinations, f"{float(r.probability):.12f}",
                    f"{float(r.contribution):.12f}", str(r.probability), str(r.contribution)])
    w.writerow(["total", "", a.total_combinations, "1.000000000000", f"{float(a.expected_return):.12f}",
                "1", str(a.expected_return)])
    return buf.getvalue()


def report_md(a: Analysis, data: dict[str, Any], combined=None) -> str:
    """A lab-style math report."""
    v = a.variant
    prov = data["provenance"]
    lines = [f"# Caribbean Stud Poker: {v.name}", "", v.description or "", "",
             "## Rules and paytable", "",
             "- One 52-card deck; player and dealer receive five cards, the dealer's fifth face up.",
             "- The player folds (losing the ante) or raises exactly twice the ante.",
             f"- Dealer qualifier: {v.qualifier.label} (threshold hand strength {v.qualifier.threshold} of 0..7461).",
             f"- Dealer does not qualify: ante pays {pays_text(v.ante_no_qualify)} to 1, raise is returned.",
             f"- Player beats a qualifying dealer: ante pays {pays_text(v.ante_win)} to 1, raise pays:", "",
             "| hand | raise pays (to 1) |", "|---|---:|"]
    for c in sorted(v.raise_pays, reverse=True):
        if c == Category.ROYAL_FLUSH and not v.royal_separate:
            continue
        label = "straight flush (royal included)" if c == Category.STRAIGHT_FLUSH and not v.royal_separate else c.label
        lines.append(f"| {label} | {pays_text(v.pay(c))} |")
    lines += ["", "- Equal hands push; a higher dealer hand takes ante and raise.",
              "- Strategy: optimal, raise iff EV(raise) > EV(fold) = -1 ante, for each of the "
              "122,151,120 (player hand, up card) situations.", ""]
    if "progressive_side_bet" in data:
        side = data["progressive_side_bet"]
        lines += ["Progressive side bet: " + ", ".join(f"{k} {p}" for k, p in side["pays"].items()) +
                  f"; meter contribution {side['contribution']}; seed {side['seed']}; fold forfeits: "
                  f"{side['fold_forfeits']} (see the section below).", ""]
    lines += ["## Return table", "",
              "| event | pays | combinations | probability | return |", "|---|---:|---:|---:|---:|"]
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
    for label, s in data["strategy"].items():
        share = s["raised_situations"] / s["situations"] if s["situations"] else 0
        lines.append(f"| {label} | {s['raised_situations']:,} | {s['situations']:,} | {share:.4%} |")
    if "simple_strategies" in data:
        lines += ["", "## Simple strategies (exact)", "", "| strategy | house edge | element of risk | cost vs optimal |",
                  "|---|---:|---:|---:|"]
        for name, s in data["simple_strategies"].items():
            lines.append(f"| {name} | {float(Fraction(s['house_edge_per_ante'])):.6%} | "
                         f"{float(Fraction(s['element_of_risk'])):.6%} | {float(Fraction(s['cost_vs_optimal_per_ante'])):.6%} |")
        lines += ["", "The optimal strategy in readable form: strategy.md; every cell: strategy.csv."]
    if "progressive_side_bet" in data:
        from enumerate.sidebet_report import text as side_text
        lines += ["", "## Progressive side bet", "", "```", side_text(a.variant.name, data["progressive_side_bet"], combined), "```"]
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


def render(source: VariantSource, spot_checks: int, table, index=None) -> dict[str, str]:
    """The files of a certified table, as text (``index``: see strategies.evaluate)."""
    from enumerate import strategies
    simple, chart = strategies.evaluate(table, source.variant, strategies.simple_strategies(), index)
    a = simple[0].analysis
    data = summary(a, source, spot_checks)
    combined = None
    if source.variant.side_bet is not None:
        from enumerate import sidebet
        side = source.variant.side_bet
        at = sidebet.break_even_meter(side)
        combined = sidebet.combined(table, source.variant, at if at is not None else side.seed)
        data["progressive_side_bet"]["combined_game"] = {
            "meter": str(combined.meter), "side_wager_antes": str(combined.side_wager),
            "base_return_per_hand": str(combined.base_return), "side_return_per_hand": str(combined.side_return),
            "average_total_wager": str(combined.average_total_wager),
            "house_edge_per_total_wager": {"exact": str(combined.house_edge_per_total),
                                           "value": float(combined.house_edge_per_total)},
            "situations_decided_differently": combined.strategy_changes}
    data["simple_strategies"] = {
        r.name: {"total_loss_antes": str(r.analysis.total_loss), "house_edge_per_ante": str(r.analysis.house_edge),
                 "element_of_risk": str(r.analysis.element_of_risk), "cost_vs_optimal_per_ante": str(r.cost)}
        for r in simple[1:]
    }
    return {
        "summary.json": json.dumps(data, indent=2) + "\n",
        "return_table.csv": return_table_csv(a),
        "strategy.md": strategies.strategy_markdown(chart, a.variant),
        "strategy.csv": strategies.strategy_csv(chart),
        "report.md": report_md(a, data, combined),
        "variant.toml": source.text,
    }


#: From this many variants sharing a count table and ante pays on, a batch builds a
#: ThresholdIndex (about 0.8 s) instead of running the one-pass kernel for each.
INDEX_FROM = 8


def indexes_for(sources: list[VariantSource], table) -> dict:
    """ThresholdIndex per ante-pay pair used by at least INDEX_FROM of the sources."""
    from collections import Counter
    from enumerate.threshold_index import ThresholdIndex
    uses = Counter((s.variant.ante_no_qualify, s.variant.ante_win) for s in sources)
    return {k: ThresholdIndex(table, *k) for k, n in uses.items() if n >= INDEX_FROM}


def write(out: Path, files: dict[str, str], name: str) -> Path:
    from enumerate.cache import remove_stale_temporaries
    folder = Path(out) / name
    remove_stale_temporaries(folder)
    for fname in FILES:                       # variant.toml last: it marks a complete table
        atomic_write_text(folder / fname, files[fname])
    return folder


@dataclass
class Difference:
    file: str
    figure: str
    old: Any
    new: Any


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            key = v.get("event", str(i)) if isinstance(v, dict) else str(i)
            _flatten(f"{prefix}[{key}]", v, out)
    else:
        out[prefix] = value


IGNORED = {"provenance.tool_version"}


def compare(folder: Path, fresh: dict[str, str]) -> list[Difference]:
    """Differences between committed files in ``folder`` and freshly rendered ones: every
    value of summary.json (except the tool version) and the other files line by line."""
    diffs: list[Difference] = []
    try:
        old = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [Difference("summary.json", "(file)", f"unreadable: {exc}", "recomputed")]
    a, b = {}, {}
    _flatten("", old, a)
    _flatten("", json.loads(fresh["summary.json"]), b)
    for key in sorted(set(a) | set(b)):
        if key not in IGNORED and a.get(key, "(missing)") != b.get(key, "(missing)"):
            diffs.append(Difference("summary.json", key, a.get(key, "(missing)"), b.get(key, "(missing)")))
    for fname in ("return_table.csv", "strategy.md", "strategy.csv", "report.md"):
        try:
            old_lines = (folder / fname).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            diffs.append(Difference(fname, "(file)", f"unreadable: {exc.strerror}", "recomputed"))
            continue
        new_lines = fresh[fname].splitlines()
        for i in range(max(len(old_lines), len(new_lines))):
            o = old_lines[i] if i < len(old_lines) else "(missing)"
            n = new_lines[i] if i < len(new_lines) else "(missing)"
            if o != n and not (fname == "report.md" and o.startswith("- Tool: studodds") and n.startswith("- Tool: studodds")):
                diffs.append(Difference(fname, f"line {i + 1}", o, n))
    return diffs


def committed_source(folder: Path) -> VariantSource:
    """The variant a committed table was made from (its own variant.toml copy), under the
    origin its provenance records."""
    origin = json.loads((folder / "summary.json").read_text(encoding="utf-8"))["provenance"]["variant_origin"]
    return replace(load_variant_file(folder / "variant.toml"), origin=origin)
