"""Progress bars: the one shape of progress below the API, and the tqdm bar that shows it.

Every step below :mod:`studodds.api` that reports progress takes ``progress: Callable[[int],
None] | None`` and calls it with the steps it has just finished.  The API turns its ``progress:
bool`` into such a callable with :func:`progress_bar`: a tqdm bar on stderr, silent when stderr
is not a terminal, made on the first step (so work that ends at once -- a table read from the
cache -- draws no bar) and closed when the block ends.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from enumerate.core.projection import ANNOUNCE_SECONDS, Projection, plural


class _Bar:
    """A callable ``tick(n)`` that makes its tqdm bar on the first call -- or when the count
    announces itself (:meth:`announce`), so that a long count shows its bar from the start."""

    def __init__(self, description: str, total: int | Callable[[], int], unit: str, quiet: bool) -> None:
        self._args = (description, total, unit, quiet)
        self._bar: Any = None

    def _make(self) -> None:
        if self._bar is None:
            from tqdm import tqdm  # start-up: a command that draws no bar never pays for importing tqdm
            description, total, unit, quiet = self._args
            self._bar = tqdm(total=total() if callable(total) else total, desc=description, unit=unit, unit_scale=True,
                             disable=quiet or not sys.stderr.isatty(), leave=False, file=sys.stderr)

    def __call__(self, n: int) -> None:
        self._make()
        self._bar.update(n)

    def announce(self, projection: Projection, threads: int) -> None:
        """Before a long count starts: one line on stderr saying what it counts and how long it is
        projected to take (printed whether or not stderr is a terminal: a log shows it too), for a
        count of :data:`~enumerate.core.projection.ANNOUNCE_SECONDS` or more; then the bar."""
        description, _, _, quiet = self._args
        if quiet:
            return
        if projection.seconds(threads) >= ANNOUNCE_SECONDS:
            print(f"studodds: {description}: {projection.steps:,} {plural(projection.unit, projection.steps)}, "
                  f"{projection.text(threads)} (projected from the "
                  "reference machine; Ctrl-C stops it)", file=sys.stderr, flush=True)
        self._make()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


@contextmanager
def progress_bar(on: bool, description: str, total: int | Callable[[], int],
                 unit: str = "hand") -> Iterator[Callable[[int], None] | None]:
    """Within the block, ``tick(n)`` advances a bar of ``total`` ``unit``s (None when ``on`` is
    False: the steps below skip reporting); ``total`` may be a function, asked on the first
    step (so what it costs is not paid when no step comes)."""
    if not on:
        yield None
        return
    bar = _Bar(description, total, unit, quiet=False)
    try:
        yield bar
    finally:
        bar.close()
