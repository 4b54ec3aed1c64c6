"""Exhaustive count kernels (private; use :mod:`enumerate.core.engine`).

For a situation (player's 5 cards P, dealer up card u) we need, over the C(46,4) = 163,185
dealer hole-card sets H, how many dealer hands D = H + u are weaker than a threshold.
Inclusion-exclusion over the player's cards turns that into counts of *all* 5-card hands that
contain a small card set:

    #{D : u in D, D & P = {}, s(D) < x} = sum over S subset of P of (-1)^|S| N(S + u, x)

where N(T, x) is the number of 5-card hands containing T with strength below x.  Sweeping the
hands in increasing strength and keeping, for every card set T of 1..4 cards, the number of
hands seen so far that contain it, gives N(T, s(P)) at the moment P's strength class comes up.
The |S| = 4 term is a single hand (S + u) and is read from the strength table.  Ties are
counted directly from the (small) strength class of P.  Every thread sweeps with its own
counters and answers the queries of its share of the player hands, so there is no locking.
"""
import numpy as np
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from cython.parallel cimport prange, parallel, threadid
from evaluator._eval cimport binom_table, strength_table, N_HANDS, N_STRENGTHS
from evaluator._eval import strength_by_index
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED
from enumerate.core._combinatorics cimport popcount5, subsets_by_size
from enumerate.core._counters cimport N_COUNTERS, add_hand, count_below_with, insertion_bases

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)


# The counter layout, add_hand and the inclusion-exclusion read are enumerate/core/_counters.pxd.
cdef enum:
    N_SUBSETS = 31      # subsets of the player's 5 cards with at most 4 cards
    N_SMALL = 26        # of which at most 3 cards (looked up in the counters)

COUNTERS_PER_STATE = N_COUNTERS

# Subsets of {0..4} ordered by size; sign (-1)^size.
cdef int _SUBSET[31]
cdef int _SIGN[31]

def _init_subsets():
    cdef int masks[32]
    subsets_by_size(masks)
    for k in range(N_SUBSETS):               # the subsets of at most 4 cards come first
        _SUBSET[k] = masks[k]
        _SIGN[k] = -1 if popcount5(masks[k]) % 2 else 1

_init_subsets()


cdef void _subset_bases(const uint8_t* p, int32_t* base, int32_t* low) noexcept nogil:
    """For each subset S of the sorted cards p and each r = #{p_i < u}: the colex index of
    S + u is base[S, r] + C(u, low[S, r]) (the insertion bases of S, by how many of S's cards
    lie below u)."""
    cdef const int32_t* binom = binom_table()
    cdef int k, r, i, n, m, below
    cdef int q[4]
    cdef int32_t at[5]
    for k in range(N_SUBSETS):
        m = _SUBSET[k]
        n = 0
        for i in range(5):
            if (m >> i) & 1:
                q[n] = p[i]
                n += 1
        insertion_bases(q, n, binom, at)
        for r in range(6):
            below = popcount5(m & ((1 << r) - 1))
            base[k * 6 + r] = at[below]
            low[k * 6 + r] = below + 1


cdef inline int32_t _count_below(const int32_t* cnt, const int32_t* base, const int32_t* low,
                                 int u, int r, int threshold) noexcept nogil:
    """#{dealer hands D : u in D, D disjoint from P, strength(D) < threshold}, given counters
    `cnt` holding, for each 1..4-card set, the number of hands below `threshold` containing it."""
    cdef const int32_t* binom = binom_table()
    cdef const int16_t* strength = strength_table()
    cdef int k, i
    cdef int32_t total = 0
    cdef const int32_t* bu = binom + u * 6
    for k in range(N_SMALL):
        i = k * 6 + r
        total += _SIGN[k] * cnt[base[i] + bu[low[i]]]
    for k in range(N_SMALL, N_SUBSETS):
        i = k * 6 + r
        total += strength[base[i] + bu[low[i]]] < threshold
    return total


cdef inline int _rank_of_card(const uint8_t* p, int u) noexcept nogil:
    return (p[0] < u) + (p[1] < u) + (p[2] < u) + (p[3] < u) + (p[4] < u)


cdef void _query_lt_and_ties(const int32_t* cnt, const uint8_t* p, int s,
                             const uint64_t* class_masks, const uint8_t* class_cards,
                             Py_ssize_t n_class, int32_t* lt_row, int32_t* tie_row) noexcept nogil:
    """For player hand p (sorted, strength s) and every up card: dealer hands below s
    (lt_row) and of exactly strength s (tie_row).  Rows are indexed by card 0..51."""
    cdef int32_t base[31 * 6]
    cdef int32_t low[31 * 6]
    cdef int u, i
    cdef Py_ssize_t h
    cdef uint64_t pmask = 0
    _subset_bases(p, base, low)
    for i in range(5):
        pmask |= (<uint64_t>1) << p[i]
    for u in range(52):
        tie_row[u] = 0
        if (pmask >> u) & 1:
            lt_row[u] = 0
        else:
            lt_row[u] = _count_below(cnt, base, low, u, _rank_of_card(p, u), s)
    for h in range(n_class):
        if (class_masks[h] & pmask) == 0:
            for i in range(5):
                tie_row[class_cards[h * 5 + i]] += 1


def prepare_order(const int16_t[::1] strength_by_index, const uint8_t[:, ::1] cards_by_index):
    """Hands sorted by strength (counting sort, stable in colex index): their sorted cards,
    their card masks, and the start of each strength class."""
    cdef Py_ssize_t n = strength_by_index.shape[0], i, j
    cdef int s, k
    start_np = np.zeros(N_STRENGTHS + 1, dtype=np.int64)
    cdef int64_t[::1] start = start_np
    for i in range(n):
        start[strength_by_index[i] + 1] += 1
    for s in range(N_STRENGTHS):
        start[s + 1] += start[s]
    fill_np = start_np[:-1].copy()
    cdef int64_t[::1] fill = fill_np
    cards_np = np.empty((n, 5), dtype=np.uint8)
    masks_np = np.empty(n, dtype=np.uint64)
    cdef uint8_t[:, ::1] cards = cards_np
    cdef uint64_t[::1] masks = masks_np
    cdef uint64_t m
    with nogil:
        for i in range(n):
            j = fill[strength_by_index[i]]
            fill[strength_by_index[i]] += 1
            m = 0
            for k in range(5):
                cards[j, k] = cards_by_index[i, k]
                m |= (<uint64_t>1) << cards_by_index[i, k]
            masks[j] = m
    return cards_np, masks_np, start_np


def sweep(int32_t[:, ::1] states, int64_t class_lo, int64_t class_hi,
          const uint8_t[:, ::1] sorted_cards, const uint64_t[::1] sorted_masks,
          const int64_t[::1] class_start,
          const uint8_t[:, ::1] canon_cards, const int64_t[::1] canon_start,
          int32_t[:, ::1] lt, int32_t[:, ::1] tie):
    """Advance every thread's counters over strength classes [class_lo, class_hi).

    Thread t owns states[t] and answers the queries of the canonical player hands whose
    position (in strength order) is congruent to t modulo the number of threads.  Before a
    class is added, the counters hold exactly the hands of lower strength.
    """
    strength_by_index()                     # the kernels read the strength of every hand
    cdef int n_threads = states.shape[0]
    cdef int t
    cdef int64_t s, j, h
    cdef const int32_t* binom = binom_table()
    for t in prange(n_threads, nogil=True, schedule="static", num_threads=n_threads):
        for s in range(class_lo, class_hi):
            j = canon_start[s]
            while j < canon_start[s + 1]:
                if j % n_threads == t:
                    _query_lt_and_ties(&states[t, 0], &canon_cards[j, 0], <int>s,
                                       &sorted_masks[class_start[s]], &sorted_cards[class_start[s], 0],
                                       class_start[s + 1] - class_start[s], &lt[j, 0], &tie[j, 0])
                j = j + 1
            h = class_start[s]
            while h < class_start[s + 1]:
                add_hand(&states[t, 0], &sorted_cards[h, 0], binom)
                h = h + 1


cdef void _query_below(const int32_t* cnt, const uint8_t* p, int threshold,
                       int32_t* out_row) noexcept nogil:
    cdef int32_t base[31 * 6]
    cdef int32_t low[31 * 6]
    cdef int u
    cdef uint64_t pmask = 0
    _subset_bases(p, base, low)
    for u in range(5):
        pmask |= (<uint64_t>1) << p[u]
    for u in range(52):
        if (pmask >> u) & 1:
            out_row[u] = 0
        else:
            out_row[u] = _count_below(cnt, base, low, u, _rank_of_card(p, u), threshold)


def count_below_all(const int32_t[::1] state, int threshold, const uint8_t[:, ::1] canon_cards,
                    int64_t lo, int64_t hi, int32_t[:, ::1] out, int n_threads):
    """For canonical hands lo..hi-1 and every up card: dealer hands below `threshold`, given
    counters that hold exactly the hands below `threshold`."""
    strength_by_index()                     # the kernels read the strength of every hand
    cdef int64_t j
    for j in prange(lo, hi, nogil=True, schedule="dynamic", chunksize=64, num_threads=n_threads):
        _query_below(&state[0], &canon_cards[j, 0], threshold, &out[j, 0])


def hands_below_with(const int32_t[::1] state, int threshold, const uint8_t[::1] with_cards,
                     const uint8_t[::1] avoid):
    """Hands below ``threshold`` (the counters ``state`` hold exactly those) that contain every
    card of ``with_cards`` (1..5 cards) and none of ``avoid`` (at most 16 cards): the plain
    inclusion-exclusion read of ``_counters.pxd``, which the kernels' fast reads must equal."""
    strength_by_index()
    if not 1 <= with_cards.shape[0] <= 5 or avoid.shape[0] > 16:
        raise ValueError("1..5 cards to contain and at most 16 to avoid")
    if set(with_cards) & set(avoid) or len(set(with_cards)) < with_cards.shape[0] or len(set(avoid)) < avoid.shape[0]:
        raise ValueError("the cards to contain and to avoid must be distinct")
    cdef const uint8_t* none = NULL
    return count_below_with(&state[0], strength_table(), binom_table(), &with_cards[0], with_cards.shape[0],
                            &avoid[0] if avoid.shape[0] else none, avoid.shape[0], threshold)


def add_hands(int32_t[::1] state, const uint8_t[:, ::1] cards):
    """Count the sorted hands ``cards`` into the counters ``state`` (for tests of the read)."""
    cdef Py_ssize_t h
    for h in range(cards.shape[0]):
        add_hand(&state[0], &cards[h, 0], binom_table())


def canonical_mask(const uint8_t[:, ::1] cards_by_index):
    """1 for hands whose per-suit rank masks are non-increasing in suit order (one
    representative per suit-relabelling class), with the class size 24 / prod(mult!)."""
    cdef Py_ssize_t n = cards_by_index.shape[0], i
    cdef int k, a, b
    cdef int m[4]
    out_np = np.zeros(n, dtype=np.int8)
    cdef int8_t[::1] out = out_np
    cdef int orbit, run
    with nogil:
        for i in range(n):
            m[0] = 0; m[1] = 0; m[2] = 0; m[3] = 0
            for k in range(5):
                m[cards_by_index[i, k] & 3] |= 1 << (cards_by_index[i, k] >> 2)
            if m[0] >= m[1] and m[1] >= m[2] and m[2] >= m[3]:
                # orbit size: 24 divided by the factorials of the runs of equal masks
                orbit = 24
                run = 1
                for k in range(1, 4):
                    if m[k] == m[k - 1]:
                        run += 1
                        orbit = orbit // run
                    else:
                        run = 1
                out[i] = <int8_t>orbit
    return out_np


def canonical_map(const uint8_t[:, ::1] cards_by_index, const int32_t[::1] row_of_index,
                  int32_t[::1] out, uint8_t[:, ::1] perms):
    """For every hand (colex index): row of its canonical hand * 32 + the index of the suit
    relabelling that maps it there (perms[k, old suit] = new suit, 24 rows filled here)."""
    cdef int k = 0, a, b, c, d
    cdef int code[256]
    for a in range(4):
        for b in range(4):
            for c in range(4):
                for d in range(4):
                    if a != b and a != c and a != d and b != c and b != d and c != d:
                        perms[k, 0] = a
                        perms[k, 1] = b
                        perms[k, 2] = c
                        perms[k, 3] = d
                        code[a * 64 + b * 16 + c * 4 + d] = k
                        k += 1
    cdef Py_ssize_t i, n = cards_by_index.shape[0]
    cdef int m[4]
    cdef int order[4]
    cdef int new_suit[4]
    cdef int x, y, tmp, card, idx
    cdef int cs[5]
    cdef const int32_t* binom = binom_table()
    with nogil:
        for i in range(n):
            m[0] = 0
            m[1] = 0
            m[2] = 0
            m[3] = 0
            for x in range(5):
                m[cards_by_index[i, x] & 3] |= 1 << (cards_by_index[i, x] >> 2)
            for x in range(4):
                order[x] = x
            for x in range(4):                   # sort suits by (-mask, suit)
                for y in range(3 - x):
                    if m[order[y]] < m[order[y + 1]]:
                        tmp = order[y]
                        order[y] = order[y + 1]
                        order[y + 1] = tmp
            for x in range(4):
                new_suit[order[x]] = x
            for x in range(5):
                card = cards_by_index[i, x]
                cs[x] = (card & ~3) | new_suit[card & 3]
            # sort the relabelled cards and take their colex index
            for x in range(5):
                for y in range(4 - x):
                    if cs[y] > cs[y + 1]:
                        tmp = cs[y]
                        cs[y] = cs[y + 1]
                        cs[y + 1] = tmp
            idx = 0
            for x in range(5):
                idx += binom[cs[x] * 6 + x + 1]
            out[i] = row_of_index[idx] * 32 + code[new_suit[0] * 64 + new_suit[1] * 16 + new_suit[2] * 4 + new_suit[3]]
