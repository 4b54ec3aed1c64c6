"""The strategy of a whole game counted by rank patterns, kept compactly: each situation's best draw.

The rank-pattern kernel decides every situation of a group (a player rank pattern against an up
rank) -- one hand per orbit of the suits other than the up card's, in the order
:func:`enumerate.draws.switch_ranks.group_situations` lists them -- and its best action is a
switch mask over the hand sorted in the kernel's frame (the up card's suit made 0) or 32, buying
a sixth card.  A shard keeps its groups' best actions, one byte a situation class, compressed
(zlib, base64: some 650 KB for a whole game of 5.9 million classes), with each group's number of
classes; a whole game keeps every shard's, by the shard's digest.  That is what plays the
certified strategy on shuffled decks without counting the game again: the draw of a dealt hand
is its class's byte.  Dealt hands paid at once (``[ante_pays] instant_payout``) have no byte --
they are never drawn to.

Read back, each shard's bytes are checked: they decode, each is an action (0-32) and they number
the classes the shard says its groups hold (:func:`decode`, ValueError otherwise).
"""
from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np

#: The action code of buying a sixth card (a switch mask is 0-31).
BUY = 32
#: The most a shard's bytes may decode to (a guard against a forged blob: 64 groups' classes).
MAX_BYTES = 1 << 20


def encode(best: Sequence[np.ndarray]) -> list[Any]:
    """A shard's kept strategy: [each group's number of classes, their best actions as one zlib
    and base64 string]."""
    data = np.concatenate(list(best)).astype(np.int8).tobytes() if len(best) else b""
    return [[int(b.shape[0]) for b in best], base64.b64encode(zlib.compress(data, 9)).decode("ascii")]


def decode(kept: Any, groups: int | None = None) -> tuple[list[int], np.ndarray]:
    """A kept shard strategy's classes per group and best actions (int8), checked (``groups``:
    how many groups it must cover, when known); ValueError if it is not one."""
    if not isinstance(kept, list) or len(kept) != 2 or not isinstance(kept[0], list) or not isinstance(kept[1], str):
        raise ValueError("a kept strategy is [classes per group, their best actions]")
    counts = kept[0]
    if not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 1 << 16 for c in counts):
        raise ValueError("a kept strategy's classes per group are not counts")
    if groups is not None and len(counts) != groups:
        raise ValueError(f"a kept strategy covers {len(counts)} groups, not its shard's {groups}")
    try:
        stream = zlib.decompressobj()
        raw = stream.decompress(base64.b64decode(kept[1], validate=True), MAX_BYTES + 1)
    except (binascii.Error, zlib.error, ValueError):
        raise ValueError("a kept strategy's best actions do not decode") from None
    if not stream.eof or stream.unused_data or stream.unconsumed_tail:      # cut short, or more than one stream
        raise ValueError("a kept strategy's best actions do not decode")
    if len(raw) > MAX_BYTES or len(raw) != sum(counts):
        raise ValueError("a kept strategy's best actions are not one a class")
    best = np.frombuffer(raw, dtype=np.int8)
    if best.size and (best.min() < 0 or best.max() > BUY):
        raise ValueError("a kept strategy holds a byte that is no action")
    return counts, best
