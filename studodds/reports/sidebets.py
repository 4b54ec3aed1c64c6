"""Side bets and rule variants as text (``analyze``) and markdown (certified reports)."""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from enumerate.rules.sidebets import KINDS
from studodds.reports.layout import columns

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.game.analysis import GameAnalysis
    from enumerate.sidebets.analysis import SideBetAnalysis, SideBetReport

_SPACE = {"hands": "player hands", "situations": "(player hand, up card) situations",
          "combinations": "combinations of player hand, up card and dealer hole cards"}


def _num(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def rules_lines(a: GameAnalysis) -> list[str]:
    """One line per rule variant the table has (raise size, cap, ante bonus, face-down hands)."""
    v = a.variant
    out = []
    if v.raise_antes != 2:
        out.append(f"Raise: {v.raise_antes} ante{'s' if v.raise_antes != 1 else ''} (not 2)")
    if v.max_payout is not None:
        m = v.max_payout
        what = "the raise win" if m.covers == "raise" else "the ante and raise wins together"
        out.append(f"Maximum payout: {_num(m.amount)} per hand at an ante of {_num(m.ante)} = {_num(m.antes)} antes, "
                   f"capping {what}")
    if v.ante_bonus is not None:
        out.append("Ante bonus on a raised hand, whatever the dealer holds (antes): " + v.ante_bonus.text())
    if v.face_down_loses:
        out.append("A raised hand left face down is settled as a loss")
    return out


def figures_lines(a: GameAnalysis) -> list[str]:
    """The rule-variant figures: edge by ante size under a cap, the cost of a face-down hand."""
    f = a.rule_variants
    if f is None:
        return []
    out = []
    if f.by_ante:
        out.append(f"{'ante':>12} {'cap (antes)':>12} {'house edge':>11} {'element of risk':>16}  pays cut")
        for r in f.by_ante:
            out.append(f"{float(r.ante):>12,.2f} {float(r.cap_antes):>12,.2f} {float(r.house_edge):>11.6%} "
                       f"{float(r.element_of_risk):>16.6%}  {', '.join(c.label for c in r.capped) or '-'}")
    if f.face_down_cost is not None:
        out.append(f"A raised hand left face down loses {float(f.face_down_cost):.6f} antes against turning it over "
                   f"(exact {f.face_down_cost}); optimal play turns every hand over, so the edge is unchanged.")
    return out


def bet_lines(b: SideBetAnalysis) -> list[str]:
    """One side bet: its return table and figures."""
    lines = [f"Side bet {b.bet.name!r}: {b.bet.kind} (settled {KINDS[b.bet.kind].text}); wager {_num(b.bet.wager)} "
             f"ante(s); {'lost on a fold' if b.bet.fold_forfeits else 'stands on a fold'}"]
    cells = [["outcome", "net", "combinations", "probability", "return"]]
    cells += [[r.event, _num(r.pays), f"{r.combinations:,}", f"{float(r.probability):.8f}", f"{float(r.contribution):.7f}"]
              for r in b.rows]
    cells.append([f"total ({_SPACE[b.space]})", "", f"{b.total:,}", f"{1:.8f}", f"{float(b.expected):.7f}"])
    lines += ["  " + line.rstrip() for line in columns(cells).splitlines()]
    lines.append(f"  house edge {float(b.house_edge):.6%} (exact {b.house_edge}); standard deviation "
                 f"{float(b.variance) ** 0.5:.6f} per unit; hit frequency {float(b.hit_frequency):.6%}")
    if b.envy:
        lines.append("  envy bonus (one deck, every player at the table on the bet):")
        for e in b.envy:
            lines.append(f"    {e.players} player(s): envy {float(e.envy_per_wager):.6f} per unit, return "
                         f"{float(e.return_per_wager):+.6%}, standard deviation {float(e.variance) ** 0.5:.6f}")
    return lines


def combined_lines(r: SideBetReport) -> list[str]:
    c = r.combined
    return [f"Combined game (ante, raise and every side bet; strategy decided for all of them): house edge "
            f"{float(c.house_edge_per_total_wager):.6%} of the total wagered (exact {c.house_edge_per_total_wager}); "
            f"average total wager {float(c.average_total_wager):.6f} antes; P(raise) {float(c.raise_probability):.6%}; "
            f"situations decided differently from the base game: {c.situations_decided_differently:,}"]


def side_bets_text(a: GameAnalysis) -> str:
    """Everything beyond the base game that ``analyze`` prints (empty for a standard table)."""
    lines = rules_lines(a) + figures_lines(a)
    if a.side_bets is not None:
        for b in a.side_bets.bets:
            lines += [""] + bet_lines(b)
        lines += [""] + combined_lines(a.side_bets)
    return "\n".join(lines)


def side_bets_markdown(a: GameAnalysis) -> list[str]:
    """The report's "Rule variants" and "Side bets" sections (none for a standard table)."""
    out: list[str] = []
    rules = rules_lines(a)
    if rules or a.rule_variants is not None:
        out += ["", "## Rule variants", ""] + [f"- {x}" for x in rules]
        f = a.rule_variants
        if f is not None and f.by_ante:
            out += ["", "The edge depends on the bet size. Each ante below is the largest at which one more pay is "
                    "still paid in full (the cap equals it); at any larger ante that pay is cut too. The optimal "
                    "strategy is recomputed for the capped pays.", "",
                    "| ante | cap (antes) | house edge | element of risk | pays cut by the cap |", "|---:|---:|---:|---:|---|"]
            for cap in f.by_ante:
                out.append(f"| {float(cap.ante):,.2f} | {float(cap.cap_antes):,.2f} | {float(cap.house_edge):.6%} | "
                           f"{float(cap.element_of_risk):.6%} | {', '.join(c.label for c in cap.capped) or '-'} |")
        if f is not None and f.face_down_cost is not None:
            out += ["", f"A raised hand left face down is settled as a loss of ante and raise: against turning it "
                    f"over it costs {float(f.face_down_cost):.6f} antes (exact `{f.face_down_cost}`) per such hand. "
                    "Optimal play turns every raised hand over, so the rule does not change the house edge."]
    if a.side_bets is None:
        return out
    out += ["", "## Side bets", ""]
    for b in a.side_bets.bets:
        out += [f"### {b.bet.name}", "",
                f"Settled {KINDS[b.bet.kind].text}; wager {_num(b.bet.wager)} ante(s); "
                + ("lost when the player folds (the strategy below accounts for it)." if b.bet.fold_forfeits
                   else "stands whether the player raises or folds."),
                "", "| outcome | net (per unit) | combinations | probability | return |", "|---|---:|---:|---:|---:|"]
        for r in b.rows:
            out.append(f"| {r.event} | {_num(r.pays)} | {r.combinations:,} | {float(r.probability):.10f} | "
                       f"{float(r.contribution):.10f} |")
        out.append(f"| **total** ({_SPACE[b.space]}) | | {b.total:,} | 1.0000000000 | {float(b.expected):.10f} |")
        out += ["", f"House edge {float(b.house_edge):.6%} (exact `{b.house_edge}`), standard deviation "
                f"{float(b.variance) ** 0.5:.6f} per unit, hit frequency {float(b.hit_frequency):.6%}."]
        if b.envy:
            out += ["", "Envy bonus, one deck, every player at the table on the bet (exact):", "",
                    "| players | envy per unit | return per unit | standard deviation |", "|---:|---:|---:|---:|"]
            for e in b.envy:
                out.append(f"| {e.players} | {float(e.envy_per_wager):.6f} | {float(e.return_per_wager):+.6%} | "
                           f"{float(e.variance) ** 0.5:.6f} |")
        out.append("")
    out += combined_lines(a.side_bets)
    return out
