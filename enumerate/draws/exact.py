"""The exact game of a table with switches of any number of cards: a slice of it, or the whole game.

A *slice* (:class:`enumerate.core.slices.Slice`) is every situation (player hand, up card) whose
up card has one of the given ranks and whose player hand -- before any switch -- is in one of
the given categories; the whole game is the slice of every rank and category.  It is counted one
of two ways (:func:`method`):

* **by rank patterns** (:mod:`enumerate.draws.switch_ranks`), for every table that switches cards,
  with or without a sixth card for sale: groups (player rank pattern, up rank), 80,119 for the whole
  game, each valuing every situation of its pattern at once -- about 2.3 core-hours for the whole
  game, which ``analyze``, ``batch``, ``check`` and ``diff`` therefore give (:func:`whole_game`,
  its shards kept in the user cache);
* **situation class by situation class**: every canonical player hand (134,459 suit classes,
  each weighted by its size) against each of the 47 up cards not in it, 6,319,573 classes for the
  whole game, each valued by :func:`enumerate.draws.hand.situation_draws` -- every allowed action,
  every draw, every dealer completion, through the dead-card engine (about a core-second a class:
  a cluster job for the whole game; the independent path the rank patterns are tested against).

Either way each situation's best action (the table's tie order: keep, then fewer cards, then buying) is taken,
with the outcomes of its draws by final category (:data:`enumerate.draws.hand.OUTCOME_STATS`), and
a slice's figures are exact integer sums over its situations, each weighted by its suit class:

* the expected result per ante, as the sum of the best actions' EVs (fees included) and again
  from the return table the outcome counts make (two exact paths, required to agree);
* the return table: the outcomes of action kind j (keep, switch k cards, buy) are counted over
  its T_j = draws x dealer sets per situation (keep C(46, 4); switch k: C(46, k) C(46 - k, 4)),
  so they are brought to the common denominator D = lcm of the T_j, and each fee is a row of
  its own;
* the element of risk (the expected loss over the expected ante and raise, fees not wagers),
  the standard deviation (from the second moment by action kind, fees included), how often
  each action is best, and the strategy by hand group and up-card rank.

**Shards, resuming, clusters** (:mod:`enumerate.core.slices`). The slice's classes (or groups) are
cut, in their fixed order, into shards; a shard's sums are exact integers (and fractions), so
adding the shards gives the same figures whether they ran on local threads or on a Dask cluster
(``--scheduler``).  With a checkpoint folder every finished shard is written there atomically as a
file of its own, verified when read; a rerun of the same table and slice skips them, so an
interruption loses at most the shards in progress.  A run by rank patterns also checks itself at
the end: the value of keeping summed over its situations is the plain game's, from the count table.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict

import numpy as np

from enumerate.analysis.base import Analysis, ReturnRow, ReturnRowJSON, return_table
from enumerate.core import exact_game
from enumerate.core.engine import CountTable
from enumerate.core.exact_game import Classes, KeptGame, ShardedGame, SliceRun, checkpoint_key
from enumerate.core.jsonform import exact
from enumerate.core.shapes import Count, Exact, Minimum, MinItems, shape
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
from enumerate.core.tabular import tabular
from enumerate.draws import switch_ranks
from enumerate.draws.actions import KINDS, action_kind, cards_drawn, chart_key, check_best_actions, fee_outcome
from enumerate.draws.game import DrawFigures, group_strengths, hand_group
from enumerate.draws.hand import BUY, OUTCOME_STATS, situation_draws
from enumerate.draws.shapes import DrawStrategyRowJSON
from enumerate.rules.settlement import Settlement
from enumerate.rules.variant import Variant, VariantJSON
from evaluator.cards import RANKS
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

#: Classes per shard (one checkpoint file; about 10 core-seconds).
SHARD = 32
#: Core-seconds a situation class, class by class on the dead-card engine (docs/speed.md:
#: 0.3-0.45): what a run is projected from before it starts, never a figure of it.
CORE_SECONDS_PER_CLASS = 0.4
#: Bump when what a shard holds or how it is valued changes: a checkpoint of another version is refused.
VERSION = 1
RAISED, NQ, WIN, TIE, LOSE, FOLDED, INDIFFERENT, NQ_FOLDED = range(8)
#: Unseen cards of a situation (a full deck).
UNSEEN = 46


def kind_denominator(kind: int) -> int:
    """T_j: draws times dealer sets of one situation's action of kind j."""
    k = cards_drawn(kind)
    return math.comb(UNSEEN, k) * math.comb(UNSEEN - k, 4)


# ---------------------------------------------------------------------------------------------
# One shard's exact sums

@dataclass
class ShardSums:
    """Exact sums over classes: per action kind the situations taking it and their outcomes by
    final category (weighted, in that kind's units), the EVs (fees included) and raise shares
    weighted by situations, the strategy counts, and per class the best action (a switch mask,
    or 32 for buying)."""

    digest: str = ""
    situations: list[int] = field(default_factory=lambda: [0] * len(KINDS))
    outcomes: list[list[list[int]]] = field(
        default_factory=lambda: [[[0] * len(OUTCOME_STATS) for _ in Category] for _ in KINDS])
    ev: Fraction = Fraction(0)
    raised: Fraction = Fraction(0)
    chart: dict[str, int] = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)
    #: counted by rank patterns: the value of keeping summed over every situation (units scale * C(46, 4))
    keep: int | None = None
    #: wall seconds of the shards valued, each on one thread: their core-seconds (not a figure of the game)
    seconds: float = 0.0

    def add(self, other: "ShardSums") -> None:
        for j in range(len(KINDS)):
            self.situations[j] += other.situations[j]
            for c in range(len(Category)):
                for s in range(len(OUTCOME_STATS)):
                    self.outcomes[j][c][s] += other.outcomes[j][c][s]
        self.ev += other.ev
        self.raised += other.raised
        for k, v in other.chart.items():
            self.chart[k] = self.chart.get(k, 0) + v
        self.actions += other.actions
        if other.keep is not None:
            self.keep = (self.keep or 0) + other.keep
        self.seconds += other.seconds

    def to_json(self) -> dict[str, Any]:
        out = {"digest": self.digest, "situations": self.situations, "outcomes": self.outcomes,
               "ev": str(self.ev), "raised": str(self.raised), "chart": self.chart, "actions": self.actions,
               "seconds": self.seconds}
        if self.keep is not None:
            out["keep"] = self.keep
        return out

    @classmethod
    def from_json(cls, data: Any, weights: np.ndarray, ranks: bool = False) -> "ShardSums":
        """A stored shard, checked against the classes it must hold (their ``weights``): every
        field well formed, and its counts adding up (each kind's outcomes cover its situations'
        draws and dealer sets, the chart and the actions cover every class); ValueError if not.
        ``ranks``: a shard of groups counted by rank patterns (:mod:`enumerate.draws.switch_ranks`):
        ``weights`` are the groups' situations, no per-class actions, and the value of keeping."""
        fields = {"digest", "situations", "outcomes", "ev", "raised", "chart", "actions"} | ({"keep"} if ranks else set())
        seconds = read_fields(data, fields)
        sit, out = data["situations"], data["outcomes"]
        if not isinstance(sit, list) or len(sit) != len(KINDS):
            raise ValueError("situations per kind: a list of 7 counts")
        if (not isinstance(out, list) or len(out) != len(KINDS)
                or any(not isinstance(o, list) or len(o) != len(Category) for o in out)
                or any(not isinstance(r, list) or len(r) != len(OUTCOME_STATS) for o in out for r in o)):
            raise ValueError("outcomes: 7 x 10 x 8 counts")
        chart, actions = data["chart"], data["actions"]
        if not isinstance(chart, dict) or not all(isinstance(k, str) and len(k) < 120 for k in chart):
            raise ValueError("the chart is not an object of counts")
        if not isinstance(actions, list) or len(actions) != (0 if ranks else weights.shape[0]):
            raise ValueError("no per-class actions by rank patterns" if ranks else "one best action per class")
        keep = data.get("keep")
        if ranks and (isinstance(keep, bool) or not isinstance(keep, int) or abs(keep) >= 1 << 100):
            raise ValueError("the value of keeping is not an integer in range")
        if not isinstance(data["digest"], str):
            raise ValueError("no digest of the classes")
        s = cls(data["digest"], [read_count(x) for x in sit], [[[read_count(x) for x in r] for r in o] for o in out],
                read_fraction(data["ev"]), read_fraction(data["raised"]), {k: read_count(v) for k, v in chart.items()},
                [read_count(a) for a in actions], keep if ranks else None, seconds)
        total = int(weights.sum())
        if ranks:
            if sum(s.situations) != total or sum(s.chart.values()) != total:
                raise ValueError("its situations and chart do not add up to its groups' situations")
        else:
            check_best_actions(s.actions, weights.tolist(), s.situations, s.chart)
        for j in range(len(KINDS)):
            combos = sum(r[NQ] + r[WIN] + r[TIE] + r[LOSE] + r[FOLDED] for r in s.outcomes[j])
            if combos != s.situations[j] * kind_denominator(j):
                raise ValueError(f"its outcomes of '{KINDS[j]}' do not cover its draws and dealer sets")
        if not abs(s.ev) <= 10**9 * total or not 0 <= s.raised <= total:
            raise ValueError("an expected value or raise share out of range")
        return s


def value_shard(variant: Variant, cards: np.ndarray, up: np.ndarray, weight: np.ndarray,
                threads: int = 1) -> ShardSums:
    """Every class of a shard valued exactly; its best action's outcomes, EV and chart entry
    summed with the class's weight."""
    start = time.perf_counter()
    s = ShardSums(classes_digest(cards, up, weight))
    for hand, u, w in zip(cards.tolist(), up.tolist(), weight.tolist()):
        r = situation_draws(variant, tuple(hand), u, threads=threads)
        best = r.best
        action = BUY if best.kind == "buy" else sum(1 << hand.index(c) for c in best.discard)
        j = action_kind(action)
        s.situations[j] += w
        o = best.outcomes
        for c in range(len(Category)):
            for k in range(len(OUTCOME_STATS)):
                s.outcomes[j][c][k] += w * int(o[c, k])
        s.ev += w * best.ev
        s.raised += Fraction(w * best.raised_draws, best.draws)
        key = chart_cell(tuple(hand), u, j, best.raised_draws > 0)
        s.chart[key] = s.chart.get(key, 0) + w
        s.actions.append(action)
    s.seconds = time.perf_counter() - start
    return s


def _local_shard(variant: Variant, cards: np.ndarray, up: np.ndarray, weight: np.ndarray) -> ShardSums:
    """One shard on one OpenMP thread (a pool of Python threads, or a Dask worker, runs shards side
    by side)."""
    return value_shard(variant, cards, up, weight, threads=1)


def _rank_shard(variant: Variant, categories: frozenset[Category], h: np.ndarray, up: np.ndarray,
                weight: np.ndarray) -> ShardSums:
    """One shard of groups (player rank pattern, up rank) counted by rank patterns, on one thread."""
    fields = switch_ranks.shard_fields(variant, h, up, categories, threads=1)
    sums = ShardSums.from_json({"digest": classes_digest(h, up, weight), **fields}, weight, ranks=True)
    return sums


def _parse_rank_shard(data: Any, weights: np.ndarray) -> ShardSums:
    return ShardSums.from_json(data, weights, ranks=True)


# ---------------------------------------------------------------------------------------------
# The run: the game's two ways of counting, on the one sharded runner of enumerate.core.exact_game

#: The command whose checkpoints these are (for messages).
COMMAND = "draws-exact"


Method = Literal["rank_patterns", "situation_classes"]


def method(variant: Variant, by: Method | None = None) -> Method:
    """How a table's slices are counted: ``by`` when given, else by rank patterns
    (:mod:`enumerate.draws.switch_ranks`) wherever they apply -- every table with switches, with
    or without a sixth card for sale.  Situation class by situation class is the independent path
    (the tests run slices both ways and compare them)."""
    return pick_method(variant, switch_ranks.supported(variant), by)


def pick_method(variant: Variant, refusal: str | None, by: Method | None) -> Method:
    """``by`` when given (refused when the rank patterns do not apply: ``refusal``, why), else by
    rank patterns when they apply and situation class by situation class otherwise."""
    if by is None:
        return "rank_patterns" if refusal is None else "situation_classes"
    if by == "rank_patterns" and refusal is not None:
        raise StudoddsError(f"variant {variant.name!r}: {refusal}")
    if by not in ("rank_patterns", "situation_classes"):
        raise ValueError(f"no method {by!r}")
    return by


def _ranks_problem(variant: Variant, table: CountTable, classes: Classes, sl: Slice, sums: ShardSums) -> str | None:
    """What does not add up in sums by rank patterns, or None: they must hold every situation of
    their groups in the slice's categories with the count table's plain game as their value of
    keeping (:func:`switch_ranks.keep_check`), and their return table must give the best
    actions' EVs."""
    if switch_ranks.keep_check(table, variant, classes, sl.categories) != (sum(sums.situations), sums.keep):
        return ("the rank patterns' sums do not add up (the value of keeping to the count table's plain game, or the "
                "situations to the slice's)")
    try:
        ExactSlice(variant, sl, classes[1].shape[0], sums, None, "rank_patterns").return_rows()
    except AssertionError as exc:
        return f"the rank patterns' sums do not add up ({exc})"
    return None


#: The game by rank patterns: groups (player rank pattern, up rank), checked against the count table.
BY_RANKS: ShardedGame[ShardSums] = ShardedGame(
    key="draws_exact_ranks_checkpoint", command=COMMAND, unit="group", shard=switch_ranks.SHARD,
    version=switch_ranks.VERSION, classes=lambda sl: switch_ranks.groups(sl), work=_rank_shard, parse=_parse_rank_shard,
    empty=ShardSums, cost=switch_ranks.core_seconds_per_group,
    share=lambda variant, counts, sl: (variant, sl.categories), check=_ranks_problem)
#: The game situation class by situation class (the independent path), keyed by the variant file's text.
BY_CLASSES: ShardedGame[ShardSums] = ShardedGame(
    key="draws_exact_checkpoint", command=COMMAND, unit="class", shard=SHARD, version=VERSION,
    classes=lambda sl: sl.classes(), work=_local_shard, parse=ShardSums.from_json, empty=ShardSums,
    cost=lambda variant: CORE_SECONDS_PER_CLASS, by_rules=False)


def game(variant: Variant, by: Method | None = None) -> ShardedGame[ShardSums]:
    """The sharded game a slice of ``variant`` is counted by (see :func:`method`)."""
    return BY_RANKS if method(variant, by) == "rank_patterns" else BY_CLASSES


def run_key(variant: Variant, variant_text: str, sl: Slice, by: Method | None = None) -> dict[str, Any]:
    """What a checkpoint is made for (:func:`enumerate.core.exact_game.checkpoint_key`): by rank
    patterns the table's rules, else the variant file's text."""
    return checkpoint_key(game(variant, by), variant, variant_text, sl)


# ---------------------------------------------------------------------------------------------
# The slice's figures

class SliceInfoJSON(TypedDict):
    """Which situations a slice holds."""

    label: str
    up_ranks: Annotated[list[str], MinItems(1)]
    hands: Annotated[list[str], MinItems(1)]


@shape("draws_exact", document=True)
class DrawsExactJSON(TypedDict):
    """Schema: studodds draws-exact: the exact whole game of a table with switches over a slice of its situations"""

    kind: Literal["draws_exact"]
    variant: VariantJSON
    slice: SliceInfoJSON
    exact: Literal[True]
    classes: Count
    situations: Count
    share_of_situations: Exact
    expected_return_per_ante: Exact
    house_edge_per_ante: Exact
    element_of_risk: Exact
    standard_deviation_antes: float
    raise_probability: Exact
    fees_per_hand_antes: Exact
    action_shares: dict[str, Exact]
    return_table: Annotated[list[ReturnRowJSON], MinItems(1)]
    strategy: list[DrawStrategyRowJSON]
    method: Method
    core_seconds_per_class: Annotated[float, Minimum(0)] | None
    whole_game_core_hours: Annotated[float, Minimum(0)] | None


@tabular("return_table", "return_table")
@dataclass(frozen=True)
class ExactSlice:
    """The exact figures of a slice (see the module docstring)."""

    variant: Variant
    slice: Slice
    classes: int
    sums: ShardSums
    seconds_per_class: float | None      # core-seconds a class, measured by the shards (None: not recorded)
    #: "rank_patterns" (classes are groups: player rank pattern, up rank) or "situation_classes"
    method: Method = "situation_classes"

    @property
    def whole_game_classes(self) -> int:
        return switch_ranks.whole_game_groups() if self.method == "rank_patterns" else CLASSES

    @property
    def situations(self) -> int:
        return sum(self.sums.situations)

    @property
    def share(self) -> Fraction:
        return Fraction(self.situations, SITUATIONS)

    @property
    def expected(self) -> Fraction:
        return self.sums.ev / self.situations

    def fees(self) -> list[Fraction]:
        d = self.variant.draws
        assert d is not None
        return [Fraction(0), *(d.fee(k) if d.switch is not None and k in d.switch.fees else Fraction(0)
                               for k in range(1, 6)), d.buy_fee if d.buy_fee is not None else Fraction(0)]

    def _table(self, kinds: list[int], denominator: int) -> tuple[tuple[ReturnRow, ...], Fraction, Fraction]:
        """The return table of the kinds' outcomes over ``denominator`` combinations per situation."""
        base = self.variant.base_game()
        scale = {j: denominator // kind_denominator(j) for j in kinds}
        o = self.sums.outcomes

        def total(stat: int, c: int | None = None) -> int:
            return sum(scale[j] * o[j][x][stat] for j in kinds for x in ([c] if c is not None else range(len(Category))))
        wins = {c: total(WIN, int(c)) for c in Category}
        split = {c: (total(NQ, int(c)), total(TIE, int(c)), total(LOSE, int(c))) for c in Category}
        n = sum(self.sums.situations[j] for j in kinds)
        return return_table(base, wins, total(NQ), total(TIE), total(LOSE), total(FOLDED), n * denominator, split)

    def return_rows(self) -> tuple[ReturnRow, ...]:
        """The slice's return table: the final decisions' outcomes, then a row per fee."""
        kinds = [j for j in range(len(KINDS)) if self.sums.situations[j]]
        d = math.lcm(*(kind_denominator(j) for j in kinds))
        rows, expected, _ = self._table(kinds, d)
        fees = self.fees()
        fee_rows = []
        for j in kinds:
            if fees[j]:
                p = Fraction(self.sums.situations[j], self.situations)
                fee_rows.append(ReturnRow(fee_outcome(j), f"fee: {KINDS[j]}", -fees[j],
                                          self.sums.situations[j] * d, p, -fees[j] * p))
        expected += sum((r.contribution for r in fee_rows), Fraction(0))
        if expected != self.expected:
            raise AssertionError(f"the return table gives {expected}, the best actions' EVs {self.expected}")
        return tuple(rows) + tuple(fee_rows)

    @property
    def variance(self) -> Fraction:
        fees = self.fees()
        second = Fraction(0)
        for j in range(len(KINDS)):
            if self.sums.situations[j]:
                rows, _, _ = self._table([j], kind_denominator(j))
                share = Fraction(self.sums.situations[j], self.situations)
                second += share * sum((r.probability * (r.pays - fees[j]) ** 2 for r in rows), Fraction(0))
        return second - self.expected ** 2

    @property
    def raise_probability(self) -> Fraction:
        return self.sums.raised / self.situations

    @property
    def element_of_risk(self) -> Fraction:
        return -self.expected / Settlement.of(self.variant).average_stake(self.raise_probability)

    @property
    def fees_per_hand(self) -> Fraction:
        fees = self.fees()
        return sum((Fraction(n, self.situations) * f for n, f in zip(self.sums.situations, fees)), Fraction(0))

    def strategy(self) -> list[DrawStrategyRowJSON]:
        return chart_strategy(self.sums.chart)

    def to_dict(self) -> DrawsExactJSON:
        per = self.seconds_per_class
        return {"kind": "draws_exact", "variant": self.variant.to_dict(),
                "slice": {"label": self.slice.label(), "up_ranks": self.slice.key()["up_ranks"],
                          "hands": self.slice.key()["hands"]}, "exact": True,
                "classes": self.classes, "situations": self.situations, "share_of_situations": exact(self.share),
                "expected_return_per_ante": exact(self.expected), "house_edge_per_ante": exact(-self.expected),
                "element_of_risk": exact(self.element_of_risk), "standard_deviation_antes": math.sqrt(self.variance),
                "raise_probability": exact(self.raise_probability), "fees_per_hand_antes": exact(self.fees_per_hand),
                "action_shares": {KINDS[j]: exact(Fraction(n, self.situations))
                                  for j, n in enumerate(self.sums.situations) if n},
                "return_table": [r.to_dict() for r in self.return_rows()],
                "strategy": self.strategy(),
                "method": self.method, "core_seconds_per_class": per,
                "whole_game_core_hours": None if per is None else per * self.whole_game_classes / 3600}


def chart_cell(hand: tuple[int, ...], up: int, kind: int, raises: bool) -> str:
    """The strategy-chart key of a situation's best action of ``kind`` (keep: whether it raises)."""
    label = ("keep and raise" if raises else "keep and fold") if kind == 0 else KINDS[kind]
    return chart_key(hand_group(hand), up >> 2, label)


def chart_strategy(chart: dict[str, int]) -> list[DrawStrategyRowJSON]:
    """A slice's strategy chart from its counts (keys "group|up rank|action"): per hand group and
    up-card rank its situations and the share of each action, groups from the strongest hands down."""
    cells: dict[tuple[str, str], dict[str, int]] = {}
    for key, n in chart.items():
        group, rank, label = key.split("|")
        cells.setdefault((group, rank), {})[label] = n
    top = group_strengths()                      # groups from the strongest hands down, as every chart
    out: list[DrawStrategyRowJSON] = []
    for (group, rank), cell in sorted(cells.items(), key=lambda x: (-top.get(x[0][0], -1), x[0][0],
                                                                    -RANKS.index(x[0][1]))):
        n = sum(cell.values())
        out.append({"hand_group": group, "up_rank": rank, "situations": n,
                    "actions": {k: exact(Fraction(v, n)) for k, v in sorted(cell.items(), key=lambda x: (-x[1], x[0]))}})
    return out


def exact_refusal(variant: Variant) -> str | None:
    """Why draws-exact does not cover ``variant``, or None."""
    d = variant.draws
    if d is None or d.switch is None:
        return "the table offers no switching: its whole game is exact ('studodds analyze')"
    if variant.side_bets or variant.progressive is not None:
        return ("side bets and a progressive are not analysed with draws (remove them from the variant file, or the "
                "[switch] and [buy_card] tables)")
    return None


def slice_run(variant: Variant, variant_text: str, sl: Slice, checkpoint: Path | ShardStore | None = None,
              by: Method | None = None) -> SliceRun[ShardSums, ExactSlice]:
    """The run of the slice ``sl`` of ``variant``, ``by`` a method (see :func:`method`), its
    ``checkpoint`` folder read and verified before any work (:func:`enumerate.core.exact_game.open_run`).
    By rank patterns it checks itself at the end against the count table of the base game: the
    value of keeping summed over the slice is the plain game's."""
    reason = exact_refusal(variant)
    if reason is not None:
        raise StudoddsError(f"variant {variant.name!r}: {reason}")
    how = method(variant, by)
    return exact_game.open_run(game(variant, how), variant, variant_text, sl, checkpoint,
                               lambda total, n: ExactSlice(variant, sl, n, total,
                                                           total.seconds / n if total.seconds else None, how))


def run_slice(variant: Variant, variant_text: str, sl: Slice, *, table: CountTable | None = None,
              checkpoint: Path | ShardStore | None = None, scheduler: str | None = None, threads: int = 1,
              progress: Callable[[int], None] | None = None, by: Method | None = None) -> ExactSlice:
    """Value every class of the slice ``sl`` of ``variant`` exactly, shard by shard, resuming
    from ``checkpoint`` and on the Dask ``scheduler`` when given (:func:`slice_run`; ``table``:
    the base game's count table, required by rank patterns)."""
    return slice_run(variant, variant_text, sl, checkpoint, by).run(table, scheduler=scheduler, threads=threads,
                                                                     progress=progress)


# ---------------------------------------------------------------------------------------------
# The whole game as an analysis (analyze, batch, check, diff)

def kept_groups_game(game: Any, file: str, kind: str, cache: str, title: str, version: int,
                     from_json: Callable[[Any, np.ndarray], Any],
                     verify: Callable[[Any], None] = lambda sums: None,
                     foreign: Callable[[Any, Any], str | None] = lambda variant, total: None) -> KeptGame[Any]:
    """The kept sums of a whole game over every group of rank patterns (``game`` counts them):
    the total's JSON under ``kind`` with the ``version`` of its shards, the number of groups and the
    digest of every group; read back by ``from_json(fields, weights)``, then ``verify(total)``
    (AssertionError: they do not add up); ``foreign(variant, total)``: what shows them another
    table's game (:class:`~enumerate.core.exact_game.KeptGame`)."""
    def to_kept(total: Any, groups: int) -> dict[str, Any]:
        data = total.to_json()
        data.pop("seconds")
        data["digest"] = classes_digest(*switch_ranks.groups(Slice()))      # of every group it sums
        return {"kind": kind, "version": version, "groups": groups, **data}

    def from_kept(data: Any) -> Any:
        groups = switch_ranks.groups(Slice())
        if data.get("version") != version or data.get("groups") != groups[1].shape[0]:
            raise ValueError(f"not the sums of {title} of this version")
        total = from_json({k: v for k, v in data.items() if k not in ("kind", "version", "groups")},
                          np.array([groups[2].sum()], dtype=np.int64))
        try:
            verify(total)
        except AssertionError as exc:
            raise ValueError(f"they do not add up ({exc})") from None
        return total

    return KeptGame(game, file, kind, cache, to_kept, from_kept, title, foreign)


#: The whole switch game a certified table keeps (switch_game.json): what ``check`` reads back.
SWITCH_GAME: KeptGame[ShardSums] = kept_groups_game(
    BY_RANKS, "switch_game.json", "switch_game_sums", "switch-game", "a whole switch game", switch_ranks.VERSION,
    lambda fields, weights: ShardSums.from_json(fields, weights, ranks=True))


def whole_game(variant: Variant, table: CountTable, *, threads: int = 1, progress: Callable[[int], None] | None = None,
               use_cache: bool = True) -> ExactSlice:
    """The whole game of a table with switches of several cards, by rank patterns
    (:func:`enumerate.core.exact_game.whole_game`: its shards in the user cache, or the kept
    sums given, checked against ``table``)."""
    total, n = exact_game.whole_game(SWITCH_GAME, variant, table, threads=threads, progress=progress,
                                     use_cache=use_cache)
    return ExactSlice(variant, Slice(), n, total, total.seconds / n if total.seconds else None, "rank_patterns")


def whole_game_analysis(s: ExactSlice) -> tuple[Analysis, DrawFigures]:
    """The analysis of a slice -- the table's, when it is the whole game -- from its exact sums: the return table over the common
    denominator D = lcm of the kinds' T_j (a situation taking kind j counts each of its
    combinations D / T_j times), the decisions after the draw over L = lcm of the kinds' draws
    C(46, k) per situation (each draw a decision, counted L / C(46, k) times)."""
    kinds = [j for j in range(len(KINDS)) if s.sums.situations[j]]
    d = math.lcm(*(kind_denominator(j) for j in kinds))
    draws = {j: cards_drawn(j) for j in kinds}
    ld = math.lcm(*(math.comb(UNSEEN, draws[j]) for j in kinds))
    o = s.sums.outcomes
    total = s.situations * d
    rows = s.return_rows()

    def decisions(j: int, c: int, stat: int) -> int:
        return o[j][c][stat] * (ld // math.comb(UNSEEN, draws[j]))

    def folded(j: int, c: int) -> int:
        return o[j][c][FOLDED] // math.comb(UNSEEN - draws[j], 4) * (ld // math.comb(UNSEEN, draws[j]))
    raised = sum(decisions(j, c, RAISED) for j in kinds for c in range(len(Category)))
    nq_all = sum((o[j][c][NQ] + o[j][c][NQ_FOLDED]) * (d // kind_denominator(j)) for j in kinds
                 for c in range(len(Category)))
    fees = s.fees()
    hit = Fraction(0)
    for j in kinds:
        krows, _, _ = s._table([j], kind_denominator(j))
        hit += Fraction(s.sums.situations[j], s.situations) * sum(
            (r.probability for r in krows if r.pays - fees[j] > 0), Fraction(0))
    expected = s.expected
    analysis = Analysis.of_outcomes(
        s.variant, rows, total, expected, s.variance + expected * expected, raised, s.raise_probability,
        sum(decisions(j, c, INDIFFERENT) for j in kinds for c in range(len(Category))),
        Fraction(total - nq_all, total),
        {Category(c): (sum(decisions(j, c, RAISED) for j in kinds),
                       sum(decisions(j, c, RAISED) + folded(j, c) for j in kinds)) for c in range(len(Category))},
        hit_frequency=hit)
    if analysis.element_of_risk != s.element_of_risk:
        raise AssertionError("the element of risk of the analysis is not the slice's")
    if analysis.raise_probability != Fraction(raised, s.situations * ld):
        raise AssertionError("the raises by category do not add up to the raise share")
    shares = {KINDS[j]: Fraction(s.sums.situations[j], s.situations) for j in kinds}
    return analysis, DrawFigures(s.fees_per_hand, shares, {}, tuple(s.strategy()))
