"""Certify many variants at once (:func:`batch`, returning a :class:`BatchResult`): every
table rendered into a staging folder, then moved into place only when all are complete.

A certified table is never lost: a batch refuses, before any work, to write where a table
folder already holds files, unless told to (``replace=True``, ``--replace``); it then replaces
each table folder whole, in one atomic exchange of the old folder and the new one, so a table
is never half old and half new."""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypedDict

from enumerate.analysis.distribution import DEFAULT_HANDS, check_hands
from enumerate.core.atomic import TMP_SUFFIX, remove_stale_temporaries, replace_folder, temporary_folder
from enumerate.core.run import Run
from enumerate.core.shapes import shape
from enumerate.game.kinds import require
from enumerate.rules.sanity import rule_warnings, strict_error
from enumerate.rules.variant_file import VariantSource, resolve_many
from enumerate.simulation.simulate import Simulation, check_playable, check_run
from evaluator.errors import ParameterError, StudoddsError
from studodds import api
from studodds.certify.tables import (
    FORMATS,
    PROTECTION_LEVELS,
    SPOT_CHECKS,
    binary_files,
    protection_data,
    render,
    write,
    written_files,
)
from studodds.progress import progress_bar


class WrittenTableJSON(TypedDict):
    """One table a batch wrote: the variant, its folder and its files."""

    variant: str
    folder: str
    files: list[str]


@shape("batch", document=True)
class BatchJSON(TypedDict):
    """The JSON of what a batch wrote (kind "batch")."""

    kind: Literal["batch"]
    out: str
    tables: list[WrittenTableJSON]


@dataclass(frozen=True)
class WrittenTable:
    """One table a batch wrote: the variant, its folder and the files written there."""

    variant: str
    folder: str
    files: tuple[str, ...]

    def to_dict(self) -> WrittenTableJSON:
        return {"variant": self.variant, "folder": self.folder, "files": list(self.files)}


@dataclass(frozen=True)
class BatchResult:
    """What :func:`batch` wrote, the sanity warnings of each table as ``(variant, warning)``, and
    notes about formats that could not be made (a missing browser or XlsxWriter)."""

    out: str
    tables: tuple[WrittenTable, ...]
    warnings: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()

    def to_dict(self) -> BatchJSON:
        """kind "batch": what ``studodds batch --json`` prints."""
        return {"kind": "batch", "out": self.out, "tables": [t.to_dict() for t in self.tables]}

    def text(self) -> str:
        return "\n".join(f"{t.folder}/" for t in self.tables)


def report_formats(formats: Iterable[str] | str | None) -> set[str]:
    """The report formats of a batch: ``md`` always, plus any of ``html``, ``pdf`` (printed from
    the html, which it brings along) and ``xlsx``; None means ``$STUDODDS_FORMATS``, else all."""
    if formats is None:
        formats = os.environ.get("STUDODDS_FORMATS", ",".join(FORMATS))
    items = formats.split(",") if isinstance(formats, str) else list(formats)
    chosen = {f.strip() for f in items if f.strip()} | {"md"}
    unknown = chosen - set(FORMATS)
    if unknown:
        raise ParameterError("formats", f"unknown format {sorted(unknown)[0]!r} (choose from {', '.join(FORMATS)})")
    return chosen | ({"html"} if "pdf" in chosen else set())     # pdf is printed from the html report


@contextmanager
def _refused_as(option: str) -> Iterator[None]:
    """A refusal within the block, as a ParameterError naming the batch's ``option``."""
    try:
        yield
    except StudoddsError as exc:
        raise ParameterError(option, f"{exc}; leave out --{option} for it") from None


def simulation_run(games: int, seed: int) -> tuple[int, int] | None:
    """(games, seed) of the simulation check, None for none; ParameterError naming the option
    when either is out of range."""
    check_run(games, seed, "simulate", "simulate_seed", none_allowed=True)
    return (games, seed) if games else None


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
          protection: Iterable[int] = (), seen_hand: bool = False, strict: bool = False, simulate: int = 0,
          simulate_seed: int = 0,
          replace: bool = False, checkpoint: str | Path | None = None, threads: int | None = None,
          use_cache: bool = True, progress: bool = False) -> BatchResult:
    """Certify ``variants`` (names, .toml files or folders of them; none: every built-in) into
    ``out/<variant>/``.  ``formats``: see :func:`report_formats`; ``hands``: the N-hand table;
    ``protection``: exposure levels (-1: no dealer card, 0..4 hole cards) of protection.json,
    none for no file; ``seen_hand``: add the exact whole game of a player who sees one other hand
    to protection.json (needs ``protection``; about 1.5 core-hours a paytable); ``strict``: a
    sanity warning is an error, and then nothing is written;
    ``simulate``: games of the simulation check each table's report gains (0: none), from
    ``simulate_seed``; ``replace``: replace table folders that already hold files (refused
    otherwise, before any work); ``checkpoint``: one table's whole game counted in shards kept in
    that folder instead of the user cache (a ``draws-exact`` run of the whole game, done
    elsewhere, certified from its shards: :func:`studodds.api.whole_game_shards`).

    Every table is rendered into a staging folder first and moved into place only when all are
    complete (see the module docstring)."""
    threads = Run.of("batch", {"threads": threads}).threads     # resolved once: every step below gets this int
    chosen = report_formats(formats)
    counts_of_hands = check_hands(hands)
    levels = tuple(sorted({int(k) for k in protection}))
    simulation = simulation_run(simulate, simulate_seed)
    if any(k not in PROTECTION_LEVELS for k in levels):
        raise ParameterError("protection", "levels are -1 (no dealer card) or 0..4 hole cards")
    if not isinstance(seen_hand, bool):
        raise ParameterError("seen_hand", f"True or False, not {seen_hand!r:.40}")
    if seen_hand and not levels:
        raise ParameterError("seen_hand", "the seen-hand game goes into protection.json: add --protection")
    sources = resolve_many([str(v) for v in variants])
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise ParameterError("out", f"{root}: exists and is not a folder")
    for s in sources:                          # everything that can be refused, before any work
        if strict and rule_warnings(s.variant):
            raise strict_error(s.variant.name, rule_warnings(s.variant))
        require(s.variant, "analyze")          # the kind of table, chosen once (enumerate.game.kinds)
        if simulation is not None:
            with _refused_as("simulate"):
                require(s.variant, "simulate")
                check_playable(s.variant)
        if levels:
            with _refused_as("protection"):
                require(s.variant, "protection")
    if not replace:
        occupied = [root / s.variant.name for s in sources if _holds_files(root / s.variant.name)]
        if occupied:
            raise ParameterError("out", f"{occupied[0]}: already holds a table; add --replace to replace "
                                        f"{'it' if len(occupied) == 1 else f'it and {len(occupied) - 1} more'}, "
                                        "or write the new tables elsewhere with --out DIR")
    if checkpoint is not None and len(sources) != 1:
        raise ParameterError("checkpoint", f"a checkpoint folder holds one table's whole game, and {len(sources)} "
                                           "tables are named: certify that table alone")
    shards = api.whole_game_shards(sources[0].variant, checkpoint) if checkpoint is not None else nullcontext()
    made = [f for f in (root, *root.parents) if not f.exists()]           # the folders this batch creates
    try:
        with shards:                           # the folder read and verified before anything is written
            writable_folder(root, "out", make=True)
            return _certify(sources, root, chosen, counts_of_hands, levels, strict, threads, use_cache, progress,
                            simulation, seen_hand)
    except BaseException:
        for folder in made:                    # deepest first: a batch that fails leaves no folder of its own
            try:
                folder.rmdir()
            except OSError:
                break
        raise


def _certify(sources: list[VariantSource], root: Path, chosen: set[str], counts_of_hands: tuple[int, ...],
             levels: tuple[int, ...], strict: bool, threads: int, use_cache: bool,
             progress: bool, simulation: tuple[int, int] | None = None, seen_hand: bool = False) -> BatchResult:
    """The work of :func:`batch` once every argument is accepted."""
    groups: dict[int, list[VariantSource]] = {}
    for s in sources:
        groups.setdefault(s.variant.qualifier.threshold, []).append(s)
    notes: list[str] = []
    found_warnings: list[tuple[str, str]] = []
    staged: list[tuple[str, list[str]]] = []
    sims: dict[int, Simulation] = {}
    if simulation is not None:                       # every table on the same games, dealt and ranked once
        sims = dict(zip(map(id, sources), api.simulate_many([s.variant for s in sources], games=simulation[0],
                                                             seed=simulation[1], threads=threads, use_cache=use_cache,
                                                             progress=progress)))
    with _staging(root) as staging, progress_bar(progress, "variants", len(sources), "variant") as tick:
        for group in groups.values():                # one count table a group: counted (and checked) once
            checked = api.self_check(group[0].variant, SPOT_CHECKS, threads=threads, use_cache=use_cache, progress=progress)
            for s in group:
                extra = (protection_data(s, levels=levels, seen_hand=seen_hand, threads=threads, use_cache=use_cache,
                                         progress=progress) if levels else None)
                table = render(s, checked, counts_of_hands, extra, html="html" in chosen, simulation=sims.get(id(s)),
                               threads=threads, use_cache=use_cache)
                if strict and table.warnings:
                    raise strict_error(s.variant.name, table.warnings)
                found_warnings += [(s.variant.name, w) for w in table.warnings]
                binary = binary_files(table, chosen, notes)
                write(staging, table, binary, chosen, threads)
                staged.append((table.name, written_files(table, chosen, binary)))
                if tick is not None:
                    tick(1)
        for name, _files in staged:
            replace_folder(staging / name, root / name)
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


def _holds_files(folder: Path) -> bool:
    """True when ``folder`` exists and is not an empty folder (a file of that name, or a folder
    with anything in it but a dead writer's temporaries)."""
    if not folder.exists() and not folder.is_symlink():
        return False
    if not folder.is_dir() or folder.is_symlink():
        return True
    try:
        return any(not f.name.endswith(TMP_SUFFIX) for f in folder.iterdir())
    except OSError:
        return True
