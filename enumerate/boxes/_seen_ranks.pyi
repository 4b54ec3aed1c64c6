"""Type stub of the compiled rank-pattern kernel of the seen-hand game (enumerate/protection/_seen_ranks.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
FIELDS: int
PAIR_FIELDS: int

def value_patterns(ru: int, pvec: np.ndarray, sp_nf: np.ndarray, sp_fl: np.ndarray, cat_nf: np.ndarray,
                   cat_fl: np.ndarray, pcuts: np.ndarray, qvec: np.ndarray, hole_i: np.ndarray,
                   iq: int, fl_mask: np.ndarray, fl_st: np.ndarray, fl_nf: np.ndarray, qual: int, coef: np.ndarray,
                   c_win: np.ndarray, thr: np.ndarray, out: np.ndarray, n_threads: int,
                   cancel: np.ndarray | None = None, qcuts: np.ndarray | None = None,
                   qcat: np.ndarray | None = None, bank: np.ndarray | None = None, bq: int = 0) -> None: ...
