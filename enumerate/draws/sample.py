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
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from enumerate.core.atomic import atomic_write_text
from enumerate.core.jsonform import exact
from enumerate.core.parallel import dask_client, resolve_threads
from enumerate.draws.hand import situation_draws
from enumerate.rules.draws import Draws, SwitchRule
from enumerate.rules.variant import Variant
from evaluator.cards import format_card, format_hand
from evaluator.errors import ParameterError, StudoddsError

#: Situations per shard (one checkpoint step).
SHARD = 16
#: Concrete situations, and the canonical ones the exact whole game would value.
SITUATIONS = 122_151_120
CANONICAL_SITUATIONS = 6_319_573
Z95 = 1.959963984540054
_M64 = (1 << 64) - 1


def deal(seed: int, i: int) -> tuple[tuple[int, ...], int]:
    """Situation ``i`` of the sample keyed by ``seed``: (five cards, up card); see the module."""
    gen = np.random.Philox(key=seed, counter=[i, 0, 0, 0])
    words: list[int] = []
    deck = list(range(52))
    for j in range(6):
        bound = 52 - j
        threshold = (-bound & _M64) % bound
        while True:
            if not words:
                words = [int(w) for w in gen.random_raw(4)]
            m = words.pop(0) * bound
            if (m & _M64) >= threshold:
                break
        k = j + (m >> 64)
        deck[j], deck[k] = deck[k], deck[j]
    return tuple(deck[:5]), deck[5]


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
        i, cards, up, one, best, label, k = row
        return cls(int(i), tuple(int(c) for c in cards), int(up), Fraction(one), Fraction(best), str(label), int(k))


def value_sample(variant: Variant, seed: int, i: int, threads: int | None = None) -> Sample:
    """Every action of sample ``i``, exactly."""
    cards, up = deal(seed, i)
    r = situation_draws(variant, cards, up, threads=threads)
    one = max(a.ev for a in r.actions if a.kind != "switch" or len(a.discard) == 1)
    top = r.best                                   # on a tie the action with fewer cards comes first
    switched = len(top.discard) if top.kind == "switch" else 0
    return Sample(i, tuple(sorted(cards)), up, one, top.ev, top.label, switched)


def value_shard(variant: Variant, seed: int, shard: int, size: int, threads: int | None = None) -> list[Sample]:
    return [value_sample(variant, seed, i, threads) for i in range(shard * size, (shard + 1) * size)]


def _remote_shard(variant: Variant, seed: int, shard: int, size: int) -> list[Sample]:
    """One shard on a Dask worker, on one thread (the workers are the parallelism)."""
    return value_shard(variant, seed, shard, size, threads=1)


@dataclass(frozen=True)
class DrawSample:
    """The estimate of a table with switches of any number of cards (see the module)."""

    variant: Variant
    seed: int
    samples: tuple[Sample, ...]
    one_card_expected: Fraction          # exact: E[best action with at most one card]
    one_card_house_edge: Fraction
    seconds_per_situation: float | None  # core-seconds, measured in this run (None: resumed or on Dask)

    @property
    def n(self) -> int:
        return len(self.samples)

    @property
    def mean_gain(self) -> Fraction:
        return sum((s.gain for s in self.samples), Fraction(0)) / self.n

    @property
    def gain_sd(self) -> float:
        g = np.array([float(s.gain) for s in self.samples])
        return float(g.std(ddof=1)) if self.n > 1 else float("nan")

    @property
    def half_width(self) -> float:
        """95% half-width of the mean gain (normal approximation), antes per hand."""
        return Z95 * self.gain_sd / math.sqrt(self.n)

    @property
    def house_edge(self) -> Fraction:
        """Estimated house edge per ante: -(exact one-card expectation + mean gain)."""
        return -(self.one_card_expected + self.mean_gain)

    def multi_share(self, k: int | None = None) -> tuple[int, float, float]:
        """(situations whose best action switches >= 2 cards, or exactly ``k``; 95% Wilson interval)."""
        hits = sum(1 for s in self.samples if (s.best_switched >= 2 if k is None else s.best_switched == k))
        return (hits, *wilson(hits, self.n))

    def samples_needed(self, target: float = 1e-4) -> int | None:
        """Samples for a 95% half-width of ``target`` antes at the measured spread."""
        sd = self.gain_sd
        return None if not sd == sd else math.ceil((Z95 * sd / target) ** 2)

    @property
    def gains_seen(self) -> bool:
        """False when no sampled situation gains: then the normal interval (of width zero) says
        nothing, and only the share of situations that gain is bounded (Wilson)."""
        return any(s.gain for s in self.samples)

    def to_dict(self) -> dict[str, Any]:
        hits, lo, hi = self.multi_share()
        need = self.samples_needed()
        per = self.seconds_per_situation
        return {
            "kind": "draws_sample", "variant": self.variant.to_dict(), "seed": self.seed, "situations": self.n,
            "sampled": True,
            "one_card_game": {"house_edge_per_ante": exact(self.one_card_house_edge),
                              "expected_return_per_ante": exact(self.one_card_expected)},
            "mean_gain_per_hand_antes": exact(self.mean_gain),
            "gain_standard_deviation_antes": self.gain_sd,
            "house_edge_per_ante": {"estimate": float(self.house_edge),
                                    "ci95": [float(self.house_edge) - self.half_width,
                                             float(self.house_edge) + self.half_width] if self.gains_seen else None,
                                    "exact_part": exact(self.one_card_house_edge)},
            "switch_two_or_more_best": {"situations": hits, "share": hits / self.n, "ci95": [lo, hi],
                                        "by_cards": {str(k): self.multi_share(k)[0] for k in range(2, 6)}},
            "samples_for_0_01_points": need if self.gains_seen else None,
            "core_seconds_per_situation": per,
            "cost_of_the_exact_game_core_hours": None if per is None else per * CANONICAL_SITUATIONS / 3600,
            "examples": [{"hand": format_hand(s.cards), "up": format_card(s.up), "best_action": s.best_label,
                          "gain_antes": exact(s.gain)} for s in sorted(self.samples, key=lambda s: -s.gain)[:5]
                         if s.gain > 0],
        }


def wilson(hits: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    d = 1 + Z95 ** 2 / n
    c = (p + Z95 ** 2 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def check_sampled(variant: Variant) -> None:
    d = variant.draws
    if d is None or d.switch is None or d.switch.most < 2:
        raise StudoddsError(f"variant {variant.name!r} does not switch two or more cards: its whole game is exact "
                            "('studodds analyze')")
    if 1 not in d.switch.fees:
        raise StudoddsError(f"variant {variant.name!r}: the estimate's exact part is the game with at most one "
                            "switched card, which this table does not allow")


class Checkpoint:
    """Finished shards in a JSON file, for one variant file, seed and shard size."""

    def __init__(self, path: Path | None, key: dict[str, Any]) -> None:
        self.path, self.key = path, key
        self.shards: dict[int, list[Sample]] = {}
        if path is None or not path.exists():
            return
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("kind") != "draws_sample_checkpoint":
                raise ValueError("not a checkpoint of draws-sample")
            if data["key"] != key:
                raise ParameterError("checkpoint", f"{path}: made for another variant, seed or shard size")
            self.shards = {int(k): [Sample.from_list(r) for r in v] for k, v in data["shards"].items()}
        except ParameterError:
            raise
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ParameterError("checkpoint", f"{path}: not a readable checkpoint ({exc})") from None

    def save(self, shard: int, samples: list[Sample]) -> None:
        self.shards[shard] = samples
        if self.path is not None:
            atomic_write_text(self.path, json.dumps({"kind": "draws_sample_checkpoint", "key": self.key,
                                                     "shards": {str(k): [s.to_list() for s in v]
                                                                for k, v in sorted(self.shards.items())}}) + "\n")


def sample_draws(variant: Variant, variant_text: str, situations: int, seed: int, one_card_expected: Fraction, *,
                 checkpoint: Path | None = None, scheduler: str | None = None, threads: int | None = None,
                 progress: Callable[[int], None] | None = None) -> DrawSample:
    """Value ``situations`` sampled situations (rounded up to whole shards) of ``variant``
    exactly, resuming from ``checkpoint``; on a Dask ``scheduler`` when given."""
    check_sampled(variant)
    n_shards = -(-situations // SHARD)
    key = {"variant_sha256": hashlib.sha256(variant_text.encode()).hexdigest(), "seed": seed, "shard": SHARD}
    store = Checkpoint(checkpoint, key)
    todo = [j for j in range(n_shards) if j not in store.shards]
    if progress is not None:
        progress(SHARD * (n_shards - len(todo)))
    start = time.perf_counter()
    if scheduler is not None and todo:
        with dask_client(scheduler) as client:
            futures = {client.submit(_remote_shard, variant, seed, j, SHARD, pure=False): j for j in todo}
            from distributed import as_completed  # optional heavy dependency: the dask extra
            for fut in as_completed(futures):
                store.save(futures[fut], fut.result())
                if progress is not None:
                    progress(SHARD)
    else:
        for j in todo:
            store.save(j, value_shard(variant, seed, j, SHARD, threads))
            if progress is not None:
                progress(SHARD)
    elapsed = time.perf_counter() - start
    samples = tuple(s for j in range(n_shards) for s in store.shards[j])
    # core-seconds per situation: the local run keeps every thread busy
    per = elapsed * resolve_threads(threads) / (len(todo) * SHARD) if todo and scheduler is None else None
    return DrawSample(variant, seed, samples, one_card_expected, -one_card_expected, per)

