"""The cost of the exact switch game counted by rank patterns (enumerate/draws/switch_ranks.py),
measured on sampled groups (player rank pattern, up rank) of every up rank, and projected to the
whole game: the mean CPU time of a group, on one thread, times the 80,119 groups.  The up rank's
tables (the s0 flush corrections) are built before the clock starts; they are made once an up rank
per process (a fraction of a second).

    python benchmarks/switch_ranks.py docs/variants/oasis-galewind.toml --groups 12 --seed 1
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from enumerate.core.slices import Slice
from enumerate.draws import switch_ranks
from enumerate.rules.variant_file import load_variant_file
from evaluator.ranking import Category


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", help="a variant file with a [switch] table")
    ap.add_argument("--groups", type=int, default=12, help="groups sampled per up rank")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    v = load_variant_file(args.variant).variant
    h, up, _ = switch_ranks.groups(Slice())
    rng = np.random.default_rng(args.seed)
    per_rank = []
    for ru in range(13):
        rows = np.flatnonzero(up == ru)
        pick = rng.choice(rows, min(args.groups, rows.size), replace=False)
        switch_ranks.switch_tables(ru, v.qualifier.threshold)
        start = time.process_time()
        switch_ranks.shard_fields(v, h[pick], up[pick], frozenset(Category), threads=1)
        per_rank.append((time.process_time() - start) / pick.size)
        print(f"up rank {ru}: {per_rank[-1]:.3f} CPU s a group", flush=True)
    mean = float(np.mean(per_rank))
    print(f"mean {mean:.3f} CPU s a group ({min(per_rank):.3f}-{max(per_rank):.3f} by up rank); the whole game "
          f"{mean * h.shape[0] / 3600:.2f} core-hours over {h.shape[0]:,} groups")


if __name__ == "__main__":
    main()
