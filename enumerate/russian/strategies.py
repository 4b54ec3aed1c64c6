"""Simple strategies on a Russian Poker table without draws, exactly.

A strategy of the plain game, ``f(hands, up) -> raise mask`` (:mod:`enumerate.analysis.strategies`),
says for every situation (player hand, up card) whether the player raises.  On a Russian table the
player decides two more things, and a simple strategy leaves them to the player's best judgement:

* **insurance** (three of a kind or better) is decided with the raise, on the same cards: a box
  that raises insures where insuring pays (the stake is the limit or nothing, its EV linear in it);
* **the bought game** is decided once the dealer's hand is shown, short of qualifying: bought where
  the purchase pays, as :mod:`enumerate.russian.bought` counts it (and, where an insured box may
  not buy, the better of the two).

So a strategy's figures are the whole game (:mod:`enumerate.russian.game`) with each situation's
raise taken from the strategy instead of from the comparison of raising with folding; every
other count is the same.  All strategies and optimal play are counted in one pass over the
situations, the purchases (the costly part) once for all.  Its cost is its house edge less
optimal play's, per ante.  Tables with draws are not covered: a simple strategy of theirs needs a
rule for the draw as well, and its whole game counted under it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

from enumerate.analysis.strategies import Strategy, StrategyChart, StrategyResult, strategy_mask
from enumerate.core.engine import CountTable
from enumerate.rules.variant import Variant
from enumerate.russian.game import analysis_of, raise_chart, strategy_sums


def compare(counts: CountTable, variant: Variant, named: Mapping[str, Strategy], threads: int = 1,
            progress: Callable[[int], None] | None = None) -> tuple[list[StrategyResult], StrategyChart]:
    """Optimal play (first) and each named strategy, exactly, and the optimal raise chart.
    Every strategy is called and checked (:func:`strategy_mask`) before any counting."""
    masks = [strategy_mask(counts, f, name).astype(bool) for name, f in named.items()]
    every = strategy_sums(counts, variant, masks, threads, progress)
    best, _ = analysis_of(variant, every[0])
    out = [StrategyResult("optimal", best, Fraction(0))]
    for name, sums in zip(named, every[1:]):
        a, _ = analysis_of(variant, sums)
        out.append(StrategyResult(name, a, a.house_edge - best.house_edge))
    return out, raise_chart(counts, every[0].raises)


def steps() -> tuple[str, str, int]:
    """The progress bar of :func:`compare`: one pass over the up cards."""
    return "the table under each strategy, by up card", "up card", 52
