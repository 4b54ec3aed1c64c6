"""``draws-sample``: a table with switches of two or more cards, estimated from exactly valued
sampled situations."""
from __future__ import annotations

import argparse
from typing import Any

from studodds import api
from studodds.cli.common import api_options, common, emit, games_number, variant_argument, variant_of


def register(sub: Any) -> None:
    p = sub.add_parser("draws-sample", help="switching two or more cards: the whole game estimated (sampled)",
                       description="The exact whole game with at most one switched card, plus the mean gain of "
                                   "switching two or more cards over uniformly sampled situations, each valued "
                                   "exactly (every switch set, every draw, every dealer completion); a 95%% "
                                   "interval, how often switching two or more cards is best, and the measured "
                                   "cost of the exact game.  Shards of 16 situations; --checkpoint resumes; "
                                   "--scheduler runs the shards on Dask with the same result.")
    variant_argument(p)
    p.add_argument("--situations", type=games_number, default=1024, help="situations to sample (default 1,024)")
    p.add_argument("--seed", type=int, default=0, help="random seed, 0 .. 2**64 - 1 (default 0)")
    p.add_argument("--stratified", action="store_true",
                   help="sample by up-card rank and one-card value with Neyman's allocation (at least 48 situations a stratum)")
    p.add_argument("--checkpoint", metavar="FILE", help="keep finished shards in FILE and resume from it")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the shards on this Dask scheduler (needs the dask extra)")
    common(p)
    p.set_defaults(func=draws_sample)


def draws_sample(args: argparse.Namespace) -> int:
    from studodds.reports.draws import sample_text  # lazy: start-up time
    result = api.draws_sample(variant_of(args), situations=args.situations, seed=args.seed,
                              stratified=args.stratified,
                              checkpoint=args.checkpoint, scheduler=args.scheduler, **api_options(args))
    emit(args, result, sample_text)
    return 0
