# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""One-pass exact aggregation of a strategy over the count table (private).

For every situation the raise decision is the sign of an integer linear form in its counts
(see enumerate.analysis.RaiseValue); per player category the kernel sums, weighted by the
suit-class size, the situations, the raised and the indifferent ones, and the dealer outcomes
of the raised ones.  Each thread adds into its own slice, so the sums are exact and do not
depend on the thread count.
"""
import numpy as np
from libc.stdint cimport int16_t, int64_t, uint8_t, uint32_t
from cython.parallel cimport prange, threadid

# statistics per category
N_STATS = 8
STAT_NAMES = ("situations", "raised", "indifferent", "no_qualify", "win", "tie", "lose",
              "no_qualify_all")
DEF COMPLETIONS = 163185


def aggregate(const int16_t[::1] category, const int64_t[::1] weight,
              const uint32_t[:, ::1] no_qualify, const uint32_t[:, ::1] win,
              const uint32_t[:, ::1] tie, int64_t c_nq, const int64_t[::1] c_win, int64_t c_tie,
              int64_t raise_above, const uint8_t[:, ::1] force, int n_threads):
    """Per category (rows 0..9) the weighted statistics STAT_NAMES under the optimal strategy,
    or, when ``force`` has rows, under the fixed strategy force[i, j] (1 raise, 0 fold)."""
    cdef Py_ssize_t n = no_qualify.shape[0], m = no_qualify.shape[1], i, j
    cdef int t, cat, go
    cdef int use_force = force.shape[0] > 0
    cdef int64_t form, w, nq, wi, ti, cw
    cdef int64_t r_n, r_ind, r_nq, r_win, r_tie, r_all_nq
    acc_np = np.zeros((max(n_threads, 1), 10, N_STATS), dtype=np.int64)
    cdef int64_t[:, :, ::1] acc = acc_np
    for i in prange(n, nogil=True, schedule="static", num_threads=max(n_threads, 1)):
        t = threadid()
        cat = category[i]
        w = weight[i]
        cw = c_win[cat]
        r_n = 0
        r_ind = 0
        r_nq = 0
        r_win = 0
        r_tie = 0
        r_all_nq = 0
        for j in range(m):
            nq = no_qualify[i, j]
            wi = win[i, j]
            ti = tie[i, j]
            r_all_nq = r_all_nq + nq
            form = nq * c_nq + wi * cw + ti * c_tie
            r_ind = r_ind + (form == raise_above)
            if use_force:
                go = force[i, j] != 0
            else:
                go = form > raise_above
            if go:
                r_n = r_n + 1
                r_nq = r_nq + nq
                r_win = r_win + wi
                r_tie = r_tie + ti
        acc[t, cat, 0] += w * m
        acc[t, cat, 1] += w * r_n
        acc[t, cat, 2] += w * r_ind
        acc[t, cat, 3] += w * r_nq
        acc[t, cat, 4] += w * r_win
        acc[t, cat, 5] += w * r_tie
        acc[t, cat, 6] += w * (r_n * COMPLETIONS - r_nq - r_win - r_tie)
        acc[t, cat, 7] += w * r_all_nq
    return acc_np.sum(axis=0)
