# The counting by rank patterns every such kernel shares (the seen-hand game, the switch game), as
# inline C functions; the tables they read are made by enumerate/core/rank_patterns.py.
#
# * The dealer's hole rank patterns (4 cards; at most four of a rank, three of the up rank) are
#   sorted by the strength of his non-flush hand with the up card, given as up to four (rank,
#   multiplicity) pairs each (hole_i: 5 * rank + multiplicity).  With a_r cards of rank r left, the pattern is
#   prod_r C(a_r, m_r) concrete sets; rank_part() writes the prefix sums of those weights, so the
#   sets with no qualifier, below a strength and equal to it are differences of three entries
#   (the cuts: the first qualifying pattern, the first at or above the strength, the first above).
# * The s0 flushes are corrected apart (see rank_patterns.py): klass() is the class of one dealer
#   strength against the player's, 0 no qualifier, 1 player wins, 2 tie, 3 dealer wins.
# * MASKS: the sets D0 of dead s0 ranks, as 12-bit masks over the ranks other than the up rank.
from libc.stdint cimport int32_t, int64_t, uint8_t
from enumerate.core._combinatorics cimport choose

cdef enum:
    MASKS = 4096


cdef inline int klass(int sp, int st, int q) noexcept nogil:
    """0 no qualifier, 1 player wins, 2 tie, 3 dealer wins: a dealer of strength st against a
    player of strength sp, the qualifier q."""
    if st < q:
        return 0
    if st < sp:
        return 1
    if st == sp:
        return 2
    return 3


cdef inline void rank_part(const int* a, const uint8_t[:, ::1] hole_i, const int32_t* binom,
                           int64_t* cum) noexcept nogil:
    """cum[k] = the hole-card sets of the hole rank patterns before the k-th (sorted by the
    dealer's strength), for a[r] cards left of each rank r; hole_i[k] = the pattern's up to four
    (rank, multiplicity) pairs as 5 * rank + multiplicity (0 pads: C(a_0, 0) = 1)."""
    cdef int k, j
    cdef int64_t total = 0
    cdef int64_t c[65]          # C(a_r, m) at 5 * r + m
    cdef const uint8_t* hi = &hole_i[0, 0]
    for k in range(13):
        for j in range(5):
            c[5 * k + j] = choose(a[k], j, binom)
    cum[0] = 0
    for k in range(hole_i.shape[0]):
        total += c[hi[4 * k]] * c[hi[4 * k + 1]] * c[hi[4 * k + 2]] * c[hi[4 * k + 3]]
        cum[k + 1] = total


cdef inline int mask12(int ranks13, int ru) noexcept nogil:
    """A set of ranks (13-bit) other than the up rank ru as a 12-bit mask (ranks above ru move down one)."""
    cdef int low = ranks13 & ((1 << ru) - 1)
    return low | ((ranks13 >> (ru + 1)) << ru)


cdef inline void flush_move(int32_t* acc, int mask, int to, int was) noexcept nogil:
    """Count one s0 flush pattern (its 12-bit set of ranks: mask) in the class ``to`` of its flush
    instead of the class ``was`` of its non-flush hand (classes of klass(); 3, dealer wins, is not
    counted)."""
    if to != was:
        if to < 3:
            acc[3 * mask + to] += 1
        if was < 3:
            acc[3 * mask + was] -= 1


cdef inline void flush_subset_sums(int32_t* acc) noexcept nogil:
    """acc[3 * S + k] (one count k per 12-bit set S of ranks, each s0 flush pattern added at its
    own set) becomes the sum over the patterns within S (a zeta transform); a pattern avoiding
    the dead s0 ranks D0 is then counted at the complement of D0."""
    cdef int bit, m, k
    for bit in range(12):
        for m in range(MASKS):
            if (m >> bit) & 1:
                for k in range(3):
                    acc[3 * m + k] += acc[3 * (m ^ (1 << bit)) + k]


cdef inline int odometer_next(int* idx, const int* n_opt, int n) noexcept nogil:
    """Advance the odometer idx over the leaves of a rank pattern (digit i: the option 0..n_opt[i]-1
    of its i-th rank, the last digit fastest): the first digit changed, the later ones reset to 0;
    -1 when every leaf has been seen."""
    cdef int depth = n - 1, i
    while depth >= 0 and idx[depth] == n_opt[depth] - 1:
        depth -= 1
    if depth < 0:
        return -1
    idx[depth] += 1
    for i in range(depth + 1, n):
        idx[i] = 0
    return depth


# The leaves of a rank pattern, the traversal both rank-pattern kernels share.  Some ranks hold a
# card whose suit is not fixed by the ranks alone (the up card's suit, s0, or another): each such
# rank has up to three options, each a number of concrete assignments (m) and the bits it sets in
# two masks (b0, b1: whose s0 card it is -- the drawn cards', or the player's and the other
# box's).  A leaf is one option per rank; its weight is the product of the options' m, its masks
# the union of their bits.  The kernels fill the options rank by rank (leaves_rank, leaves_option),
# then walk every leaf (leaves_first, leaves_next) and value it with a function of their own.
cdef struct Leaves:
    int n                     # ranks with options
    int n_opt[11]
    int idx[11]               # the odometer: the option of each rank
    int64_t m[11][3]
    int b0[11][3]
    int b1[11][3]
    int64_t pre_m[12]         # prefix products and unions: the leaf is at index n
    int pre_b0[12]
    int pre_b1[12]


cdef inline void leaves_rank(Leaves* L) noexcept nogil:
    """Open the next rank (its options follow); a rank left with no option is dropped."""
    if L.n_opt[L.n] > 0:
        L.n += 1
    L.n_opt[L.n] = 0


cdef inline void leaves_option(Leaves* L, int64_t m, int b0, int b1) noexcept nogil:
    """Add an option to the open rank: m assignments, bits b0 and b1 (none when m is 0)."""
    cdef int k = L.n_opt[L.n]
    if m == 0:
        return
    L.m[L.n][k] = m
    L.b0[L.n][k] = b0
    L.b1[L.n][k] = b1
    L.n_opt[L.n] = k + 1


cdef inline void leaves_start(Leaves* L) noexcept nogil:
    """No rank yet."""
    L.n = 0
    L.n_opt[0] = 0


cdef inline void _leaves_prefix(Leaves* L, int d) noexcept nogil:
    cdef int k = L.idx[d]
    L.pre_m[d + 1] = L.pre_m[d] * L.m[d][k]
    L.pre_b0[d + 1] = L.pre_b0[d] | L.b0[d][k]
    L.pre_b1[d + 1] = L.pre_b1[d] | L.b1[d][k]


cdef inline void leaves_first(Leaves* L, int64_t base, int b0, int b1) noexcept nogil:
    """Close the ranks and go to the first leaf, every weight times ``base``, the masks starting
    from b0 and b1."""
    cdef int d
    if L.n_opt[L.n] > 0:
        L.n += 1
    L.pre_m[0] = base
    L.pre_b0[0] = b0
    L.pre_b1[0] = b1
    for d in range(L.n):
        L.idx[d] = 0
        _leaves_prefix(L, d)


cdef inline bint leaves_next(Leaves* L) noexcept nogil:
    """Go to the next leaf; False when every leaf has been seen."""
    cdef int d, depth = odometer_next(L.idx, L.n_opt, L.n)
    if depth < 0:
        return 0
    for d in range(depth, L.n):
        _leaves_prefix(L, d)
    return 1
