"""The kinds of action on a table with draws, and the cells of its strategy chart: shared by both
ways of counting a slice of the game (:mod:`enumerate.draws.exact`, class by class, and
:mod:`enumerate.draws.switch_ranks`, by rank patterns)."""
from __future__ import annotations

from evaluator.cards import RANKS

#: Action kinds: keep (0), switch k cards (k = 1..5), buy a sixth card (6).
KINDS = ("keep", *(f"switch {k} card{'s' if k > 1 else ''}" for k in range(1, 6)), "buy a sixth card")
BUY_KIND = 6


def chart_key(group: str, up_rank: int, label: str) -> str:
    """The key of a strategy-chart cell's action: hand group, up rank, what is done."""
    return f"{group}|{RANKS[up_rank]}|{label}"
