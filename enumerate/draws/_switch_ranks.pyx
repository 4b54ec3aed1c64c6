"""The switch game counted by rank patterns (private; driven by enumerate.draws.switch_ranks).

The up card is fixed to (ru, s0), s0 = suit 0.  A *group* is a player rank pattern h against the
up rank; its situations are the concrete hands H with that pattern (up to the permutations of the
three other suits), each with its weight.  Switching the cards X (a subset of H, k = |X| cards)
draws k of the 46 unseen cards, D; the final hand is (H - X) + D and the dealer's hole cards are
four of the 46 - k cards still unseen, so they avoid all of H, D and the up card.

**The rank part, shared by every situation and every discard of the group.**  For a draw of rank
pattern d the dealer's hole sets by rank pattern have weights prod_r C(a_r - d_r, m_r),
a_r = 4 - h_r - [r = ru] -- whatever is kept or discarded -- so one pass over the 1,820 hole
patterns (``rank_part``) gives, for every discard X of k cards, the dealer's non-flush counts
against the final hand's strength by three prefix sums at its cuts.  The s0 flushes are then
corrected by G[D0][class of the strength] (the flush tables below), D0 the ranks whose s0 card is
dead: the player's (SH) and the draw's (SD).  So the value of a discard depends on the situation
only through SH, **unless the final hand is a flush**: the draws are leaves (d, SD) with a
multiplicity (how many concrete draws share them, a product of binomials over d's ranks: the s0
card drawn or not among the unseen cards of the rank), and every leaf is valued, for each distinct
discard pattern x of k cards, as the non-flush hand h - x + d.

**The flush corrections, per situation.**  A draw that makes the final hand a flush -- the kept
cards K all of one suit (or none kept), the draw k cards of that suit, ranks d distinct and not
dead in it -- was counted above as the non-flush hand; per situation and discard each such draw
adds its flush value and takes off its non-flush one (values and outcomes, signed).

**Buying a sixth card** is a draw of one card too: the dealer's hole cards avoid the six, so its
leaves are those of the one-card draws (the same rank part, n and dead s0 ranks), valued as the
best five of the six.  Without a flush that is a rank function, the best of h + d less one card:
the hand itself or one of its one-card switches, max(s(h), s(h - x + d)).  A flush among the six
needs five of a suit: the hand a flush (any draw: the flush, or the best five of six suited cards
when the draw is of its suit), or four of a suit and the draw of it; those draws are corrected per
situation as above.

A draw's value is :mod:`enumerate.draws.hand`'s: raise (the linear form less n * (c_tie -
bonus)) or fold (-scale * n), the better one, or the raise when switching five forces it; n =
C(46 - k, 4).  The linear form is the kernel's rule, per *class* of final hand: the plain game's
classes are the categories, Russian Poker's the pays of its two combinations (a six bought paid
by all six cards), each with the coefficients of the dealer's counts in the raise's value and in
an insurance's, which is taken when it pays.  Where a kept hand's win pays otherwise than a drawn
one's (the ante paid on a win only when the player did not draw), keeping (k = 0) is valued with
coefficients of its own (``cnet_kept``), every draw with the table's.

**A final term.**  A table may add to raising a term that is not linear in the dealer's counts
but depends only on what a leaf fixes -- the final hand's strength and class, the unseen cards of
each rank, the unseen s0 ranks (enumerate/draws/_final_term.pxd; Russian Poker's bought game, in
enumerate/russian/_bought.pyx).  Its keys are prepared once per draw rank pattern and final hand,
its values kept per key and unseen s0 ranks (the flush corrections of many situations meet the
same ones); the values of kind k are then in units of 1 / (scale * unit[k]) per dealer set and the
term's fields are counted per class beside the outcomes.  Where the term bounds its part that
depends on the unseen s0 ranks, a mask's leaves of one set SH that all raise (or all fold)
whatever that part is are valued together: the term sums that part over them at once
(_term_leaves).  A term not taken with insurance (Russian Poker's bought game when an insured box
may not buy it) makes raising worth the linear form plus the better of the term and the insurance,
insured only when the insurance is worth more -- so a class that may be insured goes leaf by leaf,
each leaf with its exact term, and an insured raise counts none of the term's fields.  The bounds
below still hold: the better of the two is at least the linear form plus the insurance when it
pays, and at most cnet_hi's raise plus it.

**Leaving out what no situation takes.**  When the term never takes away (it adds what an option
gains) and the table gives the coefficients of a raise worth at least raising with it (cnet_hi:
every dealer hand that does not qualify bought and won, say), the group's actions are first valued
without the term, for values alone, two ways in one pass (each draw's counts serve both) -- by the
linear form (a lower bound of each action) and by cnet_hi (an upper bound).  The term's pass then
goes best first (_prune): keeping and each situation's action of the best lower bound are valued
exactly first, and a discard whose upper bound is below one of those exact values in every
situation of the group is left out of the second term pass, which values the rest: it cannot be
any situation's best, so the best actions and every sum the group keeps are the same integers; the
term's keys, leaves and side parts of the discards left out are never made.  (An exact value is
at least its lower bound, so this leaves out all that the best lower bound would, and under the
classic rules, where a purchase's best outcome is far above its worth, about twice as much of a
high card's work.)  (Every action's rows, for one hand, are valued in full.)

A situation's action is worth the sum over its draws, exact in units of 1 / (scale * n * C(46, k)
* unit[k]) antes, less the fee (values summed in 128 bits); its best action (keep, then fewer
cards, then the masks' order over the sorted hand, then buying) is compared exactly in 256-bit
integers.  Per group the kernel sums, weighted, per kind of best action (keep, switch 1..5, buy):
situations, value, raised draws and the outcomes by class of final hand (the columns of
enumerate.draws.hand.OUTCOME_STATS, then a final term's; an insured raise under its class + the
number of classes), and the value of keeping in every situation (the normal game's, a check); per
situation the best mask and whether keeping raises.

**A strategy's draw.**  Given each situation's action (``fixed``: a switch mask or buying, as a
simple strategy decides it from the dealt hand and the up card), the kernel counts the same sums
with that action in place of the best: only keeping (every group's check) and the masks that
discard the ranks of some situation's fixed action are valued, without leaving anything out, and
the raise, insurance and purchase after the draw stay each final hand's best.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset
from cython.parallel cimport prange
from cpython.pycapsule cimport PyCapsule_GetPointer
from enumerate.draws._final_term cimport CAPSULE, TERM_BOUNDED, TERM_LEAF_SUM, TERM_SIDE, FinalTerm
from evaluator._eval cimport binom_table, key_tables
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED
from enumerate.core._cancel cimport studodds_cancelled
from enumerate.core._combinatorics cimport choose, popcount5, popcount32
from enumerate.core._rank_patterns cimport (MASKS, Leaves, flush_move, flush_subset_sums, leaves_first, leaves_next,
                                            leaves_option, leaves_rank, leaves_start, mask12, rank_part)

cdef extern from *:
    ctypedef long long int128 "__int128"
    ctypedef unsigned long long uint128 "unsigned __int128"

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)

DEF NA = 33             # actions per situation: the 32 switch masks, then buying (BUYA)
DEF BUYA = 32           # the action "buy a sixth card"
DEF MAXCLS = 128        # classes of final hand (insured apart)
DEF MAXTF = 5           # fields a final term adds per class
DEF MAXNF = 2 + (8 + MAXTF) * MAXCLS   # per action at most: value, raised draws, outcomes by class
DEF MAXKEYS = 96        # a final term's keys kept per draw rank pattern
DEF MEMO = 64           # a key's values kept, by unseen s0 ranks (open addressing)
DEF UNSEEN = 46
#: The best action "buy a sixth card" (after the switch masks 0..31).
BUY_ACTION = BUYA
#: Actions of a situation's rows: the 32 switch masks, then buying.
ACTIONS = NA
#: The multisets of six ranks: a six bought is classed by its colex rank among them, without a flush.
SIX_PATTERNS = 18564
#: The 13-bit masks of ranks: a suited six is classed by its mask, a suited five with another
#: card by 13 * mask + the other card's rank.
RANK_MASKS = 2 * MASKS
#: The most classes of final hand a table may have.
MAX_CLASSES = MAXCLS


def kind_fields(int n_stat, int n_term=0):
    """Fields per kind of best action: situations, value, raised draws, then the outcomes
    (n_stat classes x (8 + n_term): the kernel's 8, then a final term's)."""
    return 3 + (8 + n_term) * n_stat


def group_fields(int n_stat, int n_term=0):
    """Fields of a group's sums: 7 kinds (keep, switch 1..5, buy), then the value of keeping."""
    return 7 * kind_fields(n_stat, n_term) + 1


cdef inline int _kl(int c, int j, int nq) noexcept nogil:
    """The class of a dealer strength (index j among the flush tables' values, nq: below the
    qualifier) against a player strength of class c (see flush_tables)."""
    if nq:
        return 0
    if j < c // 2:
        return 1
    if j == c // 2 and c & 1:
        return 2
    return 3


def flush_tables(const int32_t[::1] fl_mask, const int32_t[::1] st_idx, const int32_t[::1] nf_idx,
                 const uint8_t[::1] st_nq, const uint8_t[::1] nf_nq, int16_t[:, :, ::1] out, int n_threads):
    """out[c, D0, k]: the change of count k (no qualifier, win, tie) that the s0 flushes avoiding
    the dead s0 ranks D0 make against a player strength of class c.  The flush patterns' strengths
    are given as indices j into V, the sorted distinct values of both strengths of every pattern; a
    player strength sp is of class 2 * #{v in V: v < sp} + [sp in V], so a dealer value v_j is
    below sp iff j < c // 2 and equal iff c is odd and j = c // 2."""
    cdef int n_cls = out.shape[0], nf = fl_mask.shape[0]
    if out.shape[1] != MASKS or out.shape[2] != 3 or st_idx.shape[0] != nf or nf_idx.shape[0] != nf \
            or st_nq.shape[0] != nf or nf_nq.shape[0] != nf:
        raise ValueError("shapes do not match")
    cdef int c, f, m, k
    cdef int32_t* acc
    for c in prange(n_cls, nogil=True, schedule="dynamic", num_threads=n_threads):
        acc = <int32_t*>calloc(MASKS * 3, sizeof(int32_t))
        for f in range(nf):
            flush_move(acc, fl_mask[f], _kl(c, st_idx[f], st_nq[f]), _kl(c, nf_idx[f], nf_nq[f]))
        flush_subset_sums(acc)
        for m in range(MASKS):
            for k in range(3):
                out[c, m, k] = <int16_t>acc[3 * ((MASKS - 1) ^ m) + k]
        free(acc)


cdef struct Rules:
    # what values a draw: the fold's scale, the qualifier cut, the cuts and flush class of every
    # strength, the flush tables, the evaluator's tables; the class of a final hand (per strength,
    # and for a six bought: by key without a flush, by its suited ranks with one) and per class the
    # coefficients of nq, win, tie and n in the raise's value and the insurance's (NULL: none)
    int64_t scale
    int iq
    const int32_t* cut_lo
    const int32_t* cut_hi
    const int16_t* cls
    const int16_t* gtab
    int n_cls
    const int32_t* card_key
    const int16_t* by_key
    const int16_t* by_flush
    int nf
    int n_pay
    const int16_t* pclass
    const int64_t* cnet
    const int64_t* cnet_kept  # a kept hand's (no draw) coefficients where they differ (NULL: cnet's)
    const int64_t* cins
    const int16_t* pc6
    const int16_t* pc6_five
    const int16_t* pc6_six
    const FinalTerm* term     # a table's term added to raising (NULL: none), its fields per class
    const int64_t* cnet_hi    # with a term: coefficients whose raise bounds raising with it (NULL: none)
    const int64_t* cnet2      # a pass for values alone: a second value by these coefficients, in the row's last field (NULL: none)
    int n_tf
    int per_cls               # fields per class: 8 + n_tf
    const int8_t* sit_col     # per field of a kind's sums, the situation's column it adds to (-1: none; NULL: no columns)
    int n_col
    int64_t* sit_sums         # per situation, its best action's selected fields summed by column
    const int8_t* fixed       # per situation, the action a strategy takes in place of the best (NULL: the best)


cdef struct Memo:
    # one value of a key's term: its unseen s0 ranks (-1: empty), the term and its fields
    int us0
    int64_t gain
    int64_t tf[MAXTF]


cdef struct SideSum:
    # a side part summed over draws (FinalTerm.side_sum): its arguments (us -1: empty) and value
    int us
    int n_opt
    int ranks[5]
    int64_t m0[5]
    int64_t m1[5]
    int64_t mult
    int64_t v[1 + MAXTF]


DEF SSUM = 16           # a key's side sums kept (open addressing): pairs of several sets SH meet the same


cdef struct TermKeys:
    # a final term's keys prepared for the draw rank pattern at hand (the unseen cards of each rank
    # ``unseen``, drawn by an action of kind ``kind``): by (strength, class, kind), in ``slots``,
    # each with its values by unseen s0 ranks (``memo``: the same key meets the same s0 ranks in
    # many situations' flush corrections)
    const int* unseen
    int n
    int st[MAXKEYS + 1]
    int pc[MAXKEYS + 1]
    int kind[MAXKEYS + 1]
    int live[MAXKEYS + 1]     # prepare's flags: 0 (the term 0), TERM_LIVE, | TERM_SIDE
    char* slots
    Memo* memo
    Memo* smemo               # a side part's values, by the unseen ranks of its suit
    SideSum* ssum             # its sums over draws, by their arguments


cdef inline int _term_slot(TermKeys* G, int st, int pc, int kind, const Rules* R) noexcept nogil:
    """The slot of a final hand's prepared key (-1: the term is 0 for it); the last slot is
    scratch, its values not kept, when the table of keys is full."""
    cdef int i, j
    for i in range(G.n):
        if G.st[i] == st and G.pc[i] == pc and G.kind[i] == kind:
            return i if G.live[i] else -1
    i = G.n if G.n < MAXKEYS else MAXKEYS
    G.st[i], G.pc[i], G.kind[i] = st, pc, kind
    G.live[i] = R.term.prepare(R.term.ctx, G.slots + i * R.term.key_bytes, G.unseen, st, pc, kind)
    if i < MAXKEYS:
        for j in range(MEMO):
            G.memo[i * MEMO + j].us0 = -1
            G.smemo[i * MEMO + j].us0 = -1
        for j in range(SSUM):
            G.ssum[i * SSUM + j].us = -1
    if G.n < MAXKEYS:
        G.n += 1
    return i if G.live[i] else -1


cdef inline int64_t _term_value(TermKeys* G, int i, int us0, int64_t* tf, const Rules* R) noexcept nogil:
    """The term of the key in slot i for the unseen s0 ranks us0 (kept in the slot's memo)."""
    return _memo_value(G, G.memo, 0, i, us0, tf, R)


cdef inline int64_t _term_side(TermKeys* G, int i, int us, int64_t* tf, const Rules* R) noexcept nogil:
    """The side part of the key in slot i for one other suit whose unseen ranks are us (kept in the
    slot's side memo)."""
    return _memo_value(G, G.smemo, 1, i, us, tf, R)


cdef inline int64_t _memo_value(TermKeys* G, Memo* memo, bint side, int i, int us, int64_t* tf,
                                const Rules* R) noexcept nogil:
    """The term's value (side: its side part) for the unseen ranks us, kept in ``memo``."""
    cdef int j, h = (us * 40503) & (MEMO - 1), f
    cdef Memo* m
    if i < MAXKEYS:
        for j in range(MEMO):
            m = &memo[i * MEMO + ((h + j) & (MEMO - 1))]
            if m.us0 == us:
                for f in range(R.n_tf):
                    tf[f] = m.tf[f]
                return m.gain
            if m.us0 < 0:
                m.gain = _term_call(G, side, i, us, tf, R)
                m.us0 = us
                for f in range(R.n_tf):
                    m.tf[f] = tf[f]
                return m.gain
    return _term_call(G, side, i, us, tf, R)


cdef inline int64_t _term_call(TermKeys* G, bint side, int i, int us, int64_t* tf, const Rules* R) noexcept nogil:
    if side:
        return R.term.side(R.term.ctx, G.slots + i * R.term.key_bytes, G.unseen, us, tf)
    return R.term.value(R.term.ctx, G.slots + i * R.term.key_bytes, G.unseen, us, tf)


cdef inline int64_t _raised(int64_t nq, int64_t win, int64_t tie, int pc, int64_t n, int64_t unit, int64_t gain,
                           const Rules* R, bint* insured) noexcept nogil:
    """What raising a final hand of class pc is worth with these dealer counts (units 1 / unit,
    plus ``gain``), insured when that pays (``insured``)."""
    return _raised_by(R.cnet + 4 * pc, nq, win, tie, pc, n, unit, gain, R, insured)


cdef inline int64_t _raised_by(const int64_t* k, int64_t nq, int64_t win, int64_t tie, int pc, int64_t n, int64_t unit,
                              int64_t gain, const Rules* R, bint* insured) noexcept nogil:
    """_raised with the raise's coefficients ``k`` (the class's row of R.cnet, or of R.cnet2).  A
    term not taken with insurance (FinalTerm.not_with_insurance): the better of the two, insured
    only when the insurance is worth more than the term."""
    cdef int64_t rv = (nq * k[0] + win * k[1] + tie * k[2] + n * k[3]) * unit
    cdef int64_t iv = 0
    if R.cins != NULL:
        k = R.cins + 4 * pc
        iv = (nq * k[0] + win * k[1] + tie * k[2] + n * k[3]) * unit
    if R.term != NULL and R.term.not_with_insurance:
        insured[0] = iv > 0 and iv > gain
        return rv + (iv if insured[0] else gain)
    insured[0] = iv > 0
    return rv + gain + (iv if iv > 0 else 0)


cdef inline bint _insurable(int pc, const Rules* R) noexcept nogil:
    """Whether a raise of class pc may be insured (its insurance coefficients not all 0)."""
    cdef const int64_t* k
    if R.cins == NULL:
        return 0
    k = R.cins + 4 * pc
    return k[0] != 0 or k[1] != 0 or k[2] != 0 or k[3] != 0


cdef inline void _value(int128* row, int64_t m, int64_t nq, int64_t win, int64_t tie, int pc, int64_t n,
                        bint force, int64_t unit, int64_t gain, const int64_t* tf, const Rules* R) noexcept nogil:
    """Add m draws of final class pc with these dealer counts: the better of raise (insured when
    that pays) and fold (the raise when forced), its value and its outcomes -- by class, and an
    insured raise by class + n_pay.  With a final term the values are in units of 1 / unit, the
    raise's plus ``gain``, and its fields ``tf`` are counted with the raise's outcomes.  With
    R.cnet2 (a pass for values alone) the better of the raise by those coefficients and the fold
    is added to the row's last field too."""
    cdef bint insured, insured2
    cdef int64_t rv = _raised(nq, win, tie, pc, n, unit, gain, R, &insured)
    cdef int64_t fold = -R.scale * n * unit
    cdef int64_t rv2
    if R.cnet2 != NULL:
        rv2 = _raised_by(R.cnet2 + 4 * pc, nq, win, tie, pc, n, unit, gain, R, &insured2)
        row[R.nf - 1] += <int128>m * (rv2 if force or rv2 > fold else fold)
    cdef int i
    cdef int128* st
    if force or rv > fold:
        st = row + 2 + R.per_cls * (pc + (R.n_pay if insured else 0))
        row[0] += <int128>m * rv
        row[1] += m
        st[0] += m
        st[1] += m * nq
        st[2] += m * win
        st[3] += m * tie
        st[4] += m * (n - nq - win - tie)
        if not (insured and R.term != NULL and R.term.not_with_insurance):
            for i in range(R.n_tf):
                st[8 + i] += <int128>m * tf[i]
    else:
        st = row + 2 + R.per_cls * pc
        row[0] += <int128>m * fold
        st[5] += m * n
        st[7] += m * nq
        if rv == fold:
            st[6] += m


cdef inline void _draw(int128* row, int64_t m, int st, int pc, int dead0, int kind, const int64_t* cum, int64_t n,
                       bint force, int ru, TermKeys* G, const Rules* R, const int* dsig) noexcept nogil:
    """m draws whose final hand has strength st and class pc, the dead s0 ranks dead0 (13 bits),
    the rank part cum; with a final term, its value for the unseen s0 ranks, and with dsig (the
    dead ranks of suits 1-3: m draws of known suits) its side parts."""
    cdef int64_t nq, win, tie, gain = 0, unit = 1
    cdef int64_t tf[MAXTF]
    cdef int64_t sf[MAXTF]
    cdef int i, s, f
    _counts(st, dead0, cum, ru, R, &nq, &win, &tie)
    if R.term != NULL:
        unit = R.term.unit[kind]
        for i in range(R.n_tf):
            tf[i] = 0
        i = _term_slot(G, st, pc, kind, R)
        if i >= 0:
            gain = _term_value(G, i, _unseen0(dead0, ru), tf, R)
            if dsig != NULL and G.live[i] & TERM_SIDE:
                for s in range(3):
                    gain += _term_side(G, i, ~dsig[s] & 0x1FFF, sf, R)
                    for f in range(R.n_tf):
                        tf[f] += sf[f]
    _value(row, m, nq, win, tie, pc, n, force, unit, gain, tf, R)


cdef struct Big:
    # a signed integer of up to 256 bits: sign and magnitude in four 64-bit words, lowest first
    bint neg
    uint64_t w[4]


cdef inline void _big(Big* x, int128 v) noexcept nogil:
    cdef uint128 m = <uint128>(-v) if v < 0 else <uint128>v
    x.neg = v < 0
    x.w[0] = <uint64_t>m
    x.w[1] = <uint64_t>(m >> 64)
    x.w[2] = 0
    x.w[3] = 0


cdef inline void _big_mul(Big* x, uint64_t y) noexcept nogil:
    """x *= y (the products here stay far below 2**256)."""
    cdef uint128 carry = 0, p
    cdef int i
    for i in range(4):
        p = <uint128>x.w[i] * y + carry
        x.w[i] = <uint64_t>p
        carry = p >> 64


cdef inline int _mag_cmp(const Big* a, const Big* b) noexcept nogil:
    cdef int i
    for i in range(3, -1, -1):
        if a.w[i] != b.w[i]:
            return 1 if a.w[i] > b.w[i] else -1
    return 0


cdef inline bint _big_less(const Big* a, const Big* b) noexcept nogil:
    """a < b."""
    cdef int c = _mag_cmp(a, b)
    cdef bint za = (a.w[0] | a.w[1] | a.w[2] | a.w[3]) == 0, zb = (b.w[0] | b.w[1] | b.w[2] | b.w[3]) == 0
    cdef bint na = a.neg and not za, nb = b.neg and not zb
    if na != nb:
        return na
    return c > 0 if na else c < 0


cdef inline void _big_sub(Big* x, const Big* y) noexcept nogil:
    """x -= y."""
    cdef Big t = y[0]
    cdef Big out
    cdef uint128 d
    cdef uint64_t borrow = 0
    cdef const Big* hi
    cdef const Big* lo
    cdef int i
    t.neg = not t.neg
    if x.neg == t.neg:                         # same signs: add the magnitudes
        d = 0
        for i in range(4):
            d = <uint128>x.w[i] + t.w[i] + (d >> 64)
            x.w[i] = <uint64_t>d
        return
    if _mag_cmp(x, &t) >= 0:                   # different signs: the larger magnitude less the smaller
        hi, lo = x, &t
    else:
        hi, lo = &t, x
    out.neg = hi.neg
    for i in range(4):
        d = <uint128>hi.w[i] - lo.w[i] - borrow
        out.w[i] = <uint64_t>d
        borrow = 1 if (<uint128>lo.w[i] + borrow) > hi.w[i] else 0
    x[0] = out


cdef void _side(Big* out, int128 v, int k, int other, const int64_t* tden, const int64_t* unit,
                const int64_t* fee_num, int64_t fee_den) noexcept nogil:
    """One side of _better: v * t[other] * fee_den - fee_num[k] * t[k] * t[other], t = tden * unit."""
    cdef Big fee
    _big(out, v)
    _big_mul(out, tden[other])
    _big_mul(out, unit[other])
    _big_mul(out, fee_den)
    _big(&fee, fee_num[k])
    _big_mul(&fee, tden[k])
    _big_mul(&fee, unit[k])
    _big_mul(&fee, tden[other])
    _big_mul(&fee, unit[other])
    _big_sub(out, &fee)


cdef bint _better(const int128* va, int ka, const int128* vb, int kb, const int64_t* tden, const int64_t* unit,
                  const int64_t* fee_num, int64_t fee_den) noexcept nogil:
    """EV(a) > EV(b), exactly: EV = value / (tden[k] * unit[k]) - fee_num[k] / fee_den, both sides
    times t[ka] * t[kb] * fee_den in 256 bits."""
    cdef Big lhs, rhs
    if ka == kb:
        return va[0] > vb[0]
    _side(&lhs, va[0], ka, kb, tden, unit, fee_num, fee_den)
    _side(&rhs, vb[0], kb, ka, tden, unit, fee_num, fee_den)
    return _big_less(&rhs, &lhs)


def better_for_tests(va, int ka, vb, int kb, tden, unit, fee_num, int64_t fee_den):
    """_better on Python ints (the tests hold it to Fractions)."""
    cdef int128 a = (<int128>(<int64_t>(va >> 64)) << 64) | <uint64_t>(va & 0xFFFFFFFFFFFFFFFF)
    cdef int128 b = (<int128>(<int64_t>(vb >> 64)) << 64) | <uint64_t>(vb & 0xFFFFFFFFFFFFFFFF)
    cdef int64_t t[7]
    cdef int64_t u[7]
    cdef int64_t f[7]
    cdef int i
    for i in range(7):
        t[i], u[i], f[i] = tden[i], unit[i], fee_num[i]
    return bool(_better(&a, ka, &b, kb, t, u, f, fee_den))


cdef struct Hand:
    # a group's hand (its rank pattern against the up rank) and what each discard of it leaves
    int rk[5]                 # the sorted hand's ranks
    int32_t rkey[13]          # each rank's evaluator key (of its s0 card)
    int32_t key_h             # the hand's key
    int a[13]                 # the cards of each rank neither the hand's nor the up card
    int32_t key_x[32]         # the key of the cards a switch mask discards
    int kbits[32]             # the ranks a mask keeps
    int rep[32]               # the first mask discarding the same ranks (its leaves are shared)
    bint valid[32]            # whether the mask may be switched (allowed[k])
    int of_k[6][10]           # the valid masks of k cards
    int n_k[6]


cdef struct Sits:
    # a group's situations: their sets of s0 ranks (SH, deduplicated), dead ranks per suit, and
    # the suit of the cards each mask keeps (4: none kept, -1: not one suit); the situations of
    # each set SH (sit_order[sh_off[sh]..sh_off[sh + 1]]), and the pairs (SH, dead ranks of one
    # other suit) they hold -- pair_d[pair_off[sh]..pair_off[sh + 1]], sit_pair[3 s + suit - 1] --
    # with a value per pair (pv: 1 + MAXTF each)
    int n_s
    int n_sh
    int shv[32]
    int* sit_sh
    int* dead
    int8_t* ksuit
    int8_t* fsuit
    int* sit_order
    int sh_off[33]
    int* pair_d
    int pair_off[33]
    int* sit_pair
    int64_t* pv


cdef struct Drawn:
    # one rank pattern of k drawn cards
    int k
    int64_t n                 # dealer hole-card sets after the draw: C(46 - k, 4)
    bint force                # switching all five forces the raise
    bint buy1                 # buying shares the one-card draws
    int32_t key_d
    int dbits                 # its ranks
    bint distinct
    int nd
    int dr[5]                 # its ranks and their multiplicities
    int dm[5]
    int nm                    # the representative masks of k cards, and each one's final strength
    int mk[32]
    int sx[32]
    int sb                    # buying: the best five of the six without a flush, and the six's class
    int cb


cdef void _hand(int ru, const int8_t* h, const uint8_t* allowed, const Rules* R, Hand* H) noexcept nogil:
    """The hand's ranks and keys, and per switch mask what it discards and keeps."""
    cdef int i = 0, j, r, k, mask, m2
    H.key_h = 0
    for r in range(13):
        H.rkey[r] = R.card_key[4 * r]
        H.a[r] = 4 - h[r] - (1 if r == ru else 0)
        for j in range(h[r]):
            H.rk[i] = r
            i += 1
    for i in range(5):
        H.key_h += H.rkey[H.rk[i]]
    for mask in range(32):
        k = popcount5(mask)
        H.valid[mask] = mask == 0 or allowed[k]
        H.key_x[mask] = 0
        H.kbits[mask] = 0
        for i in range(5):
            if (mask >> i) & 1:
                H.key_x[mask] += H.rkey[H.rk[i]]
            else:
                H.kbits[mask] |= 1 << H.rk[i]
        H.rep[mask] = mask
        for m2 in range(mask):
            if popcount5(m2) == k and _same_ranks(mask, m2, H.rk):
                H.rep[mask] = m2
                break
    _index_valid(H)


cdef void _index_valid(Hand* H) noexcept nogil:
    """The valid masks of each number of cards (of_k, n_k), from ``valid``."""
    cdef int k, mask
    for k in range(6):
        H.n_k[k] = 0
    for mask in range(32):
        if H.valid[mask]:
            k = popcount5(mask)
            H.of_k[k][H.n_k[k]] = mask
            H.n_k[k] += 1


cdef inline bint _allowed(const Hand* H, int a, bint buy) noexcept nogil:
    """Whether action a (a switch mask, or BUYA with ``buy``) may be taken."""
    return buy if a == BUYA else H.valid[a]


cdef void _situations(int ru, int64_t s_lo, const uint8_t[:, ::1] sit_cards, Sits* S) noexcept nogil:
    """Each situation's s0 ranks (deduplicated into SH sets), dead ranks per suit, and the suit of
    the cards each mask keeps."""
    cdef int s, i, j, mask, suit, sh13
    cdef int suits[5]
    S.n_sh = 0
    for s in range(S.n_s):
        for i in range(4):
            S.dead[4 * s + i] = 0
        for i in range(5):
            suits[i] = sit_cards[s_lo + s, i] & 3
            S.dead[4 * s + suits[i]] |= 1 << (sit_cards[s_lo + s, i] >> 2)
        sh13 = S.dead[4 * s]
        S.dead[4 * s] |= 1 << ru
        j = -1
        for i in range(S.n_sh):
            if S.shv[i] == sh13:
                j = i
        if j < 0:
            S.shv[S.n_sh] = sh13
            j = S.n_sh
            S.n_sh += 1
        S.sit_sh[s] = j
        for mask in range(32):
            suit = 4                  # none kept: any suit
            for i in range(5):
                if not (mask >> i) & 1:
                    if suit == 4:
                        suit = suits[i]
                    elif suit != suits[i]:
                        suit = -1
                        break
            S.ksuit[32 * s + mask] = suit
        S.fsuit[s] = S.ksuit[32 * s]          # the suit of a flush (all kept), -1 if none
    _pairs(S)


cdef void _pairs(Sits* S) noexcept nogil:
    """The situations of each set SH, and the pairs (SH, dead ranks of one other suit) they hold."""
    cdef int s, sh, i, j, sigma, d, n = 0
    for sh in range(S.n_sh + 1):
        S.sh_off[sh] = 0
    for s in range(S.n_s):
        S.sh_off[S.sit_sh[s] + 1] += 1
    for sh in range(S.n_sh):
        S.sh_off[sh + 1] += S.sh_off[sh]
    for sh in range(S.n_sh):
        S.pair_off[sh] = n
        j = S.sh_off[sh]
        for s in range(S.n_s):
            if S.sit_sh[s] != sh:
                continue
            S.sit_order[j] = s
            j += 1
            for sigma in range(1, 4):
                d = S.dead[4 * s + sigma]
                for i in range(S.pair_off[sh], n):
                    if S.pair_d[i] == d:
                        break
                else:
                    S.pair_d[n] = d
                    i = n
                    n += 1
                S.sit_pair[3 * s + sigma - 1] = i
    S.pair_off[S.n_sh] = n


cdef bint _drawn(const Hand* H, const int8_t* dv, const Rules* R, int* a2, Drawn* D) noexcept nogil:
    """A draw rank pattern ``dv``: the cards left after it (a2), its key, ranks and multiplicities,
    each representative mask's final strength and, when buying, the best five of six without a
    flush; False when the deck cannot hold it."""
    cdef int r, i, j, x
    D.key_d = 0
    D.dbits = 0
    D.distinct = 1
    D.nd = 0
    for r in range(13):
        a2[r] = H.a[r] - dv[r]
        if a2[r] < 0:
            return 0
        if dv[r]:
            D.key_d += dv[r] * H.rkey[r]
            D.dbits |= 1 << r
            D.dr[D.nd] = r
            D.dm[D.nd] = dv[r]
            D.nd += 1
            if dv[r] > 1:
                D.distinct = 0
    for j in range(D.nm):
        D.sx[D.mk[j]] = R.by_key[H.key_h - H.key_x[D.mk[j]] + D.key_d]
    if D.buy1:
        D.sb = R.by_key[H.key_h]
        for i in range(5):
            x = R.by_key[H.key_h - H.rkey[H.rk[i]] + D.key_d]
            if x > D.sb:
                D.sb = x
        D.cb = R.pc6[_six_index(H.rk, D.dr[0])] if R.pc6 != NULL else R.pclass[D.sb]
    return 1


cdef inline int _six_index(const int* rk, int r) noexcept nogil:
    """The index of the six ranks rk[0..4] (sorted) and r among the multisets of six ranks: their
    colex rank, sum of C(c_i, i + 1) over c_i = (i-th smallest rank) + i (SIX_PATTERNS of them)."""
    cdef int i, j = 0, out = 0, c
    cdef bint placed = 0
    for i in range(6):
        if not placed and (j == 5 or r <= rk[j]):
            c = r + i
            placed = 1
        else:
            c = rk[j] + i
            j += 1
        out += _binomial(c, i + 1)
    return out


cdef inline int _binomial(int n, int k) noexcept nogil:
    """C(n, k) for the small n and k of _six_index (k up to 6: beyond the shared table's 5)."""
    cdef int64_t out = 1
    cdef int i
    if k > n:
        return 0
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return <int>out


cdef inline void _switch_leaf(int128* A, int sh, int64_t mult, int dead0, int ru, const Drawn* D, const int64_t* cum,
                              TermKeys* G, const Rules* R) noexcept nogil:
    """One leaf of the non-flush draws: every representative mask's draws, and buying's."""
    cdef int j, st
    for j in range(D.nm):
        st = D.sx[D.mk[j]]
        _draw(A + (NA * sh + D.mk[j]) * R.nf, mult, st, R.pclass[st], dead0, D.k, cum, D.n, D.force, ru, G, R, NULL)
    if D.buy1:
        _draw(A + (NA * sh + BUYA) * R.nf, mult, D.sb, D.cb, dead0, 6, cum, D.n, 0, ru, G, R, NULL)


cdef struct Ctx:
    # where one mask's leaves of a set SH go situation by situation (a term's side part): the
    # group's hand, situations, draw and per-situation rows, the set and the (representative) mask
    const Hand* H
    Sits* S
    const Drawn* D
    int128* C
    int sh
    int mask


DEF MAXLEAVES = 32      # leaves of one set SH: the s0 card of up to five drawn ranks drawn or not
DEF LEAF_SUM = 2        # the fewest leaves a final term sums at once (below: leaf by leaf)


cdef struct LeafSet:
    # the leaves of one set SH (their weights and dead s0 ranks), and how they arise: the dead s0
    # ranks of all of them (dead), times ``mult``, each rank of ``ranks`` with its s0 card absent
    # (m0 draws) or drawn (m1)
    int n
    int64_t m[MAXLEAVES]
    int d[MAXLEAVES]
    int dead
    int64_t mult
    int n_opt
    int ranks[5]
    int64_t m0[5]
    int64_t m1[5]


cdef void _plain_leaves(int ru, const Hand* H, Sits* S, const Drawn* D, const int64_t* cum, int128* A, int128* C,
                        TermKeys* G, const Rules* R) noexcept nogil:
    """The draws without a flush, per set SH of s0 ranks: the leaves of the drawn ranks whose s0
    card may be drawn (the shared traversal of enumerate/core/_rank_patterns.pxd).  With a final
    term, each mask's leaves are valued together where the term allows (_term_leaves)."""
    cdef const int32_t* binom = binom_table()
    cdef Leaves L
    cdef LeafSet E
    cdef Ctx X
    cdef int sh, sh13, i, r, o, j, st
    cdef int64_t a, b
    cdef bint live0
    X.H, X.S, X.D, X.C = H, S, D, C
    for sh in range(S.n_sh):
        sh13 = S.shv[sh]
        leaves_start(&L)
        E.dead, E.mult, E.n_opt, E.n = sh13, 1, 0, 0
        for i in range(D.nd):
            r = D.dr[i]
            live0 = r != ru and not (sh13 >> r) & 1
            o = H.a[r] - live0
            a = choose(o, D.dm[i] - 1, binom) if live0 and o >= D.dm[i] - 1 else 0
            b = choose(o, D.dm[i], binom) if o >= D.dm[i] else 0
            if a:
                leaves_option(&L, a, 1 << r, 0)
            if b:
                leaves_option(&L, b, 0, 0)
            leaves_rank(&L)
            if a and b:
                E.ranks[E.n_opt], E.m0[E.n_opt], E.m1[E.n_opt] = r, b, a
                E.n_opt += 1
            elif a:
                E.dead |= 1 << r
                E.mult *= a
            else:
                E.mult *= b
        leaves_first(&L, 1, sh13, 0)
        while True:
            if R.term == NULL:
                _switch_leaf(A, sh, L.pre_m[L.n], L.pre_b0[L.n], ru, D, cum, G, R)
            elif L.pre_m[L.n]:
                E.m[E.n], E.d[E.n] = L.pre_m[L.n], L.pre_b0[L.n]
                E.n += 1
            if not leaves_next(&L):
                break
        if R.term == NULL or E.n == 0:
            continue
        X.sh = sh
        for j in range(D.nm):
            st = D.sx[D.mk[j]]
            X.mask = D.mk[j]
            _term_leaves(A + (NA * sh + D.mk[j]) * R.nf, &E, st, R.pclass[st], D.k, cum, D.n, D.force, ru, G, R, &X)
        if D.buy1:
            X.mask = BUYA
            _term_leaves(A + (NA * sh + BUYA) * R.nf, &E, D.sb, D.cb, 6, cum, D.n, 0, ru, G, R, &X)


cdef void _term_leaves(int128* row, const LeafSet* E, int st, int pc, int kind, const int64_t* cum, int64_t n,
                       bint force, int ru, TermKeys* G, const Rules* R, const Ctx* X) noexcept nogil:
    """One mask's leaves of a set SH with a final term: summed at once when every leaf raises
    whatever the term's parts that depend on the unseen s0 ranks and on the other suits are (their
    least, lo, still raises; the same insurance decision) or folds whatever they are (their most,
    hi, still folds) -- the term's leaf_sum then adds the s0 part over them all (or they go leaf
    by leaf, each deciding as all of them do), and a side part is added per situation by the
    pairs (SH, dead ranks of a suit) it holds (_side_pairs); else leaf by leaf, and with a side
    part situation by situation, every suit of the draws apart (_side_each)."""
    cdef int i, f, ins = -1, flags = 0
    cdef int64_t base = 0, lo = 0, hi = 0, rv, unit = R.term.unit[kind], fold = -R.scale * n * unit
    cdef int64_t nq[MAXLEAVES]
    cdef int64_t win[MAXLEAVES]
    cdef int64_t tie[MAXLEAVES]
    cdef int64_t tf[MAXTF]
    cdef int64_t sf[MAXTF]
    cdef int64_t sg
    cdef bint raise_all = 1, fold_all = not force, insured, side, summed
    cdef const void* key = NULL
    cdef int128* stt
    i = _term_slot(G, st, pc, kind, R)
    side = i >= 0 and (G.live[i] & TERM_SIDE) != 0
    # (a class that may be insured when the term is not taken with insurance: no bounds, so leaf by
    # leaf below -- insured or buying turns on each leaf's exact term)
    if i >= 0 and R.term.bound != NULL and (side or E.n >= LEAF_SUM) \
            and not (R.term.not_with_insurance and _insurable(pc, R)):
        key = <const void*>(G.slots + i * R.term.key_bytes)
        flags = R.term.bound(R.term.ctx, key, &base, tf, &lo, &hi)
    summed = (flags & TERM_LEAF_SUM) != 0 and E.n >= LEAF_SUM
    if side and not flags & TERM_BOUNDED:
        _side_each(E, i, st, pc, kind, cum, n, force, ru, X, G, R)
        return
    if not (side or summed):
        for f in range(E.n):
            _draw(row, E.m[f], st, pc, E.d[f], kind, cum, n, force, ru, G, R, NULL)
        return
    for f in range(E.n):
        _counts(st, E.d[f], cum, ru, R, &nq[f], &win[f], &tie[f])
        rv = _raised(nq[f], win[f], tie[f], pc, n, unit, base, R, &insured)
        if ins < 0:
            ins = insured
        if insured != ins or not (force or rv + lo > fold):
            raise_all = 0
        if not rv + hi < fold:
            fold_all = 0
    if not (raise_all or fold_all):
        if side:
            _side_each(E, i, st, pc, kind, cum, n, force, ru, X, G, R)
        else:
            for f in range(E.n):
                _draw(row, E.m[f], st, pc, E.d[f], kind, cum, n, force, ru, G, R, NULL)
        return
    if summed:
        for f in range(E.n):
            _value(row, E.m[f], nq[f], win[f], tie[f], pc, n, raise_all, unit, base if raise_all else base + hi, tf, R)
        if raise_all:
            R.term.leaf_sum(R.term.ctx, key, _unseen0(E.dead, ru), E.n_opt, E.ranks, E.m0, E.m1, E.mult,
                            &sg, sf)
            row[0] += sg
            stt = row + 2 + R.per_cls * (pc + (R.n_pay if ins else 0))
            for f in range(R.n_tf):
                stt[8 + f] += sf[f]
    else:
        for f in range(E.n):
            _draw(row, E.m[f], st, pc, E.d[f], kind, cum, n, force, ru, G, R, NULL)
    if side and raise_all:
        _side_pairs(i, pc, ins, ru, X, G, R)


cdef inline int _next_mask(const Ctx* X, int m) noexcept nogil:
    """The next action after m (-1: the first) whose row a side part of X's mask goes to: every
    valid mask with X's as its representative (buying: BUYA alone); -1 when none is left."""
    if X.mask == BUYA:
        return BUYA if m < 0 else -1
    m += 1
    while m < 32 and not (X.H.valid[m] and X.H.rep[m] == X.mask):
        m += 1
    return m if m < 32 else -1


cdef void _side_pairs(int i, int pc, bint ins, int ru, const Ctx* X, TermKeys* G, const Rules* R) noexcept nogil:
    """A side part over every draw of the set SH's leaves (all raise, insured as ``ins``): per pair
    (SH, dead ranks d of one other suit) the term's side_sum -- per drawn rank r of multiplicity
    dm, its cards neither s0 nor of that suit o2, the draws with that suit's card absent m0 = sum
    over the s0 card's states of C(o2, dm - i0) and present m1 = C(o2, dm - i0 - 1) -- then per
    situation the sum over its three suits' pairs, in each of its masks' rows."""
    cdef const int32_t* binom = binom_table()
    cdef Sits* S = X.S
    cdef const Hand* H = X.H
    cdef const Drawn* D = X.D
    cdef const void* key = <const void*>(G.slots + i * R.term.key_bytes)
    cdef int sh13 = S.shv[X.sh], p, t, r, dm, o, o2, i0, n_opt, s, j, m, f, w = 1 + R.n_tf
    cdef bint live0, av
    cdef int ranks[5]
    cdef int64_t m0[5]
    cdef int64_t m1[5]
    cdef int64_t mult, a, b, g
    cdef int64_t* pv
    cdef int128* row
    cdef int128* stt
    for p in range(S.pair_off[X.sh], S.pair_off[X.sh + 1]):
        pv = S.pv + p * w
        for f in range(w):
            pv[f] = 0
        mult, n_opt = 1, 0
        for t in range(D.nd):
            r, dm = D.dr[t], D.dm[t]
            live0 = r != ru and not (sh13 >> r) & 1
            av = not (S.pair_d[p] >> r) & 1
            o = H.a[r] - live0
            o2 = o - av
            a = b = 0
            for i0 in range(1 + live0):
                if o >= dm - i0:
                    a += choose(o2, dm - i0, binom)
                    if av:
                        b += choose(o2, dm - i0 - 1, binom)
            if b:
                ranks[n_opt], m0[n_opt], m1[n_opt] = r, a, b
                n_opt += 1
            else:
                mult *= a
        if mult:
            _side_sum(G, i, ~S.pair_d[p] & 0x1FFF, n_opt, ranks, m0, m1, mult, pv, R)
    for j in range(S.sh_off[X.sh], S.sh_off[X.sh + 1]):
        s = S.sit_order[j]
        m = _next_mask(X, -1)
        while m >= 0:
            row = X.C + (<int64_t>NA * s + m) * R.nf
            stt = row + 2 + R.per_cls * (pc + (R.n_pay if ins else 0))
            for t in range(3):
                pv = S.pv + S.sit_pair[3 * s + t] * w
                row[0] += pv[0]
                for f in range(R.n_tf):
                    stt[8 + f] += pv[1 + f]
            m = _next_mask(X, m)


cdef void _side_sum(TermKeys* G, int i, int us, int n_opt, const int* ranks, const int64_t* m0, const int64_t* m1,
                    int64_t mult, int64_t* v, const Rules* R) noexcept nogil:
    """The term's side_sum for the key in slot i (v: gain, then fields), kept in the slot's side sums."""
    cdef uint64_t h = <uint64_t>us * 0x9E3779B97F4A7C15ULL + <uint64_t>mult
    cdef int t, j, f
    cdef SideSum* e
    cdef bint same
    for t in range(n_opt):
        h = (h ^ <uint64_t>(ranks[t] + 16 * m0[t] + 65536 * m1[t])) * 0x100000001B3ULL
    if i < MAXKEYS:
        for j in range(SSUM):
            e = &G.ssum[i * SSUM + <int>((h + j) & (SSUM - 1))]
            if e.us < 0:
                R.term.side_sum(R.term.ctx, G.slots + i * R.term.key_bytes, us, n_opt, ranks, m0, m1, mult, &v[0], &v[1])
                e.us, e.n_opt, e.mult = us, n_opt, mult
                for t in range(n_opt):
                    e.ranks[t], e.m0[t], e.m1[t] = ranks[t], m0[t], m1[t]
                for f in range(1 + R.n_tf):
                    e.v[f] = v[f]
                return
            same = e.us == us and e.n_opt == n_opt and e.mult == mult
            t = 0
            while same and t < n_opt:
                same = e.ranks[t] == ranks[t] and e.m0[t] == m0[t] and e.m1[t] == m1[t]
                t += 1
            if same:
                for f in range(1 + R.n_tf):
                    v[f] = e.v[f]
                return
    R.term.side_sum(R.term.ctx, G.slots + i * R.term.key_bytes, us, n_opt, ranks, m0, m1, mult, &v[0], &v[1])


cdef void _side_each(const LeafSet* E, int i, int st, int pc, int kind, const int64_t* cum, int64_t n, bint force,
                     int ru, const Ctx* X, TermKeys* G, const Rules* R) noexcept nogil:
    """A key with a side part whose leaves do not all raise (or all fold): situation by situation,
    leaf by leaf, every choice of the other suits' cards of the drawn ranks (per rank, the cards
    not s0 it draws among the suits whose card the situation has not: a draw each), valued whole
    in each of the masks' rows."""
    cdef Sits* S = X.S
    cdef const Drawn* D = X.D
    cdef int sh13 = S.shv[X.sh], j, s, f, t, r, need, sub, k, m, sg
    cdef int idx[5]
    cdef int nch[5]
    cdef int ch[5][3]
    cdef int tsig[3]
    cdef bint took0
    cdef int64_t nq, win, tie, t0, gain, unit = R.term.unit[kind]
    cdef int64_t tf0[MAXTF]
    cdef int64_t tf[MAXTF]
    cdef int64_t sf[MAXTF]
    cdef bint done
    for j in range(S.sh_off[X.sh], S.sh_off[X.sh + 1]):
        s = S.sit_order[j]
        for f in range(E.n):
            _counts(st, E.d[f], cum, ru, R, &nq, &win, &tie)
            t0 = _term_value(G, i, _unseen0(E.d[f], ru), tf0, R)
            done = 0
            for t in range(D.nd):
                r = D.dr[t]
                took0 = (E.d[f] >> r) & 1 and not (sh13 >> r) & 1 and r != ru      # its s0 card drawn
                need = D.dm[t] - took0
                nch[t] = 0
                idx[t] = 0
                for sub in range(8):
                    if popcount32(sub) != need:
                        continue
                    for sg in range(3):
                        if (sub >> sg) & 1 and (S.dead[4 * s + 1 + sg] >> r) & 1:
                            break
                    else:
                        ch[t][nch[t]] = sub
                        nch[t] += 1
                if nch[t] == 0:
                    done = 1
            while not done:
                tsig[0] = tsig[1] = tsig[2] = 0
                for t in range(D.nd):
                    for sg in range(3):
                        if (ch[t][idx[t]] >> sg) & 1:
                            tsig[sg] |= 1 << D.dr[t]
                gain = t0
                for k in range(R.n_tf):
                    tf[k] = tf0[k]
                for sg in range(3):
                    gain += _term_side(G, i, ~(S.dead[4 * s + 1 + sg] | tsig[sg]) & 0x1FFF, sf, R)
                    for k in range(R.n_tf):
                        tf[k] += sf[k]
                m = _next_mask(X, -1)
                while m >= 0:
                    _value(X.C + (<int64_t>NA * s + m) * R.nf, 1, nq, win, tie, pc, n, force, unit, gain, tf, R)
                    m = _next_mask(X, m)
                done = 1
                for t in range(D.nd):
                    idx[t] += 1
                    if idx[t] < nch[t]:
                        done = 0
                        break
                    idx[t] = 0


cdef inline int _unseen0(int dead0, int ru) noexcept nogil:
    """The ranks whose s0 card is unseen: neither dead nor the up card."""
    return ~(dead0 | (1 << ru)) & 0x1FFF


cdef inline void _counts(int st, int dead0, const int64_t* cum, int ru, const Rules* R, int64_t* nq, int64_t* win,
                         int64_t* tie) noexcept nogil:
    """The dealer's counts against a final hand of strength st with the dead s0 ranks dead0."""
    cdef const int16_t* g = R.gtab + (<int64_t>R.cls[st] * MASKS + mask12(dead0, ru)) * 3
    cdef int64_t q = cum[R.iq]
    nq[0] = q + g[0]
    win[0] = cum[R.cut_lo[st]] - q + g[1]
    tie[0] = cum[R.cut_hi[st]] - cum[R.cut_lo[st]] + g[2]


cdef void _flush_fixes(int ru, const Hand* H, const Sits* S, const Drawn* D, const int64_t* cum, int128* C,
                       TermKeys* G, const Rules* R) noexcept nogil:
    """The draws that complete a flush, situation by situation: each mask's flush draws valued as
    the flush instead of the non-flush hand the leaves counted."""
    cdef int s, j, mask, suit, sigma, d0, stf, x
    cdef int dsig[3]
    cdef int128* row
    for s in range(S.n_s):
        for j in range(H.n_k[D.k]):
            mask = H.of_k[D.k][j]
            suit = S.ksuit[32 * s + mask]
            if suit < 0:
                continue
            for sigma in range(0 if suit == 4 else suit, (3 if suit == 4 else suit) + 1):
                if D.dbits & S.dead[4 * s + sigma]:
                    continue
                d0 = S.shv[S.sit_sh[s]] | (D.dbits if sigma == 0 else 0)
                for x in range(3):
                    dsig[x] = S.dead[4 * s + 1 + x] | (D.dbits if sigma == 1 + x else 0)
                stf = R.by_flush[H.kbits[mask] | D.dbits]
                row = C + (<int64_t>NA * s + mask) * R.nf
                _draw(row, 1, stf, R.pclass[stf], d0, D.k, cum, D.n, D.force, ru, G, R, dsig)
                _draw(row, -1, D.sx[H.rep[mask]], R.pclass[D.sx[H.rep[mask]]], d0, D.k, cum, D.n, D.force, ru, G, R,
                      dsig)


cdef void _buy_fixes(int ru, const Hand* H, const Sits* S, const Drawn* D, const int64_t* cum, int128* C,
                     TermKeys* G, const Rules* R) noexcept nogil:
    """Buying: the draws that give the six cards a flush (five of a suit), situation by situation;
    the six's class by its suited ranks and, with five of a suit, the other card's rank."""
    cdef int s, sigma, r, hs, stf, x, d0, pc, five, other
    cdef int dsig[3]
    cdef int128* row
    for s in range(S.n_s):
        for sigma in range(4):
            if D.dbits & S.dead[4 * s + sigma]:
                continue              # the drawn card is the player's or the up card
            hs = S.shv[S.sit_sh[s]] if sigma == 0 else S.dead[4 * s + sigma]
            stf = -1
            five = -1                 # six suited; else the five suited ranks, the other card's rank
            if S.fsuit[s] == sigma:     # six suited cards: the best five of them
                for r in range(13):
                    if ((hs | D.dbits) >> r) & 1:
                        x = R.by_flush[(hs | D.dbits) & ~(1 << r)]
                        if x > stf:
                            stf = x
            elif S.fsuit[s] >= 0:       # the hand's own flush
                five = S.shv[S.sit_sh[s]] if S.fsuit[s] == 0 else S.dead[4 * s + S.fsuit[s]]
                other = D.dr[0]
                stf = R.by_flush[five]
            elif popcount32(hs) == 4:   # four of the drawn card's suit
                five = hs | D.dbits
                other = _rank_sum(H) - _bits_sum(hs)
                stf = R.by_flush[five]
            if stf <= D.sb:
                continue
            if R.pc6 == NULL:
                pc = R.pclass[stf]
            elif five < 0:
                pc = R.pc6_six[hs | D.dbits]
            else:
                pc = R.pc6_five[13 * five + other]
            d0 = S.shv[S.sit_sh[s]] | (D.dbits if sigma == 0 else 0)
            for x in range(3):
                dsig[x] = S.dead[4 * s + 1 + x] | (D.dbits if sigma == 1 + x else 0)
            row = C + (<int64_t>NA * s + BUYA) * R.nf
            _draw(row, 1, stf, pc, d0, 6, cum, D.n, 0, ru, G, R, dsig)
            _draw(row, -1, D.sb, D.cb, d0, 6, cum, D.n, 0, ru, G, R, dsig)


cdef inline int _rank_sum(const Hand* H) noexcept nogil:
    """The sum of the hand's five ranks."""
    return H.rk[0] + H.rk[1] + H.rk[2] + H.rk[3] + H.rk[4]


cdef inline int _bits_sum(int bits) noexcept nogil:
    """The sum of the ranks in a 13-bit set."""
    cdef int r, out = 0
    for r in range(13):
        if (bits >> r) & 1:
            out += r
    return out


cdef void _sum_best(int64_t s_lo, const Hand* H, const Sits* S, const int128* A, const int128* C,
                    const int64_t[::1] sit_w, bint buy, const int64_t* tden, const int64_t* unit, const int64_t* fee_num,
                    int64_t fee_den, const Rules* R, int128* acc, int8_t[::1] best, uint8_t[::1] keep_raised,
                    const int32_t* cancel) noexcept nogil:
    """Each situation's best action, its sums added by the action's kind with the situation's
    weight, and the value of keeping (the check against the count table); with columns, the best
    action's selected fields summed per situation, unweighted."""
    cdef int s, bm, k, rb, i, nf = R.nf, kf = R.nf + 1
    cdef int64_t w
    cdef int128 tot[MAXNF]
    for s in range(S.n_s):
        if studodds_cancelled(cancel):
            break
        w = sit_w[s_lo + s]
        bm = R.fixed[s_lo + s] if R.fixed != NULL else \
            _best(s, A, C, nf, S.sit_sh, H.rep, H.valid, buy, tden, unit, fee_num, fee_den)
        k = 6 if bm == BUYA else popcount5(bm)
        rb = BUYA if bm == BUYA else H.rep[bm]
        for i in range(nf):
            tot[i] = A[(NA * S.sit_sh[s] + rb) * nf + i] + C[(<int64_t>NA * s + bm) * nf + i]
        best[s_lo + s] = <int8_t>bm
        keep_raised[s_lo + s] = (A[(NA * S.sit_sh[s]) * nf + 1] + C[(<int64_t>NA * s) * nf + 1]) > 0
        if R.sit_col != NULL:
            for i in range(nf):
                if R.sit_col[i] >= 0:
                    R.sit_sums[(s_lo + s) * R.n_col + R.sit_col[i]] += <int64_t>tot[i]
        acc[kf * k] += w
        for i in range(nf):
            acc[kf * k + 1 + i] += w * tot[i]
        acc[7 * kf] += <int128>w * (A[(NA * S.sit_sh[s]) * nf] + C[(<int64_t>NA * s) * nf])


cdef void _action_rows(const Hand* H, const Sits* S, const int128* A, const int128* C, bint buy, const Rules* R,
                       uint64_t* rows) noexcept nogil:
    """Every action's sums per situation of the group, unweighted, as rows[s, a, f] = (low, high)
    words: a the switch mask over the sorted hand (0: keep) or BUY_ACTION, f the fields of a
    kind's sums after the situations' count (value, raised draws, the outcomes by class); an
    action not allowed is all 0."""
    cdef int s, a, i, nf = R.nf
    cdef bint valid
    cdef int128 v
    cdef const int128* ra
    cdef const int128* rc
    cdef uint64_t* out
    for s in range(S.n_s):
        for a in range(NA):
            out = rows + (<int64_t>NA * s + a) * nf * 2
            valid = _allowed(H, a, buy)
            ra = A + (NA * S.sit_sh[s] + (BUYA if a == BUYA else H.rep[a])) * nf
            rc = C + (<int64_t>NA * s + a) * nf
            for i in range(nf):
                v = ra[i] + rc[i] if valid else 0
                out[2 * i] = <uint64_t>v
                out[2 * i + 1] = <uint64_t>(v >> 64)


cdef void _group(int ru, const int8_t* h, int64_t s_lo, int64_t s_hi, const uint8_t[:, ::1] sit_cards,
                 const int64_t[::1] sit_w, const int8_t[:, ::1] dvec, const int64_t[::1] d_off,
                 const uint8_t[:, ::1] hole_i, const uint8_t* allowed, bint forced5,
                 const int64_t* tden, const int64_t* fee_num, int64_t fee_den, const Rules* R,
                 int128* acc, int8_t[::1] best, uint8_t[::1] keep_raised, const int32_t* cancel,
                 uint64_t* rows) noexcept nogil:
    """A group's sums: for every number k of cards drawn (allowed[k]; allowed[6]: buying, with the
    one-card draws) and every draw rank pattern of k cards, the rank part of the dealer's hole
    patterns, the non-flush leaves per SH set (array A, by set and mask) and the flush
    corrections per situation (array C, by situation and mask); then each situation's best, and
    with ``rows`` every action's sums per situation (_action_rows)."""
    cdef Hand H
    cdef Sits S
    cdef int a2[13]
    cdef int k
    cdef bint buy
    cdef int64_t* cum = <int64_t*>malloc((hole_i.shape[0] + 1) * sizeof(int64_t))
    S.n_s = <int>(s_hi - s_lo)
    S.sit_sh = <int*>malloc(S.n_s * sizeof(int))
    S.dead = <int*>malloc(S.n_s * 4 * sizeof(int))
    S.ksuit = <int8_t*>malloc(S.n_s * 32 * sizeof(int8_t))
    S.fsuit = <int8_t*>malloc(S.n_s * sizeof(int8_t))
    S.sit_order = <int*>malloc(S.n_s * sizeof(int))
    S.pair_d = <int*>malloc(3 * S.n_s * sizeof(int))
    S.sit_pair = <int*>malloc(3 * S.n_s * sizeof(int))
    S.pv = <int64_t*>malloc(3 * S.n_s * (1 + MAXTF) * sizeof(int64_t))
    cdef int128* A = <int128*>calloc(32 * NA * R.nf, sizeof(int128))
    cdef int128* C = <int128*>calloc(<int64_t>S.n_s * NA * R.nf, sizeof(int128))
    cdef TermKeys G
    cdef int64_t unit[7]
    G.unseen = a2
    G.n = 0
    G.slots = <char*>malloc((MAXKEYS + 1) * R.term.key_bytes) if R.term != NULL else NULL
    G.memo = <Memo*>malloc(MAXKEYS * MEMO * sizeof(Memo)) if R.term != NULL else NULL
    G.smemo = <Memo*>malloc(MAXKEYS * MEMO * sizeof(Memo)) if R.term != NULL else NULL
    G.ssum = <SideSum*>malloc(MAXKEYS * SSUM * sizeof(SideSum)) if R.term != NULL else NULL
    for k in range(7):
        unit[k] = R.term.unit[k] if R.term != NULL else 1
    _hand(ru, h, allowed, R, &H)
    _situations(ru, s_lo, sit_cards, &S)
    buy = allowed[6]
    if R.fixed != NULL and rows == NULL:
        buy = _fixed_only(&H, &S, s_lo, buy, R)
        _pass(ru, &H, &S, dvec, d_off, hole_i, buy, forced5, cum, a2, A, C, &G, R, cancel)
    elif R.term != NULL and R.cnet_hi != NULL and rows == NULL:
        buy = _prune(ru, &H, &S, dvec, d_off, hole_i, buy, forced5, cum, a2, A, C, &G, tden, unit, fee_num, fee_den,
                     R, cancel)
    else:
        _pass(ru, &H, &S, dvec, d_off, hole_i, buy, forced5, cum, a2, A, C, &G, R, cancel)
    _sum_best(s_lo, &H, &S, A, C, sit_w, buy, tden, unit, fee_num, fee_den, R, acc, best, keep_raised, cancel)
    if rows != NULL:
        _action_rows(&H, &S, A, C, allowed[6], R, rows)
    free(G.slots)
    free(G.memo)
    free(G.smemo)
    free(G.ssum)
    free(cum)
    free(S.sit_order)
    free(S.pair_d)
    free(S.sit_pair)
    free(S.pv)
    free(S.sit_sh)
    free(S.dead)
    free(S.ksuit)
    free(S.fsuit)
    free(A)
    free(C)


cdef bint _fixed_only(Hand* H, const Sits* S, int64_t s_lo, bint buy, const Rules* R) noexcept nogil:
    """Leave valid only keeping and the masks discarding the ranks some situation's fixed action
    discards (their leaves are shared); returns whether buying stays (some situation buys)."""
    cdef bint need[NA]
    cdef int s, a, m
    for a in range(NA):
        need[a] = 0
    need[0] = 1                             # keeping: the value of keeping is every group's check
    for s in range(S.n_s):
        a = R.fixed[s_lo + s]
        need[BUYA if a == BUYA else H.rep[a]] = 1
    for m in range(32):
        H.valid[m] = H.valid[m] and need[H.rep[m]]
    _index_valid(H)
    return buy and need[BUYA]


cdef void _pass(int ru, Hand* H, Sits* S, const int8_t[:, ::1] dvec, const int64_t[::1] d_off,
                const uint8_t[:, ::1] hole_i, bint buy, bint forced5, int64_t* cum, int* a2, int128* A, int128* C,
                TermKeys* G, const Rules* R, const int32_t* cancel) noexcept nogil:
    """Every draw of the group's valid masks (and with ``buy``, of buying): for every number k of
    cards drawn and every draw rank pattern of k cards, the rank part of the dealer's hole
    patterns, the non-flush leaves per SH set into A and the flush corrections per situation into
    C.  ``a2`` is G's ``unseen`` (G unused without a final term)."""
    cdef Drawn D
    cdef int k, mask
    cdef Py_ssize_t t
    cdef Rules kept
    cdef const Rules* RR = R
    if R.cnet_kept != NULL:         # keeping values its hand by its own coefficients (the draws by R's)
        kept = R[0]
        kept.cnet = R.cnet_kept
    for k in range(6):
        R = &kept if k == 0 and RR.cnet_kept != NULL else RR
        D.k = k
        D.buy1 = buy and k == 1
        if (H.n_k[k] == 0 and not D.buy1) or studodds_cancelled(cancel):   # keep (k = 0): when valid
            continue
        D.n = choose(UNSEEN - k, 4, binom_table())
        D.force = forced5 and k == 5
        D.nm = 0
        for mask in range(32):
            if popcount5(mask) == k and H.valid[mask] and H.rep[mask] == mask:
                D.mk[D.nm] = mask
                D.nm += 1
        for t in range(d_off[k], d_off[k + 1]):
            if not _drawn(H, &dvec[t, 0], R, a2, &D):
                continue
            rank_part(a2, hole_i, binom_table(), cum)
            if R.term != NULL:
                G.n = 0                # the term's keys are those of this draw pattern's unseen cards
            _plain_leaves(ru, H, S, &D, cum, A, C, G, R)
            if D.distinct:
                _flush_fixes(ru, H, S, &D, cum, C, G, R)
                if D.buy1:
                    _buy_fixes(ru, H, S, &D, cum, C, G, R)


DEF VALUE_NF = 11       # a pass for values alone: value, raised draws, one block of outcomes every class shares, the second value


cdef void _values(const Hand* H, const Sits* S, const int128* A, const int128* C, bint buy, int f,
                  int128* v) noexcept nogil:
    """Each situation's value (field f: 0, or VALUE_NF - 1 the second) of every valid action
    (v[NA * s + a]) from a pass for values alone."""
    cdef int s, a
    for s in range(S.n_s):
        for a in range(NA):
            if _allowed(H, a, buy):
                v[NA * s + a] = A[(NA * S.sit_sh[s] + (BUYA if a == BUYA else H.rep[a])) * VALUE_NF + f] \
                    + C[(<int64_t>NA * s + a) * VALUE_NF + f]


cdef bint _prune(int ru, Hand* H, Sits* S, const int8_t[:, ::1] dvec, const int64_t[::1] d_off,
                 const uint8_t[:, ::1] hole_i, bint buy, bint forced5, int64_t* cum, int* a2, int128* A, int128* C,
                 TermKeys* G, const int64_t* tden, const int64_t* unit, const int64_t* fee_num, int64_t fee_den,
                 const Rules* R, const int32_t* cancel) noexcept nogil:
    """The final term's pass (into A and C, as _pass) with the discards (and buying) that cannot
    be any situation's best left out, best first.  Every action is first valued without the term,
    in one pass, two ways -- by the linear form (lo: no less than nothing added, as the term never
    takes away) and by R.cnet_hi (hi: what raising with the term is worth at most; the pass's
    second value).  The term's pass then values first, exactly, keeping and the actions whose lo
    is some situation's best lo (the likeliest bests); a representative mask of the rest goes when,
    in every situation of the group, one of those exact values beats the hi of every mask
    discarding the same ranks -- an exact value is at least its lo, so this leaves out at least
    what the best lo would, and mostly far more -- and what stays is valued in a second term
    pass (its own masks' rows: nothing is counted twice).  The masks left out are then not valid;
    returns whether buying stays.  The best action, and so every sum the group keeps, is the same
    (the tests hold the two ways to the same integers)."""
    cdef Rules Q = R[0]
    cdef int s, a, k, r, m
    cdef int64_t one[7]
    cdef bint gone, buy_first, buy_stays
    cdef bint valid[32]
    cdef bint first[NA]
    cdef bint stays[NA]
    cdef int128 hu
    cdef int128* A0 = <int128*>calloc(32 * NA * VALUE_NF, sizeof(int128))
    cdef int128* C0 = <int128*>calloc(<int64_t>S.n_s * NA * VALUE_NF, sizeof(int128))
    cdef int128* lo = <int128*>malloc(<int64_t>S.n_s * NA * sizeof(int128))
    cdef int128* hi = <int128*>malloc(<int64_t>S.n_s * NA * sizeof(int128))
    cdef int128* lb = <int128*>malloc(S.n_s * sizeof(int128))
    cdef int* kl = <int*>malloc(S.n_s * sizeof(int))
    cdef int* al = <int*>malloc(S.n_s * sizeof(int))
    for k in range(7):
        one[k] = 1
    Q.term, Q.n_tf, Q.per_cls, Q.nf, Q.cnet2 = NULL, 0, 0, VALUE_NF, R.cnet_hi
    _pass(ru, H, S, dvec, d_off, hole_i, buy, forced5, cum, a2, A0, C0, NULL, &Q, cancel)   # both bounds at once
    _values(H, S, A0, C0, buy, 0, lo)
    _values(H, S, A0, C0, buy, VALUE_NF - 1, hi)
    for a in range(NA):
        first[a] = 0
    first[0] = 1                            # keeping: one final hand, always valued first
    for s in range(S.n_s):                  # each situation's best lower bound, its action first
        lb[s], kl[s], al[s] = lo[NA * s], 0, 0
        for a in range(1, NA):
            if _allowed(H, a, buy):
                k = 6 if a == BUYA else popcount5(a)
                if _better(&lo[NA * s + a], k, &lb[s], kl[s], tden, one, fee_num, fee_den):
                    lb[s], kl[s], al[s] = lo[NA * s + a], k, a
        first[BUYA if al[s] == BUYA else H.rep[al[s]]] = 1
    for m in range(32):                     # the term's first pass: those actions' masks
        valid[m] = H.valid[m]
        H.valid[m] = valid[m] and first[H.rep[m]]
    _index_valid(H)
    buy_first = buy and first[BUYA]
    _pass(ru, H, S, dvec, d_off, hole_i, buy_first, forced5, cum, a2, A, C, G, R, cancel)
    for s in range(S.n_s):                  # each situation's best exact value among them
        a = _best(s, A, C, R.nf, S.sit_sh, H.rep, H.valid, buy_first, tden, unit, fee_num, fee_den)
        lb[s] = A[(NA * S.sit_sh[s] + (BUYA if a == BUYA else H.rep[a])) * R.nf] + C[(<int64_t>NA * s + a) * R.nf]
        kl[s] = 6 if a == BUYA else popcount5(a)
    for r in range(NA):
        stays[r] = 0
    for r in range(1, NA):
        if first[r] or (r < BUYA and (not valid[r] or H.rep[r] != r)) or (r == BUYA and not buy):
            continue
        k = 6 if r == BUYA else popcount5(r)
        gone = 1
        for m in range(r, NA if r == BUYA else 32):
            if m != r and (r == BUYA or not valid[m] or H.rep[m] != r):
                continue
            for s in range(S.n_s):
                hu = hi[NA * s + m] * unit[k]          # the bound in the term's units
                if not _better(&lb[s], kl[s], &hu, k, tden, unit, fee_num, fee_den):
                    gone = 0
                    break
            if not gone:
                break
        stays[r] = not gone
    for m in range(32):                     # the term's second pass: the masks that stay
        H.valid[m] = valid[m] and not first[H.rep[m]] and stays[H.rep[m]]
    _index_valid(H)
    buy_stays = buy and not first[BUYA] and stays[BUYA]
    if H.n_k[1] + H.n_k[2] + H.n_k[3] + H.n_k[4] + H.n_k[5] > 0 or buy_stays:
        _pass(ru, H, S, dvec, d_off, hole_i, buy_stays, forced5, cum, a2, A, C, G, R, cancel)
    for m in range(32):                     # what the group may take: both passes' masks
        H.valid[m] = valid[m] and (first[H.rep[m]] or stays[H.rep[m]])
    _index_valid(H)
    free(A0)
    free(C0)
    free(lo)
    free(hi)
    free(lb)
    free(kl)
    free(al)
    return buy_first or buy_stays


cdef bint _same_ranks(int m1, int m2, const int* rk) noexcept nogil:
    """Whether the hand's cards picked by the two masks have the same ranks (as multisets)."""
    cdef int c1[13]
    cdef int i
    for i in range(13):
        c1[i] = 0
    for i in range(5):
        if (m1 >> i) & 1:
            c1[rk[i]] += 1
        if (m2 >> i) & 1:
            c1[rk[i]] -= 1
    for i in range(13):
        if c1[i]:
            return 0
    return 1


cdef int _best(int s, const int128* A, const int128* C, int nf, const int* sit_sh, const int* rep, const bint* valid,
               bint buy, const int64_t* tden, const int64_t* unit, const int64_t* fee_num, int64_t fee_den) noexcept nogil:
    """The best action of situation s: keep, then by number of cards, then by mask, then buying;
    ties keep the first."""
    cdef int best = 0, kb = 0, k, mask
    cdef int128 vb = A[(NA * sit_sh[s]) * nf] + C[(<int64_t>NA * s) * nf]
    cdef int128 v
    for k in range(1, 6):
        for mask in range(32):
            if popcount5(mask) != k or not valid[mask]:
                continue
            v = A[(NA * sit_sh[s] + rep[mask]) * nf] + C[(<int64_t>NA * s + mask) * nf]
            if _better(&v, k, &vb, kb, tden, unit, fee_num, fee_den):
                best = mask
                kb = k
                vb = v
    if buy:
        v = A[(NA * sit_sh[s] + BUYA) * nf] + C[(<int64_t>NA * s + BUYA) * nf]
        if _better(&v, 6, &vb, kb, tden, unit, fee_num, fee_den):
            best = BUYA
    return best


cdef bint _classes_within(const int16_t[::1] table, int n) noexcept:
    """Whether every class in the table is one of 0..n-1."""
    cdef Py_ssize_t i
    for i in range(table.shape[0]):
        if not 0 <= table[i] < n:
            return 0
    return 1


def value_groups(int ru, const int8_t[:, ::1] hvec, const int64_t[::1] sit_off, const uint8_t[:, ::1] sit_cards,
                 const int64_t[::1] sit_w, const int8_t[:, ::1] dvec, const int64_t[::1] d_off,
                 const uint8_t[:, ::1] hole_i, int iq,
                 const int32_t[::1] cut_lo, const int32_t[::1] cut_hi, const int16_t[::1] cls,
                 const int16_t[:, :, ::1] gtab, const uint8_t[::1] allowed, bint forced5,
                 int64_t scale, const int16_t[::1] pclass, const int64_t[:, ::1] cnet, const int64_t[:, ::1] cins,
                 const int16_t[::1] pc6, const int16_t[::1] pc6_five, const int16_t[::1] pc6_six,
                 const int64_t[::1] tden, const int64_t[::1] fee_num, int64_t fee_den,
                 uint64_t[:, :, ::1] out, int8_t[::1] best, uint8_t[::1] keep_raised,
                 int n_threads, int32_t[::1] cancel=None, object term=None, uint64_t[:, :, :, ::1] rows=None,
                 const int64_t[:, ::1] cnet_hi=None, const int8_t[::1] sit_col=None, int64_t[:, ::1] sit_sums=None,
                 const int64_t[:, ::1] cnet_kept=None, const int8_t[::1] fixed=None):
    """For each group i (the rank pattern hvec[i] against the up rank ru) and its situations
    sit_off[i]..sit_off[i + 1] (sit_cards sorted, with the s0 suit 0; sit_w their weights):
    out[i, f] = (low, high) words of the group's sums (group_fields(n_stat)), best[s] the best
    action's mask and keep_raised[s] whether keeping raises; with ``rows`` (n_situations, NA,
    kind_fields(n_stat, n_term) - 1, 2), every action's sums per situation, unweighted (the
    situation's row of each switch mask and of buying: one hand's every decision).  dvec: every draw rank pattern, those
    of k cards at d_off[k]..d_off[k + 1]; tden[k] = scale * C(46 - k, 4) * C(46, k) for k = 0..5
    and tden[6] = tden[1] (buying); allowed[k] whether k cards may be switched (allowed[0]
    unused), allowed[6] whether a sixth card may be bought; fees fee_num[k] / fee_den
    (fee_num[6]: buying).  A best action is a switch mask or BUY_ACTION.

    The value of a final hand: its class pclass[strength] (n_pay = cnet.shape[0] classes), and
    raising is worth nq * cnet[c, 0] + win * cnet[c, 1] + tie * cnet[c, 2] + n * cnet[c, 3] (in
    units of 1 / scale antes per dealer set), plus the insurance's value by cins[c] when it is
    positive (cins with no rows: no insurance); folding -scale * n.  n_stat = n_pay, or 2 *
    n_pay with insurance (an insured raise counted under class c + n_pay).  A six bought is of
    class pc6[the colex rank of its six ranks, a multiset] without a flush, pc6_five[13 * five + r] with five cards of a
    suit (their ranks, and the other card's rank r), pc6_six[its ranks] all of a suit; with
    pc6 empty, the class of its best five's strength.

    ``term``: a table's final term (a capsule, enumerate/draws/_final_term.pxd) added to raising
    every final hand, its fields counted per class after the kernel's 8 (group_fields(n_stat,
    n_term)); the values of kind k are then in units of 1 / (tden[k] * unit[k]).  ``cnet_hi``
    (with a term that is never negative): coefficients as cnet's of a raise worth no less than
    raising with the term, by which the discards no situation of a group can take are left out
    of the term's pass (not with ``rows``).  ``sit_col`` (kind_fields(n_stat, n_term) - 1: per field
    after the situations' count, a column of ``sit_sums`` or -1) with ``sit_sums`` (n_situations,
    columns; zeroed by the caller): each situation's best action's fields summed by column --
    fields that count draws or dealer sets (they fit 64 bits), not values.  ``fixed`` (one per
    situation): the action each situation takes -- a strategy's, allowed by the table -- in place
    of its best; the sums are then that strategy's, and only keeping and the fixed actions' masks
    are valued."""
    cdef Py_ssize_t n = hvec.shape[0], g
    cdef int f
    cdef int n_pay = cnet.shape[0]
    cdef int n_stat = n_pay * (2 if cins.shape[0] else 1)
    cdef const FinalTerm* fterm = NULL
    if term is not None:
        fterm = <const FinalTerm*>PyCapsule_GetPointer(term, CAPSULE)
        if not 0 < fterm.n_fields <= MAXTF or fterm.key_bytes == 0:
            raise ValueError("a final term's fields out of range")
        if (fterm.side == NULL) != (fterm.side_sum == NULL) or (fterm.side != NULL and fterm.bound == NULL):
            raise ValueError("a final term's side part needs its sum and a bound")
    cdef int n_tf = fterm.n_fields if fterm != NULL else 0
    cdef int gf = 7 * (3 + (8 + n_tf) * n_stat) + 1
    if (hvec.shape[1] != 13 or sit_off.shape[0] != n + 1 or sit_cards.shape[1] != 5
            or sit_w.shape[0] != sit_cards.shape[0] or best.shape[0] != sit_cards.shape[0]
            or keep_raised.shape[0] != sit_cards.shape[0] or dvec.shape[1] != 13 or d_off.shape[0] != 7
            or hole_i.shape[1] != 4
            or cut_lo.shape[0] != 7462 or cut_hi.shape[0] != 7462 or cls.shape[0] != 7462
            or gtab.shape[1] != MASKS or gtab.shape[2] != 3 or allowed.shape[0] != 7
            or pclass.shape[0] != 7462 or cnet.shape[1] != 4 or (cins.shape[0] not in (0, n_pay))
            or (cins.shape[0] and cins.shape[1] != 4) or tden.shape[0] != 7 or fee_num.shape[0] != 7
            or (cnet_hi is not None and (cnet_hi.shape[0] != n_pay or cnet_hi.shape[1] != 4))
            or out.shape[0] != n or out.shape[1] != gf or out.shape[2] != 2
            or ((sit_col is None) != (sit_sums is None))
            or (sit_col is not None and (sit_col.shape[0] != 2 + (8 + n_tf) * n_stat
                                         or sit_sums.shape[0] != sit_cards.shape[0]))
            or (rows is not None and (rows.shape[0] != sit_cards.shape[0] or rows.shape[1] != NA
                                      or rows.shape[2] != 2 + (8 + n_tf) * n_stat or rows.shape[3] != 2))):
        raise ValueError("shapes do not match")
    if not 0 < n_stat <= MAX_CLASSES:
        raise ValueError(f"from 1 to {MAX_CLASSES} classes of final hand")
    if not 0 <= ru < 13:
        raise ValueError("up rank out of range")
    cdef Rules R
    cdef const int32_t* rank_bit
    cdef const int32_t* suit_bit
    key_tables(&R.card_key, &rank_bit, &suit_bit, &R.by_key, &R.by_flush)
    if pc6.shape[0] and (pc6.shape[0] != SIX_PATTERNS or pc6_five.shape[0] != 13 * MASKS * 2
                         or pc6_six.shape[0] != MASKS * 2):
        raise ValueError("the six-card classes do not cover every six")
    if not (_classes_within(pclass, n_pay) and _classes_within(pc6, n_pay) and _classes_within(pc6_five, n_pay)
            and _classes_within(pc6_six, n_pay)):
        raise ValueError("a class of final hand out of range")
    if n == 0:
        return
    if sit_off[0] != 0 or sit_off[n] != sit_cards.shape[0]:
        raise ValueError("the situations' offsets do not cover them")
    R.scale = scale
    R.iq = iq
    R.cut_lo = &cut_lo[0]
    R.cut_hi = &cut_hi[0]
    R.cls = &cls[0]
    R.gtab = &gtab[0, 0, 0]
    R.n_cls = gtab.shape[0]
    R.term = fterm
    R.n_tf = n_tf
    R.per_cls = 8 + n_tf
    R.nf = 2 + R.per_cls * n_stat
    R.n_pay = n_pay
    R.pclass = &pclass[0]
    R.cnet = &cnet[0, 0]
    if cnet_kept is not None and (cnet_kept.shape[0] != cnet.shape[0] or cnet_kept.shape[1] != cnet.shape[1]):
        raise ValueError("a kept hand's coefficients are not one row per class of final hand")
    R.cnet_kept = &cnet_kept[0, 0] if cnet_kept is not None else NULL
    R.cnet_hi = &cnet_hi[0, 0] if cnet_hi is not None and fterm != NULL else NULL
    R.cnet2 = NULL
    R.cins = &cins[0, 0] if cins.shape[0] else NULL
    R.pc6 = &pc6[0] if pc6.shape[0] else NULL
    R.pc6_five = &pc6_five[0] if pc6.shape[0] else NULL
    R.pc6_six = &pc6_six[0] if pc6.shape[0] else NULL
    R.sit_col, R.n_col, R.sit_sums = NULL, 0, NULL
    R.fixed = NULL
    if fixed is not None:
        if fixed.shape[0] != sit_cards.shape[0]:
            raise ValueError("shapes do not match")
        for g in range(fixed.shape[0]):
            f = fixed[g]
            if not 0 <= f <= BUYA or (f == BUYA and not allowed[6]) or (0 < f < BUYA and not allowed[popcount5(f)]):
                raise ValueError(f"a fixed action ({f}) the table does not allow")
        if fixed.shape[0]:
            R.fixed = &fixed[0]
    if sit_col is not None and sit_sums.shape[1] > 0 and sit_sums.shape[0] > 0:
        for f in range(sit_col.shape[0]):
            if not -1 <= sit_col[f] < sit_sums.shape[1]:
                raise ValueError("a situation column out of range")
        R.sit_col, R.n_col, R.sit_sums = &sit_col[0], <int>sit_sums.shape[1], &sit_sums[0, 0]
    cdef const int32_t* flag = &cancel[0] if cancel is not None else NULL
    cdef int128* accs = <int128*>calloc(n * gf, sizeof(int128))
    cdef uint64_t* rows_p = &rows[0, 0, 0, 0] if rows is not None and rows.shape[0] else NULL
    try:
        for g in prange(n, nogil=True, schedule="dynamic", chunksize=1, num_threads=n_threads):
            if studodds_cancelled(flag):
                continue
            _group(ru, &hvec[g, 0], sit_off[g], sit_off[g + 1], sit_cards, sit_w, dvec, d_off, hole_i,
                   &allowed[0], forced5, &tden[0], &fee_num[0], fee_den, &R, &accs[g * gf], best, keep_raised, flag,
                   rows_p + sit_off[g] * NA * (R.nf * 2) if rows_p != NULL else NULL)
        for g in range(n):
            for f in range(gf):
                out[g, f, 0] = <uint64_t>accs[g * gf + f]
                out[g, f, 1] = <uint64_t>(accs[g * gf + f] >> 64)
    finally:
        free(accs)
