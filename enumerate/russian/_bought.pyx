"""The bought game of final hands, by the dealer's rank sets (private; use enumerate.russian.bought).

A final hand meets the dealer's up card u = (ru, s0) and four hole cards from its unseen cards U
(a 52-bit mask).  A dealer hand that does not qualify under a qualifier of a pair or less holds
five ranks R (ru among them) and is no flush; the bought game removes the card c of R's highest
(or lowest) rank rc and draws its replacement from the pool: U less the hole cards, less every
card of rank rc when such a card is replaced again.  So, with L_r the unseen cards of rank r and K
the four ranks kept:

* the hole-card sets of ranks R number prod over R - ru of L_r; f0 of them are all of suit s0 (a
  flush: they qualify);
* the pool holds N_r = L_r - [r in R - ru] cards of rank r (0 for rc when it is replaced again),
  N in all, and without a flush the new hand is K + r: its value sums N_r * net(K + r) over the
  13 ranks (the evaluator's key of K plus r's), the same for every set of these ranks;
* unless K is four cards of one suit s: then a replacement of suit s completes a flush, so the
  sets with K suited are apart, each valued with that correction.  With u in K only s = s0 is
  possible (and c of another suit); with u removed, s is any other suit and K the four hole cards.

A purchase is worth gain / N above the ante's pay, gain = sum of nets - (fee + ante) * N, and the
player buys iff gain > 0.  Per final hand the kernels sum, over the dealer hands that do not
qualify, how many there are and are bought, and how the purchases end -- won, pushed, lost, or
the dealer still short -- each a sum of pool shares, exactly, in units of 1 / dn: dn is a common
multiple of every pool size N.  (The purchases' value, their second moment and the return table
all follow from those four sums.)

**Shared by rank.**  Of a rank set's sums, those of its total hands depend on the final hand
only through its strength, its pay and the unseen cards of each rank L; the suits enter through
f0 and the suited sets alone, as corrections (with [x] = the sums of a pool bought, 0 if not):

    sum over R of  total * [c] - f0 * [c] + sum over suits of cnt * ([c + flush moves] - [c])

so ``key_values`` sums the first term once per *key* (strength, pay, L) and keeps every set's pool
by outcome, and ``hand_values`` adds each final hand's corrections -- a few bit tests per rank
set, the flush moves only where a suited set exists.

**As a term of the draws' rank kernel** (``RankTerm``; enumerate/draws/_final_term.pxd): a leaf of
draws fixes the key and the unseen cards of s0 -- which is all the corrections need when the up
card is never the card replaced (its rank never the highest, or lowest, of a hand that does not
qualify: then the four kept cards hold the up card, and can be of one suit only in s0).  The key
also keeps each set's flush moves by kind (from one outcome to another, as a mask of ranks) and,
when every set has at most one kind, its sets as columns a leaf reads without a branch
(``_fast_sets``, ``_fast_value``): a few loads, a popcount and multiplies a set.  Over the leaves
of one set of the player's s0 ranks, which differ only in which drawn ranks' s0 cards they take,
those corrections are summed at once (``_term_leaf_sum``): per set, the dealer's s0 flushes by a
product over those ranks, the suited sets by a polynomial in the number of flush moves the leaves
take away -- when every leaf's raise or fold does not depend on them (``_term_bound``: each set's
corrections lie between -(1 + L[rc]) times its gain and L[rc] times what its moves can add).
"""
import numpy as np
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t
from cython.parallel cimport prange
from evaluator._eval cimport key_tables
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED
from cpython.pycapsule cimport PyCapsule_GetContext, PyCapsule_New, PyCapsule_SetContext
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF
from enumerate.core._combinatorics cimport lowest_bit32, popcount32, popcount64
from enumerate.draws._final_term cimport CAPSULE, TERM_BOUNDED, TERM_LEAF_SUM, TERM_LIVE, TERM_SIDE, FinalTerm

cdef extern from *:
    ctypedef long long int128 "__int128"

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)
#: Columns of a rank set: its 13-bit mask, the rank removed, the evaluator key of the kept ranks.
SET_COLUMNS = 3
cdef enum:
    WIN = 0
    PUSH = 1
    LOSE = 2
    SHORT = 3
    OUTCOMES = 4
    KEY_FIELDS = 10        # dealer hands that do not qualify, bought, each outcome's sum (two 62-bit halves)
#: How a bought game ends, in the columns of the outcome sums.
OUTCOME_NAMES = ("win", "push", "lose", "short")
#: Fields of a key's sums.
KEY_COLUMNS = KEY_FIELDS


cdef struct Net:
    # what a settled purchase nets per draw (times scale), the rules, and per rank set j and rank r
    # the strength of the kept ranks with r, without a flush (nf[13 j + r]) and as a flush (fl)
    int64_t win
    int64_t lose
    int64_t ante
    int64_t fee
    int player
    int threshold
    bint short_pays_ante
    bint redraw
    const int16_t* nf
    const int16_t* fl
    const int32_t* sets
    int n_sets
    int ru
    int s0
    int64_t dn
    # per rank set j its replacement ranks that may make a flush (not kept; not the rank removed
    # when it is replaced again), by their strength without a flush (cand_rank, cand_nf: 13 j +
    # i, n_cand[j] of them), and the least of their flush strengths (fl_min[j]; 32767 if none)
    const int8_t* cand_rank
    const int16_t* cand_nf
    const int8_t* n_cand
    const int16_t* fl_min


cdef inline int _outcome(int s, const Net* T) noexcept nogil:
    """How a purchase ends when the dealer's new hand has strength s: WIN, PUSH, LOSE or SHORT
    (the dealer still does not qualify, when the qualifier applies again)."""
    if T.short_pays_ante and s < T.threshold:
        return SHORT
    if s < T.player:
        return WIN
    if s == T.player:
        return PUSH
    return LOSE


cdef inline int64_t _gain(const int16_t* c, const Net* T) noexcept nogil:
    """A purchase's sum of nets over its pool (outcome counts c) less (fee + ante) per card drawn."""
    return c[WIN] * T.win + c[LOSE] * T.lose + c[SHORT] * T.ante \
        - (T.fee + T.ante) * (c[WIN] + c[PUSH] + c[LOSE] + c[SHORT])


cdef inline bint _can_gain(const Net* T) noexcept nogil:
    """False when not even a sure win pays for the purchase."""
    return not (T.win <= T.fee + T.ante and 0 <= T.fee + T.ante)


cdef inline void _ranks(uint64_t u, int* L, int* us) noexcept nogil:
    """The unseen cards of each rank (L) and the unseen ranks of each suit (us)."""
    cdef int r, s
    for s in range(4):
        us[s] = 0
    for r in range(13):
        L[r] = 0
        for s in range(4):
            if (u >> (4 * r + s)) & 1:
                L[r] += 1
                us[s] |= 1 << r


cdef inline int64_t _total(const int* L, int others) noexcept nogil:
    """The hole-card sets of the ranks ``others`` (their set bits, lowest first)."""
    cdef unsigned int m = <unsigned int>others
    cdef int64_t total = 1
    while m:
        total *= L[lowest_bit32(m)]
        m &= m - 1
    return total


cdef inline int _rank_set(const int* L, int j, const Net* T, int16_t* c) noexcept nogil:
    """A rank set's pool by outcome (c[WIN..SHORT], without a flush) and its size N."""
    cdef int r, rmask = T.sets[3 * j], rc = T.sets[3 * j + 1], others = rmask & ~(1 << T.ru), nr, n_pool = 0
    cdef const int16_t* nf = T.nf + 13 * j
    for r in range(OUTCOMES):
        c[r] = 0
    for r in range(13):
        nr = L[r] - ((others >> r) & 1)
        if nr and not (T.redraw and r == rc):
            n_pool += nr
            c[_outcome(nf[r], T)] += nr
    return n_pool


cdef inline void _take(int64_t count, const int16_t* c, int64_t per, int128* acc, int64_t* bought) noexcept nogil:
    """``count`` dealer hands bought whose pool ends as c (signed count: a correction)."""
    cdef int o
    bought[0] += count
    for o in range(OUTCOMES):
        acc[o] += <int128>count * c[o] * per


cdef inline int128 _joined(const int64_t* out, int o) noexcept nogil:
    """Outcome o's sum of a key's fields (the two 62-bit halves _split wrote)."""
    return (<int128>out[2 + 2 * o] << 62) + out[3 + 2 * o]


cdef inline int _live(const int* L) noexcept nogil:
    """The ranks with an unseen card."""
    cdef int r, out = 0
    for r in range(13):
        if L[r]:
            out |= 1 << r
    return out


cdef inline void _split(const int128* acc, int64_t* out) noexcept nogil:
    """Each outcome's sum as its high and low 62 bits."""
    cdef int o
    for o in range(OUTCOMES):
        out[2 * o] = <int64_t>(acc[o] >> 62)
        out[2 * o + 1] = <int64_t>(acc[o] & ((<int128>1 << 62) - 1))


cdef void _key(uint64_t u, int player, int64_t win, int64_t ante, const Net* common, bint count_nq, int64_t* out,
               int16_t* c, int32_t* pool) noexcept nogil:
    """One key (a final hand standing for all of its strength, pay and unseen ranks): the sums of
    total * outcomes over the rank sets bought, and each set's pool by outcome (c) and size --
    the size 0 where no final hand of the key can buy (its gain and any flush correction at most
    0), which the corrections skip."""
    cdef Net T = common[0]
    cdef int L[13]
    cdef int us[4]
    T.player = player
    T.win = win
    T.ante = ante
    _ranks(u, L, us)
    _key_sums(L, &T, count_nq, out, c, pool)


cdef void _key_sums(const int* L, const Net* Tp, bint count_nq, int64_t* out, int16_t* c, int32_t* pool) noexcept nogil:
    """_key's sums from the unseen cards of each rank (L), the final hand's nets in Tp."""
    cdef Net T = Tp[0]
    cdef int j, o
    cdef int64_t total, nq = 0, bought = 0
    cdef int128 acc[OUTCOMES]
    for o in range(OUTCOMES):
        acc[o] = 0
    for j in range(T.n_sets):
        pool[j] = 0
    if not count_nq and not _can_gain(&T):
        for o in range(KEY_FIELDS):
            out[o] = 0
        return
    for j in range(T.n_sets):
        total = _total(L, T.sets[3 * j] & ~(1 << T.ru))
        if total == 0:
            continue
        nq += total
        if not _can_gain(&T):
            continue
        pool[j] = _rank_set(L, j, &T, c + OUTCOMES * j)
        if pool[j] == 0:
            continue
        if _gain(c + OUTCOMES * j, &T) > 0:
            _take(total, c + OUTCOMES * j, T.dn // pool[j], acc, &bought)
        elif _gain(c + OUTCOMES * j, &T) + _flush_bound(j, &T) <= 0:
            pool[j] = 0
    out[0] = nq if count_nq or _can_gain(&T) else 0
    out[1] = bought
    _split(acc, out + 2)


cdef inline bint _below_flushes(int j, const Net* T, int* lt, int* eq) noexcept nogil:
    """When no outcome depends on the qualifier and the player's strength is below every flush a
    replacement makes against rank set j -- so each such flush beats him -- the replacement ranks
    that win (lt) and push (eq) without their flush, from the set's ranks sorted by strength: the
    flush moves of the set are then lt from a win to a loss and eq from a push to a loss.  False
    otherwise (the moves are found rank by rank)."""
    cdef int i, v, base = 13 * j
    if T.short_pays_ante or T.player >= T.fl_min[j]:
        return 0
    lt[0] = eq[0] = 0
    for i in range(T.n_cand[j]):
        v = T.cand_nf[base + i]
        if v > T.player:
            break
        if v < T.player:
            lt[0] |= 1 << T.cand_rank[base + i]
        else:
            eq[0] |= 1 << T.cand_rank[base + i]
    return 1


cdef inline int64_t _flush_bound(int j, const Net* T) noexcept nogil:
    """The most a replacement's flush may add to a rank set's sum of nets (whatever the suits)."""
    cdef int r, kbits = T.sets[3 * j] & ~(1 << T.sets[3 * j + 1]), lt, eq
    cdef int64_t out = 0, d
    cdef const int16_t* nf = T.nf + 13 * j
    cdef const int16_t* fl = T.fl + 13 * j
    if _below_flushes(j, T, &lt, &eq):
        d = T.lose - T.win
        return popcount32(<uint32_t>lt) * (d if d > 0 else 0) + popcount32(<uint32_t>eq) * (T.lose if T.lose > 0 else 0)
    for r in range(13):
        if not (kbits >> r) & 1 and not (T.redraw and r == T.sets[3 * j + 1]):
            d = _net_of(_outcome(fl[r], T), T) - _net_of(_outcome(nf[r], T), T)
            if d > 0:
                out += d
    return out


cdef inline int64_t _net_of(int o, const Net* T) noexcept nogil:
    """The net of a purchase's outcome (before the fee)."""
    if o == WIN:
        return T.win
    if o == LOSE:
        return T.lose
    if o == SHORT:
        return T.ante
    return 0


cdef void _corrections(uint64_t u, int player, int64_t win, int64_t ante, const Net* common, bint count_nq,
                       const int16_t* c, const int32_t* pool, int128* acc, int64_t* nq, int64_t* bought) noexcept nogil:
    """One final hand's corrections to its key's sums: the flushes f0 and the suited sets."""
    cdef Net T = common[0]
    cdef int L[13]
    cdef int us[4]
    T.player = player
    T.win = win
    T.ante = ante
    _ranks(u, L, us)
    _set_corrections(L, us, 1, &T, count_nq, c, pool, NULL, NULL, NULL, acc, nq, bought)


DEF MOVES = 6           # a set's kinds of flush move kept by a rank key (more: counted rank by rank)


cdef void _moves(const Net* T, const int32_t* pool, int64_t* per, int8_t* n_mv, uint32_t* mv) noexcept nogil:
    """Per rank set bought (pool > 0): dn // its pool, and the flush moves of a replacement of the
    kept cards' suit, by kind -- the ranks (13-bit mask << 8) whose replacement moves a purchase
    from outcome ``from`` (bits 4-7) to ``to`` (bits 0-3); n_mv -1 when there are more kinds than
    MOVES."""
    cdef int j, r, rc, kbits, a, b, i, n, lt, eq
    cdef const int16_t* nf
    cdef const int16_t* fl
    for j in range(T.n_sets):
        n_mv[j] = 0
        if pool[j] == 0:
            continue
        per[j] = T.dn // pool[j]
        if _below_flushes(j, T, &lt, &eq):               # at most two kinds: from a win, from a push
            if lt:
                mv[MOVES * j] = (<uint32_t>lt << 8) | ((WIN << 4) | LOSE)
                n_mv[j] = 1
            if eq:
                mv[MOVES * j + n_mv[j]] = (<uint32_t>eq << 8) | ((PUSH << 4) | LOSE)
                n_mv[j] += 1
            continue
        rc = T.sets[3 * j + 1]
        kbits = T.sets[3 * j] & ~(1 << rc)
        nf, fl = T.nf + 13 * j, T.fl + 13 * j
        n = 0
        for r in range(13):
            if (kbits >> r) & 1 or (T.redraw and r == rc):
                continue
            a, b = _outcome(nf[r], T), _outcome(fl[r], T)
            if a == b:
                continue
            for i in range(n):
                if (mv[MOVES * j + i] & 0xFF) == ((a << 4) | b):
                    mv[MOVES * j + i] |= <uint32_t>1 << (8 + r)
                    break
            else:
                if n == MOVES:
                    n = -1
                    break
                mv[MOVES * j + n] = (<uint32_t>1 << (8 + r)) | <uint32_t>((a << 4) | b)
                n += 1
        n_mv[j] = n


cdef void _set_corrections(const int* L, const int* us, bint other_suits, const Net* Tp, bint count_nq,
                           const int16_t* c, const int32_t* pool, const int64_t* per_j, const int8_t* n_mv,
                           const uint32_t* mv, int128* acc, int64_t* nq, int64_t* bought) noexcept nogil:
    """_corrections from the unseen cards of each rank (L) and of each suit (us); without
    ``other_suits`` only us[s0] is known, and the sets whose four kept cards would be of another
    suit (the up card replaced) are left out -- the caller's rank sets have none.  With per_j,
    n_mv and mv (_moves: a key's dn // pool and flush moves by kind), the moves are counted by
    kind; without them, from the set's sorted replacement ranks when the hand is below every
    flush (_below_flushes), else rank by rank."""
    cdef Net T = Tp[0]
    cdef int j, r, s, o, i, rmask, rc, others, kbits, need, live = _live(L), lt = 0, eq = 0
    cdef bint below
    cdef int64_t f0, cnt, per, gj, x
    cdef uint32_t e
    cdef int16_t cs[OUTCOMES]
    cdef const int16_t* cj
    cdef const int16_t* nf
    cdef const int16_t* fl
    for j in range(T.n_sets):
        if pool[j] == 0 and not count_nq:
            continue                               # no hand of the key can buy against this set
        rmask, rc = T.sets[3 * j], T.sets[3 * j + 1]
        others, kbits = rmask & ~(1 << T.ru), rmask & ~(1 << rc)
        if others & ~live:
            continue                               # a rank of R with no unseen card: no such hand
        f0 = (others & ~us[T.s0]) == 0
        nq[0] -= f0
        if pool[j] == 0:
            continue
        per = per_j[j] if per_j != NULL else T.dn // pool[j]
        cj = c + OUTCOMES * j
        gj = _gain(cj, &T)
        if f0 and gj > 0:
            _take(-f0, cj, per, acc, bought)
        need = kbits & ~(1 << T.ru)                # the kept hole cards' ranks, all of suit s
        nf = T.nf + 13 * j
        fl = T.fl + 13 * j
        below = n_mv == NULL and _below_flushes(j, &T, &lt, &eq)
        for s in range(4):
            if (rc == T.ru and (s == T.s0 or not other_suits)) or (rc != T.ru and s != T.s0) or need & ~us[s]:
                continue                           # u removed: K suited in s0 is the flush; u kept: only s0
            cnt = 1 if rc == T.ru else L[rc] - ((us[T.s0] >> rc) & 1)      # c of another suit than s0
            if cnt == 0:
                continue
            for o in range(OUTCOMES):
                cs[o] = cj[o]
            if n_mv != NULL and n_mv[j] >= 0:
                for i in range(n_mv[j]):
                    e = mv[MOVES * j + i]
                    x = popcount32((e >> 8) & us[s])
                    cs[(e >> 4) & 15] -= x
                    cs[e & 15] += x
            elif below:                                # every flush beats the hand: wins and pushes lost
                x = popcount32(<uint32_t>(lt & us[s]))
                cs[WIN] -= x
                cs[LOSE] += x
                x = popcount32(<uint32_t>(eq & us[s]))
                cs[PUSH] -= x
                cs[LOSE] += x
            else:
                for r in range(13):
                    if not (kbits >> r) & 1 and (us[s] >> r) & 1 and not (T.redraw and r == rc):
                        cs[_outcome(nf[r], &T)] -= 1   # the replacement of suit s makes a flush
                        cs[_outcome(fl[r], &T)] += 1
            if _gain(cs, &T) > 0:
                _take(cnt, cs, per, acc, bought)
            if gj > 0:
                _take(-cnt, cj, per, acc, bought)


cdef void _tables(const int32_t[:, ::1] sets, int16_t[::1] nf, int16_t[::1] fl) noexcept nogil:
    """Per rank set and rank, the strength of the kept ranks with it, without and with a flush."""
    cdef const int32_t* card_key
    cdef const int32_t* rank_bit
    cdef const int32_t* suit_bit
    cdef const int16_t* by_key
    cdef const int16_t* by_flush
    cdef int j, r, kbits
    key_tables(&card_key, &rank_bit, &suit_bit, &by_key, &by_flush)
    for j in range(sets.shape[0]):
        kbits = sets[j, 0] & ~(1 << sets[j, 1])
        for r in range(13):
            nf[13 * j + r] = by_key[sets[j, 2] + card_key[4 * r]]
            fl[13 * j + r] = by_flush[kbits | (1 << r)] if not (kbits >> r) & 1 else -1


cdef void _candidates(const int32_t[:, ::1] sets, const int16_t[::1] nf, const int16_t[::1] fl, bint redraw,
                      int8_t[::1] cand_rank, int16_t[::1] cand_nf, int8_t[::1] n_cand, int16_t[::1] fl_min) noexcept nogil:
    """Per rank set the ranks whose replacement may make a flush, sorted by their strength
    without a flush (ties by rank), and the least of their flush strengths (Net)."""
    cdef int j, r, i, n, kbits, rc
    cdef int16_t v
    for j in range(sets.shape[0]):
        rc = sets[j, 1]
        kbits = sets[j, 0] & ~(1 << rc)
        n = 0
        fl_min[j] = 32767
        for r in range(13):
            if (kbits >> r) & 1 or (redraw and r == rc):
                continue
            if fl[13 * j + r] < fl_min[j]:
                fl_min[j] = fl[13 * j + r]
            v = nf[13 * j + r]
            i = n
            while i > 0 and cand_nf[13 * j + i - 1] > v:       # insertion: stable, so ties keep rank order
                cand_nf[13 * j + i] = cand_nf[13 * j + i - 1]
                cand_rank[13 * j + i] = cand_rank[13 * j + i - 1]
                i -= 1
            cand_nf[13 * j + i] = v
            cand_rank[13 * j + i] = <int8_t>r
            n += 1
        n_cand[j] = <int8_t>n


cdef class Rules:
    """The rules and tables every final hand of one call shares."""
    cdef Net T
    cdef object keep

    def __init__(self, int up, const int32_t[:, ::1] sets, int64_t lose, int64_t fee, int threshold,
                 bint short_pays_ante, bint redraw, int64_t dn):
        if sets.shape[1] != SET_COLUMNS:
            raise ValueError("shapes do not match")
        n = max(sets.shape[0], 1)
        nf_np, fl_np = np.zeros(13 * n, dtype=np.int16), np.zeros(13 * n, dtype=np.int16)
        sets_np = np.array(sets, dtype=np.int32).reshape(-1)          # a copy: writable, kept
        _tables(sets, nf_np, fl_np)
        cand_rank_np, cand_nf_np = np.zeros(13 * n, dtype=np.int8), np.zeros(13 * n, dtype=np.int16)
        n_cand_np, fl_min_np = np.zeros(n, dtype=np.int8), np.full(n, 32767, dtype=np.int16)
        _candidates(sets, nf_np, fl_np, redraw, cand_rank_np, cand_nf_np, n_cand_np, fl_min_np)
        self.keep = (nf_np, fl_np, sets_np, cand_rank_np, cand_nf_np, n_cand_np, fl_min_np)
        cdef int16_t[::1] nf = nf_np
        cdef int16_t[::1] fl = fl_np
        cdef int8_t[::1] cand_rank = cand_rank_np
        cdef int16_t[::1] cand_nf = cand_nf_np
        cdef int8_t[::1] n_cand = n_cand_np
        cdef int16_t[::1] fl_min = fl_min_np
        cdef int32_t[::1] flat = sets_np if sets_np.size else np.zeros(1, dtype=np.int32)
        self.T.nf, self.T.fl, self.T.sets, self.T.n_sets = &nf[0], &fl[0], &flat[0], sets.shape[0]
        self.T.cand_rank, self.T.cand_nf, self.T.n_cand, self.T.fl_min = &cand_rank[0], &cand_nf[0], &n_cand[0], \
            &fl_min[0]
        self.T.lose, self.T.ante, self.T.fee, self.T.threshold = lose, 0, fee, threshold
        self.T.short_pays_ante, self.T.redraw, self.T.dn = short_pays_ante, redraw, dn
        self.T.ru, self.T.s0, self.T.player, self.T.win = up >> 2, up & 3, 0, 0


def key_values(Rules rules, const int16_t[::1] player, const int64_t[::1] win, const int64_t[::1] ante,
               const uint64_t[::1] unseen, bint count_nq, int64_t[:, ::1] out, int16_t[:, ::1] c, int32_t[:, ::1] pool,
               int n_threads):
    """Per key i (a final hand of strength player[i], nets win[i] and ante[i] when it wins and when
    the dealer does not qualify, unseen cards unseen[i]): out[i] = dealer hands that do not qualify
    (without the flushes' correction; 0 unless ``count_nq`` or the purchase can gain), bought, and
    each outcome's sum over the pools bought (high and low 62 bits, units 1 / dn); each rank set's
    pool by outcome (c[i, 4 j + o]) and its size (pool[i, j]; 0: skipped by the corrections)."""
    cdef Py_ssize_t n = player.shape[0], i
    if win.shape[0] != n or ante.shape[0] != n or unseen.shape[0] != n or out.shape[0] != n \
            or out.shape[1] != KEY_FIELDS or c.shape[0] != n or pool.shape[0] != n \
            or c.shape[1] != OUTCOMES * rules.T.n_sets or pool.shape[1] != rules.T.n_sets:
        raise ValueError("shapes do not match")
    if rules.T.n_sets == 0:
        out[:, :] = 0
        return
    for i in prange(n, nogil=True, schedule="dynamic", chunksize=64, num_threads=n_threads):
        _key(unseen[i], player[i], win[i], ante[i], &rules.T, count_nq, &out[i, 0], &c[i, 0], &pool[i, 0])


cdef int _hand(const Net* T, uint64_t u, int player, int64_t win, int64_t ante, int64_t k,
               const int64_t[:, ::1] keys, const int16_t[:, ::1] c, const int32_t[:, ::1] pool, bint count_nq,
               int64_t* nq, int64_t* bought, int64_t* outcomes) noexcept nogil:
    """One final hand: its key's sums and its own corrections; 1 if a sum left 62 bits."""
    cdef int128 acc[OUTCOMES]
    cdef int64_t dq = 0, db = 0
    cdef int o, overflow = 0
    for o in range(OUTCOMES):
        acc[o] = _joined(&keys[k, 0], o)
    if T.n_sets and (count_nq or not (win <= T.fee + ante and 0 <= T.fee + ante)):
        _corrections(u, player, win, ante, T, count_nq, &c[k, 0], &pool[k, 0], acc, &dq, &db)
    nq[0] = keys[k, 0] + dq
    bought[0] = keys[k, 1] + db
    for o in range(OUTCOMES):
        if acc[o] >= (<int128>1 << 62) or acc[o] < 0:
            overflow = 1
        outcomes[o] = <int64_t>acc[o]
    return overflow


def hand_values(Rules rules, const int16_t[::1] player, const int64_t[::1] win, const int64_t[::1] ante,
                const uint64_t[::1] unseen, const int64_t[::1] key, const int64_t[:, ::1] keys,
                const int16_t[:, ::1] c, const int32_t[:, ::1] pool, bint count_nq, int unseen_count,
                int64_t[::1] nq, int64_t[::1] bought, int64_t[:, ::1] outcomes, int n_threads):
    """Per final hand i of key key[i] (the rows of ``key_values``): its dealer hands that do not
    qualify, those bought, and each outcome's sum over their pools (units 1 / dn).  Returns 0, or
    1 if a sum left 62 bits, 2 if a hand has another number of unseen cards than ``unseen_count``."""
    cdef Py_ssize_t n = player.shape[0], i
    cdef int overflow = 0, miscounted = 0
    if win.shape[0] != n or ante.shape[0] != n or unseen.shape[0] != n or key.shape[0] != n or nq.shape[0] != n \
            or bought.shape[0] != n or outcomes.shape[0] != n or outcomes.shape[1] != OUTCOMES \
            or keys.shape[1] != KEY_FIELDS or c.shape[1] != OUTCOMES * rules.T.n_sets \
            or pool.shape[1] != rules.T.n_sets:
        raise ValueError("shapes do not match")
    for i in prange(n, nogil=True, schedule="dynamic", chunksize=1024, num_threads=n_threads):
        if popcount64(unseen[i]) != unseen_count:
            miscounted += 1
            continue
        overflow += _hand(&rules.T, unseen[i], player[i], win[i], ante[i], key[i], keys, c, pool, count_nq, &nq[i],
                          &bought[i], &outcomes[i, 0])
    return 2 if miscounted else 1 if overflow else 0


# ---------------------------------------------------------------------------------------------
# The bought game as a term of the draws' rank kernel (enumerate/draws/_final_term.pxd)

cdef struct TermCtx:
    # the rules every final hand shares, and per class of final hand its nets when it wins and when
    # the dealer does not qualify (units 1 / scale); per kind the unit dn of its purchases
    Net T
    const int64_t* win
    const int64_t* ante
    int64_t dn[7]
    bint bounded


cdef struct TermKey:
    # a prepared key: its rules and nets, its sums, the sets of its fast list (-1: none, the
    # corrections go set by set), its side sets (the up card replaced), its bounds (_bounds); its
    # arrays follow (_layout), then the fast columns and the side sets' indices
    Net T
    int64_t out[KEY_FIELDS]
    int n_fast
    int n_side
    int flags                 # _bounds's, -1 until the first call for them
    int L[13]                 # the unseen cards of each rank
    int64_t base
    int64_t base_fields[1 + OUTCOMES]
    int64_t lo
    int64_t hi


DEF MAXOPT = 5          # ranks of a leaf sum whose s0 card (or side suit's) is drawn or not
DEF SIDE = 15           # a side set's columns: j, need, moves, kinds, gj, dg, tc[4], dt[4], bj
DEF FAST = 17           # a fast set's columns: others, need, rc, L[rc], moves, bj, gj, dg, tc[4], dt[4], per


cdef int _term_prepare(const void* ctx, void* key, const int* unseen, int strength, int cls,
                       int kind) noexcept nogil:
    cdef const TermCtx* X = <const TermCtx*>ctx
    cdef TermKey* K = <TermKey*>key
    K.T = X.T
    K.T.player = strength
    K.T.win = X.win[cls]
    K.T.ante = X.ante[cls]
    K.T.dn = X.dn[kind]
    if not _can_gain(&K.T):
        return 0
    cdef int16_t* c
    cdef int32_t* pool
    cdef int64_t* per
    cdef int8_t* n_mv
    cdef uint32_t* mv
    cdef int j
    _layout(key, K.T.n_sets, &c, &pool, &per, &n_mv, &mv)
    _key_sums(unseen, &K.T, 0, K.out, c, pool)
    _moves(&K.T, pool, per, n_mv, mv)
    K.n_fast = _fast_sets(&K.T, unseen, c, pool, per, n_mv, mv, _fast(key, K.T.n_sets))
    K.n_side = _side_sets(&K.T, unseen, c, pool, per, n_mv, mv, _side(key, K.T.n_sets))
    K.flags = -1
    for j in range(13):
        K.L[j] = unseen[j]
    return TERM_LIVE | (TERM_SIDE if K.n_side else 0)


cdef inline int64_t* _fast(const void* key, int n) noexcept nogil:
    """A rank key's fast list: FAST columns of n int64 each, after its other arrays."""
    cdef int16_t* c
    cdef int32_t* pool
    cdef int64_t* per
    cdef int8_t* n_mv
    cdef uint32_t* mv
    return <int64_t*>(<char*>key + _layout(key, n, &c, &pool, &per, &n_mv, &mv))


cdef inline int64_t* _side(const void* key, int n) noexcept nogil:
    """A rank key's side columns (SIDE of n int64 each), after its fast list."""
    return _fast(key, n) + FAST * n


cdef int _side_sets(const Net* T, const int* L, const int16_t* c, const int32_t* pool, const int64_t* per,
                    const int8_t* n_mv, const uint32_t* mv, int64_t* V) noexcept nogil:
    """The key's sets that replace the up card and may be bought -- with the up card removed the
    four kept cards are the dealer's hole cards, all of one other suit in some of his hands -- as
    columns: the set, its hole ranks (need), the ranks whose replacement of that suit moves the
    purchase (moves: of one kind when ``kinds`` is 0 or 1, else every kind's), its gain and what
    a move adds to it (dg), its shares by outcome and what a move adds to each (dt), bought (bj)."""
    cdef int j, o, n = 0, cap = T.n_sets, live = _live(L), a, b
    cdef int64_t gj
    cdef uint32_t e
    cdef const int16_t* cj
    for j in range(cap):
        if not pool[j] or T.sets[3 * j + 1] != T.ru or T.sets[3 * j] & ~(1 << T.ru) & ~live:
            continue
        cj = c + OUTCOMES * j
        gj = _gain(cj, T)
        V[n] = j
        V[cap + n] = T.sets[3 * j] & ~(1 << T.ru)
        V[3 * cap + n] = n_mv[j] if n_mv[j] >= 0 else 2
        V[4 * cap + n] = gj
        V[5 * cap + n] = 0
        V[14 * cap + n] = gj > 0
        for o in range(OUTCOMES):
            V[(6 + o) * cap + n] = cj[o] * per[j]
            V[(10 + o) * cap + n] = 0
        if n_mv[j] == 1:
            e = mv[MOVES * j]
            a, b = (e >> 4) & 15, e & 15
            V[2 * cap + n] = (e >> 8) & 0x1FFF
            V[5 * cap + n] = _net_of(b, T) - _net_of(a, T)
            V[(10 + a) * cap + n] -= per[j]
            V[(10 + b) * cap + n] += per[j]
        else:
            V[2 * cap + n] = _move_ranks(T, j)
        n += 1
    return n


cdef int _fast_sets(const Net* T, const int* L, const int16_t* c, const int32_t* pool, const int64_t* per,
                    const int8_t* n_mv, const uint32_t* mv, int64_t* F) noexcept nogil:
    """The key's sets that may be bought, as columns the leaves' corrections read without a
    branch (_fast_value): per set the ranks of its hole cards (others), of its kept hole cards
    (need), the rank replaced and its unseen cards, its one kind of flush move (a mask of ranks,
    what a move adds to the gain, dg, and to each outcome's share, dt), whether it is bought
    (bj), its gain and its shares by outcome (tc).  -1 when a set has more than one kind of move
    (the corrections then go set by set).  A set replacing the up card has no suited s0 set (its
    unseen count 0, no move): only its dealer's s0 flushes; its other suits are its side part."""
    cdef int j, o, a, b, rc, rmask, others, live = _live(L), n = 0, cap = T.n_sets
    cdef int64_t gj
    cdef uint32_t e
    cdef const int16_t* cj
    for j in range(T.n_sets):
        if pool[j] == 0:
            continue
        rmask, rc = T.sets[3 * j], T.sets[3 * j + 1]
        others = rmask & ~(1 << T.ru)
        if others & ~live:
            continue
        if rc != T.ru and (n_mv[j] < 0 or n_mv[j] > 1):
            return -1
        cj = c + OUTCOMES * j
        gj = _gain(cj, T)
        F[0 * cap + n] = others
        F[1 * cap + n] = rmask & ~(1 << rc) & ~(1 << T.ru)
        F[2 * cap + n] = rc
        F[3 * cap + n] = L[rc] if rc != T.ru else 0     # the up card replaced: no suited s0 set (a side set)
        F[5 * cap + n] = gj > 0
        F[6 * cap + n] = gj
        for o in range(OUTCOMES):
            F[(8 + o) * cap + n] = cj[o] * per[j]
            F[(12 + o) * cap + n] = 0
        F[4 * cap + n] = 0
        F[7 * cap + n] = 0
        F[16 * cap + n] = per[j]
        if n_mv[j] == 1 and rc != T.ru:
            e = mv[MOVES * j]
            a, b = (e >> 4) & 15, e & 15
            F[4 * cap + n] = (e >> 8) & 0x1FFF
            F[7 * cap + n] = _net_of(b, T) - _net_of(a, T)
            F[(8 + OUTCOMES + a) * cap + n] -= per[j]
            F[(8 + OUTCOMES + b) * cap + n] += per[j]
        n += 1
    return n


cdef void _fast_value(const int64_t* F, int n, int cap, int us0, int64_t* bought, int64_t* acc) noexcept nogil:
    """The corrections of a key's fast sets when the unseen s0 cards are of the ranks us0: the
    dealer's s0 flushes (f0: every hole card s0, they qualify) taken off, and the sets whose kept
    cards are s0 -- the up card and three hole cards -- bought with their replacements of s0
    moved, cnt of them (the removed card of another suit)."""
    cdef int i, o
    cdef int64_t nus = ~us0, f0, cnt, x, pos, w, b = 0
    cdef int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0
    for i in range(n):
        f0 = (F[i] & nus) == 0
        cnt = ((F[cap + i] & nus) == 0) * (F[3 * cap + i] - ((us0 >> F[2 * cap + i]) & 1))
        x = popcount32(<uint32_t>(F[4 * cap + i] & us0))
        pos = (F[6 * cap + i] + x * F[7 * cap + i]) > 0
        w = (cnt + f0) * F[5 * cap + i]
        b += cnt * pos - w
        a0 += cnt * pos * (F[8 * cap + i] + x * F[12 * cap + i]) - w * F[8 * cap + i]
        a1 += cnt * pos * (F[9 * cap + i] + x * F[13 * cap + i]) - w * F[9 * cap + i]
        a2 += cnt * pos * (F[10 * cap + i] + x * F[14 * cap + i]) - w * F[10 * cap + i]
        a3 += cnt * pos * (F[11 * cap + i] + x * F[15 * cap + i]) - w * F[11 * cap + i]
    bought[0] = b
    acc[0], acc[1], acc[2], acc[3] = a0, a1, a2, a3


cdef inline size_t _layout(const void* key, int n, int16_t** c, int32_t** pool, int64_t** per, int8_t** n_mv,
                           uint32_t** mv) noexcept nogil:
    """Where a rank key's arrays lie after its header (each 8-byte aligned); returns its size."""
    cdef size_t at = _up8(sizeof(TermKey))
    c[0] = <int16_t*>(<char*>key + at)
    at += _up8(OUTCOMES * n * sizeof(int16_t))
    pool[0] = <int32_t*>(<char*>key + at)
    at += _up8(n * sizeof(int32_t))
    per[0] = <int64_t*>(<char*>key + at)
    at += n * sizeof(int64_t)
    mv[0] = <uint32_t*>(<char*>key + at)
    at += _up8(MOVES * n * sizeof(uint32_t))
    n_mv[0] = <int8_t*>(<char*>key + at)
    return at + _up8(n)


cdef inline size_t _up8(size_t n) noexcept nogil:
    return (n + 7) // 8 * 8


cdef int64_t _term_value(const void* ctx, const void* key, const int* unseen, int unseen0,
                         int64_t* fields) noexcept nogil:
    """What buying adds to raising the key's final hand when the unseen s0 cards are of the ranks
    unseen0: fields = (dealer hands bought, then the purchases won, pushed, lost, still short, as
    shares of their pools in units 1 / dn)."""
    cdef const TermKey* K = <const TermKey*>key
    cdef int16_t* c
    cdef int32_t* pool
    cdef int64_t* per
    cdef int8_t* n_mv
    cdef uint32_t* mv
    cdef int128 acc[OUTCOMES]
    cdef int us[4]
    cdef int64_t dq = 0, db = 0
    cdef int o
    for o in range(OUTCOMES):
        acc[o] = _joined(K.out, o)
    cdef int64_t fa[OUTCOMES]
    if K.n_fast >= 0:
        _fast_value(_fast(key, K.T.n_sets), K.n_fast, K.T.n_sets, unseen0, &db, fa)
        for o in range(OUTCOMES):
            acc[o] += fa[o]
    else:
        us[0] = unseen0
        us[1] = us[2] = us[3] = 0
        _layout(key, K.T.n_sets, &c, &pool, &per, &n_mv, &mv)
        _set_corrections(unseen, us, 0, &K.T, 0, c, pool, per, n_mv, mv, acc, &dq, &db)
    fields[0] = K.out[1] + db
    for o in range(OUTCOMES):
        fields[1 + o] = <int64_t>acc[o]
    return _fields_gain(&K.T, fields)


cdef inline int64_t _fields_gain(const Net* T, const int64_t* f) noexcept nogil:
    """What purchases counted by fields f (bought, then the shares won, pushed, lost, short) add."""
    return f[1 + WIN] * T.win + f[1 + LOSE] * T.lose + f[1 + SHORT] * T.ante - (T.fee + T.ante) * T.dn * f[0]


cdef int _term_bound(const void* ctx, const void* key, int64_t* base, int64_t* base_fields, int64_t* lo,
                     int64_t* hi) noexcept nogil:
    """The key's bounds (_bounds, made at the first call): TERM_BOUNDED, with TERM_LEAF_SUM for a
    key of fast sets."""
    cdef TermKey* K = <TermKey*>key
    cdef int o
    cdef int16_t* c
    cdef int32_t* pool
    cdef int64_t* per
    cdef int8_t* n_mv
    cdef uint32_t* mv
    if not (<const TermCtx*>ctx).bounded:
        return 0
    if K.flags < 0:
        _layout(key, K.T.n_sets, &c, &pool, &per, &n_mv, &mv)
        _bounds(K, key, K.L, c, pool, per)
    base[0], lo[0], hi[0] = K.base, K.lo, K.hi
    for o in range(1 + OUTCOMES):
        base_fields[o] = K.base_fields[o]
    return K.flags


cdef void _bounds(TermKey* K, const void* key, const int* L, const int16_t* c, const int32_t* pool,
                  const int64_t* per_j) noexcept nogil:
    """A key's sums' term and fields (base), and the least and most its corrections add: each set's
    s0 corrections are at least -(1 + L[rc]) times its gain when bought (f0 and the suited sets
    take the purchase off), at most L[rc] times what its flush moves can add (gains of one dealer
    hand in units of 1 / dn: the per-card gain times dn // pool); a set replacing the up card has
    no suited s0 set, and in each of the three other suits one suited set at most (its side part).
    The fast sets' moves are of one kind, counted exactly; the others' by _flush_bound."""
    cdef int cap = K.T.n_sets, i, j, o, rc, live = _live(L)
    cdef int64_t g, gp, up, per
    cdef const int64_t* F = _fast(key, cap)
    cdef const int64_t* V = _side(key, cap)
    K.base_fields[0] = K.out[1]
    for o in range(OUTCOMES):
        K.base_fields[1 + o] = <int64_t>_joined(K.out, o)
    K.base = _fields_gain(&K.T, K.base_fields)
    K.lo = K.hi = 0
    if K.n_fast >= 0:
        K.flags = TERM_BOUNDED | TERM_LEAF_SUM
        for i in range(K.n_fast):
            per = F[16 * cap + i]
            g = F[6 * cap + i] * per
            if g > 0:
                K.lo -= (1 + F[3 * cap + i]) * g
            up = g + popcount32(<uint32_t>F[4 * cap + i]) * F[7 * cap + i] * per
            if up > 0 and up > g:
                K.hi += F[3 * cap + i] * (up - (g if g > 0 else 0))
    else:
        K.flags = TERM_BOUNDED
        for j in range(cap):
            if pool[j] == 0 or K.T.sets[3 * j] & ~(1 << K.T.ru) & ~live:
                continue
            rc, per = K.T.sets[3 * j + 1], per_j[j]
            g = _gain(c + OUTCOMES * j, &K.T) * per
            gp = g if g > 0 else 0
            if rc == K.T.ru:
                K.lo -= gp
                continue
            K.lo -= (1 + L[rc]) * gp
            up = g + _flush_bound(j, &K.T) * per
            if up > gp:
                K.hi += L[rc] * (up - gp)
    for i in range(K.n_side):
        j = <int>V[i]
        per = per_j[j]
        g = _gain(c + OUTCOMES * j, &K.T) * per
        gp = g if g > 0 else 0
        K.lo -= 3 * gp
        up = g + _flush_bound(j, &K.T) * per
        if up > gp:
            K.hi += 3 * (up - gp)


cdef int _move_ranks(const Net* T, int j) noexcept nogil:
    """The ranks whose replacement of the kept cards' suit moves set j's purchase to another outcome."""
    cdef int r, rc = T.sets[3 * j + 1], kbits = T.sets[3 * j] & ~(1 << T.sets[3 * j + 1]), out = 0
    cdef const int16_t* nf = T.nf + 13 * j
    cdef const int16_t* fl = T.fl + 13 * j
    for r in range(13):
        if not (kbits >> r) & 1 and not (T.redraw and r == rc) and _outcome(nf[r], T) != _outcome(fl[r], T):
            out |= 1 << r
    return out


cdef void _side_set(const TermKey* K, int j, int us, int64_t w, const int16_t* c, const int64_t* per_j,
                    const int8_t* n_mv, const uint32_t* mv, int64_t* f) noexcept nogil:
    """Adds w times side set j's correction when the suit's unseen ranks are ``us``: with the four
    hole cards of that suit (its ranks all unseen), the up card's replacement of the suit makes a
    flush -- that dealer hand's purchase with its moves in place of the one the key sums counted.
    f: bought, then each outcome's shares (units 1 / dn)."""
    cdef const Net* T = &K.T
    cdef int need = T.sets[3 * j] & ~(1 << T.ru), kbits = need, r, o, i
    cdef int16_t cs[OUTCOMES]
    cdef const int16_t* cj = c + OUTCOMES * j
    cdef int64_t x, per = per_j[j]
    cdef uint32_t e
    if need & ~us:
        return
    for o in range(OUTCOMES):
        cs[o] = cj[o]
    if n_mv[j] >= 0:
        for i in range(n_mv[j]):
            e = mv[MOVES * j + i]
            x = popcount32((e >> 8) & us)
            cs[(e >> 4) & 15] -= x
            cs[e & 15] += x
    else:
        for r in range(13):
            if not (kbits >> r) & 1 and (us >> r) & 1 and not (T.redraw and r == T.ru):
                cs[_outcome(T.nf[13 * j + r], T)] -= 1
                cs[_outcome(T.fl[13 * j + r], T)] += 1
    if _gain(cs, T) > 0:
        f[0] += w
        for o in range(OUTCOMES):
            f[1 + o] += w * cs[o] * per
    if _gain(cj, T) > 0:
        f[0] -= w
        for o in range(OUTCOMES):
            f[1 + o] -= w * cj[o] * per


cdef int64_t _side_value(const void* ctx, const void* key, const int* unseen, int us, int64_t* fields) noexcept nogil:
    """The side part of a key for one other suit whose unseen ranks are us (see FinalTerm.side)."""
    cdef int64_t g
    _side_sum(ctx, key, us, 0, NULL, NULL, NULL, 1, &g, fields)
    return g


cdef void _side_sum(const void* ctx, const void* key, int us, int n_opt, const int* ranks, const int64_t* m0,
                    const int64_t* m1, int64_t mult, int64_t* gain, int64_t* fields) noexcept nogil:
    """The side part summed over draws (see FinalTerm.side_sum), per side set: the options among
    its hole ranks must leave the suit's card unseen (m0), the others outside its moves count
    either way (m0 + m1); with moves of one kind, a polynomial in the number of them the draws
    take away (as _term_leaf_sum's), else every subset of the options among its moves."""
    cdef const TermKey* K = <const TermKey*>key
    cdef int cap = K.T.n_sets
    cdef const int64_t* V = _side(key, cap)
    cdef int16_t* c
    cdef int32_t* pool
    cdef int64_t* per
    cdef int8_t* n_mv
    cdef uint32_t* mv
    cdef int i, t, b, o, need, moves, nm, sub, u, deg, x
    cdef int m[MAXOPT]
    cdef int64_t p[MAXOPT + 1]
    cdef int64_t acc[1 + OUTCOMES]
    cdef int64_t w0, w, pos, bj
    for o in range(1 + OUTCOMES):
        acc[o] = 0
    _layout(key, cap, &c, &pool, &per, &n_mv, &mv)
    for i in range(K.n_side):
        need, moves = <int>V[cap + i], <int>V[2 * cap + i]
        if need & ~us:
            continue
        w0 = mult
        nm = 0
        for t in range(n_opt):
            if (need >> ranks[t]) & 1:
                w0 *= m0[t]
            elif (moves >> ranks[t]) & 1:
                m[nm] = t
                nm += 1
            else:
                w0 *= m0[t] + m1[t]
        if w0 == 0:
            continue
        if V[3 * cap + i] <= 1:                             # one kind of move: x of them, linear
            p[0] = 1
            for deg in range(nm):
                p[deg + 1] = 0
                for t in range(deg + 1, 0, -1):
                    p[t] = p[t] * m0[m[deg]] + p[t - 1] * m1[m[deg]]
                p[0] *= m0[m[deg]]
            bj = V[14 * cap + i]
            for t in range(nm + 1):
                if p[t] == 0:
                    continue
                x = popcount32(<uint32_t>(moves & us)) - t
                pos = (V[4 * cap + i] + x * V[5 * cap + i]) > 0
                w = w0 * p[t]
                acc[0] += w * (pos - bj)
                for o in range(OUTCOMES):
                    acc[1 + o] += w * (pos * (V[(6 + o) * cap + i] + x * V[(10 + o) * cap + i]) - bj * V[(6 + o) * cap + i])
            continue
        for sub in range(1 << nm):
            w, u = w0, us
            for b in range(nm):
                if (sub >> b) & 1:
                    w *= m1[m[b]]
                    u &= ~(1 << ranks[m[b]])
                else:
                    w *= m0[m[b]]
            if w:
                _side_set(K, <int>V[i], u, w, c, per, n_mv, mv, acc)
    for o in range(1 + OUTCOMES):
        fields[o] = acc[o]
    gain[0] = _fields_gain(&K.T, fields)


cdef void _term_leaf_sum(const void* ctx, const void* key, int unseen0, int n_opt, const int* ranks,
                         const int64_t* m0, const int64_t* m1, int64_t mult, int64_t* gain,
                         int64_t* fields) noexcept nogil:
    """The corrections of a key of fast sets summed over leaves (see FinalTerm.leaf_sum): per set,
    the dealer's s0 flushes over the leaves that leave its hole ranks' s0 cards unseen (a product
    over the optional ranks), and its suited sets by the number of flush moves the leaves take
    away (a polynomial over them, one branch per state of the removed card's s0 card)."""
    cdef const TermKey* K = <const TermKey*>key
    cdef const int64_t* F = _fast(key, K.T.n_sets)
    cdef int cap = K.T.n_sets, i, j, t, o, r, deg, rc, x0, x
    cdef int64_t p[MAXOPT + 2]
    cdef int64_t q[MAXOPT + 2]
    cdef int64_t acc[1 + OUTCOMES]
    cdef int64_t f0w, bj, cnt_a, cnt_b, w, pos, shift
    cdef bint rc_opt, rc_mv
    for o in range(1 + OUTCOMES):
        acc[o] = 0
    for i in range(K.n_fast):
        bj = F[5 * cap + i]
        if (F[i] & ~unseen0) == 0 and bj:                  # f0: every hole card of the set s0
            f0w = 1
            for j in range(n_opt):
                f0w *= m0[j] + (0 if (F[i] >> ranks[j]) & 1 else m1[j])
            acc[0] -= f0w
            for o in range(OUTCOMES):
                acc[1 + o] -= f0w * F[(8 + o) * cap + i]
        if F[cap + i] & ~unseen0:
            continue                                       # a kept hole card's s0 card is seen: no suited set
        rc = <int>F[2 * cap + i]
        p[0] = 1
        deg = 0
        rc_opt = 0
        rc_mv = (F[4 * cap + i] >> rc) & 1
        for j in range(n_opt):
            r = ranks[j]
            if r == rc:
                rc_opt = 1
                cnt_a, cnt_b = m0[j], m1[j]
            elif (F[cap + i] >> r) & 1:
                for t in range(deg + 1):
                    p[t] *= m0[j]
            elif (F[4 * cap + i] >> r) & 1:                # a leaf taking r's s0 card takes a move away
                p[deg + 1] = 0
                for t in range(deg + 1, 0, -1):
                    p[t] = p[t] * m0[j] + p[t - 1] * m1[j]
                p[0] *= m0[j]
                deg += 1
            else:
                for t in range(deg + 1):
                    p[t] *= m0[j] + m1[j]
        for t in range(deg + 2):
            q[t] = 0
        if rc_opt:                                          # rc's s0 card unseen (cnt L - 1) or taken (cnt L)
            shift = 1 if rc_mv else 0
            for t in range(deg + 1):
                q[t] += p[t] * cnt_a * (F[3 * cap + i] - 1)
                q[t + shift] += p[t] * cnt_b * F[3 * cap + i]
            deg += shift
        else:
            for t in range(deg + 1):
                q[t] = p[t] * (F[3 * cap + i] - ((unseen0 >> rc) & 1))
        x0 = popcount32(<uint32_t>(F[4 * cap + i] & unseen0))
        for t in range(deg + 1):
            if q[t] == 0:
                continue
            x = x0 - t
            pos = (F[6 * cap + i] + x * F[7 * cap + i]) > 0
            w = q[t]
            acc[0] += w * (pos - bj)
            for o in range(OUTCOMES):
                acc[1 + o] += w * (pos * (F[(8 + o) * cap + i] + x * F[(12 + o) * cap + i]) - bj * F[(8 + o) * cap + i])
    for o in range(1 + OUTCOMES):
        fields[o] = acc[o] * mult
    gain[0] = _fields_gain(&K.T, fields)


#: The fields a bought-game term adds per class of final hand: bought, then each way a purchase ends.
TERM_FIELDS = 1 + OUTCOMES


cdef class RankTerm:
    """The bought game as a term of the draws' rank kernel, against the up rank of ``rules`` (its
    s0 the suit 0): nets per class of final hand ``win`` and ``ante`` (units 1 / scale, as the
    kernel's), the purchases' unit ``dn[k]`` per kind of action.  ``capsule()`` hands the term to
    the kernel.  Where a rank set replaces the up card (its four kept cards the hole cards, of any
    suit) the term has a side part per other suit (``side``, ``side_sum``).  Without ``bounded``
    (for the tests) it gives the kernel no bounds: every leaf is valued by itself, and a side part
    situation by situation, each suit of the draws apart.  ``not_with_insurance``: an insured box
    may not buy the game (the kernel takes the better of the two)."""
    cdef TermCtx X
    cdef FinalTerm term
    cdef object keep

    def __init__(self, Rules rules, const int64_t[::1] win, const int64_t[::1] ante, const int64_t[::1] dn,
                 bint bounded=True, bint not_with_insurance=False):
        if win.shape[0] != ante.shape[0] or win.shape[0] == 0 or dn.shape[0] != 7:
            raise ValueError("shapes do not match")
        cdef int j
        cdef int16_t* c
        cdef int32_t* pool
        cdef int64_t* per
        cdef int8_t* n_mv
        cdef uint32_t* mv
        if rules.T.s0 != 0:
            raise ValueError("the rank kernel's up card is of suit 0")
        w, a = np.array(win, dtype=np.int64), np.array(ante, dtype=np.int64)
        self.keep = (rules, w, a)
        cdef int64_t[::1] wv = w
        cdef int64_t[::1] av = a
        self.X.T = rules.T
        self.X.bounded = bounded
        self.X.win = &wv[0]
        self.X.ante = &av[0]
        for j in range(7):
            self.X.dn[j] = dn[j]
            self.term.unit[j] = dn[j]
        self.term.ctx = &self.X
        self.term.prepare = _term_prepare
        self.term.value = _term_value
        self.term.bound = _term_bound
        self.term.leaf_sum = _term_leaf_sum
        self.term.side = _side_value
        self.term.side_sum = _side_sum
        self.term.key_bytes = _layout(NULL, rules.T.n_sets, &c, &pool, &per, &n_mv, &mv) \
            + (FAST + SIDE) * rules.T.n_sets * sizeof(int64_t)
        self.term.n_fields = TERM_FIELDS
        self.term.not_with_insurance = not_with_insurance

    def capsule(self):
        """The term for enumerate.draws._switch_ranks.value_groups: the capsule holds a reference to
        this object, so the term lives as long as any capsule of it does."""
        cap = PyCapsule_New(&self.term, CAPSULE, _release_owner)
        Py_INCREF(self)
        PyCapsule_SetContext(cap, <void*>self)
        return cap


cdef void _release_owner(object capsule) noexcept:
    """A term's capsule is freed: the reference it held to its RankTerm is given back."""
    Py_XDECREF(<PyObject*>PyCapsule_GetContext(capsule))


def leaf_sum_for_tests(RankTerm term, const int32_t[::1] unseen, int strength, int cls, int kind, int us,
                       ranks, m0, m1, int64_t mult, bint side=False):
    """A key's sum over leaves both ways, for the tests: (the term's sum, the sum over every choice
    of the ranks' cards of mult * weight * value), each as (gain, fields), and whether the key has
    a side part.  The s0 part (leaf_sum; value less the key sums' base) when the unseen s0 ranks
    are ``us``, None when the key is zero or not summed at once; with ``side`` the side part
    (side_sum) when the suit's unseen ranks are ``us``, None when the key is zero.  Each value
    is held to the key's bounds (a side part for each of the three suits)."""
    cdef int L[13]
    cdef int rk[MAXOPT]
    cdef int64_t a0[MAXOPT]
    cdef int64_t a1[MAXOPT]
    cdef int64_t base, lo, hi, g, gain = 0, w, v
    cdef int64_t bf[1 + OUTCOMES]
    cdef int64_t f[1 + OUTCOMES]
    cdef int64_t tot[1 + OUTCOMES]
    cdef int64_t fs[1 + OUTCOMES]
    cdef int n = len(ranks), i, sd, o, u, live, flags
    if unseen.shape[0] != 13 or not 0 <= n <= MAXOPT or len(m0) != n or len(m1) != n:
        raise ValueError("shapes do not match")
    for i in range(13):
        L[i] = unseen[i]
    for i in range(n):
        rk[i], a0[i], a1[i] = ranks[i], m0[i], m1[i]
    key = np.zeros(term.term.key_bytes, dtype=np.uint8)
    cdef unsigned char[::1] kv = key
    live = _term_prepare(&term.X, &kv[0], L, strength, cls, kind)
    if not live:
        return None
    flags = _term_bound(&term.X, &kv[0], &base, bf, &lo, &hi)
    if side:
        _side_sum(&term.X, &kv[0], us, n, rk, a0, a1, mult, &gain, fs)
    elif flags & TERM_LEAF_SUM:
        _term_leaf_sum(&term.X, &kv[0], us, n, rk, a0, a1, mult, &gain, fs)
    else:
        return None
    for o in range(1 + OUTCOMES):
        tot[o] = 0
    g = 0
    for sd in range(1 << n):
        w = mult
        u = us
        for i in range(n):
            if (sd >> i) & 1:
                w *= a1[i]
                u &= ~(1 << rk[i])
            else:
                w *= a0[i]
        if side:
            v = _side_value(&term.X, &kv[0], L, u, f)
            if not lo <= 3 * v <= hi:
                raise AssertionError("a side part outside the key's bounds")
        else:
            v = _term_value(&term.X, &kv[0], L, u, f) - base
            for o in range(1 + OUTCOMES):
                f[o] -= bf[o]
            if not lo <= v <= hi:
                raise AssertionError("a correction outside the key's bounds")
        g += w * v
        for o in range(1 + OUTCOMES):
            tot[o] += w * f[o]
    return (gain, [fs[o] for o in range(1 + OUTCOMES)]), (g, [tot[o] for o in range(1 + OUTCOMES)]), \
        bool(live & TERM_SIDE)
