"""The dead-card engine: exact dealer outcomes of many final hands against one up card, with the
dealer's hole cards avoiding cards out of play (private; cimport ``_dead.pxd`` or use
:func:`dead_counts_of`).

**The question.**  The m unseen cards (labelled 0..m-1) hold the dealer's four hole cards; the
cards already out of play -- the player's hand and discards, a second box's hand, the up card --
are simply not among them.  A query is a set D of up to five unseen labels that are out of play
too (the cards the player drew, or the player's whole hand when it is drawn from the unseen
cards) and a final strength s.  For each query: the hole sets H (4 unseen labels, H & D empty)
with s(H + u) below the qualifier q (``nq``), at least q and below s (``win``), equal to s
(``tie``) -- win and tie 0 when s < q, since a qualifying dealer then beats the player.

**Inclusion-exclusion.**  With N_B(x) = #{H : B in H, s(H + u) < x}, the hole sets avoiding D are

    #{H : H & D = {}, s(H + u) < x} = sum over B subset of D, |B| <= 4, of (-1)^|B| N_B(x)

-- at most 31 terms for |D| = 5: the number of hole sets below x, 5 singles, 10 pairs, 10
triples and, for |B| = 4, whether the hole set B itself is below x.

**One strength-ordered sweep.**  The C(m, 4) hole sets are sorted by strength and added in
increasing strength to counters of every subset of up to 3 labels and a bit per hole set (37 KB
for m = 46: the counters are 16- and 8-bit, so they stay in the first-level cache); when the
sweep has added exactly the hole sets below x, N_B(x) is a counter (the 4-sets: the hole set's
bit).  So:

* at the qualifier, every *set*'s ``nq`` is one read (a set shared by several queries -- the same
  drawn cards under different switches -- is read once); the counters are then read-only and the
  sets are split among threads.  When the sets include all C(m, k) k-sets in colex order, those
  with the same k - 1 largest labels P are consecutive (the smallest label a varies fastest),
  and below(P + a) = R_P - sum over B subset of P of (-1)^|B| N(B + a), where N(B + a) for
  a = 0, 1, ... are consecutive counters: one read of P, then at most 15 runs through memory;
* from the qualifier up, a query of strength s reads below s when the sweep reaches s, and its
  ties after the hole sets of strength s are added: counted directly from those hole sets (a
  64-bit mask test each) when there are few of them, else a second read.  The queries are
  gathered in strength order first (set and no-qualify count side by side, so the sweep reads
  and writes in sequence); each thread takes a contiguous share of them and sweeps with its own
  copy of the counters, so there is no locking and the counts are the same however the work is
  split.

Counts are exact integers (int32: at most C(51, 4) = 249,900 hole sets).
"""
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy
from cython.parallel cimport prange
from evaluator._eval cimport binom_table, eval5, N_STRENGTHS
from enumerate.core._cancel cimport studodds_cancelled
from enumerate.core._combinatorics cimport choose, colex_unrank
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)
#: The label of an unused place in a packed query set, and the most unseen cards.
NO_LABEL_VALUE = NO_LABEL
MAX_UNSEEN_CARDS = MAX_UNSEEN

cdef enum:
    SCAN_TIES = 24      # count ties from the strength's hole sets directly up to this many


cdef struct Holes:
    # the C(m, 4) hole sets: strength by colex index, and in increasing strength their packed
    # labels (8 bits each) and label masks, strength s at positions start[s]..start[s + 1] - 1
    int64_t n
    int16_t* strength
    uint32_t* labels
    uint64_t* mask
    int64_t* start


cdef struct Counters:
    # one block, small enough to stay in the first-level cache for m = 46 (37 KB): a label is in
    # at most C(50, 3) = 19,600 hole sets, a pair in at most 1,176, a triple in at most 48
    int64_t added        # the empty set's counter: hole sets added so far
    uint64_t* added_bit  # bit t: the hole set of colex index t has been added (the 4-sets' N)
    uint16_t* c1         # m
    uint16_t* c2         # C(m, 2), colex index of the pair
    uint8_t* c3          # C(m, 3)
    size_t size          # bytes of the block (added_bit is its start)


cdef inline int _added(const Counters* c, int64_t t) noexcept nogil:
    return (c.added_bit[t >> 6] >> (t & 63)) & 1


cdef inline int64_t _read(const Counters* c, const int* a, int k, const int32_t* binom) noexcept nogil:
    """Hole sets added so far (those below some strength x) avoiding the labels a[0..k-1]."""
    cdef int64_t total = c.added
    cdef int i, j, l, h
    cdef int32_t i2, i3
    for i in range(k):
        total -= c.c1[a[i]]
        for j in range(i + 1, k):
            i2 = a[i] + binom[a[j] * 6 + 2]
            total += c.c2[i2]
            for l in range(j + 1, k):
                i3 = i2 + binom[a[l] * 6 + 3]
                total -= c.c3[i3]
                for h in range(l + 1, k):
                    total += _added(c, i3 + binom[a[h] * 6 + 4])
    return total


cdef inline bint _in_complete_run(int64_t i, const int64_t* complete, int m, const int32_t* binom) noexcept nogil:
    cdef int k
    for k in range(6):
        if complete[k] >= 0 and complete[k] <= i < complete[k] + choose(m, k, binom):
            return True
    return False


cdef int32_t _set_below(const Counters* c, uint32_t w, const int32_t* binom) noexcept nogil:
    """:func:`_read` of a packed set (its own label array: a thread's private)."""
    cdef int a[5]
    cdef int k = unpack_labels(w, a)
    return <int32_t>_read(c, a, k, binom)


cdef inline void _add(Counters* c, uint32_t w, const int32_t* binom) noexcept nogil:
    """Count the hole set with packed labels w (8 bits each, increasing)."""
    cdef int a = w & 255, b = (w >> 8) & 255, d = (w >> 16) & 255, e = (w >> 24) & 255
    cdef int32_t b2 = binom[b * 6 + 2], d2 = binom[d * 6 + 2], e2 = binom[e * 6 + 2]
    cdef int32_t d3 = binom[d * 6 + 3], e3 = binom[e * 6 + 3]
    cdef int64_t t = a + b2 + d3 + binom[e * 6 + 4]
    c.added += 1
    c.added_bit[t >> 6] |= (<uint64_t>1) << (t & 63)
    c.c1[a] += 1
    c.c1[b] += 1
    c.c1[d] += 1
    c.c1[e] += 1
    c.c2[a + b2] += 1
    c.c2[a + d2] += 1
    c.c2[a + e2] += 1
    c.c2[b + d2] += 1
    c.c2[b + e2] += 1
    c.c2[d + e2] += 1
    c.c3[a + b2 + d3] += 1
    c.c3[a + b2 + e3] += 1
    c.c3[a + d2 + e3] += 1
    c.c3[b + d2 + e3] += 1


cdef int _holes(const uint8_t* unseen, int m, int up, Holes* h, const int32_t* binom) noexcept nogil:
    """Every hole set's strength (colex order) and the sets sorted by strength."""
    cdef int a, b, d, e, s
    cdef int64_t t = 0, p
    h.n = binom[m * 6 + 4]
    h.strength = <int16_t*>malloc(h.n * sizeof(int16_t))
    h.labels = <uint32_t*>malloc(h.n * sizeof(uint32_t))
    h.mask = <uint64_t*>malloc(h.n * sizeof(uint64_t))
    h.start = <int64_t*>calloc(N_STRENGTHS + 1, sizeof(int64_t))
    if h.strength == NULL or h.labels == NULL or h.mask == NULL or h.start == NULL:
        return -1
    for e in range(3, m):                  # colex order: the largest label varies slowest
        for d in range(2, e):
            for b in range(1, d):
                for a in range(b):
                    s = eval5(unseen[a], unseen[b], unseen[d], unseen[e], up)
                    h.strength[t] = <int16_t>s
                    h.start[s + 1] += 1
                    t += 1
    for s in range(N_STRENGTHS):
        h.start[s + 1] += h.start[s]
    cdef int64_t* fill = <int64_t*>malloc(N_STRENGTHS * sizeof(int64_t))
    if fill == NULL:
        return -1
    memcpy(fill, h.start, N_STRENGTHS * sizeof(int64_t))
    t = 0
    for e in range(3, m):
        for d in range(2, e):
            for b in range(1, d):
                for a in range(b):
                    p = fill[h.strength[t]]
                    fill[h.strength[t]] += 1
                    h.labels[p] = <uint32_t>a | (<uint32_t>b << 8) | (<uint32_t>d << 16) | (<uint32_t>e << 24)
                    h.mask[p] = ((<uint64_t>1) << a) | ((<uint64_t>1) << b) | ((<uint64_t>1) << d) | ((<uint64_t>1) << e)
                    t += 1
    free(fill)
    return 0


cdef void _free_holes(Holes* h) noexcept nogil:
    free(h.strength)
    free(h.labels)
    free(h.mask)
    free(h.start)


cdef int _alloc_counters(Counters* c, int m, const int32_t* binom) noexcept nogil:
    cdef size_t words = (binom[m * 6 + 4] + 63) // 64
    c.added = 0
    c.size = words * 8 + (m + binom[m * 6 + 2]) * 2 + binom[m * 6 + 3]
    c.added_bit = <uint64_t*>calloc(c.size, 1)
    if c.added_bit == NULL:
        return -1
    c.c1 = <uint16_t*>(c.added_bit + words)
    c.c2 = c.c1 + m
    c.c3 = <uint8_t*>(c.c2 + binom[m * 6 + 2])
    return 0


cdef void _copy_counters(Counters* dst, const Counters* src) noexcept nogil:
    dst.added = src.added
    memcpy(dst.added_bit, src.added_bit, src.size)


cdef void _below_under_top(const Counters* c, int64_t t, int k, int m, int32_t* out,
                           const int32_t* binom) noexcept nogil:
    """The k-sets P + a whose k - 1 largest labels are P (the colex (k-1)-set t) and a < min(P):
    hole sets added so far (below some x) avoiding each (``out`` indexed by the k-set's colex rank).  With
    R_P = hole sets below x avoiding P,

        below(P + a) = R_P - sum over B subset of P, |B| <= 3, of (-1)^|B| N(B + a)

    and B + a's colex index is a + (B's labels at places 2, 3, ...): for each B a contiguous run
    of counters as a goes up."""
    cdef int top[4]
    cdef int i, j, l, a, lowest
    cdef int64_t base = 0
    cdef int32_t r, i1, i2, i3
    cdef int32_t* o
    colex_unrank(t, k - 1, m, top, binom)
    lowest = top[0] if k > 1 else m
    for i in range(k - 1):
        base += binom[top[i] * 6 + i + 2]
    r = <int32_t>_read(c, top, k - 1, binom)
    o = out + base
    for a in range(lowest):
        o[a] = r - c.c1[a]
    for i in range(k - 1):
        i1 = binom[top[i] * 6 + 2]
        for a in range(lowest):
            o[a] += c.c2[i1 + a]
        for j in range(i + 1, k - 1):
            i2 = i1 + binom[top[j] * 6 + 3]
            for a in range(lowest):
                o[a] -= c.c3[i2 + a]
            for l in range(j + 1, k - 1):
                i3 = i2 + binom[top[l] * 6 + 4]
                for a in range(lowest):
                    o[a] += _added(c, i3 + a)


cdef int _sweep_share(const Holes* h, const Counters* at_q, int m, int q, const uint32_t* sorted_set,
                      const int32_t* sorted_nq, const int64_t* qstart, int64_t lo, int64_t hi,
                      int32_t* sorted_win, int32_t* sorted_tie, const int32_t* cancel,
                      const int32_t* binom) noexcept nogil:
    """The queries at positions lo..hi-1 of the strength order (all at least q): their counts,
    from a sweep of this thread's own counters starting at the qualifier's."""
    cdef Counters c
    cdef int s, k, x, scan
    cdef int a[5]
    cdef int64_t r, t, ties
    cdef uint64_t dm
    if lo >= hi:
        return 0
    if _alloc_counters(&c, m, binom) != 0:
        return -1
    _copy_counters(&c, at_q)
    s = q
    while s < N_STRENGTHS and qstart[s] < hi:
        if studodds_cancelled(cancel):
            free(c.added_bit)
            return 1
        for r in range(max(lo, qstart[s]), min(hi, qstart[s + 1])):
            k = unpack_labels(sorted_set[r], a)
            sorted_win[r] = <int32_t>(_read(&c, a, k, binom) - sorted_nq[r])
        for t in range(h.start[s], h.start[s + 1]):
            _add(&c, h.labels[t], binom)
        scan = h.start[s + 1] - h.start[s] <= SCAN_TIES
        for r in range(max(lo, qstart[s]), min(hi, qstart[s + 1])):
            k = unpack_labels(sorted_set[r], a)
            if scan:
                dm = 0
                for x in range(k):
                    dm |= (<uint64_t>1) << a[x]
                ties = 0
                for t in range(h.start[s], h.start[s + 1]):
                    ties += (h.mask[t] & dm) == 0
                sorted_tie[r] = <int32_t>ties
            else:
                sorted_tie[r] = <int32_t>(_read(&c, a, k, binom) - sorted_win[r] - sorted_nq[r])
        s += 1
    free(c.added_bit)
    return 0


cdef void _sort_queries(const int16_t* query_strength, int64_t n_queries, int q, int64_t* qstart,
                        int32_t* order) noexcept nogil:
    """The queries from the qualifier up in increasing strength (a counting sort): those of
    strength s are order[qstart[s]:qstart[s + 1]].  Those below it lose to every qualifying dealer
    (no win, no tie) and are left out."""
    cdef int64_t p
    cdef int s
    for p in range(n_queries):
        if query_strength[p] >= q:
            qstart[query_strength[p] + 1] += 1
    for s in range(N_STRENGTHS):
        qstart[s + 1] += qstart[s]
    for p in range(n_queries):
        s = query_strength[p]
        if s >= q:
            order[qstart[s]] = <int32_t>p
            qstart[s] += 1
    for s in range(N_STRENGTHS, 0, -1):
        qstart[s] = qstart[s - 1]
    qstart[0] = 0


cdef void _no_qualify(const Holes* h, Counters* at_q, int m, int q, const uint32_t* sets, int64_t n_sets,
                      const int64_t* complete, int32_t* nq, int n_threads, const int32_t* binom) noexcept nogil:
    """The counters at the qualifier (every dealer hole set below it added), and every set's
    no-qualify count: a set's own by inclusion-exclusion, a complete run's by its top card."""
    cdef int64_t t, i
    cdef int k
    for t in range(h.start[q]):
        _add(at_q, h.labels[t], binom)
    for i in prange(n_sets, num_threads=n_threads, schedule="static"):
        if not _in_complete_run(i, complete, m, binom):
            nq[i] = _set_below(at_q, sets[i], binom)
    for k in range(6):
        if complete[k] >= 0:
            if k == 0:
                nq[complete[0]] = <int32_t>at_q.added
                continue
            for t in prange(choose(m, k - 1, binom), num_threads=n_threads, schedule="static"):
                _below_under_top(at_q, t, k, m, nq + complete[k], binom)


cdef int dead_counts(const uint8_t* unseen, int m, int up, int q,
                     const uint32_t* sets, int64_t n_sets, const int64_t* complete,
                     const int32_t* query_set, const int16_t* query_strength, int64_t n_queries,
                     int32_t* nq, int32_t* win, int32_t* tie,
                     const int32_t* cancel, int n_threads) noexcept nogil:
    """See ``_dead.pxd`` and the module docstring."""
    cdef const int32_t* binom = binom_table()
    cdef Holes h
    cdef Counters at_q
    cdef int64_t t, r, p, first, i, n_up
    cdef int s, k, status = 0, n_shares
    cdef uint32_t* sorted_set = NULL
    cdef int32_t* sorted_nq = NULL
    cdef int32_t* sorted_win = NULL
    cdef int32_t* sorted_tie = NULL
    cdef int64_t* qstart = NULL
    cdef int32_t* order = NULL
    cdef int* results = NULL
    h.strength = NULL
    h.labels = NULL
    h.mask = NULL
    h.start = NULL
    at_q.added_bit = NULL
    if _holes(unseen, m, up, &h, binom) != 0 or _alloc_counters(&at_q, m, binom) != 0:
        status = -1
    qstart = <int64_t*>calloc(N_STRENGTHS + 1, sizeof(int64_t))
    order = <int32_t*>malloc(max(n_queries, 1) * sizeof(int32_t))
    results = <int*>calloc(max(n_threads, 1), sizeof(int))
    if qstart == NULL or order == NULL or results == NULL:
        status = -1
    if status == 0:
        _sort_queries(query_strength, n_queries, q, qstart, order)
        for p in prange(n_queries, num_threads=n_threads, schedule="static"):
            if query_strength[p] < q:
                win[p] = 0
                tie[p] = 0
        _no_qualify(&h, &at_q, m, q, sets, n_sets, complete, nq, n_threads, binom)
        # the queries from the qualifier up, gathered in strength order (their sets and no-qualify
        # counts side by side: the sweep then reads and writes in sequence), in contiguous shares
        first = qstart[q]
        n_up = qstart[N_STRENGTHS] - first
        sorted_set = <uint32_t*>malloc(max(n_up, 1) * sizeof(uint32_t))
        sorted_nq = <int32_t*>malloc(max(n_up, 1) * sizeof(int32_t))
        sorted_win = <int32_t*>malloc(max(n_up, 1) * sizeof(int32_t))
        sorted_tie = <int32_t*>malloc(max(n_up, 1) * sizeof(int32_t))
        if sorted_set == NULL or sorted_nq == NULL or sorted_win == NULL or sorted_tie == NULL:
            status = -1
        else:
            for r in prange(n_up, num_threads=n_threads, schedule="static"):
                sorted_set[r] = sets[query_set[order[first + r]]]
                sorted_nq[r] = nq[query_set[order[first + r]]]
            n_shares = max(n_threads, 1)
            for i in prange(n_shares, num_threads=n_threads, schedule="static", chunksize=1):
                results[i] = _sweep_share(&h, &at_q, m, q, sorted_set - first, sorted_nq - first, qstart,
                                          first + n_up * i // n_shares, first + n_up * (i + 1) // n_shares,
                                          sorted_win - first, sorted_tie - first, cancel, binom)
            for i in range(n_shares):
                if results[i] != 0 and status == 0:
                    status = results[i]
            for r in prange(n_up, num_threads=n_threads, schedule="static"):
                win[order[first + r]] = sorted_win[r]
                tie[order[first + r]] = sorted_tie[r]
        free(sorted_set)
        free(sorted_nq)
        free(sorted_win)
        free(sorted_tie)
    _free_holes(&h)
    free(at_q.added_bit)
    free(qstart)
    free(order)
    free(results)
    return status


def dead_counts_of(const uint8_t[::1] unseen, int up, int q, const uint32_t[::1] sets,
                   const int64_t[::1] complete, const int32_t[::1] query_set, const int16_t[::1] query_strength,
                   int32_t[::1] nq, int32_t[::1] win, int32_t[::1] tie, const int32_t[::1] cancel,
                   int n_threads):
    """:c:func:`dead_counts` on numpy arrays (``complete``: 6 offsets or -1; ``nq``: one per set;
    ``win``, ``tie``: one per query), every input checked first (ValueError); raises
    MemoryError, or returns 1 if cancelled, else 0."""
    cdef int m = unseen.shape[0]
    cdef Py_ssize_t i
    cdef int k, j
    cdef int a[5]
    if not 4 <= m <= MAX_UNSEEN:
        raise ValueError(f"between 4 and {MAX_UNSEEN} unseen cards, not {m}")
    for i in range(m):
        if unseen[i] >= 52 or (i and unseen[i] <= unseen[i - 1]) or unseen[i] == up:
            raise ValueError("the unseen cards must be increasing cards 0..51 without the up card")
    if not 0 <= up < 52 or not 0 <= q <= N_STRENGTHS or n_threads < 1 or cancel.shape[0] < 1:
        raise ValueError("an up card 0..51, a qualifier 0..7462, at least one thread and a cancel flag")
    if nq.shape[0] != sets.shape[0] or win.shape[0] != query_set.shape[0] or tie.shape[0] != query_set.shape[0] \
            or query_strength.shape[0] != query_set.shape[0]:
        raise ValueError("one nq per set, one win, tie and strength per query")
    for i in range(sets.shape[0]):
        k = unpack_labels(sets[i], a)
        if sets[i] >> 30 or (k < 5 and sets[i] >> (6 * k) != (1 << (6 * (5 - k))) - 1):
            raise ValueError(f"set {i}: the unused places must all be NO_LABEL")
        for j in range(k):
            if a[j] >= m or (j and a[j] <= a[j - 1]):
                raise ValueError(f"set {i}: labels must be increasing and below {m}")
    if complete.shape[0] != 6:
        raise ValueError("complete: one offset (or -1) for each set size 0..5")
    cdef int64_t t, n_k
    cdef int b[6]
    for k in range(6):
        if complete[k] < 0:
            continue
        n_k = choose(m, k, binom_table())
        if complete[k] + n_k > sets.shape[0]:
            raise ValueError(f"complete: the {k}-sets at {complete[k]} run past the end of the sets")
        for j in range(k):
            b[j] = j
        for t in range(n_k):
            if sets[complete[k] + t] != pack_labels(b, k):
                raise ValueError(f"complete: set {complete[k] + t} is not the {k}-set of colex rank {t}")
            next_colex(b, k, m)
    for i in range(query_set.shape[0]):
        if not 0 <= query_set[i] < sets.shape[0] or not 0 <= query_strength[i] < N_STRENGTHS:
            raise ValueError(f"query {i}: a set index below {sets.shape[0]} and a strength 0..{N_STRENGTHS - 1}")
    cdef int status
    with nogil:
        status = dead_counts(&unseen[0], m, up, q, &sets[0] if sets.shape[0] else NULL, sets.shape[0], &complete[0],
                             &query_set[0] if query_set.shape[0] else NULL,
                             &query_strength[0] if query_set.shape[0] else NULL, query_set.shape[0],
                             &nq[0] if nq.shape[0] else NULL, &win[0] if win.shape[0] else NULL,
                             &tie[0] if tie.shape[0] else NULL, &cancel[0], n_threads)
    if status < 0:
        raise MemoryError("the dead-card engine ran out of memory")
    return status
