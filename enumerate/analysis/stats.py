"""Named columns of the per-category statistics arrays.

The aggregation kernel (``enumerate/analysis/_aggregate.pyx``) returns, for a strategy, a (10, 8) int64
array: one row per player hand category (:class:`evaluator.ranking.Category`), one column per
statistic below.  All counts are over concrete situations (player hand, up card), weighted by
suit-class size, and -- for the dealer outcomes -- over the 163,185 dealer hole-card sets of
each situation.  The kernel declares the same columns as a C enum and exports them as
``STAT_COLUMNS``; importing this module checks that the two agree.
"""
from __future__ import annotations

from enum import IntEnum

from enumerate.analysis import _aggregate


class Stat(IntEnum):
    """Columns of a (10, 8) statistics array."""

    SITUATIONS = 0          #: situations of the category
    RAISED = 1              #: of which the strategy raises
    INDIFFERENT = 2         #: of which EV(raise) == EV(fold) exactly (a property of the paytable)
    NO_QUALIFY = 3          #: over raised situations' dealer hands: the dealer does not qualify
    WIN = 4                 #: ... the dealer qualifies and the player wins
    TIE = 5                 #: ... the dealer qualifies and the hands are equal
    LOSE = 6                #: ... the dealer qualifies and wins
    NO_QUALIFY_ALL = 7      #: the dealer does not qualify, over all situations' dealer hands


#: Number of statistics columns.
N_STATS = len(Stat)

if {s.name.lower(): int(s) for s in Stat} != dict(_aggregate.STAT_COLUMNS):   # pragma: no cover
    raise ImportError("enumerate.analysis.stats.Stat and the compiled kernel's columns disagree: rebuild")
