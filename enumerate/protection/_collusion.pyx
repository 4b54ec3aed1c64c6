"""Dealer-outcome counts of sampled situations with extra seen cards (private; use
enumerate.protection.collusion).

A situation is the player's five cards, the dealer's up card and m further cards the player has
seen (partners' hands, the burn card).  The dealer's four hole cards are any 4 of the 46 - m
cards left: every one of those C(46 - m, 4) sets is evaluated, with the order-independent
evaluator's key sums built up along the four nested loops, so the innermost step is two
additions and one table lookup.  Situations are independent: each thread takes its own.
"""
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t
from cython.parallel cimport prange
from evaluator._eval cimport eval5, key_tables
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED
from enumerate.core._cancel cimport studodds_cancelled

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)


cdef void _count(const uint8_t* p, int u, const uint8_t* seen, int m, int q,
                 int32_t* out) noexcept nogil:
    cdef const int32_t* key
    cdef const int32_t* rank_bit
    cdef const int32_t* suit_bit
    cdef const int16_t* by_key
    cdef const int16_t* by_flush
    key_tables(&key, &rank_bit, &suit_bit, &by_key, &by_flush)
    cdef int sp = eval5(p[0], p[1], p[2], p[3], p[4])
    cdef uint64_t dead = (<uint64_t>1) << u
    cdef int rem[52]
    cdef int n = 0, i, a, b, c, d, st
    cdef int ka, kb, kc, sa, sb, sc, ra, rb, rc, suit, ranks
    cdef int32_t nq = 0, win = 0, tie = 0
    for i in range(5):
        dead |= (<uint64_t>1) << p[i]
    for i in range(m):
        dead |= (<uint64_t>1) << seen[i]
    for i in range(52):
        if not (dead >> i) & 1:
            rem[n] = i
            n += 1
    for a in range(n):
        ka = key[u] + key[rem[a]]
        sa = suit_bit[u] & suit_bit[rem[a]]
        ra = rank_bit[u] | rank_bit[rem[a]]
        for b in range(a + 1, n):
            kb = ka + key[rem[b]]
            sb = sa & suit_bit[rem[b]]
            rb = ra | rank_bit[rem[b]]
            for c in range(b + 1, n):
                kc = kb + key[rem[c]]
                sc = sb & suit_bit[rem[c]]
                rc = rb | rank_bit[rem[c]]
                for d in range(c + 1, n):
                    suit = sc & suit_bit[rem[d]]
                    if suit:
                        st = by_flush[rc | rank_bit[rem[d]]]
                    else:
                        st = by_key[kc + key[rem[d]]]
                    nq += st < q
                    win += (st >= q) & (st < sp)
                    tie += (st >= q) & (st == sp)
    out[0] = nq
    out[1] = win
    out[2] = tie


def completion_counts(const uint8_t[:, ::1] player, const uint8_t[::1] up, const uint8_t[:, ::1] seen,
                      int qualifier, int32_t[:, ::1] out, int n_threads, int32_t[::1] cancel=None):
    """out[i] = (no_qualify, win, tie) over the C(46 - m, 4) hole-card sets of situation i:
    player[i] (5 distinct cards), up[i], and seen[i] (m further cards, all distinct)."""
    cdef Py_ssize_t n = player.shape[0], i
    cdef int m = seen.shape[1]
    if player.shape[1] != 5 or up.shape[0] != n or seen.shape[0] != n or out.shape[0] != n or out.shape[1] != 3:
        raise ValueError("shapes do not match")
    if m > 42:
        raise ValueError("at most 42 seen cards")
    if n == 0:
        return
    cdef const int32_t* flag = &cancel[0] if cancel is not None else NULL
    for i in prange(n, nogil=True, schedule="dynamic", chunksize=64, num_threads=n_threads):
        if studodds_cancelled(flag):         # asked to stop: the caller discards this chunk
            continue
        _count(&player[i, 0], up[i], &seen[i, 0] if m > 0 else NULL, m, qualifier, &out[i, 0])
