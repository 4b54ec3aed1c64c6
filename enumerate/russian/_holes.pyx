"""The dealer's hole-card sets against many final hands, one by one (private; use
:func:`enumerate.russian.final_hand.hole_counts`).

A final hand of strength p meets the up card u; the dealer's four hole cards are any four of the
m cards the player has not seen (a 52-bit mask per hand).  For each hand the kernel walks every
4-set of them -- C(m, 4), at most 163,185 -- evaluating u + hole with the evaluator's
order-independent tables (a sum of rank keys, or the OR of rank bits when the AND of the suit bits
shows a flush), the first three cards' partial sums kept across the innermost loop, and counts
the sets whose hand does not qualify (below the threshold), qualifies and is below p (the player
wins), or equals p (a push).  The rest beat the player.  Exact integers; hands split among threads
(one hand, one thread: the counts do not depend on the split).

It answers what the raise of one final hand needs -- the simulator's decision after the draw and
``hand``'s per-final-hand value -- in about a millisecond, where the vectorised path built every
hand as an array first (the witness in the tests: ``strengths`` of every set).
"""
from libc.stdint cimport int16_t, int32_t, int64_t, uint64_t
from cython.parallel cimport prange
from evaluator._eval cimport key_tables
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)
#: The columns of a hand's counts: the dealer's hole sets, those that do not qualify, lose to the
#: player, tie him.
COLUMNS = ("sets", "no_qualify", "player_wins", "push")


cdef void _one(uint64_t unseen, int up, int player, int threshold, const int32_t* key, const int32_t* rbit,
               const int32_t* sbit, const int16_t* by_key, const int16_t* by_flush, int64_t* out) noexcept nogil:
    cdef int32_t ck[52]
    cdef int32_t cr[52]
    cdef int32_t cs[52]
    cdef int m = 0, c, a, b, d, e, s
    cdef int32_t ka, kb, kd, ra, rb, rd, sa, sb, sd
    cdef int64_t n = 0, nq = 0, win = 0, tie = 0
    for c in range(52):
        if (unseen >> c) & 1:
            ck[m] = key[c]
            cr[m] = rbit[c]
            cs[m] = sbit[c]
            m += 1
    for a in range(m):
        ka = key[up] + ck[a]
        ra = rbit[up] | cr[a]
        sa = sbit[up] & cs[a]
        for b in range(a + 1, m):
            kb = ka + ck[b]
            rb = ra | cr[b]
            sb = sa & cs[b]
            for d in range(b + 1, m):
                kd = kb + ck[d]
                rd = rb | cr[d]
                sd = sb & cs[d]
                n += m - d - 1
                for e in range(d + 1, m):
                    if sd & cs[e]:
                        s = by_flush[rd | cr[e]]
                    else:
                        s = by_key[kd + ck[e]]
                    if s < threshold:
                        nq += 1
                    elif s < player:
                        win += 1
                    elif s == player:
                        tie += 1
    out[0] = n
    out[1] = nq
    out[2] = win
    out[3] = tie


def hole_counts(const uint64_t[::1] unseen, const int32_t[::1] up, const int16_t[::1] player, int threshold,
                int64_t[:, ::1] out, int n_threads):
    """out[i] = (hole sets, not qualifying, player wins, push) of final hand i: its unseen cards
    ``unseen[i]`` (a 52-bit mask), the up card ``up[i]``, its strength ``player[i]`` (see the
    module docstring)."""
    cdef const int32_t* key
    cdef const int32_t* rbit
    cdef const int32_t* sbit
    cdef const int16_t* by_key
    cdef const int16_t* by_flush
    cdef Py_ssize_t i, n = unseen.shape[0]
    if up.shape[0] != n or player.shape[0] != n or out.shape[0] != n or out.shape[1] != 4:
        raise ValueError("hole_counts: arrays of different lengths")
    key_tables(&key, &rbit, &sbit, &by_key, &by_flush)
    if by_key == NULL:
        raise RuntimeError("hole_counts: the evaluator's tables are not built")
    for i in prange(n, nogil=True, num_threads=max(1, n_threads), schedule="dynamic"):
        _one(unseen[i], up[i], player[i], threshold, key, rbit, sbit, by_key, by_flush, &out[i, 0])
