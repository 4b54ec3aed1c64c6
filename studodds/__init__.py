"""studodds: exhaustive, exact odds for Caribbean Stud Poker (Casino Stud Poker).

Every figure comes from all 19,933,230,517,200 combinations of player hand, dealer up card and
dealer hole cards, as exact integers and fractions.  Money is in antes.

>>> import studodds
>>> a = studodds.analyze("us-common")
>>> a.total_loss
Fraction(1041372912372, 1)
>>> a.to_dict()["house_edge_per_ante"]["exact"]
'142031221/2718662100'
>>> studodds.hand("As Kd Jh 8c 3s", up="7d").rows[0].action
'fold'

Names are imported on first use, so ``import studodds`` stays fast.  The command line is
``studodds`` or ``python -m studodds``.
"""
from __future__ import annotations

from importlib import import_module

from studodds._version import __version__

#: ``typing.TYPE_CHECKING`` without importing typing (a few milliseconds of every command's
#: start, before its Ctrl-C handler is in place: see studodds/__main__.py); type checkers treat
#: the name as true.
TYPE_CHECKING = False

#: The public names, each once: name -> the module that defines it.  ``__all__`` is made from it;
#: the TYPE_CHECKING imports below repeat the names for type checkers (which cannot follow a
#: lazy import), and tests/test_reliability_hostile_newer.py checks that the two agree.
_LAZY = {
    "Analysis": "enumerate.analysis.base",
    "Category": "evaluator.ranking",
    "CertificationFigures": "enumerate.analysis.certification",
    "CollusionEstimate": "enumerate.protection.collusion",
    "CollusionTable": "enumerate.protection.collusion",
    "ExposureAnalysis": "enumerate.protection.exposure",
    "HoleCardTable": "enumerate.protection.exposure",
    "CountTable": "enumerate.core.engine",
    "EVTable": "enumerate.analysis.ev_table",
    "HandEVs": "enumerate.analysis.ev",
    "ProgressiveReport": "enumerate.progressive.figures",
    "SearchResult": "enumerate.design.search",
    "Sensitivity": "enumerate.design.sensitivity",
    "SideBetReport": "enumerate.sidebets.analysis",
    "DrawSample": "enumerate.draws.sample",
    "ExactSlice": "enumerate.draws.exact",
    "SeenHandSlice": "enumerate.boxes.seen_game",
    "GameAnalysis": "enumerate.game.analysis",
    "HandDraws": "enumerate.draws.hand",
    "Simulation": "enumerate.simulation.simulate",
    "SolveResult": "enumerate.design.solve",
    "StrategyComparison": "enumerate.analysis.strategies",
    "StudoddsError": "evaluator.errors",
    "ParameterError": "evaluator.errors",
    "Variant": "enumerate.rules.variant",
    "VariantDiff": "enumerate.game.diff",
    **{name: "studodds.api" for name in (
        "analyze", "burn_card", "certification", "clear_memory", "collusion", "collusion_exact", "collusion_table",
        "count_table", "design_file", "diff", "draws_exact", "draws_sample", "edge_sort", "ev_table", "hand",
        "hole_cards", "load_variant", "openmp_enabled", "progressive", "search", "seen_hand_game", "self_check",
        "sensitivity", "simulate", "simulate_many", "solve", "strategies", "table_kind", "variants",
        "whole_game_shards")},
}

__all__ = sorted([*_LAZY, "__version__"])

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from typing import Any

    from enumerate.analysis.base import Analysis
    from enumerate.analysis.certification import CertificationFigures
    from enumerate.analysis.ev import HandEVs
    from enumerate.analysis.ev_table import EVTable
    from enumerate.analysis.strategies import StrategyComparison
    from enumerate.boxes.seen_game import SeenHandSlice
    from enumerate.core.engine import CountTable
    from enumerate.design.search import SearchResult
    from enumerate.design.sensitivity import Sensitivity
    from enumerate.design.solve import SolveResult
    from enumerate.draws.exact import ExactSlice
    from enumerate.draws.hand import HandDraws
    from enumerate.draws.sample import DrawSample
    from enumerate.game.analysis import GameAnalysis
    from enumerate.game.diff import VariantDiff
    from enumerate.progressive.figures import ProgressiveReport
    from enumerate.protection.collusion import CollusionEstimate, CollusionTable
    from enumerate.protection.exposure import ExposureAnalysis, HoleCardTable
    from enumerate.rules.variant import Variant
    from enumerate.sidebets.analysis import SideBetReport
    from enumerate.simulation.simulate import Simulation
    from evaluator.errors import ParameterError, StudoddsError
    from evaluator.ranking import Category
    from studodds.api import (
        analyze,
        burn_card,
        certification,
        clear_memory,
        collusion,
        collusion_exact,
        collusion_table,
        count_table,
        design_file,
        diff,
        draws_exact,
        draws_sample,
        edge_sort,
        ev_table,
        hand,
        hole_cards,
        load_variant,
        openmp_enabled,
        progressive,
        search,
        seen_hand_game,
        self_check,
        sensitivity,
        simulate,
        simulate_many,
        solve,
        strategies,
        table_kind,
        variants,
        whole_game_shards,
    )


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'studodds' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The API only: not the names this module uses to import it lazily (``Any``,
    ``import_module``, ``TYPE_CHECKING``, ``annotations``)."""
    return list(__all__)
