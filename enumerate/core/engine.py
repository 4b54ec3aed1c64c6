"""The exhaustive engine: exact dealer-outcome counts for every situation.

A *situation* is (player's five cards, dealer's up card).  For each of them the engine counts,
over all C(46, 4) = 163,185 dealer hole-card sets, how often

* the dealer does not qualify (``no_qualify``),
* the dealer qualifies and the player's hand ranks higher (``win``),
* the dealer qualifies and the hands are exactly equal (``tie``),
* the dealer qualifies and ranks higher (``lose`` = 163,185 minus the other three).

Player hands are reduced by suit relabelling: the engine stores one canonical hand per class
(134,459 classes) with the class size as its ``weight``, and all 47 up cards for each, so the
table expands exactly to all 2,598,960 x 47 = 122,151,120 situations.  All counts are integers.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

import numpy as np

from enumerate.core import _engine
from evaluator.errors import StudoddsError
from evaluator.ranking import N_STRENGTHS, hand_indices, hands_of_indices, strength_by_index

#: Dealer hole-card sets per situation: C(46, 4).
COMPLETIONS: Final = 163_185
#: Bump when the meaning or layout of the counts changes; part of every cache key.
ENGINE_VERSION = 1


@dataclass(frozen=True)
class CountTable:
    """Exact counts for every situation, over canonical player hands.

    Arrays (row ``i`` is the canonical player hand ``hands[i]``, column ``j`` the ``j``-th card
    not in it, in increasing card order, i.e. the up card ``up[i, j]``):

    * ``hands``: (n, 5) uint8 sorted cards of the canonical player hand; rows in colex order.
    * ``weight``: (n,) int64 number of player hands in the suit class (1..24).
    * ``strength``: (n,) int16 player hand strength 0..7461.
    * ``up``: (n, 47) uint8 the up card.
    * ``no_qualify``, ``win``, ``tie``: (n, 47) uint32 counts out of 163,185.

    Every array is read-only, whether freshly computed or loaded from the cache.  Two tables
    are equal when their qualifier and every array are equal.  What the features derive from a
    table (a fixed strategy's sums, a strategy chart, the draws' dead-card counts) is kept with
    it by each feature's :class:`~enumerate.core.memo.TableMemo`, so a batch computes each once.
    """

    qualifier: int
    hands: np.ndarray
    weight: np.ndarray
    strength: np.ndarray
    up: np.ndarray
    no_qualify: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    _memos: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    _ARRAYS = ("hands", "weight", "strength", "up", "no_qualify", "win", "tie")

    def __post_init__(self) -> None:
        for name in self._ARRAYS:
            a = getattr(self, name)
            if a.flags.writeable:
                a = a.view()
                a.flags.writeable = False
                object.__setattr__(self, name, a)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CountTable):
            return NotImplemented
        return self.qualifier == other.qualifier and all(
            np.array_equal(getattr(self, k), getattr(other, k)) for k in self._ARRAYS)

    def __hash__(self) -> int:
        return hash((self.qualifier, self.hands.shape))

    @property
    def lose(self) -> np.ndarray:
        """Dealer qualifies and ranks higher (int64 array, same shape as ``win``)."""
        return (COMPLETIONS - self.no_qualify.astype(np.int64) - self.win - self.tie)

    @cached_property
    def hand_indices(self) -> np.ndarray:
        """Colex index of each row's canonical hand (increasing, for searchsorted)."""
        return hand_indices(self.hands)

    @property
    def n_situations(self) -> int:
        """Number of concrete situations the table stands for: 122,151,120."""
        return int(self.weight.sum()) * self.up.shape[1]


class _HandTables:
    """Per-process tables derived from the evaluator (built once, about 0.2 s)."""

    def __init__(self) -> None:
        indices = np.arange(strength_by_index().shape[0], dtype=np.int32)
        self.cards_by_index = hands_of_indices(indices)
        self.sorted_cards, self.sorted_masks, self.class_start = _engine.prepare_order(
            strength_by_index(), self.cards_by_index
        )
        orbit = _engine.canonical_mask(self.cards_by_index)
        canon = np.flatnonzero(orbit).astype(np.int32)          # colex order
        self.canon_index = canon
        self.canon_weight = orbit[canon].astype(np.int64)
        self.canon_strength = strength_by_index()[canon]
        # the sweep visits canonical hands in strength order
        self.by_strength = np.argsort(self.canon_strength, kind="stable")
        self.canon_cards_by_strength = np.ascontiguousarray(self.cards_by_index[canon[self.by_strength]])
        self.canon_start = np.searchsorted(
            self.canon_strength[self.by_strength], np.arange(N_STRENGTHS + 1)
        ).astype(np.int64)


_TABLES: _HandTables | None = None


def hand_tables() -> _HandTables:
    global _TABLES
    if _TABLES is None:
        _TABLES = _HandTables()
    return _TABLES


_CANON: tuple[np.ndarray, np.ndarray] | None = None


def canonical_map() -> tuple[np.ndarray, np.ndarray]:
    """Every hand's canonical form, made once a process: (by colex index, the row of its
    canonical hand in :func:`hand_tables` ``canon_index`` * 32 + the relabelling that maps it
    there; the 24 relabellings, ``perms[k, old suit] = new suit``).  Suits are relabelled by
    descending rank mask, ties by suit number: the count table's own canonical hands."""
    global _CANON
    if _CANON is None:
        t = hand_tables()
        row_of_index = np.full(t.cards_by_index.shape[0], -1, dtype=np.int32)
        row_of_index[t.canon_index] = np.arange(t.canon_index.shape[0], dtype=np.int32)
        out = np.empty(t.cards_by_index.shape[0], dtype=np.int32)
        perms = np.zeros((24, 4), dtype=np.uint8)
        _engine.canonical_map(t.cards_by_index, row_of_index, out, perms)
        _CANON = (out, perms)
    return _CANON


def compute_counts(
    qualifier: int,
    threads: int = 1,
    progress: Callable[[int], None] | None = None,
    chunks: int = 64,
) -> CountTable:
    """Count every situation exactly for a dealer qualifier threshold.

    ``qualifier`` is a hand strength: the dealer qualifies iff its strength is >= qualifier
    (0 means the dealer always qualifies).  ``threads``: see :mod:`enumerate.core.parallel`.
    ``progress`` is called with the number of canonical player hands finished since the previous
    call (twice the number of hands in all).
    """
    if not 0 <= qualifier < N_STRENGTHS:
        raise StudoddsError(f"qualifier strength {qualifier} is outside 0..{N_STRENGTHS - 1}")
    t = hand_tables()
    n_threads = threads
    n = t.canon_index.shape[0]
    lt = np.zeros((n, 52), dtype=np.int32)
    tie = np.zeros((n, 52), dtype=np.int32)
    below_q = np.zeros((n, 52), dtype=np.int32)
    states = np.zeros((n_threads, _engine.COUNTERS_PER_STATE), dtype=np.int32)
    tick = progress or (lambda _n: None)

    bounds = sweep_bounds(qualifier, chunks)
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        if lo == qualifier and qualifier > 0:
            _below_threshold(states[0], qualifier, t.canon_cards_by_strength, below_q, n_threads, tick)
        _engine.sweep(states, int(lo), int(hi), t.sorted_cards, t.sorted_masks, t.class_start,
                      t.canon_cards_by_strength, t.canon_start, lt, tie)
        tick(int(t.canon_start[hi] - t.canon_start[lo]))
    if qualifier == 0:
        tick(n)

    return _assemble(qualifier, t, lt, tie, below_q)


def sweep_bounds(qualifier: int, chunks: int = 64) -> np.ndarray:
    """The strength classes where a sweep stops: about ``chunks`` equal shares of the canonical
    hands (for the progress bar), and the qualifier (to count, for every situation, the dealer
    hands below it)."""
    t = hand_tables()
    n = t.canon_index.shape[0]
    return np.unique(np.concatenate([
        np.searchsorted(t.canon_start, np.linspace(0, n, chunks + 1)), [0, qualifier, N_STRENGTHS]
    ]))


def _below_threshold(state, threshold, cards, out, n_threads, tick, pieces: int = 16) -> None:
    n = cards.shape[0]
    edges = np.linspace(0, n, pieces + 1).astype(np.int64)
    for lo, hi in zip(edges[:-1], edges[1:]):
        _engine.count_below_all(state, threshold, cards, int(lo), int(hi), out, n_threads)
        tick(int(hi - lo))


def _assemble(qualifier: int, t: _HandTables, lt, tie, below_q) -> CountTable:
    """From per-strength-order rows of (below player, equal, below qualifier) to the table."""
    order = t.by_strength                      # row k of the sweep is canonical hand order[k]
    n = order.shape[0]
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.arange(n)
    hands = t.cards_by_index[t.canon_index]
    strength = t.canon_strength.astype(np.int16)
    # the 47 up cards of each row, in increasing card order
    all_cards = np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52))
    in_hand = np.zeros((n, 52), dtype=bool)
    np.put_along_axis(in_hand, hands.astype(np.int64), True, axis=1)
    up = all_cards[~in_hand].reshape(n, 47)
    keep = ~in_hand

    def pick(a):
        return a[inverse][keep].reshape(n, 47)

    lt_u, tie_u, nq_u = pick(lt), pick(tie), pick(below_q)
    qualifies = (strength >= qualifier)[:, None]
    # below the qualifier the player can neither beat nor tie a qualifying dealer
    win = np.where(qualifies, lt_u - nq_u, 0)
    tie_q = np.where(qualifies, tie_u, 0)
    return CountTable(
        qualifier=qualifier,
        hands=hands,
        weight=t.canon_weight,
        strength=strength,
        up=up,
        no_qualify=nq_u.astype(np.uint32),
        win=win.astype(np.uint32),
        tie=tie_q.astype(np.uint32),
    )
