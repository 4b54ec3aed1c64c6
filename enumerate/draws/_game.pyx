"""Whole-game kernels for switching one card and buying a sixth card (private; use
:mod:`enumerate.draws.game`).

**Dead-card counts.**  After switching card d of the hand P for the drawn card x, the player
holds P' = P - d + x and d is out of play; after buying x and keeping the best five P' of the
six, the sixth card d is out of play too.  Either way the dealer's hole cards are four of the
45 cards outside P' + d + u, and

    dealer counts(P', u, dead d) = counts(P', u) - #{D : D contains u and d, D & P' = {}, s(D) < x}

with counts(P', u) from the count table (163,185 hole sets) and the second term -- the dealer
hands that d takes away -- by inclusion-exclusion over P':

    #{D containing u and d, D & P' = {}, s(D) < x} = sum over S subset of P', |S| <= 3, of
                                                      (-1)^|S| N(S + u + d, x)

N(T, x) for |T| <= 4 is a counter of the engine's sweep (hands below x containing T) and
|T| = 5 is one hand.  :func:`sweep_pairs` walks the hands in increasing strength like the
engine: when the sweep reaches the qualifier it takes the terms below q for every canonical
hand, and when it reaches a hand's own strength class the terms below s and the ties (counted
from the class's hands directly).  The result, for every canonical hand P', up card u and dead
card d, is the three dead-card counts packed in one 64-bit word (20 bits each): ``dead[row,
d column, u index]`` (d among the 47 cards outside P', u among the 46 outside P' + d),
134,459 x 47 x 46 words (2.3 GB).  The up card varies fastest: a switch's 46 up cards read one
run of 368 bytes, not 46 scattered words.

**Situations.**  :func:`action_values` values every situation (canonical P, up card u): keeping (the
count table), switching card i for each of the 46 unseen cards x (P - p_i + x relabelled to its
canonical hand by the suit permutation of its class, with u and p_i relabelled alike, gives the
word to read), and buying x (the strongest of P and the five P - p_i + x, dead card the one left
out).  It takes a hand's 47 situations together: the final hand P - p_i + x and its dead card do
not depend on the up card, so each (i, x) is relabelled once and its up cards' words are read
in one run (the memory traffic of the 1.45 billion words read is what the kernel's time is).  Each draw's value is the raise form of :class:`enumerate.raise_value.RaiseValue` against
n1 = C(45, 4) = 148,995 dealer sets, max with the fold; a switch or purchase sums its 46 draws,
and keeping is scaled by 42 (46 * C(45, 4) = 42 * C(46, 4)), so every action of every situation
is an integer over the one denominator scale * 6,853,770.  The best action is the largest value
less its fee (ties: keep, then the cards in order, then buying; chosen in numpy), and
:func:`account` sums its dealer outcomes by action kind and final hand category, weighted by the
size of the situation's suit class.  The values depend on the paytable only, not on the fees,
so tables that differ only in their fees or actions share them.
"""
import numpy as np
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset
from cython.parallel cimport prange, threadid
from evaluator._eval cimport binom_table, strength_table, category_table, N_STRENGTHS
from evaluator._eval import strength_by_index
from enumerate.core._counters cimport N_COUNTERS, add_hand, insertion_bases
from enumerate.core._cancel cimport studodds_cancelled
from enumerate.core._combinatorics cimport popcount5, subsets_by_size
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)

COUNTERS_PER_STATE = N_COUNTERS

cdef enum:
    N_TERMS = 26        # subsets S of the hand's 5 cards with at most 3 cards
    N_SMALL = 16        # of them, those with at most 2 (they come first: subsets_by_size)
    FIELD = 20          # bits of one count in a packed word
    N1 = 148995         # C(45, 4): dealer sets after one card is drawn
    N0 = 163185         # C(46, 4)
    N_KINDS = 3         # keep, switch, buy
    N_STATS = 8         # raised decisions, no_qualify, win, tie, lose, folded combinations,
                        # indifferent decisions, no_qualify of the folded combinations

cdef uint64_t MASK = (1 << FIELD) - 1

# the 26 subsets of {0..4} with at most 3 elements: mask, size, sign
cdef int _MASK[26]
cdef int _SIZE[26]
cdef int _SIGN[26]
cdef int _POP[32]


def _init():
    cdef int masks[32]
    subsets_by_size(masks)
    for m in range(32):
        _POP[m] = popcount5(m)
    for k in range(N_TERMS):                 # the subsets of at most 3 cards come first
        _MASK[k] = masks[k]
        _SIZE[k] = popcount5(masks[k])
        _SIGN[k] = -1 if _SIZE[k] % 2 else 1
        assert (_SIZE[k] <= 2) == (k < N_SMALL), "subsets_by_size lists the subsets by size"
        assert _SIZE[k] < 3 or _SIGN[k] == -1


_init()


cdef void _pairs_below(const int32_t* cnt, const uint8_t* p, int x, int32_t* out) noexcept nogil:
    """out[u * 52 + d] for u < d, neither in p: #{hands D containing u and d, disjoint from p,
    with strength below x}, from counters holding the hands below x (the read of
    ``_counters.pxd`` with G = {u, d}: the bases of S + u for every subset S, then d)."""
    cdef const int32_t* binom = binom_table()
    cdef const int16_t* strength = strength_table()
    cdef int32_t base[26 * 5]
    cdef int32_t term_base[26]
    cdef int term_col[26]
    cdef int q[4]
    cdef int u, d, k, i, n, r, nb, below_mask, set_for
    cdef int64_t total
    cdef int32_t idx
    cdef uint64_t pmask = 0
    for i in range(5):
        pmask |= (<uint64_t>1) << p[i]
    for u in range(52):
        if (pmask >> u) & 1:
            continue
        for k in range(N_TERMS):
            # Q = S + u, sorted
            n = 0
            for i in range(5):
                if (_MASK[k] >> i) & 1 and p[i] < u:
                    q[n] = p[i]
                    n += 1
            q[n] = u
            n += 1
            for i in range(5):
                if (_MASK[k] >> i) & 1 and p[i] > u:
                    q[n] = p[i]
                    n += 1
            insertion_bases(q, n, binom, &base[k * 5])       # T = Q + d, r of Q below d
        nb = 0
        set_for = -1                             # the nb the terms below were set for
        for d in range(u + 1, 52):
            if (pmask >> d) & 1:
                continue
            while nb < 5 and p[nb] < d:          # the cards of p below d: its first nb
                nb += 1
            if nb != set_for:                    # each term's base and binomial column, until d passes a card of p
                below_mask = (1 << nb) - 1
                for k in range(N_TERMS):
                    r = _POP[_MASK[k] & below_mask] + 1      # u < d
                    term_base[k] = base[k * 5 + r]
                    term_col[k] = r + 1
                set_for = nb
            total = 0
            for k in range(N_SMALL):             # sets of 2 to 4 cards: counters
                total += _SIGN[k] * cnt[term_base[k] + binom[d * 6 + term_col[k]]]
            for k in range(N_SMALL, N_TERMS):    # 5 cards (three of p with u and d): one hand, below x or not
                total -= strength[term_base[k] + binom[d * 6 + term_col[k]]] < x
            out[u * 52 + d] = <int32_t>total


cdef inline int _col(const uint8_t* p, int c) noexcept nogil:
    """Index of card c among the cards not in the sorted hand p."""
    return c - ((p[0] < c) + (p[1] < c) + (p[2] < c) + (p[3] < c) + (p[4] < c))


cdef void _store(const uint8_t* p, const int32_t* nq_pair, const int32_t* lt_pair, const int32_t* tie_pair,
                 int below_q, const uint32_t* base_nq, const uint32_t* base_win, const uint32_t* base_tie,
                 uint64_t* row_out) noexcept nogil:
    """The packed dead-card counts of every (up, dead) of hand p: the 47 x 46 words of its row.
    nq_pair NULL: the no-qualify terms are already in the words' low field (the sweep reached the
    qualifier earlier); lt_pair NULL: the hand is below the qualifier (no win, no tie)."""
    cdef int u, d, cu, slot
    cdef uint64_t pmask = 0, w
    cdef int64_t nq, win, tie, nqp, ltp, tp
    cdef int i
    for i in range(5):
        pmask |= (<uint64_t>1) << p[i]
    for u in range(52):
        if (pmask >> u) & 1:
            continue
        cu = _col(p, u)
        for d in range(52):
            if (pmask >> d) & 1 or d == u:
                continue
            slot = _col(p, d) * 46 + cu - (d < u)
            if nq_pair != NULL:
                nqp = nq_pair[u * 52 + d] if u < d else nq_pair[d * 52 + u]
            else:
                nqp = <int64_t>(row_out[slot] & MASK)
            nq = base_nq[cu] - nqp
            if lt_pair == NULL:
                if below_q:
                    w = <uint64_t>nq
                else:
                    w = <uint64_t>nqp        # kept until the sweep reaches the hand's class
            else:
                ltp = lt_pair[u * 52 + d] if u < d else lt_pair[d * 52 + u]
                tp = tie_pair[u * 52 + d] if u < d else tie_pair[d * 52 + u]
                win = base_win[cu] - (ltp - nqp)
                tie = base_tie[cu] - tp
                w = (<uint64_t>nq) | ((<uint64_t>win) << FIELD) | ((<uint64_t>tie) << (2 * FIELD))
            row_out[slot] = w


def pairs_below_qualifier(const int32_t[::1] state, int q, const uint8_t[:, ::1] canon_cards,
                          const int16_t[::1] canon_strength, const int64_t[::1] row_of,
                          int64_t lo, int64_t hi, const uint32_t[:, ::1] base_nq,
                          uint64_t[:, :, ::1] dead, const uint8_t[::1] wanted, int32_t[::1] cancel, int n_threads):
    """At the qualifier (counters hold the hands below q): for canonical hands lo..hi-1 in
    strength order, the no-qualify terms; final words for hands below q (only the hands with
    ``wanted[j]`` set: a test's few rows)."""
    strength_by_index()
    cdef int64_t j
    cdef const int32_t* cancel_ptr = &cancel[0]
    buf_np = np.zeros((max(n_threads, 1), 52 * 52), dtype=np.int32)
    cdef int32_t[:, ::1] bufs = buf_np
    for j in prange(lo, hi, nogil=True, schedule="dynamic", chunksize=16, num_threads=n_threads):
        if studodds_cancelled(cancel_ptr) or not wanted[j]:
            continue
        _pairs_below(&state[0], &canon_cards[j, 0], q, &bufs[threadid(), 0])
        _store(&canon_cards[j, 0], &bufs[threadid(), 0], NULL, NULL, canon_strength[j] < q,
               &base_nq[row_of[j], 0], NULL, NULL, &dead[row_of[j], 0, 0])


cdef void _class_pairs(const uint8_t* p, const uint64_t* class_masks, const uint8_t* class_cards,
                       Py_ssize_t n_class, int32_t* tie) noexcept nogil:
    """tie[a * 52 + b] (a < b): hands of p's strength class containing a and b, disjoint from p."""
    cdef uint64_t pmask = 0
    cdef Py_ssize_t h
    cdef int i, j
    cdef const uint8_t* c
    for i in range(5):
        pmask |= (<uint64_t>1) << p[i]
    memset(tie, 0, 52 * 52 * sizeof(int32_t))
    for h in range(n_class):
        if class_masks[h] & pmask:
            continue
        c = class_cards + h * 5
        for i in range(5):
            for j in range(i + 1, 5):
                tie[c[i] * 52 + c[j]] += 1


def sweep_pairs(int32_t[:, ::1] states, int64_t class_lo, int64_t class_hi, int q,
                const uint8_t[:, ::1] sorted_cards, const uint64_t[::1] sorted_masks,
                const int64_t[::1] class_start, const uint8_t[:, ::1] canon_cards,
                const int64_t[::1] canon_start, const int64_t[::1] row_of,
                const uint32_t[:, ::1] base_nq, const uint32_t[:, ::1] base_win,
                const uint32_t[:, ::1] base_tie, uint64_t[:, :, ::1] dead, const uint8_t[::1] wanted,
                int32_t[::1] cancel):
    """Advance every thread's counters over strength classes [class_lo, class_hi), finishing the
    words of the canonical hands at or above the qualifier in those classes (thread t takes
    the hands whose strength-order position is t modulo the number of threads; only the hands
    with ``wanted`` set)."""
    strength_by_index()
    cdef int n_threads = states.shape[0]
    cdef int t
    cdef int64_t s, j, h
    cdef const int32_t* cancel_ptr = &cancel[0]
    cdef const int32_t* binom = binom_table()
    bufs_np = np.zeros((n_threads, 2, 52 * 52), dtype=np.int32)
    cdef int32_t[:, :, ::1] bufs = bufs_np
    for t in prange(n_threads, nogil=True, schedule="static", num_threads=n_threads):
        for s in range(class_lo, class_hi):
            if studodds_cancelled(cancel_ptr):
                break
            if s >= q:
                j = canon_start[s]
                while j < canon_start[s + 1]:
                    if j % n_threads == t and wanted[j]:
                        _pairs_below(&states[t, 0], &canon_cards[j, 0], <int>s, &bufs[t, 0, 0])
                        _class_pairs(&canon_cards[j, 0], &sorted_masks[class_start[s]],
                                     &sorted_cards[class_start[s], 0], class_start[s + 1] - class_start[s],
                                     &bufs[t, 1, 0])
                        _store(&canon_cards[j, 0], NULL, &bufs[t, 0, 0], &bufs[t, 1, 0], 0,
                               &base_nq[row_of[j], 0], &base_win[row_of[j], 0], &base_tie[row_of[j], 0],
                               &dead[row_of[j], 0, 0])
                    j = j + 1
            h = class_start[s]
            while h < class_start[s + 1]:
                add_hand(&states[t, 0], &sorted_cards[h, 0], binom)
                h = h + 1


cdef inline int64_t _value(uint64_t w, int s, int64_t n, int64_t fold, int64_t c_nq, const int64_t* c_win,
                           int64_t c_tie, const int64_t* bonus, const int16_t* category) noexcept nogil:
    cdef int cat = category[s]
    cdef int64_t rv = (<int64_t>(w & MASK)) * c_nq + (<int64_t>((w >> FIELD) & MASK)) * c_win[cat] \
        + (<int64_t>((w >> (2 * FIELD)) & MASK)) * c_tie - n * (c_tie - bonus[cat])
    return rv if rv > fold else fold


cdef inline void _account(int64_t* acc, uint64_t w, int s, int64_t n, int64_t fold, int64_t c_nq,
                          const int64_t* c_win, int64_t c_tie, const int64_t* bonus,
                          const int16_t* category, int64_t weight, int64_t decisions) noexcept nogil:
    """Add one final decision (weight: combinations per dealer set; decisions: its weight in
    decisions) to acc[category * N_STATS ...]."""
    cdef int cat = category[s]
    cdef int64_t nq = <int64_t>(w & MASK), win = <int64_t>((w >> FIELD) & MASK)
    cdef int64_t tie = <int64_t>((w >> (2 * FIELD)) & MASK)
    cdef int64_t rv = nq * c_nq + win * c_win[cat] + tie * c_tie - n * (c_tie - bonus[cat])
    cdef int64_t* a = acc + cat * N_STATS
    if rv == fold:
        a[6] += decisions
    if rv > fold:
        a[0] += decisions
        a[1] += nq * weight
        a[2] += win * weight
        a[3] += tie * weight
        a[4] += (n - nq - win - tie) * weight
    else:
        a[5] += n * weight
        a[7] += nq * weight


cdef extern from *:
    """
    #define studodds_prefetch(p) __builtin_prefetch((const void *)(p))
    """
    void studodds_prefetch(const void* p) noexcept nogil


cdef struct Draws:
    # the final hands of one drawn card x of hand P: block[i] (i = 0..4: P - p_i + x relabelled to
    # its canonical hand, p_i out of play; 5: P itself, x out of play) points at the word of u
    # index 0 of the final hand's (d column) run; shift[i][c] is the u index of the hand's up
    # column c in it; strength[i] the final hand's strength; best the strongest (buying: P unless
    # a switch beats it, then the first such)
    const uint64_t* block[6]
    int shift[6][47]
    int strength[6]
    int best


cdef void _draws_of(Draws* dr, const uint8_t* p, int s0, int64_t r, int xc, const uint8_t* up_row,
                    const uint64_t[:, :, ::1] dead, const int32_t* canon, const uint8_t[:, ::1] perms) noexcept nogil:
    """Fill ``dr`` for the drawn card x = up_row[xc] of the hand p (count-table row r)."""
    cdef const int32_t* binom = binom_table()
    cdef const int16_t* strength = strength_table()
    cdef int np_[5]
    cdef int sig[5]
    cdef int x = up_row[xc], i, j, k, a, c, u, su, sd, code, pid
    cdef int64_t idx
    for i in range(5):
        k = 0
        a = 0
        for j in range(5):
            if j == i:
                continue
            if a == 0 and x < p[j]:
                np_[k] = x
                k += 1
                a = 1
            np_[k] = p[j]
            k += 1
        if a == 0:
            np_[k] = x
        idx = binom[np_[0] * 6 + 1] + binom[np_[1] * 6 + 2] + binom[np_[2] * 6 + 3] \
            + binom[np_[3] * 6 + 4] + binom[np_[4] * 6 + 5]
        dr.strength[i] = strength[idx]
        code = canon[idx]
        pid = code & 31
        for j in range(5):
            sig[j] = (np_[j] & ~3) | perms[pid, np_[j] & 3]
        sd = (p[i] & ~3) | perms[pid, p[i] & 3]
        dr.block[i] = &dead[code >> 5, sd - ((sig[0] < sd) + (sig[1] < sd) + (sig[2] < sd) + (sig[3] < sd)
                                             + (sig[4] < sd)), 0]
        studodds_prefetch(dr.block[i])
        for c in range(47):
            u = up_row[c]
            su = (u & ~3) | perms[pid, u & 3]
            dr.shift[i][c] = su - ((sig[0] < su) + (sig[1] < su) + (sig[2] < su) + (sig[3] < su) + (sig[4] < su)) \
                - (sd < su)
    dr.block[5] = &dead[r, xc, 0]
    dr.strength[5] = s0
    for c in range(47):
        dr.shift[5][c] = c - (xc < c)
    dr.best = 5
    for i in range(5):
        if dr.strength[i] > dr.strength[dr.best]:
            dr.best = i


def action_values(const uint8_t[:, ::1] hands, const int16_t[::1] hand_strength, const uint8_t[:, ::1] up,
                  const uint32_t[:, ::1] base_nq, const uint32_t[:, ::1] base_win, const uint32_t[:, ::1] base_tie,
                  const uint64_t[:, :, ::1] dead, const int32_t[::1] canon, const uint8_t[:, ::1] perms,
                  int64_t row_lo, int64_t row_hi, int64_t scale, int64_t c_nq, const int64_t[::1] c_win,
                  int64_t c_tie, const int64_t[::1] bonus, int64_t[:, :, ::1] values, int32_t[::1] cancel,
                  int n_threads):
    """values[r, c, k] for the situations of rows row_lo..row_hi-1: the value of action k
    (0 keep, 1..5 switch the i-th card, 6 buy) before its fee, in units of 1 / (scale *
    6,853,770) antes (see the module docstring)."""
    strength_by_index()
    cdef const int32_t* cancel_ptr = &cancel[0]
    cdef int64_t r
    for r in prange(row_lo, row_hi, nogil=True, schedule="dynamic", chunksize=4, num_threads=n_threads):
        if studodds_cancelled(cancel_ptr):
            continue
        _row_values(r, hands, hand_strength, up, base_nq, base_win, base_tie, dead, &canon[0], perms, scale, c_nq,
                    &c_win[0], c_tie, &bonus[0], &values[r, 0, 0])


cdef void _row_values(int64_t r, const uint8_t[:, ::1] hands, const int16_t[::1] hand_strength,
                      const uint8_t[:, ::1] up, const uint32_t[:, ::1] base_nq, const uint32_t[:, ::1] base_win,
                      const uint32_t[:, ::1] base_tie, const uint64_t[:, :, ::1] dead, const int32_t* canon,
                      const uint8_t[:, ::1] perms, int64_t scale, int64_t c_nq, const int64_t* c_win, int64_t c_tie,
                      const int64_t* bonus, int64_t* out) noexcept nogil:
    """The 47 situations of count-table row r (out[c * 7 + k]); the up card u = x does not draw x."""
    cdef const int16_t* category = category_table()
    cdef Draws dr
    cdef int s0 = hand_strength[r], cat = category[s0], xc, i, k, c
    cdef int64_t keep_rv, fold1 = -scale * N1, fold0 = -scale * N0
    for c in range(47):
        keep_rv = (<int64_t>base_nq[r, c]) * c_nq + (<int64_t>base_win[r, c]) * c_win[cat] \
            + (<int64_t>base_tie[r, c]) * c_tie - N0 * (c_tie - bonus[cat])
        out[c * 7] = 42 * (keep_rv if keep_rv > fold0 else fold0)
        for k in range(1, 7):
            out[c * 7 + k] = 0
    for xc in range(47):
        _draws_of(&dr, &hands[r, 0], s0, r, xc, &up[r, 0], dead, canon, perms)
        for i in range(5):
            for c in range(47):
                if c != xc:
                    out[c * 7 + 1 + i] += _value(dr.block[i][dr.shift[i][c]], dr.strength[i], N1, fold1, c_nq, c_win,
                                                 c_tie, bonus, category)
        i = dr.best
        for c in range(47):
            if c != xc:
                out[c * 7 + 6] += _value(dr.block[i][dr.shift[i][c]], dr.strength[i], N1, fold1, c_nq, c_win, c_tie,
                                         bonus, category)


def account(const uint8_t[:, ::1] hands, const int64_t[::1] weight, const int16_t[::1] hand_strength,
            const uint8_t[:, ::1] up, const uint32_t[:, ::1] base_nq, const uint32_t[:, ::1] base_win,
            const uint32_t[:, ::1] base_tie, const uint64_t[:, :, ::1] dead, const int32_t[::1] canon,
            const uint8_t[:, ::1] perms, const uint8_t[:, ::1] action, int64_t row_lo, int64_t row_hi,
            int64_t scale, int64_t c_nq, const int64_t[::1] c_win, int64_t c_tie, const int64_t[::1] bonus,
            int64_t[:, :, :, ::1] acc, int32_t[::1] cancel, int n_threads):
    """``acc[thread, kind, category, stat]`` (kind 0 keep, 1 switch, 2 buy; the stats of the
    module docstring): the outcomes of the chosen actions ``action[r, c]`` (0..6) of the
    situations of rows row_lo..row_hi-1, by final hand category, weighted by suit class."""
    strength_by_index()
    cdef const int32_t* cancel_ptr = &cancel[0]
    cdef int64_t r
    for r in prange(row_lo, row_hi, nogil=True, schedule="dynamic", chunksize=4, num_threads=n_threads):
        if studodds_cancelled(cancel_ptr):
            continue
        _row_account(r, hands, weight, hand_strength, up, base_nq, base_win, base_tie, dead, &canon[0], perms,
                     action, scale, c_nq, &c_win[0], c_tie, &bonus[0], &acc[threadid(), 0, 0, 0])


cdef void _row_account(int64_t r, const uint8_t[:, ::1] hands, const int64_t[::1] weight,
                       const int16_t[::1] hand_strength, const uint8_t[:, ::1] up,
                       const uint32_t[:, ::1] base_nq, const uint32_t[:, ::1] base_win,
                       const uint32_t[:, ::1] base_tie, const uint64_t[:, :, ::1] dead,
                       const int32_t* canon, const uint8_t[:, ::1] perms, const uint8_t[:, ::1] action,
                       int64_t scale, int64_t c_nq, const int64_t* c_win, int64_t c_tie,
                       const int64_t* bonus, int64_t* acc) noexcept nogil:
    cdef const int16_t* category = category_table()
    cdef Draws dr
    cdef int s0 = hand_strength[r], xc, c, a, i, drawing = 0
    cdef uint64_t e
    cdef int64_t w = weight[r]
    cdef int64_t fold1 = -scale * N1
    for c in range(47):
        if action[r, c] == 0:
            # decisions counted 46 a situation; combinations 42 per dealer set of the plain game
            e = (<uint64_t>base_nq[r, c]) | ((<uint64_t>base_win[r, c]) << FIELD) \
                | ((<uint64_t>base_tie[r, c]) << (2 * FIELD))
            _account(acc, e, s0, N0, -scale * N0, c_nq, c_win, c_tie, bonus, category, 42 * w, 46 * w)
        else:
            drawing = 1
    if not drawing:
        return
    for xc in range(47):
        _draws_of(&dr, &hands[r, 0], s0, r, xc, &up[r, 0], dead, canon, perms)
        for c in range(47):
            a = action[r, c]
            if c == xc or a == 0:
                continue
            i = a - 1 if a <= 5 else dr.best
            _account(acc + (1 if a <= 5 else 2) * 10 * N_STATS, dr.block[i][dr.shift[i][c]], dr.strength[i], N1,
                     fold1, c_nq, c_win, c_tie, bonus, category, w, w)
