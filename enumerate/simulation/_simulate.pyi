"""Type stub of the compiled simulator kernels (enumerate/simulation/_simulate.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
DEALS: int

def philox_block(key0: int, key1: int, c0: int, c1: int, c2: int, c3: int) -> list[int]: ...
def deal_games(key0: int, key1: int, first: int, n: int) -> np.ndarray: ...
def simulate_chunk(key0: int, key1: int, first: int, n: int, n_threads: int, up: np.ndarray | None,
                   ranked: np.ndarray | None, raise_words: np.ndarray, mixed_base: np.ndarray, strength_flag: np.ndarray,
                   qualifier: int, bet_class: np.ndarray, bet_kind: np.ndarray, bet_threshold: np.ndarray,
                   bet_forfeits: np.ndarray, bet_k: np.ndarray, need_six: int, progressive: int, prog_forfeits: int,
                   meter_category: np.ndarray, cells: np.ndarray, bet_bins: np.ndarray, prog_bins: np.ndarray,
                   event_game: np.ndarray, event_cat: np.ndarray, n_events: np.ndarray, cancel: np.ndarray) -> None: ...
def deal_ranked(key0: int, key1: int, first: int, n: int, n_threads: int, need_six: int, up: np.ndarray,
                ranked: np.ndarray, cancel: np.ndarray) -> None: ...
def raise_bits(cards_by_index: np.ndarray, row_of_index: np.ndarray, mask: np.ndarray, bits: np.ndarray,
               kind: np.ndarray, n_threads: int) -> None: ...
