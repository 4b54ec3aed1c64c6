"""Kinds of table: what a table is, chosen once, and which analyses it supports.

A variant file describes one kind of table.  The plain game (ante, raise or fold, side bets, a
progressive, rule variants) is one kind; a table that lets the player switch cards or buy a sixth
card before deciding is another: its decision comes after the draw, with other cards out of
play, so the raise value, the strategies, the simulator and the protection kernels -- all built
on the plain game's counts -- do not apply to it, and its whole game has an engine of its own.

A kind is an object with the methods of :class:`TableKind`; it lives in its own package (the
plain game in :mod:`enumerate.game.plain`, the draws in :mod:`enumerate.draws.kind`) and is
registered once, in :data:`KINDS`.  The API and certification call :func:`kind_of` once per
table and then ask the kind: :func:`require` refuses an analysis the kind does not support
(every "not supported for this kind of table" message comes from here), ``analyze`` gives the
whole game, ``hand`` the EVs of one hand, ``raises_dealt_hand`` the decisions a diff compares.

Adding a kind: a package with the kind object, its section of the variant file
(:mod:`enumerate.rules`), and one line in :data:`KINDS` (before the plain game, which owns every
variant no other kind claims).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from enumerate.analysis.base import Analysis
from enumerate.analysis.sections import KindReport
from enumerate.boxes.kind import BOXES_GAME
from enumerate.core.engine import CountTable
from enumerate.core.projection import Projection
from enumerate.draws.kind import DRAWS_GAME
from enumerate.game.plain import PLAIN_GAME
from enumerate.rules.variant import Variant
from enumerate.russian.kind import RUSSIAN_GAME
from evaluator.errors import StudoddsError

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.core.exact_game import KeptGame

#: The analyses a table may support, each with the commands that give it (for messages).
ANALYSES: dict[str, str] = {
    "analyze": "the whole game (analyze, batch, check)",
    "hand": "one hand's EVs (hand)",
    "diff": "a comparison of two tables (diff)",
    "strategies": "the strategy comparison (strategies)",
    "ev_table": "the EV table (ev-table)",
    "simulate": "the simulation (simulate, batch --simulate)",
    "progressive": "the progressive (progressive)",
    "design": "paytable design (sensitivity, solve, search)",
    "protection": "game protection (hole-cards, edge-sort, burn-card, collusion, batch --protection)",
    "draws_sample": "the whole game estimated from exactly valued sampled situations (draws-sample)",
    "draws_exact": "the exact game with switches, slice by slice (draws-exact)",
}


class TableKind(Protocol):
    """What a kind of table provides (see the module docstring)."""

    #: the registry key ("plain", "draws"), also the key of the kind's certified files
    name: str
    #: what a table of this kind is, for messages ("the plain game", "a table with draws ...")
    title: str
    #: the analyses (keys of :data:`ANALYSES`) the kind offers at all
    supports: frozenset[str]

    @property
    def report(self) -> KindReport:
        """What the kind says in the reports (:mod:`enumerate.analysis.sections`)."""

    def owns(self, variant: Variant) -> bool:
        """True if ``variant`` is a table of this kind."""

    def condition(self, analysis: str, variant: Variant) -> str | None:
        """Why this table cannot have ``analysis`` although its kind supports it (its rules
        are outside what the analysis models), or None."""

    def analyze(self, counts: CountTable, variant: Variant, threads: int, progress: Callable[[int], None] | None,
                use_cache: bool) -> tuple[Analysis, dict[str, Any]]:
        """The whole game under optimal strategy: the analysis and the fields of
        :class:`~enumerate.game.analysis.GameAnalysis` the kind adds."""

    def analysis_steps(self, counts: CountTable, variant: Variant) -> tuple[str, str, int] | None:
        """The progress bar of :meth:`analyze` (label, unit, total), or None (too quick)."""

    def projection(self, variant: Variant) -> Projection | None:
        """What counting the whole game from nothing costs, when it takes more than seconds (the
        line said before it starts, and what ``check`` says a recount of new rules would take),
        or None."""

    def kept_game(self, variant: Variant) -> KeptGame[Any] | None:
        """The whole game a certified table of this kind keeps as exact sums (a count of
        core-hours: ``check`` reads them back instead of counting again;
        :mod:`enumerate.core.exact_game`), or None."""


@runtime_checkable
class HandKind(TableKind, Protocol):
    """A kind that supports one hand's EVs ("hand" in its ``supports``) has these too."""

    def hand(self, variant: Variant, cards: tuple[int, ...], up: int | None, counts: Callable[[], CountTable],
             threads: int, progress: Callable[[int], None] | None, *, use_cache: bool = True) -> Any:
        """The EVs of one player hand against ``up`` (or every up card); ``counts()`` gives
        the count table when the kind needs it; ``use_cache=False``: no other file of the disk
        cache read or written either."""

    def hand_steps(self, up: int | None) -> tuple[str, str, int] | None:
        """The progress bar of :meth:`hand` (label, unit, total), or None (too quick)."""


@runtime_checkable
class DiffKind(TableKind, Protocol):
    """A kind that supports a comparison of two tables ("diff" in its ``supports``) has this too."""

    def raises_dealt_hand(self, counts: CountTable, variant: Variant, threads: int) -> np.ndarray | None:
        """Per situation (row, up column of the count table): does optimal play raise with the
        hand as dealt?  None when the kind's whole game keeps no decision per situation (a game
        counted by rank patterns keeps its strategy chart, which the diff compares instead)."""


@runtime_checkable
class SliceKind(TableKind, Protocol):
    """A kind that counts exact slices of its game ("draws_exact" in its ``supports``) has this too."""

    def slice_run(self, variant: Variant, variant_text: str, sl: Any, checkpoint: Any) -> Any:
        """The run of the slice ``sl`` (:class:`enumerate.core.exact_game.SliceRun`), its
        ``checkpoint`` folder read and verified before any work."""


@runtime_checkable
class SampleKind(TableKind, Protocol):
    """A kind that samples its own game ("draws_sample" in its ``supports``, the estimate made
    by the kind itself rather than the draws' one-card control variate) has this too."""

    def sample(self, variant: Variant, variant_text: str, situations: int, seed: int, checkpoint: Path | Any | None,
               scheduler: str | None, threads: int, progress: Callable[[int], None] | None,
               strategy: str | None = None) -> Any:
        """About ``situations`` situations sampled and each valued exactly, resumed from the
        ``checkpoint`` file (read and verified before any work), or from a store
        :meth:`sample_checkpoint` read; with ``strategy`` (one of :meth:`draw_strategies`), each
        played with that draw strategy's action instead of the best."""

    def draw_strategies(self) -> tuple[str, ...]:
        """The names of the simple draw strategies :meth:`sample` may play."""

    def draw_strategy_refusal(self, name: str, variant: Variant) -> str | None:
        """Why the draw strategy ``name`` cannot be played at ``variant``'s table (None: it can)."""

    def played_run(self, variant: Variant, variant_text: str, sl: Any, checkpoint: Any, played: str) -> Any:
        """The exact run of the slice ``sl`` played with the draw strategy ``played`` (as
        :meth:`SliceKind.slice_run`, its checkpoint read and verified before any work)."""

    def sample_checkpoint(self, variant_text: str, situations: int, seed: int, checkpoint: Path | None,
                          strategy: str | None = None) -> Any:
        """The ``checkpoint`` file of such a sample read and verified now (before any work), as a
        store :meth:`sample` resumes from."""

    def sample_size(self, situations: int) -> int:
        """How many situations :meth:`sample` values for ``situations`` asked (its progress bar)."""


@runtime_checkable
class StrategiesKind(TableKind, Protocol):
    """A kind that compares simple strategies with optimal play ("strategies" in its ``supports``) has this too."""

    def strategies(self, counts: CountTable, variant: Variant, named: Any, threads: int,
                   progress: Callable[[int], None] | None) -> tuple[list[Any], Any]:
        """Optimal play (first) and each of ``named`` (name -> ``f(hands, up) -> raise mask``)
        exactly, as :class:`~enumerate.analysis.strategies.StrategyResult`, and the optimal
        strategy chart."""

    def strategies_steps(self) -> tuple[str, str, int] | None:
        """The progress bar of :meth:`strategies` (label, unit, total), or None (too quick)."""


@runtime_checkable
class EvTableKind(TableKind, Protocol):
    """A kind that exports the EV of every situation ("ev_table" in its ``supports``) has this too."""

    def ev_table(self, counts: CountTable, variant: Variant, threads: int,
                 progress: Callable[[int], None] | None) -> Any:
        """The EV table (:class:`enumerate.analysis.ev_table.EVTable`) of ``variant``'s situations."""


#: The optional parts of a kind, by the analysis that needs them (draws_sample: optional, the
#: draws' own estimate otherwise).
CAPABILITIES: dict[str, type] = {"hand": HandKind, "diff": DiffKind, "draws_exact": SliceKind,
                                 "ev_table": EvTableKind, "strategies": StrategiesKind}


#: Every kind; the first that owns a variant is its kind (the plain game, last, owns them all).
KINDS: tuple[TableKind, ...] = (RUSSIAN_GAME, DRAWS_GAME, BOXES_GAME, PLAIN_GAME)


def kind_of(variant: Variant) -> TableKind:
    """The kind of ``variant``'s table."""
    return next(k for k in KINDS if k.owns(variant))


def hand_kind(variant: Variant) -> HandKind:
    """The kind of ``variant``'s table, if it gives one hand's EVs (else :func:`require`'s refusal)."""
    kind = require(variant, "hand")
    assert isinstance(kind, HandKind), f"kind {kind.name!r} supports 'hand' without hand() and hand_steps()"
    return kind


def diff_kind(variant: Variant) -> DiffKind:
    """The kind of ``variant``'s table, if two tables of it can be compared (else :func:`require`'s refusal)."""
    kind = require(variant, "diff")
    assert isinstance(kind, DiffKind), f"kind {kind.name!r} supports 'diff' without raises_dealt_hand()"
    return kind


def ev_table_kind(variant: Variant) -> EvTableKind:
    """The kind of ``variant``'s table, if it exports its situations' EVs (else :func:`require`'s refusal)."""
    kind = require(variant, "ev_table")
    assert isinstance(kind, EvTableKind), f"kind {kind.name!r} supports 'ev_table' without ev_table()"
    return kind


def strategies_kind(variant: Variant) -> StrategiesKind:
    """The kind of ``variant``'s table, if it compares simple strategies (else :func:`require`'s refusal)."""
    kind = require(variant, "strategies")
    assert isinstance(kind, StrategiesKind), f"kind {kind.name!r} supports 'strategies' without strategies()"
    return kind


def slice_kind(variant: Variant) -> SliceKind:
    """The kind of ``variant``'s table, if it counts exact slices (else :func:`require`'s refusal)."""
    kind = require(variant, "draws_exact")
    assert isinstance(kind, SliceKind), f"kind {kind.name!r} supports 'draws_exact' without slice_run()"
    return kind


def require(variant: Variant, analysis: str) -> TableKind:
    """The kind of ``variant``'s table, if it supports ``analysis``; else one StudoddsError
    naming the table, what it is, and why (before any counting)."""
    if analysis not in ANALYSES:
        raise KeyError(f"unknown analysis {analysis!r}")
    kind = kind_of(variant)
    if analysis not in kind.supports:
        others = [k.title for k in KINDS if analysis in k.supports]
        raise StudoddsError(f"variant {variant.name!r} is {kind.title}: {ANALYSES[analysis]} is not supported for "
                            f"this kind of table{', only for ' + ' or '.join(others) if others else ''}")
    reason = kind.condition(analysis, variant)
    if reason is not None:
        raise StudoddsError(f"variant {variant.name!r}: {reason}")
    return kind
