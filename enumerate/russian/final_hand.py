"""One final hand of Russian Poker valued exactly, dealer hand by dealer hand.

The player holds his final cards F (five, or six after buying a sixth card); the cards he has
seen besides them -- the up card u and the cards he discarded, ``dead`` -- are out of the
dealer's reach, so the dealer's four hole cards are any four of the m cards left, each set as
likely (n = C(m, 4)).  Against each dealer hand D = u + hole:

* D qualifies: the hand is won, pushed or lost (:class:`enumerate.russian.settle.RussianSettlement`);
* D does not qualify: the player takes the ante's pay, or -- under ``[buy_game]`` -- buys the
  game, seeing D: the dealer's highest (or lowest) card c is replaced by a card drawn from the
  cards neither player nor dealer holds (less those of c's rank when a card of that rank is
  replaced again: drawing again until the rank differs draws uniformly from the rest), and the new
  hand D' is settled.  The player buys iff that is worth strictly more than the ante's pay:

      -fee + (1 / #draws) * sum over draws of net(F against D')  >  a_nq.

With an insurance stake s (the limit, or nothing: its EV is linear in s) decided with the raise,
EV(raise) = (1 / n) * [sum over qualifying D of net + sum over the others of the better of the
ante and the purchase], exact as fractions; the player raises iff EV(raise) + max(0, EV(insurance))
exceeds -1, the EV of folding.  When an insured box may not buy the game (``insured =
"may_not_buy"``), raising is worth EV(raise taking the ante) + the better of the purchases' gain
and the insurance, insured only when the insurance is worth more.

The dealer's first hands are evaluated one by one (163,185 for a full deck: :func:`hole_counts`,
compiled; the witness, ``method="every_hand"``, builds and ranks every one as an array); the
bought games are counted by the dealer's rank sets (:mod:`enumerate.russian.bought`), or, with
``method="every_hand"``, by evaluating every dealer hand that does not qualify with every
replacement (about 3.4 million five-card hands): the slow, obviously-correct witness.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from enumerate.rules.combinations import pay_key
from enumerate.rules.variant import Variant
from enumerate.russian import _holes
from enumerate.russian.bought import purchases
from enumerate.russian.settle import STATES, HandPay, RussianSettlement, best_strength, pays_by_strength
from evaluator.cards import format_card, format_hand
from evaluator.errors import StudoddsError
from evaluator.ranking import best_strengths, strengths


@lru_cache(maxsize=4)
def _hole_sets(m: int) -> np.ndarray:
    """Every 4-set of labels 0..m-1 (colex order), read-only."""
    out = np.array(list(combinations(range(m), 4)), dtype=np.int64).reshape(-1, 4)
    out.flags.writeable = False
    return out


@dataclass(frozen=True)
class Purchases:
    """The bought games of some dealer hands that do not qualify, per hand: the card replaced,
    the replacements drawn from, and how many of them the player wins, ties, loses, or leave the
    dealer still short of qualifying (counted only when the qualifier applies again)."""

    replaced: np.ndarray
    draws: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    lose: np.ndarray
    short: np.ndarray


def _purchases(s: RussianSettlement, dealer: np.ndarray, unseen: Any, player: Any, threshold: int) -> Purchases:
    """The bought games of the dealer hands ``dealer`` (rows of four hole cards then the up
    card, none qualifying) against final hands of strength ``player`` (one, or one a row);
    ``unseen``: the cards the player has not seen, the dealer's hole cards among them (an array
    of cards for every row, or a 52-bit mask a row)."""
    assert s.buy_game is not None
    rows = len(dealer)
    ranks = dealer >> 2
    which = ranks.argmax(axis=1) if s.buy_game.replaces == "highest" else ranks.argmin(axis=1)
    replaced = dealer[np.arange(rows), which]
    if np.asarray(unseen).dtype == np.uint64:          # a mask a row: every card a candidate, the unseen valid
        m = 52
        cand = np.broadcast_to(np.arange(52, dtype=np.int64), (rows, m))
        valid = ((np.asarray(unseen)[:, None] >> cand.astype(np.uint64)) & np.uint64(1)).astype(bool)
    else:
        m = len(unseen)
        cand = np.broadcast_to(unseen, (rows, m))
        valid = np.ones((rows, m), dtype=bool)
    valid &= ~(cand[:, :, None] == dealer[:, None, :4]).any(axis=2)
    if s.buy_game.same_rank == "replaced_again":
        valid &= (cand >> 2) != (replaced >> 2)[:, None]
    new = np.repeat(dealer.astype(np.uint8)[:, None, :], m, axis=1)
    new[np.arange(rows)[:, None], np.arange(m)[None, :], which[:, None]] = cand
    ns = np.full((rows, m), -1, dtype=np.int32)
    ns[valid] = strengths(new[valid], threads=1, check=False)
    player = np.asarray(player).reshape(-1, 1)
    short = valid & (ns < threshold) if s.buy_game.after == "qualifier_applies" else np.zeros_like(valid)
    settled = valid & ~short
    return Purchases(replaced, valid.sum(axis=1), (settled & (ns < player)).sum(axis=1),
                     (settled & (ns == player)).sum(axis=1), (settled & (ns > player)).sum(axis=1), short.sum(axis=1))


def _purchase_gains(s: RussianSettlement, pay: HandPay | Sequence[HandPay], p: Purchases) -> tuple[np.ndarray, int]:
    """What each purchase is worth above taking the ante, times ``scale * draws`` (an int64 per
    purchase), and ``scale``: buying pays iff its gain is positive.  ``pay``: the final hand's,
    or one a purchase."""
    assert s.buy_game is not None
    pays = [pay] if isinstance(pay, HandPay) else list(pay)
    nets = {x: (s.net(x, "player_wins", bought=True), s.net(x, "push"), s.net(x, "dealer_wins"),
                s.net(x, "dealer_does_not_qualify"), s.buy_game.fee) for x in pays}
    scale = math.lcm(*(v.denominator for row in nets.values() for v in row))
    win, tie, lose, nq, fee = np.array([[int(v * scale) for v in nets[x]] for x in pays], dtype=np.int64).T
    return p.win * win + p.tie * tie + p.lose * lose + p.short * nq - (fee + nq) * p.draws, scale


def _most_gain(s: RussianSettlement, pay: HandPay) -> Fraction:
    """The most a purchase can add, per dealer hand short of qualifying, for a final hand of this
    pay: the best a bought game ends in, less the fee and the ante given up (at most nothing: the
    purchase never pays)."""
    assert s.buy_game is not None
    ante = s.net(pay, "dealer_does_not_qualify")
    return max(s.net(pay, "player_wins", bought=True), ante, Fraction(0)) - s.buy_game.fee - ante


def _unseen_mask(*cards: int) -> int:
    """The 52-bit mask of the cards not among ``cards``."""
    return ((1 << 52) - 1) & ~sum(1 << c for c in cards)


def _sum_shares(values: np.ndarray, take: np.ndarray, draws: np.ndarray) -> Fraction:
    """The sum of values / draws over the rows ``take``, exactly (grouped by their draws)."""
    out = Fraction(0)
    for d in np.unique(draws[take]).tolist():
        out += Fraction(int(values[take & (draws == d)].sum()), d)
    return out


@dataclass(frozen=True)
class BoughtGame:
    """Buying the game against one dealer hand that does not qualify, valued exactly."""

    replaced: int
    draws: int
    win: int
    tie: int
    lose: int
    short: int
    ev_buy: Fraction
    ev_ante: Fraction

    @property
    def buy(self) -> bool:
        """True if buying is worth strictly more than taking the ante's pay."""
        return self.ev_buy > self.ev_ante

    def text(self) -> str:
        choice = "buy the game" if self.buy else "take the ante"
        return (f"{choice}: buying (the dealer's {format_card(self.replaced)} replaced, {self.draws} cards to draw: "
                f"{self.win} win, {self.tie} tie, {self.lose} lose"
                + (f", {self.short} still short" if self.short else "")
                + f") EV {float(self.ev_buy):+.6f}, the ante {float(self.ev_ante):+.6f}")


@dataclass(frozen=True)
class FinalHandValue:
    """The exact value of raising (and insuring) one final hand, against every dealer hand."""

    cards: tuple[int, ...]
    up: int
    dead: tuple[int, ...]
    pay: HandPay
    dealer_sets: int
    no_qualify: int
    win: int
    tie: int
    lose: int
    bought: int
    ev_raise: Fraction
    ev_raise_taking_the_ante: Fraction
    insurance_stake: Fraction
    ev_insurance: Fraction
    #: how the purchases end: won, pushed, lost, the dealer still short -- each the sum over the
    #: dealer hands bought of the share of their replacements ending so
    purchases_end: tuple[Fraction, ...] = (Fraction(0),) * 4
    #: an insured box may not buy the game ([buy_game] insured = "may_not_buy")
    insured_may_not_buy: bool = False

    @property
    def insure(self) -> bool:
        """True if insuring (the limit) is worth more than nothing -- and, when an insured box may
        not buy the game, more than the purchases it gives up."""
        if self.insured_may_not_buy:
            return self.ev_insurance > 0 and self.ev_insurance > self.ev_raise - self.ev_raise_taking_the_ante
        return self.ev_insurance > 0

    @property
    def buys(self) -> bool:
        """True if the raise makes its purchases (:attr:`bought` of them): not when insured and an
        insured box may not buy the game."""
        return not (self.insured_may_not_buy and self.insure)

    @property
    def ev_raised(self) -> Fraction:
        """EV of raising, insured when that pays (the better of the insurance and the purchases
        when an insured box may not buy the game)."""
        if self.insured_may_not_buy:
            return self.ev_raise_taking_the_ante + self.ev_insurance if self.insure else self.ev_raise
        return self.ev_raise + max(Fraction(0), self.ev_insurance)

    @property
    def raises(self) -> bool:
        """True if raising beats folding (-1)."""
        return self.ev_raised > -1

    @property
    def ev(self) -> Fraction:
        """The hand's value: the better of raising and folding."""
        return max(Fraction(-1), self.ev_raised)


def _check(cards: Sequence[int], up: int, dead: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...], np.ndarray]:
    final, out = tuple(int(c) for c in cards), tuple(int(c) for c in dead)
    seen = final + out + (int(up),)
    if len(final) not in (5, 6) or len(set(seen)) != len(seen) or not all(0 <= c < 52 for c in seen):
        raise StudoddsError("a final hand is five or six cards, distinct from the up card and the dead cards")
    unseen = np.array(sorted(set(range(52)) - set(seen)), dtype=np.int64)
    if len(unseen) < 5:
        raise StudoddsError("too few cards left for the dealer's hole cards and a replacement")
    return final, out, unseen


def hole_counts(unseen: np.ndarray, up: np.ndarray, player: np.ndarray, threshold: int, threads: int = 1,
                by_tables: bool = False) -> np.ndarray:
    """Per final hand i, (the dealer's hole sets, those that do not qualify, lose to it, tie it)
    -- ``unseen[i]`` its unseen cards (a 52-bit mask), ``up[i]`` the up card, ``player[i]`` its
    strength -- an (n, 4) int64 array, counted set by set (:mod:`enumerate.russian._holes`), or
    with ``by_tables`` by inclusion-exclusion over the up rank's sorted tables (built once a
    process for each up rank, 0.15 s and 7.5 MB each: for many hands; the same counts)."""
    unseen = np.ascontiguousarray(unseen, dtype=np.uint64)
    up = np.ascontiguousarray(up, dtype=np.int32)
    player = np.ascontiguousarray(player, dtype=np.int16)
    out = np.zeros((unseen.shape[0], 4), dtype=np.int64)
    if not by_tables:
        _holes.hole_counts(unseen, up, player, int(threshold), out, threads)
        return out
    for rank in np.unique(up >> 2).tolist():
        rows = np.flatnonzero(up >> 2 == rank)
        part = np.zeros((rows.size, 4), dtype=np.int64)
        _holes.hole_counts_by_tables(up_tables(rank), unseen[rows], np.ascontiguousarray(up[rows] & 3), player[rows],
                                     int(threshold), part, threads)
        out[rows] = part
    return out


@lru_cache(maxsize=13)
def up_tables(rank: int) -> _holes.UpTables:
    """The sorted tables of the dealer's hands with the up card of ``rank`` and suit 0."""
    return _holes.UpTables(4 * rank)


def final_hand_value(variant: Variant, cards: Sequence[int], up: int, dead: Sequence[int] = (),
                     method: str = "rank_sets", drew: bool = False) -> FinalHandValue:
    """The exact value of the final hand ``cards`` against the up card ``up`` with the cards
    ``dead`` out of play (see the module docstring), reached by a draw (``drew``: a win's ante pay
    may depend on it) or dealt.  ``method``: the bought games counted by the dealer's rank sets
    (:mod:`enumerate.russian.bought`, the default) or ``"every_hand"``, dealer hand by dealer hand
    and replacement by replacement (the witness)."""
    if method not in ("rank_sets", "every_hand"):
        raise ValueError(f"unknown method {method!r}")
    s = RussianSettlement.of(variant)
    final, out, unseen = _check(cards, up, dead)
    player, pay, threshold = best_strength(final), s.hand_pay(final), variant.qualifier.threshold
    if method == "every_hand":
        hole = unseen[_hole_sets(len(unseen))]
        dealer = np.column_stack([hole, np.full(len(hole), up, dtype=np.int64)])
        ds = strengths(dealer, check=False)
        q = ds >= threshold
        n, nq = len(ds), int((~q).sum())
        win, tie = int((q & (ds < player)).sum()), int((q & (ds == player)).sum())
    else:
        n, nq, win, tie = hole_counts(np.array([_unseen_mask(*final, *out, int(up))], dtype=np.uint64),
                                      np.array([up]), np.array([player]), threshold)[0].tolist()
    lose = n - nq - win - tie
    base = nq * s.net(pay, "dealer_does_not_qualify") + win * s.net(pay, "player_wins", drew=drew) \
        + lose * s.net(pay, "dealer_wins")
    extra, bought = Fraction(0), 0
    ends: tuple[Fraction, ...] = (Fraction(0),) * 4
    if s.buy_game is not None and nq and method == "every_hand":
        p = _purchases(s, dealer[~q], unseen, player, threshold)
        gains, scale = _purchase_gains(s, pay, p)
        take = gains > 0
        extra, bought = _sum_shares(gains, take, p.draws) / scale, int(take.sum())
        ends = tuple(_sum_shares(x, take, p.draws) for x in (p.win, p.tie, p.lose, p.short))
    elif s.buy_game is not None and nq:
        fast = purchases(s, threshold, np.array([player]), [pay], np.zeros(1, dtype=np.int64),
                         np.array([sum(1 << c for c in unseen.tolist())], dtype=np.uint64), int(up))
        extra, bought = fast.gain(0), int(fast.bought[0])
        ends = tuple(fast.ends(0).values())
    stake = s.insurance_stake(pay)
    insured = (nq * s.insurance_net(stake, "dealer_does_not_qualify") + win * s.insurance_net(stake, "player_wins")
               + tie * s.insurance_net(stake, "push") + lose * s.insurance_net(stake, "dealer_wins"))
    return FinalHandValue(final, int(up), out, pay, n, nq, win, tie, lose, bought, (base + extra) / n, base / n,
                          stake, insured / n, ends, s.insured_may_not_buy)


def bought_game(variant: Variant, cards: Sequence[int], up: int, hole: Sequence[int],
                dead: Sequence[int] = ()) -> BoughtGame:
    """Buy the game or take the ante, against the dealer's hand ``up`` + ``hole`` (which does not
    qualify), with the final ``cards`` and the cards ``dead`` out of play."""
    s = RussianSettlement.of(variant)
    if s.buy_game is None:
        raise StudoddsError(f"variant {variant.name!r} does not offer buying the game ([buy_game])")
    final, out, unseen = _check(cards, up, tuple(dead) + tuple(hole))
    holes = tuple(int(c) for c in hole)
    if len(holes) != 4:
        raise StudoddsError("the dealer's hole cards are four cards")
    dealer = np.array([holes + (int(up),)], dtype=np.int64)
    if int(strengths(dealer, threads=1, check=False)[0]) >= variant.qualifier.threshold:
        raise StudoddsError(f"the dealer's {format_hand(holes + (int(up),))} qualifies: there is no game to buy")
    pool = np.array(sorted(set(unseen.tolist()) | set(holes)), dtype=np.int64)
    player, pay = best_strength(final), s.hand_pay(final)
    p = _purchases(s, dealer, pool, player, variant.qualifier.threshold)
    gains, scale = _purchase_gains(s, pay, p)
    ante = s.net(pay, "dealer_does_not_qualify")
    return BoughtGame(int(p.replaced[0]), int(p.draws[0]), int(p.win[0]), int(p.tie[0]), int(p.lose[0]),
                      int(p.short[0]), ante + Fraction(int(gains[0]), scale * int(p.draws[0])), ante)


@dataclass(frozen=True)
class Decisions:
    """The decisions after the draw of many final hands (:func:`decisions`): raise or fold, and
    insure (the limit) or not, each as :class:`FinalHandValue` decides it."""

    raises: np.ndarray
    insures: np.ndarray


def decisions(variant: Variant, finals: Sequence[Sequence[int]], ups: Sequence[int], dead: Sequence[Sequence[int]],
              threads: int = 1, by_tables: bool = False, drew: Sequence[bool] | None = None) -> Decisions:
    """Raise (and insure) or fold, for each final hand ``finals[i]`` (five or six cards) against the
    up card ``ups[i]`` with the cards ``dead[i]`` out of play: the decisions of
    :func:`final_hand_value` (EV(raise) + max(0, EV(insurance)) > -1; insure iff EV(insurance) > 0;
    when an insured box may not buy, the better of the insurance and the purchases),
    the dealer's hole sets counted by :func:`hole_counts` and the purchases by rank sets for all the
    hands of one up card and one number of unseen cards at once (``by_tables``: the hole sets by
    :func:`hole_counts`'s tables, for many hands) -- only for the hands whose
    decision the purchase could change (it adds at least nothing and at most, per dealer hand short
    of qualifying, the best a bought game ends in less the fee and the ante given up).  ``drew[i]``:
    whether the final hand was reached by a draw (a win's ante pay may depend on it; default none)."""
    s = RussianSettlement.of(variant)
    threshold = variant.qualifier.threshold
    players = best_strengths(finals)
    pays = _pays(s, finals, players)
    masks = [_unseen_mask(*f, u, *d) for f, u, d in zip(finals, ups, dead)]
    unseen = np.array(masks, dtype=np.uint64)
    counts = hole_counts(unseen, np.asarray(ups), players, threshold, threads, by_tables)
    # each distinct pay's nets, whole in units of 1 / unit: the ante's (dealer short), a win's, a
    # loss's, the insurance stake's in each state, and the most a purchase can gain
    index: dict[tuple[HandPay, bool], int] = {}
    drawn = [False] * len(pays) if drew is None else [bool(x) for x in drew]
    which = np.array([index.setdefault((p, d), len(index)) for p, d in zip(pays, drawn)], dtype=np.int64)
    table = np.zeros((len(index), 9), dtype=np.int64)
    for (pay, by_draw), at in index.items():
        stake = s.insurance_stake(pay)
        nets = [s.net(pay, "dealer_does_not_qualify"), s.net(pay, "player_wins", drew=by_draw),
                s.net(pay, "dealer_wins")]
        nets += [s.insurance_net(stake, state) for state in STATES]
        most = _most_gain(s, pay) if s.buy_game is not None else Fraction(0)
        unit = math.lcm(*(x.denominator for x in (*nets, most)))
        table[at] = [unit, *(int(x * unit) for x in (*nets, most))]
    t = table[which]
    sets, nq, win, tie = counts.T
    lose = sets - nq - win - tie
    lower = nq * t[:, 1] + win * t[:, 2] + lose * t[:, 3]           # sums over the hole sets, times unit
    insurance = nq * t[:, 4] + win * t[:, 5] + tie * t[:, 6] + lose * t[:, 7]
    base, fold = lower + np.maximum(insurance, 0), -sets * t[:, 0]
    raises = base > fold
    insures = insurance > 0
    if s.buy_game is not None:
        # buying adds between 0 (a purchase is made only when it gains) and, per dealer hand short of
        # qualifying, the best a bought game can end in less the fee and the ante it gives up: the
        # purchases are counted only for the hands whose decision those bounds leave open -- and,
        # when an insured box may not buy, for the hands that would insure (insure or buy turns on them)
        barred = s.insured_may_not_buy
        groups: dict[tuple[int, int], list[int]] = {}
        can = (nq > 0) & (t[:, 8] > 0)
        for i in np.flatnonzero(can & (((base <= fold) & (fold < base + nq * t[:, 8])) | (barred & insures))).tolist():
            groups.setdefault((int(ups[i]), masks[i].bit_count()), []).append(i)
        for (u, _), rows in groups.items():
            distinct = list(dict.fromkeys(pays[i] for i in rows))
            of = np.array([distinct.index(pays[i]) for i in rows], dtype=np.int64)
            fast = purchases(s, threshold, players[rows], distinct, of, unseen[rows], u, threads if len(rows) > 64 else 1)
            for j, i in enumerate(rows):
                gain = fast.gain(j) * int(t[i, 0])
                if barred:
                    insures[i] = int(insurance[i]) > 0 and int(insurance[i]) > gain
                    raises[i] = int(lower[i]) + (int(insurance[i]) if insures[i] else gain) > int(fold[i])
                else:
                    raises[i] = int(base[i]) + gain > int(fold[i])
    return Decisions(raises, raises & insures)


def buys(variant: Variant, cards: Sequence[int], up: int, hole: Sequence[int], dead: Sequence[int] = ()) -> bool:
    """Whether the player buys the game against the dealer's ``up`` + ``hole`` (which does not
    qualify): :meth:`BoughtGame.buy` (:func:`buy_choices` of one hand)."""
    return bool(buy_choices(variant, [cards], [up], [hole], [dead])[0])


def buy_choices(variant: Variant, finals: Sequence[Sequence[int]], ups: Sequence[int], holes: Sequence[Sequence[int]],
                dead: Sequence[Sequence[int]]) -> np.ndarray:
    """For each final hand, whether the player buys the game against the dealer's ``ups[i]`` +
    ``holes[i]`` (which does not qualify), with ``dead[i]`` out of play: :meth:`BoughtGame.buy`,
    every hand's bought games counted together, replacement by replacement -- and answered at
    once where no bought game can end better than the ante's pay plus the fee (the best a bought
    game ends in, less the fee and the ante given up, is at most nothing: a low hand's win pays
    no more than the ante it would have had)."""
    s = RussianSettlement.of(variant)
    if s.buy_game is None:
        raise StudoddsError(f"variant {variant.name!r} does not offer buying the game ([buy_game])")
    out = np.zeros(len(finals), dtype=bool)
    players = best_strengths(finals)
    pays = _pays(s, finals, players)
    most = {pay: _most_gain(s, pay) for pay in set(pays)}
    live = [i for i, pay in enumerate(pays) if most[pay] > 0]
    if not live:
        return out
    dealer = np.array([list(holes[i]) + [ups[i]] for i in live], dtype=np.int64)
    unseen = np.array([_unseen_mask(*finals[i], ups[i], *dead[i]) for i in live], dtype=np.uint64)
    p = _purchases(s, dealer, unseen, players[live], variant.qualifier.threshold)
    out[live] = _purchase_gains(s, [pays[i] for i in live], p)[0] > 0
    return out


def _pays(s: RussianSettlement, finals: Sequence[Sequence[int]], players: np.ndarray) -> list[HandPay]:
    """The bet's pay of each final hand of strength ``players[i]``: a five-card hand's by its
    strength, a six-card hand's by its pay_key (each computed once)."""
    pay_list, pay_index = pays_by_strength(s)
    six: dict[tuple[tuple[int, ...], tuple[int, ...]], HandPay] = {}
    return [pay_list[int(pay_index[p])] if len(f) == 5 else six.get(k := pay_key(f)) or six.setdefault(k, s.hand_pay(f))
            for f, p in zip(finals, players.tolist())]
