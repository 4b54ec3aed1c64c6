"""``report.xlsx``: the certified figures as a workbook (needs XlsxWriter: ``pip install
"studodds[reports]"``), readable as opened and exact when recalculated.

Sheets: Figures (every headline figure, value and exact fraction), Paytable (the inputs),
Return table (net result in antes, combinations as integers, probability and return with the
exact fractions beside), Strategy (the strategy.csv cells, as numbers), N hands (the net result
after N hands, with the normal approximation), Side bets, and Simulation (the sampled simulation
check of ``batch --simulate``, when the table has one).  Exact values are text cells (``p/q``)
next to numeric ones, so nothing is lost to the spreadsheet's floating point.

A reviewer can follow the arithmetic: the combinations and net results of the return table (and
the raise size) are the inputs; each probability (combinations / total), return contribution
(probability x net result), the totals, and on the Figures sheet the total loss, expected return,
house edge, raise probability (1 - P(fold)), average total wager (1 + raise x P(raise)),
element of risk, variance, standard deviation, hit frequency (P(net > 0)) and RTPs are live Excel
formulas over them (column "formula" says which); the exact fractions stay beside them as text.

Readable as opened: every formula is stored with its value (the float of the exact figure), so
a viewer that does not recalculate, and ``pandas.read_excel``, see the numbers; the workbook
still asks to be recalculated on opening.  Number formats (percentages to six places, thousands
separators), column widths, frozen header rows, the paytable inputs as named ranges
(``raise_antes``, ``raise_pays_full_house``, ``total_combinations`` ...), and a print setup:
A4 landscape, one page wide, the header row repeated, the variant and page number in the
margins; the 7,462-row Strategy sheet prints only its note (strategy.md is its printable form).
Document properties are fixed, so the same figures give the same bytes.
"""
from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from enumerate.game import kinds
from enumerate.rules.variant import PAY_CATEGORIES
from evaluator.errors import StudoddsError

INSTALL_HINT = 'report.xlsx needs XlsxWriter: pip install "studodds[reports]" (or pip install xlsxwriter)'


def available() -> bool:
    try:
        import xlsxwriter  # noqa: F401  (optional dependency: the reports extra)
    except ImportError:
        return False
    return True


class Formula:
    """A formula cell and the value it stores for readers that do not recalculate."""

    def __init__(self, formula: str, value: Any, fmt: Any = None) -> None:
        self.formula, self.value, self.fmt = formula, value, fmt


class Styled:
    """A value cell with a number format of its own."""

    def __init__(self, value: Any, fmt: Any) -> None:
        self.value, self.fmt = value, fmt


class Sheet:
    """Rows appended to an XlsxWriter worksheet, openpyxl-style: ``max_row`` is the 1-based
    number of the last row written; a cell is a value, None (empty) or a :class:`Formula`;
    ``formats`` gives each column's number format."""

    def __init__(self, ws: Any, formats: dict[int, Any] | None = None) -> None:
        self.ws, self.formats, self.max_row = ws, formats or {}, 0

    def append(self, cells: list[Any], fmt: Any = None) -> None:
        r = self.max_row
        number = self.ws.write_number
        for c, v in enumerate(cells):
            f = fmt or self.formats.get(c)
            if type(v) is int or type(v) is float:      # most cells (not bool: a bool is written as one)
                number(r, c, v, f)
            elif isinstance(v, Formula):
                self.ws.write_formula(r, c, v.formula, v.fmt or f, v.value)
            elif isinstance(v, Styled):
                self.ws.write(r, c, v.value, v.fmt)
            elif isinstance(v, str):
                self.ws.write_string(r, c, v, f)
            elif v is not None:
                self.ws.write(r, c, v, f)
        self.max_row += 1


def _number(x: Any) -> float:
    """A JSON number or exact object as a float (the workbook's numbers)."""
    return float(x["value"]) if isinstance(x, dict) else float(x)


#: Pay categories in paytable order, as variant files name them.
_CATEGORIES = tuple(c.key for c in PAY_CATEGORIES)


def _exact(x: Any) -> Fraction:
    return Fraction(x["exact"]) if isinstance(x, dict) else Fraction(x)


def _paytable(ws: Sheet, variant: dict[str, Any], names: dict[str, str], bold: Any,
              extra: Sequence[tuple[str, str, Fraction]] = ()) -> dict[str, tuple[Fraction, str]]:
    """Write the inputs of the net results -- raise size, ante pays, raise pays, ante bonus, and
    the ``extra`` inputs of the table's kind (name, label, value) -- and return {name: (exact
    value, absolute cell reference)}; each input gets a named range (``names``: name -> reference)."""
    ws.append(["input", "value", "exact", "name"], bold)
    out: dict[str, tuple[Fraction, str]] = {}

    def put(name: str, label: str, value: Fraction, range_name: str) -> None:
        ws.append([label, float(value), str(value), range_name])
        out[name] = (value, f"Paytable!$B${ws.max_row}")
        names[range_name] = out[name][1]

    put("raise", "raise size (antes)", _exact(variant.get("raise_antes", 2)), "raise_antes")
    put("ante_nq", "ante pays when the dealer does not qualify", _exact(variant["ante_pays"]["dealer_does_not_qualify"]),
        "ante_pays_dealer_does_not_qualify")
    put("ante_win", "ante pays when the player wins", _exact(variant["ante_pays"]["player_wins"]), "ante_pays_player_wins")
    for c in _CATEGORIES:
        if c in variant.get("raise_pays", {}):
            put(f"pay_{c}", f"raise pays, {c.replace('_', ' ')}", _exact(variant["raise_pays"][c]), f"raise_pays_{c}")
    for c in _CATEGORIES:
        put(f"bonus_{c}", f"ante bonus, {c.replace('_', ' ')}", _exact(variant.get("ante_bonus", {}).get(c, 0)),
            f"ante_bonus_{c}")
    for name, label, value in extra:
        put(name, label, value, name)
    return out


def _terms_formula(terms: Sequence[tuple[Fraction, tuple[str, ...]]], net: Fraction,
                   pays: dict[str, tuple[Fraction, str]]) -> str | None:
    """A net result given by its kind as terms over the Paytable inputs, as a formula, when the
    terms give the exact net (a capped payout does not: that row keeps its number)."""
    value, parts = Fraction(0), []
    for coefficient, names in terms:
        if any(n not in pays for n in names):
            return None
        product = coefficient
        for n in names:
            product *= pays[n][0]
        value += product
        refs = "*".join(pays[n][1] for n in names)
        if not names:
            parts.append(str(coefficient))
        elif coefficient == 1:
            parts.append(refs)
        elif coefficient == -1:
            parts.append("-" + refs)
        else:
            parts.append(f"{coefficient}*{refs}" if coefficient.denominator == 1 else
                         f"({coefficient.numerator}/{coefficient.denominator})*{refs}")
    if value != net:
        return None
    return "=" + "+".join(parts).replace("+-", "-") if parts else "=0"


def _net_formula(outcome: str, net: Fraction, pays: dict[str, tuple[Fraction, str]]) -> str | None:
    """The net result of a plain return-table row as a formula over the Paytable inputs, when the
    rule it encodes gives the exact net (a capped payout does not: that row keeps its number)."""
    base, _, bonus_of = outcome.partition("_bonus_")
    one = Fraction(1)
    terms: list[tuple[Fraction, tuple[str, ...]]] = []
    if base.startswith("player_wins_") and f"pay_{base[len('player_wins_'):]}" in pays:
        cat = base[len("player_wins_"):]
        terms = [(one, ("ante_win",)), (one, (f"bonus_{cat}",)), (one, ("raise", f"pay_{cat}"))]
    elif base == "dealer_does_not_qualify":
        terms = [(one, ("ante_nq",))]
    elif base == "dealer_wins":
        terms = [(-one, ()), (-one, ("raise",))]
    elif base == "fold":
        terms = [(-one, ())]
    elif base != "push":
        return None
    if bonus_of:
        terms.append((one, (f"bonus_{bonus_of}",)))
    return _terms_formula(terms, net, pays)


#: Figures shown as percentages; the others are plain decimals (total loss and combinations: integers).
_PERCENT = {"house_edge_per_ante", "raise_probability", "element_of_risk_per_total_wager", "hit_frequency",
            "dealer_qualifies_probability", "rtp_per_ante", "rtp_per_total_wagered", "fold_rate"}


def workbook_bytes(summary: Mapping[str, Any], strategy_csv: str) -> bytes:
    """The workbook of a certified table (``summary``: the summary.json object)."""
    try:
        import xlsxwriter  # optional dependency: the reports extra
    except ImportError:
        raise StudoddsError(INSTALL_HINT) from None
    a = summary["analysis"]
    cert = summary.get("certification", {})
    version = summary.get("provenance", {}).get("tool_version", "")
    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_numbers": False, "strings_to_formulas": False})
    fixed = datetime.datetime(2000, 1, 1)
    wb.set_properties({"creator": "studodds", "created": fixed, "title": f"Certified odds table: {a['variant']['name']}"})
    wb.set_calc_mode("auto")
    fmt = {
        "head": wb.add_format({"bold": True, "bottom": 1, "text_wrap": True, "valign": "top"}),
        "pct": wb.add_format({"num_format": "0.000000%"}),
        "int": wb.add_format({"num_format": "#,##0"}),
        "dec": wb.add_format({"num_format": "0.000000"}),
        "p10": wb.add_format({"num_format": "0.0000000000"}),
        "net": wb.add_format({"num_format": "0.######"}),
        "odds": wb.add_format({"num_format": "#,##0.0"}),
        "text": wb.add_format({"num_format": "@"}),
        "wrap": wb.add_format({"text_wrap": True, "valign": "top"}),
    }
    names: dict[str, str] = {}

    def sheet(title: str, widths: Sequence[float], formats: dict[int, Any] | None = None, print_it: bool = True) -> Sheet:
        ws = wb.add_worksheet(title)
        for c, w in enumerate(widths):
            ws.set_column(c, c, w)
        ws.freeze_panes(1, 0)
        if print_it:
            ws.set_paper(9)                                # A4
            ws.set_landscape()
            ws.fit_to_pages(1, 0)                          # one page wide, as many long as needed
            ws.repeat_rows(0)
        ws.set_header(f"&L{_header_text(a['variant']['name'])} - {title}&Rstudodds {_header_text(version)}")
        ws.set_footer("&CPage &P of &N")
        return Sheet(ws, formats)

    rows = [r for r in a["return_table"] if not r["outcome"].startswith("fee_")]
    fees = [r for r in a["return_table"] if r["outcome"].startswith("fee_")]   # a table with draws
    first, last = 2, len(rows) + 1                     # the return table's rows on its sheet
    total = last + 1
    fee_first, fee_last = total + 1, total + len(fees)   # each fee is paid on top of an outcome
    total_combinations = sum(r["combinations"] for r in rows)
    rt = "'Return table'!"
    col = {name: f"{rt}${letter}${first}:${letter}${last}" for name, letter in
           (("net", "B"), ("comb", "C"), ("prob", "D"), ("ret", "E"), ("key", "J"))}

    ws = sheet("Figures", [34, 22, 50, 9])
    ws.append(["figure", "value", "exact", "formula"], fmt["head"])
    pays = _paytable(sheet("Paytable", [46, 12, 14, 34]), a["variant"], names, fmt["head"],
                     [i for kind in kinds.KINDS for i in kind.report.workbook_inputs(a)])
    terms = {k: v for kind in kinds.KINDS for k, v in kind.report.net_terms(a).items()}
    extra_wager = next((w for kind in kinds.KINDS if (w := kind.report.wager_extra(a)) is not None), None)
    cells: dict[str, str] = {}

    def figure(key: str, value: Any, exact: str, formula: str = "") -> None:
        """One row: a live formula (stored with its value) where the figure follows from the
        return table, else the value itself."""
        number = fmt["pct"] if key in _PERCENT else fmt["int"] if key in ("total combinations", "total_loss_antes") \
            else fmt["dec"]
        ws.append([key, Formula(formula.format(**cells), value, number) if formula else Styled(value, number), exact,
                   "yes" if formula else ""])
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
    # the rows of hands not raised, by the start of their key: the folds (with a fee or not) and
    # what a kind makes without a bet (a Russian table's dealt hands paid at once)
    starts = ("fold", *(p for kind in kinds.KINDS for p in kind.report.not_raised(a)))
    not_raised = "+".join(f'(LEFT({col["key"]},{len(p)})="{p}")' for p in starts)
    figure("raise_probability", a["raise_probability"]["value"], a["raise_probability"]["exact"],
           f'=1-SUMPRODUCT(({not_raised})*{col["prob"]})')
    if extra_wager is not None:                    # a wager beyond ante and raise (insurance)
        figure(extra_wager[0], extra_wager[1]["value"], extra_wager[1]["exact"])
    figure("average_total_wager_antes", a["average_total_wager_antes"]["value"], a["average_total_wager_antes"]["exact"],
           "=1+{raise size (antes)}*{raise_probability}" + ("" if extra_wager is None else f"+{{{extra_wager[0]}}}"))
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
    # the return to player and the fold rate: the certification's figures, or (a table without
    # them: draws, two boxes) the same complements of the analysis's
    derived = {"rtp_per_ante": "house_edge_per_ante", "rtp_per_total_wagered": "element_of_risk_per_total_wager",
               "fold_rate": "raise_probability"}
    for key, base in derived.items():
        value = a.get(key) or cert.get(key) or {"exact": str(1 - Fraction(a[base]["exact"])), "value": 1 - a[base]["value"]}
        figure(key, value["value"], value["exact"], f"=1-{{{base}}}")
    for key in ("ante_return_per_hand", "raise_return_per_hand"):
        if key in cert:
            figure(key, cert[key]["value"], cert[key]["exact"])
    for v in cert.get("volatility_index", []):
        figure(f"volatility index {v['confidence']['value']:.0%}", v["value"], "")

    ws = sheet("Return table", [44, 12, 20, 14, 14, 14, 30, 30, 16, 30],
               {1: fmt["net"], 2: fmt["int"], 3: fmt["p10"], 4: fmt["p10"], 8: fmt["odds"]})
    ws.append(["outcome", "net result (antes)", "combinations", "probability", "return", "net result exact",
               "probability exact", "return exact", "1 in", "key"], fmt["head"])

    def row_cells(i: int, r: dict[str, Any]) -> list[Any]:
        """A return-table row; its net result a formula over the Paytable inputs -- the kind's
        terms, else a plain outcome's rule (a fee row: minus its action's fee input) -- when they
        give the exact net, else the number."""
        comb, exact_net = r["combinations"], Fraction(r["net_result_antes"]["exact"])
        net = _terms_formula(terms[r["outcome"]], exact_net, pays) if r["outcome"] in terms else \
            _net_formula(r["outcome"], exact_net, pays)
        return [r["label"], Formula(net, float(exact_net)) if net is not None else float(exact_net), comb,
                Formula(f"=C{i}/$C${total}", float(Fraction(r["probability"]["exact"]))),
                Formula(f"=D{i}*B{i}", float(Fraction(r["return_per_ante"]["exact"]))), r["net_result_antes"]["exact"],
                r["probability"]["exact"], r["return_per_ante"]["exact"],
                Formula(f'=IF(C{i}>0,$C${total}/C{i},"never")', total_combinations / comb if comb else "never"),
                r["outcome"]]
    for i, r in enumerate(rows, start=first):
        ws.append(row_cells(i, r))
    outcomes_return = sum((Fraction(r["return_per_ante"]["exact"]) for r in rows), Fraction(0))
    ws.append(["total", None, Formula(f"=SUM(C{first}:C{last})", total_combinations),
               Formula(f"=SUM(D{first}:D{last})", 1.0), Formula(f"=SUM(E{first}:E{last})", float(outcomes_return)),
               None, "1", str(outcomes_return), None, "total"], None)
    names["total_combinations"] = f"{rt}$C${total}"
    for i, r in enumerate(fees, start=fee_first):
        ws.append(row_cells(i, r))

    lines = list(csv.reader(io.StringIO(strategy_csv)))
    ws = sheet("Strategy", [16, 22] + [9] * (len(lines[0]) - 2), print_it=False)
    ws.ws.freeze_panes(1, 2)
    for k, line in enumerate(lines):
        ws.append([int(c) if c.isdigit() else c for c in line], fmt["head"] if k == 0 else None)
    note_col = len(lines[0]) + 1
    ws.ws.write_string(0, note_col, f"{len(lines) - 1:,} rows: for filtering, not for printing (strategy.md is the "
                                    "printable chart)", fmt["wrap"])
    ws.ws.set_column(note_col, note_col, 40)
    ws.ws.print_area(0, note_col, 0, note_col)

    if cert.get("n_hands"):
        ws = sheet("N hands", [8, 16, 12, 12, 12, 10, 10, 10, 14, 10, 10, 10, 12],
                   {2: fmt["dec"], 3: fmt["dec"], 4: fmt["dec"], 8: fmt["dec"],
                    12: wb.add_format({"num_format": "0.00E+00"})})
        ws.append(["hands", "method", "P(ahead)", "P(even)", "P(behind)", "5%", "50%", "95%", "normal P(ahead)",
                   "normal 5%", "normal 50%", "normal 95%", "error bound"], fmt["head"])
        for h in cert["n_hands"]:
            ws.append([h["hands"], h["method"], _number(h["ahead"]), _number(h["even"]), _number(h["behind"]),
                       *(q["net_result_antes"]["value"] for q in h["quantiles"]), h["normal"]["ahead"],
                       *(q["net_result_antes"] for q in h["normal"]["quantiles"]), h["error_bound"]])
    for kind in kinds.KINDS:                       # the sheets of the kind's own figures
        for name, header, rows in kind.report.workbook(a):
            ws = sheet(name, [48, 16, 60], {1: fmt["dec"]})
            ws.append(header, fmt["head"])
            for row in rows:
                ws.append(row)
    side = a.get("side_bets")
    if side:
        ws = sheet("Side bets", [16, 44, 12, 20, 14, 14, 30, 30],
                   {2: fmt["net"], 3: fmt["int"], 4: fmt["p10"], 5: fmt["p10"]})
        ws.append(["bet", "outcome", "net result (per unit)", "combinations", "probability", "return",
                   "probability exact", "return exact"], fmt["head"])
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
        _simulation_sheet(sheet("Simulation", [30, 22, 14, 14, 14, 14, 30, 10]), sim, fmt["head"])
    for name, ref in names.items():
        wb.define_name(name, f"={ref}")
    wb.close()
    return buf.getvalue()


def _header_text(text: str) -> str:
    """Text for a print header: '&' doubled (a code otherwise), at most 60 characters."""
    return str(text)[:60].replace("&", "&&")


def _simulation_sheet(ws: Sheet, sim: dict[str, Any], bold: Any) -> None:
    """The simulation check (sampled): returns with interval, exact figure and z, then every
    frequency table with its expected counts and chi-square test, and the verdict."""
    ws.append(["simulation check (sampled)", f"{sim['games']:,} games, seed {sim['seed']}, {sim['strategy']} strategy"])
    ws.append(["generator", sim["generator"]])
    ws.append([])
    ws.append(["return", "per", "simulated", "95% low", "95% high", "exact", "exact (fraction)", "z"], bold)
    for r in sim["returns"]:
        ex = r["exact"]
        ws.append([r["name"], r["per"], r["simulated"], r["ci95"][0], r["ci95"][1],
                   None if ex is None else ex["value"], None if ex is None else ex["exact"], r["z"]])
    for f in sim["frequencies"]:
        ws.append([])
        t = f["chi_square"]
        ws.append([f["name"], f"chi-square {t['statistic']:.4f}", f"degrees of freedom {t['degrees_of_freedom']}",
                   f"p = {t['p_value']:.6g}"])
        ws.append(["outcome", "observed", "frequency", "probability", "probability (fraction)", "expected"], bold)
        for r in f["rows"]:
            ws.append([r.get("label", r["outcome"]), r["observed"], r["frequency"], r["probability"]["value"], r["probability"]["exact"],
                       r["expected"]])
    ws.append([])
    ws.append(["verdict", sim["verdict"]])
