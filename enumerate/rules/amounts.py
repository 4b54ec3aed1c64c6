"""Amounts as a variant file writes them: pays, ante pays, side-bet pays, meter shares.

An amount is an exact non-negative rational.  A file may write it as an integer (``7``), a
fraction or decimal in a string (``"5/2"``, ``"2.5"``), a percentage (``"70%"``) or a TOML float
(``2.5``, read as the decimal the file wrote, never as the binary double).  Every rule type of
:mod:`enumerate.rules` and every option that takes an amount parses it here, so one set of
limits holds everywhere: at most :data:`MAX_PAY`, with a denominator of at most :data:`MAX_PAY`.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from evaluator.errors import StudoddsError

#: Largest pay accepted ("to 1", or a multiple of the side wager, or a meter seed / cap).
MAX_PAY = 10**9


def parse_amount(value: Any, *, allow_zero: bool = True) -> Fraction:
    """An exact non-negative rational from a TOML value: 7, "5/2", "2.5", "70%", or 2.5."""
    if isinstance(value, bool):
        raise StudoddsError("must be a number, not true/false")
    if isinstance(value, int):
        result = Fraction(value)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise StudoddsError("must be a finite number")
        result = Fraction(repr(value))            # the decimal the file wrote, exactly
    elif isinstance(value, str):
        text = value.strip()
        scale = Fraction(1)
        if text.endswith("%"):
            text, scale = text[:-1].strip(), Fraction(1, 100)
        try:
            result = Fraction(text) * scale
        except (ValueError, ZeroDivisionError):
            raise StudoddsError(f"{value!r} is not a number (write 7, \"5/2\", \"2.5\" or \"70%\")") from None
    else:
        raise StudoddsError(f"must be a number, got {type(value).__name__}")
    if result < 0:
        raise StudoddsError(f"must not be negative, got {value}")
    if result > MAX_PAY:
        raise StudoddsError(f"too large: at most {MAX_PAY:,}")
    if result.denominator > MAX_PAY:
        raise StudoddsError(f"denominator too large: at most {MAX_PAY:,}")
    if not allow_zero and result == 0:
        raise StudoddsError("must be positive")
    return result
