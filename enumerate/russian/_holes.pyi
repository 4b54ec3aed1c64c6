"""Type stub of the compiled hole-card counts (enumerate/russian/_holes.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
COLUMNS: tuple[str, ...]

def hole_counts(unseen: np.ndarray, up: np.ndarray, player: np.ndarray, threshold: int, out: np.ndarray,
                n_threads: int) -> None: ...

class UpTables:
    up: int
    def __init__(self, up: int) -> None: ...

def hole_counts_by_tables(tables: UpTables, unseen: np.ndarray, suit: np.ndarray, player: np.ndarray, threshold: int,
                          out: np.ndarray, n_threads: int) -> None: ...
