"""Type stub of the compiled count kernels (enumerate/core/_engine.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
COUNTERS_PER_STATE: int

def prepare_order(strength_by_index: np.ndarray, cards_by_index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def sweep(states: np.ndarray, class_lo: int, class_hi: int, sorted_cards: np.ndarray, sorted_masks: np.ndarray,
          class_start: np.ndarray, canon_cards: np.ndarray, canon_start: np.ndarray, lt: np.ndarray,
          tie: np.ndarray) -> None: ...
def count_below_all(state: np.ndarray, threshold: int, canon_cards: np.ndarray, lo: int, hi: int,
                    out: np.ndarray, n_threads: int) -> None: ...
def canonical_mask(cards_by_index: np.ndarray) -> np.ndarray: ...
