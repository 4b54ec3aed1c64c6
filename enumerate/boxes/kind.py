"""Two boxes as a kind of table (see :mod:`enumerate.game.kinds`).

A table with a ``[boxes]`` section: one player on two boxes, each decided seeing both hands.
Its whole game is :mod:`enumerate.boxes.game` (the seen-hand rank-pattern kernel, counted as
pairs); the analyses built on the one-box game's decision (one hand's EVs, strategies, the EV
table, the simulator, paytable design, game protection) do not apply to it -- the one-box table
has them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from enumerate.analysis.base import Analysis
from enumerate.boxes.report import BOXES_REPORT
from enumerate.core.engine import CountTable
from enumerate.core.projection import Projection
from enumerate.rules.variant import Variant

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.core.exact_game import KeptGame


class BoxesGame:
    """The kind of a table with a ``[boxes]`` section."""

    name = "boxes"
    title = "a table of two boxes (one player, each box decided seeing both hands)"
    supports = frozenset({"analyze"})

    report = BOXES_REPORT

    def owns(self, variant: Variant) -> bool:
        return variant.boxes is not None

    def condition(self, analysis: str, variant: Variant) -> str | None:
        left_out = variant.beside_the_base_game()
        if left_out:
            return (f"two boxes are modelled for the base game (pays, qualifier, raise, a maximum payout), not with "
                    f"{' or '.join(left_out)}: certify those on the one-box table")
        return None

    def analyze(self, counts: CountTable, variant: Variant, threads: int, progress: Callable[[int], None] | None,
                use_cache: bool) -> tuple[Analysis, dict[str, Any]]:
        from enumerate.boxes.game import KEPT, boxes_analysis, whole_game  # lazy: start-up time
        from enumerate.core import exact_game  # lazy: start-up time
        s = whole_game(variant, counts, threads=threads, progress=progress, use_cache=use_cache)
        result, figures = boxes_analysis(variant, s)
        return result, {"boxes": figures, "kept_sums": exact_game.kept_json(KEPT, s.sums, s.classes)}

    def analysis_steps(self, counts: CountTable, variant: Variant) -> tuple[str, str, int] | None:
        from enumerate.boxes.seen_game import whole_game_steps  # lazy: start-up time
        return "two boxes, by rank patterns", "class", whole_game_steps()

    def projection(self, variant: Variant) -> Projection | None:
        from enumerate.boxes import seen_ranks  # lazy: start-up time
        return seen_ranks.whole_game_projection("the whole two-box game")

    def kept_game(self, variant: Variant) -> KeptGame[Any] | None:
        from enumerate.boxes.game import KEPT  # lazy: start-up time
        return KEPT



BOXES_GAME = BoxesGame()
