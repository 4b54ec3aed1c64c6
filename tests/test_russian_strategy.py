"""The strategy a whole game by rank patterns keeps (enumerate.russian.strategy): each situation
class's byte is a best action of that class (its value the best, by the one-situation path), the
bytes decode back to what was kept, a shard keeps its own and a total every shard's, and a forged
or damaged strategy is refused when read (ValueError), fuzzed."""
import base64
import random
import zlib

import numpy as np
import pytest
from fuzzstats import tick
from hypothesis import given, settings
from hypothesis import strategies as st
from test_russian_final_hand import variant

from enumerate.core.slices import Slice
from enumerate.draws.switch_ranks import group_situations
from enumerate.russian import ranks, strategy
from enumerate.russian import slice as rs
from enumerate.russian.situation_ranks import situation_by_ranks
from evaluator.ranking import Category

#: Exchanges of one or two cards and a sixth card, each one ante, the options of the house's Lunar table.
TABLE = ("[ante_pays]\nplayer_wins = 0\n[switch]\nfees = { 1 = 1, 2 = 1 }\n[buy_card]\nfee = 1\n"
         "[two_combinations]\n[insurance]\n[buy_game]\n")


def test_kept_best_actions_decode_to_what_was_kept():
    best = [np.array([0, 5, 32], dtype=np.int8), np.zeros(0, dtype=np.int8), np.array([31], dtype=np.int8)]
    counts, got = strategy.decode(strategy.encode(best), 3)
    assert counts == [3, 0, 1] and got.tolist() == [0, 5, 32, 31]
    with pytest.raises(ValueError, match="covers 3 groups"):
        strategy.decode(strategy.encode(best), 4)


@pytest.mark.slow
def test_each_class_keeps_a_best_action_of_its_situation():
    """Sampled classes of three groups (five ranks, a pair, two pairs against a king): the kept
    byte, read back as the cards it discards, is an action whose value is the situation's best."""
    v = variant(TABLE)
    rows = []
    for pattern in ((1, 4, 6, 9, 12), (3, 3, 7, 8, 10), (2, 2, 5, 5, 9)):
        h = np.zeros(13, dtype=np.int8)
        for r in pattern:
            h[r] += 1
        rows.append(h)
    h = np.array(rows)
    up = np.full(3, 11)
    fields = ranks.shard_fields(v, h, up, frozenset(Category), threads=2)
    counts, best = strategy.decode(fields["best"], 3)
    rng = random.Random(3)
    at = 0
    for g in range(3):
        cards, _ = group_situations(h[g], 11, frozenset(Category))
        assert counts[g] == cards.shape[0]
        for i in rng.sample(range(cards.shape[0]), min(3, cards.shape[0])):
            hand = tuple(int(c) for c in cards[i])
            code = int(best[at + i])
            s = situation_by_ranks(v, hand, 4 * 11)           # the up card's suit is 0: the kernel's frame
            chosen = [a for a in s.actions if (32 if a.kind == "buy" else
                                               sum(1 << hand.index(c) for c in a.discard)) == code]
            assert len(chosen) == 1 and chosen[0].ev == s.ev, (hand, code)
        at += cards.shape[0]
    assert at == best.size


@pytest.mark.slow
def test_a_slice_keeps_each_shards_strategy_and_a_damaged_one_is_refused():
    v = variant(TABLE.replace("fees = { 1 = 1, 2 = 1 }", "fees = { 2 = 1 }"))
    got = rs.slice_run(v, "", Slice.parse("A", "four_of_a_kind"), None, "rank_patterns").run(threads=2)
    kept = got.sums.strategy
    assert kept is not None and len(kept) == 3                  # 156 groups: three shards of 64
    assert sum(sum(strategy.decode(x)[0]) for x in kept.values()) > 0
    data = got.sums.to_json()
    weights = np.array([got.situations], dtype=np.int64)
    assert rs.SliceSums.from_json(data, weights, ranks=True).strategy == kept
    key = next(iter(kept))
    counts, blob = kept[key]
    for damaged in ([counts, blob[:-4]], [counts[:-1] + [counts[-1] + 1], blob], [counts, 7],
                    [counts, base64.b64encode(zlib.compress(bytes([40] * sum(counts)))).decode()]):
        with pytest.raises(ValueError, match="strateg"):
            rs.SliceSums.from_json({**data, "strategy": {**kept, key: damaged}}, weights, ranks=True)
    older = {k: x for k, x in data.items() if k != "strategy"}   # counted before strategies were kept
    assert rs.SliceSums.from_json(older, weights, ranks=True).strategy is None


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.one_of(st.none(), st.integers(), st.text(max_size=30), st.lists(st.integers(0, 5), max_size=4),
                 st.tuples(st.lists(st.integers(-2, 70), max_size=4),
                           st.one_of(st.text(max_size=30), st.binary(max_size=40).map(
                               lambda b: base64.b64encode(zlib.compress(b)).decode())))))
def test_fuzz_a_kept_strategy_is_one_or_one_value_error(kept):
    tick("kept strategy")
    value = list(kept) if isinstance(kept, tuple) else kept
    try:
        counts, best = strategy.decode(value)
    except ValueError:
        return
    assert sum(counts) == best.size and (best.size == 0 or 0 <= int(best.min()) <= int(best.max()) <= 32)
