"""The game of a Russian Poker table with draws counted by rank patterns.

The rank-pattern kernel of the draws (:mod:`enumerate.draws.switch_ranks`, ``_switch_ranks.pyx``)
values every draw of every situation of a group (player rank pattern, up rank) from the dealer's
counts against the final hand -- no qualifier, win, tie of ``n`` hole-card sets -- through a
linear form per *class* of final hand.  Russian Poker's options other than the bought game keep
that form:

* **two combinations**: a five-card hand's pay is a function of its strength
  (:func:`enumerate.russian.settle.pays_by_strength`), so the classes are the distinct pays
  (:class:`~enumerate.russian.settle.HandPay`, which also fixes the ante's pay when the dealer
  does not qualify); a six bought is paid by all six cards -- a function of their ranks without a
  flush (by the multiset of its six ranks), of the five suited ranks and the other card's rank
  with five of a suit, of the six ranks with six of a suit: three tables the kernel reads;
* **insurance**: linear in the same counts (a unit stake nets +1 when the dealer does not
  qualify, -1 or 0 otherwise, times the class's limit), taken when it pays: an insured raise is
  counted under its class + the number of classes, so the return table keeps it apart;
* **the ante rule** and a maximum payout: in each class's nets;
* **an instant payout** on a dealt hand (``[ante_pays] instant_payout``): those situations are
  left out of the kernel and each nets its pay over every dealer set, one return-table row of the
  kept hands' kind (a "paid at once" cell of the strategy chart; its dealer hands counted as not
  qualifying, for none is played).

With n dealer sets, raising a hand of class c is worth (in units of 1 / scale antes, scale
making every net whole) nq * (a_nq - a_lose) + win * (a_win - a_lose) + tie * (a_push - a_lose)
+ n * a_lose, a_state = the settlement's net (:class:`enumerate.russian.game.IntegerNets`), and
insuring the same form over the stake's nets.  The kernel's sums per kind of best action --
situations, value, raised draws, and per class (insured or not) the draws raised, their dealer
counts by state, the folds -- are the return table's rows (:func:`enumerate.russian.game.row_of`,
the action's fee taken off), in the units the situation-class path counts them, so a slice
counted both ways gives the same integers (the tests compare them).

**The bought game** is the kernel's *final term* (``_bought.RankTerm``; the kernel's
enumerate/draws/_final_term.pxd): what buying adds to raising a final hand depends on its
strength and pay, the unseen cards of each rank and -- through the dealer's flushes and four kept
cards of one suit -- the unseen cards of a suit, which a leaf of draws knows for s0, the up card's
suit.  When the purchase keeps the up card, the kept cards can be of one suit only in s0; when it
replaces the up card (its rank the highest of a dealer hand that does not qualify, or the lowest
when the lowest is replaced), his four hole cards may be of any other suit: that is the term's
*side part*, a function of the final hand's key and of the unseen ranks of that suit, which the
kernel adds per situation -- summed over the draws by the pairs (s0 ranks, the suit's dead ranks)
where every leaf raises whatever the term adds, else every draw's suits apart.  With the term the
kernel's values are in units of 1 / (scale * dn), dn a common multiple of the replacement pools,
and each class also counts the dealer hands bought and how the purchases end -- the return
table's "game bought" rows.

The kernel leaves out of the term's pass the discards that cannot be any situation's best (see
``_switch_ranks.pyx``): an action is worth no less than without the purchase (a purchase is
made only when it gains) and no more than when every dealer hand that does not qualify is bought
and ends in the purchase's best outcome less the fee (``cnet_hi``) -- a linear form, valued
without the term.  The same integers: the tests compare the groups both ways.
"""
from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from enumerate.core.array_store import ArrayCache, keyed_path
from enumerate.core.counts import evaluator_fingerprint
from enumerate.core.exact_game import rules_text
from enumerate.draws import _switch_ranks
from enumerate.draws.actions import KINDS, action_kind, cards_drawn, chart_key
from enumerate.draws.labels import INSTANT_LABEL
from enumerate.draws.switch_ranks import UNSEEN, SwitchRules, add_chart, group_situations, situation_groups, value_groups
from enumerate.draws.switch_ranks import core_seconds_per_group as switch_core_seconds
from enumerate.draws.switch_ranks import supported as switch_supported
from enumerate.rules.variant import Variant
from enumerate.russian import _bought, options, strategy
from enumerate.russian.bought import purchase_unit, rank_sets
from enumerate.russian.game import EVENTS, IntegerNets, instant_row, row_of
from enumerate.russian.settle import STATES, HandPay, RussianSettlement, best_category, pays_by_strength, settlement_refusal
from evaluator.errors import StudoddsError
from evaluator.ranking import N_STRENGTHS, Category

#: Per return-table event, the kernel's outcome field that counts it when the hand raises (per
#: dealer hand, or -- the bought games' ends -- in units of 1 / dn), and whether it is per dealer hand.
_FIELDS = {"player_wins": (2, True), "push": (3, True), "dealer_wins": (4, True), "bought_won": (9, False),
           "bought_push": (10, False), "bought_lost": (11, False), "bought_short": (12, False)}
#: Groups per shard, as the plain draws' (about a core-minute of Russian Poker without the bought game).
SHARD = 64
#: How much more a group costs with the bought game than the switch game's projection of its draws,
#: by the purchase's reading and whether a win also pays the ante.  With the hands compared after a
#: purchase (benchmarks/russian_game.py --purchase-by-ranks --groups 8, one thread, 2026-12-06, the
#: groups sampled by the shape of the player's rank pattern, the term's pass best first): 4.0
#: core-hours for the Lunar house rules, 3.9 for Pennsylvania's, 9.9 for the classic ones, about 1.8,
#: 1.8 and 4.5 times the switch game's 2.2 (a win that also pays the ante makes a purchase's most
#: worth more above its least, so fewer discards are left out).  With the qualifier applying again
#: (the houses' reading; the same benchmark, 2026-12-06 later): 6.7 core-hours for the house's rules,
#: about 3.0 times; with the ante paid too, not measured: 4.5 times that ratio, 7.6.  What a run is
#: projected from, never a figure of it.
PURCHASE_COST = {("hands_compared", False): 1.8, ("hands_compared", True): 4.5,
                 ("qualifier_applies", False): 3.0, ("qualifier_applies", True): 7.6}
#: Bump when what a shard holds or how it is valued changes (2: the share of the best actions'
#: dealer hands that qualify).
VERSION = 2


def supported(variant: Variant) -> str | None:
    """Why the rank patterns do not count this Russian table's game with draws, or None."""
    return settlement_refusal(variant) or switch_supported(variant)


def core_seconds_per_group(variant: Variant) -> float:
    """About what a group costs (:func:`enumerate.draws.switch_ranks.core_seconds_per_group`,
    times :data:`PURCHASE_COST` with the bought game)."""
    base = switch_core_seconds(variant)
    if variant.buy_game is None:
        return base
    return base * PURCHASE_COST[variant.buy_game.after, variant.ante_win > 0]


def six_index(ranks: tuple[int, ...]) -> int:
    """The colex rank of six ranks (non-decreasing) among the multisets of six: sum of
    C(ranks[i] + i, i + 1) -- the kernel's index of a six bought without a flush."""
    return sum(math.comb(r + i, i + 1) for i, r in enumerate(ranks))


def _six_cards(ranks: tuple[int, ...]) -> list[int]:
    """Six cards of these ranks (non-decreasing), no five of a suit: the k-th card in suit k mod 4."""
    return [4 * r + i % 4 for i, r in enumerate(ranks)]


def _check_draws_bound(variant: Variant, top: int) -> None:
    """Refuse coefficients so large (``top``, in 1 / scale antes) that a final hand's value over
    every dealer set of the largest draw could leave 62 bits."""
    if 8 * top * 163_185 * math.comb(UNSEEN, 5) >= 2**62:
        raise StudoddsError(f"variant {variant.name!r}: pays too large for exact 64-bit evaluation of its draws")


class RussianRankRules(SwitchRules):
    """A Russian table's rules as the rank kernel reads them (see the module docstring): its
    classes of final hand (``pays``), their nets and insurance, and the six-card tables."""

    def __init__(self, variant: Variant, *, use_cache: bool = False) -> None:
        reason = supported(variant)
        if reason is not None:
            raise StudoddsError(f"variant {variant.name!r}: {reason}")
        s = RussianSettlement.of(variant)
        pays, index5, six = pay_classes(variant, s, use_cache=use_cache)
        nets = IntegerNets.of(s, pays, drew=True)          # the final hands of a draw
        super().__init__(variant, nets.scale)
        self.settlement, self.pays, self.nets = s, pays, nets
        self.pclass = index5.astype(np.int16)
        lose = nets.nets["dealer_wins"]

        def coefficients(n: IntegerNets) -> np.ndarray:
            return np.ascontiguousarray(np.column_stack(
                [n.nets["dealer_does_not_qualify"] - lose, n.nets["player_wins"] - lose, n.nets["push"] - lose, lose]),
                dtype=np.int64)
        self.cnet = coefficients(nets)
        if s.drawn_win_apart:                               # the dealt hand kept: its win pays the ante apart
            self.cnet_kept = coefficients(IntegerNets.of(s, pays))
        if s.insurance is not None:
            sign = dict(zip(STATES, nets.ins_sign))
            unit = [sign["dealer_does_not_qualify"] - sign["dealer_wins"], sign["player_wins"] - sign["dealer_wins"],
                    sign["push"] - sign["dealer_wins"], sign["dealer_wins"]]
            self.cins = np.ascontiguousarray(nets.stake[:, None] * np.array(unit, dtype=np.int64)[None, :])
        if six is not None:
            self.pc6, self.pc6_five, self.pc6_six = six
        self.dn = [1] * len(KINDS)
        #: Whether the term bounds its parts so that leaves are summed at once (False: for the tests,
        #: every leaf by itself and the side parts situation by situation).
        self.bounded = True
        self._terms: dict[tuple[int, bool], Any] = {}
        if s.buy_game is not None:
            self._bought_rules(variant, s, nets)
        self.sit_col = self._option_columns()
        if self.n_stat > _switch_ranks.MAX_CLASSES:
            raise StudoddsError(f"variant {variant.name!r}: more distinct pays than the rank patterns count "
                                f"({self.n_stat} classes; at most {_switch_ranks.MAX_CLASSES})")
        _check_draws_bound(variant, max(self._top_coefficient(), self.scale))

    def _top_coefficient(self) -> int:
        """The largest coefficient of a raise or an insurance, kept hands' included."""
        kept = 0 if self.cnet_kept is None else int(np.abs(self.cnet_kept).max())
        return max(int(np.abs(self.cnet).max()), int(np.abs(self.cins).max(initial=0)), kept)

    def _option_columns(self) -> np.ndarray:
        """The kernel's sums per situation (:mod:`enumerate.russian.options`): column 0 the draws
        raised, 1 those insured (the insured classes' draws), 2 the dealer sets that do not qualify
        met with a raise, 3 those bought (the bought game's first field: the dealer sets bought)."""
        n_pay, per = len(self.pays), 8 + self.n_term
        col = np.full(2 + per * self.n_stat, -1, dtype=np.int8)
        col[1] = 0
        for c in range(self.n_stat):
            if c >= n_pay:
                col[2 + per * c] = 1
            col[2 + per * c + 1] = 2
            if self.n_term:
                col[2 + per * c + 8] = 3
        return col

    def _bought_rules(self, variant: Variant, s: RussianSettlement, nets: IntegerNets) -> None:
        """The bought game as the kernel's final term: its unit per kind of action (a common
        multiple of the replacement pools, 46 - k cards unseen) and the nets it reads."""
        b = s.buy_game
        assert b is not None
        lose = nets.nets["dealer_wins"]
        if (lose != lose[0]).any() or (nets.nets["push"] != 0).any():
            raise StudoddsError(f"variant {variant.name!r}: the bought game's kernel needs one net for a lost hand "
                                "and nothing for a push")
        self.n_term = _bought.TERM_FIELDS
        self.dn = [purchase_unit(s, UNSEEN - cards_drawn(k)) for k in range(len(KINDS))]
        self.threshold, self.lose, self.fee = variant.qualifier.threshold, int(lose[0]), int(b.fee * nets.scale)
        top = max(self._top_coefficient(), self.scale, abs(self.fee))
        if 8 * top * 163_185 * max(self.dn) >= 2**62:
            raise StudoddsError(f"variant {variant.name!r}: pays too large for exact 64-bit values of the bought game")
        # What buying can add at most: each dealer hand that does not qualify is bought and ends
        # in the purchase's best outcome (won, lost, pushed at 0 or still short: the ante's pay)
        # less the fee, when that beats the ante's pay -- the kernel's upper bound of raising with
        # the bought game, which lets it leave out the discards no situation can take.
        short = nets.nets["dealer_does_not_qualify"]
        most = np.maximum.reduce([nets.bought_win, lose, np.zeros_like(lose), short]) - self.fee
        self.cnet_hi = self.cnet.copy()
        self.cnet_hi[:, 0] += np.maximum(most - short, 0)
        _check_draws_bound(variant, int(np.abs(self.cnet_hi).max()))

    def term(self, ru: int) -> object | None:
        """The bought game against the up rank ``ru`` as the kernel's final term (a capsule), or None."""
        b = self.settlement.buy_game
        if b is None:
            return None
        if (ru, self.bounded) not in self._terms:
            rules = _bought.Rules(4 * ru, rank_sets(ru, self.threshold, b.replaces == "highest"), self.lose, self.fee,
                                  self.threshold, b.after == "qualifier_applies", b.same_rank == "replaced_again",
                                  self.dn[0])
            self._terms[ru, self.bounded] = _bought.RankTerm(rules, self.nets.bought_win,
                                                             self.nets.nets["dealer_does_not_qualify"],
                                                             np.array(self.dn, dtype=np.int64), self.bounded,
                                                             self.settlement.insured_may_not_buy)
        return self._terms[ru, self.bounded].capsule()

#: Bump when the classes of final hand or the six-card tables are made differently -- the tables'
#: layout, or a pay of :meth:`enumerate.russian.settle.RussianSettlement.hand_pay` for the same rules
#: (the cache is keyed by the rules and the evaluator, not by the code that pays them).
PAYS_VERSION = 1
#: The arrays of a table's cached classes of final hand (:func:`pay_classes`).
_PAY_ARRAYS = ("first", "second", "pay_num", "pay_den", "index5", "pc6", "pc6_five", "pc6_six")


def pay_classes(variant: Variant, s: RussianSettlement, *, use_cache: bool = True
                ) -> tuple[tuple[HandPay, ...], np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray] | None]:
    """The table's classes of final hand (its distinct pays: the five-card hands', then those only
    a six bought makes), each five-card strength's class, and with a sixth card for sale the
    six-card tables (:func:`_six_tables`).  Some 50,000 hands' two combinations: with ``use_cache``
    made once per table's rules and kept in the user cache (keyed by the rules and the evaluator,
    checksummed, and decoded with every class checked against the pays before use)."""
    stored = None
    if use_cache:
        meta = {"kind": "russian-pays", "version": PAYS_VERSION, "evaluator": evaluator_fingerprint(),
                "rules": rules_text(variant)}
        stored = ArrayCache(keyed_path("russian-pays", meta), meta, "Russian Poker pays")
        arrays = stored.load(_PAY_ARRAYS)
        if arrays is not None and (found := _decoded(arrays)) is not None:
            return found
    pays5, index5 = pays_by_strength(s)
    classes: dict[HandPay, int] = {p: i for i, p in enumerate(pays5)}
    d = variant.draws
    six = _six_tables(s, classes) if d is not None and d.buy_fee is not None else None
    pays = tuple(classes)
    if stored is not None and all(abs(p.pay.numerator) < 2**62 and p.pay.denominator < 2**62 for p in pays):
        empty = np.zeros(0, dtype=np.int16)
        stored.save({"first": np.array([int(p.first) for p in pays], dtype=np.int16),
                     "second": np.array([-1 if p.second is None else int(p.second) for p in pays], dtype=np.int16),
                     "pay_num": np.array([p.pay.numerator for p in pays], dtype=np.int64),
                     "pay_den": np.array([p.pay.denominator for p in pays], dtype=np.int64),
                     "index5": index5, **dict(zip(("pc6", "pc6_five", "pc6_six"), six or (empty,) * 3))})
    return pays, index5, six


def _decoded(a: dict[str, np.ndarray]) -> tuple[tuple[HandPay, ...], np.ndarray,
                                               tuple[np.ndarray, np.ndarray, np.ndarray] | None] | None:
    """Cached classes as :func:`pay_classes` returns them, or None when they do not hold together
    (a pay that is no category, a class out of range, a table of the wrong size)."""
    if not all(a[k].dtype.kind in "iu" and a[k].ndim == 1 for k in _PAY_ARRAYS):
        return None
    first, second, num, den = (a[k] for k in ("first", "second", "pay_num", "pay_den"))
    n = len(first)
    if not (n == len(second) == len(num) == len(den) and n > 0 and (den > 0).all()
            and ((first >= 0) & (first < len(Category))).all()
            and ((second >= -1) & (second < len(Category))).all()):
        return None
    pays = tuple(HandPay(Category(int(f)), None if g < 0 else Category(int(g)), Fraction(int(x), int(y)))
                 for f, g, x, y in zip(first.tolist(), second.tolist(), num.tolist(), den.tolist()))
    sizes = {"index5": N_STRENGTHS, "pc6": _switch_ranks.SIX_PATTERNS, "pc6_five": 13 * _switch_ranks.RANK_MASKS,
             "pc6_six": _switch_ranks.RANK_MASKS}
    tables = {k: a[k] for k in sizes}
    with_six = tables["pc6"].size > 0
    for k, size in sizes.items():
        t = tables[k]
        if t.size != (size if k == "index5" or with_six else 0) or not ((t >= 0) & (t < n)).all():
            return None
    six = tuple(np.array(tables[k], dtype=np.int16) for k in ("pc6", "pc6_five", "pc6_six")) if with_six else None
    index5 = np.array(tables["index5"], dtype=np.int64)
    index5.flags.writeable = False
    return pays, index5, six  # type: ignore[return-value]


def _six_tables(s: RussianSettlement, found: dict[HandPay, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The classes of the sixes a bought card makes (see the kernel's value_groups): by the
    six's ranks without a flush, by the five suited ranks and the other rank, by six suited ranks."""
    pc6 = np.zeros(_switch_ranks.SIX_PATTERNS, dtype=np.int16)
    for ranks in itertools.combinations_with_replacement(range(13), 6):
        if max(ranks.count(r) for r in set(ranks)) <= 4:
            pc6[six_index(ranks)] = found.setdefault(s.hand_pay(_six_cards(ranks)), len(found))
    five = np.zeros(13 * _switch_ranks.RANK_MASKS, dtype=np.int16)
    for suited in itertools.combinations(range(13), 5):
        mask = sum(1 << r for r in suited)
        for r in range(13):
            cards = [4 * x for x in suited] + [4 * r + 1]
            five[13 * mask + r] = found.setdefault(s.hand_pay(cards), len(found))
    six = np.zeros(_switch_ranks.RANK_MASKS, dtype=np.int16)
    for ranks6 in itertools.combinations(range(13), 6):
        six[sum(1 << r for r in ranks6)] = found.setdefault(s.hand_pay([4 * x for x in ranks6]), len(found))
    return pc6, five, six


_RULES: dict[str, RussianRankRules] = {}


def rank_rules(variant: Variant, *, use_cache: bool = False) -> RussianRankRules:
    """The kernel's reading of ``variant`` (some tens of thousands of pays: made once a process
    per table's rules; with ``use_cache`` its classes of final hand read from, or kept in, the
    disk cache -- what one hand asks for, where 0.85 s counts; a whole game's shards make them
    in each process)."""
    key = rules_text(variant)
    if key not in _RULES:
        if len(_RULES) >= 4:
            _RULES.clear()
        _RULES[key] = RussianRankRules(variant, use_cache=use_cache)
    return _RULES[key]


def shard_fields(variant: Variant, h: np.ndarray, up: np.ndarray, categories: frozenset[Category],
                 threads: int = 1, actions: Callable[[np.ndarray, int], np.ndarray] | None = None) -> dict[str, Any]:
    """A shard of groups (rank patterns ``h`` against the up ranks ``up``) counted by rank
    patterns, as the fields of :class:`enumerate.russian.slice.SliceSums` (no per-class actions);
    with ``actions`` (a draw strategy: :mod:`enumerate.russian.draw_strategies`), each situation's
    draw is the strategy's instead of the best, and the sums are that strategy's game."""
    start = time.perf_counter()
    rules = rank_rules(variant)
    reason = supported(variant)
    if reason is not None:
        raise StudoddsError(f"variant {variant.name!r}: {reason}")
    n_pay, n_stat, n_term = len(rules.pays), rules.n_stat, rules.n_term
    kf, per = _switch_ranks.kind_fields(n_stat, n_term), 8 + n_term
    total = np.zeros(_switch_ranks.group_fields(n_stat, n_term), dtype=object)
    chart: dict[str, int] = {}
    cells: dict[str, options.Cell] = {}
    labels: dict[tuple[int, ...], str] = {}
    instant = dict(rules.settlement.instant)
    played, paid = categories - set(instant), categories & set(instant)
    at_once: list[tuple[Category, int]] = []          # the situations paid at once: dealt category, weight
    best_of: list[np.ndarray] = [np.zeros(0, dtype=np.int8)] * h.shape[0]   # each group's classes' best actions
    for ru in sorted(set(up.tolist())):
        rows = np.flatnonzero(up == ru)
        if paid:
            for row in h[rows]:
                sits = [group_situations(row, ru, paid)]
                for group, (hand, wt) in zip(situation_groups(labels, sits), zip(*sits[0])):
                    at_once.append((best_category(tuple(int(c) for c in hand)), int(wt)))
                    ck = chart_key(group, ru, INSTANT_LABEL)
                    chart[ck] = chart.get(ck, 0) + int(wt)
                    options.add_situation(cells, options.option_key(group, ru), int(wt), 0, 0, 0, 0, 0)
        v = value_groups(rules, variant.qualifier.threshold, h[rows], ru, played, threads, actions)
        total += v.sums.sum(axis=0)
        at = 0
        for row, (cards, _) in zip(rows.tolist(), v.sits):
            best_of[row] = v.best[at:at + cards.shape[0]].astype(np.int8)
            at += cards.shape[0]
        groups, weights = situation_groups(labels, v.sits), [wt for _, w in v.sits for wt in w.tolist()]
        add_chart(chart, groups, weights, ru, v.best, v.keep_raised)
        assert v.columns is not None
        cols = np.zeros((v.columns.shape[0], 4), dtype=np.int64)     # without the bought game, none bought
        cols[:, :v.columns.shape[1]] = v.columns
        for i, (group, wt) in enumerate(zip(groups, weights)):
            options.add_situation(cells, options.option_key(group, ru), wt, action_kind(int(v.best[i])),
                                  *(int(x) for x in cols[i]))
    s = rules.settlement
    situations, denominators = [0] * len(KINDS), [0] * len(KINDS)
    table: list[dict[str, list[Any]]] = [{} for _ in KINDS]
    ev = fees = staked = raised = insured = no_qualify = Fraction(0)
    for j in range(len(KINDS)):
        base = kf * j
        situations[j] = int(total[base])
        if not situations[j]:
            continue
        k = cards_drawn(j)
        draws, fee, dn = math.comb(UNSEEN, k), rules.fees[j], rules.dn[j]
        denominators[j] = draws * math.comb(UNSEEN - k, 4) * dn
        ev += Fraction(int(total[base + 1]), rules.tden[j] * dn) - fee * situations[j]
        fees += fee * situations[j]
        raised += Fraction(int(total[base + 2]), draws)
        for c in range(n_stat):
            no_qualify += Fraction(int(total[base + 3 + per * c + 1]) + int(total[base + 3 + per * c + 7]),
                                   draws * math.comb(UNSEEN - k, 4))
            pay, ins = c % n_pay, c >= n_pay
            stat = [int(x) for x in total[base + 3 + per * c: base + 3 + per * (c + 1)]] + [0] * (13 - per)
            if ins:
                insured += Fraction(stat[0], draws)
                staked += Fraction(int(rules.nets.stake[pay]) * stat[0], rules.scale * draws)
            counts = {event: stat[i] * (dn if per_hand else 1) for event, (i, per_hand) in _FIELDS.items()}
            counts["dealer_does_not_qualify"] = (stat[1] - stat[8]) * dn
            counts["fold"] = stat[5] * dn
            for event in EVENTS:
                count = counts[event]
                if count:
                    outcome, label, net = row_of(s, event, rules.pays[pay], ins and event != "fold", fee, j != 0)
                    kept = table[j].setdefault(label, [outcome, str(net), 0])
                    kept[2] += count
    if at_once:                            # one outcome over every dealer set: a kept hand's combinations
        denominators[0] = math.comb(UNSEEN, 4) * rules.dn[0]
    for dealt, wt in at_once:
        situations[0] += wt
        outcome, label, net = instant_row(dealt, instant[dealt])
        ev += wt * net
        kept = table[0].setdefault(label, [outcome, str(net), 0])
        kept[2] += wt * denominators[0]
    paid_at_once = sum(wt for _, wt in at_once)
    return {"situations": situations, "rows": table, "denominators": denominators, "ev": str(ev),
            "fees": str(fees), "staked": str(staked), "raised": str(raised), "insured": str(insured),
            "qualifies": str(sum(situations) - paid_at_once - no_qualify),
            "chart": chart, "options": options.to_json(cells), "actions": [],
            "best": strategy.encode(best_of), "seconds": time.perf_counter() - start}

