"""How much work the switch game counted by rank patterns would be: the measurement made before
it was built (enumerate/draws/switch_ranks.py; its measured cost: benchmarks/switch_ranks.py),
from the formulation ``collusion --partners 1 --exact`` uses (enumerate/boxes/seen_ranks.py).

For a situation (hand H, up card u = (ru, s0)) and k switched cards, the draw D is k of the 46
unseen cards whatever is discarded, and the dealer's counts of the final hand depend on D only
through its rank pattern d, the ranks SD whose s0 card it holds, and (for a flush) its suit.  So
the leaves (d, SD) of k cards are the same for all C(5, k) discards of k cards -- only the kept
cards, hence the final hand's strength (a cut point of one prefix-sum array per d) differ -- and a
situation costs sum_k C(5, k) * L_k leaf evaluations, L_k its leaves of k cards.  This script
counts them exactly for sampled classes (the flush split of a leaf not counted).

    python benchmarks/switch_ranks_leaves.py --classes 300 --seed 1
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from enumerate.core.rank_patterns import patterns
from enumerate.core.slices import Slice


def leaves(hand: np.ndarray, up: int) -> list[int]:
    """L_k for k = 0..5: the draw leaves (rank pattern, drawn s0 ranks) of k cards."""
    ru, s0 = up >> 2, up & 3
    h = np.bincount(hand.astype(np.int64) >> 2, minlength=13)
    left = 4 - h - (np.arange(13) == ru)                   # unseen cards of each rank
    s0_left = np.array([int(r != ru and 4 * r + s0 not in hand) for r in range(13)])
    other = left - s0_left
    out = [1]
    for k in range(1, 6):
        total = 0
        for d in patterns(k)[(patterns(k) <= left).all(axis=1)]:
            m = 1
            for r in np.flatnonzero(d):                     # s0 card drawn, or not
                m *= int(s0_left[r] == 1 and other[r] >= d[r] - 1) + int(other[r] >= d[r])
            total += m
        out.append(total)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--classes", type=int, default=300, help="(hand, up card) classes sampled")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cards, up, _ = Slice().classes()
    pick = np.random.default_rng(args.seed).choice(up.size, args.classes, replace=False)
    start = time.perf_counter()
    counts = np.array([leaves(cards[i], int(up[i])) for i in pick], dtype=np.float64)
    evals = (counts * np.array([math.comb(5, k) for k in range(6)])).sum(axis=1)
    print(f"{args.classes} classes in {time.perf_counter() - start:.0f} s; mean leaves by k = 0..5: "
          + ", ".join(f"{x:,.0f}" for x in counts.mean(axis=0)))
    print(f"mean leaf evaluations a class {evals.mean():,.0f}; the whole game {evals.mean() * up.size:.3e} "
          f"over {up.size:,} classes")


if __name__ == "__main__":
    main()
