"""Type stub of the compiled exposure kernel (enumerate/protection/_exposure.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
COLUMNS: dict[str, int]
GROUPS: int

def exposure_stats(j: int, known: np.ndarray, hand_cards: np.ndarray, hand_masks: np.ndarray,
                   hand_suits: np.ndarray, hand_strength: np.ndarray, hand_group: np.ndarray,
                   category: np.ndarray, level_of_card: np.ndarray, n_levels: int, qualifier: int,
                   c_nq: int, c_win: np.ndarray, c_tie: int, scale: int, reduce: int,
                   stats: np.ndarray, chart: np.ndarray, n_threads: int, generic: int = 0, burn: int = 0) -> None: ...
def exposure_counts(j: int, known: np.ndarray, hand_cards: np.ndarray, hand_masks: np.ndarray,
                    hand_suits: np.ndarray, hand_strength: np.ndarray, hand_group: np.ndarray,
                    category: np.ndarray, level_of_card: np.ndarray, n_levels: int, qualifier: int,
                    counts: np.ndarray, burn: int = 0) -> None: ...
