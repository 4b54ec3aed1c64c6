"""The simulation check in words: for the terminal and for the certified report.

Every simulated figure is labelled as sampled, with its 95% interval; the exact figure it is
compared with is beside it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from studodds.reports.layout import columns

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.simulation.simulate import FrequencyCheck, ReturnCheck, Simulation


def _pct(x: float) -> str:
    return f"{x:+.4%}"


def return_cells(r: ReturnCheck) -> list[str]:
    """name, per, simulated, 95% interval, exact, z -- as text."""
    e = r.estimate
    low, high = e.interval
    z = e.z
    return [r.name, r.unit, _pct(float(e.value)), f"{_pct(low)} .. {_pct(high)}",
            "-" if e.exact is None else _pct(float(e.exact)), "-" if z is None else f"{z:+.2f}"]


def frequency_cells(f: FrequencyCheck, games: int) -> list[list[str]]:
    """outcome, observed, frequency, exact probability, expected -- one list per row."""
    return [[r.label or r.outcome, f"{r.observed:,}", f"{r.observed / games:.8f}", f"{float(r.probability):.8f}",
             f"{float(r.probability) * games:,.1f}"] for r in f.rows]


def test_text(f: FrequencyCheck) -> str:
    t = f.test
    label = {r.outcome: r.label or r.outcome for r in f.rows}
    text = f"chi-square {t.statistic:.2f} on {t.dof} degrees of freedom, p = {t.p_value:.4g}"
    if t.pooled:
        text += f" (rows expecting fewer than 5 games pooled: {', '.join(label.get(x, x) for x in t.pooled)})"
    if t.impossible:
        text += f"; observed although impossible: {', '.join(label.get(x, x) for x in t.impossible)}"
    return text


def simulation_text(s: Simulation) -> str:
    """What ``studodds simulate`` prints."""
    lines = [f"Simulation of {s.variant}, {s.strategy} strategy: {s.games:,} games, seed {s.seed} (sampled)",
             f"Generator: {s.generator}"]
    if s.seconds:
        rate = s.games / s.seconds
        lines.append((f"{rate / 1e6:,.1f} million games/s" if rate >= 1e5 else f"{rate:,.0f} games/s")
                     + (f" on {s.threads} threads" if s.threads else " on the Dask cluster") + f", {s.seconds:.1f} s")
    lines += ["", "Returns (net, per unit named; 95% interval of the simulated figure)"]
    lines += ["  " + x for x in columns([["", "per", "simulated", "95% interval", "exact", "z"],
                                         *(return_cells(r) for r in s.returns)]).splitlines()]
    for f in s.frequencies:
        lines += ["", f"{f.name[0].upper() + f.name[1:]}: frequencies"]
        lines += ["  " + x for x in columns([["outcome", "observed", "frequency", "probability", "expected"],
                                             *frequency_cells(f, s.games)]).splitlines()]
        lines.append("  " + test_text(f))
    lines += [f"Note: {n}" for n in s.notes]
    lines += ["", f"Verdict: {s.verdict}"]
    return "\n".join(lines)


def simulation_markdown(s: Simulation) -> list[str]:
    """The "Simulation check" section of a certified report (Markdown lines)."""
    out = ["## Simulation check", "",
           f"An independent check, **sampled**: {s.games:,} games dealt from shuffled decks (seed {s.seed}; "
           f"{s.generator}), played with the {s.strategy} strategy and settled from the rules alone, "
           "compared with the exact figures above.", "",
           "| return | per | simulated | 95% interval | exact | z |", "|---|---|---:|---:|---:|---:|"]
    out += ["| " + " | ".join(return_cells(r)) + " |" for r in s.returns]
    for f in s.frequencies:
        out += ["", f"**{f.name[0].upper() + f.name[1:]}**: {test_text(f)}.", "",
                "| outcome | observed | frequency | probability | expected |", "|---|---:|---:|---:|---:|"]
        out += ["| " + " | ".join(c) + " |" for c in frequency_cells(f, s.games)]
    out += [""] + [f"Note: {n}" for n in s.notes] + ([""] if s.notes else [])
    out += [f"**Verdict:** {s.verdict}.", ""]
    return out
