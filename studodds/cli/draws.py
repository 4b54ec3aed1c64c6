"""``draws-sample`` and ``draws-exact``: a table with switches of two or more cards, estimated
from exactly valued sampled situations, or valued exactly over a slice of its situations."""
from __future__ import annotations

import argparse
from typing import Any

from studodds import api
from studodds.cli.common import api_options, common, emit, games_number, variant_argument, variant_of

#: Exit code of a sample that is not consistent with the certified table it is set beside.
NOT_CONSISTENT = 1


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
    p.add_argument("--against", metavar="FOLDER",
                   help="a Russian Poker table: set the sample beside the certified table in FOLDER (the same rules), "
                        "each exact figure with the sample's z-score; exit code 1 when not consistent")
    p.add_argument("--beside", metavar="VARIANT",
                   help="a Russian Poker table: sample this other table on the same situations too, and give each "
                        "figure's difference with its 95%% interval on pairs (what the rules that differ are worth)")
    p.add_argument("--beside-checkpoint", metavar="FILE",
                   help="keep the finished shards of the table sampled --beside in FILE and resume from it")
    p.add_argument("--strategy", metavar="NAME",
                   help="a Russian Poker table: play this simple draw strategy (stand-pat, rules-of-thumb) instead "
                        "of the best action; --beside the same table gives what it costs against optimal play")
    common(p)
    p.set_defaults(func=draws_sample)
    p = sub.add_parser("draws-exact", help="switching any number of cards: the exact game over a slice of situations",
                       description="Every situation of a slice (up-card ranks x the player hand's category), up to "
                                   "suits, valued exactly: every switch set, every draw, every dealer completion. "
                                   "The slice's house edge, element of risk, standard deviation, return table with "
                                   "the fees, how often each action is best and the strategy by hand group; the "
                                   "measured cost of the whole game.  Counted by rank patterns where they apply "
                                   "(shards of 64 groups), else situation class by class (shards of 32 classes); "
                                   "--checkpoint FOLDER resumes; --scheduler runs the shards on Dask with the same "
                                   "result.  On a Russian Poker table with draws, every situation valued with its "
                                   "insurance and purchases of the game too, by rank patterns.")
    variant_argument(p)
    p.add_argument("--up", metavar="RANKS", help="up-card ranks, e.g. 2-6,A (default: all)")
    p.add_argument("--hands", metavar="CATEGORIES",
                   help="the player hand's categories before switching, e.g. full_house,four_of_a_kind (default: all)")
    p.add_argument("--checkpoint", metavar="FOLDER", help="keep finished shards in FOLDER and resume from it")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the shards on this Dask scheduler (needs the dask extra)")
    p.add_argument("--strategy", metavar="NAME",
                   help="a Russian Poker table: the game played with this simple draw strategy (stand-pat, "
                        "rules-of-thumb) instead of the best action, exactly")
    common(p)
    p.set_defaults(func=draws_exact)


def draws_sample(args: argparse.Namespace) -> int:
    from studodds.reports.draws import sample_text  # lazy: start-up time
    result = api.draws_sample(variant_of(args), situations=args.situations, seed=args.seed,
                              stratified=args.stratified, checkpoint=args.checkpoint, scheduler=args.scheduler,
                              against=args.against, beside=args.beside, beside_checkpoint=args.beside_checkpoint,
                              strategy=args.strategy, **api_options(args))
    emit(args, result, sample_text)
    against = result.to_dict().get("against")
    return NOT_CONSISTENT if isinstance(against, dict) and not against["consistent"] else 0


def draws_exact(args: argparse.Namespace) -> int:
    from studodds.reports.draws import exact_text  # lazy: start-up time
    result = api.draws_exact(variant_of(args), up=args.up, hands=args.hands, checkpoint=args.checkpoint,
                             scheduler=args.scheduler, strategy=args.strategy, **api_options(args))
    emit(args, result, (lambda r: r.text()) if hasattr(result, "text") else exact_text)
    return 0
