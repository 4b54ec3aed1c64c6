"""Fast exact optimal-strategy statistics for many paytables sharing a count table.

For fixed ante pays (a_nq, a_w), with N = 163,185, a situation of category c raises iff

    win * P_c  >  2N - nq * (a_nq + 3) - 3 * tie  =: rhs        where P_c = a_w + 2 * pay_c + 3

(the linear form of :class:`enumerate.analysis.RaiseValue` divided by its scale).  A situation
with ``win > 0`` therefore raises iff P_c exceeds its threshold t = rhs / win; once each
category's situations are sorted by t, any paytable's raised set is a prefix, found by binary
search, and its statistics are prefix sums (kept per block of 256).  Sorting uses floats; every
situation whose float threshold lies within a relative 1e-9 of P_c is decided with exact integer
arithmetic, so the result is exact.  Situations with ``win == 0`` (t = inf) decide the same way
for every paytable and are summed once.

The result equals the one-pass kernel's statistics; the tests compare the two.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from enumerate import _aggregate
from enumerate.engine import COMPLETIONS, CountTable
from enumerate.stats import N_STATS, Stat
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

_TOL = 1e-9


class ThresholdIndex:
    """Per count table and ante pays: everything needed to analyse any raise paytable fast."""

    def __init__(self, table: CountTable, ante_no_qualify: Fraction, ante_win: Fraction) -> None:
        self.table = table
        self.ante_no_qualify = Fraction(ante_no_qualify)
        self.ante_win = Fraction(ante_win)
        self.d = d = self.ante_no_qualify.denominator
        a3 = int((self.ante_no_qualify + 3) * d)
        m = table.up.shape[1]
        row_cat = CATEGORY_BY_STRENGTH[table.strength]
        row_order = np.argsort(row_cat, kind="stable").astype(np.int64)
        t, rhs = _aggregate.threshold_keys(row_order, table.no_qualify, table.win, table.tie, a3, d)
        counts = np.bincount(row_cat, minlength=10) * m
        starts = np.concatenate([[0], np.cumsum(counts)])
        order = np.empty(t.shape[0], dtype=np.int64)
        for c in Category:
            lo, hi = starts[c], starts[c + 1]
            order[lo:hi] = lo + np.argsort(t[lo:hi], kind="stable")
        self.t = t[order]
        self.rhs = rhs[order]
        weight = table.weight.astype(np.int64)
        self.nq, self.win, self.tie, self.w, self.cum = _aggregate.gather_sorted(
            order, row_order, weight, table.no_qualify, table.win, table.tie, m)
        self.starts = starts
        # situations with win == 0 sit at the end of each segment (t = inf)
        self.finite_end = np.array([starts[c] + int(np.searchsorted(self.t[starts[c]:starts[c + 1]], np.inf))
                                    for c in Category] + [starts[-1]])
        self.totals = {}
        for c in Category:
            lo, hi, fe = int(starts[c]), int(starts[c + 1]), int(self.finite_end[c])
            all_ = self._sum(lo, hi)
            zero_rhs = self.rhs[fe:hi]
            neg = fe + np.flatnonzero(zero_rhs < 0)
            fixed = np.array([self.w[neg].sum(), (self.w[neg] * self.nq[neg]).sum(), 0,
                              (self.w[neg] * self.tie[neg]).sum()], dtype=np.int64)
            ind = int(self.w[fe + np.flatnonzero(zero_rhs == 0)].sum())
            self.totals[c] = (all_, fixed, ind)

    def _sum(self, lo: int, hi: int) -> np.ndarray:
        a = _aggregate.prefix_sums(hi, self.cum, self.nq, self.win, self.tie, self.w)
        b = _aggregate.prefix_sums(lo, self.cum, self.nq, self.win, self.tie, self.w)
        return np.array(a, dtype=np.int64) - np.array(b, dtype=np.int64)

    def statistics(self, pays) -> tuple[np.ndarray, tuple]:
        """(10, 8) statistics of the optimal strategy (as the kernel returns them) and a
        signature that is equal for two paytables iff their raised sets are equal."""
        out = np.zeros((10, N_STATS), dtype=np.int64)
        signature = []
        for c in Category:
            start, fe = int(self.starts[c]), int(self.finite_end[c])
            all_, fixed, indifferent = self.totals[c]
            p = self.ante_win + 2 * Fraction(pays[c]) + 3
            pf = float(p)
            seg = self.t[start:fe]
            lo = start + int(np.searchsorted(seg, pf - _TOL * max(1.0, abs(pf)), side="left"))
            hi = start + int(np.searchsorted(seg, pf + _TOL * max(1.0, abs(pf)), side="right"))
            raised = self._sum(start, lo) + fixed
            band = []
            for k in range(lo, hi):                     # decide the near-ties exactly
                lhs = int(self.win[k]) * p.numerator * self.d
                rhs = int(self.rhs[k]) * p.denominator
                if lhs > rhs:
                    raised += self._sum(k, k + 1)
                    band.append(k)
                elif lhs == rhs:
                    indifferent += int(self.w[k])
            out[c, Stat.SITUATIONS] = all_[0]
            out[c, Stat.RAISED] = raised[0]
            out[c, Stat.INDIFFERENT] = indifferent
            out[c, Stat.NO_QUALIFY], out[c, Stat.WIN], out[c, Stat.TIE] = raised[1], raised[2], raised[3]
            out[c, Stat.LOSE] = raised[0] * COMPLETIONS - raised[1] - raised[2] - raised[3]
            out[c, Stat.NO_QUALIFY_ALL] = all_[1]
            signature.append((lo, tuple(band)))
        return out, tuple(signature)
