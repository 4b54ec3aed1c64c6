"""Switching any number of cards: the whole game estimated from exactly valued sampled situations.

The exact whole game of :mod:`enumerate.draws.game` covers one switched card and the sixth card.
With switches of two to five cards a situation has up to 32 switch sets and 2,349,059 draws (all
five cards alone: 1,370,754); :mod:`enumerate.draws.hand` values all of them exactly in about a
second on 2 cores, which makes the 6,319,573 situations up to suits about five weeks here (the
measured cost is in the result).  This module estimates it instead, with a control variate that
is exact:

    E[best action]  =  E[best action switching at most one card]  +  E[gain]
                       (exact: the one-card whole game)               (sampled)

where a situation's gain -- what the best switch of two or more cards adds over the best action
with at most one card, zero when it adds nothing -- is exact for every sampled situation.  The
gain is small and mostly zero, so its mean is far better determined than the mean EV itself.

**Sampling.** Situation i is dealt from the Philox4x64-10 stream keyed by the seed at counter
(i, 0, 0, 0): six cards by Fisher-Yates over the 52, each index drawn from one 64-bit word with
Lemire's rejection (a rejected word is replaced by the next one of the stream); the first five
are the player's hand, the sixth the up card.  Every (hand, up card) situation is equally likely,
and sample i depends on (seed, i) alone, so shards give the same samples however the work is
split -- on local threads or on a Dask cluster -- and the sums are exact fractions.

**Shards and resuming.** Samples are valued in shards of :data:`SHARD` situations; a
checkpoint file (JSON, written atomically after every shard) keeps every finished shard, and a
run with the same variant file, seed and checkpoint skips them.
"""
from __future__ import annotations

import hashlib
import json
import math
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import numpy as np

from enumerate.core.atomic import atomic_write_text
from enumerate.core.engine import CountTable
from enumerate.core.intervals import Z95, wilson
from enumerate.core.jsonform import exact
from enumerate.core.parallel import chunked_map
from enumerate.core.shapes import Exact, Interval, Minimum, MinItems, PropertyNames, shape
from enumerate.core.tabular import tabular
from enumerate.draws import strata as strata_module
from enumerate.draws.game import SITUATION_COMBINATIONS, DrawCounts
from enumerate.draws.hand import situation_draws
from enumerate.rules.draws import Draws, SwitchRule
from enumerate.rules.variant import Variant, VariantJSON
from evaluator.cards import format_card, format_hand
from evaluator.errors import ParameterError, StudoddsError

#: Situations per shard (one checkpoint step).
SHARD = 16
#: Concrete situations, and the canonical ones the exact whole game would value.
SITUATIONS = 122_151_120
CANONICAL_SITUATIONS = 6_319_573
_M64 = (1 << 64) - 1


def _words(gen: np.random.Philox) -> Callable[[int], int]:
    """A uniform integer below ``bound`` from the stream, by Lemire's rejection on 64-bit words."""
    words: list[int] = []

    def below(bound: int) -> int:
        threshold = (-bound & _M64) % bound
        while True:
            if not words:
                words.extend(int(w) for w in gen.random_raw(4))
            m = words.pop(0) * bound
            if (m & _M64) >= threshold:
                return m >> 64
    return below


def deal(seed: int, i: int) -> tuple[tuple[int, ...], int]:
    """Situation ``i`` of the sample keyed by ``seed``: (five cards, up card); see the module."""
    below = _words(np.random.Philox(key=seed, counter=[i, 0, 0, 0]))
    deck = list(range(52))
    for j in range(6):
        k = j + below(52 - j)
        deck[j], deck[k] = deck[k], deck[j]
    return tuple(deck[:5]), deck[5]


def stratum_position(seed: int, h: int, j: int, weight: int) -> int:
    """Sample ``j`` of stratum ``h``: a uniform position below the stratum's weight, from the
    stream keyed by ``seed`` at counter (j, h + 1, 0, 0) (the uniform sample's counters have 0 there)."""
    return _words(np.random.Philox(key=seed, counter=[j, h + 1, 0, 0]))(weight)


def one_card_variant(variant: Variant) -> Variant:
    """The same table allowing at most one switched card (and the sixth card if offered)."""
    d = variant.draws
    assert d is not None and d.switch is not None
    switch = SwitchRule({1: d.switch.fees[1]}) if 1 in d.switch.fees else None
    if switch is None and d.buy_fee is None:
        return variant.base_game()
    return replace(variant, draws=Draws(switch, d.buy_fee))


@dataclass(frozen=True)
class Sample:
    """One sampled situation: its cards, the best action with at most one card and overall
    (labels, exact EVs), how many cards the best action switches, and the gain."""

    index: int
    cards: tuple[int, ...]
    up: int
    best_one: Fraction
    best: Fraction
    best_label: str
    best_switched: int

    @property
    def gain(self) -> Fraction:
        return self.best - self.best_one

    def to_list(self) -> list[Any]:
        return [self.index, list(self.cards), self.up, str(self.best_one), str(self.best), self.best_label,
                self.best_switched]

    @classmethod
    def from_list(cls, row: list[Any]) -> "Sample":
        """A sample as a checkpoint stores it; ValueError unless every field is well formed."""
        if not isinstance(row, list) or len(row) != 7:
            raise ValueError(f"a sample is a list of 7 fields, got {str(row)[:60]}")
        i, cards, up, one, best, label, k = row
        if (not all(isinstance(x, int) and not isinstance(x, bool) for x in (i, up, k)) or not isinstance(cards, list)
                or not all(isinstance(x, str) for x in (one, best, label))):
            raise ValueError(f"a sample of the wrong types: {str(row)[:80]}")
        cards_t = tuple(cards)
        if (len(cards_t) != 5 or len(set(cards_t)) != 5 or up in cards_t
                or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52 for c in (*cards_t, up))
                or not 0 <= k <= 5 or i < 0 or len(one) > 200 or len(best) > 200):
            raise ValueError(f"a sample out of range: {str(row)[:80]}")
        sample = cls(i, cards_t, up, Fraction(one), Fraction(best), label, k)
        if sample.best < sample.best_one:
            raise ValueError(f"a sample whose best value is below its one-card value: {str(row)[:80]}")
        return sample


#: A situation to value: (index in its stream, five cards, up card, the one-card game's value or None).
Situation = tuple[int, tuple[int, ...], int, Fraction | None]


def value_situation(variant: Variant, situation: Situation, threads: int = 1) -> Sample:
    """Every action of a situation, exactly; with the whole one-card game's value of it, that
    value and this one's best action with at most one card must agree (two exact paths)."""
    i, cards, up, expected = situation
    r = situation_draws(variant, cards, up, threads=threads)
    one = max(a.ev for a in r.actions if a.kind != "switch" or len(a.discard) == 1)
    if expected is not None and one != expected:
        raise StudoddsError(f"{format_hand(cards)} against {format_card(up)}: the per-hand value with at most "
                            f"one card, {one}, differs from the whole game's, {expected}")
    top = r.best                                   # on a tie the action with fewer cards comes first
    switched = len(top.discard) if top.kind == "switch" else 0
    return Sample(i, tuple(sorted(cards)), up, one, top.ev, top.label, switched)


def value_situations(variant: Variant, situations: list[Situation], threads: int = 1) -> list[Sample]:
    return [value_situation(variant, s, threads) for s in situations]


def _remote(variant: Variant, situations: list[Situation]) -> list[Sample]:
    """One shard on a Dask worker, on one thread (the workers are the parallelism)."""
    return value_situations(variant, situations, threads=1)


def uniform_shard(seed: int, shard: int) -> list[Situation]:
    return [(i, *deal(seed, i), None) for i in range(shard * SHARD, (shard + 1) * SHARD)]


def gain_sd(samples: tuple[Sample, ...] | list[Sample]) -> float:
    """Sample standard deviation of the samples' gains (antes); nan below two samples."""
    g = np.array([float(s.gain) for s in samples])
    return float(g.std(ddof=1)) if len(g) > 1 else float("nan")


class OneCardGameJSON(TypedDict):
    """The exact game with at most one switched card."""

    house_edge_per_ante: Exact
    expected_return_per_ante: Exact


class SampledHouseEdgeJSON(TypedDict):
    """The sampled house edge: its estimate, its 95% interval (null: no gain seen) and its exact part."""

    estimate: float
    ci95: Interval | None
    exact_part: Exact


class MultiSwitchJSON(TypedDict):
    """How often switching two or more cards is best, sampled."""

    situations: Annotated[int, Minimum(0)]
    share: float
    ci95: Interval
    by_cards: Annotated[dict[str, Annotated[int, Minimum(0)]], PropertyNames({"pattern": "^[2-5]$"})]


class StratumJSON(TypedDict):
    """One stratum of the sample: its weight, its situations and their exact mean gain."""

    label: str
    share: Exact
    situations: Annotated[int, Minimum(0)]
    mean_gain_antes: Exact
    gain_sd_antes: float | None
    gains: Annotated[int, Minimum(0)]
    share_that_gains_ci95: Interval


class ExampleJSON(TypedDict):
    """A sampled situation where switching two or more cards gains."""

    hand: str
    up: str
    best_action: str
    gain_antes: Exact


@shape("draws_sample", document=True)
class DrawsSampleJSON(TypedDict):
    """Schema: studodds draws-sample: switching two or more cards, estimated from exactly valued sampled situations"""

    kind: Literal["draws_sample"]
    variant: VariantJSON
    seed: Annotated[int, Minimum(0)]
    situations: Annotated[int, Minimum(1)]
    sampled: Literal[True]
    design: Literal["uniform", "stratified"]
    one_card_game: OneCardGameJSON
    mean_gain_per_hand_antes: Exact
    mean_gain_ci95_half_width_antes: float | None
    gain_standard_deviation_antes: float | None
    house_edge_per_ante: SampledHouseEdgeJSON
    switch_two_or_more_best: MultiSwitchJSON
    strata: Annotated[list[StratumJSON], MinItems(1)]
    samples_for_0_01_points: int | None
    core_seconds_per_situation: float | None
    cost_of_the_exact_game_core_hours: float | None
    exact_whole_game_core_hours: NotRequired[float]      # (samples made before the exact game keep none)
    examples: list[ExampleJSON]





def exact_game_core_hours(variant: Variant) -> float:
    """What the exact whole game of ``variant`` costs by rank patterns, projected from the
    kernel's measured cost: the estimate is worth running only where that is long."""
    from enumerate.draws import switch_ranks  # lazy: start-up time
    return switch_ranks.whole_game_projection(variant).core_seconds / 3600


@dataclass(frozen=True)
class Stratum:
    """The samples of one stratum and its exact share of all situations."""

    label: str
    share: Fraction
    samples: tuple[Sample, ...]

    @property
    def n(self) -> int:
        return len(self.samples)

    @property
    def mean(self) -> Fraction:
        return sum((s.gain for s in self.samples), Fraction(0)) / self.n

    @property
    def sd(self) -> float:
        """Sample standard deviation of the gain (antes); nan below two samples."""
        return gain_sd(self.samples)

    def hits(self, k: int | None = None) -> int:
        """Samples whose best action switches two or more cards (or exactly ``k``)."""
        return sum(1 for s in self.samples if (s.best_switched >= 2 if k is None else s.best_switched == k))

    def to_dict(self) -> StratumJSON:
        sd = self.sd
        return {"label": self.label, "share": exact(self.share), "situations": self.n, "mean_gain_antes": exact(self.mean),
                "gain_sd_antes": sd if sd == sd else None, "gains": sum(1 for s in self.samples if s.gain > 0),
                "share_that_gains_ci95": list(wilson(self.hits(), self.n))}


@tabular("strata", 'strata')
@dataclass(frozen=True)
class DrawSample:
    """The estimate of a table with switches of any number of cards (see the module): one
    stratum of weight one when the sample is uniform, the strata of :mod:`enumerate.draws.strata`
    when it is stratified."""

    variant: Variant
    seed: int
    design: Literal["uniform", "stratified"]
    strata: tuple[Stratum, ...]
    one_card_expected: Fraction          # exact: E[best action with at most one card]
    one_card_house_edge: Fraction
    seconds_per_situation: float | None  # core-seconds, measured in this run (None: resumed or on Dask)

    @property
    def samples(self) -> tuple[Sample, ...]:
        return tuple(s for st in self.strata for s in st.samples)

    @property
    def n(self) -> int:
        return sum(st.n for st in self.strata)

    @property
    def mean_gain(self) -> Fraction:
        return sum((st.share * st.mean for st in self.strata), Fraction(0))

    @property
    def gain_sd(self) -> float:
        """Standard deviation of a situation's gain over all situations (antes)."""
        if self.design == "uniform":
            return self.strata[0].sd
        m = float(self.mean_gain)
        return math.sqrt(sum(float(st.share) * (st.sd ** 2 * (st.n - 1) / st.n + (float(st.mean) - m) ** 2)
                             for st in self.strata))

    @property
    def half_width(self) -> float:
        """95% half-width of the mean gain (normal approximation), antes per hand."""
        return Z95 * math.sqrt(sum(float(st.share) ** 2 * st.sd ** 2 / st.n for st in self.strata))

    @property
    def house_edge(self) -> Fraction:
        """Estimated house edge per ante: -(exact one-card expectation + mean gain)."""
        return -(self.one_card_expected + self.mean_gain)

    def multi_share(self, k: int | None = None) -> tuple[int, float, float, float]:
        """(sampled situations whose best action switches >= 2 cards, or exactly ``k``; the
        estimated share of all situations; its 95% interval: Wilson's for a uniform sample, the
        normal one of the stratified estimate otherwise)."""
        hits = sum(st.hits(k) for st in self.strata)
        if self.design == "uniform":
            return (hits, hits / self.n, *wilson(hits, self.n))
        p = [st.hits(k) / st.n for st in self.strata]
        share = sum(float(st.share) * q for st, q in zip(self.strata, p))
        h = Z95 * math.sqrt(sum(float(st.share) ** 2 * q * (1 - q) / st.n for st, q in zip(self.strata, p)))
        return (hits, share, max(0.0, share - h), min(1.0, share + h))

    def samples_needed(self, target: float = 1e-4) -> int | None:
        """Samples for a 95% half-width of ``target`` antes at the measured spread (with
        Neyman's allocation when stratified; a uniform sample is one stratum of share 1)."""
        spread = sum(float(st.share) * st.sd for st in self.strata)
        return None if not spread == spread else math.ceil((Z95 * spread / target) ** 2)

    @property
    def gains_seen(self) -> bool:
        """False when no sampled situation gains: then the normal interval (of width zero) says
        nothing, and only the share of situations that gain is bounded (Wilson)."""
        return any(s.gain for s in self.samples)

    def to_dict(self) -> DrawsSampleJSON:
        hits, share, lo, hi = self.multi_share()
        need = self.samples_needed()
        per = self.seconds_per_situation
        return {
            "kind": "draws_sample", "variant": self.variant.to_dict(), "seed": self.seed, "situations": self.n,
            "sampled": True, "design": self.design,
            "one_card_game": {"house_edge_per_ante": exact(self.one_card_house_edge),
                              "expected_return_per_ante": exact(self.one_card_expected)},
            "mean_gain_per_hand_antes": exact(self.mean_gain),
            "mean_gain_ci95_half_width_antes": self.half_width if self.gains_seen else None,
            "gain_standard_deviation_antes": self.gain_sd,
            "house_edge_per_ante": {"estimate": float(self.house_edge),
                                    "ci95": [float(self.house_edge) - self.half_width,
                                             float(self.house_edge) + self.half_width] if self.gains_seen else None,
                                    "exact_part": exact(self.one_card_house_edge)},
            "switch_two_or_more_best": {"situations": hits, "share": share, "ci95": [lo, hi],
                                        "by_cards": {str(k): self.multi_share(k)[0] for k in range(2, 6)}},
            "strata": [st.to_dict() for st in self.strata],
            "samples_for_0_01_points": need if self.gains_seen else None,
            "core_seconds_per_situation": per,
            "cost_of_the_exact_game_core_hours": None if per is None else per * CANONICAL_SITUATIONS / 3600,
            "exact_whole_game_core_hours": exact_game_core_hours(self.variant),
            "examples": [{"hand": format_hand(s.cards), "up": format_card(s.up), "best_action": s.best_label,
                          "gain_antes": exact(s.gain)} for s in sorted(self.samples, key=lambda s: -s.gain)[:5]
                         if s.gain > 0],
        }


def sampled_refusal(variant: Variant) -> str | None:
    """Why the sampled estimate does not cover ``variant``, or None."""
    d = variant.draws
    if d is None or d.switch is None or d.switch.most < 2:
        return "the table does not switch two or more cards: its whole game is exact ('studodds analyze')"
    if 1 not in d.switch.fees:
        return "the estimate's exact part is the game with at most one switched card, which this table does not allow"
    return None


def check_sampled(variant: Variant) -> None:
    """StudoddsError when :func:`sampled_refusal` refuses ``variant``."""
    reason = sampled_refusal(variant)
    if reason is not None:
        raise StudoddsError(f"variant {variant.name!r}: {reason}")


#: The largest checkpoint read (a run of a million situations writes about 150 MB).
MAX_CHECKPOINT_BYTES = 1 << 30


class Checkpoint:
    """Finished shards in a JSON file, for one variant file, seed, design and shard size.

    A checkpoint is input, verified when read: a regular file (not a FIFO or a device) of at
    most :data:`MAX_CHECKPOINT_BYTES`, a ``draws_sample_checkpoint`` object whose SHA-256 over
    its key and shards matches, made for this run's parameters, with well-formed samples; and
    each shard a run uses must hold exactly the situations that shard deals (checked by
    :meth:`verify_shard`, the indices, cards and up cards dealt again from the seed).  Anything
    else is refused with one line naming the file; nothing is silently trusted or dropped.
    Another sample keeps its rows the same way with its own ``KIND`` and ``ROW`` (a class with
    ``from_list``, ValueError unless well formed, and ``to_list``)."""

    #: the checkpoint's kind, and the class of its rows
    KIND = "draws_sample_checkpoint"
    ROW: Any = Sample

    def __init__(self, path: Path | None, key: dict[str, Any]) -> None:
        self.path, self.key = path, key
        self.shards: dict[str, list[Any]] = {}
        if path is None or not (path.exists() or path.is_symlink()):
            return
        try:
            info = path.stat()
            if not stat.S_ISREG(info.st_mode):
                raise ParameterError("checkpoint", f"{path}: not a regular file (a checkpoint is a JSON file "
                                                   "draws-sample wrote): name another file")
            if info.st_size > MAX_CHECKPOINT_BYTES:
                raise ParameterError("checkpoint", f"{path}: {info.st_size:,} bytes, more than a checkpoint holds "
                                                   f"({MAX_CHECKPOINT_BYTES:,}): name another file")
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("kind") != self.KIND:
                raise ValueError("not a checkpoint of this draws-sample")
            if "sha256" not in data:
                raise ValueError("no checksum (written by an older version): remove it to start again")
            if data["sha256"] != _digest(data.get("key"), data.get("shards")):
                raise ValueError("its checksum does not match its content: it was edited or damaged; "
                                 "restore it or remove it to start again")
            if data["key"] != key:
                raise ParameterError("checkpoint", f"{path}: made for another variant, seed, design or shard size")
            if not isinstance(data["shards"], dict):
                raise ValueError("its shards are not an object")
            self.shards = {str(k): [self.ROW.from_list(r) for r in v] for k, v in data["shards"].items()}
        except ParameterError:
            raise
        except RecursionError:
            raise ParameterError("checkpoint", f"{path}: not a readable checkpoint (nested too deeply)") from None
        except (OSError, ValueError, KeyError, TypeError, ArithmeticError) as exc:
            raise ParameterError("checkpoint", f"{path}: not a readable checkpoint ({exc})") from None

    def verify_shard(self, shard: str, situations: list[Situation]) -> None:
        """The stored samples of ``shard`` are exactly the situations it deals, in order."""
        samples = self.shards[shard]
        dealt = [(i, tuple(sorted(cards)), up) for i, cards, up, _ in situations]
        stored = [(s.index, s.cards, s.up) for s in samples]
        if stored != dealt:
            raise ParameterError("checkpoint", f"{self.path}: shard {shard} does not hold the situations the seed "
                                               "deals (edited, or from another run): remove it to start again")

    def save(self, shard: str, samples: list[Any]) -> None:
        self.shards[shard] = samples
        if self.path is not None:
            shards = {k: [s.to_list() for s in v] for k, v in sorted(self.shards.items(), key=_shard_order)}
            atomic_write_text(self.path, json.dumps({"kind": self.KIND, "key": self.key,
                                                     "sha256": _digest(self.key, shards), "shards": shards}) + "\n")


def _digest(key: Any, shards: Any) -> str:
    """The checkpoint's SHA-256: over its key and shards in canonical JSON."""
    text = json.dumps({"key": key, "shards": shards}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _shard_order(item: tuple[str, Any]) -> tuple[int, ...]:
    return tuple(int(x) for x in item[0].split("/"))


class _Runner:
    """Values shards not in the checkpoint, locally or on Dask, saving each as it finishes."""

    def __init__(self, variant: Variant, store: Checkpoint, scheduler: str | None, threads: int,
                 progress: Callable[[int], None] | None) -> None:
        self.variant, self.store, self.scheduler, self.threads, self.progress = variant, store, scheduler, threads, progress
        self.valued = 0
        self.seconds = 0.0

    def run(self, shards: dict[str, Callable[[], list[Situation]]]) -> None:
        for k, make in shards.items():
            if k in self.store.shards:
                self.store.verify_shard(k, make())
        todo = {k: make for k, make in shards.items() if k not in self.store.shards}
        if self.progress is not None:
            self.progress(SHARD * (len(shards) - len(todo)))
        start = time.perf_counter()
        if todo:
            for key, samples in chunked_map(((k, (self.variant, make())) for k, make in todo.items()),
                                            local=value_situations, remote=_remote, scheduler=self.scheduler,
                                            threads=self.threads, ordered=False):
                self._done(key, samples)
        self.seconds += time.perf_counter() - start

    def _done(self, key: str, samples: list[Sample]) -> None:
        self.store.save(key, samples)
        self.valued += len(samples)
        if self.progress is not None:
            self.progress(len(samples))

    @property
    def per_situation(self) -> float | None:
        """Core-seconds per situation valued in this run (the local run keeps every thread busy)."""
        if not self.valued or self.scheduler is not None:
            return None
        return self.seconds * self.threads / self.valued


def _store(checkpoint: Path | Checkpoint | None, key: dict[str, Any]) -> Checkpoint:
    """The run's checkpoint: one already read (and verified) for ``key``, or read from a path."""
    if isinstance(checkpoint, Checkpoint):
        if checkpoint.key != key:
            raise AssertionError("a checkpoint read for another run")
        return checkpoint
    return Checkpoint(checkpoint, key)


def checkpoint_key(variant_text: str, seed: int, design: str) -> dict[str, Any]:
    """What a checkpoint is made for: the variant file, seed, shard size and design."""
    key: dict[str, Any] = {"variant_sha256": hashlib.sha256(variant_text.encode()).hexdigest(), "seed": seed,
                           "shard": SHARD}
    if design != "uniform":                        # a uniform checkpoint keeps its earlier key
        key.update(design=design, strata_version=strata_module.VERSION, pilot_shards=strata_module.PILOT_SHARDS)
    return key


def sample_draws(variant: Variant, variant_text: str, situations: int, seed: int, one_card_expected: Fraction, *,
                 checkpoint: Path | Checkpoint | None = None, scheduler: str | None = None, threads: int = 1,
                 progress: Callable[[int], None] | None = None) -> DrawSample:
    """Value ``situations`` uniformly sampled situations (rounded up to whole shards) of
    ``variant`` exactly, resuming from ``checkpoint``; on a Dask ``scheduler`` when given."""
    check_sampled(variant)
    n_shards = -(-situations // SHARD)
    store = _store(checkpoint, checkpoint_key(variant_text, seed, "uniform"))
    runner = _Runner(variant, store, scheduler, threads, progress)
    runner.run({str(j): partial(uniform_shard, seed, j) for j in range(n_shards)})
    samples = tuple(s for j in range(n_shards) for s in store.shards[str(j)])
    return DrawSample(variant, seed, "uniform", (Stratum("all situations", Fraction(1), samples),),
                      one_card_expected, -one_card_expected, runner.per_situation)


def sample_stratified(variant: Variant, variant_text: str, situations: int, seed: int, table: CountTable,
                      one_card: DrawCounts, one_card_expected: Fraction, *, checkpoint: Path | Checkpoint | None = None,
                      scheduler: str | None = None, threads: int = 1,
                      progress: Callable[[int], None] | None = None) -> DrawSample:
    """The stratified estimate (:mod:`enumerate.draws.strata`) from about ``situations``
    situations: the pilot in every stratum, then the rest by Neyman's allocation."""
    check_sampled(variant)
    st = strata_module.strata(table, one_card)
    n = len(st.labels)
    if situations < n * strata_module.PILOT_SHARDS * SHARD:
        raise ParameterError("situations", f"a stratified sample needs at least {n * strata_module.PILOT_SHARDS * SHARD:,} "
                                           f"situations ({strata_module.PILOT_SHARDS} shards of {SHARD} in each of "
                                           f"{n} strata)")
    unit = one_card.scale * SITUATION_COMBINATIONS

    def shard(h: int, k: int) -> list[Situation]:
        out: list[Situation] = []
        for j in range(k * SHARD, (k + 1) * SHARD):
            flat = st.situation(h, stratum_position(seed, h, j, st.weights[h]))
            row, col = divmod(flat, 47)
            out.append((j, tuple(int(c) for c in table.hands[row]), int(table.up[row, col]),
                        Fraction(int(one_card.best[row, col]), unit)))
        return out

    store = _store(checkpoint, checkpoint_key(variant_text, seed, "stratified"))
    runner = _Runner(variant, store, scheduler, threads, progress)
    pilot = strata_module.PILOT_SHARDS
    runner.run({f"{h}/{k}": partial(shard, h, k) for h in range(n) for k in range(pilot)})
    pilot_sd = [gain_sd([s for k in range(pilot) for s in store.shards[f"{h}/{k}"]]) for h in range(n)]
    shards = strata_module.allocate(st.weights, pilot_sd, -(-situations // SHARD))
    runner.run({f"{h}/{k}": partial(shard, h, k) for h in range(n) for k in range(pilot, shards[h])})
    out = tuple(Stratum(st.labels[h], st.share(h), tuple(s for k in range(shards[h]) for s in store.shards[f"{h}/{k}"]))
                for h in range(n))
    return DrawSample(variant, seed, "stratified", out, one_card_expected, -one_card_expected, runner.per_situation)
