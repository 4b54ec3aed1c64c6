"""One final hand of Russian Poker against a brute force written for the tests: every dealer hand
and, for a bought game, every replacement card, each evaluated by the reference evaluator and
settled by a literal reading of the rules; each option switched off is the table without it."""
import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from reference import QUALIFIER_KEY, brute_force_counts, parse, poker_keys
from test_combinations import literal_pay

from enumerate.rules.settlement import Settlement
from enumerate.rules.variant_file import load_builtin, parse_variant_text
from enumerate.russian.final_hand import bought_game, final_hand_value
from evaluator.cards import parse_cards
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

#: The US table without its [ante_pays] (each rule set says its own).
US = load_builtin("us-common").text.split("[ante_pays]")[0].replace('name = "us-common"', 'name = "lunar"')
PAYS = (1, 1, 2, 3, 4, 5, 7, 20, 50, 100)
CATEGORY_OF_KEY = [Category.HIGH_CARD, Category.ONE_PAIR, Category.TWO_PAIR, Category.TRIPS, Category.STRAIGHT,
                   Category.FLUSH, Category.FULL_HOUSE, Category.QUADS, Category.STRAIGHT_FLUSH]


def variant(extra: str):
    """The US table with ``extra``: its top-level keys (before its first table) go to the top."""
    head, tables = (extra.split("[", 1) + [""])[:2] if "[" in extra else (extra, "")
    text = US.replace('qualifier = "AK"\n', 'qualifier = "AK"\n' + head) + ("[" + tables if tables else "")
    return parse_variant_text(text, "lunar.toml")


LUNAR = "[ante_pays]\nplayer_wins = 0\n[two_combinations]\n[insurance]\n[buy_game]\nafter = \"hands_compared\"\n"
RULE_SETS = [
    LUNAR,
    "[two_combinations]\nstraight_with_pair = \"straight_and_pair\"\n[insurance]\nlimit = \"the_payout\"\n"
    "dealer_qualifies = \"returned_unless_player_wins\"\n[buy_game]\nreplaces = \"lowest\"\nsame_rank = \"kept\"\n",
    "[ante_pays]\nplayer_wins = 0\n[buy_game]\nfee = \"1/2\"\nafter = \"qualifier_applies\"\n",
    "raise_antes = 1\n[insurance]\nneeds = \"full_house\"\n[buy_game]\nfee = 2\nafter = \"hands_compared\"\n",
    "[ante_pays]\nplayer_wins = 0\ndealer_does_not_qualify_with = { straight = 4, full_house = 6 }\n"
    "[two_combinations]\n[buy_game]\nafter = \"qualifier_applies\"\n",
    # an insured box barred from buying the game: insure or buy, the better
    "[ante_pays]\nplayer_wins = 0\n[two_combinations]\n[insurance]\n[buy_game]\ninsured = \"may_not_buy\"\n",
    # the ante paid on a win unless the game was bought (no draw here): a purchase's win returns it
    "[ante_pays]\nplayer_wins_unless = \"drew_or_bought\"\n[two_combinations]\n[insurance]\n[buy_game]\n",
]
#: Final hands whose insurance and purchases both pay (cards, up card, the 29 cards out of play):
#: when an insured box may not buy, the first insures (the insurance worth more) and the second buys.
TORN = [("Ac Ad Ah 7c 2d", "4d", "9h Kd 5c 7s Kh Js 2h 2c As 9c Th Qc 5d 6h Qh Kc Tc Ts 5s 4s Qs 6d 4h 6s 2s 4c 8h 8c 3h"),
        ("Ac Ad Ah 7c 2d", "7d", "9c Ts 3h 2h 9s 5s 8c Qh 6c Td Tc Qc Qd 7s 2s Kd Th Jd 5d 7h 2c 9h 5c Kc Jc 4s As 5h 4d")]
#: The rule sets the quick tier checks (the others are slow): the first, the ante paid unless the
#: game was bought, and the insured box barred from buying.
QUICK = (0, 5, 6)


def key(cards) -> int:
    return int(poker_keys(np.array([list(cards)]))[0])


def best_key(cards) -> int:
    return max(key(five) for five in itertools.combinations(cards, 5))


def literal_category(k: int) -> Category:
    """The category of a reference key (a straight flush to the ace is the royal flush)."""
    cat = CATEGORY_OF_KEY[k // 13 ** 5]
    return Category.ROYAL_FLUSH if cat == Category.STRAIGHT_FLUSH and (k // 13 ** 4) % 13 == 12 else cat


def literal_value(v, cards, up, dead, drew=False):
    """EV(raise) with the purchase decided per dealer hand, EV(insurance), the bet's pay, how
    the purchases end (won, pushed, lost, short: shares of the replacements, summed over the
    dealer hands bought) and EV(raise) taking the ante's pay against every dealer short of
    qualifying (what an insured box that may not buy gets): every dealer hand, every
    replacement, read from the rules' text."""
    r, a_w = v.raise_antes, v.ante_win
    two = v.two_combinations
    player = best_key(cards)
    # the ante's pay with a dealer short of a qualifier: the best listed category at or below the hand's
    listed = [pay for c, pay in v.ante_no_qualify_with.items() if c <= literal_category(player)]
    a_nq = listed[-1] if listed else v.ante_no_qualify
    pay = Fraction(literal_pay(cards, PAYS, two) if two is not None else PAYS[literal_category(player)])
    rest = [c for c in range(52) if c not in cards and c not in dead and c != up]

    def settle(dealer_key, bought=False):
        if dealer_key < player:       # the ante's pay on a win, unless it is paid only without a draw or a purchase
            return (0 if (drew or bought) and v.ante_win_unless == "drew_or_bought" else a_w) + r * pay
        return Fraction(0) if dealer_key == player else Fraction(-1 - r)

    first = literal_category(player)
    ins = v.insurance
    stake = Fraction(0)
    if ins is not None and (first >= ins.needs):
        stake = (Fraction(1, 2) if ins.limit == "half_the_payout" else 1) * r * pay
    holes = list(itertools.combinations(rest, 4))
    dealers = [hole + (up,) for hole in holes]
    dealer_keys = poker_keys(np.array(dealers)).tolist()
    b = v.buy_game
    bought = {}                  # dealer hand -> the hands a purchase may give
    for dealer, dk in zip(dealers, dealer_keys):
        if dk < QUALIFIER_KEY and b is not None:
            ranks = [c // 4 for c in dealer]
            out = dealer[ranks.index(max(ranks) if b.replaces == "highest" else min(ranks))]
            bought[dealer] = [[c for c in dealer if c != out] + [new] for new in rest
                              if new not in dealer and not (b.same_rank == "replaced_again" and new // 4 == out // 4)]
    flat = [h for hands in bought.values() for h in hands]
    flat_keys = iter(poker_keys(np.array(flat)).tolist()) if flat else iter(())
    total, insured, taking = Fraction(0), Fraction(0), Fraction(0)
    ends = {name: Fraction(0) for name in ("win", "push", "lose", "short")}
    for dealer, dk in zip(dealers, dealer_keys):
        if dk >= QUALIFIER_KEY:
            total += settle(dk)
            taking += settle(dk)
            insured += -stake if ins is None or ins.dealer_qualifies == "lost" or dk < player else 0
            continue
        insured += stake
        taking += a_nq
        if b is None:
            total += a_nq
            continue
        values, how = [], []
        for _ in bought[dealer]:
            nk = next(flat_keys)
            short = b.after == "qualifier_applies" and nk < QUALIFIER_KEY
            values.append(a_nq if short else settle(nk, bought=True))
            how.append("short" if short else "win" if nk < player else "push" if nk == player else "lose")
        buy = sum(values, Fraction(0)) / len(values) - b.fee
        total += max(a_nq, buy)
        if buy > a_nq:
            for name in ends:
                ends[name] += Fraction(how.count(name), len(how))
    n = len(dealers)
    return total / n, insured / n, pay, tuple(ends.values()), taking / n


def literal_raise(v, ev, insurance, taking):
    """What raising is worth and whether the player insures, read from the rules: the insurance
    when it pays beside the purchases, or -- when an insured box may not buy the game -- the
    better of insuring (taking the ante's pay against every dealer short of qualifying) and
    buying where that pays, insured only when strictly better."""
    if v.buy_game is not None and v.buy_game.insured == "may_not_buy":
        insure = taking + insurance > ev
        return (taking + insurance if insure else ev), insure
    return ev + max(Fraction(0), insurance), insurance > 0


@pytest.mark.parametrize("rules", [k if k in QUICK else pytest.param(k, marks=pytest.mark.slow)
                                   for k in range(len(RULE_SETS))])
def test_final_hands_against_the_literal_reading(rules):
    """Sampled final hands of five and six cards on a reduced deck (the dead cards out of play),
    strong hands among them so that the game is bought and the hand insured."""
    v = variant(RULE_SETS[rules])
    rng = random.Random(480 + rules)
    hands = [parse("Ac Ad Kc Kd 2h"), parse("Qc Qd Qh Ac Kd"), parse("2c 2d 9h Ac Kd"), parse("9h 8h 7h 6h 2h Tc")]
    quick = rules in QUICK                            # the quick tier's rule sets: a smaller deck, no sampled hands
    for k in range(0 if quick else 6):
        hands.append(rng.sample(range(52), 5 + k % 2))
    situations = []
    for cards in hands:
        others = [c for c in range(52) if c not in cards]
        rng.shuffle(others)
        situations.append((cards, others[0], others[1:30 if quick else 24]))
    situations += [(parse(c), parse(u)[0], parse(d)) for c, u, d in TORN]
    torn = 0                                          # hands the insurance and the purchases both pay for
    for cards, up, dead in situations:
        got = final_hand_value(v, cards, up, dead, method="every_hand")
        ev, insurance, pay, ends, taking = literal_value(v, tuple(cards), up, dead)
        assert got.pay.pay == pay, cards
        assert got.purchases_end == ends, cards
        assert got.ev_raise == ev, cards
        assert got.ev_insurance == insurance, cards
        assert got.ev_raise_taking_the_ante == taking, cards
        assert (got.ev_raised, got.insure) == literal_raise(v, ev, insurance, taking), cards
        assert got.buys == (not (got.insure and v.buy_game is not None and v.buy_game.insured == "may_not_buy"))
        if v.ante_win_unless is not None:             # the same final hand reached by a draw: no ante's pay on a win
            drawn = final_hand_value(v, cards, up, dead, method="every_hand", drew=True)
            assert drawn.ev_raise == literal_value(v, tuple(cards), up, dead, drew=True)[0] < ev, cards
        barred = v.buy_game is not None and v.buy_game.insured == "may_not_buy"
        if barred and insurance > 0 and ev > taking:
            torn += 1
            first = (cards, up, dead) == situations[-2]
            assert (got.insure, got.buys) == ((True, False) if first else (False, True)), cards
    if v.buy_game is not None and v.buy_game.insured == "may_not_buy":
        assert torn == 2, "the insured box's purchase matters on the two hands chosen for it, and only there"


def test_the_options_off_are_the_plain_game():
    """Without an option the raise is the plain game's, to the last integer (full deck)."""
    plain = variant("")
    s = Settlement.of(plain)
    for text in ("Ac Ad Kc Kd 2h", "As Qd 9h 7c 3d", "Kh Qh Jh Th 9h"):
        cards, up = parse(text), parse("7s")[0]
        nq, win, tie, lose = brute_force_counts(cards, up)
        got = final_hand_value(plain, cards, up)
        cat = literal_category(best_key(cards))
        assert got.ev_raise == s.ev_raise(cat, nq, win, tie, 163_185)
        assert (got.no_qualify, got.win, got.tie, got.lose) == (nq, win, tie, lose)
        assert got.bought == 0 and got.ev_insurance == 0


def test_buying_is_never_taken_when_the_ante_is_worth_more():
    v = variant(LUNAR)
    weak = final_hand_value(v, parse("As Qd 9h 7c 3d"), parse("7s")[0])
    assert weak.bought == 0 and weak.ev_raise == weak.ev_raise_taking_the_ante
    strong = final_hand_value(v, parse("Ac Ad Ah As Kc"), parse("7s")[0])
    assert strong.bought == strong.no_qualify and strong.ev_raise > strong.ev_raise_taking_the_ante


def test_one_bought_game():
    v = variant(LUNAR)
    quads = parse("Ac Ad Ah As Kc")
    b = bought_game(v, quads, parse("7s")[0], parse_cards("Qh 9d 5c 3h", 4))
    assert (b.draws, b.win, b.tie, b.lose) == (39, 39, 0, 0)          # the three other queens redrawn
    assert b.buy and b.ev_buy == -1 + 2 * 21 and b.ev_ante == 1
    rows = final_hand_value(v, quads, parse("7s")[0])
    assert rows.bought == rows.no_qualify


@pytest.mark.parametrize("hole,why", [("Qh Qd 5c 3h", "qualifies"), ("Qh 9d 5c", "four cards"),
                                      ("As 9d 5c 3h", "distinct")])
def test_a_bought_game_refuses_what_is_not_one(hole, why):
    v = variant(LUNAR)
    with pytest.raises(StudoddsError, match=why):
        bought_game(v, parse("Kc Kd Ah As 2c"), parse("7s")[0], parse(hole))


def test_a_table_without_the_option_has_no_game_to_buy():
    with pytest.raises(StudoddsError, match="buy_game"):
        bought_game(variant(""), parse("Kc Kd Ah As 2c"), parse("7s")[0], parse("Qh 9d 5c 3h"))


def test_the_bought_game_needs_a_dealer_short_of_a_pair():
    text = US.replace('qualifier = "AK"', 'qualifier = "44"') + LUNAR
    with pytest.raises(StudoddsError, match="qualifies with a pair or less"):
        final_hand_value(parse_variant_text(text, "x.toml"), parse("Kc Kd Ah As 2c"), parse("7s")[0])
