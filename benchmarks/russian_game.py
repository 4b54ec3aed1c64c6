"""What the exact whole game of a Russian Poker table would cost, measured before it is built.

Two ways to count it, each measured here on samples and projected to the whole game:

* **the class path**: every situation up to suits (6,319,573 of them) valued by the per-hand
  engine (enumerate/russian/draws.py: every action, every draw, the bought games by rank sets);
  its CPU time on one thread, over sampled situations, times the situations;
* **the rank patterns' bought games**: the switch game's rank-pattern kernel values the draws of
  a group (a player rank pattern against an up rank) by drawn rank pattern, and a drawn rank
  pattern fixes what the bought games' rank-set sums depend on (the final hand's strength and
  pay, the unseen cards of each rank) -- one *key* per (group, discard pattern, drawn pattern);
  the keys are counted on sampled groups and priced at the kernel's measured time per key.  The
  suit corrections (the dealer's flushes, kept cards of one suit) are per situation and draw and
  are not priced here;
* **the game without the draws** (the options alone): every situation's counts are the count
  table's, so its whole game is the bought games of the count table's 6,319,573 situations, batched
  by up card; measured on sampled up cards (CPU time of the kernels and their numpy, one thread)
  and projected to the 52.

    python benchmarks/russian_game.py --situations 3 --groups 200 --up-cards 4

and, with ``--whole-game``, the exact whole game without the draws as it runs (wall and CPU time,
``--threads`` threads): the table alone, and with the same game without each option beside it
(what ``analyze`` counts), of ``docs/variants/lunar-without-draws.toml``; with ``--no-purchase``,
the game with the draws and no bought game by rank patterns (enumerate/russian/ranks.py): CPU
time of sampled groups on one thread, projected to the whole game's groups; with
``--purchase-by-ranks``, the same with the bought game, sampled apart against a deuce to a six
(the dealer's highest card replaced: never the up card) and against a seven to an ace (the up
card may be the card replaced: the term's side part), each projected to its groups, for the rule
sets of ``docs/variants``: lunar-house, lunar-pennsylvania and russian-classic; with ``--simulate
GAMES``, ``simulate``'s games a second on the table without draws.

    python benchmarks/russian_game.py --no-purchase --groups 300
    python benchmarks/russian_game.py --purchase-by-ranks --groups 8 --table russian-classic

and with ``--strategy NAME`` (stand-pat, rules-of-thumb) the same groups counted under a simple draw strategy's action
(enumerate/russian/draw_strategies.py) instead of the best: what its exact whole game costs.
"""
from __future__ import annotations

import argparse
import math
import random
import time
from pathlib import Path

import numpy as np

from enumerate.core.slices import Slice
from enumerate.draws import switch_ranks
from enumerate.rules.variant_file import load_variant_file, parse_variant_text
from enumerate.russian.draw_strategies import STRATEGIES
from enumerate.russian.draws import situation_actions

US = Path(__file__).resolve().parents[1] / "enumerate" / "rules" / "variants" / "us-common.toml"
TABLES = {
    "lunar house (exchange 2-5 or a sixth card)": (
        "[ante_pays]\nplayer_wins = 0\n[switch]\nfees = { 2 = 1, 3 = 1, 4 = 1, 5 = 1 }\n[buy_card]\nfee = 1\n"
        "[two_combinations]\n[insurance]\n[buy_game]\n"),
    "classic russian (exchange 1-5 or a sixth card)": (
        "[switch]\nfees = { 1 = 1, 2 = 1, 3 = 1, 4 = 1, 5 = 1 }\n[buy_card]\nfee = 1\n"
        "[two_combinations]\n[insurance]\n[buy_game]\nafter = \"hands_compared\"\n"),
}
SITUATIONS = 6_319_573
#: The rule sets whose whole games with the bought game are timed (docs/variants/NAME.toml).
WHOLE_GAMES = ("lunar-house", "lunar-pennsylvania", "russian-classic")
#: Where the rule sets are.
VARIANTS = Path(__file__).resolve().parents[1] / "docs" / "variants"


def class_path(text: str, count: int, seed: int) -> float:
    """CPU seconds of one situation on one thread, over ``count`` sampled situations."""
    v = parse_variant_text(US.read_text().split("[ante_pays]")[0] + text, "bench.toml")
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(count):
        cards = rng.sample(range(52), 6)
        situation_actions(v, tuple(cards[:5]), cards[5], threads=1)
    return (time.process_time() - start) / count


def drawn_patterns(avail: list[int], k: int) -> int:
    """The rank patterns of k drawn cards with at most avail[r] of rank r."""
    poly = [1]
    for a in avail:
        nxt = [0] * (len(poly) + a)
        for i, c in enumerate(poly):
            for j in range(a + 1):
                nxt[i + j] += c
        poly = nxt
    return poly[k] if k < len(poly) else 0


def keys_per_group(groups: int, seed: int, allowed: set[int]) -> float:
    """The mean number of keys of a group, over ``groups`` sampled groups: per distinct discard
    (ranks given up, for each allowed count), the drawn rank patterns; buying draws one card."""
    h, up, _ = switch_ranks.groups(Slice())
    rng = np.random.default_rng(seed)
    total = 0
    for i in rng.choice(len(h), groups, replace=False):
        counts, ru = h[i].astype(int), int(up[i])
        avail = [4 - counts[r] - (1 if r == ru else 0) for r in range(13)]
        ranks = [r for r in range(13) for _ in range(counts[r])]
        discards = {tuple(sorted(ranks[j] for j in range(5) if (m >> j) & 1)) for m in range(1, 32)
                    if bin(m).count("1") in allowed}
        total += 1 + sum(drawn_patterns(avail, len(d)) for d in discards) + drawn_patterns(avail, 1)
    return total / groups


def no_draws(up_cards: int, seed: int) -> float:
    """CPU seconds of the bought games of every situation of one up card, over sampled up cards,
    on the options without draws (Lunar Poker's)."""
    from enumerate.russian.bought import purchases
    from enumerate.russian.settle import RussianSettlement, pays_by_strength
    from studodds.api import count_table
    v = parse_variant_text(US.read_text().split("[ante_pays]")[0] + "[ante_pays]\nplayer_wins = 0\n"
                           "[two_combinations]\n[insurance]\n[buy_game]\n", "no-draws.toml")
    s = RussianSettlement.of(v)
    counts = count_table("us-common")                       # the same qualifier: the same counts
    pays, index = pays_by_strength(s)
    everything = (1 << 52) - 1
    hand_masks = (np.uint64(1) << counts.hands.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    rng = np.random.default_rng(seed)
    spent = 0.0
    for up in rng.choice(52, up_cards, replace=False).tolist():
        rows, cols = np.nonzero(counts.up == up)
        unseen = (np.uint64(everything) & ~hand_masks[rows]) & ~np.uint64(1 << up)
        start = time.process_time()
        purchases(s, v.qualifier.threshold, counts.strength[rows], pays, index[counts.strength[rows]], unseen, up)
        spent += time.process_time() - start
    return spent / up_cards


def no_purchase(groups: int, seed: int) -> None:
    """CPU seconds a group of the rank patterns' game without the bought game, over ``groups``
    sampled groups (one thread; the kernel's tables made beforehand), projected to the whole game."""
    from enumerate.russian import ranks
    h, up, _ = switch_ranks.groups(Slice())
    pick = np.sort(np.random.default_rng(seed).choice(len(h), groups, replace=False))
    every = frozenset(Slice().categories)
    for name, text in TABLES.items():
        v = parse_variant_text(US.read_text().split("[ante_pays]")[0] + text.replace("[buy_game]\n", "")
                               .replace('after = "hands_compared"\n', ""), "bench.toml")
        ranks.rank_rules(v)
        start = time.process_time()
        ranks.shard_fields(v, h[pick], up[pick], every, threads=1)
        per = (time.process_time() - start) / groups
        print(f"{name}, without buying the game, by rank patterns: {per:.3f} CPU s a group, whole game "
              f"{per * len(h) / 3600:.1f} core-hours (projected from {groups} groups)", flush=True)


#: The strata of the groups: a player rank pattern's shape (five ranks, a pair, two pairs, three of a
#: kind, a full house, four of a kind), by its largest multiplicities.
SHAPES = {(1, 1, 1): "five ranks", (2, 1, 1): "a pair", (2, 2, 1): "two pairs", (3, 1, 1): "three of a kind",
          (3, 2, 0): "a full house", (4, 1, 0): "four of a kind"}


def purchase_by_ranks(groups: int, seed: int, tables: list[str] | None = None, strategy: str | None = None) -> None:
    """CPU seconds a group of the rank patterns' game *with* the bought game (one thread), and
    the whole game projected from them.  A group's cost depends on its player rank pattern far
    more than on chance -- five ranks draw and buy in every way, a pair of them at 2 to 3 CPU s
    under the classic rules, a full house a few hundredths -- so the groups are sampled in strata:
    ``groups`` of each shape against a deuce to a six and as many against a seven to an ace (the
    up card may be the card replaced), each stratum projected to its own groups.  With ``strategy``
    (a draw strategy's name, enumerate/russian/draw_strategies.py), the groups are counted under
    that strategy's draw instead of the best (its exact whole game)."""
    from enumerate.russian import ranks
    actions = None if strategy is None else STRATEGIES[strategy]
    h, up, _ = switch_ranks.groups(Slice())
    every = frozenset(Slice().categories)
    rng = np.random.default_rng(seed)
    shape = [tuple(r) for r in np.sort(h, axis=1)[:, ::-1][:, :3].tolist()]
    strata = []
    for label, side in (("2-6", up <= 4), ("7-A", up >= 5)):
        for key, kind in SHAPES.items():
            mine = np.flatnonzero(side & np.array([s == key for s in shape]))
            strata.append((label, kind, len(mine), np.sort(rng.choice(mine, min(groups, len(mine)), replace=False))))
    assert sum(n for _, _, n, _ in strata) == len(h)
    for name in tables or WHOLE_GAMES:
        v = load_variant_file(str(VARIANTS / f"{name}.toml")).variant
        ranks.rank_rules(v)
        hours = 0.0
        for label, kind, n, pick in strata:
            start = time.process_time()
            ranks.shard_fields(v, h[pick], up[pick], every, threads=1, actions=actions)
            per = (time.process_time() - start) / len(pick)
            hours += per * n / 3600
            print(f"{name}, up ranks {label}, {kind}: {per:.3f} CPU s a group, its {n:,} groups "
                  f"{per * n / 3600:.2f} core-hours (from {len(pick)} groups)", flush=True)
        under = "" if strategy is None else f" under the draw strategy {strategy!r}"
        print(f"{name}: the whole game{under} {hours:.1f} core-hours (projected from {groups} groups a stratum)",
              flush=True)


def whole_game(threads: int) -> None:
    """Time the exact whole game without the draws: the table alone, then with its options' worth."""
    from enumerate.russian import game
    from studodds.api import count_table
    v = load_variant_file(str(Path(__file__).resolve().parents[1] / "docs" / "variants"
                              / "lunar-without-draws.toml")).variant
    counts = count_table("us-common")
    for label, worth in (("the table alone", False), ("with each option's worth", True)):
        counts._memos.clear()                         # count every game anew
        wall, cpu = time.perf_counter(), time.process_time()
        a, figures, _ = game.analyze_russian(counts, v, threads, worth=worth)
        games = f"{1 + len(figures.worth)} game{'s' if figures.worth else ''}"
        print(f"{v.name}, {label}: {time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} CPU s "
              f"({threads} threads; {games}); house edge {float(a.house_edge):.6%}", flush=True)


def sampled_check(situations: int, seed: int, tables: list[str] | None = None) -> None:
    """CPU seconds a situation of ``draws-sample`` on each rule set (one thread, every action of
    each sampled situation valued exactly), and what 600 situations take on two cores."""
    from enumerate.russian import sample
    for name in tables or WHOLE_GAMES:
        v = load_variant_file(str(VARIANTS / f"{name}.toml")).variant
        sample.value_sample(v, 1, 0, seed)                                    # the tables made beforehand
        per = sample.allocation(situations)
        picks = [(h, j) for h, n in enumerate(per) for j in range(n)]
        start = time.process_time()
        for h, j in picks:
            sample.value_sample(v, h, j, seed)
        cpu = (time.process_time() - start) / len(picks)
        print(f"{name}: draws-sample {cpu:.2f} CPU s a situation ({len(picks)} situations, one thread); "
              f"600 situations (621 valued) about {cpu * 621 / 2 / 60:.1f} minutes on two cores", flush=True)


def simulate(games: int, threads: int) -> None:
    """Games a second of ``simulate`` on the Lunar table without draws (the exact game counted
    first, not timed): each game's raise an exact count over the dealer's hole sets."""
    from enumerate.simulation import russian
    from studodds import api
    v = load_variant_file(str(VARIANTS / "lunar-without-draws.toml")).variant
    exact = api.analyze(v, threads=threads, progress=False)
    russian.play_chunk(v, None, 0, 0, 200, threads)                           # the tables made beforehand
    wall, cpu = time.perf_counter(), time.process_time()
    s = russian.simulate(v, exact, games, 1, threads=threads)
    seconds = time.perf_counter() - wall
    print(f"{v.name}: simulate {games:,} games in {seconds:.1f} s wall, {time.process_time() - cpu:.1f} CPU s "
          f"({threads} threads): {games / seconds:,.0f} games a second; {'consistent' if s.passed else s.verdict}",
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--situations", type=int, default=3, help="situations sampled per table (class path)")
    ap.add_argument("--groups", type=int, default=200, help="groups sampled (rank patterns' keys)")
    ap.add_argument("--up-cards", type=int, default=4, help="up cards sampled (the game without draws)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--whole-game", action="store_true", help="time the exact whole game without the draws instead")
    ap.add_argument("--threads", type=int, default=2, help="threads of --whole-game")
    ap.add_argument("--no-purchase", action="store_true",
                    help="time the game with the draws and no bought game by rank patterns instead")
    ap.add_argument("--purchase-by-ranks", action="store_true",
                    help="time the game with the draws and the bought game by rank patterns instead (--groups "
                         "groups of each shape of player rank pattern, each side of the up ranks)")
    ap.add_argument("--strategy", choices=sorted(STRATEGIES),
                    help="with --purchase-by-ranks: count the groups under this draw strategy instead of the best")
    ap.add_argument("--table", action="append", choices=sorted(p.stem for p in VARIANTS.glob("*.toml")),
                    metavar="NAME", help="with --purchase-by-ranks or --sampled-check: only this rule set of docs/variants "
                    f"(repeatable; default {', '.join(WHOLE_GAMES)})")
    ap.add_argument("--simulate", type=int, metavar="GAMES",
                    help="time simulate's games on the Lunar table without draws instead (--threads threads)")
    ap.add_argument("--sampled-check", action="store_true",
                    help="time draws-sample's situations instead (--situations of them in its strata; --table)")
    args = ap.parse_args()
    if args.simulate:
        simulate(args.simulate, args.threads)
        return
    if args.sampled_check:
        sampled_check(args.situations, args.seed, args.table)
        return
    if args.purchase_by_ranks:
        purchase_by_ranks(args.groups, args.seed, args.table, args.strategy)
        return
    if args.whole_game:
        whole_game(args.threads)
        return
    if args.no_purchase:
        no_purchase(args.groups, args.seed)
        return
    n_groups = len(switch_ranks.groups(Slice())[0])
    for name, text in TABLES.items():
        seconds = class_path(text, args.situations, args.seed)
        print(f"{name}: class path {seconds:.1f} CPU s a situation, whole game "
              f"{seconds * SITUATIONS / 3600:,.0f} core-hours (projected)", flush=True)
        allowed = {2, 3, 4, 5} if "2-5" in name else {1, 2, 3, 4, 5}
        keys = keys_per_group(args.groups, args.seed, allowed)
        print(f"{name}: {keys:,.0f} keys a group, {keys * n_groups:,.0f} in the {n_groups:,} groups", flush=True)
    seconds = no_draws(args.up_cards, args.seed)
    print(f"the options without draws (Lunar): {seconds:.2f} CPU s an up card, the bought games of the whole game "
          f"{seconds * 52 / 60:.1f} CPU minutes (projected)")
    print(f"(the class path's situations: {SITUATIONS:,}; a key's rank-set sums: see docs/russian.md)")
    print(f"{math.comb(52, 5) * 47:,} situations without suits")


if __name__ == "__main__":
    main()
