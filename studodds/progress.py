"""tqdm progress bars that stay silent when stderr is not a terminal or when asked to."""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def bar_factory(description: str, quiet: bool = False, unit: str = "hand") -> Callable[[int], Any]:
    """A factory ``f(total)`` returning a tqdm bar (a context manager with ``update``)."""
    from tqdm import tqdm  # start-up: a command that draws no bar never pays for importing tqdm

    disable = quiet or not sys.stderr.isatty()

    def make(total: int) -> Any:
        return tqdm(total=total, desc=description, unit=unit, unit_scale=True,
                    disable=disable, leave=False, file=sys.stderr)

    return make
