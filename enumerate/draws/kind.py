"""The table with draws as a kind of table (see :mod:`enumerate.game.kinds`).

A table that lets the player switch cards or buy a sixth card before deciding: its whole game
(switching at most one card, buying) is :mod:`enumerate.draws.game`, one hand under any switches
:mod:`enumerate.draws.hand`, and the game with switches of two or more cards is estimated by
:mod:`enumerate.draws.sample` and valued exactly, slice by slice, by :mod:`enumerate.draws.exact`.
The analyses built on the plain game's counts (strategies, the EV table, the simulator, paytable
design, game protection) do not apply to it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from enumerate.analysis.base import Analysis
from enumerate.core.engine import CountTable
from enumerate.core.projection import Projection
from enumerate.draws.report import DRAWS_REPORT
from enumerate.rules.variant import Variant

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.core.exact_game import KeptGame


class DrawsGame:
    """The kind of a table with a ``[switch]`` or ``[buy_card]`` section."""

    name = "draws"
    title = "a table with draws (switching cards or buying a sixth card before the decision)"
    supports = frozenset({"analyze", "hand", "diff", "draws_sample", "draws_exact"})

    report = DRAWS_REPORT

    def owns(self, variant: Variant) -> bool:
        return variant.draws is not None

    def condition(self, analysis: str, variant: Variant) -> str | None:
        from enumerate.draws.game import side_wager_refusal, whole_game_refusal  # lazy: start-up time (the draws kernels)
        from enumerate.draws.sample import sampled_refusal  # lazy: start-up time (the draws kernels)
        if analysis in ("analyze", "diff"):
            return whole_game_refusal(variant)
        if analysis == "hand":
            return side_wager_refusal(variant)
        if analysis == "draws_sample":
            return sampled_refusal(variant)
        if analysis == "draws_exact":
            from enumerate.draws.exact import exact_refusal  # lazy: start-up time (the draws kernels)
            return exact_refusal(variant)
        return None

    def analyze(self, counts: CountTable, variant: Variant, threads: int, progress: Callable[[int], None] | None,
                use_cache: bool) -> tuple[Analysis, dict[str, Any]]:
        from enumerate.draws.game import analyze_draws, whole_game_supported  # lazy: start-up time (the draws kernels)
        if whole_game_supported(variant):
            result, figures = analyze_draws(counts, variant, threads, progress, use_cache)
            return result, {"draws": figures}
        from enumerate.core import exact_game  # lazy: start-up time
        from enumerate.draws.exact import SWITCH_GAME, whole_game, whole_game_analysis  # lazy: start-up time
        s = whole_game(variant, counts, threads=threads, progress=progress, use_cache=use_cache)
        result, figures = whole_game_analysis(s)
        return result, {"draws": figures, "kept_sums": exact_game.kept_json(SWITCH_GAME, s.sums, s.classes)}

    def analysis_steps(self, counts: CountTable, variant: Variant) -> tuple[str, str, int] | None:
        from enumerate.draws.game import PROGRESS_PER_HAND, whole_game_supported  # lazy: start-up time (the draws kernels)
        if whole_game_supported(variant):
            return "switching and buying", "hand", PROGRESS_PER_HAND * counts.hands.shape[0]
        from enumerate.draws.switch_ranks import whole_game_groups  # lazy: start-up time
        return "switching, by rank patterns", "group", whole_game_groups()

    def projection(self, variant: Variant) -> Projection | None:
        from enumerate.draws.game import CORE_SECONDS, whole_game_supported  # lazy: start-up time (the draws kernels)
        if whole_game_supported(variant):
            return Projection("the whole game with one card switched or a sixth card bought", 1, "game", CORE_SECONDS)
        from enumerate.draws import switch_ranks  # lazy: start-up time
        return switch_ranks.whole_game_projection(variant)

    def kept_game(self, variant: Variant) -> KeptGame[Any] | None:
        from enumerate.draws.game import whole_game_supported  # lazy: start-up time (the draws kernels)
        if whole_game_supported(variant):
            return None
        from enumerate.draws.exact import SWITCH_GAME  # lazy: start-up time (the draws kernels)
        return SWITCH_GAME

    def hand(self, variant: Variant, cards: tuple[int, ...], up: int | None, counts: Callable[[], CountTable],
             threads: int, progress: Callable[[int], None] | None, *, use_cache: bool = True) -> Any:
        from enumerate.draws.hand import hand_draws  # lazy: start-up time (the draws kernels)
        return hand_draws(variant, cards, up, threads=threads, progress=progress)

    def hand_steps(self, up: int | None) -> tuple[str, str, int] | None:
        return None if up is not None else ("up cards", "up card", 47)

    def slice_run(self, variant: Variant, variant_text: str, sl: Any, checkpoint: Any) -> Any:
        from enumerate.draws.exact import slice_run  # lazy: start-up time (the draws kernels)
        return slice_run(variant, variant_text, sl, checkpoint)

    def raises_dealt_hand(self, counts: CountTable, variant: Variant, threads: int) -> np.ndarray:
        from enumerate.draws.game import action_values, choose  # lazy: start-up time (the draws kernels)
        values, scale = action_values(counts, variant, threads)
        return choose(variant, values, scale)[0] == 8         # keep (0) and raise (8)


DRAWS_GAME = DrawsGame()
