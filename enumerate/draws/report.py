"""The table with draws in the reports (:class:`enumerate.analysis.sections.KindReport`): the
fees, how often each action is taken, the strategy chart by hand group and up-card rank, and the
method of its whole-game engines (:mod:`enumerate.draws.game` for one card switched or a sixth
card bought, :mod:`enumerate.draws.exact` by rank patterns for several cards)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from enumerate.analysis.sections import Input, Sections, Term, TextPart, provenance_lines
from enumerate.core.jsonform import exact
from enumerate.draws.labels import INSTANT_LABEL

#: Short codes of the strategy chart.
CODES = {"keep and raise": "R", "keep and fold": "F", "buy a sixth card": "B", "switch the off-suit card": "so",
         "switch a paired card": "sp", "switch the lowest single card": "s1", "switch the 2nd lowest single card": "s2",
         "switch the 3rd lowest single card": "s3", "switch the 4th lowest single card": "s4",
         "switch the 5th lowest single card": "s5", "switch 1 card": "1", "switch 2 cards": "2",
         "switch 3 cards": "3", "switch 4 cards": "4", "switch 5 cards": "5", INSTANT_LABEL: "P"}
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


#: The legend's code of a dealt hand paid at once on the ante (a table with an instant payout).
LEGEND_INSTANT = "; P paid at once on the ante (no draw, no bet)"


def legend(v: Any) -> str:
    text = LEGEND if not several(v) else \
        LEGEND_SEVERAL.format(buy=", B buy a sixth card" if v.draws.buy_fee is not None else "")
    return text.replace("; * ", LEGEND_INSTANT + "; * ") if getattr(v, "ante_instant", None) else text


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
        if only_draws and all(c.rstrip("*") in ("R", "F", "P", "") for c in codes):
            continue
        rows.append([group, *codes])
    return rows


def draws_lines(a: Any, markdown: bool = False) -> list[str]:
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


def draws_strategy_markdown(a: Any) -> str:
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
    the situations that take it (a decimal beside the exact fraction, as everywhere); a Russian
    Poker table's cells also with how often the options after the draw are taken."""
    extra = [k for k in _OPTION_SHARES if strategy and all(k in e for e in strategy)]
    lines = [",".join(["hand_group,up_rank,situations,action,share,share_exact", *(f"{k},{k}_exact" for k in extra)])]
    for e in strategy:
        options = "".join(f",{_decimal(e[k]['exact'])},{e[k]['exact']}" for k in extra)
        for action, share in e["actions"].items():
            lines.append(f"\"{e['hand_group']}\",{e['up_rank']},{e['situations']},{action},{_decimal(share['exact'])},"
                         f"{share['exact']}{options}")
    return "\n".join(lines) + "\n"


#: The shares of the options after the draw a Russian Poker table's rows may hold, each cell's
#: (one value per hand group and up rank, repeated on its actions' lines).
_OPTION_SHARES = ("raise_share", "insure_share", "bought_share_of_no_qualify")


def _decimal(text: str) -> str:
    x = Fraction(text)
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.12f}"


def _draws_units(a: Any) -> str:
    """What one situation's combinations are, on a table with draws."""
    from enumerate.core.slices import SITUATIONS  # lazy: start-up time
    if not several(a.variant):
        return ("A situation's 46 draws each face C(45, 4) = 148,995 dealer sets, 6,853,770 combinations; a kept hand "
                "counts each of its 163,185 dealer sets 42 times (6,853,770 = 42 x 163,185).")
    per = a.total_combinations // SITUATIONS
    return (f"Switching k cards has C(46, k) draws, each facing C(46 - k, 4) dealer sets; the kinds of action are brought "
            f"to one denominator, {per:,} combinations a situation (the least common multiple of the kinds taken), "
            "a situation counting each of its own combinations that many times over its kind's number.")



def _draws_method(prov: Mapping[str, Any], a: Any) -> list[str]:
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
            "", *provenance_lines(prov, f"Combinations: {prov['total_combinations']:,} (122,151,120 situations x 46 draws x "
                                   "148,995 dealer hole-card sets)", "the plain game")]


def _several_method(prov: Mapping[str, Any], a: Any) -> list[str]:
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
            "", *rank_pattern_provenance(a, prov)]


def rank_pattern_provenance(a: Any, prov: Mapping[str, Any]) -> list[str]:
    """The provenance of a whole game counted by rank patterns: every situation counts as many
    combinations (its draws' denominators brought to one)."""
    from enumerate.core.slices import SITUATIONS  # lazy: start-up time
    return provenance_lines(prov, f"Combinations: {prov['total_combinations']:,} ({SITUATIONS:,} situations x "
                                  f"{a.total_combinations // SITUATIONS:,} each, see the return table)", "the plain game")


class DrawsReport(Sections):
    """What a table with draws says in the reports."""

    beside_plain = True

    def beside(self, a: Any, plain: Any) -> tuple[Any, str]:
        gain = plain.house_edge - a.house_edge
        figures = {"house_edge_per_ante": exact(plain.house_edge),
                   "element_of_risk_per_total_wager": exact(plain.element_of_risk),
                   "draws_lower_the_house_edge_by": exact(gain)}
        return figures, ("\n## The plain game beside it\n\nThe same table without switching or buying, under its "
                         f"optimal strategy: house edge {float(plain.house_edge):.6%}, element of risk "
                         f"{float(plain.element_of_risk):.6%}; the draws lower the house edge by {float(gain):.6%} "
                         f"(exact {gain}).\n")

    def rules(self, variant: Any) -> list[str]:
        d = variant.draws
        return [f"- Before deciding: {d.text()}; fees are paid in antes, are not returned and are not "
                "wagers." + (" Discarded cards are out of play: the new cards come from the rest of the deck."
                             if d.switch is not None else "")
                + (" A sixth card plays as the best five of six." if d.buy_fee is not None else ""),
                "- Strategy: optimal: the action with the largest exact EV less its fee in each of the 122,151,120 "
                "(player hand, up card) situations, then raise iff EV(raise) > EV(fold) = -1 ante after the draw.", ""]

    def return_table_note(self, a: Any) -> list[str]:
        return ["", "The outcomes are those of the final decision, by the final hand; a fee row counts the "
                "combinations in which the fee is paid (its probability is the share of hands paying it), so the "
                "outcome rows sum to one and the returns of all rows to the expected return. " + _draws_units(a)]

    def strategy_columns(self, variant: Any) -> tuple[str, str]:
        return "final hand", "decisions"

    def sections(self, a: Any) -> list[str]:
        return ["", *draws_lines(a, markdown=True)]

    def closing(self, a: Any, prov: Mapping[str, Any]) -> list[str]:
        return _draws_method(prov, a)

    def text(self, a: Any) -> list[TextPart]:
        assert a.draws is not None
        return ["", *draws_lines(a), "", "Strategy where a switch or a purchase is best (hand group by up-card rank); "
                + legend(a.variant), [["hand group", *UP_RANKS], *chart_rows(a.draws.strategy, only_draws=True)]]

    def strategy_files(self, a: Any) -> dict[str, str]:
        return {"strategy.md": draws_strategy_markdown(a), "strategy.csv": draws_strategy_csv(a.draws.strategy)}

    def workbook_inputs(self, analysis: Mapping[str, Any]) -> list[Input]:
        return [(name, label, fee) for name, label, fee in _fee_inputs(analysis).values()]

    def net_terms(self, analysis: Mapping[str, Any]) -> dict[str, list[Term]]:
        return {outcome: [(Fraction(-1), (name,))] for outcome, (name, _, _) in _fee_inputs(analysis).items()}


def _fee_inputs(analysis: Mapping[str, Any]) -> dict[str, Input]:
    """Per fee row of a table with draws (``fee_switch_2_cards``, ``fee_switch`` of the one-card
    game, ``fee_buy``), the workbook input its net result is minus: the fee of that action, from
    the variant's rules (none for a table without such rows)."""
    from enumerate.draws.actions import BUY_KIND, fee_kind  # lazy: start-up time (its kernel)

    v = analysis.get("variant", {})
    out: dict[str, Input] = {}
    for row in analysis.get("return_table", ()):
        outcome = row["outcome"]
        kind = fee_kind(outcome)
        if kind == BUY_KIND and v.get("buy_card"):
            out[outcome] = ("buy_card_fee", "buying a sixth card costs (antes)", Fraction(v["buy_card"]["fee_antes"]["exact"]))
        elif kind is not None and kind != BUY_KIND and v.get("switch"):
            fee = v["switch"]["fees_antes"].get(str(kind))
            if fee is not None:
                out[outcome] = (f"switch_fee_{kind}", f"switching {kind} card{'s' if kind != 1 else ''} costs (antes)",
                                Fraction(fee["exact"]))
    return out


DRAWS_REPORT = DrawsReport()
