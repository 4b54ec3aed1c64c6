"""Type stub of the compiled rank-pattern kernel of the switch game (enumerate/draws/_switch_ranks.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
BUY_ACTION: int
ACTIONS: int
MAX_CLASSES: int
SIX_PATTERNS: int
RANK_MASKS: int

def kind_fields(n_stat: int, n_term: int = 0) -> int: ...
def group_fields(n_stat: int, n_term: int = 0) -> int: ...
def better_for_tests(va: int, ka: int, vb: int, kb: int, tden: list[int], unit: list[int], fee_num: list[int],
                     fee_den: int) -> bool: ...

def flush_tables(fl_mask: np.ndarray, st_idx: np.ndarray, nf_idx: np.ndarray, st_nq: np.ndarray, nf_nq: np.ndarray,
                 out: np.ndarray, n_threads: int) -> None: ...
def value_groups(ru: int, hvec: np.ndarray, sit_off: np.ndarray, sit_cards: np.ndarray, sit_w: np.ndarray,
                 dvec: np.ndarray, d_off: np.ndarray, hole_i: np.ndarray, iq: int, cut_lo: np.ndarray,
                 cut_hi: np.ndarray, cls: np.ndarray, gtab: np.ndarray, allowed: np.ndarray, forced5: bool,
                 scale: int, pclass: np.ndarray, cnet: np.ndarray, cins: np.ndarray, pc6: np.ndarray,
                 pc6_five: np.ndarray, pc6_six: np.ndarray, tden: np.ndarray, fee_num: np.ndarray,
                 fee_den: int, out: np.ndarray, best: np.ndarray, keep_raised: np.ndarray, n_threads: int,
                 cancel: np.ndarray | None = None, term: object | None = None,
                 rows: np.ndarray | None = None, cnet_hi: np.ndarray | None = None,
                 sit_col: np.ndarray | None = None, sit_sums: np.ndarray | None = None,
                 cnet_kept: np.ndarray | None = None, fixed: np.ndarray | None = None) -> None: ...
