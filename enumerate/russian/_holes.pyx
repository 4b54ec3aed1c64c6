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
import numpy as np
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


cdef struct Eval:
    # the evaluator's order-independent tables (evaluator/_eval.pxd key_tables)
    const int32_t* key
    const int32_t* rbit
    const int32_t* sbit
    const int16_t* by_key
    const int16_t* by_flush


cdef Eval _evaluator(str who) except *:
    cdef Eval E
    key_tables(&E.key, &E.rbit, &E.sbit, &E.by_key, &E.by_flush)
    if E.by_key == NULL:
        raise RuntimeError(f"{who}: the evaluator's tables are not built")
    return E


cdef inline int _strength(const Eval* E, int u, const int* c) noexcept nogil:
    """The strength of the up card u and the four cards c."""
    if E.sbit[u] & E.sbit[c[0]] & E.sbit[c[1]] & E.sbit[c[2]] & E.sbit[c[3]]:
        return E.by_flush[E.rbit[u] | E.rbit[c[0]] | E.rbit[c[1]] | E.rbit[c[2]] | E.rbit[c[3]]]
    return E.by_key[E.key[u] + E.key[c[0]] + E.key[c[1]] + E.key[c[2]] + E.key[c[3]]]


cdef void _one(uint64_t unseen, int up, int player, int threshold, const Eval* E, int64_t* out) noexcept nogil:
    cdef int32_t ck[52]
    cdef int32_t cr[52]
    cdef int32_t cs[52]
    cdef int m = 0, c, a, b, d, e, s
    cdef int32_t ka, kb, kd, ra, rb, rd, sa, sb, sd
    cdef int64_t n = 0, nq = 0, win = 0, tie = 0
    cdef const int16_t* by_key = E.by_key
    cdef const int16_t* by_flush = E.by_flush
    for c in range(52):
        if (unseen >> c) & 1:
            ck[m] = E.key[c]
            cr[m] = E.rbit[c]
            cs[m] = E.sbit[c]
            m += 1
    for a in range(m):
        ka = E.key[up] + ck[a]
        ra = E.rbit[up] | cr[a]
        sa = E.sbit[up] & cs[a]
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
    cdef Py_ssize_t i, n = unseen.shape[0]
    if up.shape[0] != n or player.shape[0] != n or out.shape[0] != n or out.shape[1] != 4:
        raise ValueError("hole_counts: arrays of different lengths")
    cdef Eval E = _evaluator("hole_counts")
    for i in prange(n, nogil=True, num_threads=max(1, n_threads), schedule="dynamic"):
        _one(unseen[i], up[i], player[i], threshold, &E, &out[i, 0])


# ---------------------------------------------------------------------------------------------
# The same counts by inclusion-exclusion over one up card's sorted tables

cdef extern from "stdlib.h":
    void qsort(void* base, size_t nmemb, size_t size, int (*compar)(const void*, const void*) noexcept nogil) nogil

cdef enum:
    OTHERS = 51            # the cards besides the up card, labelled 0..50
    ALL4 = 249900          # C(51, 4): every hole set
    WITH1 = 19600          # C(50, 3): the hole sets holding a given card
    WITH2 = 1176           # C(49, 2): holding a given pair
    WITH3 = 48             # holding a given triple
    PAIRS = 1275           # C(51, 2)
    TRIPLES = 20825        # C(51, 3)


cdef struct UpView:
    # an UpTables' arrays, for the kernels without the GIL
    int up
    const int16_t* s0
    const int16_t* s1
    const int16_t* s2
    const int16_t* s3


cdef int _by_value(const void* a, const void* b) noexcept nogil:
    return (<const int16_t*>a)[0] - (<const int16_t*>b)[0]


cdef inline int _pair(int a, int b) noexcept nogil:
    """Colex index of the labels a < b."""
    return b * (b - 1) // 2 + a


cdef inline int _triple(int a, int b, int c) noexcept nogil:
    """Colex index of the labels a < b < c."""
    return c * (c - 1) * (c - 2) // 6 + b * (b - 1) // 2 + a


cdef inline int64_t _below(const int16_t* arr, int64_t n, int x) noexcept nogil:
    """How many of the sorted arr[0..n) are below x."""
    cdef int64_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef class UpTables:
    """The strengths of the dealer's hands with the up card ``up`` -- every hole set of the 51
    other cards -- sorted, all of them and, for every card, pair and triple of those cards, the
    ones that hold it (about 7.5 MB).  With them the hole sets that avoid a set S of seen cards
    and rank below x number

        sum over B subset of S, |B| <= 4, of (-1)^|B| * #{hole sets holding B, below x}

    (inclusion-exclusion): a binary search in one sorted table for each B of at most three cards,
    the hand itself for four -- 386 terms for ten seen cards, 31 for five."""

    cdef readonly int up
    cdef int16_t[::1] s0
    cdef int16_t[::1] s1
    cdef int16_t[::1] s2
    cdef int16_t[::1] s3

    def __init__(self, int up):
        if not 0 <= up < 52:
            raise ValueError("UpTables: the up card is 0..51")
        self.up = up
        self.s0 = np.empty(ALL4, dtype=np.int16)
        self.s1 = np.empty(OTHERS * WITH1, dtype=np.int16)
        self.s2 = np.empty(PAIRS * WITH2, dtype=np.int16)
        self.s3 = np.empty(TRIPLES * WITH3, dtype=np.int16)
        n1 = np.zeros(OTHERS, dtype=np.int32)
        n2 = np.zeros(PAIRS, dtype=np.int32)
        n3 = np.zeros(TRIPLES, dtype=np.int32)
        cdef int32_t[::1] c1 = n1
        cdef int32_t[::1] c2 = n2
        cdef int32_t[::1] c3 = n3
        cdef Eval E = _evaluator("UpTables")
        with nogil:
            self._fill(&E, &c1[0], &c2[0], &c3[0])

    cdef void _fill(self, const Eval* E, int32_t* c1, int32_t* c2, int32_t* c3) noexcept nogil:
        cdef int card[OTHERS]
        cdef int a, b, c, d, i, s, n = 0
        cdef int l[4]
        cdef int32_t ka, kb, kc, ra, rb, rc, sa, sb, sc
        for i in range(OTHERS):
            card[i] = i + (1 if i >= self.up else 0)
        for a in range(OTHERS):
            ka = E.key[self.up] + E.key[card[a]]
            ra = E.rbit[self.up] | E.rbit[card[a]]
            sa = E.sbit[self.up] & E.sbit[card[a]]
            for b in range(a + 1, OTHERS):
                kb = ka + E.key[card[b]]
                rb = ra | E.rbit[card[b]]
                sb = sa & E.sbit[card[b]]
                for c in range(b + 1, OTHERS):
                    kc = kb + E.key[card[c]]
                    rc = rb | E.rbit[card[c]]
                    sc = sb & E.sbit[card[c]]
                    for d in range(c + 1, OTHERS):
                        s = E.by_flush[rc | E.rbit[card[d]]] if sc & E.sbit[card[d]] else E.by_key[kc + E.key[card[d]]]
                        self.s0[n] = s
                        n += 1
                        l[0], l[1], l[2], l[3] = a, b, c, d
                        for i in range(4):
                            self.s1[l[i] * WITH1 + c1[l[i]]] = s
                            c1[l[i]] += 1
                        self._pairs(l, s, c2)
                        self._triples(l, s, c3)
        qsort(&self.s0[0], ALL4, sizeof(int16_t), _by_value)
        for i in range(OTHERS):
            qsort(&self.s1[i * WITH1], WITH1, sizeof(int16_t), _by_value)
        for i in range(PAIRS):
            qsort(&self.s2[i * WITH2], WITH2, sizeof(int16_t), _by_value)
        for i in range(TRIPLES):
            qsort(&self.s3[i * WITH3], WITH3, sizeof(int16_t), _by_value)

    cdef inline void _pairs(self, const int* l, int s, int32_t* c2) noexcept nogil:
        cdef int i, j, p
        for j in range(1, 4):
            for i in range(j):
                p = _pair(l[i], l[j])
                self.s2[p * WITH2 + c2[p]] = s
                c2[p] += 1

    cdef inline void _triples(self, const int* l, int s, int32_t* c3) noexcept nogil:
        cdef int i, t
        for i in range(4):                     # the triple without l[i]
            t = _triple(l[1 if i == 0 else 0], l[2 if i <= 1 else 1], l[3 if i <= 2 else 2])
            self.s3[t * WITH3 + c3[t]] = s
            c3[t] += 1

    cdef UpView view(self) noexcept:
        cdef UpView v
        v.up = self.up
        v.s0, v.s1, v.s2, v.s3 = &self.s0[0], &self.s1[0], &self.s2[0], &self.s3[0]
        return v


cdef void _count(const UpView* T, const int* seen, int k, const int* x, int nx, int64_t* out,
                 const Eval* E) noexcept nogil:
    """out[t] = the hole sets avoiding the sorted labels seen[0..k) below x[t], t < nx."""
    cdef int i, j, m, q, t, s, u = T.up
    cdef int card[4]
    cdef const int16_t* arr
    for t in range(nx):
        out[t] = _below(T.s0, ALL4, x[t])
    for i in range(k):
        arr = T.s1 + seen[i] * WITH1
        for t in range(nx):
            out[t] -= _below(arr, WITH1, x[t])
        for j in range(i + 1, k):
            arr = T.s2 + _pair(seen[i], seen[j]) * WITH2
            for t in range(nx):
                out[t] += _below(arr, WITH2, x[t])
            for m in range(j + 1, k):
                arr = T.s3 + _triple(seen[i], seen[j], seen[m]) * WITH3
                for t in range(nx):
                    out[t] -= _below(arr, WITH3, x[t])
                for q in range(m + 1, k):
                    card[0] = seen[i] + (1 if seen[i] >= u else 0)
                    card[1] = seen[j] + (1 if seen[j] >= u else 0)
                    card[2] = seen[m] + (1 if seen[m] >= u else 0)
                    card[3] = seen[q] + (1 if seen[q] >= u else 0)
                    s = _strength(E, u, card)
                    for t in range(nx):
                        out[t] += s < x[t]


def hole_counts_by_tables(UpTables tables, const uint64_t[::1] unseen, const int32_t[::1] suit,
                          const int16_t[::1] player, int threshold, int64_t[:, ::1] out, int n_threads):
    """:func:`hole_counts` of final hands whose up card is ``tables.up`` once suit ``suit[i]`` and
    suit 0 are swapped (every card of hand i read so; ``tables.up`` is of suit 0), by
    inclusion-exclusion over the up card's sorted tables (see :class:`UpTables`)."""
    cdef Py_ssize_t i, n = unseen.shape[0]
    if suit.shape[0] != n or player.shape[0] != n or out.shape[0] != n or out.shape[1] != 4:
        raise ValueError("hole_counts_by_tables: arrays of different lengths")
    if tables.up & 3:
        raise ValueError("hole_counts_by_tables: the tables' up card is of suit 0")
    cdef Eval E = _evaluator("hole_counts_by_tables")
    cdef UpView view = tables.view()
    for i in prange(n, nogil=True, num_threads=max(1, n_threads), schedule="static"):
        _by_tables(&view, unseen[i], suit[i], player[i], threshold, &E, &out[i, 0])


cdef void _by_tables(const UpView* T, uint64_t unseen, int swap, int player, int threshold, const Eval* E,
                     int64_t* out) noexcept nogil:
    cdef int seen[52]
    cdef int x[3]
    cdef int64_t below[3]
    cdef int c, k = 0, m = 0, cs, label, nx
    cdef int64_t n
    for c in range(52):                        # the cards in the tables' frame, in increasing order
        cs = c & 3
        cs = 0 if cs == swap else (swap if cs == 0 else cs)
        label = (c & ~3) | cs                  # the card c of the frame is card ``label`` of the hand
        if label == (T.up | swap) or c == T.up:
            continue
        if (unseen >> label) & 1:
            m += 1
        else:
            seen[k] = c - (1 if c > T.up else 0)
            k += 1
    x[0] = threshold
    nx = 1
    if player >= threshold:
        x[1], x[2] = player, player + 1
        nx = 3
    _count(T, seen, k, x, nx, below, E)
    n = <int64_t>m * (m - 1) * (m - 2) * (m - 3) // 24
    out[0] = n
    out[1] = below[0]
    out[2] = below[1] - below[0] if nx == 3 else 0
    out[3] = below[2] - below[1] if nx == 3 else 0
