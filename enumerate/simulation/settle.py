"""What every simulated outcome pays, from the rules alone (never from the count tables).

The kernel (:mod:`enumerate.simulation._simulate`) sorts each game into cells; this module says,
in exact rationals, what each cell is worth, reading only the variant's rules:

* **base game** (per ante): a cell is (game state, player's hand category).  Folded: -1.  Raised
  and the dealer does not qualify: the ante pays ``ante_no_qualify``, the raise is returned.
  Raised and the player wins: the ante pays ``ante_win`` and the raise ``raise_antes`` x the
  posted pay of the hand, the two together cut to the maximum payout when the table has one (on
  the raise alone, or on ante and raise).  Tied: both returned.  The dealer wins: -(1 + raise).
  An ante bonus (by the player's category) is added to every raised hand.  The total wagered is 1
  on a fold and 1 + raise otherwise.
* **side bets** (per unit of side wager): a bin is the paytable class of the hand the bet reads
  (the player's, the best five of six, or the player's against a dealer hand at least the bet's
  threshold), a tie in such a class (``dealer_beaten``), any other result, or lost on a fold.
* **the progressive** (per unit of side wager): fixed pays by the player's category; meter
  awards are paid by :class:`MeterLedger` from the meter, in game order.

Each cell also names the row of the exact return table it belongs to, so simulated frequencies
can be compared with exact probabilities row by row.

This is a second, independent statement of the settlement, on purpose: every exact figure comes
from :mod:`enumerate.rules.settlement`, and the simulation is the witness that checks them, so it
must not read that module (a wrong rule there would otherwise be confirmed by its own copy).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from enumerate.rules.hands import PUSH
from enumerate.rules.progressive import MeterPay, Progressive
from enumerate.rules.sidebets import SideBet
from enumerate.rules.variant import Variant
from evaluator.ranking import Category

#: Game states of a base-game cell (cell = state * 10 + category).
STATES = ("folded", "dealer does not qualify", "player wins", "push", "dealer wins")
FOLDED, NO_QUALIFY, WIN, TIE, LOSE = range(5)
#: Side-bet kinds as the kernel numbers them.
KIND_CODES = {"player_hand": 0, "player_and_up": 1, "dealer_beaten": 2}


def winning_hand(variant: Variant, category: Category) -> Fraction:
    """What a raised hand that beats a qualifying dealer wins on the ante and the raise (antes),
    capped by the table's maximum payout (the ante bonus comes on top: :func:`cell_net`)."""
    ante = variant.ante_win
    raise_win = variant.raise_antes * variant.raise_pays[category]
    cap = variant.max_payout
    if cap is not None:
        if cap.covers == "raise":
            raise_win = min(raise_win, cap.antes)
        else:                                     # ante and raise wins together
            raise_win = max(Fraction(0), min(ante + raise_win, cap.antes) - ante)
    return ante + raise_win


def cell_net(variant: Variant, state: int, category: Category, bonus: Fraction | None = None) -> Fraction:
    """Net result (antes) of one base-game cell; ``bonus``: the ante bonus of the category
    (None: read from the variant)."""
    if bonus is None:
        bonus = variant.bonus_by_category()[category]
    if state == FOLDED:
        return Fraction(-1)
    if state == NO_QUALIFY:
        return variant.ante_no_qualify + bonus
    if state == WIN:
        return winning_hand(variant, category) + bonus
    if state == TIE:
        return bonus
    return -1 - variant.raise_antes + bonus


def cell_wager(variant: Variant, state: int) -> int:
    """Antes wagered in a cell: the ante, and the raise unless folded."""
    return 1 if state == FOLDED else 1 + variant.raise_antes


def cell_row(variant: Variant, state: int, category: Category, bonus: Fraction | None = None) -> str:
    """The outcome key of the exact return table the cell belongs to (``bonus`` as for
    :func:`cell_net`)."""
    if state == FOLDED:
        return "fold"
    if state == WIN:
        c = Category.STRAIGHT_FLUSH if category == Category.ROYAL_FLUSH and not variant.royal_separate else category
        return f"player_wins_{c.key}"
    if bonus is None:
        bonus = variant.bonus_by_category()[category]
    base = {NO_QUALIFY: "dealer_does_not_qualify", TIE: "push", LOSE: "dealer_wins"}[state]
    return f"{base}_bonus_{category.key}" if bonus != 0 else base


@dataclass(frozen=True)
class Cell:
    """One base-game cell: its state, the player's category, net result, wager and row."""

    state: int
    category: Category
    net: Fraction
    wager: int
    row: str


def base_cells(variant: Variant) -> tuple[Cell, ...]:
    """The 50 base-game cells in kernel order (state * 10 + category)."""
    bonus = variant.bonus_by_category()
    return tuple(Cell(s, c, cell_net(variant, s, c, bonus[c]), cell_wager(variant, s), cell_row(variant, s, c, bonus[c]))
                 for s in range(5) for c in Category)


# ------------------------------------------------------------------------------ side bets

@dataclass(frozen=True)
class Bin:
    """One side-bet bin: net result per unit of side wager and the exact row it counts in."""

    net: Fraction
    row: str


def bet_bins(bet: SideBet) -> tuple[Bin, ...]:
    """The bins of a side bet in kernel order: class 0..K-1, tie in class 0..K-1, any other
    result, lost on a fold (width 2K + 2)."""
    out: list[Bin] = []
    lines = bet.pays.pays
    for spec, pay in lines:            # wins (or hits) by class
        out.append(Bin(Fraction(0) if pay == PUSH else Fraction(pay), spec.outcome_key))
    for spec, _ in lines:              # ties in a class (dealer_beaten only)
        out.append(Bin(Fraction(0), spec.outcome_key + "_tie") if bet.tie_pushes else Bin(Fraction(-1), "loses"))
    out.append(Bin(Fraction(-1), "loses"))
    out.append(Bin(Fraction(-1), "fold"))
    return tuple(out)


# ------------------------------------------------------------------------------ progressive

def progressive_fixed(side: Progressive) -> list[Fraction]:
    """Gross fixed pay per unit wager by category (0 for a meter award or no pay)."""
    return [Fraction(0) if isinstance(side.pays.get(c), MeterPay) or side.pays.get(c) is None
            else Fraction(side.pays[c]) for c in Category]  # type: ignore[arg-type]


def meter_categories(side: Progressive) -> list[bool]:
    """True for each category paid from the meter."""
    return [isinstance(side.pays.get(c), MeterPay) for c in Category]


@dataclass
class MeterLedger:
    """The progressive meter through a run, exactly, one meter award at a time in game order.

    Every side wager adds ``contribution`` before its hand is settled; an award pays
    ``share x meter`` (capped) out of the meter; a royal flush resets it to ``seed``.  Jackpot
    cycles (from a reset to the royal that ends them) are the renewal periods: the sums over
    complete cycles give the estimate of the meter's return and its interval
    (:meth:`cycle_sums`)."""

    side: Progressive
    meter: Fraction = field(init=False)
    last_game: int = -1                      # the last game whose contribution is in the meter
    paid: Fraction = Fraction(0)             # meter awards paid so far
    cycle_start: int = 0                     # first game of the current cycle
    cycle_paid: Fraction = Fraction(0)
    cycles: int = 0
    sum_y: Fraction = Fraction(0)            # complete cycles: awards, games, and their squares
    sum_k: int = 0
    sum_yy: Fraction = Fraction(0)
    sum_kk: int = 0
    sum_yk: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        self.meter = Fraction(self.side.seed)

    def award(self, game: int, category: Category) -> Fraction:
        """Pay the meter award of ``category`` won in ``game`` (games in increasing order)."""
        if game <= self.last_game:
            raise AssertionError("meter awards must come in game order")
        self.meter += self.side.contribution * (game - self.last_game)
        self.last_game = game
        pay = self.side.pays[category]
        assert isinstance(pay, MeterPay)
        amount = pay.share * self.meter
        if pay.cap is not None:
            amount = min(amount, pay.cap)
        self.meter -= amount
        self.paid += amount
        self.cycle_paid += amount
        if category == Category.ROYAL_FLUSH:
            k = game + 1 - self.cycle_start
            self.cycles += 1
            self.sum_y += self.cycle_paid
            self.sum_k += k
            self.sum_yy += self.cycle_paid * self.cycle_paid
            self.sum_kk += k * k
            self.sum_yk += self.cycle_paid * k
            self.meter = Fraction(self.side.seed)
            self.cycle_start = game + 1
            self.cycle_paid = Fraction(0)
        return amount
