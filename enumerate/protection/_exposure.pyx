"""Exact play with extra knowledge of the dealer's hand (private; use enumerate.protection).

The player sees his five cards P and a set K of j dealer cards (the up card and j - 1 exposed
hole cards, 1 <= j <= 4); the other r = 5 - j dealer cards C are any r of the 47 - j cards left.
Optionally every completion C also carries a *level*, the number of its cards whose rank is in a
marked set S (edge sorting: the player sees how many hole cards are sorted), and the player knows
the level too.  An information set is (P, K, level); the player raises iff EV(raise) > -1 there.

For a fixed K the kernel sweeps all 2,598,960 hands in increasing strength.  For the counts of
completions disjoint from P with strength below a threshold x it uses inclusion-exclusion over
the cards of P, as the main engine does:

    #{C : C & P = {}, s(K + C) < x, level(C) = l}
        = sum over T subset of P of (-1)^|T| #{C : C contains T, s(K + C) < x, level(C) = l}

Terms with |T| < r are counters (one per card set T of 0..r-1 cards and level) advanced with the
sweep; the |T| = r terms are single completions, looked up by the colex index of T.  A snapshot
of the counters at the qualifier gives the non-qualifying counts; ties are counted directly from
the completions of exactly P's strength.

Symmetry: K runs over one representative per suit-relabelling class (weight = class size), and
P over one representative per class of the relabellings that fix K (weight = orbit size); the
statistics are invariant under relabelling, so the weighted sums are exact.  Each K is handled
by one thread, which writes its own rows of the output: the result does not depend on the
thread count.
"""
import numpy as np
from evaluator._eval import strength_by_index
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from cython.parallel cimport prange, threadid
from evaluator._eval cimport binom_table, strength_table, N_STRENGTHS
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED
from enumerate.core._combinatorics cimport choose, colex_of_bits, popcount5, popcount64, subsets_by_size
from enumerate.core._cancel cimport studodds_cancelled

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)

cdef enum:
    MAX_LEVELS = 5
    N_CATEGORIES = 10
    N_GROUPS = 18           # player hand groups of the strategy chart (see enumerate.protection)
    MAX_COMPLETIONS = 249900  # C(51, 4)
    MAX_COLEX = 270725      # C(52, 4)

# statistics columns per player category
cdef enum:
    X_COMBINATIONS = 0      # combinations (information sets x their completions)
    X_RAISED_COMBINATIONS = 1
    X_SETS = 2              # information sets
    X_RAISED_SETS = 3
    X_INDIFFERENT_SETS = 4  # EV(raise) == EV(fold) exactly
    X_NO_QUALIFY = 5        # over raised information sets: dealer does not qualify
    X_WIN = 6
    X_TIE = 7
    X_LOSE = 8
    X_NO_QUALIFY_ALL = 9    # over all information sets
    N_COLUMNS = 10

COLUMNS = {"combinations": X_COMBINATIONS, "raised_combinations": X_RAISED_COMBINATIONS,
           "sets": X_SETS, "raised_sets": X_RAISED_SETS, "indifferent_sets": X_INDIFFERENT_SETS,
           "no_qualify": X_NO_QUALIFY, "win": X_WIN, "tie": X_TIE, "lose": X_LOSE,
           "no_qualify_all": X_NO_QUALIFY_ALL}
GROUPS = N_GROUPS

# counter offsets of card sets of 0, 1, 2, 3 cards
cdef int32_t _OFF[4]
_OFF[0] = 0
_OFF[1] = 1
_OFF[2] = 1 + 52
_OFF[3] = 1 + 52 + 1326

cdef int _FACT[5]
_FACT[0] = 1
_FACT[1] = 1
_FACT[2] = 2
_FACT[3] = 6
_FACT[4] = 24


# subsets of the player's five cards by size: _SUB_POS[m] lists the positions of mask m's bits
cdef int _SUB_SIZE[32]
cdef int _SUB_POS[32][5]
cdef int _BY_SIZE[32]          # masks ordered by size
cdef int _SIZE_START[7]        # _BY_SIZE[_SIZE_START[k]:_SIZE_START[k + 1]] have k bits


def _init_subsets():
    cdef int masks[32]
    subsets_by_size(masks)
    for i in range(32):
        _BY_SIZE[i] = masks[i]
    for k in range(7):
        _SIZE_START[k] = sum(1 for m in range(32) if popcount5(m) < k)
    for m in range(32):
        pos = [i for i in range(5) if (m >> i) & 1]
        _SUB_SIZE[m] = len(pos)
        for t, i in enumerate(pos):
            _SUB_POS[m][t] = i


_init_subsets()


cdef struct Work:
    uint64_t* comp_mask         # completions sorted by strength
    int16_t* comp_strength
    uint8_t* comp_level
    uint8_t* comp_cards         # 4 per completion (r used)
    uint64_t* tmp_mask          # unsorted
    int16_t* tmp_strength
    uint8_t* tmp_level
    uint8_t* tmp_cards
    int32_t* bucket             # N_STRENGTHS + 1
    int16_t* strength_by_colex  # strength of K + T for r-card sets T, by colex index of T
    int32_t* live               # counters below the current strength: [set][level]
    int32_t* at_q               # counters below the qualifier
    uint64_t pair_live[52]      # r = 2: cards b with {a, b} below the current strength
    uint64_t pair_q[52]         # r = 2: ... below the qualifier


cdef struct Ctx:
    int j
    int r
    int n_levels
    int qualifier
    int reduce
    int64_t n_hands
    const uint8_t* hand_cards
    const uint64_t* hand_masks
    const uint64_t* hand_suits
    const int16_t* hand_strength
    const uint8_t* hand_group
    const int16_t* category
    const uint8_t* level_of_card
    int64_t c_nq
    const int64_t* c_win
    int64_t c_tie
    int64_t c_fold         # folding's net above a lost raise, times scale, per dealer hand
    int n_counters
    int n_marked
    int generic                 # 1: always the inclusion-exclusion path (for the tests)
    int burn                    # 1: j = 1 and the player also sees a burn card (every one)
    const int32_t* cancel       # set to 1 by the caller: stop now (see enumerate/core/_cancel.pxd)


cdef int _work_alloc(Work* w) noexcept nogil:
    w.comp_mask = <uint64_t*>malloc(MAX_COMPLETIONS * sizeof(uint64_t))
    w.comp_strength = <int16_t*>malloc(MAX_COMPLETIONS * sizeof(int16_t))
    w.comp_level = <uint8_t*>malloc(MAX_COMPLETIONS * sizeof(uint8_t))
    w.comp_cards = <uint8_t*>malloc(MAX_COMPLETIONS * 4 * sizeof(uint8_t))
    w.tmp_mask = <uint64_t*>malloc(MAX_COMPLETIONS * sizeof(uint64_t))
    w.tmp_strength = <int16_t*>malloc(MAX_COMPLETIONS * sizeof(int16_t))
    w.tmp_level = <uint8_t*>malloc(MAX_COMPLETIONS * sizeof(uint8_t))
    w.tmp_cards = <uint8_t*>malloc(MAX_COMPLETIONS * 4 * sizeof(uint8_t))
    w.bucket = <int32_t*>malloc((N_STRENGTHS + 1) * sizeof(int32_t))
    w.strength_by_colex = <int16_t*>malloc(MAX_COLEX * sizeof(int16_t))
    w.live = <int32_t*>malloc((1 + 52 + 1326 + 22100) * MAX_LEVELS * sizeof(int32_t))
    w.at_q = <int32_t*>malloc((1 + 52 + 1326 + 22100) * MAX_LEVELS * sizeof(int32_t))
    return (w.comp_mask != NULL and w.comp_strength != NULL and w.comp_level != NULL
            and w.comp_cards != NULL and w.tmp_mask != NULL and w.tmp_strength != NULL
            and w.tmp_level != NULL and w.tmp_cards != NULL and w.bucket != NULL
            and w.strength_by_colex != NULL and w.live != NULL and w.at_q != NULL)


cdef void _work_free(Work* w) noexcept nogil:
    free(w.comp_mask); free(w.comp_strength); free(w.comp_level); free(w.comp_cards)
    free(w.tmp_mask); free(w.tmp_strength); free(w.tmp_level); free(w.tmp_cards)
    free(w.bucket); free(w.strength_by_colex); free(w.live); free(w.at_q)


cdef inline void _add(int32_t* cnt, const uint8_t* c, int r, int level, int n_levels,
                      const int32_t* binom) noexcept nogil:
    """Count one completion (sorted cards c, r of them) in the counters of its proper subsets."""
    cdef unsigned int m, full = (1u << r) - 1
    for m in range(full):
        cnt[(_OFF[popcount5(m)] + colex_of_bits(c, m, binom)) * n_levels + level] += 1


cdef int64_t _completions(const Ctx* ctx, const uint8_t* K, Work* w) noexcept nogil:
    """All r-card completions of K, sorted by the strength of K + C (counting sort)."""
    cdef const int32_t* binom = binom_table()
    cdef const int16_t* strength = strength_table()
    cdef int rem[52]
    cdef int n_rem = 0, c, i, a, b, r = ctx.r, j = ctx.j
    cdef int idx[4]
    cdef uint8_t hand[5]
    cdef uint8_t cc[4]
    cdef uint64_t kmask = 0, m
    cdef int64_t n = 0, t
    cdef int lvl, s, pos
    for i in range(j):
        kmask |= (<uint64_t>1) << K[i]
    for c in range(52):
        if not (kmask >> c) & 1:
            rem[n_rem] = c
            n_rem += 1
    memset(w.bucket, 0, (N_STRENGTHS + 1) * sizeof(int32_t))
    for i in range(r):
        idx[i] = i
    while True:
        m = 0
        lvl = 0
        for i in range(r):
            cc[i] = <uint8_t>rem[idx[i]]
            m |= (<uint64_t>1) << cc[i]
            lvl += ctx.level_of_card[cc[i]]
        # merge K (sorted) and C (sorted) into the sorted 5-card hand
        a = 0
        b = 0
        for i in range(5):
            if b >= r or (a < j and K[a] < cc[b]):
                hand[i] = K[a]
                a += 1
            else:
                hand[i] = cc[b]
                b += 1
        s = strength[binom[hand[0] * 6 + 1] + binom[hand[1] * 6 + 2] + binom[hand[2] * 6 + 3]
                     + binom[hand[3] * 6 + 4] + binom[hand[4] * 6 + 5]]
        w.tmp_mask[n] = m
        w.tmp_strength[n] = <int16_t>s
        w.tmp_level[n] = <uint8_t>lvl
        for i in range(r):
            w.tmp_cards[n * 4 + i] = cc[i]
        w.strength_by_colex[colex_of_bits(cc, (1u << r) - 1, binom)] = <int16_t>s
        w.bucket[s + 1] += 1
        n += 1
        # next combination of r indices out of n_rem
        i = r - 1
        while i >= 0 and idx[i] == n_rem - r + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for a in range(i + 1, r):
            idx[a] = idx[a - 1] + 1
    for s in range(N_STRENGTHS):
        w.bucket[s + 1] += w.bucket[s]
    for t in range(n):
        pos = w.bucket[w.tmp_strength[t]]
        w.bucket[w.tmp_strength[t]] += 1
        w.comp_mask[pos] = w.tmp_mask[t]
        w.comp_strength[pos] = w.tmp_strength[t]
        w.comp_level[pos] = w.tmp_level[t]
        for i in range(r):
            w.comp_cards[pos * 4 + i] = w.tmp_cards[t * 4 + i]
    return n


cdef inline void _ie_three(const uint8_t* pc, const int32_t* at_q, const int32_t* live, const int16_t* sbc,
                           int q, int s, bint both, const int32_t* binom, int64_t* out_q,
                           int64_t* out_s) noexcept nogil:
    """Three unseen cards: the completions disjoint from P (sorted cards pc) below the qualifier
    and, when ``both``, below P's own strength, by unrolled inclusion-exclusion in one pass
    (counters for the empty set, single cards and pairs; single completions for triples)."""
    cdef int a, b, c
    cdef int32_t i1, i2, i3
    cdef int16_t t
    cdef int64_t tq = at_q[0], ts = live[0]
    for a in range(5):
        i1 = 1 + pc[a]
        tq -= at_q[i1]
        ts -= live[i1]
        for b in range(a + 1, 5):
            i2 = pc[a] + binom[pc[b] * 6 + 2]
            tq += at_q[53 + i2]
            ts += live[53 + i2]
            for c in range(b + 1, 5):
                t = sbc[i2 + binom[pc[c] * 6 + 3]]
                tq -= t < q
                ts -= t < s
    out_q[0] = tq
    if both:
        out_s[0] = ts


cdef inline void _record(int64_t* st, int64_t* chart_cell, int64_t weight, int64_t nq, int64_t win,
                         int64_t tie, int64_t n_set, int64_t form, int64_t threshold) noexcept nogil:
    """Add one information set (st: its category's row of statistics)."""
    cdef int64_t raised = form > threshold
    cdef int64_t wr = weight * raised
    st[X_COMBINATIONS] += weight * n_set
    st[X_SETS] += weight
    st[X_NO_QUALIFY_ALL] += weight * nq
    st[X_INDIFFERENT_SETS] += weight * (form == threshold)
    chart_cell[1] += weight
    chart_cell[0] += wr
    st[X_RAISED_COMBINATIONS] += wr * n_set
    st[X_RAISED_SETS] += wr
    st[X_NO_QUALIFY] += wr * nq
    st[X_WIN] += wr * win
    st[X_TIE] += wr * tie
    st[X_LOSE] += wr * (n_set - nq - win - tie)


cdef inline int _symmetries(const int* kmasks, int* block_of, int* pair_a, int* pair_b) noexcept nogil:
    """The relabellings fixing a known set permute the suits with equal known-card masks: put
    each suit in the block of the first suit with its mask, and list the pairs of consecutive
    suits of a block (a canonical player hand has non-increasing suit masks along them)."""
    cdef int a, b, n_pairs = 0
    for a in range(4):
        block_of[a] = a
        for b in range(a):
            if kmasks[b] == kmasks[a]:
                block_of[a] = block_of[b]
                break
    for a in range(4):
        for b in range(a + 1, 4):
            if block_of[b] == block_of[a]:
                pair_a[n_pairs] = a
                pair_b[n_pairs] = b
                n_pairs += 1
                break
    return n_pairs


cdef inline int64_t _orbit_weight(uint64_t suits, int n_pairs, const int* pair_a, const int* pair_b,
                                  const int* block_of) noexcept nogil:
    """0 unless the hand (packed suit masks) is the canonical one of its orbit under the
    relabellings fixing the known set; else the orbit size: per block, |block|! over the
    product of (multiplicity of equal hand masks)!."""
    cdef int pm[4]
    cdef int i, a, b, k, size
    cdef int64_t weight = 1, den = 1
    for i in range(4):
        pm[i] = <int>((suits >> (16 * i)) & 0xFFFF)
    for i in range(n_pairs):
        if pm[pair_a[i]] < pm[pair_b[i]]:
            return 0
    for a in range(4):
        if block_of[a] != a:
            continue
        size = 0
        for b in range(a, 4):
            if block_of[b] == a:
                size += 1
                # the (k+1)-th member with this mask: a factor k + 1 of the multiplicity!
                k = 0
                for i in range(a, b):
                    if block_of[i] == a and pm[i] == pm[b]:
                        k += 1
                den *= k + 1
        weight *= _FACT[size]
    return weight // den


cdef inline void _flush(int64_t* stats, int64_t* chart, int cat, int grp, int64_t* acc,
                        int64_t n_set) noexcept nogil:
    """Add the running sums to the statistics and the chart (level 0), and clear them; the
    combination columns were summed as information sets of n_set completions each."""
    cdef int i
    acc[X_COMBINATIONS] *= n_set
    acc[X_RAISED_COMBINATIONS] *= n_set
    for i in range(N_COLUMNS):
        stats[cat * N_COLUMNS + i] += acc[i]
    chart[grp * 2] += acc[X_RAISED_SETS]
    chart[grp * 2 + 1] += acc[X_SETS]
    for i in range(N_COLUMNS):
        acc[i] = 0


cdef void _burn_cards(const Ctx* ctx, Work* w, const uint8_t* pc, uint64_t dead, int s, int64_t d,
                      int64_t d_tie, int64_t nq, int64_t win, int64_t tie, int cat, int64_t weight,
                      int64_t* st, int64_t* chart_cell, int32_t* counts_out) noexcept nogil:
    """One known card u (j = 1) and a burn card b seen too: for every b not in P or u, the
    counts over the hole-card sets without b are P's counts minus those of the sets holding b,

        #{C : C & P = {}, b in C, s < x} = sum over T subset of P of (-1)^|T| N(T + b, x),

    with counters for |T| <= 2 and single completions for |T| = 3 (colex index of T + b from
    prefix and suffix sums of T's terms)."""
    cdef const int32_t* binom = binom_table()
    cdef int q = ctx.qualifier
    cdef int n_t = 0, i, k, m, a, b, c
    cdef int t_size[26]
    cdef int t_card[26][3]
    cdef int32_t pre[26][4]
    cdef int32_t suf[26][4]
    cdef int64_t tie_with[52]
    cdef int64_t bq, bs, btie, nq_b, win_b, tie_b, form, threshold, n_set
    cdef int32_t idx
    cdef unsigned int mask
    n_set = 148995          # C(45, 4)
    threshold = ctx.c_fold * n_set
    for mask in range(32):
        k = _SUB_SIZE[mask]
        if k > 3:
            continue
        t_size[n_t] = k
        for a in range(k):
            t_card[n_t][a] = pc[_SUB_POS[mask][a]]
        # pre[m] = sum of the first m cards' terms in place; suf[m] = the rest, shifted by one
        pre[n_t][0] = 0
        for a in range(k):
            pre[n_t][a + 1] = pre[n_t][a] + binom[t_card[n_t][a] * 6 + a + 1]
        suf[n_t][k] = 0
        for a in range(k - 1, -1, -1):
            suf[n_t][a] = suf[n_t][a + 1] + binom[t_card[n_t][a] * 6 + a + 2]
        n_t += 1
    for c in range(52):
        tie_with[c] = 0
    if s >= q:
        for i in range(d, d_tie):
            if (w.comp_mask[i] & dead) == 0:
                for a in range(4):
                    tie_with[w.comp_cards[i * 4 + a]] += 1
    for b in range(52):
        if (dead >> b) & 1:
            if counts_out != NULL:
                for a in range(4):
                    counts_out[b * 4 + a] = -1
            continue
        bq = 0
        bs = 0
        for i in range(n_t):
            k = t_size[i]
            m = 0
            for a in range(k):
                m += t_card[i][a] < b
            idx = pre[i][m] + binom[b * 6 + m + 1] + suf[i][m]
            if k < 3:
                if k % 2:
                    bq -= w.at_q[_OFF[k + 1] + idx]
                    bs -= w.live[_OFF[k + 1] + idx]
                else:
                    bq += w.at_q[_OFF[k + 1] + idx]
                    bs += w.live[_OFF[k + 1] + idx]
            else:
                bq -= w.strength_by_colex[idx] < q
                bs -= w.strength_by_colex[idx] < s
        nq_b = nq - bq
        if s >= q:
            win_b = win - (bs - bq)
            tie_b = tie - tie_with[b]
        else:
            win_b = 0
            tie_b = 0
        if counts_out != NULL:
            counts_out[b * 4 + 0] = <int32_t>nq_b
            counts_out[b * 4 + 1] = <int32_t>win_b
            counts_out[b * 4 + 2] = <int32_t>tie_b
            counts_out[b * 4 + 3] = <int32_t>n_set
        form = nq_b * ctx.c_nq + win_b * ctx.c_win[cat] + tie_b * ctx.c_tie
        _record(st, chart_cell, weight, nq_b, win_b, tie_b, n_set, form, threshold)


# the state of one known set's sweep over the hands in increasing strength
cdef struct Sweep:
    uint64_t kmask              # the known cards
    int n_s_known               # of which marked (edge sorting)
    int block_of[4]             # the suit symmetries fixing the known set (see _symmetries)
    int pair_a[6]
    int pair_b[6]
    int n_pairs
    int64_t n_comp              # completions of the known set, in increasing strength
    int64_t d                   # completions below the current hand's strength
    int64_t d_tie               # ... and of exactly its strength: [d, d_tie)
    int s_prev
    bint masks                  # the fast path's masks instead of the counters below the strength
    uint64_t single_live        # r = 1: completion cards below the current strength
    uint64_t single_q           # r = 1: ... below the qualifier
    uint64_t single_tie         # r = 1: ... of exactly the current strength
    int64_t n_pairs_live        # r = 2: completions below the current strength
    int64_t n_pairs_q           # r = 2: ... below the qualifier


cdef void _begin(const Ctx* ctx, const uint8_t* K, Work* w, Sweep* sw, bint masks) noexcept nogil:
    """Start the sweep of known set K: its completions sorted by strength, the symmetries, the
    counters cleared, and the completions below the qualifier counted (``masks``: also as the
    fast path's card masks)."""
    cdef const int32_t* binom = binom_table()
    cdef int r = ctx.r, i
    cdef int kmasks[4]
    cdef int64_t e
    sw.n_comp = _completions(ctx, K, w)
    sw.kmask = 0
    sw.n_s_known = 0
    for i in range(4):
        kmasks[i] = 0
    for i in range(ctx.j):
        sw.kmask |= (<uint64_t>1) << K[i]
        kmasks[K[i] & 3] |= 1 << (K[i] >> 2)
        sw.n_s_known += ctx.level_of_card[K[i]]
    sw.n_pairs = _symmetries(kmasks, sw.block_of, sw.pair_a, sw.pair_b)
    memset(w.at_q, 0, ctx.n_counters * ctx.n_levels * sizeof(int32_t))
    memset(w.live, 0, ctx.n_counters * ctx.n_levels * sizeof(int32_t))
    sw.masks = masks
    sw.single_live = 0
    sw.single_q = 0
    sw.single_tie = 0
    sw.n_pairs_live = 0
    sw.n_pairs_q = 0
    for i in range(52):
        w.pair_live[i] = 0
        w.pair_q[i] = 0
    e = 0
    while e < sw.n_comp and w.comp_strength[e] < ctx.qualifier:
        _add(w.at_q, &w.comp_cards[e * 4], r, w.comp_level[e], ctx.n_levels, binom)
        sw.single_q |= w.comp_mask[e]
        if r == 2:
            w.pair_q[w.comp_cards[e * 4]] |= (<uint64_t>1) << w.comp_cards[e * 4 + 1]
            w.pair_q[w.comp_cards[e * 4 + 1]] |= (<uint64_t>1) << w.comp_cards[e * 4]
            sw.n_pairs_q += 1
        e += 1
    sw.d = 0
    sw.d_tie = 0
    sw.s_prev = -1


cdef inline void _advance(const Ctx* ctx, Work* w, Sweep* sw, int s) noexcept nogil:
    """Move the sweep to strength s: count the completions below s (in the counters, or as the
    fast path's masks for one or two unseen cards) and find those of exactly strength s."""
    cdef const int32_t* binom = binom_table()
    cdef int r = ctx.r
    cdef int64_t d = sw.d
    if s == sw.s_prev:
        return
    while d < sw.n_comp and w.comp_strength[d] < s:
        if not sw.masks or r == 3:
            _add(w.live, &w.comp_cards[d * 4], r, w.comp_level[d], ctx.n_levels, binom)
        elif r == 1:
            sw.single_live |= w.comp_mask[d]
        else:
            w.pair_live[w.comp_cards[d * 4]] |= (<uint64_t>1) << w.comp_cards[d * 4 + 1]
            w.pair_live[w.comp_cards[d * 4 + 1]] |= (<uint64_t>1) << w.comp_cards[d * 4]
            sw.n_pairs_live += 1
        d += 1
    sw.d = d
    sw.d_tie = d
    sw.single_tie = 0
    while sw.d_tie < sw.n_comp and w.comp_strength[sw.d_tie] == s:
        sw.single_tie |= w.comp_mask[sw.d_tie]
        sw.d_tie += 1
    sw.s_prev = s


cdef inline int64_t _weight(const Ctx* ctx, const Sweep* sw, int64_t h) noexcept nogil:
    """Hand h's weight: its orbit size under the relabellings fixing the known set when it is
    the orbit's representative, 0 for the others (1 each without the reduction)."""
    if ctx.reduce and sw.n_pairs:
        return _orbit_weight(ctx.hand_suits[h], sw.n_pairs, sw.pair_a, sw.pair_b, sw.block_of)
    return 1


cdef inline int64_t _ties(const Work* w, const Sweep* sw, uint64_t pmask) noexcept nogil:
    """Completions of exactly the current strength disjoint from the hand."""
    cdef int64_t e, tie = 0
    for e in range(sw.d, sw.d_tie):
        tie += (w.comp_mask[e] & pmask) == 0
    return tie


cdef inline void _fast_counts(const Ctx* ctx, const Work* w, const Sweep* sw, int64_t h, int s,
                       int64_t* nq, int64_t* win, int64_t* tie) noexcept nogil:
    """The dealer outcomes of hand h with one, two or three unseen cards and no levels."""
    cdef const int32_t* binom = binom_table()
    cdef uint64_t pmask = ctx.hand_masks[h]
    cdef uint8_t pc[5]
    cdef int64_t below_s = 0
    cdef int i
    cdef bint qualifies = s >= ctx.qualifier
    win[0] = 0
    tie[0] = 0
    if ctx.r == 1:
        # one unseen card: the completions below a threshold are a card mask
        nq[0] = popcount64(sw.single_q & ~pmask)
        if qualifies:
            win[0] = popcount64(sw.single_live & ~pmask) - nq[0]
            tie[0] = popcount64(sw.single_tie & ~pmask)
        return
    for i in range(5):
        pc[i] = ctx.hand_cards[h * 5 + i]
    if ctx.r == 2:
        # two unseen cards: pairs {a, b} as adjacency masks; pairs disjoint from P =
        # all - sum over a in P of deg(a) + pairs inside P
        nq[0] = 2 * sw.n_pairs_q
        below_s = 2 * sw.n_pairs_live
        for i in range(5):
            nq[0] -= 2 * popcount64(w.pair_q[pc[i]]) - popcount64(w.pair_q[pc[i]] & pmask)
            below_s -= 2 * popcount64(w.pair_live[pc[i]]) - popcount64(w.pair_live[pc[i]] & pmask)
        nq[0] //= 2
        below_s //= 2
    else:
        _ie_three(pc, w.at_q, w.live, w.strength_by_colex, ctx.qualifier, s, qualifies, binom, nq, &below_s)
    if qualifies:
        win[0] = below_s - nq[0]
        tie[0] = _ties(w, sw, pmask)


cdef inline void _add_hand(const Ctx* ctx, int64_t* acc, int64_t weight, int64_t nq, int64_t win, int64_t tie,
                           int cat, int64_t threshold, int64_t n) noexcept nogil:
    """One hand against one known set: the counts of its n completions (no qualifier, win, tie),
    raised when the raise's form beats folding (threshold: folding's, over the n)."""
    cdef int64_t form = nq * ctx.c_nq + win * ctx.c_win[cat] + tie * ctx.c_tie
    cdef int64_t wr = weight * (form > threshold)
    acc[X_COMBINATIONS] += weight
    acc[X_SETS] += weight
    acc[X_NO_QUALIFY_ALL] += weight * nq
    acc[X_INDIFFERENT_SETS] += weight * (form == threshold)
    acc[X_RAISED_COMBINATIONS] += wr
    acc[X_RAISED_SETS] += wr
    acc[X_NO_QUALIFY] += wr * nq
    acc[X_WIN] += wr * win
    acc[X_TIE] += wr * tie
    acc[X_LOSE] += wr * (n - nq - win - tie)


cdef void _process_fast(const Ctx* ctx, const uint8_t* K, Work* w, int64_t* stats, int64_t* chart) noexcept nogil:
    """Statistics of one known set with one, two or three unseen cards and no levels: every
    hand's counts from masks or unrolled inclusion-exclusion, summed per (category, group) run
    (hands come in strength order, so both change rarely)."""
    cdef Sweep sw
    cdef int64_t h, weight, nq, win, tie
    cdef int64_t n_plain = choose(47 - ctx.j, ctx.r, binom_table())
    cdef int64_t threshold = ctx.c_fold * n_plain
    cdef int64_t acc[N_COLUMNS]
    cdef int i, s, cat, grp, cur_cat = 0, cur_grp = 0
    _begin(ctx, K, w, &sw, True)
    for i in range(N_COLUMNS):
        acc[i] = 0
    for h in range(ctx.n_hands):           # a known set takes at most ~0.1 s here: checked per set
        s = ctx.hand_strength[h]
        _advance(ctx, w, &sw, s)
        if ctx.hand_masks[h] & sw.kmask:
            continue
        weight = _weight(ctx, &sw, h)
        if weight == 0:
            continue
        cat = ctx.category[s]
        grp = ctx.hand_group[h]
        if cat != cur_cat or grp != cur_grp:
            _flush(stats, chart, cur_cat, cur_grp, acc, n_plain)
            cur_cat = cat
            cur_grp = grp
        _fast_counts(ctx, w, &sw, h, s, &nq, &win, &tie)
        _add_hand(ctx, acc, weight, nq, win, tie, cat, threshold, n_plain)
    _flush(stats, chart, cur_cat, cur_grp, acc, n_plain)


cdef void _generic_counts(const Ctx* ctx, const Work* w, const Sweep* sw, const uint8_t* pc, uint64_t pmask,
                          int s, int64_t* n_set, int64_t* nq, int64_t* win, int64_t* tie) noexcept nogil:
    """The dealer outcomes of a hand (sorted cards pc) at every level, by inclusion-exclusion
    over its cards: counters for the subsets T with |T| < r, single completions for |T| = r."""
    cdef const int32_t* binom = binom_table()
    cdef int r = ctx.r, L = ctx.n_levels, q = ctx.qualifier
    cdef int32_t t_idx[26]
    cdef int t_sign[26]
    cdef int32_t i_idx[10]
    cdef int i_lvl[10]
    cdef int nT = 0, nI = 0, i, k, a, lvl, n_s_hand = 0, avail_s, avail_n
    cdef int pos_sign = -1 if r % 2 else 1
    cdef int32_t idx
    cdef unsigned int m
    cdef int64_t below_s, below_q, e
    for i in range(_SIZE_START[r]):
        m = _BY_SIZE[i]
        k = _SUB_SIZE[m]
        idx = _OFF[k]
        for a in range(k):
            idx += binom[pc[_SUB_POS[m][a]] * 6 + a + 1]
        t_idx[nT] = idx * L
        t_sign[nT] = -1 if k % 2 else 1
        nT += 1
    for i in range(_SIZE_START[r], _SIZE_START[r + 1]):
        m = _BY_SIZE[i]
        idx = 0
        lvl = 0
        for a in range(r):
            idx += binom[pc[_SUB_POS[m][a]] * 6 + a + 1]
            lvl += ctx.level_of_card[pc[_SUB_POS[m][a]]]
        i_idx[nI] = idx
        i_lvl[nI] = lvl
        nI += 1
    # completions per level: choose the level's marked cards among those still unseen
    if L == 1:
        n_set[0] = choose(47 - ctx.j, r, binom)
    else:
        for i in range(5):
            n_s_hand += ctx.level_of_card[pc[i]]
        avail_s = ctx.n_marked - sw.n_s_known - n_s_hand
        avail_n = 47 - ctx.j - avail_s
        for lvl in range(L):
            n_set[lvl] = choose(avail_s, lvl, binom) * choose(avail_n, r - lvl, binom)
    for lvl in range(L):
        tie[lvl] = 0
    if s >= q:
        for e in range(sw.d, sw.d_tie):
            if (w.comp_mask[e] & pmask) == 0:
                tie[w.comp_level[e]] += 1
    for lvl in range(L):
        below_s = 0
        below_q = 0
        for i in range(nT):
            below_s += t_sign[i] * w.live[t_idx[i] + lvl]
            below_q += t_sign[i] * w.at_q[t_idx[i] + lvl]
        for i in range(nI):
            if i_lvl[i] == lvl:
                below_s += pos_sign * (w.strength_by_colex[i_idx[i]] < s)
                below_q += pos_sign * (w.strength_by_colex[i_idx[i]] < q)
        nq[lvl] = below_q
        win[lvl] = below_s - below_q if s >= q else 0


cdef void _process_generic(const Ctx* ctx, const uint8_t* K, Work* w, int64_t* stats, int64_t* chart,
                           int32_t* counts_out) noexcept nogil:
    """Statistics of one known set by inclusion-exclusion, with levels (edge sorting), a burn
    card, or four unseen cards; with ``counts_out``, every hand's (no_qualify, win, tie,
    completions) per level (per burn card with one), -1 where the hand meets K."""
    cdef Sweep sw
    cdef int L = ctx.n_levels, lvl, i, s, cat, grp
    cdef int64_t h, weight, form
    cdef int64_t n_set[MAX_LEVELS]
    cdef int64_t nq[MAX_LEVELS]
    cdef int64_t win[MAX_LEVELS]
    cdef int64_t tie[MAX_LEVELS]
    cdef int n_out = 52 * 4 if ctx.burn else L * 4
    cdef uint8_t pc[5]
    cdef uint64_t pmask
    _begin(ctx, K, w, &sw, False)
    for h in range(ctx.n_hands):
        if (h & 8191) == 0 and studodds_cancelled(ctx.cancel):
            return
        s = ctx.hand_strength[h]
        _advance(ctx, w, &sw, s)
        pmask = ctx.hand_masks[h]
        if pmask & sw.kmask:
            if counts_out != NULL:
                for i in range(n_out):
                    counts_out[h * n_out + i] = -1
            continue
        weight = _weight(ctx, &sw, h)
        if weight == 0:
            continue
        cat = ctx.category[s]
        grp = ctx.hand_group[h]
        for i in range(5):
            pc[i] = ctx.hand_cards[h * 5 + i]
        _generic_counts(ctx, w, &sw, pc, pmask, s, n_set, nq, win, tie)
        for lvl in range(L):
            if n_set[lvl] == 0:
                if counts_out != NULL:
                    for i in range(4):
                        counts_out[h * n_out + lvl * 4 + i] = 0
                continue
            if ctx.burn:
                _burn_cards(ctx, w, pc, pmask | sw.kmask, s, sw.d, sw.d_tie, nq[lvl], win[lvl], tie[lvl], cat,
                            weight, &stats[cat * N_COLUMNS], &chart[grp * 2],
                            &counts_out[h * n_out] if counts_out != NULL else NULL)
                continue
            if counts_out != NULL:
                counts_out[h * n_out + lvl * 4 + 0] = <int32_t>nq[lvl]
                counts_out[h * n_out + lvl * 4 + 1] = <int32_t>win[lvl]
                counts_out[h * n_out + lvl * 4 + 2] = <int32_t>tie[lvl]
                counts_out[h * n_out + lvl * 4 + 3] = <int32_t>n_set[lvl]
            form = nq[lvl] * ctx.c_nq + win[lvl] * ctx.c_win[cat] + tie[lvl] * ctx.c_tie
            _record(&stats[cat * N_COLUMNS], &chart[(lvl * N_GROUPS + grp) * 2], weight, nq[lvl], win[lvl],
                    tie[lvl], n_set[lvl], form, ctx.c_fold * n_set[lvl])


cdef inline bint _fast_path(const Ctx* ctx) noexcept nogil:
    """Whether the known sets of ``ctx`` take :func:`_process_fast` (one to three unseen cards,
    no levels, no burn card, and the tests did not ask for the generic path)."""
    return ctx.n_levels == 1 and ctx.r < 4 and not ctx.generic and not ctx.burn


cdef enum:
    BATCH = 16              # known sets per pass over the hands (one unseen card)


cdef inline int16_t _with_card(const uint8_t* K, int c, const int32_t* binom, const int16_t* strength) noexcept nogil:
    """The strength of the four known cards K (sorted) and the card c: c merged into them."""
    cdef int hand[5]
    cdef int i, k = 0
    for i in range(4):
        if K[i] < c:
            hand[k] = K[i]
            k += 1
    hand[k] = c
    k += 1
    for i in range(4):
        if K[i] > c:
            hand[k] = K[i]
            k += 1
    return strength[binom[hand[0] * 6 + 1] + binom[hand[1] * 6 + 2] + binom[hand[2] * 6 + 3]
                    + binom[hand[3] * 6 + 4] + binom[hand[4] * 6 + 5]]


cdef void _process_single_batch(const Ctx* ctx, const uint8_t* K, int n_batch, int64_t* stats,
                                int64_t* chart) noexcept nogil:
    """The one-unseen-card case (j = 4) for up to BATCH known sets in one pass over the hands.

    The completions are single cards c, with t[c] = strength of K + c; the ones below a
    threshold form a card mask, so every count is a popcount of that mask minus the player's
    cards.  Sharing the pass amortises reading the 2.6 million hands."""
    cdef const int32_t* binom = binom_table()
    cdef const int16_t* strength = strength_table()
    cdef int16_t t[BATCH][52]
    cdef uint64_t kmask[BATCH]
    cdef uint64_t below_q[BATCH]
    cdef uint64_t below_s[BATCH]
    cdef uint64_t equal_s[BATCH]
    cdef int n_pairs[BATCH]
    cdef int pair_a[BATCH][6]
    cdef int pair_b[BATCH][6]
    cdef int block_of[BATCH][4]
    cdef int64_t acc[BATCH][N_COLUMNS]
    cdef int kmasks[4]
    cdef int b, i, c, s, s_prev = -1, q = ctx.qualifier, cat, grp, cur_cat = -1, cur_grp = -1
    cdef int64_t h, nq, win, tie, weight
    cdef int64_t threshold = ctx.c_fold * 43
    cdef uint64_t pmask
    for b in range(n_batch):
        kmask[b] = 0
        below_q[b] = 0
        for i in range(4):
            kmasks[i] = 0
        for i in range(4):
            kmask[b] |= (<uint64_t>1) << K[b * 4 + i]
            kmasks[K[b * 4 + i] & 3] |= 1 << (K[b * 4 + i] >> 2)
        for c in range(52):
            t[b][c] = 0
            if (kmask[b] >> c) & 1:
                continue
            t[b][c] = _with_card(K + b * 4, c, binom, strength)
            if t[b][c] < q:
                below_q[b] |= (<uint64_t>1) << c
        n_pairs[b] = _symmetries(kmasks, block_of[b], pair_a[b], pair_b[b])
        for i in range(N_COLUMNS):
            acc[b][i] = 0
    for h in range(ctx.n_hands):
        if (h & 8191) == 0 and studodds_cancelled(ctx.cancel):
            return
        s = ctx.hand_strength[h]
        if s != s_prev:
            for b in range(n_batch):
                below_s[b] = 0
                equal_s[b] = 0
                for c in range(52):
                    below_s[b] |= (<uint64_t>(t[b][c] < s)) << c
                    equal_s[b] |= (<uint64_t>(t[b][c] == s)) << c
                below_s[b] &= ~kmask[b]
                equal_s[b] &= ~kmask[b]
            s_prev = s
        cat = ctx.category[s]
        grp = ctx.hand_group[h]
        if cat != cur_cat or grp != cur_grp:
            if cur_cat >= 0:
                for b in range(n_batch):
                    _flush(&stats[b * N_CATEGORIES * N_COLUMNS], &chart[b * N_GROUPS * 2], cur_cat, cur_grp,
                           acc[b], 43)
            cur_cat = cat
            cur_grp = grp
        pmask = ctx.hand_masks[h]
        for b in range(n_batch):
            # branch-free unless the known set has symmetries (rare)
            weight = (pmask & kmask[b]) == 0
            if ctx.reduce and n_pairs[b] and weight:
                weight = _orbit_weight(ctx.hand_suits[h], n_pairs[b], pair_a[b], pair_b[b], block_of[b])
            nq = popcount64(below_q[b] & ~pmask)
            win = 0
            tie = 0
            if s >= q:
                win = popcount64(below_s[b] & ~pmask) - nq
                tie = popcount64(equal_s[b] & ~pmask)
            _add_hand(ctx, acc[b], weight, nq, win, tie, cat, threshold, 43)
    if cur_cat >= 0:
        for b in range(n_batch):
            _flush(&stats[b * N_CATEGORIES * N_COLUMNS], &chart[b * N_GROUPS * 2], cur_cat, cur_grp, acc[b], 43)


cdef int _setup(Ctx* ctx, object spec) except -1:
    """Fill ``ctx`` from a :class:`enumerate.protection.exposure.KernelSpec` (its arrays stay
    alive with it for the call) and check every shape."""
    cdef const uint8_t[:, ::1] hand_cards = spec.hands.cards
    cdef const uint64_t[::1] hand_masks = spec.hands.masks
    cdef const uint64_t[::1] hand_suits = spec.hands.suits
    cdef const int16_t[::1] hand_strength = spec.hands.strength
    cdef const uint8_t[::1] hand_group = spec.hands.group
    cdef const int16_t[::1] category = spec.category
    cdef const uint8_t[::1] level_of_card = spec.level_of_card
    cdef const int64_t[::1] c_win = spec.value.c_win
    cdef int j = spec.known, n_levels = spec.n_levels, c
    if not 1 <= j <= 4:
        raise ValueError("known dealer cards must be 1..4")
    if not 1 <= n_levels <= 6 - j or n_levels > MAX_LEVELS:
        raise ValueError("bad number of levels")
    if hand_cards.shape[0] != hand_masks.shape[0] or hand_cards.shape[0] != hand_strength.shape[0] \
            or hand_cards.shape[0] != hand_group.shape[0] or hand_cards.shape[0] != hand_suits.shape[0]:
        raise ValueError("hand arrays differ in length")
    if category.shape[0] != N_STRENGTHS or level_of_card.shape[0] != 52 or c_win.shape[0] != N_CATEGORIES:
        raise ValueError("bad table shapes")
    ctx.j = j
    ctx.r = 5 - j
    ctx.n_levels = n_levels
    ctx.qualifier = spec.qualifier
    ctx.reduce = bool(spec.reduce)
    ctx.generic = bool(spec.generic)
    ctx.burn = bool(spec.burn)
    if ctx.burn and (j != 1 or n_levels != 1):
        raise ValueError("a burn card goes with one known card and no levels")
    ctx.n_hands = hand_cards.shape[0]
    ctx.hand_cards = &hand_cards[0, 0]
    ctx.hand_masks = &hand_masks[0]
    ctx.hand_suits = &hand_suits[0]
    ctx.hand_strength = &hand_strength[0]
    ctx.hand_group = &hand_group[0]
    ctx.category = &category[0]
    ctx.level_of_card = &level_of_card[0]
    ctx.c_nq = spec.value.c_nq
    ctx.c_win = &c_win[0]
    ctx.c_tie = spec.value.c_tie
    ctx.c_fold = spec.value.c_fold
    ctx.cancel = NULL
    # counters for the card sets of 0 .. r - 1 cards
    ctx.n_counters = _OFF[ctx.r - 1] + <int>binom_table()[52 * 6 + ctx.r - 1]
    ctx.n_marked = 0
    for c in range(52):
        if level_of_card[c] > 1:
            raise ValueError("a card is marked 0 or 1")
        ctx.n_marked += level_of_card[c]
    if (ctx.n_marked == 0) != (n_levels == 1):
        raise ValueError("levels need marked cards, and marked cards need 5 - j + 1 levels")
    if ctx.n_marked and n_levels != 6 - j:
        raise ValueError("levels need marked cards, and marked cards need 5 - j + 1 levels")
    return 0


def exposure_stats(spec, const uint8_t[:, ::1] known, int64_t[:, :, ::1] stats, int64_t[:, :, :, ::1] chart,
                   int n_threads, int32_t[::1] cancel=None):
    """For every known set known[k] (sorted cards, ``spec.known`` of them): stats[k] (10
    categories x N_COLUMNS) and chart[k] (levels x N_GROUPS x 2).  ``spec`` (a
    :class:`enumerate.protection.exposure.KernelSpec`) holds the hands in increasing strength,
    the qualifier, the raise value -- raise iff nq * c_nq + win * c_win[category] + tie * c_tie
    > c_fold * completions (r * scale for a raise of r antes) --, the marked cards and levels, and whether P is weighted by its
    orbit under the relabellings fixing known[k] (``reduce``) or counted once each."""
    strength_by_index()                     # the kernels read the strength of every hand
    cdef Ctx ctx
    _setup(&ctx, spec)
    if cancel is not None:
        ctx.cancel = &cancel[0]
    cdef int j = ctx.j, n_levels = ctx.n_levels, generic = ctx.generic
    cdef Py_ssize_t n_known = known.shape[0], k
    if known.shape[1] != j or stats.shape[0] != n_known or chart.shape[0] != n_known \
            or stats.shape[1] != N_CATEGORIES or stats.shape[2] != N_COLUMNS \
            or chart.shape[1] != n_levels or chart.shape[2] != N_GROUPS or chart.shape[3] != 2:
        raise ValueError("output shapes do not match")
    if n_known == 0:
        return
    cdef Work* works = <Work*>malloc(n_threads * sizeof(Work))
    cdef int t, ok = works != NULL
    if works != NULL:
        for t in range(n_threads):
            ok = _work_alloc(&works[t]) and ok
    if not ok:
        if works != NULL:
            for t in range(n_threads):
                _work_free(&works[t])
            free(works)
        raise MemoryError("exposure kernel: out of memory")
    cdef Py_ssize_t n_batches = (n_known + BATCH - 1) // BATCH, bt
    stats[:, :, :] = 0
    chart[:, :, :, :] = 0
    if j == 4 and n_levels == 1 and not generic:
        for bt in prange(n_batches, nogil=True, schedule="dynamic", chunksize=1, num_threads=n_threads):
            if studodds_cancelled(ctx.cancel):
                continue
            _process_single_batch(&ctx, &known[bt * BATCH, 0], <int>min(BATCH, n_known - bt * BATCH),
                                  &stats[bt * BATCH, 0, 0], &chart[bt * BATCH, 0, 0, 0])
    else:
        for k in prange(n_known, nogil=True, schedule="dynamic", chunksize=1, num_threads=n_threads):
            if studodds_cancelled(ctx.cancel):
                continue
            if _fast_path(&ctx):
                _process_fast(&ctx, &known[k, 0], &works[threadid()], &stats[k, 0, 0], &chart[k, 0, 0, 0])
            else:
                _process_generic(&ctx, &known[k, 0], &works[threadid()], &stats[k, 0, 0], &chart[k, 0, 0, 0], NULL)
    for t in range(n_threads):
        _work_free(&works[t])
    free(works)


def exposure_counts(spec, const uint8_t[::1] known, int32_t[:, :, ::1] counts):
    """The counts behind the statistics for one known set, every hand of ``spec.hands`` once:
    counts[h, level] = (no_qualify, win, tie, completions) -- per burn card with
    ``spec.burn`` --, -1 where hand h meets the known cards."""
    strength_by_index()                     # the kernels read the strength of every hand
    cdef Ctx ctx
    _setup(&ctx, spec)
    ctx.reduce = 0
    ctx.generic = 1
    cdef int j = ctx.j, n_levels = ctx.n_levels, burn = ctx.burn
    if known.shape[0] != j or counts.shape[0] != ctx.n_hands or counts.shape[1] != (52 if burn else n_levels) \
            or counts.shape[2] != 4:
        raise ValueError("shapes do not match")
    stats_np = np.zeros(N_CATEGORIES * N_COLUMNS, dtype=np.int64)
    chart_np = np.zeros(n_levels * N_GROUPS * 2, dtype=np.int64)
    cdef int64_t[::1] st = stats_np
    cdef int64_t[::1] ch = chart_np
    cdef Work w
    if not _work_alloc(&w):
        _work_free(&w)
        raise MemoryError("exposure kernel: out of memory")
    with nogil:
        _process_generic(&ctx, &known[0], &w, &st[0], &ch[0], &counts[0, 0, 0])
    _work_free(&w)
