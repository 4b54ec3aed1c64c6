"""Type stub of the compiled bought-game kernel (enumerate/russian/_bought.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
SET_COLUMNS: int

def bought_values(player: np.ndarray, win: np.ndarray, unseen: np.ndarray, up: int, sets: np.ndarray, lose: int,
                  ante: int, fee: int, threshold: int, short_pays_ante: bool, redraw: bool, dn: int, nq: np.ndarray,
                  bought: np.ndarray, gains: np.ndarray, n_threads: int) -> bool: ...
