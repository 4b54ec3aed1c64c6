"""Type stub of the compiled aggregation kernels (enumerate/analysis/_aggregate.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
STAT_COLUMNS: dict[str, int]

def aggregate_all(category: np.ndarray, strength: np.ndarray, weight: np.ndarray, up: np.ndarray,
                  no_qualify: np.ndarray, win: np.ndarray, tie: np.ndarray, c_nq: int, c_win: np.ndarray,
                  c_tie: int, raise_above: np.ndarray, masks: np.ndarray, n_threads: int,
                  with_chart: bool) -> tuple[np.ndarray, np.ndarray | None]: ...
def threshold_keys(row_order: np.ndarray, no_qualify: np.ndarray, win: np.ndarray, tie: np.ndarray,
                   c_nq: int, c_tie: int, c_fold: int, d: int) -> tuple[np.ndarray, np.ndarray]: ...
def gather_sorted(order: np.ndarray, row_order: np.ndarray, weight: np.ndarray, no_qualify: np.ndarray,
                  win: np.ndarray, tie: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
def prefix_sums(upto: int, cum: np.ndarray, nq: np.ndarray, win: np.ndarray, tie: np.ndarray,
                w: np.ndarray) -> tuple[int, int, int, int]: ...
