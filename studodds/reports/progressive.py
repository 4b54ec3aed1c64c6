"""The progressive side bet as text (the ``progressive`` command and certified reports)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from enumerate.progressive import analysis as sb
from enumerate.progressive.analysis import Combined
from enumerate.progressive.figures import ProgressiveFiguresJSON, ProgressiveReport
from evaluator.ranking import Category


def _label(key: str) -> str:
    return Category.from_key(key).label


def report_text(r: ProgressiveReport) -> str:
    """What ``studodds progressive`` prints."""
    return text(r.variant, r.figures, r.combined)


def text(name: str, data: ProgressiveFiguresJSON, combined: Combined | None = None) -> str:
    """The side bet's figures (:func:`enumerate.progressive.figures.figures`) as text."""
    def v(x: Mapping[str, Any] | None, fmt: str = "{:,.6f}") -> str:
        return "-" if x is None else fmt.format(x["value"])

    rules = data["rules"]
    lines = [f"Progressive side bet: {name} (per unit side wager; meter in wager units)",
             "Pays: " + ", ".join(f"{_label(h['category'])} {h['pays']}" for h in data["hits"]) +
             f"; contribution {rules['contribution']['exact']}, seed {rules['seed']['exact']}, "
             f"fold forfeits: {rules['fold_forfeits']}",
             "", f"{'hand':<16} {'combinations':>12} {'probability':>14}  pays"]
    for h in data["hits"]:
        lines.append(f"{_label(h['category']):<16} {h['combinations']:>12,} {h['probability']['value']:>14.10f}  {h['pays']}")
    be = data["break_even_meter"]
    lines += ["", f"Break-even meter: {v(be, '{:,.2f}')}" + (f"  (exact {be['exact']})" if be else ""), "",
              f"{'meter':>14} {'net return':>12}"]
    for row in data["return_curve"]:
        lines.append(f"{row['meter']['value']:>14,.2f} {row['net_return_per_wager']['value']:>+12.6%}")
    lr = data["long_run"]
    sim = lr["return_to_player_simulated"]
    rtp_line = (f"  return to player {v(lr['return_to_player'], '{:.6%}')}, house retention {v(lr['house_retention'], '{:.6%}')}"
                if sim is None else
                f"  return to player {sim['estimate']:.4%} (SIMULATED, 95% confidence interval {sim['ci95_low']:.4%} to "
                f"{sim['ci95_high']:.4%}; {sim['method']}; no exact formula with a capped meter pay)")
    lines += ["", "Long run (renewal over jackpot cycles):", rtp_line,
              f"  wagers per cycle {v(lr['cycle_wagers'], '{:,.1f}')}, expected meter at the royal {v(lr['meter_at_royal'], '{:,.2f}')}, "
              f"mean meter {v(lr['mean_meter'], '{:,.2f}')}",
              "  meter at the royal, quantiles" + ("" if lr["quantiles_exact"] else
                                                   f" (simulated, {sb.QUANTILE_CYCLES:,} seeded cycles)") + ": " +
              ", ".join(f"{q['quantile']['value']:.0%} {q['meter']['value']:,.0f}" for q in lr["meter_at_royal_quantiles"]),
              *([] if lr["royal_award_quantiles"] is None else [
                  "  royal award (cap applied), quantiles: " +
                  ", ".join(f"{q['quantile']['value']:.0%} {q['award']['value']:,.0f}" for q in lr["royal_award_quantiles"])]),
              "", f"Several players at one table (one deck), meter {v(data['sharing_meter'], '{:,.2f}')}:",
              f"{'players':>7} {'P(2+ meter hits)':>18} {'meter award/player':>19} {'return':>10} {'lowered by':>12}"]
    for s in data["sharing"]:
        lines.append(f"{s['players']:>7} {s['two_or_more_meter_hits']['value']:>18.3e} {s['meter_award_per_player']['value']:>19.8f} "
                     f"{s['return_to_player']['value']:>10.6%} {s['return_lowered_by']['value']:>12.3e}")
    if combined is not None:
        c = combined
        lines += ["", f"Combined game at meter {float(c.meter):,.2f}, side wager {c.side_wager} ante(s), strategy recomputed:",
                  f"  base {float(c.base_return):+.6f}, side {float(c.side_return):+.6f} antes per hand; "
                  f"average total wager {float(c.average_total_wager):.6f} antes",
                  f"  house edge per total wagered {float(c.house_edge_per_total):.6%} (exact {c.house_edge_per_total}); "
                  f"situations decided differently from the base game: {c.strategy_changes:,}"]
    return "\n".join(lines)
