"""The seen-hand game counted by rank patterns (private; driven by enumerate.boxes.seen_ranks).

The up card is fixed to the card (ru, s0).  For a player rank pattern p (how many cards of each
rank the player holds, 5 in all) and a partner rank pattern q, every concrete pair (P, Q) with
those patterns leaves the dealer's hole cards the same rank-only counts: a hole set with rank
pattern h is one of prod_r C(a_r, h_r) sets, a_r = 4 - p_r - q_r - [r = ru].  Only the suit s0
of the up card can make the dealer a flush, so the sets that are flushes are told apart by
D0, the ranks whose s0 card the player or the partner holds: a hole pattern of four distinct
ranks avoiding ru and D0 is exactly one s0 flush.  The dealer counts of (P, Q) are

    rank part(p, q)  +  G_sp[D0]

where the rank part counts every hole set as the non-flush hand of its ranks (one pass over the
hole patterns, sorted by the dealer's strength, so that no qualifier / win / tie are three
prefix sums), and G_sp[D0] moves each s0 flush from the class its non-flush hand has against the
player's strength sp to the class the flush has: a sum over the 4-subsets of the 12 other ranks
that avoid D0, tabulated for all 4096 sets D0 by one subset-sum (zeta) transform per p.

A leaf is (p, q, SP, SQ): the ranks whose s0 card the player holds (SP) and the partner holds
(SQ); its multiplicity is a product over ranks of binomials (the player's and the partner's
other cards of that rank among the three non-s0 suits).  The player's hand is a flush when SP
is all of five distinct ranks (an s0 flush) or, when SP is empty, in 3 of the 3^5 choices of
the other suits (a flush in one of them).  At a leaf both decisions are made exactly:

* seeing the partner: raise iff the raise's linear form over the C(41, 4) sets beats folding;
* the normal game: the count table's decision, which is the same form over the C(46, 4) sets
  with dead cards P and u only -- rank part(p, 0) + G_sp[SP]; it depends on (p, SP, flush)
  alone, so it is decided once a pattern for every SP and read by the leaves.

Per player pattern the kernel sums, over every leaf weighted by its multiplicity: the situations,
V and N (the values seeing and not seeing), the raises seeing and normally, the changed decisions,
and -- for the return table of the game seen -- per player category the hole-card sets of raised
hands by outcome and those of folded hands.  The sums are kept in 128-bit integers and returned
as (low, high) 64-bit words.

**Two boxes** (``pairs``): P and Q are then one player's two boxes, each decided seeing both
hands.  Per leaf the kernel also makes Q's decision seeing P, from Q's counts against the same
hole-card sets -- the same rank part read at Q's cuts, plus the s0 flushes' correction to "the
sets below strength c" (``bank``: one row per range of c, one entry per D0; see
:func:`enumerate.core.rank_patterns.UpTables.flush_below`) -- and adds the pair's cross moment:
over the hole-card sets, the sum of the product of both boxes' results.  The dealer's strength
orders the hole-card sets once for both boxes, so each box's outcomes (no qualifier, win, tie,
loss) are four consecutive runs of that order, bounded by the sets below the qualifier, below the
box's strength and up to it; the sets with outcome i for P and j for Q are the overlap of two
runs.  Q's own value and second moment are summed too: over a slice that holds every (P, Q)
with (Q, P) they must equal P's (the run checks it), which ties Q's path to P's.  Which of P and Q is a flush outside s0 (both possible only when neither holds an s0 card
and both have five distinct ranks) splits a leaf: of its mm suit assignments, mm / 81 make P a
flush and mm / 81 make Q one (each of a box's cards is equally likely in each of the three other
suits), and 6 + 3 [no rank shared] make both (P all of suit s, Q all of suit t: s != t, or s = t
when no rank is shared).
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset
from cython.parallel cimport prange
from evaluator._eval cimport binom_table
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED
from enumerate.core._cancel cimport studodds_cancelled
from enumerate.core._combinatorics cimport choose
from enumerate.core._rank_patterns cimport (MASKS, Leaves, flush_move, flush_subset_sums, klass, leaves_first, leaves_next,
                                            leaves_option, leaves_rank, leaves_start, mask12, rank_part)

cdef extern from *:
    ctypedef long long int128 "__int128"

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)

#: Fields of a player pattern's sums: situations, value seeing, value of the normal decision,
#: raises seeing, normal raises, changed decisions; then, seeing, for each player category 0..9
#: the hole-card sets of raised hands (no qualifier, win, tie, dealer wins) and of folded ones.
FIELDS = 56
#: With ``pairs``: then the two boxes' cross moment (units 1 / scale^2 antes^2, over the C(41, 4)
#: sets), the assignments where both boxes raise, and the partner box's own first and second
#: moments (units 1 / scale and 1 / scale^2).
PAIR_FIELDS = 60
DEF N_FIELDS = 60
DEF RETURNS = 6
DEF SEEN_SETS = 101270      # C(41, 4)


cdef void _flush_table(int sp, int q, const int32_t[::1] fl_mask, const int16_t[::1] fl_st,
                       const int16_t[::1] fl_nf, int32_t* out) noexcept nogil:
    """out[3 * D0 + k]: the change of count k (no qualifier, win, tie) that the s0 flushes avoiding
    the dead s0 ranks D0 make against strength sp."""
    cdef int f, m, k
    cdef int32_t* acc = <int32_t*>calloc(MASKS * 3, sizeof(int32_t))
    for f in range(fl_mask.shape[0]):
        flush_move(acc, fl_mask[f], klass(sp, fl_st[f], q), klass(sp, fl_nf[f], q))
    flush_subset_sums(acc)
    # out[D0] = the patterns within the complement of D0
    for m in range(MASKS):
        for k in range(3):
            out[3 * m + k] = acc[3 * ((MASKS - 1) ^ m) + k]
    free(acc)


cdef inline void _counts(const int64_t* cum, const int32_t* cuts, int64_t* out) noexcept nogil:
    """(no qualifier, win, tie) from the prefix sums at the cuts (qualifier, below sp, up to sp)."""
    out[0] = cum[cuts[0]]
    out[1] = cum[cuts[1]] - cum[cuts[0]]
    out[2] = cum[cuts[2]] - cum[cuts[1]]


cdef struct Acc:
    int128 v[N_FIELDS]


cdef void _normal_decisions(int cat, const int64_t* norm, const int32_t* g, int pmask, const int64_t* coef,
                            const int64_t[::1] c_win, const int64_t[::1] thr, uint8_t* out) noexcept nogil:
    """out[SP]: the normal game's decision (the count table's) for the player's ranks whose s0
    card he holds SP (a subset of his ranks pmask), over the C(46, 4) sets avoiding his cards and
    the up card: decided once a pattern, read by every leaf of every partner pattern."""
    cdef int m
    cdef const int32_t* gn
    for m in range(MASKS):
        out[m] = 0
        if m & ~pmask:
            continue
        gn = g + 3 * m
        out[m] = ((norm[0] + gn[0]) * coef[0] + (norm[1] + gn[1]) * c_win[cat] + (norm[2] + gn[2]) * coef[1]
                  > thr[cat])


cdef inline int64_t _raise_value(int64_t nq, int64_t win, int64_t tie, int cat, const int64_t* coef,
                                 const int64_t[::1] c_win) noexcept nogil:
    """The raise's value over the C(41, 4) sets with these no-qualifier, win and tie counts
    (units 1 / scale antes; every other set a loss)."""
    return nq * coef[0] + win * c_win[cat] + tie * coef[1] - coef[2] * SEEN_SETS


cdef inline void _leaf(int64_t m, int cat, const int64_t* seen, const int32_t* g, int d0, bint usual,
                       const int64_t* coef, const int64_t[::1] c_win, Acc* acc) noexcept nogil:
    cdef const int32_t* gs = g + 3 * d0
    cdef int64_t raise_v, fold, chosen, usual_v
    cdef int64_t nq = seen[0] + gs[0], win = seen[1] + gs[1], tie = seen[2] + gs[2]
    cdef int base = RETURNS + 5 * cat
    cdef bint seen_raise
    raise_v = _raise_value(nq, win, tie, cat, coef, c_win)
    fold = -coef[3] * SEEN_SETS
    seen_raise = raise_v > fold
    chosen = raise_v if seen_raise else fold
    usual_v = raise_v if usual else fold
    if seen_raise:
        acc.v[base] += <int128>m * nq
        acc.v[base + 1] += <int128>m * win
        acc.v[base + 2] += <int128>m * tie
        acc.v[base + 3] += <int128>m * (SEEN_SETS - nq - win - tie)
    else:
        acc.v[base + 4] += <int128>m * SEEN_SETS
    acc.v[0] += m
    acc.v[1] += <int128>m * chosen
    acc.v[2] += <int128>m * usual_v
    if seen_raise:
        acc.v[3] += m
    if usual:
        acc.v[4] += m
    if seen_raise != usual:
        acc.v[5] += m


cdef struct Box:
    # one box of a pair at a leaf, decided seeing the other: its outcomes (no qualifier, win, tie,
    # loss) are the runs [cut[i], cut[i + 1]) of the hole-card sets in the dealer's order
    int64_t cut[5]
    int64_t x[4]            # the net result of each outcome, raised (units 1 / scale antes)
    bint raised
    int64_t value           # over the sets, the decision's (units 1 / scale)
    int64_t square          # over the sets, its square's (units 1 / scale^2; the other box's only)


cdef inline void _box(int64_t nq, int64_t below, int64_t upto, int cat, const int64_t* coef,
                      const int64_t[::1] c_win, Box* b) noexcept nogil:
    """A box whose sets below the qualifier, below its strength and up to it number nq, below
    and upto: its outcomes, its decision seeing the other box and its value."""
    cdef int64_t raise_v = _raise_value(nq, below - nq, upto - below, cat, coef, c_win)
    b.cut[0] = 0
    b.cut[1] = nq
    b.cut[2] = below
    b.cut[3] = upto
    b.cut[4] = SEEN_SETS
    b.x[0] = coef[0] - coef[2]
    b.x[1] = c_win[cat] - coef[2]
    b.x[2] = coef[1] - coef[2]
    b.x[3] = -coef[2]
    b.raised = raise_v > -coef[3] * SEEN_SETS
    b.value = raise_v if b.raised else -coef[3] * SEEN_SETS


cdef inline void _player_box(const int64_t* seen, const int32_t* g, int d0, int cat, const int64_t* coef,
                             const int64_t[::1] c_win, Box* b) noexcept nogil:
    """The player's box: its counts (no qualifier, win, tie) are the rank part's plus its s0 flush
    table's at D0, as :func:`_leaf` reads them."""
    cdef const int32_t* gs = g + 3 * d0
    cdef int64_t nq = seen[0] + gs[0]
    _box(nq, nq + seen[1] + gs[1], nq + seen[1] + gs[1] + seen[2] + gs[2], cat, coef, c_win, b)


cdef inline void _other_box(const int64_t* cum, const int32_t* qc, const int16_t[:, ::1] bank, int bq, int d0,
                            int cat, const int64_t* coef, const int64_t[::1] c_win, Box* b) noexcept nogil:
    """The other box: the sets below the qualifier, below its strength and up to it are the
    prefix sums at its cuts qc plus the flush bank's rows at D0; and its second moment."""
    cdef int i
    _box(cum[qc[0]] + bank[bq, d0], cum[qc[1]] + bank[qc[2], d0], cum[qc[3]] + bank[qc[4], d0], cat, coef, c_win, b)
    if b.raised:
        b.square = 0
        for i in range(4):
            b.square += (b.cut[i + 1] - b.cut[i]) * b.x[i] * b.x[i]
    else:
        b.square = coef[3] * coef[3] * SEEN_SETS


cdef inline int64_t _overlap(int64_t lo1, int64_t hi1, int64_t lo2, int64_t hi2) noexcept nogil:
    cdef int64_t lo = lo1 if lo1 > lo2 else lo2
    cdef int64_t hi = hi1 if hi1 < hi2 else hi2
    return hi - lo if hi > lo else 0


cdef inline void _pair(int64_t m, const Box* p, const Box* q, int64_t scale, Acc* acc) noexcept nogil:
    """Both boxes at one (sub-)leaf of multiplicity m: the cross moment (a raised box's outcome
    runs overlapped with the other's; a folded box's result is the constant -1 ante), the rounds
    where both raise, the other box's value and second moment."""
    cdef int64_t cross = 0
    cdef int i, j
    if p.raised and q.raised:
        for i in range(4):
            for j in range(4):
                cross += p.x[i] * q.x[j] * _overlap(p.cut[i], p.cut[i + 1], q.cut[j], q.cut[j + 1])
        acc.v[57] += m
    elif p.raised:
        cross = -scale * p.value
    elif q.raised:
        cross = -scale * q.value
    else:
        cross = scale * scale * SEEN_SETS
    acc.v[56] += <int128>m * cross
    acc.v[58] += <int128>m * q.value
    acc.v[59] += <int128>m * q.square


cdef struct Player:
    # the player's hand (a rank pattern against the up rank), as a flush (fl: distinct ranks, each
    # rank's s0 card his) and not (nf): its counts before any other hand, the s0 flush tables by
    # D0, the normal game's decision by SP, its category
    int a0[13]                # the cards of each rank neither his nor the up card
    int prank
    int pmask
    bint distinct
    int cat_nf
    int cat_fl
    int32_t cuts_nf[3]
    int32_t cuts_fl[3]
    int32_t* g_nf
    int32_t* g_fl
    uint8_t usual_nf[MASKS]
    uint8_t usual_fl[MASKS]


cdef struct Other:
    # the other hand (a rank pattern) at one player pattern: the player's counts with it out of
    # play; as a second box, its ranks, whether it can be a flush (an s0 flush), its cuts
    int64_t s_nf[3]
    int64_t s_fl[3]
    int qmask
    bint q_distinct
    bint q_s0
    bint disjoint
    const int32_t* qc_nf
    const int32_t* qc_fl
    int qcat_nf
    int qcat_fl


cdef struct Pair:
    # the four boxes of a leaf: the player's and the other's, each as a flush and not
    Box p_nf
    Box p_fl
    Box q_nf
    Box q_fl


cdef void _player(int ru, const int8_t* p, int sp_nf, int sp_fl, int cat_nf, int cat_fl, const int32_t* pcuts,
                  const uint8_t[:, ::1] hole_i, int iq, const int32_t[::1] fl_mask, const int16_t[::1] fl_st,
                  const int16_t[::1] fl_nf, int qual, const int64_t* coef, const int64_t[::1] c_win,
                  const int64_t[::1] thr, int64_t* cum, Player* P) noexcept nogil:
    """The player's side of a pattern: his ranks, cuts, s0 flush tables and normal decisions."""
    cdef int r
    cdef int64_t n_nf[3]
    cdef int64_t n_fl[3]
    P.prank = 0
    P.distinct = 1
    P.cat_nf = cat_nf
    P.cat_fl = cat_fl
    for r in range(13):
        if p[r] > 0:
            P.prank |= 1 << r
        P.a0[r] = 4 - p[r] - (1 if r == ru else 0)
        if p[r] > 1:
            P.distinct = 0
    P.pmask = mask12(P.prank, ru)
    P.cuts_nf[0] = iq
    P.cuts_nf[1] = pcuts[0] if pcuts[0] > iq else iq
    P.cuts_nf[2] = pcuts[1] if pcuts[1] > iq else iq
    P.cuts_fl[0] = P.cuts_fl[1] = P.cuts_fl[2] = 0
    _flush_table(sp_nf, qual, fl_mask, fl_st, fl_nf, P.g_nf)
    rank_part(P.a0, hole_i, binom_table(), cum)
    _counts(cum, P.cuts_nf, n_nf)
    _normal_decisions(cat_nf, n_nf, P.g_nf, P.pmask, coef, c_win, thr, P.usual_nf)
    if P.distinct:
        P.cuts_fl[0] = iq
        P.cuts_fl[1] = pcuts[2] if pcuts[2] > iq else iq
        P.cuts_fl[2] = pcuts[3] if pcuts[3] > iq else iq
        _flush_table(sp_fl, qual, fl_mask, fl_st, fl_nf, P.g_fl)
        _counts(cum, P.cuts_fl, n_fl)
        _normal_decisions(cat_fl, n_fl, P.g_fl, P.pmask, coef, c_win, thr, P.usual_fl)


cdef bint _other(int ru, const Player* P, const int8_t* q, Py_ssize_t t, const uint8_t[:, ::1] hole_i,
                 bint pairs, const int32_t[:, ::1] qcuts, const int8_t[:, ::1] qcat, int64_t* cum,
                 Other* O) noexcept nogil:
    """The other hand ``q`` (the t-th pattern): the player's counts with it out of play, and as a
    second box its ranks and cuts; False when the deck cannot hold both."""
    cdef int a[13]
    cdef int r, qrank = 0
    for r in range(13):
        a[r] = P.a0[r] - q[r]
        if a[r] < 0:
            return 0
    rank_part(a, hole_i, binom_table(), cum)
    _counts(cum, P.cuts_nf, O.s_nf)
    if P.distinct:
        _counts(cum, P.cuts_fl, O.s_fl)
    if pairs:
        O.q_distinct = 1
        for r in range(13):
            if q[r] > 0:
                qrank |= 1 << r
            if q[r] > 1:
                O.q_distinct = 0
        O.qmask = mask12(qrank, ru)
        O.q_s0 = O.q_distinct and q[ru] == 0
        O.disjoint = (P.prank & qrank) == 0
        O.qc_nf = &qcuts[t, 0]
        O.qc_fl = &qcuts[t, 5]
        O.qcat_nf = qcat[t, 0]
        O.qcat_fl = qcat[t, 1]
    return 1


cdef int64_t _options(int ru, const int8_t* p, const int8_t* q, Leaves* L) noexcept nogil:
    """The leaves of the pair of patterns: per rank whose s0 card may be the player's (b0), the
    other hand's (b1) or neither, the number of assignments; returns the up rank's share."""
    cdef const int32_t* binom = binom_table()
    cdef int r, pr, qr, bit
    leaves_start(L)
    for r in range(13):
        pr = p[r]
        qr = q[r]
        if r == ru or pr + qr == 0:
            continue
        bit = 1 << (r if r < ru else r - 1)
        if pr >= 1:
            leaves_option(L, choose(3, pr - 1, binom) * choose(4 - pr, qr, binom), bit, 0)
        if qr >= 1:
            leaves_option(L, choose(3, pr, binom) * choose(3 - pr, qr - 1, binom), 0, bit)
        leaves_option(L, choose(3, pr, binom) * choose(3 - pr, qr, binom), 0, 0)
        leaves_rank(L)
    return choose(3, p[ru], binom) * choose(3 - p[ru], q[ru], binom)


cdef inline int _seen_leaf(int64_t mm, int sp, int d0, const int8_t* p, int ru, const Player* P, const Other* O,
                           const int64_t* coef, const int64_t[::1] c_win, Acc* acc) noexcept nogil:
    """The player's box at a leaf (mm assignments, his s0 ranks sp, the dead s0 ranks d0), seeing
    the other hand: valued as a flush where his s0 cards make one, else not.  Returns his state:
    0 not a flush, 1 an s0 flush, 2 a flush in another suit or not."""
    cdef int64_t m_fl
    if P.distinct and sp == P.pmask and p[ru] == 0:
        _leaf(mm, P.cat_fl, O.s_fl, P.g_fl, d0, P.usual_fl[sp], coef, c_win, acc)
        return 1
    if P.distinct and sp == 0:
        m_fl = mm // 81
        _leaf(m_fl, P.cat_fl, O.s_fl, P.g_fl, d0, P.usual_fl[0], coef, c_win, acc)
        _leaf(mm - m_fl, P.cat_nf, O.s_nf, P.g_nf, d0, P.usual_nf[0], coef, c_win, acc)
        return 2
    _leaf(mm, P.cat_nf, O.s_nf, P.g_nf, d0, P.usual_nf[sp], coef, c_win, acc)
    return 0


cdef inline void _pair_leaf(int64_t mm, int p_state, int sq, int d0, const Player* P, const Other* O,
                            const int64_t* cum, const int16_t[:, ::1] bank, int bq, const int64_t* coef,
                            const int64_t[::1] c_win, Pair* B, Acc* acc) noexcept nogil:
    """Both boxes at a leaf: each as a flush and as not, where its assignments hold it (the other
    box's s0 ranks sq), and the four pairs of them by their shares."""
    cdef int q_state = 0
    cdef int64_t m_pf, m_qf, m_ff
    if O.q_s0 and sq == O.qmask:
        q_state = 1
    elif O.q_distinct and sq == 0:
        q_state = 2
    m_pf = mm // 81 if p_state == 2 else (mm if p_state == 1 else 0)
    m_qf = mm // 81 if q_state == 2 else (mm if q_state == 1 else 0)
    m_ff = m_pf if q_state == 1 else (m_qf if p_state == 1 else 0)
    if p_state == 2 and q_state == 2:
        m_ff = 6 + (3 if O.disjoint else 0)
    if m_pf:
        _player_box(O.s_fl, P.g_fl, d0, P.cat_fl, coef, c_win, &B.p_fl)
    if mm - m_pf:
        _player_box(O.s_nf, P.g_nf, d0, P.cat_nf, coef, c_win, &B.p_nf)
    if m_qf:
        _other_box(cum, O.qc_fl, bank, bq, d0, O.qcat_fl, coef, c_win, &B.q_fl)
    if mm - m_qf:
        _other_box(cum, O.qc_nf, bank, bq, d0, O.qcat_nf, coef, c_win, &B.q_nf)
    if m_ff:
        _pair(m_ff, &B.p_fl, &B.q_fl, coef[3], acc)
    if m_pf - m_ff:
        _pair(m_pf - m_ff, &B.p_fl, &B.q_nf, coef[3], acc)
    if m_qf - m_ff:
        _pair(m_qf - m_ff, &B.p_nf, &B.q_fl, coef[3], acc)
    if mm - m_pf - m_qf + m_ff:
        _pair(mm - m_pf - m_qf + m_ff, &B.p_nf, &B.q_nf, coef[3], acc)


cdef void _pattern(int ru, const int8_t* p, int sp_nf, int sp_fl, int cat_nf, int cat_fl, const int32_t* pcuts,
                   const int8_t[:, ::1] qvec, const uint8_t[:, ::1] hole_i, int iq,
                   const int32_t[::1] fl_mask, const int16_t[::1] fl_st, const int16_t[::1] fl_nf, int qual,
                   const int64_t* coef, const int64_t[::1] c_win, const int64_t[::1] thr,
                   bint pairs, const int32_t[:, ::1] qcuts, const int8_t[:, ::1] qcat, const int16_t[:, ::1] bank,
                   int bq, const int32_t* cancel, Acc* acc) noexcept nogil:
    """A player pattern against every other hand's pattern: the leaves of each pair (the shared
    traversal of enumerate/core/_rank_patterns.pxd), each valued by _seen_leaf and, counted as
    pairs, by _pair_leaf."""
    cdef Player P
    cdef Other O
    cdef Pair B
    cdef Leaves L
    cdef int p_state, sp, sq
    cdef Py_ssize_t t
    cdef int64_t* cum = <int64_t*>malloc((hole_i.shape[0] + 1) * sizeof(int64_t))
    P.g_nf = <int32_t*>malloc(MASKS * 3 * sizeof(int32_t))
    P.g_fl = <int32_t*>malloc(MASKS * 3 * sizeof(int32_t))
    memset(&B, 0, sizeof(Pair))      # a box is made before any sub-leaf that reads it
    memset(&O, 0, sizeof(Other))
    _player(ru, p, sp_nf, sp_fl, cat_nf, cat_fl, pcuts, hole_i, iq, fl_mask, fl_st, fl_nf, qual, coef, c_win, thr,
            cum, &P)
    for t in range(qvec.shape[0]):
        if studodds_cancelled(cancel):
            break
        if not _other(ru, &P, &qvec[t, 0], t, hole_i, pairs, qcuts, qcat, cum, &O):
            continue
        leaves_first(&L, _options(ru, p, &qvec[t, 0], &L), 0, 0)
        while True:
            sp = L.pre_b0[L.n]
            sq = L.pre_b1[L.n]
            p_state = _seen_leaf(L.pre_m[L.n], sp, sp | sq, p, ru, &P, &O, coef, c_win, acc)
            if pairs:
                _pair_leaf(L.pre_m[L.n], p_state, sq, sp | sq, &P, &O, cum, bank, bq, coef, c_win, &B, acc)
            if not leaves_next(&L):
                break
    free(P.g_nf)
    free(P.g_fl)
    free(cum)


def value_patterns(int ru, const int8_t[:, ::1] pvec, const int16_t[::1] sp_nf, const int16_t[::1] sp_fl,
                   const int8_t[::1] cat_nf, const int8_t[::1] cat_fl, const int32_t[:, ::1] pcuts,
                   const int8_t[:, ::1] qvec, const uint8_t[:, ::1] hole_i, int iq,
                   const int32_t[::1] fl_mask, const int16_t[::1] fl_st, const int16_t[::1] fl_nf, int qual,
                   const int64_t[::1] coef, const int64_t[::1] c_win, const int64_t[::1] thr,
                   uint64_t[:, :, ::1] out, int n_threads, int32_t[::1] cancel=None,
                   const int32_t[:, ::1] qcuts=None, const int8_t[:, ::1] qcat=None,
                   const int16_t[:, ::1] bank=None, int bq=0):
    """out[i, f] = (low, high) words of field f's sum over every partner pattern of qvec and every
    suit assignment, for the player pattern pvec[i] against the up card (ru, s0).  coef =
    (c_nq, c_tie, c_lose, scale); c_win and thr (the normal game's raise thresholds over
    C(46, 4) sets) by category; pcuts[i] = the hole patterns below and up to sp_nf, and to sp_fl.
    With FIELDS columns of out, the seen-hand sums; with PAIR_FIELDS, also the two boxes' (the
    partner's cuts qcuts[t] = for its non-flush and its flush strength: the qualifier's prefix
    index, then the prefix index and bank row below the strength and up to it; qcat[t] its
    categories; bank and its qualifier row bq: the s0 flushes' correction, see the docstring)."""
    cdef Py_ssize_t n = pvec.shape[0], i
    cdef int f, n_fields = out.shape[1]
    cdef bint pairs = n_fields == PAIR_FIELDS
    if pairs and (qcuts is None or qcat is None or bank is None or qcuts.shape[0] != qvec.shape[0]
                  or qcuts.shape[1] != 10 or qcat.shape[0] != qvec.shape[0] or qcat.shape[1] != 2
                  or bank.shape[1] != MASKS or not 0 <= bq < bank.shape[0]):
        raise ValueError("the two boxes' tables do not match")
    if pairs:
        for i in range(qcuts.shape[0]):
            for f in range(10):          # per strength: the qualifier's prefix index, then (prefix, bank row) twice
                if not 0 <= qcuts[i, f] < (bank.shape[0] if f % 5 in (2, 4) else hole_i.shape[0] + 1):
                    raise ValueError("a partner's cut is out of range")
            if not (0 <= qcat[i, 0] < 10 and 0 <= qcat[i, 1] < 10):
                raise ValueError("a partner's category is out of range")
    if (pvec.shape[1] != 13 or qvec.shape[1] != 13 or sp_nf.shape[0] != n or sp_fl.shape[0] != n
            or cat_nf.shape[0] != n or cat_fl.shape[0] != n or pcuts.shape[0] != n or pcuts.shape[1] != 4
            or hole_i.shape[1] != 4
            or fl_st.shape[0] != fl_mask.shape[0] or fl_nf.shape[0] != fl_mask.shape[0]
            or coef.shape[0] != 4 or c_win.shape[0] != 10 or thr.shape[0] != 10
            or out.shape[0] != n or n_fields not in (FIELDS, PAIR_FIELDS) or out.shape[2] != 2):
        raise ValueError("shapes do not match")
    if not 0 <= ru < 13:
        raise ValueError("up rank out of range")
    if n == 0:
        return
    cdef const int32_t* flag = &cancel[0] if cancel is not None else NULL
    cdef Acc* accs = <Acc*>calloc(n, sizeof(Acc))
    try:
        for i in prange(n, nogil=True, schedule="dynamic", chunksize=1, num_threads=n_threads):
            if studodds_cancelled(flag):
                continue
            _pattern(ru, &pvec[i, 0], sp_nf[i], sp_fl[i], cat_nf[i], cat_fl[i], &pcuts[i, 0], qvec, hole_i,
                     iq, fl_mask, fl_st, fl_nf, qual, &coef[0], c_win, thr, pairs, qcuts, qcat, bank, bq, flag,
                     &accs[i])
        for i in range(n):
            for f in range(n_fields):
                out[i, f, 0] = <uint64_t>accs[i].v[f]
                out[i, f, 1] = <uint64_t>(accs[i].v[f] >> 64)
    finally:
        free(accs)
