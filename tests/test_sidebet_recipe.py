"""The recipe "add a side-bet kind" of docs/architecture.md, followed in a test module: a kind
registered in the rules (KINDS) with the hand its paytable reads (HAND_OF_KIND) is read from a
variant file, analysed exactly, and refused by the simulator in one line."""
from __future__ import annotations

import pytest

import studodds
from enumerate.rules import sidebets as rules
from enumerate.rules.variant_file import load_builtin, parse_variant_text
from enumerate.sidebets import analysis
from evaluator.errors import StudoddsError

BONUS = load_builtin("palms-managua").text
BONUS = BONUS[:BONUS.index("[side_bets.power_play]")].replace('name = "palms-managua"', 'name = "copy"')
# the same bet again, of the new kind
COPY = BONUS + "\n" + BONUS[BONUS.index("[side_bets.bonus]"):].replace("side_bets.bonus", "side_bets.mirror").replace(
    'kind = "player_hand"', 'kind = "mirror_hand"')


@pytest.fixture
def mirror_kind(monkeypatch):
    """Step 1: the kind in the rules; step 2: the hand its paytable reads (the player's own, so
    its figures must equal the player_hand bet's, counted over situations instead of hands)."""
    monkeypatch.setitem(rules.KINDS, "mirror_hand", rules.SideBetKind("mirror_hand", "on the player's five cards, again"))
    monkeypatch.setitem(analysis.HAND_OF_KIND, "mirror_hand", analysis.player_hand)


def test_an_unregistered_kind_is_refused_by_the_variant_file():
    with pytest.raises(StudoddsError, match="kind: must be one of player_hand, player_and_up, dealer_beaten"):
        parse_variant_text(COPY, "copy.toml")


def test_a_kind_added_in_a_test_module_works_in_analyze(mirror_kind):
    v = parse_variant_text(COPY, "copy.toml")
    a = studodds.analyze(v)
    bonus, mirror = a.side_bets.bets
    assert mirror.bet.kind == "mirror_hand" and bonus.space == "hands" and mirror.space == "situations"
    assert mirror.house_edge == bonus.house_edge and mirror.variance == bonus.variance
    assert a.to_dict()["side_bets"]["bets"][1]["settles"] == "on the player's five cards, again"


def test_the_simulator_refuses_a_kind_it_does_not_play_in_one_line(mirror_kind):
    v = parse_variant_text(COPY, "copy.toml")
    with pytest.raises(StudoddsError) as err:
        studodds.simulate(v, games=1000)
    assert str(err.value) == ("variant 'copy': the simulator does not play side bets of kind 'mirror_hand' "
                              "(side bet 'mirror'); it plays player_hand, player_and_up, dealer_beaten")
