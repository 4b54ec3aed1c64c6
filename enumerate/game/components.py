"""RTP by component and the largest exposure of one game: what a PAR sheet lists per wager.

Components, each per game and in its own unit, exact:

* **ante** (1 ante a game): its expected net result is the ante part of every outcome (the ante
  pays, the ante bonus, -1 on a fold or a dealer win); RTP = 1 + net.
* **raise** (raise size x P(raise) antes a game on average): the rest of the base game's
  result; RTP = 1 + net / average raise.
* **each side bet** (its wager in antes, placed every game): RTP = 1 + its expected net per unit
  wagered, as the combined game settles it.
* **the progressive** (per unit of its own wager, which is not tied to the ante): the long-run
  return to player with the meter (None when a capped meter award leaves it inexact).
* **base game and side bets together** (antes): total net over total wagered.

The largest exposure of one game (antes) is the base game's largest net win plus each side bet's
largest pay times its wager -- an upper bound, reached whenever the largest wins can come
together (in every built-in variant the same royal flush takes all of them) -- with the
progressive's largest fixed pay beside it (per unit of its wager) and, when it has a meter
award, the meter on top.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import NotRequired, TypedDict

from enumerate.analysis.certification import CertificationFiguresJSON
from enumerate.core.jsonform import exact, exact_or_none
from enumerate.core.shapes import Exact, ExactOrNull, shape
from enumerate.game.analysis import GameAnalysis
from enumerate.progressive.analysis import long_run
from enumerate.rules.hands import PUSH
from enumerate.rules.progressive import MeterPay


class ComponentJSON(TypedDict):
    """One wager's average stake, expected net result and return to player."""

    component: str
    unit: str
    average_wager_per_game: Exact
    net_return_per_game: ExactOrNull
    rtp: ExactOrNull


class ExposureJSON(TypedDict):
    """The largest amount one game can pay the player."""

    base_game_antes: Exact
    side_bets_antes: dict[str, Exact]
    total_antes: Exact
    progressive_largest_fixed_pay_per_wager: ExactOrNull
    progressive_meter_award: bool


@shape("certification")
class CertificationJSON(CertificationFiguresJSON):
    """The JSON of a certified table's certification figures: the report's figures and the
    return to player by component with the largest exposure."""

    rtp_by_component: NotRequired[list[ComponentJSON]]
    largest_exposure: NotRequired[ExposureJSON]


@dataclass(frozen=True)
class Component:
    """One wager of the game: its average stake and expected net result per game (in ``unit``)
    and its return to player per unit staked."""

    name: str
    unit: str
    average_wager: Fraction
    net_per_game: Fraction | None
    rtp: Fraction | None

    def to_dict(self) -> ComponentJSON:
        return {"component": self.name, "unit": self.unit, "average_wager_per_game": exact(self.average_wager),
                "net_return_per_game": exact_or_none(self.net_per_game), "rtp": exact_or_none(self.rtp)}


@dataclass(frozen=True)
class Exposure:
    """The largest amount one game can pay the player (see the module docstring)."""

    base: Fraction                            # antes
    side_bets: tuple[tuple[str, Fraction], ...]   # antes each (pay x wager)
    progressive_fixed: Fraction | None        # per unit of progressive wager
    progressive_meter: bool                   # a meter award may come on top

    @property
    def total_antes(self) -> Fraction:
        return self.base + sum((v for _, v in self.side_bets), Fraction(0))

    def to_dict(self) -> ExposureJSON:
        return {"base_game_antes": exact(self.base), "side_bets_antes": {k: exact(v) for k, v in self.side_bets},
                "total_antes": exact(self.total_antes),
                "progressive_largest_fixed_pay_per_wager": exact_or_none(self.progressive_fixed),
                "progressive_meter_award": self.progressive_meter}


def components(a: GameAnalysis, ante_net: Fraction, raise_net: Fraction, largest_base_win: Fraction,
               ) -> tuple[tuple[Component, ...], Exposure]:
    """The components and the exposure of ``a`` (``ante_net`` / ``raise_net``: the base game's
    expected result split by wager; ``largest_base_win``: its largest net win, antes)."""
    v = a.variant
    raise_stake = v.raise_antes * a.raise_probability
    out = [Component("ante", "antes", Fraction(1), ante_net, 1 + ante_net),
           Component("raise", "antes", raise_stake, raise_net, 1 + raise_net / raise_stake if raise_stake else None)]
    stake, net = 1 + raise_stake, ante_net + raise_net
    side: list[tuple[str, Fraction]] = []
    if a.side_bets is not None:
        for b in a.side_bets.bets:
            out.append(Component(f"side bet {b.bet.name}", "antes", b.bet.wager, b.bet.wager * b.expected, 1 + b.expected))
            stake += b.bet.wager
            net += b.bet.wager * b.expected
            pays = [Fraction(p) for _, p in b.bet.pays.pays if p != PUSH]
            side.append((b.bet.name, max(pays + [Fraction(0)]) * b.bet.wager))
        out.append(Component("base game and side bets", "antes", stake, net, 1 + net / stake))
    fixed, meter = None, False
    if v.progressive is not None:
        rtp = long_run(v.progressive).return_to_player
        out.append(Component("progressive (long run)", "units of progressive wager", Fraction(1),
                             None if rtp is None else rtp - 1, rtp))
        fixed = max([Fraction(p) for p in v.progressive.pays.values() if not isinstance(p, MeterPay)] + [Fraction(0)])
        meter = any(isinstance(p, MeterPay) for p in v.progressive.pays.values())
    return tuple(out), Exposure(largest_base_win, tuple(side), fixed, meter)
