"""Russian Poker as a kind of table (see :mod:`enumerate.game.kinds`).

A table with ``[two_combinations]``, ``[insurance]``, ``[buy_game]`` or the ante's pay by hand
(with or without the draws of :mod:`enumerate.rules.draws`): the player's decisions depend on the
dealer's whole hand (the bought game) and on pays beyond the category (two combinations), so none
of the plain game's or the draws' analyses apply.  One hand's decisions are
:mod:`enumerate.russian.hand`, valued by :mod:`enumerate.russian.final_hand`; the whole game of a
table without draws is :mod:`enumerate.russian.game`; of a table with draws
:mod:`enumerate.russian.draws_game` (by rank patterns, kept by a certified table), and its exact
slices :mod:`enumerate.russian.slice` (``draws-exact``).  A comparison of two tables (``diff``)
compares their dealt hands' raise decisions; a table with draws decides after the draw and its
whole game keeps its strategy as a chart by hand group and up card, which the diff compares.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from enumerate.analysis.base import Analysis
from enumerate.core.engine import CountTable
from enumerate.core.projection import Projection
from enumerate.rules.variant import Variant
from enumerate.russian.report import RUSSIAN_REPORT

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.core.exact_game import KeptGame


class RussianGame:
    """The kind of a table with an option of Russian Poker."""

    name = "russian"
    title = "a Russian Poker table (two combinations paid, insurance or buying the game)"
    supports = frozenset({"analyze", "hand", "diff", "draws_exact", "draws_sample", "ev_table", "simulate",
                          "strategies"})

    report = RUSSIAN_REPORT

    def owns(self, variant: Variant) -> bool:
        return variant.russian

    def condition(self, analysis: str, variant: Variant) -> str | None:
        if analysis == "hand":
            from enumerate.russian.settle import settlement_refusal  # lazy: start-up time
            return settlement_refusal(variant)
        if analysis == "draws_exact":
            from enumerate.russian.slice import slice_refusal  # lazy: start-up time (the kernels)
            return slice_refusal(variant)
        if analysis == "ev_table" and variant.draws is not None:
            return ("the EV table of a table with draws needs every action's value in every situation, which its "
                    "whole game does not keep: 'studodds hand' values a hand's every action, 'draws-sample' sampled "
                    "situations")
        if analysis == "strategies" and variant.draws is not None:
            return ("a simple draw strategy's game is a whole game of its own, counted in shards: 'draws-exact "
                    "VARIANT --strategy NAME --checkpoint FOLDER' counts it exactly, 'draws-sample VARIANT --strategy "
                    "NAME --beside VARIANT' samples its cost in minutes; 'strategies' compares simple strategies on "
                    "a table without draws")
        if analysis == "draws_sample":
            if variant.draws is None:
                return ("a Russian Poker table without draws is exact in under a minute ('studodds analyze'): "
                        "draws-sample estimates a table with draws")
            from enumerate.russian.ranks import supported  # lazy: start-up time (the kernels)
            return supported(variant)
        if variant.draws is not None:
            from enumerate.russian.ranks import supported  # lazy: start-up time (the kernels)
            return supported(variant)
        from enumerate.russian.game import whole_game_refusal  # lazy: start-up time (the kernels)
        return whole_game_refusal(variant)

    def analyze(self, counts: CountTable, variant: Variant, threads: int, progress: Callable[[int], None] | None,
                use_cache: bool) -> tuple[Analysis, dict[str, Any]]:
        if variant.draws is not None:
            from enumerate.russian.draws_game import analyze_with_draws  # lazy: start-up time (the kernels)
            return analyze_with_draws(counts, variant, threads, progress, use_cache)
        from enumerate.russian.game import analyze_russian  # lazy: start-up time (the kernels)
        result, figures, _ = analyze_russian(counts, variant, threads, progress)
        return result, {"russian": figures}

    def analysis_steps(self, counts: CountTable, variant: Variant) -> tuple[str, str, int] | None:
        if variant.draws is not None:
            from enumerate.draws.switch_ranks import whole_game_groups  # lazy: start-up time
            return "the draws and the options, by rank patterns", "group", whole_game_groups()
        from enumerate.russian.game import games  # lazy: start-up time (the kernels)
        return "the table and it without each option, by up card", "up card", 52 * games(variant)

    def projection(self, variant: Variant) -> Projection | None:
        if variant.draws is not None:
            from enumerate.russian.draws_game import projection  # lazy: start-up time (the kernels)
            return projection(variant)
        from enumerate.russian.game import CORE_SECONDS, purchase_passes  # lazy: start-up time (the kernels)
        return Projection("the whole game without the draws, and without each option (by its bought games)",
                          purchase_passes(variant), "pass", CORE_SECONDS)

    def kept_game(self, variant: Variant) -> KeptGame[Any] | None:
        if variant.draws is None:
            return None
        from enumerate.russian.draws_game import RUSSIAN_DRAWS_GAME  # lazy: start-up time (the kernels)
        return RUSSIAN_DRAWS_GAME

    def hand(self, variant: Variant, cards: tuple[int, ...], up: int | None, counts: Callable[[], CountTable],
             threads: int, progress: Callable[[int], None] | None, *, use_cache: bool = True) -> Any:
        from enumerate.russian.hand import russian_hand  # lazy: start-up time
        return russian_hand(variant, cards, up, threads, progress, use_cache=use_cache)

    def hand_steps(self, up: int | None) -> tuple[str, str, int] | None:
        return None if up is not None else ("up cards", "up card", 47)

    def slice_run(self, variant: Variant, variant_text: str, sl: Any, checkpoint: Any) -> Any:
        from enumerate.russian.slice import slice_run  # lazy: start-up time (the kernels)
        return slice_run(variant, variant_text, sl, checkpoint)

    def ev_table(self, counts: CountTable, variant: Variant, threads: int,
                 progress: Callable[[int], None] | None) -> Any:
        from enumerate.analysis.ev_table import of_situations  # lazy: start-up time
        from enumerate.russian.game import situation_values  # lazy: start-up time (the kernels)
        num, den, paid = situation_values(counts, variant, threads, progress)
        return of_situations(counts, variant.name, num, den, paid)

    def strategies(self, counts: CountTable, variant: Variant, named: Any, threads: int,
                   progress: Callable[[int], None] | None) -> tuple[list[Any], Any]:
        from enumerate.russian.strategies import compare  # lazy: start-up time (the kernels)
        return compare(counts, variant, named, threads, progress)

    def strategies_steps(self) -> tuple[str, str, int] | None:
        from enumerate.russian.strategies import steps  # lazy: start-up time (the kernels)
        return steps()

    def sample(self, variant: Variant, variant_text: str, situations: int, seed: int, checkpoint: Path | Any | None,
               scheduler: str | None, threads: int, progress: Callable[[int], None] | None,
               strategy: str | None = None) -> Any:
        from enumerate.russian.sample import sample_russian  # lazy: start-up time (the kernels)
        return sample_russian(variant, variant_text, situations, seed, checkpoint=checkpoint, scheduler=scheduler,
                              threads=threads, progress=progress, strategy=strategy)

    def draw_strategies(self) -> tuple[str, ...]:
        from enumerate.russian.draw_strategies import STRATEGIES  # lazy: start-up time (the kernels)
        return tuple(STRATEGIES)

    def draw_strategy_refusal(self, name: str, variant: Variant) -> str | None:
        from enumerate.russian.draw_strategies import refusal  # lazy: start-up time (the kernels)
        return refusal(name, variant)

    def played_run(self, variant: Variant, variant_text: str, sl: Any, checkpoint: Any, played: str) -> Any:
        from enumerate.russian.slice import slice_run  # lazy: start-up time (the kernels)
        return slice_run(variant, variant_text, sl, checkpoint, played=played)

    def sample_checkpoint(self, variant_text: str, situations: int, seed: int, checkpoint: Path | None,
                          strategy: str | None = None) -> Any:
        from enumerate.russian.sample import Checkpoint, checkpoint_key  # lazy: start-up time (the kernels)
        return Checkpoint(checkpoint, checkpoint_key(variant_text, seed, situations, strategy))

    def sample_size(self, situations: int) -> int:
        from enumerate.russian.sample import allocation  # lazy: start-up time (the kernels)
        return sum(allocation(situations))

    def raises_dealt_hand(self, counts: CountTable, variant: Variant, threads: int) -> np.ndarray | None:
        if variant.draws is not None:
            return None                  # decided after the draw, per situation not kept: the chart is compared
        from enumerate.russian.game import game_sums  # lazy: start-up time (the kernels)
        return game_sums(counts, variant, threads).raises


RUSSIAN_GAME = RussianGame()
