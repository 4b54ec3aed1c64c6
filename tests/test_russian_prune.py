"""The rank kernel leaves out of the bought game's pass the discards no situation can take, and
changes no integer by it.

With a final term that never takes away (a purchase is made only when it gains), the kernel first
values every action of a group without the term twice: by the table's linear form (a lower bound)
and by ``cnet_hi``, the form in which every dealer hand that does not qualify is bought and ends in
the purchase's best outcome less the fee (an upper bound); then, best first, keeping and each
situation's action of the best lower bound are valued exactly with the term, and a discard whose
upper bound is below one of those exact values in every situation of the group is left out of the
term's second pass (enumerate/draws/_switch_ranks.pyx, ``_prune``).  Held here: the bounds hold action by action
against every action's exact value (rows of single situations); the sums, best actions and
keep-raises of sampled groups of each rule set are those counted without leaving anything out, to
the last integer; and that comparison fails when the bound is wrong (a bound below the truth
leaves out best actions)."""
import random
from fractions import Fraction
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np
import pytest
from test_russian_final_hand import variant
from test_russian_ranks import BOUGHT

from enumerate.draws import _switch_ranks
from enumerate.draws.actions import action_kind
from enumerate.draws.switch_ranks import draw_patterns, group_situations, switch_tables, value_groups
from enumerate.russian import ranks
from evaluator.ranking import Category
from studodds.api import load_variant

VARIANTS = Path(__file__).resolve().parents[1] / "docs" / "variants"
FILES = ["lunar-house.toml", "lunar-pennsylvania.toml", "russian-classic.toml"]
ALL = frozenset(Category)


def _groups(n: int, seed: int, most: int = 60) -> list[tuple[np.ndarray, int]]:
    """``n`` groups (rank pattern, up rank) drawn with ``seed``, of at most ``most`` situations."""
    every = [(np.bincount(c, minlength=13).astype(np.int8), ru)
             for c in combinations_with_replacement(range(13), 5) for ru in range(13)]
    every = [(h, ru) for h, ru in every if h.max() <= 4 and h[ru] < 4]
    rng = random.Random(seed)
    out: list[tuple[np.ndarray, int]] = []
    while len(out) < n:
        h, ru = rng.choice(every)
        if len(group_situations(h, ru, ALL)[1]) <= most:
            out.append((h, ru))
    return out


def _both(rules, qualifier: int, h: np.ndarray, ru: int, hi) -> tuple:
    """A group's sums, situations' best actions and keep-raises, with the upper bound ``hi``."""
    kept = rules.cnet_hi
    try:
        rules.cnet_hi = hi
        sums, _, best, keep, _ = value_groups(rules, qualifier, h[None, :], ru, ALL)
    finally:
        rules.cnet_hi = kept
    return sums.tolist(), best.tolist(), keep.tolist()


def _same_with_and_without(v, groups) -> None:
    rules = ranks.rank_rules(v)
    assert rules.cnet_hi is not None
    for h, ru in groups:
        pruned = _both(rules, v.qualifier.threshold, h, ru, rules.cnet_hi)
        full = _both(rules, v.qualifier.threshold, h, ru, None)
        assert pruned == full, (h.tolist(), ru)


@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_leaving_out_dominated_discards_changes_no_integer_of_the_rule_sets(name):
    _same_with_and_without(load_variant(str(VARIANTS / name)), _groups(3, FILES.index(name)))


@pytest.mark.slow
@pytest.mark.parametrize("rules,groups", BOUGHT)
def test_leaving_out_dominated_discards_changes_no_integer_of_every_purchase_reading(rules, groups):
    """Each reading of the purchase (the highest or lowest card replaced, again on its rank or
    kept, the qualifier applying again, a fee of a half) on groups of its own and sampled ones."""
    from test_russian_ranks import RANKS, pattern
    v = variant(rules)
    mine = [(pattern(text), RANKS.index(up)) for text, up, _ in groups]
    _same_with_and_without(v, mine[:2] + _groups(2, 7 + len(groups)))


@pytest.mark.slow
@pytest.mark.parametrize("name,hand,up", [("russian-classic.toml", "2469A", "5"), ("russian-classic.toml", "38TQK", "J"),
                                          ("lunar-house.toml", "257JK", "3"), ("lunar-pennsylvania.toml", "3478Q", "K")])
def test_best_first_changes_no_integer_of_a_high_card(name, hand, up):
    """Five ranks (a high card) are where the term's pass going best first leaves out the most --
    each situation's likeliest best valued exactly, then the discards whose upper bounds it beats
    everywhere left out: the group's sums, best actions and keep-raises are those of every action
    valued, to the last integer."""
    from test_russian_ranks import RANKS, pattern
    v = load_variant(str(VARIANTS / name))
    rules = ranks.rank_rules(v)
    h, ru = pattern(hand), RANKS.index(up)
    assert _both(rules, v.qualifier.threshold, h, ru, rules.cnet_hi) == _both(rules, v.qualifier.threshold, h, ru, None)


def _rows(rules, qualifier: int, cards: tuple[int, ...], ru: int, term, cnet) -> dict[int, Fraction]:
    """Every allowed action's value (antes, fee taken off) of one situation, from the kernel's rows
    with the raise form ``cnet`` and the final term ``term`` (None: without it)."""
    t = switch_tables(ru, qualifier)
    dvec, d_off = draw_patterns()
    n_term = rules.n_term if term is not None else 0
    shape = (1, _switch_ranks.ACTIONS, _switch_ranks.kind_fields(rules.n_stat, n_term) - 1, 2)
    rows = np.zeros(shape, dtype=np.uint64)
    h = np.bincount([c >> 2 for c in cards], minlength=13).astype(np.int8)[None, :]
    _switch_ranks.value_groups(
        ru, h, np.arange(2, dtype=np.int64), np.array([sorted(cards)], dtype=np.uint8), np.ones(1, dtype=np.int64),
        dvec, d_off, t.hole_i, t.iq, t.cut_lo, t.cut_hi, t.cls, t.gtab, rules.allowed, rules.forced5, rules.scale,
        rules.pclass, np.ascontiguousarray(cnet), rules.cins, rules.pc6, rules.pc6_five, rules.pc6_six,
        np.array(rules.tden, dtype=np.int64), rules.fee_num, rules.fee_den,
        np.zeros((1, _switch_ranks.group_fields(rules.n_stat, n_term), 2), dtype=np.uint64),
        np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.uint8), 1, None, term, rows)
    out = {}
    for a in range(_switch_ranks.ACTIONS):
        j = action_kind(a)
        if a and not rules.allowed[j]:
            continue
        value = (int(np.int64(rows[0, a, 0, 1])) << 64) + int(rows[0, a, 0, 0])
        unit = rules.dn[j] if term is not None else 1
        out[a] = Fraction(value, rules.tden[j] * unit) - rules.fees[j]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name,hand,up", [("lunar-house.toml", (45, 41, 30, 12, 1), 5),
                                          ("russian-classic.toml", (40, 36, 34, 20, 9), 9),
                                          ("lunar-pennsylvania.toml", (48, 44, 24, 13, 8), 11)])
def test_the_bounds_hold_action_by_action(name, hand, up):
    """Without the purchase no action is worth more than with it, and with every purchase won
    none is worth less: lo <= exact <= hi for every action of a situation (kernel frame: up card
    of suit 0)."""
    v = load_variant(str(VARIANTS / name))
    rules = ranks.rank_rules(v)
    q = v.qualifier.threshold
    exact = _rows(rules, q, hand, up, rules.term(up), rules.cnet)
    lo = _rows(rules, q, hand, up, None, rules.cnet)
    hi = _rows(rules, q, hand, up, None, rules.cnet_hi)
    assert exact.keys() == lo.keys() == hi.keys()
    assert all(lo[a] <= exact[a] <= hi[a] for a in exact)
    assert any(lo[a] < exact[a] for a in exact)                 # the purchase is worth something here
    best = max(lo.values())
    assert any(hi[a] < best for a in hi)                        # and some action is left out by them


@pytest.mark.slow
def test_a_bound_below_the_truth_is_caught():
    """The comparison above has teeth: with an 'upper' bound that leaves the purchase out (the
    linear form, less a little), best actions are left out and the sums change -- on the reading
    whose purchase is worth most, so that the groups' best actions lean on it."""
    v = load_variant(str(VARIANTS / "lunar-house-hands-compared.toml"))
    rules = ranks.rank_rules(v)
    wrong = rules.cnet.copy()
    wrong[:, 0] -= rules.scale
    changed = 0
    for h, ru in _groups(3, 11):
        changed += _both(rules, v.qualifier.threshold, h, ru, wrong) != _both(rules, v.qualifier.threshold, h, ru, None)
    assert changed


@pytest.mark.slow
def test_best_first_changes_no_integer_when_keeping_pays_the_ante_apart():
    """The classic rules with the ante paid on a win only without a draw or a purchase: keeping is
    valued with its own coefficients (the ante's pay), every draw without it -- leaving out the
    dominated discards of a high card still changes no integer."""
    from test_russian_ranks import RANKS, pattern

    from enumerate.rules.variant_file import parse_variant_text
    text = (VARIANTS / "russian-classic.toml").read_text().replace(
        "[ante_pays]\nplayer_wins = 0\n", "[ante_pays]\nplayer_wins = 1\nplayer_wins_unless = \"drew_or_bought\"\n")
    v = parse_variant_text(text, "classic-unless.toml")
    assert v.ante_win_unless == "drew_or_bought" and ranks.rank_rules(v).cnet_kept is not None
    _same_with_and_without(v, [(pattern("2469A"), RANKS.index("5"))])
