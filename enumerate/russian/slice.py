"""An exact slice of a Russian Poker table with draws, by rank patterns or situation class by class.

A *slice* -- up-card ranks x the player hand's categories, each situation up to suits with its
weight (:class:`enumerate.core.slices.Slice`) -- stands on its own: every one of its situations
is valued exactly, its best action taken, and the slice's exact expected result, action shares,
raise and insurance shares, how often the dealer qualifies, fees and strategy chart summed from
them.  It is counted by rank patterns (:mod:`enumerate.russian.ranks`; the slice of every
situation is the whole game, :mod:`enumerate.russian.draws_game`) or, the independent path the
tests hold them to, situation by situation (:func:`enumerate.russian.draws.situation_actions`:
every action, every draw, the raise, insurance and every purchase of the game decided exactly;
thousands of core-hours for the whole game).  It runs as the other exact games do
(:mod:`enumerate.core.exact_game`): shards, a checkpoint folder that resumes, local threads or a
Dask scheduler, the same integers however split.

Its return table: every action of a situation keeps its draws' outcomes as return-table rows
(a few percent more time; :func:`enumerate.russian.game.row_of`: the hand's event, its
combinations, insurance, the fee taken off), and the best action's are summed, each in the units
of its kind of action (draws x dealer sets x replacement shares); the slice brings the kinds to
their least common multiple, and the rows' expected result is checked equal to the best
actions' EVs.  So its variance and
element of risk (ante, raise and insurance staked; fees are not wagers) are exact too.

**Played with a simple draw strategy** (``played``: :mod:`enumerate.russian.draw_strategies`),
each situation's draw is the strategy's action instead of its best (the rank kernel's fixed
actions: keeping and those actions valued, nothing pruned), the raise, insurance and purchases
after it still each final hand's best: the same sums, rows and checks, of the strategy's game, its
checkpoints keyed by the strategy (so neither game's folder is read as the other's).
"""
from __future__ import annotations

import dataclasses
import math
import re
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import numpy as np

from enumerate.analysis.base import ReturnRow, ReturnRowJSON
from enumerate.core import exact_game
from enumerate.core.exact_game import ShardedGame, SliceRun
from enumerate.core.jsonform import exact
from enumerate.core.projection import plural
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
from enumerate.draws import switch_ranks
from enumerate.draws.actions import BUY, KINDS, action_kind, chart_key, check_best_actions
from enumerate.draws.exact import Method, chart_cell, chart_strategy, pick_method
from enumerate.draws.game import hand_group
from enumerate.draws.labels import INSTANT_LABEL
from enumerate.draws.shapes import DrawStrategyRowJSON
from enumerate.rules.variant import Variant, VariantJSON
from enumerate.russian import options, ranks, strategy
from enumerate.russian.draw_strategies import STRATEGIES, refusal
from enumerate.russian.draws import situation_actions
from enumerate.russian.game import row_meanings
from enumerate.russian.settle import settlement_refusal
from enumerate.russian.shapes import ReturnRowMeaningJSON
from evaluator.errors import StudoddsError

COMMAND = "draws-exact"
#: Classes per shard: a class takes seconds, a shard about a core-minute.
SHARD = 8
#: Bump when what a shard holds or how it is valued changes: a checkpoint of another version is refused
#: (2: the share of the best actions' dealer hands that qualify).
VERSION = 2
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


#: A kind's return-table rows: label -> [outcome, net result less the fee (exact text), combinations].
Rows = dict[str, list[Any]]


@dataclass
class SliceSums:
    """Exact sums over classes, each weighted by its situations: per kind of best action the
    situations taking it, their draws' outcomes as return-table rows (in that kind's units: a
    situation counts ``denominators[kind]`` combinations -- its draws x dealer sets x replacement
    shares) and that denominator; the best actions' EVs (fees included), fees and insurance
    staked; the shares of the best action's draws that raise and that insure, and of its draws'
    dealer hands that qualify (raised or folded); the strategy chart's counts; per class the best
    action (a switch mask, or 32 for buying)."""

    digest: str = ""
    situations: list[int] = field(default_factory=lambda: [0] * len(KINDS))
    rows: list[Rows] = field(default_factory=lambda: [{} for _ in KINDS])
    denominators: list[int] = field(default_factory=lambda: [0] * len(KINDS))
    ev: Fraction = Fraction(0)
    fees: Fraction = Fraction(0)
    staked: Fraction = Fraction(0)
    raised: Fraction = Fraction(0)
    insured: Fraction = Fraction(0)
    qualifies: Fraction = Fraction(0)
    chart: dict[str, int] = field(default_factory=dict)
    #: how often each option is taken by hand group and up-card rank (:mod:`enumerate.russian.options`);
    #: None: summed from shards counted before they kept it
    options: dict[str, options.Cell] | None = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)
    #: wall seconds of the shards valued, each on one thread: their core-seconds (not a figure of the game)
    seconds: float = 0.0
    #: by rank patterns, each shard's best actions by its digest (:mod:`enumerate.russian.strategy`):
    #: the certified strategy, played on shuffled decks without a recount; None: summed from
    #: shards counted before they kept it
    strategy: dict[str, list[Any]] | None = field(default_factory=dict)

    def add_rows(self, j: int, rows: Any, denominator: int, weight: int) -> None:
        """A situation of weight ``weight`` whose best action of kind ``j`` ends in ``rows``."""
        if self.denominators[j] not in (0, denominator):
            raise AssertionError("two situations' actions of one kind count their draws differently")
        self.denominators[j] = denominator
        for outcome, label, net, c in rows:
            kept = self.rows[j].setdefault(label, [outcome, str(net), 0])
            if kept[:2] != [outcome, str(net)]:
                raise AssertionError(f"return-table row {label!r} holds two net results")
            kept[2] += weight * c

    def add(self, other: "SliceSums") -> None:
        for j in range(len(KINDS)):
            self.situations[j] += other.situations[j]
            if other.denominators[j]:
                self.add_rows(j, [(o, label, n, c) for label, (o, n, c) in other.rows[j].items()],
                              other.denominators[j], 1)
        self.ev += other.ev
        self.fees += other.fees
        self.staked += other.staked
        self.raised += other.raised
        self.insured += other.insured
        self.qualifies += other.qualifies
        for k, v in other.chart.items():
            self.chart[k] = self.chart.get(k, 0) + v
        if self.options is None or other.options is None:
            self.options = None
        else:
            options.merge(self.options, other.options)
        self.actions += other.actions
        self.seconds += other.seconds
        if self.strategy is None or other.strategy is None:
            self.strategy = None
        else:
            if set(self.strategy) & set(other.strategy):
                raise AssertionError("a shard's strategy summed twice")
            self.strategy.update(other.strategy)

    def return_rows(self) -> tuple[ReturnRow, ...]:
        """The return table: the best actions' final outcomes, each row one net result (the fee of
        its action taken off), over one denominator -- the least common multiple of the kinds' --
        so each situation counts as many combinations; AssertionError unless the rows cover the
        combinations and give the best actions' EVs."""
        kinds = [j for j in range(len(KINDS)) if self.situations[j]]
        d = math.lcm(*(self.denominators[j] for j in kinds))
        merged: dict[str, list[Any]] = {}
        for j in kinds:
            for label, (outcome, net, c) in self.rows[j].items():
                kept = merged.setdefault(label, [outcome, Fraction(net), 0])
                if kept[1] != Fraction(net):
                    raise AssertionError(f"return-table row {label!r} holds two net results")
                kept[2] += c * (d // self.denominators[j])
        total = sum(self.situations) * d
        rows = tuple(ReturnRow(o, label, net, c, Fraction(c, total), net * Fraction(c, total))
                     for label, (o, net, c) in sorted(merged.items(), key=lambda x: (-x[1][1], x[0])))
        if sum(r.combinations for r in rows) != total:
            raise AssertionError("the slice's rows do not cover its combinations")
        if sum((r.contribution for r in rows), Fraction(0)) != self.ev / sum(self.situations):
            raise AssertionError("the slice's return table and its best actions' EVs disagree")
        return rows

    def to_json(self) -> dict[str, Any]:
        return {"digest": self.digest, "situations": self.situations, "rows": self.rows,
                "denominators": self.denominators, "ev": str(self.ev), "fees": str(self.fees),
                "staked": str(self.staked), "raised": str(self.raised), "insured": str(self.insured),
                "qualifies": str(self.qualifies), "chart": self.chart,
                **({} if self.options is None else {"options": options.to_json(self.options)}),
                **({} if self.strategy is None else {"strategy": {k: self.strategy[k] for k in sorted(self.strategy)}}),
                "actions": self.actions, "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: Any, weights: np.ndarray, ranks: bool = False, shard: bool = False) -> "SliceSums":
        """A stored shard, checked against the classes it must hold (their ``weights``): every
        field well formed and its counts adding up (its actions, situations and chart cover every
        class, each kind's rows its situations' combinations, its shares within them); ValueError
        if not.  ``ranks``: a shard of groups counted by rank patterns (:mod:`enumerate.russian.ranks`):
        ``weights`` are the groups' situations, and it holds no per-class actions; ``shard``: one
        shard of them, whose strategy is its own, over its groups (else a total of shards)."""
        seconds = read_fields(data, {"digest", "situations", "rows", "denominators", "ev", "fees", "staked", "raised",
                                     "insured", "qualifies", "chart", "actions"},
                              frozenset({"options", "strategy"}))
        if not isinstance(data["digest"], str):
            raise ValueError("no digest of the classes")
        sit, chart, actions = data["situations"], data["chart"], data["actions"]
        rows, dens = data["rows"], data["denominators"]
        if not isinstance(sit, list) or len(sit) != len(KINDS):
            raise ValueError("situations per kind: a list of 7 counts")
        if not isinstance(dens, list) or len(dens) != len(KINDS) or not isinstance(rows, list) \
                or len(rows) != len(KINDS) or not all(isinstance(r, dict) for r in rows):
            raise ValueError("rows and denominators per kind: lists of 7")
        for kind_rows in rows:
            for label, row in kind_rows.items():
                if not isinstance(label, str) or len(label) > 200 or not isinstance(row, list) or len(row) != 3 \
                        or not isinstance(row[0], str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,199}", row[0]):
                    raise ValueError("a return-table row is not [outcome, net, combinations]")
                read_fraction(row[1])
                read_count(row[2])
        if not isinstance(chart, dict) or not all(isinstance(k, str) and len(k) < 120 for k in chart):
            raise ValueError("the chart is not an object of counts")
        if not isinstance(actions, list) or len(actions) != (0 if ranks else weights.shape[0]):
            raise ValueError("no per-class actions by rank patterns" if ranks else "one best action per class")
        if not isinstance(data["digest"], str):
            raise ValueError("no digest of the classes")
        s = cls(data["digest"], [read_count(x) for x in sit], [{k: list(v) for k, v in r.items()} for r in rows],
                [read_count(x) for x in dens], read_fraction(data["ev"]), read_fraction(data["fees"]),
                read_fraction(data["staked"]), read_fraction(data["raised"]), read_fraction(data["insured"]),
                read_fraction(data["qualifies"]), {k: read_count(v) for k, v in chart.items()}, None,
                [read_count(a) for a in actions], seconds)
        total = int(weights.sum())
        if ranks:
            if sum(s.situations) != total or sum(s.chart.values()) != total:
                raise ValueError("its situations and chart do not add up to its groups' situations")
        else:
            check_best_actions(s.actions, weights.tolist(), s.situations, s.chart)
        for j in range(len(KINDS)):
            if sum(c for _, _, c in s.rows[j].values()) != s.situations[j] * s.denominators[j] \
                    or (s.situations[j] > 0) != (s.denominators[j] > 0):
                raise ValueError(f"its rows of '{KINDS[j]}' do not cover its situations' combinations")
        if not abs(s.ev) <= 10**9 * total or not 0 <= s.fees <= 10**9 * total \
                or not 0 <= s.staked <= 10**9 * total or not 0 <= s.insured <= s.raised <= total \
                or not 0 <= s.qualifies <= total:
            raise ValueError("an expected value, fee or share out of range")
        s.strategy = _read_strategy(data.get("strategy") if ranks else data.get("strategy", {}), data["digest"],
                                    weights.shape[0] if shard else None)
        if "options" in data:
            s.options = options.from_json(data["options"], s.chart)
            if sum((c[0] for c in s.options.values()), Fraction(0)) != s.raised \
                    or sum((c[1] for c in s.options.values()), Fraction(0)) != s.insured:
                raise ValueError("its options by hand group do not add up to its raises and insurances")
        return s


def _read_strategy(kept: Any, digest: str, groups: int | None) -> dict[str, list[Any]] | None:
    """A stored strategy (:mod:`enumerate.russian.strategy`), each shard's checked; a shard's
    (``groups`` given) is its own alone, keyed by its digest, over its groups; None when it was
    counted before strategies were kept; ValueError if it is not one."""
    if kept is None:
        return None
    if not isinstance(kept, dict) or not all(isinstance(k, str) and len(k) < 100 for k in kept):
        raise ValueError("a strategy is an object of shards' best actions")
    if groups is not None and set(kept) != {digest}:
        raise ValueError("a shard's strategy is not its own")
    for value in kept.values():
        strategy.decode(value, groups)
    return dict(kept)


def value_shard(variant: Variant, cards: np.ndarray, up: np.ndarray, weight: np.ndarray,
                threads: int = 1) -> SliceSums:
    """Every class of a shard valued exactly (every action, every draw); its best action's EV,
    fee, shares, outcome rows and chart entry summed with the class's weight."""
    start = time.perf_counter()
    s = SliceSums(classes_digest(cards, up, weight))
    for hand, u, w in zip(cards.tolist(), up.tolist(), weight.tolist()):
        best = situation_actions(variant, tuple(hand), u, threads=threads, rows=True).best
        action = BUY if best.kind == "buy" else sum(1 << hand.index(c) for c in best.discard)
        assert best.rows is not None
        j = action_kind(action)
        s.situations[j] += w
        s.add_rows(j, best.rows, best.denominator, w)
        s.ev += w * best.ev
        s.fees += w * best.fee
        s.staked += Fraction(w, best.draws) * best.staked
        s.raised += Fraction(w * best.raised, best.draws)
        s.insured += Fraction(w * best.insured, best.draws)
        s.qualifies += Fraction(w * best.qualifies, best.draws * best.completions)
        key = chart_key(hand_group(tuple(hand)), u >> 2, INSTANT_LABEL) if best.instant else \
            chart_cell(tuple(hand), u, j, best.raised > 0)
        s.chart[key] = s.chart.get(key, 0) + w
        assert s.options is not None
        options.add_situation(s.options, options.option_key(hand_group(tuple(hand)), u >> 2), w, j,
                              best.raised, best.insured, best.short, best.bought)
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


def _rank_shard(variant: Variant, categories: Any, h: np.ndarray, up: np.ndarray, weight: np.ndarray) -> SliceSums:
    """One shard of groups (player rank pattern, up rank) counted by rank patterns, on one thread."""
    return rank_shard_sums(ranks.shard_fields(variant, h, up, categories, threads=1), classes_digest(h, up, weight),
                           weight)


def rank_shard_sums(fields: dict[str, Any], digest: str, weights: np.ndarray, *, shard: bool = True) -> SliceSums:
    """The sums of a shard of groups from the rank kernel's fields (:func:`enumerate.russian.ranks.shard_fields`),
    its best actions kept as its strategy under its ``digest``, checked as a stored shard is."""
    data = {k: v for k, v in fields.items() if k != "best"}
    return SliceSums.from_json({"digest": digest, **data, "strategy": {digest: fields["best"]}}, weights, ranks=True,
                               shard=shard)


def known_rows(variant: Variant, kinds: list[int]) -> dict[str, ReturnRowMeaningJSON]:
    """Every return-table row the table's rules can make with actions of ``kinds``, by outcome id
    (each event, class of final hand, insured or not, and those kinds' draw fees:
    :func:`row_meanings`)."""
    rules = ranks.rank_rules(variant)
    return row_meanings(variant, rules.pays, sorted({rules.fees[j] for j in kinds}))


def unnamed_rows(variant: Variant, sums: SliceSums) -> list[str]:
    """The outcomes of ``sums``' return-table rows that the table's rules cannot make
    (:func:`known_rows`) -- none for sums counted under these rules; the sums of another table's
    game otherwise."""
    kinds = [j for j in range(len(KINDS)) if sums.situations[j]]
    known = known_rows(variant, kinds)
    return [row[0] for j in kinds for row in sums.rows[j].values() if row[0] not in known]


def rules_problem(variant: Variant, total: SliceSums) -> str | None:
    """What shows a total (kept sums given instead of counted) is not this table's game, or None:
    a return-table row its rules cannot make -- another table's sums (a file copied from another
    folder) are named so, not taken for this table's figures."""
    unnamed = unnamed_rows(variant, total)
    if not unnamed:
        return None
    return (f"their return table has {len(set(unnamed))} {plural('row', len(set(unnamed)))} these rules cannot "
            f"make ({', '.join(sorted(set(unnamed))[:2])}): restore this table's file (git checkout), or count "
            "the game again with --recount")


#: The game of a Russian table with draws by rank patterns (enumerate.russian.ranks): without the
#: bought game, or with it against up cards a purchase never replaces.
BY_RANKS: ShardedGame[SliceSums] = ShardedGame(
    key="russian_exact_ranks_checkpoint", command=COMMAND, unit="group", shard=ranks.SHARD, version=ranks.VERSION,
    classes=lambda sl: switch_ranks.groups(sl), work=_rank_shard,
    parse=lambda data, weights: SliceSums.from_json(data, weights, ranks=True, shard=True), empty=SliceSums,
    cost=ranks.core_seconds_per_group, share=lambda variant, counts, sl: (variant, sl.categories))

def method(variant: Variant, by: Method | None = None, sl: Slice | None = None) -> Method:
    """How a Russian table's slice ``sl`` (None: the whole game; every slice is counted the same
    way) is counted: ``by`` when given, else by rank patterns where they apply
    (:func:`enumerate.russian.ranks.supported`) and situation class by situation class otherwise
    -- the independent path the tests compare them with."""
    return pick_method(variant, ranks.supported(variant), by)


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
    dealer_qualifies_probability: Exact
    action_shares: dict[str, Exact]
    element_of_risk: Exact
    average_total_wager_antes: Exact
    standard_deviation_antes: float
    return_table: list[ReturnRowJSON]
    strategy: list[DrawStrategyRowJSON]
    core_seconds_per_class: float | None
    whole_game_core_hours: float | None
    method: Literal["rank_patterns", "situation_classes"]
    played_with: NotRequired[str]


@dataclass(frozen=True)
class RussianSlice:
    """The exact figures of a slice of a Russian table with draws (see the module docstring)."""

    variant: Variant
    slice: Slice
    classes: int
    sums: SliceSums
    seconds_per_class: float | None      # core-seconds a class, measured by the shards (None: not recorded)
    method: Method = "situation_classes"
    #: the simple draw strategy played in place of the best action (None: the best)
    played: str | None = None

    @property
    def situations(self) -> int:
        return sum(self.sums.situations)

    @property
    def expected(self) -> Fraction:
        return self.sums.ev / self.situations

    @property
    def whole_game_classes(self) -> int:
        return switch_ranks.whole_game_groups() if self.method == "rank_patterns" else CLASSES

    @property
    def whole_game_core_hours(self) -> float | None:
        per = self.seconds_per_class
        return None if per is None else per * self.whole_game_classes / 3600

    def return_rows(self) -> tuple[ReturnRow, ...]:
        """The slice's return table (:meth:`SliceSums.return_rows`)."""
        return self.sums.return_rows()

    @property
    def variance(self) -> Fraction:
        return sum((r.probability * r.pays * r.pays for r in self.return_rows()), Fraction(0)) - self.expected ** 2

    @property
    def average_wager(self) -> Fraction:
        """Ante, raise and insurance staked per hand (fees are not wagers)."""
        return 1 + self.variant.raise_antes * self.sums.raised / self.situations + self.sums.staked / self.situations

    @property
    def element_of_risk(self) -> Fraction:
        return -self.expected / self.average_wager

    def to_dict(self) -> RussianExactJSON:
        key = self.slice.key()
        out: RussianExactJSON = {"kind": "russian_exact", "variant": self.variant.to_dict(),
                       "slice": {"label": self.slice.label(), "up_ranks": key["up_ranks"], "hands": key["hands"]},
                       "exact": True, "classes": self.classes, "situations": self.situations,
                       "share_of_situations": exact(Fraction(self.situations, SITUATIONS)),
                       "expected_return_per_ante": exact(self.expected), "house_edge_per_ante": exact(-self.expected),
                       "fees_per_hand_antes": exact(self.sums.fees / self.situations),
                       "raise_share_of_draws": exact(self.sums.raised / self.situations),
                       "insure_share_of_draws": exact(self.sums.insured / self.situations),
                       "dealer_qualifies_probability": exact(self.sums.qualifies / self.situations),
                       "action_shares": {KINDS[j]: exact(Fraction(n, self.situations))
                                         for j, n in enumerate(self.sums.situations) if n},
                       "element_of_risk": exact(self.element_of_risk), "average_total_wager_antes": exact(self.average_wager),
                       "standard_deviation_antes": math.sqrt(self.variance),
                       "return_table": [r.to_dict() for r in self.return_rows()],
                       "strategy": options.with_shares(chart_strategy(self.sums.chart), self.sums.options),
                       "core_seconds_per_class": self.seconds_per_class,
                       "whole_game_core_hours": self.whole_game_core_hours, "method": self.method}
        if self.played is not None:
            out["played_with"] = self.played
        return out

    def text(self) -> str:
        """What ``studodds draws-exact`` prints for a Russian table."""
        e = self.expected
        how = "by rank patterns" if self.method == "rank_patterns" else "situation class by situation class"
        unit = "group" if self.method == "rank_patterns" else "class"
        taken = "best action" if self.played is None else "action taken"
        lines = [f"Variant: {self.variant.name} - exact slice '{self.slice.label()}' of a Russian Poker table with "
                 f"draws, {how}"
                 + (f", played with the draw strategy {self.played!r} (its action in place of the best; the raise, "
                    "insurance and purchases each final hand's best)" if self.played is not None else ""),
                 f"Situations: {self.situations:,} ({self.classes:,} {plural(unit, self.classes)}"
                 + (" (rank pattern, up rank), " if unit == "group" else " up to suits, ")
                 + f"{self.situations / SITUATIONS:.4%} of the game)",
                 f"Expected result per ante: {float(e):+.6f}  exact {e}  (house edge {float(-e):.6%})",
                 f"Element of risk (per total wagered: ante, raise, insurance): {float(self.element_of_risk):.6%}; "
                 f"standard deviation {math.sqrt(self.variance):.6f} antes",
                 f"Fees per hand: {float(self.sums.fees / self.situations):.6f} antes (not wagers)",
                 f"Draws of the {taken} that raise: {float(self.sums.raised / self.situations):.4%}; that insure: "
                 f"{float(self.sums.insured / self.situations):.4%}; their dealer hands that qualify: "
                 f"{float(self.sums.qualifies / self.situations):.4%}",
                 f"{taken.capitalize()}: " + ", ".join(f"{KINDS[j]} {n / self.situations:.4%}"
                                                     for j, n in enumerate(self.sums.situations) if n)]
        if self.seconds_per_class is not None:
            lines.append(f"Measured: {self.seconds_per_class:.3f} core-seconds a {unit}; the whole game "
                         f"({self.whole_game_classes:,} {plural(unit)}) would take "
                         f"{self.whole_game_core_hours:,.1f} core-hours this way")
        rows = self.return_rows()
        w = max(len(r.event) for r in rows)
        lines += ["", f"{'outcome':<{w}} {'net':>8} {'probability':>12} {'return':>11}"]
        lines += [f"{r.event:<{w}} {str(r.pays):>8} {float(r.probability):>12.8f} {float(r.contribution):>11.7f}"
                  for r in rows]
        return "\n".join(lines)


def _rank_shard_played(variant: Variant, categories: Any, played: str, h: np.ndarray, up: np.ndarray,
                       weight: np.ndarray) -> SliceSums:
    """One shard of groups counted by rank patterns with the draw strategy ``played``'s action in
    place of each situation's best, on one thread."""
    return rank_shard_sums(ranks.shard_fields(variant, h, up, categories, threads=1, actions=STRATEGIES[played]),
                           classes_digest(h, up, weight), weight)


_PLAYED: dict[str, ShardedGame[SliceSums]] = {}
#: What a draw strategy's game costs against optimal play's (only keeping and the strategy's action
#: valued): the house's table played with the rules of thumb took 1.16 thread-hours over its 1,252
#: shards (2026-12-07) against 6.99 played best.  What a run is projected from, never a figure of it.
PLAYED_COST = 0.17


def played_game(played: str) -> ShardedGame[SliceSums]:
    """The game of a Russian table with draws played with the draw strategy ``played`` (by rank
    patterns, as :data:`BY_RANKS`; its checkpoints keyed by the strategy too)."""
    if played not in _PLAYED:
        _PLAYED[played] = dataclasses.replace(
            BY_RANKS, key=f"{BY_RANKS.key} played with {played}", work=_rank_shard_played,
            cost=lambda variant: PLAYED_COST * ranks.core_seconds_per_group(variant),
            share=lambda variant, counts, sl: (variant, sl.categories, played))
    return _PLAYED[played]


def slice_run(variant: Variant, variant_text: str, sl: Slice,
              checkpoint: Path | ShardStore | None = None, by: Method | None = None,
              played: str | None = None) -> SliceRun[SliceSums, RussianSlice]:
    """The run of the slice ``sl`` of ``variant``, ``by`` a method (see :func:`method`), its
    ``checkpoint`` folder read and verified before any work (:func:`enumerate.core.exact_game.open_run`);
    with ``played`` (a draw strategy's name, :mod:`enumerate.russian.draw_strategies`), the game
    with that strategy's draw in place of the best, by rank patterns."""
    reason = slice_refusal(variant)
    if reason is None and played is not None:
        reason = refusal(played, variant) if ranks.supported(variant) is None else \
            "a draw strategy's game is counted by rank patterns, which this table's rules do not allow"
    if reason is not None:
        raise StudoddsError(f"variant {variant.name!r}: {reason}")
    how = method(variant, "rank_patterns" if played is not None else by, sl)

    def make(total: SliceSums, n: int) -> RussianSlice:
        out = RussianSlice(variant, sl, n, total, total.seconds / n if total.seconds else None, how, played)
        try:
            out.return_rows()                 # its rows must give the best actions' EVs
        except AssertionError as exc:
            raise StudoddsError(f"the slice's sums do not add up ({exc})") from None
        return out
    game = played_game(played) if played is not None else BY_RANKS if how == "rank_patterns" else BY_CLASSES
    return exact_game.open_run(game, variant, variant_text, sl, checkpoint, make)

