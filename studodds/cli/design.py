"""``design sensitivity | solve | search``: exact paytable design on the base game."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from studodds import api
from studodds.cli.common import Parser, api_options, common, emit, output_file, variant_argument, variant_of

VARY_HELP = ("a pay that moves: KEY=LO..HI (step 1), KEY=LO..HI/STEP or KEY=V1,V2,... (repeat for several "
             "pays; the others keep the variant's values)")


def register(sub: Any) -> None:
    p = sub.add_parser("design", help="paytable design: sensitivity, solve for a target, search paytables",
                       description="Exact paytable design on the base game (ante pays fixed; standard settlement).")
    tasks = p.add_subparsers(dest="design_command", metavar="TASK", parser_class=Parser, required=True)
    q = tasks.add_parser("sensitivity", help="exact value of one unit of each pay, and its flip points",
                         description="Per unit of every raise pay and both ante pays: the exact change of total "
                                     "loss, house edge, element of risk and RTP at the current optimal strategy, and "
                                     "the pay interval over which that strategy stays optimal, with the situations "
                                     "that flip at each end.")
    variant_argument(q)
    common(q)
    q.set_defaults(func=sensitivity)

    q = tasks.add_parser("solve", help="the paytables closest to a target house edge, element of risk or RTP",
                         description="Rank every candidate paytable by its exact distance to the target; with one "
                                     "moving pay, also solve for the exact pay.")
    variant_argument(q)
    q.add_argument("--target", required=True, help="house_edge=3%%, element_of_risk=2%% or rtp=98%% (RTP: 1 - "
                                                   "element of risk)")
    q.add_argument("--vary", action="append", required=True, metavar="PAY", help=VARY_HELP)
    q.add_argument("--any-order", action="store_true", help="allow a better hand to pay less than a worse one")
    q.add_argument("--best", type=int, default=10, help="how many of the closest paytables to list (default 10)")
    q.add_argument("--write", metavar="FILE.toml", help="write the closest paytable as a variant file (certify it "
                                                       "with studodds batch FILE.toml)")
    q.add_argument("--name", help="name of the written variant (default: the file's name without .toml)")
    common(q)
    q.set_defaults(func=solve)

    q = tasks.add_parser("search", help="every paytable of a grid against bounds, with the Pareto front",
                         description="Evaluate every candidate paytable exactly (optimal strategy each), keep those "
                                     "within the bounds, and report their Pareto front.")
    variant_argument(q)
    q.add_argument("--vary", action="append", required=True, metavar="PAY", help=VARY_HELP)
    q.add_argument("--bound", action="append", default=[], metavar="FIGURE=LO..HI",
                   help="house_edge, element_of_risk, rtp, hit_frequency, standard_deviation, largest_win or "
                        "raise_probability within LO..HI (either end may be left out; 3%%, 0.03 or 3/100)")
    q.add_argument("--front", default="house_edge:max,hit_frequency:max",
                   help="objectives of the Pareto front, FIGURE:max or FIGURE:min, comma-separated "
                        "(default house_edge:max,hit_frequency:max)")
    q.add_argument("--any-order", action="store_true", help="allow a better hand to pay less than a worse one")
    q.add_argument("--csv", metavar="FILE", help="write every feasible paytable to this CSV file")
    q.add_argument("--plot", metavar="FILE.png", help="draw the feasible set and its front (needs matplotlib)")
    q.add_argument("--scheduler", metavar="ADDRESS", help="run the chunks on this Dask scheduler (needs the dask extra)")
    common(q)
    q.set_defaults(func=search)


def sensitivity(args: argparse.Namespace) -> int:
    from studodds.reports import design  # lazy: start-up time
    emit(args, api.sensitivity(variant_of(args), **api_options(args)), design.sensitivity_text)
    return 0


def solve(args: argparse.Namespace) -> int:
    from studodds.reports import design  # lazy: start-up time
    out = output_file("--write", args.write, ".toml") if args.write else None
    spec = variant_of(args)
    result = api.solve(spec, args.target, args.vary, ordered=not args.any_order, best=args.best, **api_options(args))
    if out is not None and result.best:
        best = result.best[0][0]
        name = args.name or out.stem
        moved = ", ".join(f"{k} {best.pays[k]}" for k in (a.key for a in result.axes))
        desc = f"{result.variant.name} with {moved}: {result.target.figure} {float(best.figure(result.target.figure)):.6%}"
        api.design_file(spec, best.pays, name, desc, path=out)
        print(f"studodds: wrote {out}", file=sys.stderr)
    emit(args, result, design.solve_text)
    return 0


def search(args: argparse.Namespace) -> int:
    from studodds.reports import design, plots  # lazy: start-up time
    csv_path = output_file("--csv", args.csv, ".csv") if args.csv else None
    png_path = output_file("--plot", args.plot, ".png") if args.plot else None
    if png_path is not None:
        plots.pyplot()                                # say what to install before the work
    rows, finish = design.csv_writer(csv_path) if csv_path is not None else (None, None)
    result = api.search(variant_of(args), args.vary, bounds=args.bound, front=args.front, ordered=not args.any_order,
                        scheduler=args.scheduler, rows=rows, points=png_path is not None, **api_options(args))
    if finish is not None:
        finish()
    if png_path is not None:
        design.front_picture(result, png_path)
    emit(args, result, design.search_text)
    return 0
