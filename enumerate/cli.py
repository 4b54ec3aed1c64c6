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


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``studodds: error: ...`` and exit code 2."""

    def error(self, message: str):
        self.exit(2, f"studodds: error: {message} (see studodds {self.prog.split()[-1]} --help)\n"
                  if " " in self.prog else f"studodds: error: {message} (see studodds --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="studodds",
        description="Exhaustive, exact odds for Caribbean Stud Poker.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

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

    p = sub.add_parser("hand", help="call/fold EV of one player hand",
                       description="Counts over the 163,185 dealer completions and exact EVs of a hand "
                                   "against one up card, or against each of the 47.")
    p.add_argument("cards", help='five cards, e.g. "As Kd Jh 8c 3s"')
    p.add_argument("--up", help="the dealer's up card, e.g. 7d")
    p.add_argument("--variant", default="us-common", help="built-in name or .toml file")
    p.add_argument("--json", action="store_true", help="JSON with exact fraction strings")
    _add_common(p)
    p.set_defaults(func=cmd_hand)

    p = sub.add_parser("ev-table", help="export the EV of every situation",
                       description="One row per situation class up to suits (5,649,150 rows) with its "
                                   "multiplicity, counts and exact EV(raise); .npz or .csv by extension.")
    p.add_argument("--variant", default="us-common")
    p.add_argument("--out", required=True, help="output file, .npz or .csv")
    _add_common(p)
    p.set_defaults(func=cmd_ev_table)

    p = sub.add_parser("strategies", help="exact figures of simple strategies",
                       description="Optimal, raise everything, Ace/King or better, pair or better, "
                                   "A-K-J-8-3 or better, matching rank, three rules of thumb.")
    p.add_argument("--variant", default="us-common")
    p.add_argument("--raise-at-least", metavar="HAND",
                   help='also evaluate "raise iff hand >= HAND" (ranks such as AKJ83, or 5 cards)')
    _add_common(p)
    p.set_defaults(func=cmd_strategies)

    p = sub.add_parser("plots", help="PNG pictures of a variant (needs matplotlib)")
    p.add_argument("--variant", default="us-common")
    p.add_argument("--out", required=True, help="output folder")
    _add_common(p)
    p.set_defaults(func=cmd_plots)

    p = sub.add_parser("progressive", help="the progressive jackpot side bet, exactly",
                       description="Hit probabilities, return against the meter, break-even meter, long-run "
                                   "return over jackpot cycles, several players sharing, and the combined game.")
    p.add_argument("--variant", default="progressive-100-75-50")
    p.add_argument("--meter", help="meter level in side-wager units (default: the break-even meter)")
    p.add_argument("--side-wager", default="1", help="side wager in antes, for the combined game (default 1)")
    p.add_argument("--json", action="store_true")
    _add_common(p)
    p.set_defaults(func=cmd_progressive)

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
            indexes = certify.indexes_for(group, counts)
            for s in group:
                index = indexes.get((s.variant.ante_no_qualify, s.variant.ante_win))
                files = certify.render(s, checked, counts, index)
                certify.write(out, files, s.variant.name)
                bar.update(1)
    for s in sources:
        print(f"{out / s.variant.name}/")
    return 0


def cmd_check(args) -> int:
    from pathlib import Path
    from enumerate import certify
    from enumerate.selfcheck import spot_check
    folder = Path(args.folder)
    if not folder.is_dir():
        raise StudoddsError(f"{folder}: no such folder of results")
    tables = sorted(p.parent for p in folder.glob("*/summary.json"))
    if not tables:
        raise StudoddsError(f"{folder}: holds no results (no */summary.json)")
    failures = 0
    counts_by_qualifier: dict = {}       # threshold -> (count table, spot checks passed)
    for table in tables:
        try:
            source = certify.committed_source(table)
        except (OSError, ValueError, KeyError) as exc:
            print(f"{table}: cannot read the committed variant: {exc}")
            failures += 1
            continue
        threshold = source.variant.qualifier.threshold
        if threshold not in counts_by_qualifier:
            counts = _counts(source.variant, args)
            counts_by_qualifier[threshold] = (counts, spot_check(counts, certify.SPOT_CHECKS))
        counts, checked = counts_by_qualifier[threshold]
        fresh = certify.render(source, checked, counts)
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


def cmd_hand(args) -> int:
    from evaluator.cards import format_card, format_hand, parse_hand
    from enumerate.ev import hand_evs, situation_ev
    from enumerate.situation import parse_situation
    cards, up = parse_situation(args.cards, args.up) if args.up is not None else (parse_hand(args.cards), None)
    variant = _source(args.variant).variant
    table = _counts(variant, args)
    rows = [situation_ev(table, variant, cards, up)] if up is not None else None
    before = None
    if rows is None:
        rows, before = hand_evs(table, variant, cards)
    if args.json:
        out = {"hand": format_hand(cards), "variant": variant.name, "situations": [
            {"up": format_card(r.up), "no_qualify": r.counts.no_qualify, "win": r.counts.win,
             "tie": r.counts.tie, "lose": r.counts.lose, "ev_raise": str(r.ev_raise),
             "ev_raise_decimal": float(r.ev_raise), "ev_fold": str(r.ev_fold), "action": r.action,
             "margin": str(r.margin)} for r in rows]}
        if before is not None:
            out["ev_before_up_card"] = str(before)
        print(json.dumps(out, indent=2))
        return 0
    print(f"Hand {format_hand(cards)}, variant {variant.name}; counts over 163,185 dealer completions")
    print(f"{'up':>3} {'no qualify':>10} {'win':>7} {'tie':>5} {'lose':>7} {'EV(raise)':>11} "
          f"{'EV(fold)':>8} {'action':>6} {'margin':>9}  EV(raise) exact")
    for r in rows:
        c = r.counts
        print(f"{format_card(r.up):>3} {c.no_qualify:>10,} {c.win:>7,} {c.tie:>5,} {c.lose:>7,} "
              f"{float(r.ev_raise):>11.6f} {-1:>8} {r.action:>6} {float(r.margin):>9.6f}  {r.ev_raise}")
    if before is not None:
        print(f"EV of the hand before the up card is seen (optimal play): {float(before):.6f} antes = {before}")
    return 0


def cmd_ev_table(args) -> int:
    from pathlib import Path
    from enumerate import ev_table
    out = Path(args.out)
    if out.suffix not in (".npz", ".csv"):
        raise StudoddsError(f"{out}: the output must end in .npz or .csv")
    if out.parent and not out.parent.exists():
        raise StudoddsError(f"{out.parent}: no such folder")
    variant = _source(args.variant).variant
    table = ev_table.build(_counts(variant, args), variant)
    (ev_table.save_npz if out.suffix == ".npz" else ev_table.save_csv)(table, out)
    print(f"{out}: {len(table):,} situation classes standing for {int(table.multiplicity.sum(dtype='int64')):,} situations")
    return 0


def cmd_strategies(args) -> int:
    from enumerate import strategies
    from enumerate.qualifier import parse_qualifier
    variant = _source(args.variant).variant
    table = _counts(variant, args)
    named = strategies.simple_strategies()
    if args.raise_at_least:
        try:
            threshold = parse_qualifier(args.raise_at_least)
        except ValueError as exc:
            raise StudoddsError(f"--raise-at-least: {exc}") from None
        named[f"{args.raise_at_least} or better"] = strategies.raise_at_least(threshold.threshold)
    print(strategies_text(strategies.evaluate(table, variant, named)[0]))
    return 0


def strategies_text(results) -> str:
    lines = [f"{'strategy':<28} {'total loss (antes)':>22} {'house edge':>11} {'element of risk':>16} "
             f"{'cost vs optimal':>16}"]
    for r in results:
        a = r.analysis
        loss = f"{a.total_loss.numerator:,}" if a.total_loss.denominator == 1 else f"{float(a.total_loss):,.3f}"
        lines.append(f"{r.name:<28} {loss:>22} {float(a.house_edge):>11.6%} {float(a.element_of_risk):>16.6%} "
                     f"{float(r.cost):>16.6%}")
    return "\n".join(lines)


def cmd_plots(args) -> int:
    from pathlib import Path
    from enumerate import plots
    from enumerate.analysis import analyze
    variant = _source(args.variant).variant
    plots._pyplot()                                   # say what to install before counting
    table = _counts(variant, args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plots.ak_heatmap(table, variant, out / "strategy_ak.png")
    plots.return_bars(analyze(table, variant), out / "return_table.png")
    plots.ev_by_category(table, variant, out / "ev_by_category.png")
    from enumerate.cache import atomic_write_text
    atomic_write_text(out / "pictures.md", "\n".join([
        f"# Pictures: {variant.name}", "",
        "![Ace/King strategy: EV(raise) + 1 by rank pattern and up card](strategy_ak.png)", "",
        "![Return table](return_table.png)", "",
        "![EV(raise) by player hand category](ev_by_category.png)", ""]))
    for f in ("strategy_ak.png", "return_table.png", "ev_by_category.png", "pictures.md"):
        print(out / f)
    return 0


def cmd_progressive(args) -> int:
    from enumerate import sidebet, sidebet_report
    from enumerate.variant_file import parse_amount
    variant = _source(args.variant).variant
    if variant.side_bet is None:
        raise StudoddsError(f"variant {variant.name!r} has no [progressive] side bet")
    try:
        meter = parse_amount(args.meter) if args.meter is not None else None
    except ValueError as exc:
        raise StudoddsError(f"--meter: {exc}") from None
    try:
        side_wager = parse_amount(args.side_wager, allow_zero=False)
    except ValueError as exc:
        raise StudoddsError(f"--side-wager: {exc}") from None
    data = sidebet_report.figures(variant.side_bet, meter)
    at = meter if meter is not None else sidebet.break_even_meter(variant.side_bet)
    combined = sidebet.combined(_counts(variant, args), variant, at if at is not None else variant.side_bet.seed,
                                side_wager)
    if args.json:
        data["combined"] = {"meter": str(combined.meter), "side_wager": str(combined.side_wager),
                            "base_return": str(combined.base_return), "side_return": str(combined.side_return),
                            "house_edge_per_total_wager": str(combined.house_edge_per_total),
                            "strategy_changes": combined.strategy_changes}
        print(json.dumps(data, indent=2))
    else:
        print(sidebet_report.text(variant.name, data, combined))
    return 0


def _one_line(message) -> str:
    """Error messages are one line whatever the input echoed in them holds."""
    return str(message).replace("\r", "\\r").replace("\n", "\\n")


def threading_main() -> bool:
    import threading
    return threading.current_thread() is threading.main_thread()


def _format_warning(message, category, filename, lineno, line=None) -> str:
    return f"studodds: warning: {message}\n"


class _Terminated(BaseException):
    """SIGTERM, turned into an exception so that temporary files are cleaned up."""


def _on_sigterm(signum, frame):
    raise _Terminated()


def main(argv: Sequence[str] | None = None) -> int:
    import signal
    warnings.formatwarning = _format_warning
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    if threading_main():
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("studodds: interrupted", file=sys.stderr)
        return 130
    except _Terminated:
        print("studodds: terminated", file=sys.stderr)
        return 143
    except MemoryError:
        print("studodds: error: out of memory (a cold count needs about 0.4 GB)", file=sys.stderr)
        return 2
    except (StudoddsError, ValueError) as exc:
        print(f"studodds: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(_one_line(f"studodds: error:{where}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
