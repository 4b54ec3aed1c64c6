"""The kinds of action on a table with draws, and the cells of its strategy chart: shared by both
ways of counting a slice of the game (:mod:`enumerate.draws.exact`, class by class, and
:mod:`enumerate.draws.switch_ranks`, by rank patterns)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from enumerate.draws import _hand
from evaluator.cards import RANKS, format_card

#: Action kinds: keep (0), switch k cards (k = 1..5), buy a sixth card (6).
KINDS = ("keep", *(f"switch {k} card{'s' if k > 1 else ''}" for k in range(1, 6)), "buy a sixth card")
BUY_KIND = 6
#: The action "buy a sixth card" after the switch masks 0..31 (0 keeps), as every kernel codes it.
BUY = _hand.BUY


def action_kind(action: int) -> int:
    """The kind index of a switch mask (0 keep, popcount for a switch) or :data:`BUY`."""
    return BUY_KIND if action == BUY else bin(action).count("1")


def fee_outcome(kind: int, *, one_card_game: bool = False) -> str:
    """The return table's id of the row of the fee paid for an action of this kind: ``fee_buy`` to
    buy a sixth card, ``fee_switch_K_card(s)`` to switch K cards, and ``fee_switch`` for the switch
    of the one-card game (``one_card_game``), where no other count is allowed. Read back by
    :func:`fee_kind`: the one place those ids are written and read."""
    if kind == BUY_KIND:
        return "fee_buy"
    if one_card_game:
        return "fee_switch"
    return "fee_" + KINDS[kind].replace(" ", "_")


def fee_kind(outcome: str) -> int | None:
    """The kind of action whose fee a return-table row of this id is (:func:`fee_outcome`'s
    inverse; the one-card game's ``fee_switch`` is switching one card), None for any other row."""
    return _FEE_KINDS.get(outcome)


#: Every fee row's id and its kind, made by :func:`fee_outcome` itself.
_FEE_KINDS = {**{fee_outcome(k): k for k in range(1, len(KINDS))}, fee_outcome(1, one_card_game=True): 1}


def check_best_actions(actions: Sequence[int], weights: Sequence[int], situations: Sequence[int],
                       chart: Mapping[str, int]) -> None:
    """A stored slice shard's best actions, one per class of weights ``weights``: ValueError unless
    each is a switch mask or buying and they, the situations per kind and the chart's counts all
    cover the classes' situations."""
    if any(a > BUY for a in actions):
        raise ValueError("a best action that is not a switch mask or buying")
    by_kind = [0] * len(KINDS)
    for a, w in zip(actions, weights):
        by_kind[action_kind(a)] += w
    if by_kind != list(situations) or sum(chart.values()) != sum(weights):
        raise ValueError("its actions, situations and chart do not add up to its classes")


def cards_drawn(kind: int) -> int:
    """The cards an action of this kind draws: k to switch k cards, one to buy (none to keep)."""
    return 1 if kind == BUY_KIND else kind


def chart_key(group: str, up_rank: int, label: str) -> str:
    """The key of a strategy-chart cell's action: hand group, up rank, what is done."""
    return f"{group}|{RANKS[up_rank]}|{label}"


def action_label(kind: str, discard: tuple[int, ...]) -> str:
    """How an action of a situation reads: "keep", "buy a sixth card", or "switch" and the cards
    given up, highest first."""
    if kind == "switch":
        return "switch " + " ".join(format_card(c) for c in sorted(discard, reverse=True))
    return "buy a sixth card" if kind == "buy" else "keep"
