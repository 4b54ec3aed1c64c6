"""The public Python API: one call per question, card and variant arguments as text.

Every function takes the variant as a built-in name (``"us-common"``), a path to a variant file
(``str`` or ``pathlib.Path``) or a :class:`~enumerate.rules.variant.Variant`, and returns the
object the command line prints: its ``to_dict()`` is exactly the command's ``--json`` output.
Money is in antes (the ante wager is the unit); probabilities and edges are exact
``fractions.Fraction`` values.

Count tables (about 80 MB each) are loaded from the on-disk cache, or computed in about a
second and cached; the last two used are kept in memory (:func:`clear_memory` drops them).
``use_cache=False`` neither reads nor writes the disk cache and always recounts.
``threads`` sets the OpenMP threads of every parallel step (default: the CPUs available).
"""
from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, Union

from enumerate.analysis import Analysis
from enumerate.engine import CountTable
from enumerate.ev import HandEVs
from enumerate.ev_table import EVTable
from enumerate.parallel import check_threads, using_threads
from enumerate.paydiff import VariantDiff
from enumerate.progressive.figures import ProgressiveReport
from enumerate.rules.variant import Variant
from enumerate.rules.variant_file import DEFAULT_VARIANT, VariantSource
from enumerate.strategies import Strategy, StrategyComparison
from evaluator.errors import StudoddsError

#: A variant: a built-in name, a variant file path, or a Variant.
VariantLike = Union[str, "os.PathLike[str]", Variant]
#: Cards as text ("As Kd Jh 8c 3s") or card numbers 0..51 (rank * 4 + suit).
CardsLike = Union[str, Iterable[int]]

_TABLES: OrderedDict[int, CountTable] = OrderedDict()
_KEEP_TABLES = 2


def variant_source(variant: VariantLike) -> VariantSource:
    """The variant with its origin and file hash (a Variant object has no file: its origin is
    "python" and its hash is that of its JSON form)."""
    from enumerate.rules.variant_file import resolve
    if isinstance(variant, Variant):
        import hashlib
        import json
        text = json.dumps(variant.to_dict(), sort_keys=True)
        return VariantSource(variant, "python", text, hashlib.sha256(text.encode()).hexdigest())
    if isinstance(variant, os.PathLike):
        from enumerate.rules.variant_file import load_variant_file
        return load_variant_file(Path(variant))
    if isinstance(variant, str):
        return resolve(variant)
    raise StudoddsError(f"a variant is a built-in name, a file path or a Variant, not {type(variant).__name__}")


def load_variant(variant: VariantLike = DEFAULT_VARIANT) -> Variant:
    """The :class:`Variant` of a built-in name or a variant file (validated).

    >>> load_variant("us-common").qualifier.label
    'Ace/King or better'
    """
    return variant_source(variant).variant


def variants() -> list[Variant]:
    """The built-in variants, sorted by name."""
    from enumerate.rules.variant_file import builtin_names, load_builtin
    return [load_builtin(name).variant for name in builtin_names()]


def count_table(variant: VariantLike = DEFAULT_VARIANT, *, threads: int | None = None,
                use_cache: bool = True, progress: bool = False) -> CountTable:
    """The exact dealer-outcome counts of every situation for the variant's qualifier."""
    from enumerate.counts import load_or_compute
    v = load_variant(variant)
    q = v.qualifier.threshold
    check_threads(threads)
    if use_cache and q in _TABLES:                # use_cache=False always recounts
        _TABLES.move_to_end(q)
        return _TABLES[q]
    factory: Callable[[int], Any] | None = None
    if progress:
        from studodds.progress import bar_factory
        factory = bar_factory("counting")
    table = load_or_compute(q, use_cache=use_cache, threads=threads, progress_factory=factory)
    _TABLES[q] = table
    while len(_TABLES) > _KEEP_TABLES:
        _TABLES.popitem(last=False)
    return table


def clear_memory() -> None:
    """Drop the count tables kept in memory (the on-disk cache stays)."""
    _TABLES.clear()


def analyze(variant: VariantLike = DEFAULT_VARIANT, *, threads: int | None = None,
            use_cache: bool = True, progress: bool = False) -> Analysis:
    """Exact return table and figures of a variant under optimal strategy.

    >>> a = analyze("us-common")
    >>> a.total_loss
    Fraction(1041372912372, 1)
    >>> f"{float(a.house_edge):.6%}"
    '5.224306%'
    """
    from enumerate.analysis import analyze as _analyze
    v = load_variant(variant)
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    with using_threads(threads):
        return _analyze(table, v)


def hand(cards: CardsLike, up: str | int | None = None, *, variant: VariantLike = DEFAULT_VARIANT,
         threads: int | None = None, use_cache: bool = True) -> HandEVs:
    """Counts over the 163,185 dealer completions and exact EVs (antes) of a player hand
    against one up card, or against each of the 47 with the EV before the up card is seen.

    >>> h = hand("As Kd Jh 8c 3s", up="7d")
    >>> h.rows[0].action
    'fold'
    """
    from enumerate.ev import hand_report
    v = load_variant(variant)
    return hand_report(count_table(v, threads=threads, use_cache=use_cache), v, cards, up)


def strategies(variant: VariantLike = DEFAULT_VARIANT, *, extra: Mapping[str, Strategy] | None = None,
               raise_at_least: str | None = None, threads: int | None = None,
               use_cache: bool = True) -> StrategyComparison:
    """Exact figures of the optimal strategy and the simple strategies (raise everything,
    Ace/King or better, pair or better, A-K-J-8-3 or better, matching rank, the three rules of
    thumb), plus ``extra`` strategies ``f(hands, up) -> raise mask`` (see
    :mod:`enumerate.strategies`) and ``raise_at_least`` ("raise iff hand >= HAND", e.g. "AKJ83")."""
    from enumerate import strategies as st
    from enumerate.rules.qualifier import parse_qualifier
    v = load_variant(variant)
    named = st.simple_strategies()
    if raise_at_least is not None:
        try:
            threshold = parse_qualifier(raise_at_least)
        except StudoddsError as exc:
            raise StudoddsError(f"--raise-at-least: {exc}") from None
        named[f"{raise_at_least} or better"] = st.raise_at_least(threshold.threshold)
    named.update(extra or {})
    table = count_table(v, threads=threads, use_cache=use_cache)
    results, _ = st.evaluate(table, v, named, threads=threads)
    return StrategyComparison(v.name, tuple(results))


def ev_table(variant: VariantLike = DEFAULT_VARIANT, *, threads: int | None = None,
             use_cache: bool = True) -> EVTable:
    """The exact EV of every situation, one row per class up to suits (5,649,150 rows)."""
    from enumerate import ev_table as et
    v = load_variant(variant)
    return et.build(count_table(v, threads=threads, use_cache=use_cache), v)


def progressive(variant: VariantLike = "progressive-100-75-50", *, meter: Fraction | int | str | None = None,
                side_wager: Fraction | int | str = 1, threads: int | None = None,
                use_cache: bool = True) -> ProgressiveReport:
    """The progressive side bet exactly: hit probabilities, return against the meter,
    break-even meter, long run, several players, and the combined game at ``meter`` (default:
    the break-even meter) with a side wager of ``side_wager`` antes.  Amounts per unit side
    wager; the meter in side-wager units."""
    from enumerate.progressive.figures import report
    from enumerate.rules.variant_file import parse_amount
    v = load_variant(variant)
    if v.progressive is None:
        raise StudoddsError(f"variant {v.name!r} has no [progressive] side bet")
    try:
        m = parse_amount(meter) if meter is not None else None
    except StudoddsError as exc:
        raise StudoddsError(f"--meter: {exc}") from None
    try:
        s = parse_amount(side_wager, allow_zero=False)
    except StudoddsError as exc:
        raise StudoddsError(f"--side-wager: {exc}") from None
    table = count_table(v, threads=threads, use_cache=use_cache)
    with using_threads(threads):
        return report(table, v, m, s)


def diff(a: VariantLike, b: VariantLike, *, threads: int | None = None, use_cache: bool = True) -> VariantDiff:
    """What changes from variant ``a`` to ``b``: headline figures with exact deltas, the
    return tables, and the situations whose optimal action flips."""
    from enumerate.analysis import analyze as _analyze
    from enumerate.paydiff import flips
    va, vb = load_variant(a), load_variant(b)
    ca = count_table(va, threads=threads, use_cache=use_cache)
    cb = count_table(vb, threads=threads, use_cache=use_cache)
    with using_threads(threads):
        return VariantDiff(_analyze(ca, va), _analyze(cb, vb), flips(ca, va, cb, vb))


def openmp_enabled() -> bool:
    """True if the compiled modules were built with OpenMP (see :mod:`enumerate.parallel`)."""
    from enumerate.parallel import openmp_enabled as _enabled
    return _enabled()
