"""The report formats as a reader sees them: report.html rendered in a real headless browser
(screenshot not blank, headline figures in the rendered text), report.pdf printed by the same
engine (text extracted), the workbook read back, and the HTML self-contained."""
import functools
import json
import re
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parent.parent
HEADLINE = ["1,041,372,912,372", "5.224306%", "2.555286%", "94.775694%", "97.444714%"]


@pytest.fixture(scope="module")
def table(tmp_path_factory, us_counts):
    out = tmp_path_factory.mktemp("reports")
    r = run_cli("batch", "us-common", "--out", str(out), "--formats", "md,html,pdf,xlsx", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "report.pdf needs" not in r.stderr and "report.xlsx needs" not in r.stderr, r.stderr
    return out / "us-common"


@functools.cache
def _committed_workbook(name: str) -> bytes:
    """The workbook of the committed table ``name`` as the code makes it now (made once a worker:
    several tests read the same ones)."""
    from studodds.reports.xlsx import workbook_bytes
    table = ROOT / "results" / name
    return workbook_bytes(json.loads((table / "summary.json").read_text()), (table / "strategy.csv").read_text())


def _chromium():
    from studodds.reports.pdf import chromium
    exe = chromium()
    assert exe, "the report tests need headless Chromium (.ci/run installs it: apt-get install chromium)"
    return exe


@pytest.mark.slow
def test_html_is_self_contained(table):
    page = (table / "report.html").read_text()
    assert "<script" not in page and "<link" not in page and " src=" not in page
    assert not re.findall(r"https?://(?!www\.w3\.org/2000/svg)", page)       # the SVG namespace is not a request
    for needle in HEADLINE:
        assert needle in page


@pytest.mark.slow
def test_html_renders_in_a_real_browser(table, tmp_path):
    """Screenshot: not blank; rendered text (the DOM after layout): the headline figures."""
    from PIL import Image
    exe = _chromium()
    shot = tmp_path / "shot.png"
    base = [exe, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path}/profile"]
    subprocess.run([*base, f"--screenshot={shot}", "--window-size=1200,1600", (table / "report.html").as_uri()],
                   capture_output=True, timeout=120, check=True)
    img = Image.open(shot).convert("RGB")
    colors = img.getcolors(maxcolors=1 << 20) or []
    assert img.size == (1200, 1600) and len(colors) > 50                       # text, tables, bars: not blank
    dark = sum(n for n, (r, g, b) in colors if r + g + b < 200)
    assert dark > 5_000
    dom = subprocess.run([*base, "--dump-dom", (table / "report.html").as_uri()], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    text = re.sub(r"<[^>]+>", " ", dom)
    for needle in HEADLINE:
        assert needle in text


@pytest.mark.slow
def test_pdf_holds_the_headline_figures(table):
    import pypdf
    reader = pypdf.PdfReader(table / "report.pdf")
    assert len(reader.pages) >= 2
    text = " ".join(p.extract_text() for p in reader.pages)
    for needle in HEADLINE:
        assert needle in text, needle


@pytest.mark.slow
def test_workbook_reads_back(table):
    import openpyxl
    wb = openpyxl.load_workbook(table / "report.xlsx")
    assert wb.sheetnames == ["Figures", "Paytable", "Return table", "Strategy", "N hands"]
    summary = json.loads((table / "summary.json").read_text())
    figures = {row[0]: row[2] for row in wb["Figures"].iter_rows(min_row=2, values_only=True)}
    assert figures["total_loss_antes"] == "1041372912372"
    assert figures["rtp_per_ante"] == summary["certification"]["rtp_per_ante"]["exact"]
    *rows, total = list(wb["Return table"].iter_rows(min_row=2, values_only=True))
    assert [r[2] for r in rows] == [r["combinations"] for r in summary["analysis"]["return_table"]]
    assert total[0] == "total" and total[2] == f"=SUM(C2:C{len(rows) + 1})"
    assert [r[0] for r in wb["N hands"].iter_rows(min_row=2, values_only=True)] == [1, 10, 100, 1000, 10000]


@pytest.mark.slow
def test_without_a_pdf_engine_the_batch_says_so(tmp_path, us_counts, monkeypatch):
    monkeypatch.setenv("STUDODDS_CHROMIUM", str(tmp_path / "no-such-browser"))
    r = run_cli("batch", "royal-200", "--out", str(tmp_path), "--formats", "md,html,pdf", "--quiet")
    assert r.returncode == 0
    assert f"STUDODDS_CHROMIUM={tmp_path / 'no-such-browser'} names no program" in r.stderr
    assert (tmp_path / "royal-200" / "report.html").exists() and not (tmp_path / "royal-200" / "report.pdf").exists()
    monkeypatch.delenv("STUDODDS_CHROMIUM")
    monkeypatch.setenv("PATH", str(tmp_path))                 # no browser on the PATH either
    r = run_cli("batch", "royal-200", "--out", str(tmp_path / "again"), "--formats", "md,html,pdf", "--quiet")
    assert r.returncode == 0 and "report.pdf needs headless Chromium" in r.stderr


@pytest.mark.parametrize("formats,needle", [("md,docx", "unknown format 'docx'"), ("md,pdfx", "unknown format 'pdfx'")])
def test_bad_formats(formats, needle):
    r = run_cli("batch", "us-common", "--out", "/tmp/never", "--formats", formats, "--quiet")
    assert r.returncode == 2 and needle in r.stderr


def test_committed_html_reports_exist():
    for folder in (Path(__file__).resolve().parent.parent / "results").iterdir():
        if folder.is_dir():
            assert (folder / "report.html").is_file(), folder


def _formula_sheets_only(wb) -> None:
    """Drop every sheet but those the figures' formulas read (the formula engine reads only them)."""
    for sheet in wb.sheetnames:
        if sheet not in ("Figures", "Paytable", "Return table"):
            del wb[sheet]


def _recalculated(path):
    """Every cell of a workbook recomputed by an independent formula engine (the formulas package)."""
    import formulas
    solution = formulas.ExcelModel().loads(str(path)).finish().calculate()
    out = {}
    for key, value in solution.items():
        sheet, _, cell = key.rpartition("!")
        v = getattr(value, "value", value)
        out[sheet.split("]")[-1].strip("'").lower(), cell] = v[0][0] if hasattr(v, "__getitem__") and not isinstance(v, str) else v
    return out


#: One committed table of each workbook layout: the plain game, fees by action (switching, buying a
#: card), side bets, a progressive meter, a payout cap, ante bonuses.  Every committed workbook is
#: recalculated by LibreOffice below with the same checks; this second, independent formula engine
#: (8 s a workbook) reads one of each kind.
LAYOUTS = ("us-common", "oasis-one-card", "sixth-card", "palms-managua", "progressive-100-75-50", "max-payout",
           "ante-bonus")


def test_every_layout_has_a_committed_table():
    assert all((ROOT / "results" / name / "summary.json").is_file() for name in LAYOUTS)


@pytest.mark.slow
@pytest.mark.parametrize("name", LAYOUTS)
def test_workbook_formulas_recompute_the_exact_figures(name, tmp_path):
    """The workbook's live formulas, recomputed by a formula engine from its inputs (combinations
    and the paytable), give every net result exactly and every exact figure of the committed
    table to 1e-12."""
    import openpyxl

    table = ROOT / "results" / name
    summary = json.loads((table / "summary.json").read_text())
    path = tmp_path / "report.xlsx"
    path.write_bytes(_committed_workbook(name))
    wb = openpyxl.load_workbook(path)
    _formula_sheets_only(wb)
    wb.save(tmp_path / "formulas.xlsx")
    values = _recalculated(tmp_path / "formulas.xlsx")
    checked = 0
    for i, (figure, value, exact, formula) in enumerate(wb["Figures"].iter_rows(min_row=2, values_only=True), start=2):
        if formula != "yes":
            continue
        got = float(values["figures", f"B{i}"])
        want = float(Fraction(exact)) if exact else summary["analysis"]["standard_deviation_antes"]
        assert abs(got - want) <= 1e-12 * max(1.0, abs(want)), (figure, got, exact)
        checked += 1
    all_rows = summary["analysis"]["return_table"]
    rows = [r for r in all_rows if not r["outcome"].startswith("fee_")]
    fees = [r for r in all_rows if r["outcome"].startswith("fee_")]
    # a table with draws: no certification figures, and no variance or hit-frequency formula
    # (a hand's net result is its outcome less its action's fee: the sheet has no joint table)
    assert checked >= (12 if not fees else 9), checked
    formulas = [c.value for c in wb["Return table"]["B"][1:len(rows) + 1]]
    capped = "max_payout" in summary["analysis"]["variant"]
    assert all(isinstance(f, str) and f.startswith("=") for f in formulas) or capped, formulas
    fee_at = len(rows) + 3                            # the fee rows follow the total row
    fee_nets = [wb["Return table"][f"B{i}"].value for i in range(fee_at, fee_at + len(fees))]
    assert all(isinstance(f, str) and f.startswith("=-Paytable!") for f in fee_nets), fee_nets   # minus a fee input
    for i, r in [*enumerate(rows, start=2), *enumerate(fees, start=fee_at)]:
        assert float(values["return table", f"B{i}"]) == float(Fraction(r["net_result_antes"]["exact"]))
        assert abs(float(values["return table", f"D{i}"]) - float(Fraction(r["probability"]["exact"]))) <= 1e-15
        assert abs(float(values["return table", f"E{i}"]) - float(Fraction(r["return_per_ante"]["exact"]))) <= 1e-15


@pytest.mark.slow
@pytest.mark.parametrize("name,fee,paid", [("oasis-one-card", "switch_fee_1", "fee_switch"),
                                          ("lunar-pennsylvania", "draw_fee_1", "_fee_1")])
def test_a_draw_fee_is_an_input_of_the_workbook(name, fee, paid, tmp_path):
    """A draw's fee is a Paytable input: raised from 1 to 2 antes, every row that pays it nets one
    ante less and the expected return falls by the share of hands paying it (the strategy as
    counted), recomputed by the formula engine."""
    import openpyxl

    summary = json.loads((ROOT / "results" / name / "summary.json").read_text())
    a = summary["analysis"]
    path = tmp_path / "report.xlsx"
    path.write_bytes(_committed_workbook(name))
    wb = openpyxl.load_workbook(path)
    _formula_sheets_only(wb)
    sheet, cell = wb.defined_names[fee].attr_text.replace("$", "").split("!")
    assert wb[sheet][cell].value == 1
    wb[sheet][cell].value = 2
    wb.save(tmp_path / "dearer.xlsx")
    values = _recalculated(tmp_path / "dearer.xlsx")
    rows = [r for r in a["return_table"] if not r["outcome"].startswith("fee_")]
    fees = [r for r in a["return_table"] if r["outcome"].startswith("fee_")]
    ordered = [*zip(rows, range(2, len(rows) + 2)), *zip(fees, range(len(rows) + 3, len(rows) + 3 + len(fees)))]
    share = Fraction(0)
    for r, i in ordered:
        net = Fraction(r["net_result_antes"]["exact"])
        pays = r["outcome"].startswith(paid) if paid.startswith("fee_") else r["outcome"].endswith(paid)
        assert float(values["return table", f"B{i}"]) == float(net - 1 if pays else net), r["outcome"]
        share += Fraction(r["probability"]["exact"]) if pays else 0
    assert share > 0
    figures = {f: i for i, (f, *_) in enumerate(wb["Figures"].iter_rows(min_row=2, values_only=True), start=2)}
    got = float(values["figures", f"B{figures['expected_return_per_ante']}"])
    want = Fraction(a["expected_return_per_ante"]["exact"]) - share
    assert abs(got - float(want)) <= 1e-12


def _soffice():
    import shutil
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    assert exe, "the workbook test needs LibreOffice (.ci/run installs it: apt-get install libreoffice-calc)"
    return exe


def _without_cached_values(data: bytes) -> bytes:
    """The workbook with every formula's stored value set to 0: what is read back afterwards can
    only come from a recalculation."""
    import io
    import zipfile
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            part = src.read(info.filename)
            if info.filename.startswith("xl/worksheets/"):
                part, n = re.subn(rb"(</f>)<v>[^<]*</v>", rb"\1<v>0</v>", part)
            dst.writestr(info, part)
    return out.getvalue()


#: A LibreOffice profile that recalculates every formula of an xlsx file on loading.
_RECALCULATE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


@pytest.mark.slow
def test_libreoffice_recalculates_every_committed_workbook_to_the_exact_figures(tmp_path):
    """Every committed table's workbook, its stored values zeroed, recalculated by headless
    LibreOffice: every formula figure within 1e-12 of the exact one, every net result exact,
    every probability and return within 1e-15."""
    import openpyxl

    exe = _soffice()
    tables = sorted(p.parent for p in (ROOT / "results").glob("*/summary.json"))
    books = []
    for table in tables:
        summary = json.loads((table / "summary.json").read_text())
        path = tmp_path / f"{table.name}.xlsx"
        path.write_bytes(_without_cached_values(_committed_workbook(table.name)))
        books.append(path)
        n = sum(not r["outcome"].startswith("fee_") for r in summary["analysis"]["return_table"])
        source = openpyxl.load_workbook(path, read_only=True)
        formulas = [f for (f,) in source["Return table"].iter_rows(min_row=2, max_row=n + 1, min_col=2, max_col=2,
                                                                   values_only=True)]
        source.close()
        assert all(isinstance(f, str) and f.startswith("=") for f in formulas) or "max_payout" in \
            summary["analysis"]["variant"], table.name                     # net results are live formulas
    profile = tmp_path / "profile"
    (profile / "user").mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(_RECALCULATE)
    out = tmp_path / "recalculated"
    subprocess.run([exe, "--headless", f"-env:UserInstallation={profile.as_uri()}", "--convert-to", "xlsx",
                    "--outdir", str(out), *map(str, books)], capture_output=True, timeout=600, check=True)
    for table in tables:
        summary = json.loads((table / "summary.json").read_text())
        wb = openpyxl.load_workbook(out / f"{table.name}.xlsx", data_only=True, read_only=True)   # read-only: fast
        checked = 0
        for figure, value, exact, formula in wb["Figures"].iter_rows(min_row=2, max_col=4, values_only=True):
            if formula != "yes":
                continue
            want = float(Fraction(exact)) if exact else summary["analysis"]["standard_deviation_antes"]
            assert abs(value - want) <= 1e-12 * max(1.0, abs(want)), (table.name, figure, value, exact)
            checked += 1
        rows = [r for r in summary["analysis"]["return_table"] if not r["outcome"].startswith("fee_")]
        fees = [r for r in summary["analysis"]["return_table"] if r["outcome"].startswith("fee_")]
        assert checked >= (12 if not fees else 9), (table.name, checked)
        cells = list(wb["Return table"].iter_rows(min_row=2, max_col=5, values_only=True))
        fee_at = len(rows) + 1                          # the fee rows follow the total row (0: sheet row 2)
        for r, i in [*zip(rows, range(len(rows))), *zip(fees, range(fee_at, fee_at + len(fees)))]:
            _, net, _, probability, ret = cells[i]
            assert net == float(Fraction(r["net_result_antes"]["exact"])), (table.name, r["outcome"])
            assert abs(probability - float(Fraction(r["probability"]["exact"]))) <= 1e-15
            assert abs(ret - float(Fraction(r["return_per_ante"]["exact"]))) <= 1e-15
        wb.close()


@pytest.mark.slow
def test_pandas_reads_the_numbers_as_the_workbook_is_opened(tmp_path):
    """No recalculation: every formula is stored with its value, so pandas.read_excel (and any
    viewer that does not recalculate) sees the figures; number formats, frozen headers, names."""
    import openpyxl
    import pandas as pd

    from studodds.reports.xlsx import workbook_bytes
    table = ROOT / "results" / "us-common"
    summary = json.loads((table / "summary.json").read_text())
    path = tmp_path / "report.xlsx"
    path.write_bytes(workbook_bytes(summary, (table / "strategy.csv").read_text()))
    assert path.read_bytes() == _committed_workbook("us-common")   # reproducible: made again, the same bytes
    sheets = pd.read_excel(path, sheet_name=None)
    figures = sheets["Figures"].set_index("figure")
    a = summary["analysis"]
    assert figures.loc["house_edge_per_ante", "value"] == pytest.approx(a["house_edge_per_ante"]["value"], abs=1e-15)
    assert figures.loc["total_loss_antes", "value"] == 1041372912372
    rt = sheets["Return table"]
    assert list(rt["combinations"][:len(a["return_table"])]) == [r["combinations"] for r in a["return_table"]]
    assert rt["probability"][0] == pytest.approx(float(Fraction(a["return_table"][0]["probability"]["exact"])), rel=1e-15)
    strategy = sheets["Strategy"]
    assert strategy["situations_up_A"].dtype.kind == "i" and len(strategy) == 7462
    wb = openpyxl.load_workbook(path)
    assert wb["Figures"]["B5"].number_format == "0.000000%" or any(
        c.number_format == "0.000000%" for c in wb["Figures"]["B"])
    assert wb["Return table"].freeze_panes == "A2" and wb["Return table"]["C2"].number_format == "#,##0"
    assert {"raise_antes", "raise_pays_full_house", "total_combinations"} <= set(wb.defined_names)
    assert wb["Strategy"].print_area and "$AD$1" in str(wb["Strategy"].print_area)
    assert wb["Figures"].page_setup.orientation == "landscape"


@pytest.mark.slow
def test_pdf_pages_carry_a_running_header_and_page_numbers_and_no_heading_ends_a_page(table):
    """Every page: the variant top left, the tool version and the table's date top right, "Page
    N of M" at the foot; and no section heading is the last line of a page."""
    import pypdf
    reader = pypdf.PdfReader(table / "report.pdf")
    n = len(reader.pages)
    headings = {line[3:].strip() for line in (table / "report.md").read_text().splitlines() if line.startswith("## ")}
    for k, page in enumerate(reader.pages, start=1):
        lines = [line.strip() for line in page.extract_text().splitlines() if line.strip()]
        text = " ".join(lines)
        assert "Caribbean Stud Poker: us-common" in text and "studodds " in text and " - table of 20" in text, k
        assert f"Page {k} of {n}" in text, k
        body = [line for line in lines if not line.startswith(("Caribbean Stud Poker: us-common", "Page "))
                and "table of 20" not in line]
        assert body and body[-1] not in headings, (k, body[-1])


def test_chart_labels_stay_inside_the_chart():
    """Every label's estimated extent (6.5 px a character at 11 px) lies inside the SVG, with a
    viewBox so that a narrow column scales the chart instead of clipping it."""
    from studodds.reports.html import bar_chart_svg
    labels = ["player wins with three of a kind", "dealer wins", "a"]
    long_title = "Contribution to the return, per ante: the 40 largest of 201 rows (the return table has them all)"
    for title in ("t", long_title):
        svg = bar_chart_svg(title, labels, [0.38545, -0.47775, 0.0], "antes")
        width = int(re.search(r'width="(\d+)"', svg).group(1))
        assert f'viewBox="0 0 {width} ' in svg
        texts = re.findall(r'<text x="([\d.]+)" y="[\d.]+"( text-anchor="end")?( font-weight="bold")?>([^<]*)</text>', svg)
        assert " ".join(t for _, _, bold, t in texts if bold) == title            # the whole title, in lines
        for x, anchor, bold, text in texts:
            extent = (7 if bold else 6.5) * len(text)
            left, right = (float(x) - extent, float(x)) if anchor else (float(x), float(x) + extent)
            assert 0 <= left and right <= width, (text, left, right, width)


def test_a_long_return_table_is_charted_by_its_largest_rows_and_the_rest_summed():
    """Up to CHART_ROWS rows every row is a bar (every committed table); past it the largest by
    size keep the table's order and one bar holds the others' sum, so the bars add up to the
    same return."""
    from studodds.reports.html import CHART_LARGEST, CHART_ROWS, contribution_bars
    def rows(n):
        return [{"label": f"row {i}", "return_per_ante": {"value": (-1) ** i * (i % 17) / 1000}} for i in range(n)]
    title, labels, values = contribution_bars(rows(CHART_ROWS))
    assert len(labels) == CHART_ROWS and "largest" not in title
    many = rows(3 * CHART_ROWS)
    title, labels, values = contribution_bars(many)
    assert len(labels) == CHART_LARGEST + 1 and f"of {3 * CHART_ROWS} rows" in title
    assert labels[-1] == f"the other {3 * CHART_ROWS - CHART_LARGEST} rows together"
    shown = [int(label.split()[1]) for label in labels[:-1]]
    hidden = [abs(r["return_per_ante"]["value"]) for i, r in enumerate(many) if i not in shown]
    assert shown == sorted(shown) and min(abs(values[k]) for k in range(CHART_LARGEST)) >= max(hidden)
    assert abs(sum(values) - sum(r["return_per_ante"]["value"] for r in many)) < 1e-12


def test_count_and_net_cells_are_numbers_that_do_not_wrap():
    from studodds.reports.html import markdown_to_html
    page = markdown_to_html("| hand | folded |\n|---|---:|\n| high card | 9,523,005,974,460 (-1) |\n| total | 0 (-1/2) |")
    assert page.count('<td class="num">') == 2 and '<div class="table">' in page
