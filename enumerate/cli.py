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
    p.add_argument("variant", nargs="?", default="us-common",
                   help="built-in variant name or variant .toml file (default us-common)")
    p.add_argument("--json", action="store_true", help="print JSON with exact fraction strings")
    _add_common(p)
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("variants", help="list the built-in variants")
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("batch", help="write certified odds tables",
                       description="Write <out>/<variant>/{summary.json, return_table.csv, report.md, "
                                   "variant.toml} for each variant (default: every built-in).")
    p.add_argument("variants", nargs="*", help="names, .toml files or folders of .toml files")
    p.add_argument("--out", default="results", help="output folder (default results/)")
    _add_common(p)
    p.set_defaults(func=cmd_batch)

    p = sub.add_parser("check", help="recompute committed tables and report any difference",
                       description="Recompute every <dir>/<variant>/ table and compare every exact "
                                   "value; exit 1 on any difference.")
    p.add_argument("folder", nargs="?", default="results")
    _add_common(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("diff", help="impact of a paytable change (A -> B)")
    p.add_argument("a", help="variant name or file")
    p.add_argument("b", help="variant name or file")
    _add_common(p)
    p.set_defaults(func=cmd_diff)
    return parser


def _source(spec: str):
    from enumerate.variant_file import resolve
    return resolve(spec)


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
    variant = _source(args.variant).variant
    result = analyze(_counts(variant, args), variant)
    if args.json:
        print(json.dumps(analysis_dict(result), indent=2))
    else:
        print(summary_text(result))
    return 0


def cmd_variants(args) -> int:
    from enumerate.variant_file import builtin_names, load_builtin
    for name in builtin_names():
        v = load_builtin(name).variant
        print(f"{name:<26} {v.description}")
    return 0


def cmd_batch(args) -> int:
    from pathlib import Path
    from enumerate import certify
    from enumerate.analysis import analyze
    from enumerate.progress import bar_factory
    from enumerate.selfcheck import spot_check
    from enumerate.variant_file import resolve_many
    sources = resolve_many(args.variants)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise StudoddsError(f"{out}: exists and is not a folder")
    by_qualifier: dict = {}
    for s in sources:
        by_qualifier.setdefault(s.variant.qualifier.threshold, []).append(s)
    with bar_factory("variants", args.quiet)(len(sources)) as bar:
        for threshold, group in by_qualifier.items():
            counts = _counts(group[0].variant, args)
            checked = spot_check(counts, certify.SPOT_CHECKS)
            for s in group:
                files = certify.render(analyze(counts, s.variant), s, checked)
                certify.write(out, files, s.variant.name)
                bar.update(1)
    for s in sources:
        print(f"{out / s.variant.name}/")
    return 0


def cmd_check(args) -> int:
    from pathlib import Path
    from enumerate import certify
    from enumerate.analysis import analyze
    from enumerate.selfcheck import spot_check
    folder = Path(args.folder)
    if not folder.is_dir():
        raise StudoddsError(f"{folder}: no such folder of results")
    tables = sorted(p.parent for p in folder.glob("*/summary.json"))
    if not tables:
        raise StudoddsError(f"{folder}: holds no results (no */summary.json)")
    failures = 0
    checked: dict = {}
    for table in tables:
        try:
            source = certify.committed_source(table)
        except (OSError, ValueError, KeyError) as exc:
            print(f"{table}: cannot read the committed variant: {exc}")
            failures += 1
            continue
        counts = _counts(source.variant, args)
        threshold = source.variant.qualifier.threshold
        if threshold not in checked:
            checked[threshold] = spot_check(counts, certify.SPOT_CHECKS)
        fresh = certify.render(analyze(counts, source.variant), source, checked[threshold])
        diffs = certify.compare(table, fresh)
        if diffs:
            failures += 1
            print(f"{table}: {len(diffs)} difference(s)")
            for d in diffs[:50]:
                print(f"  {d.file}: {d.figure}: old {d.old!r} -> new {d.new!r}")
            if len(diffs) > 50:
                print(f"  ... and {len(diffs) - 50} more")
        else:
            print(f"{table}: ok")
    print(f"checked {len(tables)} table(s): {failures} with differences")
    return 1 if failures else 0


def cmd_diff(args) -> int:
    from enumerate.analysis import analyze
    from enumerate.paydiff import diff_text, flips
    a, b = _source(args.a).variant, _source(args.b).variant
    ca = _counts(a, args)
    cb = ca if b.qualifier.threshold == a.qualifier.threshold else _counts(b, args)
    print(diff_text(analyze(ca, a), analyze(cb, b), flips(ca, a, cb, b)))
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
