"""The seen-hand game: a player who sees one other hand -- a partner's (one-partner collusion), or
his own second box (two boxes) -- exactly, by rank patterns.

A situation is the other hand X, the up card u and the player's five cards P; the dealer's hole
cards are any four of the 41 cards left, C(41, 4) = 101,270 sets.  Each player hand's values,
in units of 1 / (scale * 101,270) antes:

* V, seeing X: the better of raising and folding over these hole-card sets;
* N, not seeing X: the normal game's optimal decision for (P, u) (the count table's), valued over
  the same hole-card sets.

Summed with their weights, V and N give the exact expected results with and without the other
hand, and their difference the exact gain (never negative: V is the best decision over the very
sets N is valued on); the decisions that change and the raises are counted too
(:class:`SeenSums`, :class:`SeenHandSlice`).

The kernel (:mod:`enumerate.boxes.seen_ranks`, ``_seen_ranks.pyx``) counts a slice of up-card
ranks -- every other hand -- by (player rank pattern, up rank) classes, 370 times fewer
core-hours than a sweep class by class; counted *as pairs* it adds the two boxes' joint moments
(:data:`AS_PAIRS`), and every run is checked against the count table (the normal decisions'
value over every other hand is the normal game's; the return table gives the value seen; over
whole up ranks the two boxes are symmetric).  The whole game counted as pairs is what a table of
two boxes is made of (:mod:`enumerate.boxes.game`, kept as boxes_game.json) and what a certified
table's protection keeps of the seen hand (:data:`SEEN_HAND`, seen_hand.json): the same sums.
The sweep class by class on the dead-card engine, for slices by the other hand's category and
as the independent witness of these sums, is :mod:`enumerate.protection.seen_hand`.
"""
from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import numpy as np

from enumerate.boxes import seen_ranks
from enumerate.boxes.shapes import TwoBoxesJSON
from enumerate.core.engine import CountTable
from enumerate.core.exact_game import Classes, KeptGame, ShardedGame
from enumerate.core.jsonform import exact
from enumerate.core.shapes import Count, Exact, Minimum, MinItems, Pattern, shape
from enumerate.core.slices import CLASSES, SITUATIONS, Slice, classes_digest
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant import Variant, VariantJSON
from evaluator.ranking import Category

#: Player hands of a class (the 46 cards besides the other hand and the up card), and the
#: dealer's hole-card sets of each.
PLAYER_HANDS = math.comb(46, 5)
COMPLETIONS = math.comb(41, 4)
#: The command whose checkpoints these are (for messages).
COMMAND = "collusion --exact"

#: The outcomes of the return table of the game seen, per player category: the hole-card sets of
#: raised hands by the dealer's result, and those of folded hands.
Outcome = Literal["raised_no_qualify", "raised_win", "raised_tie", "raised_lose", "folded"]
OUTCOMES: tuple[Outcome, ...] = ("raised_no_qualify", "raised_win", "raised_tie", "raised_lose", "folded")
RETURN_CELLS = len(Category) * len(OUTCOMES)


@dataclass
class SeenSums:
    """Exact sums over classes, each player hand weighted by its class: situations, the values
    with and without the partner's cards (units of 1 / (scale * 101,270) antes), the raises with
    and without, the decisions that change; by rank patterns also the return table of the game
    seen (:data:`OUTCOMES` per category, hole-card sets); and the shard's core-seconds (not a
    figure)."""

    digest: str = ""
    situations: int = 0
    seen: int = 0
    normal: int = 0
    seen_raised: int = 0
    normal_raised: int = 0
    changed: int = 0
    seconds: float = 0.0
    returns: list[int] | None = None
    #: two boxes (the partner is the player's other box): the cross moment of the boxes' results
    #: (units 1 / (scale^2 * 101,270) antes^2), the situations where both raise, and the other
    #: box's value and second moment (:data:`enumerate.boxes.seen_ranks.PAIR_FIELDS`)
    pairs: list[int] | None = None

    FIELDS = ("situations", "seen", "normal", "seen_raised", "normal_raised", "changed")

    def add(self, other: "SeenSums") -> None:
        for f in self.FIELDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.seconds += other.seconds
        if other.returns is not None:
            mine = self.returns or [0] * RETURN_CELLS
            self.returns = [a + b for a, b in zip(mine, other.returns)]
        if other.pairs is not None:
            self.pairs = [a + b for a, b in zip(self.pairs or [0] * len(other.pairs), other.pairs)]

    def to_json(self) -> dict[str, Any]:
        out = {"digest": self.digest, **{f: str(getattr(self, f)) for f in self.FIELDS}, "seconds": self.seconds}
        if self.returns is not None:
            out["returns"] = [str(x) for x in self.returns]
        if self.pairs is not None:
            out["pairs"] = [str(x) for x in self.pairs]
        return out

    @classmethod
    def from_json(cls, data: Any, weights: np.ndarray) -> "SeenSums":
        """A stored shard, checked against its classes' ``weights``: well formed, and adding up
        (every player hand of every class counted, raises and changes within them, the gain of
        seeing never negative, the return table's hole-card sets those of the situations, raised
        and folded as counted); ValueError if not."""
        if not isinstance(data, dict) or set(data) - {"returns", "pairs"} != {"digest", "seconds", *cls.FIELDS}:
            raise ValueError("a shard's sums have the wrong fields")
        values = {}
        for f in cls.FIELDS:
            x = data[f]
            if not isinstance(x, str) or not re.fullmatch(r"-?\d{1,40}", x):
                raise ValueError(f"{f}: not a whole number")
            values[f] = int(x)
        seconds = data["seconds"]
        if (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < 1e9
                or not isinstance(data["digest"], str)):
            raise ValueError("its seconds or digest are malformed")
        returns = None
        if "returns" in data:
            raw = data["returns"]
            if (not isinstance(raw, list) or len(raw) != RETURN_CELLS
                    or not all(isinstance(x, str) and re.fullmatch(r"\d{1,40}", x) for x in raw)):
                raise ValueError(f"returns: not {RETURN_CELLS} whole numbers")
            returns = [int(x) for x in raw]
        pairs = None
        if "pairs" in data:
            raw = data["pairs"]
            if (returns is None or not isinstance(raw, list) or len(raw) != len(seen_ranks.PAIR_FIELDS)
                    or not all(isinstance(x, str) and re.fullmatch(r"-?\d{1,60}", x) for x in raw)):
                raise ValueError(f"pairs: not {len(seen_ranks.PAIR_FIELDS)} whole numbers beside a return table")
            pairs = [int(x) for x in raw]
        s = cls(data["digest"], seconds=float(seconds), returns=returns, pairs=pairs, **values)
        if s.situations != int(weights.sum()) * PLAYER_HANDS:
            raise ValueError("its situations are not its classes' player hands")
        if not all(0 <= getattr(s, f) <= s.situations for f in ("seen_raised", "normal_raised", "changed")):
            raise ValueError("raises or changed decisions out of range")
        if s.seen < s.normal or (s.changed == 0 and s.seen != s.normal):
            raise ValueError("seeing the partner's hand is worth less than not seeing it")
        if returns is not None:
            folded = sum(returns[4::5])
            if folded != (s.situations - s.seen_raised) * COMPLETIONS or sum(returns) != s.situations * COMPLETIONS:
                raise ValueError("its return table does not hold its situations' hole-card sets")
        if pairs is not None and not 0 <= pairs[1] <= s.seen_raised:
            raise ValueError("both boxes raise in more situations than one box does")
        if pairs is not None and pairs[3] < 0:
            raise ValueError("pairs: a negative second moment")
        return s


def by_rank_patterns(sl: Slice) -> bool:
    """Whether the slice is counted by rank patterns (every partner hand: a slice of up ranks)."""
    return len(sl.categories) == len(Category)


class SeenSliceInfoJSON(TypedDict):
    """Which situations a slice holds (by the partner's hand and the up card)."""

    label: str
    up_ranks: Annotated[list[str], MinItems(1)]
    partner_hands: Annotated[list[str], MinItems(1)]


class SeenReturnRowJSON(TypedDict):
    """A cell of the return table of the game seen: the player's category, the outcome, its net
    result, the hole-card sets over every situation (a whole number, as text), their share."""

    category: str
    outcome: Outcome
    net_antes: Exact
    hole_card_sets: Annotated[str, Pattern(r"^[0-9]+$")]
    probability: Exact
    contribution: Exact


class _SpreadJSON(TypedDict):
    """The spread of the game seen (by rank patterns; null when counted class by class)."""

    seeing_return_table: list[SeenReturnRowJSON] | None
    seeing_variance_per_hand: Exact | None
    seeing_std_dev_per_hand: Annotated[float, Minimum(0)] | None
    seeing_average_wager_antes: Exact | None
    seeing_element_of_risk: Exact | None


@shape("collusion_exact", document=True)
class CollusionExactJSON(TypedDict):
    """Schema: studodds collusion --exact: the exact value of seeing one partner's hand over a slice of the situations"""

    kind: Literal["collusion_exact"]
    variant: VariantJSON
    slice: SeenSliceInfoJSON
    exact: Literal[True]
    partners: Literal[1]
    method: Literal["rank_patterns", "partner_classes"]
    classes: Count
    situations: Count
    share_of_situations: Exact
    house_edge_seeing_partner: Exact
    house_edge_not_seeing: Exact
    gain_per_hand_antes: Exact
    raise_share_seeing: Exact
    raise_share_not_seeing: Exact
    changed_decisions_share: Exact
    core_seconds_per_class: Annotated[float, Minimum(0)] | None
    whole_game_core_hours: Annotated[float, Minimum(0)] | None
    seeing_return_table: list[SeenReturnRowJSON] | None
    seeing_variance_per_hand: Exact | None
    seeing_std_dev_per_hand: Annotated[float, Minimum(0)] | None
    seeing_average_wager_antes: Exact | None
    seeing_element_of_risk: Exact | None
    two_boxes: NotRequired[TwoBoxesJSON]


@dataclass(frozen=True)
class SeenHandSlice:
    """The exact figures of a slice (see the module docstring)."""

    variant: Variant
    slice: Slice
    classes: int
    sums: SeenSums
    seconds_per_class: float | None
    method: Literal["rank_patterns", "partner_classes"] = "partner_classes"

    @property
    def whole_game_classes(self) -> int:
        """The classes of the whole game counted the slice's way."""
        return seen_ranks.whole_game_classes() if self.method == "rank_patterns" else CLASSES

    @property
    def _unit(self) -> int:
        return self.sums.situations * RaiseValue.of(self.variant).scale * COMPLETIONS

    @property
    def _square_unit(self) -> int:
        """The denominator of a second moment's sum (the kernel's units 1 / scale^2 a set)."""
        return self.sums.situations * RaiseValue.of(self.variant).scale ** 2 * COMPLETIONS

    @property
    def seeing(self) -> Fraction:
        """Expected result per ante seeing the partner's hand (optimal play)."""
        return Fraction(self.sums.seen, self._unit)

    @property
    def not_seeing(self) -> Fraction:
        """Expected result per ante of the normal optimal decisions, on the same situations."""
        return Fraction(self.sums.normal, self._unit)

    @property
    def share(self) -> Fraction:
        return Fraction(self.sums.situations // PLAYER_HANDS, SITUATIONS)

    def return_rows(self) -> list[tuple[Category, Outcome, Fraction, int]] | None:
        """The return table of the game seen: (player category, outcome, net result in antes,
        hole-card sets over every situation) for each cell that occurs; None when the slice was
        counted class by class (the class sweep keeps no return table)."""
        if self.sums.returns is None:
            return None
        value = RaiseValue.of(self.variant)
        rows = []
        for c in Category:
            net = [Fraction(value.c_nq - value.c_lose, value.scale),
                   Fraction(int(value.c_win[c]) - value.c_lose, value.scale),
                   Fraction(value.c_tie - value.c_lose, value.scale), Fraction(-value.c_lose, value.scale),
                   Fraction(-1)]
            for k, outcome in enumerate(OUTCOMES):
                sets = self.sums.returns[5 * int(c) + k]
                if sets:
                    rows.append((c, outcome, net[k], sets))
        return rows

    def spread(self) -> tuple[Fraction, Fraction, Fraction] | None:
        """(variance of a hand's net result in antes squared, average total wager in antes,
        element of risk) of the game seen, from its return table; None without one."""
        rows = self.return_rows()
        if rows is None:
            return None
        total = self.sums.situations * COMPLETIONS
        mean = Fraction(sum(net * sets for _, _, net, sets in rows), total)
        variance = Fraction(sum(net * net * sets for _, _, net, sets in rows), total) - mean * mean
        value = RaiseValue.of(self.variant)
        raise_size = Fraction(value.c_lose, value.scale) - 1
        wager = 1 + raise_size * Fraction(self.sums.seen_raised, self.sums.situations)
        return variance, wager, -mean / wager

    def to_dict(self) -> CollusionExactJSON:
        n = self.sums.situations
        per = self.seconds_per_class
        key = self.slice.key()
        out: CollusionExactJSON = {"kind": "collusion_exact", "variant": self.variant.to_dict(),
                "slice": {"label": self.slice.label("partner hands"), "up_ranks": key["up_ranks"],
                          "partner_hands": key["hands"]},
                "exact": True, "partners": 1, "method": self.method, "classes": self.classes, "situations": n,
                "share_of_situations": exact(self.share),
                "house_edge_seeing_partner": exact(-self.seeing), "house_edge_not_seeing": exact(-self.not_seeing),
                "gain_per_hand_antes": exact(self.seeing - self.not_seeing),
                "raise_share_seeing": exact(Fraction(self.sums.seen_raised, n)),
                "raise_share_not_seeing": exact(Fraction(self.sums.normal_raised, n)),
                "changed_decisions_share": exact(Fraction(self.sums.changed, n)),
                "core_seconds_per_class": per,
                "whole_game_core_hours": None if per is None else per * self.whole_game_classes / 3600,
                **self._seeing_spread()}
        boxes = self.two_boxes_json()
        if boxes is not None:
            out["two_boxes"] = boxes
        return out

    def symmetric(self) -> bool:
        """True when the other box's value and second moment are the player's box's: what a slice
        holding every (P, Q) with (Q, P) -- a slice of up ranks -- must give (see
        :data:`~enumerate.boxes.seen_ranks.PAIR_FIELDS`)."""
        spread = self.spread()
        if self.sums.pairs is None or spread is None:
            return False
        square = spread[0] + self.seeing * self.seeing          # the player's box's E[X^2]
        return self.sums.pairs[2] == self.sums.seen and Fraction(self.sums.pairs[3], self._square_unit) == square

    def two_boxes(self) -> tuple[Fraction, Fraction, Fraction] | None:
        """(covariance of the two boxes' results, variance of a round of both, share of
        situations where both raise) when the slice was counted as one player's two boxes
        (``pairs``) and is symmetric in them, else None.  Antes squared; the cross moment
        E[X1 X2] is the kernel's sum over the situations and hole-card sets."""
        spread = self.spread()
        if spread is None or not self.symmetric():
            return None
        assert self.sums.pairs is not None
        cross = Fraction(self.sums.pairs[0], self._square_unit)
        covariance = cross - self.seeing * self.seeing
        return covariance, 2 * spread[0] + 2 * covariance, Fraction(self.sums.pairs[1], self.sums.situations)

    def two_boxes_json(self) -> TwoBoxesJSON | None:
        """The two boxes' figures in the JSON convention (None when :meth:`two_boxes` is)."""
        figures, spread = self.two_boxes(), self.spread()
        if figures is None or spread is None:
            return None
        covariance, variance, both = figures
        return {
            "decisions": "each box raises or folds seeing both hands and the up card; the dealer's cards are the same "
                         "for both boxes and each box's result depends on its own decision only, so neither decision "
                         "depends on the other or on which is made first",
            "house_edge_per_box": exact(-self.seeing), "gain_per_box_antes": exact(self.seeing - self.not_seeing),
            "both_boxes_raise_share": exact(both),
            "covariance_of_the_boxes_antes_squared": exact(covariance),
            "correlation_of_the_boxes": exact(covariance / spread[0]),
            "variance_per_round_antes_squared": exact(variance), "std_dev_per_round_antes": math.sqrt(variance)}

    def _seeing_spread(self) -> "_SpreadJSON":
        rows, spread = self.return_rows(), self.spread()
        if rows is None or spread is None:
            return {"seeing_return_table": None, "seeing_variance_per_hand": None, "seeing_std_dev_per_hand": None,
                    "seeing_average_wager_antes": None, "seeing_element_of_risk": None}
        total = self.sums.situations * COMPLETIONS
        variance, wager, risk = spread
        return {"seeing_return_table": [{"category": c.key, "outcome": o, "net_antes": exact(net),
                                         "hole_card_sets": str(sets), "probability": exact(Fraction(sets, total)),
                                         "contribution": exact(net * Fraction(sets, total))}
                                        for c, o, net, sets in rows],
                "seeing_variance_per_hand": exact(variance), "seeing_std_dev_per_hand": math.sqrt(variance),
                "seeing_average_wager_antes": exact(wager), "seeing_element_of_risk": exact(risk)}


def _rank_shard(variant: Variant, pairs: bool, cards: np.ndarray, up: np.ndarray, weight: np.ndarray) -> SeenSums:
    """One shard of (player rank pattern, up rank) classes on one OpenMP thread (a pool of
    Python threads, or a Dask worker, runs shards side by side); the seconds: the shard's own."""
    start = time.perf_counter()
    total = seen_ranks.shard_sums(variant, cards, up, threads=1, pairs=pairs)
    fields = dict(zip(SeenSums.FIELDS, total))
    return SeenSums(classes_digest(cards, up, weight), seconds=time.perf_counter() - start,
                    returns=total[len(SeenSums.FIELDS):seen_ranks.SUMS], pairs=total[seen_ranks.SUMS:] or None,
                    **fields)


def rank_sums_problem(result: SeenHandSlice, table: CountTable, classes: Classes, pairs: bool) -> str | None:
    """What does not add up in the rank patterns' sums of a slice over ``classes``, or None:
    the normal decisions' value must be the count table's game on those classes, the return
    table must give the value seen, and the two boxes' sums over whole up ranks must be
    symmetric (the other box's value and second moment the player's box's)."""
    total, variant = result.sums, result.variant
    dealt, normal = seen_ranks.normal_check(table, variant, classes)
    rows = result.return_rows()
    if (dealt * PLAYER_HANDS != total.situations
            or Fraction(total.normal, COMPLETIONS) != Fraction(normal * PLAYER_HANDS, math.comb(46, 4))
            or rows is None or sum(net * sets for _, _, net, sets in rows) * RaiseValue.of(variant).scale != total.seen):
        return ("the rank patterns' sums do not add up (the normal decisions to the count table's game, the return table "
                "to the value seen)")
    whole_ranks = pairs and classes[1].shape[0] == sum(seen_ranks.player_patterns(ru).shape[0]
                                                       for ru in result.slice.up_ranks)
    if whole_ranks and not result.symmetric():
        return ("the two boxes' sums do not add up (over every pair of hands the other box's value and second moment are "
                "the player's box's)")
    return None


def _ranks_check(pairs: bool) -> Callable[[Variant, CountTable, Classes, Slice, SeenSums], str | None]:
    def check(variant: Variant, table: CountTable, classes: Classes, sl: Slice, sums: SeenSums) -> str | None:
        result = SeenHandSlice(variant.single_box(), sl, classes[1].shape[0], sums, None, "rank_patterns")
        return rank_sums_problem(result, table, classes, pairs)
    return check


def _by_ranks(pairs: bool) -> ShardedGame[SeenSums]:
    """The game by rank patterns, as pairs (two boxes: the partner is the player's other box) or
    not; the rules a box is settled by are those of one box."""
    return ShardedGame(
        key="two_boxes_ranks_checkpoint" if pairs else "collusion_exact_ranks_checkpoint", command=COMMAND,
        unit="class", shard=seen_ranks.SHARD, version=seen_ranks.VERSION,
        classes=lambda sl: seen_ranks.classes(sl.up_ranks), work=_rank_shard, parse=SeenSums.from_json,
        empty=SeenSums, share=lambda variant, counts, sl: (variant.single_box(), pairs),
        cost=lambda variant: seen_ranks.CORE_SECONDS_PER_CLASS_AS_PAIRS if pairs else seen_ranks.CORE_SECONDS_PER_CLASS,
        check=_ranks_check(pairs), hands="partner hands")


#: The seen-hand game by rank patterns (a slice of up ranks: every partner hand), and as pairs.
BY_RANKS, AS_PAIRS = _by_ranks(False), _by_ranks(True)


# ---------------------------------------------------------------------------------------------
# The whole game counted as pairs: what two boxes and a certified table's seen hand are made of

#: The kind of the kept sums of the whole game counted as pairs (a certified table's
#: boxes_game.json, and seen_hand.json beside protection.json).
SUMS_KIND = "two_boxes_sums"


def _kept(total: SeenSums, classes: int) -> dict[str, Any]:
    sums = total.to_json()
    sums["seconds"] = 0
    sums["digest"] = classes_digest(*AS_PAIRS.classes(Slice()))
    return {"kind": SUMS_KIND, "version": seen_ranks.VERSION, "classes": classes, "sums": sums}


def _from_kept(data: Any) -> SeenSums:
    classes = AS_PAIRS.classes(Slice())
    if (set(data) != {"kind", "version", "classes", "sums"} or data["version"] != seen_ranks.VERSION
            or isinstance(data["classes"], bool) or data["classes"] != classes[1].shape[0]):
        raise ValueError(f"not the sums of a whole two-box game of version {seen_ranks.VERSION}")
    sums = SeenSums.from_json(data["sums"], classes[2])
    if sums.pairs is None:
        raise ValueError("it has no two-box sums")
    return sums


def kept_game(file: str) -> KeptGame[SeenSums]:
    """The whole game counted as pairs, kept in ``file`` (the same sums under two names: a table of
    two boxes keeps boxes_game.json, a certified table's protection seen_hand.json)."""
    return KeptGame(AS_PAIRS, file, SUMS_KIND, "seen-hand", _kept, _from_kept, "a whole two-box game")


#: The seen hand a certified table's protection keeps (seen_hand.json).
SEEN_HAND = kept_game("seen_hand.json")


def whole_game_result(variant: Variant, total: SeenSums, classes: int) -> SeenHandSlice:
    """The figures of the whole game counted as pairs from its total."""
    return SeenHandSlice(variant.single_box(), Slice(), classes, total,
                         total.seconds / classes if total.seconds else None, "rank_patterns")


def whole_game_steps() -> int:
    """The classes of the whole game (the progress bar's steps)."""
    return seen_ranks.whole_game_classes()
