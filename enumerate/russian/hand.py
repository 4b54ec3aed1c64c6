"""One hand of Russian Poker: its decisions against each up card, exactly.

For a table with the options of Russian Poker and no draws, the player's five cards are his
final hand: against an up card he raises or folds, insures or not, and -- dealer hand by dealer
hand -- buys the game or takes the ante (:mod:`enumerate.russian.final_hand` values all of it
exactly).  With the draws, every allowed action (keep, exchange a set of cards, buy a sixth card)
is valued with those decisions made optimally on every draw: by the whole game's rank-pattern
kernel asked for one situation's every action (:mod:`enumerate.russian.situation_ranks`) where
it counts the table, else draw by draw (:mod:`enumerate.russian.draws`; the tests hold the two
to the same integers).
Against every up card at once the hand's EV before the up card is seen is the mean over the 47
up cards.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, ClassVar, Literal, NotRequired, TypedDict, TypeVar

from enumerate.core.jsonform import exact
from enumerate.core.shapes import Exact, ExactOrNull, MaxItems, Minimum, MinItems, shape
from enumerate.core.tabular import tabular
from enumerate.rules.variant import Variant
from enumerate.russian.draw_strategies import STRATEGIES, action_taken, refusal
from enumerate.russian.draws import RussianAction, RussianSituation, instant_situations, situation_actions
from enumerate.russian.final_hand import FinalHandValue, final_hand_value
from enumerate.russian.situation_ranks import by_ranks, situations_by_ranks
from evaluator.cards import format_card, format_hand


class RussianSituationJSON(TypedDict):
    """One up card: the final hand's decisions and exact values."""

    up: str
    bet_pays: Exact
    combinations: Annotated[list[str], MinItems(1), MaxItems(2)]
    dealer_sets: Annotated[int, Minimum(1)]
    no_qualify: Annotated[int, Minimum(0)]
    win: Annotated[int, Minimum(0)]
    tie: Annotated[int, Minimum(0)]
    lose: Annotated[int, Minimum(0)]
    games_bought: Annotated[int, Minimum(0)]
    ev_raise_antes: Exact
    ev_raise_taking_the_ante_antes: Exact
    insurance_stake_antes: Exact
    ev_insurance_antes: Exact
    insure: bool
    action: Literal["raise", "fold"]
    ev_antes: Exact


@shape("russian_hand", document=True)
class RussianHandJSON(TypedDict):
    """Schema: studodds hand on a Russian Poker table: raise or fold, insure or not, and how often the game is bought, per up card"""

    kind: Literal["russian_hand"]
    hand: str
    variant: str
    situations: Annotated[list[RussianSituationJSON], MinItems(1), MaxItems(47)]
    ev_before_up_card_antes: ExactOrNull


def _situation(v: FinalHandValue) -> RussianSituationJSON:
    return {"up": format_card(v.up), "bet_pays": exact(v.pay.pay),
            "combinations": [v.pay.first.key] + ([] if v.pay.second is None else [v.pay.second.key]),
            "dealer_sets": v.dealer_sets, "no_qualify": v.no_qualify, "win": v.win, "tie": v.tie, "lose": v.lose,
            "games_bought": v.bought if v.buys else 0, "ev_raise_antes": exact(v.ev_raise),
            "ev_raise_taking_the_ante_antes": exact(v.ev_raise_taking_the_ante),
            "insurance_stake_antes": exact(v.insurance_stake), "ev_insurance_antes": exact(v.ev_insurance),
            "insure": v.insure, "action": "raise" if v.raises else "fold", "ev_antes": exact(v.ev)}


@tabular(lambda d: d["situations"], "situations")
@dataclass(frozen=True)
class RussianHand:
    """A hand on a Russian Poker table: its final-hand values per up card (one, or all 47 with
    the EV before the up card is seen)."""

    cards: tuple[int, ...]
    variant: str
    rows: tuple[FinalHandValue, ...]
    ev_before_up_card: Fraction | None

    KIND: ClassVar[Literal["russian_hand"]] = "russian_hand"

    def to_dict(self) -> RussianHandJSON:
        """kind "russian_hand": what ``studodds hand --json`` prints on a Russian Poker table."""
        return {"kind": self.KIND, "hand": format_hand(self.cards), "variant": self.variant,
                "situations": [_situation(r) for r in self.rows],
                "ev_before_up_card_antes": None if self.ev_before_up_card is None else exact(self.ev_before_up_card)}

    def text(self) -> str:
        """What ``studodds hand`` prints."""
        first = self.rows[0].pay
        lines = [f"Hand {format_hand(self.cards)}, variant {self.variant}: {first.label}, the bet pays {first.pay} to 1; "
                 "counts over the dealer's hole-card sets",
                 f"{'up':>3} {'no qualify':>10} {'bought':>7} {'win':>7} {'tie':>5} {'lose':>7} {'EV(raise)':>10} "
                 f"{'insure':>6} {'EV(ins.)':>9} {'action':>6} {'EV':>10}"]
        for r in self.rows:
            insure, ev_ins = ("yes" if r.insure else "no", f"{float(r.ev_insurance):.6f}") if r.insurance_stake \
                else ("-", "-")
            lines.append(f"{format_card(r.up):>3} {r.no_qualify:>10,} {r.bought if r.buys else 0:>7,} {r.win:>7,} {r.tie:>5,} "
                         f"{r.lose:>7,} {float(r.ev_raise):>10.6f} {insure:>6} {ev_ins:>9} "
                         f"{'raise' if r.raises else 'fold':>6} {float(r.ev):>10.6f}")
        lines.append("EV(raise): buying the game against each dealer hand that does not qualify when that is worth "
                     "more than the ante's pay (bought: how many); EV(ins.): the insurance stake's own value, per ante "
                     "(-: the hand may not insure)")
        if self.ev_before_up_card is not None:
            b = self.ev_before_up_card
            lines.append(f"EV of the hand before the up card is seen (optimal play): {float(b):.6f} antes = {b}")
        return "\n".join(lines)


class RussianActionJSON(TypedDict):
    """One allowed action of a situation on a Russian Poker table and its exact value."""

    action: Literal["keep", "switch", "buy"]
    discard: Annotated[list[str], MaxItems(5)]
    label: str
    fee_antes: Exact
    draws: Annotated[int, Minimum(1)]
    completions_per_draw: Annotated[int, Minimum(1)]
    ev_antes: Exact
    raised_draws: Annotated[int, Minimum(0)]
    insured_draws: Annotated[int, Minimum(0)]
    games_bought: Annotated[int, Minimum(0)]
    forced_raise: bool


class DrawStrategyActionJSON(TypedDict):
    """The action a simple draw strategy takes in one situation, its EV and what it gives up to the best."""

    action: str
    ev_antes: Exact
    cost_antes: Exact


class RussianSituationDrawsJSON(TypedDict):
    """Every allowed action of one situation, best first."""

    up: str
    best_action: str
    best_ev_antes: Exact
    actions: Annotated[list[RussianActionJSON], MinItems(1)]
    draw_strategies: NotRequired[dict[str, DrawStrategyActionJSON]]


@shape("russian_hand_draws", document=True)
class RussianHandDrawsJSON(TypedDict):
    """Schema: studodds hand on a Russian Poker table with draws: every allowed action of each situation, best first"""

    kind: Literal["russian_hand_draws"]
    hand: str
    variant: str
    situations: Annotated[list[RussianSituationDrawsJSON], MinItems(1), MaxItems(47)]
    ev_before_up_card_antes: ExactOrNull


def _action(a: RussianAction) -> RussianActionJSON:
    return {"action": a.kind, "discard": [format_card(c) for c in a.discard], "label": a.label,
            "fee_antes": exact(a.fee), "draws": a.draws, "completions_per_draw": a.completions,
            "ev_antes": exact(a.ev), "raised_draws": a.raised, "insured_draws": a.insured, "games_bought": a.bought,
            "forced_raise": a.forced_raise}


@tabular(lambda d: [{"up": s["up"], **a} for s in d["situations"] for a in s["actions"]], "actions")
@dataclass(frozen=True)
class RussianHandDraws:
    """A hand on a Russian Poker table with draws: every action per up card (one, or all 47 with
    the EV before the up card is seen)."""

    cards: tuple[int, ...]
    variant: str
    rows: tuple[RussianSituation, ...]
    ev_before_up_card: Fraction | None
    #: the simple draw strategies the table offers every action of (their action in each situation)
    strategies: tuple[str, ...] = ()

    KIND: ClassVar[Literal["russian_hand_draws"]] = "russian_hand_draws"

    def taken(self, r: RussianSituation) -> dict[str, RussianAction]:
        """Each strategy's action in the situation ``r`` (none when the hand is paid at once)."""
        return {} if r.best.instant else {name: action_taken(r, name) for name in self.strategies}

    def to_dict(self) -> RussianHandDrawsJSON:
        """kind "russian_hand_draws": what ``studodds hand --json`` prints on a Russian table with draws."""
        situations: list[RussianSituationDrawsJSON] = []
        for r in self.rows:
            row: RussianSituationDrawsJSON = {"up": format_card(r.up), "best_action": r.best.label,
                                              "best_ev_antes": exact(r.best.ev),
                                              "actions": [_action(a) for a in r.actions]}
            if taken := self.taken(r):
                row["draw_strategies"] = {name: {"action": a.label, "ev_antes": exact(a.ev),
                                                 "cost_antes": exact(r.best.ev - a.ev)} for name, a in taken.items()}
            situations.append(row)
        return {"kind": self.KIND, "hand": format_hand(self.cards), "variant": self.variant, "situations": situations,
                "ev_before_up_card_antes": None if self.ev_before_up_card is None else exact(self.ev_before_up_card)}

    def text(self) -> str:
        """What ``studodds hand`` prints: every action per up card, best first."""
        out = [f"Hand {format_hand(self.cards)}, variant {self.variant}: every action before the decision, EV after "
               "the optimal raise or fold, insurance and purchases of the game on every draw (fee included), best first"]
        if self.rows and self.rows[0].best.instant:
            out.append(f"The dealt hand is paid {self.rows[0].best.ev} to 1 on the ante at once (the table's instant "
                       "payout); the round ends: no draw, no bet, no option.")
        for r in self.rows:
            out += ["", f"Up card {format_card(r.up)}: best action {r.best.label}, EV {float(r.best.ev):.6f} antes",
                    f"{'action':<22} {'fee':>4} {'draws':>9} {'raised':>9} {'insured':>8} {'games bought':>14} "
                    f"{'EV (antes)':>11}"]
            for a in r.actions:
                out.append(f"{a.label:<22} {str(a.fee):>4} {a.draws:>9,} {a.raised:>9,} {a.insured:>8,} "
                           f"{a.bought:>14,} {float(a.ev):>11.6f}")
            for name, a in self.taken(r).items():
                out.append(f"draw strategy {name}: {a.label}, EV {float(a.ev):.6f} antes"
                           + (f", {float(r.best.ev - a.ev):.6f} below the best" if a.ev < r.best.ev else ", the best"))
        if self.ev_before_up_card is not None:
            b = self.ev_before_up_card
            out.append(f"EV of the hand before the up card is seen (optimal play): {float(b):.6f} antes = {b}")
        out.append("games bought: over the raised draws, the dealer hands that do not qualify against which the "
                   "player buys the game")
        return "\n".join(out)


def russian_hand(variant: Variant, cards: tuple[int, ...], up: int | None, threads: int = 1,
                 progress: Callable[[int], None] | None = None, *, use_cache: bool = True) -> RussianHand | RussianHandDraws:
    """The hand's decisions and values against ``up``, or against each of the 47 up cards: the
    final hand's on a table without draws, every action's on a table with them -- one, "paid at
    once", for a dealt hand of the table's instant payout, with or without draws (a table the
    settlement does not model is refused by :class:`~enumerate.russian.settle.RussianSettlement`)."""
    ups = [up] if up is not None else [c for c in range(52) if c not in cards]
    paid = instant_situations(variant, tuple(cards), ups)
    if paid is not None:                 # paid at once on the ante, with or without draws: one action
        if progress is not None:
            progress(len(paid))
        return RussianHandDraws(tuple(cards), variant.name, tuple(paid), _mean(paid))
    strategies = tuple(name for name in STRATEGIES if variant.draws is not None and refusal(name, variant) is None)
    if by_ranks(variant, use_cache=use_cache):
        rows = tuple(situations_by_ranks(variant, tuple(cards), ups, threads, progress, use_cache=use_cache))
        return RussianHandDraws(tuple(cards), variant.name, rows, _mean(rows), strategies)
    if variant.draws is not None:
        return RussianHandDraws(tuple(cards), variant.name, *_per_up(
            ups, lambda u: situation_actions(variant, tuple(cards), u, threads), progress), strategies)
    return RussianHand(tuple(cards), variant.name, *_per_up(ups, lambda u: final_hand_value(variant, cards, u), progress))


Row = TypeVar("Row", RussianSituation, FinalHandValue)


def _per_up(ups: list[int], value: Callable[[int], Row],
            progress: Callable[[int], None] | None) -> tuple[tuple[Row, ...], Fraction | None]:
    """A hand's value against each up card of ``ups``, and -- against all 47 -- its mean, the EV
    before the up card is seen."""
    rows = []
    for u in ups:
        rows.append(value(u))
        if progress is not None:
            progress(1)
    return tuple(rows), _mean(rows)


def _mean(rows: Sequence[RussianSituation | FinalHandValue]) -> Fraction | None:
    """Against all 47 up cards, the mean of their values (the EV before the up card is seen)."""
    return None if len(rows) == 1 else sum((r.ev for r in rows), Fraction(0)) / len(rows)
