"""The ``studodds`` command line (also ``python -m studodds``).

Each command calls the public API (:mod:`studodds.api`) and prints either text or, with
``--json``, the returned object's ``to_dict()`` (the convention of :mod:`enumerate.core.jsonform`,
schema in ``studodds/schema.json``).

Exit codes: 0 done; 1 ``check`` found differences; 2 bad input (a :class:`StudoddsError`, a
usage error, or a file the system refused: one line on stderr naming the problem); 3 internal
error (a bug: one line, and the traceback with ``--debug`` or ``STUDODDS_DEBUG=1``); 130 / 143
interrupted / terminated.  A closed output pipe (``studodds analyze | head``) ends quietly.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from enumerate.rules.sanity import rule_warnings
from evaluator.errors import StudoddsError

EXIT_DIFFERENCES = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``studodds: error: ...`` and exit code 2."""

    def error(self, message: str) -> NoReturn:
        where = f"studodds {self.prog.split()[-1]} --help" if " " in self.prog else "studodds --help"
        self.exit(EXIT_BAD_INPUT, f"studodds: error: {_one_line(message)} (see {where})\n")


def _version_text() -> str:
    from enumerate.core.engine import ENGINE_VERSION
    from studodds import __version__
    from studodds.api import openmp_enabled
    return (f"studodds {__version__} (engine {ENGINE_VERSION}, "
            f"OpenMP {'on' if openmp_enabled() else 'off: serial build'})")


class _Version(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *a: Any, **kw: Any) -> None:
        print(_version_text())
        parser.exit(0)


def _common(p: argparse.ArgumentParser, json_help: str = "print JSON (exact values as fractions)") -> None:
    p.add_argument("--json", action="store_true", help=json_help)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--threads", type=int, default=None,
                   help="threads for every parallel step (default: the CPUs available)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the on-disk count cache")
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                   help="show the traceback of an internal error")


def _strict(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strict", action="store_true",
                   help="treat sanity warnings (player edge, pay below a weaker hand's, vacuous qualifier) as errors")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="studodds", description="Exhaustive, exact odds for Caribbean Stud Poker.")
    parser.add_argument("--version", action=_Version)
    parser.add_argument("--debug", action="store_true", help="show the traceback of an internal error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("analyze", help="return table and headline figures of a variant",
                       description="Exact analysis of a variant under optimal strategy "
                                   "(default: the common US paytable).")
    p.add_argument("variant", nargs="?", default="us-common",
                   help="built-in variant name or variant .toml file (default us-common)")
    _strict(p)
    _common(p)
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("variants", help="list the built-in variants")
    _common(p)
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("batch", help="write certified odds tables",
                       description="Write <out>/<variant>/{summary.json, return_table.csv, strategy.md, "
                                   "strategy.csv, report.md, variant.toml} for each variant "
                                   "(default: every built-in).")
    p.add_argument("variants", nargs="*", help="names, .toml files or folders of .toml files")
    p.add_argument("--out", default="results", help="output folder (default results/)")
    p.add_argument("--formats", default=None,
                   help="report formats beside summary.json and the CSVs: md (always), html, pdf (needs headless "
                        "Chromium), xlsx (needs openpyxl); default $STUDODDS_FORMATS, else all")
    p.add_argument("--hands", default="1,10,100,1000,10000",
                   help="numbers of hands of the net-result table (default 1,10,100,1000,10000; each 1..1,000,000)")
    p.add_argument("--protection", nargs="?", const="none,0,1,2,3,4", default=None, metavar="LEVELS",
                   help="add protection.json and a game-protection section to the report: exact edges with "
                        "exposed dealer cards (default levels none,0,1,2,3,4) and A/K edge sorting (cold: "
                        "minutes per paytable)")
    _strict(p)
    _common(p)
    p.set_defaults(func=cmd_batch)

    p = sub.add_parser("check", help="recompute committed tables and report any difference",
                       description="Recompute every <dir>/<variant>/ table and compare every exact "
                                   "value; exit 1 on any difference.")
    p.add_argument("folder", nargs="?", default="results")
    p.add_argument("--no-protection", action="store_true",
                   help="do not recompute protection.json (minutes when not cached): its report section "
                        "is rendered from the committed file and the file itself is not compared")
    _common(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("hand", help="call/fold EV of one player hand",
                       description="Counts over the 163,185 dealer completions and exact EVs of a hand "
                                   "against one up card, or against each of the 47.")
    p.add_argument("cards", help='five cards, e.g. "As Kd Jh 8c 3s"')
    p.add_argument("--up", help="the dealer's up card, e.g. 7d")
    p.add_argument("--variant", default="us-common", help="built-in name or .toml file")
    _common(p)
    p.set_defaults(func=cmd_hand)

    p = sub.add_parser("ev-table", help="export the EV of every situation",
                       description="One row per situation class up to suits (5,649,150 rows) with its "
                                   "multiplicity, counts and exact EV(raise); .npz or .csv by extension.")
    p.add_argument("--variant", default="us-common")
    p.add_argument("--out", required=True, help="output file, .npz or .csv")
    _common(p)
    p.set_defaults(func=cmd_ev_table)

    p = sub.add_parser("strategies", help="exact figures of simple strategies",
                       description="Optimal, raise everything, Ace/King or better, pair or better, "
                                   "A-K-J-8-3 or better, matching rank, three rules of thumb.")
    p.add_argument("--variant", default="us-common")
    p.add_argument("--raise-at-least", metavar="HAND",
                   help='also evaluate "raise iff hand >= HAND" (ranks such as AKJ83, or 5 cards)')
    _common(p)
    p.set_defaults(func=cmd_strategies)

    p = sub.add_parser("plots", help="PNG pictures of a variant (needs matplotlib)")
    p.add_argument("--variant", default="us-common")
    p.add_argument("--out", required=True, help="output folder")
    _common(p)
    p.set_defaults(func=cmd_plots)

    p = sub.add_parser("progressive", help="the progressive jackpot side bet, exactly",
                       description="Hit probabilities, return against the meter, break-even meter, long-run "
                                   "return over jackpot cycles, several players sharing, and the combined game.")
    p.add_argument("--variant", default="progressive-100-75-50")
    p.add_argument("--meter", help="meter level in side-wager units (default: the break-even meter)")
    p.add_argument("--side-wager", default="1", help="side wager in antes, for the combined game (default 1)")
    _common(p)
    p.set_defaults(func=cmd_progressive)

    p = sub.add_parser("diff", help="impact of a paytable change (A -> B)")
    p.add_argument("a", help="variant name or file")
    p.add_argument("b", help="variant name or file")
    _common(p)
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("holecards", help="exact edge of optimal play with exposed dealer hole cards",
                       description="Optimal play seeing the up card and 0..4 hole cards (and with no dealer "
                                   "card visible), exactly; results are cached.  Cold on 2 cores: 1 hole card "
                                   "about 10 s, 2 about a minute, 3 a few minutes.")
    p.add_argument("--variant", default="us-common", help="built-in name or .toml file")
    p.add_argument("--exposed", default="none,0,1,2,3,4",
                   help="comma-separated exposure levels: none (no dealer card) or 0..4 hole cards "
                        "(default: all)")
    p.add_argument("--share", default="",
                   help="comma-separated shares of hands (0..1, e.g. 1/4,0.5) on which one hole card is seen")
    _common(p)
    p.set_defaults(func=cmd_holecards)

    p = sub.add_parser("edgesort", help="exact edge of optimal play against an edge-sorted deck",
                       description="Optimal play seeing the up card and, for each hole card, whether its "
                                   "rank is in the sorted set; exact.")
    p.add_argument("--variant", default="us-common", help="built-in name or .toml file")
    p.add_argument("--ranks", default="AK", help="the sorted ranks, e.g. AK (default) or AKQ")
    _common(p)
    p.set_defaults(func=cmd_edgesort)

    p = sub.add_parser("collusion", help="edge of players who share their cards (sampled, with a 95%% interval)",
                       description="The player also sees his partners' five cards each (and optionally the burn "
                                   "card); situations are sampled, each dealer hole-card set of a situation is "
                                   "enumerated exactly.  Same seed and samples: same result on any number of "
                                   "threads or Dask workers.")
    p.add_argument("--variant", default="us-common", help="built-in name or .toml file")
    p.add_argument("--partners", default="6", help="comma-separated numbers of partners, 0..6 (default 6)")
    p.add_argument("--burn", choices=("no", "yes", "both"), default="no",
                   help="whether the burn card is seen too (default no)")
    p.add_argument("--samples", type=int, default=600_000, help="situations sampled per estimate (default 600,000)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--strategy", metavar="MODULE:FUNCTION",
                   help="a strategy f(hand, up, seen) -> raise? to cost instead of optimal play "
                        "(module name or path/to/file.py)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on this Dask scheduler (needs the dask extra)")
    _common(p)
    p.set_defaults(func=cmd_collusion)

    p = sub.add_parser("design", help="paytable design: sensitivity, solve for a target, search paytables",
                       description="Exact paytable design on the base game (ante pays fixed; standard settlement).")
    design = p.add_subparsers(dest="design_command", metavar="TASK", parser_class=_Parser, required=True)
    q = design.add_parser("sensitivity", help="exact value of one unit of each pay, and its flip points",
                          description="Per unit of every raise pay and both ante pays: the exact change of total "
                                      "loss, house edge, element of risk and RTP at the current optimal strategy, and "
                                      "the pay interval over which that strategy stays optimal, with the situations "
                                      "that flip at each end.")
    q.add_argument("variant", nargs="?", default="us-common", help="built-in name or .toml file (default us-common)")
    _common(q)
    q.set_defaults(func=cmd_design_sensitivity)
    vary_help = ("a pay that moves: KEY=LO..HI (step 1), KEY=LO..HI/STEP or KEY=V1,V2,... (repeat for several "
                 "pays; the others keep the variant's values)")
    q = design.add_parser("solve", help="the paytables closest to a target house edge, element of risk or RTP",
                          description="Rank every candidate paytable by its exact distance to the target; with one "
                                      "moving pay, also solve for the exact pay.")
    q.add_argument("variant", nargs="?", default="us-common")
    q.add_argument("--target", required=True, help="house_edge=3%%, element_of_risk=2%% or rtp=98%% (RTP: 1 - "
                                                   "element of risk)")
    q.add_argument("--vary", action="append", required=True, metavar="PAY", help=vary_help)
    q.add_argument("--any-order", action="store_true", help="allow a better hand to pay less than a worse one")
    q.add_argument("--best", type=int, default=10, help="how many of the closest paytables to list (default 10)")
    q.add_argument("--write", metavar="FILE.toml", help="write the closest paytable as a variant file (certify it "
                                                       "with studodds batch FILE.toml)")
    q.add_argument("--name", help="name of the written variant (default <variant>-design)")
    _common(q)
    q.set_defaults(func=cmd_design_solve)
    q = design.add_parser("search", help="every paytable of a grid against bounds, with the Pareto front",
                          description="Evaluate every candidate paytable exactly (optimal strategy each), keep those "
                                      "within the bounds, and report their Pareto front.")
    q.add_argument("variant", nargs="?", default="us-common")
    q.add_argument("--vary", action="append", required=True, metavar="PAY", help=vary_help)
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
    _common(q)
    q.set_defaults(func=cmd_design_search)
    return parser


def _emit(args: argparse.Namespace, obj: Any, text: Callable[[Any], str]) -> None:
    """Print ``obj.to_dict()`` as JSON with --json, else its text rendering."""
    if args.json:
        print(json.dumps(obj if isinstance(obj, dict) else obj.to_dict(), indent=2))
    else:
        print(text(obj))


def _api_options(args: argparse.Namespace) -> dict[str, Any]:
    """Options of the API calls that follow :func:`_table`, which already put the count table
    in memory (read from or written to the disk cache only without --no-cache)."""
    return {"threads": args.threads}


def _table(args: argparse.Namespace, variant: Any) -> Any:
    """Load or compute the variant's count table once, with the progress bar and the disk
    cache as the options say; the API calls that follow find it in memory."""
    from studodds import api
    return api.count_table(variant, threads=args.threads, use_cache=not args.no_cache,
                           progress=not args.quiet)


def cmd_analyze(args: argparse.Namespace) -> int:
    from studodds import api
    from studodds.reports.text import summary_text
    v = api.load_variant(args.variant)
    _refuse_if_strict(args, v.name, rule_warnings(v))
    _table(args, v)
    a = api.analyze(v, **_api_options(args))
    _warn(args, v.name, a.warnings())
    _emit(args, a, summary_text)
    return 0


def _warn(args: argparse.Namespace, name: str, found: list[str]) -> None:
    """Print each sanity warning on stderr; with --strict, stop with exit code 2 instead."""
    _refuse_if_strict(args, name, found)
    for w in found:
        print(f"studodds: warning: {name}: {_one_line(w)}", file=sys.stderr)


def _refuse_if_strict(args: argparse.Namespace, name: str, found: list[str]) -> None:
    if found and getattr(args, "strict", False):
        raise StudoddsError(f"{name}: {_one_line(found[0])} (--strict turns warnings into errors"
                            + (f"; {len(found) - 1} more" if len(found) > 1 else "") + ")")


def cmd_variants(args: argparse.Namespace) -> int:
    from studodds import api
    found = api.variants()
    _emit(args, {"kind": "variants", "variants": [v.to_dict() for v in found]},
          lambda _: "\n".join(f"{v.name:<26} {v.description}" for v in found))
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    from enumerate.analysis.selfcheck import spot_check
    from enumerate.rules.variant_file import resolve_many
    from studodds import certify
    from studodds.progress import bar_factory
    spec = args.formats if args.formats is not None else os.environ.get("STUDODDS_FORMATS", ",".join(certify.FORMATS))
    formats = {f.strip() for f in spec.split(",") if f.strip()} | {"md"}
    unknown = formats - set(certify.FORMATS)
    if unknown:
        raise StudoddsError(f"--formats: unknown format {sorted(unknown)[0]!r} (choose from {', '.join(certify.FORMATS)})")
    if "pdf" in formats and "html" not in formats:
        raise StudoddsError("--formats: pdf is printed from the html report: ask for html too")
    hands = _parse_hands(args.hands)
    levels = _exposure_levels("--protection", args.protection) if args.protection is not None else ()
    sources = resolve_many(args.variants)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise StudoddsError(f"{out}: exists and is not a folder")
    _writable_folder(out, make=True)                  # fail before any computing
    for s in sources:                                 # with --strict, refuse before writing anything
        _refuse_if_strict(args, s.variant.name, rule_warnings(s.variant))
    by_qualifier: dict[int, list[Any]] = {}
    for s in sources:
        by_qualifier.setdefault(s.variant.qualifier.threshold, []).append(s)
    written = []
    notes: list[str] = []
    with bar_factory("variants", args.quiet)(len(sources)) as bar:
        for group in by_qualifier.values():
            counts = _table(args, group[0].variant)
            checked = spot_check(counts, certify.SPOT_CHECKS)
            indexes = certify.indexes_for(group, counts)
            for s in group:
                index = indexes.get((s.variant.ante_no_qualify, s.variant.ante_win))
                protection = (certify.protection_data(s, counts, levels=levels, threads=args.threads,
                                                      use_cache=not args.no_cache, progress=not args.quiet)
                               if levels else None)
                files = certify.render(s, checked, counts, index, hands, protection)
                _warn(args, s.variant.name, json.loads(files["summary.json"])["analysis"]["warnings"])
                binary = certify.binary_files(files, formats, notes)
                written.append((s.variant.name, certify.write(out, files, s.variant.name, binary, formats),
                                sorted(set(certify.FILES) - ({"report.html"} - {f"report.{f}" for f in formats}))
                                + [certify.ENVIRONMENT, *binary]))
                bar.update(1)
    for note in notes:
        print(f"studodds: warning: {note}", file=sys.stderr)
    data = {"kind": "batch", "out": str(out),
            "tables": [{"variant": name, "folder": str(folder), "files": files}
                       for name, folder, files in written]}
    _emit(args, data, lambda d: "\n".join(f"{t['folder']}/" for t in d["tables"]))
    return 0


def _parse_hands(text: str) -> tuple[int, ...]:
    """``--hands``: distinct whole numbers 1..1,000,000, in increasing order."""
    try:
        values = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise StudoddsError(f"--hands: {text!r} is not a list of whole numbers such as 1,10,100") from None
    if not values or values[0] < 1 or values[-1] > 1_000_000:
        raise StudoddsError(f"--hands: {text!r}: give numbers of hands from 1 to 1,000,000")
    return tuple(values)


def _writable_folder(folder: Path, make: bool = False, named: Path | None = None) -> None:
    """Fail now, before minutes of computing, if files cannot be created in ``folder`` (made
    first with ``make``); the message names ``named`` (default: the folder) as the user gave it."""
    import tempfile
    try:
        if make:
            folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder, prefix=".studodds-probe-"):
            pass
    except OSError as exc:
        raise StudoddsError(f"{named or folder}: cannot write there: {exc.strerror or exc}") from None


def cmd_check(args: argparse.Namespace) -> int:
    from enumerate.analysis.selfcheck import spot_check
    from studodds import certify
    folder = Path(args.folder)
    if not folder.is_dir():
        raise StudoddsError(f"{folder}: no such folder of results")
    tables = sorted(p.parent for p in folder.glob("*/summary.json"))
    if not tables:
        raise StudoddsError(f"{folder}: holds no results (no */summary.json)")
    report = []
    checked_by_qualifier: dict[int, int] = {}
    for table in tables:
        try:
            source = certify.committed_source(table)
        except (OSError, ValueError, KeyError) as exc:
            report.append({"table": str(table), "status": "unreadable", "rule_changes": [], "headline": {},
                           "differences": [{"file": "variant.toml", "figure": "(file)",
                                            "old": f"cannot read the committed variant: {_one_line(exc)}",
                                            "new": None}]})
            continue
        counts = _table(args, source.variant)
        q = source.variant.qualifier.threshold
        if q not in checked_by_qualifier:
            checked_by_qualifier[q] = spot_check(counts, certify.SPOT_CHECKS)
        protection = None
        skipped = False
        if (table / certify.PROTECTION).exists():
            if args.no_protection:
                protection = certify.committed_protection(table)
                skipped = True
            else:
                protection = certify.protection_data(source, counts, levels=certify.committed_protection_levels(table),
                                                     threads=args.threads, use_cache=not args.no_cache,
                                                     progress=not args.quiet)
        fresh = certify.render(source, checked_by_qualifier[q], counts, hands=certify.committed_hands(table),
                               protection=protection)
        if skipped:
            fresh.pop(certify.PROTECTION, None)
        entry = certify.check_entry(table, fresh, source)
        entry["protection"] = ("not checked (--no-protection)" if skipped else
                               "checked" if protection is not None else "none")
        report.append(entry)
    failures = sum(1 for e in report if e["status"] != "ok")
    data = {"kind": "check", "folder": str(folder), "tables": report, "tables_with_differences": failures}
    _emit(args, data, _check_text)
    return EXIT_DIFFERENCES if failures else 0


def _check_text(data: dict[str, Any]) -> str:
    """Summary lines first (one per table), then the details of each table that differs."""
    from studodds.certify import check_summary_line
    lines = [check_summary_line(e) for e in data["tables"]]
    lines.append(f"checked {len(data['tables'])} table(s): {data['tables_with_differences']} with differences")
    for e in data["tables"]:
        if e["status"] != "differs":
            continue
        diffs = e["differences"]
        lines += ["", f"{e['table']}: {len(diffs)} difference(s)"]
        lines += [f"  {d['file']}: {d['figure']}: old {d['old']!r} -> new {d['new']!r}" for d in diffs[:50]]
        if len(diffs) > 50:
            lines.append(f"  ... and {len(diffs) - 50} more (--json lists all)")
    return "\n".join(lines)


def cmd_diff(args: argparse.Namespace) -> int:
    from studodds import api
    from studodds.reports.text import diff_text
    a, b = api.load_variant(args.a), api.load_variant(args.b)
    _table(args, a)
    _table(args, b)
    _emit(args, api.diff(a, b, **_api_options(args)), diff_text)
    return 0


def cmd_hand(args: argparse.Namespace) -> int:
    from enumerate.analysis.ev import as_card, as_hand
    from studodds import api
    from studodds.reports.text import hand_text
    cards = as_hand(args.cards)                        # bad cards fail before any counting
    up = as_card(args.up) if args.up is not None else None
    v = api.load_variant(args.variant)
    _table(args, v)
    _emit(args, api.hand(cards, up, variant=v, **_api_options(args)), hand_text)
    return 0


def cmd_ev_table(args: argparse.Namespace) -> int:
    from enumerate.analysis import ev_table
    from studodds import api
    out = _output_file("--out", args.out, ".npz", ".csv")
    v = api.load_variant(args.variant)
    _table(args, v)
    table = api.ev_table(v, **_api_options(args))
    (ev_table.save_npz if out.suffix == ".npz" else ev_table.save_csv)(table, out)
    situations = int(table.multiplicity.sum(dtype="int64"))
    data = {"kind": "ev_table", "variant": v.name, "path": str(out), "format": out.suffix[1:],
            "rows": len(table), "situations": situations, "schema": ev_table.SCHEMA}
    _emit(args, data, lambda d: f"{out}: {d['rows']:,} situation classes standing for {situations:,} situations")
    return 0


def cmd_strategies(args: argparse.Namespace) -> int:
    from studodds import api
    from studodds.reports.text import strategies_text
    v = api.load_variant(args.variant)
    if args.raise_at_least:                           # validate before counting
        from enumerate.rules.qualifier import parse_qualifier
        try:
            parse_qualifier(args.raise_at_least)
        except StudoddsError as exc:
            raise StudoddsError(f"--raise-at-least: {exc}") from None
    _table(args, v)
    _emit(args, api.strategies(v, raise_at_least=args.raise_at_least, **_api_options(args)), strategies_text)
    return 0


def cmd_plots(args: argparse.Namespace) -> int:
    from enumerate.core.atomic import atomic_write_text
    from studodds import api
    from studodds.reports import plots
    v = api.load_variant(args.variant)
    plots.pyplot()                                    # say what to install before counting
    table = _table(args, v)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plots.ak_heatmap(table, v, out / "strategy_ak.png")
    plots.return_bars(api.analyze(v, **_api_options(args)), out / "return_table.png")
    plots.ev_by_category(table, v, out / "ev_by_category.png")
    atomic_write_text(out / "pictures.md", "\n".join([
        f"# Pictures: {v.name}", "",
        "![Ace/King strategy: EV(raise) + 1 by rank pattern and up card](strategy_ak.png)", "",
        "![Return table](return_table.png)", "",
        "![EV(raise) by player hand category](ev_by_category.png)", ""]))
    files = [str(out / f) for f in ("strategy_ak.png", "return_table.png", "ev_by_category.png", "pictures.md")]
    _emit(args, {"kind": "plots", "variant": v.name, "files": files}, lambda d: "\n".join(d["files"]))
    return 0


def cmd_progressive(args: argparse.Namespace) -> int:
    from studodds import api
    from studodds.reports.progressive import report_text
    v = api.load_variant(args.variant)
    if v.progressive is None:
        raise StudoddsError(f"variant {v.name!r} has no [progressive] side bet")
    from enumerate.rules.amounts import parse_amount
    for option, value in (("--meter", args.meter), ("--side-wager", args.side_wager)):
        if value is not None:                         # validate before counting
            try:
                parse_amount(value, allow_zero=option != "--side-wager")
            except StudoddsError as exc:
                raise StudoddsError(f"{option}: {exc}") from None
    _table(args, v)
    _emit(args, api.progressive(v, meter=args.meter, side_wager=args.side_wager, **_api_options(args)),
          report_text)
    return 0


def _int_list(option: str, text: str, allowed: range) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise StudoddsError(f"{option}: expected comma-separated integers, got {text!r}") from None
    bad = [v for v in values if v not in allowed]
    if bad or not values:
        raise StudoddsError(f"{option}: values must be {allowed.start}..{allowed.stop - 1}, got {text!r}")
    return values


def _exposure_levels(option: str, text: str) -> tuple[int, ...]:
    """"none,0,1" -> (-1, 0, 1): none is no dealer card visible, k is up card + k hole cards."""
    levels = []
    for word in text.split(","):
        word = word.strip().lower()
        if word == "none":
            levels.append(-1)
        elif word:
            levels += _int_list(option, word, range(0, 5))
    if not levels:
        raise StudoddsError(f"{option}: give levels such as none,0,1,2,3,4")
    return tuple(sorted(set(levels)))


def cmd_holecards(args: argparse.Namespace) -> int:
    from studodds import api
    from studodds.reports.protection import hole_cards_text
    levels = _exposure_levels("--exposed", args.exposed)
    shares = [api._share(w.strip()) for w in args.share.split(",") if w.strip()]
    v = api.load_variant(args.variant)
    _table(args, v)
    _emit(args, api.hole_cards(v, levels, shares=shares, use_cache=not args.no_cache,
                               progress=not args.quiet, **_api_options(args)), hole_cards_text)
    return 0


def cmd_edgesort(args: argparse.Namespace) -> int:
    from studodds import api
    from studodds.reports.protection import edge_sort_text
    ranks = api._ranks(args.ranks)
    v = api.load_variant(args.variant)
    _table(args, v)
    _emit(args, api.edge_sort(v, ranks, use_cache=not args.no_cache, **_api_options(args)), edge_sort_text)
    return 0


def _load_strategy(spec: str) -> tuple[Any, str]:
    """``module:function`` or ``path/to/file.py:function``."""
    import importlib
    import importlib.util
    module_name, _, func = spec.rpartition(":")
    if not module_name or not func:
        raise StudoddsError(f"--strategy: expected MODULE:FUNCTION, got {spec!r}")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            loader_spec = importlib.util.spec_from_file_location(path.stem, path)
            if loader_spec is None or loader_spec.loader is None or not path.is_file():
                raise StudoddsError(f"--strategy: no such file {module_name}")
            module = importlib.util.module_from_spec(loader_spec)
            loader_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except StudoddsError:
        raise
    except Exception as exc:     # the user's module failed to import: name it, no traceback
        raise StudoddsError(f"--strategy: cannot import {module_name}: {_one_line(exc)}") from None
    f = getattr(module, func, None)
    if not callable(f):
        raise StudoddsError(f"--strategy: {module_name} has no function {func!r}")
    return f, func


def cmd_collusion(args: argparse.Namespace) -> int:
    from studodds import api
    from studodds.reports.protection import collusion_text
    partners = _int_list("--partners", args.partners, range(0, 7))
    burns = {"no": [False], "yes": [True], "both": [False, True]}[args.burn]
    if args.samples < 2:
        raise StudoddsError("--samples must be at least 2")
    strategy, name = _load_strategy(args.strategy) if args.strategy else (None, None)
    v = api.load_variant(args.variant)
    _table(args, v)
    _emit(args, api.collusion_table(v, partners, burn_cards=burns, samples=args.samples, seed=args.seed,
                                    strategy=strategy, strategy_name=name, scheduler=args.scheduler,
                                    use_cache=not args.no_cache, progress=not args.quiet,
                                    **_api_options(args)), collusion_text)
    return 0


def cmd_design_sensitivity(args: argparse.Namespace) -> int:
    from studodds import api
    from studodds.reports.design import sensitivity_text
    v = api.load_variant(args.variant)
    _table(args, v)
    _emit(args, api.sensitivity(v, **_api_options(args)), sensitivity_text)
    return 0


def _output_file(option: str, value: str, *suffixes: str) -> Path:
    """A file the command will write, checked before any work: its suffix is one of
    ``suffixes``, its folder exists and is writable."""
    out = Path(value)
    if out.suffix not in suffixes:
        raise StudoddsError(f"{option}: {out}: the output must end in {' or '.join(suffixes)}")
    if not out.parent.exists():
        raise StudoddsError(f"{option}: {out.parent}: no such folder")
    _writable_folder(out.parent, named=out)
    return out


def cmd_design_solve(args: argparse.Namespace) -> int:
    from enumerate.design.grid import Axis
    from enumerate.design.solve import Target
    from studodds import api
    from studodds.reports.design import solve_text
    target, axes = Target.parse(args.target), [Axis.parse(a) for a in args.vary]     # bad input before counting
    out = _output_file("--write", args.write, ".toml") if args.write else None
    v = api.load_variant(args.variant)
    name = args.name or f"{v.name}-design"
    _table(args, v)
    result = api.solve(v, target, axes, ordered=not args.any_order, best=args.best, progress=not args.quiet,
                       **_api_options(args))
    if out is not None and result.best:
        from enumerate.core.atomic import atomic_write_text
        best = result.best[0][0]
        desc = (f"{v.name} with {', '.join(f'{k} {best.pays[k]}' for k in (a.key for a in result.axes))}: "
                f"{result.target.figure} {float(best.figure(result.target.figure)):.6%}")
        atomic_write_text(out, api.design_file(args.variant, best.pays, name, desc))
        print(f"studodds: wrote {out}", file=sys.stderr)
    _emit(args, result, solve_text)
    return 0


def cmd_design_search(args: argparse.Namespace) -> int:
    from enumerate.design.criteria import Bound, Objective
    from enumerate.design.grid import Axis
    from studodds import api
    from studodds.reports import design
    axes = [Axis.parse(a) for a in args.vary]
    bounds = [Bound.parse(b) for b in args.bound]
    objectives = [Objective.parse(o) for o in args.front.split(",") if o.strip()]
    csv_path = _output_file("--csv", args.csv, ".csv") if args.csv else None
    png_path = _output_file("--plot", args.plot, ".png") if args.plot else None
    if png_path is not None:
        from studodds.reports.plots import pyplot
        pyplot()                                      # say what to install before the work
    v = api.load_variant(args.variant)
    _table(args, v)
    rows, finish = design.csv_writer(csv_path) if csv_path is not None else (None, None)
    result = api.search(v, axes, bounds=bounds, front=objectives, ordered=not args.any_order,
                        scheduler=args.scheduler, rows=rows, points=png_path is not None, progress=not args.quiet,
                        **_api_options(args))
    if finish is not None:
        finish()
    if png_path is not None:
        design.front_picture(result, png_path)
    _emit(args, result, design.search_text)
    return 0


def _one_line(message: object) -> str:
    """Error messages are one line whatever the input echoed in them holds."""
    return str(message).replace("\r", "\\r").replace("\n", "\\n")


def _is_main_thread() -> bool:
    import threading
    return threading.current_thread() is threading.main_thread()


def _format_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                    line: str | None = None) -> str:
    return f"studodds: warning: {_one_line(message)}\n"


class _Terminated(BaseException):
    """SIGTERM, turned into an exception so that temporary files are cleaned up."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise _Terminated()


def _quiet_broken_pipe() -> int:
    """The reader went away (``studodds analyze | head``): stop quietly.  Python would try to
    flush stdout again at exit and complain, so point stdout at /dev/null first."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    import signal
    warnings.formatwarning = _format_warning
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:                         # --help, --version, usage errors
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_BAD_INPUT
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    debug = args.debug or os.environ.get("STUDODDS_DEBUG", "") not in ("", "0")
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if _is_main_thread() else None
    try:
        from enumerate.core.parallel import check_threads, using_threads
        check_threads(args.threads)
        with using_threads(args.threads):
            code: int = args.func(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except KeyboardInterrupt:
        print("studodds: interrupted", file=sys.stderr)
        return 130
    except _Terminated:
        print("studodds: terminated", file=sys.stderr)
        return 143
    except MemoryError:
        print("studodds: error: out of memory (a cold count needs about 0.4 GB)", file=sys.stderr)
        return EXIT_BAD_INPUT
    except StudoddsError as exc:
        print(f"studodds: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(_one_line(f"studodds: error:{where}: {exc.strerror or exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:                          # a bug: say so, show the traceback on request
        if debug:
            import traceback
            traceback.print_exc()
        print(_one_line(f"studodds: internal error: {type(exc).__name__}: {exc}") +
              ("" if debug else " (run with --debug or STUDODDS_DEBUG=1 for the traceback)"), file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
