"""Certified odds tables, as library calls: :func:`batch` writes them, :func:`check` recomputes
committed ones and reports every difference.

A table is the folder ``<out>/<variant>/``: ``summary.json`` (every exact figure, the provenance),
``return_table.csv``, ``strategy.md``/``.csv``, ``report.md`` (``.html``, ``.pdf``, ``.xlsx`` as
asked), the ``variant.toml`` it was made from and, with protection levels, ``protection.json``;
``environment.json`` records the machine and date and is never compared.

Nothing half-written: a batch renders every table into a staging folder inside ``out`` first,
and only when all of them are complete -- and, with ``strict``, free of sanity warnings -- moves
each file into place with an atomic rename (``variant.toml`` last: it marks a complete table).
An error or an interruption leaves ``out`` as it was.

:func:`batch` returns a :class:`BatchResult` and :func:`check` a :class:`CheckResult`; their
``to_dict()`` is what ``studodds batch --json`` and ``studodds check --json`` print, and the
command line prints their ``text()`` otherwise.
"""
from __future__ import annotations

import csv
import datetime
import io
import json
import os
import platform
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy

from enumerate.analysis import strategies
from enumerate.analysis.base import Analysis
from enumerate.analysis.certification import CertificationFigures, certification_figures
from enumerate.analysis.distribution import DEFAULT_HANDS
from enumerate.analysis.selfcheck import spot_check
from enumerate.analysis.strategies import StrategyComparison
from enumerate.analysis.threshold_index import ThresholdIndex
from enumerate.core.atomic import atomic_write_bytes, atomic_write_text, remove_stale_temporaries, temporary_folder
from enumerate.core.engine import ENGINE_VERSION, CountTable
from enumerate.core.jsonform import exact
from enumerate.core.parallel import check_threads, resolve_threads, using_threads
from enumerate.game.analysis import with_extras
from enumerate.progressive.figures import ProgressiveReport
from enumerate.progressive.figures import report as progressive_report
from enumerate.rules.compare import rule_changes
from enumerate.rules.sanity import rule_warnings, strict_error
from enumerate.rules.variant_file import VariantSource, load_variant_file, resolve_many
from evaluator.errors import ParameterError, StudoddsError
from evaluator.ranking import cython_version, ordering_fingerprint
from studodds import __version__, api
from studodds.progress import bar_factory
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


@dataclass(frozen=True)
class RenderedTable:
    """The files of one certified table as text, with the objects they were made from (so
    nothing has to read back the JSON it has just written)."""

    name: str
    files: dict[str, str]
    summary: dict[str, Any]
    protection: dict[str, Any] | None = None

    @property
    def warnings(self) -> list[str]:
        """The sanity warnings of the rules and the result (see :mod:`enumerate.rules.sanity`)."""
        return list(self.summary["analysis"]["warnings"])


def render(source: VariantSource, spot_checks: int, table: CountTable, index: Any = None,
           hands: tuple[int, ...] = DEFAULT_HANDS, protection: dict[str, Any] | None = None) -> RenderedTable:
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
    files = {
        **extra,
        "summary.json": json.dumps(data, indent=2) + "\n",
        "return_table.csv": return_table_csv(a),
        "strategy.md": strategy_markdown(chart, a.variant),
        "strategy.csv": strategy_csv(chart),
        "report.md": markdown,
        "report.html": report_html(markdown, data),
        "variant.toml": source.text,
    }
    return RenderedTable(source.variant.name, files, data, protection)


#: From this many variants sharing a count table and ante pays on, a batch builds a
#: ThresholdIndex (about 0.8 s) instead of running the one-pass kernel for each.
INDEX_FROM = 8


def indexes_for(sources: list[VariantSource], table: CountTable) -> dict[tuple[Fraction, Fraction], Any]:
    """ThresholdIndex per ante-pay pair used by at least INDEX_FROM of the sources."""
    uses = Counter((s.variant.ante_no_qualify, s.variant.ante_win) for s in sources)
    return {k: ThresholdIndex(table, *k) for k, n in uses.items() if n >= INDEX_FROM}


#: Formats a batch can write: the text files always, html, and the binary pdf and xlsx.
FORMATS = ("md", "html", "pdf", "xlsx")


def binary_files(table: RenderedTable, formats: set[str], notes: list[str]) -> dict[str, bytes]:
    """report.pdf (headless Chromium) and report.xlsx (openpyxl) when asked for and available;
    what cannot be made is added to ``notes`` (once per reason) instead."""
    out: dict[str, bytes] = {}
    if "pdf" in formats:
        if pdf.chromium() is None:
            if pdf.INSTALL_HINT not in notes:
                notes.append(pdf.INSTALL_HINT)
        else:
            out["report.pdf"] = pdf.html_to_pdf(table.files["report.html"])
    if "xlsx" in formats:
        if not xlsx.available():
            if xlsx.INSTALL_HINT not in notes:
                notes.append(xlsx.INSTALL_HINT)
        else:
            out["report.xlsx"] = xlsx.workbook_bytes(table.summary, table.files["strategy.csv"])
    return out


def written_files(table: RenderedTable, formats: set[str], binary: dict[str, bytes]) -> list[str]:
    """The names of the files :func:`write` writes for ``table``, in the order it writes them
    (``variant.toml`` last)."""
    names = [ENVIRONMENT, *binary]
    if PROTECTION in table.files:
        names.append(PROTECTION)
    return names + [f for f in FILES if f != "report.html" or "html" in formats]


def write(out: Path, table: RenderedTable, binary: dict[str, bytes] | None = None,
          formats: set[str] | None = None) -> Path:
    """Write the files of ``table`` into ``out/<name>/``, each atomically, ``variant.toml`` last."""
    files = table.files
    folder = Path(out) / table.name
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


def compare(folder: Path, fresh: RenderedTable) -> list[Difference]:
    """Differences between committed files in ``folder`` and freshly rendered ones: every
    value of summary.json (except the tool version) and the other files line by line.
    ``report.html`` is compared when the table has one (``batch --formats md`` writes none)."""
    diffs: list[Difference] = []
    try:
        old = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [Difference("summary.json", "(file)", f"unreadable: {exc}", "recomputed")]
    diffs += _json_differences("summary.json", old, fresh.summary)
    if fresh.protection is not None and PROTECTION in fresh.files:
        try:
            old_p = json.loads((folder / PROTECTION).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            diffs.append(Difference(PROTECTION, "(file)", f"unreadable: {exc}", "recomputed"))
        else:
            diffs += _json_differences(PROTECTION, old_p, fresh.protection)
    for fname in ("return_table.csv", "strategy.md", "strategy.csv", "report.md", "report.html"):
        if fname == "report.html" and not (folder / fname).exists():
            continue
        try:
            old_lines = (folder / fname).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            diffs.append(Difference(fname, "(file)", f"unreadable: {exc.strerror}", "recomputed"))
            continue
        new_lines = fresh.files[fname].splitlines()
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


@dataclass(frozen=True)
class TableCheck:
    """The result of checking one committed table: ``status`` "ok", "differs" or "unreadable";
    the rule changes (committed rules against the table's variant.toml), the headline deltas
    and every difference; ``protection``: whether protection.json was recomputed."""

    table: str
    status: str
    rule_changes: tuple[dict[str, Any], ...] = ()
    headline: dict[str, Any] = field(default_factory=dict)
    differences: tuple[Difference, ...] = ()
    protection: str | None = None          # "checked", "none", "not checked (--no-protection)"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table, "status": self.status, "rule_changes": list(self.rule_changes),
                               "headline": self.headline,
                               "differences": [{"file": d.file, "figure": d.figure, "old": d.old, "new": d.new}
                                               for d in self.differences]}
        if self.protection is not None:
            out["protection"] = self.protection
        return out

    def summary_line(self) -> str:
        """One line: unchanged, or the rule changes and headline deltas."""
        if self.status == "ok":
            note = " (protection.json not checked: --no-protection)" if (self.protection or "").startswith("not checked") else ""
            return f"{self.table}: unchanged{note}"
        if self.status == "unreadable":
            return f"{self.table}: {self.differences[0].old}"
        parts = []
        if self.rule_changes:
            parts.append("rules changed: " + ", ".join(f"{c['rule']} {c['old']} -> {c['new']}" for c in self.rule_changes))
        else:
            parts.append("rules unchanged, figures differ")
        labels = dict(HEADLINE)
        for key, h in self.headline.items():
            parts.append(f"{labels[key]} {h['old']['value']:.6%} -> {h['new']['value']:.6%} ({h['delta']['value']:+.6%})")
        parts.append(f"{len(self.differences)} difference(s)")
        return f"{self.table}: " + "; ".join(parts)


def check_table(table: Path, fresh: RenderedTable, source: VariantSource, protection: str | None = None) -> TableCheck:
    """Check one committed table against its recomputed files (see :class:`TableCheck`)."""
    diffs = tuple(compare(table, fresh))
    if not diffs:
        return TableCheck(str(table), "ok", protection=protection)
    changes: tuple[dict[str, Any], ...] = ()
    headline: dict[str, Any] = {}
    try:
        old = json.loads((table / "summary.json").read_text(encoding="utf-8"))["analysis"]
        old_rules = old["variant"]
    except (OSError, ValueError, KeyError, TypeError):
        return TableCheck(str(table), "differs", differences=diffs, protection=protection)
    new = fresh.summary["analysis"]
    changes = tuple(c.to_dict() for c in rule_changes(old_rules, source.variant.to_dict()))
    for key, _ in HEADLINE:
        try:
            a, b = Fraction(old[key]["exact"]), Fraction(new[key]["exact"])
        except (KeyError, TypeError, ValueError):
            continue
        if a != b:
            headline[key] = {"old": exact(a), "new": exact(b), "delta": exact(b - a)}
    return TableCheck(str(table), "differs", changes, headline, diffs, protection)


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check` found: one :class:`TableCheck` per committed table."""

    folder: str
    tables: tuple[TableCheck, ...]

    @property
    def tables_with_differences(self) -> int:
        return sum(1 for t in self.tables if t.status != "ok")

    @property
    def ok(self) -> bool:
        """True when every table was recomputed identically."""
        return self.tables_with_differences == 0

    def to_dict(self) -> dict[str, Any]:
        """kind "check": what ``studodds check --json`` prints."""
        return {"kind": "check", "folder": self.folder, "tables": [t.to_dict() for t in self.tables],
                "tables_with_differences": self.tables_with_differences}

    def text(self) -> str:
        """Summary lines first (one per table), then the details of each table that differs."""
        lines = [t.summary_line() for t in self.tables]
        lines.append(f"checked {len(self.tables)} table(s): {self.tables_with_differences} with differences")
        for t in self.tables:
            if t.status != "differs":
                continue
            diffs = t.differences
            lines += ["", f"{t.table}: {len(diffs)} difference(s)"]
            lines += [f"  {d.file}: {d.figure}: old {d.old!r} -> new {d.new!r}" for d in diffs[:50]]
            if len(diffs) > 50:
                lines.append(f"  ... and {len(diffs) - 50} more (--json lists all)")
        return "\n".join(lines)


def check(folder: str | Path = "results", *, protection: bool = True, threads: int | None = None,
          use_cache: bool = True, progress: bool = False) -> CheckResult:
    """Recompute every committed table ``<folder>/<variant>/`` from its own variant.toml and
    compare every exact value and every line of its files.  ``protection=False`` does not
    recompute protection.json (minutes when not cached): the report's protection section is
    then rendered from the committed file, and the file itself is not compared."""
    check_threads(threads)
    root = Path(folder)
    if not root.is_dir():
        raise ParameterError("folder", f"{root}: no such folder of results")
    tables = sorted(p.parent for p in root.glob("*/summary.json"))
    if not tables:
        raise ParameterError("folder", f"{root}: holds no results (no */summary.json)")
    with using_threads(threads):
        return CheckResult(str(root), tuple(_check_each(tables, protection, threads, use_cache, progress)))


def _check_each(tables: list[Path], protection: bool, threads: int | None, use_cache: bool,
                progress: bool) -> Iterator[TableCheck]:
    spot_checked: dict[int, int] = {}
    for table in tables:
        try:
            source = committed_source(table)
        except (OSError, ValueError, KeyError) as exc:
            reason = f"cannot read the committed variant: {one_line(exc)}"
            yield TableCheck(str(table), "unreadable", differences=(Difference("variant.toml", "(file)", reason, None),))
            continue
        counts = api.count_table(source.variant, threads=threads, use_cache=use_cache, progress=progress)
        q = source.variant.qualifier.threshold
        if q not in spot_checked:
            spot_checked[q] = spot_check(counts, SPOT_CHECKS)
        committed: dict[str, Any] | None = None
        state = "none"
        if (table / PROTECTION).exists():
            if protection:
                committed = protection_data(source, counts, levels=committed_protection_levels(table),
                                            threads=threads, use_cache=use_cache, progress=progress)
                state = "checked"
            else:
                committed = committed_protection(table)
                state = "not checked (--no-protection)"
        fresh = render(source, spot_checked[q], counts, hands=committed_hands(table), protection=committed)
        if state.startswith("not checked"):
            fresh = replace(fresh, files={k: v for k, v in fresh.files.items() if k != PROTECTION}, protection=None)
        yield check_table(table, fresh, source, state)


def one_line(message: object) -> str:
    """A message on one line whatever the input echoed in it holds."""
    return str(message).replace("\r", "\\r").replace("\n", "\\n")


@dataclass(frozen=True)
class WrittenTable:
    """One table a batch wrote: the variant, its folder and the files written there."""

    variant: str
    folder: str
    files: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "folder": self.folder, "files": list(self.files)}


@dataclass(frozen=True)
class BatchResult:
    """What :func:`batch` wrote, the sanity warnings of each table as ``(variant, warning)``, and
    notes about formats that could not be made (a missing browser or openpyxl)."""

    out: str
    tables: tuple[WrittenTable, ...]
    warnings: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """kind "batch": what ``studodds batch --json`` prints."""
        return {"kind": "batch", "out": self.out, "tables": [t.to_dict() for t in self.tables]}

    def text(self) -> str:
        return "\n".join(f"{t.folder}/" for t in self.tables)


def report_formats(formats: Iterable[str] | str | None) -> set[str]:
    """The report formats of a batch: ``md`` always, plus any of ``html``, ``pdf`` (printed from
    the html) and ``xlsx``; None means ``$STUDODDS_FORMATS``, else all."""
    if formats is None:
        formats = os.environ.get("STUDODDS_FORMATS", ",".join(FORMATS))
    items = formats.split(",") if isinstance(formats, str) else list(formats)
    chosen = {f.strip() for f in items if f.strip()} | {"md"}
    unknown = chosen - set(FORMATS)
    if unknown:
        raise ParameterError("formats", f"unknown format {sorted(unknown)[0]!r} (choose from {', '.join(FORMATS)})")
    if "pdf" in chosen and "html" not in chosen:
        raise ParameterError("formats", "pdf is printed from the html report: ask for html too")
    return chosen


def hand_counts(hands: Iterable[int]) -> tuple[int, ...]:
    """The numbers of hands of the N-hand table: distinct whole numbers 1..1,000,000, sorted."""
    try:
        values = sorted({int(h) for h in hands})
    except (TypeError, ValueError):
        raise ParameterError("hands", f"{hands!r} is not a list of whole numbers such as 1,10,100") from None
    if not values or values[0] < 1 or values[-1] > 1_000_000:
        raise ParameterError("hands", "give numbers of hands from 1 to 1,000,000")
    return tuple(values)


def writable_folder(folder: Path, parameter: str, make: bool = False, named: Path | None = None) -> None:
    """Fail now, before minutes of computing, if files cannot be created in ``folder`` (made
    first with ``make``); the error names ``parameter`` and ``named`` (default: the folder) as
    the user gave it."""
    try:
        if make:
            folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder, prefix=".studodds-probe-"):
            pass
    except OSError as exc:
        raise ParameterError(parameter, f"{named or folder}: cannot write there: {exc.strerror or exc}") from None


def batch(variants: Sequence[str | Path] = (), out: str | Path = "results", *,
          formats: Iterable[str] | str | None = None, hands: Iterable[int] = DEFAULT_HANDS,
          protection: Iterable[int] = (), strict: bool = False, threads: int | None = None,
          use_cache: bool = True, progress: bool = False) -> BatchResult:
    """Certify ``variants`` (names, .toml files or folders of them; none: every built-in) into
    ``out/<variant>/``.  ``formats``: see :func:`report_formats`; ``hands``: the N-hand table;
    ``protection``: exposure levels (-1: no dealer card, 0..4 hole cards) of protection.json,
    none for no file; ``strict``: a sanity warning is an error, and then nothing is written.

    Every table is rendered into a staging folder first and moved into place only when all are
    complete (see the module docstring)."""
    check_threads(threads)
    chosen = report_formats(formats)
    counts_of_hands = hand_counts(hands)
    levels = tuple(sorted({int(k) for k in protection}))
    if any(k not in PROTECTION_LEVELS for k in levels):
        raise ParameterError("protection", "levels are -1 (no dealer card) or 0..4 hole cards")
    sources = resolve_many([str(v) for v in variants])
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise ParameterError("out", f"{root}: exists and is not a folder")
    writable_folder(root, "out", make=True)
    if strict:
        for s in sources:
            found = rule_warnings(s.variant)
            if found:
                raise strict_error(s.variant.name, found)
    groups: dict[int, list[VariantSource]] = {}
    for s in sources:
        groups.setdefault(s.variant.qualifier.threshold, []).append(s)
    notes: list[str] = []
    found_warnings: list[tuple[str, str]] = []
    staged: list[tuple[str, list[str]]] = []
    with using_threads(threads), _staging(root) as staging, bar_factory("variants", not progress)(len(sources)) as bar:
        for group in groups.values():
            counts = api.count_table(group[0].variant, threads=threads, use_cache=use_cache, progress=progress)
            checked = spot_check(counts, SPOT_CHECKS)
            indexes = indexes_for(group, counts)
            for s in group:
                index = indexes.get((s.variant.ante_no_qualify, s.variant.ante_win))
                extra = (protection_data(s, counts, levels=levels, threads=threads, use_cache=use_cache,
                                         progress=progress) if levels else None)
                table = render(s, checked, counts, index, counts_of_hands, extra)
                if strict and table.warnings:
                    raise strict_error(s.variant.name, table.warnings)
                found_warnings += [(s.variant.name, w) for w in table.warnings]
                binary = binary_files(table, chosen, notes)
                write(staging, table, binary, chosen)
                staged.append((table.name, written_files(table, chosen, binary)))
                bar.update(1)
        for name, files in staged:
            _publish(staging / name, root / name, files)
    written = tuple(WrittenTable(name, str(root / name), tuple(sorted(files))) for name, files in staged)
    return BatchResult(str(root), written, tuple(found_warnings), tuple(notes))


@contextmanager
def _staging(root: Path) -> Iterator[Path]:
    """A fresh hidden folder inside ``root`` (so that moving out of it is a rename on one file
    system), removed with whatever is left in it; one left by a killed batch is removed by the
    next batch into ``root``."""
    remove_stale_temporaries(root)
    folder = temporary_folder(root, "batch")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _publish(staged: Path, folder: Path, files: list[str]) -> None:
    """Move a staged table's files into ``folder``, each with an atomic rename, ``variant.toml``
    (the last of ``files``) last."""
    folder.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(folder)
    for name in files:
        os.replace(staged / name, folder / name)
