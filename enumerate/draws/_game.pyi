"""Type stub of the compiled whole-game draw kernels (enumerate/draws/_game.pyx)."""
import numpy as np

COUNTERS_PER_STATE: int

def pairs_below_qualifier(state: np.ndarray, q: int, canon_cards: np.ndarray, canon_strength: np.ndarray,
                          row_of: np.ndarray, lo: int, hi: int, base_nq: np.ndarray, dead: np.ndarray,
                          wanted: np.ndarray, cancel: np.ndarray, n_threads: int) -> None: ...
def sweep_pairs(states: np.ndarray, class_lo: int, class_hi: int, q: int, sorted_cards: np.ndarray,
                sorted_masks: np.ndarray, class_start: np.ndarray, canon_cards: np.ndarray, canon_start: np.ndarray,
                row_of: np.ndarray, base_nq: np.ndarray, base_win: np.ndarray, base_tie: np.ndarray,
                dead: np.ndarray, wanted: np.ndarray, cancel: np.ndarray) -> None: ...
def action_values(hands: np.ndarray, hand_strength: np.ndarray, up: np.ndarray, base_nq: np.ndarray,
                  base_win: np.ndarray, base_tie: np.ndarray, dead: np.ndarray, canon: np.ndarray,
                  perms: np.ndarray, row_lo: int, row_hi: int, scale: int, c_nq: int, c_win: np.ndarray,
                  c_tie: int, bonus: np.ndarray, values: np.ndarray, cancel: np.ndarray, n_threads: int) -> None: ...
def account(hands: np.ndarray, weight: np.ndarray, hand_strength: np.ndarray, up: np.ndarray, base_nq: np.ndarray,
            base_win: np.ndarray, base_tie: np.ndarray, dead: np.ndarray, canon: np.ndarray, perms: np.ndarray,
            action: np.ndarray, row_lo: int, row_hi: int, scale: int, c_nq: int, c_win: np.ndarray, c_tie: int,
            bonus: np.ndarray, acc: np.ndarray, cancel: np.ndarray, n_threads: int) -> None: ...

OPENMP: bool
DEBUG_BUILD: bool
