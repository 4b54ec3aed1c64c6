"""What a paytable change changes: headline figures, return tables, and the situations whose
optimal action flips."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from evaluator.cards import RANKS
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category
from enumerate.analysis import Analysis, RaiseValue
from enumerate.engine import CountTable


@dataclass(frozen=True)
class Flips:
    """Concrete situations (of 122,151,120) whose optimal action changes from A to B, by player
    category and up-card rank: ``cells[(category, up_rank)] = (raise->fold, fold->raise)``."""

    to_fold: int
    to_raise: int
    cells: dict


def flips(counts_a: CountTable, a, counts_b: CountTable, b) -> Flips:
    ra, rb = RaiseValue.of(a).optimal(counts_a), RaiseValue.of(b).optimal(counts_b)
    w = counts_a.weight.astype(np.int64)[:, None]
    cat = CATEGORY_BY_STRENGTH[counts_a.strength].astype(np.int64)[:, None]
    up_rank = counts_a.up.astype(np.int64) >> 2
    cells: dict = {}
    for direction, mask in ((0, ra & ~rb), (1, ~ra & rb)):
        key = (np.broadcast_to(cat, mask.shape) * 13 + up_rank)[mask]
        weighted = np.zeros(130, dtype=np.int64)
        np.add.at(weighted, key, np.broadcast_to(w, mask.shape)[mask])
        for k in np.flatnonzero(weighted):               # weights are >= 1: non-zero = non-empty
            cell = cells.setdefault((Category(int(k) // 13), int(k) % 13), [0, 0])
            cell[direction] = int(weighted[k])
    to_fold = sum(v[0] for v in cells.values())
    to_raise = sum(v[1] for v in cells.values())
    return Flips(to_fold, to_raise, {k: tuple(v) for k, v in sorted(cells.items())})


def diff_text(a: Analysis, b: Analysis, f: Flips) -> str:
    def line(name: str, x: Fraction, y: Fraction, pct: bool = True) -> str:
        fmt = (lambda v: f"{float(v):.6%}") if pct else (lambda v: f"{float(v):,.6f}")
        return f"{name:<28} {fmt(x):>16} -> {fmt(y):>16}   delta {fmt(y - x):>12}  exact {y - x}"

    out = [f"A: {a.variant.name}    B: {b.variant.name}", "",
           line("house edge (per ante)", a.house_edge, b.house_edge),
           line("element of risk", a.element_of_risk, b.element_of_risk),
           line("expected return (per ante)", a.expected_return, b.expected_return),
           line("probability of raising", a.raise_probability, b.raise_probability),
           line("hit frequency", a.hit_frequency, b.hit_frequency),
           f"{'standard deviation (antes)':<28} {a.standard_deviation:>16.6f} -> {b.standard_deviation:>16.6f}   "
           f"delta {b.standard_deviation - a.standard_deviation:>12.6f}",
           f"{'total loss (antes)':<28} {float(a.total_loss):>16,.0f} -> {float(b.total_loss):>16,.0f}   "
           f"delta exact {b.total_loss - a.total_loss}",
           "", f"{'event':<34} {'pays A':>7} {'return A':>11} {'pays B':>7} {'return B':>11} {'delta':>11}"]
    rows_b = {r.event: r for r in b.rows}
    events = [r.event for r in a.rows] + [r.event for r in b.rows if r.event not in {x.event for x in a.rows}]
    rows_a = {r.event: r for r in a.rows}
    for e in events:
        ra, rb = rows_a.get(e), rows_b.get(e)
        pa = str(ra.pays) if ra else "-"
        pb = str(rb.pays) if rb else "-"
        ca = ra.contribution if ra else Fraction(0)
        cb = rb.contribution if rb else Fraction(0)
        out.append(f"{e:<34} {pa:>7} {float(ca):>11.7f} {pb:>7} {float(cb):>11.7f} {float(cb - ca):>+11.7f}")
    out += ["", f"Optimal action flips: {f.to_fold:,} situations raise -> fold, {f.to_raise:,} fold -> raise "
                f"(of 122,151,120)"]
    if f.cells:
        out.append(f"{'player hand':<18} {'up card':>7} {'raise->fold':>12} {'fold->raise':>12}")
        for (cat, up), (tf, tr) in f.cells.items():
            out.append(f"{cat.label:<18} {RANKS[up]:>7} {tf:>12,} {tr:>12,}")
    return "\n".join(out)
