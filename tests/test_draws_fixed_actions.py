"""A strategy's draw, counted by the rank kernel: each situation takes a fixed action in place of
its best (``value_groups(..., actions=)``; enumerate/draws/_switch_ranks.pyx, ``fixed``), and only
keeping and the fixed actions' masks are valued -- the sums must be the fixed actions' rows.

The independent path is the kernel's every-action rows (``rows=``: every action of every
situation valued, nothing left out), which the per-hand tests hold against brute force: a group's
sums under fixed actions drawn at random must equal, field for field, the weighted sum of each
situation's row of its action, with the value of keeping beside them."""
import random
from pathlib import Path

import numpy as np
import pytest
from test_russian_prune import _groups

from enumerate.draws import _switch_ranks
from enumerate.draws.actions import action_kind
from enumerate.draws.switch_ranks import SwitchRules, draw_patterns, group_situations, switch_tables, value_groups
from enumerate.russian import ranks
from evaluator.ranking import Category
from studodds.api import load_variant

VARIANTS = Path(__file__).resolve().parents[1] / "docs" / "variants"
ALL = frozenset(Category)


def _rows(rules, qualifier: int, h: np.ndarray, ru: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A group's situations (cards, weights) and every action's sums per situation, as integers."""
    t = switch_tables(ru, qualifier)
    dvec, d_off = draw_patterns()
    cards, w = group_situations(h, ru, ALL)
    n_term = rules.n_term
    rows = np.zeros((len(w), _switch_ranks.ACTIONS, _switch_ranks.kind_fields(rules.n_stat, n_term) - 1, 2),
                    dtype=np.uint64)
    _switch_ranks.value_groups(
        ru, h[None, :], np.array([0, len(w)], dtype=np.int64), np.ascontiguousarray(cards, dtype=np.uint8),
        np.ascontiguousarray(w, dtype=np.int64), dvec, d_off, t.hole_i, t.iq, t.cut_lo, t.cut_hi, t.cls, t.gtab,
        rules.allowed, rules.forced5, rules.scale, rules.pclass, rules.cnet, rules.cins, rules.pc6, rules.pc6_five,
        rules.pc6_six, np.array(rules.tden, dtype=np.int64), rules.fee_num, rules.fee_den,
        np.zeros((1, _switch_ranks.group_fields(rules.n_stat, n_term), 2), dtype=np.uint64),
        np.zeros(len(w), dtype=np.int8), np.zeros(len(w), dtype=np.uint8), 1, None, rules.term(ru), rows,
        None, None, None, rules.cnet_kept)
    as_int = rows[..., 1].astype(np.int64).astype(object) * (1 << 64) + rows[..., 0].astype(object)
    return cards, w, as_int


def _allowed(rules) -> list[int]:
    return [a for a in range(_switch_ranks.ACTIONS) if a == 0 or rules.allowed[action_kind(a)]]


def _check(v, h: np.ndarray, ru: int, seed: int) -> None:
    rules = ranks.rank_rules(v) if v.russian is not None else SwitchRules(v)
    q = v.qualifier.threshold
    cards, w, rows = _rows(rules, q, h, ru)
    rng = random.Random(seed)
    pick = np.array([rng.choice(_allowed(rules)) for _ in w], dtype=np.int8)
    got = value_groups(rules, q, h[None, :], ru, ALL, actions=lambda c, r: pick)
    assert got.best.tolist() == pick.tolist()
    kf = _switch_ranks.kind_fields(rules.n_stat, rules.n_term)
    want = [0] * _switch_ranks.group_fields(rules.n_stat, rules.n_term)
    for s, a in enumerate(pick.tolist()):
        k = action_kind(a)
        want[kf * k] += int(w[s])
        for i in range(kf - 1):
            want[kf * k + 1 + i] += int(w[s]) * rows[s, a, i]
        want[7 * kf] += int(w[s]) * rows[s, 0, 0]
    assert got.sums[0].tolist() == want


@pytest.mark.parametrize("name", ["lunar-house.toml", pytest.param("russian-classic.toml", marks=pytest.mark.slow),
                                  "oasis-galewind.toml"])
def test_a_strategys_fixed_actions_sum_their_rows(name):
    """Random fixed actions (every allowed switch mask, and buying) on small groups of a Russian
    table with the bought game and of a switch table without a term."""
    v = load_variant(str(VARIANTS / name)) if (VARIANTS / name).exists() else load_variant(name.removesuffix(".toml"))
    for i, (h, ru) in enumerate(_groups(2, len(name), most=24)):
        _check(v, h, ru, i)


def test_a_fixed_action_the_table_does_not_allow_is_refused():
    v = load_variant(str(VARIANTS / "lunar-house.toml"))           # exchanges of 2-5 cards: no single card
    rules = ranks.rank_rules(v)
    h, ru = _groups(1, 3, most=24)[0]
    n = len(group_situations(h, ru, ALL)[1])
    with pytest.raises(ValueError, match="does not allow"):
        value_groups(rules, v.qualifier.threshold, h[None, :], ru, ALL, actions=lambda c, r: np.full(n, 1, np.int8))
