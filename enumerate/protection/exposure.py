"""Exact play with extra knowledge of the dealer's hand: exposed hole cards and edge sorting.

The player sees his five cards and ``known`` dealer cards (the up card and ``known - 1`` hole
cards), and -- for edge sorting -- how many of the unseen hole cards have a rank in a marked set.
He raises wherever that is worth more than folding, given everything he sees.  The exact totals
come from :mod:`enumerate.protection._exposure` (inclusion-exclusion counts per information set) for 1 to
4 known dealer cards, and directly from the count table for none and for all five.

**Combinations.** For h exposed hole cards every deal is counted once for every choice of the
h exposed cards among the 4, so the total is 19,933,230,517,200 x C(4, h) combinations: the
same deals, each with equal weight, so per-ante figures compare directly with the normal game
(h = 0 is the normal game itself).  With no dealer card visible and with all five the total is
the 19,933,230,517,200 deals.  An *information set* is what the player sees (own hand, up card,
the exposed cards in order of the deal's choice, the number of sorted hole cards); its
*completions* are the unseen dealer cards consistent with it.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, Protocol, TypedDict

import numpy as np

from enumerate.analysis.base import ReturnRow, ReturnRowJSON, check_table, return_table
from enumerate.core import array_store as cache
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.jsonform import exact
from enumerate.core.parallel import interruptible
from enumerate.core.projection import Projection, announce
from enumerate.core.shapes import Count, Exact, Maximum, Minimum, shape
from enumerate.core.tabular import tabular
from enumerate.protection import _exposure
from enumerate.protection.known_sets import GROUPS, known_sets, sorted_hands
from enumerate.raise_value import RaiseValue
from enumerate.rules.settlement import Settlement
from enumerate.rules.variant import Variant
from evaluator.cards import RANKS
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category, ordering_fingerprint

#: Deals: player hands x up cards x dealer hole-card sets.
DEALS = 2_598_960 * 47 * COMPLETIONS
#: Bump when the kernel's meaning changes; part of every cache key.
KERNEL_VERSION = 1

_COL = _exposure.COLUMNS


#: What the player sees: some hole cards, none, sorted ranks (edge sorting), the burn card.
Scenario = Literal["hole_cards", "none_visible", "edge_sort", "burn_card"]


class ExposureChartJSON(TypedDict):
    """The strategy chart of optimal play with dealer cards known: rows of what is seen, by the
    player's hand group."""

    rows_are: str
    groups: list[str]
    rows: list[dict[str, Any]]
    legend: str


class NoChartJSON(TypedDict):
    """No chart (the levels that need no kernel)."""


class ExposureRaiseShareJSON(TypedDict):
    """How many information sets of a category are raised."""

    raised_sets: Count
    sets: Count
    raise_share: Exact


@shape("exposure", document=True)
class ExposureJSON(TypedDict):
    """Schema: optimal play knowing dealer cards (holecards, edgesort)"""

    kind: Literal["exposure"]
    variant: str
    scenario: Scenario
    description: NotRequired[str]
    exposed_hole_cards: NotRequired[Annotated[int, Minimum(-1), Maximum(4)]]
    sorted_ranks: NotRequired[list[str]]
    total_combinations: Count
    total_loss_antes: Exact
    house_edge_per_ante: Exact
    player_edge_per_ante: NotRequired[Exact]
    element_of_risk_per_total_wager: Exact
    average_total_wager_antes: NotRequired[Exact]
    variance_antes_squared: NotRequired[Exact]
    standard_deviation_antes: NotRequired[float]
    raise_probability: Exact
    hit_frequency: NotRequired[Exact]
    information_sets: Count
    completions_per_set: NotRequired[int | None]
    raised_sets: NotRequired[Count]
    indifferent_sets: NotRequired[Count]
    return_table: list[ReturnRowJSON]
    raise_by_category: NotRequired[dict[str, ExposureRaiseShareJSON]]
    strategy_chart: ExposureChartJSON | NoChartJSON


@tabular("return_table", 'return-table rows')
@dataclass(frozen=True)
class ExposureAnalysis:
    """Exact figures of optimal play with knowledge of some dealer cards.

    ``house_edge`` is per ante (negative: the player has the edge); ``raise_probability`` is the
    share of combinations in which the player raises; the information-set counts are in the
    units described in the module docstring."""

    variant: Variant
    scenario: Scenario
    description: str
    exposed_hole_cards: int          # 0..4 for hole cards, -1 for none visible
    sorted_ranks: tuple[int, ...]
    total_combinations: int
    information_sets: int
    completions_per_set: int | None  # None when it varies (edge sorting)
    raised_sets: int
    indifferent_sets: int
    raise_probability: Fraction
    house_edge: Fraction
    element_of_risk: Fraction
    average_wager: Fraction
    variance: Fraction
    hit_frequency: Fraction
    rows: tuple[ReturnRow, ...]
    raise_by_category: dict[Category, tuple[int, int]]      # -> (raised sets, sets)
    chart: ExposureChartJSON | NoChartJSON

    @property
    def total_loss(self) -> Fraction:
        """The player's net loss in antes over all combinations (negative = player wins)."""
        return self.house_edge * self.total_combinations

    @property
    def player_edge(self) -> Fraction:
        return -self.house_edge

    @property
    def standard_deviation(self) -> float:
        return math.sqrt(self.variance)

    def to_dict(self) -> ExposureJSON:
        """kind "exposure": what ``studodds protection holecards|edgesort --json`` prints."""
        return {
            "kind": "exposure",
            "variant": self.variant.name,
            "scenario": self.scenario,
            "description": self.description,
            "exposed_hole_cards": self.exposed_hole_cards,
            "sorted_ranks": [RANKS[r] for r in self.sorted_ranks],
            "total_combinations": self.total_combinations,
            "total_loss_antes": exact(self.total_loss),
            "house_edge_per_ante": exact(self.house_edge),
            "player_edge_per_ante": exact(self.player_edge),
            "element_of_risk_per_total_wager": exact(self.element_of_risk),
            "average_total_wager_antes": exact(self.average_wager),
            "variance_antes_squared": exact(self.variance),
            "standard_deviation_antes": self.standard_deviation,
            "raise_probability": exact(self.raise_probability),
            "hit_frequency": exact(self.hit_frequency),
            "information_sets": self.information_sets,
            "completions_per_set": self.completions_per_set,
            "raised_sets": self.raised_sets,
            "indifferent_sets": self.indifferent_sets,
            "return_table": [r.to_dict() for r in self.rows],
            "raise_by_category": {
                c.key: {"raised_sets": raised, "sets": total,
                        "raise_share": exact(Fraction(raised, total) if total else 0)}
                for c, (raised, total) in sorted(self.raise_by_category.items(), reverse=True)},
            "strategy_chart": self.chart,
        }


def _assemble(variant: Variant, stats: np.ndarray, *, scenario: Scenario, description: str,
              exposed: int, marked: tuple[int, ...], expected_total: int,
              completions: int | None, chart: ExposureChartJSON | NoChartJSON) -> ExposureAnalysis:
    """The exact analysis from (10, N_COLUMNS) per-category statistics (Python ints)."""
    col = {k: stats[:, v] for k, v in _COL.items()}
    total = int(sum(col["combinations"]))
    if total != expected_total:
        raise AssertionError(f"exposure statistics cover {total} combinations, expected {expected_total}")
    raised = int(sum(col["raised_combinations"]))
    nq, tie, lose = (int(sum(col[k])) for k in ("no_qualify", "tie", "lose"))
    wins = {c: int(col["win"][c]) for c in Category}
    if nq + tie + lose + sum(wins.values()) != raised:
        raise AssertionError("raised information sets' outcomes do not add up")
    rows, expected, second = return_table(variant, wins, nq, tie, lose, total - raised, total)
    average_wager = Settlement.of(variant).average_stake(Fraction(raised, total))
    return ExposureAnalysis(
        variant=variant, scenario=scenario, description=description, exposed_hole_cards=exposed,
        sorted_ranks=marked, total_combinations=total,
        information_sets=int(sum(col["sets"])), completions_per_set=completions,
        raised_sets=int(sum(col["raised_sets"])), indifferent_sets=int(sum(col["indifferent_sets"])),
        raise_probability=Fraction(raised, total), house_edge=-expected,
        element_of_risk=-expected / average_wager, average_wager=average_wager,
        variance=second - expected * expected,
        hit_frequency=sum((r.probability for r in rows if r.pays > 0), Fraction(0)), rows=rows,
        raise_by_category={c: (int(col["raised_sets"][c]), int(col["sets"][c])) for c in Category},
        chart=chart,
    )


# ---------------------------------------------------------------------------------------------
# kernel runs, cached


class Hands(Protocol):
    """Hands in increasing strength, as the kernel reads them (:class:`SortedHands`, or rows of it)."""

    cards: np.ndarray       # (n, 5) uint8, sorted
    masks: np.ndarray       # (n,) uint64 card masks
    suits: np.ndarray       # (n,) uint64: four 16-bit rank masks, one per suit
    strength: np.ndarray    # (n,) int16, non-decreasing
    group: np.ndarray       # (n,) uint8 chart group (:data:`GROUPS`)


@dataclass(frozen=True)
class KernelSpec:
    """Everything the exposure kernel needs besides the known sets themselves.

    ``known`` dealer cards are seen (the up card and known - 1 hole cards); ``level_of_card``
    marks the cards whose rank is sorted (edge sorting: ``n_levels`` = 6 - known levels, else
    1); ``burn``: one known card and a burn card seen too.  ``reduce`` weights each player hand
    by its orbit under the relabellings fixing the known set instead of visiting every hand;
    ``generic`` forces the inclusion-exclusion path even where a faster one exists (tests)."""

    known: int
    hands: Hands
    qualifier: int
    value: RaiseValue
    level_of_card: np.ndarray
    n_levels: int = 1
    reduce: bool = True
    generic: bool = False
    burn: bool = False

    @property
    def category(self) -> np.ndarray:
        return CATEGORY_BY_STRENGTH

    @classmethod
    def of(cls, variant: Variant, known: int, marked: Sequence[int] = (), **kw: Any) -> "KernelSpec":
        """The spec of ``variant``'s rules with ``known`` dealer cards seen and ``marked`` ranks
        sorted, over every hand."""
        return cls(known, sorted_hands(), variant.qualifier.threshold, RaiseValue.of(variant),
                   level_of_card(marked), 6 - known if marked else 1, **kw)


def _cache_meta(j: int, marked: tuple[int, ...], variant: Variant, value: RaiseValue,
                burn: bool = False) -> dict[str, Any]:
    return {"kind": "exposure", "known": j, "marked_ranks": list(marked), "burn_card": burn,
            "qualifier": variant.qualifier.threshold, "scale": value.scale, "c_nq": value.c_nq,
            "c_win": [int(x) for x in value.c_win], "c_tie": value.c_tie,
            "kernel_version": KERNEL_VERSION, "evaluator": ordering_fingerprint()}


def _cache_path(meta: dict[str, Any]) -> Path:
    return cache.keyed_path(f"exposure-j{meta['known']}", meta)


def level_of_card(marked: Sequence[int]) -> np.ndarray:
    """1 for the cards whose rank is marked."""
    out = np.zeros(52, dtype=np.uint8)
    for r in marked:
        out[r * 4:(r + 1) * 4] = 1
    return out


#: Core-seconds a known-set class of the kernel with j known dealer cards, measured on the
#: reference machine (docs/speed.md; us-common from an empty cache, 2 threads): what a run is
#: projected from before it starts, never a figure of it.
CORE_SECONDS_PER_CLASS = {1: 0.21, 2: 0.056, 3: 0.033, 4: 0.021}


def kernel_statistics(
    variant: Variant,
    j: int,
    marked: tuple[int, ...] = (),
    *,
    threads: int = 1,
    use_cache: bool = True,
    progress: Callable[[int], None] | None = None,
    chunk: int | None = None,
    burn: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-category statistics (10, N_COLUMNS) and the chart (known-set classes, levels,
    groups, 2) of optimal play with j known dealer cards (and sorted-count levels for
    ``marked`` ranks), summed over the suit classes of known sets with their class sizes, in
    units of the combinations described in the module docstring.

    The kernel runs in chunks of known-set classes; each finished chunk is checkpointed in the
    cache, so an interrupted run resumes where it stopped."""
    spec = KernelSpec.of(variant, j, marked, burn=burn)
    reps, weight = known_sets(j)
    meta = _cache_meta(j, marked, variant, spec.value, burn)
    stored = cache.ArrayCache(_cache_path(meta), meta, "exposure", enabled=use_cache)
    finished = stored.load(("stats", "chart"))
    if finished is not None:
        return finished["stats"], finished["chart"]
    n = reps.shape[0]
    per_stats = np.zeros((n, 10, len(_COL)), dtype=np.int64)
    per_chart = np.zeros((n, spec.n_levels, len(GROUPS), 2), dtype=np.int64)
    done = 0
    resumed = stored.load_checkpoint(("stats", "chart", "done"))
    if resumed is not None and resumed["stats"].shape == per_stats.shape and resumed["chart"].shape == per_chart.shape:
        done = int(resumed["done"][0])
        per_stats[:done] = resumed["stats"][:done]
        per_chart[:done] = resumed["chart"][:done]
    n_threads = threads
    step = chunk or max(n_threads, min(512, -(-n // 32)))
    announce(progress, Projection("", n - done, "class", CORE_SECONDS_PER_CLASS.get(j, 0.05)), n_threads)
    if progress and done:
        progress(done)
    while done < n:
        hi = min(n, done + step)
        # on a helper thread: the kernel stops within milliseconds of SIGINT / SIGTERM
        interruptible(partial(_exposure.exposure_stats, spec, reps[done:hi], per_stats[done:hi], per_chart[done:hi],
                              n_threads))
        if progress:
            progress(hi - done)
        done = hi
        if done < n:
            stored.save_checkpoint({"stats": per_stats, "chart": per_chart, "done": np.array([done], dtype=np.int64)})
    # weight by the class sizes and by the j choices of which known card is the up card
    w = (weight * j).astype(object)
    stats = np.einsum("k,kcx->cx", w, per_stats.astype(object))
    chart = per_chart * (weight * j)[:, None, None, None]
    stats_i64 = np.array(stats, dtype=np.int64)
    if not (stats_i64.astype(object) == stats).all():
        raise StudoddsError("exposure totals overflow 64 bits")
    stored.save({"stats": stats_i64, "chart": chart})
    return stats_i64, chart


# ---------------------------------------------------------------------------------------------
# the scenarios


def hole_cards(
    table: CountTable,
    variant: Variant,
    exposed: int,
    *,
    threads: int = 1,
    use_cache: bool = True,
    progress: Callable[[int], None] | None = None,
) -> ExposureAnalysis:
    """Optimal play seeing the up card and ``exposed`` hole cards (0..4), or no dealer card at
    all (``exposed = -1``)."""
    check_table(table, variant)
    if exposed not in (-1, 0, 1, 2, 3, 4):
        raise StudoddsError(f"exposed hole cards must be -1 (none visible) or 0..4, not {exposed}")
    if exposed == -1:
        stats = _none_visible(table, variant)
        return _assemble(variant, stats, scenario="none_visible", exposed=-1, marked=(),
                         description="no dealer card visible (the player decides on his own hand)",
                         expected_total=DEALS, completions=47 * COMPLETIONS, chart={})
    if exposed == 4:
        stats = _all_visible(table, variant)
        return _assemble(variant, stats, scenario="hole_cards", exposed=4, marked=(),
                         description="all five dealer cards visible", expected_total=DEALS,
                         completions=1, chart={})
    j = exposed + 1
    stats, chart = kernel_statistics(variant, j, threads=threads, use_cache=use_cache, progress=progress)
    word = "card" if exposed == 1 else "cards"
    return _assemble(variant, stats, scenario="hole_cards", exposed=exposed, marked=(),
                     description=(f"up card and {exposed} hole {word} visible" if exposed else
                                  "up card only (the normal game)"),
                     expected_total=DEALS * math.comb(4, exposed),
                     completions=math.comb(46 - exposed, 4 - exposed),
                     chart=_known_cards_chart(j, chart) if exposed == 1 else {})


def edge_sort(
    table: CountTable,
    variant: Variant,
    sorted_ranks: Sequence[int],
    *,
    threads: int = 1,
    use_cache: bool = True,
    progress: Callable[[int], None] | None = None,
) -> ExposureAnalysis:
    """Optimal play seeing the up card and, for each hole card, whether its rank is in
    ``sorted_ranks`` (0 = deuce .. 12 = ace)."""
    check_table(table, variant)
    marked = tuple(sorted(set(int(r) for r in sorted_ranks)))
    if any(not 0 <= r < 13 for r in marked):
        raise StudoddsError("sorted ranks must be 0..12")
    stats, chart = kernel_statistics(variant, 1, marked, threads=threads, use_cache=use_cache, progress=progress)
    names = "".join(RANKS[r] for r in reversed(marked)) or "none"
    return _assemble(variant, stats, scenario="edge_sort", exposed=0, marked=marked,
                     description=f"up card visible and the number of hole cards of rank in {{{names}}}",
                     expected_total=DEALS, completions=None if marked else COMPLETIONS,
                     chart=_edge_sort_chart(chart) if marked else {})


def burn_card(
    table: CountTable,
    variant: Variant,
    *,
    threads: int = 1,
    use_cache: bool = True,
    progress: Callable[[int], None] | None = None,
) -> ExposureAnalysis:
    """Optimal play seeing the up card and the burn card (a card dealt to nobody), exactly:
    every deal once for each of the 42 cards left as the burn card."""
    check_table(table, variant)
    stats, chart = kernel_statistics(variant, 1, threads=threads, use_cache=use_cache, progress=progress, burn=True)
    return _assemble(variant, stats, scenario="burn_card", exposed=0, marked=(),
                     description="up card and the burn card visible", expected_total=DEALS * 42,
                     completions=math.comb(45, 4), chart={})


@shape("partial_exposure")
class PartialExposureJSON(TypedDict):
    kind: Literal["partial_exposure"]
    share: Exact
    house_edge_per_ante: Exact
    player_edge_per_ante: Exact
    element_of_risk_per_total_wager: Exact


def partial_exposure(none: ExposureAnalysis, seen: ExposureAnalysis, share: Fraction) -> PartialExposureJSON:
    """Edge when the hole card is seen on a share of the hands (the player knows when): the
    mixture of the two scenarios, exactly."""
    if not 0 <= share <= 1:
        raise StudoddsError("the share of hands must be between 0 and 1")
    edge = (1 - share) * none.house_edge + share * seen.house_edge
    wager = (1 - share) * none.average_wager + share * seen.average_wager
    return {"kind": "partial_exposure", "share": exact(share), "house_edge_per_ante": exact(edge),
            "player_edge_per_ante": exact(-edge), "element_of_risk_per_total_wager": exact(edge / wager)}


def break_even_share(none: ExposureAnalysis, seen: ExposureAnalysis) -> Fraction | None:
    """The share of hands with a seen hole card at which the edge is zero (None if never)."""
    if seen.house_edge >= 0 or none.house_edge <= 0:
        return None
    return none.house_edge / (none.house_edge - seen.house_edge)


# ---------------------------------------------------------------------------------------------
# no dealer card and all five, from the count table


def _none_visible(table: CountTable, variant: Variant) -> np.ndarray:
    value = RaiseValue.of(variant)
    cat = CATEGORY_BY_STRENGTH[table.strength]
    nq = table.no_qualify.astype(np.int64).sum(axis=1)
    win = table.win.astype(np.int64).sum(axis=1)
    tie = table.tie.astype(np.int64).sum(axis=1)
    n = table.up.shape[1] * COMPLETIONS
    form = nq * value.c_nq + win * value.c_win[cat] + tie * value.c_tie
    raised = form > value.c_fold * n
    w = table.weight.astype(np.int64)
    lose = n - nq - win - tie
    stats = np.zeros((10, len(_COL)), dtype=object)
    for c in range(10):
        sel = cat == c
        r = sel & raised
        stats[c, _COL["combinations"]] = int((w[sel] * n).sum())
        stats[c, _COL["sets"]] = int(w[sel].sum())
        stats[c, _COL["raised_combinations"]] = int((w[r] * n).sum())
        stats[c, _COL["raised_sets"]] = int(w[r].sum())
        stats[c, _COL["indifferent_sets"]] = int(w[sel & (form == value.c_fold * n)].sum())
        for key, arr in (("no_qualify", nq), ("win", win), ("tie", tie), ("lose", lose)):
            stats[c, _COL[key]] = int((w[r] * arr[r]).sum())
        stats[c, _COL["no_qualify_all"]] = int((w[sel] * nq[sel]).sum())
    return stats


def _all_visible(table: CountTable, variant: Variant) -> np.ndarray:
    """Every deal is its own information set: raise exactly when the outcome pays more than
    folding (per outcome, whatever the paytable)."""
    value = RaiseValue.of(variant)
    cat = CATEGORY_BY_STRENGTH[table.strength]
    w = table.weight.astype(np.int64)
    sums = {k: (getattr(table, k).astype(np.int64).sum(axis=1) * w) for k in ("no_qualify", "win", "tie")}
    sums["lose"] = table.lose.sum(axis=1) * w
    threshold = value.c_fold
    stats = np.zeros((10, len(_COL)), dtype=object)
    for c in range(10):
        sel = cat == c
        total = {k: int(v[sel].sum()) for k, v in sums.items()}
        form = {"no_qualify": value.c_nq, "win": int(value.c_win[c]), "tie": value.c_tie, "lose": 0}
        all_sets = sum(total.values())
        stats[c, _COL["combinations"]] = all_sets
        stats[c, _COL["sets"]] = all_sets
        stats[c, _COL["no_qualify_all"]] = total["no_qualify"]
        for k in ("no_qualify", "win", "tie", "lose"):
            if form[k] > threshold:
                stats[c, _COL["raised_combinations"]] += total[k]
                stats[c, _COL["raised_sets"]] += total[k]
                stats[c, _COL[k]] = total[k]
            elif form[k] == threshold:
                stats[c, _COL["indifferent_sets"]] += total[k]
    return stats


# ---------------------------------------------------------------------------------------------
# strategy charts


def _share_cell(raised: int, total: int) -> str:
    if total == 0:
        return ""
    if raised == total:
        return "R"
    if raised == 0:
        return "F"
    # a mixed cell never reads as 0% or 100%, which would look like F or R
    share = Fraction(100 * raised, total)
    return "<1%" if share < 1 else ">99%" if share > 99 else f"{float(share):.0f}%"


def _known_cards_chart(j: int, chart: np.ndarray) -> ExposureChartJSON:
    """By the dealer's two visible cards (pair, suited, offsuit ranks) and the player's hand
    group: raised and all information sets."""
    reps, _ = known_sets(j)
    rows = []
    for k, cards in enumerate(reps):
        a, b = sorted((int(c) for c in cards), reverse=True)
        ra, rb = a >> 2, b >> 2
        kind = "pair" if ra == rb else ("suited" if (a & 3) == (b & 3) else "offsuit")
        label = RANKS[ra] + RANKS[rb] + {"pair": "", "suited": "s", "offsuit": "o"}[kind]
        raised, total = chart[k, 0, :, 0], chart[k, 0, :, 1]
        rows.append({"dealer_cards": label, "cells": [
            {"group": g, "raised_sets": int(raised[i]), "sets": int(total[i]),
             "action": _share_cell(int(raised[i]), int(total[i]))} for i, g in enumerate(GROUPS)]})
    order = {"": 0, "s": 1, "o": 2}

    def key(row: dict[str, Any]) -> tuple[int, int, int]:
        label = str(row["dealer_cards"])
        return -RANKS.index(label[0]), -RANKS.index(label[1]), order[label[2:]]

    rows.sort(key=key)
    return {"rows_are": "the dealer's two visible cards (s = same suit, o = different suits)",
            "groups": list(GROUPS), "rows": rows,
            "legend": "R = always raise, F = always fold, n% = raise in n% of these hands"}


def _edge_sort_chart(chart: np.ndarray) -> ExposureChartJSON:
    """By the number of sorted hole cards (and the up card's rank) and the player's hand group."""
    reps, _ = known_sets(1)
    rows = []
    for level in range(chart.shape[1]):
        raised = chart[:, level, :, 0].sum(axis=0)
        total = chart[:, level, :, 1].sum(axis=0)
        by_up = []
        for k, cards in enumerate(reps):
            r_up, t_up = chart[k, level, :, 0], chart[k, level, :, 1]
            by_up.append({"up_rank": RANKS[int(cards[0]) >> 2],
                          "actions": [_share_cell(int(r_up[i]), int(t_up[i])) for i in range(len(GROUPS))]})
        rows.append({"sorted_hole_cards": level, "cells": [
            {"group": g, "raised_sets": int(raised[i]), "sets": int(total[i]),
             "action": _share_cell(int(raised[i]), int(total[i]))} for i, g in enumerate(GROUPS)],
            "by_up_rank": by_up[::-1]})
    return {"rows_are": "the number of the dealer's four hole cards whose rank is sorted",
            "groups": list(GROUPS), "rows": rows,
            "legend": "R = always raise, F = always fold, n% = raise in n% of these hands"}


# ---------------------------------------------------------------------------------------------
# the hole-card table: every exposure level of one variant


@shape("hole_cards", document=True)
class HoleCardsJSON(TypedDict):
    kind: Literal["hole_cards"]
    variant: str
    levels: list[ExposureJSON]
    one_hole_card_on_a_share_of_hands: list[PartialExposureJSON]
    break_even_share_by_exposed_hole_cards: dict[str, Exact]


@tabular("levels", 'exposure levels')
@dataclass(frozen=True)
class HoleCardTable:
    """Optimal play for each number of visible dealer cards, and the edge when one hole card
    is seen on a share of the hands only."""

    variant: Variant
    levels: tuple[ExposureAnalysis, ...]
    shares: tuple[Fraction, ...]

    def level(self, exposed: int) -> ExposureAnalysis | None:
        return next((a for a in self.levels if a.exposed_hole_cards == exposed), None)

    def partial(self) -> list[PartialExposureJSON]:
        normal, one = self.level(0), self.level(1)
        if normal is None or one is None:
            return []
        return [partial_exposure(normal, one, p) for p in self.shares]

    def break_even(self) -> dict[int, Fraction]:
        """For each exposure level that gives the player the edge: the share of hands on which
        it must happen (the others being the normal game) for the house edge to vanish."""
        normal = self.level(0)
        if normal is None:
            return {}
        out = {}
        for a in self.levels:
            if a.scenario == "hole_cards" and a.exposed_hole_cards:
                share = break_even_share(normal, a)
                if share is not None:
                    out[int(a.exposed_hole_cards)] = share
        return out

    def to_dict(self) -> HoleCardsJSON:
        """kind "hole_cards": what ``studodds holecards --json`` prints."""
        return {"kind": "hole_cards", "variant": self.variant.name,
                "levels": [a.to_dict() for a in self.levels],
                "one_hole_card_on_a_share_of_hands": self.partial(),
                "break_even_share_by_exposed_hole_cards": {str(k): exact(v) for k, v in self.break_even().items()}}


def hole_card_table(table: CountTable, variant: Variant, exposed: Sequence[int] = (-1, 0, 1, 2, 3, 4),
                    shares: Sequence[Fraction] = (), *, threads: int = 1, use_cache: bool = True,
                    progress: Callable[[int], None] | None = None) -> HoleCardTable:
    """:class:`HoleCardTable` for the given exposure levels (-1 = no dealer card visible).
    ``progress(n)`` is told of known-set classes finished, level after level (of
    ``sum(kernel_classes(k))``)."""
    levels = []
    for k in sorted(set(exposed)):
        levels.append(hole_cards(table, variant, k, threads=threads, use_cache=use_cache, progress=progress))
    return HoleCardTable(variant, tuple(levels), tuple(Fraction(p) for p in shares))


def kernel_classes(exposed: int) -> int:
    """Known-set classes the kernel runs through for an exposure level (0 if it needs none)."""
    return known_sets(exposed + 1)[0].shape[0] if 0 <= exposed <= 3 else 0
