"""The certified math report of a variant, in Markdown (``report.md``)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from enumerate.analysis.certification import CertificationFigures
from enumerate.analysis.par import REACH_GAMES, STATES
from enumerate.analysis.strategies import StrategyResult
from enumerate.game.analysis import GameAnalysis
from enumerate.game.components import Component, Exposure
from enumerate.game.kinds import kind_of
from enumerate.progressive.figures import ProgressiveReport
from enumerate.simulation.simulate import Simulation
from evaluator.cards import RANKS
from evaluator.ranking import Category
from studodds.reports.progressive import text as progressive_text
from studodds.reports.sidebets import side_bets_markdown
from studodds.reports.simulation import simulation_markdown
from studodds.reports.text import full_house_example, pays_text


def report_md(a: GameAnalysis, provenance: Mapping[str, Any], simple: Sequence[StrategyResult] = (),
              side: ProgressiveReport | None = None, figures: CertificationFigures | None = None,
              simulation: Simulation | None = None,
              parts: tuple[tuple[Component, ...], Exposure] | None = None) -> str:
    """The certified math report of a variant (``report.md``); ``simulation``: the simulation
    check of ``batch --simulate``; ``parts``: the RTP by component and the largest exposure."""
    v = a.variant
    prov = provenance
    sections = kind_of(v).report
    lines = [f"# Caribbean Stud Poker: {v.name}", "", v.description or "", ""]
    warnings = a.warnings() + (figures.warnings() if figures is not None else [])
    if simulation is not None and not simulation.passed:
        warnings.append(f"simulation check: {simulation.verdict}")
    if warnings:
        lines += ["## Warnings", "", "The figures below are exact for these rules, but the rules look unusual:", ""]
        lines += [f"- **{w}**" for w in warnings]
        lines.append("")
    lines += ["## Rules and paytable", "",
              "- One 52-card deck; player and dealer receive five cards, the dealer's fifth face up.",
              "- The player folds (losing the ante) or raises exactly " +
              ("twice the ante." if v.raise_antes == 2 else "the ante." if v.raise_antes == 1
               else f"{v.raise_antes} times the ante.")]
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
        lines.append(f"| {label} | {pays_text(v.posted_pay(c))} |")
    lines += ["", "- Equal hands push; a higher dealer hand takes ante and raise."]
    lines += sections.rules(v)
    if side is not None and v.progressive is not None:
        p = v.progressive
        lines += ["Progressive side bet: " + ", ".join(f"{c.label} {p.pay_text(c)}" for c in sorted(p.pays, reverse=True)) +
                  f"; meter contribution {p.contribution}; seed {p.seed}; fold forfeits: "
                  f"{p.fold_forfeits} (see the section below).", ""]
    example = full_house_example(a)
    example = f" ({example})" if example else ""
    lines += ["## Return table", "",
              "Net result: what the hand wins (+) or loses (-), ante and raise together, in antes: a raise pay "
              f"of X to 1 nets the ante's pay + {v.raise_antes}X{example}.", "",
              "| outcome | net result (antes) | combinations | probability | return |", "|---|---:|---:|---:|---:|"]
    for r in a.rows:
        lines.append(f"| {r.event} | {pays_text(r.pays)} | {r.combinations:,} | {float(r.probability):.10f} | "
                     f"{float(r.contribution):.10f} |")
    lines.append(f"| **total** | | {a.total_combinations:,} | 1.0000000000 | {float(a.expected_return):.10f} |")
    lines += sections.return_table_note(a)
    fig = [("House edge (per ante)", f"{float(a.house_edge):.6%}", str(a.house_edge)),
           ("Element of risk (per total wagered)", f"{float(a.element_of_risk):.6%}", str(a.element_of_risk)),
           ("Return to player (RTP) per ante: 1 - house edge", f"{float(a.rtp_per_ante):.6%}", str(a.rtp_per_ante)),
           (f"RTP per total wagered ({sections.wagers}): 1 - element of risk", f"{float(a.rtp_per_total_wagered):.6%}",
            str(a.rtp_per_total_wagered)),
           ("Total loss over all combinations (antes)", f"{a.total_loss.numerator:,}" if a.total_loss.denominator == 1
            else f"{float(a.total_loss):,.4f}", str(a.total_loss)),
           ("Standard deviation (antes)", f"{a.standard_deviation:.6f}", f"sqrt({a.variance})"),
           ("Average total wager (antes)", f"{float(a.average_wager):.6f}", str(a.average_wager)),
           ("Hit frequency", f"{float(a.hit_frequency):.6%}", str(a.hit_frequency)),
           ("Probability of raising", f"{float(a.raise_probability):.6%}", str(a.raise_probability)),
           ("Dealer qualifies", f"{float(a.dealer_qualifies):.6%}", str(a.dealer_qualifies))]
    lines += ["", "## Figures", "", "| figure | value | exact |", "|---|---:|---|"]
    lines += [f"| {name} | {val} | `{ex}` |" for name, val, ex in fig]
    hand, unit = sections.strategy_columns(v)
    lines += ["", "## Strategy statistics", ""]
    if not a.raise_by_category:
        lines.append("The raises by hand category are not kept for this table (its final hands are classed by "
                     "what they pay, not by category): the strategy by hand group and up card stands for them.")
    else:
        lines += [f"| {hand} | {unit} raised | of | share |", "|---|---:|---:|---:|"]
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
    lines += side_bets_markdown(a)
    lines += sections.sections(a)
    if figures is not None:
        lines += certification_md(figures)
    if parts is not None:
        lines += components_md(*parts)
    if side is not None:
        lines += ["", "## Progressive side bet", "", "```", progressive_text(a.variant.name, side.figures, side.combined), "```"]
    if a.indifferent_situations is not None:
        lines += ["", f"{unit.capitalize()} where raising and folding are worth exactly the same: "
                      f"{a.indifferent_situations:,}.", ""]
    else:
        lines += ["", f"{unit.capitalize()} where raising and folding are worth exactly the same: not counted (they "
                      "change no figure).", ""]
    if simulation is not None:
        lines += simulation_markdown(simulation)
    lines += sections.closing(a, prov)
    return "\n".join(lines)


def certification_md(f: CertificationFigures) -> list[str]:
    """The sections a lab's math report quotes: RTP and its range over strategies, volatility,
    the net result after N hands, and the hand and dealer breakdowns."""
    d = f.to_dict()
    a = f.analysis
    pct = lambda x: f"{x['value']:.6%}"  # noqa: E731
    lines = ["", "## Return to player", "",
             "| figure | value | exact |", "|---|---:|---|",
             f"| RTP per ante | {pct(d['rtp_per_ante'])} | `{d['rtp_per_ante']['exact']}` |",
             f"| RTP per total wagered (ante + raise) | {pct(d['rtp_per_total_wagered'])} | `{d['rtp_per_total_wagered']['exact']}` |",
             f"| fold rate | {pct(d['fold_rate'])} | `{d['fold_rate']['exact']}` |",
             *(f"| return from the {part}, per hand (antes) | {x['value']:+.6f} | `{x['exact']}` |"
               for part, x in (("ante", d["ante_return_per_hand"]), ("raise", d["raise_return_per_hand"]))),
             "", "RTP over strategies, from the worst possible play (the worse action in every situation) to optimal:", "",
             "| strategy | RTP per ante | RTP per total wagered |", "|---|---:|---:|"]
    lines += [f"| {s['name']} | {pct(s['rtp_per_ante'])} | {pct(s['rtp_per_total_wagered'])} |" for s in d["rtp_by_strategy"]]
    lines.append(f"| optimal | {pct(d['rtp_per_ante'])} | {pct(d['rtp_per_total_wagered'])} |")
    win = d["largest_win"]
    lines += ["", "## Volatility", "",
              f"- Standard deviation of one hand: {d['standard_deviation_per_hand_antes']:.6f} antes; "
              f"per unit wagered: {d['standard_deviation_per_unit_wagered']:.6f}.",
              "- Volatility index (z x standard deviation per hand, antes): " +
              ", ".join(f"{float(Fraction(v['confidence']['exact'])):.0%}: {v['value']:.4f}" for v in d["volatility_index"]) + ".",
              f"- Largest win: {win['net_result_antes']['exact']} antes net, {win['combinations']:,} combinations, "
              f"1 in {win['one_in']['value']:,.0f}.",
              "", "Net result after N hands (antes; 5%, 50%, 95% quantiles). Up to 10 hands the convolution of the "
              "exact one-hand distribution is exact; beyond it is computed in floating point (FFT), every probability "
              "within the bound given. The normal approximation with the same mean and variance is beside it.", "",
              "| hands | method | P(ahead) | P(even) | P(behind) | 5% | 50% | 95% | normal P(ahead) | normal 5% / 50% / 95% |",
              "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for h in f.hands:
        q = list(h.quantiles.values())
        nq = list(h.normal_quantiles.values())
        method = "exact" if h.exact else f"FFT (error < {h.error_bound:.0e})"
        lines.append(f"| {h.hands:,} | {method} | {float(h.ahead):.6f} | {float(h.even):.6f} | {float(h.behind):.6f} | "
                     f"{float(q[0]):g} | {float(q[1]):g} | {float(q[2]):g} | {h.normal_ahead:.6f} | "
                     f"{nq[0]:.1f} / {nq[1]:.1f} / {nq[2]:.1f} |")
    lines += _par_lines(f)
    lines += ["", "## How often", "", "| outcome | 1 in |", "|---|---:|"]
    lines += [f"| {r.event} | {one['value']:,.2f} |" if (one := d["one_in"][r.outcome]) else f"| {r.event} | never |"
              for r in a.rows]
    lines += ["", "Player hands by category (the dealer's five cards have the same distribution):", "",
              "| hand | hands of 2,598,960 | probability |", "|---|---:|---:|"]
    lines += [f"| {Category.from_key(k).label} | {v['hands']:,} | {v['probability']['value']:.8f} |"
              for k, v in d["player_hand_categories"].items()]
    lines += ["", "The dealer qualifies, by the up card's rank:", "",
              "| up card | " + " | ".join(RANKS[r] for r in range(12, -1, -1)) + " |", "|---|" + "---:|" * 13,
              "| P(qualifies) | " + " | ".join(f"{d['dealer_qualifies_by_up_rank'][RANKS[r]]['value']:.4f}"
                                               for r in range(12, -1, -1)) + " |"]
    return lines


def _par_lines(f: CertificationFigures) -> list[str]:
    """The PAR sheet: combinations of each player category in each game state, the net results,
    and the reachability check (none when the figures carry no PAR table)."""
    if f.par is None:
        return []
    par = f.par
    heads = ("folded", "dealer does not qualify", "player wins", "push", "dealer wins")
    lines = ["", "## PAR sheet", "",
             f"Combinations of each player hand in each game state under optimal strategy (of "
             f"{par.total_combinations:,}); the net result in antes beside each (ante and raise together).", "",
             "| player hand | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(heads)]
    for category in sorted({c.category for c in par.cells}, reverse=True):
        cells = [par.cell(category, s) for s in STATES]
        lines.append(f"| {category.label} | " + " | ".join(
            f"{c.combinations:,} ({pays_text(c.net_result)})" for c in cells) + " |")
    lines.append("| total | " + " | ".join(f"{par.state_total(s):,}" for s in STATES) + " |")
    if par.unreachable:
        lines += ["", f"**Reachability:** these paying outcomes are expected less than once in {REACH_GAMES:,} "
                      "games (their odds are shown):", ""]
        lines += [f"- {c.category.label}, {c.state.replace('_', ' ')}: 1 in {float(1 / c.probability):,.0f}"
                  for c in par.unreachable]
    else:
        lines += ["", f"Reachability: every paying outcome is expected at least once in {REACH_GAMES:,} games."]
    return lines


def components_md(parts: tuple[Component, ...], exposure: Exposure) -> list[str]:
    """RTP by component (each wager per game, in its own unit) and the largest exposure of one game."""
    pct = lambda x: "-" if x is None else f"{float(x):.6%}"  # noqa: E731
    lines = ["", "## RTP by component", "",
             "Each wager per game, in its own unit (the progressive's wager is not tied to the ante); exact "
             "fractions in summary.json.", "",
             "| component | average stake per game | net return per game | RTP |", "|---|---:|---:|---:|"]
    for c in parts:
        net = "-" if c.net_per_game is None else f"{float(c.net_per_game):+.6f}"
        lines.append(f"| {c.name} | {float(c.average_wager):.6f} {c.unit} | {net} | {pct(c.rtp)} |")
    side = "".join(f" + {float(v):g} (side bet {k})" for k, v in exposure.side_bets)
    text = (f"Largest exposure of one game: {float(exposure.total_antes):g} antes" +
            (f" = {float(exposure.base):g} (base game){side}" if side else " (the base game's largest net win)"))
    if exposure.progressive_fixed is not None:
        text += (f"; the progressive pays at most {float(exposure.progressive_fixed):g} x its wager in fixed pays" +
                 (", plus a meter award" if exposure.progressive_meter else ""))
    lines += ["", text + ". With side bets this adds each bet's largest pay, an upper bound reached when the largest "
              "wins come together (as one royal flush takes them all in the built-in variants)." if side else text + "."]
    return lines
