"""Text and JSON-ready figures of the progressive side bet (used by the CLI and by batch)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from enumerate import sidebet as sb
from enumerate.progressive import SideBet

PLAYERS = range(1, 8)


def default_meters(side: SideBet) -> list[Fraction]:
    """Meter levels for the return curve: the seed, round levels, and the break-even meter."""
    levels = {Fraction(side.seed)} | {Fraction(x) for x in (10_000, 50_000, 100_000, 200_000, 300_000, 500_000, 1_000_000)}
    be = sb.break_even_meter(side)
    if be is not None:
        levels.add(be)
    return sorted(levels)


def figures(side: SideBet, meter: Fraction | None = None, players=PLAYERS) -> dict[str, Any]:
    """Everything exact about the side bet; fraction strings with rounded values."""
    p = sb.hit_probabilities()
    be = sb.break_even_meter(side)
    at = Fraction(meter) if meter is not None else (be if be is not None else Fraction(side.seed))
    lr = sb.long_run(side)

    def fig(x):
        return None if x is None else {"exact": str(x), "value": float(x)}

    out: dict[str, Any] = {
        "pays": {c.label: side.pay_text(c) for c in sorted(side.pays, reverse=True)},
        "contribution": str(side.contribution), "seed": str(side.seed), "fold_forfeits": side.fold_forfeits,
        "hits": [{"hand": c.label, "combinations": sb.hit_counts()[c], "probability": fig(p[c]),
                  "pays": side.pay_text(c)} for c in sorted(side.pays, reverse=True)],
        "break_even_meter": fig(be),
        "return_curve": [{"meter": fig(m), "net_return_per_wager": fig(r)} for m, r in sb.return_curve(side, default_meters(side))],
        "long_run": {
            "return_to_player": fig(lr.return_to_player), "house_retention": fig(lr.house_retention),
            "cycle_wagers": fig(lr.cycle_wagers), "meter_at_royal": fig(lr.meter_at_royal),
            "mean_meter": fig(lr.mean_meter),
            "meter_at_royal_quantiles": {str(q): fig(v) for q, v in lr.meter_at_royal_quantiles.items()},
            "quantiles_exact": lr.quantiles_exact,
        },
        "sharing_meter": fig(at),
        "sharing": [],
    }
    for n in players:
        s = sb.sharing(side, at, n)
        out["sharing"].append({"players": n, "two_or_more_meter_hits": fig(s.two_or_more_meter_hits),
                               "meter_award_per_player": fig(s.meter_award_per_player),
                               "return_to_player": fig(s.return_to_player),
                               "return_lowered_by": fig(s.return_lowered_by)})
    return out


def text(name: str, data: dict[str, Any], combined=None) -> str:
    def v(x, fmt="{:,.6f}"):
        return "-" if x is None else fmt.format(x["value"])

    lines = [f"Progressive side bet: {name} (per unit side wager; meter in wager units)",
             "Pays: " + ", ".join(f"{k} {p}" for k, p in data["pays"].items()) +
             f"; contribution {data['contribution']}, seed {data['seed']}, fold forfeits: {data['fold_forfeits']}",
             "", f"{'hand':<16} {'combinations':>12} {'probability':>14}  pays"]
    for h in data["hits"]:
        lines.append(f"{h['hand']:<16} {h['combinations']:>12,} {h['probability']['value']:>14.10f}  {h['pays']}")
    be = data["break_even_meter"]
    lines += ["", f"Break-even meter: {v(be, '{:,.2f}')}" + (f"  (exact {be['exact']})" if be else ""), "",
              f"{'meter':>14} {'net return':>12}"]
    for row in data["return_curve"]:
        lines.append(f"{row['meter']['value']:>14,.2f} {row['net_return_per_wager']['value']:>+12.6%}")
    lr = data["long_run"]
    lines += ["", "Long run (renewal over jackpot cycles):",
              f"  return to player {v(lr['return_to_player'], '{:.6%}')}, house retention {v(lr['house_retention'], '{:.6%}')}",
              f"  wagers per cycle {v(lr['cycle_wagers'], '{:,.1f}')}, expected meter at the royal {v(lr['meter_at_royal'], '{:,.2f}')}, "
              f"mean meter {v(lr['mean_meter'], '{:,.2f}')}",
              "  meter at the royal, quantiles" + ("" if lr["quantiles_exact"] else
                                                   f" (simulated, {sb.QUANTILE_CYCLES:,} seeded cycles)") + ": " +
              ", ".join(f"{float(Fraction(q)):.0%} {x['value']:,.0f}" for q, x in lr["meter_at_royal_quantiles"].items()),
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
