"""What a Russian Poker table says in the reports (see :mod:`enumerate.analysis.sections`).

The kind gives one hand's decisions for now (:mod:`enumerate.russian.hand`); its whole game, and
so its report's own sections, come with the game's kernels.  The rules' lines are its own already.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from enumerate.analysis.sections import Sections


def option_lines(variant: Any) -> list[str]:
    """A line per option of Russian Poker the table offers."""
    out = []
    if variant.two_combinations is not None:
        out.append(f"- Two combinations: {variant.two_combinations.text()}.")
    if variant.insurance is not None:
        out.append(f"- Insurance: {variant.insurance.text()}.")
    if variant.buy_game is not None:
        out.append(f"- Buying the game: {variant.buy_game.text()}.")
    return out


class RussianReport(Sections):
    """The sections of a Russian Poker table."""

    def rules(self, variant: Any) -> list[str]:
        return option_lines(variant) + [
            "- Strategy: optimal: raise iff EV(raise) > -1 ante, insure iff the stake's EV is positive, and buy the "
            "game against each dealer hand that does not qualify iff that is worth more than the ante's pay.", ""]

    def closing(self, a: Any, prov: Mapping[str, Any]) -> list[str]:
        return ["Method: every dealer hand and every replacement card of a bought game, exactly."]


RUSSIAN_REPORT = RussianReport()
