"""The figures a math report for a test lab quotes, beyond the return table.

All exact (``Fraction``) except where a figure is irrational (standard deviations, the
volatility index, the normal approximation) or comes from the floating-point convolution of
many hands (:mod:`enumerate.analysis.distribution`, with its error bound).

* RTP, return to player: 1 - house edge per ante, and 1 - element of risk per total wagered.
* The range of RTP over strategies: the worst possible play (the worse action in every
  situation), the simple strategies, optimal play.
* Volatility: standard deviation per hand and per unit wagered, the volatility index, and the
  net result after N hands.
* "1 in N" for every outcome; the largest win and its frequency; the player-hand categories
  (the dealer's hand has the same distribution: both are uniformly random 5-card hands of one
  deck); how often the dealer qualifies by up-card rank; what the ante and the raise each
  contribute to the return; the fold rate.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import NotRequired, TypedDict

import numpy as np

from enumerate.analysis.base import Analysis
from enumerate.analysis.distribution import DEFAULT_HANDS, NHands, NHandsJSON, n_hands, volatility_index
from enumerate.analysis.par import ParSheet, ParSheetJSON
from enumerate.analysis.strategies import StrategyResult, evaluate
from enumerate.analysis.strategies import raise_all as everything
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.jsonform import exact
from enumerate.core.memo import TableMemo
from enumerate.core.shapes import Exact
from enumerate.rules.settlement import Settlement
from evaluator.cards import RANKS
from evaluator.ranking import CATEGORY_BY_STRENGTH, N_HANDS, Category, strength_by_index


class StrategyRtpJSON(TypedDict):
    """A strategy's return to player."""

    name: str
    rtp_per_ante: Exact
    rtp_per_total_wagered: Exact


class LargestWinJSON(TypedDict):
    """The largest net win and how often it comes."""

    net_result_antes: Exact
    combinations: int
    probability: Exact
    one_in: Exact


class VolatilityJSON(TypedDict):
    """The volatility index at one confidence."""

    confidence: Exact
    value: float


class HandCategoryJSON(TypedDict):
    """How many hands of a category there are, and their probability."""

    hands: int
    probability: Exact


class CertificationFiguresJSON(TypedDict):
    """What the certified report adds to the return table; the certified table's
    (:class:`enumerate.game.components.CertificationJSON`) adds the RTP by component."""

    rtp_per_ante: Exact
    rtp_per_total_wagered: Exact
    rtp_by_strategy: list[StrategyRtpJSON]
    fold_rate: Exact
    ante_return_per_hand: Exact
    raise_return_per_hand: Exact
    largest_win: LargestWinJSON
    one_in: dict[str, Exact | None]
    standard_deviation_per_hand_antes: float
    standard_deviation_per_unit_wagered: float
    volatility_index: list[VolatilityJSON]
    player_hand_categories: dict[str, HandCategoryJSON]
    dealer_hand_categories: str
    dealer_qualifies_by_up_rank: dict[str, Exact]
    n_hands: list[NHandsJSON]
    par_sheet: NotRequired[ParSheetJSON]
    warnings: NotRequired[list[str]]


@dataclass(frozen=True)
class WorstPlay:
    """Worst possible play: the worse action in every situation (folding where both are
    equal).  Per ante: ``expected_return``; per total wagered: ``element_of_risk``."""

    expected_return: Fraction
    average_wager: Fraction

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_return

    @property
    def element_of_risk(self) -> Fraction:
        return self.house_edge / self.average_wager


def worst_play(a: Analysis, raise_all: Analysis) -> WorstPlay:
    """Worst play from optimal play and "raise everything", exactly, with no pass over the
    counts: in every situation min(EV(raise), EV(fold)) = EV(raise) + EV(fold) - max(...), so
    E[worst] = E[raise everything] + (-1) - E[optimal]; and worst play raises exactly where
    optimal play neither raises nor is indifferent."""
    expected = raise_all.expected_return - 1 - a.expected_return
    if a.indifferent_situations is None:
        raise AssertionError("the worst play needs the count of indifferent situations")
    raised = a.raised_situations + a.indifferent_situations
    total = a.total_combinations // COMPLETIONS
    return WorstPlay(expected, Settlement.of(a.variant).average_stake(Fraction(total - raised, total)))


def dealer_qualifies_by_up_rank(table: CountTable) -> dict[int, Fraction]:
    """P(dealer qualifies | up card rank r) for r = 0 (deuce) .. 12 (ace), over all situations
    (kept with the table: it does not depend on the paytable)."""
    return dict(_QUALIFIES.get(table, None, lambda: _qualifies_by_up_rank(table)))


#: Per count table: :func:`dealer_qualifies_by_up_rank`.
_QUALIFIES: TableMemo[None, dict[int, Fraction]] = TableMemo("dealer qualifies by up rank")


def _qualifies_by_up_rank(table: CountTable) -> dict[int, Fraction]:
    ranks = (table.up.astype(np.int64) >> 2).ravel()
    w = np.broadcast_to(table.weight.astype(np.int64)[:, None], table.up.shape).ravel()
    nq = (table.no_qualify.astype(np.int64) * table.weight.astype(np.int64)[:, None]).ravel()
    total = [int(w[ranks == r].sum()) * COMPLETIONS for r in range(13)]
    below = [int(nq[ranks == r].sum()) for r in range(13)]
    return {r: Fraction(total[r] - below[r], total[r]) for r in range(13)}


@lru_cache(maxsize=1)
def player_categories() -> dict[Category, int]:
    """Hands of each category among the 2,598,960 (royal flush apart)."""
    counts = np.bincount(CATEGORY_BY_STRENGTH[strength_by_index()], minlength=10)
    return {c: int(counts[c]) for c in Category}


@dataclass(frozen=True)
class CertificationFigures:
    """Everything the certified report adds to the return table (see the module docstring)."""

    analysis: Analysis
    worst: WorstPlay
    simple: tuple[StrategyResult, ...]
    dealer_by_up_rank: dict[int, Fraction]
    hands: tuple[NHands, ...]
    par: ParSheet | None = None          # the PAR table and its reachability check

    @property
    def rtp_per_ante(self) -> Fraction:
        return 1 - self.analysis.house_edge

    @property
    def rtp_per_total_wagered(self) -> Fraction:
        return 1 - self.analysis.element_of_risk

    def ante_and_raise(self) -> tuple[Fraction, Fraction]:
        """Expected result per hand (antes) from the ante and from the raise; they sum to the
        expected return."""
        v = self.analysis.variant
        bonus = {c.key: b for c, b in zip(Category, v.bonus_by_category())}
        ante = raise_ = Fraction(0)
        for r in self.analysis.rows:
            base, _, bonus_of = r.outcome.partition("_bonus_")
            if base.startswith("player_wins_"):
                a_part = v.ante_win + bonus[base[len("player_wins_"):]]
            elif base == "dealer_does_not_qualify":
                a_part = v.ante_no_qualify
            elif base in ("fold", "dealer_wins"):
                a_part = Fraction(-1)
            else:
                a_part = Fraction(0)
            if bonus_of:                            # the ante bonus is paid on the ante
                a_part += bonus[bonus_of]
            ante += a_part * r.probability
            raise_ += (r.pays - a_part) * r.probability
        return ante, raise_

    def largest_win(self) -> tuple[Fraction, int]:
        """The largest net win (antes) and the combinations that give it."""
        best = max((r for r in self.analysis.rows if r.combinations), key=lambda r: r.pays)
        return best.pays, sum(r.combinations for r in self.analysis.rows if r.pays == best.pays)

    def warnings(self) -> list[str]:
        """Sanity warnings of the certification figures (the reachability check)."""
        return [] if self.par is None else self.par.warnings()

    def to_dict(self) -> CertificationFiguresJSON:
        a = self.analysis
        ante, raise_ = self.ante_and_raise()
        win, win_comb = self.largest_win()
        strategies: list[StrategyRtpJSON] = [{"name": "worst possible play", "rtp_per_ante": exact(1 - self.worst.house_edge),
                       "rtp_per_total_wagered": exact(1 - self.worst.element_of_risk)}]
        strategies += [{"name": s.name, "rtp_per_ante": exact(1 - s.analysis.house_edge),
                        "rtp_per_total_wagered": exact(1 - s.analysis.element_of_risk)}
                       for s in sorted(self.simple, key=lambda s: -s.analysis.house_edge)]
        out: CertificationFiguresJSON = {
            "rtp_per_ante": exact(self.rtp_per_ante),
            "rtp_per_total_wagered": exact(self.rtp_per_total_wagered),
            "rtp_by_strategy": strategies,
            "fold_rate": exact(1 - a.raise_probability),
            "ante_return_per_hand": exact(ante),
            "raise_return_per_hand": exact(raise_),
            "largest_win": {"net_result_antes": exact(win), "combinations": win_comb,
                            "probability": exact(Fraction(win_comb, a.total_combinations)),
                            "one_in": exact(Fraction(a.total_combinations, win_comb))},
            "one_in": {r.outcome: (exact(Fraction(a.total_combinations, r.combinations)) if r.combinations else None)
                       for r in a.rows},
            "standard_deviation_per_hand_antes": a.standard_deviation,
            "standard_deviation_per_unit_wagered": a.standard_deviation / float(a.average_wager),
            "volatility_index": [{"confidence": exact(c), "value": v} for c, v in volatility_index(a).items()],
            "player_hand_categories": {c.key: {"hands": n, "probability": exact(Fraction(n, N_HANDS))}
                                       for c, n in sorted(player_categories().items(), reverse=True)},
            "dealer_hand_categories": "same as player_hand_categories (both hands are uniformly random 5-card hands of one deck)",
            "dealer_qualifies_by_up_rank": {RANKS[r]: exact(p) for r, p in sorted(self.dealer_by_up_rank.items(), reverse=True)},
            "n_hands": [h.to_dict() for h in self.hands],
        }
        if self.par is not None:
            out["par_sheet"] = self.par.to_dict()
        out["warnings"] = self.warnings()
        return out


def certification_figures(table: CountTable, a: Analysis, simple: Sequence[StrategyResult],
                          hands: Sequence[int] = DEFAULT_HANDS, threads: int = 1,
                          par: ParSheet | None = None) -> CertificationFigures:
    """Compute every figure of :class:`CertificationFigures` for an analysed variant (``par``:
    its PAR table, when the caller has it)."""
    raise_all = next((s.analysis for s in simple if s.name == "raise everything"), None)
    if raise_all is None:
        raise_all = evaluate(table, a.variant, {"raise everything": everything}, threads=threads)[0][1].analysis
    return CertificationFigures(a, worst_play(a, raise_all), tuple(simple),
                                dealer_qualifies_by_up_rank(table), tuple(n_hands(a, n) for n in hands), par)
