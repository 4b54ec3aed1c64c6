"""The command line as a user runs it: exit codes, one-line errors, exact JSON, pipes, version.

Most cases run in-process through ``studodds.cli.main(argv)``; the smoke tests at the end run
real processes (``python -m studodds``, the console script, a closed pipe)."""
import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

import pytest
from cli_runner import run_cli, run_process

OUTSIDE = tempfile.mkdtemp(prefix="studodds-cwd-")   # not the source tree: use the installed build


def run(*args):
    return run_cli(*args, cwd=OUTSIDE)


@pytest.fixture(scope="module", autouse=True)
def warm(us_counts):
    """The session cache already holds the Ace/King counts."""


def test_analyze_default_prints_the_return_table():
    r = run("analyze", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "1,041,372,912,372" in r.stdout
    assert "player wins with royal flush" in r.stdout
    assert "House edge (per ante)       5.2243" in r.stdout
    assert r.stderr == ""


def test_analyze_json_is_exact():
    r = run("analyze", "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["kind"] == "analysis"
    assert data["total_loss_antes"]["exact"] == "1041372912372"
    assert data["total_combinations"] == 19_933_230_517_200
    rows = data["return_table"]
    assert sum(row["combinations"] for row in rows) == 19_933_230_517_200
    assert sum(Fraction(row["return_per_ante"]["exact"]) for row in rows) == -Fraction(1041372912372, 19933230517200)
    assert Fraction(data["house_edge_per_ante"]["exact"]) == Fraction(1041372912372, 19933230517200)
    assert data["variant"]["raise_pays"]["full_house"]["exact"] == "7"       # the TOML's key


@pytest.mark.parametrize("args,needle", [
    (["analyze", "no-such-variant"], "unknown variant 'no-such-variant'"),
    (["analyze", "--threads", "0"], "--threads: must be from 1 to 256, got 0"),
])
def test_bad_input_one_line_exit_2(args, needle):
    r = run(*args)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and needle in r.stderr
    assert "Traceback" not in r.stderr


def test_usage_errors_exit_2():
    assert run().returncode == 2
    r = run("analyze", "--threads", "x")
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_an_internal_error_says_so_and_shows_the_traceback_on_request(monkeypatch):
    """Only StudoddsError is the user's fault; a bug is exit 3 with a pointer to --debug."""
    import enumerate.game.plain
    def broken(*a, **k):
        raise ValueError("an invariant broke")
    monkeypatch.setattr(enumerate.game.plain, "analyze", broken)
    r = run("analyze", "--quiet")
    assert r.returncode == 3
    assert r.stderr.count("\n") == 1
    assert "internal error: ValueError: an invariant broke" in r.stderr and "--debug" in r.stderr
    r = run("--debug", "analyze", "--quiet")
    assert r.returncode == 3 and "Traceback" in r.stderr
    monkeypatch.setenv("STUDODDS_DEBUG", "1")
    r = run("analyze", "--quiet")
    assert r.returncode == 3 and "Traceback" in r.stderr


def test_threads_reach_every_parallel_step(monkeypatch):
    """--threads is what counting and aggregation are given."""
    from enumerate.analysis import _aggregate
    from studodds import api
    api.clear_memory()                 # a fresh table: nothing this process has aggregated before
    seen = []
    real = _aggregate.aggregate_all
    def spy(*args):
        seen.append(args[-2])                      # n_threads
        return real(*args)
    monkeypatch.setattr(_aggregate, "aggregate_all", spy)
    assert run("analyze", "--threads", "1", "--quiet").returncode == 0
    assert seen and set(seen) == {1}


def test_default_threads_follow_the_cpu_affinity(monkeypatch):
    from enumerate.core import parallel
    monkeypatch.delenv("STUDODDS_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0})
    assert parallel.default_threads() == 1
    assert parallel.resolve_threads() == 1
    assert parallel.resolve_threads(3) == 3


# ------------------------------------------------------------------ real processes (smoke tests)

def test_module_and_version():
    r = run_process("--version", cwd=OUTSIDE)
    assert r.returncode == 0 and r.stdout.startswith("studodds ") and "engine" in r.stdout


def test_openmp_was_compiled_in_on_linux():
    """CI builds with OpenMP on Linux; a silent serial fallback would make this fail."""
    import studodds
    if sys.platform.startswith("linux"):
        assert studodds.openmp_enabled()
    assert ("OpenMP on" in run_process("--version", cwd=OUTSIDE).stdout) == studodds.openmp_enabled()


def test_closed_pipe_ends_quietly():
    """`studodds analyze | head -1` prints one line and no error."""
    cmd = f'"{sys.executable}" -m studodds analyze --quiet | head -1'
    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, cwd=OUTSIDE)
    assert r.stdout.count("\n") == 1 and r.stdout.startswith("Variant: us-common")
    assert r.stderr == "", r.stderr
    assert r.returncode == 0


def test_console_script_and_module_agree():
    exe = os.path.join(os.path.dirname(sys.executable), "studodds")
    assert os.path.exists(exe), "pip install must put the studodds console script next to the interpreter"
    a = subprocess.run([exe, "analyze", "--json", "--quiet"], capture_output=True, text=True, cwd=OUTSIDE)
    b = run_process("analyze", "--json", "--quiet", cwd=OUTSIDE)
    assert a.returncode == 0 and a.stdout == b.stdout
    assert json.loads(a.stdout) == json.loads(run("analyze", "--json", "--quiet").stdout)


def test_options_and_positionals_mix_in_any_order(us_counts):
    """argparse's intermixed parsing: a positional after an option is read as a positional."""
    a = run_cli("hand", "As Kd Jh 8c 3s", "--up", "7d", "royal-200", "--quiet", "--json")
    b = run_cli("hand", "--quiet", "As Kd Jh 8c 3s", "royal-200", "--up", "7d", "--json")
    assert a.returncode == 0 and a.stdout == b.stdout, a.stderr + b.stderr
    assert json.loads(a.stdout)["variant"] == "royal-200"
    c = run_cli("diff", "--quiet", "us-common", "--json", "royal-200")
    assert c.returncode == 0 and json.loads(c.stdout)["kind"] == "diff"
