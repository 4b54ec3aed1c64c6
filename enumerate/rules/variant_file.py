"""Variant files (TOML) and the built-in variant library.

A variant file::

    name = "us-common"
    description = "Common US paytable"
    qualifier = "AK"                 # "AK432", "44", "none", or five cards; default "AK"

    [raise_pays]                     # "to 1"; integers, "5/2" or "2.5"
    royal_flush = 100                # optional: without it a royal pays as a straight flush
    straight_flush = 50
    four_of_a_kind = 20
    full_house = 7
    flush = 5
    straight = 4
    three_of_a_kind = 3
    two_pairs = 2
    one_pair = 1
    high_card = 1                    # the player's winning high card (Ace/King with "AK")

    [ante_pays]                      # optional, both default to 1 (to 1)
    dealer_does_not_qualify = 1
    player_wins = 1
    dealer_does_not_qualify_with = { straight = 4 }   # optional (Russian Poker): from a hand up
    instant_payout = { royal_flush = 1000, straight_flush = 250 }   # optional (Russian Poker):
                                     # a dealt hand of a listed category is paid that on the ante
                                     # at once (to 1) and its round ends
    player_wins_unless = "drew_or_bought"   # optional (Russian Poker): the ante returned on a win
                                     # after a draw or a bought game

    [progressive]                    # optional side bet
    contribution = "70%"             # share of each side wager added to the meter
    seed = 10000                     # meter after a royal flush, in side-wager units
    fold_forfeits = false            # does folding lose the side bet too?
    reserve = "1%"                   # optional reserve (reseed) rate: added to the next start
    ceiling = 250000                 # optional meter ceiling, in side-wager units
    overflow = "reseed"              # what the ceiling turns away: "reseed" or "retained"
    [progressive.pays]               # any subset; a number is a multiple of the side wager,
    royal_flush = "100% meter"       # "x% meter" or "a/b meter" a share of the meter,
    straight_flush = "10% meter"     # {meter = "10%", cap = 5000} a capped share
    four_of_a_kind = 100
    full_house = 75
    flush = 50

Rule variants of the base game (each optional)::

    raise_antes = 1                  # the raise, in antes (default 2)
    face_down_hand = "loses"         # a raised hand left face down loses (default "settled")

    [max_payout]                     # the table's maximum payout per hand
    amount = 50000                   # currency
    ante = 100                       # the ante the figures are for (currency): cap = 500 antes
    covers = "raise"                 # or "ante_and_raise"

    [ante_bonus]                     # antes paid on a raised hand, whatever the dealer holds
    straight = 1                     # by category (keys as in [raise_pays])
    flush = 2

Improving the hand before the decision (each optional; together: one action a hand)::

    [switch]                         # switch cards once, for a fee (Oasis Poker)
    fees = { 1 = 1, 2 = 2, 3 = 3, 4 = 2, 5 = 1 }   # antes by number of cards; unlisted: not allowed
    all_five_must_raise = true       # switching all five forces a raise (default false)

    [buy_card]                       # buy a sixth card and play the best five of six
    fee = 1                          # antes

The options of Russian Poker (each optional; with or without the draws above)::

    [two_combinations]               # the two best combinations of the final hand are paid, summed
    straight_with_pair = "two_straights"   # K Q J T 9 9: or "straight_and_pair" (4 + 1)
    ace_king = true                  # A-K counts as a combination (paid as high card)

    [insurance]                      # insure the bet against a dealer who does not qualify
    needs = "three_of_a_kind"        # the least final hand that may insure (keys as in [raise_pays])
    limit = "half_the_payout"        # the largest stake: or "the_payout" (the bet's possible win)
    dealer_qualifies = "lost"        # or "returned_unless_player_wins"

    [buy_game]                       # the dealer does not qualify: buy the game instead of the ante's pay
    fee = 1                          # antes
    replaces = "highest"             # the dealer card replaced: or "lowest" (or "first_dealt": not counted yet)
    same_rank = "replaced_again"     # a replacement of the removed rank: or "kept"
    after = "qualifier_applies"      # a dealer still short pays the ante; or "hands_compared" (no house deals it)
    insured = "may_buy"              # an insured box may buy the game (or "may_not_buy": it may not)

One player on two boxes against one dealer hand (optional)::

    [boxes]
    count = 2                        # two boxes are modelled
    decisions = "seeing_both_hands"  # each box raises or folds seeing both boxes' cards

Side bets with fixed pays (any number, each under its own name)::

    [side_bets.bonus]
    kind = "player_hand"             # or "player_and_up" (best five of six), "dealer_beaten"
    wager = 1                        # the side wager, in antes (default 1)
    fold_forfeits = false            # is the bet lost when the player folds?
    [side_bets.bonus.pays]           # "to 1"; "push" returns the wager; unlisted hands lose
    royal_flush = 100
    "two_pairs" = 2
    "one_pair 8-A" = 1               # a pair of eights through aces
    "one_pair 2-7" = "push"

    [side_bets.power_play]
    kind = "dealer_beaten"           # wins when the dealer holds at least dealer_at_least and
    dealer_at_least = "22"           # the player's hand beats it; pays by the player's hand
    tie = "push"                     # or "loses": an exact tie with such a dealer hand
    fold_forfeits = true
    pays = { "any" = 6 }             # "two_pairs+" = 20 for two pairs or better only

    [side_bets.bonus.envy]           # paid to every other side-bet player at the table
    pays = { royal_flush = 500, straight_flush = 100 }
    players = 7                      # figures for 1..7 players at the table

Every mistake raises :class:`~evaluator.errors.StudoddsError` with ``file: key: reason``.
"""
from __future__ import annotations

import difflib
import hashlib
import json
import re
import stat
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from enumerate.rules.amounts import parse_amount
from enumerate.rules.boxes import Boxes
from enumerate.rules.combinations import TwoCombinations
from enumerate.rules.draws import Draws, SwitchRule, parse_fees
from enumerate.rules.hands import HandPaytable
from enumerate.rules.progressive import OVERFLOWS, MeterPay, Progressive
from enumerate.rules.qualifier import parse_qualifier
from enumerate.rules.russian import BuyGame, Insurance
from enumerate.rules.sidebets import KINDS, MAX_PLAYERS, Envy, SideBet
from enumerate.rules.variant import MAX_RAISE_ANTES, MaxPayout, Variant, ante_bonus_by_category
from evaluator.errors import StudoddsError
from evaluator.ranking import Category

#: Keys of [raise_pays], strongest first (the snake_case names of the categories).
RAISE_KEYS = {c.key: c for c in reversed(Category)}
SIDE_KEYS = {k: RAISE_KEYS[k] for k in ("royal_flush", "straight_flush", "four_of_a_kind",
                                         "full_house", "flush")}
TOP_KEYS = {"name", "description", "qualifier", "raise_pays", "ante_pays", "progressive", "raise_antes",
            "face_down_hand", "max_payout", "ante_bonus", "side_bets", "switch", "buy_card", "boxes",
            "two_combinations", "insurance", "buy_game"}
SWITCH_KEYS = {"fees", "all_five_must_raise"}
BUY_KEYS = {"fee"}
BOXES_KEYS = {"count", "decisions"}
TWO_COMBINATIONS_KEYS = {"straight_with_pair", "ace_king"}
INSURANCE_KEYS = {"needs", "limit", "dealer_qualifies"}
BUY_GAME_KEYS = {"fee", "replaces", "same_rank", "after", "insured"}
MAX_PAYOUT_KEYS = {"amount", "ante", "covers"}
SIDE_BET_KEYS = {"kind", "wager", "fold_forfeits", "pays", "dealer_at_least", "tie", "envy"}
ENVY_KEYS = {"pays", "players"}
ANTE_KEYS = {"dealer_does_not_qualify", "player_wins", "dealer_does_not_qualify_with", "instant_payout",
             "player_wins_unless"}
#: When the ante's pay on a win is returned instead (Russian Poker: one rules summary's sub-variant).
ANTE_WIN_UNLESS = ("drew_or_bought",)
PROGRESSIVE_KEYS = {"contribution", "seed", "fold_forfeits", "pays", "reserve", "ceiling", "overflow"}
MAX_FILE_BYTES = 1 << 20
#: The embedded default variant: the common US paytable.
DEFAULT_VARIANT = "us-common"


@dataclass(frozen=True)
class VariantSource:
    """A variant with where it came from: its file name and the SHA-256 of its bytes."""

    variant: Variant
    origin: str
    text: str
    sha256: str


def _key_text(key: str) -> str:
    """A key as written in the file, or its repr when it holds unusual characters."""
    return key if key.isprintable() and key.strip() == key and key else repr(key)


class _Where:
    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, key: str, reason: str) -> StudoddsError:
        return StudoddsError(f"{self.origin}: {key}: {reason}" if key else f"{self.origin}: {reason}")

    def unknown(self, table: dict, allowed: set[str], prefix: str) -> None:
        for key in table:
            if key not in allowed:
                import difflib  # lazy: start-up time (only a misspelt key needs it)
                close = difflib.get_close_matches(key, sorted(allowed), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else f" (allowed: {', '.join(sorted(allowed))})"
                raise self.fail(prefix + _key_text(key), "unknown key" + hint)


def _amount(where: _Where, key: str, value: Any, **kw) -> Fraction:
    try:
        return parse_amount(value, **kw)
    except ValueError as exc:
        raise where.fail(key, str(exc)) from None


def _side_pay(where: _Where, key: str, value: Any) -> Fraction | MeterPay:
    if isinstance(value, dict):
        where.unknown(value, {"meter", "cap"}, key + ".")
        if "meter" not in value:
            raise where.fail(key, "a table pay needs 'meter' (a share of the meter)")
        share = _amount(where, key + ".meter", value["meter"], allow_zero=False)
        cap = _amount(where, key + ".cap", value["cap"], allow_zero=False) if "cap" in value else None
        pay = MeterPay(share, cap)
    elif isinstance(value, str) and value.strip().lower().endswith("meter"):
        pay = MeterPay(_amount(where, key, value.strip()[:-5].strip(), allow_zero=False), None)
    else:
        return _amount(where, key, value)
    if pay.share > 1:
        raise where.fail(key, "a meter pay cannot exceed 100% of the meter")
    return pay


def parse_variant(data: dict[str, Any], origin: str) -> Variant:
    """Validate a parsed TOML document and build the variant."""
    where = _Where(origin)
    where.unknown(data, TOP_KEYS, "")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise where.fail("name", "missing or empty (a short name such as \"us-common\")")
    if not all(c.isalnum() or c in "-_." for c in name) or name.startswith("."):
        raise where.fail("name", f"{name!r} may hold only letters, digits, '-', '_' and '.'")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise where.fail("description", "must be text")

    pays_table = data.get("raise_pays")
    if not isinstance(pays_table, dict):
        raise where.fail("raise_pays", "missing table of raise pays")
    where.unknown(pays_table, set(RAISE_KEYS), "raise_pays.")
    missing = [k for k in RAISE_KEYS if k != "royal_flush" and k not in pays_table]
    if missing:
        raise where.fail("raise_pays", f"missing pay for {', '.join(missing)}")
    pays = {RAISE_KEYS[k]: _amount(where, f"raise_pays.{k}", v) for k, v in pays_table.items()}

    ante = data.get("ante_pays", {})
    if not isinstance(ante, dict):
        raise where.fail("ante_pays", "must be a table")
    where.unknown(ante, ANTE_KEYS, "ante_pays.")
    ante_nq = _amount(where, "ante_pays.dealer_does_not_qualify", ante.get("dealer_does_not_qualify", 1))
    ante_win = _amount(where, "ante_pays.player_wins", ante.get("player_wins", 1))
    unless = ante.get("player_wins_unless")
    if unless is not None and unless not in ANTE_WIN_UNLESS:
        raise where.fail("ante_pays.player_wins_unless", f"{str(unless)[:40]!r}: \"drew_or_bought\" (the ante "
                                                         "returned on a win when the player drew or bought the game)")
    ante_with = _ante_by_hand(where, ante.get("dealer_does_not_qualify_with"), "dealer_does_not_qualify_with")
    instant = _ante_by_hand(where, ante.get("instant_payout"), "instant_payout")

    try:
        qualifier = parse_qualifier(data.get("qualifier", "AK"))
    except ValueError as exc:
        raise where.fail("qualifier", str(exc)) from None

    side = None
    if "progressive" in data:
        prog = data["progressive"]
        if not isinstance(prog, dict):
            raise where.fail("progressive", "must be a table")
        where.unknown(prog, PROGRESSIVE_KEYS, "progressive.")
        side_pays = prog.get("pays")
        if not isinstance(side_pays, dict) or not side_pays:
            raise where.fail("progressive.pays", "missing table of side bet pays")
        where.unknown(side_pays, set(SIDE_KEYS), "progressive.pays.")
        contribution = _amount(where, "progressive.contribution", prog.get("contribution", "70%"))
        if contribution > 1:
            raise where.fail("progressive.contribution", "cannot exceed 100% of the wager")
        fold_forfeits = prog.get("fold_forfeits", False)
        if not isinstance(fold_forfeits, bool):
            raise where.fail("progressive.fold_forfeits", "must be true or false")
        seed = _amount(where, "progressive.seed", prog.get("seed", 0))
        reserve = _amount(where, "progressive.reserve", prog.get("reserve", 0))
        if contribution + reserve > 1:
            raise where.fail("progressive.reserve", "the contribution and the reserve together cannot exceed 100% "
                                                    "of the wager")
        ceiling = None
        if "ceiling" in prog:
            ceiling = _amount(where, "progressive.ceiling", prog["ceiling"])
            if ceiling <= seed:
                raise where.fail("progressive.ceiling", "must be above the seed (the meter starts at the seed)")
        overflow = prog.get("overflow", "reseed")
        if overflow not in OVERFLOWS:
            raise where.fail("progressive.overflow", f"must be one of {', '.join(repr(o) for o in OVERFLOWS)}")
        if "overflow" in prog and ceiling is None:
            raise where.fail("progressive.overflow", "needs a ceiling (the overflow is what a meter at its ceiling "
                                                     "cannot take)")
        side = Progressive(
            pays={SIDE_KEYS[k]: _side_pay(where, f"progressive.pays.{k}", v) for k, v in side_pays.items()},
            contribution=contribution,
            seed=seed,
            fold_forfeits=fold_forfeits,
            reserve=reserve,
            ceiling=ceiling,
            overflow=overflow,
        )
    raise_antes = data.get("raise_antes", 2)
    if isinstance(raise_antes, bool) or not isinstance(raise_antes, int) or not 1 <= raise_antes <= MAX_RAISE_ANTES:
        raise where.fail("raise_antes", f"must be a whole number of antes from 1 to {MAX_RAISE_ANTES}")
    face_down = data.get("face_down_hand", "settled")
    if face_down not in ("loses", "settled"):
        raise where.fail("face_down_hand", "must be \"loses\" or \"settled\"")
    cap = None
    if "max_payout" in data:
        table = data["max_payout"]
        if not isinstance(table, dict):
            raise where.fail("max_payout", "must be a table with amount and ante")
        where.unknown(table, MAX_PAYOUT_KEYS, "max_payout.")
        for k in ("amount", "ante"):
            if k not in table:
                raise where.fail(f"max_payout.{k}", "missing")
        covers = table.get("covers", "raise")
        if covers not in ("raise", "ante_and_raise"):
            raise where.fail("max_payout.covers", "must be \"raise\" or \"ante_and_raise\"")
        cap = MaxPayout(_amount(where, "max_payout.amount", table["amount"], allow_zero=False),
                        _amount(where, "max_payout.ante", table["ante"], allow_zero=False), covers)
    bonus = None
    if "ante_bonus" in data:
        try:
            bonus = HandPaytable.parse(data["ante_bonus"], allow_push=False, where="ante_bonus")
            ante_bonus_by_category(bonus)
        except StudoddsError as exc:
            raise where.fail("", str(exc)) from None
    bets = _side_bets(where, data.get("side_bets"))
    draws = _draws(where, data.get("switch"), data.get("buy_card"))
    boxes = _boxes(where, data.get("boxes"))
    if boxes is not None and draws is not None:
        raise where.fail("boxes", "two boxes at a table with switching or a sixth card are not modelled: leave out "
                                  "[boxes], or [switch] and [buy_card]")
    two, insurance, buy_game = _russian(where, data)
    if boxes is not None and (two or insurance or buy_game):
        raise where.fail("boxes", "two boxes at a table with the options of Russian Poker are not modelled: leave "
                                  "out [boxes], or [two_combinations], [insurance] and [buy_game]")
    return Variant(name=name, raise_pays=pays, royal_separate="royal_flush" in pays_table,
                   ante_no_qualify=ante_nq, ante_win=ante_win, qualifier=qualifier,
                   description=description.strip(), progressive=side, raise_antes=raise_antes,
                   max_payout=cap, ante_bonus=bonus, face_down_loses=face_down == "loses", side_bets=bets,
                   draws=draws, boxes=boxes, two_combinations=two, insurance=insurance, buy_game=buy_game,
                   ante_no_qualify_with=ante_with, ante_instant=instant, ante_win_unless=unless)


def _ante_by_hand(where: _Where, table: Any, name: str) -> dict[Category, Fraction]:
    """[ante_pays] ``name``: the ante's pay by the player's category (dealer_does_not_qualify_with:
    from a category up; instant_payout: a dealt hand of that category)."""
    key = f"ante_pays.{name}"
    if table is None:
        return {}
    if not isinstance(table, dict) or not table:
        example = "{ royal_flush = 1000, straight_flush = 250 }" if name == "instant_payout" else "{ straight = 4 }"
        raise where.fail(key, f"must be a table of pays by hand, such as {example}")
    where.unknown(table, set(RAISE_KEYS), key + ".")
    return {RAISE_KEYS[k]: _amount(where, f"{key}.{k}", v) for k, v in table.items()}


def _table(where: _Where, data: dict[str, Any], key: str, allowed: set[str]) -> dict[str, Any] | None:
    """The table ``key`` of the document (None when absent), its keys checked."""
    table = data.get(key)
    if table is None:
        return None
    if not isinstance(table, dict):
        raise where.fail(key, f"must be a table (keys: {', '.join(sorted(allowed))})")
    where.unknown(table, allowed, f"{key}.")
    return table


def _russian(where: _Where, data: dict[str, Any]) -> tuple[TwoCombinations | None, Insurance | None, BuyGame | None]:
    """The [two_combinations], [insurance] and [buy_game] tables."""
    two = insurance = buy_game = None
    try:
        table = _table(where, data, "two_combinations", TWO_COMBINATIONS_KEYS)
        if table is not None:
            two = TwoCombinations(table.get("straight_with_pair", "two_straights"), table.get("ace_king", True))
        table = _table(where, data, "insurance", INSURANCE_KEYS)
        if table is not None:
            needs = table.get("needs", "three_of_a_kind")
            if not isinstance(needs, str) or needs not in RAISE_KEYS or needs == "high_card":
                raise where.fail("insurance.needs", f"{str(needs)[:40]!r}: a hand such as \"three_of_a_kind\" (keys as "
                                                     "in [raise_pays], one pair or better)")
            insurance = Insurance(RAISE_KEYS[needs], table.get("limit", "half_the_payout"),
                                  table.get("dealer_qualifies", "lost"))
        table = _table(where, data, "buy_game", BUY_GAME_KEYS)
        if table is not None:
            fee = _amount(where, "buy_game.fee", table.get("fee", 1))
            buy_game = BuyGame(fee, table.get("replaces", "highest"), table.get("same_rank", "replaced_again"),
                               table.get("after", "qualifier_applies"), table.get("insured", "may_buy"))
    except StudoddsError as exc:
        if str(exc).startswith(where.origin):
            raise
        raise where.fail("", str(exc)) from None
    return two, insurance, buy_game


def _boxes(where: _Where, table: Any) -> Boxes | None:
    """The [boxes] table."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise where.fail("boxes", "must be a table: count = 2, decisions = \"seeing_both_hands\"")
    where.unknown(table, BOXES_KEYS, "boxes.")
    for key in sorted(BOXES_KEYS):
        if key not in table:
            raise where.fail(f"boxes.{key}", "missing (count = 2, decisions = \"seeing_both_hands\")")
    try:
        return Boxes(table["count"], table["decisions"])
    except StudoddsError as exc:
        raise where.fail("", str(exc)) from None


def _draws(where: _Where, switch: Any, buy: Any) -> Draws | None:
    """The [switch] and [buy_card] tables."""
    if switch is None and buy is None:
        return None
    rule = None
    if switch is not None:
        if not isinstance(switch, dict):
            raise where.fail("switch", "must be a table with fees")
        where.unknown(switch, SWITCH_KEYS, "switch.")
        fees = switch.get("fees")
        if not isinstance(fees, dict) or not fees:
            raise where.fail("switch.fees", "missing table of fees by number of cards ({ 1 = 1, 2 = 2 })")
        try:
            parsed = parse_fees(fees, lambda k, v: _amount(where, f"switch.fees.{k}", v))
        except StudoddsError as exc:
            if str(exc).startswith(where.origin):
                raise
            raise where.fail("switch.fees", str(exc)) from None
        must = switch.get("all_five_must_raise", False)
        if not isinstance(must, bool):
            raise where.fail("switch.all_five_must_raise", "must be true or false")
        try:
            rule = SwitchRule(parsed, must)
        except StudoddsError as exc:
            raise where.fail("", str(exc)) from None
    fee = None
    if buy is not None:
        if not isinstance(buy, dict):
            raise where.fail("buy_card", "must be a table with a fee")
        where.unknown(buy, BUY_KEYS, "buy_card.")
        if "fee" not in buy:
            raise where.fail("buy_card.fee", "missing (antes)")
        fee = _amount(where, "buy_card.fee", buy["fee"])
    return Draws(rule, fee)


def _side_bets(where: _Where, table: Any) -> tuple[SideBet, ...]:
    """The [side_bets.NAME] tables."""
    if table is None:
        return ()
    if not isinstance(table, dict) or not table:
        raise where.fail("side_bets", "must hold one table per bet ([side_bets.NAME])")
    bets = []
    for name, bet in table.items():
        key = f"side_bets.{_key_text(name)}"
        if not isinstance(bet, dict):
            raise where.fail(key, "must be a table")
        if not name or not all(c.isalnum() or c in "-_" for c in name):
            raise where.fail(key, "a side bet's name may hold only letters, digits, '-' and '_'")
        where.unknown(bet, SIDE_BET_KEYS, key + ".")
        kind = bet.get("kind")
        if kind not in KINDS:
            raise where.fail(key + ".kind", f"must be one of {', '.join(KINDS)}")
        try:
            pays = HandPaytable.parse(bet.get("pays"), where=key + ".pays")
        except StudoddsError as exc:
            raise where.fail("", str(exc)) from None
        fold = bet.get("fold_forfeits", False)
        if not isinstance(fold, bool):
            raise where.fail(key + ".fold_forfeits", "must be true or false")
        dealer = None
        tie = bet.get("tie", "push")
        if KINDS[kind].reads_dealer:
            if "dealer_at_least" not in bet:
                raise where.fail(key + ".dealer_at_least", "missing (a qualifier such as \"22\" or \"AK\")")
            try:
                dealer = parse_qualifier(bet["dealer_at_least"])
            except (ValueError, StudoddsError) as exc:
                raise where.fail(key + ".dealer_at_least", str(exc)) from None
            if tie not in ("push", "loses"):
                raise where.fail(key + ".tie", "must be \"push\" or \"loses\"")
        else:
            for k in ("dealer_at_least", "tie"):
                if k in bet:
                    raise where.fail(f"{key}.{k}", f"only a bet settled on the dealer's hand "
                                                   f"({', '.join(k for k, v in KINDS.items() if v.reads_dealer)}) has this key")
        envy = None
        if "envy" in bet:
            e = bet["envy"]
            if not KINDS[kind].own_hand or fold or not isinstance(e, dict):
                raise where.fail(key + ".envy", "an envy bonus is a table on a player_hand bet that "
                                 "stands on a fold")
            where.unknown(e, ENVY_KEYS, key + ".envy.")
            try:
                envy_pays = HandPaytable.parse(e.get("pays"), allow_push=False, where=key + ".envy.pays")
            except StudoddsError as exc:
                raise where.fail("", str(exc)) from None
            players = e.get("players", MAX_PLAYERS)
            if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
                raise where.fail(key + ".envy.players", f"must be 1 to {MAX_PLAYERS}")
            envy = Envy(envy_pays, players)
        bets.append(SideBet(name=name, kind=kind, pays=pays,
                            wager=_amount(where, key + ".wager", bet.get("wager", 1), allow_zero=False),
                            fold_forfeits=fold, dealer_at_least=dealer, tie_pushes=tie == "push", envy=envy))
    return tuple(bets)


def parse_variant_text(text: str, origin: str) -> Variant:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudoddsError(f"{origin}: not valid TOML: {exc}") from None
    return parse_variant(data, origin)


def load_variant_file(path: str | Path) -> VariantSource:
    """Read and validate a variant file."""
    p = Path(path)
    try:
        mode = p.stat().st_mode
        if stat.S_ISDIR(mode):
            raise StudoddsError(f"{p}: is a folder, not a variant file")
        if not stat.S_ISREG(mode):             # a FIFO would block, a device never end
            raise StudoddsError(f"{p}: not a regular file (a variant is a .toml file)")
        with open(p, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise StudoddsError(f"{p}: file too large for a variant (more than {MAX_FILE_BYTES:,} bytes)")
    except FileNotFoundError:
        raise StudoddsError(f"{p}: no such file or variant") from None
    except PermissionError:
        raise StudoddsError(f"{p}: permission denied") from None
    except OSError as exc:
        raise StudoddsError(f"{p}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise StudoddsError(f"{p}: not a UTF-8 text file") from None
    return VariantSource(parse_variant_text(text, str(p)), str(p), text, hashlib.sha256(raw).hexdigest())


#: The built-in variant files (package data beside this module; read as plain files, which
#: spares start-up the import of importlib.resources).
BUILTIN_FOLDER = Path(__file__).parent / "variants"


def builtin_names() -> list[str]:
    """Names of the built-in variants, sorted."""
    return sorted(f.name[:-5] for f in BUILTIN_FOLDER.iterdir() if f.name.endswith(".toml"))


def load_builtin(name: str) -> VariantSource:
    """A built-in variant by name."""
    f = BUILTIN_FOLDER / f"{name}.toml"
    if "/" in name or "\\" in name or name.startswith(".") or not f.is_file():
        raise StudoddsError(f"unknown variant {name!r} (built-in: {', '.join(builtin_names())})")
    raw = f.read_bytes()
    return VariantSource(parse_variant_text(raw.decode("utf-8"), f"{name}.toml"), f"built-in {name}",
                         raw.decode("utf-8"), hashlib.sha256(raw).hexdigest())


def resolve(spec: str) -> VariantSource:
    """A variant given as a built-in name or a file path."""
    if spec in builtin_names():
        return load_builtin(spec)
    if spec.endswith(".toml") or "/" in spec or Path(spec).exists():
        return load_variant_file(spec)
    if Path(spec + ".toml").is_file():
        raise StudoddsError(f"unknown variant {spec!r}: not a built-in; did you mean the file {spec}.toml? "
                            "(a variant file is named with its .toml)")
    close = difflib.get_close_matches(spec, builtin_names(), n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    raise StudoddsError(f"unknown variant {spec!r}: {hint}neither a built-in ({', '.join(builtin_names())}) "
                        "nor a .toml file")


def resolve_many(specs: list[str]) -> list[VariantSource]:
    """Names, files and folders (every *.toml inside, sorted); names must be unique."""
    sources: list[VariantSource] = []
    for spec in specs or builtin_names():
        p = Path(spec)
        if spec not in builtin_names() and p.is_dir():
            files = sorted(p.glob("*.toml"))
            if not files:
                raise StudoddsError(f"{p}: folder holds no .toml variant files")
            sources.extend(load_variant_file(f) for f in files)
        else:
            sources.append(resolve(spec))
    seen: dict[str, str] = {}
    for s in sources:
        if s.variant.name in seen:
            raise StudoddsError(f"{s.origin}: name: {s.variant.name!r} is also the name of {seen[s.variant.name]}")
        seen[s.variant.name] = s.origin
    return sources


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else json.dumps(str(value))
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise StudoddsError(f"cannot write {type(value).__name__} to a variant file")


def dump_toml(data: dict[str, Any], prefix: str = "") -> str:
    """A variant document (nested tables of numbers, text, booleans and Fractions) as TOML text
    that :func:`parse_variant_text` reads back (pays that are not integers as "p/q")."""
    lines = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for k, v in data.items():
        if isinstance(v, dict):
            name = f"{prefix}.{_toml_key(k)}" if prefix else _toml_key(k)
            body = dump_toml(v, name)
            lines.append(f"\n[{name}]\n{body}" if any(not isinstance(x, dict) for x in v.values()) or not v
                         else "\n" + body)
    return "\n".join(x.rstrip("\n") for x in lines).strip("\n") + "\n"


def with_raise_pays(source: VariantSource, pays: dict[str, Fraction], name: str, description: str) -> str:
    """The variant file of ``source`` with these raise pays (keys as in the file), renamed: a
    design's solution as a file ``studodds batch`` certifies like any other."""
    try:
        data = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError:
        raise StudoddsError(f"{source.origin}: the design's variant must come from a variant file "
                            "(a built-in name or a .toml path)") from None
    data["name"], data["description"] = name, description
    data["raise_pays"] = dict(pays)
    text = dump_toml(data)
    parse_variant_text(text, name)                  # what is written must read back
    return text
