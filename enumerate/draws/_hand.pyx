"""Exact values of every draw of one situation (private; use :mod:`enumerate.draws.hand`).

A situation is the player's five cards P and the dealer's up card u; the other m cards (46 with a
full deck) are *unseen*, labelled 0..m-1 in increasing card order.  The dealer's four hole cards
are any four unseen cards the player does not end up holding.  Switching k cards draws a k-set A
of unseen cards (the discarded cards are out of play and were never unseen); buying draws one
card.  Either way the dealer's hole cards are the 4-sets H of unseen cards disjoint from A, and by
inclusion-exclusion over A

    #{H : H & A = {}, s(H + u) < x} = sum over B subset of A of (-1)^|B| N_B(x),
    N_B(x) = #{H : H contains B, s(H + u) < x}.

Every N_B is read from tables built once per situation from the strengths of all C(m, 4) hole
sets: ``below0`` (B empty), ``below1[a]`` and ``below2[pair]`` (cumulative counts by strength:
one read per threshold), ``triples[t]`` (the m - 3 strengths of the hole sets containing the
triple t: one pass) and, for |B| = 4, the hole set's strength itself.  Three thresholds give a
draw's dealer outcomes: the qualifier q (no_qualify), the player's new strength s (below it and
qualifying: win) and s + 1 (equal: tie).

A draw's value, in units of 1 / (scale * n) antes with n = C(m - k, 4) dealer sets, is the linear
form of :class:`enumerate.raise_value.RaiseValue` -- raise: form - n * (c_lose - bonus), fold:
-scale * n -- taking the better one, or the raise when the rule forces it.  Sums are int64 (the
caller checks the bound); draws are split among threads, each summing its own share.
"""
import numpy as np
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t
from cython.parallel cimport prange, threadid
from evaluator._eval cimport binom_table, eval5, category_table, N_STRENGTHS
from evaluator._eval import strength_by_index
from enumerate.core._cancel cimport studodds_cancelled
from enumerate.core._combinatorics cimport choose, colex_rank, colex_unrank
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)

cdef enum:
    ROW_WIDTH = N_STRENGTHS + 1

#: Width of a cumulative row: counts below strength 0..7462.
ROW = ROW_WIDTH
#: Pseudo-mask of the action "buy a sixth card" (switch masks are 0..31).
BUY = 32


cdef inline int64_t _c(int n, int k) noexcept nogil:
    return choose(n, k, binom_table())


cdef inline int64_t _colex(const int* a, int k) noexcept nogil:
    return colex_rank(a, k, binom_table())


cdef inline void _unrank(int64_t t, int k, int m, int* a) noexcept nogil:
    colex_unrank(t, k, m, a, binom_table())


def prepare(const uint8_t[::1] unseen, int up, int16_t[::1] hole, int32_t[::1] below0,
            int16_t[:, ::1] below1, int16_t[:, ::1] below2, int16_t[:, ::1] triples, int n_threads):
    """Fill the tables of the module docstring for the unseen cards (increasing) and the up card.
    ``hole``: C(m, 4); ``below0``: ROW; ``below1``: (m, ROW); ``below2``: (C(m, 2), ROW);
    ``triples``: (C(m, 3), m - 3), each row sorted; all zero on entry.  The count of each
    triple's row below the qualifier (``triple_q`` of the kernels) is the caller's."""
    strength_by_index()
    cdef int m = unseen.shape[0]
    cdef int a[4]
    cdef int b[4]
    cdef int i, j, l, e, n
    cdef int16_t s
    cdef int64_t t, n4 = _c(m, 4), n3 = _c(m, 3), r
    with nogil:
        for t in range(n4):
            _unrank(t, 4, m, a)
            s = eval5(unseen[a[0]], unseen[a[1]], unseen[a[2]], unseen[a[3]], up)
            hole[t] = s
            below0[s + 1] += 1
            for i in range(4):
                below1[a[i], s + 1] += 1
                for j in range(i + 1, 4):
                    below2[_c(a[i], 1) + _c(a[j], 2), s + 1] += 1
    for r in prange(below2.shape[0] + m + 1, nogil=True, num_threads=n_threads, schedule="static"):
        if r < below2.shape[0]:
            for i in range(1, ROW_WIDTH):
                below2[r, i] += below2[r, i - 1]
        elif r < below2.shape[0] + m:
            for i in range(1, ROW_WIDTH):
                below1[r - below2.shape[0], i] += below1[r - below2.shape[0], i - 1]
        else:
            for i in range(1, ROW_WIDTH):
                below0[i] += below0[i - 1]
    for t in prange(n3, nogil=True, num_threads=n_threads, schedule="static"):
        _triple_row(t, m, hole, triples)


cdef void _triple_row(int64_t t, int m, const int16_t[::1] hole, int16_t[:, ::1] triples) noexcept nogil:
    cdef int a[3]
    cdef int b[4]
    cdef int e, n = 0, i, j
    _unrank(t, 3, m, a)
    for e in range(m):
        if e == a[0] or e == a[1] or e == a[2]:
            continue
        j = 0
        for i in range(3):
            if a[i] < e:
                b[j] = a[i]
                j += 1
        b[j] = e
        j += 1
        for i in range(3):
            if a[i] > e:
                b[j] = a[i]
                j += 1
        triples[t, n] = hole[_colex(b, 4)]
        n += 1
    cdef int16_t v
    for i in range(1, m - 3):              # sorted: a threshold's count is a binary search
        v = triples[t, i]
        j = i - 1
        while j >= 0 and triples[t, j] > v:
            triples[t, j + 1] = triples[t, j]
            j -= 1
        triples[t, j + 1] = v


cdef inline int _count_below(const int16_t* row, int n, int x) noexcept nogil:
    """Entries of the sorted row[0..n-1] below x."""
    cdef int lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if row[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef struct Tables:
    # raw views of the per-situation tables (memoryview arguments cost reference counting on
    # every call of a per-draw function; these pointers cost nothing)
    const int16_t* hole
    const int32_t* below0
    const int16_t* below1        # (m, ROW_WIDTH)
    const int16_t* below2        # (C(m, 2), ROW_WIDTH)
    const int16_t* triples       # (C(m, 3), m - 3), rows sorted
    const int32_t* triple_q      # each triple's row below the qualifier
    int m


cdef inline void _below(const int* a, int k, const Tables* tb, const int* x, int64_t* out) noexcept nogil:
    """out[0..2] = #{hole sets disjoint from the labels a[0..k-1] with strength below x[0..2]}."""
    cdef int i, j, l, h, e, w = tb.m - 3
    cdef int b[4]
    cdef int64_t t, p
    cdef int16_t s
    cdef const int16_t* row
    for h in range(3):
        out[h] = tb.below0[x[h]]
    for i in range(k):
        row = tb.below1 + a[i] * ROW_WIDTH
        for h in range(3):
            out[h] -= row[x[h]]
        for j in range(i + 1, k):
            p = _c(a[i], 1) + _c(a[j], 2)
            row = tb.below2 + p * ROW_WIDTH
            for h in range(3):
                out[h] += row[x[h]]
            for l in range(j + 1, k):
                t = p + _c(a[l], 3)
                row = tb.triples + t * w
                out[0] -= tb.triple_q[t]
                e = _count_below(row, w, x[1])
                out[1] -= e
                out[2] -= e + _count_below(row + e, w - e, x[2])
    if k >= 4:
        for i in range(k):             # the 4-subsets: leave out a[i] (k == 5) or none (k == 4)
            if k == 4 and i > 0:
                break
            j = 0
            for l in range(k):
                if l != i or k == 4:
                    b[j] = a[l]
                    j += 1
            s = tb.hole[_colex(b, 4)]
            for h in range(3):
                out[h] += s < x[h]


cdef Tables _tables(const int16_t[::1] hole, const int32_t[::1] below0, const int16_t[:, ::1] below1,
                    const int16_t[:, ::1] below2, const int16_t[:, ::1] triples,
                    const int32_t[::1] triple_q, int m):
    cdef Tables tb
    tb.hole = &hole[0]
    tb.below0 = &below0[0]
    tb.below1 = &below1[0, 0]
    tb.below2 = &below2[0, 0]
    tb.triples = &triples[0, 0]
    tb.triple_q = &triple_q[0]
    tb.m = m
    return tb


cdef inline void _outcomes(const int64_t* below, int s, int q, int64_t* nq, int64_t* win,
                           int64_t* tie) noexcept nogil:
    """(no_qualify, win, tie) from the counts below q, s and s + 1."""
    nq[0] = below[0]
    if s >= q:
        win[0] = below[1] - below[0]
        tie[0] = below[2] - below[1]
    else:
        win[0] = 0
        tie[0] = 0


cdef inline int _final_hand(const uint8_t* hand, int mask, int buy, const uint8_t* unseen,
                            const int* a, int k) noexcept nogil:
    """Strength of the player's final hand: the kept cards and the drawn ones, or the best five
    of six after buying a[0]."""
    cdef int c[6]
    cdef int i, j = 0, best, s
    if buy:
        best = eval5(hand[0], hand[1], hand[2], hand[3], hand[4])
        for i in range(5):
            for j in range(5):
                c[j] = hand[j]
            c[i] = unseen[a[0]]
            s = eval5(c[0], c[1], c[2], c[3], c[4])
            if s > best:
                best = s
        return best
    for i in range(5):
        if not (mask >> i) & 1:
            c[j] = hand[i]
            j += 1
    for i in range(k):
        c[j] = unseen[a[i]]
        j += 1
    return eval5(c[0], c[1], c[2], c[3], c[4])


cdef int64_t _draw_value(int64_t t, int k, int mask, int buy, int force, const uint8_t* hand,
                         const uint8_t* unseen, int q, const Tables* tb, int64_t scale, int64_t n,
                         int64_t c_nq, const int64_t* c_win, int64_t c_tie, const int64_t* bonus,
                         int64_t* finals) noexcept nogil:
    """The value of draw ``t`` of an action (units of the module docstring): the player raised
    iff it is forced or the value exceeds the fold's -scale * n.  The final hand's category is
    counted in finals[category] (the calling thread's own row)."""
    cdef int a[5]
    cdef int x[3]
    cdef int64_t below[3]
    cdef int64_t nq, win, tie, rv
    cdef int s, cat
    _unrank(t, k, tb.m, a)
    s = _final_hand(hand, mask, buy, unseen, a, k)
    x[0] = q
    x[1] = s
    x[2] = s + 1
    _below(a, k, tb, x, below)
    _outcomes(below, s, q, &nq, &win, &tie)
    cat = category_table()[s]
    finals[cat] += 1
    rv = nq * c_nq + win * c_win[cat] + tie * c_tie - n * (c_tie - bonus[cat])
    if force or rv > -scale * n:
        return rv
    return -scale * n


def action_values(const uint8_t[::1] hand, const uint8_t[::1] unseen, int q,
                  const int16_t[::1] hole, const int32_t[::1] below0,
                  const int16_t[:, ::1] below1, const int16_t[:, ::1] below2,
                  const int16_t[:, ::1] triples, const int32_t[::1] triple_q,
                  const int32_t[::1] actions, const uint8_t[::1] forced,
                  int64_t scale, int64_t c_nq, const int64_t[::1] c_win, int64_t c_tie,
                  const int64_t[::1] bonus,
                  int64_t[::1] value, int64_t[::1] raised, int64_t[:, ::1] finals,
                  int32_t[::1] cancel, int n_threads):
    """For each action (a switch mask 1..31 or BUY): the sum over its draws of the draw's value
    (units of the module docstring), how many draws raise, and the final hands by category
    (finals[action, category])."""
    strength_by_index()
    cdef int m = unseen.shape[0]
    cdef const int16_t* category = category_table()
    cdef Py_ssize_t w
    cdef int mask, k, buy, force
    cdef int64_t n, t, total, n_raised, v, fold
    cdef int a[5]
    cdef const int32_t* cancel_ptr = &cancel[0]
    cdef Tables tb = _tables(hole, below0, below1, below2, triples, triple_q, m)
    cdef int i, j
    per_thread_np = np.zeros((max(n_threads, 1), 10), dtype=np.int64)
    cdef int64_t[:, ::1] per_thread = per_thread_np
    for w in range(actions.shape[0]):
        mask = actions[w]
        buy = mask == BUY
        k = 1 if buy else bin(mask).count("1")
        force = forced[w]
        n = _c(m - k, 4)
        fold = -scale * n
        total = 0
        n_raised = 0
        for t in prange(_c(m, k), nogil=True, num_threads=n_threads, schedule="static"):
            if studodds_cancelled(cancel_ptr):
                continue
            v = _draw_value(t, k, mask, buy, force, &hand[0], &unseen[0], q, &tb, scale, n, c_nq, &c_win[0],
                            c_tie, &bonus[0], &per_thread[threadid(), 0])
            total += v
            if force or v > fold:
                n_raised += 1
        value[w] = total
        raised[w] = n_raised
        for i in range(10):
            for j in range(per_thread.shape[0]):
                finals[w, i] += per_thread[j, i]
                per_thread[j, i] = 0


def draw_outcomes(const uint8_t[::1] hand, const uint8_t[::1] unseen, int q,
                  const int16_t[::1] hole, const int32_t[::1] below0,
                  const int16_t[:, ::1] below1, const int16_t[:, ::1] below2,
                  const int16_t[:, ::1] triples, const int32_t[::1] triple_q, int action,
                  const int64_t[::1] draws,
                  int32_t[:, ::1] out):
    """For the draws with colex indices ``draws`` of one action: (strength of the final hand,
    no_qualify, win, tie) per row of ``out`` -- what :func:`action_values` values, for tests."""
    strength_by_index()
    cdef int m = unseen.shape[0]
    cdef int buy = action == BUY
    cdef int k = 1 if buy else bin(action).count("1")
    cdef int a[5]
    cdef int x[3]
    cdef int64_t below[3]
    cdef int64_t nq, win, tie
    cdef Py_ssize_t r
    cdef int s
    cdef Tables tb = _tables(hole, below0, below1, below2, triples, triple_q, m)
    for r in range(draws.shape[0]):
        _unrank(draws[r], k, m, a)
        s = _final_hand(&hand[0], action, buy, &unseen[0], a, k)
        x[0] = q
        x[1] = s
        x[2] = s + 1
        _below(a, k, &tb, x, below)
        _outcomes(below, s, q, &nq, &win, &tie)
        out[r, 0] = s
        out[r, 1] = <int32_t>nq
        out[r, 2] = <int32_t>win
        out[r, 3] = <int32_t>tie
