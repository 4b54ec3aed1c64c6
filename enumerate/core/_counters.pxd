# The counters of a sweep over the 2,598,960 hands in increasing strength, and the
# inclusion-exclusion read over them: shared by the count engine (enumerate/core/_engine.pyx)
# and the draws kernel (enumerate/draws/_game.pyx), as inline C functions.  (The exposure
# kernel counts the completions of its known cards, per level, a layout of its own.)
#
# Layout.  For every card set T of 1..4 cards the counter at OFF|T| + colex(T) holds the number
# of hands added so far that contain T (add_hand); a 5-card set is a hand, read from the strength
# table at its colex index (size_offset(5) = 0).
#
# The read.  With exactly the hands below strength x added, the hands below x that contain the
# cards G and none of the cards A (G and A disjoint) are, by inclusion-exclusion over A,
#
#     #{D : G in D, D & A = {}, s(D) < x} = sum over S subset of A, |S| + |G| <= 5, of (-1)^|S| N(S + G)
#
# where N(T) is T's counter for 1 <= |T| <= 4 and, for |T| = 5, 1 when the hand T is below x
# (below_term).  count_below_with is that sum written plainly, for any G of 1..5 cards and any A
# (the dead cards of a hand already dealt); the kernels' hot loops compute the same sum with the
# colex indices of S + G prepared per player hand: insertion_bases gives the index of a sorted set
# plus one more card from the number of the set's cards below it.
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t

cdef enum:
    OFF1 = 0
    OFF2 = 52
    OFF3 = 52 + 1326
    OFF4 = 52 + 1326 + 22100
    N_COUNTERS = 52 + 1326 + 22100 + 270725


cdef inline int32_t size_offset(int size) noexcept nogil:
    """Where the counters of ``size``-card sets start (5: the strength table's own indices)."""
    if size == 1:
        return OFF1
    if size == 2:
        return OFF2
    if size == 3:
        return OFF3
    if size == 4:
        return OFF4
    return 0


cdef inline void add_hand(int32_t* cnt, const uint8_t* c, const int32_t* binom) noexcept nogil:
    """Count one hand (sorted cards c) in every 1..4-card subset's counter."""
    cdef int i, j, k, l
    cdef int32_t b1[5]
    cdef int32_t b2[5]
    cdef int32_t b3[5]
    cdef int32_t b4[5]
    for i in range(5):
        b1[i] = binom[c[i] * 6 + 1]
        b2[i] = binom[c[i] * 6 + 2]
        b3[i] = binom[c[i] * 6 + 3]
        b4[i] = binom[c[i] * 6 + 4]
    for i in range(5):
        cnt[OFF1 + b1[i]] += 1
        for j in range(i + 1, 5):
            cnt[OFF2 + b1[i] + b2[j]] += 1
            for k in range(j + 1, 5):
                cnt[OFF3 + b1[i] + b2[j] + b3[k]] += 1
                for l in range(k + 1, 5):
                    cnt[OFF4 + b1[i] + b2[j] + b3[k] + b4[l]] += 1


cdef inline void insertion_bases(const int* q, int n, const int32_t* binom, int32_t* base) noexcept nogil:
    """For the sorted cards q[0..n-1] (n <= 4) and r = 0..n: the index (its size's offset
    included) of q plus a card d that has exactly r of q's cards below it is
    base[r] + C(d, r + 1) -- q's cards below d keep their places, those above move up one."""
    cdef int r, j
    cdef int32_t acc
    for r in range(n + 1):
        acc = size_offset(n + 1)
        for j in range(n):
            if j < r:
                acc += binom[q[j] * 6 + j + 1]
            else:
                acc += binom[q[j] * 6 + j + 2]
        base[r] = acc


cdef inline int32_t below_term(const int32_t* cnt, const int16_t* strength, int32_t index, int size,
                               int x) noexcept nogil:
    """N(T) of the set T at ``index`` (its size's offset included): its counter, or for a
    5-card set whether the hand is below x."""
    if size == 5:
        return strength[index] < x
    return cnt[index]


cdef inline int64_t count_below_with(const int32_t* cnt, const int16_t* strength, const int32_t* binom,
                                     const uint8_t* g, int n_g, const uint8_t* a, int n_a, int x) noexcept nogil:
    """The read written plainly: hands below x (the counters hold exactly those) that contain
    the cards g[0..n_g-1] (1 <= n_g <= 5) and none of a[0..n_a-1] (n_a <= 16; disjoint from g)."""
    cdef int64_t total = 0
    cdef uint64_t m, bits
    cdef int size, i, j, t, c
    cdef int cards[5]
    cdef int32_t index
    for m in range(<uint64_t>1 << n_a):
        size = n_g
        bits = m
        while bits:
            size += 1
            bits &= bits - 1
        if size > 5:
            continue
        t = 0                                  # the sorted cards of S + G, by insertion
        for i in range(n_g + n_a):
            if i < n_g:
                c = g[i]
            elif (m >> (i - n_g)) & 1:
                c = a[i - n_g]
            else:
                continue
            j = t
            while j > 0 and cards[j - 1] > c:
                cards[j] = cards[j - 1]
                j -= 1
            cards[j] = c
            t += 1
        index = size_offset(size)
        for i in range(size):
            index += binom[cards[i] * 6 + i + 1]
        if (size - n_g) % 2:
            total -= below_term(cnt, strength, index, size, x)
        else:
            total += below_term(cnt, strength, index, size, x)
    return total
