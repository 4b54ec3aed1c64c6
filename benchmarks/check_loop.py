"""The lab's loop: how soon ``studodds check`` names a paytable change, and what a whole check costs.

Two figures (docs/speed.md):

* the time to the first line of ``studodds check DIR`` for every committed table copied with
  one pay changed (its first raise pay raised by one): the cause must come before any counting;
* ``studodds check results/`` from an empty cache with the default options (every whole game
  verified from its kept sums), process start to exit.

Run from the project root after ``pip install .``:

    python benchmarks/check_loop.py            # both
    python benchmarks/check_loop.py --first    # only the times to the first line
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def first_line_seconds(table: Path, cache: Path) -> tuple[float, str, int]:
    """(seconds to the first line, that line, exit code) of ``check`` on a copy of ``table``
    with its first raise pay raised by one."""
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / table.name
        shutil.copytree(table, copy)
        toml = copy / "variant.toml"
        text = toml.read_text()
        section = text.index("[raise_pays]")
        m = re.compile(r"^(\w+) = (\d+)$", re.M).search(text, section)
        assert m is not None, table
        toml.write_text(text[:m.start()] + f"{m.group(1)} = {int(m.group(2)) + 1}" + text[m.end():])
        env = {**os.environ, "STUDODDS_CACHE_DIR": str(cache)}
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "studodds", "check", str(copy)], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=env)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        seconds = time.perf_counter() - start
        proc.stdout.read()
        return seconds, line.strip(), proc.wait()


def whole_check_seconds(cache: Path) -> tuple[float, int, str]:
    """(seconds, exit code, last line) of ``check results/`` on an empty cache, default options."""
    env = {**os.environ, "STUDODDS_CACHE_DIR": str(cache)}
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "studodds", "check", str(ROOT / "results")], capture_output=True,
                       text=True, env=env)
    return time.perf_counter() - start, r.returncode, (r.stdout.strip().splitlines() or [""])[-1]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", action="store_true", help="only the times to the first line")
    return parser


def main() -> None:
    args = build_parser().parse_args()
    with tempfile.TemporaryDirectory() as cache_dir:
        cache = Path(cache_dir)
        print(f"{'table':<28} {'first line':>10}  exit  line")
        for table in sorted(p.parent for p in (ROOT / "results").glob("*/summary.json")):
            seconds, line, code = first_line_seconds(table, cache)
            print(f"{table.name:<28} {seconds:>9.2f}s  {code:>4}  {line[:110]}")
    if not args.first:
        with tempfile.TemporaryDirectory() as cache_dir:
            seconds, code, last = whole_check_seconds(Path(cache_dir))
            print(f"\ncheck results/ from an empty cache: {seconds:.1f} s, exit {code}: {last}")


if __name__ == "__main__":
    main()
