"""Sanity warnings: rule sets that are legal to analyse but probably not what a casino means.

The figures are always computed; a warning is printed, written into the certified report and
``summary.json``, and ``--strict`` turns any warning into exit code 2.

* a pay lower than a weaker hand's pay (``royal_flush = 40`` under ``straight_flush = 50``);
* a qualifier that makes the non-qualifying rule vacuous (qualifier "none": the dealer always
  qualifies, so ``ante_pays.dealer_does_not_qualify`` never applies);
* a game the player wins in the long run (negative house edge), known after the analysis.
"""
from __future__ import annotations

from fractions import Fraction

from enumerate.rules.variant import PAY_CATEGORIES, Variant
from evaluator.errors import ParameterError
from evaluator.ranking import Category


def rule_warnings(variant: Variant) -> list[str]:
    """Warnings that the rules alone give (before any counting)."""
    out = []
    listed = [c for c in PAY_CATEGORIES if variant.royal_separate or c != Category.ROYAL_FLUSH]
    for stronger, weaker in zip(listed, listed[1:]):
        if variant.pay(stronger) < variant.pay(weaker):
            out.append(f"raise_pays.{stronger.key} ({variant.pay(stronger)}) pays less than the weaker "
                       f"raise_pays.{weaker.key} ({variant.pay(weaker)})")
    if variant.qualifier.always_qualifies:
        out.append("qualifier \"none\": the dealer always qualifies, so ante_pays.dealer_does_not_qualify "
                   "never applies")
    return out


def player_has_edge(house_edge: Fraction) -> bool:
    """Whether optimal play gives the player the edge: a game no house would deal as read."""
    return house_edge < 0


def edge_note(house_edge: Fraction) -> str:
    """The fact in a few words for a table's first line ("" for a house game)."""
    if not player_has_edge(house_edge):
        return ""
    return (f"the player has the edge under optimal play (house edge {float(house_edge):.6%} per ante): "
            "a game no house would deal as read")


def edge_warnings(house_edge: Fraction) -> list[str]:
    """Warnings that the exact house edge gives."""
    if player_has_edge(house_edge):
        return [f"the player has the edge: the house edge is {float(house_edge):.6%} per ante "
                "under optimal play"]
    return []


def warnings_for(variant: Variant, house_edge: Fraction | None = None) -> list[str]:
    """Every warning for a variant (the edge ones only when ``house_edge`` is given)."""
    return rule_warnings(variant) + ([] if house_edge is None else edge_warnings(house_edge))


def strict_error(name: str, found: list[str]) -> ParameterError:
    """The error a strict run raises for ``found`` warnings of variant ``name`` (the first one
    named, the others counted)."""
    more = f"; {len(found) - 1} more" if len(found) > 1 else ""
    first = found[0].replace("\r", "\\r").replace("\n", "\\n")
    return ParameterError("strict", f"{name}: {first} (warnings are errors{more})")
