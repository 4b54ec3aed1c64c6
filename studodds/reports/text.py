"""Plain-text renderings for the terminal: analysis, strategies, hand EVs, diffs.

Floats appear only here, rounded for reading; every exact value is printed beside them or is
one ``--json`` away.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, cast

from enumerate.game.kinds import kind_of
from enumerate.rules.sanity import edge_note
from evaluator.cards import RANKS, format_card, format_hand
from studodds.reports.layout import columns
from studodds.reports.sidebets import side_bets_text

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.analysis.base import Analysis
    from enumerate.analysis.ev import HandEVs
    from enumerate.analysis.strategies import StrategyComparison
    from enumerate.draws.hand import HandDraws
    from enumerate.game.analysis import GameAnalysis
    from enumerate.game.diff import StrategyChanges, VariantDiff


def exact(value: Fraction | int) -> str:
    """Exact text of a rational: ``"3/7"``, or ``"12"`` when it is an integer."""
    return str(Fraction(value))


def net_example(a: Analysis) -> str:
    """How a winning hand's net result is made: :func:`full_house_example`, or the rule itself
    where the table has no row of a full house alone (two combinations, draws' fees)."""
    return full_house_example(a) or f"a raise pay of X to 1 nets the ante's pay + {a.variant.raise_antes}X"


def full_house_example(a: Analysis) -> str | None:
    """How a winning hand's net result is made, from this table's own full house row: "a full
    house at 8 to 1 nets 1 + 2 x 8 = 17" (the ante's pay, then the raise's); None without one."""
    v = a.variant
    row = next((r for r in a.rows if r.outcome == "player_wins_full_house"), None)
    pay = next((p for c, p in v.raise_pays.items() if c.name == "FULL_HOUSE"), None)
    if row is None or pay is None:
        return None
    parts = f"{pays_text(v.ante_win)} + {v.raise_antes} x {pays_text(pay)}"
    bonus = row.pays - v.ante_win - v.raise_antes * pay
    if bonus > 0:
        parts += f" + {pays_text(bonus)} ante bonus"
    elif bonus < 0:
        parts += f" - {pays_text(-bonus)} over the maximum payout"
    return f"a full house at {pays_text(pay)} to 1 nets {parts} = {pays_text(row.pays)}"


def pays_text(value: Fraction) -> str:
    """A pay as written in a paytable: ``"7"`` or ``"5/2"``."""
    v = Fraction(value)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def return_table_text(a: Analysis) -> str:
    """The return table, one line per outcome and a total line (the columns widen for long labels
    and counts)."""
    w = max([34] + [len(r.event) for r in a.rows])
    c = max(20, len(f"{a.total_combinations:,}"))
    lines = [f"{'outcome':<{w}} {'net':>6} {'combinations':>{c}} {'probability':>12} {'return':>11}"]
    for r in a.rows:
        lines.append(f"{r.event:<{w}} {pays_text(r.pays):>6} {r.combinations:>{c},} "
                     f"{float(r.probability):>12.8f} {float(r.contribution):>11.7f}")
    total_p = sum((r.probability for r in a.rows), Fraction(0))
    lines.append(f"{'total':<{w}} {'':>6} {a.total_combinations:>{c},} {float(total_p):>12.8f} "
                 f"{float(a.expected_return):>11.7f}")
    return "\n".join(lines)


def summary_text(a: GameAnalysis) -> str:
    """What ``studodds analyze`` prints: rules, return table, headline figures."""
    v = a.variant
    pays = ", ".join(f"{c.label} {pays_text(p)}" for c, p in sorted(v.raise_pays.items(), reverse=True)
                     if v.royal_separate or c.name != "ROYAL_FLUSH")
    return "\n".join([
        f"Variant: {v.name}" + (f" - {v.description}" if v.description else ""),
        f"Raise pays (to 1): {pays}",
        (f"Ante pays: {pays_text(v.ante_win)} to 1 if the player wins; qualifier: none (the dealer always qualifies)"
         if v.qualifier.always_qualifies else
         f"Ante pays: {pays_text(v.ante_no_qualify)} to 1 if the dealer does not qualify, "
         f"{pays_text(v.ante_win)} to 1 if the player wins; qualifier: {v.qualifier.label}"),
        "",
        return_table_text(a),
        f"net: the hand's net result in antes, ante and raise together ({net_example(a)})",
        "",
        f"Total combinations          {a.total_combinations:,}",
        f"Total loss (antes)          {_plain(a.total_loss)}",
        f"House edge (per ante)       {float(a.house_edge):.6%}   exact {exact(a.house_edge)}",
        f"Element of risk (per total) {float(a.element_of_risk):.6%}   exact {exact(a.element_of_risk)}",
        f"RTP per ante                {float(a.rtp_per_ante):.6%}  return to player: 1 - house edge",
        f"RTP per total wagered       {float(a.rtp_per_total_wagered):.6%}  1 - element of risk ({kind_of(a.variant).report.wagers})",
        f"Standard deviation (antes)  {a.standard_deviation:.6f}",
        f"Average total wager (antes) {float(a.average_wager):.6f}",
        f"Probability of raising      {float(a.raise_probability):.6%}",
        f"Dealer qualifies            {float(a.dealer_qualifies):.6%}",
        f"Hit frequency               {float(a.hit_frequency):.6%}",
    ] + _extras(a))


def _whole(x: Fraction) -> str:
    """A total in antes: every digit of a whole number (beyond a float's 2^53), else three decimals."""
    return f"{x.numerator:,}" if x.denominator == 1 else f"{float(x):,.3f}"


def _extras(a: GameAnalysis) -> list[str]:
    """Rule variants, side bets and what the kind of table adds (nothing for a standard table)."""
    text = side_bets_text(a)
    out = ["", text] if text else []
    out += [part if isinstance(part, str) else columns(part) for part in kind_of(a.variant).report.text(a)]
    return out


def _plain(value: Fraction) -> str:
    v = Fraction(value)
    return f"{v.numerator:,}" if v.denominator == 1 else f"{exact(v)} (= {float(v):,.3f})"


def strategies_text(c: StrategyComparison) -> str:
    """What ``studodds strategies`` prints: one line per strategy."""
    lines = [f"{'strategy':<28} {'total loss (antes)':>22} {'house edge':>11} {'element of risk':>16} "
             f"{'cost vs optimal':>16}"]
    for r in c.results:
        a = r.analysis
        loss = _whole(a.total_loss)
        lines.append(f"{r.name:<28} {loss:>22} {float(a.house_edge):>11.6%} {float(a.element_of_risk):>16.6%} "
                     f"{float(r.cost):>16.6%}")
    return "\n".join(lines)


def hand_text(h: HandEVs | HandDraws) -> str:
    """What ``studodds hand`` prints: counts and EVs per up card (every action on a table
    with draws)."""
    if getattr(h, "KIND", "hand") == "hand_draws":
        return hand_draws_text(cast("HandDraws", h))
    if hasattr(h, "text"):                          # a kind's hand that renders itself
        return h.text()
    h = cast("HandEVs", h)
    lines = [f"Hand {format_hand(h.cards)}, variant {h.variant}; counts over 163,185 dealer completions",
             f"{'up':>3} {'no qualify':>10} {'win':>7} {'tie':>5} {'lose':>7} {'EV(raise)':>11} "
             f"{'EV(fold)':>8} {'action':>6} {'margin':>9}  EV(raise) exact"]
    for r in h.rows:
        c = r.counts
        lines.append(f"{format_card(r.up):>3} {c.no_qualify:>10,} {c.win:>7,} {c.tie:>5,} {c.lose:>7,} "
                     f"{float(r.ev_raise):>11.6f} {-1:>8} {r.action:>6} {float(r.margin):>9.6f}  {r.ev_raise}")
    if h.ev_before_up_card is not None:
        b = h.ev_before_up_card
        lines.append(f"EV of the hand before the up card is seen (optimal play): {float(b):.6f} antes = {b}")
    return "\n".join(lines)


def hand_draws_text(h: HandDraws) -> str:
    """Every action of a hand on a table with draws, per up card, best first."""
    out = [f"Hand {format_hand(h.cards)}, variant {h.variant}: every action before the decision, "
           "EV after optimal raise/fold on every draw (fee included), best first"]
    for r in h.rows:
        rows = [["action", "fee", "draws", "dealer sets", "raise after", "EV (antes)", "EV exact"]]
        for a in r.actions:
            forced = " (forced)" if a.forced_raise else ""
            rows.append([a.label, exact(a.fee), f"{a.draws:,}", f"{a.completions:,}",
                         f"{a.raised_draws / a.draws:.2%}{forced}", f"{float(a.ev):.6f}", exact(a.ev)])
        out += ["", f"Up card {format_card(r.up)}: best action {r.best.label}, EV {float(r.best.ev):.6f} antes",
                columns(rows)]
    if h.ev_before_up_card is not None:
        b = h.ev_before_up_card
        out.append(f"EV of the hand before the up card is seen (best action each time): {float(b):.6f} antes = {b}")
    return "\n".join(out)


def diff_text(d: VariantDiff) -> str:
    """What ``studodds diff`` prints: headline figures A -> B, return tables, action flips."""
    a, b, f = d.a, d.b, d.flips

    def line(name: str, x: Fraction, y: Fraction, pct: bool = True) -> str:
        fmt = (lambda v: f"{float(v):.6%}") if pct else (lambda v: f"{float(v):,.6f}")
        return f"{name:<28} {fmt(x):>16} -> {fmt(y):>16}   delta {fmt(y - x):>12}  exact {y - x}"

    changes = d.rule_changes()
    edges = [f"{side}: {note}" for side, t in (("A", a), ("B", b)) if (note := edge_note(t.house_edge))]
    out = [f"A: {d.label_a}    B: {d.label_b}" + "".join(f" -- {e}" for e in edges),
           "Rules changed: " + ("; ".join(c.text() for c in changes) if changes else "none (same rules)"), "",
           line("house edge (per ante)", a.house_edge, b.house_edge),
           line("element of risk", a.element_of_risk, b.element_of_risk),
           line("RTP per ante", a.rtp_per_ante, b.rtp_per_ante),
           line("RTP per total wagered", a.rtp_per_total_wagered, b.rtp_per_total_wagered),
           line("expected return (per ante)", a.expected_return, b.expected_return),
           line("probability of raising", a.raise_probability, b.raise_probability),
           line("hit frequency", a.hit_frequency, b.hit_frequency),
           f"{'standard deviation (antes)':<28} {a.standard_deviation:>16.6f} -> {b.standard_deviation:>16.6f}   "
           f"delta {b.standard_deviation - a.standard_deviation:>12.6f}",
           f"{'total loss (antes)':<28} {_whole(a.total_loss):>16} -> {_whole(b.total_loss):>16}   "
           f"delta exact {b.total_loss - a.total_loss}",
           ""]
    rows_b = {r.event: r for r in b.rows}
    events = [r.event for r in a.rows] + [r.event for r in b.rows if r.event not in {x.event for x in a.rows}]
    w = max([34] + [len(e) for e in events])
    out.append(f"{'outcome':<{w}} {'net A':>7} {'return A':>11} {'net B':>7} {'return B':>11} {'delta':>11}")
    rows_a = {r.event: r for r in a.rows}
    for e in events:
        ra, rb = rows_a.get(e), rows_b.get(e)
        pa = str(ra.pays) if ra else "-"
        pb = str(rb.pays) if rb else "-"
        ca = ra.contribution if ra else Fraction(0)
        cb = rb.contribution if rb else Fraction(0)
        out.append(f"{e:<{w}} {pa:>7} {float(ca):>11.7f} {pb:>7} {float(cb):>11.7f} {float(cb - ca):>+11.7f}")
    bets = d.side_bet_edges()
    if bets:
        out += ["", f"{'side bet house edge':<34} {'A':>11} {'B':>11} {'delta':>11}"]
        for name, x, y in bets:
            fa = f"{float(x):.6%}" if x is not None else "-"
            fb = f"{float(y):.6%}" if y is not None else "-"
            delta = f"{float(y - x):+.6%}" if x is not None and y is not None else "-"
            out.append(f"{name:<34} {fa:>11} {fb:>11} {delta:>11}")
    if f is not None:
        out += ["", f"Optimal action flips: {f.to_fold:,} situations raise -> fold, {f.to_raise:,} fold -> raise "
                    f"(of 122,151,120)"]
        if f.cells:
            out.append(f"{'player hand':<18} {'up card':>7} {'raise->fold':>12} {'fold->raise':>12}")
            for (cat, up), (tf, tr) in f.cells.items():
                out.append(f"{cat.label:<18} {RANKS[up]:>7} {tf:>12,} {tr:>12,}")
    else:
        out += ["", "Optimal action flips by situation: not compared (a table that decides after the draw keeps "
                    "its strategy by hand group and up card" + (", compared below)" if d.strategy else ")")]
    if d.strategy is not None:
        out += ["", _strategy_changes_text(d.strategy)]
    return "\n".join(out)


#: The cells of a strategy comparison printed (the JSON has every one).
STRATEGY_CELLS_SHOWN = 30


def _strategy_changes_text(s: StrategyChanges) -> str:
    """The strategy charts' changed cells, the most moved first: each action's share in A and B."""
    out = [f"Strategy by hand group and up card: {len(s.cells):,} of {s.cells_compared:,} cells change; at least "
           f"{s.moved_at_least:,} of {s.situations:,} situations take another action"]
    if not s.cells:
        return out[0]

    def shares(c: dict[str, int], n: int) -> str:
        return ", ".join(f"{k} {k_n / n:.1%}" for k, k_n in sorted(c.items(), key=lambda x: (-x[1], x[0])) if k_n)
    w = max(len(c.hand_group) for c in s.cells[:STRATEGY_CELLS_SHOWN])
    out.append(f"{'hand group':<{w}} {'up':>2} {'situations':>10} {'moved':>9}  actions A -> actions B")
    for c in s.cells[:STRATEGY_CELLS_SHOWN]:
        out.append(f"{c.hand_group:<{w}} {c.up_rank:>2} {c.situations:>10,} {c.moved_at_least:>9,}  "
                   f"{shares(c.a, c.situations)} -> {shares(c.b, c.situations)}")
    if len(s.cells) > STRATEGY_CELLS_SHOWN:
        out.append(f"... and {len(s.cells) - STRATEGY_CELLS_SHOWN:,} more cells (--json lists every one)")
    return "\n".join(out)
