"""The JSON of what a table with draws adds to the analysis, declared apart from the draws'
engine (:mod:`enumerate.draws.game`): the analysis's shape names it, and the engine is not
loaded at start-up."""
from __future__ import annotations

from typing import Annotated, NotRequired, TypedDict

from enumerate.core.shapes import Count, Exact, MinProperties, Pattern, PropertyNames, shape


class DrawStrategyRowJSON(TypedDict):
    """One hand group against one up-card rank: its situations and the share of each action."""

    hand_group: str
    up_rank: Annotated[str, Pattern("^[2-9TJQKA]$")]
    situations: Count
    actions: Annotated[dict[str, Exact], MinProperties(1)]
    # a Russian Poker table's options after the draw (enumerate.russian.options; runs that keep them)
    raise_share: NotRequired[Exact]
    insure_share: NotRequired[Exact]
    bought_share_of_no_qualify: NotRequired[Exact]


@shape("draws")
class DrawsJSON(TypedDict):
    """Schema: what a table with draws adds: fees per hand, action shares, the strategy by hand group and up-card rank"""

    fees_per_hand_antes: Exact
    action_shares: dict[str, Exact]
    switched_card_by_position: Annotated[dict[str, Exact], PropertyNames({"pattern": "^[1-5]$"})]
    strategy: list[DrawStrategyRowJSON]
