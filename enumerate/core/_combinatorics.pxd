# The combinatorics every kernel shares, in one place (cimported by the count engine, the
# exposure kernel and both draws kernels), as inline C functions: no call overhead in the hot
# loops, one definition to read.
#
# * Binomials come from the evaluator's table: binom[n * 6 + k] = C(n, k) for 0 <= n <= 52 and
#   0 <= k <= 5; choose() is 0 outside 0 <= k <= n.
# * Card sets are ranked in colex order: the k-card set a_0 < a_1 < ... < a_{k-1} has index
#   sum_i C(a_i, i + 1), so the sets of k cards of 0..n-1 are exactly the indices 0..C(n, k) - 1
#   and a set's index does not depend on n.  colex_rank / colex_unrank go both ways;
#   colex_of_bits ranks the cards of a sorted hand picked by a bit mask (a subset of the hand).
# * popcount32 / popcount64 count the bits of a card or rank mask, lowest_bit32 gives the index
#   of its lowest set bit (the compiler's builtins; lowest_bit32 of 0 is undefined).
# * The subsets of a 5-card hand, as bit masks over its positions, are listed by size and then by
#   value (subsets_by_size): 0, the 5 single cards, the 10 pairs, the 10 triples, the 5 quadruples,
#   the whole hand.  A kernel that needs the subsets of at most 3 (or 4) cards takes the first
#   26 (31): inclusion-exclusion over them signs each by (-1)^size.
from libc.stdint cimport int32_t, int64_t, uint8_t

cdef extern from *:
    # bits set in a word (a card or rank mask): the compiler's builtins
    int popcount32 "__builtin_popcount"(unsigned int) nogil
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int lowest_bit32 "__builtin_ctz"(unsigned int) nogil


cdef inline int popcount5(unsigned int m) noexcept nogil:
    """Bits set among the five lowest of m (a subset of a 5-card hand)."""
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1) + ((m >> 4) & 1)


cdef inline void subsets_by_size(int* masks) noexcept nogil:
    """The 32 subsets of {0..4} as bit masks, by size and then by value (see above)."""
    cdef int k = 0, size, m
    for size in range(6):
        for m in range(32):
            if popcount5(m) == size:
                masks[k] = m
                k += 1


cdef inline int64_t choose(int n, int k, const int32_t* binom) noexcept nogil:
    """C(n, k) from the evaluator's table; 0 unless 0 <= k <= n."""
    if k < 0 or n < k or n < 0:
        return 0
    return binom[n * 6 + k]


cdef inline int32_t colex_of_bits(const uint8_t* c, unsigned int m, const int32_t* binom) noexcept nogil:
    """Colex index of the cards c[i] for the bits i of m (c sorted increasing)."""
    cdef int32_t idx = 0
    cdef int i, k = 1
    for i in range(5):
        if (m >> i) & 1:
            idx += binom[c[i] * 6 + k]
            k += 1
    return idx


cdef inline int64_t colex_rank(const int* a, int k, const int32_t* binom) noexcept nogil:
    """Colex index of the increasing labels a[0..k-1]."""
    cdef int64_t r = 0
    cdef int i
    for i in range(k):
        r += choose(a[i], i + 1, binom)
    return r


cdef inline void colex_unrank(int64_t t, int k, int m, int* a, const int32_t* binom) noexcept nogil:
    """The k increasing labels (of 0..m-1) whose colex index is t."""
    cdef int i, n = m - 1
    for i in range(k - 1, -1, -1):
        while choose(n, i + 1, binom) > t:
            n -= 1
        a[i] = n
        t -= choose(n, i + 1, binom)
        n -= 1
