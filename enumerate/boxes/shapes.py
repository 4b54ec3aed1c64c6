"""The JSON shape of a table of two boxes' figures (kept apart from :mod:`enumerate.boxes.game` so that
the analysis's JSON names it without importing the kernel)."""
from __future__ import annotations

from typing import Annotated, Literal

from enumerate.core.shapes import Exact, Minimum, shape
from enumerate.rules.boxes import TwoBoxesJSON


@shape("boxes_figures")
class BoxesFiguresJSON(TwoBoxesJSON):
    """One player on two boxes: the figures of a round of both boxes and of one box beside one box played alone"""

    boxes: Literal[2]
    house_edge_one_box_alone: Exact
    std_dev_per_round_if_independent_antes: Annotated[float, Minimum(0)]
    indifferent_decisions: None
