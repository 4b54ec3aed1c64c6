"""Lookup-table 5-card evaluator (private; use :mod:`evaluator.ranking`).

The tables are generated here, deterministically: every 5-card hand gets a sort key
(category, then ranks in order of significance) and the 7,462 distinct keys are densely ranked
0..7461.  The small tables the evaluator itself reads (7,462 rank patterns) are made when the
module is imported, in well under a millisecond; the strength of all 2,598,960 hands by colex
index (:func:`strength_by_index`, about 10 ms) the first time it is asked for, so a command
that never needs it (a warm ``analyze``) never makes it.  Nothing large is shipped or cached.
"""
import numpy as np
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t
from cython.parallel cimport prange
from evaluator._buildinfo cimport STUDODDS_CYTHON_VERSION, STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)
#: The Cython version that generated this module's C code.
CYTHON_VERSION = STUDODDS_CYTHON_VERSION.decode()


from evaluator._rank_keys import RANK_KEYS

cdef int32_t _binom[53 * 6]
cdef const int16_t[::1] _strength_mv
cdef const int16_t[::1] _category_mv
cdef const int16_t* _strength = NULL
cdef const int16_t* _category = NULL

# Order-independent evaluation (no sort): per card, its rank key, rank bit and suit bit.  A
# hand is a flush iff the AND of its suit bits is non-zero; flushes are ranked by the OR of
# their rank bits, every other hand by the sum of its rank keys (distinct for every multiset
# of five ranks, see gen_rank_keys.py).
cdef int32_t _card_key[52]
cdef int32_t _card_rank_bit[52]
cdef int32_t _card_suit_bit[52]
cdef const int16_t[::1] _by_key_mv
cdef const int16_t[::1] _by_flush_mv
cdef const int16_t* _by_key = NULL
cdef const int16_t* _by_flush = NULL


cdef const int32_t* binom_table() noexcept nogil:
    return _binom


cdef const int16_t* strength_table() noexcept nogil:
    return _strength


cdef const int16_t* category_table() noexcept nogil:
    return _category


cdef void key_tables(const int32_t** card_key, const int32_t** card_rank_bit,
                     const int32_t** card_suit_bit, const int16_t** by_key,
                     const int16_t** by_flush) noexcept nogil:
    card_key[0] = _card_key
    card_rank_bit[0] = _card_rank_bit
    card_suit_bit[0] = _card_suit_bit
    by_key[0] = _by_key
    by_flush[0] = _by_flush


cdef inline void _sort5(int* c) noexcept nogil:
    # Branch-free sorting network (9 compare-exchanges) on five values.
    cdef int t
    if c[0] > c[1]: t = c[0]; c[0] = c[1]; c[1] = t
    if c[3] > c[4]: t = c[3]; c[3] = c[4]; c[4] = t
    if c[2] > c[4]: t = c[2]; c[2] = c[4]; c[4] = t
    if c[2] > c[3]: t = c[2]; c[2] = c[3]; c[3] = t
    if c[0] > c[3]: t = c[0]; c[0] = c[3]; c[3] = t
    if c[0] > c[2]: t = c[0]; c[0] = c[2]; c[2] = t
    if c[1] > c[4]: t = c[1]; c[1] = c[4]; c[4] = t
    if c[1] > c[3]: t = c[1]; c[1] = c[3]; c[3] = t
    if c[1] > c[2]: t = c[1]; c[1] = c[2]; c[2] = t


cdef void sort5(int* c) noexcept nogil:
    _sort5(c)


cdef int32_t hand_index5(int a, int b, int c, int d, int e) noexcept nogil:
    cdef int v[5]
    v[0] = a; v[1] = b; v[2] = c; v[3] = d; v[4] = e
    _sort5(v)
    return (_binom[v[0] * 6 + 1] + _binom[v[1] * 6 + 2] + _binom[v[2] * 6 + 3]
            + _binom[v[3] * 6 + 4] + _binom[v[4] * 6 + 5])


cdef int16_t eval5(int a, int b, int c, int d, int e) noexcept nogil:
    if _card_suit_bit[a] & _card_suit_bit[b] & _card_suit_bit[c] & _card_suit_bit[d] & _card_suit_bit[e]:
        return _by_flush[_card_rank_bit[a] | _card_rank_bit[b] | _card_rank_bit[c]
                         | _card_rank_bit[d] | _card_rank_bit[e]]
    return _by_key[_card_key[a] + _card_key[b] + _card_key[c] + _card_key[d] + _card_key[e]]


cdef int32_t _sort_key(int* cards) noexcept nogil:
    """Key increasing with poker order: category * 13**5 + significant ranks in base 13."""
    cdef int counts[13]
    cdef int r, i, k, n_distinct = 0, flush = 1, straight = 0, top = 0, cat
    cdef int digits[5]
    cdef int nd = 0
    cdef int32_t key = 0
    for r in range(13):
        counts[r] = 0
    for i in range(5):
        counts[cards[i] >> 2] += 1
        if (cards[i] & 3) != (cards[0] & 3):
            flush = 0
    for r in range(13):
        if counts[r]:
            n_distinct += 1
    if n_distinct == 5:
        # five distinct ranks: straight if they are consecutive, or the wheel A-2-3-4-5
        for r in range(12, 3, -1):
            if counts[r] and counts[r - 1] and counts[r - 2] and counts[r - 3] and counts[r - 4]:
                straight = 1
                top = r
                break
        if not straight and counts[12] and counts[0] and counts[1] and counts[2] and counts[3]:
            straight = 1
            top = 3
    # ranks ordered by (count desc, rank desc)
    for k in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == k:
                digits[nd] = r
                nd += 1
    if straight:
        nd = 1
        digits[0] = top
    if straight and flush:
        cat = ROYAL_FLUSH if top == 12 else STRAIGHT_FLUSH
    elif counts[digits[0]] == 4:
        cat = QUADS
    elif counts[digits[0]] == 3 and n_distinct == 2:
        cat = FULL_HOUSE
    elif flush:
        cat = FLUSH
    elif straight:
        cat = STRAIGHT
    elif counts[digits[0]] == 3:
        cat = TRIPS
    elif n_distinct == 3:
        cat = TWO_PAIR
    elif n_distinct == 4:
        cat = ONE_PAIR
    else:
        cat = HIGH_CARD
    # royal flush is ranked as a straight flush (it is simply the top one)
    key = (STRAIGHT_FLUSH if cat == ROYAL_FLUSH else cat)
    for i in range(5):
        key = key * 13 + (digits[i] if i < nd else 0)
    return key * 16 + cat


def _pattern_hands():
    """One hand for each of the 7,462 rank patterns: every multiset of five ranks (each at most
    four times) dealt in mixed suits, and every set of five distinct ranks dealt suited."""
    out_np = np.empty((N_STRENGTHS, 5), dtype=np.int32)
    cdef int32_t[:, ::1] out = out_np
    cdef int a, b, c, d, e, i, k, n = 0
    cdef int ranks[5]
    cdef int copies[13]
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        if a == e:                       # five of one rank
                            continue
                        ranks[0] = a; ranks[1] = b; ranks[2] = c; ranks[3] = d; ranks[4] = e
                        if a < b < c < d < e:            # distinct ranks: the suited version ...
                            for i in range(5):
                                out[n, i] = ranks[i] * 4
                            n += 1
                        for k in range(13):
                            copies[k] = 0
                        for i in range(5):
                            out[n, i] = ranks[i] * 4 + copies[ranks[i]]   # k-th copy of a rank in suit k
                            copies[ranks[i]] += 1
                        if a < b < c < d < e:
                            out[n, 0] = a * 4 + 1        # ... and one with the flush broken
                        n += 1
    if n != N_STRENGTHS:
        raise RuntimeError("evaluator table generation is broken: rank patterns are not 7,462 hands")
    return out_np


def _build_tables(rank_keys):
    """Fill the binomial, key-sum, flush and category tables.  Deterministic.

    The 7,462 rank patterns are sorted by their poker key and densely ranked; the key-sum and
    flush tables map each pattern to its strength.
    """
    global _strength, _category, _strength_mv, _category_mv
    global _by_key, _by_flush, _by_key_mv, _by_flush_mv
    cdef int n, k, a, b, c, d, e, idx, i
    cdef int cards[5]
    for n in range(53):
        for k in range(6):
            _binom[n * 6 + k] = 0
        _binom[n * 6] = 1
        for k in range(1, 6):
            if n > 0:
                _binom[n * 6 + k] = _binom[(n - 1) * 6 + k - 1] + _binom[(n - 1) * 6 + k]
    for k in range(52):
        _card_key[k] = rank_keys[k >> 2]
        _card_rank_bit[k] = 1 << (k >> 2)
        _card_suit_bit[k] = 1 << (k & 3)

    patterns_np = _pattern_hands()
    cdef int32_t[:, ::1] patterns = patterns_np
    cdef Py_ssize_t n_patterns = patterns.shape[0]
    keys_np = np.empty(n_patterns, dtype=np.int64)
    cdef int64_t[::1] keys = keys_np
    for i in range(n_patterns):
        for k in range(5):
            cards[k] = patterns[i, k]
        keys[i] = _sort_key(cards)
    order = np.argsort(keys_np >> 4, kind="stable")
    ranked_np = np.empty(n_patterns, dtype=np.int16)
    ranked_np[order] = np.arange(n_patterns, dtype=np.int16)
    sorted_keys = np.sort(keys_np >> 4)                  # (not np.unique: it imports numpy.ma)
    if n_patterns != N_STRENGTHS or not (sorted_keys[1:] != sorted_keys[:-1]).all():
        raise RuntimeError("evaluator table generation is broken: rank patterns are not 7,462 distinct hands")
    cdef int16_t[::1] ranked = ranked_np

    by_key_np = np.full(4 * rank_keys[12] + rank_keys[11] + 1, -1, dtype=np.int16)
    by_flush_np = np.full(1 << 13, -1, dtype=np.int16)
    category_np = np.empty(N_STRENGTHS, dtype=np.int16)
    representative_np = np.empty((N_STRENGTHS, 5), dtype=np.uint8)
    cdef int16_t[::1] bk = by_key_np
    cdef int16_t[::1] bf = by_flush_np
    cdef int16_t[::1] ct = category_np
    cdef uint8_t[:, ::1] rep = representative_np
    for i in range(n_patterns):
        a = patterns[i, 0]; b = patterns[i, 1]; c = patterns[i, 2]; d = patterns[i, 3]; e = patterns[i, 4]
        if (_card_suit_bit[a] & _card_suit_bit[b] & _card_suit_bit[c] & _card_suit_bit[d] & _card_suit_bit[e]):
            bf[_card_rank_bit[a] | _card_rank_bit[b] | _card_rank_bit[c] | _card_rank_bit[d]
               | _card_rank_bit[e]] = ranked[i]
        else:
            bk[_card_key[a] + _card_key[b] + _card_key[c] + _card_key[d] + _card_key[e]] = ranked[i]
        ct[ranked[i]] = <int16_t>(keys[i] & 15)
        for k in range(5):
            rep[ranked[i], k] = patterns[i, k]
    _by_key_mv = by_key_np
    _by_flush_mv = by_flush_np
    _by_key = &_by_key_mv[0]
    _by_flush = &_by_flush_mv[0]

    for arr in (category_np, by_key_np, by_flush_np, representative_np):
        arr.flags.writeable = False
    _category_mv = category_np
    _category = &_category_mv[0]
    return category_np, representative_np


_STRENGTH_BY_INDEX = None


def strength_by_index():
    """Strength of every hand by its colex index (read-only int16, length 2,598,960), made on
    the first call through the evaluator itself (about 10 ms) and kept."""
    global _STRENGTH_BY_INDEX, _strength, _strength_mv
    if _STRENGTH_BY_INDEX is not None:
        return _STRENGTH_BY_INDEX
    cdef int a, b, c, d, e, idx
    strength_np = np.empty(N_HANDS, dtype=np.int16)
    cdef int16_t[::1] st = strength_np
    idx = 0
    with nogil:
        for e in range(4, 52):
            for d in range(3, e):
                for c in range(2, d):
                    for b in range(1, c):
                        for a in range(b):
                            st[idx] = eval5(a, b, c, d, e)
                            idx += 1
    if idx != N_HANDS or strength_np.min() < 0:
        raise RuntimeError("evaluator table generation is broken: a hand has no strength")
    strength_np.flags.writeable = False
    _strength_mv = strength_np
    _strength = &_strength_mv[0]
    _STRENGTH_BY_INDEX = strength_np
    return strength_np


# REPRESENTATIVE_BY_STRENGTH[s]: five cards (rank*4+suit) of one hand of strength s
CATEGORY_BY_STRENGTH, REPRESENTATIVE_BY_STRENGTH = _build_tables(RANK_KEYS)


def binomial(int n, int k):
    """C(n, k) from the table, for 0 <= n <= 52 and 0 <= k <= 5."""
    if not (0 <= n <= 52 and 0 <= k <= 5):
        raise IndexError("binomial table covers n in 0..52, k in 0..5")
    return _binom[n * 6 + k]


def strengths_of(const uint8_t[:, ::1] hands, int n_threads=0):
    """Strength of each row of an (n, 5) array of distinct cards (any order).

    The caller (evaluator.ranking) has already validated the cards.
    """
    cdef Py_ssize_t n = hands.shape[0], i
    out_np = np.empty(n, dtype=np.int16)
    cdef int16_t[::1] out = out_np
    if n_threads <= 0:
        for i in prange(n, nogil=True, schedule="static"):
            out[i] = eval5(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    else:
        for i in prange(n, nogil=True, schedule="static", num_threads=n_threads):
            out[i] = eval5(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    return out_np


def hand_indices(const uint8_t[:, ::1] hands):
    """Colex index (0..2598959) of each row of an (n, 5) array of distinct cards."""
    cdef Py_ssize_t n = hands.shape[0], i
    out_np = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] out = out_np
    with nogil:
        for i in range(n):
            out[i] = hand_index5(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    return out_np


def cards_of_indices(const int32_t[::1] indices):
    """Inverse of :func:`hand_indices`: the sorted cards of each colex index, as (n, 5) uint8."""
    cdef Py_ssize_t n = indices.shape[0], i
    cdef int j, c, rem
    out_np = np.empty((n, 5), dtype=np.uint8)
    cdef uint8_t[:, ::1] out = out_np
    for i in range(n):
        rem = indices[i]
        if rem < 0 or rem >= N_HANDS:
            raise IndexError(f"hand index {rem} is out of range 0..{N_HANDS - 1}")
        c = 51
        for j in range(4, -1, -1):
            while _binom[c * 6 + j + 1] > rem:
                c -= 1
            out[i, j] = c
            rem -= _binom[c * 6 + j + 1]
            c -= 1
    return out_np


def throughput_loop(const uint8_t[:, ::1] hands, int repeats):
    """Benchmark kernel: evaluate every row `repeats` times on one core without the GIL.

    Returns a checksum so that the compiler cannot drop the work.
    """
    cdef Py_ssize_t n = hands.shape[0], i
    cdef int rep
    cdef int64_t acc = 0
    with nogil:
        for rep in range(repeats):
            for i in range(n):
                acc += eval5(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    return acc
