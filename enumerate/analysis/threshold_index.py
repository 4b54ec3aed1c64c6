"""Fast exact optimal-strategy statistics for many paytables sharing a count table.

For fixed ante pays (a_nq, a_w) and a raise of r antes without an ante bonus, with N = 163,185,
a situation of category c raises iff

    win * P_c  >  r N - nq * (a_nq + 1 + r) - (1 + r) * tie  =: rhs     where P_c = a_w + r * pay_c + 1 + r

(the linear form of :class:`enumerate.raise_value.RaiseValue` divided by its scale; every
coefficient is a state's net result less a lost hand's, read from the settlement,
:meth:`enumerate.rules.settlement.Settlement.over_loss`).  A situation
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

from enumerate.analysis import _aggregate
from enumerate.analysis.stats import N_STATS, Stat
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.memo import TableMemo
from enumerate.rules.settlement import Settlement
from enumerate.rules.variant import Variant
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

_TOL = 1e-9


class ThresholdIndex:
    """Per count table and ante pays: everything needed to analyse any raise paytable fast."""

    def __init__(self, table: CountTable, ante_no_qualify: Fraction, ante_win: Fraction, raise_antes: int = 2) -> None:
        self.table = table
        self.ante_no_qualify = Fraction(ante_no_qualify)
        self.ante_win = Fraction(ante_win)
        self.raise_antes = raise_antes
        self.settlement = s = Settlement(raise_antes, self.ante_no_qualify, self.ante_win, (Fraction(0),) * 10,
                                         (Fraction(0),) * 10)
        self.d = d = self.ante_no_qualify.denominator
        c_nq = int(s.over_loss(None, "dealer_does_not_qualify") * d)
        c_tie, c_fold = int(s.over_loss(None, "push")), int(s.over_loss(None, "folded"))
        m = table.up.shape[1]
        row_cat = CATEGORY_BY_STRENGTH[table.strength]
        row_order = np.argsort(row_cat, kind="stable").astype(np.int64)
        t, rhs = _aggregate.threshold_keys(row_order, table.no_qualify, table.win, table.tie, c_nq, c_tie, c_fold, d)
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
        self.order, self.row_order, self.m = order, row_order, m   # sorted position -> situation
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

    @property
    def key(self) -> tuple[Fraction, Fraction, int]:
        """What the index is built for: (ante pays, raise), as :func:`index_key` gives it."""
        return (self.ante_no_qualify, self.ante_win, self.raise_antes)

    def pay_key(self, pay: Fraction) -> Fraction:
        """P = a_w + r * pay + 1 + r (a win's net less a loss's): the key a situation's threshold
        is compared with."""
        return self.settlement.with_pays(pay).over_loss(0, "player_wins")

    def exact_threshold(self, k: int) -> Fraction:
        """The exact threshold t = rhs / (win * d) of the situation at sorted position ``k``."""
        return Fraction(int(self.rhs[k]), int(self.win[k]) * self.d)

    def category_statistics(self, c: Category, pay: Fraction) -> tuple[np.ndarray, tuple]:
        """(8,) statistics of category ``c`` raised optimally at raise pay ``pay`` (columns of
        :class:`enumerate.analysis.stats.Stat`), and the signature of its raised set."""
        row = np.zeros(N_STATS, dtype=np.int64)
        start, fe = int(self.starts[c]), int(self.finite_end[c])
        all_, fixed, indifferent = self.totals[c]
        p = self.pay_key(pay)
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
        row[Stat.SITUATIONS] = all_[0]
        row[Stat.RAISED] = raised[0]
        row[Stat.INDIFFERENT] = indifferent
        row[Stat.NO_QUALIFY], row[Stat.WIN], row[Stat.TIE] = raised[1], raised[2], raised[3]
        row[Stat.LOSE] = raised[0] * COMPLETIONS - raised[1] - raised[2] - raised[3]
        row[Stat.NO_QUALIFY_ALL] = all_[1]
        return row, (lo, tuple(band))

    def statistics(self, pays) -> tuple[np.ndarray, tuple]:
        """(10, 8) statistics of the optimal strategy (as the kernel returns them) and a
        signature that is equal for two paytables iff their raised sets are equal."""
        out = np.zeros((10, N_STATS), dtype=np.int64)
        signature = []
        for c in Category:
            out[c], sig = self.category_statistics(c, pays[c])
            signature.append(sig)
        return out, tuple(signature)

    def neighbours(self, c: Category, key: Fraction) -> tuple[tuple[Fraction, list[int]] | None,
                                                              tuple[Fraction, list[int]] | None]:
        """The exact thresholds of category ``c`` next to ``key``: (largest t < key, its sorted
        positions) and (smallest t >= key, its positions); None where there is none.

        A situation raises iff key > t, so the raised set is the same for every key in
        (below, above]; at a key just above ``above`` the situations of ``above`` start to
        raise, at ``below`` or less those of ``below`` stop."""
        start, fe = int(self.starts[c]), int(self.finite_end[c])
        seg = self.t[start:fe]
        kf = float(key)

        def tol(x: float) -> float:
            return _TOL * max(1.0, abs(x))

        # above: positions before `first` have floats < key - tol, hence exact t < key
        first = start + int(np.searchsorted(seg, kf - tol(kf), side="left"))
        above: tuple[Fraction, list[int]] | None = None
        limit, k = kf + tol(kf), first
        while k < fe and (above is None or self.t[k] <= limit):
            if above is None and self.t[k] > limit:
                limit = float(self.t[k]) + tol(float(self.t[k]))
            x = self.exact_threshold(k)
            if x >= key:
                if above is None or x < above[0]:
                    above = (x, [k])
                    limit = max(limit, float(self.t[k]) + tol(float(self.t[k])))
                elif x == above[0]:
                    above[1].append(k)
            k += 1
        # below: positions after `last` have floats > key + tol, hence exact t > key
        last = start + int(np.searchsorted(seg, kf + tol(kf), side="right")) - 1
        below: tuple[Fraction, list[int]] | None = None
        floor, k = kf - tol(kf), last
        while k >= start and (below is None or self.t[k] >= floor):
            if below is None and self.t[k] < floor:
                floor = float(self.t[k]) - tol(float(self.t[k]))
            x = self.exact_threshold(k)
            if x < key:
                if below is None or x > below[0]:
                    below = (x, [k])
                    floor = min(floor, float(self.t[k]) - tol(float(self.t[k])))
                elif x == below[0]:
                    below[1].append(k)
            k -= 1
        return below, above

    def situation(self, k: int) -> tuple[int, int]:
        """(count-table row, up-card column) of the situation at sorted position ``k``."""
        flat = int(self.order[k])
        return int(self.row_order[flat // self.m]), flat % self.m


def threshold_index(table: CountTable, ante_no_qualify: Fraction, ante_win: Fraction, raise_antes: int = 2) -> ThresholdIndex:
    """The table's index for these ante pays and raise, built once and kept with the table."""
    key = (Fraction(ante_no_qualify), Fraction(ante_win), raise_antes)
    return _INDEXES.get(table, key, lambda: ThresholdIndex(table, *key))


def index_key(variant: Variant) -> tuple[Fraction, Fraction, int] | None:
    """What a variant's index is built for (ante pays, raise), or None when no index serves it
    (an ante bonus makes the threshold depend on the category)."""
    return None if variant.ante_bonus is not None else (variant.ante_no_qualify, variant.ante_win, variant.raise_antes)


#: Per count table, ante pays (no qualify, win) and raise: the index.
_INDEXES: TableMemo[tuple[Fraction, Fraction, int], ThresholdIndex] = TableMemo("threshold indexes")
