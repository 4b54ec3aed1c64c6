"""What a Russian Poker table says in the reports (see :mod:`enumerate.analysis.sections`): its
options, how often each is taken, what each is worth, the strategy by hand category and up-card
rank, and the method of its whole game (:mod:`enumerate.russian.game`); with draws, their rules,
fees and strategy by hand group as a table with draws says them (:mod:`enumerate.draws.report`)
and the method of :mod:`enumerate.russian.draws_game`."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from enumerate.analysis.sections import Input, Sections, Sheet, Term, TextPart, figure_rows, provenance_lines
from enumerate.analysis.strategy_text import raise_chart_markdown
from enumerate.draws.report import DRAWS_REPORT, draws_lines, rank_pattern_provenance
from enumerate.russian.game import AFTER_A_DRAW, INSTANT_OUTCOME, draw_fee_of
from evaluator.ranking import Category

UP_RANKS = "AKQJT98765432"


def option_lines(variant: Any) -> list[str]:
    """A line per option of Russian Poker the table offers."""
    out = []
    if variant.ante_no_qualify_with:
        pays = ", ".join(f"{v} to 1 from {c.label}" for c, v in variant.ante_no_qualify_with.items())
        out.append(f"- The ante's pay when the dealer does not qualify, by the player's hand: {pays} (the best listed "
                   "at or below the hand's).")
    if variant.ante_instant:
        pays = ", ".join(f"{c.label} {v} to 1" for c, v in reversed(list(variant.ante_instant.items())))
        chart = ", and the strategy by hand group names them \"paid at once\"" if variant.draws is not None else ""
        out.append(f"- Instant payout on the ante for a dealt hand: {pays}; the player's round then ends (no draw, "
                   "no bet, no option), whatever the dealer holds. Those hands are never raised: the raise shares "
                   f"and charts below count them at 0{chart}.")
    if variant.two_combinations is not None:
        out.append(f"- Two combinations: {variant.two_combinations.text()}.")
    if variant.insurance is not None:
        out.append(f"- Insurance: {variant.insurance.text()}.")
    if variant.buy_game is not None:
        out.append(f"- Buying the game: {variant.buy_game.text()}.")
    return out


def _share(x: Any) -> Fraction:
    return Fraction(x["exact"]) if isinstance(x, Mapping) else Fraction(x)


def _percent(x: Fraction) -> str:
    return f"{float(x):.4%}"


def facts(a: Any) -> list[tuple[str, str, str]]:
    """(figure, value, exact) of how often each option is taken and what it stakes or costs."""
    r = a.russian
    rows = [("Hands raised (share of situations)", _percent(r.raise_share), str(r.raise_share))]
    if a.variant.insurance is not None:
        rows += [("Hands insured (share of situations)", _percent(r.insure_share), str(r.insure_share)),
                 ("Hands insured (share of raised hands)", _percent(r.insured_of_raised), str(r.insured_of_raised)),
                 ("Insurance staked per hand (antes)", f"{float(r.insurance_per_hand):.6f}", str(r.insurance_per_hand))]
    if a.variant.buy_game is not None:
        rows += [("Games bought (share of the raised hands' dealer hands that do not qualify)",
                  _percent(r.bought_of_no_qualify), str(r.bought_of_no_qualify)),
                 ("Paid to buy the game per hand (antes)", f"{float(r.fees_per_hand):.6f}", str(r.fees_per_hand))]
    return rows


def worth_rows(a: Any) -> list[list[str]]:
    """[the table, house edge, element of risk, lowers the house edge by] per option taken away."""
    rows = [["this table", f"{float(a.house_edge):.6%}", f"{float(a.element_of_risk):.6%}", ""]]
    for w in a.russian.worth:
        rows.append([w.without, f"{float(w.house_edge):.6%}", f"{float(w.element_of_risk):.6%}",
                     f"{float(w.worth):+.6%}"])
    return rows


def chart_rows(strategy: Sequence[Mapping[str, Any]], column: str) -> list[list[str]]:
    """[hand category, cell per up rank A..2]: the share ``column`` of each cell, in percent
    (blank: no situation)."""
    cells: dict[str, dict[str, str]] = {}
    for e in strategy:
        x = _share(e[column])
        cells.setdefault(e["hand_group"], {})[e["up_rank"]] = _cell(x)
    return [[group, *(by_up.get(r, "") for r in UP_RANKS)] for group, by_up in cells.items()]


def _cell(x: Fraction) -> str:
    """A share in percent, to 0.1: exactly 100 or 0 as such, a share that only rounds to them as >99.9 or <0.1."""
    if x in (0, 1):
        return str(int(x * 100))
    p = float(x) * 100
    return ">99.9" if p >= 99.95 else "<0.1" if p < 0.05 else f"{p:.1f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header), *("| " + " | ".join(r) + " |" for r in rows)]


def option_strategy(a: Any) -> Sequence[Mapping[str, Any]]:
    """The strategy rows that say how often each option is taken: by hand category without draws,
    by hand group with them (a whole game whose shards kept them; none otherwise)."""
    if a.russian is None:
        return ()
    if a.draws is None:
        return a.russian.strategy
    rows = a.draws.strategy
    return rows if rows and all("insure_share" in e for e in rows) else ()


def charts(a: Any) -> list[str]:
    """The Markdown charts of how often each option is taken, by hand category (hand group, with
    draws) and up-card rank."""
    strategy = option_strategy(a)
    if not strategy:
        return []
    of = "of the best action's draws" if a.draws is not None else "of the situations"
    hand, by = ("hand group", "hand group") if a.draws is not None else ("hand", "hand category")
    out = [f"### Raised, percent {of}, by {by} and up-card rank", "",
           *_table([hand, *UP_RANKS], chart_rows(strategy, "raise_share"))]
    if a.draws is not None and a.variant.insurance is not None:
        out += ["", f"### Insured, percent {of}", "",
                *_table([hand, *UP_RANKS], chart_rows(strategy, "insure_share"))]
    if a.variant.buy_game is not None:
        out += ["", "### Games bought, percent of the raised hands' dealer hands that do not qualify", "",
                *_table([hand, *UP_RANKS], chart_rows(strategy, "bought_share_of_no_qualify"))]
    return out


def strategy_markdown(a: Any) -> str:
    """strategy.md of a Russian Poker table: the raise decisions in words and by rank pattern
    (as the plain game's), then how often each option is taken by hand category and up-card rank."""
    lines = [f"# Optimal strategy: {a.variant.name}", "", *option_lines(a.variant), "",
             "Raise iff EV(raise) > -1 ante, EV(raise) counting the insurance when it pays and every purchase of "
             "the game that pays; insure iff the stake's EV is positive; buy the game against a dealer hand that "
             "does not qualify iff that is worth more than the ante's pay.", ""]
    if a.russian.chart is not None:
        lines += ["## Raise or fold", "", raise_chart_markdown(a.russian.chart).replace(
            "Exact, derived from the engine's counts: raise iff EV(raise) > EV(fold) = -1 ante.\n\n", "")
            .replace("\n## ", "\n### ")]
    lines += ["## How often each option is taken", "",
              "The hands of a category differ by their ranks and suits; every cell: strategy.csv.", "", *charts(a), ""]
    return "\n".join(lines)


def strategy_csv(strategy: Sequence[Mapping[str, Any]]) -> str:
    """strategy.csv: hand category, up rank, situations, and each share (decimal and exact)."""
    lines = ["hand_group,up_rank,situations,raise_share,raise_share_exact,insure_share,insure_share_exact,"
             "bought_share_of_no_qualify,bought_share_of_no_qualify_exact,indifferent_situations"]
    for e in strategy:
        cells = []
        for k in ("raise_share", "insure_share", "bought_share_of_no_qualify"):
            x = _share(e[k])
            cells += [str(x.numerator) if x.denominator == 1 else f"{float(x):.12f}", str(x)]
        lines.append(f"\"{e['hand_group']}\",{e['up_rank']},{e['situations']},{','.join(cells)},"
                     f"{e['indifferent_situations']}")
    return "\n".join(lines) + "\n"


class RussianReport(Sections):
    """The sections of a Russian Poker table."""

    wagers = "ante + raise + insurance"

    def rules(self, variant: Any) -> list[str]:
        if variant.draws is not None:
            return option_lines(variant) + DRAWS_REPORT.rules(variant)[:1] + [
                "- Strategy: optimal: the action with the largest exact EV less its fee in each of the 122,151,120 "
                "(player hand, up card) situations; after the draw, raise iff EV(raise) > -1 ante, insure iff the "
                "stake's EV is positive, and buy the game against each dealer hand that does not qualify iff that "
                "is worth more than the ante's pay.", ""]
        return option_lines(variant) + [
            "- Strategy: optimal: raise iff EV(raise) > -1 ante, insure iff the stake's EV is positive, and buy the "
            "game against each dealer hand that does not qualify iff that is worth more than the ante's pay.", ""]

    def return_table_note(self, a: Any) -> list[str]:
        r = a.russian
        if r is None:
            return []
        note = ("An insured hand's rows carry the insurance's result in the net (the stake is settled on the "
                "dealer's first five cards). ")
        if r.replacement_multiple > 1:
            note += (f"Each dealer hand counts {r.replacement_multiple:,} combinations, a common multiple of the "
                     "replacement cards a bought game may draw from (each replacement card an equal share of them), so "
                     "every outcome of a bought game is a whole number of combinations.")
        if a.draws is not None:
            pools = (", each dealer hand counting a common multiple of the bought games' replacement pools"
                     if a.variant.buy_game is not None else "")
            note += (" The outcomes are those of the best action's draws, each row's net less the action's fee; "
                     f"switching k cards has C(46, k) draws facing C(46 - k, 4) dealer sets{pools}, and the kinds of "
                     "action are brought to one denominator.")
        return ["", note]

    def strategy_columns(self, variant: Any) -> tuple[str, str]:
        return "hand category", "situations"

    def sections(self, a: Any) -> list[str]:
        if a.russian is None:
            return []
        out = ["", "## The options", "", *figure_rows(facts(a)), "",
               "The element of risk divides the house edge by every wager: ante, raise and insurance stake; the price "
               "of a bought game is not a wager (it is counted in the house edge)."]
        if a.russian.worth:
            out += ["", "### What each option is worth", "",
                    "The same table without the option, under its own optimal strategy (exact, the same counts):", "",
                    *_table(["table", "house edge", "element of risk", "the option lowers the house edge by"],
                            worth_rows(a))]
        if a.draws is not None:
            if not a.russian.worth:
                out += ["", "What each option is worth with the draws is the same table without it, a whole game of "
                            "its own: its variant file with that option's section taken out, counted and certified "
                            "beside this one (this run counts the table as it is); 'studodds diff' of the two gives "
                            "the option's worth exactly, with the strategy cells it moves."]
            out += ["", *draws_lines(a, markdown=True)]
            return out + (["", *charts(a)] if option_strategy(a) else [])
        return out + ["", *charts(a)]

    def closing(self, a: Any, prov: Mapping[str, Any]) -> list[str]:
        if a.draws is not None:
            return _draws_method(a, prov)
        dn = a.russian.replacement_multiple if a.russian is not None else 1
        return ["## Method", "",
                "Exact, in integers. Without draws the player's five cards are his final hand, so each of the "
                "122,151,120 situations (player hand, up card) faces the dealer's 163,185 hole-card sets with the plain "
                "game's counts (no qualify, win, tie, lose; the count table, 6,319,573 situations up to suits). The "
                "bet's pay with two combinations is a function of the hand's strength; the insurance stake's value is "
                "linear in the same counts; the bought games are counted per situation by the dealer's rank sets (a "
                "dealer hand that does not qualify holds five ranks; its purchase depends on them, on the unseen "
                "cards of each rank and, for flushes, on the suits), each purchase decided against its own dealer "
                "hand by exact integer comparison. The sum of the situations' values is checked equal to the return "
                "table's expected result on every run; sampled situations are recomputed dealer hand by dealer hand "
                "and replacement by replacement by the test suite, itself checked against a brute force of the rules "
                "read literally.",
                "", *provenance_lines(prov, f"Combinations: {prov['total_combinations']:,} (122,151,120 situations x "
                                            f"163,185 dealer hole-card sets x {dn:,})", "the plain game")]

    def text(self, a: Any) -> list[TextPart]:
        if a.russian is None:
            return []
        out: list[TextPart] = ["", "The options"]
        out += [f"{name}: {value}" for name, value, _ in facts(a)]
        if a.russian.worth:
            out += ["", "What each option is worth (the same table without it, optimal strategy)",
                    [["table", "house edge", "element of risk", "option worth"], *worth_rows(a)]]
        if a.draws is not None:
            out += DRAWS_REPORT.text(a)
        return out

    def strategy_files(self, a: Any) -> dict[str, str]:
        if a.draws is not None:
            files = DRAWS_REPORT.strategy_files(a)
            if option_strategy(a):
                files["strategy.md"] += "\n".join(["", "## How often the options after the draw are taken", "",
                                                   *charts(a), ""])
            return files
        return {"strategy.md": strategy_markdown(a), "strategy.csv": strategy_csv(a.russian.strategy)}

    def workbook(self, analysis: Mapping[str, Any]) -> list[Sheet]:
        r = analysis.get("russian")
        if not isinstance(r, Mapping):
            return []
        header = ["hand_group", "up_rank", "situations", "raise_share", "insure_share", "bought_share_of_no_qualify"]
        by_group = analysis.get("draws", {}).get("strategy", []) if isinstance(analysis.get("draws"), Mapping) else []
        strategy = r["strategy"] or [e for e in by_group if all(k in e for k in header[3:])]
        rows = [[e["hand_group"], e["up_rank"], e["situations"],
                 *(float(_share(e[k])) for k in header[3:])] for e in strategy]
        worth = [[w["without"], float(_share(w["house_edge_per_ante"])),
                  float(_share(w["element_of_risk_per_total_wager"])), float(_share(w["lowers_the_house_edge_by"]))]
                 for w in r["option_worth"]]
        sheets: list[Sheet] = []
        if rows:
            sheets.append(("Russian strategy", header, rows))
        if worth:
            sheets.append(("Option worth", ["table", "house_edge", "element_of_risk", "lowers_the_house_edge_by"], worth))
        return sheets

    def workbook_inputs(self, analysis: Mapping[str, Any]) -> list[Input]:
        if not isinstance(analysis.get("russian"), Mapping):
            return []
        v = analysis["variant"]
        out: list[Input] = []
        if v.get("buy_game"):
            out.append(("buy_game_fee", "buying the game costs (antes)", Fraction(v["buy_game"]["fee_antes"]["exact"])))
        if v.get("insurance"):
            share = Fraction(1, 2) if v["insurance"]["limit"] == "half_the_payout" else Fraction(1)
            out.append(("insurance_share", "insurance stake, share of the bet's possible win", share))
        for key, pay in v["ante_pays"].get("dealer_does_not_qualify_with", {}).items():
            out.append((f"ante_with_{key}", f"ante pays when the dealer does not qualify, from {key.replace('_', ' ')}",
                        Fraction(pay["exact"])))
        for key, pay in v["ante_pays"].get("instant_payout", {}).items():
            out.append((f"instant_{key}", f"ante paid at once on a dealt {key.replace('_', ' ')}", Fraction(pay["exact"])))
        fees = sorted({f for m in analysis["russian"].get("return_table_rows", ()) if (f := draw_fee_of(m["outcome"]))})
        for fee in fees:                            # a row's draw fee: one input per amount the rows name
            out.append((_fee_input(fee), f"a draw's fee, the rows 'fee {fee}' (antes)", fee))
        return out

    def not_raised(self, analysis: Mapping[str, Any]) -> tuple[str, ...]:
        return (INSTANT_OUTCOME,) if isinstance(analysis.get("russian"), Mapping) else ()

    def net_terms(self, analysis: Mapping[str, Any]) -> dict[str, list[Term]]:
        r = analysis.get("russian")
        if not isinstance(r, Mapping):
            return {}
        v = analysis["variant"]
        listed = {c.key: c for c in Category}
        ante_with = sorted(v["ante_pays"].get("dealer_does_not_qualify_with", {}), key=lambda k: listed[k])
        dealer_qualifies = v["insurance"]["dealer_qualifies"] if v.get("insurance") else "lost"
        unless = v["ante_pays"].get("player_wins_unless")        # "drew_or_bought": no ante's pay after either

        def pay(key: str) -> str:
            return f"pay_{key}" if key in v["raise_pays"] or key != "royal_flush" else "pay_straight_flush"

        def ante(first: str) -> str:
            below = [k for k in ante_with if listed[k] <= listed[first]]
            return f"ante_with_{below[-1]}" if below else "ante_nq"

        out: dict[str, list[Term]] = {}
        one = Fraction(1)
        for m in r["return_table_rows"]:
            e, cats = m["event"], m["combinations"]
            terms: list[Term] = []
            if e in ("player_wins", "bought_won"):
                paid = not (unless == "drew_or_bought" and (e == "bought_won" or AFTER_A_DRAW in m["outcome"]))
                terms = [(one, ("ante_win",))] * paid + [(one, ("raise", pay(c))) for c in cats]
            elif e in ("dealer_does_not_qualify", "bought_short"):
                terms = [(one, (ante(cats[0]),))]
            elif e in ("dealer_wins", "bought_lost"):
                terms = [(-one, ()), (-one, ("raise",))]
            elif e == "fold":
                terms = [(-one, ())]
            elif e == "instant_payout":
                terms = [(one, (f"instant_{cats[0]}",))]
            if e.startswith("bought_"):
                terms.append((-one, ("buy_game_fee",)))
            fee = draw_fee_of(m["outcome"])
            if fee:
                terms.append((-one, (_fee_input(fee),)))     # the draw's fee (the Switching section's rule)
            if m["insured"]:
                first_five = {"player_wins": -one, "push": -one, "dealer_wins": -one}.get(e, one)
                if dealer_qualifies != "lost" and e in ("push", "dealer_wins"):
                    first_five = Fraction(0)
                if first_five:
                    terms += [(first_five, ("insurance_share", "raise", pay(c))) for c in cats]
            out[m["outcome"]] = terms
        return out

    def wager_extra(self, analysis: Mapping[str, Any]) -> tuple[str, Any] | None:
        r = analysis.get("russian")
        if not isinstance(r, Mapping) or not analysis["variant"].get("insurance"):
            return None
        return "insurance_staked_per_hand_antes", r["insurance_per_hand_antes"]


def _fee_input(fee: Fraction) -> str:
    """The workbook input of a draw fee of ``fee`` antes (named as the rows' outcome ids end)."""
    return f"draw_fee_{fee.numerator}" + (f"_{fee.denominator}" if fee.denominator != 1 else "")


def _draws_method(a: Any, prov: Mapping[str, Any]) -> list[str]:
    """Method and provenance of a Russian table with draws (counted by rank patterns)."""
    return ["## Method", "",
            "Exact, in integers, by rank patterns. With the up card fixed, the dealer's outcomes against a final hand "
            "depend on the cards out of play only through their ranks and the ranks whose card of the up card's suit "
            "is out; for each player rank pattern and up rank one pass over the dealer's hole-card rank patterns per "
            "rank pattern drawn serves every situation and every discard, and the draws that complete a flush are "
            "corrected situation by situation. A final hand's pay is its two combinations' (a six bought paid by all "
            "six cards); raising is worth a linear form of the dealer's counts, with the insurance when it pays; "
            "buying the game adds, against each dealer hand that does not qualify, the better of the ante's pay and "
            "its purchase, counted by the dealer's rank sets from the unseen cards of each rank, of the up card's "
            "suit and -- where the purchase replaces the up card and his four hole cards are of another suit -- of "
            "that suit, per situation. Every action of each of the 122,151,120 situations is the exact sum over its "
            "draws (raise or fold, whichever is worth more), the best action less its fee chosen by exact integer "
            "comparison. Sampled groups are recomputed situation by situation, draw by draw, dealer hand by dealer "
            "hand and replacement by replacement by the test suite.",
            "", *rank_pattern_provenance(a, prov)]


RUSSIAN_REPORT = RussianReport()
