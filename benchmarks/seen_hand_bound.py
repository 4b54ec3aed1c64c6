"""How many situations of the seen-hand game a first-order bound settles without the full sweep.

A measurement for the next optimisation of ``collusion --partners 1 --exact``, not a figure of
the game. For the player's hand P and the up card u, let g(D) be what raising gains over folding
against the dealer's hole cards D (one of the C(46, 4) sets avoiding P and u). Seeing a partner's
five cards X leaves the sets that avoid X:

    gain(P | X) = G - sum over D meeting X of g(D),        G = sum over all D of g(D).

With H+(c) the sum of the positive g(D) over the sets holding the card c, and H-(c) that of the
negative ones, a union bound over the five cards of X gives, for every X at once,

    G - (the five largest H+(c))  <=  gain(P | X)  <=  G + (the five largest H-(c)).

If the left side is >= 0, P raises whatever the partner holds; if the right side is < 0, P folds
whatever he holds. Either way the situation's sum over X is linear in the dealer counts (the
count table's), and only the other situations need the dead-card sweep. This script counts, for
random deals (P, u), which case holds, by brute force over every hole-card set (numpy and the
evaluator; about 0.05 s a deal).

    python benchmarks/seen_hand_bound.py --deals 2000 --seed 1
"""
from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter

import numpy as np

from enumerate.raise_value import RaiseValue
from enumerate.rules.variant_file import load_builtin
from evaluator.ranking import Category, category, strengths

_HOLES = np.array(list(itertools.combinations(range(46), 4)), dtype=np.uint8)      # every hole-card set, by label


def bounds(p: np.ndarray, up: int, value: RaiseValue, threshold: int) -> tuple[int, int, int, int]:
    """(G, lower bound, upper bound, the player's category) for the hand ``p`` against ``up``, in
    units of 1 / value.scale antes."""
    rest = np.array([c for c in range(52) if c not in p and c != up], dtype=np.uint8)
    holes = rest[_HOLES]
    dealer = strengths(np.concatenate([holes, np.full((holes.shape[0], 1), up, dtype=np.uint8)], axis=1))
    mine = int(strengths(p[None, :])[0])
    cat = int(category(mine))
    gain_lose = value.scale - value.c_lose
    per = np.where(dealer < threshold, value.c_nq + gain_lose,
                   np.where(dealer < mine, int(value.c_win[cat]) + gain_lose,
                            np.where(dealer == mine, value.c_tie + gain_lose, gain_lose))).astype(np.int64)
    plus, minus = np.maximum(per, 0), np.maximum(-per, 0)
    h_plus = np.zeros(46, dtype=np.int64)
    h_minus = np.zeros(46, dtype=np.int64)
    for k in range(4):
        h_plus += np.bincount(_HOLES[:, k], weights=plus, minlength=46).astype(np.int64)
        h_minus += np.bincount(_HOLES[:, k], weights=minus, minlength=46).astype(np.int64)
    g = int(per.sum())
    return g, g - int(np.sort(h_plus)[-5:].sum()), g + int(np.sort(h_minus)[-5:].sum()), cat


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="us-common")
    args = ap.parse_args()
    v = load_builtin(args.variant).variant
    value = RaiseValue.of(v)
    rng = np.random.default_rng(args.seed)
    tally: Counter[tuple[str, str]] = Counter()
    start = time.perf_counter()
    for _ in range(args.deals):
        deck = rng.permutation(52).astype(np.uint8)
        p, up = np.sort(deck[:5]), int(deck[5])
        _, low, high, cat = bounds(p, up, value, v.qualifier.threshold)
        verdict = "always raises" if low >= 0 else "always folds" if high < 0 else "needs the sweep"
        tally[(Category(cat).name, verdict)] += 1
    seconds = time.perf_counter() - start
    n = args.deals
    print(f"{args.variant}: {n} random deals (player's hand, up card), seed {args.seed}, {seconds:.0f} s")
    for verdict in ("always raises", "always folds", "needs the sweep"):
        k = sum(c for (_, w), c in tally.items() if w == verdict)
        print(f"  {verdict}: {k} ({100 * k / n:.1f}%)")
    print("by the player's category (always raises / always folds / needs the sweep):")
    for cat in Category:
        row = [tally[(cat.name, w)] for w in ("always raises", "always folds", "needs the sweep")]
        if sum(row):
            print(f"  {cat.name}: {row[0]} / {row[1]} / {row[2]}")


if __name__ == "__main__":
    main()
