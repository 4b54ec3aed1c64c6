"""The bought game by the dealer's rank sets (``_bought.pyx``) against the final hand valued dealer
hand by dealer hand and replacement by replacement (:func:`final_hand_value`, which the literal
brute force of test_russian_final_hand.py holds): sampled final hands of five and six cards, on
full and reduced decks, under every rule set with a bought game."""
import random

import numpy as np
import pytest
from test_russian_final_hand import RULE_SETS, variant

from enumerate.russian.bought import pool_multiple, purchases, rank_sets
from enumerate.russian.final_hand import final_hand_value
from enumerate.russian.settle import RussianSettlement, best_strength
from evaluator.cards import parse_card, parse_cards
from evaluator.errors import StudoddsError

BOUGHT = [k for k, r in enumerate(RULE_SETS) if "[buy_game]" in r]


def _unseen(cards, up, dead) -> int:
    return sum(1 << c for c in range(52) if c not in cards and c not in dead and c != up)


@pytest.mark.parametrize("rules", [BOUGHT[0]] + [pytest.param(k, marks=pytest.mark.slow) for k in BOUGHT[1:]])
def test_rank_sets_equal_every_dealer_hand(rules):
    v = variant(RULE_SETS[rules])
    s = RussianSettlement.of(v)
    rng = random.Random(4800 + rules)
    trials = [(["Ac", "Ad", "Kc", "Kd", "2h"], "7s"), (["Qc", "Qd", "Qh", "Ac", "Kd"], "As")]
    cases = [([parse_card(c) for c in cards], parse_card(up), []) for cards, up in trials]
    for t in range(2 if rules == BOUGHT[0] else 16):      # the quick tier's rule set: fewer hands
        cards = rng.sample(range(52), 5 + t % 2)
        others = [c for c in range(52) if c not in cards]
        rng.shuffle(others)
        cases.append((cards, others[0], others[1:1 + rng.choice([0, 2, 9, 20])]))
    for cards, up, dead in cases:
        slow = final_hand_value(v, cards, up, dead, method="every_hand")
        assert final_hand_value(v, cards, up, dead) == slow, (cards, up, dead)
        fast = purchases(s, v.qualifier.threshold, np.array([best_strength(cards)]), [slow.pay], np.zeros(1, int),
                         np.array([_unseen(cards, up, dead)], dtype=np.uint64), up, count_no_qualify=True)
        assert int(fast.no_qualify[0]) == slow.no_qualify, (cards, up, dead)
        assert int(fast.bought[0]) == slow.bought, (cards, up, dead)
        assert fast.gain(0) == (slow.ev_raise - slow.ev_raise_taking_the_ante) * slow.dealer_sets, (cards, up, dead)


@pytest.mark.parametrize("rules, hand, up", [(0, "9c Th Jh Qs Kc", "9d"), (1, "9c Tc Jc Qc Kh", "2d")],
                         ids=["highest-replaced", "lowest-replaced"])
def test_a_replacement_that_ties_without_its_flush(rules, hand, up):
    """A straight bought against a dealer whose replacement makes the same straight -- a push --
    and, of the suit of his four kept cards, a straight flush -- a loss: A Q J T 9 losing its ace
    for a king (four kept cards of the up card's suit), or 2 9 T J Q its deuce, the up card, for a
    king (four hole cards of spades); the pushes a flush takes away are counted as pushes, not
    wins."""
    v = variant(RULE_SETS[rules])
    s = RussianSettlement.of(v)
    cards, u = [parse_card(c) for c in hand.split()], parse_card(up)
    slow = final_hand_value(v, cards, u, [], method="every_hand")
    fast = purchases(s, v.qualifier.threshold, np.array([best_strength(cards)]), [slow.pay], np.zeros(1, int),
                     np.array([_unseen(cards, u, [])], dtype=np.uint64), u, count_no_qualify=True)
    assert slow.bought > 0 and int(fast.bought[0]) == slow.bought
    assert fast.gain(0) == (slow.ev_raise - slow.ev_raise_taking_the_ante) * slow.dealer_sets


def test_rank_sets_of_the_up_rank():
    """Every set holds the up rank and four others, none qualifying; the removed rank is the top."""
    sets = rank_sets(5, variant(RULE_SETS[0]).qualifier.threshold, True)
    assert all(bin(m).count("1") == 5 and (m >> 5) & 1 and rc == max(r for r in range(13) if (m >> r) & 1)
               for m, rc, _ in sets.tolist())
    assert not any((m >> 12) & 1 and (m >> 11) & 1 for m, _, _ in sets.tolist())      # A-K qualifies
    assert pool_multiple(46, True) % 38 == 0 and pool_multiple(46, False) == 42


def test_hands_of_different_decks_or_no_game_to_buy_are_refused():
    s = RussianSettlement.of(variant(RULE_SETS[0]))
    two = np.array([(1 << 46) - 1, (1 << 45) - 1], dtype=np.uint64)
    with pytest.raises(StudoddsError, match="as many unseen cards"):
        purchases(s, 1113, np.array([100, 200]), [s.hand_pay(parse(["2c", "2d", "5h", "7s", "9c"]))], np.zeros(2, int),
                  two, 51)
    with pytest.raises(StudoddsError, match="buy_game"):
        plain = RussianSettlement.of(variant(""))
        purchases(plain, 1113, np.array([100]), [plain.hand_pay(parse(["2c", "2d", "5h", "7s", "9c"]))],
                  np.zeros(1, int), two[:1], 51)


@pytest.mark.parametrize("rules", [BOUGHT[0]] + [pytest.param(k, marks=pytest.mark.slow) for k in BOUGHT[1:]])
def test_a_batch_equals_its_hands_one_at_a_time(rules):
    """Final hands sharing keys (the same ranks in other suits) valued together: each one's sums
    are its own, as valued alone (the per-key sums and the per-hand suit corrections)."""
    v = variant(RULE_SETS[rules])
    s = RussianSettlement.of(v)
    rng = random.Random(48 + rules)
    up = parse_card("Kd")
    kept = [parse_card(c) for c in ("Qh", "Qs", "9h")]
    pool = [c for c in range(52) if c not in kept and c != up]
    finals = [kept + rng.sample(pool, 2) for _ in range(150)]
    finals += [kept + [parse_card(a), parse_card(b)] for a, b in (("9c", "9d"), ("9c", "9s"), ("2h", "5h"),
                                                                   ("2s", "5h"), ("Ah", "Jh"), ("As", "Jh"))]
    players = np.array([best_strength(f) for f in finals])
    pays = sorted({s.hand_pay(f) for f in finals}, key=lambda h: (h.pay, h.first))
    which = np.array([pays.index(s.hand_pay(f)) for f in finals])
    unseen = np.array([_unseen(f, up, []) for f in finals], dtype=np.uint64)
    together = purchases(s, v.qualifier.threshold, players, pays, which, unseen, up, threads=2, count_no_qualify=True)
    for i in range(len(finals)):
        alone = purchases(s, v.qualifier.threshold, players[i:i + 1], pays, which[i:i + 1], unseen[i:i + 1], up,
                          count_no_qualify=True)
        assert (together.no_qualify[i], together.bought[i], together.gain(i)) == \
            (alone.no_qualify[0], alone.bought[0], alone.gain(0)), finals[i]


def parse(cards):
    return parse_cards(" ".join(cards), len(cards))
