"""``progressive``: the progressive jackpot side bet, exactly."""
from __future__ import annotations

import argparse
from typing import Any

from studodds import api
from studodds.cli.common import api_options, common, emit, variant_argument, variant_of

DEFAULT = "progressive-100-75-50"


def register(sub: Any) -> None:
    p = sub.add_parser("progressive", help="the progressive jackpot side bet, exactly",
                       description="Hit probabilities, return against the meter, break-even meter, long-run "
                                   "return over jackpot cycles, several players sharing, and the combined game.")
    variant_argument(p, default=DEFAULT)
    p.add_argument("--meter", help="meter level in side-wager units (default: the break-even meter)")
    p.add_argument("--side-wager", default="1", help="side wager in antes, for the combined game (default 1)")
    common(p)
    p.set_defaults(func=progressive)


def progressive(args: argparse.Namespace) -> int:
    from studodds.reports.progressive import report_text  # lazy: start-up time
    emit(args, api.progressive(variant_of(args), meter=args.meter, side_wager=args.side_wager, **api_options(args)),
         report_text)
    return 0
