"""The full game of a variant: the base analysis plus its rule variants and side bets.

The base game (ante and raise, optimal strategy) is :func:`enumerate.analysis.base.analyze`.
Two things sit on top of it and need it as input: the figures of rule variants (edge by ante
size under a maximum payout, the cost of a hand left face down;
:mod:`enumerate.analysis.rule_variants`) and the side bets, settled under the base strategy or
under a strategy remade when a fold forfeits them (:mod:`enumerate.sidebets.analysis`).  This
module puts the three together; it is what ``studodds.analyze`` returns and ``summary.json``
holds.  A standard table has neither extra, and its figures are the base game's.

Which analysis gives the whole game depends on the kind of table (:mod:`enumerate.game.kinds`):
a table that lets the player switch cards or buy a sixth card before deciding is analysed by
:mod:`enumerate.draws.game` instead (its own return table, with the fees as rows), and carries
the figures of the draws.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NotRequired

from enumerate.analysis.base import Analysis, BaseAnalysisJSON
from enumerate.analysis.rule_variants import RuleVariantFigures, RuleVariantsJSON
from enumerate.boxes.shapes import BoxesFiguresJSON
from enumerate.core.engine import CountTable
from enumerate.core.shapes import shape
from enumerate.core.tabular import tabular
from enumerate.draws.shapes import DrawsJSON
from enumerate.game.kinds import require
from enumerate.game.plain import extras
from enumerate.rules.variant import Variant
from enumerate.russian.shapes import RussianFiguresJSON
from enumerate.sidebets.analysis import SideBetReport, SideBetsJSON

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.boxes.game import BoxesFigures
    from enumerate.draws.game import DrawFigures
    from enumerate.russian.game import RussianFigures


@shape("analysis", document=True)
class AnalysisJSON(BaseAnalysisJSON):
    """The JSON of a table's analysis (kind "analysis"): the base game and the figures its rule
    variants, side bets, draws, two boxes and the options of Russian Poker add."""

    rule_variants: NotRequired[RuleVariantsJSON]
    side_bets: NotRequired[SideBetsJSON]
    draws: NotRequired[DrawsJSON]
    boxes: NotRequired[BoxesFiguresJSON]
    russian: NotRequired[RussianFiguresJSON]


@tabular("return_table", "return-table rows")
@dataclass(frozen=True)
class GameAnalysis(Analysis):
    """:class:`~enumerate.analysis.base.Analysis` of the base game under optimal strategy, with
    the figures of the variant's rule variants and side bets (None when it has none)."""

    rule_variants: RuleVariantFigures | None = None      # a capped payout, a hand left face down
    side_bets: SideBetReport | None = None               # the variant's side bets, when it has any
    draws: DrawFigures | None = None                     # switching cards, a sixth card
    boxes: BoxesFigures | None = None                    # one player on two boxes
    russian: RussianFigures | None = None                # the options of Russian Poker
    #: the kept sums of the kind's whole game (the object of its kept file: what ``check`` reads
    #: back instead of counting; not in the JSON), when it keeps them
    kept_sums: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> AnalysisJSON:
        out: AnalysisJSON = {**super().to_dict()}
        if self.rule_variants is not None:
            out["rule_variants"] = self.rule_variants.to_dict()
        if self.side_bets is not None:
            out["side_bets"] = self.side_bets.to_dict()
        if self.draws is not None:
            out["draws"] = self.draws.to_dict()
        if self.boxes is not None:
            out["boxes"] = self.boxes.to_dict()
        if self.russian is not None:
            out["russian"] = self.russian.to_dict()
        return out


def with_extras(counts: CountTable, variant: Variant, result: Analysis, threads: int = 1) -> GameAnalysis:
    """The optimal-strategy analysis ``result`` of the plain game with the figures of the
    variant's rule variants and side bets attached (the same figures for a standard table)."""
    return _game(result, extras(counts, variant, result, threads))


def analyze_game(counts: CountTable, variant: Variant, threads: int = 1,
                 progress: Callable[[int], None] | None = None, use_cache: bool = True) -> GameAnalysis:
    """The full game of ``variant`` under optimal strategy, as its kind of table gives it
    (:mod:`enumerate.game.kinds`); ``progress`` gets the steps of the kind's
    :meth:`~enumerate.game.kinds.TableKind.analysis_steps`, and ``use_cache`` lets a kind read
    and write its results in the user's cache folder."""
    result, added = require(variant, "analyze").analyze(counts, variant, threads, progress, use_cache)
    return _game(result, added)


def _game(result: Analysis, added: dict[str, Any]) -> GameAnalysis:
    """``result`` with the fields of :class:`GameAnalysis` a kind adds."""
    return GameAnalysis(**{f: getattr(result, f) for f in Analysis.__dataclass_fields__}, **added)
