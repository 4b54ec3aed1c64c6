"""Type stub of the compiled rank-pattern kernel of the switch game (enumerate/draws/_switch_ranks.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
GROUP_FIELDS: int
BUY_ACTION: int
KIND_FIELDS: int

def flush_tables(fl_mask: np.ndarray, st_idx: np.ndarray, nf_idx: np.ndarray, st_nq: np.ndarray, nf_nq: np.ndarray,
                 out: np.ndarray, n_threads: int) -> None: ...
def value_groups(ru: int, hvec: np.ndarray, sit_off: np.ndarray, sit_cards: np.ndarray, sit_w: np.ndarray,
                 dvec: np.ndarray, d_off: np.ndarray, hole_i: np.ndarray, iq: int, cut_lo: np.ndarray,
                 cut_hi: np.ndarray, cls: np.ndarray, gtab: np.ndarray, allowed: np.ndarray, forced5: bool,
                 coef: np.ndarray, c_win: np.ndarray, bonus: np.ndarray, tden: np.ndarray, fee_num: np.ndarray,
                 fee_den: int, out: np.ndarray, best: np.ndarray, keep_raised: np.ndarray, n_threads: int,
                 cancel: np.ndarray | None = None) -> None: ...
