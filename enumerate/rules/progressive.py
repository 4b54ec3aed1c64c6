"""The progressive jackpot side bet: its rules (paytable, meter contribution, reset, folds).

Pays are per unit of side wager: a fixed multiple (``Fraction``) or a share of the meter
(:class:`MeterPay`), optionally capped.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Annotated, Literal, NotRequired, TypedDict, Union

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
    """The JSON of the progressive's rules (``reserve``, ``ceiling`` and ``overflow`` only when
    the table sets them)."""

    contribution: Exact
    seed: Exact
    fold_forfeits: bool
    pays: Annotated[dict[str, MeterPayJSON | FixedPayJSON], BY_CATEGORY]
    reserve: NotRequired[Exact]
    ceiling: NotRequired[Exact]
    overflow: NotRequired[Overflow]


#: Where the contributions a meter at its ceiling cannot take go: added to the next jackpot's
#: start with the reserve ("reseed"), or kept by the operator ("retained").
Overflow = Literal["reseed", "retained"]
OVERFLOWS: tuple[Overflow, ...] = ("reseed", "retained")


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
    """Progressive side bet rules: pays by category, meter contribution (the increment rate),
    reset amount (the seed), and whether a fold forfeits the side bet; and, as Pennsylvania's and
    the UK's tables state them:

    * ``reserve``: the reserve (reseed) rate, the share of each side wager put aside for the next
      jackpot: when the royal hits, the meter restarts at the seed plus the reserve gathered
      since the last royal (default 0);
    * ``ceiling``: the meter's ceiling (None: no ceiling): the meter stops growing there and the
      contributions it cannot take go to the ``overflow``, added to the next jackpot's start with
      the reserve ("reseed", the default) or kept by the operator ("retained")."""

    pays: Mapping[Category, SidePay]
    contribution: Fraction = Fraction(7, 10)
    seed: Fraction = Fraction(0)
    fold_forfeits: bool = False
    reserve: Fraction = Fraction(0)
    ceiling: Fraction | None = None
    overflow: Overflow = "reseed"

    def __post_init__(self) -> None:
        object.__setattr__(self, "pays", MappingProxyType(dict(self.pays)))
        object.__setattr__(self, "reserve", Fraction(self.reserve))
        if self.ceiling is not None:
            object.__setattr__(self, "ceiling", Fraction(self.ceiling))
        if self.overflow not in OVERFLOWS:
            raise ValueError(f"overflow must be one of {', '.join(OVERFLOWS)}")

    @property
    def carried(self) -> bool:
        """Whether a jackpot cycle carries money into the next (a reserve, or a ceiling): the
        cycles are then not independent, and the meter can stop growing."""
        return self.reserve != 0 or self.ceiling is not None

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
        out: ProgressiveRulesJSON = {
            "contribution": exact(self.contribution),
            "seed": exact(self.seed),
            "fold_forfeits": self.fold_forfeits,
            "pays": {c.key: (p.to_dict() if isinstance(p, MeterPay) else {"multiple": exact(p)})
                     for c, p in sorted(self.pays.items(), reverse=True)},
        }
        if self.reserve:
            out["reserve"] = exact(self.reserve)
        if self.ceiling is not None:
            out["ceiling"] = exact(self.ceiling)
            out["overflow"] = self.overflow
        return out
