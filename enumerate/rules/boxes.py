"""Two boxes: one player plays two hands at once against the same dealer hand.

Casinos let a player take two boxes (two seats' wagers) at Oasis and Russian Poker tables, and
then he sees ten cards: each box's decision can use the other box's hand.  The rule modelled:

* the player plays exactly **two** boxes, each with its own ante, against one dealer hand (the
  dealer's up card and four hole cards come from the 42 cards left);
* each box raises or folds **seeing both boxes' cards** and the up card.  Each box's result
  depends on its own decision and the one dealer hand only, so neither decision depends on the
  other or on which is made first: the rule needs no decision order.  (A table that makes the
  player decide the first box before looking at the second plays the normal game on that box
  and this one on the other.)

Everything else -- pays, the qualifier, the raise -- is the plain game's, per box.  The figures
are per box (the house edge, the return table of one box) and per round of both boxes (the
variance, which the boxes' covariance raises: one dealer hand meets both).  The game,
its engine, its kind and its report are :mod:`enumerate.boxes`; this module is the rule a
variant file's ``[boxes]`` section reads.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

from evaluator.errors import StudoddsError

#: The decision rules a [boxes] section may name (one is modelled).
DECISIONS = {"seeing_both_hands": "each box raises or folds seeing both boxes' cards and the up card"}


class BoxesJSON(TypedDict):
    """Schema: one player on several boxes against one dealer hand: how many, and what each box's decision sees"""

    count: Literal[2]
    decisions: Literal["seeing_both_hands"]


@dataclass(frozen=True)
class Boxes:
    """The [boxes] rule: ``count`` boxes (2), each decided as ``decisions`` says."""

    count: int = 2
    decisions: str = "seeing_both_hands"

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count != 2:
            raise StudoddsError(f"boxes.count: {self.count!r:.40}: two boxes are modelled (count = 2)")
        if self.decisions not in DECISIONS:
            raise StudoddsError(f"boxes.decisions: {self.decisions!r:.40}: one of {', '.join(DECISIONS)}")

    def to_dict(self) -> BoxesJSON:
        return {"count": 2, "decisions": "seeing_both_hands"}

    def text(self) -> str:
        return f"one player plays {self.count} boxes against one dealer hand; {DECISIONS[self.decisions]}"
