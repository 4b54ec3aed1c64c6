"""Text and Markdown of the game-protection analyses: exposed hole cards, edge sorting,
collusion.  Floats for reading only; the exact values are in ``--json`` and summary.json."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from enumerate.boxes.seen_game import SeenHandSlice
from enumerate.protection.collusion import CollusionTable
from enumerate.protection.exposure import ExposureAnalysis, HoleCardTable
from studodds.reports.layout import columns


def _group_labels(groups: list[str]) -> list[str]:
    """Short column labels of a strategy chart's player-hand groups."""
    return ["none", "AK", *[g.split()[-1].rstrip("s") for g in groups[2:15]], "2pr", "3k", "st+"]


def _chart_markdown(chart: dict[str, Any], key: str, header: str) -> list[str]:
    """A strategy chart as a Markdown table: one row per ``row[key]``, one column per group."""
    labels = _group_labels(chart["groups"])
    lines = [f"| {header} | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    lines += [f"| {r[key]} | " + " | ".join(c["action"] for c in r["cells"]) + " |" for r in chart["rows"]]
    return lines + [""]


def _level_name(a: ExposureAnalysis) -> str:
    if a.scenario == "none_visible":
        return "no dealer card"
    k = a.exposed_hole_cards or 0
    return "up card only" if k == 0 else f"up card + {k} hole card{'s' if k > 1 else ''}"


def hole_card_rows(t: HoleCardTable) -> list[list[str]]:
    """Header and rows of the exposure table (shared by text and Markdown)."""
    rows = [["dealer cards seen", "combinations", "total loss (antes)", "house edge / ante", "exact",
             "element of risk", "P(raise)", "indifferent sets"]]
    for a in t.levels:
        rows.append([_level_name(a), f"{a.total_combinations:,}", f"{_plain(a.total_loss)}",
                     f"{float(a.house_edge):.4%}", str(a.house_edge), f"{float(a.element_of_risk):.4%}",
                     f"{float(a.raise_probability):.4%}", f"{a.indifferent_sets:,}"])
    return rows


def _plain(x: Fraction) -> str:
    return f"{x.numerator:,}" if x.denominator == 1 else f"{float(x):,.3f}"


def hole_cards_text(t: HoleCardTable) -> str:
    """What ``studodds protection holecards`` prints."""
    out = [f"Variant: {t.variant.name}: optimal play knowing dealer cards (base game; exact)", "",
           columns(hole_card_rows(t)), "",
           "combinations: every deal once for each choice of the exposed hole cards (so per-ante figures "
           "compare with the normal game)"]
    partial = t.partial()
    if partial:
        out += ["", "One hole card seen on a share of the hands (the player knows when):"]
        for p in partial:
            out.append(f"  share {float(Fraction(p['share']['exact'])):.2%}: house edge "
                       f"{p['house_edge_per_ante']['value']:.4%} (exact {p['house_edge_per_ante']['exact']})")
    for k, share in t.break_even().items():
        out.append(f"Break-even: with {k} hole card{'s' if k > 1 else ''} seen on {float(share):.2%} of the hands "
                   f"(exact {share}) and the normal game on the others, the house edge is zero.")
    one = t.level(1)
    if one is not None and one.chart:
        out += ["", "Strategy with one hole card seen (by the dealer's two visible cards):", chart_text(one.chart)]
    return "\n".join(out)


def chart_text(chart: Mapping[str, Any], max_rows: int | None = None) -> str:
    """A strategy chart: one row per dealer-card pattern, one column per player hand group."""
    groups = chart["groups"]
    short = _group_labels(groups)
    key = "dealer_cards" if "dealer_cards" in chart["rows"][0] else "sorted_hole_cards"
    header = [key.replace("_", " "), *short]
    rows = [header]
    for r in chart["rows"][:max_rows]:
        rows.append([str(r[key]), *[c["action"] for c in r["cells"]]])
    return columns(rows) + "\n" + chart["legend"] + "; columns: player's hand (none = no pair and below A-K, " \
        "2..A = pair of that rank, 2pr = two pair, 3k = trips, st+ = straight or better)"


def edge_sort_text(a: ExposureAnalysis) -> str:
    """What ``studodds protection edgesort`` prints."""
    out = [f"Variant: {a.variant.name}: {a.description} (exact)", "",
           f"Total combinations          {a.total_combinations:,}",
           f"Total loss (antes)          {_plain(a.total_loss)}",
           f"House edge (per ante)       {float(a.house_edge):.6%}   exact {a.house_edge}",
           f"Element of risk (per total) {float(a.element_of_risk):.6%}   exact {a.element_of_risk}",
           f"Raise probability           {float(a.raise_probability):.6%}",
           f"Information sets            {a.information_sets:,} ({a.raised_sets:,} raised, "
           f"{a.indifferent_sets:,} indifferent)"]
    if a.chart:
        out += ["", "Strategy by the number of sorted hole cards:", chart_text(a.chart)]
    return "\n".join(out)


def collusion_text(t: CollusionTable) -> str:
    """What ``studodds protection collusion`` prints."""
    rows = [["partners", "burn", "seen", "samples", "house edge / ante", "std error", "95% interval",
             "P(raise)", "situations/s"]]
    for e in t.estimates:
        lo, hi = e.interval
        rows.append([str(e.partners), "yes" if e.burn_card else "no", str(e.seen_cards), f"{e.samples:,}",
                     f"{float(e.house_edge):.4%}", f"{e.standard_error:.4%}", f"[{lo:.4%}, {hi:.4%}]",
                     f"{float(e.raise_probability):.2%}",
                     f"{e.samples / e.seconds:,.0f}" if e.seconds else ""])
    exact_line = []
    if t.exact_burn_card is not None:
        b = t.exact_burn_card
        exact_line = [f"Burn card alone (0 partners), EXACT: house edge {float(b.house_edge):.4%} (exact {b.house_edge}) "
                      f"over {b.total_combinations:,} combinations", ""]
    if not t.estimates:
        return "\n".join([f"Variant: {t.variant}: the player also sees the burn card", "", *exact_line])
    first = t.estimates[0]
    return "\n".join([
        f"Variant: {t.variant}: the player also sees partners' cards; strategy: {first.strategy} (SAMPLED)", "",
        columns(rows), "", *exact_line,
        f"Normal game (exact): house edge {float(first.normal_house_edge):.4%}.  Every sampled situation is "
        "evaluated exactly over all dealer hole-card sets; the edge is the exact normal edge minus the mean "
        "sampled gain over the normal decision; 95% intervals by the normal approximation.",
        f"Seed {first.seed}: the same seed and sample count give the same figures on any number of threads "
        "or workers."])


def _f(d: dict[str, Any]) -> float:
    return float(d["value"])


def protection_markdown(data: Mapping[str, Any]) -> str:
    """The game-protection section of the certified report, from a protection.json object."""
    lines = ["## Game protection", "",
             "Exact edge of a player who plays optimally with knowledge he should not have (base game; "
             "a progressive side bet is not included). Combinations count every deal once for each choice "
             "of the exposed hole cards, so per-ante figures compare directly with the normal game.", "",
             "### Exposed dealer cards", "",
             "| dealer cards seen | combinations | total loss (antes) | house edge per ante | exact | "
             "element of risk | P(raise) |", "|---|---:|---:|---:|---|---:|---:|"]
    hc = data["hole_cards"]
    for level in hc["levels"]:
        k = level["exposed_hole_cards"]
        name = ("no dealer card" if level["scenario"] == "none_visible" else
                "up card only" if k == 0 else f"up card + {k} hole card{'s' if k > 1 else ''}")
        total = Fraction(level["total_loss_antes"]["exact"])
        lines.append(f"| {name} | {level['total_combinations']:,} | {_plain(total)} | "
                     f"{_f(level['house_edge_per_ante']):.4%} | {level['house_edge_per_ante']['exact']} | "
                     f"{_f(level['element_of_risk_per_total_wager']):.4%} | {_f(level['raise_probability']):.4%} |")
    lines.append("")
    partial = hc.get("one_hole_card_on_a_share_of_hands") or []
    if partial:
        lines += ["One hole card seen on a share of the hands only (the player knows when; the edge is linear "
                  "in the share): " + "; ".join(f"{p['share']['value']:.0%}: house edge "
                                                f"{p['house_edge_per_ante']['value']:.4%}" for p in partial) + ".", ""]
    for k, be in (hc.get("break_even_share_by_exposed_hole_cards") or {}).items():
        lines += [f"With {k} hole cards seen on {be['value']:.2%} of the hands (exact {be['exact']}) and none on the "
                  "others, the house edge is zero.", ""]
    one = next((lv for lv in hc["levels"] if lv["exposed_hole_cards"] == 1), None)
    if one and one.get("strategy_chart"):
        lines += ["### Strategy with one hole card seen", "",
                  "Rows: the dealer's two visible cards (s = same suit, o = different suits). Columns: the "
                  "player's hand (none: no pair and below A-K, 2..A a pair of that rank, 2pr two pair, 3k trips, st+ "
                  "straight or better). R = always raise, F = always fold, n% = raise in n% of these hands.", "",
                  *_chart_markdown(one["strategy_chart"], "dealer_cards", "dealer")]
    es = data.get("edge_sort")
    if es:
        ranks = "".join(reversed(es["sorted_ranks"]))
        lines += ["### Edge sorting", "",
                  f"The player sees the up card and, for each hole card, whether its rank is in {{{ranks}}}: "
                  f"house edge {_f(es['house_edge_per_ante']):.4%} per ante (exact {es['house_edge_per_ante']['exact']}, "
                  f"total loss {_plain(Fraction(es['total_loss_antes']['exact']))} antes over "
                  f"{es['total_combinations']:,} combinations), raising {_f(es['raise_probability']):.2%} of the time.", ""]
        if es.get("strategy_chart"):
            lines += _chart_markdown(es["strategy_chart"], "sorted_hole_cards", "sorted hole cards")
    seen = data.get("seen_hand")
    if seen:
        lines += ["### A second hand seen", "",
                  "The player sees one other player's five cards -- a partner's, or his own second box when he "
                  "plays two and looks at both before deciding either -- and plays each hand optimally with "
                  f"them: every one of the {seen['situations']:,} situations (player hand, other hand, up card), "
                  "every dealer hole-card set. Per box, the edge of two boxes seen together is this edge: each "
                  "box is settled against the dealer on its own, so the order of the decisions does not matter.",
                  "", "| | house edge per ante | exact | raised |", "|---|---:|---|---:|",
                  f"| seeing the other hand | {_f(seen['house_edge_seeing_partner']):.4%} | "
                  f"{seen['house_edge_seeing_partner']['exact']} | {_f(seen['raise_share_seeing']):.2%} |",
                  f"| normal strategy | {_f(seen['house_edge_not_seeing']):.4%} | "
                  f"{seen['house_edge_not_seeing']['exact']} | {_f(seen['raise_share_not_seeing']):.2%} |", "",
                  f"Gain of seeing it: {_f(seen['gain_per_hand_antes']):.6f} antes a hand (exact "
                  f"{seen['gain_per_hand_antes']['exact']}); the decision changes in "
                  f"{_f(seen['changed_decisions_share']):.2%} of the situations.", ""]
        if seen.get("seeing_element_of_risk") is not None:
            lines += [f"Seeing it, per box: standard deviation {seen['seeing_std_dev_per_hand']:.4f} antes a hand, "
                      f"element of risk {_f(seen['seeing_element_of_risk']):.4%} (exact "
                      f"{seen['seeing_element_of_risk']['exact']}), average total wager "
                      f"{_f(seen['seeing_average_wager_antes']):.4f} antes." + (
                          "" if seen.get("two_boxes") else
                          " The spread of the two boxes together (one dealer hand meets both) is not computed."), ""]
        boxes = seen.get("two_boxes")
        if boxes:
            lines += ["Two boxes together: one dealer hand meets both, so their results are correlated "
                      f"(correlation {_f(boxes['correlation_of_the_boxes']):.4f}, covariance "
                      f"{_f(boxes['covariance_of_the_boxes_antes_squared']):.4f} antes squared, exact "
                      f"{boxes['covariance_of_the_boxes_antes_squared']['exact']}). A round of both boxes: standard "
                      f"deviation {boxes['std_dev_per_round_antes']:.4f} antes (variance exact "
                      f"{boxes['variance_per_round_antes_squared']['exact']}); both boxes raise in "
                      f"{_f(boxes['both_boxes_raise_share']):.2%} of the situations.", ""]
    return "\n".join(lines) + "\n"


def collusion_exact_text(s: SeenHandSlice) -> str:
    """What ``studodds collusion --partners 1 --exact`` prints."""
    d = s.to_dict()
    classes = ("classes (player's rank pattern x up rank; every partner hand and suit counted in each)"
               if s.method == "rank_patterns" else "classes up to suits (partner's hand x up card)")
    lines = [f"{s.variant.name}: the player sees one partner's five cards (exact)",
             f"slice: {d['slice']['label']}: {d['classes']:,} {classes}, "
             f"{d['situations']:,} situations with the player's hands, {float(s.share):.6%} of the deals "
             f"(exact {s.share}); every dealer hole-card set counted"]
    for label, key in (("house edge seeing the partner's hand", "house_edge_seeing_partner"),
                       ("house edge of the normal strategy, same situations", "house_edge_not_seeing"),
                       ("gain of seeing it, antes a hand", "gain_per_hand_antes")):
        value = Fraction(d[key]["exact"])  # type: ignore[literal-required]
        shown = f"{float(value):.6%}" if key.startswith("house") else f"{float(value):.6f}"
        lines.append(f"{label}: {shown} (exact {value})")
    lines.append(f"raised: {float(Fraction(d['raise_share_seeing']['exact'])):.4%} seeing, "
                 f"{float(Fraction(d['raise_share_not_seeing']['exact'])):.4%} normally; decisions changed: "
                 f"{float(Fraction(d['changed_decisions_share']['exact'])):.4%}")
    if d["seeing_element_of_risk"] is not None and d["seeing_std_dev_per_hand"] is not None:
        lines.append(f"seeing: standard deviation {d['seeing_std_dev_per_hand']:.6f} antes a hand, element of risk "
                     f"{float(Fraction(d['seeing_element_of_risk']['exact'])):.6%} (exact "
                     f"{d['seeing_element_of_risk']['exact']}); return table in --json")
    boxes = d.get("two_boxes")
    if boxes is not None:
        covariance = Fraction(boxes["covariance_of_the_boxes_antes_squared"]["exact"])
        lines.append(f"two boxes, each decided seeing both hands: house edge {float(-s.seeing):.6%} a box; a round of "
                     f"both: standard deviation {boxes['std_dev_per_round_antes']:.6f} antes, covariance of the boxes "
                     f"{float(covariance):.6f} antes^2 (correlation "
                     f"{float(Fraction(boxes['correlation_of_the_boxes']['exact'])):.4f}), both raise "
                     f"{float(Fraction(boxes['both_boxes_raise_share']['exact'])):.4%}")
    if d["core_seconds_per_class"] is not None:
        lines.append(f"measured: {d['core_seconds_per_class']:.3f} core-seconds a class; the whole game "
                     f"({s.whole_game_classes:,} classes) would take {d['whole_game_core_hours']:,.2f} core-hours")
    return "\n".join(lines)
