"""Exact analysis of side bets with fixed pays, alone and combined with the base game.

Every bet is settled per situation (player's five cards, up card) from exact counts:

* ``player_hand``: the class of the player's hand in the paytable (its strength decides it);
  counted over the 2,598,960 hands when the bet stands on a fold;
* ``player_and_up``: the class of the best five of the six cards, over the 122,151,120
  situations (each situation's six cards are ranked by taking the strongest of its six 5-card
  subsets in the evaluator's table);
* ``dealer_beaten``: over the 163,185 dealer hole-card sets of a situation, the bet wins on the
  dealer hands at least the bet's threshold T that the player beats, which is exactly the
  ``win`` count of the engine's count table for the qualifier T (and pushes on its ``tie``
  count), so one more count table (cached like any other) settles it exactly.

**Strategy.**  A bet lost on a fold (``fold_forfeits``) is worth more to a player who raises:
for a side wager s the gain of raising over folding is s * g with g = (net + 1) for the hand
bets and g = ((pay + 1) * W + P) / n for ``dealer_beaten`` (W wins, P pushes out of n).  The
combined game raises iff EV(raise) - EV(fold) + sum of s * g > 0, evaluated exactly in integers
over a common denominator; the base game is then analysed with that raise set, and every bet is
settled under it.  Bets that stand on a fold do not change the decision.

**Envy.**  With one deck, the other players' hands are exchangeable, so the expected envy per
player is (players - 1) times the expectation of one other hand's envy amount.  The variance
of what one player collects (own bet plus envy) needs the joint law of two disjoint hands, which
is counted exactly by inclusion-exclusion over the cards two hands share:

    #{(H1, H2) disjoint, H1 in a, H2 in b} = sum over card sets S of (-1)^|S| N_a(S) N_b(S)

with N_a(S) the number of hands of class a that contain S.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import numpy as np

from enumerate.analysis.base import analyze
from enumerate.core.counts import load_or_compute
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.jsonform import exact
from enumerate.core.memo import TableMemo
from enumerate.core.shapes import Count, Exact, Maximum, Minimum, MinItems, OneOf, Pattern, shape
from enumerate.raise_value import RaiseValue
from enumerate.rules.hands import PUSH, HandPaytable
from enumerate.rules.sidebets import KINDS, MAX_PLAYERS, SideBet, SideBetRulesJSON
from enumerate.rules.variant import Variant
from evaluator.errors import StudoddsError
from evaluator.ranking import N_HANDS, N_STRENGTHS, colex_indices, hands_of_indices, strength_by_index, strengths

#: Ordered pairs of disjoint 5-card hands: C(52, 5) * C(47, 5).
HAND_PAIRS = N_HANDS * math.comb(47, 5)


@shape("side_row")
class SideRowJSON(TypedDict):
    outcome: Annotated[str, Pattern("^[a-zA-Z0-9_]+$")]
    label: str
    net_result_per_wager: Exact
    combinations: Count
    probability: Exact
    return_per_wager: Exact


@dataclass(frozen=True)
class SideRow:
    """One outcome of a side bet: net result per unit wager, combinations, probability, return."""

    outcome: str
    event: str
    pays: Fraction
    combinations: int
    probability: Fraction
    contribution: Fraction

    def to_dict(self) -> SideRowJSON:
        return {"outcome": self.outcome, "label": self.event, "net_result_per_wager": exact(self.pays),
                "combinations": self.combinations, "probability": exact(self.probability),
                "return_per_wager": exact(self.contribution)}


#: What a side bet's combinations count: the 2,598,960 hands, the 122,151,120 situations or the
#: 19,933,230,517,200 combinations.
Space = Literal["hands", "situations", "combinations"]


class EnvyRowJSON(TypedDict):
    """What one side-bet player expects with envy at a table of ``players``."""

    players: Annotated[int, Minimum(1), Maximum(MAX_PLAYERS)]
    envy_per_wager: Exact
    return_per_wager: Exact
    house_edge: Exact
    variance_per_wager_squared: Exact
    standard_deviation_per_wager: float


@shape("side_bet")
class SideBetJSON(TypedDict):
    """The JSON of one side bet's figures."""

    name: str
    kind: Annotated[str, OneOf(list(KINDS))]
    settles: str
    rules: SideBetRulesJSON
    combinations_count: Space
    total_combinations: Count
    return_table: Annotated[list[SideRowJSON], MinItems(2)]
    expected_return_per_wager: Exact
    house_edge: Exact
    variance_per_wager_squared: Exact
    standard_deviation_per_wager: float
    hit_frequency: Exact
    every_hand_played: NotRequired[list[SideRowJSON]]
    envy: NotRequired[list[EnvyRowJSON]]


class SideBetsCombinedJSON(TypedDict):
    """The base game and every side bet at once."""

    base_return_per_hand_antes: Exact
    side_return_per_hand_antes: dict[str, Exact]
    total_return_per_hand_antes: Exact
    average_total_wager_antes: Exact
    house_edge_per_total_wager: Exact
    raise_probability: Exact
    situations_decided_differently: Count


@shape("side_bets", document=True)
class SideBetsJSON(TypedDict):
    """The JSON of a variant's side bets (kind "side_bets")."""

    kind: Literal["side_bets"]
    variant: str
    bets: Annotated[list[SideBetJSON], MinItems(1)]
    combined_game: SideBetsCombinedJSON


@dataclass(frozen=True)
class EnvyRow:
    """What one side-bet player expects at a table of ``players`` (one deck)."""

    players: int
    envy_per_wager: Fraction          # expected envy collected per unit wager
    return_per_wager: Fraction        # own bet plus envy, net, per unit wager
    variance: Fraction                # of own bet plus envy, per unit wager squared

    def to_dict(self) -> EnvyRowJSON:
        return {"players": self.players, "envy_per_wager": exact(self.envy_per_wager),
                "return_per_wager": exact(self.return_per_wager), "house_edge": exact(-self.return_per_wager),
                "variance_per_wager_squared": exact(self.variance),
                "standard_deviation_per_wager": math.sqrt(self.variance)}


@dataclass(frozen=True)
class SideBetAnalysis:
    """Exact figures of one side bet under the strategy of the (combined) game.

    ``space`` names what the combinations count: ``"hands"`` (2,598,960), ``"situations"``
    (122,151,120) or ``"combinations"`` (19,933,230,517,200)."""

    bet: SideBet
    space: Space
    rows: tuple[SideRow, ...]
    total: int
    expected: Fraction                # net result per unit wager
    variance: Fraction
    as_settled_on_the_cards: tuple[SideRow, ...] | None = None   # dealer_beaten: every hand played
    envy: tuple[EnvyRow, ...] = ()

    @property
    def house_edge(self) -> Fraction:
        return -self.expected

    @property
    def hit_frequency(self) -> Fraction:
        return sum((r.probability for r in self.rows if r.pays > 0), Fraction(0))

    def to_dict(self) -> SideBetJSON:
        out: SideBetJSON = {
            "name": self.bet.name, "kind": self.bet.kind, "settles": KINDS[self.bet.kind].text,
            "rules": self.bet.to_dict(), "combinations_count": self.space, "total_combinations": self.total,
            "return_table": [r.to_dict() for r in self.rows],
            "expected_return_per_wager": exact(self.expected), "house_edge": exact(self.house_edge),
            "variance_per_wager_squared": exact(self.variance),
            "standard_deviation_per_wager": math.sqrt(self.variance),
            "hit_frequency": exact(self.hit_frequency),
        }
        if self.as_settled_on_the_cards is not None:
            out["every_hand_played"] = [r.to_dict() for r in self.as_settled_on_the_cards]
        if self.envy:
            out["envy"] = [e.to_dict() for e in self.envy]
        return out


@dataclass(frozen=True)
class CombinedGame:
    """The base game and every side bet at once, with the raise/fold decision made for all of
    them (it differs from the base game's only when a bet is lost on a fold)."""

    base_return: Fraction             # per hand, antes
    side_returns: dict[str, Fraction]  # per hand, antes (wager times return per unit)
    average_total_wager: Fraction
    house_edge_per_total_wager: Fraction
    raise_probability: Fraction
    situations_decided_differently: int

    def to_dict(self) -> SideBetsCombinedJSON:
        return {"base_return_per_hand_antes": exact(self.base_return),
                "side_return_per_hand_antes": {k: exact(v) for k, v in self.side_returns.items()},
                "total_return_per_hand_antes": exact(self.base_return + sum(self.side_returns.values(), Fraction(0))),
                "average_total_wager_antes": exact(self.average_total_wager),
                "house_edge_per_total_wager": exact(self.house_edge_per_total_wager),
                "raise_probability": exact(self.raise_probability),
                "situations_decided_differently": self.situations_decided_differently}


@dataclass(frozen=True)
class SideBetReport:
    """kind "side_bets": every side bet of a variant and the combined game."""

    variant: str
    bets: tuple[SideBetAnalysis, ...]
    combined: CombinedGame

    def to_dict(self) -> SideBetsJSON:
        return {"kind": "side_bets", "variant": self.variant, "bets": [b.to_dict() for b in self.bets],
                "combined_game": self.combined.to_dict()}


# --------------------------------------------------------------------------- hand strengths

@lru_cache(maxsize=1)
def strength_counts() -> np.ndarray:
    """(7462,) int64: how many of the 2,598,960 hands have each strength."""
    return np.bincount(strength_by_index(), minlength=N_STRENGTHS).astype(np.int64)


def best_of_six(table: CountTable) -> np.ndarray:
    """(rows, 47) int16: strength of the best five of each situation's player hand and up card
    (the hand itself, or the up card in place of one of its five cards)."""
    return _BEST_OF_SIX.get(table, None, lambda: _best_of_six(table))


#: Per count table: :func:`best_of_six` (it depends on the hands alone).
_BEST_OF_SIX: TableMemo[None, np.ndarray] = TableMemo("best of six")


def _best_of_six(table: CountTable) -> np.ndarray:
    n, m = table.up.shape
    hands = np.repeat(table.hands, m, axis=0)
    up = table.up.reshape(-1)
    flat = np.repeat(table.strength, m).astype(np.int16)
    for i in range(5):
        five = hands.copy()
        five[:, i] = up                      # the up card is never in the hand: five distinct cards
        np.maximum(flat, strengths(five, check=False), out=flat)
    best: np.ndarray = flat.reshape(n, m)
    best.flags.writeable = False
    return best


# --------------------------------------------------------------------------- settlement

def _classes(pays: HandPaytable) -> np.ndarray:
    return pays.classes().astype(np.int64)


def _labels(pays: HandPaytable) -> list[tuple[str, str]]:
    out = []
    for spec, pay in pays.pays:
        out.append((spec.outcome_key, f"{spec.label}" + (" (push)" if pay == PUSH else "")))
    return out + [("loses", "any other hand")]


def _rows(outcomes: list[tuple[str, str, Fraction, int]], total: int) -> tuple[tuple[SideRow, ...], Fraction, Fraction]:
    rows = []
    for key, label, net, comb in outcomes:
        p = Fraction(comb, total)
        rows.append(SideRow(key, label, net, comb, p, net * p))
    if sum(r.combinations for r in rows) != total:
        raise AssertionError("side bet combinations do not sum to the total")
    mean = sum((r.contribution for r in rows), Fraction(0))
    second = sum((r.pays * r.pays * r.probability for r in rows), Fraction(0))
    return tuple(rows), mean, second - mean * mean


def player_hand(table: CountTable) -> np.ndarray:
    """(rows, 47) the strength of each situation's player hand."""
    return np.broadcast_to(table.strength[:, None], table.up.shape)


#: By side-bet kind (:data:`enumerate.rules.sidebets.KINDS`): the (rows, 47) strength of the
#: five-card hand each situation's paytable reads -- the player's hand, or the best five of it
#: and the up card.  A kind settled on the dealer's hand (``reads_dealer``) pays by the player's
#: hand too, and wins or pushes by the counts of its own dealer threshold.
HAND_OF_KIND: dict[str, Callable[[CountTable], np.ndarray]] = {
    "player_hand": player_hand,
    "player_and_up": best_of_six,
    "dealer_beaten": player_hand,
}


def _class_of_situation(bet: SideBet, table: CountTable) -> np.ndarray:
    """(rows, 47) class index of each situation (-1: not in the paytable)."""
    return _classes(bet.pays)[HAND_OF_KIND[bet.kind](table)]


def dealer_table(bet: SideBet, table: CountTable, threads: int) -> CountTable:
    """The count table of a ``dealer_beaten`` bet's dealer threshold (``table`` itself when it
    is the qualifier)."""
    assert bet.dealer_at_least is not None
    t = bet.dealer_at_least.threshold
    if t == table.qualifier:
        return table
    return load_or_compute(t, threads=threads)


def gain(bet: SideBet, table: CountTable, dealer: CountTable | None) -> tuple[np.ndarray, int]:
    """(G, D): raising instead of folding gains G / (D * n) per unit wager in each situation
    (zero unless the bet is lost on a fold)."""
    pays = bet.pays
    amounts = pays.amounts(Fraction(-1))
    d = math.lcm(*(a.denominator for a in amounts))
    if not bet.fold_forfeits:
        return np.zeros(table.up.shape, dtype=np.int64), d
    cls = _class_of_situation(bet, table)
    if not KINDS[bet.kind].reads_dealer:
        per_class = np.array([int((a + 1) * d) * COMPLETIONS for a in amounts], dtype=np.int64)
        return per_class[cls], d
    assert dealer is not None
    pay_plus = np.array([int((a + 1) * d) if p != PUSH else d for a, (_, p) in zip(amounts, pays.pays)] + [0],
                        dtype=np.int64)
    listed = (cls >= 0)
    push = d if bet.tie_pushes else 0
    return np.where(listed, pay_plus[cls] * dealer.win.astype(np.int64) + push * dealer.tie.astype(np.int64), 0), d


def settle(bet: SideBet, table: CountTable, raised: np.ndarray, dealer: CountTable | None) -> SideBetAnalysis:
    """Exact figures of ``bet`` when the player raises in the situations ``raised``."""
    amounts = bet.pays.amounts(Fraction(-1))
    labels = _labels(bet.pays)
    w = table.weight.astype(np.int64)[:, None]
    k = len(amounts)
    space: Space
    if KINDS[bet.kind].reads_dealer:
        return _settle_dealer(bet, table, raised, dealer, amounts, labels, w)
    cls = _class_of_situation(bet, table)
    if not bet.fold_forfeits:
        if KINDS[bet.kind].own_hand:
            counts = np.zeros(k, dtype=np.int64)
            np.add.at(counts, _classes(bet.pays) % k, strength_counts())
            space, total = "hands", N_HANDS
        else:
            counts = np.bincount((cls % k).reshape(-1), weights=np.broadcast_to(w, cls.shape).reshape(-1),
                                 minlength=k).astype(np.int64)
            space, total = "situations", table.n_situations
        outcomes = [(key, label, amounts[i], int(counts[i])) for i, (key, label) in enumerate(labels)]
    else:
        wr = np.where(raised, np.broadcast_to(w, cls.shape), 0)
        counts = np.zeros(k, dtype=np.int64)
        np.add.at(counts, (cls % k).reshape(-1), wr.reshape(-1))
        folded = table.n_situations - int(counts.sum())
        outcomes = [(key, f"raised, {label}", amounts[i], int(counts[i])) for i, (key, label) in enumerate(labels)]
        outcomes.append(("fold", "fold", Fraction(-1), folded))
        space, total = "situations", table.n_situations
    rows, mean, var = _rows(outcomes, total)
    envy = _envy_rows(bet, mean, var) if bet.envy is not None else ()
    return SideBetAnalysis(bet, space, rows, total, mean, var, None, envy)


def _settle_dealer(bet: SideBet, table: CountTable, raised: np.ndarray, dealer: CountTable | None,
                   amounts: list[Fraction], labels: list[tuple[str, str]], w: np.ndarray) -> SideBetAnalysis:
    """A ``dealer_beaten`` bet: wins and pushes from the threshold table's counts."""
    assert dealer is not None
    cls = _class_of_situation(bet, table)
    win = dealer.win.astype(np.int64)
    tie = dealer.tie.astype(np.int64)
    n = COMPLETIONS
    push_ok = np.array([p == PUSH for _, p in bet.pays.pays] + [False])

    def tally(mask: np.ndarray | None) -> list[tuple[str, str, Fraction, int]]:
        ww = np.broadcast_to(w, cls.shape) if mask is None else np.where(mask, w, 0)
        weighted_win, weighted_tie = win * ww, tie * ww
        out = []
        for i, (key, label) in enumerate(labels[:-1]):
            sel = cls == i
            wins = int(weighted_win[sel].sum())
            ties = int(weighted_tie[sel].sum())
            if push_ok[i]:                      # a listed "push": a win returns the wager too
                out.append((key, f"player beats the dealer with {label}", Fraction(0), wins))
            else:
                out.append((key, f"player beats the dealer with {label}", amounts[i], wins))
            if bet.tie_pushes:                  # (otherwise a tie is in "loses")
                out.append((f"{key}_tie", f"tie with {label}", Fraction(0), ties))
        total_here = int((ww * n).sum())
        counted = sum(o[3] for o in out)
        out.append(("loses", "any other result", Fraction(-1), total_here - counted))
        return out

    total = table.n_situations * n
    every = tally(None)
    every_rows, _, _ = _rows(every, total)
    if not bet.fold_forfeits:
        rows, mean, var = _rows(every, total)
        return SideBetAnalysis(bet, "combinations", rows, total, mean, var, every_rows)
    played = tally(raised)
    folded = int((np.where(raised, 0, np.broadcast_to(w, cls.shape)) * n).sum())
    played[-1] = (played[-1][0], "raised, any other result", played[-1][2], played[-1][3])
    played.append(("fold", "fold", Fraction(-1), folded))
    rows, mean, var = _rows(played, total)
    return SideBetAnalysis(bet, "combinations", rows, total, mean, var, every_rows)


# --------------------------------------------------------------------------- envy

@lru_cache(maxsize=1)
def _all_hands() -> np.ndarray:
    """(2,598,960, 5) int64: every hand's sorted cards, by colex index."""
    cards = hands_of_indices(np.arange(N_HANDS, dtype=np.int32)).astype(np.int64)
    cards.flags.writeable = False
    return cards


def _containing(classes: np.ndarray, n: int) -> list[np.ndarray]:
    """For k = 0..5: (C(52, k), n) int64, how many hands of each class contain each k-card set."""
    cards = _all_hands()
    keep = classes >= 0
    cls = classes[keep]
    sub = cards[keep]
    out = [np.bincount(cls, minlength=n).astype(np.int64)[None, :]]
    for k in range(1, 6):
        size = math.comb(52, k)
        acc = np.zeros(size * n, dtype=np.int64)
        for pos in combinations(range(5), k):
            acc += np.bincount(colex_indices(sub, pos) * n + cls, minlength=size * n)
        out.append(acc.reshape(size, n))
    return out


def disjoint_pair_counts(class_a: np.ndarray, n_a: int, class_b: np.ndarray, n_b: int) -> np.ndarray:
    """(n_a, n_b) ordered pairs of disjoint hands (H1, H2) with H1 of class a and H2 of class b;
    ``class_a``/``class_b`` give each of the 2,598,960 hands a class (-1: left out).  Exact, by
    inclusion-exclusion over the cards the two hands share (see the module): for every H2,
    the class-a hands avoiding it are sum over S subset of H2 of (-1)^|S| N_a(S)."""
    table = _containing(class_a, n_a)
    cards = _all_hands()
    ib = np.flatnonzero(class_b >= 0)
    h2 = cards[ib]
    avoid = np.zeros((ib.size, n_a), dtype=np.int64)
    for k in range(6):
        for pos in combinations(range(5), k):
            rows = colex_indices(h2, pos) if k else np.zeros(ib.size, dtype=np.int64)
            avoid += (-1) ** k * table[k][rows]
    out = np.zeros((n_a, n_b), dtype=object)
    for b in range(n_b):
        out[:, b] = avoid[class_b[ib] == b].sum(axis=0).astype(object)
    return out


def _envy_rows(bet: SideBet, mean: Fraction, own_var: Fraction) -> tuple[EnvyRow, ...]:
    """Envy collected by one player and the variance of own bet plus envy, 1..players."""
    assert bet.envy is not None
    if not KINDS[bet.kind].own_hand or bet.fold_forfeits:
        raise StudoddsError(f"side bet {bet.name!r}: an envy bonus is modelled on a bet settled on the player's "
                            "five cards that stands on a fold")
    own_cls = _classes(bet.pays)[strength_by_index()]
    k_own = len(bet.pays.pays) + 1
    own_cls = np.where(own_cls < 0, k_own - 1, own_cls)
    own_net = bet.pays.amounts(Fraction(-1))
    envy_cls = _classes(bet.envy.pays)[strength_by_index()]
    k_env = len(bet.envy.pays.pays)
    envy_amt = [Fraction(p) for _, p in bet.envy.pays.pays]
    joint_own = disjoint_pair_counts(own_cls, k_own, envy_cls, k_env)
    joint_env = disjoint_pair_counts(envy_cls, k_env, envy_cls, k_env)
    p_env = [Fraction(int((envy_cls == b).sum()), N_HANDS) for b in range(k_env)]
    a_mean = sum((p * a for p, a in zip(p_env, envy_amt)), Fraction(0))
    a_second = sum((p * a * a for p, a in zip(p_env, envy_amt)), Fraction(0))
    cross_own = sum((Fraction(int(joint_own[i, b]), HAND_PAIRS) * own_net[i] * envy_amt[b]
                     for i in range(k_own) for b in range(k_env)), Fraction(0))
    cross_env = sum((Fraction(int(joint_env[b, c]), HAND_PAIRS) * envy_amt[b] * envy_amt[c]
                     for b in range(k_env) for c in range(k_env)), Fraction(0))
    out = []
    for players in range(1, bet.envy.players + 1):
        m = players - 1
        envy_mean = m * a_mean
        var_envy = m * (a_second - a_mean ** 2) + m * (m - 1) * (cross_env - a_mean ** 2)
        cov = m * (cross_own - mean * a_mean)
        out.append(EnvyRow(players, envy_mean, mean + envy_mean, own_var + var_envy + 2 * cov))
    return tuple(out)


# --------------------------------------------------------------------------- the whole variant

def dealer_tables(table: CountTable, variant: Variant, threads: int = 1) -> dict[str, CountTable | None]:
    """The dealer-threshold count table of each ``dealer_beaten`` bet of ``variant`` by name
    (None for the other kinds)."""
    return {b.name: (dealer_table(b, table, threads) if KINDS[b.kind].reads_dealer else None)
            for b in variant.side_bets}


def combined_raise_set(table: CountTable, variant: Variant, dealers: dict[str, CountTable | None]) -> np.ndarray:
    """(rows, 47) bool: where the combined game raises -- the base game's optimal decisions,
    remade with the gain of every side bet lost on a fold (see the module docstring)."""
    value = RaiseValue.of(variant)
    forfeit = [b for b in variant.side_bets if b.fold_forfeits]
    if not forfeit:
        return value.optimal(table)
    gains = [(b, *gain(b, table, dealers[b.name])) for b in forfeit]
    denom = math.lcm(value.scale, *(d * b.wager.denominator for b, _, d in gains))
    bound = (int(np.abs(value.c_win).max()) + value.c_nq + value.c_tie) * COMPLETIONS * (denom // value.scale)
    bound += sum(int(np.abs(g).max()) * int(b.wager * denom / d) for b, g, d in gains)
    if bound >= 2**62:
        raise StudoddsError(f"variant {variant.name!r}: side bet pays too large for exact 64-bit evaluation")
    total = (value.form(table).astype(np.int64) - value.row_thresholds(table)) * (denom // value.scale)
    for b, g, d in gains:
        total += g * int(b.wager * denom / d)
    return total > 0


def analyze_side_bets(table: CountTable, variant: Variant, threads: int = 1,
                      base: Any = None) -> SideBetReport:
    """Every side bet of ``variant`` exactly, and the combined game (see the module); ``base``:
    the base game's analysis under its own optimal strategy, when already at hand."""
    if not variant.side_bets:
        raise StudoddsError(f"variant {variant.name!r} has no [side_bets]")
    dealers = dealer_tables(table, variant, threads)
    base_raise = RaiseValue.of(variant).optimal(table)
    raised = combined_raise_set(table, variant, dealers)
    forfeit = any(b.fold_forfeits for b in variant.side_bets)
    w = table.weight.astype(np.int64)[:, None]
    changed = int((np.where(raised != base_raise, 1, 0) * w).sum())
    if forfeit or base is None:
        base = analyze(table, variant, force=raised.astype(np.uint8), threads=threads)
    bets = tuple(settle(b, table, raised, dealers[b.name]) for b in variant.side_bets)
    side_returns = {a.bet.name: a.bet.wager * a.expected for a in bets}
    wager = base.average_wager + sum((b.wager for b in variant.side_bets), Fraction(0))
    total_return = base.expected_return + sum(side_returns.values(), Fraction(0))
    combined = CombinedGame(base.expected_return, side_returns, wager, -total_return / wager,
                            base.raise_probability, changed)
    return SideBetReport(variant.name, bets, combined)
