"""``simulate``: play the game on shuffled decks and compare with the exact figures."""
from __future__ import annotations

import argparse
from typing import Any

from studodds import api
from studodds.cli.common import api_options, common, emit, games_number, load_strategy, variant_argument, variant_of

#: Exit code of a simulation that is not consistent with the exact figures.
EXIT_INCONSISTENT = 1


def register(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play the game on shuffled decks and compare with the exact figures (sampled)",
                       description="Deals real shuffled decks (Philox4x64-10 streams keyed by the seed and the game "
                                   "number), plays the certified optimal strategy (or another), settles every wager "
                                   "from the rules alone and compares: returns with 95%% intervals and z-scores, "
                                   "outcome frequencies with chi-square p-values, one verdict.  The same seed and "
                                   "games give the same result on any number of threads or Dask workers.  A Russian Poker table plays "
                                   "its certified strategy: the draw its whole game keeps, raise, insurance and the "
                                   "bought game decided exactly per final hand.  Exit "
                                   "code 1 when the simulation is not consistent with the exact figures.")
    variant_argument(p)
    p.add_argument("--games", type=games_number, default=100_000_000,
                   help="games to play (default 100,000,000; 1e8 is accepted)")
    p.add_argument("--seed", type=int, default=0, help="random seed, 0 .. 2**128 - 1 (default 0)")
    p.add_argument("--strategy", default="optimal", metavar="optimal|NAME|MODULE:FUNCTION",
                   help="optimal (default), a simple strategy by name (see 'studodds strategies'), or a "
                        "function f(hands, up) -> raise mask (module name or path/to/file.py)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the chunks on this Dask scheduler (needs the dask extra)")
    p.add_argument("--against", metavar="FOLDER",
                   help="a Russian Poker table: the folder of its certified table, whose kept whole game (exact "
                        "figures and strategy) is read instead of counted")
    common(p)
    p.set_defaults(func=simulate)


def simulate(args: argparse.Namespace) -> int:
    from studodds.reports.simulation import simulation_text  # lazy: start-up time
    strategy: Any = args.strategy
    if ":" in strategy:
        strategy, _ = load_strategy(strategy)
    result = api.simulate(variant_of(args), games=args.games, seed=args.seed, strategy=strategy,
                          scheduler=args.scheduler, against=args.against, **api_options(args))
    emit(args, result, simulation_text)
    return 0 if result.passed else EXIT_INCONSISTENT
