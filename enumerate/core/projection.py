"""How long a long count takes, said before it starts.

An exact whole game is counted in steps of known cost: a kernel's measured core-seconds per
class or group (the constants beside each kernel, measured with ``benchmarks/`` on this project's
2-core reference machine and listed in docs/speed.md) times the steps still to count, divided by
the threads.  The figure is a projection for the reader -- "about 1.2 hours on 2 threads" -- and
never enters a result; a machine slower or busier than the reference takes longer, and the
progress bar's estimate, made from the run itself, takes over once counting starts.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: A local run projected to take longer than this is refused before it starts (one line, what
#: would answer it instead): no answer is worth a month of one machine.
MAX_LOCAL_SECONDS = 30 * 86400.0


def duration_text(seconds: float) -> str:
    """``seconds`` in the largest unit that reads well: 40 minutes, 6.5 hours, 300 years.

    >>> duration_text(30), duration_text(9 * 3600), duration_text(4e10)
    ('30 seconds', '9.0 hours', '1,268 years')
    """
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.{0 if seconds >= 100 * size else 1}f} {unit}"
    return f"{seconds:.0f} seconds"


def plural(word: str, n: int = 2) -> str:
    """``word`` for ``n`` of them: "group" -> "groups", "class" -> "classes" (one: as it is)."""
    if n == 1:
        return word
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")


@dataclass(frozen=True)
class Projection:
    """The projected cost of one count: ``what`` is counted, in ``steps`` of ``unit`` at
    ``seconds_per_step`` core-seconds each (the reference machine's)."""

    what: str
    steps: int
    unit: str
    seconds_per_step: float

    @property
    def core_seconds(self) -> float:
        return self.steps * self.seconds_per_step

    def seconds(self, threads: int) -> float:
        """Wall seconds on ``threads`` threads (the steps are independent: they share out evenly)."""
        return self.core_seconds / max(1, threads)

    def text(self, threads: int) -> str:
        """``about 2.3 core-hours (about 1.2 hours on 2 threads)``, or the wall time alone when
        the two are the same."""
        if threads <= 1:
            return f"about {duration_text(self.core_seconds)} on 1 thread"
        core = duration_text(self.core_seconds)
        core = core.replace(" hours", " core-hours").replace(" minutes", " core-minutes").replace(" seconds", " core-seconds")
        return f"about {core} (about {duration_text(self.seconds(threads))} on {threads} threads)"


#: A count projected to take at least this long (seconds on its threads) is announced before it
#: starts; anything shorter just runs.
ANNOUNCE_SECONDS = 5.0


def announce(progress: Callable[[int], None] | None, projection: Projection, threads: int) -> None:
    """Tell the progress display of a count (the ``progress`` callable every kernel takes) what
    the count is projected to take, before it starts: the API's progress bar (with ``progress``
    on) prints one line for a count of :data:`ANNOUNCE_SECONDS` or more, also when stderr is not
    a terminal, and shows its bar from then on; a plain callable is not told."""
    tell: Any = getattr(progress, "announce", None)
    if tell is not None and projection.steps > 0:
        tell(projection, threads)
