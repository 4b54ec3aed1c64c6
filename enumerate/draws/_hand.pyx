"""Exact values of every draw of one situation (private; use :mod:`enumerate.draws.hand`).

A situation is the player's five cards P and the dealer's up card u; the other m cards (46 with a
full deck) are *unseen*, labelled 0..m-1 in increasing card order.  Switching k cards draws a k-set
A of unseen cards (the discarded cards are out of play and were never unseen); buying draws one
card.  Either way the dealer's four hole cards are any four unseen cards outside A, and a draw is
one query of the dead-card engine (``enumerate/core/_dead.pyx``): the drawn set A and the final
hand's strength give the dealer's no-qualify, win and tie counts.  All the actions' draws go to
one strength-ordered sweep; a drawn set shared by several actions (the same cards drawn under
different switches of as many cards) is one set, its no-qualify count read once.

A draw's value, in units of 1 / (scale * n) antes with n = C(m - k, 4) dealer sets, is the linear
form of :class:`enumerate.raise_value.RaiseValue` -- raise: form - n * (c_lose - bonus), fold:
-scale * n -- taking the better one, or the raise when the rule forces it.  Sums are int64 (the
caller checks the bound); an action's draws are split among threads, each summing its own share.
"""
import numpy as np
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint32_t
from cython.parallel cimport prange, threadid
from evaluator._eval cimport binom_table, eval5, category_table, key_tables
from enumerate.core._combinatorics cimport choose, colex_unrank, popcount5
from enumerate.core._dead cimport dead_counts, next_colex, pack_labels, unpack_labels, MAX_UNSEEN
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)
cdef enum:
    BUY_MASK = 32
    N_STATS = 8

#: Pseudo-mask of the action "buy a sixth card" (switch masks are 0..31).
BUY = BUY_MASK
#: The outcome columns of :func:`action_values` (per action and final category).
OUTCOME_STATS = ("raised", "no_qualify", "win", "tie", "lose", "folded", "indifferent", "no_qualify_folded")
#: The most unseen cards a situation may have.
MAX_UNSEEN_CARDS = MAX_UNSEEN


cdef inline int64_t _c(int n, int k) noexcept nogil:
    return choose(n, k, binom_table())


cdef void _all_sets(int k, int m, uint32_t* out) noexcept nogil:
    """The k-sets of labels 0..m-1 in colex order, packed (their index is their colex rank)."""
    cdef int a[5]
    cdef int i
    cdef int64_t t = 0
    for i in range(k):
        a[i] = i
    while True:
        out[t] = pack_labels(a, k)
        t += 1
        if not next_colex(a, k, m):
            break


cdef struct Draw:
    # one action's final hands.  A switch in the order-independent evaluator's terms: a hand is a
    # flush iff the AND of its cards' suit bits is non-zero, its strength by_flush[OR of rank
    # bits] or by_key[sum of card keys]; the kept cards' sums are made once, each draw adds its
    # cards'.  Buying: the best five of the six cards.
    int buy
    int32_t key
    int32_t suit
    int32_t rank
    const uint8_t* hand
    const uint8_t* unseen
    const int32_t* card_key
    const int32_t* rank_bit
    const int32_t* suit_bit
    const int16_t* by_key
    const int16_t* by_flush


cdef Draw _draw_of(const uint8_t* hand, int action, const uint8_t* unseen) noexcept nogil:
    cdef Draw d
    cdef int i
    key_tables(&d.card_key, &d.rank_bit, &d.suit_bit, &d.by_key, &d.by_flush)
    d.buy = action == BUY_MASK
    d.hand = hand
    d.unseen = unseen
    d.key = 0
    d.suit = -1
    d.rank = 0
    for i in range(5):
        if not d.buy and not (action >> i) & 1:
            d.key += d.card_key[hand[i]]
            d.suit &= d.suit_bit[hand[i]]
            d.rank |= d.rank_bit[hand[i]]
    return d


cdef int16_t _draw_strength(const Draw* d, uint32_t w) noexcept nogil:
    """Strength of the final hand after drawing the packed set w."""
    cdef int a[5]
    cdef int c[5]
    cdef int k = unpack_labels(w, a), i, j, x
    cdef int32_t key = d.key, suit = d.suit, rank = d.rank
    cdef int16_t best, s
    if d.buy:
        best = eval5(d.hand[0], d.hand[1], d.hand[2], d.hand[3], d.hand[4])
        for i in range(5):
            for j in range(5):
                c[j] = d.hand[j]
            c[i] = d.unseen[a[0]]
            s = eval5(c[0], c[1], c[2], c[3], c[4])
            if s > best:
                best = s
        return best
    for i in range(k):
        x = d.unseen[a[i]]
        key += d.card_key[x]
        suit &= d.suit_bit[x]
        rank |= d.rank_bit[x]
    return d.by_flush[rank] if suit else d.by_key[key]


cdef int _size(int action) noexcept nogil:
    return 1 if action == BUY_MASK else popcount5(action)


def _queries(const uint8_t[::1] hand, const uint8_t[::1] unseen, const int32_t[::1] actions, int n_threads):
    """Every draw of every action as a query of the dead-card engine: the packed sets of each
    size the actions draw (all of them, in colex order, the k-sets from ``set_off[k]``), and per
    action its draws' set indices and final strengths, the actions one after another
    (``qoff``)."""
    cdef int m = unseen.shape[0]
    cdef int w, k
    cdef int64_t t, n, base
    set_off = np.full(6, -1, dtype=np.int64)
    n_sets = 0
    for w in range(actions.shape[0]):
        k = _size(actions[w])
        if set_off[k] < 0:
            set_off[k] = n_sets
            n_sets += _c(m, k)
    sets_np = np.empty(n_sets, dtype=np.uint32)
    cdef uint32_t[::1] sets = sets_np
    for k in range(6):
        if set_off[k] >= 0:
            _all_sets(k, m, &sets[set_off[k]])
    qoff_np = np.zeros(actions.shape[0] + 1, dtype=np.int64)
    for w in range(actions.shape[0]):
        qoff_np[w + 1] = qoff_np[w] + _c(m, _size(actions[w]))
    qset_np = np.empty(qoff_np[-1], dtype=np.int32)
    qstr_np = np.empty(qoff_np[-1], dtype=np.int16)
    cdef int32_t[::1] qset = qset_np
    cdef int16_t[::1] qstr = qstr_np
    cdef int64_t[::1] qoff = qoff_np
    cdef int64_t lo
    cdef Draw d
    for w in range(actions.shape[0]):
        d = _draw_of(&hand[0], actions[w], &unseen[0])
        base = set_off[_size(actions[w])]
        lo = qoff[w]
        n = qoff[w + 1] - lo
        for t in prange(n, nogil=True, num_threads=n_threads, schedule="static"):
            qset[lo + t] = <int32_t>(base + t)
            qstr[lo + t] = _draw_strength(&d, sets[base + t])
    return sets_np, set_off, qset_np, qstr_np, qoff_np


def _counts(const uint8_t[::1] unseen, int up, int q, const uint32_t[::1] sets, const int64_t[::1] complete,
            const int32_t[::1] qset, const int16_t[::1] qstr, const int32_t[::1] cancel, int n_threads):
    """The engine's counts of the queries: nq per set, win and tie per query (None if cancelled)."""
    nq_np = np.empty(sets.shape[0], dtype=np.int32)
    win_np = np.empty(qset.shape[0], dtype=np.int32)
    tie_np = np.empty(qset.shape[0], dtype=np.int32)
    cdef int32_t[::1] nq = nq_np, win = win_np, tie = tie_np
    cdef int status
    cdef int m = unseen.shape[0]
    with nogil:
        status = dead_counts(&unseen[0], m, up, q, &sets[0], sets.shape[0], &complete[0], &qset[0], &qstr[0], qset.shape[0],
                             &nq[0], &win[0], &tie[0], &cancel[0], n_threads)
    if status < 0:
        raise MemoryError("the dead-card engine ran out of memory")
    return None if status else (nq_np, win_np, tie_np)


cdef inline int64_t _raise(int64_t nq, int64_t win, int64_t tie, int cat, int64_t n, int64_t c_nq,
                           const int64_t* c_win, int64_t c_tie, const int64_t* bonus) noexcept nogil:
    """A draw's value if the player raises (units of the module docstring); folding is worth
    -scale * n, and the player raises when the raise is worth more or the rule forces it."""
    return nq * c_nq + win * c_win[cat] + tie * c_tie - n * (c_tie - bonus[cat])


def action_values(const uint8_t[::1] hand, const uint8_t[::1] unseen, int up, int q,
                  const int32_t[::1] actions, const uint8_t[::1] forced,
                  int64_t scale, int64_t c_nq, const int64_t[::1] c_win, int64_t c_tie,
                  const int64_t[::1] bonus,
                  int64_t[::1] value, int64_t[::1] raised, int64_t[:, ::1] finals,
                  int64_t[:, :, ::1] outcomes, int32_t[::1] cancel, int n_threads):
    """For each action (a switch mask 1..31 or BUY): the sum over its draws of the draw's value
    (units of the module docstring), how many draws raise, the final hands by category
    (finals[action, category]), and the outcomes by final category (outcomes[action, category,
    stat], the columns of :data:`OUTCOME_STATS`: draws raised; their dealer sets with no
    qualifier, won, tied, lost; dealer sets of folded draws; folded draws where raising is worth
    the same; dealer sets of folded draws with no qualifier).  The outputs are added to."""
    cdef int m = unseen.shape[0]
    if not 4 <= m <= MAX_UNSEEN:
        raise ValueError(f"between 4 and {MAX_UNSEEN} unseen cards, not {m}")
    if outcomes.shape[0] != actions.shape[0] or outcomes.shape[1] != 10 or outcomes.shape[2] != N_STATS:
        raise ValueError(f"outcomes must be ({actions.shape[0]}, 10, {N_STATS}), not {tuple(outcomes.shape)[:3]}")
    sets_np, set_off, qset_np, qstr_np, qoff_np = _queries(hand, unseen, actions, n_threads)
    counts = _counts(unseen, up, q, sets_np, set_off, qset_np, qstr_np, cancel, n_threads)
    if counts is None:
        return
    cdef int32_t[::1] nq = counts[0], win = counts[1], tie = counts[2]
    cdef int32_t[::1] qset = qset_np
    cdef int16_t[::1] qstr = qstr_np
    cdef int64_t[::1] qoff = qoff_np
    cdef const int16_t* category = category_table()
    cdef int w, k, force, cat, i, j, tid
    cdef int64_t n, t, total, n_raised, v, rv, fold, lo, hi, a_nq, a_win, a_tie
    cdef int64_t* row
    # each thread's final-hand counts and outcomes on cache lines of its own (10 + 80 int64,
    # padded to 96: 768 bytes a row)
    per_thread_np = np.zeros((max(n_threads, 1), 96), dtype=np.int64)
    cdef int64_t[:, ::1] per_thread = per_thread_np
    for w in range(actions.shape[0]):
        k = _size(actions[w])
        force = forced[w]
        n = _c(m - k, 4)
        fold = -scale * n
        total = 0
        n_raised = 0
        lo = qoff[w]
        hi = qoff[w + 1]
        for t in prange(lo, hi, nogil=True, num_threads=n_threads, schedule="static"):
            cat = category[qstr[t]]
            tid = threadid()
            per_thread[tid, cat] += 1
            a_nq = nq[qset[t]]
            a_win = win[t]
            a_tie = tie[t]
            rv = _raise(a_nq, a_win, a_tie, cat, n, c_nq, &c_win[0], c_tie, &bonus[0])
            row = &per_thread[tid, 10 + cat * N_STATS]
            if force or rv > fold:
                v = rv
                n_raised += 1
                row[0] += 1
                row[1] += a_nq
                row[2] += a_win
                row[3] += a_tie
                row[4] += n - a_nq - a_win - a_tie
            else:
                v = fold
                row[5] += n
                row[7] += a_nq
                if rv == fold:
                    row[6] += 1
            total += v
        value[w] = total
        raised[w] = n_raised
        for j in range(per_thread.shape[0]):
            for i in range(10):
                finals[w, i] += per_thread[j, i]
                for k in range(N_STATS):
                    outcomes[w, i, k] += per_thread[j, 10 + i * N_STATS + k]
            per_thread[j, :] = 0


def draw_outcomes(const uint8_t[::1] hand, const uint8_t[::1] unseen, int up, int q, int action,
                  const int64_t[::1] draws, int32_t[:, ::1] out, int n_threads=1):
    """For the draws with colex indices ``draws`` of one action: (strength of the final hand,
    no_qualify, win, tie) per row of ``out`` -- what :func:`action_values` values, for tests and
    for the draws of Russian Poker (enumerate/russian/draws.py)."""
    cdef int m = unseen.shape[0]
    cdef int k = _size(action)
    cdef int a[5]
    cdef Py_ssize_t r
    cdef Draw d = _draw_of(&hand[0], action, &unseen[0])
    sets_np = np.empty(draws.shape[0], dtype=np.uint32)
    qstr_np = np.empty(draws.shape[0], dtype=np.int16)
    cdef uint32_t[::1] sets = sets_np
    cdef int16_t[::1] qstr = qstr_np
    for r in range(draws.shape[0]):
        colex_unrank(draws[r], k, m, a, binom_table())
        sets[r] = pack_labels(a, k)
        qstr[r] = _draw_strength(&d, sets[r])
    nq, win, tie = _counts(unseen, up, q, sets_np, np.full(6, -1, dtype=np.int64),
                           np.arange(draws.shape[0], dtype=np.int32), qstr_np,
                           np.zeros(1, dtype=np.int32), n_threads)
    for r in range(draws.shape[0]):
        out[r, 0] = qstr[r]
        out[r, 1] = nq[r]
        out[r, 2] = win[r]
        out[r, 3] = tie[r]
