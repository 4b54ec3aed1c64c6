"""Type stub of the compiled exposure kernel (enumerate/protection/_exposure.pyx)."""
from typing import Any

import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
COLUMNS: dict[str, int]
GROUPS: int

def exposure_stats(spec: Any, known: np.ndarray, stats: np.ndarray, chart: np.ndarray, n_threads: int,
                   cancel: np.ndarray | None = None) -> None: ...
def exposure_counts(spec: Any, known: np.ndarray, counts: np.ndarray) -> None: ...
