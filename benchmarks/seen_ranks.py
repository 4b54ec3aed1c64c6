"""The cost of the seen-hand game counted by rank patterns, measured on sampled classes and
projected to the whole game (``collusion --partners 1 --exact`` without ``--hands``).

A class is (player rank pattern, up rank): 80,119 in the whole game.  For each up rank the script
values ``--patterns`` random player patterns against every partner pattern on one thread
(:func:`enumerate.boxes.seen_ranks.pattern_sums`), after the up rank's tables are made, and
prints the CPU seconds a class and the whole game's projection (every up rank's classes at its
own rate).  ``--two-boxes`` measures the same classes counted as one player's two boxes
(``collusion --exact --two-boxes``, what ``batch --seen-hand`` runs) beside the seen game.

    python benchmarks/seen_ranks.py --patterns 40 --seed 1 --two-boxes
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from enumerate.boxes import seen_ranks
from enumerate.core import rank_patterns
from enumerate.rules.variant_file import load_builtin


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--patterns", type=int, default=40, help="player patterns sampled per up rank")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="us-common")
    ap.add_argument("--two-boxes", action="store_true", help="also time the classes counted as two boxes")
    args = ap.parse_args()
    v = load_builtin(args.variant).variant
    rng = np.random.default_rng(args.seed)
    total = boxes = 0.0
    print("up rank  classes  CPU s a class (sampled)" + ("  as two boxes" if args.two_boxes else ""))
    for ru in range(13):
        p = seen_ranks.player_patterns(ru)
        pick = p[rng.choice(p.shape[0], min(args.patterns, p.shape[0]), replace=False)]
        rank_patterns.up_tables(ru, v.qualifier.threshold)
        start = time.process_time()
        seen_ranks.pattern_sums(v, pick, ru, threads=1)
        per = (time.process_time() - start) / pick.shape[0]
        total += per * p.shape[0]
        line = f"{'23456789TJQKA'[ru]:>7}  {p.shape[0]:7,}  {per:.4f}"
        if args.two_boxes:
            start = time.process_time()
            seen_ranks.pattern_sums(v, pick, ru, threads=1, pairs=True)
            pair = (time.process_time() - start) / pick.shape[0]
            boxes += pair * p.shape[0]
            line += f"                     {pair:.4f}"
        print(line)
    print(f"whole game: {seen_ranks.whole_game_classes():,} classes, about {total / 3600:.2f} core-hours"
          + (f"; as two boxes {boxes / 3600:.2f}" if args.two_boxes else ""))


if __name__ == "__main__":
    main()
