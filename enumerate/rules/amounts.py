"""Amounts as a variant file writes them: pays, ante pays, side-bet pays, meter shares.

An amount is an exact non-negative rational.  A file may write it as an integer (``7``), a
fraction or decimal in a string (``"5/2"``, ``"2.5"``), a percentage (``"70%"``) or a TOML float
(``2.5``, read as the decimal the file wrote, never as the binary double).  Every rule type of
:mod:`enumerate.rules` and every option that takes an amount parses it here, so one set of
limits holds everywhere: at most :data:`MAX_PAY`, with a denominator of at most :data:`MAX_PAY`.

Text is checked before it is turned into a number (:func:`parse_rational`): at most
:data:`MAX_DIGITS` digits and an exponent of at most :data:`MAX_EXPONENT` either way, so no input
keeps the parser busy (``"1e999999999"`` would ask for a number of a billion digits).
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from evaluator.errors import StudoddsError

#: Largest pay accepted ("to 1", or a multiple of the side wager, or a meter seed / cap).
MAX_PAY = 10**9
#: Most digits a number written as text may have (numerator and denominator each).
MAX_DIGITS = 40
#: Largest exponent (either sign) of a number written as text, as in 2.5e3.
MAX_EXPONENT = 40

_DECIMAL = re.compile(r"[+-]?(?:(?P<int>\d+)(?:\.(?P<frac>\d*))?|\.(?P<frac2>\d+))(?:[eE](?P<exp>[+-]?\d+))?")
_RATIO = re.compile(r"[+-]?(?P<num>\d+)\s*/\s*(?P<den>\d+)")


def parse_rational(text: str) -> Fraction:
    """An exact rational from text -- ``7``, ``-2.5``, ``"5/2"``, ``1.5e3`` -- refused (StudoddsError)
    unless its digits and exponent are within :data:`MAX_DIGITS` and :data:`MAX_EXPONENT`, so it
    is decided at once whatever the text.

    >>> parse_rational("1.5e3"), parse_rational(" 5/2 ")
    (Fraction(1500, 1), Fraction(5, 2))
    """
    t = text.strip()
    m = _DECIMAL.fullmatch(t)
    if m:
        digits = len(m.group("int") or "") + len(m.group("frac") or m.group("frac2") or "")
        exponent = int(m.group("exp")) if m.group("exp") and len(m.group("exp")) <= 6 else (0 if not m.group("exp") else None)
        if digits > MAX_DIGITS or exponent is None or abs(exponent) > MAX_EXPONENT:
            raise StudoddsError(f"{_shown(text)}: at most {MAX_DIGITS} digits and an exponent of at most "
                                f"{MAX_EXPONENT} either way")
        return Fraction(t)
    m = _RATIO.fullmatch(t)
    if m:
        if max(len(m.group("num")), len(m.group("den"))) > MAX_DIGITS:
            raise StudoddsError(f"{_shown(text)}: at most {MAX_DIGITS} digits above and below the line")
        if int(m.group("den")) == 0:
            raise StudoddsError(f"{_shown(text)} is not a number (a zero denominator)")
        return Fraction(t.replace(" ", ""))
    raise StudoddsError(f"{_shown(text)} is not a number (write 7, \"5/2\", \"2.5\" or \"70%\")")


def _shown(text: str) -> str:
    """A piece of user text for a message: its repr, cut to 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


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
        result = parse_rational(text) * scale
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
