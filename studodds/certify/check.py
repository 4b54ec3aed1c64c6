"""The regression check: recompute committed tables from their own ``variant.toml`` and compare
every exact value and every line (:func:`check`, returning a :class:`CheckResult`)."""
from __future__ import annotations

import contextlib
import difflib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

from enumerate.analysis.distribution import DEFAULT_HANDS
from enumerate.boxes.seen_game import SEEN_HAND as SEEN_HAND_GAME
from enumerate.core import exact_game
from enumerate.core.exact_game import KeptGame
from enumerate.core.jsonform import exact
from enumerate.core.projection import Projection
from enumerate.core.run import Run
from enumerate.core.shapes import Count, Exact, shape
from enumerate.core.slices import KeptSumsError, unsealed
from enumerate.rules.compare import RuleChangeJSON, rule_changes
from enumerate.rules.sanity import edge_note, player_has_edge
from enumerate.rules.variant_file import VariantSource, load_variant_file
from enumerate.simulation.simulate import check_run
from evaluator.errors import ParameterError, StudoddsError
from studodds import api
from studodds.certify.tables import (
    PROTECTION,
    PROTECTION_LEVELS,
    SEEN_HAND,
    SPOT_CHECKS,
    Protection,
    RenderedTable,
    protection_data,
    render,
)


class DifferenceJSON(TypedDict):
    """One difference: the file, the figure, the committed and the recomputed value."""

    file: str
    figure: str
    old: Any
    new: Any
    section: NotRequired[str]


#: A checked table's status: "rules_changed" when its variant file's rules are not the ones its
#: figures were made from (the committed figures are for the old rules, not recounted unasked).
Status = Literal["ok", "differs", "report_differs", "unreadable", "rules_changed"]


class HeadlineJSON(TypedDict):
    """A headline figure, committed and recomputed, and the change."""

    old: Exact
    new: Exact
    delta: Exact


class TableCheckJSON(TypedDict):
    """The check of one committed table."""

    table: str
    status: Status
    rule_changes: list[RuleChangeJSON]
    headline: dict[str, HeadlineJSON]
    differences: list[DifferenceJSON]
    protection: NotRequired[str]
    kept_sums: NotRequired[dict[str, str]]
    recount: NotRequired[str]
    #: the committed figures give the player the edge under optimal play (a game no house would deal as read)
    player_has_edge: bool


@shape("check", document=True)
class CheckJSON(TypedDict):
    """The JSON of a check of committed tables (kind "check")."""

    kind: Literal["check"]
    folder: str
    recounted: bool
    causes: list[str]
    tables: list[TableCheckJSON]
    tables_with_differences: Count


@dataclass
class Difference:
    """One difference: the file, the figure (a flattened JSON key, or "line N" of a text file),
    the committed and the recomputed value, and for a report's line the section it stands in."""

    file: str
    figure: str
    old: Any
    new: Any
    section: str | None = None

    def to_dict(self) -> DifferenceJSON:
        out: DifferenceJSON = {"file": self.file, "figure": self.figure, "old": self.old, "new": self.new}
        if self.section is not None:
            out["section"] = self.section
        return out


#: Files that hold figures; a difference anywhere else (the reports and the readable strategy)
#: is one of presentation: "report differs, figures identical".
FIGURE_FILES = ("return_table.csv", "strategy.csv")


def _figures(fname: str) -> bool:
    """Whether a file of a table holds figures: every JSON file (the summary, protection.json,
    the kept sums of whole games) and :data:`FIGURE_FILES`."""
    return fname.endswith(".json") or fname in FIGURE_FILES


#: The text files compared line by line, figures first.
TEXT_FILES = ("return_table.csv", "strategy.csv", "strategy.md", "report.md", "report.html")


def _section(lines: list[str], index: int) -> str | None:
    """The heading of the report section that line ``index`` stands in (Markdown ``#``
    headings, HTML ``<h1>``..``<h3>``), None before the first heading."""
    for line in reversed(lines[:index + 1]):
        if line.startswith("#"):
            return line.lstrip("#").strip()
        m = re.search(r"<h[1-3][^>]*>(.*?)</h[1-3]>", line)
        if m:
            return re.sub(r"<[^>]+>", "", m.group(1)).strip()
    return None


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, list):
        seen: set[str] = set()
        for i, v in enumerate(value):
            key = str(i)
            if isinstance(v, dict):
                key = str(v.get("outcome") or v.get("name") or v.get("category") or v.get("players") or i)
            if key in seen:                       # two items of one name: the second by position too
                key = f"{key}#{i}"
            seen.add(key)
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
    for kept in fresh.kept:
        if kept == PROTECTION:
            continue
        try:
            old_s = json.loads((folder / kept).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            diffs.append(Difference(kept, "(file)", f"unreadable: {exc}", "recomputed"))
        else:
            diffs += _json_differences(kept, old_s, json.loads(fresh.files[kept]))
    for fname in TEXT_FILES:
        if fname == "report.html" and not (folder / fname).exists():
            continue
        try:
            old_lines = (folder / fname).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            diffs.append(Difference(fname, "(file)", f"unreadable: {exc.strerror}", "recomputed"))
            continue
        new_lines = fresh.files[fname].splitlines()
        if old_lines != new_lines:
            diffs += _line_differences(fname, old_lines, new_lines)
    return diffs


def _line_differences(fname: str, old_lines: list[str], new_lines: list[str]) -> list[Difference]:
    """The lines that differ between two versions of a text file, aligned (a line added or
    removed is one difference, not a shift of every line after it): "line N" numbers the
    recomputed file's line (the committed one's for a line removed), "(missing)" stands for
    the side without the line, and a report's line carries the section it stands in."""
    report = not _figures(fname)
    out: list[Difference] = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            o = old_lines[i1 + k] if i1 + k < i2 else "(missing)"
            n = new_lines[j1 + k] if j1 + k < j2 else "(missing)"
            if _tool_version_line(o, n):
                continue
            i, lines = (j1 + k, new_lines) if j1 + k < j2 else (i1 + k, old_lines)
            out.append(Difference(fname, f"line {i + 1}", o, n, _section(lines, i) if report else None))
    return out


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


class DamagedFile(Exception):
    """A committed file that cannot be used: which file, and what is wrong with it."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path.name}: {reason}")
        self.path = path
        self.reason = reason


def _json_object(path: Path, kind: str) -> dict[str, Any]:
    """A committed JSON file of ``kind``, or DamagedFile saying exactly what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DamagedFile(path, "missing") from None
    except UnicodeDecodeError:
        raise DamagedFile(path, "not UTF-8 text") from None
    except OSError as exc:
        raise DamagedFile(path, f"unreadable: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        truncated = ", it ends early (truncated?)" if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated") else ""
        raise DamagedFile(path, f"not valid JSON{truncated} ({one_line(exc)})") from None
    if not isinstance(data, dict) or data.get("kind") != kind:
        raise DamagedFile(path, f"not a {kind!r} object")
    return data


@dataclass(frozen=True)
class Committed:
    """What a committed table says about itself: its variant, the numbers of hands of its
    N-hand table, and its protection.json (None when it has none)."""

    source: VariantSource
    hands: tuple[int, ...]
    protection: Mapping[str, Any] | None
    protection_levels: tuple[int, ...]
    simulation: tuple[int, int] | None = None       # (games, seed) of the simulation check
    seen_hand: bool = False                         # protection.json holds the seen-hand game
    #: the rules of variant.toml that are not those the committed figures were made from
    rule_changes: tuple[RuleChangeJSON, ...] = ()
    #: variant.toml is not the file the figures were made from (its SHA-256 is not the one the
    #: provenance records), whether or not the recorded rules show it (they record the pays in
    #: force: a pay above a maximum payout, say, is recorded as the cap)
    file_changed: bool = False
    #: the committed house edge per ante (None: not recorded): negative when the player has the edge
    house_edge: Fraction | None = None


def _committed_edge(summary: Mapping[str, Any]) -> Fraction | None:
    """The house edge a committed summary records, or None (a malformed one is compared as any
    other figure, not refused here)."""
    try:
        return Fraction(summary["analysis"]["house_edge_per_ante"]["exact"])
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None


def read_committed(folder: Path) -> Committed:
    """Read a committed table; DamagedFile names the first file that cannot be used and why
    (a damaged file is reported, never silently recomputed)."""
    summary = _json_object(folder / "summary.json", "certified_table")
    try:
        origin = summary["provenance"]["variant_origin"]
        hands = tuple(int(h["hands"]) for h in summary.get("certification", {}).get("n_hands", [])) or DEFAULT_HANDS
    except (KeyError, TypeError, ValueError, AttributeError):
        raise DamagedFile(folder / "summary.json", "no provenance.variant_origin or a malformed N-hand table") from None
    if not isinstance(origin, str):
        raise DamagedFile(folder / "summary.json", "provenance.variant_origin is not text")
    try:
        source = replace(load_variant_file(folder / "variant.toml"), origin=origin)
    except StudoddsError as exc:
        raise DamagedFile(folder / "variant.toml", one_line(exc).removeprefix(str(folder / "variant.toml") + ": ")) from None
    protection = None
    levels: tuple[int, ...] = ()
    if (folder / PROTECTION).exists():
        protection = _json_object(folder / PROTECTION, "protection")
        try:
            raw = [lv["exposed_hole_cards"] for lv in protection["hole_cards"]["levels"]]
        except (KeyError, TypeError):
            raise DamagedFile(folder / PROTECTION, "no hole_cards.levels") from None
        bad = [lv for lv in raw if isinstance(lv, bool) or not isinstance(lv, int) or lv not in PROTECTION_LEVELS]
        if bad or not raw:
            raise DamagedFile(folder / PROTECTION, f"invalid exposure level {bad[0] if bad else None!r} "
                                                   "(levels are -1 and 0..4)")
        levels = tuple(raw)
        seen = protection.get("seen_hand")
        if seen is not None and (not isinstance(seen, dict) or seen.get("kind") != "collusion_exact"):
            raise DamagedFile(folder / PROTECTION, "seen_hand is not a 'collusion_exact' object")
    simulation = None
    if summary.get("simulation") is not None:
        try:
            run = summary["simulation"]
            simulation = (int(run["games"]), int(run["seed"]))
        except (KeyError, TypeError, ValueError):
            raise DamagedFile(folder / "summary.json", "a simulation section without games and seed") from None
        try:
            check_run(*simulation)
        except ParameterError as exc:
            raise DamagedFile(folder / "summary.json", f"simulation {exc}") from None
    try:
        made_from = summary["analysis"]["variant"]
        changes = tuple(c.to_dict() for c in rule_changes(made_from, source.variant.to_dict()))
    except (KeyError, TypeError, AttributeError):
        changes = ()                              # no rules recorded: every figure is compared instead
    recorded = summary.get("provenance", {}).get("variant_file_sha256") if isinstance(summary.get("provenance"), dict) else None
    return Committed(source, hands, protection, levels, simulation,
                     protection is not None and protection.get("seen_hand") is not None, changes,
                     file_changed=isinstance(recorded, str) and recorded != source.sha256,
                     house_edge=_committed_edge(summary))


#: The headline figures a check summarises, as (key in the analysis object, label).
HEADLINE = (("house_edge_per_ante", "house edge"), ("element_of_risk_per_total_wager", "element of risk"))


@dataclass(frozen=True)
class TableCheck:
    """The result of checking one committed table: ``status`` "ok", "differs" (a figure
    differs), "report_differs" (only the reports differ: figures identical), "unreadable", or
    "rules_changed" (its variant file's rules are not the committed figures' and were not
    recounted: ``recount`` says what counting them would take); the rule changes (committed
    rules against the table's variant.toml), the headline deltas and every difference;
    ``protection``: whether protection.json was recomputed; ``kept_sums``: for each file of kept
    whole-game sums, how its game was checked (read back and verified, or recounted)."""

    table: str
    status: Status
    rule_changes: tuple[RuleChangeJSON, ...] = ()
    headline: dict[str, HeadlineJSON] = field(default_factory=dict)
    differences: tuple[Difference, ...] = ()
    protection: str | None = None          # "checked", "none", "not checked (--no-protection)"
    kept_sums: dict[str, str] = field(default_factory=dict)
    recount: str | None = None
    #: the committed house edge when it is negative (the player has the edge), else None
    player_edge: Fraction | None = None

    def to_dict(self) -> TableCheckJSON:
        out: TableCheckJSON = {"table": self.table, "status": self.status, "rule_changes": list(self.rule_changes),
                               "headline": self.headline,
                               "differences": [d.to_dict() for d in self.differences],
                               "player_has_edge": self.player_edge is not None}
        if self.protection is not None:
            out["protection"] = self.protection
        if self.kept_sums:
            out["kept_sums"] = dict(self.kept_sums)
        if self.recount is not None:
            out["recount"] = self.recount
        return out

    def summary_line(self) -> str:
        """One line: unchanged, or the rule changes and headline deltas; then, for a table whose
        committed figures give the player the edge, that fact."""
        line = self._status_line()
        if self.player_edge is None:
            return line
        return f"{line} -- {edge_note(self.player_edge)}"

    def _status_line(self) -> str:
        if self.status == "ok":
            note = " (protection.json not checked: --no-protection)" if (self.protection or "").startswith("not checked") else ""
            read = [f for f, how in self.kept_sums.items() if how.startswith("read")]
            if read:
                note += f" (whole games verified from their kept sums: {', '.join(read)}; --recount counts them again)"
            return f"{self.table}: unchanged{note}"
        if self.status == "unreadable":
            return f"{self.table}: {self.differences[0].old}"
        if self.status == "report_differs":
            return f"{self.table}: report differs, figures identical: {self.where()}"
        if self.status == "rules_changed" and self.headline:
            return f"{self.table}: the new rules' game (its analysis only, the files not recomputed): " + "; ".join(
                self._headline_parts())
        if self.status == "rules_changed":
            return (f"{self.table}: {_changes_text(self.rule_changes)}; the committed figures are for the old rules, so "
                    f"the table was not recounted: {self.recount}")
        parts = []
        if self.rule_changes:
            parts.append(_changes_text(self.rule_changes))
        else:
            parts.append("rules unchanged, figures differ")
        parts += self._headline_parts()
        parts.append(f"{len(self.differences)} difference(s)")
        return f"{self.table}: " + "; ".join(parts)

    def _headline_parts(self) -> list[str]:
        labels = dict(HEADLINE)
        return [f"{labels[key]} {h['old']['value']:.6%} -> {h['new']['value']:.6%} ({h['delta']['value']:+.6%})"
                for key, h in self.headline.items()]

    def where(self) -> str:
        """The files that differ, each with the report sections and the number of lines."""
        by_file: dict[str, list[Difference]] = {}
        for d in self.differences:
            by_file.setdefault(d.file, []).append(d)
        parts = []
        for fname, ds in by_file.items():
            sections = list(dict.fromkeys(d.section for d in ds if d.section))
            named = ""
            if sections:
                shown = ", ".join(repr(x) for x in sections[:3]) + (f" and {len(sections) - 3} more" if len(sections) > 3 else "")
                named = f" section{'s' if len(sections) > 1 else ''} {shown},"
            parts.append(f"{fname} ({named.strip(' ,')}{', ' if named else ''}{len(ds)} line{'s' if len(ds) != 1 else ''})")
        return "; ".join(parts)


def _changes_text(changes: tuple[RuleChangeJSON, ...]) -> str:
    return "rules changed: " + ", ".join(f"{c['rule']} {c['old']} -> {c['new']}" for c in changes)


def check_table(table: Path, fresh: RenderedTable, source: VariantSource, protection: str | None = None) -> TableCheck:
    """Check one committed table against its recomputed files (see :class:`TableCheck`)."""
    diffs = tuple(compare(table, fresh))
    if not diffs:
        return TableCheck(str(table), "ok", protection=protection)
    if not any(_figures(d.file) for d in diffs):
        return TableCheck(str(table), "report_differs", differences=diffs, protection=protection)
    try:
        old = json.loads((table / "summary.json").read_text(encoding="utf-8"))["analysis"]
        old_rules = old["variant"]
    except (OSError, ValueError, KeyError, TypeError):
        return TableCheck(str(table), "differs", differences=diffs, protection=protection)
    changes = tuple(c.to_dict() for c in rule_changes(old_rules, source.variant.to_dict()))
    return TableCheck(str(table), "differs", changes, _headline(old, fresh.summary["analysis"]), diffs, protection)


def _headline(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, HeadlineJSON]:
    """The headline figures that differ between two analysis objects, with their deltas."""
    headline: dict[str, HeadlineJSON] = {}
    for key, _ in HEADLINE:
        try:
            a, b = Fraction(old[key]["exact"]), Fraction(new[key]["exact"])
        except (KeyError, TypeError, ValueError):
            continue
        if a != b:
            headline[key] = {"old": exact(a), "new": exact(b), "delta": exact(b - a)}
    return headline


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check` found: the causes named before any counting (one line for each table
    whose rules changed), then one :class:`TableCheck` per committed table; ``recounted``: the
    kept whole games were counted again (``recount``) rather than read back and verified."""

    folder: str
    tables: tuple[TableCheck, ...]
    causes: tuple[str, ...] = ()
    recounted: bool = False

    @property
    def tables_with_differences(self) -> int:
        return sum(1 for t in self.tables if t.status != "ok")

    @property
    def ok(self) -> bool:
        """True when every table was recomputed identically."""
        return self.tables_with_differences == 0

    def to_dict(self) -> CheckJSON:
        """kind "check": what ``studodds check --json`` prints."""
        return {"kind": "check", "folder": self.folder, "recounted": self.recounted, "causes": list(self.causes),
                "tables": [t.to_dict() for t in self.tables], "tables_with_differences": self.tables_with_differences}

    def first_lines(self) -> list[str]:
        """The lines the command prints as it goes, in that order: the causes named before any
        counting, then each table's summary line as it is checked (a table whose changed rules
        were not recounted was named among the causes; its line here, when its new game was
        quick to analyse, gives the headline figures of the new rules)."""
        return [*self.causes, *(t.summary_line() for t in self.tables if t.status != "rules_changed" or t.headline)]

    def closing_lines(self) -> list[str]:
        """The lines printed once every table is checked: the count, then each difference."""
        changed = sum(1 for t in self.tables if t.status == "rules_changed")
        note = f" ({changed} whose rules changed, not recounted)" if changed else ""
        lines = [f"checked {len(self.tables)} table(s): {self.tables_with_differences} with differences{note}"]
        for t in self.tables:
            if t.status not in ("differs", "report_differs"):
                continue
            diffs = t.differences
            lines += ["", f"{t.table}: {len(diffs)} difference(s)"]
            lines += [f"  {d.file}: {d.figure}{f' ({d.section})' if d.section else ''}: old {d.old!r} -> new {d.new!r}"
                      for d in diffs[:50]]
            if len(diffs) > 50:
                lines.append(f"  ... and {len(diffs) - 50} more (--json lists all)")
        return lines

    def text(self) -> str:
        """What the command prints: :meth:`first_lines`, then :meth:`closing_lines`."""
        return "\n".join([*self.first_lines(), *self.closing_lines()])


def check(folder: str | Path = "results", *, recount: bool = False, protection: bool = True, threads: int | None = None,
          use_cache: bool = True, progress: bool = False, on_line: Callable[[str], None] | None = None) -> CheckResult:
    """Check every committed table ``<folder>/<variant>/`` (or the one table ``folder`` itself,
    when it holds a summary.json) against its own variant.toml, in two steps:

    1. **The cause first**, before any counting: each table's rules are compared with the rules
       its committed figures were made from.  A table whose rules changed is named at once
       (the rule, old -> new); its committed figures are for the old rules, so it is not
       recounted unasked: the line says what counting the new rules would take.
    2. **Every other table recomputed** and compared, every exact value and every line of its
       files.  A whole game of core-hours -- the switch game, two boxes, protection.json's seen
       hand -- is not counted again: its exact sums, kept beside the figures (switch_game.json,
       boxes_game.json, seen_hand.json, each with its checksum), are read, verified (checksum,
       every class, every situation, the count table's game, the return table against the
       value) and everything made from them is recomputed and compared.

    ``recount``: count the kept whole games again (resumable: their shards are kept in the user
    cache) and recompute the tables whose rules changed too.  ``protection=False`` does not
    recompute protection.json: the report's protection section is then rendered from the
    committed file, and the file itself is not compared.  ``on_line(text)`` is called with each
    of :meth:`CheckResult.first_lines` as soon as it is known (the command line prints them as
    they come)."""
    threads = Run.of("check", {"threads": threads}).threads     # resolved once: every step below gets this int
    for name, value in (("recount", recount), ("protection", protection)):
        if not isinstance(value, bool):
            raise ParameterError(name, f"True or False, not {value!r:.40}")
    root = Path(folder)
    if not root.is_dir():
        raise ParameterError("folder", f"{root}: no such folder of results")
    tables = [root] if (root / "summary.json").is_file() else sorted(p.parent for p in root.glob("*/summary.json"))
    if not tables:
        raise ParameterError("folder", f"{root}: holds no certified table (no summary.json in it or in its "
                                       "subfolders): name a table folder such as results/us-common, or the folder "
                                       "that holds table folders, such as results")
    say = on_line or (lambda line: None)
    read: dict[Path, Committed | TableCheck] = {}
    committed_of: dict[Path, Committed] = {}
    causes = []
    for table in tables:                         # 1. the causes, before any counting
        try:
            committed = read_committed(table)
        except DamagedFile as exc:
            read[table] = TableCheck(str(table), "unreadable", differences=(
                Difference(exc.path.name, "(file)", f"{exc.path.name}: {exc.reason}", None),))
            continue
        committed_of[table] = committed
        changes = committed.rule_changes
        if not changes:
            if committed.file_changed:              # named before any counting; then recomputed as any other
                causes.append(f"{table}: variant.toml is not the file the committed figures were made from (its "
                              "SHA-256 differs from the provenance's) and the rules they record are the same: "
                              "recomputing to name what the change does")
                say(causes[-1])
            read[table] = committed
            continue
        cost = _recount_text(committed, threads)
        if recount:
            causes.append(f"{table}: {_changes_text(changes)}; the committed figures are for the old rules: "
                          f"recounting the new ones (--recount), {cost}")
            read[table] = committed
        else:
            result = TableCheck(str(table), "rules_changed", changes, recount=f"counting the new rules takes {cost}; "
                                "--recount recomputes and compares them, batch certifies them")
            causes.append(result.summary_line())
            read[table] = result
        say(causes[-1])
    checked: list[TableCheck] = []
    spot: dict[int, int] = {}
    for table in tables:                         # 2. every table not settled above, recomputed
        found = read[table]
        if not isinstance(found, Committed) and table in committed_of:
            found = _with_edge(found, committed_of[table])
        if isinstance(found, Committed):
            found = _with_edge(_check_one(table, found, recount, protection, spot, threads, use_cache, progress), found)
            say(found.summary_line())
        elif found.status == "unreadable":
            say(found.summary_line())
        elif found.status == "rules_changed" and _analysis_is_quick(committed_of[table]):
            found = replace(found, headline=_new_headline(table, committed_of[table], threads, use_cache, progress))
            if found.headline:
                say(found.summary_line())
        checked.append(found)
    return CheckResult(str(root), tuple(checked), tuple(causes), recount)


def _with_edge(found: TableCheck, committed: Committed) -> TableCheck:
    """``found`` with the committed house edge when it gives the player the edge."""
    edge = committed.house_edge
    return replace(found, player_edge=edge) if edge is not None and player_has_edge(edge) else found


def _analysis_is_quick(committed: Committed) -> bool:
    """Whether the analysis of a table's new rules takes seconds (its kind has no whole game
    to count for long): then its headline figures are given beside the changed rules."""
    from enumerate.game.kinds import kind_of  # lazy: start-up time
    v = committed.source.variant
    return kind_of(v).projection(v) is None


def _new_headline(table: Path, committed: Committed, threads: int, use_cache: bool,
                  progress: bool) -> dict[str, HeadlineJSON]:
    """The headline figures of a table's new rules against its committed ones, from the new
    rules' analysis alone (seconds: asked only of a table without a long whole game)."""
    try:
        old = json.loads((table / "summary.json").read_text(encoding="utf-8"))["analysis"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    new = api.analyze(committed.source.variant, threads=threads, use_cache=use_cache, progress=progress).to_dict()
    return _headline(old, new)


def _recount_text(committed: Committed, threads: int) -> str:
    """What counting a table's rules from nothing would take: its kind's whole game, and
    protection.json's seen hand when the table has one; seconds for the rest."""
    from enumerate.boxes import seen_ranks  # lazy: start-up time
    from enumerate.game.kinds import kind_of  # lazy: start-up time
    v = committed.source.variant
    parts = [p for p in (kind_of(v).projection(v),) if p is not None]
    if committed.seen_hand:
        parts.append(seen_ranks.whole_game_projection("the seen hand"))
    if not parts:
        return "seconds (minutes more for a count table or protection.json not in the user cache)"
    total = Projection(" and ".join(p.what for p in parts), 1, "count", sum(p.core_seconds for p in parts))
    return f"{total.text(threads)} for {total.what}"


def _kept(committed: Committed, protection: bool) -> list[KeptGame[Any]]:
    """The whole games whose kept sums the table must hold: its kind's
    (:meth:`~enumerate.game.kinds.TableKind.kept_game`), and protection's seen hand when its
    protection.json has it (and is checked)."""
    from enumerate.game.kinds import kind_of  # lazy: start-up time
    v = committed.source.variant
    games = [g for g in (kind_of(v).kept_game(v),) if g is not None]
    if committed.seen_hand and protection:
        games.append(SEEN_HAND_GAME)
    return games


def _read_kept(table: Path, kept: KeptGame[Any], committed: Committed, threads: int) -> dict[str, Any]:
    """A kept-sums file's object, its checksum verified (DamagedFile naming it and what to do)."""
    path = table / kept.file
    try:
        return unsealed(_json_object(path, kept.kind))
    except DamagedFile as exc:
        if exc.reason == "missing":
            raise DamagedFile(path, f"missing: it keeps the exact sums of the table's whole game, which check reads "
                                    f"back instead of counting them for {_recount_text(committed, threads)}: restore "
                                    "it (git checkout), or count the game again with --recount") from None
        raise
    except KeptSumsError as exc:
        raise DamagedFile(path, str(exc)) from None


def _check_one(table: Path, committed: Committed, recount: bool, protection: bool, spot: dict[int, int], threads: int,
               use_cache: bool, progress: bool) -> TableCheck:
    """Recompute one committed table and compare it (see :func:`check`)."""
    source = committed.source
    given: dict[str, tuple[KeptGame[Any], dict[str, Any]]] = {}
    how: dict[str, str] = {}
    try:
        for game in _kept(committed, protection):
            if recount:
                how[game.file] = "recounted (--recount)"
                continue
            given[game.file] = game, _read_kept(table, game, committed, threads)
            how[game.file] = "read back and verified"
    except DamagedFile as exc:
        return _unreadable(table, exc.path.name, exc.reason)
    with contextlib.ExitStack() as stack:
        for fname, (game, data) in given.items():
            try:
                stack.enter_context(exact_game.given(game, source.variant, data))
            except ValueError as exc:            # not the sums of that game
                return _unreadable(table, fname, one_line(exc))
        shown: Protection | None = None
        state = "none"
        if committed.protection is not None:
            if protection:
                try:
                    shown = protection_data(source, levels=committed.protection_levels, seen_hand=committed.seen_hand,
                                            threads=threads, use_cache=use_cache, progress=progress)
                except KeptSumsError as exc:     # the kept sums do not add up
                    return _unreadable(table, SEEN_HAND, one_line(exc))
                state = "checked"
            else:
                shown = Protection(committed.protection, {})   # type: ignore[arg-type]
                state = "not checked (--no-protection)"
        try:
            fresh = render(source, _spot_checks(source, spot, threads, use_cache, progress), hands=committed.hands,
                           protection=shown, html=(table / "report.html").exists(), simulation=committed.simulation,
                           threads=threads, use_cache=use_cache)
        except KeptSumsError as exc:             # the kept sums do not add up
            game_file = next((f for f in given if f != SEEN_HAND), None)
            if game_file is None:
                raise
            return _unreadable(table, game_file, one_line(exc))
    if state.startswith("not checked"):
        fresh = replace(fresh, files={k: v for k, v in fresh.files.items() if k not in (PROTECTION, SEEN_HAND)},
                        protection=None)
    return replace(check_table(table, fresh, source, state), kept_sums=how)


def _unreadable(table: Path, fname: str, reason: str) -> TableCheck:
    return TableCheck(str(table), "unreadable", differences=(Difference(fname, "(file)", f"{fname}: {reason}", None),))


def _spot_checks(source: VariantSource, done: dict[int, int], threads: int, use_cache: bool, progress: bool) -> int:
    """The brute-force spot checks of the table's qualifier, made once a check (``done``)."""
    q = source.variant.qualifier.threshold
    if q not in done:
        done[q] = api.self_check(source.variant, SPOT_CHECKS, threads=threads, use_cache=use_cache, progress=progress)
    return done[q]


def one_line(message: object) -> str:
    """A message on one line whatever the input echoed in it holds."""
    return str(message).replace("\r", "\\r").replace("\n", "\\n")


