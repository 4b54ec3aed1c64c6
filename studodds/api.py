"""The public Python API: one call per question, card and variant arguments as text.

Every function takes the variant as a built-in name (``"us-common"``), a path to a variant file
(``str`` or ``pathlib.Path``) or a :class:`~enumerate.rules.variant.Variant`, and returns the
object the command line prints: its ``to_dict()`` is exactly the command's ``--json`` output.
Money is in antes (the ante wager is the unit); probabilities and edges are exact
``fractions.Fraction`` values.

Count tables (about 80 MB each) are loaded from the on-disk cache, or computed in about a
second and cached; the last two used are kept in memory (:func:`clear_memory` drops them).
``use_cache=False`` trusts no file: the table is counted anew, once in a process (later calls
with it reuse that count, never a table read from the disk).

Every function that computes takes the run settings as keywords, the same for all of them
(``**run``, :class:`~enumerate.core.run.RunOptions`), checked once on entry
(:class:`~enumerate.core.run.Run`): ``threads`` sets the OpenMP threads of every parallel step
(default: the CPUs available); ``use_cache=False`` neither reads nor writes the disk cache;
``progress=True`` shows progress bars on stderr.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import json
import math
import numbers
import os
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, Union, Unpack

from enumerate.core.atomic import atomic_write_text
from enumerate.core.counts import count_steps, load_or_compute
from enumerate.core.engine import ENGINE_VERSION as _ENGINE_VERSION
from enumerate.core.engine import CountTable
from enumerate.core.projection import Projection, announce, plural
from enumerate.core.run import Run, RunOptions
from enumerate.game.analysis import GameAnalysis
from enumerate.game.analysis import analyze_game as _analyze
from enumerate.game.kinds import SampleKind, ev_table_kind, hand_kind, kind_of, require, slice_kind, strategies_kind
from enumerate.rules.amounts import parse_amount, parse_rational
from enumerate.rules.qualifier import parse_qualifier
from enumerate.rules.sanity import rule_warnings, strict_error
from enumerate.rules.variant import Variant
from enumerate.rules.variant_file import (
    DEFAULT_VARIANT,
    VariantSource,
    builtin_names,
    load_builtin,
    load_variant_file,
    resolve,
    with_raise_pays,
)
from evaluator.cards import RANKS, format_card
from evaluator.errors import ParameterError, StudoddsError
from studodds.progress import progress_bar

# The strategy, EV-table, progressive, protection and design modules are imported by the
# functions that use them ("# lazy" below): `studodds analyze` and `studodds hand` start
# without loading them.
if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.analysis.certification import CertificationFigures
    from enumerate.analysis.ev import HandEVs
    from enumerate.analysis.ev_table import EVTable
    from enumerate.analysis.strategies import Strategy, StrategyComparison
    from enumerate.boxes.seen_game import SeenHandSlice
    from enumerate.core.exact_game import SliceRun
    from enumerate.design.criteria import Bound, Objective
    from enumerate.design.grid import Axis
    from enumerate.design.search import SearchResult
    from enumerate.design.sensitivity import Sensitivity
    from enumerate.design.solve import SolveResult, Target
    from enumerate.draws.exact import ExactSlice
    from enumerate.draws.hand import HandDraws
    from enumerate.draws.sample import DrawSample
    from enumerate.game.diff import VariantDiff
    from enumerate.progressive.figures import ProgressiveReport
    from enumerate.protection.collusion import CollusionEstimate, CollusionTable
    from enumerate.protection.collusion import Strategy as CollusionStrategy
    from enumerate.protection.exposure import ExposureAnalysis, HoleCardTable
    from enumerate.russian.sample import RussianSample
    from enumerate.russian.slice import RussianSlice
    from enumerate.simulation.simulate import Simulation

#: A variant: a built-in name, a variant file path, or a Variant.
VariantLike = Union[str, "os.PathLike[str]", Variant, VariantSource]
R = TypeVar("R")
#: Cards as text ("As Kd Jh 8c 3s") or card numbers 0..51 (rank * 4 + suit).
CardsLike = Union[str, Iterable[int]]

#: Bumped when the meaning or layout of the counts changes; part of every cache key and provenance.
ENGINE_VERSION: int = _ENGINE_VERSION

#: The count tables in memory by qualifier, each with whether it was counted in this process
#: without the disk cache (what a call with use_cache=False may reuse).
_TABLES: OrderedDict[int, tuple[CountTable, bool]] = OrderedDict()
_KEEP_TABLES = 2


def variant_source(variant: VariantLike) -> VariantSource:
    """The variant with its origin and file hash (a Variant object has no file: its origin is
    "python" and its hash is that of its JSON form; a VariantSource is returned as it is)."""
    if isinstance(variant, VariantSource):
        return variant
    if isinstance(variant, Variant):
        text = json.dumps(variant.to_dict(), sort_keys=True)
        return VariantSource(variant, "python", text, hashlib.sha256(text.encode()).hexdigest())
    if isinstance(variant, os.PathLike):
        return load_variant_file(Path(variant))
    if isinstance(variant, str):
        return resolve(variant)
    raise StudoddsError(f"a variant is a built-in name, a file path or a Variant, not {type(variant).__name__}")


def load_variant(variant: VariantLike = DEFAULT_VARIANT) -> Variant:
    """The :class:`Variant` of a built-in name or a variant file (validated).

    >>> load_variant("us-common").qualifier.label
    'Ace/King or better'
    """
    return variant_source(variant).variant


def variants() -> list[Variant]:
    """The built-in variants, sorted by name."""
    return [load_builtin(name).variant for name in builtin_names()]


def count_table(variant: VariantLike = DEFAULT_VARIANT, **run: Unpack[RunOptions]) -> CountTable:
    """The exact dealer-outcome counts of every situation for the variant's qualifier."""
    threads, use_cache, progress = Run.of("count_table", run)          # checked once; threads resolved to an int
    v = load_variant(variant)
    q = v.qualifier.threshold
    kept = _TABLES.get(q)
    if kept is not None and (use_cache or kept[1]):   # use_cache=False: only a table counted anew here
        _TABLES.move_to_end(q)
        return kept[0]
    with progress_bar(progress, "counting", count_steps) as tick:
        table = load_or_compute(q, use_cache=use_cache, threads=threads, progress=tick)
    _TABLES[q] = (table, not use_cache)
    while len(_TABLES) > _KEEP_TABLES:
        _TABLES.popitem(last=False)
    return table


def clear_memory() -> None:
    """Drop the count tables kept in memory (the on-disk cache stays)."""
    _TABLES.clear()


def analyze(variant: VariantLike = DEFAULT_VARIANT, *, strict: bool = False, checkpoint: str | Path | None = None,
            **run: Unpack[RunOptions]) -> GameAnalysis:
    """Exact return table and figures of a variant under optimal strategy; its sanity warnings
    are :meth:`~enumerate.analysis.base.Analysis.warnings`, and with ``strict`` the first one is
    a :class:`ParameterError` instead (the rules' warnings before any counting).  ``checkpoint``:
    a folder for the shards of a whole game counted in shards (a table with draws, two boxes)
    instead of the user cache -- the folder of a ``draws_exact`` run of the whole game is read
    and verified, and what it lacks is counted into it (:func:`whole_game_shards`).

    >>> a = analyze("us-common")
    >>> a.total_loss
    Fraction(1041372912372, 1)
    >>> f"{float(a.house_edge):.6%}"
    '5.224306%'
    """
    threads, use_cache, progress = Run.of("analyze", run)          # checked once; threads resolved to an int
    v = load_variant(variant)
    if strict and rule_warnings(v):
        raise strict_error(v.name, rule_warnings(v))
    kind = require(v, "analyze")                  # before any counting
    with whole_game_shards(v, checkpoint):        # the folder read and verified before any counting
        table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
        with _bar(progress, kind.analysis_steps(table, v)) as tick:
            a = _analyze(table, v, threads, progress=tick, use_cache=use_cache)
    if strict and a.warnings():
        raise strict_error(v.name, a.warnings())
    return a


@contextlib.contextmanager
def whole_game_shards(variant: Variant, checkpoint: str | Path | None) -> Iterator[None]:
    """Within the block the whole game of ``variant`` keeps its shards in the folder
    ``checkpoint`` (None: in the user cache, as always): ParameterError when the table's whole
    game is not counted in shards, or the folder is not a checkpoint of it (another table's, an
    edited shard: :func:`enumerate.core.exact_game.shards_in`)."""
    folder = _checkpoint_folder(checkpoint)
    if folder is None:
        yield
        return
    kept = kind_of(variant).kept_game(variant)
    if kept is None:
        raise ParameterError("checkpoint", f"table {variant.name!r}: its whole game is not counted in shards (only a "
                                           "long whole game is: draws by rank patterns, two boxes): leave out "
                                           "--checkpoint")
    from enumerate.core import exact_game  # lazy: start-up time
    with exact_game.shards_in(kept, variant, folder):
        yield


def _bar(progress: bool, steps: tuple[str, str, int] | None) -> Any:
    """:func:`~studodds.progress.progress_bar` of a kind's (label, unit, total) steps (none when
    the kind has no steps to show)."""
    if steps is None:
        return progress_bar(False, "", 0)
    label, unit, total = steps
    return progress_bar(progress, label, total, unit)


def hand(cards: CardsLike, up: str | int | None = None, *, variant: VariantLike = DEFAULT_VARIANT,
         **run: Unpack[RunOptions]) -> HandEVs | HandDraws:
    """Counts over the 163,185 dealer completions and exact EVs (antes) of a player hand
    against one up card, or against each of the 47 with the EV before the up card is seen.
    On a table with draws (switching cards, a sixth card) every allowed action instead, each
    with its fee and exact EV after optimal raise/fold on every draw, best first
    (:class:`~enumerate.draws.hand.HandDraws`).

    >>> h = hand("As Kd Jh 8c 3s", up="7d")
    >>> h.rows[0].action
    'fold'
    >>> h = hand("As Kd Jh 8c 3s", up="7d", variant="oasis-one-card")
    >>> h.rows[0].best.label, str(h.rows[0].best.ev)
    ('keep', '-1')
    """
    threads, use_cache, progress = Run.of("hand", run)          # checked once; threads resolved to an int
    from enumerate.analysis.ev import as_card, as_hand  # lazy: start-up time
    hand_cards = _parsed("cards", as_hand, cards)            # bad cards fail before any counting
    up_card = _parsed("up", as_card, up) if up is not None else None
    if up_card is not None and up_card in hand_cards:
        raise ParameterError("up", f"up card {format_card(up_card)} is also in the player's hand")
    v = load_variant(variant)
    kind = hand_kind(v)
    with _bar(progress, kind.hand_steps(up_card)) as tick:
        return kind.hand(v, hand_cards, up_card, lambda: count_table(v, threads=threads, use_cache=use_cache, progress=progress),
                         threads, tick, use_cache=use_cache)


def _parsed(parameter: str, parse: Callable[[Any], Any], value: Any) -> Any:
    """``parse(value)``, its StudoddsError turned into a ParameterError naming ``parameter``."""
    try:
        return parse(value)
    except ParameterError:
        raise
    except StudoddsError as exc:
        raise ParameterError(parameter, str(exc)) from None


def strategies(variant: VariantLike = DEFAULT_VARIANT, *, extra: Mapping[str, Strategy] | None = None,
               raise_at_least: str | None = None, **run: Unpack[RunOptions]) -> StrategyComparison:
    """Exact figures of the optimal strategy and the simple strategies (raise everything,
    Ace/King or better, pair or better, A-K-J-8-3 or better, matching rank, the three rules of
    thumb), plus ``extra`` strategies ``f(hands, up) -> raise mask`` (see
    :mod:`enumerate.analysis.strategies`) and ``raise_at_least`` ("raise iff hand >= HAND", e.g. "AKJ83").
    On a Russian Poker table without draws the strategy gives the raise, and the insurance and
    the bought game are taken where they pay (:mod:`enumerate.russian.strategies`)."""
    threads, use_cache, progress = Run.of("strategies", run)          # checked once; threads resolved to an int
    from enumerate.analysis import strategies as st  # lazy: start-up time
    from enumerate.analysis.strategies import StrategyComparison  # lazy: start-up time
    v = load_variant(variant)
    kind = strategies_kind(v)
    named = st.simple_strategies()
    if raise_at_least is not None:
        try:
            threshold = parse_qualifier(raise_at_least)
        except StudoddsError as exc:
            raise ParameterError("raise_at_least", str(exc)) from None
        named[f"{raise_at_least} or better"] = st.raise_at_least(threshold.threshold)
    if extra is not None and not isinstance(extra, Mapping):
        raise ParameterError("extra", f"a mapping of names to functions f(hands, up) -> raise mask, not "
                                      f"{type(extra).__name__}")
    for name, func in (extra or {}).items():
        if not isinstance(name, str) or not name.strip():
            raise ParameterError("extra", f"strategy names are text, got {name!r:.40}")
        _parsed("extra", functools.partial(st.check_strategy, name=name), func)
    named.update(extra or {})
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    with _bar(progress, kind.strategies_steps()) as tick:
        results, chart = kind.strategies(table, v, named, threads, tick)
    return StrategyComparison(v.name, tuple(results), chart)


def certification(variant: VariantLike = DEFAULT_VARIANT, *, hands: Iterable[int] | None = None,
                  **run: Unpack[RunOptions]) -> CertificationFigures:
    """What a certified table shows beside the analysis: worst play, the simple strategies, the
    dealer's qualifying by up card, the figures of ``hands`` hands in a row (distinct whole
    numbers 1 .. 1,000,000; default 1, 10, 100, 1,000 and 10,000) and the PAR sheet -- each exact.

    >>> f = certification("us-common", hands=[100])
    >>> f.hands[0].hands, f.worst.expected_return < f.analysis.expected_return
    (100, True)
    """
    from enumerate.analysis.certification import certification_figures  # lazy: start-up time
    from enumerate.analysis.distribution import DEFAULT_HANDS, check_hands  # lazy: start-up time
    from enumerate.analysis.par import par_from_stats  # lazy: start-up time
    threads, use_cache, progress = Run.of("certification", run)          # checked once; threads resolved to an int
    v = load_variant(variant)
    kind = require(v, "strategies")
    if kind.name != "plain":            # worst play, N hands in a row and the PAR sheet read the plain game's statistics
        raise StudoddsError(f"variant {v.name!r} is {kind.title}: the certification figures (worst play, hands in a "
                            f"row, the PAR sheet) are made for the plain game; 'analyze' and 'batch' certify this table")
    counts_of_hands = check_hands(DEFAULT_HANDS if hands is None else hands)
    comparison = strategies(v, threads=threads, use_cache=use_cache, progress=progress)
    optimal = comparison.results[0]               # the base game's analysis: the figures read nothing else
    assert optimal.stats is not None
    return certification_figures(count_table(v, threads=threads, use_cache=use_cache), optimal.analysis,
                                 comparison.results[1:], counts_of_hands, threads, par=par_from_stats(v, optimal.stats))


def self_check(variant: VariantLike = DEFAULT_VARIANT, situations: int = 8, **run: Unpack[RunOptions]) -> int:
    """Compare ``situations`` situations (drawn with a fixed seed) of the variant's count table
    with a brute-force count over every dealer hand; AssertionError on any difference, else the
    number checked (what a certified table records as its spot checks)."""
    from enumerate.analysis.selfcheck import spot_check  # lazy: start-up time
    threads, use_cache, progress = Run.of("self_check", run)          # checked once; threads resolved to an int
    n = _whole_number("situations", situations, 0, 10_000, "a whole number of situations 0 .. 10,000")
    return spot_check(count_table(variant, threads=threads, use_cache=use_cache, progress=progress), n, threads)


def simulate(variant: VariantLike = DEFAULT_VARIANT, *, games: int = 100_000_000, seed: int = 0,
             strategy: str | Strategy | None = None, scheduler: str | None = None, against: str | Path | None = None,
             **run: Unpack[RunOptions]) -> Simulation:
    """Play ``games`` games on real shuffled decks and compare them with the exact figures:
    returns with 95% intervals and z-scores, outcome frequencies with chi-square p-values, one
    verdict (see :mod:`enumerate.simulation.simulate`).  ``strategy``: None or "optimal" (the
    certified strategy), the name of a simple strategy ("pair or better"; see :func:`strategies`),
    or a function ``f(hands, up) -> raise mask``.  The same seed and games give the same result
    on any number of threads or Dask workers (``scheduler``: a Dask scheduler address).

    A Russian Poker table plays its certified strategy (:mod:`enumerate.simulation.russian`): the
    exact whole game's, read with its kept strategy from the folder of a certified table of the same
    rules, ``against``, or from the user cache or a checkpoint as ``analyze`` reads it.

    >>> s = simulate("us-common", games=1_000_000, seed=7)
    >>> s.passed, s.returns[0].estimate.exact == analyze("us-common").expected_return
    (True, True)
    """
    if against is not None:
        from enumerate.simulation.simulate import check_run  # lazy: start-up time
        threads, use_cache, progress = Run.of("simulate", run)
        v = load_variant(variant)
        require(v, "simulate")
        if kind_of(v).name != "russian":
            raise ParameterError("against", "a simulation set beside a certified table's kept game is made for a "
                                            "Russian Poker table: leave out --against")
        check_run(games, seed)
        if strategy not in (None, "optimal") or scheduler is not None:
            raise ParameterError("strategy" if scheduler is None else "scheduler",
                                 "a Russian Poker table is simulated with its certified strategy, on this machine")
        return _simulate_russian(v, games, seed, threads, use_cache, progress, _kept_game_of(against, v))
    return simulate_many((variant,), games=games, seed=seed, strategy=strategy, scheduler=scheduler, **run)[0]


def _certified_folder(against: Any, variant: Variant, done: str) -> Path:
    """The folder ``against`` of a certified table made for ``variant``'s rules, checked: a folder
    with its summary.json and variant.toml, the variant's rules those of the table ``done``
    (sampled, simulated) -- ParameterError naming what is wrong."""
    from enumerate.core.exact_game import rules_text  # lazy: start-up time
    if isinstance(against, bool) or not isinstance(against, (str, os.PathLike)) or not str(against).strip():
        raise ParameterError("against", f"a certified table's folder, not {type(against).__name__} {str(against)[:40]!r}")
    folder = Path(against)
    if not (folder / "summary.json").is_file() or not (folder / "variant.toml").is_file():
        raise ParameterError("against", f"{folder}: not a certified table's folder (no summary.json and variant.toml "
                                        "in it): name one such as results/lunar-house")
    try:
        committed = load_variant_file(folder / "variant.toml").variant
    except (StudoddsError, OSError) as exc:
        raise ParameterError("against", f"{folder}: not a readable certified table ({str(exc)[:80]})") from None
    if rules_text(committed) != rules_text(variant):
        verb = "sample" if done == "sampled" else "simulate"
        raise ParameterError("against", f"{folder}: certified for other rules than the table {done}: {verb} its "
                                        "variant.toml, or name the table certified for these rules")
    return folder


def _kept_game_of(against: Any, variant: Variant) -> Any:
    """The kept whole game (its JSON object) of the certified table in the folder ``against``, made
    for ``variant``'s rules (ParameterError naming what is wrong); checked when given."""
    from enumerate.core.slices import KeptSumsError, unsealed  # lazy: start-up time
    kept = kind_of(variant).kept_game(variant)
    if kept is None:
        raise ParameterError("against", f"table {variant.name!r} keeps no whole game (its exact game takes a minute): "
                                        "leave out --against")
    folder = _certified_folder(against, variant, "simulated")
    path = folder / kept.file
    try:
        data = unsealed(json.loads(path.read_text(encoding="utf-8")))
        if data.get("kind") != kept.kind:
            raise ValueError(f"not the sums of {kept.title}")
        return data
    except (OSError, ValueError, RecursionError, KeptSumsError) as exc:
        raise ParameterError("against", f"{path}: not usable ({str(exc)[:80]}): restore it (git checkout), or certify "
                                        "the table again") from None


def _simulate_russian(v: Variant, games: int, seed: int, threads: int, use_cache: bool, progress: bool,
                      kept_data: Any = None) -> Simulation:
    """A Russian Poker table simulated with its certified strategy, against its exact whole game."""
    from enumerate.core import exact_game  # lazy: start-up time
    from enumerate.simulation import russian  # lazy: start-up time
    with contextlib.ExitStack() as stack:
        if kept_data is not None:
            kept = kind_of(v).kept_game(v)
            assert kept is not None
            stack.enter_context(exact_game.given(kept, v, kept_data))
        try:
            exact = analyze(v, threads=threads, use_cache=use_cache, progress=progress)
        except exact_game.KeptSumsError as exc:
            raise ParameterError("against", f"the certified table's kept game is not usable: {exc}") from None
    with progress_bar(progress and v.draws is not None, "the kept draws, by group", russian.groups_of_the_game(),
                      "group") as tick:
        draws = russian.kept_draws(v, exact, use_cache, tick)
    with progress_bar(progress, "simulating", games, "game") as tick:
        return russian.simulate(v, exact, games, seed, threads=threads, progress=tick, use_cache=use_cache,
                                draws=draws)


def simulate_many(variants: Iterable[VariantLike], *, games: int = 100_000_000, seed: int = 0,
                  strategy: str | Strategy | None = None, scheduler: str | None = None,
                  **run: Unpack[RunOptions]) -> tuple[Simulation, ...]:
    """:func:`simulate` for several tables on the same games (common random numbers): each
    result is exactly the one :func:`simulate` gives that table with this seed, but the games
    are dealt and ranked once for all of them, so a second table costs a fraction of the first
    (what ``batch --simulate`` runs).

    >>> a, b = simulate_many(["us-common", "royal-200"], games=200_000, seed=7)
    >>> a.to_dict(timing=False) == simulate("us-common", games=200_000, seed=7).to_dict(timing=False)
    True
    """
    threads, use_cache, progress = Run.of("simulate", run)          # checked once; threads resolved to an int
    from enumerate.analysis.strategies import simple_strategies  # lazy: start-up time
    from enumerate.simulation.simulate import CORE_SECONDS_PER_GAME, check_playable, check_run  # lazy: start-up time
    from enumerate.simulation.simulate import simulate_many as _simulate_many  # lazy: start-up time
    if isinstance(variants, (str, Path, Variant)) or not isinstance(variants, Iterable):
        raise ParameterError("variants", f"a list of tables, not {type(variants).__name__}")
    vs = [load_variant(v) for v in variants]
    if not vs:
        raise ParameterError("variants", "name at least one table")
    for v in vs:
        require(v, "simulate")
    check_run(games, seed)
    for v in vs:
        check_playable(v)
    if any(kind_of(v).name == "russian" for v in vs):
        if strategy not in (None, "optimal") or scheduler is not None:
            raise ParameterError("strategy" if scheduler is None else "scheduler",
                                 "a Russian Poker table is simulated with its certified strategy, on this machine")
        if len(vs) > 1:
            return tuple(simulate_many((v,), games=games, seed=seed, **run)[0] for v in vs)
        return (_simulate_russian(vs[0], games, seed, threads, use_cache, progress),)
    func: Strategy | None = None
    name = "optimal"
    if isinstance(strategy, str) and strategy != "optimal":
        named = simple_strategies()
        if strategy not in named:
            raise ParameterError("strategy", f"{strategy!r} is not optimal or a simple strategy "
                                             f"({', '.join(named)})")
        func, name = named[strategy], strategy
    elif callable(strategy):
        func, name = strategy, str(getattr(strategy, "__name__", "user"))
        from enumerate.analysis.strategies import check_strategy  # lazy: start-up time
        _parsed("strategy", lambda f: check_strategy(f, name), func)
    elif strategy is not None and strategy != "optimal":
        raise ParameterError("strategy", f"a name or a function f(hands, up) -> raise mask, not {type(strategy).__name__}")
    tables = [count_table(v, threads=threads, use_cache=use_cache, progress=progress) for v in vs]
    with progress_bar(progress, "simulating", games, "game") as tick:
        if scheduler is None:
            announce(tick, Projection("", games, "game", CORE_SECONDS_PER_GAME * (1 + (len(vs) - 1) / 4)), threads)
        return tuple(_simulate_many(tables, vs, games, seed, strategy=func, strategy_name=name, threads=threads,
                                    scheduler=scheduler, progress=tick))


def draws_sample(variant: VariantLike, *, situations: int = 1024, seed: int = 0, stratified: bool = False,
                 checkpoint: str | Path | None = None, scheduler: str | None = None,
                 against: str | Path | None = None, beside: VariantLike | None = None,
                 beside_checkpoint: str | Path | None = None, strategy: str | None = None,
                 **run: Unpack[RunOptions]) -> DrawSample | RussianSample:
    """A table with switches of two or more cards, estimated: the exact whole game with at most
    one switched card plus the mean gain of the larger switches over ``situations`` uniformly
    sampled situations, each valued exactly (see :mod:`enumerate.draws.sample`); ``stratified``:
    by up-card rank and the one-card value, with Neyman's allocation (see
    :mod:`enumerate.draws.strata`).  A Russian Poker table with draws is sampled in strata by the
    dealt hand's category, each situation valued exactly with its insurance and purchases
    (:mod:`enumerate.russian.sample`; ``stratified`` changes nothing there); ``against``: the
    folder of a certified table of the same rules, whose exact figures the sample is set beside
    with z-scores (read and checked before any counting); ``beside``: another Russian table with
    draws sampled on the same situations (its finished shards kept in ``beside_checkpoint``), each
    headline figure's difference with its interval on pairs -- what the rules that differ are worth,
    sampled; ``strategy``: a Russian table played with that simple draw strategy's action in place
    of the best (:mod:`enumerate.russian.draw_strategies`; the raise, insurance and purchases still
    each final hand's best), so that ``beside`` the same table gives what the strategy costs
    against optimal play, on pairs.  Shards of 16 situations; ``checkpoint``: a file that keeps
    finished shards (a rerun resumes); ``scheduler``: a Dask scheduler address.  The result does
    not depend on how the work is split."""
    threads, use_cache, progress = Run.of("draws_sample", run)          # checked once; threads resolved to an int
    from enumerate.draws.game import draw_counts  # lazy: start-up time
    from enumerate.draws.sample import (  # lazy: start-up time
        Checkpoint,
        checkpoint_key,
        one_card_variant,
        sample_draws,
        sample_stratified,
    )
    source = variant_source(variant)
    v = source.variant
    if isinstance(situations, bool) or not isinstance(situations, int) or not 1 <= situations <= 10**8:
        raise ParameterError("situations", "a whole number of situations from 1 to 100,000,000")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ParameterError("seed", "a whole number from 0 to 2^64 - 1")
    kind = require(v, "draws_sample")
    if not isinstance(stratified, bool):
        raise ParameterError("stratified", "True or False")
    if beside is None and beside_checkpoint is not None:
        raise ParameterError("beside_checkpoint", "keeps the shards of the table sampled beside (--beside): name "
                                                  "that table too, or leave this out")
    if isinstance(kind, SampleKind):       # a kind that samples its own game (Russian Poker: in strata)
        if strategy is not None:
            _draw_strategy(kind, v, strategy)
        if strategy is not None and against is not None:
            raise ParameterError("strategy", "a table played with a simple draw strategy is not the certified "
                                             "table's optimal game: set it beside the same table (--beside) "
                                             "instead of --against")
        path = None if checkpoint is None else _checkpoint_path(checkpoint)
        exact = None if against is None else _certified_figures(against, v)
        # every checkpoint read and verified before any counting
        stores = [kind.sample_checkpoint(source.text, situations, seed, path, strategy)]
        other = None if beside is None else _beside_table(beside, kind, beside_checkpoint, path, situations, seed)
        if other is not None:
            stores.append(other[1])
        with progress_bar(progress, "sampled situations", kind.sample_size(situations) * len(stores),
                          "situation") as tick:
            found = kind.sample(v, source.text, situations, seed, stores[0], scheduler, threads, tick, strategy)
            if other is not None:
                found = found.beside(kind.sample(other[0].variant, other[0].text, situations, seed, stores[1],
                                                 scheduler, threads, tick))
        return found if exact is None else found.against(str(against), exact)
    if strategy is not None:
        raise ParameterError("strategy", "a simple draw strategy is played on a Russian Poker table with draws; "
                                         "this table's sample values every situation's best action")
    if against is not None:
        raise ParameterError("against", "a sample set beside a certified table is made for a Russian Poker table "
                                        "with draws; this table's estimate has an exact part of its own")
    if beside is not None:
        raise ParameterError("beside", "two tables sampled side by side are made for Russian Poker tables with "
                                       "draws; compare two exact tables with 'studodds diff'")
    # read and verified before the minutes of the one-card game, then resumed from as it is
    store = Checkpoint(None if checkpoint is None else _checkpoint_path(checkpoint),
                       checkpoint_key(source.text, seed, "stratified" if stratified else "uniform"))
    one_v = one_card_variant(v)
    one = analyze(one_v, threads=threads, use_cache=use_cache, progress=progress)
    with progress_bar(progress, "sampled situations", situations, "situation") as tick:
        if stratified:
            table = count_table(one_v, threads=threads, use_cache=use_cache)
            return sample_stratified(v, source.text, situations, seed, table, draw_counts(table, one_v, threads, use_cache=use_cache),
                                     one.expected_return, checkpoint=store, scheduler=scheduler, threads=threads,
                                     progress=tick)
        return sample_draws(v, source.text, situations, seed, one.expected_return, checkpoint=store,
                            scheduler=scheduler, threads=threads, progress=tick)


def draws_exact(variant: VariantLike, *, up: str | None = None, hands: str | None = None,
                checkpoint: str | Path | None = None, scheduler: str | None = None, strategy: str | None = None,
                **run: Unpack[RunOptions]) -> ExactSlice | RussianSlice:
    """The exact game of a table with switches of any number of cards over a slice of its
    situations: the up-card ranks ``up`` ("2-6,A"; default all) and the player hands' categories
    ``hands`` ("full_house,four_of_a_kind"; default all) -- see :mod:`enumerate.draws.exact`; on
    a Russian Poker table with draws, situation class by situation class
    (:mod:`enumerate.russian.slice`); ``strategy``: on such a table, the game played with that
    simple draw strategy's action in place of the best (:mod:`enumerate.russian.draw_strategies`;
    the raise, insurance and purchases still each final hand's best), its exact figures -- with
    optimal play's, what the strategy costs.
    Shards of 32 classes up to suits; ``checkpoint``: a folder that keeps finished shards (a rerun
    resumes); ``scheduler``: a Dask scheduler address.  The figures do not depend on how the work
    is split."""
    threads, use_cache, progress = Run.of("draws_exact", run)          # checked once; threads resolved to an int
    from enumerate.core.slices import Slice  # lazy: start-up time
    source = variant_source(variant)
    v = source.variant
    kind = slice_kind(v)
    if strategy is not None:
        if not isinstance(kind, SampleKind) or v.draws is None:
            raise ParameterError("strategy", "a simple draw strategy is played on a Russian Poker table with draws")
        _draw_strategy(kind, v, strategy)
        job = kind.played_run(v, source.text, Slice.parse(up, hands), _checkpoint_folder(checkpoint), strategy)
        return _run_slice(job, v.base_game(), scheduler, threads, use_cache, progress)
    job = kind.slice_run(v, source.text, Slice.parse(up, hands), _checkpoint_folder(checkpoint))
    return _run_slice(job, v.base_game(), scheduler, threads, use_cache, progress)


def _run_slice(job: SliceRun[Any, R], base: Variant, scheduler: str | None, threads: int, use_cache: bool,
               progress: bool) -> R:
    """Count the slice of an exact game (:class:`enumerate.core.exact_game.SliceRun`: its
    checkpoint already read and verified), with the count table of ``base`` when the game reads
    it, under one progress bar: every exact run of every kind goes through here."""
    table = count_table(base, threads=threads, use_cache=use_cache, progress=progress) if job.needs_counts else None
    with progress_bar(progress, f"{plural(job.game.unit)} of the slice", job.classes, job.game.unit) as tick:
        return job.run(table, scheduler=scheduler, threads=threads, progress=tick)


def _draw_strategy(kind: SampleKind, variant: Variant, strategy: Any) -> None:
    """``strategy`` is the name of a simple draw strategy the table ``variant`` offers every action
    of (else ParameterError naming the names, or the exchange or sixth card it lacks)."""
    if not isinstance(strategy, str) or strategy not in kind.draw_strategies():
        raise ParameterError("strategy", "the name of a simple draw strategy: " + ", ".join(kind.draw_strategies()))
    if (why := kind.draw_strategy_refusal(strategy, variant)) is not None:
        raise ParameterError("strategy", why)


def _checkpoint_folder(checkpoint: Any) -> Path | None:
    """A checkpoint folder's path: text or a path whose parent folder exists (None: none)."""
    if checkpoint is None:
        return None
    if isinstance(checkpoint, bool) or not isinstance(checkpoint, (str, os.PathLike)) or not str(checkpoint).strip():
        raise ParameterError("checkpoint", f"a folder path, not {type(checkpoint).__name__} {str(checkpoint)[:40]!r}")
    path = Path(checkpoint)
    if not path.parent.is_dir():
        raise ParameterError("checkpoint", f"{path.parent}: no such folder")
    return path


def _certified_figures(against: Any, variant: Variant) -> dict[str, Fraction]:
    """The exact figures of the certified table in the folder ``against``, made for ``variant``'s
    rules (ParameterError naming what is wrong: no such table, other rules, a summary without them)."""
    from enumerate.russian.sample import exact_figures  # lazy: start-up time
    folder = _certified_folder(against, variant, "sampled")
    try:
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        if not isinstance(summary, dict) or summary.get("kind") != "certified_table":
            raise ValueError("not a certified table")
        return exact_figures(summary["analysis"])
    except (StudoddsError, OSError, ValueError, KeyError, TypeError, ArithmeticError, RecursionError) as exc:
        raise ParameterError("against", f"{folder}: not a readable certified table of a Russian Poker table with "
                                        f"draws ({str(exc)[:80]})") from None


def _beside_table(beside: VariantLike, kind: SampleKind, checkpoint: Any, path: Path | None, situations: int,
                  seed: int) -> tuple[VariantSource, Any]:
    """The table a sample is set beside (a Russian Poker table with draws, of the sampled one's
    kind) and the store of its shards, read and verified now: never the sampled table's file."""
    try:
        other = variant_source(beside)
    except StudoddsError as exc:
        raise ParameterError("beside", str(exc)) from None
    if kind_of(other.variant) is not kind or other.variant.draws is None:
        raise ParameterError("beside", f"{other.variant.name!r} is not a Russian Poker table with draws: a table "
                                       "sampled beside is valued on the same situations by the same kernel")
    try:
        bpath = None if checkpoint is None else _checkpoint_path(checkpoint)
        if bpath is not None and path is not None and bpath.resolve() == path.resolve():
            raise ParameterError("beside_checkpoint", f"{bpath}: the sampled table's own checkpoint; name another file")
        return other, kind.sample_checkpoint(other.text, situations, seed, bpath)
    except ParameterError as exc:
        raise ParameterError("beside_checkpoint", exc.reason) from None


def _checkpoint_path(checkpoint: Any) -> Path:
    """A checkpoint file's path: text or a path, in a folder that exists; a file already there
    must be a regular file (never a FIFO or a device, which would block or never end)."""
    if isinstance(checkpoint, bool) or not isinstance(checkpoint, (str, os.PathLike)) or not str(checkpoint).strip():
        raise ParameterError("checkpoint", f"a file path, not {type(checkpoint).__name__} {str(checkpoint)[:40]!r}")
    path = Path(checkpoint)
    if not path.parent.is_dir():
        raise ParameterError("checkpoint", f"{path.parent}: no such folder")
    if path.is_dir():
        raise ParameterError("checkpoint", f"{path}: a folder; name a file such as {path / 'run.json'}")
    return path


def ev_table(variant: VariantLike = DEFAULT_VARIANT, **run: Unpack[RunOptions]) -> EVTable:
    """The exact EV of every situation, one row per class up to suits (5,649,150 rows)."""
    threads, use_cache, progress = Run.of("ev_table", run)          # checked once; threads resolved to an int
    v = load_variant(variant)
    kind = ev_table_kind(v)
    return kind.ev_table(count_table(v, threads=threads, use_cache=use_cache, progress=progress), v, threads, None)


def progressive(variant: VariantLike = "progressive-100-75-50", *, meter: Fraction | int | str | None = None,
                side_wager: Fraction | int | str = 1, **run: Unpack[RunOptions]) -> ProgressiveReport:
    """The progressive side bet exactly: hit probabilities, return against the meter,
    break-even meter, long run, several players, and the combined game at ``meter`` (default:
    the break-even meter) with a side wager of ``side_wager`` antes.  Amounts per unit side
    wager; the meter in side-wager units."""
    threads, use_cache, progress = Run.of("progressive", run)          # checked once; threads resolved to an int
    from enumerate.progressive.figures import report  # lazy: start-up time
    v = load_variant(variant)
    require(v, "progressive")
    try:
        m = parse_amount(meter) if meter is not None else None
    except StudoddsError as exc:
        raise ParameterError("meter", str(exc)) from None
    try:
        s = parse_amount(side_wager, allow_zero=False)
    except StudoddsError as exc:
        raise ParameterError("side_wager", str(exc)) from None
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    return report(table, v, m, s, threads)


def diff(a: VariantLike, b: VariantLike, *, checkpoint: str | Path | Iterable[str | Path] | None = None,
         **run: Unpack[RunOptions]) -> VariantDiff:
    """What changes from variant ``a`` to ``b``: headline figures with exact deltas, the
    return tables, the situations whose optimal action flips and, for tables with draws, the
    strategy charts' cells that change.  ``checkpoint``: one or two folders of whole games
    counted in shards (``draws-exact --checkpoint``, ``analyze --checkpoint``), each read for
    the table whose run it holds -- what one option is worth, from two runs done elsewhere --
    instead of the user cache (:func:`_diff_checkpoints`)."""
    threads, use_cache, progress = Run.of("diff", run)          # checked once; threads resolved to an int
    from enumerate.game.diff import VariantDiff, flips, strategy_changes  # lazy: start-up time
    sa, sb = variant_source(a), variant_source(b)
    va, vb = sa.variant, sb.variant
    labels = None
    if va.name == vb.name and sa.origin != sb.origin:
        labels = (f"{va.name} ({sa.origin})", f"{vb.name} ({sb.origin})")
    for v in (va, vb):
        require(v, "diff")                        # before any counting
    with _diff_checkpoints(va, vb, checkpoint):    # the folders read and verified before any counting
        ca = count_table(va, threads=threads, use_cache=use_cache, progress=progress)
        cb = count_table(vb, threads=threads, use_cache=use_cache, progress=progress)
        ga, gb = _analyze(ca, va, threads, use_cache=use_cache), _analyze(cb, vb, threads, use_cache=use_cache)
    return VariantDiff(ga, gb, flips(ca, va, cb, vb, threads), labels, strategy_changes(ga, gb))


@contextlib.contextmanager
def _diff_checkpoints(va: Variant, vb: Variant, checkpoint: str | Path | Iterable[str | Path] | None) -> Iterator[None]:
    """Within the block each folder of ``checkpoint`` keeps the shards of the table whose whole
    game it holds (its ``run.json`` names the run; then read and verified in full, as
    :func:`whole_game_shards` does): at most one folder a table, two in all.  A folder that holds
    neither table's run -- another table's, an empty or new one -- is refused (ParameterError):
    ``diff`` cannot tell which table to count into it."""
    if checkpoint is None:
        yield
        return
    items = [checkpoint] if isinstance(checkpoint, (str, os.PathLike)) or not isinstance(checkpoint, Iterable) \
        else list(checkpoint)
    folders = [_checkpoint_folder(x) for x in items]
    if len(folders) > 2:
        raise ParameterError("checkpoint", f"{len(folders)} folders: diff reads one checkpoint for each of its two "
                                           "tables at most")
    from enumerate.core import exact_game  # lazy: start-up time
    games = [(v, kind_of(v).kept_game(v)) for v in (va, vb)]
    if all(kept is None for _, kept in games):
        raise ParameterError("checkpoint", f"neither {va.name!r} nor {vb.name!r} has a whole game counted in shards "
                                           "(only a long whole game is: draws by rank patterns, two boxes): leave out "
                                           "--checkpoint")
    taken: list[int] = []
    with contextlib.ExitStack() as stack:
        for folder in folders:
            assert folder is not None
            holds = [i for i, (v, kept) in enumerate(games)
                     if kept is not None and exact_game.is_checkpoint_of(kept, v, folder)]
            if not holds:
                raise ParameterError("checkpoint", f"{folder}: not a checkpoint of the whole game of {va.name!r} or "
                                                   f"{vb.name!r} (its run.json names another run, or there is none): "
                                                   "name the folders their draws-exact or analyze --checkpoint runs "
                                                   "wrote")
            free = [i for i in holds if i not in taken]
            if not free:
                raise ParameterError("checkpoint", f"{folder}: a second checkpoint of the whole game of "
                                                   f"{games[holds[0]][0].name!r}: name one folder for each table")
            taken.append(free[0])
            stack.enter_context(whole_game_shards(games[free[0]][0], folder))
        yield


def hole_cards(variant: VariantLike = DEFAULT_VARIANT, exposed: Iterable[int] = (-1, 0, 1, 2, 3, 4), *,
               shares: Iterable[Fraction | int | str] = (), **run: Unpack[RunOptions]) -> HoleCardTable:
    """Exact optimal play when the player sees the up card and ``exposed`` hole cards (each of
    0..4; -1: no dealer card at all), and the edge when one hole card is seen on each of
    ``shares`` of the hands.  Kernel results are cached on disk like the count tables (cold,
    2 cores: 1 hole card about 10 s, 2 about 50 s, 3 a few minutes).

    >>> t = hole_cards("us-common", exposed=[-1, 4])
    >>> f"{float(t.level(4).player_edge):.4%}"
    '64.2816%'
    """
    threads, use_cache, progress = Run.of("hole_cards", run)          # checked once; threads resolved to an int
    from enumerate.protection.exposure import hole_card_table, kernel_classes  # lazy: start-up time
    v = _protection_variant(variant)
    levels = sorted(set(_whole_numbers("exposed", exposed, -1, 4, "exposed hole cards: -1 (no dealer card visible) or 0..4")))
    if not levels:
        raise ParameterError("exposed", "exposed hole cards are -1 (no dealer card visible) or 0..4")
    fractions = [_share(p) for p in shares]
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    with progress_bar(progress, "hole cards", sum(kernel_classes(k) for k in levels), "class") as tick:
        return hole_card_table(table, v, levels, fractions, threads=threads, use_cache=use_cache, progress=tick)


def edge_sort(variant: VariantLike = DEFAULT_VARIANT, ranks: str | Iterable[int] = "AK", **run: Unpack[RunOptions]) -> ExposureAnalysis:
    """Exact optimal play when the player sees the up card and, for every hole card, whether
    its rank is in the sorted set ``ranks`` (text such as "AK", or ranks 0 = deuce .. 12 = ace);
    about 3 s cold on 2 cores, then cached."""
    threads, use_cache, progress = Run.of("edge_sort", run)          # checked once; threads resolved to an int
    from enumerate.protection.exposure import edge_sort as _edge_sort  # lazy: start-up time
    v = _protection_variant(variant)
    marked = _ranks(ranks)
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    return _edge_sort(table, v, marked, threads=threads, use_cache=use_cache)


def collusion(variant: VariantLike = DEFAULT_VARIANT, partners: int = 6, *, burn_card: bool = False,
              samples: int = 600_000, seed: int = 0, strategy: CollusionStrategy | None = None,
              strategy_name: str | None = None, scheduler: str | None = None, **run: Unpack[RunOptions]) -> CollusionEstimate:
    """The edge of a player who also sees ``partners`` partners' hands (and the burn card), by
    sampling situations and enumerating every dealer hole-card set of each exactly; optimal play
    unless ``strategy(hand, up, seen) -> raise?`` (card numbers) is given.  The same seed and
    sample count give the same result on any number of threads or Dask workers
    (``scheduler``: a Dask scheduler address)."""
    threads, use_cache, progress = Run.of("collusion", run)          # checked once; threads resolved to an int
    from enumerate.protection.collusion import (  # lazy: start-up time
        MAX_LOCAL_SECONDS,
        MAX_SAMPLES,
        MAX_SEED,
        check_strategy,
        duration_text,
        estimate,
        projected_seconds,
    )
    v = _protection_variant(variant)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ParameterError("samples", "must be an integer of at least 2")
    if samples > MAX_SAMPLES:
        raise ParameterError("samples", f"at most {MAX_SAMPLES:,} a run, got {samples:,}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ParameterError("seed", f"a whole number 0 .. 2**128 - 1, got {seed!r:.40}")
    _whole_number("partners", partners, 0, 6, "0 .. 6 partners (a table seats 7)")
    if strategy is not None:
        _parsed("strategy", check_strategy, strategy)
    seconds = projected_seconds(samples, threads)
    if scheduler is None and seconds > MAX_LOCAL_SECONDS:
        exact_cost = "" if partners != 1 or burn_card or strategy is not None else (
            ", or count the game of one partner seen exactly with --exact (about 1.5 core-hours for the whole game, "
            "less for a slice)")
        raise ParameterError("samples", f"{samples:,} situations would take about {duration_text(seconds)} on "
                                        f"{threads} thread(s): ask for fewer (600,000 take about "
                                        f"{duration_text(projected_seconds(600_000, threads))}; the interval narrows as "
                                        f"the square root of the count){exact_cost}")
    if scheduler is None and seconds > 3600:
        warnings.warn(f"collusion: {samples:,} situations take about {duration_text(seconds)} on {threads} "
                      "thread(s); interrupt with Ctrl-C, or ask for fewer with --samples", stacklevel=2)
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    with progress_bar(progress, "sampling", samples, "situation") as tick:
        return estimate(table, v, _analyze(table, v, threads), partners=partners, burn_card=burn_card,
                        samples=samples, seed=seed, strategy=strategy,
                        strategy_name=strategy_name or ("optimal" if strategy is None else
                                                        str(getattr(strategy, "__name__", "user"))),
                        threads=threads, scheduler=scheduler, progress=tick)


def collusion_exact(variant: VariantLike = DEFAULT_VARIANT, *, up: str | None = None, hands: str | None = None,
                    checkpoint: str | Path | None = None, scheduler: str | None = None, two_boxes: bool = False,
                    **run: Unpack[RunOptions]) -> SeenHandSlice:
    """The exact value of seeing one partner's hand over a slice of the situations: the up-card
    ranks ``up`` ("2-6,A"; default all) and the **partner's** hand categories ``hands``
    ("full_house,four_of_a_kind"; default all) -- every player hand of the 46 other cards, every
    dealer hole-card set (see :mod:`enumerate.protection.seen_hand`).  Shards of 16 classes up to
    suits; ``checkpoint``: a folder that keeps finished shards (a rerun resumes); ``scheduler``: a
    Dask scheduler address.  The figures do not depend on how the work is split.  ``two_boxes``:
    the partner's hand is the player's own second box, and the result adds the spread of a round
    of both boxes (their covariance; a slice of up ranks only, counted by rank patterns)."""
    threads, use_cache, progress = Run.of("collusion_exact", run)          # checked once; threads resolved to an int
    from enumerate.core.slices import Slice  # lazy: start-up time
    from enumerate.protection.seen_hand import by_rank_patterns, slice_run  # lazy: start-up time
    if not isinstance(two_boxes, bool):
        raise ParameterError("two_boxes", f"True or False, not {two_boxes!r:.40}")
    source = variant_source(variant)
    v = _protection_variant(source.variant)
    sl = Slice.parse(up, hands)
    if two_boxes and not by_rank_patterns(sl):
        raise ParameterError("hands", "two boxes take every hand of the other box: leave out --hands (slice by --up)")
    job = slice_run(v, source.text, sl, _checkpoint_folder(checkpoint), two_boxes)
    return _run_slice(job, v, scheduler, threads, use_cache, progress)


def seen_hand_game(variant: VariantLike = DEFAULT_VARIANT, *, sums: Mapping[str, Any] | None = None,
                   **run: Unpack[RunOptions]) -> SeenHandSlice:
    """The exact whole game of a player who sees one other hand -- a partner's, or his own second
    box, so with the spread of a round of both (:func:`collusion_exact` with ``two_boxes`` over
    every situation) -- with its shards kept in the user cache (an interrupted run resumes, a
    later one reads them back verified, a damaged shard is valued again with a warning); or,
    given ``sums`` (the kept object a certified table holds in seen_hand.json, see
    :data:`enumerate.boxes.seen_game.SEEN_HAND`), read from them and verified against the
    count table instead of counted (a ValueError names what is wrong with them)."""
    threads, use_cache, progress = Run.of("seen_hand_game", run)          # checked once; threads resolved to an int
    from enumerate.boxes.seen_game import SEEN_HAND, whole_game_result, whole_game_steps  # lazy: start-up time
    from enumerate.core import exact_game  # lazy: start-up time
    source = variant_source(variant)
    v = _protection_variant(source.variant)
    with contextlib.ExitStack() as stack:
        if sums is not None:
            stack.enter_context(exact_game.given(SEEN_HAND, v, sums))
        table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
        with progress_bar(progress and sums is None, "seen hand, by rank patterns", whole_game_steps(), "class") as tick:
            total, n = exact_game.whole_game(SEEN_HAND, v, table, threads=threads, progress=tick, use_cache=use_cache)
        return whole_game_result(v, total, n)


def collusion_table(variant: VariantLike = DEFAULT_VARIANT, partners: Iterable[int] = (1, 2, 3, 4, 5, 6), *,
                    burn_cards: Iterable[bool] = (False,), samples: int = 600_000, seed: int = 0,
                    strategy: CollusionStrategy | None = None, strategy_name: str | None = None,
                    scheduler: str | None = None, **run: Unpack[RunOptions]) -> CollusionTable:
    """:func:`collusion` for each number of partners and burn-card setting (what the command
    prints); every estimate uses the same seed and sample count.  The burn card alone (0
    partners) is small enough to compute exactly (:func:`burn_card`): with optimal play it is
    reported exactly instead of sampled."""
    threads, use_cache, progress = Run.of("collusion_table", run)          # checked once; threads resolved to an int
    from enumerate.protection.collusion import CollusionTable  # lazy: start-up time
    v = _protection_variant(variant)
    seen = _whole_numbers("partners", partners, 0, 6, "0 .. 6 partners (a table seats 7)")
    burns = list(burn_cards) if isinstance(burn_cards, Iterable) and not isinstance(burn_cards, (str, bytes)) else None
    if burns is None or not all(isinstance(b, bool) for b in burns):
        raise ParameterError("burn_cards", f"a list of True/False, got {str(burn_cards)[:40]!r}")
    pairs = [(p, b) for p in seen for b in burns]
    if not pairs:
        raise ParameterError("partners", "no partner counts given")
    exact = None
    if (0, True) in pairs and strategy is None:
        exact = burn_card(v, threads=threads, use_cache=use_cache)
        pairs.remove((0, True))
    out = [collusion(v, p, burn_card=b, samples=samples, seed=seed, strategy=strategy,
                     strategy_name=strategy_name, scheduler=scheduler, threads=threads,
                     use_cache=use_cache, progress=progress)
           for p, b in pairs]
    return CollusionTable(v.name, tuple(out), exact)


def burn_card(variant: VariantLike = DEFAULT_VARIANT, **run: Unpack[RunOptions]) -> ExposureAnalysis:
    """Exact optimal play seeing the up card and the burn card (about 20 s cold on 2 cores)."""
    threads, use_cache, progress = Run.of("burn_card", run)          # checked once; threads resolved to an int
    from enumerate.protection.exposure import burn_card as _burn  # lazy: start-up time
    v = _protection_variant(variant)
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    return _burn(table, v, threads=threads, use_cache=use_cache)


def sensitivity(variant: VariantLike = DEFAULT_VARIANT, **run: Unpack[RunOptions]) -> Sensitivity:
    """Exact change of the total, house edge, element of risk and RTP per unit of every raise pay
    and both ante pays, and the exact pay interval over which the optimal strategy stays the same
    (with the situations that flip at each end).

    >>> s = sensitivity("us-common")
    >>> s.pays[3].pay, s.pays[3].total_loss_per_unit
    ('full_house', Fraction(-33248950560, 1))
    """
    threads, use_cache, progress = Run.of("sensitivity", run)          # checked once; threads resolved to an int
    from enumerate.design.sensitivity import sensitivity as _sensitivity  # lazy: start-up time
    v = load_variant(variant)
    require(v, "design")
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    return _sensitivity(table, v)


def _axes(vary: Iterable[str | Axis] | str | Axis) -> list[Axis]:
    from enumerate.design.grid import Axis  # lazy: start-up time
    items = [vary] if isinstance(vary, str | Axis) else list(vary)
    return [a if isinstance(a, Axis) else _parsed("vary", Axis.parse, a) for a in items]


def solve(variant: VariantLike, target: str | Target, vary: Iterable[str | Axis] | str | Axis, *,
          ordered: bool = True, best: int = 10, **run: Unpack[RunOptions]) -> SolveResult:
    """The paytables (the variant with the ``vary`` pays moved over their values) closest to the
    target, exactly ranked, with the exact pay when one pay moves.  ``target`` as
    ``"house_edge=3%"``, ``"element_of_risk=2%"`` or ``"rtp=98%"``; ``vary`` as
    ``"full_house=5..20/0.5"`` or ``"flush=5,6,7"``; ``ordered``: a better hand never pays less.

    >>> r = solve("uk-casino-stud", "house_edge=3%", "full_house=10..25")
    >>> r.best[0][0].pays["full_house"], f"{float(r.exact_pay.value):.4f}"
    (Fraction(19, 1), '19.0707')
    """
    threads, use_cache, progress = Run.of("solve", run)          # checked once; threads resolved to an int
    from enumerate.design.grid import grid_size  # lazy: start-up time
    from enumerate.design.solve import Target  # lazy: start-up time
    from enumerate.design.solve import solve as _solve  # lazy: start-up time
    v = load_variant(variant)
    require(v, "design")
    goal = target if isinstance(target, Target) else _parsed("target", Target.parse, target)
    _parsed("target", goal.check_table, v)           # a figure the table cannot reach, before any work
    axes = _axes(vary)
    _parsed("vary", grid_size, axes)                  # refuse an impossible grid before any work
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    with _grid_bar(axes, progress) as tick:
        return _solve(table, v, goal, axes, ordered=ordered, best=best, progress=tick)


def search(variant: VariantLike, vary: Iterable[str | Axis] | str | Axis, *,
           bounds: Iterable[str | Bound] = (), front: Iterable[str | Objective] | str | None = None,
           ordered: bool = True, scheduler: str | None = None, rows: Callable[..., None] | None = None,
           points: bool = True, **run: Unpack[RunOptions]) -> SearchResult:
    """Every paytable of the grid of ``vary`` against ``bounds`` (``"house_edge=2.5%..3%"``,
    ``"hit_frequency=0.38.."``): how many are feasible and their exact Pareto front under
    ``front`` (``"house_edge:max,hit_frequency:max"`` by default).  ``scheduler`` runs the
    chunks on a Dask cluster (same result as the local run); ``rows(grid, block)`` receives the
    feasible paytables chunk by chunk; ``points`` keeps (a sample of) their figures for a picture."""
    threads, use_cache, progress = Run.of("search", run)          # checked once; threads resolved to an int
    from enumerate.design.criteria import Bound, Objective  # lazy: start-up time
    from enumerate.design.grid import grid_size  # lazy: start-up time
    from enumerate.design.search import DEFAULT_OBJECTIVES  # lazy: start-up time
    from enumerate.design.search import search as _search  # lazy: start-up time
    v = load_variant(variant)
    require(v, "design")
    axes = _axes(vary)
    _parsed("vary", grid_size, axes)                  # refuse an impossible grid before any work
    limits = tuple(b if isinstance(b, Bound) else _parsed("bounds", Bound.parse, b) for b in bounds)
    for bound in limits:
        _parsed("bounds", bound.check_table, v)      # a figure the table cannot reach, before any work
    objectives: tuple[Objective, ...]
    if front is None:
        objectives = DEFAULT_OBJECTIVES
    else:
        items = [o for o in front.split(",") if o.strip()] if isinstance(front, str) else list(front)
        objectives = tuple(o if isinstance(o, Objective) else _parsed("front", Objective.parse, o) for o in items)
    table = count_table(v, threads=threads, use_cache=use_cache, progress=progress)
    with _grid_bar(axes, progress) as tick:
        return _search(table, v, axes, bounds=limits, objectives=objectives, ordered=ordered, scheduler=scheduler,
                       threads=threads, rows=rows, points=points,
                       progress=tick)


def _grid_bar(axes: list[Axis], progress: bool) -> Any:
    """The progress bar over the grid's candidates."""
    return progress_bar(progress, "paytables", math.prod(len(a.values) for a in axes), "paytable")


def design_file(variant: VariantLike, pays: Mapping[str, Fraction], name: str, description: str = "",
                path: str | os.PathLike[str] | None = None) -> str:
    """The variant file of ``variant`` with these raise pays, renamed: a design's answer as a file
    that ``studodds batch`` certifies like any other variant; written atomically to ``path``
    when one is given."""
    text = with_raise_pays(variant_source(variant), dict(pays), name, description)
    if path is not None:
        atomic_write_text(Path(path), text)
    return text


def table_kind(variant: VariantLike) -> str:
    """The name of the kind of the variant's table: "plain", or "draws" for a table that lets
    the player switch cards or buy a sixth card (see :mod:`enumerate.game.kinds`)."""
    return kind_of(load_variant(variant)).name


def _protection_variant(variant: VariantLike) -> Variant:
    """The variant, if the game-protection kernels cover its table (the plain game without an
    ante bonus, a raise of any size; a maximum payout and side bets are fine: they do not enter
    the analysis)."""
    v = load_variant(variant)
    require(v, "protection")
    return v


def _share(p: Fraction | int | str) -> Fraction:
    try:
        value = parse_rational(p.strip().removesuffix("%")) / (100 if p.strip().endswith("%") else 1) if isinstance(p, str) \
            else Fraction(p)
    except (StudoddsError, TypeError, ValueError):
        raise ParameterError("shares", f"a share of hands is a number between 0 and 1, not {p!r:.40}") from None
    if not 0 <= value <= 1:
        raise ParameterError("shares", f"a share of hands is between 0 and 1, not {p}")
    return value


def _ranks(ranks: str | Iterable[int]) -> tuple[int, ...]:
    if isinstance(ranks, str):
        text = ranks.replace(",", "").replace(" ", "").upper().replace("10", "T")
        bad = [c for c in text if c not in RANKS]
        if bad:
            raise ParameterError("ranks", f"sorted ranks are written like AK or A,K,Q (ranks {RANKS}), not {ranks!r}")
        return tuple(sorted({RANKS.index(c) for c in text}))
    return tuple(sorted(set(_whole_numbers("ranks", ranks, 0, 12, "sorted ranks: text such as AK, or ranks 0 (deuce) .. 12 (ace)"))))


def _whole_number(parameter: str, value: Any, lo: int, hi: int, what: str) -> int:
    """``value`` if it is a whole number lo..hi (an int, not a bool, a float or text)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not lo <= int(value) <= hi:
        raise ParameterError(parameter, f"{what}, got {type(value).__name__} {str(value)[:40]!r}")
    return int(value)


def _whole_numbers(parameter: str, values: Any, lo: int, hi: int, what: str) -> list[int]:
    """A list of whole numbers lo..hi (see :func:`_whole_number`) from any iterable but text."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ParameterError(parameter, f"{what}, as a list; got {type(values).__name__} {str(values)[:40]!r}")
    return [_whole_number(parameter, v, lo, hi, what) for v in values]


def _kernels() -> tuple[Any, ...]:
    """Every compiled module (:data:`enumerate.core.kernels.KERNELS`, the list setup.py builds)."""
    from enumerate.core.kernels import KERNELS  # lazy: start-up time (the modules it names)
    return tuple(importlib.import_module(name) for name in KERNELS)


def openmp_enabled() -> bool:
    """True if every compiled module was built with OpenMP; False for a serial build (the
    results are the same, the counting uses one core).  See :mod:`enumerate.core.parallel`."""
    return all(bool(k.OPENMP) for k in _kernels())


def debug_build() -> bool:
    """True if the compiled modules are the bounds-checking debug build
    (``STUDODDS_DEBUG_BUILD=1 pip install .``)."""
    return all(bool(k.DEBUG_BUILD) for k in _kernels())
