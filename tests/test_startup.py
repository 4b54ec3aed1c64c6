"""The warm start stays light: what ``studodds analyze`` and ``studodds hand`` load, and the
evaluator's fingerprint remembered per build (speed itself is measured in benchmarks/)."""
import json
import subprocess
import sys
import tempfile

import pytest
from cli_runner import run_cli

from enumerate.core import counts
from evaluator.ranking import ordering_fingerprint

PROBE = """
import json, sys
from studodds.cli import main
code = main(sys.argv[1:])
from evaluator import _eval
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("enumerate", "studodds", "evaluator", "numpy"))
print(json.dumps({"code": code, "strength_table": _eval._STRENGTH_BY_INDEX is not None, "modules": loaded}),
      file=sys.stderr)
"""

#: Modules a warm analyze or hand has no use for.
NOT_AT_START = ("enumerate.design", "enumerate.protection", "enumerate.progressive.figures", "studodds.certify",
                "studodds.reports.design", "studodds.reports.markdown", "enumerate.analysis.ev_table",
                "enumerate.analysis.distribution", "numpy.ma",
                # the draws' kind (a few lines: every table's kind is known) loads, its engine does not
                "enumerate.draws.game", "enumerate.draws.hand", "enumerate.draws.sample", "enumerate.draws.strata",
                "enumerate.draws._game", "enumerate.draws._hand")


def _probe(*args: str) -> dict:
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                       cwd=tempfile.mkdtemp(), timeout=300)
    return json.loads(r.stderr.strip().splitlines()[-1])


def test_a_warm_analyze_loads_only_what_it_uses(us_counts):
    for args in (("analyze", "--quiet"), ("hand", "As Kd Jh 8c 3s", "--up", "7d", "--quiet")):
        assert _probe(*args)["code"] == 0          # warms this session's cache for the probe's build
        seen = _probe(*args)
        assert seen["code"] == 0
        assert not seen["strength_table"], "the 2,598,960-hand strength table was made"
        heavy = [m for m in seen["modules"] if any(m == x or m.startswith(x + ".") for x in NOT_AT_START)]
        assert not heavy, heavy


def _memo_then_analyze(text: str) -> None:
    """Write ``text`` as the remembered fingerprint, then analyze: the figures are the same."""
    counts.evaluator_fingerprint.cache_clear()
    memo = counts.cache.cache_dir() / f"evaluator-{_memo_key()}.txt"
    old = memo.read_text() if memo.exists() else None
    try:
        memo.write_text(text)
        counts.evaluator_fingerprint.cache_clear()
        r = run_cli("analyze", "--json", "--quiet")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["total_loss_antes"]["exact"] == "1041372912372"
    finally:
        if old is None:
            memo.unlink(missing_ok=True)
        else:
            memo.write_text(old)
        counts.evaluator_fingerprint.cache_clear()


def _memo_key() -> str:
    """This build's memo file, after a call wrote it (every earlier build left one of its own)."""
    counts.evaluator_fingerprint.cache_clear()
    counts.evaluator_fingerprint()
    memo = counts.fingerprint_memo()
    assert memo is not None and memo.read_text().strip() == ordering_fingerprint()
    return memo.stem.removeprefix("evaluator-")


def test_the_evaluator_fingerprint_is_remembered_per_build(us_counts, own_cache):
    assert counts.evaluator_fingerprint() == ordering_fingerprint()
    _memo_then_analyze("not a fingerprint\n")                # damaged: recomputed, same cache


@pytest.mark.slow
def test_a_wrong_remembered_fingerprint_only_misses_the_cache(us_counts, own_cache):
    """A well-formed but wrong memo names another cache file: the counts are made afresh from
    the evaluator itself, never read from a table of another ordering."""
    from studodds import api
    api.clear_memory()
    try:
        _memo_then_analyze("0" * 64 + "\n")
    finally:
        api.clear_memory()
        for stray in counts.cache.cache_dir().glob("counts-*-000000000000.bin"):
            stray.unlink()
