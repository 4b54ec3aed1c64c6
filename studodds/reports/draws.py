"""Text and markdown for tables with draws (switching cards, a sixth card): the fees, how often
each action is taken, and the strategy chart by hand group and up-card rank."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.draws.exact import ExactSlice
    from enumerate.draws.sample import DrawSample
    from enumerate.game.analysis import GameAnalysis

#: Short codes of the strategy chart.
CODES = {"keep and raise": "R", "keep and fold": "F", "buy a sixth card": "B", "switch the off-suit card": "so",
         "switch a paired card": "sp", "switch the lowest single card": "s1", "switch the 2nd lowest single card": "s2",
         "switch the 3rd lowest single card": "s3", "switch the 4th lowest single card": "s4",
         "switch the 5th lowest single card": "s5", "switch 1 card": "1", "switch 2 cards": "2",
         "switch 3 cards": "3", "switch 4 cards": "4", "switch 5 cards": "5"}
UP_RANKS = "AKQJT98765432"
POSITIONS = ("lowest", "2nd lowest", "middle", "2nd highest", "highest")
LEGEND = ("R keep and raise, F keep and fold, B buy a sixth card; switch: so the off-suit card (four suited), "
          "sp a paired card, s1 the lowest single card, s2 the 2nd lowest, ... s5 the highest; "
          "* the action of most but not all suit patterns in the cell")
#: The legend of a table switching several cards (the chart counts the cards switched); {buy}: B,
#: on a table that also sells a sixth card.
LEGEND_SEVERAL = ("R keep and raise, F keep and fold{buy}; 1 to 5 switch that many cards (which ones depends on "
                  "the suits and ranks); * the action of most but not all suit patterns in the cell")


def several(v: Any) -> bool:
    """Whether the table lets the player switch two or more cards (its whole game is counted by
    rank patterns, its chart counts the cards switched)."""
    d = v.draws
    return d is not None and d.switch is not None and d.switch.most > 1


def legend(v: Any) -> str:
    if not several(v):
        return LEGEND
    return LEGEND_SEVERAL.format(buy=", B buy a sixth card" if v.draws.buy_fee is not None else "")


def chart_rows(strategy: Sequence[Mapping[str, Any]], only_draws: bool) -> list[list[str]]:
    """[hand group, cell per up rank A..2]: each cell the code of the most frequent action (with
    * when not every situation in it takes it); ``only_draws``: only groups where some cell is
    a switch or a purchase."""
    cells: dict[str, dict[str, str]] = {}
    for entry in strategy:
        actions = entry["actions"]
        top = next(iter(actions))
        share = Fraction(actions[top]["exact"])
        cells.setdefault(entry["hand_group"], {})[entry["up_rank"]] = CODES[top] + ("" if share == 1 else "*")
    rows = []
    for group, by_up in cells.items():
        codes = [by_up.get(r, "") for r in UP_RANKS]
        if only_draws and all(c.rstrip("*") in ("R", "F", "") for c in codes):
            continue
        rows.append([group, *codes])
    return rows


def draws_lines(a: GameAnalysis, markdown: bool = False) -> list[str]:
    """The draws section up to the chart: rules, fees per hand, action shares, switched
    positions; in markdown the whole chart follows (the terminal adds its own, see
    :func:`studodds.reports.text.summary_text`)."""
    d = a.draws
    v = a.variant
    if d is None or v.draws is None:
        return []
    shares = ", ".join(f"{k} {float(p):.4%}" for k, p in d.action_shares.items() if p)
    facts = [f"Rules: {v.draws.text()}.",
             f"Fees per hand: {float(d.fees_per_hand):.6f} antes (exact {d.fees_per_hand}); fees are not wagers: the "
             "house edge counts them, the element of risk divides by the ante and raise only.",
             f"Actions taken (share of situations): {shares}."]
    if d.switch_by_position:
        pos = ", ".join(f"{POSITIONS[k]} card {float(p):.2%}" for k, p in d.switch_by_position.items())
        facts.append(f"Switched card, by its place in the sorted hand: {pos}.")
    if several(v):
        facts.append("Decisions after the draw: one per draw (switching k cards: C(46, k) draws; every situation "
                     f"weighted alike); raised {float(a.raise_probability):.4%}.")
    else:
        facts.append("Decisions after the draw: 46 per situation (one per drawn card; a kept hand counts 46 times); "
                     f"raised {float(a.raise_probability):.4%}.")
    out = [("## Switching and buying" if markdown else "Switching and buying"), ""]
    out += [("- " + f) if markdown else f for f in facts]
    if markdown:
        header = ["hand group", *UP_RANKS]
        out += ["", "### Strategy by hand group and up-card rank", "", legend(v) + ".", "",
                "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(r) + " |" for r in chart_rows(d.strategy, only_draws=False)]
    return out


def draws_strategy_markdown(a: GameAnalysis) -> str:
    """strategy.md of a table with draws: the chart of every hand group."""
    assert a.draws is not None and a.variant.draws is not None
    header = ["hand group", *UP_RANKS]
    lines = [f"# Optimal strategy: {a.variant.name}", "", f"Before deciding: {a.variant.draws.text()}.", "",
             "Each cell: the action most suit patterns of the hand group take against that up-card rank. "
             + legend(a.variant) + "; every cell with the share of every action: strategy.csv.", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in chart_rows(a.draws.strategy, only_draws=False)]
    return "\n".join(lines) + "\n"


def draws_strategy_csv(strategy: Sequence[Mapping[str, Any]]) -> str:
    """strategy.csv of a table with draws: hand group, up rank, situations, action, the share of
    the situations that take it (a decimal beside the exact fraction, as everywhere)."""
    lines = ["hand_group,up_rank,situations,action,share,share_exact"]
    for e in strategy:
        for action, share in e["actions"].items():
            exact_share = Fraction(share["exact"])
            decimal = str(exact_share.numerator) if exact_share.denominator == 1 else f"{float(exact_share):.12f}"
            lines.append(f"\"{e['hand_group']}\",{e['up_rank']},{e['situations']},{action},{decimal},{share['exact']}")
    return "\n".join(lines) + "\n"


def sample_text(s: DrawSample) -> str:
    """What ``studodds draws-sample`` prints."""
    d = s.to_dict()
    he = d["house_edge_per_ante"]
    multi = d["switch_two_or_more_best"]
    lines = [f"{s.variant.name}: {s.variant.draws.text() if s.variant.draws else ''}",
             (f"{s.n:,} situations sampled uniformly (seed {s.seed}), every action of each valued exactly (sampled)"
              if s.design == "uniform" else
              f"{s.n:,} situations sampled in {len(s.strata)} strata (up-card rank x value with at most one card; "
              f"Neyman's allocation after a pilot; seed {s.seed}), every action of each valued exactly (sampled)"),
             f"exact part: the game switching at most one card, house edge {float(s.one_card_house_edge):.6%} "
             f"(exact {s.one_card_house_edge})",
             (f"mean gain of switching two or more cards: {float(s.mean_gain):.6f} antes a hand "
              f"(sd {s.gain_sd:.6f}, 95% half-width {s.half_width:.6f})" if s.gains_seen else
              "no sampled situation gains from switching two or more cards: the house edge is the exact one-card "
              "figure unless the share below gains"),
             (f"house edge (per ante): {he['estimate']:.4%}, 95% interval {he['ci95'][0]:.4%} .. {he['ci95'][1]:.4%} "
              "(sampled)" if he["ci95"] is not None else f"house edge (per ante): {he['estimate']:.4%} in the sample"),
             f"switching two or more cards is best in {multi['situations']:,} of {s.n:,} sampled situations; "
             f"estimated share of all situations {multi['share']:.2%} (95% interval {multi['ci95'][0]:.2%} .. "
             f"{multi['ci95'][1]:.2%}); sampled situations by cards switched: "
             + ", ".join(f"{k}: {v:,}" for k, v in multi["by_cards"].items())]
    if s.design == "stratified":
        lines.append("stratum               share of situations  sampled  gain>0  mean gain (antes)  sd")
        for st in d["strata"]:
            sd = "-" if st["gain_sd_antes"] is None else f"{st['gain_sd_antes']:.6f}"
            lines.append(f"  {st['label']:<20}{st['share']['value']:>19.4%}{st['situations']:>9,}{st['gains']:>8,}"
                         f"{st['mean_gain_antes']['value']:>19.6f}  {sd}")
    if d["samples_for_0_01_points"] is not None:
        lines.append(f"situations for a 95% half-width of 0.01 percentage points at this spread: "
                     f"{d['samples_for_0_01_points']:,}")
    if d["core_seconds_per_situation"] is not None:
        lines.append(f"measured: {d['core_seconds_per_situation']:.2f} core-seconds a situation (valued one by one, "
                     f"every situation would take {d['cost_of_the_exact_game_core_hours']:,.0f} core-hours)")
    if "exact_whole_game_core_hours" in d:
        lines.append(f"this is a sampled estimate: the exact whole game (studodds analyze, by rank patterns) takes about "
                     f"{d['exact_whole_game_core_hours']:,.1f} core-hours and gives the figure itself")
    for e in d["examples"]:
        lines.append(f"  e.g. {e['hand']} against {e['up']}: {e['best_action']}, gains {e['gain_antes']['value']:.6f} antes")
    return "\n".join(lines)


def exact_text(s: ExactSlice) -> str:
    """What ``studodds draws-exact`` prints."""
    d = s.to_dict()
    lines = [f"{s.variant.name}: {s.variant.draws.text() if s.variant.draws else ''}",
             f"slice: {d['slice']['label']}: {d['classes']:,} "
             + ("groups (player rank pattern, up rank)" if d["method"] == "rank_patterns" else "classes up to suits")
             + f", {d['situations']:,} situations, "
             f"{float(s.share):.6%} of the game (exact {s.share}); every action, draw and dealer completion counted",
             f"house edge within the slice (per ante, exact): {float(-s.expected):.6%} ({-s.expected})",
             f"element of risk {float(s.element_of_risk):.6%}, standard deviation {d['standard_deviation_antes']:.6f} "
             f"antes, raised {float(s.raise_probability):.4%} of decisions, fees {float(s.fees_per_hand):.6f} antes a hand",
             "best action (share of the slice's situations): "
             + ", ".join(f"{k} {float(Fraction(v['exact'])):.4%}" for k, v in d["action_shares"].items()),
             "", "outcome                                          net (antes)  probability      return"]
    for r in d["return_table"]:
        lines.append(f"  {r['label'][:46]:<46}{r['net_result_antes']['value']:>12.4f}{r['probability']['value']:>13.8f}"
                     f"{r['return_per_ante']['value']:>12.6f}")
    lines += ["", "strategy (hand group, up rank: the most frequent best action and its share)"]
    for e in d["strategy"]:
        top, share = next(iter(e["actions"].items()))
        lines.append(f"  {e['hand_group']:<32} up {e['up_rank']}: {top} ({float(Fraction(share['exact'])):.2%} of "
                     f"{e['situations']:,})")
    if d["core_seconds_per_class"] is not None:
        unit = "group" if d["method"] == "rank_patterns" else "class"
        lines.append(f"measured: {d['core_seconds_per_class']:.3f} core-seconds a {unit}; the whole game "
                     f"({s.whole_game_classes:,} {unit}s) would take {d['whole_game_core_hours']:,.1f} core-hours")
    return "\n".join(lines)
