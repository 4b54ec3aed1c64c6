"""The full game of a variant: the base analysis plus its rule variants and side bets.

The base game (ante and raise, optimal strategy) is :func:`enumerate.analysis.base.analyze`.
Two things sit on top of it and need it as input: the figures of rule variants (edge by ante
size under a maximum payout, the cost of a hand left face down;
:mod:`enumerate.analysis.rule_variants`) and the side bets, settled under the base strategy or
under a strategy remade when a fold forfeits them (:mod:`enumerate.sidebets.analysis`).  This
module puts the three together; it is what ``studodds.analyze`` returns and ``summary.json``
holds.  A standard table has neither extra, and its figures are the base game's.

A table that lets the player switch cards or buy a sixth card before deciding is analysed by
:mod:`enumerate.draws.game` instead (its own return table, with the fees as rows), and carries
the figures of the draws.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from enumerate.analysis.base import Analysis, analyze
from enumerate.analysis.rule_variants import RuleVariantFigures, rule_variant_figures
from enumerate.core.engine import CountTable
from enumerate.core.tabular import tabular
from enumerate.rules.variant import Variant

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.draws.game import DrawFigures
    from enumerate.sidebets.analysis import SideBetReport


@tabular("return_table", "return-table rows")
@dataclass(frozen=True)
class GameAnalysis(Analysis):
    """:class:`~enumerate.analysis.base.Analysis` of the base game under optimal strategy, with
    the figures of the variant's rule variants and side bets (None when it has none)."""

    rule_variants: RuleVariantFigures | None = None      # a capped payout, a hand left face down
    side_bets: SideBetReport | None = None               # the variant's side bets, when it has any
    draws: DrawFigures | None = None                     # switching cards, a sixth card

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(),
                **({} if self.rule_variants is None else {"rule_variants": self.rule_variants.to_dict()}),
                **({} if self.side_bets is None else {"side_bets": self.side_bets.to_dict()}),
                **({} if self.draws is None else {"draws": self.draws.to_dict()})}


def with_extras(counts: CountTable, variant: Variant, result: Analysis, threads: int | None = None) -> GameAnalysis:
    """The optimal-strategy analysis ``result`` of the base game with the figures of the
    variant's rule variants and side bets attached (the same figures for a standard table)."""
    fields = {f: getattr(result, f) for f in Analysis.__dataclass_fields__}
    game = GameAnalysis(**fields)
    extras = rule_variant_figures(counts, variant, result, threads)
    if extras is not None:
        game = replace(game, rule_variants=extras)
    if variant.side_bets:
        from enumerate.sidebets.analysis import analyze_side_bets  # lazy: start-up time (few variants have side bets)
        game = replace(game, side_bets=analyze_side_bets(counts, variant, threads, base=result))
    return game


def analyze_game(counts: CountTable, variant: Variant, threads: int | None = None,
                 progress: Callable[[int], None] | None = None, use_cache: bool = True) -> GameAnalysis:
    """The full game of ``variant`` under optimal strategy (see the module docstring);
    ``progress`` (a table with draws only, minutes of work) gets the steps of
    :func:`enumerate.draws.game.draw_counts`, and ``use_cache`` lets that result be read from
    and written to the user's cache folder."""
    if variant.draws is not None:
        from enumerate.draws.game import analyze_draws  # lazy: start-up time (few tables have draws)
        result, figures = analyze_draws(counts, variant, threads, progress, use_cache)
        fields = {f: getattr(result, f) for f in Analysis.__dataclass_fields__}
        return GameAnalysis(**fields, draws=figures)
    return with_extras(counts, variant, analyze(counts, variant, threads=threads), threads)
