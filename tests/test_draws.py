"""Switching cards and buying a sixth card: the rules, and every action of a situation against
brute force over every draw and every dealer completion with the independent evaluator."""
import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from reference import QUALIFIER_KEY, parse, poker_keys

from enumerate.draws.hand import BUY, allowed_actions, draw_outcomes, situation_draws, unseen_cards
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant_file import load_builtin, parse_variant_text, resolve
from evaluator.errors import StudoddsError

REPO = Path(__file__).resolve().parents[1]

US = load_builtin("us-common").variant
ONE = load_builtin("oasis-one-card").variant
SIX = load_builtin("sixth-card").variant
GALEWIND = resolve("docs/variants/oasis-galewind.toml").variant


def _pay(variant, key: int) -> Fraction:
    """Raise pay of a hand from its reference key (a royal flush is a straight flush to an ace)."""
    from evaluator.ranking import Category
    cat = key // 13**5
    if cat == 8 and (key // 13**4) % 13 == 12:
        return variant.pay(Category.ROYAL_FLUSH)
    return variant.pay(Category(cat))


def _ev_raise(variant, pkey: int, dealer: np.ndarray) -> Fraction:
    """EV(raise) in antes by settling every dealer hand (keys) against the player's key."""
    qualifies = dealer >= QUALIFIER_KEY
    nq = int((~qualifies).sum())
    win = int((qualifies & (dealer < pkey)).sum())
    lose = int((qualifies & (dealer > pkey)).sum())
    r = variant.raise_antes
    total = nq * variant.ante_no_qualify + win * (variant.ante_win + r * _pay(variant, pkey)) - (1 + r) * lose
    return Fraction(total) / len(dealer)


class Brute:
    """A situation's dealer hands over the unseen cards, evaluated once by the reference
    evaluator; a draw's live dealer hands are those holding none of the drawn cards."""

    def __init__(self, cards, up, unseen):
        self.cards, self.up = sorted(cards), up
        self.unseen = np.array(unseen, dtype=np.int64)
        holes = np.array(list(itertools.combinations(range(len(unseen)), 4)), dtype=np.int64)
        self.keys = poker_keys(np.concatenate([self.unseen[holes], np.full((len(holes), 1), up)], axis=1))
        self.masks = (np.int64(1) << holes).sum(axis=1)

    def action_ev(self, variant, action, forced=False) -> Fraction:
        k = 1 if action == BUY else bin(action).count("1")
        kept = [c for j, c in enumerate(self.cards) if not (action >> j) & 1] if action != BUY else self.cards
        total = Fraction(0)
        draws = list(itertools.combinations(range(len(self.unseen)), k))
        for a in draws:
            new = [int(self.unseen[x]) for x in a]
            if action == BUY:
                pkey = max(int(poker_keys(np.array([list(h)]))[0]) for h in itertools.combinations(kept + new, 5))
            else:
                pkey = int(poker_keys(np.array([kept + new]))[0])
            live = (self.masks & sum(1 << x for x in a)) == 0
            ev = _ev_raise(variant, pkey, self.keys[live])
            total += ev if forced else max(ev, Fraction(-1))
        fee = variant.draws.buy_fee if action == BUY else variant.draws.fee(k)
        return total / len(draws) - fee

    def outcomes(self, variant, action, forced=False) -> np.ndarray:
        """(10, 8) the draws' outcomes by final category, counted one dealer hand at a time
        (columns: draws raised; their dealer hands not qualifying, beaten, tied, beating the
        player; dealer hands of folded draws; folded draws worth raising as much; dealer hands of
        folded draws not qualifying)."""
        k = 1 if action == BUY else bin(action).count("1")
        kept = [c for j, c in enumerate(self.cards) if not (action >> j) & 1] if action != BUY else self.cards
        out = np.zeros((10, 8), dtype=np.int64)
        for a in itertools.combinations(range(len(self.unseen)), k):
            new = [int(self.unseen[x]) for x in a]
            hands = [list(h) for h in itertools.combinations(kept + new, 5)] if action == BUY else [kept + new]
            pkey = max(int(x) for x in poker_keys(np.array(hands)))
            cat = pkey // 13**5 + (1 if pkey // 13**5 == 8 and (pkey // 13**4) % 13 == 12 else 0)
            dealer = self.keys[(self.masks & sum(1 << x for x in a)) == 0]
            qualifies = dealer >= QUALIFIER_KEY
            ev = _ev_raise(variant, pkey, dealer)
            row = out[cat]
            if forced or ev > -1:
                row[:5] += (1, (~qualifies).sum(), (qualifies & (dealer < pkey)).sum(),
                            (qualifies & (dealer == pkey)).sum(), (qualifies & (dealer > pkey)).sum())
            else:
                row[5] += len(dealer)
                row[6] += ev == -1
                row[7] += (~qualifies).sum()
        return out


def _unseen(cards, up, deck=range(52)):
    return [c for c in deck if c not in cards and c != up]


@pytest.mark.parametrize("hand,up", [("As Kd Jh 8c 3s", "7d"),
                                     pytest.param("Qh Qd 9c 5s 2c", "Ah", marks=pytest.mark.slow),
                                     pytest.param("Th 9h 8h 7h 2c", "Kc", marks=pytest.mark.slow)])
def test_one_card_switches_and_the_sixth_card_match_brute_force(hand, up):
    variant = parse_variant_text(ONE_AND_BUY, "both.toml")
    cards, u = parse(hand), parse(up)[0]
    brute = Brute(cards, u, _unseen(cards, u))
    one_card = [0, 1, 2, 4, 8, 16, BUY]
    got = {(a.kind, a.discard): a.ev for a in situation_draws(variant, tuple(cards), u, actions=one_card).actions}
    assert len(got) == 7
    for action in one_card:
        kind = "keep" if action == 0 else "buy" if action == BUY else "switch"
        discard = () if kind != "switch" else tuple(c for j, c in enumerate(sorted(cards)) if (action >> j) & 1)
        assert got[(kind, discard)] == brute.action_ev(variant, action), (kind, discard)


ONE_AND_BUY = """
name = "both"
qualifier = "AK"
[raise_pays]
royal_flush = 100
straight_flush = 50
four_of_a_kind = 20
full_house = 7
flush = 5
straight = 4
three_of_a_kind = 3
two_pairs = 2
one_pair = 1
high_card = 1
[switch]
fees = { 1 = 1, 2 = "3/2" }
[buy_card]
fee = "1/2"
"""


#: Every switch set of 1 to 5 cards (Galewind's fees), the five-card switch forced to raise, and buying.
EVERY_SWITCH = ONE_AND_BUY.replace('fees = { 1 = 1, 2 = "3/2" }', 'fees = { 1 = 1, 2 = 2, 3 = 3, 4 = 2, 5 = 1 }\n'
                                                               'all_five_must_raise = true')


@pytest.mark.slow
def test_two_card_switches_match_brute_force():
    cards, u = parse("Ah Kh 8c 4d 2s"), parse("9c")[0]
    brute = Brute(cards, u, _unseen(cards, u))
    variant = parse_variant_text(ONE_AND_BUY, "both.toml")
    got = situation_draws(variant, tuple(cards), u, actions=[m for m in range(32) if bin(m).count("1") == 2])
    for a in got.actions:
        mask = sum(1 << sorted(cards).index(c) for c in a.discard)
        assert a.ev == brute.action_ev(variant, mask), a.label


@pytest.mark.debug_sample
def test_the_outcomes_of_every_action_match_brute_force():
    """The outcome counts each action adds up (what a whole game's return table is made of) on a
    16-card deck, every switch set of 1 to 5 cards and the sixth card, the five-card switch
    forced to raise, against counting every draw's dealer hands one by one."""
    cards, u = parse("Ah Kh Jh Tc Qd"), parse("Js")[0]
    unseen = _unseen(cards, u, [c for c in range(52) if c // 4 >= 9])
    brute = Brute(cards, u, unseen)
    variant = parse_variant_text(EVERY_SWITCH, "reduced.toml")
    got = situation_draws(variant, tuple(cards), u, unseen=np.array(unseen), threads=2)
    assert len(got.actions) == 33
    folded = indifferent = 0
    for a in got.actions:
        mask = BUY if a.kind == "buy" else sum(1 << sorted(cards).index(c) for c in a.discard)
        want = brute.outcomes(variant, mask, forced=a.forced_raise)
        assert np.array_equal(a.outcomes, want), a.label
        assert a.outcomes[:, 0].sum() == a.raised_draws and a.outcomes[:, 5].sum() == (
            a.draws - a.raised_draws) * a.completions
        folded += int(a.outcomes[:, 5].sum())
        indifferent += int(a.outcomes[:, 6].sum())
    assert folded and got.actions[0].outcomes[:, 0].sum()       # both decisions occur


@pytest.mark.slow
def test_every_option_on_a_reduced_deck_matches_brute_force():
    """Ranks 9 to ace (24 cards): 18 unseen cards, every switch set of 1 to 5 cards and the
    sixth card, each draw against every dealer completion; all five forced to raise."""
    deck = [c for c in range(52) if c // 4 >= 7]
    cards, u = parse("Ah Kh Th 9c Qd"), parse("Js")[0]
    unseen = _unseen(cards, u, deck)
    brute = Brute(cards, u, unseen)
    variant = parse_variant_text(EVERY_SWITCH, "reduced.toml")
    got = situation_draws(variant, tuple(cards), u, unseen=np.array(unseen))
    assert len(got.actions) == 33
    for a in got.actions:
        mask = BUY if a.kind == "buy" else sum(1 << sorted(cards).index(c) for c in a.discard)
        assert a.ev == brute.action_ev(variant, mask, forced=mask == 31), a.label
        assert a.draws == math.comb(18, 1 if mask == BUY else bin(mask).count("1")) == sum(a.finals)


def test_sampled_draws_of_every_size_count_like_brute_force():
    cards, u = parse("Js Jd 7c 6h 2d"), parse("Qs")[0]
    unseen = unseen_cards(tuple(sorted(cards)), u)
    brute = Brute(cards, u, unseen)
    rng = np.random.default_rng(23)
    for action in [3, 7, 15, 31, 21]:
        k = bin(action).count("1")
        draws = np.sort(rng.choice(math.comb(46, k), size=25, replace=False))
        out = draw_outcomes(tuple(cards), u, US.qualifier.threshold, action, draws)
        for t, row in zip(draws, out):
            a = _unrank(int(t), k)
            kept = [c for j, c in enumerate(sorted(cards)) if not (action >> j) & 1]
            pkey = int(poker_keys(np.array([kept + [int(unseen[x]) for x in a]]))[0])
            d = brute.keys[(brute.masks & sum(1 << x for x in a)) == 0]
            q = d >= QUALIFIER_KEY
            assert tuple(row[1:]) == (int((~q).sum()), int((q & (d < pkey)).sum()), int((q & (d == pkey)).sum()))


def _unrank(t, k):
    out, n = [], 45
    for i in range(k, 0, -1):
        while math.comb(n, i) > t:
            n -= 1
        out.append(n)
        t -= math.comb(n, i)
        n -= 1
    return tuple(sorted(out))


def test_keeping_is_the_plain_game():
    from studodds import api
    plain = api.hand("As Kd Jh 8c 3s", up="7d")
    draws = api.hand("As Kd Jh 8c 3s", up="7d", variant="oasis-one-card")
    keep = next(a for a in draws.rows[0].actions if a.kind == "keep")
    assert keep.ev == plain.rows[0].best and keep.completions == 163185


def test_a_fee_row_names_its_action_in_one_place():
    """Each kind's fee row id is read back as that kind, in the one-card game too, and every fee
    row of a committed table is one of those ids (the report's fee inputs are found by them)."""
    from enumerate.draws.actions import BUY_KIND, KINDS, fee_kind, fee_outcome

    for kind in range(1, len(KINDS)):
        assert fee_kind(fee_outcome(kind)) == kind
    assert fee_kind(fee_outcome(1, one_card_game=True)) == 1
    assert fee_kind(fee_outcome(BUY_KIND, one_card_game=True)) == BUY_KIND
    for bad in ("fee_switch_1_cards", "fee_switch_2_card", "fee_switch_6_cards", "fee_buy_card", "fee_", "won"):
        assert fee_kind(bad) is None, bad
    seen = 0
    for summary in sorted((Path(__file__).resolve().parents[1] / "results").glob("*/summary.json")):
        for row in json.loads(summary.read_text())["analysis"].get("return_table", ()):
            if row["outcome"].startswith("fee_"):
                assert fee_kind(row["outcome"]) is not None, (summary.parent.name, row["outcome"])
                seen += 1
    assert seen >= 4


def test_rules_in_the_variant_file():
    assert ONE.draws.switch.fees == {1: 1} and ONE.draws.buy_fee is None
    assert SIX.draws.buy_fee == 1 and SIX.draws.switch is None
    assert GALEWIND.draws.switch.all_five_must_raise and dict(GALEWIND.draws.switch.fees) == {1: 1, 2: 2, 3: 3, 4: 2, 5: 1}
    assert ONE.base_game().draws is None and ONE.base_game().raise_pays == ONE.raise_pays
    assert ONE.to_dict()["switch"]["fees_antes"]["1"]["exact"] == "1"
    assert allowed_actions(ONE) == [0, 1, 2, 4, 8, 16]
    assert len(allowed_actions(GALEWIND)) == 32 and allowed_actions(SIX) == [0, BUY]
    for text, message in [
        ("[switch]\nfees = { 6 = 1 }", "switch.fees: '6': a number of cards written 1, 2, 3, 4 or 5"),
        ("[switch]\nfees = { 1 = -1 }", "switch.fees.1"),
        ("[switch]\nfees = {}", "switch.fees: missing"),
        ("[switch]\nfees = { 1 = 1 }\nall_five_must_raise = true", "needs a fee for switching 5 cards"),
        ("[switch]\nfees = { 1 = 1 }\nall_five = true", "unknown key"),
        ("[buy_card]\nprice = 1", "unknown key"),
        ("[buy_card]\n", "buy_card.fee: missing"),
    ]:
        with pytest.raises(StudoddsError, match=message.replace("(", r"\(").replace("[", r"\[")):
            parse_variant_text(US_TEXT + text, "bad.toml")
    with pytest.raises(StudoddsError, match="bad.toml: switch: must be a table"):
        parse_variant_text("switch = 3\n" + US_TEXT, "bad.toml")


US_TEXT = ONE_AND_BUY[:ONE_AND_BUY.index("[switch]")]


def test_analyses_of_the_plain_game_refuse_a_table_with_draws():
    with pytest.raises(StudoddsError, match="switch or buy cards before the decision"):
        RaiseValue.of(ONE)
    base, us = RaiseValue.of(ONE.base_game()), RaiseValue.of(US)
    assert (base.scale, base.c_nq, base.c_tie) == (us.scale, us.c_nq, us.c_tie)
    assert (base.c_win == us.c_win).all() and (base.thresholds == us.thresholds).all()


# ------------------------------------------------------------------------------------------
# The whole game (one switched card, the sixth card)

PROHIBITIVE = ONE_AND_BUY.replace('fees = { 1 = 1, 2 = "3/2" }', 'fees = { 1 = 1000 }').replace(
    'fee = "1/2"', "fee = 1000").replace('name = "both"', 'name = "prohibitive"')


@pytest.fixture(scope="module")
def table():
    from studodds import api
    return api.count_table("us-common")          # the session's table: its memo keeps the draws' work


@pytest.mark.slow
def test_prohibitive_fees_give_the_plain_game_exactly(table):
    from enumerate.analysis.base import analyze
    from enumerate.game.analysis import analyze_game
    v = parse_variant_text(PROHIBITIVE, "prohibitive.toml")
    a, plain = analyze_game(table, v), analyze(table, US)
    assert a.house_edge == plain.house_edge and a.variance == plain.variance
    assert a.element_of_risk == plain.element_of_risk and a.hit_frequency == plain.hit_frequency
    assert a.raise_probability == plain.raise_probability and a.dealer_qualifies == plain.dealer_qualifies
    assert [(r.outcome, r.probability) for r in a.rows] == [(r.outcome, r.probability) for r in plain.rows]
    assert a.total_combinations == 42 * plain.total_combinations      # 46 x C(45, 4) = 42 x C(46, 4)
    assert a.draws.action_shares["keep"] == 1 and a.draws.fees_per_hand == 0


@pytest.mark.slow
def test_suit_classes_of_the_whole_game_equal_the_per_hand_enumeration(table):
    """Every action's value in sampled count-table rows (all 47 up cards) equals the per-hand
    calculator's, on the canonical cards and on a suit-relabelled copy of the situation."""
    from enumerate.draws import game
    v = parse_variant_text(ONE_AND_BUY.replace('fees = { 1 = 1, 2 = "3/2" }', "fees = { 1 = 1 }"), "one.toml")
    rng = np.random.default_rng(2026)
    rows = rng.choice(table.hands.shape[0], 4, replace=False)
    dead = game.dead_counts(table, rows=rows)           # the words these rows read, by the whole game's sweep
    for row in rows:
        values, scale = game.action_values(table, v, rows=(int(row), int(row) + 1), dead=dead)
        cards = tuple(int(c) for c in table.hands[row])
        for col in rng.choice(47, 3, replace=False):
            up = int(table.up[row, col])
            perm = rng.permutation(4)
            relabel = {c: (c & ~3) | int(perm[c & 3]) for c in range(52)}
            back = {v: c for c, v in relabel.items()}
            for hand, u, to_canonical in ((cards, up, {c: c for c in range(52)}),
                                          (tuple(relabel[c] for c in cards), relabel[up], back)):
                r = situation_draws(v, hand, u, actions=[0, 1, 2, 4, 8, 16, BUY])
                for a in r.actions:            # kernel actions: keep, switch the i-th canonical card, buy
                    k = 0 if a.kind == "keep" else 6 if a.kind == "buy" else 1 + cards.index(to_canonical[a.discard[0]])
                    got = Fraction(int(values[row, col, k]), scale * game.SITUATION_COMBINATIONS)
                    assert got == a.ev_before_fee, (cards, up, a.label)


def test_the_chart_groups_in_numpy_equal_the_per_hand_functions():
    """The strategy chart's hand groups and switched-card roles, computed for every hand at once in
    numpy, are the per-hand functions' (sampled hands, and hands dealt to have the rare draws)."""
    from enumerate.draws import game
    from evaluator.ranking import strength
    rng = np.random.default_rng(11)
    hands = np.sort(np.array([rng.choice(52, 5, replace=False) for _ in range(6000)]), axis=1)
    special = [parse(h) for h in ("Ah Kh Qh Jh 2c", "Ac 2d 3h 4s 9c", "Ts Jd Qh Ks 2c", "2c 2d 7h 8h 9h",
                                  "5c 6c 7c 8c 8d", "Ad Ac 3c 4c 5c", "9d 9c 9h 2s 3s", "Ac Kc Qc Jc 9c")]
    hands = np.vstack([hands, np.sort(np.array(special), axis=1)])
    strengths = np.array([strength(tuple(int(c) for c in h)) for h in hands])
    names, group, top = game.hand_groups(hands, strengths)
    roles = game.switch_roles(hands)
    seen: list[str] = []
    for k, h in enumerate(hands):
        cards = tuple(int(c) for c in h)
        assert names[group[k]] == game.hand_group(cards), cards
        seen += [] if names[group[k]] in seen else [names[group[k]]]
        assert [game.LABELS[r] for r in roles[k]] == [game.switch_role(cards, i) for i in range(5)], cards
    assert seen == names                                   # listed in order of their first hand
    for g, name in enumerate(names):
        assert top[g] == strengths[group == g].max()


@pytest.mark.slow
def test_the_built_in_tables_with_draws(whole_draws_games):
    from studodds import api
    one, six = whole_draws_games["oasis-one-card"], whole_draws_games["sixth-card"]
    for a in (one, six):
        outcomes = [r for r in a.rows if not r.outcome.startswith("fee_")]
        assert sum(r.combinations for r in outcomes) == a.total_combinations == 122_151_120 * 46 * 148_995
        assert sum(r.contribution for r in a.rows) == a.expected_return
        assert a.element_of_risk == a.house_edge / a.average_wager
    assert one.total_loss == 8_683_003_637_268 and six.total_loss == -14_710_325_721_756
    assert one.draws.fees_per_hand == one.draws.action_shares["switch"]      # one ante a switch
    assert six.draws.action_shares["switch"] == 0 < six.draws.action_shares["buy"]
    plain = api.analyze("us-common")
    assert one.house_edge < plain.house_edge and six.house_edge < 0
    d = api.diff("us-common", "oasis-one-card")
    assert [c.to_dict()["rule"] for c in d.rule_changes()] == ["switch.fees_antes.1", "switch.all_five_must_raise"]
    assert d.to_dict()["figures"]["house_edge_per_ante"]["delta"]["exact"] == str(one.house_edge - plain.house_edge)
    assert d.flips.to_fold > 0 and d.flips.to_raise == 0     # raising a dealt hand gives way to switching


@pytest.mark.slow
def test_the_whole_game_is_cached_by_its_inputs_and_a_damaged_file_is_recomputed(tmp_path, monkeypatch, whole_draws_games,
                                                                                   own_cache):
    from enumerate.core import array_store
    from enumerate.draws import game
    from studodds import api
    first = api.analyze("oasis-one-card").to_dict()
    files = sorted(array_store.cache_dir().glob("draws-q*.bin"))
    assert files
    api.clear_memory()                                 # a new process, as far as the memo knows

    def never(*args, **kw):
        raise AssertionError("recomputed")
    monkeypatch.setattr(game, "action_values", never)
    assert api.analyze("oasis-one-card").to_dict() == first             # read from the file
    with pytest.raises(AssertionError, match="recomputed"):
        api.analyze("oasis-one-card", use_cache=False)                   # --no-cache: not read
    dearer = tmp_path / "dearer.toml"
    dearer.write_text((REPO / "enumerate" / "rules" / "variants" / "oasis-one-card.toml").read_text()
                      .replace("name = \"oasis-one-card\"", "name = \"dearer\"").replace("fees = { 1 = 1 }", "fees = { 1 = 2 }"))
    with pytest.raises(AssertionError, match="recomputed"):
        api.analyze(str(dearer))                                         # other fees: another file
    api.clear_memory()
    saved = {f: f.read_bytes() for f in files}
    try:
        for f in files:                                # one flipped byte: detected, recomputed
            f.write_bytes(saved[f][:-100] + bytes([saved[f][-100] ^ 1]) + saved[f][-99:])
        with pytest.warns(UserWarning, match="draws cache .* unusable"), \
                pytest.raises(AssertionError, match="recomputed"):
            api.analyze("oasis-one-card")
    finally:
        for f, data in saved.items():
            f.write_bytes(data)
        api.clear_memory()


# ------------------------------------------------------------------------------------------
# Any number of cards: the sampled estimate

def test_sampled_situations_are_dealt_from_the_seed_alone():
    from enumerate.draws.sample import deal
    hands = [deal(7, i) for i in range(2000)]
    assert hands[:50] == [deal(7, i) for i in range(50)]               # the same, however split
    assert all(len(set(h) | {u}) == 6 for h, u in hands)
    assert deal(8, 0) != deal(7, 0)
    ups = np.bincount([u for _, u in hands], minlength=52)
    assert ups.min() > 15 and ups.max() < 65                               # 2000/52 = 38.5 a card


def test_the_sample_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    from enumerate.draws import sample as sm
    monkeypatch.setattr(sm, "SHARD", 2)
    v = parse_variant_text(ONE_AND_BUY.replace("[buy_card]\nfee = \"1/2\"\n", ""), "two.toml")
    text = ONE_AND_BUY
    calls = []
    real = sm.value_situations

    def counted(variant, situations, threads=None):
        calls.append(situations[0][0] // sm.SHARD)
        return real(variant, situations, threads)
    monkeypatch.setattr(sm, "value_situations", counted)
    ck = tmp_path / "ck.json"
    first = sm.sample_draws(v, text, 4, 3, Fraction(-1, 10), checkpoint=ck)
    assert calls == [0, 1] and ck.exists()
    again = sm.sample_draws(v, text, 6, 3, Fraction(-1, 10), checkpoint=ck)
    assert calls == [0, 1, 2]                  # shards 0 and 1 were kept (dealt again to verify them, not valued)
    assert again.samples[:4] == first.samples
    for s in again.samples:
        assert s.best >= s.best_one and (s.best_switched >= 2) == (s.gain > 0)
    with pytest.raises(StudoddsError, match="another variant, seed, design or shard size"):
        sm.sample_draws(v, text, 4, 4, Fraction(-1, 10), checkpoint=ck)


@pytest.mark.slow
def test_the_sample_on_a_dask_cluster_equals_the_local_run(tmp_path):
    distributed = pytest.importorskip("distributed")
    from enumerate.draws import sample as sm
    v = parse_variant_text(ONE_AND_BUY.replace("[buy_card]\nfee = \"1/2\"\n", ""), "two.toml")
    local = sm.sample_draws(v, ONE_AND_BUY, 2 * sm.SHARD, 11, Fraction(-1, 10), threads=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = sm.sample_draws(v, ONE_AND_BUY, 2 * sm.SHARD, 11, Fraction(-1, 10), scheduler=cluster.scheduler_address,
                                 checkpoint=tmp_path / "ck.json")
    assert remote.samples == local.samples and remote.mean_gain == local.mean_gain


def test_draws_sample_command_refuses_what_it_cannot_estimate():
    from cli_runner import run_cli
    for args, needle in [(["draws-sample", "oasis-one-card"], "does not switch two or more cards"),
                         (["draws-sample", "us-common"], "is not supported for this kind of table, only for a Russian Poker"),
                         (["draws-sample", "us-common"], "or a table with draws (switching cards"),
                         (["draws-sample", "oasis-one-card", "--situations", "0"], "situations")]:
        r = run_cli(*args, "--quiet")
        assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


@pytest.mark.slow
def test_a_reduced_deck_whole_game_matches_brute_force():
    """Every situation of a 12-card deck (nine to ace in two suits: 5,544 situations, six unseen
    cards each), every action the deck allows -- keep, switch one card, switch two (the dealer's
    hole cards are then the four other unseen cards), buy a sixth card: the per-hand values and
    the whole game's expected value (the best action everywhere) equal a brute-force enumeration
    of every draw and every dealer completion with the reference evaluator."""
    deck = [c for c in range(52) if c // 4 >= 7 and c % 4 < 2]
    variant = parse_variant_text(ONE_AND_BUY, "small.toml")
    fee_switch, fee_two, fee_buy = variant.draws.fee(1), variant.draws.fee(2), variant.draws.buy_fee
    fives = list(itertools.combinations(deck, 5))
    key = dict(zip(fives, (int(k) for k in poker_keys(np.array(fives)))))

    def best_key(cards):
        return max(key[tuple(sorted(h))] for h in itertools.combinations(cards, 5))

    def ev(pkey, dealer_keys, forced=False):
        e = _ev_raise(variant, pkey, np.array(dealer_keys))
        return e if forced else max(e, Fraction(-1))

    def ev_one(pkey, dealer):            # against one dealer hand: settle the raise, or fold
        if dealer < QUALIFIER_KEY:
            e = variant.ante_no_qualify
        elif dealer == pkey:
            e = 0
        elif dealer < pkey:
            e = variant.ante_win + variant.raise_antes * _pay(variant, pkey)
        else:
            e = -(1 + variant.raise_antes)
        return max(Fraction(e), Fraction(-1))

    actions = [0] + [m for m in range(1, 32) if bin(m).count("1") <= 2] + [BUY]
    total_kernel = total_brute = Fraction(0)
    n = 0
    for hand in fives:
        for up in deck:
            if up in hand:
                continue
            unseen = _unseen(hand, up, deck)
            holes = [(set(h), key[tuple(sorted((*h, up)))]) for h in itertools.combinations(unseen, 4)]
            brute = {0: ev(key[hand], [k for _, k in holes])}
            for i, card in enumerate(hand):              # hand is sorted: bit i is the i-th card
                kept = [c for c in hand if c != card]
                brute[1 << i] = sum((ev(key[tuple(sorted(kept + [x]))], [k for h, k in holes if x not in h])
                                     for x in unseen), Fraction(0)) / len(unseen) - fee_switch
            draws = [(x, key[tuple(sorted((*(c for c in unseen if c not in x), up)))])   # one dealer hand left
                     for x in itertools.combinations(unseen, 2)]
            for i, j in itertools.combinations(range(5), 2):
                kept = [c for k, c in enumerate(hand) if k not in (i, j)]
                brute[(1 << i) | (1 << j)] = sum((ev_one(key[tuple(sorted(kept + list(x)))], dealer)
                                                  for x, dealer in draws), Fraction(0)) / len(draws) - fee_two
            brute[BUY] = sum((ev(best_key([*hand, x]), [k for h, k in holes if x not in h]) for x in unseen),
                             Fraction(0)) / len(unseen) - fee_buy
            got = situation_draws(variant, hand, up, unseen=np.array(unseen), actions=actions, threads=1)
            assert len(got.actions) == len(brute) == 17
            for a in got.actions:
                mask = BUY if a.kind == "buy" else sum(1 << hand.index(c) for c in a.discard)
                assert a.ev == brute[mask], (hand, up, a.label)
            total_kernel += got.best.ev
            total_brute += max(brute.values())
            n += 1
    assert n == 5544 and total_kernel == total_brute


@pytest.mark.slow
def test_two_card_switches_on_a_reduced_deck_match_brute_force():
    """Sampled situations of the 12-card deck above, every switch of one or two cards (two leave
    the dealer exactly the four other unseen cards) and the sixth card, against brute force."""
    deck = [c for c in range(52) if c // 4 >= 7 and c % 4 < 2]
    variant = parse_variant_text(ONE_AND_BUY, "small.toml")
    actions = [0] + [m for m in range(1, 32) if bin(m).count("1") <= 2] + [BUY]
    rng = np.random.default_rng(32)
    for _ in range(60):
        cards = sorted(int(c) for c in rng.choice(deck, 6, replace=False))
        up = cards.pop(int(rng.integers(6)))
        hand, unseen = tuple(cards), _unseen(cards, up, deck)
        brute = Brute(hand, up, unseen)
        got = situation_draws(variant, hand, up, unseen=np.array(unseen), actions=actions, threads=1)
        assert len(got.actions) == len(actions)
        for a in got.actions:
            mask = BUY if a.kind == "buy" else sum(1 << hand.index(c) for c in a.discard)
            assert a.ev == brute.action_ev(variant, mask), (hand, up, a.label)


@pytest.mark.parametrize("args", [["strategies", "oasis-one-card"], ["simulate", "sixth-card", "--games", "1000"],
                                  ["holecards", "oasis-one-card", "--exposed", "1"], ["edgesort", "sixth-card"],
                                  ["collusion", "oasis-one-card", "--partners", "1"], ["ev-table", "sixth-card", "--out", "x.npz"],
                                  ["design", "sensitivity", "oasis-one-card"], ["progressive", "with-progressive.toml"],
                                  ["analyze", "with-progressive.toml"]])
def test_what_does_not_cover_draws_refuses_them_in_one_line(args, tmp_path):
    """Every analysis of the plain game (and the exact whole game of a table with draws and a
    progressive) refuses a table with draws: one line, exit 2, never a figure of the wrong game."""
    import shutil

    from cli_runner import run_cli
    shutil.copytree(Path(__file__).parents[1] / "docs" / "variants", tmp_path / "docs" / "variants")
    (tmp_path / "with-progressive.toml").write_text(ONE_AND_BUY + "[progressive]\nseed = 100\n"
                                                    "[progressive.pays]\nroyal_flush = \"100% meter\"\n")
    r = run_cli(*args, "--quiet", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and not r.stdout, (r.stdout, r.stderr)
    assert "switch" in r.stderr or "draws" in r.stderr or "sixth card" in r.stderr, r.stderr


# ------------------------------------------------------------------------------------------
# The stratified sample

def _toy_strata():
    """Two up cards (a deuce and an ace) for three canonical hands of weights 1, 4 and 24."""
    from types import SimpleNamespace

    from enumerate.draws import strata as sd
    from enumerate.draws.game import SITUATION_COMBINATIONS, DrawCounts
    unit = 3 * SITUATION_COMBINATIONS
    up = np.zeros((3, 47), dtype=np.uint8)
    up[:, 1::2] = 48                                    # odd columns: an ace of clubs, even: the two of clubs
    best = np.zeros((3, 47), dtype=np.int64)
    best[0] = -unit                                     # fold
    best[1] = -unit * 4 // 5                            # exactly -4/5: weak
    best[2, :] = -unit * 4 // 5 + 1                     # just above: other
    best[2, 0] = -unit + 1                              # just above folding: weak
    table = SimpleNamespace(up=up, weight=np.array([1, 4, 24]))
    return sd.strata(table, DrawCounts(np.zeros((3, 10, 8), dtype=np.int64), up.copy(), best, 3))


def test_strata_classify_every_situation_by_up_rank_and_one_card_value():
    st = _toy_strata()
    assert st.labels == ("up 2, fold", "up 2, weak", "up 2, other", "up A, fold", "up A, weak", "up A, other")
    assert st.weights == (24, 4 * 24 + 24, 24 * 23, 23, 4 * 23, 24 * 23)
    assert st.total == (1 + 4 + 24) * 47
    weak2 = st.members[1]
    assert weak2[-1] == 2 * 47 + 0 and all(st.situation(1, p) == 2 * 47 for p in range(96, 120))
    assert {st.situation(1, p) for p in range(96)} == {47 + c for c in range(0, 47, 2)}


def test_neyman_allocation_keeps_the_pilot_and_spends_the_rest_by_weight_times_spread():
    from enumerate.draws.strata import PILOT_SHARDS, allocate
    shards = allocate((100, 300, 600), [0.0, 0.2, 0.1], 3 * PILOT_SHARDS + 13)
    assert sum(shards) == 3 * PILOT_SHARDS + 13 and shards[0] == PILOT_SHARDS
    assert shards[1] - PILOT_SHARDS in (6, 7) and shards[2] - PILOT_SHARDS in (6, 7)   # 60 : 60
    assert allocate((1, 2), [0.0, 0.0], 50) == [PILOT_SHARDS] * 2                       # no spread seen
    assert allocate((1, 2), [0.1, 0.1], 2) == [PILOT_SHARDS] * 2                        # budget below the pilot


def test_the_stratified_estimate_weights_each_stratum_by_its_exact_share():
    from enumerate.draws.sample import Z95, DrawSample, Sample, Stratum

    def samples(gains, switched=5):
        return tuple(Sample(i, (0, 1, 2, 3, 4), 5, Fraction(-1), Fraction(-1) + g, "x", switched if g else 0)
                     for i, g in enumerate(gains))
    a = Stratum("a", Fraction(1, 4), samples([Fraction(1, 10), Fraction(3, 10)]))
    b = Stratum("b", Fraction(3, 4), samples([Fraction(0)] * 3 + [Fraction(1, 5)]))
    v = parse_variant_text(ONE_AND_BUY, "both.toml")
    s = DrawSample(v, 1, "stratified", (a, b), Fraction(-1, 10), Fraction(1, 10), None)
    assert s.mean_gain == Fraction(1, 4) * Fraction(1, 5) + Fraction(3, 4) * Fraction(1, 20)
    assert s.house_edge == Fraction(1, 10) - s.mean_gain
    var = (1 / 16) * np.var([0.1, 0.3], ddof=1) / 2 + (9 / 16) * np.var([0, 0, 0, 0.2], ddof=1) / 4
    assert s.half_width == pytest.approx(Z95 * var ** 0.5)
    hits, share, lo, hi = s.multi_share()
    assert hits == 3 and share == pytest.approx(1 / 4 + 3 / 4 * 1 / 4) and lo < share < hi
    uniform = DrawSample(v, 1, "uniform", (Stratum("all", Fraction(1), a.samples + b.samples),),
                         Fraction(-1, 10), Fraction(1, 10), None)
    assert uniform.mean_gain == Fraction(3, 5) / 6 and uniform.multi_share()[:2] == (3, 0.5)
    d = s.to_dict()
    assert d["design"] == "stratified" and [x["situations"] for x in d["strata"]] == [2, 4]


def test_a_sampled_situation_must_agree_with_the_whole_one_card_game():
    from enumerate.draws.sample import value_situation
    v = parse_variant_text(ONE_AND_BUY.replace("[buy_card]\nfee = \"1/2\"\n", ""), "two.toml")
    cards, up = tuple(parse("2c 7d 9h Js Kd")), parse("4s")[0]
    s = value_situation(v, (0, cards, up, None))
    assert value_situation(v, (0, cards, up, s.best_one)) == s
    with pytest.raises(StudoddsError, match="differs from the whole game"):
        value_situation(v, (0, cards, up, s.best_one + Fraction(1, 10**9)))


@pytest.mark.slow
def test_the_stratified_sample_draws_each_stratum_from_the_whole_one_card_game(tmp_path, monkeypatch):
    from enumerate.draws import sample as sm
    from enumerate.draws import strata as sd
    from studodds import api
    monkeypatch.setattr(sm, "SHARD", 2)
    monkeypatch.setattr(sd, "PILOT_SHARDS", 1)
    online = (REPO / "docs" / "variants" / "oasis-online.toml").read_text()
    two = tmp_path / "two.toml"
    two.write_text(online.replace("oasis-online", "two").replace("fees = { 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5 }",
                                                                  "fees = { 1 = 1, 2 = 1 }"))
    with pytest.raises(StudoddsError, match="at least 78 situations"):
        api.draws_sample(str(two), situations=60, seed=5, stratified=True)
    ck = tmp_path / "ck.json"
    s = api.draws_sample(str(two), situations=100, seed=5, stratified=True, checkpoint=ck)
    assert s.design == "stratified" and len(s.strata) == 39 and s.n == 100
    assert sum(st.share for st in s.strata) == 1
    for st in s.strata:                   # every sample lies in its stratum (its one-card value checked on the way)
        rank, cls = st.label.removeprefix("up ").split(", ")
        for x in st.samples:
            assert "23456789TJQKA"[x.up // 4] == rank
            assert cls == ("fold" if x.best_one == -1 else "weak" if x.best_one <= Fraction(-4, 5) else "other")
    again = api.draws_sample(str(two), situations=100, seed=5, stratified=True, checkpoint=ck)
    assert again.samples == s.samples and again.seconds_per_situation is None        # all read back
    assert s.mean_gain == sum((st.share * st.mean for st in s.strata), Fraction(0))


GALEWIND_SAMPLE = REPO / "docs" / "samples" / "oasis-galewind-stratified.json"


def test_the_committed_galewind_estimate_holds_together():
    """The stratified Galewind run kept in docs/: its figures follow from its strata, its exact
    part is the certified one-card table, its interval meets +-0.01 percentage points, and the
    pages quote it."""
    import jsonschema

    from enumerate.core.intervals import Z95
    d = json.loads(GALEWIND_SAMPLE.read_text())
    jsonschema.Draft202012Validator(json.loads((REPO / "studodds" / "schema.json").read_text())).validate(d)
    assert d["design"] == "stratified" and d["variant"] == GALEWIND.to_dict()
    certified = json.loads((REPO / "results" / "oasis-one-card" / "summary.json").read_text())["analysis"]
    assert d["one_card_game"]["expected_return_per_ante"] == certified["expected_return_per_ante"]
    shares = [Fraction(s["share"]["exact"]) for s in d["strata"]]
    assert sum(shares) == 1 and sum(s["situations"] for s in d["strata"]) == d["situations"]
    mean = sum((w * Fraction(s["mean_gain_antes"]["exact"]) for w, s in zip(shares, d["strata"])), Fraction(0))
    assert str(mean) == d["mean_gain_per_hand_antes"]["exact"]
    half = Z95 * math.sqrt(sum(float(w) ** 2 * (s["gain_sd_antes"] or 0.0) ** 2 / s["situations"]
                               for w, s in zip(shares, d["strata"])))
    assert half == pytest.approx(d["mean_gain_ci95_half_width_antes"]) and half <= 1e-4
    edge = -(Fraction(certified["expected_return_per_ante"]["exact"]) + mean)
    assert d["house_edge_per_ante"]["estimate"] == pytest.approx(float(edge), abs=1e-15)
    quoted = f"{float(edge):.4%}"
    for page in (REPO / "README.md", REPO / "docs" / "draws.md"):
        assert quoted in page.read_text(), (page, quoted)


@pytest.mark.slow
def test_the_committed_galewind_strata_are_those_of_the_whole_one_card_game():
    from enumerate.draws.game import draw_counts
    from enumerate.draws.sample import one_card_variant
    from enumerate.draws.strata import strata
    from studodds import api
    d = json.loads(GALEWIND_SAMPLE.read_text())
    one = one_card_variant(GALEWIND)
    table = api.count_table(one)
    st = strata(table, draw_counts(table, one))
    assert [(s["label"], s["share"]["exact"]) for s in d["strata"]] == \
        [(st.labels[h], str(st.share(h))) for h in range(len(st.labels))]
