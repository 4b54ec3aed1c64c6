"""The simple draw strategies of a Russian table (enumerate/russian/draw_strategies.py) decide, for
all rows at once, what the rules in their text say hand by hand: held here against the same rules
written plainly, one hand at a time, on every category of dealt hand and random hands; and
`studodds hand` names each strategy's action in a situation with its exact cost."""
import json
import random
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from cli_runner import run_cli
from test_russian_final_hand import LUNAR, US

from enumerate.draws.actions import BUY
from enumerate.russian.draw_strategies import STRATEGIES, rules_of_thumb

REPO = Path(__file__).resolve().parents[1]
STRAIGHTS = [{12, 0, 1, 2, 3}] + [set(range(low, low + 5)) for low in range(9)]


def _by_hand(cards: tuple[int, ...], ru: int) -> int:
    """The rules of thumb for one hand (cards sorted), plainly."""
    ranks = [c >> 2 for c in cards]
    suits = [c & 3 for c in cards]
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    flush = len(set(suits)) == 1
    straight = set(ranks) in STRAIGHTS
    four_flush = max(suits.count(s) for s in range(4)) == 4
    runs = [{12, 0, 1, 2}] + [set(range(low, low + 4)) for low in range(10)]
    inside = not straight and any(len(set(ranks) & w) == 4 for w in STRAIGHTS)
    four_straight = inside if counts[0] == 2 else not straight and any(w <= set(ranks) for w in runs)
    odd = sum(1 << i for i, r in enumerate(ranks) if ranks.count(r) == 1)
    if counts[0] == 4:
        return 0
    if flush or straight or counts[:2] == [3, 2]:
        return BUY
    if counts[0] == 3:
        return odd
    if counts[:2] == [2, 2]:
        return 0
    if four_flush or four_straight:
        return BUY
    if counts[0] == 2:
        pair = next(r for r in ranks if ranks.count(r) == 2)
        return 0 if pair >= ru else odd
    if {11, 12} <= set(ranks):
        return 0b00111
    return 0b01111 if max(ranks) >= ru + 2 or max(ranks) == 12 > ru else 0


HANDS = {"royal": (32, 36, 40, 44, 48), "straight flush": (0, 4, 8, 12, 48), "four": (0, 1, 2, 3, 20),
         "full": (0, 1, 2, 20, 21), "flush": (1, 9, 21, 33, 45), "straight": (1, 6, 11, 12, 48),
         "wheel": (0, 5, 10, 15, 49), "trips": (20, 21, 22, 30, 44), "two pairs": (4, 5, 40, 41, 50),
         "pair, four to a flush": (8, 9, 17, 29, 41), "pair, four to a straight": (16, 17, 20, 24, 29),
         "pair": (12, 13, 26, 35, 50), "four to a flush": (2, 10, 26, 34, 49),
         "four to an inside straight": (0, 5, 10, 18, 44), "ace-low four": (1, 6, 10, 30, 48), "nothing": (1, 10, 19, 30, 44),
         "ace-king": (2, 13, 26, 46, 49), "open four": (17, 22, 26, 30, 45),
         "pair, inside straight": (0, 4, 9, 13, 21)}


@pytest.mark.parametrize("name", list(HANDS))
def test_each_category_of_dealt_hand(name):
    cards = tuple(sorted(HANDS[name]))
    for ru in range(13):
        got = int(rules_of_thumb(np.array([cards], dtype=np.uint8), ru)[0])
        assert got == _by_hand(cards, ru), (name, ru)


def test_random_hands_against_the_plain_rules():
    rng = random.Random(66)
    hands = [tuple(sorted(rng.sample(range(52), 5))) for _ in range(3000)]
    for ru in (0, 5, 12):
        got = rules_of_thumb(np.array(hands, dtype=np.uint8), ru).tolist()
        assert got == [_by_hand(h, ru) for h in hands]


def test_the_actions_are_every_kind_and_stand_pat_never_draws():
    every = np.array(list(combinations(range(0, 52, 3), 5)), dtype=np.uint8)
    got = set(rules_of_thumb(every, 6).tolist())
    assert {0, BUY, 0b01111} <= got and any(bin(a).count("1") == 3 for a in got)
    assert not STRATEGIES["stand-pat"](every, 6).any()


def test_a_hand_shows_what_each_draw_strategy_the_table_offers_takes(tmp_path):
    """`studodds hand` on a table with draws names each strategy's action, its EV and what it gives
    up to the best (in the JSON, exactly: the best's EV less its own); a strategy the table does
    not offer every action of is left out (a sixth card only: standing pat alone)."""
    r = run_cli("hand", "As Kd 9h 7c 3d", "--up", "5h", "docs/variants/lunar-house.toml", "--json", cwd=REPO)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    jsonschema.Draft202012Validator(json.loads((REPO / "studodds" / "schema.json").read_text())).validate(d)
    s = d["situations"][0]
    taken = s["draw_strategies"]
    assert set(taken) == set(STRATEGIES) and taken["rules-of-thumb"]["action"] == "switch 9h 7c 3d"
    ev = {a["label"]: Fraction(a["ev_antes"]["exact"]) for a in s["actions"]}
    for name, t in taken.items():
        assert Fraction(t["ev_antes"]["exact"]) == ev[t["action"]]
        assert Fraction(t["cost_antes"]["exact"]) == Fraction(s["best_ev_antes"]["exact"]) - ev[t["action"]] >= 0, name
    text = run_cli("hand", "As Kd 9h 7c 3d", "--up", "5h", "docs/variants/lunar-house.toml", cwd=REPO).stdout
    assert "draw strategy rules-of-thumb: switch 9h 7c 3d" in text and "draw strategy stand-pat: keep, EV -1.000000" in text
    (tmp_path / "six.toml").write_text(US.replace('name = "lunar"', 'name = "six"') + LUNAR + "[buy_card]\nfee = 1\n")
    six = json.loads(run_cli("hand", "As Kd 9h 7c 3d", "--up", "5h", "six.toml", "--json", cwd=tmp_path).stdout)
    assert set(six["situations"][0]["draw_strategies"]) == {"stand-pat"}
