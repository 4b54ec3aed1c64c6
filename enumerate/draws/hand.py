"""Every pre-decision action of one situation, valued exactly.

For a situation (the player's five cards and the dealer's up card) on a table with draws
(:mod:`enumerate.rules.draws`), each allowed action -- keep the hand, switch a set of cards,
buy a sixth card -- is worth, in antes,

    EV(action) = -fee + (1 / #draws) * sum over draws of max(EV(raise | draw), -1)

(the raise alone when switching all five forces it).  EV(raise | draw) counts the dealer's hole
cards among the cards still live after the draw -- the discarded cards are out of play -- with
the dead-card engine (``enumerate/core/_dead.pyx``: one strength-ordered sweep values every
draw of every action); every draw's value is an exact integer over the common
denominator ``scale * C(m - k, 4)``, so the EVs are exact fractions and the best action is
decided without rounding.  Keeping the hand is the draw of no card: its counts are the plain
game's.

With a full deck m = 46 cards are unseen: one switched card has 46 draws, five have 1,370,754,
all 32 switch sets 2,349,060 (docs/speed.md gives the time).  A smaller ``unseen`` set (a
reduced deck) is allowed for tests.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, ClassVar, Literal, TypedDict

import numpy as np

from enumerate.core.jsonform import exact
from enumerate.core.parallel import interruptible
from enumerate.core.shapes import Exact, ExactOrNull, MaxItems, Minimum, MinItems, shape
from enumerate.core.tabular import tabular
from enumerate.draws import _hand
from enumerate.draws.actions import BUY, action_kind, action_label, cards_drawn
from enumerate.raise_value import RaiseValue
from enumerate.rules.variant import Variant
from evaluator.cards import format_card, format_hand
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

#: The outcome columns of :attr:`ActionEV.outcomes`: draws raised; their dealer sets with no
#: qualifier, won, tied, lost; dealer sets of folded draws; folded draws where raising is worth
#: the same; dealer sets of folded draws with no qualifier.
OUTCOME_STATS: tuple[str, ...] = _hand.OUTCOME_STATS


class ActionJSON(TypedDict):
    """One allowed action of a situation and its exact value."""

    action: Literal["keep", "switch", "buy"]
    discard: Annotated[list[str], MaxItems(5)]
    label: str
    fee_antes: Exact
    draws: Annotated[int, Minimum(1)]
    completions_per_draw: Annotated[int, Minimum(1)]
    ev_antes: Exact
    ev_before_fee_antes: Exact
    raised_draws: Annotated[int, Minimum(0)]
    forced_raise: bool
    final_hands: dict[str, Annotated[int, Minimum(1)]]


class SituationDrawsJSON(TypedDict):
    """Every allowed action of one situation, best first."""

    up: str
    best_action: str
    best_ev_antes: Exact
    actions: Annotated[list[ActionJSON], MinItems(1)]


@shape("hand_draws", document=True)
class HandDrawsJSON(TypedDict):
    """Schema: studodds hand on a table with draws: every allowed action of each situation, best first"""

    kind: Literal["hand_draws"]
    hand: str
    variant: str
    situations: Annotated[list[SituationDrawsJSON], MinItems(1), MaxItems(47)]
    ev_before_up_card_antes: ExactOrNull


@dataclass(frozen=True)
class ActionEV:
    """One action of a situation: ``kind`` "keep", "switch" (``discard``: the cards given up) or
    "buy"; its fee, its draws, the dealer's hole-card sets per draw, the exact EV after optimal
    raise/fold on every draw (fee included, antes), how many draws end in a raise, and the final
    hands by category."""

    kind: Literal["keep", "switch", "buy"]
    discard: tuple[int, ...]
    fee: Fraction
    draws: int
    completions: int
    ev: Fraction
    raised_draws: int
    forced_raise: bool
    finals: tuple[int, ...]
    #: (10, 8) the draws' outcomes by final category (columns: ``OUTCOME_STATS``); not printed
    outcomes: np.ndarray = field(default_factory=lambda: np.zeros((10, 8), dtype=np.int64), compare=False, repr=False)

    @property
    def ev_before_fee(self) -> Fraction:
        return self.ev + self.fee

    @property
    def label(self) -> str:
        return action_label(self.kind, self.discard)

    def to_dict(self) -> ActionJSON:
        return {"action": self.kind, "discard": [format_card(c) for c in self.discard], "label": self.label,
                "fee_antes": exact(self.fee), "draws": self.draws, "completions_per_draw": self.completions,
                "ev_antes": exact(self.ev), "ev_before_fee_antes": exact(self.ev_before_fee),
                "raised_draws": self.raised_draws, "forced_raise": self.forced_raise,
                "final_hands": {c.key: n for c, n in zip(Category, self.finals) if n}}


@dataclass(frozen=True)
class SituationDraws:
    """Every allowed action of one situation, best first (ties: keep, then fewer cards, then
    the order of the cards), and the best one."""

    cards: tuple[int, ...]
    up: int
    variant: str
    actions: tuple[ActionEV, ...]

    @property
    def best(self) -> ActionEV:
        return self.actions[0]

    def to_dict(self) -> SituationDrawsJSON:
        return {"up": format_card(self.up), "best_action": self.best.label,
                "best_ev_antes": exact(self.best.ev), "actions": [a.to_dict() for a in self.actions]}


@tabular(lambda d: [{"up": s["up"], **a} for s in d["situations"] for a in s["actions"]], 'actions')
@dataclass(frozen=True)
class HandDraws:
    """A hand on a table with draws: its situations (one up card, or all 47 with the EV before
    the up card is seen)."""

    cards: tuple[int, ...]
    variant: str
    rows: tuple[SituationDraws, ...]
    ev_before_up_card: Fraction | None

    KIND: ClassVar[Literal["hand_draws"]] = "hand_draws"

    def to_dict(self) -> HandDrawsJSON:
        """kind "hand_draws": what ``studodds hand --json`` prints on a table with draws."""
        return {"kind": self.KIND, "hand": format_hand(self.cards), "variant": self.variant,
                "situations": [r.to_dict() for r in self.rows],
                "ev_before_up_card_antes": None if self.ev_before_up_card is None else exact(self.ev_before_up_card)}


def allowed_actions(variant: Variant) -> list[int]:
    """The actions of a table as switch masks (bit i: the i-th card of the sorted hand is
    discarded; 0 keeps) and :data:`BUY`, in the tie-break order of :class:`SituationDraws`."""
    d = variant.draws
    if d is None:
        raise StudoddsError(f"variant {variant.name!r} offers no switching or sixth card")
    masks = [0]
    if d.switch is not None:
        for k in sorted(d.switch.fees):
            masks += [m for m in range(1, 32) if bin(m).count("1") == k]
    if d.buy_fee is not None:
        masks.append(BUY)
    return masks


def raise_form(variant: Variant, largest_draws: int) -> RaiseValue:
    """The raise form of the table's base game, refused when the sums over ``largest_draws``
    draws of up to 163,185 dealer sets could overflow 64 bits."""
    value = RaiseValue.of(variant.base_game())
    top = max(value.c_nq, int(np.abs(value.c_win).max()), value.c_tie, int(np.abs(value.bonus).max()), value.scale)
    if 4 * top * 163_185 * max(1, largest_draws) >= 2**62:
        raise StudoddsError(f"variant {variant.name!r}: pays too large for exact 64-bit evaluation of its draws")
    return value


def unseen_cards(cards: tuple[int, ...], up: int, unseen: np.ndarray | None = None) -> np.ndarray:
    """The situation's unseen cards (increasing): the rest of the deck, or ``unseen`` (a reduced
    deck, for tests), refused when the dealer could not be dealt or the engine cannot label them."""
    if unseen is None:
        unseen = np.array([c for c in range(52) if c not in cards and c != up], dtype=np.uint8)
    unseen = np.ascontiguousarray(unseen, dtype=np.uint8)
    if unseen.shape[0] < 4:
        raise StudoddsError("a deck needs at least 4 unseen cards (the dealer's hole cards)")
    return unseen


def draw_outcomes(cards: tuple[int, ...], up: int, qualifier: int, action: int, draws: np.ndarray,
                  unseen: np.ndarray | None = None, threads: int = 1) -> np.ndarray:
    """(len(draws), 4) int32: final strength, no_qualify, win, tie of the draws (colex indices
    over the unseen cards) of one action -- what :func:`situation_draws` values, for tests and for
    the draws of Russian Poker, whose values need each draw's counts."""
    out = np.zeros((len(draws), 4), dtype=np.int32)
    _hand.draw_outcomes(np.array(sorted(cards), dtype=np.uint8), unseen_cards(cards, up, unseen), up, qualifier,
                        action, np.ascontiguousarray(draws, dtype=np.int64), out, threads)
    return out


def situation_draws(variant: Variant, cards: tuple[int, ...], up: int, *, threads: int = 1,
                    unseen: np.ndarray | None = None, actions: list[int] | None = None) -> SituationDraws:
    """Every allowed action of a situation (or of ``actions``), valued exactly."""
    masks = allowed_actions(variant) if actions is None else actions
    d = variant.draws
    assert d is not None
    cards = tuple(sorted(cards))
    live = unseen_cards(cards, up, unseen)
    m = live.shape[0]
    ks = [cards_drawn(action_kind(a)) for a in masks]
    if m - max(ks) < 4:
        raise StudoddsError(f"{m} unseen cards leave the dealer fewer than four after drawing {max(ks)}")
    value = raise_form(variant, max(math.comb(m, k) for k in ks))
    forced = [bool(a == 31 and d.switch is not None and d.switch.all_five_must_raise) for a in masks]
    n = len(masks)
    sums = np.zeros(n, dtype=np.int64)
    raised = np.zeros(n, dtype=np.int64)
    finals = np.zeros((n, len(Category)), dtype=np.int64)
    outcomes = np.zeros((n, len(Category), len(OUTCOME_STATS)), dtype=np.int64)
    hand = np.array(cards, dtype=np.uint8)
    n_threads = threads
    interruptible(lambda cancel: _hand.action_values(
        hand, live, up, variant.qualifier.threshold, np.array(masks, dtype=np.int32), np.array(forced, dtype=np.uint8),
        value.scale, value.c_nq, value.c_win, value.c_tie, value.bonus, sums, raised, finals, outcomes, cancel,
        n_threads))
    out = []
    for i, (a, k) in enumerate(zip(masks, ks)):
        draws, completions = math.comb(m, k), math.comb(m - k, 4)
        fee = d.buy_fee if a == BUY else d.fee(k)
        assert fee is not None
        ev = Fraction(int(sums[i]), value.scale * completions * draws) - fee
        discard = () if a in (0, BUY) else tuple(c for j, c in enumerate(cards) if (a >> j) & 1)
        kind: Literal["keep", "switch", "buy"] = "keep" if a == 0 else "buy" if a == BUY else "switch"
        out.append(ActionEV(kind, discard, fee, draws, completions, ev, int(raised[i]), forced[i],
                            tuple(int(x) for x in finals[i]), outcomes[i]))
    order = sorted(range(n), key=lambda i: (-out[i].ev, i))
    return SituationDraws(cards, up, variant.name, tuple(out[i] for i in order))


def hand_draws(variant: Variant, cards: tuple[int, ...], up: int | None, *, threads: int = 1,
               progress: Any = None) -> HandDraws:
    """:class:`HandDraws` against ``up``, or against every up card (``progress``: a callable
    taking the number of up cards done)."""
    if up is not None:
        return HandDraws(tuple(cards), variant.name, (situation_draws(variant, cards, up, threads=threads),), None)
    rows = []
    for u in range(52):
        if u in cards:
            continue
        rows.append(situation_draws(variant, cards, u, threads=threads))
        if progress is not None:
            progress(1)
    before = sum((r.best.ev for r in rows), Fraction(0)) / len(rows)
    return HandDraws(tuple(cards), variant.name, tuple(rows), before)
