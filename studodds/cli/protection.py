"""Game protection: ``holecards`` (exposed dealer cards), ``edgesort`` (an edge-sorted deck) and
``collusion`` (partners' cards and the burn card, sampled)."""
from __future__ import annotations

import argparse
from typing import Any

from evaluator.errors import ParameterError
from studodds import api
from studodds.cli.common import (
    api_options,
    common,
    emit,
    exposure_levels,
    games_number,
    load_strategy,
    variant_argument,
    variant_of,
    whole_numbers,
)


def register(sub: Any) -> None:
    p = sub.add_parser("holecards", help="exact edge of optimal play with exposed dealer hole cards",
                       description="Optimal play seeing the up card and 0..4 hole cards (and with no dealer "
                                   "card visible), exactly; results are cached.  Cold on 2 cores: 1 hole card "
                                   "about 10 s, 2 about a minute, 3 a few minutes.")
    variant_argument(p)
    p.add_argument("--exposed", default="none,0,1,2,3,4",
                   help="comma-separated exposure levels: none (no dealer card) or 0..4 hole cards "
                        "(default: all)")
    p.add_argument("--share", default="",
                   help="comma-separated shares of hands (0..1, e.g. 1/4,0.5) on which one hole card is seen")
    common(p)
    p.set_defaults(func=holecards)

    p = sub.add_parser("edgesort", help="exact edge of optimal play against an edge-sorted deck",
                       description="Optimal play seeing the up card and, for each hole card, whether its "
                                   "rank is in the sorted set; exact.")
    variant_argument(p)
    p.add_argument("--ranks", default="AK", help="the sorted ranks, e.g. AK (default) or AKQ")
    common(p)
    p.set_defaults(func=edgesort)

    p = sub.add_parser("collusion", help="edge of players who share their cards (sampled, with a 95%% interval)",
                       description="The player also sees his partners' five cards each (and optionally the burn "
                                   "card); situations are sampled, each dealer hole-card set of a situation is "
                                   "enumerated exactly.  Same seed and samples: same result on any number of "
                                   "threads or Dask workers.")
    variant_argument(p)
    p.add_argument("--partners", default="6", help="comma-separated numbers of partners, 0..6 (default 6)")
    p.add_argument("--burn", choices=("no", "yes", "both"), default="no",
                   help="whether the burn card is seen too (default no)")
    p.add_argument("--samples", type=games_number, default=None,
                   help="situations sampled per estimate (default 600,000; 1e6 is accepted)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default 0)")
    p.add_argument("--strategy", metavar="MODULE:FUNCTION",
                   help="a strategy f(hand, up, seen) -> raise? to cost instead of optimal play "
                        "(module name or path/to/file.py)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on this Dask scheduler (needs the dask extra)")
    p.add_argument("--exact", action="store_true",
                   help="one partner, exactly: every situation of a slice (--up, --hands), every player hand and "
                        "hole-card set; shards resumable with --checkpoint")
    p.add_argument("--up", metavar="RANKS", help="with --exact: up-card ranks, e.g. 2-6,A (default: all)")
    p.add_argument("--hands", metavar="CATEGORIES",
                   help="with --exact: the partner's hand categories, e.g. full_house,four_of_a_kind (default: all)")
    p.add_argument("--checkpoint", metavar="FOLDER", help="with --exact: keep finished shards in FOLDER and resume")
    p.add_argument("--two-boxes", action="store_true",
                   help="with --exact: the other hand is the player's own second box; adds the spread of a round "
                        "of both boxes (their covariance)")
    common(p)
    p.set_defaults(func=collusion)


def holecards(args: argparse.Namespace) -> int:
    from studodds.reports.protection import hole_cards_text  # lazy: start-up time
    levels = exposure_levels("exposed", args.exposed)
    shares = [w.strip() for w in args.share.split(",") if w.strip()]
    emit(args, api.hole_cards(variant_of(args), levels, shares=shares, **api_options(args)), hole_cards_text)
    return 0


def edgesort(args: argparse.Namespace) -> int:
    from studodds.reports.protection import edge_sort_text  # lazy: start-up time
    emit(args, api.edge_sort(variant_of(args), args.ranks, **api_options(args)), edge_sort_text)
    return 0


def collusion(args: argparse.Namespace) -> int:
    from studodds.reports.protection import collusion_text  # lazy: start-up time
    if args.exact:
        return collusion_exact(args)
    for option in ("up", "hands", "checkpoint"):
        if getattr(args, option) is not None:
            raise ParameterError(option, f"--{option} goes with --exact (the sampled estimate takes every situation)")
    if args.two_boxes:
        raise ParameterError("two-boxes", "--two-boxes goes with --exact --partners 1")
    partners = whole_numbers("partners", args.partners)
    if not partners or any(p not in range(7) for p in partners):
        raise ParameterError("partners", f"values must be 0..6, got {args.partners!r}")
    burns = {"no": [False], "yes": [True], "both": [False, True]}[args.burn]
    strategy, name = load_strategy(args.strategy) if args.strategy else (None, None)
    emit(args, api.collusion_table(variant_of(args), partners, burn_cards=burns,
                                   samples=600_000 if args.samples is None else args.samples,
                                   seed=0 if args.seed is None else args.seed,
                                   strategy=strategy, strategy_name=name, scheduler=args.scheduler,
                                   **api_options(args)), collusion_text)
    return 0


def collusion_exact(args: argparse.Namespace) -> int:
    """``collusion --exact``: one partner, every situation of a slice; what only sampling
    takes (more partners, the burn card, a user's strategy, samples and seeds) is refused."""
    from studodds.reports.protection import collusion_exact_text  # lazy: start-up time
    if args.partners.strip() != "1":
        raise ParameterError("partners", "--exact values one partner (--partners 1); more partners are sampled")
    for name, given in (("burn", args.burn != "no"), ("strategy", args.strategy is not None),
                        ("samples", args.samples is not None), ("seed", args.seed is not None)):
        if given:
            raise ParameterError(name, f"--{name} goes with the sampled estimate, not with --exact")
    emit(args, api.collusion_exact(variant_of(args), up=args.up, hands=args.hands, checkpoint=args.checkpoint,
                                   scheduler=args.scheduler, two_boxes=args.two_boxes, **api_options(args)),
         collusion_exact_text)
    return 0
