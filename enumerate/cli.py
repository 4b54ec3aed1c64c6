"""The ``studodds`` command line.

Every user mistake (bad card, unreadable file, bad variant) ends in one line on stderr that
names the problem, and exit code 2; an interrupt ends in one line and exit code 130.
"""
from __future__ import annotations

import argparse
import json
import sys
import warnings
from typing import Sequence

from enumerate.errors import StudoddsError


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--threads", type=int, default=None,
                   help="worker threads for counting (default: all cores)")
    p.add_argument("--no-cache", action="store_true",
                   help="neither read nor write the on-disk count cache")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="studodds",
        description="Exhaustive, exact odds for Caribbean Stud Poker.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("analyze", help="return table and headline figures of a variant",
                       description="Exact analysis of a variant under optimal strategy "
                                   "(default: the common US paytable).")
    p.add_argument("variant", nargs="?", default="us-common", help="variant name (default us-common)")
    p.add_argument("--json", action="store_true", help="print JSON with exact fraction strings")
    _add_common(p)
    p.set_defaults(func=cmd_analyze)
    return parser


def _variant(name: str):
    from enumerate.variant import us_common
    known = {"us-common": us_common}
    if name not in known:
        raise StudoddsError(f"unknown variant {name!r} (known: {', '.join(sorted(known))})")
    return known[name]()


def _counts(variant, args):
    from enumerate.counts import load_or_compute
    from enumerate.progress import bar_factory
    if args.threads is not None and args.threads < 1:
        raise StudoddsError(f"--threads must be at least 1, got {args.threads}")
    return load_or_compute(variant.qualifier.threshold, use_cache=not args.no_cache,
                           threads=args.threads,
                           progress_factory=bar_factory("counting", args.quiet))


def cmd_analyze(args) -> int:
    from enumerate.analysis import analyze
    from enumerate.report import analysis_dict, summary_text
    variant = _variant(args.variant)
    result = analyze(_counts(variant, args), variant)
    if args.json:
        print(json.dumps(analysis_dict(result), indent=2))
    else:
        print(summary_text(result))
    return 0


def _format_warning(message, category, filename, lineno, line=None) -> str:
    return f"studodds: warning: {message}\n"


def main(argv: Sequence[str] | None = None) -> int:
    warnings.formatwarning = _format_warning
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("studodds: interrupted", file=sys.stderr)
        return 130
    except (StudoddsError, ValueError) as exc:
        print(f"studodds: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(f"studodds: error:{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
