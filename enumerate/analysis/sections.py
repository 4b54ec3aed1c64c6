"""What a kind of table says in the reports: its sections, beside its engine.

A report (``report.md``, its HTML and PDF, the terminal's summary, the workbook) is the same for
every kind of table -- rules and paytable, return table, figures, strategy statistics -- except
for what the kind adds or plays differently.  A kind says that through an object with the
methods of :class:`KindReport` (its ``report``; the plain game's in
:mod:`enumerate.game.plain_report`, the draws' in :mod:`enumerate.draws.report`, two boxes' in
:mod:`enumerate.boxes.report`); the reports call those methods in order and never ask which
kind a table is.  The prose of a kind's method lives there, beside its engine, so a change of
the kernel and of its description are one change.
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Protocol

#: A sheet of the workbook: its name, its header row and its rows (figure, value, exact).
Sheet = tuple[str, list[str], list[list[Any]]]
#: An input of the workbook's Paytable sheet: (name in the formulas, label, exact value).
Input = tuple[str, str, Fraction]
#: A term of a net result: a coefficient times the product of Paytable inputs (by name; none: a constant).
Term = tuple[Fraction, tuple[str, ...]]
#: A text report's part: a line, or a table of cells (aligned by the terminal's layout).
TextPart = str | list[list[str]]


class KindReport(Protocol):
    """The sections of a kind of table in the reports (see the module docstring); ``a`` is the
    table's :class:`~enumerate.game.analysis.GameAnalysis`, ``prov`` its provenance
    (``provenance`` of summary.json)."""

    #: whether a certified table shows the plain game's figures beside its own (what the
    #: kind's option is worth: the draws)
    beside_plain: bool
    #: the wagers the element of risk divides by, in words ("ante + raise")
    wagers: str

    def beside(self, a: Any, plain: Any) -> tuple[Any, str]:
        """When :attr:`beside_plain`: the plain game's figures beside the table's (summary.json's
        ``plain_game``) and the report's section saying so, from the analysis ``plain`` of the
        same table without the kind's option."""

    def rules(self, variant: Any) -> list[str]:
        """The Markdown lines under "Rules and paytable" after the paytable: how the kind is
        played and the strategy's statement, ending with an empty line."""

    def return_table_note(self, a: Any) -> list[str]:
        """Markdown lines after the return table (what its combinations are), or none."""

    def strategy_columns(self, variant: Any) -> tuple[str, str]:
        """The strategy statistics' first column and what they count ("player hand",
        "situations")."""

    def sections(self, a: Any) -> list[str]:
        """Markdown sections after the side bets (the kind's own figures and chart)."""

    def closing(self, a: Any, prov: Mapping[str, Any]) -> list[str]:
        """The Markdown that ends the report: the kind's figures of a whole round, its method and
        the provenance."""

    def text(self, a: Any) -> list[TextPart]:
        """The lines (and tables) the terminal's summary adds for the kind."""

    def strategy_files(self, a: Any) -> dict[str, str]:
        """strategy.md and strategy.csv of a certified table of the kind (empty for the plain
        game, whose files come from the strategy comparison)."""

    def workbook(self, analysis: Mapping[str, Any]) -> list[Sheet]:
        """The workbook's sheets of the kind's figures, from the analysis's JSON (none when the
        figures are not there: the workbook asks every kind)."""

    def workbook_inputs(self, analysis: Mapping[str, Any]) -> list[Input]:
        """The inputs the kind adds to the workbook's Paytable sheet (name, label, value), that
        its return-table rows' nets are formulas of (none when the analysis is not the kind's)."""

    def net_terms(self, analysis: Mapping[str, Any]) -> dict[str, list[Term]]:
        """Per return-table outcome of the kind's own, its net result as a sum of terms over the
        Paytable inputs (a plain game's outcomes are the workbook's own; empty when the analysis
        is not the kind's)."""

    def wager_extra(self, analysis: Mapping[str, Any]) -> tuple[str, Any] | None:
        """A wager beyond the ante and raise, per hand (figure name, exact JSON value), that the
        average wager adds, or None."""

    def not_raised(self, analysis: Mapping[str, Any]) -> tuple[str, ...]:
        """The starts of the kind's own return-table outcomes of hands that make no bet and do not
        fold either (the workbook's raise probability leaves them out with the folds)."""


class Sections:
    """The defaults of :class:`KindReport`, for a kind to override what it adds: nothing beside
    the plain game, no note after the return table, the strategy statistics by player hand and
    situation, no sections of its own, no lines in the terminal's summary, no strategy files,
    no sheets.  ``rules`` and ``closing`` (how the kind is played, its method) are the kind's own."""

    beside_plain = False
    wagers = "ante + raise"

    def beside(self, a: Any, plain: Any) -> tuple[Any, str]:
        raise NotImplementedError(f"{type(self).__name__} shows nothing beside the plain game")

    def rules(self, variant: Any) -> list[str]:
        raise NotImplementedError(f"{type(self).__name__} must say how its table is played")

    def return_table_note(self, a: Any) -> list[str]:
        return []

    def strategy_columns(self, variant: Any) -> tuple[str, str]:
        return "player hand", "situations"

    def sections(self, a: Any) -> list[str]:
        return []

    def closing(self, a: Any, prov: Mapping[str, Any]) -> list[str]:
        raise NotImplementedError(f"{type(self).__name__} must state its method")

    def text(self, a: Any) -> list[TextPart]:
        return []

    def strategy_files(self, a: Any) -> dict[str, str]:
        return {}

    def workbook(self, analysis: Mapping[str, Any]) -> list[Sheet]:
        return []

    def workbook_inputs(self, analysis: Mapping[str, Any]) -> list[Input]:
        return []

    def net_terms(self, analysis: Mapping[str, Any]) -> dict[str, list[Term]]:
        return {}

    def wager_extra(self, analysis: Mapping[str, Any]) -> tuple[str, Any] | None:
        return None

    def not_raised(self, analysis: Mapping[str, Any]) -> tuple[str, ...]:
        return ()


def provenance_lines(prov: Mapping[str, Any], combinations: str, game: str) -> list[str]:
    """The provenance of a table counted by a whole-game engine of its own (draws, two boxes):
    the tool, the evaluator, the variant file, its combinations, its self-checks, and the spot
    checks of ``game`` (the count table it is built on)."""
    checks = prov["self_checks"]
    return ["## Provenance", "",
            f"- Tool: studodds {prov['tool_version']}, engine version {prov['engine_version']}",
            f"- Evaluator ordering SHA-256: `{prov['evaluator_ordering_sha256']}`",
            f"- Variant file SHA-256: `{prov['variant_file_sha256']}` ({prov['variant_origin']})",
            f"- {combinations}",
            f"- Self-check: outcome rows sum to the total: {'passed' if checks['return_table_rows_sum_to_total'] else 'FAILED'}",
            f"- Self-check: outcome probabilities sum to one: {'passed' if checks['probabilities_sum_to_one'] else 'FAILED'}",
            f"- Self-check: {checks['brute_force_spot_checks_agree']} sampled situations of {game} agree with a "
            "brute-force enumeration of all 163,185 dealer completions: passed", ""]


def figure_rows(rows: list[tuple[str, str, str]]) -> list[str]:
    """A Markdown table of (figure, value, exact) rows."""
    return ["| figure | value | exact |", "|---|---:|---|", *[f"| {n} | {v} | `{e}` |" for n, v, e in rows]]
