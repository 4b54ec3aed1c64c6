"""Speed and memory figures for the README (targets in brackets).

    python benchmarks/bench.py            # all figures
    python benchmarks/bench.py --quick    # skip the repeated end-to-end runs
    python benchmarks/bench.py --protection   # game protection only (about 7 minutes)
    python benchmarks/bench.py --design       # paytable design only (about a minute)

Figures: evaluator throughput in a nogil loop on one core [>= 200 M hands/s], cold full count
[<= 5 s on 2 cores], peak memory of a cold count [<= 2 GB], warm `studodds analyze` from process
start to exit [<= 1 s], a batch of 100 paytables sharing one qualifier with the counts cached [<= 3 s],
`studodds hand` with an up card [<= 0.3 s], the full ev-table export [<= 10 s].

With --protection: cold exact hole-card runs on 2 cores, 1 hole card [<= 10 s], 2 [<= 60 s], 3
[<= 5 min]; the burn card and A/K edge sorting; and the collusion sampler's throughput with 30
partner cards [>= 50,000 situations/s].

With --dead (the dead-card engine): `studodds hand` with all 32 switch sets of the Galewind schedule,
process start to exit [<= 0.4 s], beside the release's with --release; the CPU time of one class of
each whole-game job on one thread -- a situation's 32 switch sets (2,349,060 draws), a seen
second hand's 1,370,754 player hands -- over sampled classes, and each whole game's cost projected
from it (6,319,573 classes each) [goal <= 8 core-hours]; and the switch game shared by discard
class (the cards given up and the up card: one sweep values every final hand of the other cards
for every situation that discards them), per class and projected over the classes up to suits;
and, in sampled seen-second-hand classes, which player hands fold.

With --design: sensitivity and solve times, and paytable searches on 2 cores: one moving the pays
of always-raised categories [>= 100,000 candidates/s], one moving the pair and high-card pays,
and the same on a local Dask cluster.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

COLD_COUNT = """
import resource, time
t0 = time.perf_counter()
from enumerate.core.engine import compute_counts, hand_tables
from enumerate.core.parallel import resolve_threads
from enumerate.rules.qualifier import Qualifier
t1 = time.perf_counter()
hand_tables()
t2 = time.perf_counter()
compute_counts(Qualifier.ace_king().threshold, threads=resolve_threads())   # every core, as the API's run
t3 = time.perf_counter()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f} {rss:.0f}")
"""


def evaluator_throughput(n: int = 2_000_000, repeats: int = 10) -> float:
    from evaluator import _eval
    rng = np.random.default_rng(1)
    # random hands, each with its five cards in random order (the evaluator does not sort)
    indices = rng.integers(0, 2_598_960, size=n, dtype=np.int32)
    hands = np.ascontiguousarray(rng.permuted(_eval.cards_of_indices(indices), axis=1))
    _eval.throughput_loop(hands, 1)
    t = time.perf_counter()
    _eval.throughput_loop(hands, repeats)
    return n * repeats / (time.perf_counter() - t)


def cold_count(runs: int) -> list[tuple[float, float, float, float]]:
    out = []
    for _ in range(runs):
        r = subprocess.run([sys.executable, "-c", COLD_COUNT], capture_output=True, text=True,
                           check=True, cwd=tempfile.gettempdir())
        out.append(tuple(float(x) for x in r.stdout.split()))
    return out


def warm_analyze(runs: int) -> list[float]:
    cmd = [sys.executable, "-m", "studodds", "analyze", "--quiet"]
    timed(cmd, 1)                                                  # warm the cache
    return timed(cmd, runs)


def load_run(n: int, build: str | None = None) -> tuple[float, float]:
    """Seconds and peak memory (MB, GNU time's max RSS) of `studodds batch` of n generated
    paytables, counts cached (``build``: a release installed with pip install --target)."""
    with tempfile.TemporaryDirectory() as src:
        write_paytables(src, n)
        timed_run(["-m", "studodds", "analyze", "--quiet"], build)          # the count cache
        seconds, mb, code = timed_run(["-m", "studodds", "batch", src, "--out", "{tmp}", "--formats", "md", "--quiet"],
                                      build)
        if code:
            raise RuntimeError(f"studodds batch of {n} paytables failed (exit {code})")
        return seconds, mb


def environment_of(build: str | None) -> dict[str, str]:
    """The environment of a run of the tree's build (None) or of the release installed in ``build``."""
    env = dict(os.environ)
    if build:
        env["PYTHONPATH"] = build + os.pathsep + env.get("PYTHONPATH", "")
    return env


def timed_run(args: list[str], build: str | None = None) -> tuple[float, float, int]:
    """(seconds, peak memory in MB, exit code) of ``python ARGS`` in a fresh process and folder
    ("{tmp}" in ARGS: a fresh output folder), measured by GNU time."""
    with tempfile.TemporaryDirectory() as out:
        cmd = ["/usr/bin/time", "-f", "%e %M", sys.executable, *(a.replace("{tmp}", out) for a in args)]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=tempfile.gettempdir(), env=environment_of(build))
        seconds, kb = r.stderr.strip().splitlines()[-1].split()[-2:]
        return float(seconds), int(kb) / 1024, r.returncode


#: A legitimate paytable whose pays share a denominator of 11,298,008 (large primes).
PRIME_PAYS = ('name = "large-primes"\nqualifier = "AK"\n[raise_pays]\nroyal_flush = 100\nstraight_flush = 50\n'
              'four_of_a_kind = 20\nfull_house = 7\nflush = 5\nstraight = 4\nthree_of_a_kind = 3\ntwo_pairs = 2\n'
              'one_pair = "4021/9082"\nhigh_card = "1829/2488"\n')


def against_release(release: str, quick: bool) -> None:
    """The figures of the certified batch and the warm start for this tree's build and for the
    release installed in ``release``, interleaved in one run, with their ratios."""
    runs = 3 if quick else 7
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}, numpy {np.__version__}; "
          f"new = this tree, release = {release}")

    def row(label: str, new: float, old: float, unit: str = "s") -> None:
        print(f"{label}: new {new:.3f} {unit}, release {old:.3f} {unit}, ratio {new / old:.2f}", flush=True)

    with tempfile.TemporaryDirectory() as src:
        write_paytables(src, 100)
        prime = os.path.join(src, "large-primes.toml")
        for build in (None, release):
            timed_run(["-m", "studodds", "analyze", "--quiet"], build)       # warm each build's count cache
        warm: dict[str, dict[str | None, list[float]]] = {k: {None: [], release: []} for k in ("pass", "analyze", "hand")}
        for _ in range(runs):
            for build in (None, release):
                warm["pass"][build].append(timed_run(["-c", "pass"], build)[0])
                warm["analyze"][build].append(timed_run(["-m", "studodds", "analyze", "--quiet"], build)[0])
                warm["hand"][build].append(timed_run(["-m", "studodds", "hand", "As Kd Jh 8c 3s", "--up", "7d",
                                                      "--quiet"], build)[0])
        med = {k: {b: statistics.median(v) for b, v in d.items()} for k, d in warm.items()}
        print(f"python -c pass: new {med['pass'][None]:.3f} s, release {med['pass'][release]:.3f} s (median of {runs})")
        for k, label in (("analyze", "warm `studodds analyze`"), ("hand", "warm `studodds hand ... --up 7d`")):
            row(f"{label}, whole process (median of {runs})", med[k][None], med[k][release])
            row(f"{label}, above python -c pass", med[k][None] - med["pass"][None], med[k][release] - med["pass"][release])
        batch = {}
        for build in (None, release):
            for hands in ("1", "1,10,100,1000,10000"):
                batch[build, hands] = timed_run(["-m", "studodds", "batch", src, "--out", "{tmp}", "--formats", "md",
                                                 "--quiet", "--hands", hands], build)
        for build, name in ((None, "new"), (release, "release")):
            full, one = batch[build, "1,10,100,1000,10000"], batch[build, "1"]
            print(f"batch of 100 ({name}): {full[0]:.2f} s with the N-hand table, {one[0]:.2f} s with --hands 1, "
                  f"ratio {full[0] / one[0]:.2f}; peak {full[1]:.0f} MB")
        row("batch of 100 with the N-hand table", batch[None, "1,10,100,1000,10000"][0],
            batch[release, "1,10,100,1000,10000"][0])
        with open(prime, "w") as f:
            f.write(PRIME_PAYS)
        for build, name in ((None, "new"), (release, "release")):
            seconds, mb, code = timed_run(["-m", "studodds", "batch", prime, "--out", "{tmp}", "--formats", "md",
                                           "--quiet"], build)
            print(f"certified table of pays over large prime denominators ({name}): exit {code}, {seconds:.2f} s, "
                  f"peak {mb:.0f} MB", flush=True)
    for label, snippet, arg in (("cold full count", COLD_COUNT, ""), ("cold exact 1 hole card", PROTECTION, "1"),
                                ("collusion sampler, 30 seen cards, 200,000 samples", COLLUSION, ""),
                                ("paytable search, 7,700,000 candidates, 2 threads", SEARCH, "")):
        times: dict[str | None, list[float]] = {None: [], release: []}
        for _ in range(1 if quick else 2):
            for build in (None, release):
                times[build].append(timed_run(["-c", snippet, arg], build)[0])
        row(f"{label}, whole process (best of {len(times[None])})", min(times[None]), min(times[release]))


COLLUSION = """
from studodds import api
api.collusion("us-common", 6, samples=200_000, seed=1)
"""

SEARCH = """
from enumerate.design.criteria import Bound, Objective
from enumerate.design.grid import Axis
from enumerate.design.search import search
from studodds import api
v = api.load_variant("us-common")
high = [Axis.parse(a) for a in ("royal_flush=100..1000/100", "straight_flush=20..110/10", "four_of_a_kind=10..40/3",
                                "full_house=5..14", "flush=3..12", "straight=2..11", "three_of_a_kind=2..5/1/2")]
search(api.count_table(v), v, high, bounds=(Bound.parse("house_edge=2.5%..3%"), Bound.parse("hit_frequency=0.38..")),
       objectives=(Objective("house_edge", True), Objective("hit_frequency", True)), threads=2)
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run of each figure instead of three")
    parser.add_argument("--load", action="store_true", help="only the 1,000-variant load run")
    parser.add_argument("--protection", action="store_true", help="only the game-protection figures")
    parser.add_argument("--design", action="store_true", help="only the paytable-design figures")
    parser.add_argument("--simulate", action="store_true", help="only the simulator's throughput")
    parser.add_argument("--draws", action="store_true",
                        help="only switching and buying: one hand's 32 switch sets, the one-card and sixth-card games")
    parser.add_argument("--dead", action="store_true",
                        help="only the dead-card engine: one hand's 32 switch sets, each whole-game job's cost per class")
    parser.add_argument("--release", metavar="DIR",
                        help="also run each figure of the certified batch and the warm start on the release "
                             "installed in DIR (pip install --target DIR), interleaved, with the ratios")
    return parser


def main() -> None:
    args = build_parser().parse_args()
    if args.protection:
        protection()
        return
    if args.design:
        design()
        return
    if args.simulate:
        simulation()
        return
    if args.draws:
        draws()
        return
    if args.dead:
        dead_engine(args.release, args.quick)
        return
    if args.load:
        seconds, mb = load_run(1000)
        print(f"batch of 1,000 generated paytables, counts cached: {seconds:.1f} s, peak memory {mb:.0f} MB")
        if args.release:
            seconds, mb = load_run(1000, args.release)
            print(f"the same with the release in {args.release}: {seconds:.1f} s, peak memory {mb:.0f} MB")
        return
    if args.release:
        against_release(args.release, args.quick)
        return
    runs = 1 if args.quick else 3
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}, numpy {np.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["STUDODDS_CACHE_DIR"] = tmp
        cold = cold_count(runs)
        best = min(cold, key=lambda c: c[1] + c[2])
        print(f"cold full count: {best[2]:.2f} s counting + {best[1]:.2f} s hand tables "
              f"(best of {runs}; all: {', '.join(f'{c[1] + c[2]:.2f}' for c in cold)} s)")
        print(f"peak memory of a cold count (max RSS): {max(c[3] for c in cold):.0f} MB")
        warm = warm_analyze(3 if args.quick else 7)
        print(f"warm `studodds analyze`, process start to exit: median {statistics.median(warm):.2f} s "
              f"(min {min(warm):.2f}, max {max(warm):.2f})")
        print(f"batch of 100 paytables sharing one qualifier, counts cached: {batch_of(100):.2f} s")
        hand = timed([sys.executable, "-m", "studodds", "hand", "As Kd Jh 8c 3s", "--up", "7d", "--quiet"], 5)
        print(f"warm `studodds hand ... --up 7d`, process start to exit: median {statistics.median(hand):.2f} s")
        out = os.path.join(tmp, "ev.npz")
        ev = timed([sys.executable, "-m", "studodds", "ev-table", "--out", out, "--quiet"], 1)
        print(f"full ev-table export (.npz, 5,649,150 rows), process start to exit: {ev[0]:.2f} s")
        out = os.path.join(tmp, "ev.csv")
        ev = timed([sys.executable, "-m", "studodds", "ev-table", "--out", out, "--quiet"], 1)
        print(f"full ev-table export (.csv), process start to exit: {ev[0]:.2f} s")
    # last: its arrays would otherwise count in the children's max RSS (kept across fork)
    print(f"evaluator throughput, one core, nogil loop: {evaluator_throughput() / 1e6:.0f} M hands/s")


PROTECTION = """
import sys, time
from enumerate.core.parallel import resolve_threads
from enumerate.protection import exposure, known_sets
from studodds import api
threads = resolve_threads()          # every core, as the API's run: a direct call runs on one thread
v = api.load_variant("us-common")
table = api.count_table(v)
t = time.perf_counter(); known_sets.sorted_hands(); hands = time.perf_counter() - t
what = sys.argv[1]
t = time.perf_counter()
if what == "edgesort":
    exposure.edge_sort(table, v, (12, 11), use_cache=False, threads=threads)
elif what == "burn":
    exposure.burn_card(table, v, use_cache=False, threads=threads)
else:
    exposure.hole_cards(table, v, int(what), use_cache=False, threads=threads)
print(f"{hands + time.perf_counter() - t:.1f}")
"""


def protection() -> None:
    """Cold exposure runs (each in a fresh process, kernel cache off, count table cached) and
    the collusion sampler's throughput."""
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}, numpy {np.__version__}")
    for what, label in (("1", "1 hole card"), ("2", "2 hole cards"), ("3", "3 hole cards"),
                        ("burn", "burn card"), ("edgesort", "A/K edge sorting")):
        r = subprocess.run([sys.executable, "-c", PROTECTION, what], capture_output=True, text=True, check=True,
                           cwd=tempfile.gettempdir())
        print(f"cold exact {label} (2 threads, after the count table): {r.stdout.strip()} s", flush=True)
    from studodds import api
    for partners, burn in ((6, False), (6, True), (1, False)):
        n = 200_000 if partners == 6 else 5_000
        e = api.collusion("us-common", partners, burn_card=burn, samples=n, seed=1)
        print(f"collusion sampler, {5 * partners + burn} seen cards: {n / e.seconds:,.0f} situations/s "
              f"({n:,} samples in {e.seconds:.1f} s)", flush=True)


def simulation() -> None:
    """Games per second of the simulator (10^8 games, counts cached, after one warm-up run),
    on 2 threads and 1, for the base game, three side bets, a best-of-six side bet and the
    progressive with its meter; then every plain built-in on the same games (dealt and ranked
    once, settled under each table)."""
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}, numpy {np.__version__}")
    from studodds import api
    games = 100_000_000
    for name in ("us-common", "palms-managua", "five-plus-one", "progressive-100-75-50"):
        api.simulate(name, games=1_000_000, seed=0)
        for threads in (2, 1):
            s = api.simulate(name, games=games, seed=1, threads=threads)
            print(f"simulate {name}, {threads} thread(s): {games / s.seconds / 1e6:.1f} M games/s "
                  f"({s.seconds:.2f} s for {games:,}; {'consistent' if s.passed else 'NOT consistent'})", flush=True)
    names = [v.name for v in api.variants() if api.table_kind(v) == "plain"]
    shared = api.simulate_many(names, games=games, seed=1)
    print(f"simulate_many, the {len(names)} plain built-ins on the same games, 2 threads: {shared[0].seconds:.1f} s for "
          f"{games:,} games each ({len(names) * games / shared[0].seconds / 1e6:.1f} M table-games/s; "
          f"{sum(s.passed for s in shared)} consistent)", flush=True)


GALEWIND = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "variants", "oasis-galewind.toml")


def draws() -> None:
    """Switching and buying, each in a fresh process: one hand's every action under the Galewind
    schedule (32 switch sets; no table is read), the whole one-card game and the whole
    sixth-card game with an empty cache (the count table is made too)."""
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}, numpy {np.__version__}")
    hand = timed([sys.executable, "-m", "studodds", "hand", "As Kd Jh 8c 3s", "--up", "7d", "--variant",
                  os.path.abspath(GALEWIND), "--quiet"], 3)
    print(f"`studodds hand` with all 32 switch sets (Galewind), process start to exit: median "
          f"{statistics.median(hand):.2f} s (min {min(hand):.2f})", flush=True)
    for name in ("oasis-one-card", "sixth-card"):
        with tempfile.TemporaryDirectory() as cache:         # cold: no count table either
            os.environ["STUDODDS_CACHE_DIR"] = cache
            seconds, mb, code = timed_run(["-m", "studodds", "analyze", name, "--quiet"])
        print(f"whole game {name}, cold (empty cache), process start to exit: {seconds:.1f} s, "
              f"peak {mb:,.0f} MB (exit {code})", flush=True)


#: One class of each whole-game job on one thread, CPU seconds: a situation's 32 switch sets
#: (Galewind), and a seen second hand (partner hand Q, up card u: every player hand of the 46
#: other cards is a query with Q dead).
DEAD_CLASS = """
import sys, time
import numpy as np
from enumerate.core import _dead
from enumerate.draws.hand import situation_draws
from evaluator._eval import strengths_of
from enumerate.rules.variant_file import resolve
v = resolve(sys.argv[1]).variant
rng = np.random.default_rng(int(sys.argv[2]))
deck = rng.permutation(52)
cards, up = tuple(int(c) for c in sorted(deck[:5])), int(deck[5])
t = time.process_time()
situation_draws(v, cards, up, threads=1)
switch = time.process_time() - t
unseen = np.array(sorted(int(c) for c in deck[5:] if c != up), dtype=np.uint8)   # the partner's 5 cards dead
hands = np.array(list(__import__("itertools").combinations(range(46), 5)), dtype=np.int64)
hands = hands[np.lexsort(hands.T)]                 # colex order: the engine's fast path reads them
sets = (hands << (6 * np.arange(5))).sum(axis=1).astype(np.uint32)
t = time.process_time()
strength = np.asarray(strengths_of(unseen[hands])).astype(np.int16)
n = len(sets)
nq, win, tie = np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32)
_dead.dead_counts_of(unseen, up, v.qualifier.threshold, sets, np.array([-1] * 5 + [0]), np.arange(n, dtype=np.int32),
                     strength, nq, win, tie, np.zeros(1, np.int32), 1)
seen = time.process_time() - t
print(f"{switch:.4f} {seen:.4f}")
"""

#: Situations (player hand, up card) up to suits: canonical hands x 47 up cards.
CLASSES = 6_319_573

#: One discard class (X of k cards out of play, up card u) on one thread, CPU seconds of the
#: engine alone: every 5-card hand of the 51 - k other cards, one complete run of 5-sets.
DISCARD_CLASS = """
import itertools, sys, time
import numpy as np
from enumerate.core import _dead
from enumerate.rules.qualifier import Qualifier
from evaluator._eval import strengths_of
k, seed = int(sys.argv[1]), int(sys.argv[2])
deck = np.random.default_rng(seed).permutation(52)
up = int(deck[k])
unseen = np.array(sorted(int(c) for c in deck[k + 1:]), dtype=np.uint8)
hands = np.array(list(itertools.combinations(range(len(unseen)), 5)), dtype=np.int64)
hands = hands[np.lexsort(hands.T)]
sets = (hands << (6 * np.arange(5))).sum(axis=1).astype(np.uint32)
strength = np.asarray(strengths_of(unseen[hands])).astype(np.int16)
n = len(sets)
nq, win, tie = np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32)
t = time.process_time()
_dead.dead_counts_of(unseen, up, Qualifier.ace_king().threshold, sets, np.array([-1] * 5 + [0]),
                     np.arange(n, dtype=np.int32), strength, nq, win, tie, np.zeros(1, np.int32), 1)
print(f"{time.process_time() - t:.4f}")
"""


#: Which player hands fold when a partner's hand is seen: sampled (partner hand, up card) classes of
#: the us-common table, every player hand of the 46 other cards counted exactly by the engine.
SEEN_DECISIONS = """
import itertools, json, sys
from math import comb
import numpy as np
from enumerate.core import _dead
from enumerate.rules.variant_file import load_builtin
from evaluator._eval import CATEGORY_BY_STRENGTH, strengths_of
from evaluator.ranking import Category
v = load_builtin("us-common").variant
q, r = v.qualifier.threshold, v.raise_antes
pay = np.array([float(v.pay(c)) for c in Category])
hands = np.array(list(itertools.combinations(range(46), 5)), dtype=np.int64)
hands = hands[np.lexsort(hands.T)]
sets = (hands << (6 * np.arange(5))).sum(axis=1).astype(np.uint32)
n, total = comb(41, 4), {}
rng = np.random.default_rng(7)
for _ in range(int(sys.argv[1])):
    deck = rng.permutation(52)
    unseen = np.array(sorted(int(c) for c in deck[6:]), dtype=np.uint8)
    strength = np.asarray(strengths_of(unseen[hands])).astype(np.int16)
    nq, win, tie = (np.empty(len(sets), np.int32) for _ in range(3))
    _dead.dead_counts_of(unseen, int(deck[5]), q, sets, np.array([-1] * 5 + [0]), np.arange(len(sets), dtype=np.int32),
                         strength, nq, win, tie, np.zeros(1, np.int32), 2)
    cat = np.asarray(CATEGORY_BY_STRENGTH)[strength]
    fold = nq + win * (1 + r * pay[cat]) - (1 + r) * (n - nq - win - tie) <= -n      # raise only if better
    ranks = unseen[hands] // 4
    pair = np.full(len(hands), -1)
    for i in range(5):
        pair = np.where((cat == 1) & ((ranks == ranks[:, i:i + 1]).sum(axis=1) == 2), ranks[:, i], pair)
    groups = {"below the qualifier": strength < q, "AK high": (strength >= q) & (cat == 0),
              **{f"pair of {'23456789TJQKA'[p]}s": pair == p for p in range(13)}, "two pairs or better": cat >= 2}
    for g, m in groups.items():
        a = total.setdefault(g, [0, 0])
        a[0] += int(m.sum())
        a[1] += int((fold & m).sum())
print(json.dumps(total))
"""


def discard_classes(k: int) -> int:
    """Pairs (k-card set X, card u outside it) up to the 24 permutations of the suits, by
    Burnside's lemma: the average number of pairs a permutation fixes (u on a fixed suit, X a
    union of the permutation's card cycles)."""
    total = 0
    for perm in itertools.permutations(range(4)):
        cycles, seen = [], set()
        for s in range(4):
            length = 0
            while s not in seen:
                seen.add(s)
                s = perm[s]
                length += 1
            if length:
                cycles.append(length)
        ways = [1] + [0] * k                      # unions of card cycles (13 per suit cycle) by size,
        for length in sorted(cycles * 13)[1:]:    # one fixed card set aside for u
            for t in range(k, length - 1, -1):
                ways[t] += ways[t - length]
        total += 13 * cycles.count(1) * ways[k] if 1 in cycles else 0
    return total // 24


def dead_engine(release: str | None, quick: bool) -> None:
    """The dead-card engine's figures (module docstring): the per-hand process, then the cost per
    class of each whole-game job and the projection."""
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}, numpy {np.__version__}")
    runs = 3 if quick else 7
    cmd = ["-m", "studodds", "hand", "As Kd Jh 8c 3s", "--up", "7d", "--variant", os.path.abspath(GALEWIND), "--quiet"]
    times: dict[str | None, list[float]] = {None: [], release: []}
    base: dict[str | None, list[float]] = {None: [], release: []}
    for _ in range(runs):
        for build in ((None, release) if release else (None,)):
            base[build].append(timed_run(["-c", "pass"], build)[0])
            times[build].append(timed_run(cmd, build)[0])
    for build, name in ((None, "new"), (release, "release")):
        if times[build]:
            print(f"`studodds hand` with all 32 switch sets ({name}), process start to exit: median "
                  f"{statistics.median(times[build]):.2f} s (min {min(times[build]):.2f}; python -c pass "
                  f"{statistics.median(base[build]):.2f} s), median of {runs}", flush=True)
    per_class = []
    for seed in range(3 if quick else 8):
        r = subprocess.run([sys.executable, "-c", DEAD_CLASS, os.path.abspath(GALEWIND), str(seed)],
                           capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
        per_class.append(tuple(float(x) for x in r.stdout.split()))
    for i, label in enumerate(("a situation's 32 switch sets", "a seen second hand")):
        mean = statistics.mean(c[i] for c in per_class)
        print(f"one class, {label}, one thread: mean {mean:.3f} CPU s over {len(per_class)} sampled classes "
              f"(min {min(c[i] for c in per_class):.3f}, max {max(c[i] for c in per_class):.3f}); "
              f"whole game {CLASSES:,} classes: {CLASSES * mean / 3600:,.0f} core-hours", flush=True)
    total = 0.0
    for k in range(1, 6):                  # the switch game shared by discard class (X, u)
        sweeps = [float(subprocess.run([sys.executable, "-c", DISCARD_CLASS, str(k), str(seed)], capture_output=True,
                                     text=True, check=True, cwd=tempfile.gettempdir()).stdout)
                for seed in range(2 if quick else 4)]
        n = discard_classes(k)
        total += n * statistics.mean(sweeps)
        print(f"discard class of {k} card(s), every final hand of the {51 - k} other cards, one thread: mean "
              f"{statistics.mean(sweeps):.3f} CPU s over {len(sweeps)}; {n:,} classes up to suits: "
              f"{n * statistics.mean(sweeps) / 3600:,.1f} core-hours", flush=True)
    print(f"the switch game by discard classes (k = 5 is the seen second hand's job): {total / 3600:,.0f} core-hours")
    classes = 4 if quick else 12
    r = subprocess.run([sys.executable, "-c", SEEN_DECISIONS, str(classes)], capture_output=True, text=True,
                       check=True, cwd=tempfile.gettempdir())
    share = json.loads(r.stdout)
    hands = sum(v[0] for v in share.values())          # the groups partition the player hands
    print(f"seen second hand, {classes} sampled classes: which player hands fold (the exact counts a "
          f"fold-side sum needs)", flush=True)
    for group, (count, folded) in share.items():
        print(f"  {group}: {count / hands:.2%} of the hands, {folded / max(count, 1):.2%} of them fold")


def design() -> None:
    """Paytable design: the index build, sensitivity, solve, and searches (count table cached)."""
    from enumerate.analysis.threshold_index import threshold_index
    from enumerate.design.grid import Axis
    from enumerate.design.search import search
    from enumerate.design.sensitivity import sensitivity
    from enumerate.design.solve import Target, solve
    from studodds import api
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}, numpy {np.__version__}")
    v = api.load_variant("us-common")
    uk = api.load_variant("uk-casino-stud")
    table = api.count_table(v)
    t = time.perf_counter()
    threshold_index(table, v.ante_no_qualify, v.ante_win)
    print(f"threshold index (once per ante pays and qualifier): {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    sensitivity(table, v)
    print(f"sensitivity of every pay with flip points: {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    r = solve(table, uk, Target.parse("house_edge=3%"), [Axis.parse("full_house=1..50/1/2")])
    print(f"solve: UK full-house pay for a 3% edge (99 candidates + exact pay {float(r.exact_pay.value):.4f}): "
          f"{time.perf_counter() - t:.2f} s")
    high = [Axis.parse(a) for a in ("royal_flush=100..1000/100", "straight_flush=20..110/10", "four_of_a_kind=10..40/3",
                                    "full_house=5..14", "flush=3..12", "straight=2..11", "three_of_a_kind=2..5/1/2")]
    low = [Axis.parse(a) for a in ("one_pair=1/2..2/1/20", "high_card=0..2/1/20", "two_pairs=1..4/1/4",
                                   "three_of_a_kind=2..5/1/2", "straight=3..6/1/2")]
    from enumerate.design.criteria import Bound, Objective
    bounds = (Bound.parse("house_edge=2.5%..3%"), Bound.parse("hit_frequency=0.38.."))
    front = (Objective("house_edge", True), Objective("hit_frequency", True), Objective("standard_deviation", False))
    for label, axes in (("always-raised categories (royal..trips)", high), ("pair, high card, two pairs, trips, straight", low)):
        for threads in (1, 2):
            t = time.perf_counter()
            res = search(table, v, axes, bounds=bounds, objectives=front, threads=threads)
            s = time.perf_counter() - t
            print(f"search, {label}, {threads} thread{'s' if threads > 1 else ''}: {res.candidates:,} candidates in "
                  f"{s:.2f} s = {res.candidates / s:,.0f}/s ({res.feasible:,} feasible, front {len(res.front)})", flush=True)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        return
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster):
        t = time.perf_counter()
        res = search(table, v, high, bounds=bounds, objectives=front, scheduler=cluster.scheduler_address)
        s = time.perf_counter() - t
        print(f"search, always-raised categories, local Dask cluster of 2 workers: {res.candidates:,} in {s:.2f} s "
              f"= {res.candidates / s:,.0f}/s")


def timed(cmd: list[str], runs: int) -> list[float]:
    outside = tempfile.gettempdir()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True, cwd=outside)
        times.append(time.perf_counter() - t)
    return times


def write_paytables(folder: str, n: int) -> None:
    """``n`` distinct paytables sharing the Ace/King qualifier (they differ in their pays)."""
    for i in range(n):
        with open(os.path.join(folder, f"p{i:04d}.toml"), "w") as f:
            f.write(f'name = "p{i:04d}"\nqualifier = "AK"\n[raise_pays]\n'
                    f'royal_flush = {100 + 10 * i}\nstraight_flush = {50 + i % 7}\nfour_of_a_kind = {20 + i % 5}\n'
                    f'full_house = {7 + i % 3}\nflush = {5 + i % 2}\nstraight = 4\nthree_of_a_kind = 3\n'
                    f'two_pairs = 2\none_pair = 1\nhigh_card = "{1 + (i % 4)}/2"\n')


def batch_of(n: int) -> float:
    """Seconds for `studodds batch` of n paytables with the counts already cached."""
    return load_run(n)[0]


if __name__ == "__main__":
    main()
