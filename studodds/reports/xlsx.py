"""``report.xlsx``: the certified figures as a workbook (needs openpyxl: ``pip install
"studodds[reports]"``).

Sheets: Figures (every headline figure, value and exact fraction), Return table (net result in
antes, combinations as integers, probability and return as numbers with the exact fractions
beside), Strategy (the strategy.csv cells), N hands (the net result after N hands, with the
normal approximation).  Exact values are text cells (``p/q``) next to numeric ones, so nothing is
lost to the spreadsheet's floating point.  Document properties are fixed, so the same figures
give the same bytes.
"""
from __future__ import annotations

import csv
import datetime
import io
from typing import Any

from evaluator.errors import StudoddsError

INSTALL_HINT = 'report.xlsx needs openpyxl: pip install "studodds[reports]" (or pip install openpyxl)'


def available() -> bool:
    try:
        import openpyxl  # noqa: F401  (optional dependency: the reports extra)
    except ImportError:
        return False
    return True


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
    bold = Font(bold=True)

    ws = wb.active
    ws.title = "Figures"
    ws.append(["figure", "value", "exact"])
    figures: list[tuple[str, Any, str]] = [("total combinations", a["total_combinations"], str(a["total_combinations"]))]
    for key in ("total_loss_antes", "house_edge_per_ante", "element_of_risk_per_total_wager", "expected_return_per_ante",
                "average_total_wager_antes", "variance_antes_squared", "raise_probability",
                "dealer_qualifies_probability", "hit_frequency"):
        figures.append((key, a[key]["value"], a[key]["exact"]))
    figures.append(("standard_deviation_antes", a["standard_deviation_antes"], ""))
    for key in ("rtp_per_ante", "rtp_per_total_wagered", "fold_rate", "ante_return_per_hand", "raise_return_per_hand"):
        if key in cert:
            figures.append((key, cert[key]["value"], cert[key]["exact"]))
    for v in cert.get("volatility_index", []):
        figures.append((f"volatility index {v['confidence']['value']:.0%}", v["value"], ""))
    for row in figures:
        ws.append(list(row))

    ws = wb.create_sheet("Return table")
    ws.append(["outcome", "net result (antes)", "combinations", "probability", "return", "probability exact",
               "return exact", "1 in"])
    for r in a["return_table"]:
        one_in = cert.get("one_in", {}).get(r["outcome"])
        ws.append([r["label"], r["net_result_antes"]["value"], r["combinations"], r["probability"]["value"],
                   r["return_per_ante"]["value"], r["probability"]["exact"], r["return_per_ante"]["exact"],
                   one_in["value"] if one_in else None])

    ws = wb.create_sheet("Strategy")
    for cells in csv.reader(io.StringIO(strategy_csv)):
        ws.append(cells)

    ws = wb.create_sheet("N hands")
    ws.append(["hands", "method", "P(ahead)", "P(even)", "P(behind)", "5%", "50%", "95%", "normal P(ahead)",
               "normal 5%", "normal 50%", "normal 95%", "error bound"])
    for h in cert.get("n_hands", []):
        def val(x: Any) -> float:
            return float(x["value"]) if isinstance(x, dict) else float(x)
        ws.append([h["hands"], h["method"], val(h["ahead"]), val(h["even"]), val(h["behind"]),
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
    for sheet in wb.worksheets:
        for cell in sheet[1]:
            cell.font = bold
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
