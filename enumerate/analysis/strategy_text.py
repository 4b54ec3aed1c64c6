"""The optimal strategy in readable form: ``strategy.md`` (always raise / always fold, and a
raise/fold chart by the player's ranks against the up card's rank where it depends) and
``strategy.csv`` (the exact share of situations raised in every cell) -- of the plain game, and
the raise chart of every kind whose final hand is the dealt one (Russian Poker without draws)."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from enumerate.analysis.strategies import StrategyChart, rank_pattern
from enumerate.rules.variant import Variant
from evaluator.cards import RANKS
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

#: Renderings by chart digest, most recent last; bounded (a batch of paytables often shares one
#: optimal strategy, so a few entries suffice).
_RENDERED: "OrderedDict[tuple[str, bytes], str]" = OrderedDict()
_RENDERED_MAX = 16


def _rendered(kind: str, chart: StrategyChart, make: Callable[[StrategyChart], str]) -> str:
    key = (kind, chart.key())
    if key in _RENDERED:
        _RENDERED.move_to_end(key)
    else:
        _RENDERED[key] = make(chart)
        if len(_RENDERED) > _RENDERED_MAX:
            _RENDERED.popitem(last=False)
    return _RENDERED[key]


def strategy_markdown(chart: StrategyChart, variant: Variant) -> str:
    """The readable strategy; the body is rendered once per distinct chart (a batch of
    paytables often shares one optimal strategy)."""
    return f"# Optimal strategy: {variant.name}\n\n" + raise_chart_markdown(chart)


def raise_chart_markdown(chart: StrategyChart) -> str:
    """The raise decisions of ``chart`` in words and by rank pattern (rendered once per chart)."""
    return _rendered("md", chart, _strategy_markdown_body)


def _strategy_markdown_body(chart: StrategyChart) -> str:
    cats = CATEGORY_BY_STRENGTH
    lines = ["Exact, derived from the engine's counts: raise iff EV(raise) > EV(fold) = -1 ante.", ""]
    always_raise: list[tuple[Category, int, int]] = []
    always_fold: list[tuple[Category, int, int]] = []
    mixed: list[tuple[Category, int, int]] = []
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
        rows: list[str] = []
        uniform = {"R": 0, "F": 0}
        for s in (int(x) for x in np.flatnonzero(cats == c)[::-1]):
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
    """One row per player rank pattern (strongest first); per up-card rank A..2 two integer
    columns, ``raised_up_R`` and ``situations_up_R``: of the situations of that pattern and up
    card, how many the optimal strategy raises (both 0 where the up card cannot occur)."""
    return _rendered("csv", chart, _strategy_csv)


def _strategy_csv(chart: StrategyChart) -> str:
    labels = _pattern_labels()
    lines = ["category,player_ranks," + ",".join(f"raised_up_{RANKS[r]},situations_up_{RANKS[r]}"
                                                 for r in range(12, -1, -1))]
    raised = chart.raised[:, ::-1].tolist()
    total = chart.total[:, ::-1].tolist()
    for s in range(7461, -1, -1):
        cells = ",".join(f"{k},{t}" for k, t in zip(raised[s], total[s]))
        lines.append(f"{labels[s]},{cells}")
    return "\n".join(lines) + "\n"
