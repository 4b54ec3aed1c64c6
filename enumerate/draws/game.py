"""The whole game with switching one card or buying a sixth card, exactly.

Every situation (player hand, up card) -- 6,319,573 up to suits, 122,151,120 in all -- has up to
seven actions: keep, switch the i-th card (one ante at the Oasis tables), buy a sixth card.  The
kernels of ``_game.pyx`` first count, for every canonical hand P', up card u and card d out of
play, the dealer's outcomes among the 45 live cards (one sweep over the hands in strength
order, like the count engine, 2.3 GB of packed counts), then value every action of every
situation from those counts: 1,453,501,790 draws, each an exact integer.  The player takes the
best action (the largest EV less its fee; ties: keep, then the lower card, then buying) and then
raises or folds optimally.

Probabilities share one denominator: a situation's 46 draws each face C(45, 4) = 148,995 dealer
sets, 6,853,770 = 42 * C(46, 4) combinations, so a kept hand counts each of its 163,185 dealer
sets 42 times; the game has 122,151,120 * 6,853,770 = 837,195,681,722,400 combinations.  The
return table lists the outcomes of the final decisions (by final hand) and the fees as rows of
their own; the house edge is the expected loss per ante, fees included; the element of risk
divides it by the expected ante and raise (fees are not wagers); the fees per hand are reported
beside it.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from enumerate.analysis.base import Analysis, ReturnRow, check_table, return_table
from enumerate.core.array_store import ArrayCache, keyed_path
from enumerate.core.counts import evaluator_fingerprint
from enumerate.core.engine import COMPLETIONS, ENGINE_VERSION, CountTable, canonical_map, hand_tables, sweep_bounds
from enumerate.core.jsonform import exact
from enumerate.core.memo import TableMemo
from enumerate.core.parallel import interruptible
from enumerate.core.projection import Projection, announce
from enumerate.draws import _game
from enumerate.draws.actions import BUY_KIND, fee_outcome
from enumerate.draws.hand import raise_form
from enumerate.draws.shapes import DrawsJSON, DrawStrategyRowJSON
from enumerate.rules.variant import Variant
from evaluator.cards import RANKS
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category, category, hand_indices, strength

#: Dealer sets after one card is drawn: C(45, 4).
DRAW_COMPLETIONS = 148_995
#: Combinations of one situation: 46 draws of C(45, 4) dealer sets (= 42 * C(46, 4)).
SITUATION_COMBINATIONS = 46 * DRAW_COMPLETIONS
#: Actions of the whole-game kernel: keep, switch the i-th card (i = 1..5), buy.
ACTIONS = ("keep", "switch 1st", "switch 2nd", "switch 3rd", "switch 4th", "switch 5th", "buy")
KINDS = ("keep", "switch", "buy")
#: Version of what :func:`draw_counts` returns: bump it when a kernel or the choice changes the
#: result, so a cached result of another version is never read.
DRAWS_VERSION = 1
#: Progress steps of :func:`draw_counts` per canonical hand: the sweep's two passes, the values,
#: the accounting (all at once when the result is read from the cache).
PROGRESS_PER_HAND = 4
#: Core-seconds of the whole game from nothing (docs/speed.md: about 40 s on 2 threads, the
#: dead-card sweep included): what it is projected from before it starts, never a figure of it.
CORE_SECONDS = 80.0
#: Rows of hands the gather kernel takes per call (progress and Ctrl-C between calls).
ROWS_PER_CALL = 2048


def whole_game_supported(variant: Variant) -> bool:
    """True when the exact whole game fits one machine: switching at most one card, buying."""
    d = variant.draws
    return d is not None and (d.switch is None or set(d.switch.fees) == {1})


def whole_game_refusal(variant: Variant) -> str | None:
    """Why the exact whole game does not cover ``variant`` (side wagers), or None.  Switching at
    most one card or buying is this module's sweep; switching more cards, with or without buying,
    is counted by rank patterns (:mod:`enumerate.draws.exact`)."""
    if variant.draws is None:
        return "offers no switching or sixth card"
    return side_wager_refusal(variant)


def side_wager_refusal(variant: Variant) -> str | None:
    """Why no analysis of draws covers ``variant``: side bets or a progressive, which neither
    the whole game nor a single hand values (None when it has neither)."""
    if variant.side_bets or variant.progressive is not None:
        return ("side bets and a progressive are not analysed with draws (remove them from the variant file, or the "
                "[switch] and [buy_card] tables)")
    return None


def check_whole_game(variant: Variant) -> None:
    """StudoddsError when :func:`whole_game_refusal` refuses ``variant``."""
    reason = whole_game_refusal(variant)
    if reason is not None:
        raise StudoddsError(f"variant {variant.name!r}: {reason}")


@dataclass(frozen=True)
class DrawCounts:
    """The kernel's result: per action kind (keep, switch, buy) and final category, the raised
    decisions, the raised combinations' no_qualify, win, tie, lose and the folded combinations;
    per situation (count-table row, up column) the chosen action (:data:`ACTIONS`) and its value
    less its fee (units of 1 / (scale * 6,853,770) antes)."""

    stats: np.ndarray        # (3, 10, 8) int64
    action: np.ndarray       # (rows, 47) uint8
    best: np.ndarray         # (rows, 47) int64
    scale: int


@dataclass(frozen=True)
class DrawFigures:
    """What a table with draws adds to the analysis: the fees per hand, how often each action
    is taken, and the strategy by hand group."""

    fees_per_hand: Fraction
    action_shares: dict[str, Fraction]        # action kind -> share of situations
    switch_by_position: dict[int, Fraction]   # sorted-hand position of the switched card (0 = lowest)
    strategy: tuple[DrawStrategyRowJSON, ...]

    def to_dict(self) -> DrawsJSON:
        return {"fees_per_hand_antes": exact(self.fees_per_hand),
                "action_shares": {k: exact(v) for k, v in self.action_shares.items()},
                "switched_card_by_position": {str(k + 1): exact(v) for k, v in self.switch_by_position.items()},
                "strategy": list(self.strategy)}


def dead_counts(table: CountTable, threads: int = 1,
                progress: Callable[[int], None] | None = None, rows: np.ndarray | None = None) -> np.ndarray:
    """(rows, 47, 46) uint64: the packed dead-card counts of ``_game.pyx`` for every canonical
    hand, up card and card out of play.  ``rows``: only what valuing these count-table rows reads
    (the rows and every hand one switch away; the other words stay 0), for tests."""
    t = hand_tables()
    n_threads = threads
    n = t.canon_index.shape[0]
    q = table.qualifier
    row_of = np.ascontiguousarray(t.by_strength, dtype=np.int64)
    nq, win, tie = (np.ascontiguousarray(a) for a in (table.no_qualify, table.win, table.tie))
    dead = np.zeros((n, 47, 46), dtype=np.uint64)
    wanted = np.ones(n, dtype=np.uint8)
    if rows is not None:
        needed = np.zeros(n, dtype=bool)
        needed[one_switch_rows(table, rows)] = True
        wanted = np.ascontiguousarray(needed[row_of], dtype=np.uint8)      # in strength order
    states = np.zeros((n_threads, _game.COUNTERS_PER_STATE), dtype=np.int32)
    tick = progress or (lambda _n: None)
    canon_strength = t.canon_strength[t.by_strength].astype(np.int16)
    bounds = sweep_bounds(q)
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        if lo == q and q > 0:
            edges = np.linspace(0, n, 17).astype(np.int64)
            for a, b in zip(edges[:-1], edges[1:]):
                def below(cancel: np.ndarray, a: int = int(a), b: int = int(b)) -> None:
                    _game.pairs_below_qualifier(states[0], q, t.canon_cards_by_strength, canon_strength, row_of,
                                                a, b, nq, dead, wanted, cancel, n_threads)
                interruptible(below)
                tick(int(b - a))

        def sweep(cancel: np.ndarray, lo: int = int(lo), hi: int = int(hi)) -> None:
            _game.sweep_pairs(states, lo, hi, q, t.sorted_cards, t.sorted_masks, t.class_start,
                              t.canon_cards_by_strength, t.canon_start, row_of, nq, win, tie, dead, wanted, cancel)
        interruptible(sweep)
        tick(int(t.canon_start[hi] - t.canon_start[lo]))
    if q == 0:
        tick(n)
    return dead


def one_switch_rows(table: CountTable, rows: np.ndarray) -> np.ndarray:
    """The count-table rows of ``rows`` and of every hand one switched card away from them (their
    canonical hands: what :func:`action_values` reads for these rows)."""
    canon, _ = canonical_map()
    out = [np.asarray(rows, dtype=np.int64)]
    for r in np.asarray(rows, dtype=np.int64):
        for i in range(5):
            finals = np.column_stack([np.delete(table.hands[r], i)[None, :].repeat(47, axis=0), table.up[r]])
            out.append(canon[hand_indices(finals)] >> 5)
    return np.unique(np.concatenate(out))


def coefficients(variant: Variant) -> tuple[int, int, np.ndarray, int, np.ndarray]:
    """(scale, c_nq, c_win, c_tie, bonus) of the raise form of the table's base game."""
    value = raise_form(variant, 46)
    return (value.scale, value.c_nq, np.ascontiguousarray(value.c_win), value.c_tie,
            np.ascontiguousarray(value.bonus))


def _paytable_key(coef: tuple[int, int, np.ndarray, int, np.ndarray]) -> tuple[Any, ...]:
    """:func:`coefficients` as a hashable key (the part of the memo and cache keys set by the paytable)."""
    return coef[0], coef[1], tuple(coef[2].tolist()), coef[3], tuple(coef[4].tolist())


def memo_dead(table: CountTable, threads: int = 1,
              progress: Callable[[int], None] | None = None) -> np.ndarray:
    """:func:`dead_counts`, kept with the table (2.3 GB: every table with draws and this
    qualifier reads it)."""
    return _DEAD.get(table, None, lambda: dead_counts(table, threads, progress))


#: What the draws keep per count table: the dead-card counts; the action values by paytable
#: (:func:`_paytable_key`); the whole game by paytable and fees; the chart's hand groups.
_DEAD: TableMemo[None, np.ndarray] = TableMemo("draws: dead-card counts")
_VALUES: TableMemo[tuple[Any, ...], np.ndarray] = TableMemo("draws: action values")
_COUNTS: TableMemo[tuple[Any, ...], "DrawCounts"] = TableMemo("draws: whole game")
_GROUPS: TableMemo[None, tuple[list[str], np.ndarray, np.ndarray]] = TableMemo("draws: hand groups and roles")


def action_values(table: CountTable, variant: Variant, threads: int = 1,
                  progress: Callable[[int], None] | None = None,
                  rows: tuple[int, int] | None = None, dead: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """((rows, 47, 7) int64 values of every action before fees, their scale): units of
    1 / (scale * 6,853,770) antes; kept in the table's memo by paytable (the fees do not enter).
    ``rows``: only these count-table rows (the others stay 0), for tests, not kept; ``dead``: the
    dead-card counts to read (default: the table's, :func:`memo_dead`)."""
    check_table(table, variant)
    coef = coefficients(variant)
    key = _paytable_key(coef)
    if rows is None and (kept := _VALUES.find(table, key)) is not None:
        return kept, coef[0]
    if dead is None:
        dead = memo_dead(table, threads, progress)
    canon, perms = canonical_map()
    n = table.hands.shape[0]
    values = np.zeros((n, 47, 7), dtype=np.int64)
    n_threads = threads
    hands = np.ascontiguousarray(table.hands)
    strength = np.ascontiguousarray(table.strength, dtype=np.int16)
    lo_all, hi_all = rows or (0, n)
    for lo in range(lo_all, hi_all, ROWS_PER_CALL):
        hi = min(hi_all, lo + ROWS_PER_CALL)
        def run(cancel: np.ndarray, lo: int = lo, hi: int = hi) -> None:
            _game.action_values(hands, strength, table.up, table.no_qualify, table.win, table.tie, dead, canon, perms,
                                lo, hi, *coef, values, cancel, n_threads)
        interruptible(run)
        if progress is not None:
            progress(hi - lo)
    if rows is None:
        _VALUES.put(table, key, values)
    return values, coef[0]


def choose(variant: Variant, values: np.ndarray, scale: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(action, best, denominator multiplier m): per situation the chosen kernel action (0..6,
    plus 8 when a kept hand raises) -- the largest value less its fee among the allowed ones,
    the first on a tie -- and that value in units of 1 / (scale * m * 6,853,770) antes."""
    d = variant.draws
    assert d is not None
    kind = kind_fees(variant)
    fees = [kind["keep"]] + [kind["switch"]] * 5 + [kind["buy"]]
    m = math.lcm(*(f.denominator for f in fees))
    units = [int(f * scale * m * SITUATION_COMBINATIONS) for f in fees]
    allowed = [True] + [d.switch is not None] * 5 + [d.buy_fee is not None]
    if int(np.abs(values).max(initial=0)) * m + max(units) >= 2**62:
        raise StudoddsError(f"variant {variant.name!r}: fees and pays too large for exact 64-bit comparison")
    net = values * m - np.array(units, dtype=np.int64)
    net[..., ~np.array(allowed)] = np.iinfo(np.int64).min
    action = net.argmax(axis=2).astype(np.uint8)               # the first of equal values
    best = np.take_along_axis(net, action[..., None].astype(np.int64), axis=2)[..., 0]
    keep_raises = (action == 0) & (values[..., 0] > -42 * scale * COMPLETIONS)
    return action | (keep_raises.astype(np.uint8) << 3), best, m


def draw_counts(table: CountTable, variant: Variant, threads: int = 1,
                progress: Callable[[int], None] | None = None, use_cache: bool = True) -> DrawCounts:
    """The whole game: values (:func:`action_values`), the choice, and the chosen actions'
    outcomes.  ``progress`` gets hands swept, then rows valued, then rows accounted.

    The result (56 MB) is kept in the table's memo and, with ``use_cache``, in the cache folder,
    keyed by every input that changes it: the count table's (qualifier, engine version,
    evaluator fingerprint), :data:`DRAWS_VERSION` and the rules (raise form, fees); a damaged
    file is reported and recomputed (:class:`enumerate.core.array_store.ArrayCache`)."""
    check_whole_game(variant)
    d = variant.draws
    assert d is not None
    coef = coefficients(variant)
    key = (*_paytable_key(coef), d.fee(1) if d.switch is not None else None, d.buy_fee)
    meta = {"kind": "draws", "draws_version": DRAWS_VERSION, "qualifier": table.qualifier,
            "engine_version": ENGINE_VERSION, "evaluator": evaluator_fingerprint(), "rules": [str(k) for k in key]}
    stored = ArrayCache(keyed_path(f"draws-q{table.qualifier}", meta), meta, "draws", enabled=use_cache)
    found = _COUNTS.find(table, key)               # the same rules analysed again in this process
    if found is None and (arrays := stored.load(("stats", "action", "best", "scale"))) is not None:
        found = _COUNTS.put(table, key, DrawCounts(arrays["stats"], arrays["action"], arrays["best"],
                                                   int(arrays["scale"][0])))
    if found is not None:                          # nothing to count: the bar is done at once
        if progress is not None:
            progress(PROGRESS_PER_HAND * table.hands.shape[0])
        return found
    steps = PROGRESS_PER_HAND * table.hands.shape[0]
    announce(progress, Projection("", steps, "step", CORE_SECONDS / steps), threads)
    values, scale = action_values(table, variant, threads, progress)
    action, best, m = choose(variant, values, scale)
    dead = memo_dead(table, threads)
    canon, perms = canonical_map()
    n_threads = threads
    n = table.hands.shape[0]
    acc = np.zeros((n_threads, 3, 10, 8), dtype=np.int64)
    hands = np.ascontiguousarray(table.hands)
    weight = np.ascontiguousarray(table.weight, dtype=np.int64)
    strength = np.ascontiguousarray(table.strength, dtype=np.int16)
    chosen = np.ascontiguousarray(action & 7)
    for lo in range(0, n, ROWS_PER_CALL * 8):
        hi = min(n, lo + ROWS_PER_CALL * 8)
        def run(cancel: np.ndarray, lo: int = lo, hi: int = hi) -> None:
            _game.account(hands, weight, strength, table.up, table.no_qualify, table.win, table.tie, dead, canon,
                          perms, chosen, lo, hi, *coef, acc, cancel, n_threads)
        interruptible(run)
        if progress is not None:
            progress(hi - lo)
    result = DrawCounts(acc.sum(axis=0), action, best, scale * m)
    stored.save({"stats": result.stats, "action": action, "best": best,
                 "scale": np.array([result.scale], dtype=np.int64)})
    return _COUNTS.put(table, key, result)


# ---------------------------------------------------------------------------------------------
# From the kernel's sums to the analysis

RAISED, NQ, WIN, TIE, LOSE, FOLDED, INDIFFERENT, NQ_FOLDED = range(8)
#: Decisions per situation: one after each of the 46 draws (a kept hand counts 46 times).
DECISIONS = 46


def kind_fees(variant: Variant) -> dict[str, Fraction]:
    """The fee of each action kind (0 for keeping, and for a kind the table does not offer)."""
    d = variant.draws
    assert d is not None
    return {"keep": Fraction(0), "switch": d.fee(1) if d.switch is not None else Fraction(0),
            "buy": d.buy_fee if d.buy_fee is not None else Fraction(0)}


def analysis_from_draws(table: CountTable, variant: Variant, dc: DrawCounts) -> tuple[Analysis, DrawFigures]:
    """The exact analysis (return table with the fees as rows, house edge, element of risk,
    variance) and the figures of the draws, from the kernel's sums."""
    base = variant.base_game()
    stats = dc.stats
    situations = table.n_situations
    total = situations * SITUATION_COMBINATIONS
    fees = kind_fees(variant)
    kind_total = [int(stats[k, :, [NQ, WIN, TIE, LOSE, FOLDED]].sum()) for k in range(3)]
    if sum(kind_total) != total:
        raise AssertionError("the draws' outcomes do not add up to every combination")
    sums = stats.sum(axis=0)
    wins = {c: int(sums[c, WIN]) for c in Category}
    split = {c: (int(sums[c, NQ]), int(sums[c, TIE]), int(sums[c, LOSE])) for c in Category}
    rows, expected, _ = return_table(base, wins, int(sums[:, NQ].sum()), int(sums[:, TIE].sum()),
                                     int(sums[:, LOSE].sum()), int(sums[:, FOLDED].sum()), total, split)
    fee_rows = []
    for k, kind in enumerate(KINDS):
        if fees[kind] and kind_total[k]:
            p = Fraction(kind_total[k], total)
            label = "switch one card" if kind == "switch" else "buy a sixth card"
            outcome = fee_outcome(BUY_KIND if kind == "buy" else 1, one_card_game=True)
            fee_rows.append(ReturnRow(outcome, f"fee: {label}", -fees[kind], kind_total[k], p, -fees[kind] * p))
    expected += sum((r.contribution for r in fee_rows), Fraction(0))
    second = Fraction(0)
    hit = Fraction(0)
    for k, kind in enumerate(KINDS):
        if not kind_total[k]:
            continue
        s = stats[k]
        kw = {c: int(s[c, WIN]) for c in Category}
        ks = {c: (int(s[c, NQ]), int(s[c, TIE]), int(s[c, LOSE])) for c in Category}
        krows, _, _ = return_table(base, kw, int(s[:, NQ].sum()), int(s[:, TIE].sum()), int(s[:, LOSE].sum()),
                                   int(s[:, FOLDED].sum()), kind_total[k], ks)
        share = Fraction(kind_total[k], total)
        second += share * sum((r.probability * (r.pays - fees[kind]) ** 2 for r in krows), Fraction(0))
        hit += share * sum((r.probability for r in krows if r.pays - fees[kind] > 0), Fraction(0))
    decisions = situations * DECISIONS
    raised = int(sums[:, RAISED].sum())
    nq_all = int(sums[:, NQ].sum() + sums[:, NQ_FOLDED].sum())
    by_category = {c: (int(sums[c, RAISED]), int(sums[c, RAISED]) + int(stats[:, c, FOLDED].sum() // DRAW_COMPLETIONS))
                   for c in Category}
    analysis = Analysis.of_outcomes(variant, tuple(rows) + tuple(fee_rows), total, expected, second, raised,
                                    Fraction(raised, decisions), int(sums[:, INDIFFERENT].sum()),
                                    Fraction(total - nq_all, total), by_category, hit_frequency=hit)
    return analysis, figures(table, variant, dc, kind_total, total)


def figures(table: CountTable, variant: Variant, dc: DrawCounts, kind_total: list[int], total: int) -> DrawFigures:
    fees = kind_fees(variant)
    shares = {kind: Fraction(kind_total[k], total) for k, kind in enumerate(KINDS)}
    weight = table.weight.astype(np.int64)[:, None]
    code = dc.action & 7
    switched = {i: int((weight * (code == i + 1)).sum()) for i in range(5)}
    all_switched = sum(switched.values())
    by_position = {i: Fraction(n, all_switched) for i, n in switched.items() if n} if all_switched else {}
    return DrawFigures(sum((fees[k] * shares[k] for k in KINDS), Fraction(0)), shares, by_position,
                       strategy_chart(table, dc.action))


# ---------------------------------------------------------------------------------------------
# The strategy in words: by hand group and up-card rank

ORDINAL = ("lowest", "2nd lowest", "3rd lowest", "4th lowest", "5th lowest")


def hand_group(cards: tuple[int, ...]) -> str:
    """A player hand's group: its category with the ranks that matter (the top two cards of a
    high-card hand, the rank of a pair), and four to a flush or to a straight when it has them."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    counts = {r: ranks.count(r) for r in set(ranks)}
    suits = [c & 3 for c in cards]
    cat = category(strength(cards))
    if cat == Category.HIGH_CARD:
        label = f"{RANKS[ranks[0]]}-{RANKS[ranks[1]]} high"
    elif cat == Category.ONE_PAIR:
        label = f"pair of {RANKS[max(counts, key=lambda r: (counts[r], r))]}s"
    else:
        return cat.label
    extras = []
    if max(suits.count(s) for s in range(4)) == 4:
        extras.append("4 to a flush")
    distinct = set(ranks) | ({-1} if 12 in ranks else set())
    if any(len({r for r in distinct if lo <= r < lo + 5}) >= 4 for lo in range(-1, 9)):
        extras.append("4 to a straight")
    return label + ("" if not extras else ", " + ", ".join(extras))


def switch_role(cards: tuple[int, ...], i: int) -> str:
    """The switched card (the i-th of the sorted hand) by its role in the hand."""
    card = cards[i]
    others = [c for j, c in enumerate(cards) if j != i]
    if len({c & 3 for c in others}) == 1 and card & 3 != others[0] & 3:
        return "switch the off-suit card"
    ranks = [c >> 2 for c in cards]
    if ranks.count(card >> 2) > 1:
        return "switch a paired card"
    singles = sorted(c for c in cards if ranks.count(c >> 2) == 1)
    return f"switch the {ORDINAL[singles.index(card)]} single card"


#: The actions of the chart: kept (fold, raise), bought, then the switched card by its role.
SINGLE_LABEL = tuple(f"switch the {o} single card" for o in ORDINAL)
LABELS = ("keep and fold", "keep and raise", "buy a sixth card", "switch the off-suit card", "switch a paired card",
          *SINGLE_LABEL)


def _groups_and_roles(table: CountTable) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(group names, strongest first; each row's group index; each row's role label index of
    each of its five cards), kept with the table: they depend on the hands alone."""
    return _GROUPS.get(table, None, lambda: _make_groups_and_roles(table))


def hand_groups(hands: np.ndarray, hand_strength: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """:func:`hand_group` of many hands at once, in numpy: (the group names, each hand's index into
    them, each group's strongest hand).  ``hands``: (n, 5) cards; ``hand_strength``: their
    strengths.  Names are listed in order of their first hand (the per-hand loop's order)."""
    hands = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
    n = hands.shape[0]
    ranks = hands >> 2
    cat = CATEGORY_BY_STRENGTH[np.asarray(hand_strength, dtype=np.int64)].astype(np.int64)
    suit_count = (hands[:, :, None] & 3) == np.arange(4)
    flush4 = suit_count.sum(axis=1).max(axis=1) == 4
    present = np.zeros((n, 14), dtype=bool)                     # rank + 1; the ace also plays low (0)
    present[np.arange(n)[:, None], ranks + 1] = True
    present[:, 0] = present[:, 13]
    windows = np.lib.stride_tricks.sliding_window_view(present, 5, axis=1).sum(axis=2)   # lo = -1 .. 8
    straight4 = (windows >= 4).any(axis=1)
    high = cat == int(Category.HIGH_CARD)
    pair = cat == int(Category.ONE_PAIR)
    desc = ranks[:, ::-1]
    pair_rank = np.where(ranks[:, :-1] == ranks[:, 1:], ranks[:, :-1], -1).max(axis=1)
    # a group's code: category, then (high card) the top two ranks or (one pair) the pair's rank,
    # then the draws -- only for high cards and one pair
    first = np.where(high, desc[:, 0], np.where(pair, pair_rank, 0))
    second = np.where(high, desc[:, 1], 0)
    extras = np.where(high | pair, flush4 * 2 + straight4, 0)
    code = ((cat * 13 + first) * 13 + second) * 4 + extras
    codes, first_row, index = np.unique(code, return_index=True, return_inverse=True)
    top = np.full(codes.size, -1, dtype=np.int64)
    np.maximum.at(top, index, np.asarray(hand_strength, dtype=np.int64))
    order = np.argsort(first_row, kind="stable")               # names in order of their first hand
    rank_of = np.empty(codes.size, dtype=np.int64)
    rank_of[order] = np.arange(codes.size)
    names = [hand_group(tuple(int(c) for c in hands[first_row[k]])) for k in order]
    return names, rank_of[index.ravel()], top[order]


def switch_roles(hands: np.ndarray) -> np.ndarray:
    """(n, 5) :data:`LABELS` index of :func:`switch_role` for every card of sorted hands, in numpy."""
    hands = np.asarray(hands, dtype=np.int64)
    ranks, suits = hands >> 2, hands & 3
    suit_count = (suits[:, :, None] == suits[:, None, :]).sum(axis=2)      # cards of each card's suit
    off_suit = (suit_count.max(axis=1) == 4)[:, None] & (suit_count == 1)
    paired = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) > 1
    ordinal = np.cumsum(~paired, axis=1) - 1                    # the cards are sorted: singles in order
    return np.where(off_suit, LABELS.index("switch the off-suit card"),
                    np.where(paired, LABELS.index("switch a paired card"), LABELS.index(SINGLE_LABEL[0]) + ordinal))


def _make_groups_and_roles(table: CountTable) -> tuple[list[str], np.ndarray, np.ndarray]:
    names, group, top = hand_groups(table.hands, table.strength)
    order = sorted(range(len(names)), key=lambda g: -int(top[g]))    # stable: the first hand's order on a tie
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    return [names[g] for g in order], rank[group], switch_roles(table.hands)


@cache
def group_strengths() -> dict[str, int]:
    """Each hand group's strongest hand (its strength): the charts list groups from the strongest
    down.  Over the 134,459 canonical hands, in numpy."""
    t = hand_tables()
    names, _, top = hand_groups(t.cards_by_index[t.canon_index], t.canon_strength)
    return {name: int(st) for name, st in zip(names, top)}


def strategy_chart(table: CountTable, action: np.ndarray) -> tuple[DrawStrategyRowJSON, ...]:
    """Per hand group and up-card rank: the situations (concrete, of 122,151,120) and the share
    of each action, exact; groups ordered from the strongest hands down."""
    names, group, roles = _groups_and_roles(table)
    code = action & 7
    label = np.where(code == 0, (action >> 3) & 1, np.where(code == 6, 2, 0))
    switched = (code >= 1) & (code <= 5)
    label = np.where(switched, np.take_along_axis(roles, np.clip(code.astype(np.int64) - 1, 0, 4), axis=1), label)
    n_labels = len(LABELS)
    key = (group[:, None] * 13 + (table.up.astype(np.int64) >> 2)) * n_labels + label
    weight = np.broadcast_to(table.weight.astype(np.int64)[:, None], key.shape)
    weighted = np.zeros(len(names) * 13 * n_labels, dtype=np.int64)
    np.add.at(weighted, key.ravel(), weight.ravel())
    cells = weighted.reshape(len(names), 13, n_labels)
    out: list[DrawStrategyRowJSON] = []
    for g, name in enumerate(names):
        for r in range(12, -1, -1):
            cell = cells[g, r]
            n = int(cell.sum())
            if not n:
                continue
            shares = sorted(((int(v), k) for k, v in enumerate(cell) if v), key=lambda x: (-x[0], x[1]))
            out.append({"hand_group": name, "up_rank": RANKS[r], "situations": n,
                        "actions": {LABELS[k]: exact(Fraction(v, n)) for v, k in shares}})
    return tuple(out)


def analyze_draws(table: CountTable, variant: Variant, threads: int = 1,
                  progress: Callable[[int], None] | None = None,
                  use_cache: bool = True) -> tuple[Analysis, DrawFigures]:
    """The exact whole game of a table with one-card switching or a sixth card."""
    return analysis_from_draws(table, variant, draw_counts(table, variant, threads, progress, use_cache))
