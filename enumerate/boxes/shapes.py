"""The JSON shapes of two boxes' figures: a round of two boxes (the seen-hand game counted as
pairs), and a table of two boxes (kept apart from :mod:`enumerate.boxes.game` so that the
analysis's JSON names them without importing the kernel)."""
from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from enumerate.core.shapes import Exact, Minimum, shape


@shape("two_boxes")
class TwoBoxesJSON(TypedDict):
    """One player on two boxes, each decided seeing both hands (the partner's hand is his own
    second box): the spread of a round of two boxes, which needs the boxes' joint outcomes --
    against the same dealer they are correlated.  Per box the figures are the game seen's."""

    decisions: str
    house_edge_per_box: Exact
    gain_per_box_antes: Exact
    both_boxes_raise_share: Exact
    covariance_of_the_boxes_antes_squared: Exact
    correlation_of_the_boxes: Exact
    variance_per_round_antes_squared: Exact
    std_dev_per_round_antes: Annotated[float, Minimum(0)]


@shape("boxes_figures")
class BoxesFiguresJSON(TwoBoxesJSON):
    """One player on two boxes: the figures of a round of both boxes and of one box beside one box played alone"""

    boxes: Literal[2]
    house_edge_one_box_alone: Exact
    std_dev_per_round_if_independent_antes: Annotated[float, Minimum(0)]
    indifferent_decisions: None
