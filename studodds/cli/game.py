"""Commands on the game of one variant: ``analyze``, ``variants``, ``hand``, ``ev-table``,
``strategies``, ``plots`` and ``diff`` (two variants)."""
from __future__ import annotations

import argparse
from typing import Any, Literal, TypedDict

from enumerate.core.shapes import Count, shape
from enumerate.rules.variant import VariantJSON
from evaluator.errors import ParameterError
from studodds import api
from studodds.cli.common import (
    api_options,
    common,
    emit,
    output_file,
    output_folder,
    strict,
    variant_argument,
    variant_of,
    warn,
    whole_game_checkpoint,
)
from studodds.reports.text import diff_text, hand_text, strategies_text, summary_text


@shape("variants", document=True)
class VariantsJSON(TypedDict):
    """The JSON of the built-in variants (kind "variants")."""

    kind: Literal["variants"]
    variants: list[VariantJSON]


@shape("ev_table", document=True)
class EvTableJSON(TypedDict):
    """The JSON of a written EV table (kind "ev_table"): its file and what it holds."""

    kind: Literal["ev_table"]
    variant: str
    path: str
    format: Literal["npz", "csv"]
    rows: Count
    situations: Count
    schema: str


@shape("plots", document=True)
class PlotsJSON(TypedDict):
    """The JSON of the pictures written (kind "plots")."""

    kind: Literal["plots"]
    variant: str
    files: list[str]


def register(sub: Any) -> None:
    p = sub.add_parser("analyze", help="return table and headline figures of a variant",
                       description="Exact analysis of a variant under optimal strategy "
                                   "(default: the common US paytable).")
    variant_argument(p)
    strict(p)
    whole_game_checkpoint(p)
    common(p)
    p.set_defaults(func=analyze)

    p = sub.add_parser("variants", help="list the built-in variants")
    common(p)
    p.set_defaults(func=variants)

    p = sub.add_parser("hand", help="call/fold EV of one player hand (every switch or purchase on a table with draws)",
                       description="Counts over the 163,185 dealer completions and exact EVs of a hand "
                                   "against one up card, or against each of the 47.  On a table that lets the "
                                   "player switch cards or buy a sixth card: every allowed action with its fee "
                                   "and its exact EV after the optimal raise/fold on every draw, best first.")
    p.add_argument("cards", help='five cards, e.g. "As Kd Jh 8c 3s"')
    variant_argument(p)
    p.add_argument("--up", help="the dealer's up card, e.g. 7d")
    common(p)
    p.set_defaults(func=hand)

    p = sub.add_parser("ev-table", help="export the EV of every situation",
                       description="One row per situation class up to suits (5,649,150 rows) with its "
                                   "multiplicity, counts and exact EV(raise); .npz or .csv by extension.")
    variant_argument(p)
    p.add_argument("--out", required=True, help="output file, .npz or .csv")
    common(p)
    p.set_defaults(func=ev_table)

    p = sub.add_parser("strategies", help="exact figures of simple strategies",
                       description="Optimal, raise everything, Ace/King or better, pair or better, "
                                   "A-K-J-8-3 or better, matching rank, three rules of thumb.")
    variant_argument(p)
    p.add_argument("--raise-at-least", metavar="HAND",
                   help='also evaluate "raise iff hand >= HAND" (ranks such as AKJ83, or 5 cards)')
    common(p)
    p.set_defaults(func=strategies)

    p = sub.add_parser("plots", help="PNG pictures of a variant (needs matplotlib)")
    variant_argument(p)
    p.add_argument("--out", required=True, help="output folder")
    common(p)
    p.set_defaults(func=pictures)

    p = sub.add_parser("diff", help="impact of a paytable change (A -> B)")
    p.add_argument("a", nargs="?", metavar="A", help="the table before: a variant name or file")
    p.add_argument("b", nargs="?", metavar="B", help="the table after: a variant name or file")
    p.add_argument("--checkpoint", metavar="FOLDER", action="append",
                   help="read a whole game counted in shards from FOLDER (a 'draws-exact --checkpoint' or "
                        "'analyze --checkpoint' run) instead of the user cache: given once or twice, each folder "
                        "for the table whose run it holds")
    common(p)
    p.set_defaults(func=diff)


def analyze(args: argparse.Namespace) -> int:
    a = api.analyze(variant_of(args), strict=args.strict, checkpoint=args.checkpoint, **api_options(args))
    warn(a.variant.name, a.warnings())
    emit(args, a, summary_text)
    return 0


def variants(args: argparse.Namespace) -> int:
    found = api.variants()
    data: VariantsJSON = {"kind": "variants", "variants": [v.to_dict() for v in found]}
    emit(args, data, lambda _: "\n".join(f"{v.name:<26} {v.description}" for v in found))
    return 0


def hand(args: argparse.Namespace) -> int:
    emit(args, api.hand(args.cards, args.up, variant=variant_of(args), **api_options(args)), hand_text)
    return 0


def ev_table(args: argparse.Namespace) -> int:
    out = output_file("--out", args.out, ".npz", ".csv")
    table = api.ev_table(variant_of(args), **api_options(args))
    table.save(out)
    situations = int(table.multiplicity.sum(dtype="int64"))
    data: EvTableJSON = {"kind": "ev_table", "variant": table.variant, "path": str(out),
                         "format": "npz" if out.suffix == ".npz" else "csv",
                         "rows": len(table), "situations": situations, "schema": table.SCHEMA}
    emit(args, data, lambda d: f"{out}: {d['rows']:,} situation classes standing for {situations:,} situations")
    return 0


def strategies(args: argparse.Namespace) -> int:
    emit(args, api.strategies(variant_of(args), raise_at_least=args.raise_at_least, **api_options(args)),
         strategies_text)
    return 0


def pictures(args: argparse.Namespace) -> int:
    from studodds.reports import plots  # lazy: start-up time
    v = api.load_variant(variant_of(args))
    plots.pyplot()                                    # say what to install before counting
    out = output_folder("--out", args.out)
    table = api.count_table(v, **api_options(args))
    files = plots.pictures(table, v, api.analyze(v, **api_options(args)), out)
    data: PlotsJSON = {"kind": "plots", "variant": v.name, "files": [str(f) for f in files]}
    emit(args, data, lambda d: "\n".join(d["files"]))
    return 0


def diff(args: argparse.Namespace) -> int:
    if args.a is None or args.b is None:
        raise ParameterError("b", "diff compares two tables: name both, the table before and the table after, "
                                         "such as 'studodds diff us-common royal-200'")
    emit(args, api.diff(args.a, args.b, checkpoint=args.checkpoint, **api_options(args)), diff_text)
    return 0
