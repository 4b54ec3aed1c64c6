"""Type stub of the compiled bought-game kernels (enumerate/russian/_bought.pyx)."""
import numpy as np

OPENMP: bool
DEBUG_BUILD: bool
SET_COLUMNS: int
KEY_COLUMNS: int
OUTCOME_NAMES: tuple[str, ...]
TERM_FIELDS: int

class Rules:
    def __init__(self, up: int, sets: np.ndarray, lose: int, fee: int, threshold: int,
                 short_pays_ante: bool, redraw: bool, dn: int) -> None: ...

def key_values(rules: Rules, player: np.ndarray, win: np.ndarray, ante: np.ndarray, unseen: np.ndarray, count_nq: bool,
               out: np.ndarray, c: np.ndarray, pool: np.ndarray, n_threads: int) -> None: ...
def hand_values(rules: Rules, player: np.ndarray, win: np.ndarray, ante: np.ndarray, unseen: np.ndarray, key: np.ndarray,
                keys: np.ndarray, c: np.ndarray, pool: np.ndarray, count_nq: bool, unseen_count: int,
                nq: np.ndarray, bought: np.ndarray, outcomes: np.ndarray, n_threads: int) -> int: ...

class RankTerm:
    def __init__(self, rules: Rules, win: np.ndarray, ante: np.ndarray, dn: np.ndarray,
                 bounded: bool = True, not_with_insurance: bool = False) -> None: ...
    def capsule(self) -> object: ...

def leaf_sum_for_tests(term: RankTerm, unseen: np.ndarray, strength: int, cls: int, kind: int, us: int,
                       ranks: list[int], m0: list[int], m1: list[int], mult: int,
                       side: bool = False) -> tuple[tuple[int, list[int]], tuple[int, list[int]], bool] | None: ...
