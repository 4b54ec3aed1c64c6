"""Fixed (non-optimal) strategies, evaluated exactly, and the optimal strategy in readable form.

A strategy is a function ``f(hands, up) -> raise mask``: ``hands`` is the (n, 5) uint8 array
of canonical player hands (sorted cards), ``up`` the (n, 47) uint8 array of up cards, and the
result an (n, 47) boolean array, True to raise.  Evaluated over the count table, which stands
for all 122,151,120 situations, its figures are exact.
"""
from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, Literal, TypedDict

import numpy as np

from enumerate.analysis.base import Analysis, analysis_from_stats, keep_optimal, optimal_statistics, raw_statistics
from enumerate.analysis.stats import Stat
from enumerate.analysis.threshold_index import index_key, threshold_index
from enumerate.core.engine import CountTable
from enumerate.core.interrupts import RECEIVED, failure_text, signals_marked
from enumerate.core.jsonform import exact
from enumerate.core.memo import TableMemo
from enumerate.core.shapes import Exact, MinItems, shape
from enumerate.core.tabular import tabular
from enumerate.raise_value import RaiseValue
from enumerate.rules.qualifier import parse_qualifier
from enumerate.rules.variant import Variant
from evaluator.cards import RANKS
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category, hand_indices, rank_counts_by_strength, strength, strength_by_index

Strategy = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _ranks(hands: np.ndarray) -> np.ndarray:
    return hands.astype(np.int64) >> 2


def _strengths(hands: np.ndarray) -> np.ndarray:
    """Strength of each row of sorted canonical hands, int64."""
    return strength_by_index()[hand_indices(hands)].astype(np.int64)


def raise_at_least(threshold: int) -> Strategy:
    """Raise every hand of strength >= threshold, whatever the up card."""
    def f(hands: np.ndarray, up: np.ndarray) -> np.ndarray:
        return np.broadcast_to((_strengths(hands) >= threshold)[:, None], up.shape)
    f.spec = ("raise_at_least", threshold)   # type: ignore[attr-defined]
    return f


def raise_all(hands: np.ndarray, up: np.ndarray) -> np.ndarray:
    """Raise every situation."""
    return np.ones(up.shape, dtype=bool)


def _holds_rank(hands: np.ndarray, rank_col: np.ndarray) -> np.ndarray:
    """(n, 47): does the player hold a card of the rank in rank_col[i, j]?"""
    r = _ranks(hands)
    return (r[:, :, None] == rank_col[:, None, :]).any(axis=1)


def _ak_high(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = _strengths(hands)
    ak = parse_qualifier("AK").threshold
    return (CATEGORY_BY_STRENGTH[s] == Category.HIGH_CARD) & (s >= ak), s


def matching_rank(hands: np.ndarray, up: np.ndarray) -> np.ndarray:
    """Pair or better; Ace/King high when one of the player's cards matches the up card's rank."""
    ak, s = _ak_high(hands)
    pair_plus = CATEGORY_BY_STRENGTH[s] >= Category.ONE_PAIR
    match = _holds_rank(hands, up.astype(np.int64) >> 2)
    return pair_plus[:, None] | (ak[:, None] & match)


def rules_of_thumb(hands: np.ndarray, up: np.ndarray) -> np.ndarray:
    """Pair or better; an Ace/King hand raises when any of the three well-known rules holds:
    (1) the up card is 2..Q and matches one of the player's ranks; (2) the up card is A or K and
    the player holds a Q or J; (3) the up card matches none of the player's ranks, the player
    holds a Q, and the up card is lower than the player's fourth-highest card."""
    ak, s = _ak_high(hands)
    pair_plus = CATEGORY_BY_STRENGTH[s] >= Category.ONE_PAIR
    ur = up.astype(np.int64) >> 2
    r = _ranks(hands)
    match = _holds_rank(hands, ur)
    has_q = (r == 10).any(axis=1)[:, None]
    has_j = (r == 9).any(axis=1)[:, None]
    fourth = np.sort(r, axis=1)[:, 1][:, None]         # ranks ascending: index 1 is 4th highest
    rule1 = (ur <= 10) & match
    rule2 = (ur >= 11) & (has_q | has_j)
    rule3 = ~match & has_q & (ur < fourth)
    return pair_plus[:, None] | (ak[:, None] & (rule1 | rule2 | rule3))


def simple_strategies() -> dict[str, Strategy]:
    """The named simple strategies, in the order reports list them."""
    return {
        "raise everything": raise_all,
        "Ace/King or better": raise_at_least(parse_qualifier("AK").threshold),
        "pair or better": raise_at_least(strength("2c 2d 3h 4s 5c")),
        "A-K-J-8-3 or better": raise_at_least(strength("Ac Kd Jh 8s 3c")),
        "matching rank": matching_rank,
        "three rules of thumb": rules_of_thumb,
    }


def check_strategy(strategy: Strategy, name: str) -> None:
    """StudoddsError unless ``strategy`` is a function that can be called as f(hands, up)
    (checked before any work)."""
    if not callable(strategy):
        raise StudoddsError(f"strategy {name}: not a function f(hands, up) -> raise mask, "
                            f"but {type(strategy).__name__} {str(strategy)[:40]!r}")
    try:
        inspect.signature(strategy).bind(np.zeros((1, 5)), np.zeros((1, 47)))
    except TypeError as exc:
        raise StudoddsError(f"strategy {name}: cannot be called as f(hands, up): {exc}") from None
    except ValueError:                  # a builtin without a signature: called as it is
        pass


def strategy_mask(table: CountTable, strategy: Strategy, name: str = "user") -> np.ndarray:
    """The strategy's raise decisions over ``table`` as a uint8 array of shape (n, 47).  A user
    strategy is input: anything it raises -- an exception, SystemExit, KeyboardInterrupt -- and
    any answer but booleans (or 0/1) of that shape is a StudoddsError naming the strategy.  A
    Ctrl-C while it runs is the user's, not the strategy's: it stops the job
    (:mod:`enumerate.core.interrupts`)."""
    check_strategy(strategy, name)
    try:
        with signals_marked():
            answer = strategy(table.hands, table.up)
            mask = np.asarray(answer)
    except RECEIVED:                     # a Ctrl-C (or SIGTERM) while it ran: the user stops the job
        raise
    except BaseException as exc:         # user code: even SystemExit is its failure, not ours
        raise StudoddsError(f"strategy {name} raised {failure_text(exc)}") from None
    if mask.shape != table.up.shape:
        raise StudoddsError(f"strategy {name} must return a raise mask of shape {table.up.shape} "
                            f"(hands x up cards), got {type(answer).__name__} of shape {mask.shape}")
    if mask.dtype != np.bool_:
        if mask.dtype.kind not in "iu" or not np.isin(mask, (0, 1)).all():
            raise StudoddsError(f"strategy {name} must return booleans (True: raise), got {mask.dtype} values")
    return mask.astype(np.uint8)


@shape("strategy_result")
class StrategyResultJSON(TypedDict):
    name: str
    total_loss_antes: Exact
    house_edge_per_ante: Exact
    element_of_risk_per_total_wager: Exact
    raise_probability: Exact
    cost_vs_optimal_per_ante: Exact


@shape("strategies", document=True)
class StrategiesJSON(TypedDict):
    kind: Literal["strategies"]
    variant: str
    strategies: Annotated[list[StrategyResultJSON], MinItems(1)]


@dataclass(frozen=True)
class StrategyResult:
    """Exact figures of one strategy; ``cost`` is its extra house edge over the optimal
    strategy, per ante."""

    name: str
    analysis: Analysis
    cost: Fraction
    #: the (10, 8) per-category statistics it was made from (:class:`~enumerate.analysis.stats.Stat`)
    stats: np.ndarray | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> StrategyResultJSON:
        a = self.analysis
        return {"name": self.name, "total_loss_antes": exact(a.total_loss),
                "house_edge_per_ante": exact(a.house_edge),
                "element_of_risk_per_total_wager": exact(a.element_of_risk),
                "raise_probability": exact(a.raise_probability),
                "cost_vs_optimal_per_ante": exact(self.cost)}


@tabular("strategies", 'strategies')
@dataclass(frozen=True)
class StrategyComparison:
    """Optimal play (first) and other strategies on one variant, exactly."""

    variant: str
    results: tuple[StrategyResult, ...]
    #: the optimal strategy chart (what strategy.md and strategy.csv show; not in the JSON)
    chart: StrategyChart | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> StrategiesJSON:
        """kind "strategies": what ``studodds strategies --json`` prints."""
        return {"kind": "strategies", "variant": self.variant,
                "strategies": [r.to_dict() for r in self.results]}


def _fixed_statistics(table: CountTable, variant: Variant, strategies: dict[str, Strategy],
                      threads: int) -> np.ndarray:
    """Outcome sums of fixed strategies, per strategy (K, 10, 8).  They do not depend on the
    paytable, so they are computed once per count table and strategy name and kept in the
    table (``Stat.INDIFFERENT`` is filled in per variant by the caller)."""
    keys = {name: (name, _identity(f)) for name, f in strategies.items()}
    found = {name: st for name, key in keys.items() if (st := _FIXED.find(table, key)) is not None}
    missing = [name for name in strategies if name not in found]
    if missing:
        masks = [strategy_mask(table, strategies[name], name) for name in missing]
        stats, _ = raw_statistics(table, variant, masks, with_chart=False, threads=threads)
        for name, st in zip(missing, stats[1:]):
            found[name] = _FIXED.put(table, keys[name], st)
    if not strategies:
        return np.zeros((0, 10, len(Stat)), np.int64)
    return np.stack([found[name] for name in strategies])


#: Per count table: a fixed strategy's outcome sums, by (name, identity); the optimal
#: strategy's chart, by (ante pays, raise, raised set).
_FIXED: TableMemo[tuple[str, object], np.ndarray] = TableMemo("fixed strategies' statistics")
_CHARTS: TableMemo[tuple[Fraction, Fraction, int, Any], np.ndarray] = TableMemo("optimal strategy charts")


#: From this many paytables analysed on one count table with the same ante pays and raise on, the
#: optimal statistics come from a ThresholdIndex (built once, about 0.8 s; then milliseconds a
#: paytable) instead of a pass of the one-pass kernel each.  The figures are the same either way.
INDEX_FROM = 8
_PAYTABLES: TableMemo[tuple[Fraction, Fraction, int], set[tuple[int, int, bytes, int, bytes]]] = \
    TableMemo("paytables analysed per index key")


def _index_when_worth_it(table: CountTable, variant: Variant) -> Any:
    """The table's ThresholdIndex for the variant once :data:`INDEX_FROM` paytables of its
    ante pays and raise have been analysed on it, else None (and none without an index key)."""
    key = index_key(variant)
    if key is None:
        return None
    seen = _PAYTABLES.get(table, key, set)
    seen.add(RaiseValue.of(variant).key())
    return threshold_index(table, *key) if len(seen) >= INDEX_FROM else None


def _identity(strategy: Strategy) -> object:
    """What makes two strategy functions the same: the ``spec`` the built-in ones carry (so
    that a fresh ``raise_at_least(t)`` hits the memo), else the function object itself."""
    return getattr(strategy, "spec", strategy)


def _optimal_statistics(table: CountTable, variant: Variant, index: Any = None,
                        threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(stats, chart) of the optimal strategy.  With a ThresholdIndex the statistics come from
    it and the one-pass kernel runs only for a raised set not seen before -- and then also
    cross-checks the index.  Charts are kept with the table by raised set."""
    if index is None:
        index = _index_when_worth_it(table, variant)
    if index is None or index_key(variant) != index.key:
        stats, chart = optimal_statistics(table, variant, threads, chart=True)
        assert chart is not None
        return stats, chart
    stats, signature = index.statistics({c: variant.pay(c) for c in variant.raise_pays})
    def checked_chart() -> np.ndarray:
        kernel_stats, made = optimal_statistics(table, variant, threads, chart=True)
        if not np.array_equal(np.delete(kernel_stats, Stat.INDIFFERENT, axis=1),
                              np.delete(stats, Stat.INDIFFERENT, axis=1)):
            raise AssertionError(f"threshold index and kernel disagree for {variant.name}")
        assert made is not None
        return made
    chart = _CHARTS.get(table, (*index.key, signature), checked_chart)    # a raised set names its index
    keep_optimal(table, variant, stats, chart)        # the analysis of this paytable asks next
    return stats, chart


def evaluate(table: CountTable, variant: Variant, strategies: dict[str, Strategy], index: Any = None,
             threads: int = 1) -> tuple[list[StrategyResult], "StrategyChart"]:
    """Exact figures of each strategy with its cost against the optimal strategy (the first
    result), and the optimal strategy chart.  ``index`` (a ThresholdIndex for the variant's
    ante pays) makes the optimal statistics of many paytables fast; without one, the table's
    own is used from the :data:`INDEX_FROM`-th paytable of the same ante pays on."""
    optimal_stats, chart = _optimal_statistics(table, variant, index, threads)
    best = analysis_from_stats(table, variant, optimal_stats)
    out = [StrategyResult("optimal", best, Fraction(0), optimal_stats)]
    for name, fixed in zip(strategies, _fixed_statistics(table, variant, strategies, threads)):
        stats = fixed.copy()
        stats[:, Stat.INDIFFERENT] = optimal_stats[:, Stat.INDIFFERENT]   # a property of the paytable
        a = analysis_from_stats(table, variant, stats)
        out.append(StrategyResult(name, a, a.house_edge - best.house_edge, stats))
    return out, StrategyChart(chart[:, :, 0], chart[:, :, 1])


# ---------------------------------------------------------------- the optimal strategy, readable

def rank_pattern(s: int) -> str:
    """Ranks of a hand of strength ``s`` in order of significance, e.g. "AKJ83", "22AK5"."""
    counts = rank_counts_by_strength()[s]
    order = sorted(range(13), key=lambda r: (-counts[r], -r))
    return "".join(RANKS[r] * int(counts[r]) for r in order if counts[r])


@dataclass(frozen=True)
class StrategyChart:
    """Per player strength and up-card rank: weighted (raised, situations).

    ``cells[s, r] = (raised, total)`` over concrete situations; a cell is "R" when every
    situation raises, "F" when none does, "s" when the suits decide."""

    raised: np.ndarray      # (7462, 13) int64
    total: np.ndarray       # (7462, 13) int64

    def mark(self, s: int, r: int) -> str:
        t, k = int(self.total[s, r]), int(self.raised[s, r])
        if t == 0:
            return "."
        return "R" if k == t else ("F" if k == 0 else "s")

    def key(self) -> bytes:
        """A digest equal for two charts iff they are equal (renderings are reused by it)."""
        return hashlib.sha256(self.raised.tobytes() + self.total.tobytes()).digest()
