"""A Ctrl-C stops the job wherever it lands, even inside a user's code or a browser printing the
PDF: exit 130, "studodds: interrupted", nothing half-written, no temporary left.  A user's code
that raises KeyboardInterrupt by itself is still that code's failure (exit 2, naming it).

The signal is sent at a known point -- by the user's code or the stand-in browser, to the very
process -- so each case is hit every time, not by a race."""
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from cli_runner import hears_sigint

import studodds
from enumerate.analysis.strategies import strategy_mask
from enumerate.core import interrupts
from evaluator.errors import StudoddsError

SIGNAL_ITSELF = "import os, signal, time\nos.kill(os.getpid(), signal.SIGINT)\ntime.sleep(30)\n"


def run(args, cwd, env=None):
    """``python -m studodds ARGS`` hearing SIGINT as from a terminal."""
    p = subprocess.run([sys.executable, "-m", "studodds", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, env=env, timeout=300, stdin=subprocess.DEVNULL, preexec_fn=hears_sigint)
    return p.returncode, p.stderr


@pytest.mark.parametrize("body", [SIGNAL_ITSELF, f"exec({SIGNAL_ITSELF!r})\n"], ids=["code", "code run from a string"])
def test_a_ctrl_c_while_a_user_strategy_runs_stops_the_command(tmp_path, body):
    (tmp_path / "mine.py").write_text("def f(hands, up):\n" + textwrap.indent(body, "    "))
    code, err = run(["simulate", "--games", "1000", "--strategy", "mine.py:f"], tmp_path)
    assert code == 130 and err.strip().splitlines()[-1] == "studodds: interrupted", err


def test_a_ctrl_c_while_a_user_module_is_imported_stops_the_command(tmp_path):
    (tmp_path / "slow.py").write_text(SIGNAL_ITSELF + "def f(hands, up):\n    return None\n")
    code, err = run(["simulate", "--games", "1000", "--strategy", "slow.py:f"], tmp_path)
    assert code == 130 and err.strip().splitlines()[-1] == "studodds: interrupted", err


SWALLOWS = """import os, signal, time
import numpy as np
def f(hands, up):
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(30)
    except BaseException:
        {what}
    return np.zeros(up.shape, dtype=bool)
"""


@pytest.mark.parametrize("what", ["pass", "raise RuntimeError('cut short')"], ids=["swallowed", "wrapped"])
def test_a_ctrl_c_that_user_code_swallows_or_wraps_still_stops_the_command(tmp_path, what):
    """Code that catches the KeyboardInterrupt -- and goes on, or raises another error -- as
    compiled code may: the signal was received, so the command stops as interrupted."""
    (tmp_path / "mine.py").write_text(SWALLOWS.format(what=what))
    out = tmp_path / "out"
    code, err = run(["simulate", "--games", "1000", "--strategy", "mine.py:f"], tmp_path)
    assert code == 130 and err.strip().splitlines()[-1] == "studodds: interrupted", err
    assert not out.exists()


@pytest.mark.parametrize("body", ["raise KeyboardInterrupt", "exec('raise KeyboardInterrupt')"],
                         ids=["code", "code run from a string"])
def test_a_strategy_raising_keyboardinterrupt_itself_is_its_own_failure(tmp_path, body):
    """(From code run from a string, CPython 3.11 would kill the process with SIGINT at exit,
    exit code -2, unless told the exception was handled.)"""
    (tmp_path / "mine.py").write_text(f"def f(hands, up):\n    {body}\n")
    code, err = run(["simulate", "--games", "1000", "--strategy", "mine.py:f"], tmp_path)
    assert code == 2 and err.strip() == "studodds: error: strategy f raised KeyboardInterrupt", err


@pytest.fixture
def default_sigint():
    """Python's own SIGINT handler, as in an interactive session (a test runner started in the
    background ignores SIGINT)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_in_python_a_ctrl_c_inside_a_strategy_is_a_keyboardinterrupt(us_counts, default_sigint):
    def interrupted(hands, up):
        os.kill(os.getpid(), signal.SIGINT)
        import time
        time.sleep(30)

    def raises(hands, up):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as caught:
        strategy_mask(us_counts, interrupted, "interrupted")
    assert isinstance(caught.value, interrupts.Interrupted)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler      # put back
    with pytest.raises(StudoddsError, match="strategy raises raised KeyboardInterrupt"):
        strategy_mask(us_counts, raises, "raises")

    def swallows(hands, up):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            import time
            time.sleep(30)
        except KeyboardInterrupt:
            pass
        return np.zeros(up.shape, dtype=bool)

    with pytest.raises(interrupts.Interrupted):
        strategy_mask(us_counts, swallows, "swallows")
    assert np.array_equal(strategy_mask(us_counts, lambda hands, up: np.zeros(up.shape, dtype=bool), "calm"),
                          np.zeros(us_counts.up.shape, dtype=np.uint8))          # nothing left over


def test_in_python_a_ctrl_c_inside_a_collusion_strategy_is_a_keyboardinterrupt(default_sigint):
    def interrupted(hand, up, seen):
        os.kill(os.getpid(), signal.SIGINT)
        import time
        time.sleep(30)

    with pytest.raises(KeyboardInterrupt):
        studodds.collusion("us-common", samples=64, strategy=interrupted, threads=1)


def test_marking_is_left_alone_off_the_main_thread_and_where_sigint_is_ignored():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with interrupts.signals_marked():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    import threading
    seen = []
    t = threading.Thread(target=lambda: seen.append(interrupts.signals_marked().__enter__() is None))
    t.start()
    t.join()
    assert seen == [True]


BROWSER = """#!/bin/sh
# stands in for Chromium: a helper that goes on writing into the profile after its parent
# is killed (as Chromium's do), then a Ctrl-C to studodds while the page is being printed
for a in "$@"; do case "$a" in --user-data-dir=*) profile="${a#--user-data-dir=}";; esac; done
mkdir -p "$profile/Default"
( while true; do echo x > "$profile/Default/f$(date +%N)"; sleep 0.01; done ) >/dev/null 2>&1 &
echo $! > "$HELPER_PID"
sleep 0.3
kill -INT $PPID
sleep 30
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return "\nState:\tZ" not in f.read()
    except FileNotFoundError:
        return False


def test_a_ctrl_c_while_the_browser_prints_the_pdf_leaves_nothing_behind(tmp_path, us_counts):
    browser, temp, out = tmp_path / "chromium", tmp_path / "tmp", tmp_path / "out"
    browser.write_text(BROWSER)
    browser.chmod(0o755)
    temp.mkdir()
    env = {**os.environ, "STUDODDS_CHROMIUM": str(browser), "TMPDIR": str(temp),
           "HELPER_PID": str(tmp_path / "helper.pid")}
    try:
        code, err = run(["batch", "us-common", "--formats", "pdf", "--out", out, "--quiet"], tmp_path, env)
        assert code == 130 and err.strip().splitlines()[-1] == "studodds: interrupted", err
        assert not _alive(int((tmp_path / "helper.pid").read_text())), "the browser's helper outlived the command"
    finally:
        _stop(tmp_path / "helper.pid")
    assert list(temp.iterdir()) == [], "a temporary folder was left behind"
    assert not out.exists(), "an interrupted batch wrote a table"


def test_the_browser_is_waited_for_and_its_helpers_stopped_on_success(tmp_path, monkeypatch):
    from studodds.reports import pdf
    helper_pid = tmp_path / "helper.pid"
    script = tmp_path / "chromium"
    script.write_text("#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in --print-to-pdf=*) out=\"${a#--print-to-pdf=}\";; "
                      "esac; done\n( sleep 600 ) >/dev/null 2>&1 &\necho $! > " + str(helper_pid) + "\nprintf '%%PDF-1.4' > \"$out\"\n")
    script.chmod(0o755)
    monkeypatch.setenv("STUDODDS_CHROMIUM", str(script))
    try:
        assert pdf.html_to_pdf("<html><head></head><body>x</body></html>") == b"%PDF-1.4"
        assert not _alive(int(helper_pid.read_text())), "the browser's helper process outlived the PDF"
    finally:
        _stop(helper_pid)


def _stop(pid_file):
    """Kill a stand-in's helper that a failing run left behind (a test's own clean-up)."""
    try:
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
    except (OSError, ValueError):
        pass


class _SignalDuringImport:
    """An import hook: a signal to this process (SIGINT, a Ctrl-C, unless named) while
    ``studodds.cli`` is being imported, which the import then lets through, swallows (as
    Cython's generated module code does: ``try: Sequence.register(...) except: pass``) or turns
    into an ImportError (as numpy does with an import it had cut short)."""

    def __init__(self, how, sig=signal.SIGINT):
        self.how, self.sig = how, sig

    def find_spec(self, name, path=None, target=None):
        if name != "studodds.cli":
            return None
        import time
        try:
            os.kill(os.getpid(), self.sig)
            time.sleep(30)
        except BaseException:
            if self.how == "lets through":
                raise
            if self.how == "turns into an ImportError":
                raise ImportError("the import was cut short") from None
        return None


@pytest.mark.parametrize("how,sig,line,code", [
    ("lets through", signal.SIGINT, "interrupted", 130),
    ("swallows", signal.SIGINT, "interrupted", 130),
    ("turns into an ImportError", signal.SIGINT, "interrupted", 130),
    ("lets through", signal.SIGTERM, "terminated", 143),
    ("swallows", signal.SIGTERM, "terminated", 143),
], ids=lambda x: getattr(x, "name", str(x)))
def test_a_signal_while_the_command_line_is_imported_is_one_line(monkeypatch, capsys, how, sig, line, code):
    """The entry point puts the handlers in place and then imports the command line, so a Ctrl-C
    (or SIGTERM) in those first tenths of a second is reported as any other, whatever the import
    did with it."""
    import sys

    from studodds.__main__ import run

    monkeypatch.delitem(sys.modules, "studodds.cli", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_SignalDuringImport(how, sig), *sys.meta_path])
    previous = signal.signal(signal.SIGINT, signal.default_int_handler), signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        assert run() == code
        assert signal.getsignal(signal.SIGINT) is interrupts.raise_interrupted     # in place before the import
    finally:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])
        interrupts.forget()
    assert capsys.readouterr().err == f"studodds: {line}\n"


def test_an_interrupted_run_in_process_leaves_no_record_for_the_next(tmp_path, default_sigint):
    """``main`` may be called again in the same process: the signal recorded in one run must not
    stop the next one's kernels or files."""
    from cli_runner import run_cli
    (tmp_path / "mine.py").write_text("def f(hands, up):\n" + textwrap.indent(SIGNAL_ITSELF, "    "))
    r = run_cli("simulate", "--games", "1000", "--strategy", "mine.py:f", cwd=tmp_path)
    assert r.returncode == 130 and r.stderr == "studodds: interrupted\n"
    try:
        interrupts.raise_if_received()                   # nothing pending
    except BaseException as exc:                         # (not left to stop pytest itself)
        interrupts.forget()
        pytest.fail(f"the interrupted run left its signal recorded: {type(exc).__name__}")
    assert run_cli("analyze", "us-common", "--json", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("sig,line,code", [(signal.SIGINT, "interrupted", 130), (signal.SIGTERM, "terminated", 143)],
                         ids=["SIGINT", "SIGTERM"])
def test_a_signal_before_the_entry_point_runs_is_one_line(sig, line, code, tmp_path):
    """A signal that lands after the entry point's module is imported but before ``run`` (while
    the package is imported) is recorded by the first handlers and reported by ``run`` as the
    interruption: one line, exit 130 / 143, no traceback.  (The script is named ``studodds``,
    as the installed one is.)"""
    script = ("import os, signal, sys\n"
              "sys.argv[0] = 'studodds'\n"
              "import studodds.__main__ as entry\n"
              f"os.kill(os.getpid(), {int(sig)})\n"
              "sys.argv[1:] = ['--version']\n"
              "sys.exit(entry.run())\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                       preexec_fn=hears_sigint, stdin=subprocess.DEVNULL, cwd=tmp_path)   # the installed package
    assert (r.returncode, r.stderr, r.stdout) == (code, f"studodds: {line}\n", "")


def test_importing_the_entry_point_leaves_a_program_s_handlers_alone(tmp_path):
    script = ("import signal, sys\n"
              "import studodds.__main__\n"
              "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, "
              "signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                       preexec_fn=hears_sigint, stdin=subprocess.DEVNULL, cwd=tmp_path)   # the installed package
    assert r.stdout.strip() == "True True", r.stderr
