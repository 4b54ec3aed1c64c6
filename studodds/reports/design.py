"""Paytable design for the terminal and on disk: sensitivity, solve and search as text, the
feasible set as CSV, and the Pareto front as a picture (PNG, needs matplotlib)."""
from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from enumerate.core.atomic import atomic_write_text
from enumerate.design.criteria import FIGURES
from enumerate.design.grid import Block, Candidate, PayGrid
from enumerate.design.search import SearchResult
from enumerate.design.sensitivity import FlipSet, Sensitivity
from enumerate.design.solve import SolveResult
from studodds.reports.plots import _save, pyplot
from studodds.reports.text import pays_text

_PERCENT = {"house_edge", "element_of_risk", "rtp", "hit_frequency", "raise_probability"}


def _figure(name: str, value: Fraction | float) -> str:
    return f"{float(value):.6%}" if name in _PERCENT else f"{float(value):.6f}"


def _flip(f: FlipSet | None, side: str) -> str:
    if f is None:
        return f"    {side}: no flip" + (" down to a pay of 0" if side == "below" else " however large the pay")
    cats = ", ".join(f"{k} {n:,}" for k, n in f.by_category.items())
    ex = "; ".join(f"{h} vs {u}" for h, u in f.examples)
    what = "start to raise above" if f.direction == "fold_to_raise" else "stop raising at or below"
    return f"    {side}: {f.situations:,} situations ({cats}) {what} {pays_text(f.at)} (= {float(f.at):.6f}); e.g. {ex}"


def sensitivity_text(s: Sensitivity) -> str:
    a = s.analysis
    lines = [f"{a.variant.name}: house edge {float(a.house_edge):.6%}, element of risk {float(a.element_of_risk):.6%}",
             "Per unit of each pay at the current optimal strategy (exact values: --json); the strategy stays",
             "optimal while the pay stays in (from, to].", "",
             f"{'pay':<30} {'value':>8} {'edge per unit':>14} {'total loss per unit':>22} {'from':>12} {'to':>12}"]
    for p in s.pays:
        lo = "0" if p.lower is None else f"{float(p.lower.at):.6f}"
        hi = "inf" if p.upper is None else f"{float(p.upper.at):.6f}"
        lines.append(f"{p.pay:<30} {pays_text(p.value):>8} {float(p.house_edge_per_unit):>14.6%} "
                     f"{float(p.total_loss_per_unit):>22,.0f} {lo:>12} {hi:>12}")
    lines.append("")
    lines.append("Flip points (situations of 122,151,120):")
    for p in s.pays:
        if p.lower is None and p.upper is None:
            continue
        lines.append(f"  {p.pay}:")
        lines.append(_flip(p.lower, "below"))
        lines.append(_flip(p.upper, "above"))
    return "\n".join(lines)


def _pays(c: Candidate, keys: list[str]) -> str:
    return " ".join(f"{k}={pays_text(c.pays[k])}" for k in keys)


def _candidate_line(c: Candidate, keys: list[str]) -> str:
    return (f"{_pays(c, keys):<40} edge {float(c.house_edge):.6%}  EoR {float(c.element_of_risk):.6%}  "
            f"hit {float(c.hit_frequency):.4%}  SD {c.standard_deviation:.4f}  max win {pays_text(c.largest_win)}")


def solve_text(r: SolveResult) -> str:
    keys = [a.key for a in r.axes]
    lines = [f"{r.variant.name}: target {r.target.figure} = {_figure(r.target.figure, r.target.value)} "
             f"({r.target.value}), moving {', '.join(keys)}",
             f"{r.candidates:,} candidates, {r.ordered:,} with a better hand never paying less"
             if r.ordered_only else f"{r.candidates:,} candidates (any order of pays)",
             f"{r.exact_hits:,} reach the target exactly; solved in {r.seconds:.2f} s", ""]
    if r.exact_pay is not None:
        e = r.exact_pay
        if e.value is not None:
            lines.append(f"exact pay: {e.pay} = {e.value} (= {float(e.value):.9f}): {e.note}")
        else:
            lines.append(f"exact pay: {e.note}")
        lines.append("")
    lines.append("closest candidates (exact figures, distance to the target):")
    for c, d in r.best:
        lines.append(f"  {_candidate_line(c, keys)}  distance {float(d):.3e}")
    return "\n".join(lines)


def search_text(r: SearchResult) -> str:
    keys = [a.key for a in r.axes]
    lines = [f"{r.variant.name}: moving {', '.join(keys)}",
             f"{r.candidates:,} candidates in {r.seconds:.2f} s, all included ({r.rate:,.0f} per second); "
             + (f"{r.ordered:,} with a better hand never paying less; " if r.ordered_only else "")
             + f"{r.feasible:,} feasible"]
    for b in r.bounds:
        lo = "" if b.lo is None else _figure(b.figure, b.lo)
        hi = "" if b.hi is None else _figure(b.figure, b.hi)
        lines.append(f"  bound: {b.figure} in [{lo or '-inf'}, {hi or 'inf'}]")
    lines.append(f"Pareto front ({', '.join(o.text() for o in r.objectives)}): {len(r.front)} paytables")
    for c in r.front:
        lines.append(f"  {_candidate_line(c, keys)}")
    return "\n".join(lines)


def csv_writer(path: Path) -> tuple[Any, Any]:
    """(callback for :func:`enumerate.design.search.search`'s ``rows``, finish()) writing every
    feasible candidate to ``path`` atomically: pays exact, figures as exact fractions in lowest
    terms (house edge, hit frequency: as everywhere else) and doubles."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    state: dict[str, Any] = {"header": False}

    def rows(grid: PayGrid, block: Block) -> None:
        keys = [a.key for a in grid.axes]
        if not state["header"]:
            out.writerow([*keys, "house_edge_exact", "hit_frequency_exact", *FIGURES])
            state["header"] = True
        floats = grid.floats(block)
        unit, t = grid.scale * grid.combinations, grid.combinations
        pays = [np.array([pays_text(v) for v in a.values], dtype=object)[block.at[i]] for i, a in enumerate(grid.axes)]
        edge = [str(Fraction(-int(x), unit)) for x in block.sums["total"]]
        hit = [str(Fraction(int(x), t)) for x in block.sums["hits"]]
        cols = [floats[name] for name in FIGURES]
        for j in range(len(block)):
            out.writerow([*(p[j] for p in pays), edge[j], hit[j], *(f"{c[j]:.10g}" for c in cols)])

    def finish() -> None:
        atomic_write_text(path, buf.getvalue())
    return rows, finish


def front_picture(r: SearchResult, path: Path) -> None:
    """The feasible set (grey, a sample beyond 200,000) and its Pareto front (red) on the first
    two objectives, as a PNG."""
    plt = pyplot()
    objectives = r.objectives[:2] if len(r.objectives) >= 2 else (r.objectives[0], r.objectives[0])
    y, x = objectives[0].figure, objectives[1].figure
    scale = {k: 100.0 if k in _PERCENT else 1.0 for k in FIGURES}
    fig, ax = plt.subplots(figsize=(8, 5.5))
    if r.plot_points is not None and len(r.plot_points[x]):
        size = 14 if len(r.plot_points[x]) < 5_000 else 4
        ax.scatter(r.plot_points[x] * scale[x], r.plot_points[y] * scale[y], s=size, c="#a0a0a0", alpha=0.6,
                   linewidths=0, rasterized=True, label=f"feasible ({r.feasible:,})")
    fx = np.array([float(c.figure(x)) for c in r.front]) * scale[x]
    fy = np.array([float(c.figure(y)) for c in r.front]) * scale[y]
    order = np.argsort(fx)
    ax.plot(fx[order], fy[order], "-o", color="#c0392b", markersize=4, linewidth=1.2,
            label=f"Pareto front ({len(r.front)})")
    unit = {k: " (%)" if k in _PERCENT else (" (antes)" if k in ("standard_deviation", "largest_win") else "")
            for k in FIGURES}
    ax.set_xlabel(x.replace("_", " ") + unit[x])
    ax.set_ylabel(y.replace("_", " ") + unit[y])
    ax.set_title(f"{r.variant.name}: {r.candidates:,} paytables, {r.feasible:,} feasible\n"
                 f"moving {', '.join(a.key.replace('_', ' ') for a in r.axes)}", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower left", fontsize=9, framealpha=0.9)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)
