"""One Russian Poker situation's every action from the rank-pattern kernel (the path `hand` takes)
against the same situation's draws counted one by one (enumerate/russian/draws.py, which
test_russian_draws.py holds to the final hands valued on their own): the same actions, EVs, draws
raised and insured, games bought and dealer hands that qualify, to the last integer; and the
table's classes of final hand, cached, read back only when they hold together."""
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_russian_draws import DRAWS
from test_russian_final_hand import LUNAR, RULE_SETS, variant

from enumerate.core.array_store import keyed_path, load_arrays, save_arrays
from enumerate.core.counts import evaluator_fingerprint
from enumerate.core.exact_game import rules_text
from enumerate.draws.actions import BUY
from enumerate.rules.variant_file import load_variant_file
from enumerate.russian import ranks, situation_ranks
from enumerate.russian.draws import situation_actions
from enumerate.russian.hand import russian_hand
from enumerate.russian.settle import RussianSettlement
from evaluator.cards import parse_card, parse_hand

DOCS = Path(__file__).resolve().parents[1] / "docs" / "variants"
#: Situations whose up card's suit is not the kernel's suit 0 and whose hands mix suits (so the
#: kernel's frame reorders the cards), against up ranks that the purchase never replaces and that
#: it may replace; a flush draw, pairs, trips, a made straight.
SITUATIONS = [("Jh Th 9h 8c 2s", "Kd"), ("Qc Qd 9h As Kd", "3h"), ("5c 6c 7c 8c Kd", "5h"),
              ("2d 2h 2s Td Jh", "Ac"), ("4s 7h 9d Jc Kh", "2s"), ("9s Tc Jd Qh Kc", "7s")]


def _situation(text: str, up: str) -> tuple[tuple[int, ...], int]:
    return tuple(sorted(parse_hand(text))), parse_card(up)


def _action_of(hand: tuple[int, ...], a) -> int:
    return 0 if a.kind == "keep" else BUY if a.kind == "buy" else sum(1 << hand.index(c) for c in a.discard)


def test_the_cheap_actions_equal_the_draws_one_by_one():
    """Keep, every one- and two-card exchange and the sixth card of a situation whose frame
    reorders its cards, against the up card the purchase may replace."""
    v = variant(LUNAR + DRAWS)
    hand, up = _situation("Jh Th 9h 8c 2s", "Kd")
    mine = situation_ranks.situation_by_ranks(v, hand, up)
    assert len(mine.actions) == 33                # keep, 31 exchanges, the sixth card
    actions = [m for m in range(32) if bin(m).count("1") <= 2] + [BUY]
    theirs = situation_actions(v, hand, up, actions=actions)
    by_action = {_action_of(hand, a): a for a in mine.actions}
    for a in theirs.actions:
        assert by_action[_action_of(hand, a)] == a, a.label
    assert sum(a.bought > 0 for a in theirs.actions) >= 10 and sum(a.insured for a in mine.actions) > 0
    assert situation_ranks.situation_by_ranks(v, hand, up, threads=2) == mine    # its kinds in two calls


@pytest.mark.parametrize("draws", ["[buy_card]\nfee = 1\n", "[switch]\nfees = { 1 = 1 }\n",
                                   "[switch]\nfees = { 1 = 1, 2 = \"1/2\" }\n[buy_card]\nfee = 2\n"])
@pytest.mark.parametrize("threads", [1, 2])
def test_tables_of_a_few_cheap_actions_equal_the_draws_one_by_one(draws, threads):
    """A sixth card alone, one-card exchanges alone, and fees that differ by kind: every action."""
    v = variant(LUNAR + draws)
    hand, up = _situation("Qc Qd 9h As Kd", "3h")
    assert situation_ranks.situation_by_ranks(v, hand, up, threads=threads) == situation_actions(v, hand, up)


@pytest.mark.debug_sample
def test_the_ante_paid_unless_the_player_drew_is_paid_on_a_kept_hand_alone():
    """The ante paid on a win unless the player drew or bought: keeping is valued as the table
    that pays the ante on every win without a purchase, a sixth card bought as the table that
    returns it -- exactly, kernel and draws one by one alike, every action."""
    paid = RULE_SETS[6].replace("player_wins_unless = \"drew_or_bought\"\n", "")
    tables = {name: variant(rules + "[buy_card]\nfee = 1\n") for name, rules in
              (("unless", RULE_SETS[6]), ("paid", paid), ("returned", paid.replace("[ante_pays]\n", "[ante_pays]\nplayer_wins = 0\n")))}
    assert tables["unless"].ante_win_unless == "drew_or_bought" and tables["returned"].ante_win == 0
    hand, up = _situation("Qc Qd 9h As Kd", "3h")
    got = {name: situation_ranks.situation_by_ranks(v, hand, up) for name, v in tables.items()}
    assert got["unless"] == situation_actions(tables["unless"], hand, up)
    keep, buy = ({name: next(a for a in s.actions if a.kind == kind) for name, s in got.items()} for kind in ("keep", "buy"))
    assert buy["unless"].ev == buy["returned"].ev and keep["unless"].ev > keep["returned"].ev
    assert keep["paid"].ev > keep["unless"].ev        # a bought game's win returns it: fewer purchases pay


@pytest.mark.parametrize("threads", [1, 2, 3, 8])
@pytest.mark.parametrize("allowed", [[1, 1, 1, 1, 1, 1, 1], [1, 0, 1, 1, 1, 1, 1], [1, 0, 0, 0, 0, 0, 1],
                                     [1, 0, 1, 0, 0, 0, 0]])
def test_the_kinds_are_shared_among_threads_each_once(allowed, threads):
    bins = situation_ranks._kind_bins(np.array(allowed, dtype=np.uint8), threads)
    kinds = [k for b in bins for k in b if k]
    assert sorted(kinds) == [k for k in range(1, 7) if allowed[k]] and len(bins) <= threads
    assert all(b[0] == 0 for b in bins)                  # keep: valued by every call, taken from the first


def test_up_cards_of_one_rank_and_of_others_in_one_call_keep_their_order():
    v = variant(LUNAR + DRAWS)
    hand = _situation("Jh Th 9h 8c 2s", "Kd")[0]
    ups = [parse_card(c) for c in ("Kd", "3c", "Ks", "3h", "Ac")]
    together = situation_ranks.situations_by_ranks(v, hand, ups, threads=2)
    assert [s.up for s in together] == ups
    for s, u in zip(together, ups):
        assert s == situation_ranks.situation_by_ranks(v, hand, u)


def test_hand_takes_the_rank_kernel_and_falls_back_to_the_draws(monkeypatch):
    """`hand` on a table the rank kernel reads answers from it; on one it does not, draw by draw:
    the same answer either way."""
    v = variant(LUNAR + "[switch]\nfees = { 2 = 1 }\n")
    hand, up = _situation("Qc Qd 9h As Kd", "3h")
    fast = russian_hand(v, hand, up)
    assert fast.rows[0] == situation_ranks.situation_by_ranks(v, hand, up)
    called = []
    monkeypatch.setattr(situation_ranks, "supported", lambda variant: called.append(1) or "not read by ranks")
    assert not situation_ranks.by_ranks(v)
    slow = russian_hand(v, hand, up)
    assert called and slow == fast


@pytest.mark.slow
@pytest.mark.parametrize("rules", range(len(RULE_SETS)))
@pytest.mark.parametrize("which", [0, 1])
def test_every_action_equals_the_draws_one_by_one(rules, which):
    """Each rule set of the brute-force tests, with every exchange and the sixth card: every
    action of two situations (up ranks the purchase never and may replace), ordered alike."""
    v = variant(RULE_SETS[rules] + DRAWS)
    hand, up = _situation(*SITUATIONS[(2 * rules + which) % len(SITUATIONS)])
    assert situation_ranks.situation_by_ranks(v, hand, up) == situation_actions(v, hand, up)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["lunar-house", "lunar-pennsylvania", "russian-classic"])
def test_the_rule_sets_files_equal_the_draws_one_by_one(name):
    v = load_variant_file(str(DOCS / f"{name}.toml")).variant
    hand, up = _situation(*SITUATIONS[["lunar-house", "lunar-pennsylvania", "russian-classic"].index(name) + 3])
    assert situation_ranks.situation_by_ranks(v, hand, up) == situation_actions(v, hand, up)


def _classes(v):
    return ranks.pay_classes(v, RussianSettlement.of(v))


def _equal(a, b) -> bool:
    return (a[0] == b[0] and np.array_equal(a[1], b[1]) and (a[2] is None) == (b[2] is None)
            and (a[2] is None or all(np.array_equal(x, y) for x, y in zip(a[2], b[2]))))


def _path(v) -> Path:
    return keyed_path("russian-pays", _meta(v))


def test_the_pay_classes_are_cached_and_a_damaged_file_is_made_again(own_cache):
    v = variant(LUNAR + DRAWS)
    cold = _classes(v)
    path = _path(v)
    good = path.read_bytes()
    assert _equal(_classes(v), cold)                 # read back
    data = bytearray(good)
    data[-100] ^= 0xFF
    path.write_bytes(bytes(data))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = _classes(v)
    assert caught and _equal(again, cold)
    assert path.read_bytes() == good                 # made again, byte for byte


def test_cached_classes_that_do_not_hold_together_are_made_again(own_cache):
    """A file whose checksum holds but whose classes do not (a class beyond the pays): never used."""
    v = variant(LUNAR + DRAWS)
    cold = _classes(v)
    path = _path(v)
    arrays = {k: np.array(a) for k, a in load_arrays(path, _meta(v)).items()}
    arrays["pc6"][7] = len(cold[0])
    save_arrays(path, _meta(v), arrays)
    assert _equal(_classes(v), cold)


def _meta(v) -> dict:
    return {"kind": "russian-pays", "version": ranks.PAYS_VERSION, "evaluator": evaluator_fingerprint(),
            "rules": rules_text(v)}


_small = st.lists(st.integers(-3, 12), min_size=0, max_size=4)


@settings(max_examples=200, deadline=None)
@given(first=_small, second=_small, num=st.lists(st.integers(-5, 5), max_size=4),
       den=st.lists(st.integers(-2, 5), max_size=4), index=st.lists(st.integers(-2, 5), max_size=8),
       six=st.booleans())
def test_hostile_cached_classes_are_refused_never_raise(first, second, num, den, index, six):
    arrays = {"first": np.array(first, dtype=np.int16), "second": np.array(second, dtype=np.int16),
              "pay_num": np.array(num, dtype=np.int64), "pay_den": np.array(den, dtype=np.int64),
              "index5": np.resize(np.array(index or [0], dtype=np.int64), 7462 if index else len(index)),
              "pc6": np.zeros(18564 if six else 0, dtype=np.int16),
              "pc6_five": np.zeros(13 * 8192 if six else 0, dtype=np.int16),
              "pc6_six": np.zeros(8192 if six else 0, dtype=np.int16)}
    got = ranks._decoded(arrays)
    assert ranks._decoded({**arrays, "index5": arrays["index5"].astype(float)}) is None     # only integers
    if got is not None:
        pays, index5, tables = got
        assert len(pays) == len(first) > 0 and index5.shape == (7462,)
        assert ((index5 >= 0) & (index5 < len(pays))).all()
        assert (tables is not None) == six


@pytest.mark.parametrize("use_cache", [False, True])
def test_hand_keeps_the_classes_only_when_the_cache_is_on(tmp_path, monkeypatch, use_cache):
    """`hand --no-cache` neither reads nor writes a file of the cache; with the cache the table's
    classes of final hand are kept for the next hand."""
    from studodds import api
    folder = tmp_path / "cache"
    monkeypatch.setenv("STUDODDS_CACHE_DIR", str(folder))
    monkeypatch.setattr(ranks, "_RULES", {})
    path = tmp_path / "lunar.toml"
    path.write_text((DOCS / "lunar-house.toml").read_text())
    h = api.hand("Jh Th 9h 8c 2s", up="Kd", variant=str(path), use_cache=use_cache, threads=1)
    assert h.rows[0].best.label == "buy a sixth card"
    kept = sorted(f.name.split("-f")[0] for f in folder.glob("*.bin")) if folder.exists() else []
    assert kept == (["russian-pays"] if use_cache else [])
    assert use_cache or not folder.exists()


def test_a_terms_capsule_keeps_its_term_alive():
    """The kernel reads a term through its capsule: the capsule holds the term, so a term dropped
    from the rules (or made twice by two threads at once) is never freed under a running call."""
    import gc
    import sys
    rules = ranks.RussianRankRules(variant(LUNAR + DRAWS))
    capsule = rules.term(9)
    term = rules._terms[9, True]
    held = sys.getrefcount(term)
    rules._terms.clear()
    del capsule
    gc.collect()
    assert sys.getrefcount(term) == held - 2          # the rules' and the capsule's references gone


def test_two_threads_on_rules_made_afresh_value_one_hand_alike(monkeypatch):
    """One hand's kinds in two calls side by side, the term not made before (each call once made
    its own, one freeing the other's under it): the same as on one thread."""
    v = variant(LUNAR + DRAWS)
    hand, up = _situation("Jh Th 9h 8c 2s", "Kd")
    one = situation_ranks.situation_by_ranks(v, hand, up, threads=1)
    for _ in range(3):
        monkeypatch.setattr(ranks, "_RULES", {})
        assert situation_ranks.situation_by_ranks(v, hand, up, threads=2) == one
