"""The JSON of what a Russian Poker table adds to the analysis, declared apart from its engine
(:mod:`enumerate.russian.game`): the analysis's shape names it, and the kernels are not loaded
at start-up."""
from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from enumerate.core.shapes import Count, Exact, MaxItems, Minimum, MinItems, Pattern, shape


class RussianStrategyRowJSON(TypedDict):
    """One hand category against one up-card rank: its situations and how often each option is taken."""

    hand_group: str
    up_rank: Annotated[str, Pattern("^[2-9TJQKA]$")]
    situations: Count
    raise_share: Exact
    insure_share: Exact
    indifferent_situations: Count
    bought_share_of_no_qualify: Exact


class OptionWorthJSON(TypedDict):
    """The same table without one option (or every one): its figures, and what the option is worth."""

    option: Literal["two_combinations", "insurance", "buy_game", "ante_no_qualify_with", "all"]
    without: str
    house_edge_per_ante: Exact
    element_of_risk_per_total_wager: Exact
    lowers_the_house_edge_by: Exact


class ReturnRowMeaningJSON(TypedDict):
    """What a return-table row is: its event, whether the hand is insured, and the combinations
    of a hand of the row (their pays give its net result; one hand stands for the row when it
    merges hands of the same net)."""

    outcome: Annotated[str, Pattern("^[a-z][a-z0-9_]*$")]
    event: Literal["player_wins", "bought_won", "dealer_does_not_qualify", "bought_short", "push", "bought_push",
                   "dealer_wins", "bought_lost", "fold", "instant_payout"]
    combinations: Annotated[list[str], MinItems(1), MaxItems(2)]
    insured: bool


@shape("russian")
class RussianFiguresJSON(TypedDict):
    """Schema: what a Russian Poker table adds: option shares, fees and stakes per hand, the strategy chart, each option's worth"""

    raise_share: Exact
    insure_share: Exact
    insured_share_of_raised: Exact
    bought_share_of_no_qualify: Exact
    fees_per_hand_antes: Exact
    insurance_per_hand_antes: Exact
    combinations_per_dealer_hand: Annotated[int, Minimum(1)]
    strategy: list[RussianStrategyRowJSON]
    option_worth: list[OptionWorthJSON]
    return_table_rows: list[ReturnRowMeaningJSON]
