"""Searching a space of paytables: every candidate of a grid against bounds on its figures, the
feasible set and its Pareto front, locally or on a Dask cluster.

The grid is cut into chunks of :data:`CHUNK` candidates; a chunk returns its counts, its local
Pareto front and (when asked) its feasible rows.  The global front is the front of the union of
the local fronts, so the result does not depend on how the chunks were run: the same
:class:`SearchResult` locally, on any number of threads or on Dask workers.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Literal, TypedDict

import numpy as np

from enumerate.core.engine import CountTable
from enumerate.core.parallel import chunked_map
from enumerate.core.shapes import Count, Pattern, shape
from enumerate.core.tabular import tabular
from enumerate.design.criteria import Bound, BoundJSON, Objective, feasible, objective_keys, pareto_front
from enumerate.design.grid import Axis, Block, Candidate, DesignAxisJSON, DesignCandidateJSON, PayGrid, build_grid
from enumerate.rules.variant import Variant, VariantJSON
from evaluator.errors import ParameterError, StudoddsError

#: Candidates per chunk.
CHUNK = 1 << 19
#: The default front: the casino's best edge for each level of player appeal.
DEFAULT_OBJECTIVES = (Objective("house_edge", True), Objective("hit_frequency", True))
#: Feasible candidates kept for the picture (beyond it, every k-th one for the least power of two k).
PLOT_POINTS = 200_000


@dataclass
class ChunkResult:
    """What one chunk of a search returns."""

    start: int
    evaluated: int
    ordered: int
    feasible: int
    front: Block                  # the chunk's own Pareto front
    rows: Block | None            # its feasible candidates, when asked for


def run_chunk(grid: PayGrid, start: int, stop: int, bounds: tuple[Bound, ...], objectives: tuple[Objective, ...],
              want_rows: bool) -> ChunkResult:
    """Evaluate candidates start..stop-1 of the grid (pure numpy on the grid's rows)."""
    block = grid.block(start, stop)
    ok = block.take(feasible(grid, block, bounds))
    front = ok.take(pareto_front(objective_keys(grid, ok, objectives)))
    return ChunkResult(start, stop - start, len(block), len(ok), front, ok if want_rows else None)


@shape("design_search", document=True)
class DesignSearchJSON(TypedDict):
    """The JSON of a paytable search: the feasible candidates' count and Pareto front."""

    kind: Literal["design_search"]
    variant: VariantJSON
    moving_pays: list[DesignAxisJSON]
    bounds: list[BoundJSON]
    objectives: list[Annotated[str, Pattern("^[a-z_]+:(max|min)$")]]
    better_hand_never_pays_less: bool
    candidates: Count
    ordered_candidates: Count
    feasible_candidates: Count
    pareto_front: list[DesignCandidateJSON]
    note: str


@tabular("pareto_front", 'Pareto-front paytables')
@dataclass(frozen=True)
class SearchResult:
    """A search: the space, the bounds, how many candidates met them, and the exact Pareto front
    (kind "design_search")."""

    variant: Variant
    axes: tuple[Axis, ...]
    bounds: tuple[Bound, ...]
    objectives: tuple[Objective, ...]
    ordered_only: bool
    candidates: int               # the grid's size
    ordered: int                  # of which a better hand never pays less (all without ordering)
    feasible: int                 # of which every bound holds
    front: tuple[Candidate, ...]  # best first by the first objective
    seconds: float
    plot_points: dict[str, np.ndarray] | None = None   # float figures of (a sample of) the feasible set

    @property
    def rate(self) -> float:
        """Candidates evaluated per second."""
        return self.candidates / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> DesignSearchJSON:
        return {"kind": "design_search", "variant": self.variant.to_dict(),
                "moving_pays": [a.to_dict() for a in self.axes], "bounds": [b.to_dict() for b in self.bounds],
                "objectives": [o.text() for o in self.objectives], "better_hand_never_pays_less": self.ordered_only,
                "candidates": self.candidates, "ordered_candidates": self.ordered, "feasible_candidates": self.feasible,
                "pareto_front": [c.to_dict() for c in self.front],
                "note": "every figure is exact for the optimal strategy of its paytable"}


def _chunks(size: int, chunk: int) -> list[tuple[int, int]]:
    return [(s, min(s + chunk, size)) for s in range(0, size, chunk)]


def search(table: CountTable, variant: Variant, axes: list[Axis] | tuple[Axis, ...], *,
           bounds: tuple[Bound, ...] = (), objectives: tuple[Objective, ...] = DEFAULT_OBJECTIVES,
           ordered: bool = True, scheduler: str | None = None, threads: int = 1, chunk: int = CHUNK,
           rows: Callable[[PayGrid, Block], None] | None = None, points: bool = True,
           progress: Callable[[int], None] | None = None) -> SearchResult:
    """Every candidate paytable of the grid of ``axes`` (the variant's other pays fixed) against
    ``bounds``: how many are feasible and their exact Pareto front under ``objectives``.
    ``rows(grid, block)`` receives the feasible candidates chunk by chunk (in grid order); with
    ``points`` the result keeps the figures of (a sample of) the feasible set for a picture.
    Without either, chunks return only their counts and fronts."""
    if not axes:
        raise ParameterError("vary", "a search needs at least one pay to move (KEY=LO..HI)")
    if not objectives:
        raise StudoddsError("a search needs at least one objective")
    for bound in bounds:
        bound.check_table(variant)
    start = time.perf_counter()
    grid = build_grid(table, variant, axes, order=ordered)
    chunks = _chunks(grid.size, chunk)
    want_rows = rows is not None or points
    # in chunk order wherever they run (the same result as the local run); locally on a pool of
    # threads, numpy releasing the GIL in its loops
    results = (part for _, part in chunked_map(((a, (a, b, bounds, objectives, want_rows)) for a, b in chunks),
                                               local=run_chunk, remote=run_chunk, scheduler=scheduler,
                                               threads=threads, shared=(grid,), pool=True, ordered=True))
    fronts, n_ordered, n_feasible = [], 0, 0
    sample: list[tuple[np.ndarray, Block]] = []              # (feasible ordinals, rows) kept for the picture
    stride = 1
    for r in results:
        if r.rows is not None:
            if rows is not None:
                rows(grid, r.rows)
            if points:
                ordinal = n_feasible + np.arange(len(r.rows), dtype=np.int64)
                keep = ordinal % stride == 0
                sample.append((ordinal[keep], r.rows.take(keep)))
                while sum(len(b) for _, b in sample) > PLOT_POINTS:   # an even sample: every stride-th
                    stride *= 2
                    sample = [(o[o % stride == 0], b.take(o % stride == 0)) for o, b in sample]
        n_ordered += r.ordered
        n_feasible += r.feasible
        fronts.append(r.front)
        if progress:
            progress(r.evaluated)
    merged = Block.concat(fronts, len(grid.axes))
    front = merged.take(pareto_front(objective_keys(grid, merged, objectives)))
    best = tuple(grid.candidate(front.at[:, j]) for j in range(len(front)))
    seconds = time.perf_counter() - start
    sampled = grid.floats(Block.concat([b for _, b in sample], len(grid.axes))) if sample else None
    return SearchResult(variant, grid.axes, tuple(bounds), tuple(objectives), ordered, grid.size, n_ordered,
                        n_feasible, best, seconds, sampled)
