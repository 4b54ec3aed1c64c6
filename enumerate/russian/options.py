"""How often a Russian Poker table's options are taken, by hand group and up card, with the draws.

The strategy chart of a table with draws (:func:`enumerate.draws.exact.chart_strategy`) counts the
situations (player hand, up card) of each hand group taking each draw action.  The options decided
after the draw are per final hand and dealer hand, so a situation takes them a share of the time:
over its best action's draws (C(46, k) for k cards drawn), how many raise and how many insure;
over those draws' dealer hole-card sets (C(46 - k, 4) each), how many that do not qualify are met
with a raise, and how many of those the player buys the game against.  A cell (hand group, up-card
rank) sums each situation's four shares times its weight:

    raised = sum w * r / C(46, k),  insured = sum w * i / C(46, k),
    short = sum w * q / (C(46, k) C(46 - k, 4)),  bought = sum w * b / (C(46, k) C(46 - k, 4)),

exact fractions (the kinds' draws differ), so the chart's shares are raised / situations, insured /
situations and bought / short -- the figures of the table without draws
(:class:`enumerate.russian.game.RussianFigures`), by hand group.  Both ways of counting a slice
make the same cells: by rank patterns (the kernel's per-situation columns, :data:`FIELDS`) and
situation class by class (:class:`enumerate.russian.draws.RussianAction`).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from enumerate.core.jsonform import exact
from enumerate.core.slices import read_fraction
from enumerate.draws.actions import cards_drawn
from evaluator.cards import RANKS

#: The four sums of a cell, in order.
FIELDS = ("raised", "insured", "short", "bought")
#: 46 cards unseen before the draw (the player's five and the up card seen).
_UNSEEN = 46

#: A cell's sums: [raised, insured, short, bought] (see the module docstring).
Cell = list[Fraction]


def option_key(group: str, up_rank: int) -> str:
    """The key of a cell: hand group and up-card rank, as the strategy chart's without its action."""
    return f"{group}|{RANKS[up_rank]}"


def add_situation(options: dict[str, Cell], key: str, weight: int, kind: int,
                  raised: int, insured: int, short: int, bought: int) -> None:
    """A situation of ``weight`` whose best action of ``kind`` raises ``raised`` of its draws and
    insures ``insured``, meets ``short`` dealer hands that do not qualify with a raise and buys
    the game against ``bought`` of them."""
    k = cards_drawn(kind)
    draws = math.comb(_UNSEEN, k)
    sets = draws * math.comb(_UNSEEN - k, 4)
    cell = options.setdefault(key, [Fraction(0)] * 4)
    for i, (x, d) in enumerate(((raised, draws), (insured, draws), (short, sets), (bought, sets))):
        if x:
            cell[i] += Fraction(weight * x, d)


def merge(into: dict[str, Cell], other: Mapping[str, Cell]) -> None:
    """Add ``other``'s cells to ``into``'s."""
    for key, cell in other.items():
        kept = into.setdefault(key, [Fraction(0)] * 4)
        for i in range(4):
            kept[i] += cell[i]


def to_json(options: Mapping[str, Cell]) -> dict[str, list[str]]:
    return {k: [str(x) for x in cell] for k, cell in options.items()}


def from_json(data: Any, chart: Mapping[str, int]) -> dict[str, Cell]:
    """Stored cells, checked against the strategy chart they stand beside (its counts, keys
    "group|up rank|action"): one cell per chart cell of situations, each share within its
    situations (insured <= raised <= situations, bought <= short <= situations); ValueError if not."""
    if not isinstance(data, dict):
        raise ValueError("the options by hand group are not an object")
    situations: dict[str, int] = {}
    for key, n in chart.items():
        cell_key = key.rsplit("|", 1)[0]
        situations[cell_key] = situations.get(cell_key, 0) + n
    if set(data) != {k for k, n in situations.items() if n}:
        raise ValueError("the options by hand group do not cover the chart's cells")
    out: dict[str, Cell] = {}
    for key, cell in data.items():
        if not isinstance(cell, list) or len(cell) != 4:
            raise ValueError("an option cell is not [raised, insured, short, bought]")
        raised, insured, short, bought = (read_fraction(x) for x in cell)
        n = situations[key]
        if not (0 <= insured <= raised <= n and 0 <= bought <= short <= n):
            raise ValueError(f"an option share out of range in cell {key!r}")
        out[key] = [raised, insured, short, bought]
    return out


def shares(cell: Cell, situations: int) -> dict[str, Any]:
    """A cell's shares, as the strategy rows of the table without draws name them."""
    raised, insured, short, bought = cell
    return {"raise_share": exact(raised / situations), "insure_share": exact(insured / situations),
            "bought_share_of_no_qualify": exact(bought / short if short else Fraction(0))}


def with_shares(strategy: Iterable[Mapping[str, Any]], options: Mapping[str, Cell] | None) -> list[Any]:
    """The strategy chart's rows, each with its cell's shares (none without the cells)."""
    rows = [dict(row) for row in strategy]
    if options is None:
        return rows
    for row in rows:
        row.update(shares(options[f"{row['hand_group']}|{row['up_rank']}"], row["situations"]))
    return rows
