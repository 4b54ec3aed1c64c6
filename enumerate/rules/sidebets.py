"""Side bets with fixed pays, and envy bonuses: their rules.

Three kinds, by what settles the bet:

* ``player_hand``: the player's own five cards (the Palms "Bonus": pays by hand, low pairs
  push, anything else loses);
* ``player_and_up``: the best five of the player's five cards and the dealer's up card
  (the "5+1 Bonus");
* ``dealer_beaten``: the dealer's hand and the outcome. The bet wins when the dealer's hand is
  at least ``dealer_at_least`` and the player's hand beats it, paying by the player's hand;
  hands the paytable does not list lose. On an exact tie (all five ranks equal) with such a
  dealer hand and a listed player hand it pushes (``tie = "push"``) or loses (``tie =
  "loses"``). The hands are compared whether or not the dealer qualifies.

Every kind is lost on a fold when ``fold_forfeits`` (then the raise/fold decision is made for the
ante, raise and side bet together); otherwise it is settled on the cards whatever the player
does.  Pays are "to 1" per unit of side wager; ``wager`` is the side wager in antes.

An *envy* bonus pays every other side-bet player at the table a fixed amount (in side-wager
units) when one player's five cards are in the envy table; every player at the table is assumed
to play the side bet.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal, NotRequired, TypedDict

from enumerate.core.jsonform import exact
from enumerate.core.shapes import Exact, Maximum, Minimum, OneOf, shape
from enumerate.rules.hands import HandPaysJSON, HandPaytable
from enumerate.rules.qualifier import Qualifier, QualifierJSON


@dataclass(frozen=True)
class SideBetKind:
    """A kind of side bet: its name in variant files, how it settles (for reports), whether it
    is settled on the player's five cards alone (then, standing on a fold, it is counted over the
    2,598,960 hands and may carry an envy bonus), and whether on the dealer's hand (then it has
    ``dealer_at_least`` and ``tie``)."""

    name: str
    text: str
    own_hand: bool = False
    reads_dealer: bool = False


#: The side-bet kinds by name.  A kind is added here (:func:`register_kind`), with the hand its
#: paytable reads in :data:`enumerate.sidebets.analysis.HAND_OF_KIND`; the simulator plays the
#: kinds of :data:`enumerate.simulation.settle.KIND_CODES` and refuses any other in one line.
KINDS: dict[str, SideBetKind] = {}


def register_kind(kind: SideBetKind) -> SideBetKind:
    """Add ``kind`` to :data:`KINDS` (its name must be new)."""
    if kind.name in KINDS:
        raise ValueError(f"side-bet kind {kind.name!r} is registered already")
    KINDS[kind.name] = kind
    return kind


register_kind(SideBetKind("player_hand", "on the player's five cards", own_hand=True))
register_kind(SideBetKind("player_and_up", "on the best five of the player's five cards and the dealer's up card"))
register_kind(SideBetKind("dealer_beaten", "on the dealer's hand and the outcome", reads_dealer=True))


#: The most players at one table (the envy bonus's figures go up to it).
MAX_PLAYERS = 7


class SideBetEnvyJSON(TypedDict):
    """The ``envy`` bonus of a side bet."""

    pays: HandPaysJSON
    players: Annotated[int, Minimum(1), Maximum(MAX_PLAYERS)]


@shape("side_bet_rules")
class SideBetRulesJSON(TypedDict):
    """The JSON of a side bet's rules."""

    kind: Annotated[str, OneOf(list(KINDS))]
    wager_antes: Exact
    fold_forfeits: bool
    pays: HandPaysJSON
    dealer_at_least: NotRequired[QualifierJSON]
    tie: NotRequired[Literal["push", "loses"]]
    envy: NotRequired[SideBetEnvyJSON]


@dataclass(frozen=True)
class Envy:
    """The envy bonus of a side bet: ``pays`` by the other player's hand (amounts in side-wager
    units); figures for 1..``players`` players at one table."""

    pays: HandPaytable
    players: int = MAX_PLAYERS

    def to_dict(self) -> SideBetEnvyJSON:
        return {"pays": self.pays.to_dict(), "players": self.players}


@dataclass(frozen=True)
class SideBet:
    """One side bet (see the module for the kinds and how they settle)."""

    name: str
    kind: str
    pays: HandPaytable
    wager: Fraction = Fraction(1)
    fold_forfeits: bool = False
    dealer_at_least: Qualifier | None = None
    tie_pushes: bool = True
    envy: Envy | None = None

    def to_dict(self) -> SideBetRulesJSON:
        """The rules in the JSON convention, keys as in the variant file."""
        out: SideBetRulesJSON = {"kind": self.kind, "wager_antes": exact(self.wager),
                               "fold_forfeits": self.fold_forfeits, "pays": self.pays.to_dict()}
        if KINDS[self.kind].reads_dealer:
            assert self.dealer_at_least is not None
            out["dealer_at_least"] = self.dealer_at_least.to_dict()
            out["tie"] = "push" if self.tie_pushes else "loses"
        if self.envy is not None:
            out["envy"] = self.envy.to_dict()
        return out
