"""The files of one certified table: rendered as text from the exact figures, and written
atomically into ``<out>/<variant>/`` (``variant.toml`` last: it marks a complete table)."""
from __future__ import annotations

import csv
import datetime
import io
import json
import platform
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, TypedDict, Unpack

import numpy

from enumerate.analysis.base import Analysis
from enumerate.analysis.certification import CertificationFigures
from enumerate.analysis.distribution import DEFAULT_HANDS
from enumerate.analysis.strategies import StrategiesJSON, StrategyComparison
from enumerate.analysis.strategy_text import strategy_csv, strategy_markdown
from enumerate.boxes.seen_game import SEEN_HAND as SEEN_HAND_GAME
from enumerate.boxes.seen_game import CollusionExactJSON
from enumerate.core import exact_game
from enumerate.core.atomic import atomic_write_bytes, atomic_write_text, remove_stale_temporaries
from enumerate.core.engine import ENGINE_VERSION
from enumerate.core.run import RunOptions
from enumerate.core.shapes import Count, Exact, Minimum, Pattern, shape
from enumerate.core.slices import sealed
from enumerate.game.analysis import AnalysisJSON, GameAnalysis
from enumerate.game.components import CertificationJSON, components
from enumerate.game.kinds import kind_of
from enumerate.progressive.figures import ProgressiveJSON, ProgressiveReport
from enumerate.protection.exposure import ExposureJSON, HoleCardsJSON
from enumerate.rules.variant_file import VariantSource
from enumerate.simulation.simulate import Simulation, SimulationJSON
from evaluator.ranking import cython_version, ordering_fingerprint
from studodds import __version__, api
from studodds.reports import pdf, xlsx
from studodds.reports.html import report_html
from studodds.reports.markdown import report_md
from studodds.reports.protection import protection_markdown

FILES = ("summary.json", "return_table.csv", "strategy.md", "strategy.csv", "report.md", "report.html", "variant.toml")
#: Written beside FILES by ``batch --protection`` (and then checked like them).
PROTECTION = "protection.json"
#: Written beside FILES: the machine and date of the run (not compared, not a result).
ENVIRONMENT = "environment.json"
SPOT_CHECKS = 8


@shape("environment", document=True)
class EnvironmentJSON(TypedDict):
    """The JSON of where and when a table was made (``environment.json``)."""

    kind: Literal["environment"]
    tool_version: str
    engine_version: int
    python: str
    numpy: str
    cython: str
    platform: str
    machine: str
    openmp: bool
    threads: Annotated[int, Minimum(1)]
    date_utc: str


class SelfChecksJSON(TypedDict):
    """The self-checks a certified table passed."""

    return_table_rows_sum_to_total: bool
    probabilities_sum_to_one: bool
    brute_force_spot_checks_agree: Count


#: A SHA-256 in hexadecimal.
Sha256 = Annotated[str, Pattern("^[0-9a-f]{64}$")]


@shape("provenance")
class ProvenanceJSON(TypedDict):
    """The JSON of where a certified table's figures come from."""

    tool: Literal["studodds"]
    tool_version: str
    engine_version: int
    evaluator_ordering_sha256: Sha256
    variant_file_sha256: Sha256
    variant_origin: str
    total_combinations: Count
    self_checks: SelfChecksJSON


@shape("plain_game")
class PlainGameJSON(TypedDict):
    """Schema: the same table without its draws, under its optimal strategy"""

    house_edge_per_ante: Exact
    element_of_risk_per_total_wager: Exact
    draws_lower_the_house_edge_by: Exact


@shape("certified_table", document=True, extra={"allOf": [{
    "if": {"properties": {"analysis": {"anyOf": [{"required": ["boxes"]}, {"required": ["russian"]}]}}},
    "then": {"not": {"anyOf": [{"required": ["strategies"]}, {"required": ["plain_game"]}]}},
    "else": {"if": {"required": ["plain_game"]},
             "then": {"not": {"required": ["strategies"]}},
             "else": {"required": ["strategies", "certification"]}}}]})
class CertifiedTableJSON(TypedDict):
    """The JSON of a certified table (``summary.json``): a plain game has its strategies and
    certification figures, a table with draws the plain game beside it instead, a table of two
    boxes or of Russian Poker neither (its analysis holds what beside it: the one-box game's house
    edge, the game without each option)."""

    kind: Literal["certified_table"]
    analysis: AnalysisJSON
    strategies: NotRequired[StrategiesJSON]
    certification: NotRequired[CertificationJSON]
    progressive: NotRequired[ProgressiveJSON]
    plain_game: NotRequired[PlainGameJSON]
    provenance: ProvenanceJSON
    simulation: NotRequired[SimulationJSON]


class _Sections(TypedDict, total=False):
    """The sections of a plain game's certified table between its strategies and provenance."""

    certification: CertificationJSON
    progressive: ProgressiveJSON


@shape("protection", document=True)
class ProtectionJSON(TypedDict):
    """The JSON of a table's game protection (``protection.json``): the hole-card table, A/K
    edge sorting and, when asked, the exact whole game of a player who sees a second hand."""

    kind: Literal["protection"]
    variant: str
    hole_cards: HoleCardsJSON
    edge_sort: ExposureJSON
    seen_hand: NotRequired[CollusionExactJSON]


def stable_origin(origin: str) -> str:
    """Where a variant came from, the same from any working directory or machine: a built-in
    name as is, a file by its name only (its content is pinned by its SHA-256)."""
    if origin.startswith("built-in ") or origin == "python" or origin.startswith("file "):
        return origin
    return f"file {Path(origin).name}"


def environment(threads: int) -> EnvironmentJSON:
    """Where and when a table was made (``environment.json``): recorded beside the certified
    files, never compared by ``check`` and never part of the byte-identical result files."""
    return {"kind": "environment", "tool_version": __version__, "engine_version": ENGINE_VERSION,
            "python": platform.python_version(), "numpy": numpy.__version__, "cython": cython_version(),
            "platform": platform.platform(), "machine": platform.machine(),
            "openmp": api.openmp_enabled(), "threads": threads,
            "date_utc": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


def provenance(a: Analysis, source: VariantSource, spot_checks: int) -> ProvenanceJSON:
    """Where the figures come from and which self-checks they passed (the outcome rows: a
    table with draws adds its fees as rows of their own)."""
    outcomes = [r for r in a.rows if not r.outcome.startswith("fee_")]
    return {
        "tool": "studodds", "tool_version": __version__, "engine_version": ENGINE_VERSION,
        "evaluator_ordering_sha256": ordering_fingerprint(),
        "variant_file_sha256": source.sha256, "variant_origin": stable_origin(source.origin),
        "total_combinations": a.total_combinations,
        "self_checks": {
            "return_table_rows_sum_to_total": sum(r.combinations for r in outcomes) == a.total_combinations,
            "probabilities_sum_to_one": sum(r.probability for r in outcomes) == 1,
            "brute_force_spot_checks_agree": spot_checks,
        },
    }


def summary(a: GameAnalysis, comparison: StrategyComparison, prov: ProvenanceJSON,
            side: ProgressiveReport | None, figures: CertificationFigures | None = None) -> CertifiedTableJSON:
    """``summary.json`` (kind "certified_table"): the objects ``analyze --json``,
    ``strategies --json`` and ``progressive --json`` print, and the provenance."""
    extra: _Sections = {}
    if figures is not None:
        extra["certification"] = {**figures.to_dict()}
    if side is not None:
        extra["progressive"] = side.to_dict()
    return {"kind": "certified_table", "analysis": a.to_dict(), "strategies": comparison.to_dict(), **extra,
            "provenance": prov}


def _decimal(value: Fraction) -> str:
    """A float column's cell: a whole number as an integer, anything else to 12 decimals."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.12f}"


#: return_table.csv's columns: the JSON row's keys, each exact figure as a decimal column beside
#: its exact fraction (``<key>_exact``); ``row_kind``: "outcome" (the outcome rows partition the
#: combinations: their probabilities sum to 1) or "fee" (a fee paid on top of an outcome).
RETURN_TABLE_COLUMNS = ("outcome", "label", "row_kind", "net_result_antes", "net_result_antes_exact", "combinations",
                        "probability", "probability_exact", "return_per_ante", "return_per_ante_exact")


def return_table_csv(a: Analysis) -> str:
    """One row per return-table row, no total row (the totals are in summary.json), integers as
    integers, the same names as the JSON (see :data:`RETURN_TABLE_COLUMNS`)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(RETURN_TABLE_COLUMNS)
    for r in a.rows:
        w.writerow([r.outcome, r.event, "fee" if r.outcome.startswith("fee_") else "outcome", _decimal(r.pays),
                    str(r.pays), r.combinations, _decimal(r.probability), str(r.probability), _decimal(r.contribution),
                    str(r.contribution)])
    return buf.getvalue()


#: The exposure levels of protection.json: no dealer card, then 0..4 hole cards.
PROTECTION_LEVELS = (-1, 0, 1, 2, 3, 4)


#: The file of protection's seen hand that keeps its whole game's exact sums (sealed): what ``check`` reads back.
SEEN_HAND = SEEN_HAND_GAME.file


def kept_text(sums: Mapping[str, Any]) -> str:
    """A kept-sums file's text: the sums with their checksum (:func:`enumerate.core.slices.sealed`)."""
    return json.dumps(sealed(dict(sums)), indent=1) + "\n"


@dataclass(frozen=True)
class Protection:
    """protection.json's object and the kept sums beside it (seen_hand.json's text, when the
    table has the seen-hand game)."""

    data: ProtectionJSON
    kept: dict[str, str]


def protection_data(source: VariantSource, *, levels: tuple[int, ...] = PROTECTION_LEVELS, seen_hand: bool = False,
                    **run: Unpack[RunOptions]) -> Protection:
    """``protection.json`` (kind "protection"): the exact hole-card table (by default no dealer
    card and 0..4 hole cards) and the A/K edge-sorting analysis of a variant; with ``seen_hand``,
    the exact whole game of a player who sees one other hand (a partner's, or his own second
    box, so with the spread of a round of two boxes: :func:`studodds.api.seen_hand_game`), its
    timings left out (they are not figures), and its exact sums kept as seen_hand.json --
    counted (its shards kept in the user cache: an interrupted certification resumes), or read
    from the kept sums given (:func:`enumerate.core.exact_game.given`) and verified."""
    v = source.variant
    holes = api.hole_cards(v, levels, shares=(Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)), **run)
    sort = api.edge_sort(v, "AK", **_quiet(run))
    out: ProtectionJSON = {"kind": "protection", "variant": v.name, "hole_cards": holes.to_dict(),
                           "edge_sort": sort.to_dict()}
    kept = {}
    if seen_hand:
        game = api.seen_hand_game(source, **run)
        seen = game.to_dict()
        seen["core_seconds_per_class"] = seen["whole_game_core_hours"] = None
        out["seen_hand"] = seen
        kept[SEEN_HAND] = kept_text(exact_game.kept_json(SEEN_HAND_GAME, game.sums, game.classes))
    return Protection(out, kept)


@dataclass(frozen=True)
class RenderedTable:
    """The files of one certified table as text, with the objects they were made from (so
    nothing has to read back the JSON it has just written)."""

    name: str
    files: dict[str, str]
    summary: CertifiedTableJSON
    protection: Mapping[str, Any] | None = None          # protection.json's object, made or read

    @property
    def kept(self) -> list[str]:
        """The files beside :data:`FILES` (protection.json, the kept sums of whole games), each
        written atomically before them."""
        return [f for f in self.files if f not in FILES]

    @property
    def warnings(self) -> list[str]:
        """The sanity warnings of the rules and the result (see :mod:`enumerate.rules.sanity`),
        of the certification figures (an award rarer than once in 100 million games), and a
        simulation check that is not consistent with the exact figures."""
        found = list(self.summary["analysis"]["warnings"]) + list(self.summary.get("certification", {}).get("warnings", []))
        simulation = self.summary.get("simulation")
        if simulation is not None and not simulation["passed"]:
            found.append(f"simulation check: {simulation['verdict']}")
        return found


def _quiet(run: RunOptions) -> RunOptions:
    """The run settings without progress bars (for a step the batch's own bar covers)."""
    quiet = run.copy()
    quiet["progress"] = False
    return quiet


def render(source: VariantSource, spot_checks: int, hands: tuple[int, ...] = DEFAULT_HANDS,
           protection: Protection | None = None, html: bool = True,
           simulation: tuple[int, int] | Simulation | None = None,
           **run: Unpack[RunOptions]) -> RenderedTable:
    """The files of a certified table, as text, from the public API alone (``hands``: the
    numbers of hands of the N-hand table; ``protection``: protection.json's object and the kept
    sums beside it, which add those files and the report's game-protection section; ``html``: render report.html, which
    ``batch --formats md`` does not write; ``simulation``: (games, seed) of the simulation check,
    whose figures depend on nothing else, so a check reproduces them, or that check already run
    (a batch runs every table's at once, on the same games); ``run``: the run settings
    of every call): the plain game's renderer, or :func:`render_kind` (:data:`RENDERERS`)."""
    return RENDERERS.get(api.table_kind(source.variant), render_kind)(source, spot_checks, hands, protection, html,
                                                                      simulation, run)


def render_plain(source: VariantSource, spot_checks: int, hands: tuple[int, ...], protection: Protection | None,
                 html: bool, simulation: tuple[int, int] | Simulation | None, run: RunOptions) -> RenderedTable:
    """The files of a certified plain game (see :func:`render`)."""
    v = source.variant
    compared = api.strategies(v, **run)
    a = api.analyze(v, **run)                         # the optimal strategy's analysis, with the table's extras
    comparison = replace(compared, results=(replace(compared.results[0], analysis=a), *compared.results[1:]))
    side = api.progressive(v, **run) if v.progressive is not None else None
    prov = provenance(a, source, spot_checks)
    figures = api.certification(v, hands=hands, **run)
    data = summary(a, comparison, prov, side, figures)
    parts, exposure = components(a, *figures.ante_and_raise(), figures.largest_win()[0])
    data["certification"]["rtp_by_component"] = [c.to_dict() for c in parts]
    data["certification"]["largest_exposure"] = exposure.to_dict()
    sim = None
    if simulation is not None:
        sim = simulation if isinstance(simulation, Simulation) else api.simulate(v, games=simulation[0],
                                                                                 seed=simulation[1], **_quiet(run))
        data["simulation"] = sim.to_dict(timing=False)
    markdown = report_md(a, prov, comparison.results[1:], side, figures, sim, (parts, exposure))
    extra = {}
    if protection is not None:
        markdown += "\n" + protection_markdown(protection.data)
        extra[PROTECTION] = json.dumps(protection.data, indent=2) + "\n"
        extra.update(protection.kept)
    assert compared.chart is not None
    files = {
        **extra,
        "summary.json": json.dumps(data, indent=2) + "\n",
        "return_table.csv": return_table_csv(a),
        "strategy.md": strategy_markdown(compared.chart, a.variant),
        "strategy.csv": strategy_csv(compared.chart),
        "report.md": markdown,
        **({"report.html": report_html(markdown, data)} if html else {}),
        "variant.toml": source.text,
    }
    return RenderedTable(v.name, files, data, None if protection is None else protection.data)


def render_kind(source: VariantSource, spot_checks: int, hands: tuple[int, ...], protection: Protection | None,
                html: bool, simulation: tuple[int, int] | Simulation | None, run: RunOptions) -> RenderedTable:
    """The files of a certified table of a kind with a whole-game engine of its own (every kind
    but the plain game, :mod:`enumerate.game.kinds`): the exact whole game and the report from
    the kind's sections (:mod:`enumerate.analysis.sections`), the plain game's figures beside it
    when the kind says so (what its option is worth), its strategy.md and strategy.csv, and the
    whole game's exact sums in the kind's kept file when it keeps them, and the simulation check
    where the kind simulates (batch refuses protection, and a simulation the kind does not
    support, before any work)."""
    v = source.variant
    kind = kind_of(v)
    a = api.analyze(v, **run)
    prov = provenance(a, source, spot_checks)
    sim = None
    if simulation is not None:              # a kind that simulates (Russian Poker); batch refuses the others
        sim = simulation if isinstance(simulation, Simulation) else api.simulate(v, games=simulation[0],
                                                                                 seed=simulation[1], **_quiet(run))
    markdown = report_md(a, prov, simulation=sim)
    data: CertifiedTableJSON = {"kind": "certified_table", "analysis": a.to_dict(), "provenance": prov}
    if kind.report.beside_plain:
        plain, text = kind.report.beside(a, api.analyze(v.base_game(), **_quiet(run)))
        data = {"kind": "certified_table", "analysis": data["analysis"], "plain_game": plain, "provenance": prov}
        markdown += text
    if sim is not None:
        data["simulation"] = sim.to_dict(timing=False)
    kept = kind.kept_game(v)
    sums = {} if kept is None or a.kept_sums is None else {kept.file: kept_text(a.kept_sums)}
    files = {
        **sums,
        "summary.json": json.dumps(data, indent=2) + "\n",
        "return_table.csv": return_table_csv(a),
        **kind.report.strategy_files(a),
        "report.md": markdown,
        **({"report.html": report_html(markdown, data)} if html else {}),
        "variant.toml": source.text,
    }
    return RenderedTable(v.name, files, data)


#: The files of a kind of table (:mod:`enumerate.game.kinds`) with a renderer of its own, by the
#: kind's name -- the plain game, whose certified table compares strategies and carries the
#: certification figures, the progressive, protection and the simulation check; every other
#: kind is :func:`render_kind`.  A renderer takes (source, spot checks, hands, protection, html,
#: simulation, run settings).
RENDERERS: dict[str, Callable[..., RenderedTable]] = {"plain": render_plain}


#: Formats a batch can write: the text files always, html, and the binary pdf and xlsx.
FORMATS = ("md", "html", "pdf", "xlsx")


def binary_files(table: RenderedTable, formats: set[str], notes: list[str]) -> dict[str, bytes]:
    """report.pdf (headless Chromium) and report.xlsx (XlsxWriter) when asked for and available;
    what cannot be made is added to ``notes`` (once per reason) instead."""
    out: dict[str, bytes] = {}
    if "pdf" in formats:
        reason = pdf.missing_reason()
        if reason is not None:
            if reason not in notes:
                notes.append(reason)
        else:
            today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
            out["report.pdf"] = pdf.html_to_pdf(table.files["report.html"], f"studodds {__version__} - table of {today}")
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
    names += table.kept
    return names + [f for f in FILES if f != "report.html" or "html" in formats]


def write(out: Path, table: RenderedTable, binary: dict[str, bytes] | None = None,
          formats: set[str] | None = None, threads: int = 1) -> Path:
    """Write the files of ``table`` into ``out/<name>/``, each atomically, ``variant.toml`` last."""
    files = table.files
    folder = Path(out) / table.name
    remove_stale_temporaries(folder)
    atomic_write_text(folder / ENVIRONMENT, json.dumps(environment(threads), indent=2) + "\n")
    for fname, data in (binary or {}).items():
        atomic_write_bytes(folder / fname, [data])
    for fname in table.kept:
        atomic_write_text(folder / fname, files[fname])
    for fname in FILES:                       # variant.toml last: it marks a complete table
        if fname == "report.html" and (fname not in files or formats is not None and "html" not in formats):
            continue
        atomic_write_text(folder / fname, files[fname])
    return folder


