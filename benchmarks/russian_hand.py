"""The time of one hand of Russian Poker (enumerate/russian/): `studodds hand` from process start to
exit, on a table without the draws (all 47 up cards) and on Lunar Poker and classic Russian rules
with the draws (one up card: every action, 2,349,060 draws of a full schedule; then all 47 up
cards), and the bought-game kernel's time per final hand (enumerate/russian/bought.py) on random
final hands.  Each table's first hand runs on an empty cache folder (its classes of final hand
made and kept), the others read them back.

    python benchmarks/russian_hand.py --threads 2
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

US = Path(__file__).resolve().parents[1] / "enumerate" / "rules" / "variants" / "us-common.toml"
TABLES = {
    "lunar, no draws": "[ante_pays]\nplayer_wins = 0\n[two_combinations]\n[insurance]\n[buy_game]\n",
    "lunar house": "[ante_pays]\nplayer_wins = 0\n[switch]\nfees = { 2 = 1, 3 = 1, 4 = 1, 5 = 1 }\n[buy_card]\n"
                   "fee = 1\n[two_combinations]\n[insurance]\n[buy_game]\n",
    "classic russian": "[switch]\nfees = { 1 = 1, 2 = 1, 3 = 1, 4 = 1, 5 = 1 }\n[buy_card]\nfee = 1\n"
                       "[two_combinations]\n[insurance]\n[buy_game]\n",
}
HANDS = ["Qc Qd 9h Ac Kd", "Jh Th 9h 8c 2s", "As Qd 9h 7c 3d"]


def table(folder: Path, name: str) -> Path:
    path = folder / (name.replace(" ", "-").replace(",", "") + ".toml")
    base = US.read_text().split("[ante_pays]")[0].replace('name = "us-common"', f'name = "{path.stem}"')
    path.write_text(base + TABLES[name])
    return path


def wall(*args: str, threads: int, cache: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "studodds", *args, "--threads", str(threads), "--quiet"], check=True,
                   stdout=subprocess.DEVNULL,
                   env={**os.environ, "STUDODDS_THREADS": str(threads), "STUDODDS_CACHE_DIR": str(cache)})
    return time.perf_counter() - start


def kernel(threads: int, n: int = 200_000) -> float:
    """Seconds per final hand of the bought-game kernel, random five-card final hands, one up card."""
    from enumerate.rules.variant_file import parse_variant_text
    from enumerate.russian.bought import purchases
    from enumerate.russian.settle import RussianSettlement, best_strength
    v = parse_variant_text(US.read_text().split("[ante_pays]")[0] + TABLES["classic russian"], "bench.toml")
    s = RussianSettlement.of(v)
    rng = random.Random(1)
    up = 23
    finals = [rng.sample([c for c in range(52) if c != up], 5) for _ in range(n)]
    players = np.array([best_strength(f) for f in finals])
    found: dict = {}
    which = np.array([found.setdefault(s.hand_pay(f), len(found)) for f in finals])
    pays = list(found)
    unseen = np.array([sum(1 << c for c in range(52) if c not in f and c != up) for f in finals], dtype=np.uint64)
    start = time.perf_counter()
    purchases(s, v.qualifier.threshold, players, pays, which, unseen, up, threads=threads)
    return (time.perf_counter() - start) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache = folder / "cache"
        path = table(folder, "lunar, no draws")
        seconds = wall("hand", HANDS[0], str(path), threads=args.threads, cache=cache)
        print(f"lunar, no draws, {HANDS[0]}, all 47 up cards: {seconds:.2f} s")
        for name in ("lunar house", "classic russian"):
            path = table(folder, name)
            for i, hand in enumerate(HANDS):
                seconds = wall("hand", hand, str(path), "--up", "7s", threads=args.threads, cache=cache)
                print(f"{name}, {hand}, up 7s, every action: {seconds:.2f} s{' (cold cache)' if i == 0 else ''}",
                      flush=True)
            seconds = wall("hand", HANDS[0], str(path), threads=args.threads, cache=cache)
            print(f"{name}, {HANDS[0]}, all 47 up cards, every action: {seconds:.2f} s", flush=True)
    print(f"bought-game kernel: {kernel(args.threads) * 1e6:.2f} us a final hand (random five-card hands, "
          f"{args.threads} threads)")


if __name__ == "__main__":
    main()
