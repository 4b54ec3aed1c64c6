"""``report.xlsx``: the certified figures as a workbook (needs openpyxl: ``pip install
"studodds[reports]"``).

Sheets: Figures (every headline figure, value and exact fraction), Return table (net result in
antes, combinations as integers, probability and return with the exact fractions beside),
Strategy (the strategy.csv cells), N hands (the net result after N hands, with the normal
approximation), and Simulation (the sampled simulation check of ``batch --simulate``, when
the table has one).  Exact values are text cells (``p/q``) next to numeric ones, so nothing is lost
to the spreadsheet's floating point.  Document properties are fixed, so the same figures give
the same bytes.

A reviewer can follow the arithmetic: the combinations and net results of the return table (and
the raise size) are the inputs; each probability (combinations / total), return contribution
(probability x net result), the totals, and on the Figures sheet the total loss, expected return,
house edge, raise probability (1 - P(fold)), average total wager (1 + raise x P(raise)),
element of risk, variance, standard deviation, hit frequency (P(net > 0)) and RTPs are live Excel
formulas over them (column "formula" says which); the exact fractions stay beside them as text.
"""
from __future__ import annotations

import csv
import datetime
import io
from fractions import Fraction
from typing import Any

from enumerate.rules.variant import PAY_CATEGORIES
from evaluator.errors import StudoddsError

INSTALL_HINT = 'report.xlsx needs openpyxl: pip install "studodds[reports]" (or pip install openpyxl)'


def available() -> bool:
    try:
        import openpyxl  # noqa: F401  (optional dependency: the reports extra)
    except ImportError:
        return False
    return True


def _number(x: Any) -> float:
    """A JSON number or exact object as a float (the workbook's numbers)."""
    return float(x["value"]) if isinstance(x, dict) else float(x)


#: Pay categories in paytable order, as variant files name them.
_CATEGORIES = tuple(c.key for c in PAY_CATEGORIES)


def _exact(x: Any) -> Fraction:
    return Fraction(x["exact"]) if isinstance(x, dict) else Fraction(x)


def _paytable(ws: Any, variant: dict[str, Any]) -> dict[str, tuple[Fraction, str]]:
    """Write the inputs of the net results -- raise size, ante pays, raise pays, ante bonus --
    and return {name: (exact value, absolute cell reference)}."""
    ws.append(["input", "value", "exact"])
    out: dict[str, tuple[Fraction, str]] = {}

    def put(name: str, label: str, value: Fraction) -> None:
        ws.append([label, float(value), str(value)])
        out[name] = (value, f"Paytable!$B${ws.max_row}")

    put("raise", "raise size (antes)", _exact(variant.get("raise_antes", 2)))
    put("ante_nq", "ante pays when the dealer does not qualify", _exact(variant["ante_pays"]["dealer_does_not_qualify"]))
    put("ante_win", "ante pays when the player wins", _exact(variant["ante_pays"]["player_wins"]))
    for c in _CATEGORIES:
        if c in variant.get("raise_pays", {}):
            put(f"pay_{c}", f"raise pays, {c.replace('_', ' ')}", _exact(variant["raise_pays"][c]))
    for c in _CATEGORIES:
        put(f"bonus_{c}", f"ante bonus, {c.replace('_', ' ')}", _exact(variant.get("ante_bonus", {}).get(c, 0)))
    return out


def _net_formula(outcome: str, net: Fraction, pays: dict[str, tuple[Fraction, str]]) -> str | None:
    """The net result of a return-table row as a formula over the Paytable inputs, when the rule
    it encodes gives the exact net (a capped payout does not: that row keeps its number)."""
    base, _, bonus_of = outcome.partition("_bonus_")
    terms: list[tuple[int, str]] = []                   # (sign, input name); constants below
    const = Fraction(0)
    if base.startswith("player_wins_") and f"pay_{base[len('player_wins_'):]}" in pays:
        cat = base[len("player_wins_"):]
        terms = [(1, "ante_win"), (1, f"bonus_{cat}"), (1, "raise*pay")]
    elif base == "dealer_does_not_qualify":
        terms = [(1, "ante_nq")]
    elif base == "dealer_wins":
        terms, const = [(-1, "raise")], Fraction(-1)
    elif base == "fold":
        const = Fraction(-1)
    elif base != "push":
        return None
    if bonus_of:
        terms.append((1, f"bonus_{bonus_of}"))
    value, parts = const, [str(const)] if const else []
    for sign, name in terms:
        if name == "raise*pay":
            cat = base[len("player_wins_"):]
            value += pays["raise"][0] * pays[f"pay_{cat}"][0]
            parts.append(f"{pays['raise'][1]}*{pays[f'pay_{cat}'][1]}")
        else:
            value += sign * pays[name][0]
            parts.append(("-" if sign < 0 else "") + pays[name][1])
    if value != net:
        return None
    return "=" + "+".join(parts).replace("+-", "-") if parts else "=0"


def workbook_bytes(summary: dict[str, Any], strategy_csv: str) -> bytes:
    """The workbook of a certified table (``summary``: the summary.json object)."""
    try:
        from openpyxl import Workbook  # optional dependency: the reports extra
        from openpyxl.styles import Font  # optional dependency: the reports extra
    except ImportError:
        raise StudoddsError(INSTALL_HINT) from None
    a = summary["analysis"]
    cert = summary.get("certification", {})
    wb = Workbook()
    fixed = datetime.datetime(2000, 1, 1)
    wb.properties.creator = "studodds"
    wb.properties.created = fixed
    wb.properties.modified = fixed
    wb.calculation.fullCalcOnLoad = True          # the formulas carry no cached values: compute on opening
    bold = Font(bold=True)

    rows = [r for r in a["return_table"] if not r["outcome"].startswith("fee_")]
    fees = [r for r in a["return_table"] if r["outcome"].startswith("fee_")]   # a table with draws
    first, last = 2, len(rows) + 1                     # the return table's rows on its sheet
    total = last + 1
    fee_first, fee_last = total + 1, total + len(fees)   # each fee is paid on top of an outcome
    rt = "'Return table'!"
    col = {name: f"{rt}${letter}${first}:${letter}${last}" for name, letter in
           (("net", "B"), ("comb", "C"), ("prob", "D"), ("ret", "E"), ("key", "J"))}

    ws = wb.active
    ws.title = "Figures"
    ws.append(["figure", "value", "exact", "formula"])
    pays = _paytable(wb.create_sheet("Paytable"), a["variant"])
    cells: dict[str, str] = {}

    def figure(key: str, value: Any, exact: str, formula: str = "") -> None:
        """One row: a live formula where the figure follows from the return table (its cached
        value is what the workbook shows before a recalculation), else the value itself."""
        ws.append([key, formula.format(**cells) if formula else value, exact, "yes" if formula else ""])
        cells[key] = f"$B${ws.max_row}"

    figure("raise size (antes)", float(pays["raise"][0]), str(pays["raise"][0]), f"={pays['raise'][1]}")
    figure("total combinations", a["total_combinations"], str(a["total_combinations"]), f"={rt}$C${total}")
    ev = a["expected_return_per_ante"]
    fee_loss = f"+SUMPRODUCT({rt}$C${fee_first}:$C${fee_last},{rt}$B${fee_first}:$B${fee_last})" if fees else ""
    fee_return = f"+SUM({rt}$E${fee_first}:$E${fee_last})" if fees else ""
    figure("total_loss_antes", a["total_loss_antes"]["value"], a["total_loss_antes"]["exact"],
           f"=-(SUMPRODUCT({col['comb']},{col['net']}){fee_loss})")
    figure("expected_return_per_ante", ev["value"], ev["exact"], f"={rt}$E${total}{fee_return}")
    figure("house_edge_per_ante", a["house_edge_per_ante"]["value"], a["house_edge_per_ante"]["exact"],
           "=-{expected_return_per_ante}")
    figure("raise_probability", a["raise_probability"]["value"], a["raise_probability"]["exact"],
           f'=1-SUMIF({col["key"]},"fold",{col["prob"]})')
    figure("average_total_wager_antes", a["average_total_wager_antes"]["value"], a["average_total_wager_antes"]["exact"],
           "=1+{raise size (antes)}*{raise_probability}")
    figure("element_of_risk_per_total_wager", a["element_of_risk_per_total_wager"]["value"],
           a["element_of_risk_per_total_wager"]["exact"], "={house_edge_per_ante}/{average_total_wager_antes}")
    # with fees the net result of a hand is its outcome less the fee of its action: the
    # variance and the hit frequency need the outcomes by action, which the sheet does not hold
    figure("variance_antes_squared", a["variance_antes_squared"]["value"], a["variance_antes_squared"]["exact"],
           "" if fees else f"=SUMPRODUCT({col['prob']},{col['net']},{col['net']})-{{expected_return_per_ante}}^2")
    figure("standard_deviation_antes", a["standard_deviation_antes"], "", "=SQRT({variance_antes_squared})")
    figure("hit_frequency", a["hit_frequency"]["value"], a["hit_frequency"]["exact"],
           "" if fees else f'=SUMIF({col["net"]},">0",{col["prob"]})')
    figure("dealer_qualifies_probability", a["dealer_qualifies_probability"]["value"],
           a["dealer_qualifies_probability"]["exact"])
    if "rtp_per_ante" in cert:
        figure("rtp_per_ante", cert["rtp_per_ante"]["value"], cert["rtp_per_ante"]["exact"], "=1-{house_edge_per_ante}")
        figure("rtp_per_total_wagered", cert["rtp_per_total_wagered"]["value"], cert["rtp_per_total_wagered"]["exact"],
               "=1-{element_of_risk_per_total_wager}")
    for key in ("fold_rate", "ante_return_per_hand", "raise_return_per_hand"):
        if key in cert:
            figure(key, cert[key]["value"], cert[key]["exact"], "=1-{raise_probability}" if key == "fold_rate" else "")
    for v in cert.get("volatility_index", []):
        figure(f"volatility index {v['confidence']['value']:.0%}", v["value"], "")

    ws = wb.create_sheet("Return table")
    ws.append(["outcome", "net result (antes)", "combinations", "probability", "return", "net result exact",
               "probability exact", "return exact", "1 in", "key"])
    for i, r in enumerate(rows, start=first):
        net = _net_formula(r["outcome"], Fraction(r["net_result_antes"]["exact"]), pays)
        ws.append([r["label"], net if net is not None else r["net_result_antes"]["value"], r["combinations"],
                   f"=C{i}/$C${total}", f"=D{i}*B{i}", r["net_result_antes"]["exact"], r["probability"]["exact"],
                   r["return_per_ante"]["exact"], f'=IF(C{i}>0,$C${total}/C{i},"never")', r["outcome"]])
    outcomes_return = str(sum((Fraction(r["return_per_ante"]["exact"]) for r in rows), Fraction(0)))
    ws.append(["total", None, f"=SUM(C{first}:C{last})", f"=SUM(D{first}:D{last})", f"=SUM(E{first}:E{last})",
               None, "1", outcomes_return, None, "total"])
    for i, r in enumerate(fees, start=fee_first):
        ws.append([r["label"], r["net_result_antes"]["value"], r["combinations"], f"=C{i}/$C${total}", f"=D{i}*B{i}",
                   r["net_result_antes"]["exact"], r["probability"]["exact"], r["return_per_ante"]["exact"],
                   f'=IF(C{i}>0,$C${total}/C{i},"never")', r["outcome"]])

    ws = wb.create_sheet("Strategy")
    for line in csv.reader(io.StringIO(strategy_csv)):
        ws.append([int(c) if c.isdigit() else c for c in line])

    ws = wb.create_sheet("N hands")
    ws.append(["hands", "method", "P(ahead)", "P(even)", "P(behind)", "5%", "50%", "95%", "normal P(ahead)",
               "normal 5%", "normal 50%", "normal 95%", "error bound"])
    for h in cert.get("n_hands", []):
        ws.append([h["hands"], h["method"], _number(h["ahead"]), _number(h["even"]), _number(h["behind"]),
                   *(q["net_result_antes"]["value"] for q in h["quantiles"]), h["normal"]["ahead"],
                   *(q["net_result_antes"] for q in h["normal"]["quantiles"]), h["error_bound"]])
    side = a.get("side_bets")
    if side:
        ws = wb.create_sheet("Side bets")
        ws.append(["bet", "outcome", "net result (per unit)", "combinations", "probability", "return",
                   "probability exact", "return exact"])
        for b in side["bets"]:
            for r in b["return_table"]:
                ws.append([b["name"], r["label"], r["net_result_per_wager"]["value"], r["combinations"],
                           r["probability"]["value"], r["return_per_wager"]["value"], r["probability"]["exact"],
                           r["return_per_wager"]["exact"]])
            ws.append([b["name"], "house edge", None, b["total_combinations"], None, b["house_edge"]["value"],
                       None, b["house_edge"]["exact"]])
        edge = side["combined_game"]["house_edge_per_total_wager"]
        ws.append(["combined game", "house edge per total wagered", None, None, None, edge["value"], None,
                   edge["exact"]])
    sim = summary.get("simulation")
    if sim:
        _simulation_sheet(wb.create_sheet("Simulation"), sim)
    for sheet in wb.worksheets:
        for cell in sheet[1]:
            cell.font = bold
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _simulation_sheet(ws: Any, sim: dict[str, Any]) -> None:
    """The simulation check (sampled): returns with interval, exact figure and z, then every
    frequency table with its expected counts and chi-square test, and the verdict."""
    ws.append(["simulation check (sampled)", f"{sim['games']:,} games, seed {sim['seed']}, {sim['strategy']} strategy"])
    ws.append(["generator", sim["generator"]])
    ws.append([])
    ws.append(["return", "per", "simulated", "95% low", "95% high", "exact", "exact (fraction)", "z"])
    for r in sim["returns"]:
        ex = r["exact"]
        ws.append([r["name"], r["per"], r["simulated"], r["ci95"][0], r["ci95"][1],
                   None if ex is None else ex["value"], None if ex is None else ex["exact"], r["z"]])
    for f in sim["frequencies"]:
        ws.append([])
        t = f["chi_square"]
        ws.append([f["name"], f"chi-square {t['statistic']:.4f}", f"degrees of freedom {t['degrees_of_freedom']}",
                   f"p = {t['p_value']:.6g}"])
        ws.append(["outcome", "observed", "frequency", "probability", "probability (fraction)", "expected"])
        for r in f["rows"]:
            ws.append([r["outcome"], r["observed"], r["frequency"], r["probability"]["value"], r["probability"]["exact"],
                       r["expected"]])
    ws.append([])
    ws.append(["verdict", sim["verdict"]])
