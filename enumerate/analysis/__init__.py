"""Floor 5, analysis of the base game (ante and raise) from the counts and the rules.

* :mod:`~enumerate.analysis.base`: the exact return table and figures under optimal strategy or
  a fixed set of raised situations, over the aggregation kernel ``_aggregate.pyx`` and its named
  columns (:mod:`~enumerate.analysis.stats`);
* :mod:`~enumerate.analysis.rule_variants`: the figures a maximum payout or a face-down rule adds;
* :mod:`~enumerate.analysis.threshold_index`: many paytables at once;
* :mod:`~enumerate.analysis.strategies`: simple strategies against the optimal one;
* :mod:`~enumerate.analysis.ev`, :mod:`~enumerate.analysis.ev_table`,
  :mod:`~enumerate.analysis.situation`: per-hand and per-situation EVs;
* :mod:`~enumerate.analysis.distribution`, :mod:`~enumerate.analysis.certification`: the
  N-hand distribution and the certification figures;
* :mod:`~enumerate.analysis.selfcheck`: the brute-force spot check every batch runs.

Side bets, the progressive, game protection and paytable design build on this floor; the full
game of a variant is :mod:`enumerate.game.analysis`.
"""
