"""An independent check of the exact figures: play the game, many times, and compare.

The simulator deals real shuffled decks (:mod:`enumerate.simulation._simulate`: Philox4x64-10
streams keyed by the seed and the game number, an exactly uniform shuffle), ranks both hands
with the compiled evaluator, plays a strategy given as one raise bit per (player hand, up card)
-- the certified optimal strategy by default -- and sorts every game into settlement cells; the
cells are paid from the rules alone (:mod:`enumerate.simulation.settle`).  Nothing of the count
tables, the aggregation kernel or the return tables enters a simulated figure: the exact
figures are computed separately and only compared with it.

What a run reports (:class:`Simulation`):

* the simulated return per ante and per total wagered (base game), per unit of each side
  wager, and the progressive's return to player, each with its 95% interval, the exact figure
  and the z-score (:mod:`enumerate.simulation.statistics`);
* the frequency of every row of each exact return table against its exact probability, with a
  chi-square goodness-of-fit p-value;
* one verdict: consistent when every |z| < :data:`Z_LIMIT` and every p > :data:`P_LIMIT`.

What it shows and cannot: agreement confirms the settlement of every outcome and the strategy
table (a wrong pay, a wrong qualifier or a wrong decision moves a figure by many standard errors
at 10^8 games); a figure within its interval is not proof of the exact figure beyond that
interval's width.  Envy bonuses (other players' hands) are not simulated; a hand is never left
face down.

Runs are reproducible: the same seed and number of games give the same counts on any number of
threads and on a Dask cluster, because every game's cards depend only on (seed, game number) and
the counts are exact integer sums.  Memory is constant: games run in chunks of :data:`CHUNK`.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, partial
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import numpy as np

from enumerate.analysis.base import Analysis, analyze
from enumerate.analysis.strategies import strategy_mask
from enumerate.core import shapes
from enumerate.core.engine import CountTable
from enumerate.core.jsonform import exact
from enumerate.core.parallel import chunked_map, interruptible
from enumerate.core.shapes import Count, ExactOrNull, Interval, Minimum, shape
from enumerate.core.tabular import tabular
from enumerate.progressive.analysis import fixed_return, hit_probabilities, long_run_return
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant import Variant
from enumerate.sidebets.analysis import SideBetAnalysis, combined_raise_set, dealer_tables, settle
from enumerate.simulation import _simulate
from enumerate.simulation.settle import KIND_CODES, MeterLedger, base_cells, bet_bins, meter_categories, progressive_fixed
from enumerate.simulation.statistics import ChiSquare, Estimate, chi_square, cycle_estimate, mean_estimate, ratio_estimate
from evaluator.errors import ParameterError, StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, N_HANDS, N_STRENGTHS, Category, hands_of_indices, strength, strength_by_index

#: Games per chunk: the unit of work of a thread team or a Dask task.
CHUNK = 1 << 21
#: Core-seconds a game of one table (docs/speed.md: about 5 s per 100 million on 2 cores): what a
#: run is projected from before it starts, never a figure of it.
CORE_SECONDS_PER_GAME = 1e-7
#: Largest run (games) and seed.
MAX_GAMES = 10**13
MAX_SEED = 2**128 - 1
#: The verdict's limits: |z| below this for every return, p above P_LIMIT for every table.
Z_LIMIT = 4.0
P_LIMIT = 1e-4
#: Complete jackpot cycles needed before the progressive's meter return gets an interval.
MIN_CYCLES = 30


def check_run(games: int, seed: int, games_name: str = "games", seed_name: str = "seed",
              none_allowed: bool = False) -> None:
    """ParameterError (naming ``games_name`` / ``seed_name``) unless ``games`` is a whole number
    2 .. :data:`MAX_GAMES` (or 0, meaning none, when ``none_allowed``) and ``seed`` one of
    0 .. :data:`MAX_SEED`."""
    if isinstance(games, bool) or not isinstance(games, int) or not (2 <= games <= MAX_GAMES or none_allowed and games == 0):
        raise ParameterError(games_name, f"{'0 (none) or ' if none_allowed else ''}a whole number of games "
                                         f"2 .. {MAX_GAMES:,}, got {games!r:.40}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ParameterError(seed_name, f"a whole number 0 .. 2**128 - 1, got {seed!r:.40}")


def check_playable(variant: Variant) -> None:
    """StudoddsError, in one line, when the variant has a side bet of a kind the simulator's
    kernel does not play (:data:`~enumerate.simulation.settle.KIND_CODES`)."""
    for bet in variant.side_bets:
        if bet.kind not in KIND_CODES:
            raise StudoddsError(f"variant {variant.name!r}: the simulator does not play side bets of kind {bet.kind!r} "
                                f"(side bet {bet.name!r}); it plays {', '.join(KIND_CODES)}")


#: What the report says of the generator.
GENERATOR = ("Philox4x64-10 (numpy.random.Philox), key = seed; game g's word is word g mod 4 of the block at "
             "counter (1, g // 4, 0, 0), a rejected word replaced from counters (j, g, 1, 0); ten cards a game by "
             "an exactly uniform batched Fisher-Yates draw")


# ------------------------------------------------------------------------------ the plan

@dataclass(frozen=True)
class Plan:
    """Everything the kernel needs for a variant and a strategy (plain arrays, so a Dask
    worker can be sent it once)."""

    raise_words: np.ndarray          # (strengths looked up x 1024,) uint64: bit u = raise with up card u
    mixed_base: np.ndarray           # (7462,) int32: a looked-up strength's first word (-1: none)
    strength_flag: np.ndarray        # (7462,) uint8: 0 always folds, 1 always raises, 2 look up
    qualifier: int
    bet_class: np.ndarray            # (bets, 7462) int16
    bet_kind: np.ndarray             # (bets,) int32
    bet_threshold: np.ndarray
    bet_forfeits: np.ndarray
    bet_k: np.ndarray
    bins_width: int
    progressive: bool
    prog_forfeits: bool
    meter_category: np.ndarray       # (10,) uint8

    @property
    def need_events(self) -> bool:
        return self.progressive and bool(self.meter_category.any())

    def decision(self, hand: tuple[int, ...], up: int) -> bool:
        """The raise decision the kernel reads for a hand (five cards) and an up card."""
        s = strength(hand)
        if self.strength_flag[s] != 2:
            return bool(self.strength_flag[s])
        key = sum((c & 3) << (2 * i) for i, c in enumerate(sorted(hand)))
        return bool((int(self.raise_words[self.mixed_base[s] + key]) >> up) & 1)

    def run(self, seed: int, first: int, n: int, threads: int = 1, cancel: np.ndarray | None = None,
            dealt: Dealt | None = None) -> Tally:
        """Simulate games ``first .. first + n - 1``; with ``dealt`` (those games dealt and ranked
        once for several plans), settle them from it -- the same counts."""
        if dealt is not None and (dealt.first, dealt.n) != (first, n):
            raise ValueError("the games dealt are not the games asked for")
        t = max(1, min(threads, n))
        nb = self.bet_kind.shape[0]
        cells = np.zeros((t, 50), np.int64)
        bins = np.zeros((t, max(nb, 1), self.bins_width), np.int64)
        prog = np.zeros((t, 11), np.int64)
        ev_game = np.zeros(n if self.need_events else 1, np.int64)
        ev_cat = np.zeros(n if self.need_events else 1, np.int8)
        n_events = np.zeros(t, np.int64)
        _simulate.simulate_chunk(seed & (2**64 - 1), seed >> 64, first, n, t, None if dealt is None else dealt.up,
                                 None if dealt is None else dealt.ranked, self.raise_words, self.mixed_base,
                                 self.strength_flag, self.qualifier, self.bet_class, self.bet_kind, self.bet_threshold,
                                 self.bet_forfeits, self.bet_k, int(self.need_six), int(self.progressive),
                                 int(self.prog_forfeits), self.meter_category, cells, bins, prog, ev_game, ev_cat,
                                 n_events, np.zeros(1, np.int32) if cancel is None else cancel)
        if self.need_events:
            parts = [(n * i // t, int(n_events[i])) for i in range(t)]
            games = np.concatenate([ev_game[s:s + k] for s, k in parts])
            cats = np.concatenate([ev_cat[s:s + k] for s, k in parts])
        else:
            games, cats = np.zeros(0, np.int64), np.zeros(0, np.int8)
        return Tally(n, cells.sum(axis=0), bins.sum(axis=0)[:nb], prog.sum(axis=0), games, cats)

    @property
    def need_six(self) -> bool:
        """A side bet reads the best five of the player's cards and the up card."""
        return bool(np.any(self.bet_kind == KIND_CODES["player_and_up"]))


@dataclass(frozen=True)
class Dealt:
    """Games ``first .. first + n - 1`` dealt and ranked once, to be settled under several
    tables (common random numbers: every table meets the same cards)."""

    first: int
    n: int
    up: np.ndarray                   # (n,) uint8: the up card
    ranked: np.ndarray               # (n, 4) int16: player strength, dealer strength, suit key, best of six

    @classmethod
    def deal(cls, seed: int, first: int, n: int, need_six: bool, threads: int = 1,
             cancel: np.ndarray | None = None) -> Dealt:
        up = np.zeros(n, np.uint8)
        ranked = np.zeros((n, 4), np.int16)
        _simulate.deal_ranked(seed & (2**64 - 1), seed >> 64, first, n, max(1, min(threads, n)), int(need_six), up,
                              ranked, np.zeros(1, np.int32) if cancel is None else cancel)
        return cls(first, n, up, ranked)


@dataclass
class Tally:
    """Counts of a run or a chunk: base-game cells (50), side-bet bins (bets, width), the
    progressive's categories and forfeits (11), and the meter awards (game, category) in game
    order -- the last only until a :class:`MeterLedger` has paid them."""

    games: int
    cells: np.ndarray
    bets: np.ndarray
    progressive: np.ndarray
    event_games: np.ndarray = field(repr=False)
    event_categories: np.ndarray = field(repr=False)

    def add(self, other: Tally) -> None:
        """Add ``other``'s counts (its meter awards are the caller's to pay, in order)."""
        self.games += other.games
        self.cells = self.cells + other.cells
        self.bets = self.bets + other.bets
        self.progressive = self.progressive + other.progressive


def raise_mask(table: CountTable, variant: Variant, strategy: Callable[..., Any] | None = None,
               threads: int = 1, strategy_name: str = "user") -> np.ndarray:
    """(rows, 47) bool: the decisions simulated -- ``strategy(hands, up)`` (see
    :mod:`enumerate.analysis.strategies`) or the certified optimal strategy, which, when a side
    bet is lost on a fold, is the combined game's."""
    if strategy is not None:
        return strategy_mask(table, strategy, strategy_name).astype(bool)
    if any(b.fold_forfeits for b in variant.side_bets):
        return combined_raise_set(table, variant, dealer_tables(table, variant, threads))
    return RaiseValue.of(variant).optimal(table)


@cache
def _every_hand() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(cards, strength, hands per strength, suit key) of the 2,598,960 hands by colex index, made
    once a process (every plan reads them): the cards sorted ascending, the suit key the five
    suits packed 2 bits each, the raise words' index within a strength."""
    cards = np.ascontiguousarray(hands_of_indices(np.arange(N_HANDS, dtype=np.int32)), dtype=np.uint8)
    strength = strength_by_index().astype(np.int64)
    key = ((cards.astype(np.int64) & 3) << np.array([0, 2, 4, 6, 8])).sum(axis=1)
    for a in (cards, strength, key):
        a.flags.writeable = False
    return cards, strength, np.bincount(strength, minlength=N_STRENGTHS), key


def make_plan(table: CountTable, variant: Variant, mask: np.ndarray, threads: int = 1) -> Plan:
    """The kernel's tables for ``variant`` played by the raise ``mask`` over ``table``."""
    cards, strength, hands, suit_key = _every_hand()
    row_of = np.full(N_HANDS, -1, np.int32)
    row_of[table.hand_indices] = np.arange(table.hands.shape[0], dtype=np.int32)
    bits = np.zeros(N_HANDS, np.uint64)
    kind = np.zeros(N_HANDS, np.uint8)
    _simulate.raise_bits(cards, row_of, np.ascontiguousarray(mask, dtype=np.uint8), bits, kind, threads)
    if (kind > 2).any():
        raise AssertionError("a canonical hand is missing from the count table")
    always = np.bincount(strength, weights=kind == 1, minlength=N_STRENGTHS) == hands
    never = np.bincount(strength, weights=kind == 0, minlength=N_STRENGTHS) == hands
    flag = np.where(always, 1, np.where(never, 0, 2)).astype(np.uint8)
    mixed = np.flatnonzero(flag == 2)
    base = np.full(N_STRENGTHS, -1, np.int32)
    base[mixed] = np.arange(mixed.size, dtype=np.int32) * 1024
    looked_up = flag[strength] == 2
    words = np.zeros(max(mixed.size, 1) * 1024, np.uint64)
    words[base[strength[looked_up]] + suit_key[looked_up]] = bits[looked_up]
    bets = variant.side_bets
    width = max([2 * len(b.pays.pays) + 2 for b in bets] + [1])
    side = variant.progressive
    return Plan(
        raise_words=words, mixed_base=base, strength_flag=flag, qualifier=variant.qualifier.threshold,
        bet_class=np.array([b.pays.classes() for b in bets], dtype=np.int16).reshape(len(bets), N_STRENGTHS),
        bet_kind=np.array([KIND_CODES[b.kind] for b in bets], dtype=np.int32),
        bet_threshold=np.array([b.dealer_at_least.threshold if b.dealer_at_least else 0 for b in bets], dtype=np.int32),
        bet_forfeits=np.array([b.fold_forfeits for b in bets], dtype=np.int32),
        bet_k=np.array([len(b.pays.pays) for b in bets], dtype=np.int32),
        bins_width=width, progressive=side is not None, prog_forfeits=bool(side and side.fold_forfeits),
        meter_category=np.array(meter_categories(side) if side else [False] * 10, dtype=np.uint8))


# ------------------------------------------------------------------------------ running

def _chunks(games: int) -> Iterator[tuple[int, int]]:
    return ((first, min(CHUNK, games - first)) for first in range(0, games, CHUNK))


def run(plan: Plan, variant: Variant, games: int, seed: int, *, threads: int = 1,
        scheduler: str | None = None, progress: Callable[[int], None] | None = None) -> tuple[Tally, MeterLedger | None]:
    """Simulate ``games`` games; the counts and the meter's ledger (None without a progressive)."""
    return run_many((plan,), (variant,), games, seed, threads=threads, scheduler=scheduler, progress=progress)[0]


def run_many(plans: Sequence[Plan], variants: Sequence[Variant], games: int, seed: int, *, threads: int = 1,
             scheduler: str | None = None,
             progress: Callable[[int], None] | None = None) -> list[tuple[Tally, MeterLedger | None]]:
    """Simulate the same ``games`` games under each plan (its variant's rules): each plan's counts
    are those of :func:`run` with that plan alone -- a game's cards depend on (seed, game) only
    -- but the games are dealt and ranked once for all of them."""
    if len(plans) != len(variants) or not plans:
        raise ValueError("run_many: one variant a plan, at least one plan")
    ledgers = [MeterLedger(v.progressive) if v.progressive is not None else None for v in variants]
    totals = [Tally(0, np.zeros(50, np.int64), np.zeros((p.bet_kind.shape[0], p.bins_width), np.int64),
                    np.zeros(11, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8)) for p in plans]

    def take(parts: list[Tally]) -> None:
        for total, ledger, part in zip(totals, ledgers, parts):
            total.add(part)
            if ledger is not None:
                for g, c in zip(part.event_games.tolist(), part.event_categories.tolist()):
                    ledger.award(g, Category(c))
        if progress:
            progress(parts[0].games)

    # in game order wherever it runs: the meter needs it
    for _, parts in chunked_map(((first, (seed, first, n)) for first, n in _chunks(games)), local=_run_local,
                                remote=_remote_chunk, scheduler=scheduler, threads=threads,
                                shared=(tuple(plans),), in_flight=IN_FLIGHT, ordered=True):
        take(parts)
    return list(zip(totals, ledgers))


def _run_chunk(plans: tuple[Plan, ...], seed: int, first: int, n: int, threads: int,
               cancel: np.ndarray | None = None) -> list[Tally]:
    """One chunk under every plan: one plan deals, ranks and settles in one pass; several share
    one deal."""
    if len(plans) == 1:
        return [plans[0].run(seed, first, n, threads, cancel)]
    dealt = Dealt.deal(seed, first, n, any(p.need_six for p in plans), threads, cancel)
    return [p.run(seed, first, n, threads, cancel, dealt) for p in plans]


def _run_local(plans: tuple[Plan, ...], seed: int, first: int, n: int, threads: int) -> list[Tally]:
    """One chunk on this machine, on ``threads`` threads (Ctrl-C stops the kernels)."""
    return interruptible(partial(_run_chunk, plans, seed, first, n, threads))


#: Chunks in flight on a Dask cluster at once (results are taken in game order, so at most this
#: many wait in memory).
IN_FLIGHT = 64


def _remote_chunk(plans: tuple[Plan, ...], seed: int, first: int, n: int) -> list[Tally]:
    """One chunk on a Dask worker, on one thread (the cluster's workers are the parallelism)."""
    return _run_chunk(plans, seed, first, n, 1)


# ------------------------------------------------------------------------------ the exact side

@dataclass(frozen=True)
class Exact:
    """The exact figures a run is compared with, for the strategy it plays."""

    base: Analysis
    bets: tuple[SideBetAnalysis, ...]
    progressive_probabilities: dict[Category, Fraction] | None   # per wager, hit and not forfeited
    progressive_fixed: Fraction | None                           # gross fixed pays per wager
    progressive_rtp: Fraction | None                             # long run, None when a cap makes it inexact


def exact_figures(table: CountTable, variant: Variant, mask: np.ndarray, threads: int = 1) -> Exact:
    """The exact figures of ``variant`` played by ``mask`` (see :class:`Exact`)."""
    base = analyze(table, variant, force=mask.astype(np.uint8), threads=threads)
    dealers = dealer_tables(table, variant, threads)
    # the own bet only: envy bonuses are not simulated (and their exact rows cost seconds)
    bets = tuple(settle(replace(b, envy=None), table, mask, dealers[b.name]) for b in variant.side_bets)
    side = variant.progressive
    if side is None:
        return Exact(base, bets, None, None, None)
    if side.fold_forfeits:
        w = np.where(mask, table.weight.astype(np.int64)[:, None], 0).sum(axis=1)
        by_cat = np.bincount(CATEGORY_BY_STRENGTH[table.strength], weights=w, minlength=10)
        p = {c: Fraction(int(by_cat[c]), table.n_situations) for c in Category}
    else:
        p = hit_probabilities()
    return Exact(base, bets, p, fixed_return(side, p), long_run_return(side, p))


# ------------------------------------------------------------------------------ the result

@shape("simulation_return")
class SimulationReturnJSON(TypedDict):
    name: str
    per: str
    simulated: float
    ci95: Interval
    standard_error: float
    exact: ExactOrNull
    z: float | None
    passed: bool
    note: NotRequired[str]


class FrequencyRowJSON(TypedDict):
    outcome: str
    label: str
    net_result: shapes.Exact
    observed: Count
    frequency: float
    probability: shapes.Exact
    expected: float


class ChiSquareJSON(TypedDict):
    statistic: float
    degrees_of_freedom: Annotated[int, Minimum(0)]
    p_value: float
    pooled_rows: list[str]
    impossible_rows_observed: list[str]


@shape("simulation_frequencies")
class SimulationFrequenciesJSON(TypedDict):
    name: str
    rows: list[FrequencyRowJSON]
    chi_square: ChiSquareJSON
    passed: bool


@dataclass(frozen=True)
class ReturnCheck:
    """A simulated return beside its exact figure."""

    name: str
    unit: str                    # what the return is per
    estimate: Estimate
    note: str = ""

    @property
    def passed(self) -> bool:
        z = self.estimate.z
        return z is None or abs(z) < Z_LIMIT

    def to_dict(self) -> SimulationReturnJSON:
        e = self.estimate
        low, high = e.interval
        out: SimulationReturnJSON = {
            "name": self.name, "per": self.unit, "simulated": float(e.value), "ci95": [low, high],
            "standard_error": e.standard_error, "exact": None if e.exact is None else exact(e.exact),
            "z": e.z, "passed": self.passed}
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class FrequencyRow:
    outcome: str
    net: Fraction
    observed: int
    probability: Fraction
    label: str = ""              # the row's label, as the return table prints it

    def to_dict(self, games: int) -> FrequencyRowJSON:
        return {"outcome": self.outcome, "label": self.label or self.outcome, "net_result": exact(self.net),
                "observed": self.observed,
                "frequency": self.observed / games, "probability": exact(self.probability),
                "expected": float(self.probability * games)}


@dataclass(frozen=True)
class FrequencyCheck:
    """Observed frequencies of one return table's rows against their exact probabilities."""

    name: str
    rows: tuple[FrequencyRow, ...]
    test: ChiSquare

    @property
    def passed(self) -> bool:
        return self.test.p_value > P_LIMIT

    def to_dict(self, games: int) -> SimulationFrequenciesJSON:
        t = self.test
        return {"name": self.name, "rows": [r.to_dict(games) for r in self.rows],
                "chi_square": {"statistic": t.statistic, "degrees_of_freedom": t.dof, "p_value": t.p_value,
                               "pooled_rows": list(t.pooled), "impossible_rows_observed": list(t.impossible)},
                "passed": self.passed}


class LimitsJSON(TypedDict):
    """The limits a simulation passes within."""

    abs_z_below: float
    p_value_above: float


@shape("simulation", document=True)
class SimulationJSON(TypedDict):
    """The JSON of a run of the simulator against the exact figures (kind "simulation")."""

    kind: Literal["simulation"]
    variant: str
    sampled: Literal[True]
    strategy: str
    seed: Annotated[int, Minimum(0)]
    games: Annotated[int, Minimum(2)]
    generator: str
    limits: LimitsJSON
    returns: list[SimulationReturnJSON]
    frequencies: list[SimulationFrequenciesJSON]
    notes: list[str]
    passed: bool
    verdict: str
    seconds: NotRequired[float | None]
    games_per_second: NotRequired[float | None]
    threads: NotRequired[int | None]


@tabular(lambda d: [{"section": "returns", **r} for r in d["returns"]]
         + [{"section": f["name"], **r} for f in d["frequencies"] for r in f["rows"]], "returns and frequencies")
@dataclass(frozen=True)
class Simulation:
    """kind "simulation": a run of the simulator compared with the exact figures."""

    variant: str
    strategy: str
    seed: int
    games: int
    returns: tuple[ReturnCheck, ...]
    frequencies: tuple[FrequencyCheck, ...]
    notes: tuple[str, ...] = ()
    seconds: float | None = field(default=None, compare=False)
    threads: int | None = field(default=None, compare=False)
    #: how the decks were shuffled (the plain game's kernel, or another simulator's generator)
    generator: str = GENERATOR

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.returns) and all(f.passed for f in self.frequencies)

    def failures(self) -> list[str]:
        out = [f"{r.name} (per {r.unit}) z = {r.estimate.z:+.2f}" for r in self.returns if not r.passed]
        out += [f"{f.name} chi-square p = {f.test.p_value:.3g}" for f in self.frequencies if not f.passed]
        return out

    @property
    def verdict(self) -> str:
        if self.passed:
            return (f"consistent with the exact figures: every |z| < {Z_LIMIT:g} and every chi-square "
                    f"p > {P_LIMIT:g} ({self.games:,} games)")
        return "NOT consistent with the exact figures: " + "; ".join(self.failures())

    @property
    def games_per_second(self) -> float | None:
        return None if not self.seconds else self.games / self.seconds

    def to_dict(self, timing: bool = True) -> SimulationJSON:
        """The JSON form; ``timing`` False leaves out the run time (a certified table's
        section must be the same on every machine)."""
        out: SimulationJSON = {
            "kind": "simulation", "variant": self.variant, "sampled": True, "strategy": self.strategy,
            "seed": self.seed, "games": self.games, "generator": self.generator,
            "limits": {"abs_z_below": Z_LIMIT, "p_value_above": P_LIMIT},
            "returns": [r.to_dict() for r in self.returns],
            "frequencies": [f.to_dict(self.games) for f in self.frequencies],
            "notes": list(self.notes), "passed": self.passed, "verdict": self.verdict,
        }
        if timing:
            out["seconds"] = self.seconds
            out["games_per_second"] = self.games_per_second
            out["threads"] = self.threads
        return out


def _frequencies(name: str, observed: dict[str, int], nets: dict[str, Fraction],
                 probabilities: dict[str, Fraction], labels: dict[str, str] | None = None) -> FrequencyCheck:
    unknown = [k for k, n in observed.items() if n and k not in probabilities]
    if unknown:
        raise AssertionError(f"{name}: simulated outcomes {unknown} are not rows of the exact table")
    rows = tuple(FrequencyRow(k, nets.get(k, Fraction(0)), observed.get(k, 0), p, (labels or {}).get(k, k))
                 for k, p in probabilities.items())
    return FrequencyCheck(name, rows, chi_square([(r.outcome, r.observed, r.probability) for r in rows]))


def compare(variant: Variant, tally: Tally, ledger: MeterLedger | None, ex: Exact, *, strategy: str, seed: int,
            seconds: float | None = None, threads: int | None = None) -> Simulation:
    """The simulated figures of ``tally`` beside the exact ones (see the module docstring)."""
    n = tally.games
    cells = base_cells(variant)
    counts = [int(x) for x in tally.cells]
    returns = [ReturnCheck("base game", "ante", mean_estimate(counts, [c.net for c in cells], ex.base.expected_return)),
               ReturnCheck("base game", "total wagered",
                           ratio_estimate(counts, [c.net for c in cells], [c.wager for c in cells],
                                          -ex.base.element_of_risk))]
    observed: dict[str, int] = {}
    nets: dict[str, Fraction] = {}
    for c, k in zip(cells, counts):
        observed[c.row] = observed.get(c.row, 0) + k
        nets[c.row] = c.net
    freq = [_frequencies("return table", observed, nets, {r.outcome: r.probability for r in ex.base.rows},
                         {r.outcome: r.event for r in ex.base.rows})]
    notes: list[str] = []
    for bet, exact_bet, bins_count in zip(variant.side_bets, ex.bets, tally.bets):
        bins = bet_bins(bet)
        hits = [int(x) for x in bins_count[:len(bins)]]
        returns.append(ReturnCheck(f"side bet {bet.name}", "unit of side wager",
                                   mean_estimate(hits, [b.net for b in bins], exact_bet.expected)))
        obs: dict[str, int] = {}
        for b, m in zip(bins, hits):
            obs[b.row] = obs.get(b.row, 0) + m
        freq.append(_frequencies(f"side bet {bet.name}", obs, {b.row: b.net for b in bins},
                                 {r.outcome: r.probability for r in exact_bet.rows},
                                 {r.outcome: r.event for r in exact_bet.rows}))
        if bet.envy is not None:
            notes.append(f"side bet {bet.name}: the envy bonus (paid on other players' hands) is not simulated")
    side = variant.progressive
    if side is not None:
        assert ledger is not None and ex.progressive_probabilities is not None
        prog = [int(x) for x in tally.progressive]
        fixed = progressive_fixed(side) + [Fraction(0)]
        fixed_part = mean_estimate(prog, fixed, ex.progressive_fixed)
        returns.append(ReturnCheck("progressive, fixed pays", "unit of side wager", fixed_part))
        meter = cycle_estimate(ledger.cycles, ledger.sum_y, ledger.sum_k, ledger.sum_yy, ledger.sum_kk, ledger.sum_yk)
        if meter is not None and ledger.cycles >= MIN_CYCLES and any(meter_categories(side)):
            value, se = meter
            est = Estimate(fixed_part.value + value, (fixed_part.standard_error ** 2 + se ** 2) ** 0.5, ex.progressive_rtp)
            returns.append(ReturnCheck("progressive, long run", "unit of side wager", est,
                                       f"{ledger.cycles:,} complete jackpot cycles (renewal estimate)"))
        elif any(meter_categories(side)):
            notes.append(f"progressive: {ledger.cycles} complete jackpot cycles, fewer than {MIN_CYCLES}: "
                         "no interval for the meter's return")
        keys = [c.key for c in Category] + ["fold"]
        probs = {c.key: p for c, p in ex.progressive_probabilities.items()}
        if side.fold_forfeits:
            probs["fold"] = 1 - sum(probs.values(), Fraction(0))
        pays = {c.key: v - 1 for c, v in zip(Category, fixed)}
        freq.append(_frequencies("progressive", dict(zip(keys, prog)), pays, probs))
    return Simulation(variant.name, strategy, seed, n, tuple(returns), tuple(freq), tuple(notes), seconds, threads)


def simulate(table: CountTable, variant: Variant, games: int, seed: int = 0, *,
             strategy: Callable[..., Any] | None = None, strategy_name: str = "optimal",
             threads: int = 1, scheduler: str | None = None,
             progress: Callable[[int], None] | None = None) -> Simulation:
    """Simulate ``games`` games of ``variant`` and compare them with the exact figures."""
    return simulate_many((table,), (variant,), games, seed, strategy=strategy, strategy_name=strategy_name,
                         threads=threads, scheduler=scheduler, progress=progress)[0]


def simulate_many(tables: Sequence[CountTable], variants: Sequence[Variant], games: int, seed: int = 0, *,
                  strategy: Callable[..., Any] | None = None, strategy_name: str = "optimal",
                  threads: int = 1, scheduler: str | None = None,
                  progress: Callable[[int], None] | None = None) -> list[Simulation]:
    """:func:`simulate` for each variant (with its count table) on the same games: each result
    is the one that variant alone gives with this seed, the games dealt and ranked once for all
    (the time reported is the shared run's)."""
    check_run(games, seed)
    for v in variants:
        check_playable(v)
    masks = [raise_mask(t, v, strategy, threads, strategy_name) for t, v in zip(tables, variants)]
    exacts = [exact_figures(t, v, m, threads) for t, v, m in zip(tables, variants, masks)]
    plans = [make_plan(t, v, m, threads) for t, v, m in zip(tables, variants, masks)]
    start = time.perf_counter()
    runs = run_many(plans, variants, games, seed, threads=threads, scheduler=scheduler, progress=progress)
    seconds = time.perf_counter() - start
    return [compare(v, tally, ledger, ex, strategy=strategy_name, seed=seed, seconds=seconds,
                    threads=None if scheduler else threads)
            for v, (tally, ledger), ex in zip(variants, runs, exacts)]
