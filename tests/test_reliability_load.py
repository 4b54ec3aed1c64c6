"""Load: a batch of many generated paytable variants completes with correct results (the
README records a 1,000-variant run from benchmarks/bench.py --load)."""
import json
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from enumerate.analysis.base import analyze
from enumerate.rules.variant_file import load_variant_file

pytestmark = pytest.mark.slow

N = 60


def write_variants(folder: Path, n: int, seed: int = 3):
    rng = np.random.default_rng(seed)
    for i in range(n):
        pays = [int(rng.integers(100, 1000)), int(rng.integers(20, 200)), int(rng.integers(5, 60)),
                int(rng.integers(3, 15)), int(rng.integers(2, 10)), int(rng.integers(2, 6)), int(rng.integers(1, 4)),
                int(rng.integers(1, 3)), 1]
        ak = f'"{int(rng.integers(1, 7))}/{int(rng.integers(2, 5))}"'
        (folder / f"v{i:04d}.toml").write_text(
            f'name = "v{i:04d}"\n[raise_pays]\nroyal_flush = {pays[0]}\nstraight_flush = {pays[1]}\n'
            f'four_of_a_kind = {pays[2]}\nfull_house = {pays[3]}\nflush = {pays[4]}\nstraight = {pays[5]}\n'
            f'three_of_a_kind = {pays[6]}\ntwo_pairs = {pays[7]}\none_pair = {pays[8]}\nhigh_card = {ak}\n')


def test_batch_of_generated_variants_is_correct(us_counts, tmp_path):
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    write_variants(src, N)
    r = subprocess.run([sys.executable, "-m", "studodds", "batch", str(src), "--out", str(out), "--quiet"],
                       capture_output=True, text=True, cwd=tempfile.mkdtemp(), timeout=900)
    assert r.returncode == 0, r.stderr
    folders = sorted(p for p in out.iterdir() if p.is_dir())
    assert len(folders) == N
    for i, folder in enumerate(folders):
        data = json.loads((folder / "summary.json").read_text())["analysis"]
        assert sum(row["combinations"] for row in data["return_table"]) == 19_933_230_517_200
        if i % 10 == 0:                  # recompute by the one-pass kernel (batch used the index)
            v = load_variant_file(src / f"{folder.name}.toml").variant
            assert Fraction(data["total_loss_antes"]["exact"]) == analyze(us_counts, v).total_loss
