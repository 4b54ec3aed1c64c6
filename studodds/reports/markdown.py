"""The certified math report of a variant, in Markdown (``report.md``)."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from enumerate.analysis.certification import CertificationFigures
from enumerate.analysis.par import REACH_GAMES, STATES
from enumerate.analysis.strategies import StrategyResult
from enumerate.core.slices import SITUATIONS
from enumerate.game.analysis import GameAnalysis
from enumerate.game.components import Component, Exposure
from enumerate.progressive.figures import ProgressiveReport
from enumerate.simulation.simulate import Simulation
from evaluator.cards import RANKS
from evaluator.ranking import Category
from studodds.reports.boxes import boxes_markdown
from studodds.reports.draws import draws_lines, several
from studodds.reports.progressive import text as progressive_text
from studodds.reports.sidebets import side_bets_markdown
from studodds.reports.simulation import simulation_markdown
from studodds.reports.text import net_example, pays_text


def report_md(a: GameAnalysis, provenance: Mapping[str, Any], simple: Sequence[StrategyResult] = (),
              side: ProgressiveReport | None = None, figures: CertificationFigures | None = None,
              simulation: Simulation | None = None,
              parts: tuple[tuple[Component, ...], Exposure] | None = None) -> str:
    """The certified math report of a variant (``report.md``); ``simulation``: the simulation
    check of ``batch --simulate``; ``parts``: the RTP by component and the largest exposure."""
    v = a.variant
    prov = provenance
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
    if v.boxes is not None:
        lines += [f"- Two boxes: {v.boxes.text()}; each box has its own ante and is settled by the rules above.",
                  "- Strategy: optimal for each box: raise iff EV(raise) > EV(fold) = -1 ante against the dealer hands "
                  f"left once both boxes' cards and the up card are seen, in each of the "
                  f"{math.comb(52, 5) * math.comb(47, 5) * 42:,} situations (box's hand, other box's hand, up card).", ""]
    elif v.draws is not None:
        lines += [f"- Before deciding: {v.draws.text()}; fees are paid in antes, are not returned and are not "
                  "wagers." + (" Discarded cards are out of play: the new cards come from the rest of the deck."
                               if v.draws.switch is not None else "")
                  + (" A sixth card plays as the best five of six." if v.draws.buy_fee is not None else ""),
                  "- Strategy: optimal: the action with the largest exact EV less its fee in each of the 122,151,120 "
                  "(player hand, up card) situations, then raise iff EV(raise) > EV(fold) = -1 ante after the draw.", ""]
    else:
        lines += ["- Strategy: optimal, raise iff EV(raise) > EV(fold) = -1 ante, for each of the "
                  "122,151,120 (player hand, up card) situations.", ""]
    if side is not None and v.progressive is not None:
        p = v.progressive
        lines += ["Progressive side bet: " + ", ".join(f"{c.label} {p.pay_text(c)}" for c in sorted(p.pays, reverse=True)) +
                  f"; meter contribution {p.contribution}; seed {p.seed}; fold forfeits: "
                  f"{p.fold_forfeits} (see the section below).", ""]
    lines += ["## Return table", "",
              "Net result: what the hand wins (+) or loses (-), ante and raise together, in antes: a raise pay "
              f"of X to 1 nets the ante's pay + {v.raise_antes}X ({net_example(a)}).", "",
              "| outcome | net result (antes) | combinations | probability | return |", "|---|---:|---:|---:|---:|"]
    for r in a.rows:
        lines.append(f"| {r.event} | {pays_text(r.pays)} | {r.combinations:,} | {float(r.probability):.10f} | "
                     f"{float(r.contribution):.10f} |")
    lines.append(f"| **total** | | {a.total_combinations:,} | 1.0000000000 | {float(a.expected_return):.10f} |")
    if v.draws is not None:
        lines += ["", "The outcomes are those of the final decision, by the final hand; a fee row counts the "
                  "combinations in which the fee is paid (its probability is the share of hands paying it), so the "
                  "outcome rows sum to one and the returns of all rows to the expected return. " + _draws_units(a)]
    fig = [("House edge (per ante)", f"{float(a.house_edge):.6%}", str(a.house_edge)),
           ("Element of risk (per total wagered)", f"{float(a.element_of_risk):.6%}", str(a.element_of_risk)),
           ("Return to player (RTP) per ante: 1 - house edge", f"{float(a.rtp_per_ante):.6%}", str(a.rtp_per_ante)),
           ("RTP per total wagered (ante + raise): 1 - element of risk", f"{float(a.rtp_per_total_wagered):.6%}",
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
    unit = "decisions" if v.draws is not None else "situations"
    lines += ["", "## Strategy statistics", "", f"| {'final hand' if v.draws is not None else 'player hand'} | "
              f"{unit} raised | of | share |", "|---|---:|---:|---:|"]
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
    if a.draws is not None:
        lines += ["", *draws_lines(a, markdown=True)]
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
    if v.boxes is not None:
        lines += boxes_markdown(a) + [""] + _boxes_method(prov)
        return "\n".join(lines)
    if v.draws is not None:
        lines += _draws_method(prov, a)
        return "\n".join(lines)
    lines += ["## Method", "",
              "Every combination of player hand (2,598,960), dealer up card (47) and dealer hole cards (163,185) "
              "is counted exactly, in integers: for each of the 122,151,120 (hand, up card) situations the engine "
              "counts the hole-card sets where the dealer does not qualify, qualifies and loses, ties, or wins, by "
              "inclusion-exclusion over the player's cards during one sweep of all hands in strength order. The "
              "optimal decision of each situation compares exact integer forms of EV(raise) and EV(fold); every "
              "total is an exact rational. The hand ranking is pinned by the SHA-256 of the strength of all "
              "2,598,960 hands; sampled situations are recomputed by brute force over all their dealer "
              "completions (below). Floating-point values appear only as rounded displays, in the normal "
              "approximation, and in the convolution of more than 10 hands (with its error bound).",
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


def _draws_units(a: GameAnalysis) -> str:
    """What one situation's combinations are, on a table with draws."""
    if not several(a.variant):
        return ("A situation's 46 draws each face C(45, 4) = 148,995 dealer sets, 6,853,770 combinations; a kept hand "
                "counts each of its 163,185 dealer sets 42 times (6,853,770 = 42 x 163,185).")
    per = a.total_combinations // SITUATIONS
    return (f"Switching k cards has C(46, k) draws, each facing C(46 - k, 4) dealer sets; the kinds of action are brought "
            f"to one denominator, {per:,} combinations a situation (the least common multiple of the kinds taken), "
            "a situation counting each of its own combinations that many times over its kind's number.")


def _provenance(prov: Mapping[str, Any], combinations: str, game: str) -> list[str]:
    """The provenance of a table counted by a whole-game engine of its own (draws, two boxes):
    the tool, the evaluator, the variant file, its combinations, its self-checks, and the spot
    checks of ``game`` (the count table it is built on)."""
    checks = prov["self_checks"]
    return ["## Provenance", "",
            f"- Tool: studodds {prov['tool_version']}, engine version {prov['engine_version']}",
            f"- Evaluator ordering SHA-256: `{prov['evaluator_ordering_sha256']}`",
            f"- Variant file SHA-256: `{prov['variant_file_sha256']}` ({prov['variant_origin']})",
            f"- {combinations}",
            f"- Self-check: outcome rows sum to the total: {'passed' if checks['return_table_rows_sum_to_total'] else 'FAILED'}",
            f"- Self-check: outcome probabilities sum to one: {'passed' if checks['probabilities_sum_to_one'] else 'FAILED'}",
            f"- Self-check: {checks['brute_force_spot_checks_agree']} sampled situations of {game} agree with a "
            "brute-force enumeration of all 163,185 dealer completions: passed", ""]


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
            "", *_provenance(prov, f"Combinations per box: {prov['total_combinations']:,} (both boxes' hands, up card "
                                   "and dealer hole-card sets)", "the one-box game")]


def _draws_method(prov: Mapping[str, Any], a: GameAnalysis) -> list[str]:
    """Method and provenance of a table with draws."""
    if several(a.variant):
        return _several_method(prov, a)
    return ["## Method", "",
            "Exact, in integers. For every canonical player hand, up card and card out of play (the discarded "
            "card, or the sixth card a bought hand does not use), the dealer's outcomes among the 45 live cards "
            "are the plain game's counts less the dealer hands that hold the dead card, counted by "
            "inclusion-exclusion over the player's cards in one sweep of all hands in strength order. Every action "
            "of each of the 122,151,120 situations is then the sum of its 46 draws' exact values (raise or fold, "
            "whichever is worth more), and the best action, less its fee, is chosen by exact integer comparison. "
            "Sampled situations are recomputed by the per-hand calculator (studodds hand), itself checked against "
            "a brute-force enumeration of every draw and every dealer completion.",
            "", *_provenance(prov, f"Combinations: {prov['total_combinations']:,} (122,151,120 situations x 46 draws x "
                                   "148,995 dealer hole-card sets)", "the plain game")]


def _several_method(prov: Mapping[str, Any], a: GameAnalysis) -> list[str]:
    """Method and provenance of a table switching several cards (counted by rank patterns)."""
    d = a.variant.draws
    buying = ("Buying a sixth card is drawn like a one-card switch (the dealer's hole cards avoid all six cards) "
              "and valued at the best five of the six; the draws that give the six cards a flush are corrected "
              "situation by situation. ") if d is not None and d.buy_fee is not None else ""
    return ["## Method", "",
            "Exact, in integers, by rank patterns. The dealer's five cards include the up card, so his only possible "
            "flush is in the up card's suit: with the up card fixed, his outcomes against a final hand depend on the "
            "cards out of play (the player's five, the cards drawn) only through their ranks and the ranks whose card "
            "of the up card's suit is out. For each player rank pattern and up rank, one pass over the 1,820 rank "
            "patterns of the dealer's hole cards per rank pattern drawn serves every situation with that pattern and "
            "every discard of that many cards; the draws that complete a flush are corrected situation by situation. "
            f"{buying}Every action of each of the 122,151,120 situations is the exact sum over its draws (raise or "
            "fold, whichever is worth more; the raise when switching all five forces it), and the best action, less "
            f"its fee, is chosen by exact integer comparison (ties: keep, then fewer cards{', then buying' if buying else ''}). "
            "The value of keeping, summed "
            "over every situation, is checked equal to the plain game's from its count table on every run; sampled "
            "groups are recomputed situation by situation through the dead-card engine by the test suite.",
            "", *_provenance(prov, f"Combinations: {prov['total_combinations']:,} (122,151,120 situations x "
                                   f"{a.total_combinations // SITUATIONS:,} each, see the return table)", "the plain game")]


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
