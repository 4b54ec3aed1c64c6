# The dead-card engine's C interface (enumerate/core/_dead.pyx), for the kernels that value
# final hands against a dealer whose hole cards avoid cards already out of play: the per-hand
# draws, the seen second hand, and whole-game jobs built on them.
#
# The unseen cards are labelled 0..m-1 in increasing card order (m <= MAX_UNSEEN, so that every
# label's binomials are in the evaluator's table).  A query set is up to five labels packed six
# bits each, increasing, the unused places NO_LABEL (pack_labels, unpack_labels); a query is a
# set and a final strength.  dead_counts gives, for every set, the dealer hole sets that avoid it
# and do not qualify, and for every query the hole sets that avoid its set, qualify and are below
# (win) or equal to (tie) its strength (both 0 below the qualifier).  complete[k] (k = 0..5) is
# -1, or the place in ``sets`` of a run of all C(m, k) k-sets in colex order (the caller's
# claim: their no-qualify counts are then read by runs of contiguous counters, about twice as
# fast).  It returns 0, 1 when cancelled, -1 when memory ran out.
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint32_t

cdef enum:
    NO_LABEL = 63
    MAX_UNSEEN = 51


cdef inline uint32_t pack_labels(const int* a, int k) noexcept nogil:
    """The increasing labels a[0..k-1] (k <= 5) as one query set."""
    cdef uint32_t w = 0
    cdef int i
    for i in range(5):
        w |= (<uint32_t>(a[i] if i < k else NO_LABEL)) << (6 * i)
    return w


cdef inline int unpack_labels(uint32_t w, int* a) noexcept nogil:
    """The labels of a query set into a[0..4]; returns how many."""
    cdef int k = 0
    while k < 5 and ((w >> (6 * k)) & 63) != NO_LABEL:
        a[k] = (w >> (6 * k)) & 63
        k += 1
    return k


cdef inline bint next_colex(int* a, int k, int m) noexcept nogil:
    """Step the increasing labels a[0..k-1] (of 0..m-1) to the next k-set in colex order: raise
    the first label that can go up and reset those below it; False after the last set."""
    cdef int i = 0, j
    while i < k and a[i] + 1 == (a[i + 1] if i + 1 < k else m):
        i += 1
    if i == k:
        return False
    a[i] += 1
    for j in range(i):
        a[j] = j
    return True


cdef int dead_counts(const uint8_t* unseen, int m, int up, int q,
                     const uint32_t* sets, int64_t n_sets, const int64_t* complete,
                     const int32_t* query_set, const int16_t* query_strength, int64_t n_queries,
                     int32_t* nq, int32_t* win, int32_t* tie,
                     const int32_t* cancel, int n_threads) noexcept nogil
