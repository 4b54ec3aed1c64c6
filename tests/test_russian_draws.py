"""Every draw action of a Russian Poker situation against its final hands valued one by one
(:func:`final_hand_value`, which the literal brute force of test_russian_final_hand.py holds), and,
with options that never change a decision, against the draws' own engine to the last integer."""
from fractions import Fraction

import pytest
from test_russian_final_hand import LUNAR, RULE_SETS, variant

from enumerate.draws.actions import BUY
from enumerate.draws.hand import situation_draws
from enumerate.russian.draws import situation_actions
from enumerate.russian.final_hand import final_hand_value
from enumerate.russian.settle import RussianSettlement
from evaluator.cards import parse_card, parse_hand

DRAWS = "[switch]\nfees = { 1 = 1, 2 = 1, 3 = 1, 4 = 1, 5 = 1 }\n[buy_card]\nfee = 1\n"
HAND, UP = tuple(sorted(parse_hand("Qc Qd 9h Ac Kd"))), parse_card("7s")


def final_hands(v, action: int) -> list:
    """The action's final hands, each valued on its own."""
    unseen = [c for c in range(52) if c not in HAND and c != UP]
    if action == 0:
        finals = [(HAND, ())]
    elif action == BUY:
        finals = [(HAND + (c,), ()) for c in unseen]
    else:
        discard = tuple(c for j, c in enumerate(HAND) if (action >> j) & 1)
        kept = tuple(c for c in HAND if c not in discard)
        finals = [(kept + (c,), discard) for c in unseen]
    return [final_hand_value(v, f, UP, dead, drew=action != 0) for f, dead in finals]


@pytest.mark.parametrize("rules, actions", [(0, [0, 4]), (6, [0, 4])] + [
    pytest.param(k, [0, 1, BUY], marks=pytest.mark.slow) for k in range(len(RULE_SETS))])
def test_actions_equal_their_final_hands_one_by_one(rules, actions):
    v = variant(RULE_SETS[rules] + DRAWS)
    got = situation_actions(v, HAND, UP, actions=actions)
    for a in got.actions:
        action = 0 if a.kind == "keep" else BUY if a.kind == "buy" else sum(1 << HAND.index(c) for c in a.discard)
        finals = final_hands(v, action)
        assert a.ev == sum((f.ev for f in finals), Fraction(0)) / len(finals) - a.fee, a.label
        raised = [f for f in finals if f.raises]                 # what the options chart counts
        assert (a.raised, a.insured, a.short, a.bought) == (
            len(raised), sum(f.insure for f in raised), sum(f.no_qualify for f in raised),
            sum(f.bought for f in raised if f.buys)), a.label
        settle = RussianSettlement.of(v)                          # the insurance staked over the draws
        assert a.staked == sum((settle.insurance_stake(f.pay) for f in raised if f.insure), Fraction(0)), a.label


def test_options_that_change_nothing_leave_the_draws_table():
    """A purchase of the game that never pays (its fee above any win): every action's EV is the
    draws' engine's on the same table without the option, to the last integer."""
    rules = LUNAR.replace("[two_combinations]\n[insurance]\n[buy_game]\nafter = \"hands_compared\"\n",
                          "[buy_game]\nfee = 1000\n")
    assert "[insurance]" not in rules
    russian, draws = variant(rules + DRAWS), variant(rules.replace("[buy_game]\nfee = 1000\n", "") + DRAWS)
    actions = [0, 3, 24, BUY]
    mine = {a.label: a.ev for a in situation_actions(russian, HAND, UP, actions=actions).actions}
    theirs = {a.label: a.ev for a in situation_draws(draws, HAND, UP, actions=actions).actions}
    assert mine == theirs and len(mine) == 4
