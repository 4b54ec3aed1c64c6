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
player buys iff gain > 0.  Per final hand the kernel sums, over the dealer hands that do not
qualify, how many there are and are bought, and the gains bought, exactly, in units of
1 / (scale * dn): dn is a common multiple of every pool size N.
"""
from libc.stdint cimport int16_t, int32_t, int64_t, uint64_t
from cython.parallel cimport prange
from evaluator._eval cimport key_tables
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED
from enumerate.core._combinatorics cimport popcount64

cdef extern from *:
    ctypedef long long int128 "__int128"

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)
#: Columns of a rank set: its 13-bit mask, the rank removed, the evaluator key of the kept ranks.
SET_COLUMNS = 3


cdef struct Net:
    # what a settled purchase nets per draw (times scale), and the rules
    int64_t win
    int64_t lose
    int64_t ante
    int64_t fee
    int player
    int threshold
    bint short_pays_ante
    bint redraw
    const int32_t* rkey
    const int16_t* by_key
    const int16_t* by_flush


cdef inline int64_t _net(int s, const Net* T) noexcept nogil:
    """What the new dealer hand of strength s nets against the player."""
    if T.short_pays_ante and s < T.threshold:
        return T.ante
    if s < T.player:
        return T.win
    if s == T.player:
        return 0
    return T.lose


cdef inline bint _has(uint64_t u, int rank, int suit) noexcept nogil:
    return (u >> (4 * rank + suit)) & 1


cdef inline int128 _bought(int64_t count, int64_t gain, int64_t per, int64_t* bought) noexcept nogil:
    """``count`` dealer hands whose purchase gains ``gain``: their share of the sum when bought."""
    if count <= 0 or gain <= 0:
        return 0
    bought[0] += count
    return <int128>count * gain * per


cdef int128 _rank_set(uint64_t u, const int* L, int ru, int s0, int rmask, int rc, int key_k, int64_t dn,
                      const Net* T, int64_t* nq, int64_t* bought) noexcept nogil:
    """One rank set R (see the module docstring): its dealer hands that do not qualify, counted
    into nq, and the gains of those bought, times dn / N."""
    cdef int r, s, others = rmask & ~(1 << ru), kbits = rmask & ~(1 << rc)
    cdef int64_t total = 1, f0 = 1, n_pool = 0, g = 0, gain, corr, cnt, suited = 0, per
    cdef int nr[13]
    cdef int128 acc = 0
    for r in range(13):
        nr[r] = L[r]
        if (others >> r) & 1:
            total *= L[r]
            f0 *= _has(u, r, s0)
            nr[r] -= 1
    if total == 0:
        return 0
    nq[0] += total - f0
    if T.win <= T.fee + T.ante and 0 <= T.fee + T.ante:
        return 0                                   # even a sure win would not pay for the purchase
    if T.redraw:
        nr[rc] = 0
    for r in range(13):
        if nr[r]:
            n_pool += nr[r]
            g += nr[r] * _net(T.by_key[key_k + T.rkey[r]], T)
    if n_pool == 0:
        return 0
    per = dn // n_pool
    gain = g - (T.fee + T.ante) * n_pool
    for s in range(4):
        if rc == ru and s == s0:
            continue                               # K of the up card's suit with u removed: the flush f0
        if rc != ru and s != s0:
            continue                               # K holds u: suited only in s0
        cnt = 1
        for r in range(13):
            if (kbits >> r) & 1 and r != ru and not _has(u, r, s):
                cnt = 0
        if rc != ru:
            cnt *= L[rc] - _has(u, rc, s0)         # c of another suit than s0
        if cnt == 0:
            continue
        corr = 0
        for r in range(13):
            if not (kbits >> r) & 1 and _has(u, r, s) and not (T.redraw and r == rc):
                corr += _net(T.by_flush[kbits | (1 << r)], T) - _net(T.by_key[key_k + T.rkey[r]], T)
        suited += cnt
        acc += _bought(cnt, gain + corr, per, bought)
    acc += _bought(total - f0 - suited, gain, per, bought)
    return acc


cdef int128 _hand(uint64_t u, int player, int64_t win, const Net* common, int ru, int s0,
                  const int32_t[:, ::1] sets, int64_t dn, int64_t* nq, int64_t* bought) noexcept nogil:
    """One final hand against every rank set that does not qualify."""
    cdef Net T = common[0]
    cdef int L[13]
    cdef int r
    cdef Py_ssize_t j
    cdef int128 acc = 0
    cdef int64_t n_nq = 0, n_bought = 0        # local: threads write their hands' results once
    T.player = player
    T.win = win
    for r in range(13):
        L[r] = popcount64((u >> (4 * r)) & 15)
    for j in range(sets.shape[0]):
        acc += _rank_set(u, L, ru, s0, sets[j, 0], sets[j, 1], sets[j, 2], dn, &T, &n_nq, &n_bought)
    nq[0] = n_nq
    bought[0] = n_bought
    return acc


def bought_values(const int16_t[::1] player, const int64_t[::1] win, const uint64_t[::1] unseen, int up,
                  const int32_t[:, ::1] sets, int64_t lose, int64_t ante, int64_t fee, int threshold,
                  bint short_pays_ante, bint redraw, int64_t dn, int64_t[::1] nq, int64_t[::1] bought,
                  int64_t[::1] gains, int n_threads):
    """Per final hand i (its strength player[i], its win's net win[i], its unseen cards unseen[i]):
    the dealer hands that do not qualify (nq[i]), those whose game is bought (bought[i]) and the
    sum of the purchases' gains in units of 1 / (scale * dn) (gains[i]); nets are times scale.
    ``sets``: the rank sets that do not qualify (columns: SET_COLUMNS).  Returns False if a sum
    left 62 bits (nothing is then reliable)."""
    cdef Py_ssize_t n = player.shape[0], i
    cdef int r
    cdef int128 acc
    cdef Net T
    cdef const int32_t* card_key
    cdef const int32_t* rank_bit
    cdef const int32_t* suit_bit
    cdef int32_t rkey[13]
    cdef int overflow = 0
    if win.shape[0] != n or unseen.shape[0] != n or nq.shape[0] != n or bought.shape[0] != n \
            or gains.shape[0] != n or sets.shape[1] != SET_COLUMNS:
        raise ValueError("shapes do not match")
    key_tables(&card_key, &rank_bit, &suit_bit, &T.by_key, &T.by_flush)
    for r in range(13):
        rkey[r] = card_key[4 * r]
    T.rkey = rkey
    T.lose, T.ante, T.fee, T.threshold = lose, ante, fee, threshold
    T.short_pays_ante, T.redraw = short_pays_ante, redraw
    T.player, T.win = 0, 0
    for i in prange(n, nogil=True, schedule="dynamic", num_threads=n_threads):
        acc = _hand(unseen[i], player[i], win[i], &T, up >> 2, up & 3, sets, dn, &nq[i], &bought[i])
        if acc >= (<int128>1 << 62) or acc < 0:
            overflow += 1
        gains[i] = <int64_t>acc
    return overflow == 0
