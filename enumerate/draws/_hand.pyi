"""Type stub of the compiled per-situation draw kernels (enumerate/draws/_hand.pyx)."""
import numpy as np

ROW: int
BUY: int

def prepare(unseen: np.ndarray, up: int, hole: np.ndarray, below0: np.ndarray, below1: np.ndarray,
            below2: np.ndarray, triples: np.ndarray, n_threads: int) -> None: ...
def action_values(hand: np.ndarray, unseen: np.ndarray, q: int, hole: np.ndarray, below0: np.ndarray,
                  below1: np.ndarray, below2: np.ndarray, triples: np.ndarray, triple_q: np.ndarray, actions: np.ndarray,
                  forced: np.ndarray, scale: int, c_nq: int, c_win: np.ndarray, c_tie: int, bonus: np.ndarray,
                  value: np.ndarray, raised: np.ndarray, finals: np.ndarray, cancel: np.ndarray,
                  n_threads: int) -> None: ...
def draw_outcomes(hand: np.ndarray, unseen: np.ndarray, q: int, hole: np.ndarray, below0: np.ndarray,
                  below1: np.ndarray, below2: np.ndarray, triples: np.ndarray, triple_q: np.ndarray, action: int,
                  draws: np.ndarray,
                  out: np.ndarray) -> None: ...

OPENMP: bool
DEBUG_BUILD: bool
