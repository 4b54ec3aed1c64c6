"""Simple strategies for the draw of a Russian Poker table: what a player decides from the dealt
hand and the up card alone, before the raise.

A strategy of a table with draws says, for every situation (five cards, the up card), which cards
to exchange, or to buy a sixth card, or to stand pat; the raise, the insurance and the purchase of
the dealer's game are then decided on the final hand, each where it pays (the kernel's best after
the draw, as :mod:`enumerate.russian.strategies` leaves the insurance and the purchase to the
player's best judgement).  Its exact return is the whole game with each situation's action fixed
by it (``value_groups(..., actions=)``, enumerate/draws/_switch_ranks.pyx), and its cost is that
return's distance from optimal play's.

A strategy here is a function of the situations' cards -- an (n, 5) array, each row sorted,
cards ``4 * rank + suit`` -- and the up rank, returning each situation's action: a switch mask over
its five sorted cards (bit i: the i-th card exchanged; 0: stand pat) or :data:`BUY`,
computed for all rows at once.  It depends on suits only through which cards share one, so it
may be asked in the kernel's frame (the up card's suit 0).

**The rules of thumb** (``rules-of-thumb``), read off the house's optimal chart in a form a player
can remember, and legal wherever exchanges of two to five cards and a sixth card are offered:

1. four of a kind: stand pat;
2. a straight, flush, full house or better (four of a kind apart): buy a sixth card;
3. three of a kind: exchange the other two cards;
4. two pairs: stand pat;
5. one pair: with four to a flush or four to a straight, buy a sixth card; else stand pat when the
   pair ranks at least the up card, and exchange the other three when it ranks below;
6. no pair: with four to a flush or four consecutive ranks, buy a sixth card; with an ace and a
   king (a paying combination), keep them and exchange the other three; else, when the highest card
   is an ace (the up card not one) or outranks the up card by two ranks or more, keep it and
   exchange the other four; otherwise stand pat.

Four to a straight: four distinct ranks within five consecutive ranks (the ace low in A-2-3-4-5
too); four consecutive ranks: an open straight draw (the ace high in J-Q-K-A, low in A-2-3-4).
Without a pair a draw to an inside straight counts for nothing (the house's chart buys with an open
draw, and mostly exchanges four or folds with an inside one).  ``stand-pat`` never draws: its game is the table without the draw.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from enumerate.draws.actions import BUY
from enumerate.rules.variant import Variant
from enumerate.russian.draws import RussianAction, RussianSituation

#: A draw strategy: the situations' sorted cards and the up rank -> each one's action.
DrawStrategy = Callable[[np.ndarray, int], np.ndarray]

#: Each window of five consecutive ranks as a 13-bit mask, the ace low (A-2-3-4-5) first.
_WINDOWS = np.array([0b1_0000_0000_1111] + [0b11111 << low for low in range(9)], dtype=np.int64)
#: Each run of four consecutive ranks, the ace low (A-2-3-4) first.
_RUNS = np.array([0b1_0000_0000_0111] + [0b1111 << low for low in range(10)], dtype=np.int64)
_BITS = 1 << np.arange(5)
#: The set bits of every 13-bit mask.
_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int8)


def _shape(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row: each card's rank, how many cards share its rank, the most cards of one suit, and
    the hand's ranks as a 13-bit mask."""
    ranks, suits = cards >> 2, cards & 3
    same_rank = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    most_suited = (suits[:, :, None] == suits[:, None, :]).sum(axis=2).max(axis=1)
    rank_bits = np.bitwise_or.reduce(np.left_shift(1, ranks.astype(np.int64)), axis=1)
    return ranks, same_rank, most_suited, rank_bits


def _four_within(rank_bits: np.ndarray, runs: np.ndarray) -> np.ndarray:
    """Whether the hand holds four ranks of one of ``runs`` (masks of consecutive ranks): four to a
    straight with :data:`_WINDOWS`, four consecutive ranks with :data:`_RUNS`.  A straight holds
    them too; the rules take it first."""
    return (_POPCOUNT[rank_bits[:, None] & runs[None, :]] == 4).any(axis=1)


def stand_pat(cards: np.ndarray, ru: int) -> np.ndarray:
    """Never draw."""
    return np.zeros(cards.shape[0], dtype=np.int8)


def rules_of_thumb(cards: np.ndarray, ru: int) -> np.ndarray:
    """The rules of thumb of the module's docstring, for every row of ``cards`` against the up rank."""
    cards = np.asarray(cards, dtype=np.int64)
    ranks, same_rank, most_suited, rank_bits = _shape(cards)
    most = same_rank.max(axis=1)
    pairs = (same_rank == 2).sum(axis=1) // 2
    flush = most_suited == 5
    straight = np.isin(rank_bits, _WINDOWS)
    draw = (most_suited == 4) | np.where(most == 2, _four_within(rank_bits, _WINDOWS), _four_within(rank_bits, _RUNS))
    out = np.zeros(cards.shape[0], dtype=np.int8)
    odd = ((same_rank == 1) * _BITS).sum(axis=1)                  # the cards of no pair or set
    high = ranks.max(axis=1)
    buy = flush | straight | ((most == 3) & (pairs == 1)) | ((most <= 2) & (pairs <= 1) & draw)
    trips = (most == 3) & (pairs == 0)
    low_pair = (most == 2) & (pairs == 1) & ~draw & (ranks.max(axis=1, where=same_rank == 2, initial=-1) < ru)
    plain = (most == 1) & ~flush & ~straight & ~draw
    ace_king = plain & ((rank_bits & 0b1_1000_0000_0000) == 0b1_1000_0000_0000)
    nothing = plain & ~ace_king & ((high >= ru + 2) | ((high == 12) & (ru < 12)))
    out[buy] = BUY
    out[trips] = odd[trips]
    out[low_pair] = odd[low_pair]
    out[ace_king] = 0b00111                                       # sorted: the king and the ace are the last two
    out[nothing] = 0b01111                                        # sorted: the highest card is the last
    return out


#: The simple draw strategies offered, by name.
STRATEGIES: Mapping[str, DrawStrategy] = {"stand-pat": stand_pat, "rules-of-thumb": rules_of_thumb}
#: What each strategy may take besides standing pat: the numbers of cards it exchanges, and
#: whether it buys a sixth card.
TAKES: Mapping[str, tuple[frozenset[int], bool]] = {"stand-pat": (frozenset(), False),
                                                    "rules-of-thumb": (frozenset({2, 3, 4}), True)}


def action_taken(situation: RussianSituation, name: str) -> RussianAction:
    """The action of ``situation`` (every action valued) the strategy ``name`` takes: its switch
    mask over the sorted cards read back as the cards it exchanges -- or, for a dealt hand the
    table pays at once (its instant payout), that one action: the round ends before any draw."""
    if situation.best.instant:
        return situation.best
    cards = tuple(sorted(situation.cards))
    a = int(STRATEGIES[name](np.array([cards], dtype=np.uint8), situation.up >> 2)[0])
    if a == BUY:
        return next(x for x in situation.actions if x.kind == "buy")
    discard = {cards[i] for i in range(5) if a >> i & 1}
    return next(x for x in situation.actions if x.kind != "buy" and set(x.discard) == discard)


def refusal(name: str, variant: Variant) -> str | None:
    """Why the strategy ``name`` cannot be played at ``variant``'s table (None: it can): an
    exchange or a sixth card it takes that the table does not offer."""
    cards, buys = TAKES[name]
    d = variant.draws
    offered = set() if d is None or d.switch is None else set(d.switch.fees)
    missing = sorted(cards - offered)
    if missing:
        return (f"the draw strategy {name!r} exchanges {', '.join(map(str, missing))} cards, which table "
                f"{variant.name!r} does not offer")
    if buys and (d is None or d.buy_fee is None):
        return f"the draw strategy {name!r} buys a sixth card, which table {variant.name!r} does not offer"
    return None
