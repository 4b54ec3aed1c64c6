"""Type stub of the compiled per-situation draw kernels (enumerate/draws/_hand.pyx)."""
import numpy as np

BUY: int
OUTCOME_STATS: tuple[str, ...]
MAX_UNSEEN_CARDS: int

def action_values(hand: np.ndarray, unseen: np.ndarray, up: int, q: int, actions: np.ndarray,
                  forced: np.ndarray, scale: int, c_nq: int, c_win: np.ndarray, c_tie: int, bonus: np.ndarray,
                  value: np.ndarray, raised: np.ndarray, finals: np.ndarray, outcomes: np.ndarray, cancel: np.ndarray,
                  n_threads: int) -> None: ...
def draw_outcomes(hand: np.ndarray, unseen: np.ndarray, up: int, q: int, action: int, draws: np.ndarray,
                  out: np.ndarray, n_threads: int = 1) -> None: ...

OPENMP: bool
DEBUG_BUILD: bool
