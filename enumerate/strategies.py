"""Fixed (non-optimal) strategies, evaluated exactly, and the optimal strategy in readable form.

A strategy is a function ``f(hands, up) -> raise mask``: ``hands`` is the (n, 5) uint8 array
of canonical player hands (sorted cards), ``up`` the (n, 47) uint8 array of up cards, and the
result an (n, 47) boolean array, True to raise.  Evaluated over the count table, which stands
for all 122,151,120 situations, its figures are exact.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction
from typing import Callable

import numpy as np

from evaluator.cards import RANKS
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category, strength
from enumerate.analysis import Analysis
from enumerate.engine import CountTable
from enumerate.qualifier import parse_qualifier
from enumerate.variant import Variant

Strategy = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _ranks(hands: np.ndarray) -> np.ndarray:
    return hands.astype(np.int64) >> 2


def _strengths(hands: np.ndarray) -> np.ndarray:
    """Strength of each row of sorted canonical hands, int64."""
    from evaluator import _eval
    return _eval.STRENGTH_BY_INDEX[_eval.hand_indices(np.ascontiguousarray(hands))].astype(np.int64)


def raise_at_least(threshold: int) -> Strategy:
    """Raise every hand of strength >= threshold, whatever the up card."""
    def f(hands, up):
        return np.broadcast_to((_strengths(hands) >= threshold)[:, None], up.shape)
    return f


def raise_all(hands, up):
    return np.ones(up.shape, dtype=bool)


def _holds_rank(hands: np.ndarray, rank_col: np.ndarray) -> np.ndarray:
    """(n, 47): does the player hold a card of the rank in rank_col[i, j]?"""
    r = _ranks(hands)
    return (r[:, :, None] == rank_col[:, None, :]).any(axis=1)


def _ak_high(hands) -> np.ndarray:
    s = _strengths(hands)
    ak = parse_qualifier("AK").threshold
    return (CATEGORY_BY_STRENGTH[s] == Category.HIGH_CARD) & (s >= ak), s


def matching_rank(hands, up):
    """Pair or better; Ace/King high when one of the player's cards matches the up card's rank."""
    ak, s = _ak_high(hands)
    pair_plus = CATEGORY_BY_STRENGTH[s] >= Category.ONE_PAIR
    match = _holds_rank(hands, up.astype(np.int64) >> 2)
    return pair_plus[:, None] | (ak[:, None] & match)


def rules_of_thumb(hands, up):
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


def strategy_mask(table: CountTable, strategy: Strategy) -> np.ndarray:
    mask = np.asarray(strategy(table.hands, table.up))
    if mask.shape != table.up.shape:
        raise ValueError(f"a strategy must return shape {table.up.shape}, got {mask.shape}")
    return mask.astype(np.uint8)


@dataclass(frozen=True)
class StrategyResult:
    name: str
    analysis: Analysis
    cost: Fraction            # extra house edge over the optimal strategy, per ante


_MASKS: dict = {}


def cached_mask(table: CountTable, name: str, strategy: Strategy) -> np.ndarray:
    """The strategy's mask over ``table``; masks do not depend on the paytable, so a batch of
    variants sharing a count table computes each one once."""
    key = (id(table), name)
    if key not in _MASKS or _MASKS[key][0] is not table:
        _MASKS[key] = (table, strategy_mask(table, strategy))
    return _MASKS[key][1]


_FIXED_STATS: dict = {}


def _fixed_statistics(table: CountTable, variant: Variant, strategies: dict[str, Strategy]) -> np.ndarray:
    """Outcome sums of fixed strategies: they do not depend on the paytable, so they are
    computed once per count table (statistic 2, "indifferent", is filled in per variant)."""
    from enumerate.analysis import raw_statistics
    key = (id(table), tuple(strategies))
    if key not in _FIXED_STATS or _FIXED_STATS[key][0] is not table:
        masks = [cached_mask(table, name, f) for name, f in strategies.items()]
        _FIXED_STATS[key] = (table, raw_statistics(table, variant, masks)[0][1:])
    return _FIXED_STATS[key][1]


_CHARTS: dict = {}


def _optimal_statistics(table: CountTable, variant: Variant, index=None):
    """(stats, chart) of the optimal strategy.  With a ThresholdIndex the statistics come from
    it and the one-pass kernel runs only for a raised set not seen before -- and then also
    cross-checks the index."""
    from enumerate.analysis import raw_statistics
    if index is None:
        (stats,), chart = raw_statistics(table, variant, [])
        return stats, chart
    stats, signature = index.statistics(variant.raise_pays)
    key = (id(table), index.ante_no_qualify, index.ante_win, signature)
    if key not in _CHARTS or _CHARTS[key][0] is not table:
        (kernel_stats,), chart = raw_statistics(table, variant, [])
        if not np.array_equal(np.delete(kernel_stats, 2, axis=1), np.delete(stats, 2, axis=1)):
            raise AssertionError(f"threshold index and kernel disagree for {variant.name}")
        _CHARTS[key] = (table, chart)
    return stats, _CHARTS[key][1]


def evaluate(table: CountTable, variant: Variant, strategies: dict[str, Strategy], index=None):
    """Exact figures of each strategy with its cost against the optimal strategy (the first
    result), and the optimal strategy chart.  ``index`` (a ThresholdIndex for the variant's
    ante pays) makes the optimal statistics of many paytables fast."""
    from enumerate.analysis import analysis_from_stats
    optimal_stats, chart = _optimal_statistics(table, variant, index)
    best = analysis_from_stats(table, variant, optimal_stats)
    out = [StrategyResult("optimal", best, Fraction(0))]
    for name, fixed in zip(strategies, _fixed_statistics(table, variant, strategies)):
        stats = fixed.copy()
        stats[:, 2] = optimal_stats[:, 2]          # indifference is a property of the paytable
        a = analysis_from_stats(table, variant, stats)
        out.append(StrategyResult(name, a, a.house_edge - best.house_edge))
    return out, StrategyChart(chart[:, :, 0], chart[:, :, 1])


# ---------------------------------------------------------------- the optimal strategy, readable

def rank_pattern(s: int) -> str:
    """Ranks of a hand of strength ``s`` in order of significance, e.g. "AKJ83", "22AK5"."""
    from enumerate.qualifier import _rank_counts_by_strength
    counts = _rank_counts_by_strength()[s]
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


def _chart_key(chart: StrategyChart) -> bytes:
    import hashlib
    return hashlib.sha256(chart.raised.tobytes() + chart.total.tobytes()).digest()


_RENDERED: dict = {}


def strategy_markdown(chart: StrategyChart, variant: Variant) -> str:
    """The readable strategy; the body is rendered once per distinct chart (a batch of
    paytables often shares one optimal strategy)."""
    key = ("md", _chart_key(chart))
    if key not in _RENDERED:
        _RENDERED[key] = _strategy_markdown_body(chart)
    return f"# Optimal strategy: {variant.name}\n\n" + _RENDERED[key]


def _strategy_markdown_body(chart: StrategyChart) -> str:
    cats = CATEGORY_BY_STRENGTH
    lines = ["Exact, derived from the engine's counts: raise iff EV(raise) > EV(fold) = -1 ante.", ""]
    always_raise, always_fold, mixed = [], [], []
    for c in reversed(Category):
        sel = np.flatnonzero(cats == c)
        r, t = chart.raised[sel].sum(), chart.total[sel].sum()
        (always_raise if r == t else always_fold if r == 0 else mixed).append((c, int(r), int(t)))
    lines.append("Always raise: " + (", ".join(c.label for c, _, _ in always_raise) or "none") + ".")
    lines.append("Always fold: " + (", ".join(c.label for c, _, _ in always_fold) or "none") + ".")
    lines.append("Depends on the cards: " + (", ".join(f"{c.label} (raise {r:,} of {t:,} situations)"
                                                      for c, r, t in mixed) or "none") + ".")
    header = "| player ranks | " + " | ".join(RANKS[r] for r in range(12, -1, -1)) + " |"
    for c, _, _ in mixed:
        sel = [s for s in np.flatnonzero(cats == c)[::-1]]
        rows, uniform = [], {"R": 0, "F": 0}
        for s in sel:
            marks = [chart.mark(s, r) for r in range(12, -1, -1)]
            present = {m for m in marks if m != "."}
            if len(present) == 1 and present <= {"R", "F"}:
                uniform[present.pop()] += 1
                continue
            rows.append(f"| {rank_pattern(int(s))} | " + " | ".join(marks) + " |")
        lines += ["", f"## {c.label.capitalize()}", "",
                  f"Columns: the up card's rank. R raise, F fold, s the suits decide (exact shares in strategy.csv), "
                  f". impossible. Not listed: {uniform['R']} rank patterns always raised, "
                  f"{uniform['F']} always folded.", "", header, "|---|" + "---|" * 13]
        lines += rows
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def _pattern_labels() -> tuple[str, ...]:
    """Per strength: "category,player ranks" (flushes marked "suited")."""
    out = []
    for s in range(7462):
        label = Category(int(CATEGORY_BY_STRENGTH[s])).label
        suited = " suited" if label in ("flush", "straight flush", "royal flush") else ""
        out.append(f"{label},{rank_pattern(s)}{suited}")
    return tuple(out)


def strategy_csv(chart: StrategyChart) -> str:
    """One row per player rank pattern (strongest first); per up-card rank A..2 the exact share
    of situations raised as "raised/situations" (empty when impossible)."""
    key = ("csv", _chart_key(chart))
    if key not in _RENDERED:
        _RENDERED[key] = _strategy_csv(chart)
    return _RENDERED[key]


def _strategy_csv(chart: StrategyChart) -> str:
    labels = _pattern_labels()
    lines = ["category,player_ranks," + ",".join(f"up_{RANKS[r]}" for r in range(12, -1, -1))]
    raised = chart.raised[:, ::-1].tolist()
    total = chart.total[:, ::-1].tolist()
    for s in range(7461, -1, -1):
        cells = ",".join(f"{k}/{t}" if t else "" for k, t in zip(raised[s], total[s]))
        lines.append(f"{labels[s]},{cells}")
    return "\n".join(lines) + "\n"
