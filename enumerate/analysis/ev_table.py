"""The EV of every situation, in compact exact form.

One row per situation class up to suit relabelling (5,649,150 rows): the canonical player hand,
a representative up card, the class size ``multiplicity`` (the number of concrete situations
it stands for; they sum to 122,151,120), the four dealer-outcome counts, and EV(raise) exactly
as ``ev_raise_num / ev_denominator`` antes (EV(fold) is -1 ante).  ``action`` is 1 raise,
0 fold, 2 either (exactly equal).  On a Russian Poker table without draws EV(raise) is raising
with the table's options played optimally -- the insurance taken when it pays, the game bought
against each dealer hand that does not qualify when that pays -- and a dealt hand of the table's
instant payout has ``action`` 3, paid at once, ``ev_raise_num`` its pay.

Schema of the ``.npz`` (all arrays of length N except the scalars):

============== ======= =====================================================================
hand           (N, 5)  uint8, sorted cards of the canonical player hand (card = rank*4+suit)
up             (N,)    uint8, representative up card (lowest suit among equivalent ones)
multiplicity   (N,)    uint32, concrete situations in the class
no_qualify     (N,)    uint32 ┐
win            (N,)    uint32 │ dealer outcomes over the 163,185 hole-card sets
tie            (N,)    uint32 │
lose           (N,)    uint32 ┘
ev_raise_num   (N,)    int64, EV(raise) * ev_denominator
ev_denominator ()      int64
action         (N,)    int8 (0 fold, 1 raise, 2 either, 3 paid at once)
variant        ()      str, the variant name; ``schema`` () str, "studodds-ev-table 1"
============== ======= =====================================================================

The CSV has the same columns with cards as text (``hand`` "As Kd Jh 8c 3s", ``up`` "7d"),
``ev_raise`` as an exact fraction string and ``ev_raise_decimal`` rounded.
"""
from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from math import gcd
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from enumerate.analysis.situation import canonical
from enumerate.core.atomic import atomic_write_bytes
from enumerate.core.engine import CountTable
from enumerate.core.tabular import frame
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant import Variant
from evaluator.cards import RANKS, SUITS, parse_card, parse_hand
from evaluator.errors import StudoddsError
from evaluator.ranking import hand_index, hand_indices

SCHEMA = "studodds-ev-table 1"


@dataclass(frozen=True)
class EVTable:
    hand: np.ndarray
    up: np.ndarray
    multiplicity: np.ndarray
    no_qualify: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    lose: np.ndarray
    ev_raise_num: np.ndarray
    ev_denominator: int
    action: np.ndarray
    variant: str
    #: The format tag written into every saved table.
    SCHEMA: ClassVar[str] = SCHEMA

    def __len__(self) -> int:
        return int(self.up.shape[0])

    def __repr__(self) -> str:
        return (f"<EVTable ({self.variant}): {len(self):,} situations up to suits; .to_pandas() for the table, "
                ".lookup(cards, up) for one situation>")

    def to_pandas(self) -> Any:
        """Every row as a pandas DataFrame (needs pandas): the hand's five cards (``card_1`` ..
        ``card_5``, numbers 0..51), the up card, the multiplicity and dealer counts as integers,
        EV(raise) exactly as ``ev_raise_numerator`` over :attr:`ev_denominator` (5.6 million
        Fractions would take minutes) with its float ``ev_raise_float`` beside it, and the
        optimal action (1 = raise)."""
        df = frame([])
        hands = np.asarray(self.hand)
        for k in range(hands.shape[1]):
            df[f"card_{k + 1}"] = hands[:, k]
        for name in ("up", "multiplicity", "no_qualify", "win", "tie", "lose"):
            df[name] = np.asarray(getattr(self, name))
        df["ev_raise_numerator"] = np.asarray(self.ev_raise_num)
        df["ev_raise_float"] = np.asarray(self.ev_raise_num, dtype=np.float64) / self.ev_denominator
        df["raise"] = np.asarray(self.action)
        return df

    def lookup(self, cards: str | Iterable[int], up: str | int) -> int:
        """Row of a concrete situation: the player's five cards and the up card, as text
        (``"As Kd Jh 8c 3s"``, ``"7d"``) or card numbers 0..51."""
        hand = parse_hand(cards) if isinstance(cards, str) else tuple(int(c) for c in cards)
        card = parse_card(up) if isinstance(up, str) else int(up)
        if len(set(hand)) != 5 or not all(0 <= c < 52 for c in (*hand, card)) or card in hand:
            raise StudoddsError(f"a situation is five distinct cards and another up card, got {cards!r} and {up!r}")
        canon, u = canonical(hand, card)
        key = hand_index(canon)
        keys = self._keys()
        lo = int(np.searchsorted(keys, key, side="left"))
        hi = int(np.searchsorted(keys, key, side="right"))
        masks = [0, 0, 0, 0]
        for c in canon:
            masks[c & 3] |= 1 << (c >> 2)
        rep = (u & ~3) | min(s for s in range(4) if masks[s] == masks[u & 3])
        rows = lo + np.flatnonzero(self.up[lo:hi] == rep)
        if len(rows) != 1:
            raise AssertionError("situation missing from the EV table")
        return int(rows[0])

    def save(self, path: str | Path) -> Path:
        """Write the table to ``path`` atomically: ``.npz`` (numpy arrays, :func:`load_npz`
        reads it back) or ``.csv`` (one line per row, EVs as reduced fractions)."""
        out = Path(path)
        if out.suffix == ".npz":
            save_npz(self, out)
        elif out.suffix == ".csv":
            save_csv(self, out)
        else:
            raise StudoddsError(f"{out}: an EV table is saved as .npz or .csv")
        return out

    def _keys(self) -> np.ndarray:
        keys: np.ndarray | None = self.__dict__.get("_key_cache")
        if keys is None:
            keys = hand_indices(self.hand)
            object.__setattr__(self, "_key_cache", keys)
        return keys


def build(table: CountTable, variant: Variant) -> EVTable:
    """Reduce the count table to one row per situation class and attach exact EVs."""
    value = RaiseValue.of(variant)
    return of_situations(table, variant.name, value.ev_numerators(table), value.denominator)


def of_situations(table: CountTable, name: str, num: np.ndarray, den: int, paid: np.ndarray | None = None) -> EVTable:
    """The EV table of the count table's situations whose EV(raise) is ``num / den`` (per row and
    up column; ``paid``: the situations paid at once), one row per situation class."""
    hands = table.hands
    # per-suit rank masks of each canonical hand; suits with equal masks are interchangeable
    masks = np.zeros((hands.shape[0], 4), dtype=np.int64)
    for k in range(5):
        np.bitwise_or.at(masks, (np.arange(hands.shape[0]), hands[:, k] & 3), 1 << (hands[:, k].astype(np.int64) >> 2))
    up = table.up.astype(np.int64)
    up_suit_mask = np.take_along_axis(masks, up & 3, axis=1)                      # (n, 47)
    # representative: the up card's suit is the lowest suit with the same mask
    same = masks[:, None, :] == up_suit_mask[:, :, None]                          # (n, 47, 4)
    lowest = same.argmax(axis=2)
    group = same.sum(axis=2)
    keep = lowest == (up & 3)
    w = table.weight.astype(np.int64)[:, None] * group
    rows = np.nonzero(keep)
    lose = table.lose
    action = np.where(num > -den, 1, np.where(num == -den, 2, 0)).astype(np.int8)
    if paid is not None:
        action[paid] = 3
    return EVTable(
        hand=np.ascontiguousarray(hands[rows[0]]), up=table.up[keep], multiplicity=w[keep].astype(np.uint32),
        no_qualify=table.no_qualify[keep], win=table.win[keep], tie=table.tie[keep],
        lose=lose[keep].astype(np.uint32), ev_raise_num=num[keep], ev_denominator=den,
        action=action[keep], variant=name,
    )


def save_npz(ev: EVTable, path: Path) -> None:
    buf = io.BytesIO()
    np.savez(buf, hand=ev.hand, up=ev.up, multiplicity=ev.multiplicity, no_qualify=ev.no_qualify,
             win=ev.win, tie=ev.tie, lose=ev.lose, ev_raise_num=ev.ev_raise_num,
             ev_denominator=np.int64(ev.ev_denominator), action=ev.action,
             variant=np.str_(ev.variant), schema=np.str_(SCHEMA))
    atomic_write_bytes(path, [buf.getvalue()])


def load_npz(path: Path) -> EVTable:
    with np.load(path) as z:
        if str(z["schema"]) != SCHEMA:
            raise StudoddsError(f"{path}: not a {SCHEMA} file")
        return EVTable(hand=z["hand"], up=z["up"], multiplicity=z["multiplicity"], no_qualify=z["no_qualify"],
                       win=z["win"], tie=z["tie"], lose=z["lose"], ev_raise_num=z["ev_raise_num"],
                       ev_denominator=int(z["ev_denominator"]), action=z["action"], variant=str(z["variant"]))


def _card_text(cards: np.ndarray) -> np.ndarray:
    names = np.array([RANKS[c >> 2] + SUITS[c & 3] for c in range(52)])
    return names[cards]


def csv_chunks(ev: EVTable, rows_per_chunk: int = 200_000):
    """The CSV as byte chunks (header first)."""
    yield b"hand,up,multiplicity,no_qualify,win,tie,lose,ev_raise,ev_raise_decimal,action\n"
    den = ev.ev_denominator
    for start in range(0, len(ev), rows_per_chunk):
        sl = slice(start, start + rows_per_chunk)
        h = _card_text(ev.hand[sl])
        hand_text = np.char.add(np.char.add(np.char.add(np.char.add(np.char.add(h[:, 0], " "), h[:, 1]), " "),
                                            np.char.add(np.char.add(h[:, 2], " "), h[:, 3])),
                                np.char.add(" ", h[:, 4]))
        up_text = _card_text(ev.up[sl])
        out = []
        for hd, u, m, nq, w, t, lo, num, act in zip(
                hand_text.tolist(), up_text.tolist(), ev.multiplicity[sl].tolist(), ev.no_qualify[sl].tolist(),
                ev.win[sl].tolist(), ev.tie[sl].tolist(), ev.lose[sl].tolist(), ev.ev_raise_num[sl].tolist(),
                ev.action[sl].tolist()):
            g = gcd(num, den)
            frac = f"{num // g}/{den // g}" if den // g != 1 else f"{num // g}"
            out.append(f"{hd},{u},{m},{nq},{w},{t},{lo},{frac},{num / den:.9f},{('fold', 'raise', 'either')[act]}\n")
        yield "".join(out).encode()


def save_csv(ev: EVTable, path: Path) -> None:
    atomic_write_bytes(path, csv_chunks(ev))
