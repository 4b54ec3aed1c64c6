"""Renderings of an :class:`~enumerate.analysis.Analysis`: plain text and JSON-ready dicts.

In JSON every exact value is a fraction string (``"-1041372912372/19933230517200"``) next
to a rounded float for reading; counts are integers.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from enumerate.analysis import Analysis


def exact(value: Fraction | int) -> str:
    """Exact text of a rational: ``"3/7"``, or ``"12"`` when it is an integer."""
    return str(Fraction(value))


def _figure(value: Fraction) -> dict[str, Any]:
    return {"exact": exact(value), "value": float(value)}


def pays_text(value: Fraction) -> str:
    v = Fraction(value)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def analysis_dict(a: Analysis) -> dict[str, Any]:
    """Every figure of the analysis, exact values as fraction strings."""
    v = a.variant
    return {
        "variant": v.name,
        "description": v.description,
        "qualifier": {"label": v.qualifier.label, "threshold_strength": v.qualifier.threshold},
        "raise_pays": {c.label: exact(p) for c, p in sorted(v.raise_pays.items(), reverse=True)},
        "royal_separate": v.royal_separate,
        "ante_pays": {"dealer_does_not_qualify": exact(v.ante_no_qualify),
                      "player_wins": exact(v.ante_win)},
        "total_combinations": a.total_combinations,
        "total_loss_antes": _figure(a.total_loss),
        "house_edge_per_ante": _figure(a.house_edge),
        "element_of_risk_per_total_wager": _figure(a.element_of_risk),
        "expected_return_per_ante": _figure(a.expected_return),
        "average_total_wager_antes": _figure(a.average_wager),
        "variance_per_ante_squared": _figure(a.variance),
        "standard_deviation_per_ante": a.standard_deviation,
        "raise_probability": _figure(a.raise_probability),
        "raised_situations": a.raised_situations,
        "indifferent_situations": a.indifferent_situations,
        "dealer_qualifies_probability": _figure(a.dealer_qualifies),
        "hit_frequency": _figure(a.hit_frequency),
        "return_table": [
            {"event": r.event, "pays": exact(r.pays), "combinations": r.combinations,
             "probability": _figure(r.probability), "return": _figure(r.contribution)}
            for r in a.rows
        ],
    }


def return_table_text(a: Analysis) -> str:
    lines = [f"{'event':<34} {'pays':>6} {'combinations':>20} {'probability':>12} {'return':>11}"]
    for r in a.rows:
        lines.append(f"{r.event:<34} {pays_text(r.pays):>6} {r.combinations:>20,} "
                     f"{float(r.probability):>12.8f} {float(r.contribution):>11.7f}")
    total_p = sum((r.probability for r in a.rows), Fraction(0))
    lines.append(f"{'total':<34} {'':>6} {a.total_combinations:>20,} {float(total_p):>12.8f} "
                 f"{float(a.expected_return):>11.7f}")
    return "\n".join(lines)


def summary_text(a: Analysis) -> str:
    v = a.variant
    pays = ", ".join(f"{c.label} {pays_text(p)}" for c, p in sorted(v.raise_pays.items(), reverse=True)
                     if v.royal_separate or c.name != "ROYAL_FLUSH")
    return "\n".join([
        f"Variant: {v.name}" + (f" - {v.description}" if v.description else ""),
        f"Raise pays (to 1): {pays}",
        f"Ante pays: {pays_text(v.ante_no_qualify)} to 1 if the dealer does not qualify, "
        f"{pays_text(v.ante_win)} to 1 if the player wins; qualifier: {v.qualifier.label}",
        "",
        return_table_text(a),
        "",
        f"Total combinations          {a.total_combinations:,}",
        f"Total loss (antes)          {_plain(a.total_loss)}",
        f"House edge (per ante)       {float(a.house_edge):.6%}   exact {exact(a.house_edge)}",
        f"Element of risk (per total) {float(a.element_of_risk):.6%}   exact {exact(a.element_of_risk)}",
        f"Standard deviation (antes)  {a.standard_deviation:.6f}",
        f"Average total wager (antes) {float(a.average_wager):.6f}",
        f"Probability of raising      {float(a.raise_probability):.6%}",
        f"Dealer qualifies            {float(a.dealer_qualifies):.6%}",
        f"Hit frequency               {float(a.hit_frequency):.6%}",
    ])


def _plain(value: Fraction) -> str:
    v = Fraction(value)
    return f"{v.numerator:,}" if v.denominator == 1 else f"{exact(v)} (= {float(v):,.3f})"
