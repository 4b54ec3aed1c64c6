"""ev-table on a Russian Poker table: without draws every situation's EV(raise) -- the insurance
and the purchases played optimally, a hand of the instant payout at its pay -- is the final-hand
engine's value of that hand (sampled rows, every ninth up card); with draws it is refused in one
line before any counting."""
from fractions import Fraction

import numpy as np
from test_reliability_hostile import refused
from test_russian_final_hand import LUNAR, US, variant

from enumerate.russian.final_hand import final_hand_value
from enumerate.russian.game import situation_values
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

INSTANT = "instant_payout = { royal_flush = 1000, straight_flush = 250 }\n"


def test_each_situation_is_its_final_hands_value(us_counts):
    v = variant(LUNAR.replace("player_wins = 0\n", "player_wins = 0\n" + INSTANT))
    cats = CATEGORY_BY_STRENGTH[us_counts.strength]
    rows = [int(np.flatnonzero(cats == c)[k]) for c, k in ((Category.TRIPS, 7), (Category.HIGH_CARD, -3),
                                                           (Category.ONE_PAIR, 100), (Category.STRAIGHT_FLUSH, 2))]
    num, den, paid = situation_values(us_counts, v, rows=np.array(rows))
    for r in rows:
        hand = tuple(int(c) for c in us_counts.hands[r])
        for col in range(0, 47, 9):
            up = int(us_counts.up[r, col])
            if cats[r] == Category.STRAIGHT_FLUSH:
                assert paid[r, col] and Fraction(int(num[r, col]), den) == 250
                continue
            assert not paid[r, col]
            assert Fraction(int(num[r, col]), den) == final_hand_value(v, hand, up).ev_raised, (hand, up)


def test_a_table_with_draws_is_refused_in_one_line(tmp_path):
    (tmp_path / "lunar.toml").write_text(US + LUNAR + "[buy_card]\nfee = 1\n")
    refused(tmp_path, "ev-table", "lunar.toml", "--out", "x.npz", needle="the EV table of a table with draws")
