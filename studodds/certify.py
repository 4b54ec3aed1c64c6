"""Certified odds tables: per variant, ``summary.json``, ``return_table.csv``, ``report.md`` and
the ``variant.toml`` they were made from, written atomically into ``<out>/<variant>/``; and the
regression check that recomputes them.
"""
from __future__ import annotations

import csv
import datetime
import io
import json
import platform
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy

from enumerate.analysis import strategies
from enumerate.analysis.base import Analysis
from enumerate.analysis.certification import CertificationFigures, certification_figures
from enumerate.analysis.distribution import DEFAULT_HANDS
from enumerate.analysis.strategies import StrategyComparison
from enumerate.analysis.threshold_index import ThresholdIndex
from enumerate.core.atomic import atomic_write_bytes, atomic_write_text, remove_stale_temporaries
from enumerate.core.engine import ENGINE_VERSION, CountTable
from enumerate.core.jsonform import exact
from enumerate.core.parallel import resolve_threads
from enumerate.game.analysis import with_extras
from enumerate.progressive.figures import ProgressiveReport
from enumerate.progressive.figures import report as progressive_report
from enumerate.rules.compare import rule_changes
from enumerate.rules.variant_file import VariantSource, load_variant_file
from evaluator.errors import StudoddsError
from evaluator.ranking import cython_version, ordering_fingerprint
from studodds import __version__, api
from studodds.reports import pdf, xlsx
from studodds.reports.html import report_html
from studodds.reports.markdown import report_md
from studodds.reports.protection import protection_markdown
from studodds.reports.strategy import strategy_csv, strategy_markdown
from studodds.reports.text import pays_text

FILES = ("summary.json", "return_table.csv", "strategy.md", "strategy.csv", "report.md", "report.html", "variant.toml")
#: Written beside FILES by ``batch --protection`` (and then checked like them).
PROTECTION = "protection.json"
#: Written beside FILES: the machine and date of the run (not compared, not a result).
ENVIRONMENT = "environment.json"
SPOT_CHECKS = 8


def stable_origin(origin: str) -> str:
    """Where a variant came from, the same from any working directory or machine: a built-in
    name as is, a file by its name only (its content is pinned by its SHA-256)."""
    if origin.startswith("built-in ") or origin == "python" or origin.startswith("file "):
        return origin
    return f"file {Path(origin).name}"


def environment() -> dict[str, Any]:
    """Where and when a table was made (``environment.json``): recorded beside the certified
    files, never compared by ``check`` and never part of the byte-identical result files."""
    return {"kind": "environment", "tool_version": __version__, "engine_version": ENGINE_VERSION,
            "python": platform.python_version(), "numpy": numpy.__version__, "cython": cython_version(),
            "platform": platform.platform(), "machine": platform.machine(),
            "openmp": api.openmp_enabled(), "threads": resolve_threads(),
            "date_utc": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


def provenance(a: Analysis, source: VariantSource, spot_checks: int) -> dict[str, Any]:
    """Where the figures come from and which self-checks they passed."""
    return {
        "tool": "studodds", "tool_version": __version__, "engine_version": ENGINE_VERSION,
        "evaluator_ordering_sha256": ordering_fingerprint(),
        "variant_file_sha256": source.sha256, "variant_origin": stable_origin(source.origin),
        "total_combinations": a.total_combinations,
        "self_checks": {
            "return_table_rows_sum_to_total": sum(r.combinations for r in a.rows) == a.total_combinations,
            "probabilities_sum_to_one": sum(r.probability for r in a.rows) == 1,
            "brute_force_spot_checks_agree": spot_checks,
        },
    }


def summary(comparison: StrategyComparison, prov: dict[str, Any],
            side: ProgressiveReport | None, figures: CertificationFigures | None = None) -> dict[str, Any]:
    """``summary.json`` (kind "certified_table"): the objects ``analyze --json``,
    ``strategies --json`` and ``progressive --json`` print, and the provenance."""
    data: dict[str, Any] = {"kind": "certified_table",
                            "analysis": comparison.results[0].analysis.to_dict(),
                            "strategies": comparison.to_dict()}
    if figures is not None:
        data["certification"] = figures.to_dict()
    if side is not None:
        data["progressive"] = side.to_dict()
    data["provenance"] = prov
    return data


def return_table_csv(a: Analysis) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["event", "net_result_antes", "combinations", "probability", "return", "probability_exact", "return_exact"])
    for r in a.rows:
        w.writerow([r.event, pays_text(r.pays), r.combinations, f"{float(r.probability):.12f}",
                    f"{float(r.contribution):.12f}", str(r.probability), str(r.contribution)])
    w.writerow(["total", "", a.total_combinations, "1.000000000000", f"{float(a.expected_return):.12f}",
                "1", str(a.expected_return)])
    return buf.getvalue()


#: The exposure levels of protection.json: no dealer card, then 0..4 hole cards.
PROTECTION_LEVELS = (-1, 0, 1, 2, 3, 4)


def protection_data(source: VariantSource, table: CountTable, *, levels: tuple[int, ...] = PROTECTION_LEVELS,
                    threads: int | None = None, use_cache: bool = True, progress: bool = False) -> dict[str, Any]:
    """``protection.json`` (kind "protection"): the exact hole-card table (by default no dealer
    card and 0..4 hole cards) and the A/K edge-sorting analysis of a variant."""
    v = source.variant
    holes = api.hole_cards(v, levels, shares=(Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)),
                           threads=threads, use_cache=use_cache, progress=progress)
    sort = api.edge_sort(v, "AK", threads=threads, use_cache=use_cache)
    return {"kind": "protection", "variant": v.name, "hole_cards": holes.to_dict(), "edge_sort": sort.to_dict()}


def render(source: VariantSource, spot_checks: int, table: CountTable, index: Any = None,
           hands: tuple[int, ...] = DEFAULT_HANDS, protection: dict[str, Any] | None = None) -> dict[str, str]:
    """The files of a certified table, as text (``index``: see strategies.evaluate; ``hands``:
    the numbers of hands of the N-hand table; ``protection``: a protection.json object, which
    adds that file and the report's game-protection section)."""
    results, chart = strategies.evaluate(table, source.variant, strategies.simple_strategies(), index)
    results = list(results)
    a = with_extras(table, source.variant, results[0].analysis)
    results[0] = replace(results[0], analysis=a)
    comparison = StrategyComparison(source.variant.name, tuple(results))
    side = progressive_report(table, source.variant) if source.variant.progressive is not None else None
    prov = provenance(a, source, spot_checks)
    figures = certification_figures(table, a, results[1:], hands)
    data = summary(comparison, prov, side, figures)
    markdown = report_md(a, prov, results[1:], side, figures)
    extra = {}
    if protection is not None:
        markdown += "\n" + protection_markdown(protection)
        extra["protection.json"] = json.dumps(protection, indent=2) + "\n"
    return {
        **extra,
        "summary.json": json.dumps(data, indent=2) + "\n",
        "return_table.csv": return_table_csv(a),
        "strategy.md": strategy_markdown(chart, a.variant),
        "strategy.csv": strategy_csv(chart),
        "report.md": markdown,
        "report.html": report_html(markdown, data),
        "variant.toml": source.text,
    }


#: From this many variants sharing a count table and ante pays on, a batch builds a
#: ThresholdIndex (about 0.8 s) instead of running the one-pass kernel for each.
INDEX_FROM = 8


def indexes_for(sources: list[VariantSource], table: CountTable) -> dict[tuple[Fraction, Fraction], Any]:
    """ThresholdIndex per ante-pay pair used by at least INDEX_FROM of the sources."""
    uses = Counter((s.variant.ante_no_qualify, s.variant.ante_win) for s in sources)
    return {k: ThresholdIndex(table, *k) for k, n in uses.items() if n >= INDEX_FROM}


#: Formats a batch can write: the text files always, html, and the binary pdf and xlsx.
FORMATS = ("md", "html", "pdf", "xlsx")


def binary_files(files: dict[str, str], formats: set[str], notes: list[str]) -> dict[str, bytes]:
    """report.pdf (headless Chromium) and report.xlsx (openpyxl) when asked for and available;
    what cannot be made is added to ``notes`` (once per reason) instead."""
    out: dict[str, bytes] = {}
    if "pdf" in formats:
        if pdf.chromium() is None:
            if pdf.INSTALL_HINT not in notes:
                notes.append(pdf.INSTALL_HINT)
        else:
            out["report.pdf"] = pdf.html_to_pdf(files["report.html"])
    if "xlsx" in formats:
        if not xlsx.available():
            if xlsx.INSTALL_HINT not in notes:
                notes.append(xlsx.INSTALL_HINT)
        else:
            out["report.xlsx"] = xlsx.workbook_bytes(json.loads(files["summary.json"]), files["strategy.csv"])
    return out


def write(out: Path, files: dict[str, str], name: str, binary: dict[str, bytes] | None = None,
          formats: set[str] | None = None) -> Path:
    folder = Path(out) / name
    remove_stale_temporaries(folder)
    atomic_write_text(folder / ENVIRONMENT, json.dumps(environment(), indent=2) + "\n")
    for fname, data in (binary or {}).items():
        atomic_write_bytes(folder / fname, [data])
    if PROTECTION in files:
        atomic_write_text(folder / PROTECTION, files[PROTECTION])
    for fname in FILES:                       # variant.toml last: it marks a complete table
        if fname == "report.html" and formats is not None and "html" not in formats:
            continue
        atomic_write_text(folder / fname, files[fname])
    return folder


@dataclass
class Difference:
    file: str
    figure: str
    old: Any
    new: Any


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            key = str(i)
            if isinstance(v, dict):
                key = str(v.get("outcome") or v.get("name") or v.get("category") or v.get("players") or i)
            _flatten(f"{prefix}[{key}]", v, out)
    else:
        out[prefix] = value


#: Values that may differ between a committed table and a fresh one (not figures).
IGNORED = {"provenance.tool_version"}


def compare(folder: Path, fresh: dict[str, str]) -> list[Difference]:
    """Differences between committed files in ``folder`` and freshly rendered ones: every
    value of summary.json (except the tool version) and the other files line by line."""
    diffs: list[Difference] = []
    try:
        old = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [Difference("summary.json", "(file)", f"unreadable: {exc}", "recomputed")]
    diffs += _json_differences("summary.json", old, json.loads(fresh["summary.json"]))
    if PROTECTION in fresh:
        try:
            old_p = json.loads((folder / PROTECTION).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            diffs.append(Difference(PROTECTION, "(file)", f"unreadable: {exc}", "recomputed"))
        else:
            diffs += _json_differences(PROTECTION, old_p, json.loads(fresh[PROTECTION]))
    for fname in ("return_table.csv", "strategy.md", "strategy.csv", "report.md", "report.html"):
        try:
            old_lines = (folder / fname).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            diffs.append(Difference(fname, "(file)", f"unreadable: {exc.strerror}", "recomputed"))
            continue
        new_lines = fresh[fname].splitlines()
        for i in range(max(len(old_lines), len(new_lines))):
            o = old_lines[i] if i < len(old_lines) else "(missing)"
            n = new_lines[i] if i < len(new_lines) else "(missing)"
            if o != n and not _tool_version_line(o, n):
                diffs.append(Difference(fname, f"line {i + 1}", o, n))
    return diffs


def _json_differences(fname: str, old: Any, new: Any) -> list[Difference]:
    """Every value that differs between two JSON objects, by flattened key (except IGNORED
    keys and FFT floats within their tolerance)."""
    a: dict[str, Any] = {}
    b: dict[str, Any] = {}
    _flatten("", old, a)
    _flatten("", new, b)
    return [Difference(fname, key, a.get(key, "(missing)"), b.get(key, "(missing)"))
            for key in sorted(set(a) | set(b))
            if not _fft_float_close(key, a.get(key), b.get(key))
            and key not in IGNORED and a.get(key, "(missing)") != b.get(key, "(missing)")]


def _fft_float_close(key: str, old: Any, new: Any) -> bool:
    """Floating-point N-hand figures (FFT) may differ in the last bits between numpy builds;
    they agree when within 1e-9, far inside their stated error bounds' use."""
    return ("n_hands" in key and isinstance(old, float) and isinstance(new, float)
            and abs(old - new) <= 1e-9)


def _tool_version_line(old: str, new: str) -> bool:
    """The report line naming the tool version may differ (like provenance.tool_version)."""
    return any(old.startswith(p) and new.startswith(p) for p in ("- Tool: studodds", "<li>Tool: studodds"))


def committed_hands(folder: Path) -> tuple[int, ...]:
    """The numbers of hands a committed table's N-hand table was made with (the default when
    it has none), so that check recomputes the same table."""
    try:
        data = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        return tuple(int(h["hands"]) for h in data["certification"]["n_hands"]) or DEFAULT_HANDS
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_HANDS


def committed_protection_levels(folder: Path) -> tuple[int, ...]:
    """The exposure levels a committed protection.json holds (so check recomputes those)."""
    data = committed_protection(folder)
    try:
        return tuple(int(lv["exposed_hole_cards"]) for lv in data["hole_cards"]["levels"]) if data else PROTECTION_LEVELS
    except (KeyError, TypeError, ValueError):
        return PROTECTION_LEVELS


def committed_protection(folder: Path) -> dict[str, Any] | None:
    """The committed protection.json object (None if unreadable: the report then differs)."""
    try:
        data = json.loads((folder / PROTECTION).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) and data.get("kind") == "protection" else None
    except (OSError, ValueError):
        return None


def committed_source(folder: Path) -> VariantSource:
    """The variant a committed table was made from (its own variant.toml copy), under the
    origin its provenance records."""
    data = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    try:
        origin = data["provenance"]["variant_origin"]
    except (KeyError, TypeError):
        raise StudoddsError(f"{folder / 'summary.json'}: no provenance.variant_origin") from None
    return replace(load_variant_file(folder / "variant.toml"), origin=origin)


#: The headline figures a check summarises, as (key in the analysis object, label).
HEADLINE = (("house_edge_per_ante", "house edge"), ("element_of_risk_per_total_wager", "element of risk"))


def check_entry(table: Path, fresh: dict[str, str], source: VariantSource) -> dict[str, Any]:
    """The result of checking one committed table against its recomputed files: status, the
    rule changes (committed rules against the table's variant.toml), the headline deltas and
    every difference."""
    diffs = compare(table, fresh)
    entry: dict[str, Any] = {"table": str(table), "status": "differs" if diffs else "ok",
                             "rule_changes": [], "headline": {},
                             "differences": [{"file": d.file, "figure": d.figure, "old": d.old, "new": d.new}
                                             for d in diffs]}
    if not diffs:
        return entry
    try:
        old = json.loads((table / "summary.json").read_text(encoding="utf-8"))["analysis"]
        old_rules = old["variant"]
    except (OSError, ValueError, KeyError, TypeError):
        return entry
    new = json.loads(fresh["summary.json"])["analysis"]
    entry["rule_changes"] = [c.to_dict() for c in rule_changes(old_rules, source.variant.to_dict())]
    for key, _ in HEADLINE:
        try:
            a, b = Fraction(old[key]["exact"]), Fraction(new[key]["exact"])
        except (KeyError, TypeError, ValueError):
            continue
        if a != b:
            entry["headline"][key] = {"old": exact(a), "new": exact(b), "delta": exact(b - a)}
    return entry


def check_summary_line(entry: dict[str, Any]) -> str:
    """One line per table: unchanged, or the rule changes and headline deltas."""
    if entry["status"] == "ok":
        note = " (protection.json not checked: --no-protection)" if \
            str(entry.get("protection", "")).startswith("not checked") else ""
        return f"{entry['table']}: unchanged{note}"
    if entry["status"] == "unreadable":
        return f"{entry['table']}: {entry['differences'][0]['old']}"
    parts = []
    if entry["rule_changes"]:
        parts.append("rules changed: " + ", ".join(f"{c['rule']} {c['old']} -> {c['new']}" for c in entry["rule_changes"]))
    else:
        parts.append("rules unchanged, figures differ")
    labels = dict(HEADLINE)
    for key, h in entry["headline"].items():
        parts.append(f"{labels[key]} {h['old']['value']:.6%} -> {h['new']['value']:.6%} ({h['delta']['value']:+.6%})")
    parts.append(f"{len(entry['differences'])} difference(s)")
    return f"{entry['table']}: " + "; ".join(parts)
