"""An exact slice of a Russian Poker table with draws, situation class by situation class.

The whole game of a Russian table with draws is not counted by rank patterns yet
(docs/russian.md: its cost, measured; one design question open), and valued situation by
situation (:func:`enumerate.russian.draws.situation_actions`: every action, every draw, the
raise, insurance and every purchase of the game decided exactly) it takes thousands of
core-hours.  A *slice* -- up-card ranks x the player hand's categories, each situation up to
suits with its weight (:class:`enumerate.core.slices.Slice`) -- stands on its own: every one of
its situations is valued exactly, its best action taken, and the slice's exact expected result,
action shares, raise and insurance shares, fees and strategy chart summed from them.  It runs as
the other exact games do (:mod:`enumerate.core.exact_game`): shards of classes, a checkpoint
folder that resumes, local threads or a Dask scheduler, the same integers however split -- the
recipe for the whole game on a cluster is the slice of every situation.

What a slice leaves out: the return table and the variance (they need every draw's outcome rows
by pay and insurance, which the per-situation engine does not keep), so no element of risk.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict

import numpy as np

from enumerate.core import exact_game
from enumerate.core.exact_game import ShardedGame, SliceRun
from enumerate.core.jsonform import exact
from enumerate.core.shapes import Exact, Minimum, shape
from enumerate.core.slices import (
    CLASSES,
    SITUATIONS,
    ShardStore,
    Slice,
    classes_digest,
    read_count,
    read_fields,
    read_fraction,
)
from enumerate.draws.actions import BUY, KINDS, action_kind
from enumerate.draws.exact import chart_cell, chart_strategy
from enumerate.draws.shapes import DrawStrategyRowJSON
from enumerate.rules.variant import Variant, VariantJSON
from enumerate.russian.draws import situation_actions
from enumerate.russian.settle import settlement_refusal
from evaluator.errors import StudoddsError

COMMAND = "draws-exact"
#: Classes per shard: a class takes seconds, a shard about a core-minute.
SHARD = 8
#: Bump when what a shard holds or how it is valued changes: a checkpoint of another version is refused.
VERSION = 1
#: Core-seconds a class (benchmarks/russian_game.py: 5.5 for Lunar Poker's exchange of two to five
#: cards or a sixth card, 13.8 for the classic one to five): what a run is projected from before it
#: starts, never a figure of it.
CORE_SECONDS_PER_CLASS = 10.0


def slice_refusal(variant: Variant) -> str | None:
    """Why draws-exact does not cover this Russian table, or None."""
    reason = settlement_refusal(variant)
    if reason is not None:
        return reason
    if variant.draws is None:
        return "the table offers no draws: its whole game is exact ('studodds analyze')"
    return None


@dataclass
class SliceSums:
    """Exact sums over classes, each weighted by its situations: per kind of best action the
    situations taking it; the best actions' EVs (fees included) and fees; the shares of the best
    action's draws that raise and that insure; the strategy chart's counts; per class the best
    action (a switch mask, or 32 for buying)."""

    digest: str = ""
    situations: list[int] = field(default_factory=lambda: [0] * len(KINDS))
    ev: Fraction = Fraction(0)
    fees: Fraction = Fraction(0)
    raised: Fraction = Fraction(0)
    insured: Fraction = Fraction(0)
    chart: dict[str, int] = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)
    #: wall seconds of the shards valued, each on one thread: their core-seconds (not a figure of the game)
    seconds: float = 0.0

    def add(self, other: "SliceSums") -> None:
        for j in range(len(KINDS)):
            self.situations[j] += other.situations[j]
        self.ev += other.ev
        self.fees += other.fees
        self.raised += other.raised
        self.insured += other.insured
        for k, v in other.chart.items():
            self.chart[k] = self.chart.get(k, 0) + v
        self.actions += other.actions
        self.seconds += other.seconds

    def to_json(self) -> dict[str, Any]:
        return {"digest": self.digest, "situations": self.situations, "ev": str(self.ev), "fees": str(self.fees),
                "raised": str(self.raised), "insured": str(self.insured), "chart": self.chart,
                "actions": self.actions, "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: Any, weights: np.ndarray) -> "SliceSums":
        """A stored shard, checked against the classes it must hold (their ``weights``): every
        field well formed and its counts adding up (its actions, situations and chart cover every
        class, its shares within them); ValueError if not."""
        seconds = read_fields(data, {"digest", "situations", "ev", "fees", "raised", "insured", "chart", "actions"})
        sit, chart, actions = data["situations"], data["chart"], data["actions"]
        if not isinstance(sit, list) or len(sit) != len(KINDS):
            raise ValueError("situations per kind: a list of 7 counts")
        if not isinstance(chart, dict) or not all(isinstance(k, str) and len(k) < 120 for k in chart):
            raise ValueError("the chart is not an object of counts")
        if not isinstance(actions, list) or len(actions) != weights.shape[0]:
            raise ValueError("one best action per class")
        if not isinstance(data["digest"], str):
            raise ValueError("no digest of the classes")
        s = cls(data["digest"], [read_count(x) for x in sit], read_fraction(data["ev"]), read_fraction(data["fees"]),
                read_fraction(data["raised"]), read_fraction(data["insured"]),
                {k: read_count(v) for k, v in chart.items()}, [read_count(a) for a in actions], seconds)
        if any(a > BUY for a in s.actions):
            raise ValueError("a best action that is not a switch mask or buying")
        total = int(weights.sum())
        by_kind = [0] * len(KINDS)
        for a, w in zip(s.actions, weights.tolist()):
            by_kind[action_kind(a)] += w
        if by_kind != s.situations or sum(s.chart.values()) != total:
            raise ValueError("its actions, situations and chart do not add up to its classes")
        if not abs(s.ev) <= 10**9 * total or not 0 <= s.fees <= 10**9 * total \
                or not 0 <= s.insured <= s.raised <= total:
            raise ValueError("an expected value, fee or share out of range")
        return s


def value_shard(variant: Variant, cards: np.ndarray, up: np.ndarray, weight: np.ndarray,
                threads: int = 1) -> SliceSums:
    """Every class of a shard valued exactly (every action, every draw); its best action's EV,
    fee, shares and chart entry summed with the class's weight."""
    start = time.perf_counter()
    s = SliceSums(classes_digest(cards, up, weight))
    for hand, u, w in zip(cards.tolist(), up.tolist(), weight.tolist()):
        best = situation_actions(variant, tuple(hand), u, threads=threads).best
        action = BUY if best.kind == "buy" else sum(1 << hand.index(c) for c in best.discard)
        j = action_kind(action)
        s.situations[j] += w
        s.ev += w * best.ev
        s.fees += w * best.fee
        s.raised += Fraction(w * best.raised, best.draws)
        s.insured += Fraction(w * best.insured, best.draws)
        key = chart_cell(tuple(hand), u, j, best.raised > 0)
        s.chart[key] = s.chart.get(key, 0) + w
        s.actions.append(action)
    s.seconds = time.perf_counter() - start
    return s


def _local_shard(variant: Variant, cards: np.ndarray, up: np.ndarray, weight: np.ndarray) -> SliceSums:
    """One shard on one OpenMP thread (a pool of Python threads, or a Dask worker, runs shards side by side)."""
    return value_shard(variant, cards, up, weight, threads=1)


#: The slices of a Russian table with draws, situation class by situation class, keyed by the table's rules.
BY_CLASSES: ShardedGame[SliceSums] = ShardedGame(
    key="russian_exact_checkpoint", command=COMMAND, unit="class", shard=SHARD, version=VERSION,
    classes=lambda sl: sl.classes(), work=_local_shard, parse=SliceSums.from_json, empty=SliceSums,
    cost=lambda variant: CORE_SECONDS_PER_CLASS)


class RussianSliceJSON(TypedDict):
    label: str
    up_ranks: list[str]
    hands: list[str]


@shape("russian_exact", document=True)
class RussianExactJSON(TypedDict):
    """Schema: studodds draws-exact on a Russian Poker table with draws: a slice's exact figures, situation class by situation class"""

    kind: Literal["russian_exact"]
    variant: VariantJSON
    slice: RussianSliceJSON
    exact: Literal[True]
    classes: Annotated[int, Minimum(1)]
    situations: Annotated[int, Minimum(1)]
    share_of_situations: Exact
    expected_return_per_ante: Exact
    house_edge_per_ante: Exact
    fees_per_hand_antes: Exact
    raise_share_of_draws: Exact
    insure_share_of_draws: Exact
    action_shares: dict[str, Exact]
    strategy: list[DrawStrategyRowJSON]
    core_seconds_per_class: float | None
    whole_game_core_hours: float | None
    left_out: str


@dataclass(frozen=True)
class RussianSlice:
    """The exact figures of a slice of a Russian table with draws (see the module docstring)."""

    variant: Variant
    slice: Slice
    classes: int
    sums: SliceSums
    seconds_per_class: float | None      # core-seconds a class, measured by the shards (None: not recorded)

    @property
    def situations(self) -> int:
        return sum(self.sums.situations)

    @property
    def expected(self) -> Fraction:
        return self.sums.ev / self.situations

    @property
    def whole_game_core_hours(self) -> float | None:
        per = self.seconds_per_class
        return None if per is None else per * CLASSES / 3600

    def to_dict(self) -> RussianExactJSON:
        key = self.slice.key()
        return {"kind": "russian_exact", "variant": self.variant.to_dict(),
                "slice": {"label": self.slice.label(), "up_ranks": key["up_ranks"], "hands": key["hands"]},
                "exact": True, "classes": self.classes, "situations": self.situations,
                "share_of_situations": exact(Fraction(self.situations, SITUATIONS)),
                "expected_return_per_ante": exact(self.expected), "house_edge_per_ante": exact(-self.expected),
                "fees_per_hand_antes": exact(self.sums.fees / self.situations),
                "raise_share_of_draws": exact(self.sums.raised / self.situations),
                "insure_share_of_draws": exact(self.sums.insured / self.situations),
                "action_shares": {KINDS[j]: exact(Fraction(n, self.situations))
                                  for j, n in enumerate(self.sums.situations) if n},
                "strategy": chart_strategy(self.sums.chart),
                "core_seconds_per_class": self.seconds_per_class,
                "whole_game_core_hours": self.whole_game_core_hours,
                "left_out": "the return table, the variance and the element of risk (not kept per draw)"}

    def text(self) -> str:
        """What ``studodds draws-exact`` prints for a Russian table."""
        e = self.expected
        lines = [f"Variant: {self.variant.name} - exact slice '{self.slice.label()}' of a Russian Poker table with "
                 "draws, situation class by situation class",
                 f"Situations: {self.situations:,} ({self.classes:,} classes up to suits, "
                 f"{self.situations / SITUATIONS:.4%} of the game)",
                 f"Expected result per ante: {float(e):+.6f}  exact {e}  (house edge {float(-e):.6%})",
                 f"Fees per hand: {float(self.sums.fees / self.situations):.6f} antes",
                 f"Draws of the best action that raise: {float(self.sums.raised / self.situations):.4%}; that insure: "
                 f"{float(self.sums.insured / self.situations):.4%}",
                 "Best action: " + ", ".join(f"{KINDS[j]} {n / self.situations:.4%}"
                                             for j, n in enumerate(self.sums.situations) if n)]
        if self.seconds_per_class is not None:
            lines.append(f"Measured: {self.seconds_per_class:.3f} core-seconds a class; the whole game "
                         f"({CLASSES:,} classes) would take {self.whole_game_core_hours:,.0f} core-hours this way")
        lines.append("Not kept: the return table, the variance and the element of risk")
        return "\n".join(lines)


def slice_run(variant: Variant, variant_text: str, sl: Slice,
              checkpoint: Path | ShardStore | None = None) -> SliceRun[SliceSums, RussianSlice]:
    """The run of the slice ``sl`` of ``variant``, its ``checkpoint`` folder read and verified
    before any work (:func:`enumerate.core.exact_game.open_run`)."""
    reason = slice_refusal(variant)
    if reason is not None:
        raise StudoddsError(f"variant {variant.name!r}: {reason}")
    return exact_game.open_run(BY_CLASSES, variant, variant_text, sl, checkpoint,
                               lambda total, n: RussianSlice(variant, sl, n, total,
                                                             total.seconds / n if total.seconds else None))

