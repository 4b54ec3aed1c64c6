"""One-pass exact aggregation of a strategy over the count table (private).

For every situation the raise decision is the sign of an integer linear form in its counts
(see enumerate.raise_value.RaiseValue); per player category the kernel sums, weighted by the
suit-class size, the situations, the raised and the indifferent ones, and the dealer outcomes
of the raised ones.  Each thread adds into its own slice, so the sums are exact and do not
depend on the thread count.

The statistics columns are named by the enum below; :class:`enumerate.analysis.stats.Stat` is the same
enum for Python code, and its import checks it against ``STAT_COLUMNS``.
"""
import numpy as np
from libc.stdint cimport int16_t, int64_t, uint8_t, uint32_t
from cython.parallel cimport prange, threadid
from libc.math cimport INFINITY
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)

# statistics per category: columns of the (10, N_STATS) arrays
cdef enum:
    S_SITUATIONS = 0        # situations (weighted by suit-class size)
    S_RAISED = 1            # of which raised
    S_INDIFFERENT = 2       # of which EV(raise) == EV(fold) exactly
    S_NO_QUALIFY = 3        # over raised situations: dealer does not qualify
    S_WIN = 4               #   dealer qualifies, player wins
    S_TIE = 5               #   dealer qualifies, push
    S_LOSE = 6              #   dealer qualifies, dealer wins
    S_NO_QUALIFY_ALL = 7    # dealer does not qualify, over all situations
    N_STATS = 8

cdef enum:
    COMPLETIONS = 163185    # dealer hole-card sets per situation: C(46, 4)
    BLOCK = 256             # prefix sums are kept per block of this many situations
    N_RANKS = 13
    N_CATEGORIES = 10

STAT_COLUMNS = {"situations": S_SITUATIONS, "raised": S_RAISED, "indifferent": S_INDIFFERENT,
                "no_qualify": S_NO_QUALIFY, "win": S_WIN, "tie": S_TIE, "lose": S_LOSE,
                "no_qualify_all": S_NO_QUALIFY_ALL}


cdef void _row_all(int64_t* out, int64_t* chart_row, const uint8_t* up, const uint32_t* nq_row,
                   const uint32_t* win_row, const uint32_t* tie_row, Py_ssize_t m, int64_t c_nq,
                   int64_t cw, int64_t c_tie, int64_t raise_above, const uint8_t* masks,
                   Py_ssize_t mask_stride, int n_masks, bint with_chart) noexcept nogil:
    """Unweighted statistics of one row (one player hand, all up cards) for the optimal strategy
    and each mask: out[k * N_STATS + stat]; chart_row[up_rank * 2 + (0 raised, 1 all)]."""
    cdef Py_ssize_t j
    cdef int k
    cdef int64_t nq, wi, ti, form
    for j in range(m):
        nq = nq_row[j]
        wi = win_row[j]
        ti = tie_row[j]
        form = nq * c_nq + wi * cw + ti * c_tie
        out[S_INDIFFERENT] += form == raise_above
        out[S_NO_QUALIFY_ALL] += nq
        if with_chart:
            chart_row[(up[j] >> 2) * 2 + 1] += 1
        if form > raise_above:
            if with_chart:
                chart_row[(up[j] >> 2) * 2] += 1
            out[S_RAISED] += 1
            out[S_NO_QUALIFY] += nq
            out[S_WIN] += wi
            out[S_TIE] += ti
        for k in range(n_masks):
            if masks[k * mask_stride + j]:
                out[(k + 1) * N_STATS + S_RAISED] += 1
                out[(k + 1) * N_STATS + S_NO_QUALIFY] += nq
                out[(k + 1) * N_STATS + S_WIN] += wi
                out[(k + 1) * N_STATS + S_TIE] += ti


def aggregate_all(const int16_t[::1] category, const int16_t[::1] strength, const int64_t[::1] weight,
                  const uint8_t[:, ::1] up, const uint32_t[:, ::1] no_qualify, const uint32_t[:, ::1] win,
                  const uint32_t[:, ::1] tie, int64_t c_nq, const int64_t[::1] c_win, int64_t c_tie,
                  const int64_t[::1] raise_above, const uint8_t[:, :, ::1] masks, int n_threads, bint with_chart):
    """One pass for everything a certified table needs.

    Returns ``(stats, chart)``: stats (K + 1, 10, N_STATS) int64 for the optimal strategy (row 0)
    and each fixed strategy masks[k] (rows 1..K); ``raise_above`` is the optimal strategy's
    threshold of the form by player category; chart (7462, 13, 2) int64, per player strength
    and up-card rank, the weighted (raised under the optimal strategy, all) situations, or None
    without ``with_chart``."""
    cdef Py_ssize_t n = no_qualify.shape[0], m = no_qualify.shape[1], i, stride
    cdef int n_masks = masks.shape[0], t, cat, k, s, r
    cdef int nt = max(n_threads, 1)
    cdef int64_t w
    cdef const uint8_t* mask_ptr
    if c_win.shape[0] != N_CATEGORIES or raise_above.shape[0] != N_CATEGORIES:
        raise ValueError("c_win and raise_above need one value per category")
    acc_np = np.zeros((nt, n_masks + 1, N_CATEGORIES, N_STATS), dtype=np.int64)
    chart_np = np.zeros((nt, 7462 if with_chart else 1, N_RANKS, 2), dtype=np.int64)
    row_np = np.zeros((nt, (n_masks + 1) * N_STATS + 2 * N_RANKS), dtype=np.int64)
    cdef int64_t[:, :, :, ::1] acc = acc_np
    cdef int64_t[:, :, :, ::1] chart = chart_np
    cdef int64_t[:, ::1] row = row_np
    stride = n * m
    for i in prange(n, nogil=True, schedule="static", num_threads=nt):
        t = threadid()
        cat = category[i]
        s = strength[i]
        w = weight[i]
        for k in range((n_masks + 1) * N_STATS + 2 * N_RANKS):
            row[t, k] = 0
        mask_ptr = &masks[0, i, 0] if n_masks > 0 else NULL
        _row_all(&row[t, 0], &row[t, (n_masks + 1) * N_STATS], &up[i, 0], &no_qualify[i, 0], &win[i, 0],
                 &tie[i, 0], m, c_nq, c_win[cat], c_tie, raise_above[cat], mask_ptr, stride, n_masks, with_chart)
        for k in range(n_masks + 1):
            acc[t, k, cat, S_SITUATIONS] += w * m
            acc[t, k, cat, S_NO_QUALIFY_ALL] += w * row[t, S_NO_QUALIFY_ALL]
            acc[t, k, cat, S_INDIFFERENT] += w * row[t, S_INDIFFERENT]
            acc[t, k, cat, S_RAISED] += w * row[t, k * N_STATS + S_RAISED]
            acc[t, k, cat, S_NO_QUALIFY] += w * row[t, k * N_STATS + S_NO_QUALIFY]
            acc[t, k, cat, S_WIN] += w * row[t, k * N_STATS + S_WIN]
            acc[t, k, cat, S_TIE] += w * row[t, k * N_STATS + S_TIE]
            acc[t, k, cat, S_LOSE] += w * (row[t, k * N_STATS + S_RAISED] * COMPLETIONS
                                           - row[t, k * N_STATS + S_NO_QUALIFY]
                                           - row[t, k * N_STATS + S_WIN] - row[t, k * N_STATS + S_TIE])
        if with_chart:
            for r in range(N_RANKS):
                chart[t, s, r, 0] += w * row[t, (n_masks + 1) * N_STATS + r * 2]
                chart[t, s, r, 1] += w * row[t, (n_masks + 1) * N_STATS + r * 2 + 1]
    return acc_np.sum(axis=0), (chart_np.sum(axis=0) if with_chart else None)


def threshold_keys(const int64_t[::1] row_order, const uint32_t[:, ::1] no_qualify,
                   const uint32_t[:, ::1] win, const uint32_t[:, ::1] tie, int64_t c_nq, int64_t c_tie,
                   int64_t c_fold, int64_t d):
    """For situations in the given row order (rows grouped by category): the float threshold
    t = rhs / (win * d) (inf when win == 0) and the exact rhs = c_fold*N*d - nq*c_nq - c_tie*tie*d
    (the coefficients: a state's net less a lost hand's, from the settlement; c_nq times d)."""
    cdef Py_ssize_t n = row_order.shape[0], m = no_qualify.shape[1], i, j, k
    t_np = np.empty(n * m, dtype=np.float64)
    rhs_np = np.empty(n * m, dtype=np.int64)
    cdef double[::1] t = t_np
    cdef int64_t[::1] rhs = rhs_np
    cdef int64_t r, w
    with nogil:
        for i in range(n):
            for j in range(m):
                k = i * m + j
                r = c_fold * COMPLETIONS * d - <int64_t>no_qualify[row_order[i], j] * c_nq - c_tie * <int64_t>tie[row_order[i], j] * d
                rhs[k] = r
                w = win[row_order[i], j]
                t[k] = (<double>r) / (<double>w * <double>d) if w > 0 else INFINITY
    return t_np, rhs_np


def gather_sorted(const int64_t[::1] order, const int64_t[::1] row_order, const int64_t[::1] weight,
                  const uint32_t[:, ::1] no_qualify, const uint32_t[:, ::1] win,
                  const uint32_t[:, ::1] tie, int m):
    """Sorted copies (nq, win, tie, weight) of the situations ``order`` (indices into the
    row_order-major flattening) and per-block prefix sums of weighted (1, nq, win, tie)."""
    cdef Py_ssize_t n = order.shape[0], k, row, col
    nq_np = np.empty(n, dtype=np.uint32)
    win_np = np.empty(n, dtype=np.uint32)
    tie_np = np.empty(n, dtype=np.uint32)
    w_np = np.empty(n, dtype=np.int64)
    cum_np = np.zeros((n // BLOCK + 2, 4), dtype=np.int64)
    cdef uint32_t[::1] snq = nq_np, swin = win_np, stie = tie_np
    cdef int64_t[::1] sw = w_np
    cdef int64_t[:, ::1] cum = cum_np
    cdef int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, w
    with nogil:
        for k in range(n):
            if k % BLOCK == 0:
                cum[k // BLOCK, 0] = a0; cum[k // BLOCK, 1] = a1
                cum[k // BLOCK, 2] = a2; cum[k // BLOCK, 3] = a3
            row = row_order[order[k] // m]
            col = order[k] % m
            w = weight[row]
            snq[k] = no_qualify[row, col]
            swin[k] = win[row, col]
            stie[k] = tie[row, col]
            sw[k] = w
            a0 += w
            a1 += w * snq[k]
            a2 += w * swin[k]
            a3 += w * stie[k]
        cum[n // BLOCK + 1, 0] = a0
    return nq_np, win_np, tie_np, w_np, cum_np


def prefix_sums(int64_t upto, const int64_t[:, ::1] cum, const uint32_t[::1] nq,
                const uint32_t[::1] win, const uint32_t[::1] tie, const int64_t[::1] w):
    """Weighted (count, nq, win, tie) over sorted situations [0, upto)."""
    cdef int64_t b = upto // BLOCK, k
    cdef int64_t a0 = cum[b, 0], a1 = cum[b, 1], a2 = cum[b, 2], a3 = cum[b, 3]
    for k in range(b * BLOCK, upto):
        a0 += w[k]
        a1 += w[k] * nq[k]
        a2 += w[k] * win[k]
        a3 += w[k] * tie[k]
    return a0, a1, a2, a3
