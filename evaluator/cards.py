"""Cards: parsing and formatting.

A card is an int 0..51, ``rank * 4 + suit``: rank 0 is the deuce and 12 the ace, suits
0..3 are clubs, diamonds, hearts, spades.  Text form is rank then suit, either case: ``As``,
``kd``, ``Th`` or ``10h``.

>>> parse_hand("As Kd Jh 8c 3s")
(51, 45, 38, 24, 7)
>>> format_hand(parse_hand("as kd 10h 8c 3s"))
'As Kd Th 8c 3s'
"""
from __future__ import annotations

from collections.abc import Iterable

from evaluator.errors import StudoddsError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
N_CARDS = 52


def parse_card(text: str) -> int:
    """Parse one card such as ``"As"``, ``"10h"`` or ``"td"``; raise StudoddsError naming it."""
    if not isinstance(text, str):
        raise StudoddsError(f"card must be text, got {type(text).__name__}")
    t = text.strip()
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2 or t[0].upper() not in RANKS or t[1].lower() not in SUITS:
        raise StudoddsError(f"bad card {text!r}: expected a rank of 2-9, T/10, J, Q, K, A and a suit of c, d, h, s")
    return RANKS.index(t[0].upper()) * 4 + SUITS.index(t[1].lower())


def format_card(card: int) -> str:
    """Text of a card, e.g. ``51 -> "As"``."""
    if not isinstance(card, int) or not 0 <= card < N_CARDS:
        raise StudoddsError(f"bad card number {card!r}: expected 0..51")
    return RANKS[card >> 2] + SUITS[card & 3]


def parse_cards(text: str | list[str] | tuple[str, ...], count: int | None = None) -> tuple[int, ...]:
    """Parse distinct cards from ``"As Kd"`` / ``"AsKd"`` / a list; check the count if given."""
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
        if len(parts) == 1 and len(parts[0]) > 3:          # written without spaces: "AsKdJh8c3s"
            parts = _split_compact(parts[0])
    else:
        parts = list(text)
    cards = tuple(parse_card(p) for p in parts)
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise StudoddsError(f"duplicate card {format_card(card)}")
        seen.add(card)
    if count is not None and len(cards) != count:
        raise StudoddsError(f"expected {count} cards, got {len(cards)}: {text!r}")
    return cards


def _split_compact(word: str) -> list[str]:
    parts, i = [], 0
    while i < len(word):
        size = 3 if word.startswith("10", i) else 2
        parts.append(word[i:i + size])
        i += size
    return parts


def parse_hand(text: str | list[str] | tuple[str, ...]) -> tuple[int, ...]:
    """Parse exactly five distinct cards."""
    return parse_cards(text, 5)


def format_hand(cards: "Iterable[int]") -> str:
    """Text of several cards, space separated, in the order given."""
    return " ".join(format_card(int(c)) for c in cards)
