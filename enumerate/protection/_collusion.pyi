"""Type stub of the compiled collusion kernel (enumerate/protection/_collusion.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool

def completion_counts(player: np.ndarray, up: np.ndarray, seen: np.ndarray, qualifier: int,
                      out: np.ndarray, n_threads: int, cancel: np.ndarray | None = None) -> None: ...
