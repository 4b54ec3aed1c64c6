"""The full game: the base analysis with every figure a table's rules add on top of it.

* :mod:`enumerate.game.analysis`: the base game (:mod:`enumerate.analysis.base`), the rule
  variants' figures (:mod:`enumerate.analysis.rule_variants`) and the side bets
  (:mod:`enumerate.sidebets`) in one :class:`~enumerate.game.analysis.GameAnalysis`;
* :mod:`enumerate.game.diff`: what a paytable change does, A -> B, on the full game.
"""
