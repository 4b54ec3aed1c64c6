"""The exact value of seeing one partner's hand (one-partner collusion), slice by slice.

``collusion --partners 1`` samples situations; this module counts them all.  A situation is the
partner's five cards X, the up card u and the player's five cards P; the dealer's hole cards are
any four of the 41 cards left, C(41, 4) = 101,270 sets.  For a class (X, u) -- the partner's hand
up to suits against one up card, the classes of :mod:`enumerate.core.slices` -- one sweep of the
dead-card engine (``enumerate/core/_dead.pyx``, X out of play) gives every one of the 1,370,754
player hands of the 46 other cards its dealer counts (no qualifier, win, tie): the player hands
are the complete run of 5-sets in colex order, read by the engine's fast path.  Each hand's
values, in units of 1 / (scale * 101,270) antes (:func:`enumerate.protection.collusion.decision_values`):

* V, seeing X: the better of raising and folding over these hole-card sets;
* N, not seeing X: the normal game's optimal decision for (P, u) (the count table's), valued over
  the same hole-card sets.

Summed with the class's weight, V and N give the slice's exact expected results with and without
the partner's cards, and their difference the exact gain (never negative: V is the best decision
over the very sets N is valued on); the decisions that change and the raises are counted too.
A slice is every situation whose up card has one of the given ranks and whose **partner's** hand
is in one of the given categories; the whole game, all of them, is 6,319,573 classes.

A slice of up-card ranks alone (every partner hand; the whole game too) is counted instead by
rank patterns (the seen-hand game, :mod:`enumerate.boxes.seen_game`): the same sums to the last
integer in some 370 times fewer core-hours, each run checked against the count table (the
normal decisions' value over every partner is the normal game's).  This sweep stays for slices
by the partner's hand and as the independent witness the rank patterns are tested against.

Shards of :data:`SHARD` classes, on local threads or Dask workers, resumable from a verified
checkpoint folder (:mod:`enumerate.core.slices`): the sums are exact integers, the same however
the work is split.
"""
from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from enumerate.boxes.seen_game import (
    AS_PAIRS,
    BY_RANKS,
    COMMAND,
    COMPLETIONS,
    PLAYER_HANDS,
    SeenHandSlice,
    SeenSums,
    by_rank_patterns,
)
from enumerate.core import _dead, exact_game
from enumerate.core.engine import CountTable, canonical_map, hand_tables
from enumerate.core.exact_game import ShardedGame, SliceRun
from enumerate.core.parallel import interruptible
from enumerate.core.slices import ShardStore, Slice, classes_digest
from enumerate.protection.collusion import decision_values, optimal_decisions
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant import Variant
from evaluator.errors import ParameterError
from evaluator.ranking import hand_indices, hands_of_indices, strength_by_index

#: Classes per shard (one checkpoint file; about 6 core-seconds).
SHARD = 16
#: Core-seconds a class (partner's hand, up card) on the dead-card engine (docs/speed.md: 0.32):
#: what a run is projected from before it starts, never a figure of it.
CORE_SECONDS_PER_CLASS = 0.32
#: Bump when what a shard holds or how it is valued changes.
VERSION = 1
_SETS: tuple[np.ndarray, np.ndarray] | None = None
_NORMAL: dict[tuple[bytes, int], np.ndarray] = {}


def five_sets() -> tuple[np.ndarray, np.ndarray]:
    """(labels (1,370,754, 5) uint8, packed uint32): every 5-set of the labels 0..45 in colex order
    (the largest label varying slowest), made once a process."""
    global _SETS
    if _SETS is None:
        # a set's colex index does not depend on the deck it is drawn from: the first C(46, 5)
        # five-card hands in colex order are the 5-sets of 0..45
        labels = hands_of_indices(np.arange(math.comb(46, 5), dtype=np.int32))
        packed = (labels.astype(np.uint32) << (6 * np.arange(5, dtype=np.uint32))).sum(axis=1, dtype=np.uint32)
        _SETS = (np.ascontiguousarray(labels), np.ascontiguousarray(packed))
    return _SETS


@dataclass(frozen=True)
class Normal:
    """The normal game's optimal decisions (the count table's, per canonical hand and up column),
    what a worker needs to read N for any hand and up card."""

    optimal: np.ndarray          # (rows, 47) bool, rows the canonical hands of hand_tables()

    @cached_property
    def _key(self) -> bytes:
        """The decisions' digest, made once: the key of the per-up-card tables of this process."""
        return hashlib.sha256(self.optimal.tobytes()).digest()

    @classmethod
    def of(cls, table: CountTable, variant: Variant) -> "Normal":
        if not np.array_equal(hand_tables().canon_index, table.hand_indices):
            raise AssertionError("the count table's rows are not the canonical hands")
        return cls(np.ascontiguousarray(optimal_decisions(table, variant)))

    def by_hand(self, up: int) -> np.ndarray:
        """(2,598,960,) bool: the decision of every hand (by colex index) against ``up`` (False
        for the hands holding it), made once a process per up card: each hand's row is its
        canonical hand's, its column the up card relabelled as the hand is (the count table's up
        columns skip the hand's own cards)."""
        key = (self._key, up)
        if key not in _NORMAL:
            t = hand_tables()
            code, perms = canonical_map()
            row = code >> 5
            new_up = (up & ~3) | perms[code & 31, up & 3].astype(np.int32)
            below = (t.cards_by_index[t.canon_index][row] < new_up[:, None]).sum(axis=1, dtype=np.int32)
            holds = (t.cards_by_index == up).any(axis=1)
            out = self.optimal[row, np.where(holds, 0, new_up - below)]
            out[holds] = False
            _NORMAL[key] = out
        return _NORMAL[key]


def class_values(variant: Variant, normal: Normal, partner: tuple[int, ...], up: int,
                 threads: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For the class (partner's hand, up card), every player hand of the 46 other cards in colex
    order: (V, N, the decision seeing the partner (raise?), the normal decision), V and N in
    units of 1 / (scale * 101,270) antes."""
    unseen = np.array([c for c in range(52) if c not in partner and c != up], dtype=np.uint8)
    labels, sets = five_sets()
    cards = unseen[labels]
    index = hand_indices(cards)
    strength = np.ascontiguousarray(strength_by_index()[index], dtype=np.int16)
    n = sets.shape[0]
    nq, win, tie = np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int32)
    complete = np.array([-1, -1, -1, -1, -1, 0], dtype=np.int64)
    interruptible(lambda cancel: _dead.dead_counts_of(unseen, up, variant.qualifier.threshold, sets, complete,
                                                      np.arange(n, dtype=np.int32), strength, nq, win, tie, cancel,
                                                      threads))
    raise_v, fold = decision_values(RaiseValue.of(variant), strength, nq, win, tie, COMPLETIONS)
    seen = raise_v > fold
    usual = normal.by_hand(up)[index]
    return np.where(seen, raise_v, fold), np.where(usual, raise_v, fold), seen, usual


def value_shard(variant: Variant, normal: Normal, cards: np.ndarray, up: np.ndarray, weight: np.ndarray,
                threads: int = 1) -> SeenSums:
    """Every class of a shard, its player hands' sums weighted by the class (the seconds: the
    classes' own, after the once-a-process tables are made)."""
    five_sets()
    for u in set(up.tolist()):
        normal.by_hand(u)
    start = time.perf_counter()
    s = SeenSums(classes_digest(cards, up, weight))
    for partner, u, w in zip(cards.tolist(), up.tolist(), weight.tolist()):
        v, n, seen, usual = class_values(variant, normal, tuple(partner), u, threads)
        s.situations += w * PLAYER_HANDS
        s.seen += w * int(v.sum())
        s.normal += w * int(n.sum())
        s.seen_raised += w * int(seen.sum())
        s.normal_raised += w * int(usual.sum())
        s.changed += w * int((seen != usual).sum())
    s.seconds = time.perf_counter() - start
    return s


def _shard(variant: Variant, normal: Normal, cards: np.ndarray, up: np.ndarray, weight: np.ndarray) -> SeenSums:
    """One shard on one OpenMP thread (a pool of Python threads, or a Dask worker, runs shards side
    by side)."""
    return value_shard(variant, normal, cards, up, weight, threads=1)


#: The seen-hand game class by class (partner's hand, up card) on the dead-card engine: slices by
#: the partner's hand, and the independent path the rank patterns are tested against.
BY_CLASSES: ShardedGame[SeenSums] = ShardedGame(
    key="collusion_exact_checkpoint", command=COMMAND, unit="class", shard=SHARD, version=VERSION,
    classes=lambda sl: sl.classes(), work=_shard, parse=SeenSums.from_json, empty=SeenSums,
    share=lambda variant, counts, sl: (variant, Normal.of(counts, variant)),
    cost=lambda variant: CORE_SECONDS_PER_CLASS, by_rules=False, hands="partner hands", reads_counts=True)


def slice_run(variant: Variant, variant_text: str, sl: Slice, checkpoint: Path | ShardStore | None = None,
              pairs: bool = False) -> SliceRun[SeenSums, SeenHandSlice]:
    """The run of the slice ``sl`` (by rank patterns when it takes every partner hand, else class
    by class; ``pairs``: as two boxes, rank patterns only), its ``checkpoint`` folder read and
    verified before any work (:func:`enumerate.core.exact_game.open_run`); it reads the count
    table (pass it to ``run``)."""
    if pairs and not by_rank_patterns(sl):
        raise ParameterError("hands", "two boxes are counted by rank patterns: a slice of up ranks only")
    ranks = by_rank_patterns(sl)
    game = (AS_PAIRS if pairs else BY_RANKS) if ranks else BY_CLASSES
    return exact_game.open_run(game, variant, variant_text, sl, checkpoint,
                               lambda total, n: SeenHandSlice(variant.single_box(), sl, n, total,
                                                              total.seconds / n if total.seconds else None,
                                                              "rank_patterns" if ranks else "partner_classes"))


def run_slice(variant: Variant, variant_text: str, table: CountTable, sl: Slice, *,
              checkpoint: Path | ShardStore | None = None, scheduler: str | None = None, threads: int = 1,
              progress: Callable[[int], None] | None = None, pairs: bool = False) -> SeenHandSlice:
    """Every situation of the slice ``sl`` valued exactly, shard by shard, resuming from
    ``checkpoint`` and on the Dask ``scheduler`` when given (:func:`slice_run`)."""
    return slice_run(variant, variant_text, sl, checkpoint, pairs).run(table, scheduler=scheduler, threads=threads,
                                                                       progress=progress)
