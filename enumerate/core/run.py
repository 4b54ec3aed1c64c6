"""The settings of one run -- threads, the cache, progress -- written once and checked once.

Every function of :mod:`studodds.api` takes them as keywords (``**run``, typed by
:class:`RunOptions`) and turns them into a :class:`Run` on entry: the thread count resolved to
an int (:func:`enumerate.core.parallel.resolve_threads`), the switches checked to be True or
False.  Everything below receives those values, never the keywords again.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, TypedDict

from enumerate.core.parallel import resolve_threads
from evaluator.errors import ParameterError


class RunOptions(TypedDict, total=False):
    """How a call runs (every key optional)."""

    #: threads of every parallel step (default: $STUDODDS_THREADS, $OMP_NUM_THREADS, or the CPUs)
    threads: int | None
    #: read and write the user's cache folder (False: recompute, write nothing)
    use_cache: bool
    #: show tqdm progress bars on stderr (when it is a terminal)
    progress: bool


class Run(NamedTuple):
    """The checked run settings of one call."""

    threads: int
    use_cache: bool
    progress: bool

    @classmethod
    def of(cls, function: str, options: Mapping[str, Any]) -> "Run":
        """The settings of ``options`` (the ``**run`` keywords of ``function``), checked: an
        unknown keyword is a TypeError as Python gives it, a bad value a ParameterError."""
        unknown = sorted(set(options) - set(RunOptions.__annotations__))
        if unknown:
            raise TypeError(f"{function}() got an unexpected keyword argument {unknown[0]!r}")
        flags = {}
        for name, default in (("use_cache", True), ("progress", False)):
            value = options.get(name, default)
            if not isinstance(value, bool):
                raise ParameterError(name, f"True or False, not {type(value).__name__} {str(value)[:40]!r}")
            flags[name] = value
        return cls(resolve_threads(options.get("threads")), flags["use_cache"], flags["progress"])
