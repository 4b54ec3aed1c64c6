"""Candidate paytables as sums of one row of integers per pay (see :mod:`enumerate.design`).

A :class:`PayGrid` holds, for every value of every moving pay, the exact integers its category
contributes (total, second moment, raised situations, hits, largest net result), and the sum
of the fixed pays' rows.  It is small (kilobytes) and picklable, so a search can ship it to
Dask workers; :meth:`PayGrid.block` evaluates a range of the grid's candidates in a few
vectorised integer operations, and :meth:`PayGrid.candidate` recomputes one candidate's exact
figures with Python integers.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TypedDict

import numpy as np

from enumerate.analysis.stats import Stat
from enumerate.analysis.threshold_index import ThresholdIndex, threshold_index
from enumerate.core.engine import COMPLETIONS, CountTable
from enumerate.core.jsonform import exact
from enumerate.core.shapes import Count, Exact, shape
from enumerate.rules.amounts import parse_amount
from enumerate.rules.settlement import Settlement
from enumerate.rules.variant import PAY_CATEGORIES, Variant
from enumerate.rules.variant_file import RAISE_KEYS
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

#: Largest number of values one pay may take in a design.
MAX_AXIS_VALUES = 100_000
#: Largest grid a design evaluates (about 11 minutes at the measured 15 M candidates/s on 2 cores).
MAX_CANDIDATES = 10**10


def grid_size(axes: Sequence["Axis"]) -> int:
    """The number of candidate paytables of a grid; StudoddsError above :data:`MAX_CANDIDATES`."""
    n = math.prod(len(a.values) for a in axes)
    if n > MAX_CANDIDATES:
        raise StudoddsError(f"{n:,} candidate paytables: at most {MAX_CANDIDATES:,} in one design "
                            "(move fewer pays, or over fewer values)")
    return n
#: Columns of a pay row: total (x scale), second moment (x scale^2), raised situations, hits,
#: largest net result with a positive count (x scale).
COLUMNS = ("total", "second", "raised", "hits", "best")
_SUMMED = (0, 1, 2, 3)
_BEST = 4


@dataclass(frozen=True)
class Slot:
    """A pay of the paytable: its key in the variant file and the categories it pays (the
    straight flush's pay covers the royal flush when the table does not list the royal)."""

    key: str
    categories: tuple[Category, ...]


def pay_slots(variant: Variant) -> tuple[Slot, ...]:
    """The variant's pays from the best hand down, as its variant file lists them."""
    out = []
    for c in PAY_CATEGORIES:
        if c == Category.ROYAL_FLUSH and not variant.royal_separate:
            continue
        both = c == Category.STRAIGHT_FLUSH and not variant.royal_separate
        out.append(Slot(c.key, (c, Category.ROYAL_FLUSH) if both else (c,)))
    return tuple(out)


def design_refusal(variant: Variant) -> str | None:
    """Why the design tools do not model the variant's settlement exactly, or None (the plain
    game's kind asks it before any counting, :mod:`enumerate.game.plain`)."""
    if variant.ante_bonus is not None or variant.draws is not None:
        return ("paytable design models the plain game without an ante bonus (with one, the raise decision depends "
                "on the category)")
    if variant.max_payout is not None:
        return "paytable design works on uncapped pays (remove [max_payout])"
    return None


def check_designable(variant: Variant) -> None:
    """StudoddsError when :func:`design_refusal` refuses the variant."""
    reason = design_refusal(variant)
    if reason is not None:
        raise StudoddsError(f"variant {variant.name!r}: {reason}")


@shape("design_axis")
class DesignAxisJSON(TypedDict):
    pay: str
    values: Count
    min: Exact
    max: Exact


@dataclass(frozen=True)
class Axis:
    """A pay that moves in a design: its key and the values it takes (sorted, distinct)."""

    key: str
    values: tuple[Fraction, ...]

    @classmethod
    def parse(cls, text: str) -> "Axis":
        """``key=LO..HI`` (step 1), ``key=LO..HI/STEP`` or ``key=V1,V2,...``; values as in a
        variant file (7, 7.5, 15/2), except that HI is a decimal when a step follows it
        (``one_pair=1/2..1.5/1/4``: from 1/2 to 1.5 by 1/4).

        >>> Axis.parse("full_house=6..8/0.5").values
        (Fraction(6, 1), Fraction(13, 2), Fraction(7, 1), Fraction(15, 2), Fraction(8, 1))
        """
        key, sep, spec = text.partition("=")
        key = key.strip()
        if not sep or not spec.strip():
            raise StudoddsError(f"{text!r}: write a pay as KEY=LO..HI[/STEP] or KEY=V1,V2,... (e.g. full_house=5..10)")
        if key not in RAISE_KEYS:
            raise StudoddsError(f"{text!r}: {key!r} is not a raise pay (one of {', '.join(RAISE_KEYS)})")
        try:
            if ".." in spec:
                lo_text, _, rest = spec.partition("..")
                hi_text, _, step_text = rest.partition("/")          # HI before the first "/" of the rest
                lo, hi = parse_amount(lo_text.strip()), parse_amount(hi_text.strip())
                step = parse_amount(step_text.strip(), allow_zero=False) if step_text.strip() else Fraction(1)
                if hi < lo:
                    raise StudoddsError(f"the range {lo}..{hi} is empty")
                n = int((hi - lo) / step) + 1
                if n > MAX_AXIS_VALUES:
                    raise StudoddsError(f"{n:,} values: at most {MAX_AXIS_VALUES:,} per pay")
                d = math.lcm(lo.denominator, step.denominator)       # in integers: fast for 100,000 values
                a, b = int(lo * d), int(step * d)
                values = [Fraction(a + k * b, d) for k in range(n)]
            else:
                values = sorted({parse_amount(v.strip()) for v in spec.split(",")})
        except StudoddsError as exc:
            raise StudoddsError(f"{text!r}: {exc}") from None
        return cls(key, tuple(values))

    def to_dict(self) -> DesignAxisJSON:
        return {"pay": self.key, "values": len(self.values), "min": exact(self.values[0]),
                "max": exact(self.values[-1])}


@shape("design_candidate")
class DesignCandidateJSON(TypedDict):
    raise_pays: dict[str, Exact]
    total_loss_antes: Exact
    house_edge_per_ante: Exact
    element_of_risk_per_total_wager: Exact
    rtp_per_total_wager: Exact
    variance_antes_squared: Exact
    standard_deviation_antes: float
    hit_frequency: Exact
    raise_probability: Exact
    largest_win_antes: Exact


@dataclass(frozen=True)
class Candidate:
    """One paytable of a design with its exact figures (optimal strategy)."""

    pays: dict[str, Fraction]          # every pay of the paytable, by key
    total_loss: Fraction               # antes, over all 19,933,230,517,200 combinations
    house_edge: Fraction
    element_of_risk: Fraction
    variance: Fraction
    hit_frequency: Fraction
    raise_probability: Fraction
    largest_win: Fraction              # the largest net result of a hand, in antes

    @property
    def rtp(self) -> Fraction:
        """Return to player per total wagered: 1 - element of risk."""
        return 1 - self.element_of_risk

    @property
    def standard_deviation(self) -> float:
        """Of the net result per hand, in antes (display only)."""
        return math.sqrt(self.variance)

    def figure(self, name: str) -> Fraction | float:
        return self.standard_deviation if name == "standard_deviation" else getattr(self, name)

    def variant(self, base: Variant, name: str | None = None) -> Variant:
        """``base`` with this candidate's pays."""
        pays = dict(base.raise_pays)
        for slot in pay_slots(base):
            for c in slot.categories:
                pays[c] = self.pays[slot.key]
        return replace(base, name=name or base.name, raise_pays=pays)

    def to_dict(self) -> DesignCandidateJSON:
        return {"raise_pays": {k: exact(v) for k, v in self.pays.items()},
                "total_loss_antes": exact(self.total_loss),
                "house_edge_per_ante": exact(self.house_edge),
                "element_of_risk_per_total_wager": exact(self.element_of_risk),
                "rtp_per_total_wager": exact(self.rtp),
                "variance_antes_squared": exact(self.variance),
                "standard_deviation_antes": self.standard_deviation,
                "hit_frequency": exact(self.hit_frequency),
                "raise_probability": exact(self.raise_probability),
                "largest_win_antes": exact(self.largest_win)}


@dataclass
class Block:
    """Candidates ``index`` of a grid (linear positions), their value positions on each moving
    pay (``at``, one row per axis) and their exact sums (``COLUMNS``, int64 or Python ints)."""

    index: np.ndarray
    at: np.ndarray
    sums: dict[str, np.ndarray]

    def __len__(self) -> int:
        return int(self.index.shape[0])

    def take(self, keep: np.ndarray) -> "Block":
        return Block(self.index[keep], self.at[:, keep], {k: v[keep] for k, v in self.sums.items()})

    @staticmethod
    def concat(blocks: list["Block"], axes: int) -> "Block":
        if not blocks:
            return Block(np.zeros(0, np.int64), np.zeros((axes, 0), np.int64), {k: np.zeros(0, np.int64) for k in COLUMNS})
        return Block(np.concatenate([b.index for b in blocks]), np.concatenate([b.at for b in blocks], axis=1),
                     {k: np.concatenate([b.sums[k] for b in blocks]) for k in COLUMNS})


@dataclass(frozen=True)
class PayGrid:
    """Every candidate of a design: the moving pays' rows, the fixed pays' sum, the order
    constraints, and the constants that turn sums into figures (see the module docstring)."""

    slots: tuple[Slot, ...]
    axes: tuple[Axis, ...]
    fixed_pays: dict[str, Fraction]
    scale: int                          # every pay and ante pay times scale is an integer
    situations: int                     # 122,151,120
    rows: tuple[np.ndarray, ...]        # per axis: (values, len(COLUMNS)), int64 or object
    fixed: tuple[int, ...]              # the fixed pays' row (Python ints)
    scaled: tuple[np.ndarray, ...]      # per axis: the values times scale (int64)
    order: tuple[tuple[Any, Any], ...]  # (better, worse) pairs: ("axis", i) or ("value", scaled int)
    settlement: Settlement              # the net results and stakes (raise pays aside) of the ante pays and raise

    @property
    def combinations(self) -> int:
        return self.situations * COMPLETIONS

    @property
    def size(self) -> int:
        """Number of candidates (before the order constraints)."""
        return math.prod(len(a.values) for a in self.axes)

    def strides(self) -> list[int]:
        out, s = [], 1
        for a in reversed(self.axes):
            out.append(s)
            s *= len(a.values)
        return out[::-1]

    def positions(self, index: np.ndarray) -> np.ndarray:
        """(axes, n) value positions of linear grid positions (the last axis moves fastest)."""
        return np.stack([(index // s) % len(a.values) for s, a in zip(self.strides(), self.axes)]) \
            if self.axes else np.zeros((0, index.shape[0]), np.int64)

    def block(self, start: int, stop: int) -> Block:
        """Candidates start..stop-1 that meet the grid's order constraints."""
        index = np.arange(start, stop, dtype=np.int64)
        at = self.positions(index)
        if self.order:
            keep = np.ones(index.shape[0], dtype=bool)
            for better, worse in self.order:
                keep &= self._value(better, at) >= self._value(worse, at)
            index, at = index[keep], at[:, keep]
        return Block(index, at, self.sums(at))

    def _value(self, ref: tuple[str, int], at: np.ndarray) -> Any:
        kind, v = ref
        return self.scaled[v][at[v]] if kind == "axis" else v

    def sums(self, at: np.ndarray) -> dict[str, np.ndarray]:
        n = at.shape[1]
        dtype = self.rows[0].dtype if self.rows else np.int64
        out = {}
        for j, name in enumerate(COLUMNS):
            acc = np.full(n, self.fixed[j], dtype=dtype)
            for a, rows in enumerate(self.rows):
                col = rows[:, j][at[a]]
                if j == _BEST:
                    np.maximum(acc, col, out=acc)
                else:
                    acc += col
            out[name] = acc
        return out

    def pays_at(self, positions: list[int] | np.ndarray) -> dict[str, Fraction]:
        moving = {a.key: a.values[int(p)] for a, p in zip(self.axes, positions)}
        return {s.key: moving.get(s.key, self.fixed_pays.get(s.key, Fraction(0))) for s in self.slots}

    def candidate(self, positions: list[int] | np.ndarray) -> Candidate:
        """Exact figures of the candidate at these value positions, with Python integers."""
        sums = [int(x) for x in self.fixed]
        for a, p in enumerate(positions):
            _add_row(sums, [int(x) for x in self.rows[a][int(p)]])
        return _figures(sums, self.pays_at(positions), self.scale, self.situations, self.settlement)

    def floats(self, block: Block) -> dict[str, np.ndarray]:
        """Every figure of a block as doubles (for ranking and plotting; decisions that must be
        exact recheck the near ones with :meth:`candidate`)."""
        s, t, n = float(self.scale), float(self.combinations), float(self.situations)
        total = block.sums["total"].astype(np.float64)
        edge = -total / (s * t)
        extra = float(self.settlement.staked(True) - self.settlement.staked(False))
        eor = edge / (1.0 + extra * block.sums["raised"].astype(np.float64) / n)
        var = block.sums["second"].astype(np.float64) / (s * s * t) - edge * edge
        return {"house_edge": edge, "element_of_risk": eor, "rtp": 1.0 - eor,
                "standard_deviation": np.sqrt(np.maximum(var, 0.0)),
                "hit_frequency": block.sums["hits"].astype(np.float64) / t,
                "raise_probability": block.sums["raised"].astype(np.float64) / n,
                "largest_win": block.sums["best"].astype(np.float64) / s}


def _slot_row(index: ThresholdIndex, slot: Slot, pay: Fraction, scale: int) -> list[int]:
    """The exact row of one pay at one value (see :data:`COLUMNS`); every net result is the
    settlement's (:class:`~enumerate.rules.settlement.Settlement`), times ``scale``."""
    s = index.settlement.with_pays(pay)
    win_pay = int(s.net(0, "player_wins") * scale)
    nq_pay = int(s.net(None, "dealer_does_not_qualify") * scale)
    tie_pay, lose_pay, fold_pay = (int(s.net(None, state) * scale) for state in ("push", "dealer_wins", "folded"))
    total = second = raised = hits = 0
    best = None
    for c in slot.categories:
        row, _ = index.category_statistics(c, pay)
        nq, win, tie, lose = (int(row[k]) for k in (Stat.NO_QUALIFY, Stat.WIN, Stat.TIE, Stat.LOSE))
        r, folded = int(row[Stat.RAISED]), int(row[Stat.SITUATIONS] - row[Stat.RAISED])
        outcomes = ((win_pay, win), (nq_pay, nq), (tie_pay, tie), (lose_pay, lose), (fold_pay, folded * COMPLETIONS))
        total += sum(v * n for v, n in outcomes)
        second += sum(v * v * n for v, n in outcomes)
        raised += r
        hits += sum(n for v, n in outcomes if v > 0)
        present = [v for v, n in outcomes if n]
        best = max(present) if best is None else max(best, *present)
    return [total, second, raised, hits, best if best is not None else lose_pay]


def build_grid(table: CountTable, variant: Variant, axes: list[Axis] | tuple[Axis, ...], *, order: bool = True,
               index: ThresholdIndex | None = None) -> PayGrid:
    """The grid of every paytable that moves ``axes`` over their values and keeps the
    variant's other pays; with ``order``, candidates where a better hand pays less than a
    worse one are left out."""
    check_designable(variant)
    slots = pay_slots(variant)
    keys = [s.key for s in slots]
    seen: set[str] = set()
    for a in axes:
        if a.key not in keys:
            raise StudoddsError(f"{a.key}: not a pay of variant {variant.name!r} (its pays: {', '.join(keys)})")
        if a.key in seen:
            raise StudoddsError(f"{a.key}: given twice")
        if not a.values:
            raise StudoddsError(f"{a.key}: no value left to try")
        seen.add(a.key)
    axes = sorted(axes, key=lambda a: keys.index(a.key))
    if index is None:
        index = threshold_index(table, variant.ante_no_qualify, variant.ante_win, variant.raise_antes)
    fixed_pays = {s.key: variant.raise_pays[s.categories[0]] for s in slots if s.key not in seen}
    scale = math.lcm(variant.ante_no_qualify.denominator, variant.ante_win.denominator,
                     *(v.denominator for v in fixed_pays.values()), *(v.denominator for a in axes for v in a.values))
    fixed = _summed_rows(index, [s for s in slots if s.key in fixed_pays], fixed_pays, scale)
    rows_py = [[_slot_row(index, next(s for s in slots if s.key == a.key), v, scale) for v in a.values] for a in axes]
    bound = sum(abs(x) for x in fixed) + sum(max(abs(x) for r in rows for x in r) for rows in rows_py)
    dtype: Any = np.int64 if bound < 2**62 else object
    rows = tuple(np.array(r, dtype=dtype) for r in rows_py)
    scaled = tuple(np.array([int(v * scale) for v in a.values], dtype=np.int64) for a in axes)
    pairs: list[tuple[Any, Any]] = []
    if order:
        where = {a.key: i for i, a in enumerate(axes)}

        def ref(key: str) -> tuple[str, int]:
            return ("axis", where[key]) if key in where else ("value", int(fixed_pays[key] * scale))
        for better, worse in zip(keys, keys[1:]):
            if better in where or worse in where:
                pairs.append((ref(better), ref(worse)))
    return PayGrid(settlement=index.settlement, slots=slots, axes=tuple(axes), fixed_pays=fixed_pays, scale=scale,
                   situations=table.n_situations, rows=rows, fixed=tuple(int(x) for x in fixed),
                   scaled=scaled, order=tuple(pairs))


def _add_row(sums: list[int], row: list[int]) -> None:
    """Add a pay's row into ``sums`` (the largest net result is the maximum, not the sum)."""
    for j in _SUMMED:
        sums[j] += row[j]
    sums[_BEST] = max(sums[_BEST], row[_BEST])


def _summed_rows(index: ThresholdIndex, slots: list[Slot], pays: dict[str, Fraction], scale: int) -> list[int]:
    """The rows of these pays at these values, summed; the largest net result starts at the
    smallest there is, a lost raise."""
    sums = [0, 0, 0, 0, int(index.settlement.net(None, "dealer_wins") * scale)]
    for s in slots:
        _add_row(sums, _slot_row(index, s, pays[s.key], scale))
    return sums


def _figures(sums: list[int], pays: dict[str, Fraction], scale: int, situations: int, settlement: Settlement) -> Candidate:
    """Exact figures from a candidate's summed row."""
    total, second, raised, hits, best = sums
    t = situations * COMPLETIONS
    edge = Fraction(-total, scale * t)
    stake = settlement.average_stake(Fraction(raised, situations))
    return Candidate(pays=pays, total_loss=Fraction(-total, scale), house_edge=edge,
                     element_of_risk=edge / stake,
                     variance=Fraction(second, scale * scale * t) - edge * edge, hit_frequency=Fraction(hits, t),
                     raise_probability=Fraction(raised, situations), largest_win=Fraction(best, scale))


def evaluate_pays(index: ThresholdIndex, variant: Variant, pays: dict[str, Fraction]) -> Candidate:
    """Exact figures of the variant with some pays replaced (keys as in the variant file), from
    the threshold index of its ante pays: milliseconds, no pass over the count table."""
    slots = pay_slots(variant)
    full = {s.key: Fraction(pays.get(s.key, variant.raise_pays[s.categories[0]])) for s in slots}
    scale = math.lcm(index.ante_no_qualify.denominator, index.ante_win.denominator,
                     *(v.denominator for v in full.values()))
    return _figures(_summed_rows(index, list(slots), full, scale), full, scale, index.table.n_situations, index.settlement)
