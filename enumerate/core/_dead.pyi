"""Type stub of the dead-card engine (enumerate/core/_dead.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
NO_LABEL_VALUE: int
MAX_UNSEEN_CARDS: int

def dead_counts_of(unseen: np.ndarray, up: int, q: int, sets: np.ndarray, complete: np.ndarray, query_set: np.ndarray,
                   query_strength: np.ndarray, nq: np.ndarray, win: np.ndarray, tie: np.ndarray,
                   cancel: np.ndarray, n_threads: int) -> int: ...
