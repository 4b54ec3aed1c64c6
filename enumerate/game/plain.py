"""The plain game as a kind of table (see :mod:`enumerate.game.kinds`).

Ante, then raise or fold with the five cards dealt: the counts of :mod:`enumerate.core.engine`
and the raise value of :mod:`enumerate.raise_value` answer every question about it -- the whole
game with its rule variants and side bets, one hand's EVs, the strategies, the EV table, the
simulation, the progressive; paytable design and game protection too when it has no ante bonus
(which makes the raise decision depend on the category; design also needs uncapped pays).  It
owns every variant no other kind claims.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from enumerate.analysis.base import Analysis, analyze
from enumerate.analysis.rule_variants import rule_variant_figures
from enumerate.core.engine import CountTable
from enumerate.core.projection import Projection
from enumerate.game.plain_report import PLAIN_REPORT
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant import Variant

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.core.exact_game import KeptGame


def extras(counts: CountTable, variant: Variant, result: Analysis, threads: int = 1) -> dict[str, Any]:
    """The figures of the variant's rule variants and side bets beside the optimal-strategy
    analysis ``result`` (the fields of :class:`~enumerate.game.analysis.GameAnalysis`; none
    for a standard table)."""
    out: dict[str, Any] = {}
    figures = rule_variant_figures(counts, variant, result, threads)
    if figures is not None:
        out["rule_variants"] = figures
    if variant.side_bets:
        from enumerate.sidebets.analysis import analyze_side_bets  # lazy: start-up time (few variants have side bets)
        out["side_bets"] = analyze_side_bets(counts, variant, threads, base=result)
    return out


class PlainGame:
    """The kind of every table without draws."""

    name = "plain"
    title = "the plain game"
    supports = frozenset({"analyze", "hand", "diff", "strategies", "ev_table", "simulate", "progressive", "design",
                          "protection"})

    report = PLAIN_REPORT

    def owns(self, variant: Variant) -> bool:
        return True

    def condition(self, analysis: str, variant: Variant) -> str | None:
        if analysis == "design":
            from enumerate.design.grid import design_refusal  # lazy: start-up time (the design package)
            return design_refusal(variant)
        if analysis == "protection" and variant.ante_bonus is not None:
            return ("game-protection analysis models a table without an ante bonus (with one, the raise decision "
                    "depends on the category)")
        if analysis == "progressive" and variant.progressive is None:
            return "the table has no [progressive] side bet"
        return None

    def analyze(self, counts: CountTable, variant: Variant, threads: int, progress: Callable[[int], None] | None,
                use_cache: bool) -> tuple[Analysis, dict[str, Any]]:
        result = analyze(counts, variant, threads=threads)
        return result, extras(counts, variant, result, threads)

    def analysis_steps(self, counts: CountTable, variant: Variant) -> tuple[str, str, int] | None:
        return None

    def projection(self, variant: Variant) -> Projection | None:
        return None                              # seconds, once the count table is made

    def kept_game(self, variant: Variant) -> KeptGame[Any] | None:
        return None

    def hand(self, variant: Variant, cards: tuple[int, ...], up: int | None, counts: Callable[[], CountTable],
             threads: int, progress: Callable[[int], None] | None, *, use_cache: bool = True) -> Any:
        from enumerate.analysis.ev import hand_report  # lazy: start-up time
        return hand_report(counts(), variant, cards, up)

    def ev_table(self, counts: CountTable, variant: Variant, threads: int,
                 progress: Callable[[int], None] | None) -> Any:
        from enumerate.analysis.ev_table import build  # lazy: start-up time
        return build(counts, variant)

    def hand_steps(self, up: int | None) -> tuple[str, str, int] | None:
        return None

    def strategies(self, counts: CountTable, variant: Variant, named: Any, threads: int,
                   progress: Callable[[int], None] | None) -> tuple[list[Any], Any]:
        from enumerate.analysis.strategies import evaluate  # lazy: start-up time
        return evaluate(counts, variant, named, threads=threads)

    def strategies_steps(self) -> tuple[str, str, int] | None:
        return None

    def raises_dealt_hand(self, counts: CountTable, variant: Variant, threads: int) -> np.ndarray:
        return RaiseValue.of(variant).optimal(counts)


PLAIN_GAME = PlainGame()
