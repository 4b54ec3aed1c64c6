"""Collusion: the player also sees his partners' cards (and perhaps the burn card).

With m seen cards beyond his own hand and the up card, the dealer's four hole cards are one of
C(46 - m, 4) sets, all of them evaluated for every sampled situation (:mod:`enumerate.protection._collusion`),
so each sample's value is exact; only the situations are sampled.

**Estimator.** For a situation x let V(x) be the exact value (in antes) of the decision taken
with the extra cards (optimal, or a user's strategy) and N(x) the exact value of the normal
game's optimal decision for the same hand and up card, over the same hole-card sets.  Averaged
over all situations, N has the exactly known mean -(normal house edge), so

    edge = normal house edge - E[V - N]

and only the gain G = V - N is sampled: unbiased, and G is zero wherever the extra cards do not
change the decision, so its variance is far smaller than V's.  The standard error is
sd(G) / sqrt(n) and the 95% interval is the mean +- 1.96 standard errors (normal
approximation; n is in the hundreds of thousands).

**Reproducibility.** Samples are drawn in chunks of :data:`CHUNK` situations; chunk i uses its
own generator seeded by (seed, i) and the sums are exact integers, so the result depends only
on the seed and the sample count -- not on the number of threads, processes or Dask workers,
nor on the order in which chunks finish.
"""
from __future__ import annotations

import inspect
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import numpy as np

from enumerate.analysis.base import Analysis, check_table
from enumerate.core.counts import load_or_compute
from enumerate.core.engine import CountTable
from enumerate.core.interrupts import RECEIVED, failure_text, signals_marked
from enumerate.core.jsonform import exact
from enumerate.core.memo import TableMemo
from enumerate.core.parallel import chunked_map, interruptible
from enumerate.core.projection import MAX_LOCAL_SECONDS, duration_text  # noqa: F401 - the API reads them here
from enumerate.core.shapes import Count, Exact, Interval, Maximum, Minimum, shape
from enumerate.core.tabular import tabular
from enumerate.protection import _collusion
from enumerate.protection.exposure import ExposureJSON
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant import Variant
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, hand_indices, strengths

#: Situations per sampling chunk (the unit of reproducibility and of distribution).
CHUNK = 8192
#: The most situations one estimate samples (chunks are streamed: memory does not grow with it).
MAX_SAMPLES = 10**15
#: About how many situations one thread samples a second with optimal play (126,000 on this
#: project's 2-core machine: docs/speed.md); used only to say up front how long a large run
#: will take, never as a figure of the result.
SITUATIONS_PER_THREAD_SECOND = 63_000


def projected_seconds(samples: int, threads: int) -> float:
    """About how long ``samples`` situations take on ``threads`` local threads."""
    return samples / (SITUATIONS_PER_THREAD_SECOND * max(1, threads))


#: Seeds are integers 0 .. 2**128 - 1 (numpy's SeedSequence entropy).
MAX_SEED = 2**128 - 1

#: A user strategy: (own 5 cards, up card, seen cards) -> raise?  Cards are ints 0..51.
Strategy = Callable[[tuple[int, ...], int, tuple[int, ...]], bool]


@dataclass(frozen=True)
class ChunkSums:
    """Exact sums over one chunk (values in units of 1 / (scale * completions) antes)."""

    n: int
    gain: int
    gain_sq: int
    raised: int
    value: int = 0          # the decision's own value, without the control variate
    value_sq: int = 0

    def __add__(self, other: "ChunkSums") -> "ChunkSums":
        return ChunkSums(self.n + other.n, self.gain + other.gain, self.gain_sq + other.gain_sq,
                         self.raised + other.raised, self.value + other.value, self.value_sq + other.value_sq)


class SampledEdgeJSON(TypedDict):
    """A sampled edge: the estimate, its standard error and its 95% interval."""

    estimate: float
    standard_error: float
    ci95: Interval


class DirectEstimateJSON(TypedDict):
    """The same samples without the control variate, as a check."""

    house_edge_per_ante: float
    ci95: list[float]
    note: str


@shape("collusion")
class CollusionJSON(TypedDict):
    """Schema: sampled: an estimate with its standard error and 95% interval"""

    kind: Literal["collusion"]
    variant: str
    partners: Annotated[int, Minimum(0), Maximum(6)]
    burn_card: bool
    seen_cards: Count
    strategy: str
    sampled: Literal[True]
    samples: Count
    seed: int
    completions_per_situation: NotRequired[Count]
    normal_house_edge_per_ante: Exact
    mean_gain_per_ante: Exact
    house_edge_per_ante: SampledEdgeJSON
    player_edge_per_ante: NotRequired[SampledEdgeJSON]
    gain_standard_deviation_antes: NotRequired[float]
    raise_probability: NotRequired[Exact]
    direct_estimate: NotRequired[DirectEstimateJSON]
    seconds: NotRequired[float | None]


@dataclass(frozen=True)
class CollusionEstimate:
    """The edge of a player seeing ``seen_cards`` extra cards, estimated by sampling."""

    variant: str
    partners: int
    burn_card: bool
    seen_cards: int
    strategy: str
    samples: int
    seed: int
    completions_per_situation: int
    normal_house_edge: Fraction
    mean_gain: Fraction                 # exact mean of the sampled gains, antes per hand
    gain_standard_deviation: float
    raise_probability: Fraction         # share of sampled situations raised
    plain_mean: Fraction                # the decision's mean value sampled directly (no control variate)
    plain_standard_deviation: float
    seconds: float | None = None

    @property
    def house_edge(self) -> Fraction:
        """Estimated house edge per ante (negative: the player has the edge)."""
        return self.normal_house_edge - self.mean_gain

    @property
    def standard_error(self) -> float:
        return self.gain_standard_deviation / math.sqrt(self.samples) if self.samples > 1 else math.inf

    @property
    def plain_interval(self) -> tuple[float, float]:
        """95% interval of the house edge from the direct estimator (a check of the other)."""
        half = 1.96 * self.plain_standard_deviation / math.sqrt(self.samples)
        return -float(self.plain_mean) - half, -float(self.plain_mean) + half

    @property
    def interval(self) -> tuple[float, float]:
        """95% confidence interval of the house edge per ante."""
        half = 1.96 * self.standard_error
        return float(self.house_edge) - half, float(self.house_edge) + half

    def to_dict(self) -> CollusionJSON:
        """kind "collusion": what ``studodds protection collusion --json`` prints."""
        lo, hi = self.interval
        return {
            "kind": "collusion", "variant": self.variant, "partners": self.partners,
            "burn_card": self.burn_card, "seen_cards": self.seen_cards, "strategy": self.strategy,
            "sampled": True, "samples": self.samples, "seed": self.seed,
            "completions_per_situation": self.completions_per_situation,
            "normal_house_edge_per_ante": exact(self.normal_house_edge),
            "mean_gain_per_ante": exact(self.mean_gain),
            "house_edge_per_ante": {"estimate": float(self.house_edge), "standard_error": self.standard_error,
                                    "ci95": [lo, hi]},
            "player_edge_per_ante": {"estimate": -float(self.house_edge), "standard_error": self.standard_error,
                                     "ci95": [-hi, -lo]},
            "gain_standard_deviation_antes": self.gain_standard_deviation,
            "raise_probability": exact(self.raise_probability),
            "direct_estimate": {"house_edge_per_ante": -float(self.plain_mean),
                                "ci95": list(self.plain_interval),
                                "note": "the same samples without the control variate"},
            "seconds": self.seconds,
        }


def draw_chunk(seed: int, index: int, n: int, seen: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The situations of chunk ``index``: (player (n, 5) sorted, up (n,), seen (n, seen)),
    from a generator seeded by (seed, index) alone."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,))))
    deck = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8)
    player = np.ascontiguousarray(np.sort(deck[:, :5], axis=1))
    up = np.ascontiguousarray(deck[:, 5])
    extra = np.ascontiguousarray(deck[:, 6:6 + seen])
    return player, up, extra


#: Per count table and raise form (:meth:`RaiseValue.key`): the optimal raise decisions.
_OPTIMAL: TableMemo[tuple[int, int, bytes, int, bytes], np.ndarray] = TableMemo("optimal raise decisions")


def optimal_decisions(table: CountTable, variant: Variant) -> np.ndarray:
    """(rows, 47) bool: the normal game's optimal raise decision of every count-table situation."""
    value = RaiseValue.of(variant)
    return _OPTIMAL.get(table, value.key(), lambda: value.optimal(table))


def normal_decisions(table: CountTable, variant: Variant, player: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The normal game's optimal raise decision of each (hand, up card), from the count table."""
    return decisions_of(optimal_decisions(table, variant), table.hand_indices, player, up)


def decisions_of(optimal: np.ndarray, canon_indices: np.ndarray, player: np.ndarray, up: np.ndarray) -> np.ndarray:
    """``optimal[row, column]`` of each (hand, up card): the count table's decisions (rows: the
    canonical hands with colex indices ``canon_indices``) read for any hand and up card."""
    # relabel suits as enumerate.analysis.situation.canonical does: new suit k is the old suit with the
    # k-th largest rank mask, ties broken by suit number
    n = player.shape[0]
    cards = player.astype(np.int64)
    masks = np.zeros((n, 4), dtype=np.int64)
    for suit in range(4):
        masks[:, suit] = (((cards & 3) == suit) << (cards >> 2)).sum(axis=1)
    order = np.argsort((8192 - masks) * 4 + np.arange(4)[None, :], axis=1)
    new_suit = np.empty_like(order)
    np.put_along_axis(new_suit, order, np.broadcast_to(np.arange(4), (n, 4)).copy(), axis=1)

    def relabel(c: np.ndarray) -> np.ndarray:
        c = c.astype(np.int64)
        return (c & ~3) | np.take_along_axis(new_suit, (c & 3)[:, None], axis=1)[:, 0]

    canon = np.sort(np.stack([relabel(player[:, i]) for i in range(5)], axis=1), axis=1).astype(np.uint8)
    u = relabel(up)
    rows = np.searchsorted(canon_indices, hand_indices(canon))
    if not (canon_indices[rows] == hand_indices(canon)).all():
        raise AssertionError("a sampled hand is missing from the count table")
    cols = u - (canon < u[:, None]).sum(axis=1)
    return optimal[rows, cols]


def decision_values(value: RaiseValue, strength: np.ndarray, nq: np.ndarray, win: np.ndarray, tie: np.ndarray,
                    completions: int) -> tuple[np.ndarray, int]:
    """(EV(raise) of each hand, EV(fold)) times scale * completions, from the hands' strengths and
    their dealer counts (no qualifier, win, tie) over ``completions`` hole-card sets."""
    cat = CATEGORY_BY_STRENGTH[strength]
    return (nq.astype(np.int64) * value.c_nq + win.astype(np.int64) * value.c_win[cat]
            + tie.astype(np.int64) * value.c_tie - value.c_lose * completions, -value.scale * completions)


def chunk_sums(table: CountTable, variant: Variant, seed: int, index: int, n: int, seen: int,
               strategy: Strategy | None = None, threads: int = 1) -> ChunkSums:
    """Exact sums of one chunk: the gain of the decision with the seen cards over the normal
    decision, its square, and the number of raises."""
    player, up, extra = draw_chunk(seed, index, n, seen)
    counts = np.zeros((n, 3), dtype=np.int32)
    n_threads = threads     # the kernel stops within milliseconds of SIGINT / SIGTERM
    interruptible(partial(_collusion.completion_counts, player, up, extra, variant.qualifier.threshold, counts,
                          n_threads))
    raise_value, fold_value = decision_values(RaiseValue.of(variant), strengths(player), counts[:, 0], counts[:, 1],
                                              counts[:, 2], math.comb(46 - seen, 4))
    if strategy is None:
        decide = raise_value > fold_value
    else:
        with signals_marked():
            decide = np.array([user_decision(strategy, tuple(int(c) for c in player[i]), int(up[i]),
                                             tuple(int(c) for c in extra[i])) for i in range(n)], dtype=bool)
    normal = normal_decisions(table, variant, player, up)
    chosen = np.where(decide, raise_value, fold_value)
    baseline = np.where(normal, raise_value, fold_value)
    gain = chosen - baseline
    return ChunkSums(n, int(gain.sum()), int((gain.astype(object) ** 2).sum()), int(decide.sum()),
                     int(chosen.sum()), int((chosen.astype(object) ** 2).sum()))


def strategy_name_of(strategy: Strategy) -> str:
    return str(getattr(strategy, "__name__", None) or type(strategy).__name__)


def check_strategy(strategy: Strategy) -> None:
    """StudoddsError unless ``strategy`` can be called as f(hand, up, seen) (checked before any
    work; what it returns is checked on every call, see :func:`user_decision`)."""
    name = strategy_name_of(strategy)
    if not callable(strategy):
        raise StudoddsError(f"strategy {name}: not a function")
    try:
        inspect.signature(strategy).bind((0, 1, 2, 3, 4), 5, ())
    except TypeError as exc:
        raise StudoddsError(f"strategy {name}: cannot be called as f(hand, up, seen): {exc}") from None
    except ValueError:                   # no signature to inspect (a builtin): the first call tells
        pass


def user_decision(strategy: Strategy, hand: tuple[int, ...], up: int, seen: tuple[int, ...]) -> bool:
    """A user strategy's decision, as input: anything it raises -- an exception, SystemExit,
    KeyboardInterrupt -- and any answer but a boolean is a StudoddsError naming the strategy,
    and nothing is reported from a strategy that failed.  A Ctrl-C while it runs stops the job
    (:mod:`enumerate.core.interrupts`)."""
    name = strategy_name_of(strategy)
    try:
        answer = strategy(hand, up, seen)
    except RECEIVED:                     # a Ctrl-C (or SIGTERM) while it ran: the user stops the job
        raise
    except BaseException as exc:         # user code: even SystemExit is its failure, not ours
        raise StudoddsError(f"strategy {name} raised {failure_text(exc)} "
                            f"(hand {hand}, up card {up})") from None
    if not isinstance(answer, (bool, np.bool_)):
        raise StudoddsError(f"strategy {name} must return True (raise) or False (fold), "
                            f"got {type(answer).__name__} {str(answer)[:40]!r} (hand {hand}, up card {up})")
    return bool(answer)


def estimate(
    table: CountTable,
    variant: Variant,
    normal: Analysis,
    *,
    partners: int,
    burn_card: bool = False,
    samples: int,
    seed: int = 0,
    strategy: Strategy | None = None,
    strategy_name: str = "optimal",
    threads: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> CollusionEstimate:
    """Sample ``samples`` situations and estimate the edge (see the module docstring).
    ``scheduler``: the address of a Dask scheduler to run the chunks on instead of here."""
    check_table(table, variant)
    if not 0 <= partners <= 6:
        raise StudoddsError(f"partners must be 0..6 (a table seats 7), not {partners}")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= MAX_SAMPLES:
        raise StudoddsError(f"samples must be 2 .. {MAX_SAMPLES:,}, got {samples!r:.40}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise StudoddsError(f"a seed is a whole number 0 .. 2**128 - 1, got {seed!r:.40}")
    if strategy is not None:
        check_strategy(strategy)
    seen = 5 * partners + int(burn_card)
    value = RaiseValue.of(variant)
    completions = math.comb(46 - seen, 4)
    # chunks are generated as they are needed, so memory does not grow with the sample count
    chunks = ((i, min(CHUNK, samples - i * CHUNK)) for i in range(-(-samples // CHUNK)))
    start = time.perf_counter()
    total = ChunkSums(0, 0, 0, 0)                  # integer sums: the same in any order
    local = partial(chunk_sums, table)              # the worker's own table comes with _remote_chunk
    for _, part in chunked_map(((i, (variant, seed, i, n, seen, strategy)) for i, n in chunks), local=local,
                               remote=_remote_chunk, scheduler=scheduler, threads=threads,
                               in_flight=IN_FLIGHT, ordered=False):
        total = total + part
        if progress:
            progress(part.n)
    seconds = time.perf_counter() - start
    unit = value.scale * completions
    mean = Fraction(total.gain, total.n * unit)
    var = (Fraction(total.gain_sq, unit * unit) - total.n * mean * mean) / (total.n - 1)
    plain = Fraction(total.value, total.n * unit)
    plain_var = (Fraction(total.value_sq, unit * unit) - total.n * plain * plain) / (total.n - 1)
    return CollusionEstimate(
        variant=variant.name, partners=partners, burn_card=burn_card, seen_cards=seen,
        strategy=strategy_name, samples=total.n, seed=seed, completions_per_situation=completions,
        normal_house_edge=normal.house_edge, mean_gain=mean,
        gain_standard_deviation=math.sqrt(max(float(var), 0.0)), raise_probability=Fraction(total.raised, total.n),
        plain_mean=plain, plain_standard_deviation=math.sqrt(max(float(plain_var), 0.0)), seconds=seconds)


_WORKER_TABLES: dict[int, CountTable] = {}


def _remote_chunk(variant: Variant, seed: int, index: int, n: int, seen: int,
                  strategy: Strategy | None) -> ChunkSums:
    """One chunk on a Dask worker: the worker loads (or computes) the count table once."""
    q = variant.qualifier.threshold
    if q not in _WORKER_TABLES:
        _WORKER_TABLES[q] = load_or_compute(q)
    table = _WORKER_TABLES[q]
    return chunk_sums(table, variant, seed, index, n, seen, strategy, threads=1)


#: Chunks in flight on a Dask cluster at once: enough to keep the workers busy, few enough that
#: memory does not grow with the sample count.
IN_FLIGHT = 256



@shape("collusion_table", document=True)
class CollusionTableJSON(TypedDict):
    kind: Literal["collusion_table"]
    variant: str
    sampled: Literal[True]
    estimates: list[CollusionJSON]
    exact_burn_card: NotRequired[ExposureJSON | None]


@tabular("estimates", 'estimates')
@dataclass(frozen=True)
class CollusionTable:
    """Estimates for several numbers of partners (with and without the burn card)."""

    variant: str
    estimates: tuple[CollusionEstimate, ...]
    exact_burn_card: Any = None         # ExposureAnalysis of the burn card alone, computed exactly

    def to_dict(self) -> CollusionTableJSON:
        """kind "collusion_table": what ``studodds collusion --json`` prints."""
        return {"kind": "collusion_table", "variant": self.variant, "sampled": True,
                "estimates": [e.to_dict() for e in self.estimates],
                "exact_burn_card": self.exact_burn_card.to_dict() if self.exact_burn_card is not None else None}
