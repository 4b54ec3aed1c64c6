"""The command line as a user runs it: exit codes, one-line errors, exact JSON."""
import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

import pytest


OUTSIDE = tempfile.mkdtemp(prefix="studodds-cwd-")   # not the source tree: use the installed build


def run(*args, env_extra=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "enumerate", *args], capture_output=True,
                          text=True, env=env, timeout=300, cwd=OUTSIDE)


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
    assert data["total_loss_antes"]["exact"] == "1041372912372"
    assert data["total_combinations"] == 19_933_230_517_200
    rows = data["return_table"]
    assert sum(row["combinations"] for row in rows) == 19_933_230_517_200
    assert sum(Fraction(row["return"]["exact"]) for row in rows) == -Fraction(1041372912372, 19933230517200)
    assert Fraction(data["house_edge_per_ante"]["exact"]) == Fraction(1041372912372, 19933230517200)


@pytest.mark.parametrize("args,needle", [
    (["analyze", "no-such-variant"], "unknown variant 'no-such-variant'"),
    (["analyze", "--threads", "0"], "--threads must be at least 1"),
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


def test_console_script_and_module_agree():
    exe = os.path.join(os.path.dirname(sys.executable), "studodds")
    if not os.path.exists(exe):
        pytest.skip("console script not installed next to this interpreter")
    a = subprocess.run([exe, "analyze", "--json", "--quiet"], capture_output=True, text=True, cwd=OUTSIDE)
    b = run("analyze", "--json", "--quiet")
    assert a.returncode == 0 and a.stdout == b.stdout
