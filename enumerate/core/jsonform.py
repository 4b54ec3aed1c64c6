"""The one machine-readable convention of studodds (``--json`` and ``summary.json``).

* Every exact rational -- a probability, an edge, an EV, a pay -- is the object
  ``{"exact": "p/q", "value": <float>}``: ``exact`` is the reduced fraction as text (``"7"``
  for an integer), ``value`` the nearest double, for reading only.
* Counts (combinations, situations) are JSON integers; Python's integers are exact at any size.
* A float on its own is an approximation of an irrational figure (a standard deviation) and its
  key says so by having no ``exact`` partner.
* Keys are snake_case; hand categories use the variant file's names (``full_house``,
  ``two_pairs``, ...).  Every top-level object has ``"kind"``.

The JSON Schema of every kind is ``studodds/schema.json``; the shapes declared as TypedDicts
(:mod:`enumerate.core.shapes`) are generated into it.
"""
from __future__ import annotations

from fractions import Fraction

from enumerate.core.shapes import Exact


def exact(value: Fraction | int) -> Exact:
    """``{"exact": "p/q", "value": float}`` of a rational.

    >>> exact(Fraction(3, 8))
    {'exact': '3/8', 'value': 0.375}
    """
    v = Fraction(value)
    return {"exact": str(v), "value": float(v)}


def exact_or_none(value: Fraction | int | None) -> Exact | None:
    """:func:`exact`, or None (JSON ``null``) for a figure that is not available."""
    return None if value is None else exact(value)

