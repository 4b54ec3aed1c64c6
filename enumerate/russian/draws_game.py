"""The exact whole game of a Russian Poker table with draws (analyze, batch, check), by rank patterns.

The game is the slice of every situation (:mod:`enumerate.russian.slice`) counted by rank patterns
(:mod:`enumerate.russian.ranks`: the draws' kernel with the bought game as its final term), run by
the one sharded protocol of the exact games (:mod:`enumerate.core.exact_game`): its shards in the
user cache, keyed by the table's rules, so an interrupted ``analyze`` or ``batch`` resumes and a
``draws-exact`` checkpoint of the whole game holds the very same shards.  A certified table keeps
the total (``russian_game.json``), which ``check`` reads back instead of counting for a day.

From the total follow the analysis -- the return table over one denominator (each kind of action's
combinations, draws x dealer sets x replacement shares, brought to their least common multiple),
the expected result and its second moment, the average wager (ante, raise and insurance staked;
fees and the price of a bought game are not wagers), how often the dealer qualifies over the best
actions' draws -- and the figures of the options (how often each is taken, what it costs or stakes
per hand) and of the draws (their fees, the best actions' shares, the strategy by hand group and
up-card rank).  The raises by hand category are not kept (a final hand's class is its pay of two
combinations, not its category): the strategy chart stands for them.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from enumerate.analysis.base import Analysis, ReturnRow
from enumerate.core import exact_game
from enumerate.core.engine import CountTable
from enumerate.core.exact_game import KeptGame
from enumerate.core.projection import Projection
from enumerate.core.slices import Slice, classes_digest
from enumerate.draws import switch_ranks
from enumerate.draws.actions import KINDS, cards_drawn
from enumerate.draws.exact import chart_strategy, kept_groups_game
from enumerate.draws.game import DrawFigures
from enumerate.rules.variant import Variant
from enumerate.russian import options, ranks
from enumerate.russian.game import RussianFigures
from enumerate.russian.shapes import ReturnRowMeaningJSON
from enumerate.russian.slice import BY_RANKS, RussianSlice, SliceSums, known_rows, rules_problem

UNSEEN = 46


#: The whole game a certified Russian table with draws keeps (russian_game.json): what ``check``
#: reads back, its return table verified against its value.
def _verify(sums: SliceSums) -> None:
    """A kept whole game adds up: its return table is its value, and its strategy (when kept) is
    every shard's of the whole game, by their digests (AssertionError if not)."""
    sums.return_rows()
    if sums.strategy is None:
        return
    h, up, weight = switch_ranks.groups(Slice())
    shards = {classes_digest(h[i:i + ranks.SHARD], up[i:i + ranks.SHARD], weight[i:i + ranks.SHARD])
              for i in range(0, up.shape[0], ranks.SHARD)}
    if set(sums.strategy) != shards:
        raise AssertionError("its strategy is not every shard's of the whole game")


RUSSIAN_DRAWS_GAME: KeptGame[SliceSums] = kept_groups_game(
    BY_RANKS, "russian_game.json", "russian_game_sums", "russian-game", "a whole Russian Poker game with draws",
    ranks.VERSION, lambda fields, weights: SliceSums.from_json(fields, weights, ranks=True), _verify, rules_problem)


def projection(variant: Variant) -> Projection:
    """What counting the whole game from nothing costs (:func:`enumerate.russian.ranks.core_seconds_per_group`)."""
    return Projection("the whole game with the draws, by rank patterns", switch_ranks.whole_game_groups(), "group",
                      ranks.core_seconds_per_group(variant))


def whole_game(variant: Variant, counts: CountTable, *, threads: int = 1,
               progress: Callable[[int], None] | None = None, use_cache: bool = True) -> RussianSlice:
    """The whole game of a Russian table with draws (its shards in the user cache, or the kept sums given)."""
    total, n = exact_game.whole_game(RUSSIAN_DRAWS_GAME, variant, counts, threads=threads, progress=progress,
                                     use_cache=use_cache)
    return RussianSlice(variant, Slice(), n, total, total.seconds / n if total.seconds else None, "rank_patterns")


def game_analysis(s: RussianSlice) -> tuple[Analysis, dict[str, Any]]:
    """The analysis of the whole game ``s`` and the figures of its options and its draws (see the
    module docstring); the decisions after the draws counted over L = the least common multiple of
    the kinds' draws C(46, k) per situation (each draw a decision, counted L / C(46, k) times)."""
    v, sums, n = s.variant, s.sums, s.situations
    rows = s.return_rows()
    total = sum(r.combinations for r in rows)
    expected = s.expected
    kinds = [j for j in range(len(KINDS)) if sums.situations[j]]
    ld = math.lcm(*(math.comb(UNSEEN, cards_drawn(j)) for j in kinds))
    raised = sums.raised * ld
    if raised.denominator != 1:
        raise AssertionError("the raised draws are not whole decisions")
    second = sum((r.probability * r.pays * r.pays for r in rows), Fraction(0))
    a = Analysis.of_outcomes(v, rows, total, expected, second, int(raised), sums.raised / n, None,
                             sums.qualifies / n, {}, wager=s.average_wager)
    if a.element_of_risk != s.element_of_risk:
        raise AssertionError("the element of risk of the analysis is not the slice's")
    bought = sum(r.combinations for r in rows if r.outcome.startswith("bought_"))
    short = sum(r.combinations for r in rows if r.outcome.startswith("dealer_does_not_qualify"))
    price = v.buy_game.fee if v.buy_game is not None else Fraction(0)
    russian = RussianFigures(
        raise_share=sums.raised / n, insure_share=sums.insured / n,
        insured_of_raised=sums.insured / sums.raised if sums.raised else Fraction(0),
        bought_of_no_qualify=Fraction(bought, bought + short) if bought + short else Fraction(0),
        fees_per_hand=price * Fraction(bought, total), insurance_per_hand=sums.staked / n,
        replacement_multiple=1, strategy=(), worth=(), rows=_meanings(v, rows, kinds))
    draws = DrawFigures(sums.fees / n, {KINDS[j]: Fraction(sums.situations[j], n) for j in kinds}, {},
                        tuple(options.with_shares(chart_strategy(sums.chart), sums.options)))
    return a, {"russian": russian, "draws": draws,
               "kept_sums": exact_game.kept_json(RUSSIAN_DRAWS_GAME, sums, s.classes)}


def _meanings(v: Variant, rows: Sequence[ReturnRow], kinds: list[int]) -> tuple[ReturnRowMeaningJSON, ...]:
    """What each of the whole game's return-table rows is (its event, insurance and combinations:
    the workbook's live net results), from every row the table's classes and fees can make."""
    known = known_rows(v, kinds)
    missing = [r.outcome for r in rows if r.outcome not in known]
    if missing:
        raise AssertionError(f"return-table rows no rule names: {missing[:3]}")
    return tuple(known[r.outcome] for r in rows)


def analyze_with_draws(counts: CountTable, variant: Variant, threads: int = 1,
                       progress: Callable[[int], None] | None = None,
                       use_cache: bool = True) -> tuple[Analysis, dict[str, Any]]:
    """The whole game of a Russian table with draws, its analysis and figures."""
    return game_analysis(whole_game(variant, counts, threads=threads, progress=progress, use_cache=use_cache))
