"""The certified report as one self-contained HTML page (``report.html``).

Made from the same Markdown as ``report.md`` (one source, so the two cannot disagree), with the
styles inline, charts as inline SVG drawn from the exact figures, no script and no external
request of any kind; print-friendly (tables do not split rows, charts keep their size).  The
PDF is this page printed by a browser engine (:mod:`studodds.reports.pdf`).
"""
from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

_CSS = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #111; max-width: 60em;
       margin: 2em auto; padding: 0 1em; line-height: 1.45; font-size: 14px; }
h1 { font-size: 1.7em; border-bottom: 2px solid #333; padding-bottom: .2em; }
h2 { font-size: 1.25em; margin-top: 1.8em; border-bottom: 1px solid #bbb; }
.table { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: .8em 0; font-size: .92em; }
th, td { border: 1px solid #bbb; padding: .25em .55em; }
th { background: #eee; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
thead { display: table-header-group; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: .88em; word-break: break-all; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: .6em; overflow-x: auto; font-size: .85em; }
.warning { background: #fff3cd; border: 1px solid #e0b400; padding: .5em 1em; }
figure { margin: 1em 0; max-width: 100%; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: .9em; color: #444; }
@page { size: A4; margin: 18mm 12mm 16mm;
  @top-left { content: "Caribbean Stud Poker: VARIANT"; font: 8pt "DejaVu Sans", Arial, sans-serif; color: #555; }
  @bottom-center { content: "Page " counter(page) " of " counter(pages); font: 8pt "DejaVu Sans", Arial, sans-serif;
                   color: #555; } }
@media print {
  body { margin: 0; max-width: none; font-size: 10.5px; }
  table { font-size: .88em; } th, td { padding: .2em .4em; }
  .table { overflow: visible; }
  h1, h2, h3 { break-after: avoid-page; }
  p:has(+ .table), p:has(+ figure), p:has(+ ul) { break-after: avoid-page; }
  tr, figure, pre, li { break-inside: avoid; }
}
"""


def _inline(text: str) -> str:
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return out


def _is_number(cell: str) -> bool:
    """A cell to right-align and keep on one line: a number, a percentage, "n / m", a count with
    its net result in brackets ("9,523,005,974,460 (-1)"), "never" or "-"."""
    return bool(re.fullmatch(r"[-+]?[\d,.]+%?( / [-+\d.]+)*( \([-+\d/.]+\))?|never|-|[\d.]+e[-+]\d+|", cell.strip()))


def markdown_to_html(md: str) -> str:
    """The Markdown subset the reports use: headings, paragraphs, lists, pipe tables, fenced
    code, bold and inline code."""
    lines = md.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append("<pre>" + html.escape("\n".join(lines[i + 1:j])) + "</pre>")
            i = j + 1
        elif line.startswith("### "):
            out.append(f"<h3>{_inline(line[4:])}</h3>")
            i += 1
        elif line.startswith("## "):
            out.append(f"<h2>{_inline(line[3:])}</h2>")
            i += 1
        elif line.startswith("# "):
            out.append(f"<h1>{_inline(line[2:])}</h1>")
            i += 1
        elif line.startswith("| "):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            head, body = rows[0], [r for r in rows[1:] if not all(set(c) <= set("-:") for c in r)]
            cls = [' class="num"' if body and all(_is_number(r[k]) for r in body if k < len(r)) else ""
                   for k in range(len(head))]
            out.append('<div class="table"><table><thead><tr>'
                       + "".join(f"<th{c}>{_inline(h)}</th>" for h, c in zip(head, cls)) + "</tr></thead><tbody>")
            out += ["<tr>" + "".join(f"<td{c}>{_inline(v)}</td>" for v, c in zip(r, cls)) + "</tr>" for r in body]
            out.append("</tbody></table></div>")
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{_inline(lines[i][2:])}</li>")
                i += 1
            out += ["<ul>", *items, "</ul>"]
        elif not line.strip():
            i += 1
        else:
            para = [line]           # a line that starts no other block (e.g. "#### x") is text
            i += 1
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("#", "|", "- ", "```")):
                para.append(lines[i])
                i += 1
            out.append(f"<p>{_inline(' '.join(para))}</p>")
    return "\n".join(out)


def bar_chart_svg(title: str, labels: list[str], values: list[float], unit: str) -> str:
    """A horizontal bar chart as inline SVG (positive green, negative red), with value labels;
    the margins are sized from the longest label on each side (about 6.5 px a character at 11 px),
    so that no label is cut at the chart's edge."""
    texts = [f"{v:+.5f} {unit}".rstrip() for v in values]
    width, row = 720, 20
    left = max(120, int(6.5 * max(len(label) for label in labels)) + 12)
    right = max(60, int(6.5 * max(len(t) for t in texts)) + 12)
    # the title over the bars (bold: about 7 px a character), or, too long for that, from the
    # chart's left edge in lines
    x_title = left if 7 * len(title) <= width - left else 4
    lines = _title_lines(title, (width - x_title) // 7)
    top = 24 + 14 * (len(lines) - 1)
    height = row * len(labels) + top + 16
    span = max(abs(v) for v in values) or 1.0
    lo = min(0.0, min(values))
    hi = max(0.0, max(values))
    scale = (width - left - right) / ((hi - lo) or span)
    zero = left + (-lo) * scale
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{html.escape(title)}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11">']
    parts += [f'<text x="{x_title}" y="{14 + 14 * i}" font-weight="bold">{html.escape(line)}</text>'
              for i, line in enumerate(lines)]
    for k, (label, v) in enumerate(zip(labels, values)):
        y = top + k * row
        x0, x1 = sorted((zero, zero + v * scale))
        color = "#2e7d32" if v >= 0 else "#c62828"
        parts.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end">{html.escape(label)}</text>')
        parts.append(f'<rect x="{x0:.1f}" y="{y + 3}" width="{max(x1 - x0, 0.5):.1f}" height="{row - 6}" fill="{color}"/>')
        # the value stands right of the bar (a negative bar's right of the axis, clear of the labels)
        parts.append(f'<text x="{x1 + 4:.1f}" y="{y + 13}">{html.escape(texts[k])}</text>')
    parts.append(f'<line x1="{zero:.1f}" y1="{top - 4}" x2="{zero:.1f}" y2="{height - 8}" stroke="#333"/>')
    parts.append("</svg>")
    return "".join(parts)


def _title_lines(title: str, most: int) -> list[str]:
    """A chart's title in lines of at most ``most`` characters, broken between words (a longer
    word stands on a line of its own)."""
    lines: list[str] = []
    for word in title.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


#: A return table longer than this is charted by its largest contributions, the rest summed in one bar.
CHART_ROWS = 100
#: How many of the largest contributions such a chart shows.
CHART_LARGEST = 40


def contribution_bars(rows: list[Mapping[str, Any]]) -> tuple[str, list[str], list[float]]:
    """The return table's contribution chart: every row, or -- past :data:`CHART_ROWS` rows (a
    game with draws and options has hundreds) -- the :data:`CHART_LARGEST` largest by size in
    the table's order and one bar for the rest, summed and named."""
    title = "Contribution to the return, per ante"
    labels = [r["label"] for r in rows]
    values = [r["return_per_ante"]["value"] for r in rows]
    if len(rows) <= CHART_ROWS:
        return title, labels, values
    shown = sorted(sorted(range(len(rows)), key=lambda i: -abs(values[i]))[:CHART_LARGEST])
    rest = sorted(set(range(len(rows))) - set(shown))
    return (f"{title}: the {CHART_LARGEST} largest of {len(rows)} rows (the return table has them all)",
            [labels[i] for i in shown] + [f"the other {len(rest)} rows together"],
            [values[i] for i in shown] + [sum(values[i] for i in rest)])


def report_html(markdown: str, summary: Mapping[str, Any]) -> str:
    """The HTML report: the Markdown report's content, and charts of the return table and of
    P(ahead) after N hands, from ``summary`` (the summary.json object)."""
    a = summary["analysis"]
    title = f"Caribbean Stud Poker: {a['variant']['name']}"
    charts = [bar_chart_svg(*contribution_bars(a["return_table"]), "antes")]
    cert = summary.get("certification")
    if cert:
        hands = cert["n_hands"]
        charts.append(bar_chart_svg("Probability of being ahead after N hands",
                                    [f"{h['hands']:,} hand{'s' if h['hands'] != 1 else ''}" for h in hands],
                                    [h["ahead"]["value"] if isinstance(h["ahead"], dict) else h["ahead"] for h in hands], ""))
    body = markdown_to_html(markdown)
    body = body.replace("<h2>Warnings</h2>", '<h2 class="warning">Warnings</h2>', 1)
    figures = "\n".join(f"<figure>{c}</figure>" for c in charts)
    marker = "<h2>Figures</h2>"
    body = body.replace(marker, f"<h2>Charts</h2>\n{figures}\n{marker}", 1) if marker in body else body + figures
    css = _CSS.replace("VARIANT", _css_string(a["variant"]["name"]))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{css}</style></head>\n<body>\n{body}\n</body></html>\n")


def _css_string(text: str) -> str:
    """Text inside a CSS string: quotes and backslashes escaped, no line breaks, no '<'."""
    return re.sub(r"[\\\"]", lambda m: "\\" + m.group(0), text).replace("\n", " ").replace("<", "\\3c ")
