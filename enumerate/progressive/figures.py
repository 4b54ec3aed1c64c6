"""Every figure of the progressive side bet, in the JSON convention (``studodds progressive
--json`` prints it, and certified tables of progressive variants hold it)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal, TypedDict

from enumerate.core.engine import CountTable
from enumerate.core.jsonform import exact
from enumerate.core.jsonform import exact_or_none as fig
from enumerate.core.shapes import CategoryKey, Count, Exact, ExactOrNull, Minimum, shape
from enumerate.core.tabular import tabular
from enumerate.progressive import analysis as sb
from enumerate.progressive.analysis import CombinedGameJSON
from enumerate.rules.progressive import Progressive, ProgressiveRulesJSON
from enumerate.rules.variant import Variant
from evaluator.errors import StudoddsError


class HitJSON(TypedDict):
    """A paying hand of the side bet: how often it comes (also as "1 in N", N = 1 / probability,
    as regulators state a jackpot's odds) and what it pays."""

    category: CategoryKey
    combinations: Count
    probability: Exact
    one_in: Exact
    pays: str


class RegulatoryJSON(TypedDict):
    """The side bet in the terms regulators' tables use: the long-run return split into the
    fixed awards and the jackpot (meter) awards, and each award's odds held against a cap on how
    rare an award may be (New Jersey: no jackpot less likely than 1 in 100,000,000)."""

    return_fixed_awards: Exact
    return_jackpot_awards: ExactOrNull
    odds_cap_one_in: Count
    awards_rarer_than_the_cap: list[CategoryKey]
    every_award_within_the_cap: bool


class CurvePointJSON(TypedDict):
    """The side bet's net return at one meter."""

    meter: Exact
    net_return_per_wager: Exact


class MeterQuantileJSON(TypedDict):
    """A quantile of the meter when the royal hits."""

    quantile: Exact
    meter: Exact


class AwardQuantileJSON(TypedDict):
    """A quantile of what the royal pays (the cap applied)."""

    quantile: Exact
    award: Exact


class SimulatedReturnJSON(TypedDict):
    """A sampled return to player, with its 95% interval."""

    method: str
    estimate: float
    ci95_low: float
    ci95_high: float


class LongRunJSON(TypedDict):
    """The side bet over jackpot cycles."""

    return_to_player: ExactOrNull
    house_retention: ExactOrNull
    cycle_wagers: Exact
    meter_at_royal: ExactOrNull
    mean_meter: ExactOrNull
    meter_at_royal_quantiles: list[MeterQuantileJSON]
    quantiles_exact: bool
    royal_award_quantiles: list[AwardQuantileJSON] | None
    return_to_player_simulated: SimulatedReturnJSON | None


class SharingJSON(TypedDict):
    """What sharing one meter among the players of a table does to the side bet."""

    players: Annotated[int, Minimum(1)]
    two_or_more_meter_hits: Exact
    meter_award_per_player: Exact
    return_to_player: Exact
    return_lowered_by: Exact


class ProgressiveFiguresJSON(TypedDict):
    """Everything exact about the side bet (:func:`figures`)."""

    rules: ProgressiveRulesJSON
    hits: list[HitJSON]
    break_even_meter: ExactOrNull
    return_curve: list[CurvePointJSON]
    long_run: LongRunJSON
    regulatory: RegulatoryJSON
    sharing_meter: Exact
    sharing: list[SharingJSON]


class _ReportHeadJSON(TypedDict):
    kind: Literal["progressive"]
    variant: str


@shape("progressive", document=True)
class ProgressiveJSON(_ReportHeadJSON, ProgressiveFiguresJSON):
    """The JSON of the progressive's figures and the combined game (kind "progressive")."""

    combined_game: CombinedGameJSON


PLAYERS = range(1, 8)


def default_meters(side: Progressive) -> list[Fraction]:
    """Meter levels for the return curve: the seed, round levels, and the break-even meter."""
    levels = {Fraction(side.seed)} | {Fraction(x) for x in (10_000, 50_000, 100_000, 200_000, 300_000, 500_000, 1_000_000)}
    be = sb.break_even_meter(side)
    if be is not None:
        levels.add(be)
    if side.ceiling is not None:                     # the meter never passes its ceiling
        levels = {m for m in levels if m <= side.ceiling} | {side.ceiling}
    return sorted(levels)


#: How rare an award may be, as "1 in N": New Jersey's limit on a jackpot's probability
#: (N.J.A.C. 13:69D-1.52), the report's default cap.
ODDS_CAP = 100_000_000


def regulatory(side: Progressive, rtp: Fraction | None, odds_cap: int = ODDS_CAP) -> RegulatoryJSON:
    """:class:`RegulatoryJSON` of a side bet whose long-run return is ``rtp`` (None: not exact)."""
    p = sb.hit_probabilities()
    fixed = sb.fixed_return(side, p)
    rare = [c.key for c in sorted(side.pays, reverse=True) if 1 / p[c] > odds_cap]
    return {"return_fixed_awards": exact(fixed), "return_jackpot_awards": fig(None if rtp is None else rtp - fixed),
            "odds_cap_one_in": odds_cap, "awards_rarer_than_the_cap": rare, "every_award_within_the_cap": not rare}


def figures(side: Progressive, meter: Fraction | None = None, players=PLAYERS,
            odds_cap: int = ODDS_CAP) -> ProgressiveFiguresJSON:
    """Everything exact about the side bet; fraction strings with rounded values."""
    p = sb.hit_probabilities()
    be = sb.break_even_meter(side)
    at = Fraction(meter) if meter is not None else (be if be is not None else Fraction(side.seed))
    lr = sb.long_run(side)
    out: ProgressiveFiguresJSON = {
        "rules": side.to_dict(),
        "hits": [{"category": c.key, "combinations": sb.hit_counts()[c], "probability": exact(p[c]),
                  "one_in": exact(1 / p[c]), "pays": side.pay_text(c)} for c in sorted(side.pays, reverse=True)],
        "break_even_meter": fig(be),
        "return_curve": [{"meter": exact(m), "net_return_per_wager": exact(r)}
                         for m, r in sb.return_curve(side, default_meters(side))],
        "long_run": {
            "return_to_player": fig(lr.return_to_player), "house_retention": fig(lr.house_retention),
            "cycle_wagers": exact(lr.cycle_wagers), "meter_at_royal": fig(lr.meter_at_royal),
            "mean_meter": fig(lr.mean_meter),
            "meter_at_royal_quantiles": [{"quantile": exact(q), "meter": exact(v)}
                                         for q, v in lr.meter_at_royal_quantiles.items()],
            "quantiles_exact": lr.quantiles_exact,
            "royal_award_quantiles": None if lr.royal_award_quantiles is None else [
                {"quantile": exact(q), "award": exact(v)} for q, v in lr.royal_award_quantiles.items()],
            "return_to_player_simulated": None if lr.simulated_return is None else {
                "method": f"simulation of {sb.QUANTILE_CYCLES} seeded jackpot cycles"
                          f"{' run one after another, each carrying its reserve and overflow' if side.carried else ''} "
                          f"(seed {sb.SIMULATION_SEED})",
                "estimate": lr.simulated_return[0],
                "ci95_low": lr.simulated_return[0] - lr.simulated_return[1],
                "ci95_high": lr.simulated_return[0] + lr.simulated_return[1]},
        },
        "regulatory": regulatory(side, lr.return_to_player, odds_cap),
        "sharing_meter": exact(at),
        "sharing": [],
    }
    for n in players:
        s = sb.sharing(side, at, n)
        out["sharing"].append({"players": n, "two_or_more_meter_hits": exact(s.two_or_more_meter_hits),
                               "meter_award_per_player": exact(s.meter_award_per_player),
                               "return_to_player": exact(s.return_to_player),
                               "return_lowered_by": exact(s.return_lowered_by)})
    return out


@tabular("hits", 'paying hands')
@dataclass(frozen=True)
class ProgressiveReport:
    """The side bet's figures (:func:`figures`) and the combined game at the sharing meter."""

    variant: str
    figures: ProgressiveFiguresJSON
    combined: sb.Combined

    def to_dict(self) -> ProgressiveJSON:
        """kind "progressive": what ``studodds progressive --json`` prints."""
        return {"kind": "progressive", "variant": self.variant, **self.figures,
                "combined_game": self.combined.to_dict()}


def report(table: CountTable, variant: Variant, meter: Fraction | None = None,
           side_wager: Fraction = Fraction(1), threads: int = 1) -> ProgressiveReport:
    """Everything about the variant's progressive at ``meter`` (default: the break-even meter,
    or the seed when the bet never breaks even); the combined game with ``side_wager`` antes."""
    side = variant.progressive
    if side is None:
        raise StudoddsError(f"variant {variant.name!r} has no [progressive] side bet")
    data = figures(side, meter)
    at = meter if meter is not None else sb.break_even_meter(side)
    combined = sb.combined(table, variant, at if at is not None else side.seed, side_wager, threads)
    return ProgressiveReport(variant.name, data, combined)
