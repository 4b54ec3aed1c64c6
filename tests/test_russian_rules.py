"""The options of Russian Poker in the variant file and as a kind of table: read, checked (every
bad value one line naming its key, fuzzed), written back, owned by the Russian kind, and given
one hand's decisions through the API and the CLI (everything else refused in one line)."""
import json
import math
import re
import tomllib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import run_cli
from fuzzstats import tick
from hypothesis import given, settings
from hypothesis import strategies as st
from test_reliability_hostile import refused
from test_russian_final_hand import LUNAR, US

import studodds
from enumerate.game import kinds
from enumerate.rules.combinations import TwoCombinations
from enumerate.rules.russian import BuyGame, Insurance
from enumerate.rules.variant_file import (
    VariantSource,
    load_variant_file,
    parse_variant,
    parse_variant_text,
    with_raise_pays,
)
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

TEXT = US + LUNAR


def test_the_sections_are_read_with_their_defaults():
    v = parse_variant_text(TEXT, "lunar.toml")
    assert v.two_combinations == TwoCombinations("two_straights", True)
    assert v.insurance == Insurance(Category.TRIPS, "half_the_payout", "lost")
    assert v.buy_game == BuyGame(Fraction(1), "highest", "replaced_again", "hands_compared", "may_buy")
    bare = parse_variant_text(US + "[buy_game]\n", "bare.toml").buy_game
    assert bare == BuyGame(Fraction(1), "highest", "replaced_again", "qualifier_applies", "may_buy")
    assert "insured" not in bare.to_dict() and bare.not_counted() is None      # the default: as before the key
    assert v.russian and kinds.kind_of(v).name == "russian"
    d = v.to_dict()
    assert d["buy_game"]["fee_antes"]["exact"] == "1" and d["insurance"]["needs"] == "three_of_a_kind"
    assert d["two_combinations"] == {"straight_with_pair": "two_straights", "ace_king": True}


def test_the_ante_by_hand_makes_a_russian_table():
    v = parse_variant_text(US + "[ante_pays]\ndealer_does_not_qualify_with = { straight = 4 }\n", "pa.toml")
    assert v.russian and kinds.kind_of(v).name == "russian" and v.ante_no_qualify_with == {Category.STRAIGHT: 4}
    assert v.to_dict()["ante_pays"]["dealer_does_not_qualify_with"] == {"straight": {"exact": "4", "value": 4.0}}
    from enumerate.russian.settle import RussianSettlement
    s = RussianSettlement.of(v)
    assert [s.ante_short(c) for c in (Category.TRIPS, Category.STRAIGHT, Category.ROYAL_FLUSH)] == [1, 4, 4]


def test_a_table_without_them_keeps_its_kind_and_its_json():
    v = parse_variant_text(US, "us.toml")
    assert not v.russian and kinds.kind_of(v).name == "plain"
    assert not {"two_combinations", "insurance", "buy_game"} & set(v.to_dict())


def test_the_sections_are_written_back():
    text = TEXT.replace("[buy_game]\n", "[buy_game]\nfee = \"1/2\"\nreplaces = \"lowest\"\n")
    assert "after = \"hands_compared\"" in text
    source = VariantSource(parse_variant_text(text, "lunar.toml"), "lunar.toml", text, "")
    again = parse_variant_text(with_raise_pays(source, {k: Fraction(1) for k in (
        "straight_flush", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind", "two_pairs",
        "one_pair", "high_card")}, "copy", "a copy"), "copy.toml")
    assert again.buy_game == BuyGame(Fraction(1, 2), "lowest", after="hands_compared")
    assert again.insurance == source.variant.insurance
    assert again.two_combinations == source.variant.two_combinations


@pytest.mark.parametrize("section, message", [
    ("[buy_game]\nfee = -1\n", "buy_game.fee: must not be negative"),
    ("[buy_game]\nreplaces = \"middle\"\n", "buy_game.replaces: 'middle': one of highest, lowest, first_dealt"),
    ("[buy_game]\ninsured = \"yes\"\n", "buy_game.insured: 'yes': one of may_buy, may_not_buy"),
    ("[buy_game]\ninsured = true\n", "buy_game.insured: True: one of may_buy, may_not_buy"),
    ("[buy_game]\nsame_rank = 1\n", "buy_game.same_rank: 1: one of replaced_again, kept"),
    ("[buy_game]\nafter = [1]\n", "buy_game.after: [1]: one of qualifier_applies, hands_compared"),
    ("[buy_game]\nfees = 1\n", "buy_game.fees: unknown key (did you mean 'fee'?)"),
    ("[insurance]\nneeds = \"high_card\"\n", "insurance.needs: 'high_card': a hand such as"),
    ("[insurance]\nneeds = [1]\n", "insurance.needs: '[1]'"),
    ("[insurance]\nlimit = {a = 1}\n", "insurance.limit: {'a': 1}: one of half_the_payout, the_payout"),
    ("[insurance]\ndealer_qualifies = \"kept\"\n", "insurance.dealer_qualifies: 'kept'"),
    ("[two_combinations]\nace_king = \"yes\"\n", "two_combinations.ace_king: must be true or false"),
    ("[ante_pays]\ndealer_does_not_qualify_with = 4\n", "ante_pays.dealer_does_not_qualify_with: must be a table"),
    ("[ante_pays]\ndealer_does_not_qualify_with = { straights = 4 }\n",
     "ante_pays.dealer_does_not_qualify_with.straights: unknown key (did you mean 'straight'?)"),
    ("[ante_pays]\ndealer_does_not_qualify_with = { straight = -4 }\n",
     "ante_pays.dealer_does_not_qualify_with.straight: must not be negative"),
    ("[two_combinations]\nstraight_with_pair = \"both\"\n", "two_combinations.straight_with_pair: 'both'"),
    ("[boxes]\ncount = 2\ndecisions = \"seeing_both_hands\"\n[insurance]\n", "boxes: two boxes at a table with the "
                                                                            "options of Russian Poker"),
])
def test_a_bad_section_is_one_line_naming_the_key(section, message):
    with pytest.raises(StudoddsError) as e:
        parse_variant_text(US + section, "x.toml")
    assert str(e.value).startswith("x.toml: ") and message in str(e.value) and "\n" not in str(e.value)


def test_a_section_that_is_not_a_table_is_refused():
    with pytest.raises(StudoddsError, match="x.toml: insurance: must be a table"):
        parse_variant_text("insurance = 1\n" + US, "x.toml")


_values = st.one_of(st.integers(-5, 5), st.booleans(), st.floats(allow_nan=True), st.text(max_size=20),
                    st.sampled_from(["highest", "lowest", "kept", "lost", "the_payout", "three_of_a_kind", "1/2",
                                     "two_straights", "hands_compared", "qualifier_applies", "may_buy",
                                     "may_not_buy", "first_dealt"]),
                    st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))
_KEYS = {"buy_game": ["fee", "replaces", "same_rank", "after", "insured", "Fee"],
         "insurance": ["needs", "limit", "dealer_qualifies", "stake"],
         "two_combinations": ["straight_with_pair", "ace_king", "aceking"]}


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(sorted(_KEYS)).flatmap(lambda name: st.tuples(st.just(name), st.one_of(
    _values, st.dictionaries(st.sampled_from(_KEYS[name]), _values, max_size=4)))))
def test_fuzz_the_sections(named):
    """Any value of a section: a Russian table, or one line naming the file and the section."""
    name, section = named
    tick("russian sections")
    doc = tomllib.loads(US)
    doc[name] = section
    try:
        v = parse_variant(doc, "fuzz.toml")
    except StudoddsError as exc:
        assert str(exc).startswith(f"fuzz.toml: {name}") and "\n" not in str(exc), str(exc)
    else:
        assert v.russian and isinstance(section, dict) and kinds.kind_of(v).name == "russian"


def test_one_hand_through_the_api_and_the_cli(tmp_path):
    path = tmp_path / "lunar.toml"
    path.write_text(TEXT)
    h = studodds.hand("Qc Qd Qh Ac Kd", up="7s", variant=str(path))
    row = h.rows[0]
    assert (row.pay.first, row.pay.second, row.pay.pay) == (Category.TRIPS, Category.HIGH_CARD, 4)
    assert row.raises and row.bought == row.no_qualify and not row.insure
    r = run_cli("hand", "Qc Qd Qh Ac Kd", str(path), "--up", "7s", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == h.to_dict()
    text = run_cli("hand", "--up", "7s", "Qc Qd Qh Ac Kd", "--variant", str(path)).stdout
    assert "three of a kind + A-K, the bet pays 4 to 1" in text and " raise " in text


@pytest.mark.parametrize("command", [("holecards",), ("progressive",), ("design", "sensitivity")],
                         ids=lambda c: c[0])
def test_what_the_kind_does_not_give_is_refused_in_one_line(tmp_path, command):
    """(``simulate`` plays a Russian table: tests/test_russian_simulate.py; ``strategies`` costs
    its simple strategies without draws and refuses them with draws: tests/test_russian_strategies.py.)"""
    (tmp_path / "lunar.toml").write_text(TEXT)
    refused(tmp_path, *command, "lunar.toml", needle="is a Russian Poker table")


@pytest.mark.parametrize("command", ["analyze", "batch", "diff"])
def test_a_whole_game_with_draws_the_settlement_does_not_model_is_refused_in_one_line(tmp_path, command):
    """Counted by rank patterns once it is modelled (tests/test_russian_draws_game.py); a bought
    game against a dealer who needs more than a pair is not, and says so before any counting."""
    text = re.sub(r'qualifier = "[^"]*"', 'qualifier = "44"', TEXT) + "[buy_card]\nfee = 1\n"
    assert 'qualifier = "44"' in text
    (tmp_path / "lunar.toml").write_text(text)
    refused(tmp_path, command, "lunar.toml", *(["lunar.toml"] if command == "diff" else []),
            needle="buying the game is modelled for a dealer who qualifies with a pair or less")


def test_one_hand_with_draws_through_the_cli(tmp_path):
    (tmp_path / "lunar.toml").write_text(TEXT + "[buy_card]\nfee = 1\n")
    r = run_cli("hand", "Qc Qd Qh Ac Kd", "lunar.toml", "--up", "7s", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["kind"] == "russian_hand_draws"
    actions = data["situations"][0]["actions"]
    assert sorted(a["label"] for a in actions) == ["buy a sixth card", "keep"]
    assert actions[0]["ev_antes"]["value"] >= actions[1]["ev_antes"]["value"]          # best first
    text = run_cli("hand", "Qc Qd Qh Ac Kd", "lunar.toml", "--up", "7s", cwd=tmp_path).stdout
    assert f"Up card 7s: best action {actions[0]['label']}" in text and "games bought" in text


def test_a_table_the_settlement_does_not_model_is_refused_in_one_line(tmp_path):
    (tmp_path / "lunar.toml").write_text(TEXT.replace('name = "lunar"', 'name = "lunar"\nface_down_hand = "loses"'))
    refused(tmp_path, "hand", "Qc Qd Qh Ac Kd", "lunar.toml", "--up", "7s",
            needle="the options of Russian Poker are modelled without a hand left face down")


def test_pays_too_large_for_exact_sums_are_refused_in_one_line(tmp_path):
    big = TEXT.replace("four_of_a_kind = 20", "four_of_a_kind = 1000000000").replace(
        "full_house = 7", 'full_house = "1/999999937"')
    (tmp_path / "big.toml").write_text(big)
    refused(tmp_path, "hand", "Ac Ad Ah As Kc", "big.toml", "--up", "7s",
            needle="pays too large for exact 64-bit sums of the bought game")


# What an option is worth is the certified table against the same table without it: each file that
# says so in docs/variants must be its table with that one rule changed, or the worth published in
# docs/russian.md would measure something else (a typo in a copied section, a rule left behind).
VARIANTS = Path(__file__).resolve().parents[1] / "docs" / "variants"
ONE_RULE_CHANGED = [
    ("russian-classic-ante-paid", "russian-classic", lambda v: {"ante_win": Fraction(1)}),
    ("russian-classic-ante-paid-unless-drew", "russian-classic-ante-paid", lambda v: {"ante_win_unless": "drew_or_bought"}),
    ("russian-classic-hands-compared", "russian-classic-ante-paid",
     lambda v: {"buy_game": replace(v.buy_game, after="hands_compared")}),
    ("russian-classic-without-insurance", "russian-classic", lambda v: {"insurance": None}),
    ("russian-classic-without-two-combinations", "russian-classic", lambda v: {"two_combinations": None}),
    ("russian-classic-without-draws", "russian-classic", lambda v: {"draws": None}),
    ("lunar-house-hands-compared", "lunar-house", lambda v: {"buy_game": replace(v.buy_game, after="hands_compared")}),
    ("lunar-house-without-insurance", "lunar-house", lambda v: {"insurance": None}),
    ("lunar-house-without-two-combinations", "lunar-house", lambda v: {"two_combinations": None}),
    ("lunar-house-without-purchase", "lunar-house", lambda v: {"buy_game": None}),
    # the old reading, certified before the instant payout of § 671a.12(a) was counted: without it too
    ("lunar-pennsylvania-hands-compared", "lunar-pennsylvania",
     lambda v: {"buy_game": replace(v.buy_game, after="hands_compared"), "ante_instant": {}}),
    ("lunar-pennsylvania-without-purchase", "lunar-pennsylvania", lambda v: {"buy_game": None}),
    ("lunar-pennsylvania-without-draws", "lunar-pennsylvania", lambda v: {"draws": None}),
]


@pytest.mark.parametrize("name,base,change", ONE_RULE_CHANGED, ids=[c[0] for c in ONE_RULE_CHANGED])
def test_an_option_is_worth_its_table_with_that_rule_alone_changed(name, base, change):
    b = load_variant_file(VARIANTS / f"{base}.toml").variant
    v = load_variant_file(VARIANTS / f"{name}.toml").variant
    assert v.name == name and v.description != b.description
    assert v == replace(b, name=v.name, description=v.description, **change(b))
    assert v != b


def test_the_ante_returned_after_a_draw_or_a_purchase_is_a_rule_of_the_file_counted_with_the_draw(tmp_path):
    """One rules summary of classic Russian Poker pays the ante on a win unless the player drew or
    bought the game: a rule of the file (read, kept, written back) that a hand with draws is valued
    under through the CLI -- keeping is valued with the ante's pay, a sixth card bought without it
    (tests/test_russian_situation_ranks.py holds both to the tables that pay it and return it)."""
    text = TEXT.replace("[ante_pays]\nplayer_wins = 0\n", "[ante_pays]\nplayer_wins = 1\n"
                                                         "player_wins_unless = \"drew_or_bought\"\n")
    v = parse_variant_text(text, "classic.toml")
    assert v.ante_win_unless == "drew_or_bought" and v.to_dict()["ante_pays"]["player_wins_unless"] == "drew_or_bought"
    path = tmp_path / "classic.toml"
    path.write_text(text + "[buy_card]\nfee = 1\n")
    r = run_cli("hand", "Qc Qd Qh Ac Kd", str(path), "--up", "7s", "--json")
    assert r.returncode == 0, r.stderr
    actions = {a["action"] for a in json.loads(r.stdout)["situations"][0]["actions"]}
    assert len(actions) == 2, actions                      # keep, and buy a sixth card


def test_the_ante_paid_unless_the_game_was_bought_is_counted_without_the_draw(us_counts):
    """Without the draw the rule is the ante paid on a win unless the game was bought: counted
    exactly -- a stood-pat win nets the ante and the bet's pay, a bought game's win the bet's pay
    less the fee -- and worth less to the player than the ante paid on every win (one count-table
    row, a pair of aces with K-Q-J, whose games are bought; the whole game against its final hands
    one by one and the final hands against the literal reading: tests/test_russian_game.py,
    tests/test_russian_final_hand.py).  The workbook's live net of every row is the row's net."""
    import numpy as np

    from enumerate.core.engine import COMPLETIONS
    from enumerate.russian.game import EVENTS, games_sums, return_rows
    from evaluator.ranking import CATEGORY_BY_STRENGTH
    base = TEXT.replace("[ante_pays]\nplayer_wins = 0\n", "[ante_pays]\nplayer_wins = 1\n")
    unless = base.replace("player_wins = 1\n", "player_wins = 1\nplayer_wins_unless = \"drew_or_bought\"\n")
    tables = {name: parse_variant_text(text, f"{name}.toml") for name, text in (("unless", unless), ("paid", base))}
    row = int(np.flatnonzero(CATEGORY_BY_STRENGTH[us_counts.strength] == Category.ONE_PAIR)[-1])
    expected = {}
    for (name, v), sums in zip(tables.items(), games_sums(us_counts, list(tables.values()), rows=np.array([row]))):
        assert any(EVENTS[e] == "bought_won" for e, _, _ in sums.combinations), name
        rows, expected[name], _, meanings = return_rows(v, sums, sums.situations * COMPLETIONS * sums.dn)
        if name != "unless":
            continue
        won = {r.outcome: r.pays for r in rows if r.outcome.startswith("player_wins_") and "insured" not in r.outcome}
        bought = {r.outcome: r.pays for r in rows if r.outcome.startswith("bought_won_") and "insured" not in r.outcome}
        assert won["player_wins_one_pair_a_k"] == 1 + 2 * 2 and bought["bought_won_one_pair_a_k"] == -1 + 2 * 2
        _live_nets_are_the_rows(v, list(meanings), {r.outcome: r.pays for r in rows})
    assert expected["paid"] > expected["unless"]


def test_the_ante_paid_unless_the_player_drew_is_counted_with_the_draw():
    """The classic rules with the draw and the ante paid on a win only without a draw or a purchase,
    the whole game's kernel on one group (a jack-high flush against a deuce: kept in some suit
    patterns, a sixth card bought in the others): a kept hand's win nets the ante and the bet's
    pay, a drawn one's the bet's pay less the fee, as rows of their own that the table's known rows
    name; the workbook's live net of every row is the row's net."""
    import numpy as np
    from test_russian_ranks import RANKS, pattern

    from enumerate.russian import ranks
    from enumerate.russian.slice import known_rows
    text = (Path(__file__).resolve().parents[1] / "docs" / "variants" / "russian-classic.toml").read_text().replace(
        "[ante_pays]\nplayer_wins = 0\n", "[ante_pays]\nplayer_wins = 1\nplayer_wins_unless = \"drew_or_bought\"\n")
    v = parse_variant_text(text, "classic-unless.toml")
    fields = ranks.shard_fields(v, pattern("J8643")[None, :].astype(np.int8), np.array([RANKS.index("2")]),
                                frozenset({Category.FLUSH}), threads=1)
    nets = {o: Fraction(net) for table in fields["rows"] for o, net, _ in table.values()}
    assert fields["situations"][0] and fields["situations"][6]                 # kept, and a sixth card bought
    assert nets["player_wins_flush"] == 1 + 2 * 5 and nets["player_wins_flush_after_a_draw_fee_1"] == 2 * 5 - 1
    meanings = known_rows(v, list(range(7)))
    _live_nets_are_the_rows(v, [meanings[o] for o in nets], nets)


def _live_nets_are_the_rows(v, meanings, nets) -> None:
    """The workbook's live net of each row (the Russian report's terms, its inputs at the table's
    values: the ante's pays, the bet, one ante for a fee, half the payout insured) is ``nets[row]``."""
    from enumerate.russian.report import RUSSIAN_REPORT
    terms = RUSSIAN_REPORT.net_terms({"variant": v.to_dict(), "russian": {"return_table_rows": meanings}})
    inputs = {"ante_win": 1, "ante_nq": 1, "raise": 2, "buy_game_fee": 1, "insurance_share": Fraction(1, 2),
              "draw_fee_1": 1, **{f"pay_{c.key}": v.raise_pays[c] for c in Category}}
    for outcome, net in nets.items():
        live = sum((k * math.prod((inputs[n] for n in names), start=Fraction(1)) for k, names in terms[outcome]),
                   Fraction(0))
        assert live == net, outcome
