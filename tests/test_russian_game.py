"""The whole game of a Russian Poker table without draws, against the final hands one by one.

Every situation of sampled count-table rows is valued by :func:`final_hand_value` (itself checked
against the literal brute force in test_russian_final_hand.py); the whole game's sums over those
rows -- every return-table key, every strategy sum, the values -- must be theirs to the last
integer.  With every option taken away the game is the plain game's, figure by figure."""
from fractions import Fraction

import numpy as np
import pytest
from test_russian_final_hand import LUNAR, RULE_SETS, variant

from enumerate.analysis.base import analyze
from enumerate.core.engine import COMPLETIONS
from enumerate.game import kinds
from enumerate.russian.final_hand import final_hand_value
from enumerate.russian.game import EVENTS, analysis_of, game_sums, raise_chart, return_rows, without
from enumerate.russian.settle import RussianSettlement
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category, category


def expected_sums(counts, v, rows, dn, raises=None):
    """The return-table keys, the strategy's sums and the values of ``rows``, situation by situation
    (``raises``: a fixed strategy's raise per count-table row and up column, else optimal play's)."""
    s = RussianSettlement.of(v)
    from enumerate.russian.settle import pays_by_strength
    pays, index = pays_by_strength(s)
    combos: dict[tuple[int, int, int], int] = {}
    strategy = np.zeros((10, 13, 6), dtype=object)
    values = Fraction(0)
    for r in rows:
        w = int(counts.weight[r])
        cards = tuple(int(c) for c in counts.hands[r])
        for up in counts.up[r].tolist():
            f = final_hand_value(v, cards, up)
            pay = int(index[int(counts.strength[r])])
            assert f.pay == pays[pay]
            raised = f.raises if raises is None else bool(raises[r][list(counts.up[r]).index(up)])
            values += w * (f.ev_raised if raised else -1) if raises is not None else w * f.ev
            insured = int(raised and f.insure)
            bought = f.bought if f.buys else 0            # an insured box barred from buying buys none
            if raised:
                ends = [int(x * dn) if f.buys else 0 for x in f.purchases_end]
                by_event = {"player_wins": f.win * dn, "dealer_does_not_qualify": (f.no_qualify - bought) * dn,
                            "push": f.tie * dn, "dealer_wins": f.lose * dn, "bought_won": ends[0],
                            "bought_push": ends[1], "bought_lost": ends[2], "bought_short": ends[3]}
            else:
                by_event = {"fold": COMPLETIONS * dn}
            for event, c in by_event.items():
                if c:
                    k = (EVENTS.index(event), pay, insured)
                    combos[k] = combos.get(k, 0) + w * c
            cell = strategy[int(category(int(counts.strength[r]))), up >> 2]
            cell += np.array([w, w * raised, w * insured, w * (f.ev_raised == -1),
                              w * f.no_qualify * raised, w * bought * raised], dtype=object)
    return combos, strategy, values


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"rules{RULE_SETS.index(r)}")
def test_the_whole_game_is_its_situations_one_by_one(us_counts, rules):
    """Two count-table rows (a trips hand and a high-card hand, 94 situations), every rule set."""
    v = variant(rules)
    cats = CATEGORY_BY_STRENGTH[us_counts.strength]
    rows = [int(np.flatnonzero(cats == Category.TRIPS)[5]), int(np.flatnonzero(cats == Category.HIGH_CARD)[-1])]
    sums = game_sums(us_counts, v, threads=2, rows=np.array(rows))
    combos, strategy, values = expected_sums(us_counts, v, rows, sums.dn)
    assert strategy[..., 1].sum() > 0 and (v.buy_game is None or strategy[..., 5].sum() > 0)
    assert sums.combinations == combos
    assert (sums.strategy == strategy).all()
    assert Fraction(sums.values, sums.scale * sums.dn * COMPLETIONS) == values
    assert sums.situations == 47 * sum(int(us_counts.weight[r]) for r in rows)


def test_a_sampled_row_is_its_situations(us_counts):
    """One row under the Lunar rules (a pair of aces with K-Q-J: raised, bought, A-K second), in the quick tier."""
    v = variant(LUNAR)
    cats = CATEGORY_BY_STRENGTH[us_counts.strength]
    row = int(np.flatnonzero(cats == Category.ONE_PAIR)[-1])
    sums = game_sums(us_counts, v, rows=np.array([row]))
    combos, strategy, values = expected_sums(us_counts, v, [row], sums.dn)
    assert strategy[..., 5].sum() > 0 and any(EVENTS[e] == "bought_won" for e, _, _ in combos)
    assert sums.combinations == combos and (sums.strategy == strategy).all()
    assert Fraction(sums.values, sums.scale * sums.dn * COMPLETIONS) == values
    rows, expected, second, _ = return_rows(v, sums, sums.situations * COMPLETIONS * sums.dn)
    assert expected == values / sums.situations
    chart = raise_chart(us_counts, sums.raises)                    # strategy.md's chart: the same raises
    assert chart.total.sum() == us_counts.n_situations and chart.raised.sum() == strategy[..., 1].sum()
    assert chart.raised[int(us_counts.strength[row])].sum() == strategy[..., 1].sum()
    assert sum(r.probability for r in rows) == 1 and len({r.outcome for r in rows}) == len(rows)


@pytest.mark.slow
def test_every_option_taken_away_is_the_plain_game(us_counts):
    """The settlement without options, summed by the game's loop, is the plain game figure by figure."""
    plain = without(variant(LUNAR), "all")
    assert not plain.russian
    a, _ = analysis_of(plain, game_sums(us_counts, plain, threads=2))
    b = analyze(us_counts, plain, threads=2)
    for name in ("house_edge", "element_of_risk", "variance", "raise_probability", "hit_frequency",
                 "dealer_qualifies", "total_combinations", "raised_situations", "average_wager",
                 "raise_by_category"):
        assert getattr(a, name) == getattr(b, name), name
    by_net = {}
    for r in a.rows:
        by_net[r.pays] = by_net.get(r.pays, 0) + r.combinations
    plain_by_net = {}
    for r in b.rows:
        plain_by_net[r.pays] = plain_by_net.get(r.pays, 0) + r.combinations
    assert {k: c for k, c in by_net.items() if c} == {k: c for k, c in plain_by_net.items() if c}


def test_a_table_with_or_without_draws_is_of_the_russian_kind():
    assert kinds.require(variant(LUNAR + "[buy_card]\nfee = 1\n"), "analyze").name == "russian"   # test_russian_draws_game
    assert kinds.require(variant(LUNAR), "analyze").name == "russian"
