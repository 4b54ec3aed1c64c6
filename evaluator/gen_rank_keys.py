"""Generator of RANK_KEYS (kept beside its output, evaluator/_rank_keys.py).

Finds, greedily, 13 non-negative integers, one per rank, such that every multiset of five
ranks (each at most four times) has a distinct sum.  The evaluator then ranks every non-flush
hand by looking up the sum of its five cards' keys in a 360,919-entry table, with no sorting.

Run ``python -m evaluator.gen_rank_keys`` (about 40 s) and compare with _rank_keys.py; the test
suite checks the committed keys for uniqueness without re-running this search.
"""
from __future__ import annotations

import itertools

import numpy as np


def multiset_sums(keys: list[int], size: int) -> np.ndarray:
    """Sums of all multisets of `size` ranks drawn from len(keys) ranks, each at most 4 times."""
    sums = [
        sum(keys[r] for r in combo)
        for combo in itertools.combinations_with_replacement(range(len(keys)), size)
        if all(combo.count(r) <= 4 for r in set(combo))
    ]
    return np.array(sums, dtype=np.int64)


def generate() -> list[int]:
    keys = [0]
    for _rank in range(1, 13):
        # a multiset uses the new rank j times and 5 - j earlier ranks
        parts = [multiset_sums(keys, 5 - j) for j in range(5)]
        candidate = keys[-1] + 1
        while True:
            sums = np.concatenate([p + j * candidate for j, p in enumerate(parts)])
            if len(np.unique(sums)) == len(sums):
                break
            candidate += 1
        keys.append(candidate)
    return keys


if __name__ == "__main__":
    print(generate())
