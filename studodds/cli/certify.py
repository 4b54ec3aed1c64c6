"""Certified tables: ``batch`` writes them and ``check`` recomputes committed ones; both are
library calls (:func:`studodds.certify.batch`, :func:`studodds.certify.check`) that this module
only parses for and prints."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from studodds.cli.common import (
    EXIT_DIFFERENCES,
    api_options,
    common,
    emit,
    exposure_levels,
    games_number,
    strict,
    warn,
    whole_game_checkpoint,
    whole_numbers,
)


def register(sub: Any) -> None:
    p = sub.add_parser("batch", help="write certified odds tables",
                       description="Write <out>/<variant>/{summary.json, return_table.csv, strategy.md, "
                                   "strategy.csv, report.md, report.html, variant.toml} for each variant "
                                   "(default: every built-in); nothing is written unless every table is "
                                   "complete.")
    p.add_argument("variants", nargs="*", metavar="VARIANT", help="names, .toml files or folders of .toml files")
    p.add_argument("--out", default="results",
                   help="output folder (default results/); a table folder that already holds files is refused "
                        "unless --replace is given")
    p.add_argument("--replace", action="store_true",
                   help="replace table folders that already hold a table (each folder whole, atomically; "
                        "files of the old folder that the new table does not write are removed)")
    p.add_argument("--formats", default=None,
                   help="report formats beside summary.json and the CSVs: md (always), html, pdf (needs headless "
                        "Chromium), xlsx (needs XlsxWriter); default $STUDODDS_FORMATS, else all")
    p.add_argument("--hands", default="1,10,100,1000,10000",
                   help="numbers of hands of the net-result table (default 1,10,100,1000,10000; each 1..1,000,000)")
    p.add_argument("--protection", nargs="?", const="none,0,1,2,3,4", default=None, metavar="LEVELS",
                   help="add protection.json and a game-protection section to the report: exact edges with "
                        "exposed dealer cards (default levels none,0,1,2,3,4) and A/K edge sorting (cold: "
                        "minutes per paytable)")
    p.add_argument("--seen-hand", action="store_true",
                   help="with --protection: add the exact whole game of a player who sees one other hand (a "
                        "partner's, or his own second box) to protection.json (about 1.5 core-hours a paytable)")
    p.add_argument("--simulate", type=games_number, default=0, metavar="GAMES",
                   help="add a simulation check to each report: GAMES games (1e8 is accepted; about 5 s per "
                        "100 million on 2 cores) compared with the exact figures (default: none)")
    p.add_argument("--simulate-seed", type=int, default=0, metavar="SEED",
                   help="seed of the simulation check (default 0); the same seed gives the same figures")
    strict(p)
    whole_game_checkpoint(p)
    common(p)
    p.set_defaults(func=batch)

    p = sub.add_parser("check", help="recompute committed tables and report any difference",
                       description="Name every table whose rules changed first, before any counting; then recompute "
                                   "every other <folder>/<variant>/ table and compare every exact value, its whole "
                                   "games verified from their kept sums (--recount counts them again); exit 1 on any "
                                   "difference.")
    p.add_argument("folder", nargs="?", default="results", metavar="FOLDER")
    p.add_argument("--recount", action="store_true",
                   help="count every kept whole game again instead of reading its kept sums back (switch_game.json, "
                        "boxes_game.json, seen_hand.json: core-hours each, the time said before it starts, resumable "
                        "from the user cache), and recompute tables whose rules changed")
    p.add_argument("--no-protection", action="store_true",
                   help="do not recompute protection.json: its report section is rendered from the committed file "
                        "and the file itself is not compared")
    # before --recount the kept sums were read back by one option per kind: still accepted (now the default)
    p.add_argument("--no-switch-game", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--no-boxes-game", action="store_true", help=argparse.SUPPRESS)
    common(p)
    p.set_defaults(func=check)


def batch(args: argparse.Namespace) -> int:
    levels = exposure_levels("protection", args.protection) if args.protection is not None else ()
    from studodds import certify  # lazy: start-up time
    result = certify.batch(args.variants, args.out, formats=args.formats, hands=whole_numbers("hands", args.hands),
                           protection=levels, seen_hand=args.seen_hand, strict=args.strict, simulate=args.simulate,
                           simulate_seed=args.simulate_seed, replace=args.replace, checkpoint=args.checkpoint,
                           **api_options(args))
    for name, w in result.warnings:
        warn(name, [w])
    for note in result.notes:
        print(f"studodds: warning: {note}", file=sys.stderr)
    emit(args, result, certify.BatchResult.text)
    return 0


def check(args: argparse.Namespace) -> int:
    from studodds import certify  # lazy: start-up time
    streamed = not args.json

    def say(line: str) -> None:                  # each cause and table as soon as it is known
        print(line, flush=True)
    result = certify.check(args.folder, recount=args.recount, protection=not args.no_protection,
                           on_line=say if streamed else None, **api_options(args))
    if streamed:
        print("\n".join(result.closing_lines()))
    else:
        emit(args, result, certify.CheckResult.text)
    return 0 if result.ok else EXIT_DIFFERENCES

