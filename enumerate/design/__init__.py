"""Paytable design: exact sensitivities, solving for a target edge, and searching paytables.

The structure that makes it fast.  With the ante pays and the raise of r antes fixed (no ante
bonus), a situation of player category c raises (under the optimal strategy) iff

    win * (a_w + r * pay_c + 1 + r)  >  r N - nq * (a_nq + 1 + r) - (1 + r) * tie

(:mod:`enumerate.analysis.threshold_index`), so the raise decisions of category c depend on ``pay_c``
alone.  Everything a paytable's figures are made of then splits into one term per pay:

    total   = sum_c [ nq_c * a_nq + win_c * (a_w + r * pay_c) - (1 + r) * lose_c - folded_c * N ]
    second  = sum_c [ nq_c * a_nq^2 + win_c * (a_w + r * pay_c)^2 + (1 + r)^2 * lose_c + folded_c * N ]
    raised  = sum_c raised_c,      hits = sum_c [ nq_c (if a_nq > 0) + win_c (if a_w + r pay_c > 0) ]

(every net result read from the settlement, :mod:`enumerate.rules.settlement`)

where ``nq_c, win_c, lose_c`` are the dealer outcomes over category c's raised situations and
``folded_c`` its folded ones -- each a function of ``pay_c`` only, read off the threshold index
(exact integers).  A design therefore evaluates each moving pay's values once (one row of
integers per value) and a candidate paytable is the sum of one row per pay: a million
candidates are a few vectorised integer additions.  House edge, element of risk, variance, hit
frequency and largest win follow exactly from those sums (:class:`enumerate.design.grid.PayGrid`).

Sensitivity (:mod:`enumerate.design.sensitivity`): at a fixed strategy the total is linear in
every pay, d total / d pay_c = r * win_c, and the strategy stays the same while each key
``a_w + r pay_c + 1 + r`` stays between the thresholds next to it.
"""
