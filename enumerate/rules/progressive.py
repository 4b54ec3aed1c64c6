"""The progressive jackpot side bet: its rules (paytable, meter contribution, reset, folds).

Pays are per unit of side wager: a fixed multiple (``Fraction``) or a share of the meter
(:class:`MeterPay`), optionally capped.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Annotated, TypedDict, Union

from enumerate.core.jsonform import exact, exact_or_none
from enumerate.core.shapes import BY_CATEGORY, Exact, ExactOrNull, shape
from evaluator.ranking import Category


@shape("meter_pay")
class MeterPayJSON(TypedDict):
    """The JSON of a pay that is a share of the meter."""

    meter_share: Exact
    cap: ExactOrNull


@shape("fixed_pay")
class FixedPayJSON(TypedDict):
    """The JSON of a fixed pay, a multiple of the side wager."""

    multiple: Exact


@shape("progressive_rules")
class ProgressiveRulesJSON(TypedDict):
    """The JSON of the progressive's rules."""

    contribution: Exact
    seed: Exact
    fold_forfeits: bool
    pays: Annotated[dict[str, MeterPayJSON | FixedPayJSON], BY_CATEGORY]


@dataclass(frozen=True)
class MeterPay:
    """A share of the progressive meter, e.g. ``MeterPay(Fraction(1, 10))`` for 10%;
    ``cap`` limits the award (in side-wager units)."""

    share: Fraction
    cap: Fraction | None = None

    def text(self) -> str:
        pct = self.share * 100
        share = f"{pct.numerator}%" if pct.denominator == 1 else f"{self.share} of"
        return f"{share} meter" + (f" (cap {self.cap})" if self.cap is not None else "")

    def to_dict(self) -> MeterPayJSON:
        return {"meter_share": exact(self.share), "cap": exact_or_none(self.cap)}


SidePay = Union[Fraction, MeterPay]


@dataclass(frozen=True)
class Progressive:
    """Progressive side bet rules: pays by category, meter contribution, reset amount, and
    whether a fold forfeits the side bet."""

    pays: Mapping[Category, SidePay]
    contribution: Fraction = Fraction(7, 10)
    seed: Fraction = Fraction(0)
    fold_forfeits: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "pays", MappingProxyType(dict(self.pays)))

    @property
    def capped(self) -> bool:
        """Whether a meter pay has a cap (the long-run return then has no closed form)."""
        return any(isinstance(x, MeterPay) and x.cap is not None for x in self.pays.values())

    def pay_text(self, category: Category) -> str:
        pay = self.pays.get(category)
        if pay is None:
            return "-"
        return pay.text() if isinstance(pay, MeterPay) else f"{pay} x wager"

    def to_dict(self) -> ProgressiveRulesJSON:
        """The rules in the JSON convention: a fixed pay is ``{"multiple": ...}``, a meter pay
        ``{"meter_share": ..., "cap": ...}``; keys as in the variant file."""
        return {
            "contribution": exact(self.contribution),
            "seed": exact(self.seed),
            "fold_forfeits": self.fold_forfeits,
            "pays": {c.key: (p.to_dict() if isinstance(p, MeterPay) else {"multiple": exact(p)})
                     for c, p in sorted(self.pays.items(), reverse=True)},
        }
