"""The JSON shape of the two boxes' figures (kept apart from :mod:`enumerate.protection.seen_hand`
so that a shape built on it is named without importing the kernels)."""
from __future__ import annotations

from typing import Annotated, TypedDict

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
