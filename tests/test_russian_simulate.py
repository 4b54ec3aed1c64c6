"""Russian Poker on shuffled decks (enumerate/simulation/russian.py): the kept draw found for every
dealt hand, the simulator's own settlement against the engine's and a literal reading of the rules,
the decisions after the draw against the one-hand path, and a run against the exact figures."""
import hashlib
import json
import random
import shutil
from fractions import Fraction

import numpy as np
import pytest
from cli_runner import run_cli
from test_combinations import literal_pay

from enumerate.draws import switch_ranks
from enumerate.rules.variant_file import load_variant_file, parse_variant_text
from enumerate.russian import strategy
from enumerate.russian.final_hand import bought_game, buy_choices, buys, decisions, final_hand_value, hole_counts
from enumerate.russian.settle import RussianSettlement
from enumerate.simulation import russian
from evaluator.errors import StudoddsError
from evaluator.ranking import Category, hand_indices, hands_of_indices, strength
from studodds import api

TABLES = ("docs/variants/lunar-house.toml", "docs/variants/lunar-pennsylvania.toml")


def table(path):
    return load_variant_file(path).variant


def _pattern(hand):
    h = np.zeros(13, dtype=np.int8)
    for c in hand:
        h[c >> 2] += 1
    return h


def test_a_dealt_hand_finds_its_class_and_its_cards():
    """Each dealt hand's key is a class its group lists (the kernel's frame), and the frame hand's
    j-th card is the dealt card ``order[j]`` renamed: same rank, the up card's suit made 0."""
    rng = np.random.default_rng(4)
    deck = np.array([rng.permutation(52)[:6] for _ in range(150)])
    hands, up = deck[:, :5], deck[:, 5]
    keys, order = russian.frame(hands, up)
    for i in range(len(up)):
        ru = int(up[i]) >> 2
        cards, _ = switch_ranks.group_situations(_pattern(hands[i].tolist()), ru, frozenset(Category))
        assert int(keys[i]) in set((hand_indices(cards).astype(np.int64) * 13 + ru).tolist())
        rep = sorted(hands_of_indices(np.array([keys[i] // 13]))[0].tolist())
        for j in range(5):
            dealt = int(hands[i, order[i, j]])
            assert rep[j] >> 2 == dealt >> 2
            assert ((rep[j] & 3) == 0) == ((dealt & 3) == (int(up[i]) & 3))


def test_the_draw_table_reads_a_kept_strategy_back(monkeypatch, tmp_path):
    """A kept strategy (here one shard's, every class a different action) read into the table: every
    class of its groups looks up its own action; a strategy that lacks a shard is refused."""
    h, up, weight = switch_ranks.groups(switch_ranks.Slice())
    part = (h[:64], up[:64], weight[:64])
    monkeypatch.setattr(russian.switch_ranks, "groups", lambda sl: part)
    v = table(TABLES[0])
    best, cards = [], []
    for g in range(64):
        c, _ = switch_ranks.group_situations(h[g], int(up[g]), frozenset(Category))
        cards.append((c, int(up[g])))
        best.append((np.arange(c.shape[0]) * 7 + g) % 33)
    digest = russian.classes_digest(*part)
    found = russian.draw_table(v, {digest: strategy.encode(best)}, use_cache=False)
    for (c, ru), b in zip(cards, best):
        assert (found.lookup(hand_indices(c).astype(np.int64) * 13 + ru) == b).all()
    with pytest.raises(StudoddsError, match="lacks a shard"):
        russian.draw_table(v, {}, use_cache=False)
    # cached, and checked when read: a table whose actions are not the kept ones is made anew
    monkeypatch.setenv("STUDODDS_CACHE_DIR", str(tmp_path))
    kept = {digest: strategy.encode(best)}
    first = russian.draw_table(v, kept)
    (cached,) = tmp_path.glob("russian-draws-*.bin")
    meta = {"kind": "russian-draw-table", "version": 1, "played": list(range(10)),
            "strategy": hashlib.sha256(json.dumps(kept, sort_keys=True).encode()).hexdigest()}
    russian.ArrayCache(cached, meta, "test").save({"keys": first.keys, "actions": first.actions[::-1].copy()})
    with pytest.warns(UserWarning, match="lists the classes otherwise"):
        again = russian.draw_table(v, kept)
    assert (again.actions == first.actions).all()
    with pytest.raises(StudoddsError, match="no draw for a dealt situation"):
        found.lookup(np.array([5], dtype=np.int64))


@pytest.mark.parametrize("path", TABLES)
def test_decisions_are_the_one_hand_paths(path):
    """Raise and insure for many final hands at once -- the purchases counted only where they could
    change the decision -- are the decisions of the one-hand path (which counts every purchase)."""
    v = table(path)
    rng = random.Random(8)
    finals, ups, dead = [], [], []
    for _ in range(60):
        c = rng.sample(range(52), 12)
        six = rng.random() < 0.25
        k = rng.choice((0, 2, 3, 5))
        finals.append(c[:6] if six else c[:5])
        ups.append(c[6])
        dead.append([] if six else c[7:7 + k])
    d = decisions(v, finals, ups, dead, threads=2)
    for i in range(len(finals)):
        one = final_hand_value(v, finals[i], ups[i], dead[i])
        assert d.raises[i] == one.raises and d.insures[i] == (one.raises and one.insure)
    assert 0 < d.raises.sum() < len(finals)


def _barred():
    """The house's table with an insured box barred from buying the game."""
    text = open("docs/variants/lunar-house.toml").read()
    return parse_variant_text(text.replace('after = "qualifier_applies"', 'after = "qualifier_applies"\n'
                                                                          'insured = "may_not_buy"'), "barred.toml")


def test_an_insured_box_barred_from_buying_decides_and_settles_so():
    """When an insured box may not buy the game, the many-hands decisions are the one-hand path's
    (insure only where the insurance is worth more than the purchases), including hands where
    both pay and one wins each way; the simulator's settlement of an insured raise against a dealer
    short of qualifying never asks to buy and pays the ante and the stake."""
    from test_russian_final_hand import TORN

    from evaluator.cards import parse_card, parse_hand
    v = _barred()
    assert v.buy_game is not None and v.buy_game.insured == "may_not_buy"
    finals, ups, dead = [], [], []
    for c, u, d in TORN:
        finals.append(parse_hand(c))
        ups.append(parse_card(u))
        dead.append([parse_card(x) for x in d.split()])
    rng = random.Random(9)
    for _ in range(40):
        c = rng.sample(range(52), 12)
        finals.append(c[:5])
        ups.append(c[5])
        dead.append(c[6:6 + rng.choice((0, 2, 3))])
    d = decisions(v, finals, ups, dead, threads=2)
    for i in range(len(finals)):
        one = final_hand_value(v, finals[i], ups[i], dead[i])
        assert d.raises[i] == one.raises and d.insures[i] == (one.raises and one.insure), i
    assert d.insures[0] and not d.insures[1]                  # the first torn hand insures, the second buys
    assert final_hand_value(v, finals[1], ups[1], dead[1]).buys
    final, up, hole = list(parse_hand("Ac Ad Ah 7c 2d")), parse_card("4d"), [parse_card(x) for x in "9h 8s 5c 3h".split()]
    asked = []
    g = russian.settle(v, final, up, hole, list(range(20)), Fraction(0), 0, True, True,
                       lambda: asked.append(1) or True)
    stake = Fraction(1, 2) * v.raise_antes * russian.bet_pay(v, final)
    assert not asked and g.net == 1 + stake and g.insured and g.short and not g.bought
    g = russian.settle(v, final, up, hole, [c for c in range(52) if c not in final + [up] + hole], Fraction(0), 0,
                       True, False, lambda: True)
    assert g.bought and not g.insured


@pytest.mark.parametrize("path", TABLES + ("docs/variants/russian-classic.toml",))
def test_the_simulators_settlement_is_the_rules(path):
    """The simulator's own settlement against the engine's nets and a literal reading of two
    combinations: the bet's pay; a raised hand against a dealer who qualifies, or does not and is
    not bought; a bought game averaged over every replacement it can draw (the redrawn rank left
    out) equals the exact value of the purchase."""
    v = table(path)
    s = RussianSettlement.of(v)
    rng = random.Random(11)
    q = v.qualifier.threshold
    seen = {"qualifies": 0, "short": 0, "bought": 0}
    fee = Fraction(1, 3)
    for trial in range(400):
        cards = rng.sample(range(52), 12)
        final = cards[:6] if trial % 4 == 0 else cards[:5]
        up, hole, dead = cards[6], cards[7:11], ([] if len(final) == 6 else cards[11:12])
        pay = s.hand_pay(final)
        assert russian.bet_pay(v, final) == pay.pay
        if v.two_combinations is not None and v.max_payout is None:
            assert pay.pay == literal_pay(final, [v.raise_pays[c] for c in Category], v.two_combinations)
        stake = s.insurance_stake(pay)
        insured = stake > 0
        dealer = strength(hole + [up])
        player = max(strength([c for c in final if c != x]) for x in final) if len(final) == 6 else strength(final)
        if dealer >= q:
            state = "player_wins" if player > dealer else "push" if player == dealer else "dealer_wins"
            got = russian.settle(v, final, up, hole, [], fee, 1, True, insured, lambda: pytest.fail("asked to buy"))
            assert got.net == s.net(pay, state) + (s.insurance_net(stake, state) if insured else 0) - fee
            seen["qualifies"] += 1
            continue
        got = russian.settle(v, final, up, hole, [], fee, 1, True, insured, lambda: False)
        assert got.net == s.net(pay, "dealer_does_not_qualify") + stake - fee and got.short and not got.bought
        seen["short"] += 1
        if v.buy_game is None or seen["bought"] >= 25:
            continue
        exact = bought_game(v, final, up, hole, dead)
        ranks = [c >> 2 for c in hole + [up]]
        out = (max if v.buy_game.replaces == "highest" else min)(ranks)
        pool = [c for c in range(52) if c not in final + hole + dead + [up]
                and not (v.buy_game.same_rank == "replaced_again" and c >> 2 == out)]
        nets = [russian.settle(v, final, up, hole, [c], fee, 1, True, insured, lambda: True).net for c in pool]
        assert sum(nets, Fraction(0)) / len(pool) == exact.ev_buy + stake - fee
        seen["bought"] += 1
    assert seen["qualifies"] and seen["short"] and (v.buy_game is None or seen["bought"])


def test_an_instant_payout_ends_the_round(monkeypatch):
    """Pennsylvania's instant payout: a dealt royal flush is paid its 1,000 on the ante and nothing
    else happens (no draw looked up, no decision)."""
    v = table(TABLES[1])
    royal = [4 * r + 2 for r in range(8, 13)]
    rest = [c for c in range(52) if c not in royal]
    monkeypatch.setattr(russian, "_deal", lambda seed, chunk, n: np.array([royal + rest] * n))
    t = russian.play_chunk(v, russian.DrawTable(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int8)), 0, 0, 3)
    assert t.games == 3 and t.outcomes == {(1000, 1, 1, 1): 3} and t.raised == 0


def test_a_hand_paid_at_once_needs_no_kept_draw(monkeypatch):
    """A whole game keeps no draw for a dealt hand paid at once (it is never drawn to): games
    dealt such hands among others look up the others' draws only (a certified table with draws
    and the instant payout once failed to simulate, its royal flushes not in the kept draws)."""
    v = table(TABLES[1])
    royal = [4 * r + 2 for r in range(8, 13)]
    rest = [c for c in range(52) if c not in royal]
    played = rest[:5] + royal + rest[5:]
    decks = np.array([royal + rest, played, royal + rest, played])
    monkeypatch.setattr(russian, "_deal", lambda seed, chunk, n: decks[:n])
    keys, _ = russian.frame(decks[1:2, :5], decks[1:2, 5])
    only_played = russian.DrawTable(keys.astype(np.int64), np.zeros(1, dtype=np.int8))   # stand pat
    t = russian.play_chunk(v, only_played, 0, 0, 4)
    assert t.games == 4 and t.outcomes[(1000, 1, 1, 1)] == 2 and sum(t.outcomes.values()) == 4
    with pytest.raises(StudoddsError, match="no draw for a dealt situation"):
        russian.play_chunk(v, russian.DrawTable(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int8)), 0, 0, 4)


NO_PURCHASE = open("docs/variants/lunar-without-draws.toml").read().split("[buy_game]")[0].replace(
    'name = "lunar-without-draws"', 'name = "lunar-without-draws-or-purchase"')


@pytest.mark.slow
def test_a_table_without_draws_simulates_within_its_intervals():
    """A Russian table without draws (insurance and two combinations), 6,000 games against its
    exact game: every figure within its interval, and the same seed the same counts."""
    v = parse_variant_text(NO_PURCHASE, "test")
    a = api.simulate(v, games=6000, seed=2, threads=2, progress=False)
    assert a.passed, a.verdict
    exact = api.analyze(v, threads=2, progress=False)
    assert a.returns[0].estimate.exact == exact.expected_return
    assert [r.name for r in a.returns] == ["base game", "base game", "raise", "insure"]
    assert [f.name for f in a.frequencies] == ["net results"] and a.frequencies[0].test.dof > 3
    assert sum(r.probability for r in a.frequencies[0].rows) == 1
    assert a.to_dict(timing=False) == api.simulate(v, games=6000, seed=2, threads=1, progress=False).to_dict(timing=False)


@pytest.mark.parametrize("args, says", [
    (("simulate", "us-common", "--against", "results/us-common", "--games", "100"), "made for a Russian Poker table"),
    (("simulate", "docs/variants/lunar-house.toml", "--against", "no/such/folder", "--games", "100"),
     "not a certified table's folder"),
    (("simulate", "docs/variants/lunar-house-hands-compared.toml", "--against", "results/lunar-house", "--games", "100"),
     "other rules"),
    (("simulate", "docs/variants/lunar-house.toml", "--strategy", "pair or better", "--games", "100"),
     "certified strategy"),
    (("simulate", "docs/variants/lunar-house.toml", "--against", "results/lunar-house", "--games", "1"),
     "games"),
])
def test_a_russian_simulation_refuses_bad_input_in_one_line(args, says):
    r = run_cli(*args)
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_a_table_without_draws_takes_no_certified_folder():
    r = run_cli("simulate", "docs/variants/lunar-without-draws.toml", "--against", "results/lunar-without-draws",
                "--games", "100")
    assert r.returncode == 2 and "keeps no whole game" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("action, kind", [(0b00011, 2), (0b11100, 3), (32, 6), (0, 0)])
def test_a_kept_draw_is_played_on_the_dealt_cards(monkeypatch, action, kind):
    """The kept action read back on the real cards: a switch mask discards the frame hand's cards
    at its bits (the dealt cards ``order`` names) and draws as many from the stub, for the fee of
    that many; 32 buys the stub's next card as a sixth, for its fee."""
    v = table(TABLES[0])
    monkeypatch.setattr(russian.DrawTable, "lookup", lambda self, keys: np.full(len(keys), action, dtype=np.int8))
    played = []

    def record(variant, final, up, hole, stub, fee, k, raised, insured, buy, *, player, first, pays):
        assert player == russian._best(final) and first == russian._best(hole + [up])       # ranked together
        assert pays(final, player) == russian.bet_pay(variant, final)
        played.append((final, stub, fee, k))
        return russian.Game(Fraction(0), Fraction(1), k)

    monkeypatch.setattr(russian, "settle", record)
    deck = russian._deal(5, 0, 40)
    t = russian.play_chunk(v, russian.DrawTable(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int8)), 5, 0, 40,
                           settle_each=True)
    assert t.kinds == {kind: 40} and len(played) == 40
    _, order = russian.frame(deck[:, :5], deck[:, 5])
    for i, (final, stub, fee, k) in enumerate(played):
        dealt = deck[i, :5].tolist()
        if action == 32:
            assert final == dealt + [int(deck[i, 10])] and fee == 1 and stub == deck[i, 11:].tolist()
            continue
        out = {dealt[int(order[i, j])] for j in range(5) if action >> j & 1}
        assert len(out) == kind and out.isdisjoint(final) and set(final) - set(dealt) == set(deck[i, 10:10 + kind].tolist())
        assert fee == (1 if kind else 0) and stub == deck[i, 10 + kind:].tolist()


def test_a_damaged_or_strategy_less_kept_game_is_named(tmp_path):
    """A whole game kept without its strategy (as tables certified before strategies were kept:
    the certified house table's sums resealed without it) is named in one line, and so is a kept
    file edited after it was sealed."""
    from enumerate.core.slices import sealed, unsealed
    folder = tmp_path / "t"
    shutil.copytree("results/lunar-house", folder)
    kept = folder / "russian_game.json"
    body = unsealed(json.loads(kept.read_text()))
    assert "strategy" in body
    del body["strategy"]
    kept.write_text(json.dumps(sealed(body)))
    r = run_cli("simulate", "docs/variants/lunar-house.toml", "--against", str(folder), "--games", "100", "--quiet")
    assert r.returncode == 2 and "keeps no strategy" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    text = kept.read_text().replace('"raised": "', '"raised": "1', 1)
    assert text != kept.read_text()
    kept.write_text(text)
    r = run_cli("simulate", "docs/variants/lunar-house.toml", "--against", str(folder), "--games", "100")
    assert r.returncode == 2 and "checksum does not match" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_certified_russian_table_carries_its_simulation_check(tmp_path):
    """batch --simulate writes the check into the table (summary.json and report.md), and check
    reproduces it: the same games, the same counts."""
    path = tmp_path / "t.toml"
    path.write_text(NO_PURCHASE)
    r = run_cli("batch", str(path), "--simulate", "1500", "--simulate-seed", "4", "--out", str(tmp_path / "out"),
                "--formats", "md", "--quiet")
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "out" / "lunar-without-draws-or-purchase"
    sim = json.loads((folder / "summary.json").read_text())["simulation"]
    assert sim["passed"] and sim["games"] == 1500 and sim["generator"] == russian.GENERATOR
    assert "## Simulation check" in (folder / "report.md").read_text()
    r = run_cli("check", str(folder), "--quiet")
    assert r.returncode == 0 and "unchanged" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("path", TABLES)
def test_the_purchase_decision_is_the_bought_games(path):
    """buy_choices() for many hands at once and buys() for one -- answered at once where no purchase
    can gain -- are the exact bought game's choice."""
    v = table(path)
    rng = random.Random(13)
    hands = []
    while len(hands) < 40:
        c = rng.sample(range(52), 13)
        final, up, hole = (c[:6] if len(hands) % 3 == 0 else c[:5]), c[6], c[7:11]
        dead = [] if len(final) == 6 else c[11:11 + len(hands) % 3]
        if strength(hole + [up]) < v.qualifier.threshold:
            hands.append((final, up, hole, dead))
    together = buy_choices(v, *zip(*hands))
    for (final, up, hole, dead), got in zip(hands, together):
        assert got == buys(v, final, up, hole, dead) == bought_game(v, final, up, hole, dead).buy
    assert 0 < together.sum() < len(hands)


@pytest.mark.parametrize("path", TABLES + ("docs/variants/russian-classic.toml",))
def test_remembered_pays_are_the_pays(path):
    """The pay remembered by what it depends on (a five-card hand's strength; a six-card hand's ranks
    and its suit of five or more) is the pay of every hand of that key."""
    v = table(path)
    pays = russian.Pays(v)
    rng = random.Random(17)
    for trial in range(3000):
        if trial % 3 == 0:                           # six cards, often with a flush
            suit = rng.randrange(4)
            same = rng.sample([4 * r + suit for r in range(13)], rng.choice((4, 5, 6)))
            cards = (same + rng.sample([c for c in range(52) if c not in same], 6))[:6]
        else:
            cards = rng.sample(range(52), rng.choice((5, 6)))
        assert pays(cards, russian._best(cards)) == russian.bet_pay(v, cards), cards
    assert len(pays.known) < 3000


@pytest.mark.debug_sample
def test_hole_sets_by_tables_are_the_loops():
    """The dealer's hole sets counted by inclusion-exclusion over an up rank's sorted tables equal
    the loop over every set: random up cards of one rank (every suit, read through the swap of suits),
    five to ten seen cards, strengths above and below the qualifier."""
    rng = np.random.default_rng(21)
    n = 120
    unseen, ups, player = np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int16)
    for i in range(n):
        up = 4 * 9 + int(rng.integers(4))
        seen = rng.choice([c for c in range(52) if c != up], size=int(rng.integers(5, 11)), replace=False)
        ups[i], player[i] = up, int(rng.integers(0, 7462))
        unseen[i] = ((1 << 52) - 1) ^ (1 << up) ^ sum(1 << int(c) for c in seen)
    for threshold in (1277, 3000):
        assert (hole_counts(unseen, ups, player, threshold, 2, by_tables=True)
                == hole_counts(unseen, ups, player, threshold, 2)).all()


def _classic_unless():
    """The classic rules with the ante paid on a win only without a draw or a purchase."""
    text = open("docs/variants/russian-classic.toml").read().replace(
        "[ante_pays]\nplayer_wins = 0\n", "[ante_pays]\nplayer_wins = 1\nplayer_wins_unless = \"drew_or_bought\"\n", 1)
    v = parse_variant_text(text, "classic-unless.toml")
    assert v.ante_win_unless == "drew_or_bought" and v.draws is not None
    return v


@pytest.mark.parametrize("path", TABLES + ("docs/variants/russian-classic.toml", "the ante paid unless drew"))
def test_games_settled_together_are_settled_one_by_one(monkeypatch, path):
    """The games no bought game ends, settled all at once in whole numbers, count exactly as each
    settled by itself (a mix of kept draws; Pennsylvania's instant payout; the classic's ante
    pays; the ante paid on a win only without a draw or a purchase, the decisions after a draw
    taken without it), the bought games settled one by one either way."""
    v = _classic_unless() if path == "the ante paid unless drew" else table(path)
    rng = np.random.default_rng(9)
    monkeypatch.setattr(russian.DrawTable, "lookup", lambda self, keys: rng.choice(
        np.array([0, 0, 3, 7, 15, 32], dtype=np.int8), size=len(keys)))
    empty = russian.DrawTable(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int8))
    state = rng.bit_generator.state
    together = russian.play_chunk(v, empty, 3, 0, 1500, 2)
    rng.bit_generator.state = state
    each = russian.play_chunk(v, empty, 3, 0, 1500, 2, settle_each=True)
    assert together == each
    assert together.raised and together.short and (v.insurance is None or together.insured)
    assert together.kinds[0] and sum(together.kinds.values()) > together.kinds[0]      # kept hands and draws


#: Classic rules without the draw, the ante paid on a win unless the player drew or bought the game.
UNLESS = open("docs/variants/russian-classic-without-draws.toml").read().replace(
    "[ante_pays]\nplayer_wins = 0\n", "[ante_pays]\nplayer_wins = 1\nplayer_wins_unless = \"drew_or_bought\"\n", 1)


def test_the_ante_paid_unless_the_player_drew_or_bought_is_settled_so():
    """The simulator's settlement of the ante's pay on a win: paid when the player stood pat, not
    after a draw (any kind but keeping) nor in a bought game -- the engine's nets for each -- and
    the games settled together count as each settled by itself."""
    from evaluator.cards import parse_cards
    v = parse_variant_text(UNLESS, "unless.toml")
    assert v.ante_win_unless == "drew_or_bought" and v.ante_win == 1 and v.draws is None
    s = RussianSettlement.of(v)
    final, up = list(parse_cards("Ac Ad Kc Qd 2h")), parse_cards("3c")[0]
    pay = s.hand_pay(final)
    never = lambda: pytest.fail("asked to buy")          # noqa: E731
    qualifies = list(parse_cards("9d 9s 7c 4s"))           # a pair of nines: the aces win
    kept = russian.settle(v, final, up, qualifies, [], Fraction(0), 0, True, False, never)
    drew = russian.settle(v, final, up, qualifies, [], Fraction(1), 1, True, False, never)
    assert kept.net == s.net(pay, "player_wins") == 1 + 2 * pay.pay
    assert drew.net == s.net(pay, "player_wins", drew=True) - 1 == 2 * pay.pay - 1
    short = list(parse_cards("Jd 9s 7c 4s"))               # jack high: the jack replaced by the nine of hearts
    bought = russian.settle(v, final, up, short, list(parse_cards("9h")), Fraction(0), 0, True, False, lambda: True)
    assert bought.bought and bought.net == -v.buy_game.fee + s.net(pay, "player_wins", bought=True) == 2 * pay.pay - 1
    together = russian.play_chunk(v, None, 3, 0, 300, 2)
    assert together == russian.play_chunk(v, None, 3, 0, 300, 2, settle_each=True)
    assert together.raised and together.bought

