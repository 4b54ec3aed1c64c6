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
    carried = ""
    if "reserve" in rules:
        carried += f", reserve {rules['reserve']['exact']}"
    if "ceiling" in rules:
        carried += f", ceiling {rules['ceiling']['exact']} (overflow {rules['overflow']})"
    lines = [f"Progressive side bet: {name} (per unit side wager; meter in wager units)",
             "Pays: " + ", ".join(f"{_label(h['category'])} {h['pays']}" for h in data["hits"]) +
             f"; contribution {rules['contribution']['exact']}, seed {rules['seed']['exact']}{carried}, "
             f"fold forfeits: {rules['fold_forfeits']}",
             "", f"{'hand':<16} {'combinations':>12} {'probability':>14} {'odds':>16}  pays"]
    for h in data["hits"]:
        lines.append(f"{_label(h['category']):<16} {h['combinations']:>12,} {h['probability']['value']:>14.10f} "
                     f"{'1 in ' + format(h['one_in']['value'], ',.0f'):>16}  {h['pays']}")
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
                f"{sim['ci95_high']:.4%}; {sim['method']}; no exact formula "
                f"{'for this reserve, ceiling and overflow' if 'reserve' in rules or 'ceiling' in rules else 'with a capped meter pay'})")
    lines += ["", "Long run (renewal over jackpot cycles):", rtp_line,
              f"  wagers per cycle {v(lr['cycle_wagers'], '{:,.1f}')}, expected meter at the royal {v(lr['meter_at_royal'], '{:,.2f}')}, "
              f"mean meter {v(lr['mean_meter'], '{:,.2f}')}",
              "  meter at the royal, quantiles" + ("" if lr["quantiles_exact"] else
                                                   f" (simulated, {sb.QUANTILE_CYCLES:,} seeded cycles)") + ": " +
              ", ".join(f"{q['quantile']['value']:.0%} {q['meter']['value']:,.0f}" for q in lr["meter_at_royal_quantiles"]),
              *([] if lr["royal_award_quantiles"] is None else [
                  "  royal award (cap applied), quantiles: " +
                  ", ".join(f"{q['quantile']['value']:.0%} {q['award']['value']:,.0f}" for q in lr["royal_award_quantiles"])]),
              "", *regulatory_lines(data),
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
                  f"  RTP split: base game {float(1 + c.base_return):.6%} per ante, progressive at this meter "
                  f"{float(1 + c.side_return / c.side_wager):.6%} per side wager",
                  f"  house edge per total wagered {float(c.house_edge_per_total):.6%} (exact {c.house_edge_per_total}); "
                  f"situations decided differently from the base game: {c.strategy_changes:,}"]
    return "\n".join(lines)


def regulatory_lines(data: ProgressiveFiguresJSON) -> list[str]:
    """The side bet in regulators' terms: the long-run return split into fixed and jackpot
    awards, the increment, reserve, seed and ceiling, and every award against the odds cap."""
    reg, lr, rules = data["regulatory"], data["long_run"], data["rules"]
    rtp, sim = lr["return_to_player"], lr["return_to_player_simulated"]
    if rtp is not None and reg["return_jackpot_awards"] is not None:
        split = (f"  return to player {rtp['value']:.6%} = fixed awards {reg['return_fixed_awards']['value']:.6%} + "
                 f"jackpot (meter) awards {reg['return_jackpot_awards']['value']:.6%}")
    else:
        estimate = "" if sim is None else f" (jackpot awards about {sim['estimate'] - reg['return_fixed_awards']['value']:.4%}, SIMULATED)"
        split = f"  fixed awards {reg['return_fixed_awards']['value']:.6%} of the return{estimate}"
    overflow = "added to the next jackpot" if rules.get("overflow") == "reseed" else "kept by the operator"
    ceiling = "none" if "ceiling" not in rules else f"{rules['ceiling']['value']:,.2f}, overflow {overflow}"
    rare = reg["awards_rarer_than_the_cap"]
    cap = f"1 in {reg['odds_cap_one_in']:,}"
    within = (f"  every award is at least as likely as {cap} (a jackpot's odds limit, as New Jersey's): yes" if not rare else
              f"  awards rarer than {cap} (a jackpot's odds limit, as New Jersey's): " + ", ".join(_label(k) for k in rare))
    # lines of at most about 100 characters: the PDF prints this block without wrapping it
    retention = "" if rtp is None else f"; house retention {1 - rtp['value']:.6%}"
    return ["In regulators' terms (long run, per unit side wager):", split,
            f"  increment (contribution to the meter) {rules['contribution']['value']:.4%}, reserve (reseed) rate "
            f"{rules['reserve']['value'] if 'reserve' in rules else 0:.4%}",
            f"  seed (reset) {rules['seed']['value']:,.2f}, ceiling {ceiling}{retention}", within]
