"""Russian Poker on shuffled decks: the certified strategy played, every wager settled from the rules.

A game deals a real shuffled deck (numpy's Philox generator, one stream per chunk of games keyed by
the seed and the chunk's number, so a run is the same on any number of threads): the player's five
cards, the dealer's up card and four hole cards, then the stub the draws and the bought game take
their cards from, in order.

**The strategy played** is the certified one, decided by the exact engine, never re-derived here:

* the draw: a dealt hand's situation class (its cards in the kernel's frame -- the up card's suit
  made 0, the other suits ordered by their ranks -- and the up rank) looked up in the whole game's
  kept strategy (:mod:`enumerate.russian.strategy`: one action a class, the order of
  :func:`enumerate.draws.switch_ranks.group_situations`), read back to the real cards it discards;
  a table without draws keeps its five cards;
* raise or fold, and insurance, for the final hand with its dead cards
  (:func:`enumerate.russian.final_hand.decisions`, exact);
* buy the game or take the ante, seeing the dealer's hand
  (:func:`enumerate.russian.final_hand.buy_choices`, exact).

**The settlement** of each game is this module's own (:func:`settle`), from the table's rules
(:class:`~enumerate.rules.variant.Variant`: the paytable and its maximum, the ante's pays, the
instant payout, the fees, insurance, the bought game's replacement) -- it shares nothing with the
exact engine's :mod:`enumerate.russian.settle`, so a settlement fault on either side shows as a
difference.  The rule of two combinations is read with the rules' own definition
(:func:`enumerate.rules.combinations.two_best`).

**The comparison.**  The return per ante and per total wagered (ante, raise and insurance staked:
fees are not wagers), how often the player raises, insures, and buys the game when the dealer does
not qualify, each with its 95% interval and z-score against the exact figure (a share's standard
error is that of its exact value, the score test: a rare option seen in none of a few thousand games
is no evidence against it); the frequency of each net result of a game against the exact return
table's rows of that net, and the draw kinds' frequencies against their exact shares (chi-square).
Exact sums: nets are fractions, counted by value.
"""
from __future__ import annotations

import hashlib
import json
import math
import random
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from enumerate.core.array_store import ArrayCache, keyed_path
from enumerate.core.slices import Slice, classes_digest
from enumerate.draws import switch_ranks
from enumerate.draws.actions import BUY_KIND, KINDS
from enumerate.game.analysis import GameAnalysis
from enumerate.rules.combinations import pay_key, two_best
from enumerate.rules.variant import Variant
from enumerate.russian import strategy as kept_strategy
from enumerate.russian.final_hand import buy_choices, decisions
from enumerate.russian.ranks import SHARD
from enumerate.simulation.simulate import FrequencyCheck, FrequencyRow, ReturnCheck, Simulation, _frequencies
from enumerate.simulation.statistics import Estimate, chi_square, mean_estimate, ratio_estimate
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category, best_strengths, hand_indices, strengths

#: Games per chunk (one generator stream each).
CHUNK = 1 << 13
#: The generator, for the record.
GENERATOR = ("numpy.random.Philox, one stream per chunk of 8,192 games: SeedSequence(seed, spawn_key=(chunk,)); "
             "each game a uniform permutation of the deck (Generator.permuted)")


# ------------------------------------------------------------------------------ the kept draws

@dataclass(frozen=True)
class DrawTable:
    """The certified draw of every situation class: ``keys`` (sorted: the class's hand in the
    kernel's frame as a colex index, times 13, plus the up rank) and its ``actions`` (a switch
    mask over the sorted frame hand, or 32: buy a sixth card)."""

    keys: np.ndarray
    actions: np.ndarray

    def lookup(self, keys: np.ndarray) -> np.ndarray:
        if keys.shape[0] == 0:
            return np.zeros(0, dtype=self.actions.dtype)
        at = np.searchsorted(self.keys, keys)
        at = np.minimum(at, self.keys.shape[0] - 1)
        if self.keys.shape[0] == 0 or not (self.keys[at] == keys).all():
            raise StudoddsError("the kept strategy has no draw for a dealt situation: it is not this table's")
        return self.actions[at]


def draw_table(variant: Variant, kept: Mapping[str, Any], use_cache: bool = True,
               progress: Callable[[int], None] | None = None) -> DrawTable:
    """The draw of every situation class from a whole game's kept strategy (shard digest ->
    [classes per group, actions]), checked: every shard of the whole game, each group's classes
    as many as it lists (``progress``: a group at a time, when made).  Cached under the user
    cache, keyed by the strategy itself, and checked
    when read: 64 groups drawn by the strategy's digest listed again, each class's action the
    table's (a table made by a build that listed the classes in another order is made anew)."""
    played = frozenset(Category) - set(variant.ante_instant)
    digest = hashlib.sha256(json.dumps(dict(kept), sort_keys=True).encode()).hexdigest()
    meta = {"kind": "russian-draw-table", "version": 1, "played": sorted(int(c) for c in played), "strategy": digest}
    stored = ArrayCache(keyed_path("russian-draws", meta), meta, "Russian Poker draws", enabled=use_cache)
    found = stored.load(("keys", "actions"))
    if found is not None:
        table = DrawTable(found["keys"], found["actions"])
        if _listed_alike(table, kept, played, int(digest[:8], 16)):
            return table
        warnings.warn(f"Russian Poker draws cache {stored.path} lists the classes otherwise; making it anew",
                      stacklevel=2)
    keys, actions = [], []
    for cards, ru, best in _groups(kept, played, range(groups_of_the_game())):
        keys.append(hand_indices(cards).astype(np.int64) * 13 + ru)
        actions.append(best)
        if progress is not None:
            progress(1)
    k, a = np.concatenate(keys), np.concatenate(actions)
    order = np.argsort(k, kind="stable")
    table = DrawTable(k[order], a[order].astype(np.int8))
    if (np.diff(table.keys) <= 0).any():
        raise AssertionError("two situation classes share a key")
    stored.save({"keys": table.keys, "actions": table.actions})
    return table


def groups_of_the_game() -> int:
    """The groups (player rank pattern, up rank) of the whole game, as its slice lists them."""
    return int(switch_ranks.groups(Slice())[1].shape[0])


def _groups(kept: Mapping[str, Any], played: frozenset[Category],
            wanted: Iterable[int]) -> Iterator[tuple[np.ndarray, int, np.ndarray]]:
    """(a group's classes' cards, its up rank, their kept actions) for the groups ``wanted`` (in
    increasing order), each shard's strategy decoded once and checked against its groups."""
    h, up, weight = switch_ranks.groups(Slice())
    shard, counts, best, starts = -1, [0], np.zeros(0, dtype=np.int8), [0]
    for g in wanted:
        if g // SHARD != shard:
            shard = g // SHARD
            lo, hi = shard * SHARD, min(shard * SHARD + SHARD, up.shape[0])
            digest = classes_digest(h[lo:hi], up[lo:hi], weight[lo:hi])
            if digest not in kept:
                raise StudoddsError("the kept strategy lacks a shard of the whole game")
            counts, best = kept_strategy.decode(kept[digest], hi - lo)
            starts = np.concatenate([[0], np.cumsum(counts)]).tolist()
        cards, _ = switch_ranks.group_situations(h[g], int(up[g]), played)
        j = g - shard * SHARD
        if cards.shape[0] != counts[j]:
            raise StudoddsError("the kept strategy's classes are not this table's")
        yield cards, int(up[g]), best[starts[j]:starts[j + 1]]


def _listed_alike(table: DrawTable, kept: Mapping[str, Any], played: frozenset[Category], seed: int) -> bool:
    """Whether 64 groups drawn by ``seed``, listed again, look up their kept actions in ``table``."""
    wanted = sorted(random.Random(seed).sample(range(groups_of_the_game()), 64))
    try:
        return all((table.lookup(hand_indices(cards).astype(np.int64) * 13 + ru) == best).all()
                   for cards, ru, best in _groups(kept, played, wanted))
    except StudoddsError:
        return False


def frame(hands: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(class keys, order): each dealt hand in the kernel's frame -- suits renamed so the up card's
    is 0 and the others' rank sets do not increase over 1, 2, 3 -- as a key of :class:`DrawTable`,
    and ``order[i, j]``: the column of ``hands`` holding the frame hand's j-th lowest card."""
    n = hands.shape[0]
    ranks, suits = hands >> 2, hands & 3
    masks = np.zeros((n, 4), dtype=np.int64)
    for j in range(5):
        np.bitwise_or.at(masks, (np.arange(n), suits[:, j]), np.int64(1) << ranks[:, j].astype(np.int64))
    us = (up & 3).astype(np.int64)
    score = np.where(np.arange(4)[None, :] == us[:, None], np.int64(1) << 20, masks)   # the up suit first
    by = np.argsort(-score, axis=1, kind="stable")
    rename = np.empty_like(by)
    rename[np.arange(n)[:, None], by] = np.arange(4)[None, :]
    framed = ranks.astype(np.int64) * 4 + rename[np.arange(n)[:, None], suits]
    order = np.argsort(framed, axis=1, kind="stable")
    sorted_frame = np.take_along_axis(framed, order, axis=1)
    keys = hand_indices(sorted_frame.astype(np.uint8)).astype(np.int64) * 13 + (up >> 2).astype(np.int64)
    return keys, order


# ------------------------------------------------------------------------------ the settlement

def _best(cards: Sequence[int]) -> int:
    """The strength of the best five of ``cards`` (five or six)."""
    c = list(cards)
    fives = [c] if len(c) == 5 else [c[:i] + c[i + 1:] for i in range(len(c))]
    return int(strengths(np.array(fives, dtype=np.uint8), threads=1, check=False).max())


def bet_pay(variant: Variant, cards: Sequence[int]) -> Fraction:
    """What a win pays on the bet, to 1, for the final ``cards``: the paytable's pay of the best
    hand (and of the best second combination under ``[two_combinations]``), cut so that the win
    stays within the table's maximum payout."""
    first = Category(int(CATEGORY_BY_STRENGTH[_best(cards)]))
    if variant.two_combinations is not None:
        first, second = two_best(cards, [variant.raise_pays[c] for c in Category], variant.two_combinations)
        total = variant.raise_pays[first] + (variant.raise_pays[second] if second is not None else 0)
    else:
        total = variant.raise_pays[first]
    cap = variant.max_payout
    if cap is not None:
        room = cap.antes - (variant.ante_win if cap.covers == "ante_and_raise" else 0)
        total = min(total, max(Fraction(0), room) / variant.raise_antes)
    return Fraction(total)


def ante_when_short(variant: Variant, cards: Sequence[int], player: int | None = None) -> Fraction:
    """The ante's pay when the dealer does not qualify: the pay listed for the best category at or
    below the final hand's (of strength ``player``, when known), else the table's."""
    made = int(CATEGORY_BY_STRENGTH[_best(cards) if player is None else player])
    listed = [pay for c, pay in variant.ante_no_qualify_with.items() if int(c) <= made]
    return listed[-1] if listed else variant.ante_no_qualify


class Pays:
    """:func:`bet_pay` of a table, remembered by what it depends on: a five-card hand's by its
    strength (which names its ranks and whether it is a flush), a six-card hand's by
    :func:`~enumerate.rules.combinations.pay_key`."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.known: dict[Any, Fraction] = {}

    def __call__(self, cards: Sequence[int], player: int) -> Fraction:
        key: Any = player if len(cards) == 5 else pay_key(cards)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = bet_pay(self.variant, cards)
        return found


@dataclass(frozen=True)
class Game:
    """One game's settlement: its net (antes, fees included), what it staked (ante, raise,
    insurance), the draw kind and the decisions taken."""

    net: Fraction
    wager: Fraction
    kind: int
    raised: bool = False
    insured: bool = False
    short: bool = False         # raised against a dealer who does not qualify
    bought: bool = False


def settle(variant: Variant, final: Sequence[int], up: int, hole: Sequence[int], stub: Sequence[int], fee: Fraction,
           kind: int, raised: bool, insured: bool, buy: Callable[[], bool], *, player: int | None = None,
           first: int | None = None, pays: Pays | None = None) -> Game:
    """Settle a played game from the rules: the final cards, the dealer's up and hole cards, the
    cards left (``stub``, in order: the bought game draws from it), the draw's ``fee``; the
    decisions ``raised``, ``insured`` and ``buy()`` (asked only when the dealer does not qualify).
    ``player`` and ``first``: the strengths of the final hand and of the dealer's first five
    cards, when the caller ranked them already; ``pays``: the table's remembered pays."""
    if not raised:
        return Game(-1 - fee, Fraction(1), kind)
    r = Fraction(variant.raise_antes)
    if player is None:
        player = _best(final)
    pay = bet_pay(variant, final) if pays is None else pays(final, player)
    stake = Fraction(0)
    ins = variant.insurance
    if insured:
        assert ins is not None
        stake = (Fraction(1, 2) if ins.limit == "half_the_payout" else Fraction(1)) * r * pay
    q = variant.qualifier.threshold
    dealer = list(hole) + [up]

    def showdown(dealer_strength: int, bought: bool = False) -> Fraction:
        if player > dealer_strength:
            return ante_on_win(variant, kind, bought) + r * pay
        return Fraction(0) if player == dealer_strength else -1 - r

    if first is None:
        first = _best(dealer)
    wager = 1 + r + stake
    if first >= q:
        won = player > first
        side = -stake if (ins is None or ins.dealer_qualifies == "lost" or won) else Fraction(0)
        return Game(showdown(first) + side - fee, wager, kind, True, insured)
    side = stake
    if variant.buy_game is None or (insured and variant.buy_game.insured == "may_not_buy") or not buy():
        return Game(ante_when_short(variant, final, player) + side - fee, wager, kind, True, insured, True)
    b = variant.buy_game
    ranks = [c >> 2 for c in dealer]
    out = dealer[ranks.index(max(ranks) if b.replaces == "highest" else min(ranks))]
    cards = iter(stub)
    new = next(cards)
    while b.same_rank == "replaced_again" and new >> 2 == out >> 2:
        new = next(cards)
    second = _best([new if c == out else c for c in dealer])
    if b.after == "qualifier_applies" and second < q:
        result = ante_when_short(variant, final, player)
    else:
        result = showdown(second, bought=True)
    return Game(result - b.fee + side - fee, wager, kind, True, insured, True, True)


def ante_on_win(variant: Variant, kind: int, bought: bool) -> Fraction:
    """The ante's pay when the player beats a qualifying dealer: the table's, or -- when it is
    paid only if the player neither drew nor bought the game -- nothing after a draw (a draw kind
    other than keeping, 0) or a purchase."""
    if variant.ante_win_unless == "drew_or_bought" and (kind != 0 or bought):
        return Fraction(0)
    return variant.ante_win


# ------------------------------------------------------------------------------ the games

@dataclass
class Tally:
    """A run's exact sums: games by (net, wager) (each as numerator and denominator), by draw
    kind, and the decisions' counts."""

    games: int = 0
    outcomes: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    raised: int = 0
    insured: int = 0
    short: int = 0
    bought: int = 0

    def add(self, g: Game) -> None:
        self.games += 1
        self.outcomes[(g.net.numerator, g.net.denominator, g.wager.numerator, g.wager.denominator)] += 1
        self.kinds[g.kind] += 1
        self.raised += g.raised
        self.insured += g.insured
        self.short += g.short
        self.bought += g.bought


def _deal(seed: int, chunk: int, n: int) -> np.ndarray:
    rng = np.random.Generator(np.random.Philox(np.random.SeedSequence(seed, spawn_key=(chunk,))))
    return rng.permuted(np.tile(np.arange(52, dtype=np.int64), (n, 1)), axis=1)


def play_chunk(variant: Variant, draws: DrawTable | None, seed: int, chunk: int, n: int, threads: int = 1,
               pays: Pays | None = None, settle_each: bool = False) -> Tally:
    """Play games ``chunk * CHUNK`` .. + ``n`` (see the module docstring); ``pays``: the table's
    remembered pays, kept from chunk to chunk.  The games no bought game ends are settled all at
    once (:func:`_settle_together`), or with ``settle_each`` one by one by :func:`settle` (the
    reference the tests hold the other to)."""
    deck = _deal(seed, chunk, n)
    hands, up, hole = deck[:, :5], deck[:, 5], deck[:, 6:10]
    dealt = CATEGORY_BY_STRENGTH[strengths(hands.astype(np.uint8), threads=1, check=False)]
    instant = {int(c): pay for c, pay in variant.ante_instant.items()}
    if draws is not None:
        keys, order = frame(hands, up)
        paid = np.isin(dealt, list(instant))          # paid at once: no draw kept, none looked up
        acts = np.zeros(n, dtype=np.int64)
        acts[~paid] = draws.lookup(keys[~paid])
    else:
        acts, order = np.zeros(n, dtype=np.int64), np.tile(np.arange(5), (n, 1))
    tally = Tally()
    finals, deads, stubs, fees, kinds, played = [], [], [], [], [], []
    for i in range(n):
        if int(dealt[i]) in instant:
            tally.add(Game(instant[int(dealt[i])], Fraction(1), 0))
            continue
        a, cards, stub = int(acts[i]), deck[i, :5].tolist(), deck[i, 10:].tolist()
        if a == 32:
            final, dead, kind, fee = cards + stub[:1], [], BUY_KIND, _fee(variant, BUY_KIND)
            stub = stub[1:]
        else:
            out = [cards[int(order[i, j])] for j in range(5) if a >> j & 1]
            k = len(out)
            final = [c for c in cards if c not in out] + stub[:k]
            dead, kind, fee = out, k, _fee(variant, k)
            stub = stub[k:]
        finals.append(final)
        deads.append(dead)
        stubs.append(stub)
        fees.append(fee)
        kinds.append(kind)
        played.append(i)
    if not played:
        return tally
    d = decisions(variant, finals, [int(up[i]) for i in played], deads, threads, by_tables=True,
                  drew=[k != 0 for k in kinds])
    rows = np.array(played)
    first = strengths(np.column_stack([hole[rows], up[rows]]).astype(np.uint8), threads=1, check=False)
    player = best_strengths(finals)
    pays = Pays(variant) if pays is None else pays
    forced = np.array(kinds) == 5 if variant.draws is not None and variant.draws.switch is not None \
        and variant.draws.switch.all_five_must_raise else np.zeros(len(played), dtype=bool)
    raised, insured = d.raises | forced, d.insures
    bought = np.zeros(len(played), dtype=bool)
    if variant.buy_game is not None:                  # the player's choice, seeing a dealer short of qualifying
        barred = insured if variant.buy_game.insured == "may_not_buy" else np.zeros(len(played), dtype=bool)
        asked = np.flatnonzero(raised & ~barred & (first < variant.qualifier.threshold)).tolist()
        if asked:
            bought[asked] = buy_choices(variant, [finals[j] for j in asked], [int(up[played[j]]) for j in asked],
                                        [hole[played[j]].tolist() for j in asked], [deads[j] for j in asked])
    if settle_each:
        every = list(range(len(played)))
    else:
        every = np.flatnonzero(bought).tolist()
        _settle_together(variant, pays, finals, player, first, fees, kinds, raised, insured, ~bought, tally)
    for j in every:
        i = played[j]
        tally.add(settle(variant, finals[j], int(up[i]), hole[i].tolist(), stubs[j], fees[j], kinds[j],
                         bool(raised[j]), bool(insured[j]), partial(bool, bought[j]), player=int(player[j]),
                         first=int(first[j]), pays=pays))
    return tally


def _settle_together(variant: Variant, pays: Pays, finals: Sequence[Sequence[int]], player: np.ndarray,
                     first: np.ndarray, fees: Sequence[Fraction], kinds: Sequence[int], raised: np.ndarray,
                     insured: np.ndarray, take: np.ndarray, tally: Tally) -> None:
    """:func:`settle` of the games ``take`` (none of them a bought game) all at once, added to
    ``tally``: the same nets, in whole numbers over one denominator -- folded: -1 less the fee;
    raised against a dealer who qualifies: a win's ante pay and the bet's pay, a push nothing, a
    loss the ante and the bet, the insurance stake lost (or returned unless the player wins);
    against one who does not: the ante's pay for the final hand and the stake won; less the fee."""
    at = np.flatnonzero(take)
    if at.size == 0:
        return
    r, ins, q = variant.raise_antes, variant.insurance, variant.qualifier.threshold
    pay = [pays(finals[j], int(player[j])) if raised[j] else Fraction(0) for j in at.tolist()]
    share = Fraction(0) if ins is None else (Fraction(1, 2) if ins.limit == "half_the_payout" else Fraction(1))
    short = [ante_when_short(variant, finals[j], int(player[j])) if raised[j] and first[j] < q else Fraction(0)
             for j in at.tolist()]
    fee = [fees[j] for j in at.tolist()]
    unit = math.lcm(*(x.denominator for x in (*pay, *short, *fee, share, variant.ante_win)))
    ints = [np.array([int(x * unit) for x in xs], dtype=np.int64) for xs in (pay, short, fee)]
    pay_u, short_u, fee_u = ints
    stake_u = np.where(insured[at], np.array([int(share * r * x * unit) for x in pay], dtype=np.int64), 0)
    p, f, won = player[at], first[at], player[at] > first[at]
    kind = np.array(kinds, dtype=np.int64)[at]
    ante_u = np.array([int(ante_on_win(variant, k, False) * unit) for k in range(len(KINDS))], dtype=np.int64)[kind]
    show = np.where(won, ante_u + r * pay_u, np.where(p == f, 0, -(1 + r) * unit))
    returned = ins is not None and ins.dealer_qualifies == "returned_unless_player_wins"
    side = np.where(f >= q, np.where(won | (not returned), -stake_u, 0), stake_u)
    net = np.where(raised[at], np.where(f >= q, show, short_u) + side, -unit) - fee_u
    wager = np.where(raised[at], (1 + r) * unit + stake_u, unit)
    flags = np.column_stack([net, wager, kind, raised[at], insured[at], raised[at] & (f < q)])
    found, counts = np.unique(flags, axis=0, return_counts=True)
    for (n_u, w_u, k, rz, isd, sh), c in zip(found.tolist(), counts.tolist()):
        a, b = Fraction(n_u, unit), Fraction(w_u, unit)
        tally.outcomes[(a.numerator, a.denominator, b.numerator, b.denominator)] += c
        tally.kinds[k] += c
        tally.games += c
        tally.raised += rz * c
        tally.insured += isd * c
        tally.short += sh * c


def _fee(variant: Variant, kind: int) -> Fraction:
    """The fee of a draw of this kind (0 to keep)."""
    if kind == 0:
        return Fraction(0)
    assert variant.draws is not None
    if kind == BUY_KIND:
        assert variant.draws.buy_fee is not None
        return variant.draws.buy_fee
    assert variant.draws.switch is not None
    return variant.draws.switch.fees[kind]


def merge(tallies: Sequence[Tally]) -> Tally:
    out = Tally()
    for t in tallies:
        out.games += t.games
        out.outcomes.update(t.outcomes)
        out.kinds.update(t.kinds)
        out.raised += t.raised
        out.insured += t.insured
        out.short += t.short
        out.bought += t.bought
    return out


def compare(variant: Variant, tally: Tally, exact: GameAnalysis, *, seed: int, seconds: float | None = None,
            threads: int | None = None) -> Simulation:
    """The simulated figures of ``tally`` beside the exact ones of ``exact`` (see the module docstring)."""
    pairs = sorted(((Fraction(a, b), Fraction(c, d)), k) for (a, b, c, d), k in tally.outcomes.items())
    counts = [c for _, c in pairs]
    nets = [nw[0] for nw, _ in pairs]
    wagers = [nw[1] for nw, _ in pairs]
    n = tally.games
    returns = [ReturnCheck("base game", "ante", mean_estimate(counts, nets, exact.expected_return)),
               ReturnCheck("base game", "total wagered", ratio_estimate(counts, nets, wagers,
                                                                        -exact.element_of_risk))]
    ru = exact.russian
    if ru is None:
        raise StudoddsError("the exact analysis is not a Russian Poker table's")

    def share(name: str, hits: int, value: Fraction, unit: str = "hand", of: int | None = None) -> ReturnCheck:
        # a share's standard error under its exact value (the score test): a rare option seen
        # in none of a few thousand games is no evidence against its exact share
        m = n if of is None else of
        return ReturnCheck(name, unit, Estimate(Fraction(hits, m), math.sqrt(float(value * (1 - value)) / m), value))

    returns.append(share("raise", tally.raised, ru.raise_share))
    if variant.insurance is not None:
        returns.append(share("insure", tally.insured, ru.insure_share))
    if variant.buy_game is not None and tally.short:
        returns.append(share("buy the game", tally.bought, ru.bought_of_no_qualify,
                             "raised hand the dealer does not qualify against", tally.short))
    freq = [_net_results(tally, exact)]
    if exact.draws is not None:
        shares = exact.draws.action_shares
        observed = {KINDS[k]: c for k, c in tally.kinds.items()}
        freq.append(_frequencies("draws", observed, {}, {k: shares.get(k, Fraction(0)) for k in KINDS
                                                          if shares.get(k, Fraction(0)) or observed.get(k)}))
    notes = ("the strategy is the certified one: the draw as the whole game's kept strategy holds it, raise, "
             "insurance and the bought game decided exactly per final hand; every wager settled from the rules by "
             "the simulator's own code",)
    return Simulation(variant.name, "optimal", seed, n, tuple(returns), tuple(freq), notes, seconds, threads, GENERATOR)


def _net_results(tally: Tally, exact: GameAnalysis) -> FrequencyCheck:
    """How often each net result of a game came up, against the exact return table's rows of that
    net (rows of one net pooled; a net no row has is an impossible outcome)."""
    expected: dict[Fraction, Fraction] = {}
    for r in exact.rows:
        expected[r.pays] = expected.get(r.pays, Fraction(0)) + r.probability
    seen: dict[Fraction, int] = {}
    for (a, b, _, _), c in tally.outcomes.items():
        net = Fraction(a, b)
        seen[net] = seen.get(net, 0) + c
    nets = sorted(set(expected) | set(seen))
    rows = tuple(FrequencyRow(str(net), net, seen.get(net, 0), expected.get(net, Fraction(0)),
                              f"net {float(net):+.6g} antes") for net in nets)
    return FrequencyCheck("net results", rows, chi_square([(r.outcome, r.observed, r.probability) for r in rows]))


def kept_draws(variant: Variant, exact: GameAnalysis, use_cache: bool = True,
               progress: Callable[[int], None] | None = None) -> DrawTable | None:
    """The certified draws of a table with draws (None without): its whole game's kept strategy,
    from the analysis ``exact``, read into a :class:`DrawTable` (``progress``: a group at a time)."""
    if variant.draws is None:
        return None
    kept = (exact.kept_sums or {}).get("strategy")
    if not isinstance(kept, dict):
        raise StudoddsError("the whole game keeps no strategy (counted before strategies were kept): count it "
                            "again, or simulate a table certified with one")
    return draw_table(variant, kept, use_cache, progress)


def simulate(variant: Variant, exact: GameAnalysis, games: int, seed: int = 0, *, threads: int = 1,
             progress: Callable[[int], None] | None = None, use_cache: bool = True,
             draws: DrawTable | None = None) -> Simulation:
    """Play ``games`` games of a Russian Poker table with its certified strategy and compare them
    with the exact figures ``exact`` (the whole game's analysis, its kept strategy among its kept
    sums when the table has draws: ``draws`` when read already, :func:`kept_draws`)."""
    start = time.perf_counter()
    if draws is None:
        draws = kept_draws(variant, exact, use_cache)
    tallies, pays = [], Pays(variant)
    for chunk, first in enumerate(range(0, games, CHUNK)):
        m = min(CHUNK, games - first)
        tallies.append(play_chunk(variant, draws, seed, chunk, m, threads, pays))
        if progress is not None:
            progress(m)
    return compare(variant, merge(tallies), exact, seed=seed, seconds=time.perf_counter() - start, threads=threads)
