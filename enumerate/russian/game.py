"""The whole game of a Russian Poker table without draws, exactly.

Without draws the player's five cards are his final hand, so every situation (player hand P, up
card u) -- 6,319,573 up to suits, 122,151,120 in all -- faces the dealer's 163,185 hole-card sets
with the plain game's counts: the count table (:mod:`enumerate.core.engine`) gives, per
situation, how many dealer hands do not qualify, lose, tie and win against P.  What the options
add is in :mod:`enumerate.russian.settle` (the one settlement):

* the bet's pay P(F) of the two combinations is a function of the hand's strength (one table,
  :func:`enumerate.russian.settle.pays_by_strength`);
* an insurance stake s (the limit or nothing: its EV is linear in s) is settled on the dealer's
  first five cards, so its EV is s times a linear form of the same counts;
* a dealt hand paid at once on the ante (``[ante_pays] instant_payout``) neither raises nor meets
  the dealer: it is worth its pay over every dealer hand, one return-table row per category;
* the bought games need the dealer's whole hand; the rank-set kernel
  (:mod:`enumerate.russian.bought`) gives, per situation, the dealer hands whose game is bought
  and how those purchases end (won, pushed, lost, still short: shares of each hand's replacement
  pool, summed), batched by up card.

With dn a common multiple of every replacement pool, each dealer hand counts dn combinations
(one per replacement card, pools spread evenly), so every outcome of every situation is an
integer count of combinations: 122,151,120 x 163,185 x dn in all.  A situation raises iff
dn * (sum of nets over its dealer hands) + gains + max(0, insurance) > -dn * 163,185 (folding),
in units of 1 / scale antes, by exact integer comparison; its combinations then fall in rows
keyed by (event, final hand's pay, insured), each row one net result.  The expected result and
its second moment are sums over the rows; the expected result is checked equal to the sum of
the situations' values on every run.  What each option is worth is the same game with the
option taken away (:func:`analyze_russian`, in the same pass over the situations).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

import numpy as np

from enumerate.analysis.base import Analysis, ReturnRow, check_table
from enumerate.analysis.strategies import StrategyChart
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.exact_game import rules_text
from enumerate.core.jsonform import exact
from enumerate.core.memo import TableMemo
from enumerate.rules.variant import Variant
from enumerate.russian.bought import Purchases, net_scale, purchase_unit, purchases
from enumerate.russian.settle import STATES, HandPay, RussianSettlement, pays_by_strength, settlement_refusal
from enumerate.russian.shapes import (
    OptionWorthJSON,
    ReturnRowMeaningJSON,
    RussianFiguresJSON,
    RussianStrategyRowJSON,
)
from evaluator.cards import RANKS
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

#: How a situation's combinations end, in the order of the return table.
EVENTS = ("player_wins", "bought_won", "dealer_does_not_qualify", "bought_short", "push", "bought_push",
          "dealer_wins", "bought_lost", "fold")
#: Columns of the strategy sums kept per (category, up rank): weighted situations, raised,
#: insured, indifferent (raising worth exactly folding), and, over the raised situations, dealer
#: hands that do not qualify and those whose game is bought.
STRATEGY = ("situations", "raised", "insured", "indifferent", "no_qualify", "bought")
#: Situations valued per block (bounds every int64 sum of a block far below 2**63).
BLOCK = 8192
#: Core-seconds of one whole game with the bought game (docs/speed.md: the table alone 30 CPU s on
#: 2 threads): what a count is projected from before it starts, never a figure of it.
CORE_SECONDS = 30.0
#: The options of Russian Poker a table may offer, by the variant's field (what :func:`analyze_russian` takes away).
OPTIONS = {"two_combinations": "two combinations paid", "insurance": "insurance",
           "buy_game": "buying the game", "ante_no_qualify_with": "the ante's pay by hand (dealer short)"}


def whole_game_refusal(variant: Variant) -> str | None:
    """Why this module's whole game does not cover ``variant`` (the settlement's refusal, or
    draws: counted by their own kernels), or None."""
    reason = settlement_refusal(variant)
    if reason is not None:
        return reason
    if variant.draws is not None:
        return ("a table with draws: its whole game is counted by rank patterns (enumerate.russian.draws_game), "
                "not by this module")
    return None


@dataclass(frozen=True)
class GameSums:
    """The whole game's exact sums: combinations per return-table key (event, pay, insured),
    the strategy sums per (category, up rank), the sum of the situations' values (units of
    1 / (``scale`` * ``dn`` * 163,185) antes), the dealer hands that qualify (weighted), and the
    situations' raise decisions (count-table rows x 47, for a comparison of two tables)."""

    pays: tuple[HandPay, ...]
    dn: int
    scale: int
    combinations: dict[tuple[int, int, int], int]
    strategy: np.ndarray            # (10, 13, len(STRATEGY)) object (Python ints)
    values: int
    qualifies: int
    stakes: int                     # sum over situations of the insured stake (units 1 / scale antes)
    raises: np.ndarray              # (rows, 47) bool
    #: combinations of the dealt hands paid at once, by category ([ante_pays] instant_payout)
    instant: dict[Category, int] = field(default_factory=dict)

    @property
    def situations(self) -> int:
        return int(self.strategy[..., 0].sum())


@dataclass(frozen=True)
class IntegerNets:
    """A settlement's nets for some pays in integers, units of 1 / ``scale`` antes: per state and
    pay (``nets``), the insurance stake per pay and what a unit stake nets per state, and whether
    an insured box is barred from buying the game -- what both the whole game and one situation's
    draws value their final hands with (:meth:`decide`)."""

    scale: int
    nets: dict[str, np.ndarray]
    stake: np.ndarray
    ins_sign: tuple[int, ...]
    #: a win's net in a bought game, per pay (the ante's pay as :meth:`RussianSettlement.ante_on_win` says)
    bought_win: np.ndarray
    insured_may_not_buy: bool = False

    @classmethod
    def of(cls, s: RussianSettlement, pays: Sequence[HandPay], drew: bool = False) -> "IntegerNets":
        """The nets of ``pays`` under ``s`` for final hands reached by a draw (``drew``) or kept,
        made once for each (settlement, pays, drew): every action of a situation without the sixth
        card values the same pays (those of five-card hands), and one situation's question asks it
        some thirty times.  Its arrays are read-only."""
        return _integer_nets(s, tuple(pays), drew)

    def check_bound(self, unit: int, what: str) -> None:
        """Refuse pays so large that a final hand's value (nets times ``unit`` combinations:
        dealer hands x replacement shares) could leave 62 bits."""
        top = max(int(np.abs(a).max(initial=0)) for a in (*self.nets.values(), self.stake))
        if 4 * (top + self.scale) * unit >= 2**62:
            raise StudoddsError(f"pays too large for exact 64-bit values of {what}")

    def decide(self, which: np.ndarray, states: Sequence[np.ndarray], n: int, dn: int, gains: np.ndarray,
               forced: bool = False, given: np.ndarray | None = None) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
        """Per final hand (pay index ``which``, dealer counts ``states`` in the order of STATES,
        over ``n`` dealer hands of ``dn`` combinations each, ``gains`` what its purchases add):
        (what raising is worth, insured when that pays; what folding is worth; whether it raises
        -- always when ``forced``, as ``given`` says when given (a fixed strategy's raise) --;
        whether it raises and insures), in units of 1 / scale antes.
        When an insured box may not buy the game, raising is worth the better of the purchases
        and the insurance, insured only when the insurance is worth more (:meth:`buying`)."""
        zeros = np.zeros(len(which), dtype=np.int64)
        raised = sum((self.nets[st][which] * c for st, c in zip(STATES, states)), zeros) * dn
        insurance = sum((sign * c for sign, c in zip(self.ins_sign, states)), zeros) * self.stake[which] * dn
        if self.insured_may_not_buy:
            insures = (insurance > 0) & (insurance > gains)
            best = raised + np.where(insures, insurance, gains)
        else:
            insures = insurance > 0
            best = raised + gains + np.maximum(insurance, 0)
        fold = -self.scale * dn * n
        if given is not None:
            raises = np.asarray(given, dtype=bool)
        else:
            raises = np.ones(len(which), dtype=bool) if forced else best > fold
        return best, fold, raises, raises & insures

    def buying(self, insured: np.ndarray) -> np.ndarray:
        """Whether each raise's purchases are made: not on an insured raise when an insured box
        may not buy the game."""
        return ~insured if self.insured_may_not_buy else np.ones(len(insured), dtype=bool)


@lru_cache(maxsize=64)
def _integer_nets(s: RussianSettlement, pays: tuple[HandPay, ...], drew: bool = False) -> IntegerNets:
    """:meth:`IntegerNets.of`, kept: the nets in integers of 1 / scale antes, read-only."""
    scale = net_scale(s, pays)

    def frozen(values: list[int]) -> np.ndarray:
        a = np.array(values, dtype=np.int64)
        a.flags.writeable = False
        return a
    return IntegerNets(scale, {st: frozen([int(s.net(p, st, drew=drew) * scale) for p in pays]) for st in STATES},
               frozen([int(s.insurance_stake(p) * scale) for p in pays]),
               tuple(int(s.insurance_net(Fraction(1), st)) for st in STATES),
               frozen([int(s.net(p, "player_wins", bought=True) * scale) for p in pays]), s.insured_may_not_buy)


def event_columns(states: Sequence[np.ndarray], bought: np.ndarray, ends: np.ndarray, dn: int) -> dict[str, np.ndarray]:
    """Per final hand, the combinations of each event but folding when it raises (dealer hands
    of ``dn`` combinations; a bought game's by how it ends, ``ends``: won, pushed, lost, short)."""
    nq, win, tie, lose = states
    return {"player_wins": win * dn, "dealer_does_not_qualify": (nq - bought) * dn, "push": tie * dn,
            "dealer_wins": lose * dn, "bought_won": ends[:, 0], "bought_push": ends[:, 1],
            "bought_lost": ends[:, 2], "bought_short": ends[:, 3]}


def _blocks(n: int) -> Iterator[slice]:
    for start in range(0, n, BLOCK):
        yield slice(start, min(n, start + BLOCK))


#: The whole games counted with a count table, by the rules (an analysis and a comparison of two
#: tables ask for the same game in turn).
_GAMES: TableMemo[str, GameSums] = TableMemo("the Russian Poker games' sums")


def game_sums(counts: CountTable, variant: Variant, threads: int = 1,
              progress: Callable[[int], None] | None = None, rows: np.ndarray | None = None) -> GameSums:
    """The exact sums of the whole game without draws (see the module docstring); ``rows``:
    only these count-table rows (the sampled situations of the tests), else every row, kept
    with the count table.  ``progress`` gets one step per up card."""
    return games_sums(counts, [variant], threads, progress, rows)[0]


def games_sums(counts: CountTable, variants: Sequence[Variant], threads: int = 1,
               progress: Callable[[int], None] | None = None, rows: np.ndarray | None = None) -> list[GameSums]:
    """:func:`game_sums` of several tables in one pass over the situations: tables whose
    purchases are the same (the same rules but for insurance) share them."""
    if rows is not None:
        return _games_sums(counts, variants, threads, progress, rows)
    keys = [rules_text(v) for v in variants]
    missing = [i for i, k in enumerate(keys) if _GAMES.find(counts, k) is None]
    made = _games_sums(counts, [variants[i] for i in missing], threads, progress, None) if missing else []
    for i, sums in zip(missing, made):
        _GAMES.put(counts, keys[i], sums)
    if not missing and progress is not None:
        progress(52)
    out = [_GAMES.find(counts, k) for k in keys]
    assert all(x is not None for x in out)
    return cast(list[GameSums], out)


class _Game:
    """One table's settlement in integers and its running sums (see :class:`GameSums`)."""

    def __init__(self, counts: CountTable, variant: Variant, record: bool = False,
                 raises: np.ndarray | None = None) -> None:
        check_table(counts, variant)
        #: a fixed strategy's raise decisions per situation (count-table row, up column), or None: optimal play
        self.given = None if raises is None else np.asarray(raises, dtype=bool)
        s = self.s = RussianSettlement.of(variant)
        if variant.draws is not None:
            raise StudoddsError(f"variant {variant.name!r}: {whole_game_refusal(variant)}")
        self.variant = variant
        self.pays, self.index = pays_by_strength(s)
        self.integer = IntegerNets.of(s, self.pays)
        self.scale = self.integer.scale
        self.dn = purchase_unit(s, 46)
        self.integer.check_bound(self.dn * COMPLETIONS, "the whole game")
        self.keys = len(EVENTS) * len(self.pays) * 2
        self.combinations = np.zeros(self.keys, dtype=object)
        self.strategy = np.zeros((len(Category), 13, len(STRATEGY)), dtype=object)
        self.values = self.qualifies = self.stakes = 0
        self.chosen = np.zeros(counts.up.shape, dtype=bool)
        # per strength: paid at once ([ante_pays] instant_payout), and that pay in the values' units
        instant = dict(s.instant)
        pay = [instant.get(c) for c in CATEGORY_BY_STRENGTH.tolist()]
        self.paid = np.array([p is not None for p in pay], dtype=bool)
        paid_value = [0 if p is None else int(p * self.scale) * self.dn * COMPLETIONS for p in pay]
        if max(paid_value) >= 2**62:
            raise StudoddsError(f"variant {variant.name!r}: instant payouts too large for exact 64-bit values")
        self.paid_value = np.array(paid_value, dtype=np.int64)
        self.instant: dict[Category, int] = {}
        #: with ``record``: per situation (count-table row, up column) what raising is worth (with
        #: the insurance when it pays and the purchases; a hand paid at once: its pay), in units of
        #: 1 / (scale * dn * 163,185) antes, and whether it is paid at once (the EV table)
        self.raise_values = np.zeros(counts.up.shape, dtype=np.int64) if record else None
        self.paid_at = np.zeros(counts.up.shape, dtype=bool) if record else None

    @property
    def purchase_key(self) -> tuple[str, int] | None:
        """What the purchases depend on (:func:`_purchase_rules`, and the unit of the nets), or None: no purchases."""
        rules = _purchase_rules(self.variant)
        return None if rules is None else (rules, self.scale)

    def add(self, up: int, r: np.ndarray, col: np.ndarray, counts: CountTable,
            p: Purchases | None) -> None:
        """The situations of up card ``up`` at count-table rows ``r``, columns ``col``, with their purchases ``p``."""
        n, dn, which = COMPLETIONS, self.dn, self.index[counts.strength[r]]
        nq = counts.no_qualify[r, col].astype(np.int64)
        win = counts.win[r, col].astype(np.int64)
        tie = counts.tie[r, col].astype(np.int64)
        lose = n - nq - win - tie
        weight = counts.weight[r].astype(np.int64)
        zeros = np.zeros(len(r), dtype=np.int64)
        bought, ends, gains = (zeros, np.zeros((len(r), 4), dtype=np.int64), zeros) if p is None else \
            (p.bought, p.outcomes, p.gains)
        if p is not None:
            assert p.dn == dn and p.unit == self.scale * dn
        states = (nq, win, tie, lose)
        best, fold, raises, insured = self.integer.decide(which, states, n, dn, gains,
                                                          given=None if self.given is None else self.given[r, col])
        buying = self.integer.buying(insured)
        bought, ends = np.where(buying, bought, 0), np.where(buying[:, None], ends, 0)
        paid = self.paid[counts.strength[r]]                # paid at once: no bet, no dealer hand met
        raises, insured = raises & ~paid, insured & ~paid
        self.chosen[r, col] = raises
        value = np.where(paid, self.paid_value[counts.strength[r]], np.where(raises, best, fold))
        if self.raise_values is not None and self.paid_at is not None:
            self.raise_values[r, col] = np.where(paid, value, best)
            self.paid_at[r, col] = paid
        comb = event_columns(states, bought, ends, dn)
        category = CATEGORY_BY_STRENGTH[counts.strength[r]].astype(np.int64)
        for c in np.unique(category[paid]).tolist():
            self.instant[Category(c)] = self.instant.get(Category(c), 0) + \
                int(weight[paid & (category == c)].sum()) * n * dn
        for b in _blocks(len(r)):
            w = weight[b]
            played = w * ~paid[b]
            high, low = np.divmod(value[b], 1 << 32)        # w * value may leave 64 bits
            self.values += (int((w * high).sum()) << 32) + int((w * low).sum())
            self.qualifies += int((played * (n - nq[b])).sum())
            self.stakes += int((w * np.where(insured[b], self.integer.stake[which[b]], 0)).sum())
            self.combinations += event_combinations(len(self.pays), which[b], insured[b], raises[b],
                                                    {k: v[b] for k, v in comb.items()}, played, n * dn)
            columns = (np.ones_like(w), raises[b], insured[b], best[b] == fold,
                       np.where(raises[b], nq[b], 0), np.where(raises[b], bought[b], 0))
            for k, column in enumerate(columns):
                self.strategy[:, up >> 2, k] += _bincount(category[b], w * column.astype(np.int64), len(Category))

    def sums(self) -> GameSums:
        found = {key_of(k, len(self.pays)): int(c) for k, c in enumerate(self.combinations) if c}
        return GameSums(self.pays, self.dn, self.scale, found, self.strategy, self.values, self.qualifies,
                        self.stakes, self.chosen, self.instant)


def strategy_sums(counts: CountTable, variant: Variant, masks: Sequence[np.ndarray], threads: int = 1,
                  progress: Callable[[int], None] | None = None, rows: np.ndarray | None = None) -> list[GameSums]:
    """The table's sums under optimal play, then under each fixed strategy's raise decisions
    (``masks``: per situation, count-table row by up column, True to raise) -- the insurance and
    the purchases still taken where they pay, as a player who raised decides them -- in one pass
    over the situations (``rows`` only, else all), the purchases counted once for all."""
    games = [_Game(counts, variant)] + [_Game(counts, variant, raises=m) for m in masks]
    _pass(counts, games, threads, progress, rows)
    return [g.sums() for g in games]


def situation_values(counts: CountTable, variant: Variant, threads: int = 1,
                     progress: Callable[[int], None] | None = None,
                     rows: np.ndarray | None = None) -> tuple[np.ndarray, int, np.ndarray]:
    """Per situation (count-table row, up column) of a table without draws: what raising is
    worth -- the insurance taken when it pays, each dealer hand that does not qualify bought when
    that pays -- or, for a dealt hand paid at once, its pay, as numerators over the returned
    denominator (antes); and whether it is paid at once.  Folding is worth -1.  (The EV table;
    ``rows``: only these count-table rows, the others 0.)"""
    game = _Game(counts, variant, record=True)
    _pass(counts, [game], threads, progress, rows)
    assert game.raise_values is not None and game.paid_at is not None
    return game.raise_values, game.scale * game.dn * COMPLETIONS, game.paid_at


def _games_sums(counts: CountTable, variants: Sequence[Variant], threads: int, progress: Callable[[int], None] | None,
                rows: np.ndarray | None) -> list[GameSums]:
    games = [_Game(counts, v) for v in variants]
    _pass(counts, games, threads, progress, rows)
    return [g.sums() for g in games]


def _pass(counts: CountTable, games: Sequence[_Game], threads: int, progress: Callable[[int], None] | None,
          rows: np.ndarray | None) -> None:
    """One pass over the situations (``rows`` of the count table, else all), each up card's
    situations added to every game, the purchases shared by the games whose purchases are the same."""
    picked = np.arange(counts.hands.shape[0]) if rows is None else np.asarray(rows)
    hand_masks = (np.uint64(1) << counts.hands[picked].astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    everything = np.uint64((1 << 52) - 1)
    for up in range(52):
        at, col = np.nonzero(counts.up[picked] == up)
        r = picked[at]
        unseen = (everything & ~hand_masks[at]) & ~np.uint64(1 << up)
        shared: dict[tuple[str, int], Purchases] = {}
        for g in games:
            key = g.purchase_key
            if key is not None and len(r) and key not in shared:
                shared[key] = purchases(g.s, g.variant.qualifier.threshold, counts.strength[r], g.pays,
                                        g.index[counts.strength[r]], unseen, up, threads)
            g.add(up, r, col, counts, None if key is None or not len(r) else shared[key])
        if progress is not None:
            progress(1)


def event_combinations(n_pays: int, which: np.ndarray, insured: np.ndarray, raises: np.ndarray,
                       comb: dict[str, np.ndarray], weight: np.ndarray, fold: int) -> np.ndarray:
    """The combinations of final hands by return-table key (event, pay index, insured), as
    Python ints (index (event * n_pays + pay) * 2 + insured): ``comb`` the combinations of each
    event but folding when the hand raises, ``fold`` a folded hand's, each hand weighing
    ``weight`` (``which``: its pay's index; ``insured``: raised and insured)."""
    out = np.zeros(len(EVENTS) * n_pays * 2, dtype=object)
    for e, event in enumerate(EVENTS):
        c = np.where(raises, 0, fold) if event == "fold" else np.where(raises, comb[event], 0)
        out += _bincount((e * n_pays + which) * 2 + insured, weight * c, len(out))
    return out


def key_of(index: int, n_pays: int) -> tuple[int, int, int]:
    """(event, pay index, insured) of an index of :func:`event_combinations`."""
    rest, insured = divmod(index, 2)
    return divmod(rest, n_pays) + (insured,)


def _bincount(key: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Exact integer sums of ``weights`` by ``key`` (object array of Python ints)."""
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, key, weights)
    return out.astype(object)


def _slug(text: str) -> str:
    out = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    return out if out[:1].isalpha() else "x_" + out


def _stake_text(x: Fraction) -> str:
    return str(x) if x.denominator == 1 else f"{float(x):g}"


def _combination_keys(pay: HandPay) -> tuple[str, ...]:
    """The paytable keys of the combinations a pay sums (a second high card is A-K: the high-card pay)."""
    return (pay.first.key,) + (() if pay.second is None else (pay.second.key,))


def draw_fee_of(outcome: str) -> Fraction:
    """The draw action's fee a return-table row's outcome id names (its "_fee_N" or "_fee_N_D"
    ending, as :func:`row_of` writes it; 0 without one)."""
    m = re.search(r"_fee_(\d+)(?:_(\d+))?$", outcome)
    return Fraction(0) if m is None else Fraction(int(m.group(1)), int(m.group(2) or 1))


def row_of(s: RussianSettlement, event: str, pay: HandPay, insured: bool,
           draw_fee: Fraction = Fraction(0), drew: bool = False) -> tuple[str, str, Fraction]:
    """The outcome id, the label and the net result (antes) of a return-table key, with the fee
    of the draw action that led to it (``draw_fee``) taken off and named; a win after a draw
    (``drew``) is a row of its own where the ante's pay on a win depends on it."""
    stake = s.insurance_stake(pay) if insured else Fraction(0)
    fee = s.buy_game.fee if s.buy_game is not None else Fraction(0)
    first_state = {"player_wins": "player_wins", "push": "push", "dealer_wins": "dealer_wins"}.get(
        event, "dealer_does_not_qualify")
    side = s.insurance_net(stake, first_state) if insured else Fraction(0)
    ante = s.ante_short(pay.first)
    ante_text, ante_id = f"ante paid {ante} to 1", "" if ante == s.ante_no_qualify else f"_ante_{_slug(str(ante))}"
    hand = "_".join("a_k" if k == "high_card" and i else k for i, k in enumerate(_combination_keys(pay)))
    after, after_text = (AFTER_A_DRAW, " after a draw") if drew and s.drawn_win_apart else ("", "")
    outcome, label, net = {
        "player_wins": (f"player_wins_{hand}{after}", f"player wins with {pay.label}{after_text}",
                        s.net(pay, "player_wins", drew=drew)),
        "bought_won": (f"bought_won_{hand}", f"game bought, player wins with {pay.label}",
                       -fee + s.net(pay, "player_wins", bought=True)),
        "dealer_does_not_qualify": ("dealer_does_not_qualify" + ante_id, f"dealer does not qualify, {ante_text}", ante),
        "bought_short": ("bought_short" + ante_id, f"game bought, dealer still short, {ante_text}", -fee + ante),
        "push": ("push", "push", Fraction(0)),
        "bought_push": ("bought_push", "game bought, push", -fee),
        "dealer_wins": ("dealer_wins", "dealer wins", s.net(pay, "dealer_wins")),
        "bought_lost": ("bought_lost", "game bought, dealer wins", -fee + s.net(pay, "dealer_wins")),
        "fold": ("fold", "player folds", Fraction(-1))}[event]
    if insured:
        result = "won" if side > 0 else "lost" if side < 0 else "returned"
        outcome += f"_insured_{_slug(_stake_text(stake))}_{result}"
        label += f"; insurance of {_stake_text(stake)} {result}"
    if draw_fee:
        outcome, label = f"{outcome}_fee_{str(draw_fee).replace('/', '_')}", f"{label}; fee {draw_fee}"
    return outcome, label, net + side - draw_fee


#: The start of the outcome id of a dealt hand paid at once on the ante (no bet is made).
INSTANT_OUTCOME = "instant_payout_"
#: In the outcome id of a win after a draw, where it nets otherwise than a kept hand's
#: (:attr:`RussianSettlement.drawn_win_apart`).
AFTER_A_DRAW = "_after_a_draw"


def instant_row(dealt: Category, pay: Fraction) -> tuple[str, str, Fraction]:
    """The outcome id, label and net result (antes) of a dealt hand of category ``dealt`` paid
    ``pay`` to 1 at once on the ante (``[ante_pays] instant_payout``: the round ends)."""
    return f"{INSTANT_OUTCOME}{dealt.key}", f"dealt {dealt.label}, ante paid {pay} to 1 at once", pay


def _instant_meaning(dealt: Category, pay: Fraction) -> ReturnRowMeaningJSON:
    """What the return-table row of :func:`instant_row` is."""
    return {"outcome": instant_row(dealt, pay)[0], "event": "instant_payout", "combinations": [dealt.key],
            "insured": False}


def row_meanings(variant: Variant, pays: Sequence[HandPay], draw_fees: Sequence[Fraction]
                 ) -> dict[str, ReturnRowMeaningJSON]:
    """What every return-table row a table can have is, by outcome id: each event, class of final
    hand (``pays``), insured or not and draw fee, as :func:`row_of` names it (a whole game's
    rows, counted by labels, are read back through this)."""
    s = RussianSettlement.of(variant)
    out: dict[str, ReturnRowMeaningJSON] = {}
    for event in EVENTS:
        for hand in pays:
            for insured in (False, True) if s.insurance is not None else (False,):
                for fee in draw_fees:
                    for drew in (False, True) if variant.draws is not None else (False,):
                        outcome, _, _ = row_of(s, event, hand, insured, fee, drew)
                        out.setdefault(outcome, {"outcome": outcome, "event": cast(Any, event),
                                                 "combinations": list(_combination_keys(hand)), "insured": insured})
    for dealt, pay in s.instant:
        out[instant_row(dealt, pay)[0]] = _instant_meaning(dealt, pay)
    return out


def return_rows(variant: Variant, sums: GameSums, total: int
                ) -> tuple[tuple[ReturnRow, ...], Fraction, Fraction, tuple[ReturnRowMeaningJSON, ...]]:
    """The return table (rows of one net result each, keys of the same label merged), the
    expected result per ante, its second moment, and what each row is: its event, whether it is
    insured and the combinations of a hand it holds (its net follows from them)."""
    s = RussianSettlement.of(variant)
    merged: dict[str, tuple[tuple[int, Fraction, int], str, Fraction, int, ReturnRowMeaningJSON]] = {}
    for (e, pay, insured), c in sums.combinations.items():
        hand = sums.pays[pay]
        outcome, label, net = row_of(s, EVENTS[e], hand, bool(insured))
        order = (e, -hand.pay if EVENTS[e] in ("player_wins", "bought_won") else -net, insured)
        if label in merged:
            first, _, known, before, meaning = merged[label]
            if known != net:
                raise AssertionError(f"return-table row {label!r} holds two net results")
            merged[label] = (min(first, order), outcome, net, before + c, meaning)
        else:
            merged[label] = (order, outcome, net, c, {"outcome": outcome, "event": cast(Any, EVENTS[e]),
                                                      "combinations": list(_combination_keys(hand)),
                                                      "insured": bool(insured)})
    for dealt, c in sums.instant.items():                  # dealt hands paid at once: first
        outcome, label, net = instant_row(dealt, dict(s.instant)[dealt])
        merged[label] = ((-1, -net, 0), outcome, net, c, _instant_meaning(dealt, net))
    rows, meanings = [], []
    for label, (_, outcome, net, c, meaning) in sorted(merged.items(), key=lambda x: (x[1][0], x[0])):
        p = Fraction(c, total)
        rows.append(ReturnRow(outcome, label, net, c, p, net * p))
        meanings.append(meaning)
    if sum(r.combinations for r in rows) != total:
        raise AssertionError("return-table rows do not sum to the total")
    if len({r.outcome for r in rows}) != len(rows):
        raise AssertionError("two return-table rows share an outcome id")
    expected = sum((r.contribution for r in rows), Fraction(0))
    second = sum((r.pays * r.pays * r.probability for r in rows), Fraction(0))
    return tuple(rows), expected, second, tuple(meanings)


@dataclass(frozen=True)
class OptionWorth:
    """The same table without one option (or without all of them): its house edge and element
    of risk, and how much the option lowers the house edge (per ante)."""

    option: str
    without: str
    house_edge: Fraction
    element_of_risk: Fraction
    worth: Fraction

    def to_dict(self) -> OptionWorthJSON:
        return {"option": cast(Any, self.option), "without": self.without, "house_edge_per_ante": exact(self.house_edge),
                "element_of_risk_per_total_wager": exact(self.element_of_risk),
                "lowers_the_house_edge_by": exact(self.worth)}


@dataclass(frozen=True)
class RussianFigures:
    """What a Russian Poker table adds to the analysis: how often each option is taken, what it
    costs or is staked per hand, the strategy by hand category and up-card rank, and what each
    option is worth."""

    raise_share: Fraction
    insure_share: Fraction           # of all situations
    insured_of_raised: Fraction
    bought_of_no_qualify: Fraction   # dealer hands bought, over the raised hands' dealer hands that do not qualify
    fees_per_hand: Fraction          # antes paid to buy the game, per hand
    insurance_per_hand: Fraction     # antes staked on insurance, per hand
    replacement_multiple: int        # dn: combinations per dealer hand
    strategy: tuple[RussianStrategyRowJSON, ...]
    worth: tuple[OptionWorth, ...]
    rows: tuple[ReturnRowMeaningJSON, ...]   # what each return-table row is
    #: the raise decisions by player strength and up-card rank (strategy.md's chart; not in the JSON)
    chart: StrategyChart | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> RussianFiguresJSON:
        return {"raise_share": exact(self.raise_share), "insure_share": exact(self.insure_share),
                "insured_share_of_raised": exact(self.insured_of_raised),
                "bought_share_of_no_qualify": exact(self.bought_of_no_qualify),
                "fees_per_hand_antes": exact(self.fees_per_hand),
                "insurance_per_hand_antes": exact(self.insurance_per_hand),
                "combinations_per_dealer_hand": self.replacement_multiple,
                "strategy": list(self.strategy), "option_worth": [w.to_dict() for w in self.worth],
                "return_table_rows": list(self.rows)}


def _strategy_rows(strategy: np.ndarray) -> tuple[RussianStrategyRowJSON, ...]:
    """One row per (category, up rank) with situations: the share raised, insured and bought."""
    out: list[RussianStrategyRowJSON] = []
    for c in sorted(Category, reverse=True):
        for up_rank in range(12, -1, -1):
            sit, raised, insured, indifferent, nq, bought = (int(x) for x in strategy[c, up_rank])
            if not sit:
                continue
            out.append({"hand_group": c.label, "up_rank": RANKS[up_rank], "situations": sit,
                        "raise_share": exact(Fraction(raised, sit)), "insure_share": exact(Fraction(insured, sit)),
                        "indifferent_situations": indifferent,
                        "bought_share_of_no_qualify": exact(Fraction(bought, nq) if nq else Fraction(0))})
    return tuple(out)


def analysis_of(variant: Variant, sums: GameSums) -> tuple[Analysis, dict[str, Any]]:
    """The analysis of the whole game from its sums, and the figures of its options (shares,
    fees and stakes per hand, what each return-table row is)."""
    s = RussianSettlement.of(variant)
    situations = sums.situations
    total = situations * COMPLETIONS * sums.dn
    rows, expected, second, meanings = return_rows(variant, sums, total)
    if expected != Fraction(sums.values, sums.scale * sums.dn * COMPLETIONS * situations):
        raise AssertionError("the return table and the situations' values disagree")
    st = sums.strategy
    raised, insured = int(st[..., 1].sum()), int(st[..., 2].sum())
    nq, bought = int(st[..., 4].sum()), int(st[..., 5].sum())
    raise_share = Fraction(raised, situations)
    insurance = Fraction(sums.stakes, sums.scale * situations)
    wager = 1 + s.raise_antes * raise_share + insurance
    fee = s.buy_game.fee if s.buy_game is not None else Fraction(0)
    bought_comb = sum(c for (e, _, _), c in sums.combinations.items() if EVENTS[e].startswith("bought_"))
    by_category = {c: (int(st[c, :, 1].sum()), int(st[c, :, 0].sum())) for c in Category}
    a = Analysis.of_outcomes(variant, rows, total, expected, second, raised, raise_share, int(st[..., 3].sum()),
                             Fraction(sums.qualifies, situations * COMPLETIONS), by_category, wager=wager)
    return a, {"raise_share": raise_share, "insure_share": Fraction(insured, situations),
               "insured_of_raised": Fraction(insured, raised) if raised else Fraction(0),
               "bought_of_no_qualify": Fraction(bought, nq) if nq else Fraction(0),
               "fees_per_hand": fee * Fraction(bought_comb, total), "insurance_per_hand": insurance,
               "rows": meanings}


def without(variant: Variant, option: str) -> Variant:
    """The same table without ``option`` (a key of :data:`OPTIONS`; "all": without every one)."""
    if option == "all":
        return replace(variant, two_combinations=None, insurance=None, buy_game=None, ante_no_qualify_with={})
    if option == "ante_no_qualify_with":
        return replace(variant, ante_no_qualify_with={})
    return replace(variant, **{option: None})  # type: ignore[arg-type]  # one of the three optional rules


def offered(variant: Variant) -> list[str]:
    """The options of :data:`OPTIONS` the table offers."""
    return [o for o in OPTIONS if getattr(variant, o)]


def analyze_russian(counts: CountTable, variant: Variant, threads: int = 1,
                    progress: Callable[[int], None] | None = None,
                    worth: bool = True) -> tuple[Analysis, RussianFigures, np.ndarray]:
    """The whole game of ``variant`` (no draws) under optimal strategy, its figures, and each
    situation's raise decision; with ``worth``, the same game without each option the table
    offers, and without all of them (52 progress steps a game)."""
    options = _options(variant) if worth else []
    tables = _tables(variant, options)
    every = games_sums(counts, tables, threads, None if progress is None else lambda k: progress(k * len(tables)))
    sums = every[0]
    a, shares = analysis_of(variant, sums)
    worths: list[OptionWorth] = []
    for option, other_table, other_sums in zip(options, tables[1:], every[1:]):
        other, _ = analysis_of(other_table, other_sums)
        title = "every option" if option == "all" else OPTIONS[option]
        worths.append(OptionWorth(option, f"without {title}", other.house_edge, other.element_of_risk,
                                  other.house_edge - a.house_edge))
    figures = RussianFigures(shares["raise_share"], shares["insure_share"], shares["insured_of_raised"],
                             shares["bought_of_no_qualify"], shares["fees_per_hand"], shares["insurance_per_hand"],
                             sums.dn, _strategy_rows(sums.strategy), tuple(worths), shares["rows"],
                             raise_chart(counts, sums.raises))
    return a, figures, sums.raises


def raise_chart(counts: CountTable, raises: np.ndarray) -> StrategyChart:
    """The raise decisions of every situation, weighted, by player strength and up-card rank."""
    raised = np.zeros((len(CATEGORY_BY_STRENGTH), 13), dtype=np.int64)
    total = np.zeros_like(raised)
    strength = np.broadcast_to(counts.strength.astype(np.int64)[:, None], counts.up.shape)
    weight = np.broadcast_to(counts.weight.astype(np.int64)[:, None], counts.up.shape)
    up_rank = counts.up.astype(np.int64) >> 2
    np.add.at(total, (strength, up_rank), weight)
    np.add.at(raised, (strength, up_rank), weight * raises)
    return StrategyChart(raised, total)


def _options(variant: Variant) -> list[str]:
    """What :func:`analyze_russian` takes away, one at a time: each option offered, and all of them."""
    names = offered(variant)
    return names + (["all"] if len(names) > 1 else [])


def _tables(variant: Variant, options: list[str]) -> list[Variant]:
    """The table, then the same table without each of ``options`` (keys of :data:`OPTIONS`, or "all")."""
    return [variant] + [without(variant, o) for o in options]


def _purchase_rules(variant: Variant) -> str | None:
    """What a table's purchases depend on besides the unit of its nets: its rules but insurance
    (insurance is settled on the dealer's first five cards), or None: no purchases."""
    return None if variant.buy_game is None else rules_text(replace(variant, insurance=None))


def games(variant: Variant) -> int:
    """How many whole games :func:`analyze_russian` counts (the table, and it without each option)."""
    return 1 + len(_options(variant))


def purchase_passes(variant: Variant) -> int:
    """How many of those games count bought games of their own (the costly part: tables that
    differ only by insurance share them), at least one."""
    return max(1, len({_purchase_rules(v) for v in _tables(variant, _options(variant))} - {None}))
