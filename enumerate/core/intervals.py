"""Confidence intervals shared by every sampled figure (simulation, the progressive's renewal
cycles, the sampled game with switches of any number of cards).

* :data:`Z95`: the two-sided 95% quantile of the standard normal, Phi^-1(0.975).
* :func:`wilson`: Wilson's score interval of a proportion, hits / n, which stays inside [0, 1]
  and keeps a width when no hit (or every one) was seen:

      (p + z^2 / 2n  +-  z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2 / n).

>>> round(Z95, 6)
1.959964
>>> [round(x, 4) for x in wilson(0, 100)]
[0.0, 0.037]
"""
from __future__ import annotations

import math

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(hits: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion (``(0, 1)`` when ``n`` is 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    d = 1 + Z95 ** 2 / n
    c = (p + Z95 ** 2 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))
