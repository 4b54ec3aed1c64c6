"""Hostile input to the newer surfaces (threads, simulate's user strategies, draws tables and
their checkpoints and caches, the API given the wrong types): each is refused in one line,
exit 2, nothing written -- or, through the API, a ParameterError naming the parameter."""
import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import run_cli
from test_reliability_hostile import refused

import studodds
from evaluator.errors import ParameterError, StudoddsError

ROOT = Path(__file__).resolve().parents[1]
ONLINE = (ROOT / "docs" / "variants" / "oasis-online.toml").read_text()
US = (ROOT / "enumerate" / "rules" / "variants" / "us-common.toml").read_text()
SIDE = (ROOT / "enumerate" / "rules" / "variants" / "palms-managua.toml").read_text()


# --- threads: bounded up front, never a crash of the thread library --------------------------

@pytest.mark.parametrize("value", ["1000000", "1e30", "1000", "257", "0", "-1", "two", "99999999999999999999"])
@pytest.mark.parametrize("command", [("simulate", "--games", "1000"), ("draws-sample", "oasis-one-card"),
                                     ("hand", "As Kd Jh 8c 3s", "--up", "7d")], ids=lambda c: c[0])
def test_a_thread_count_out_of_range_is_refused(tmp_path, command, value):
    refused(tmp_path, *command, "--threads", value, needle="--threads")


def test_the_api_refuses_threads_of_the_wrong_type_or_size():
    for bad in ("2", 2.0, True, 0, 10**6):
        with pytest.raises(ParameterError, match="threads") as e:
            studodds.hand("As Kd Jh 8c 3s", up="7d", threads=bad)
        assert f"got {bad!r}" in str(e.value) or f"got {bad}" in str(e.value)
    with pytest.raises(ParameterError, match="a whole number from 1 to 256, got '2'"):
        studodds.hand("As Kd Jh 8c 3s", up="7d", threads="2")      # text is named as text, not as the number 2


def test_a_thread_environment_variable_out_of_range_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDODDS_THREADS", "1000000")
    refused(tmp_path, "simulate", "--games", "1000", needle="STUDODDS_THREADS")


# --- simulate: a user strategy is input -------------------------------------------------------

STRATEGIES = {
    "raises": "def f(hands, up):\n    raise ZeroDivisionError('boom')\n",
    "strings": "def f(hands, up):\n    return 'raise'\n",
    "arity": "def f(hands):\n    return True\n",
    "exits": "import sys\ndef f(hands, up):\n    sys.exit(0)\n",
    "interrupts": "def f(hands, up):\n    raise KeyboardInterrupt\n",
    "twos": "import numpy as np\ndef f(hands, up):\n    return np.full(up.shape, 2)\n",
    "floats": "import numpy as np\ndef f(hands, up):\n    return np.full(up.shape, 0.5)\n",
    "shape": "import numpy as np\ndef f(hands, up):\n    return np.ones(3, dtype=bool)\n",
}


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_a_bad_simulate_strategy_is_bad_input(tmp_path, us_counts, name):
    module = tmp_path / f"simstrat_{name}.py"
    module.write_text(STRATEGIES[name])
    refused(tmp_path, "simulate", "--games", "1000", "--strategy", f"{module}:f", needle="strategy")


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_a_bad_strategy_through_the_api_is_a_studodds_error(tmp_path, us_counts, name):
    namespace: dict = {}
    exec(STRATEGIES[name], namespace)
    with pytest.raises(StudoddsError, match="strategy"):
        studodds.simulate("us-common", games=1000, strategy=namespace["f"])
    with pytest.raises(StudoddsError, match="strateg"):
        studodds.strategies("us-common", extra={"mine": namespace["f"]})


def test_strategies_refuses_extra_that_is_not_a_mapping_of_functions(us_counts):
    for extra in (5, {"a": 5}, {3: lambda h, u: h}, ["f"]):
        with pytest.raises(ParameterError, match="extra"):
            studodds.strategies("us-common", extra=extra)


# --- variant files with draws -------------------------------------------------------------------

@pytest.mark.parametrize("fees", ['{"1" = 1, " 1" = 3}', '{"1" = 1, "01" = 3}', '{"²" = 1}', '{"1.0" = 1}',
                                  '{"6" = 1}', '{"" = 1}'])
def test_switch_fees_name_each_count_once_and_plainly(tmp_path, fees):
    path = tmp_path / "v.toml"
    path.write_text(ONLINE.replace("fees = { 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5 }", f"fees = {fees}"))
    refused(tmp_path, "analyze", str(path), needle="switch.fees")


def test_a_table_with_draws_and_a_side_bet_is_refused_by_hand_too(tmp_path):
    path = tmp_path / "v.toml"
    one_card = ONLINE.replace("fees = { 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5 }", "fees = { 1 = 1 }")
    path.write_text(one_card + "\n" + SIDE[SIDE.index("[side_bets"):])
    for command in (("analyze", str(path)), ("hand", "As Kd Jh 8c 3s", "--up", "7d", str(path))):
        refused(tmp_path, *command, needle="side bets and a progressive are not analysed with draws")


def test_batch_refuses_a_simulation_it_would_not_run(tmp_path):
    refused(tmp_path, "batch", "oasis-one-card", "--simulate", "1e5", "--out", str(tmp_path / "t"), needle="--simulate")


# --- the API given the wrong types ---------------------------------------------------------------

@pytest.mark.parametrize("call,parameter", [
    (lambda: studodds.hand(12345), "cards"),
    (lambda: studodds.hand(None), "cards"),
    (lambda: studodds.hand([0.5, 1, 2, 3, 4]), "cards"),
    (lambda: studodds.hand([0, 1, 2, 3]), "cards"),
    (lambda: studodds.hand([0, 1, 2, 3, 52]), "cards"),
    (lambda: studodds.hand("As Kd Jh 8c 3s", up=9.5), "up"),
    (lambda: studodds.hand("As Kd Jh 8c 3s", up=True), "up"),
    (lambda: studodds.hand("As Kd Jh 8c 3s", up=[7]), "up"),
    (lambda: studodds.hole_cards(exposed="abc"), "exposed"),
    (lambda: studodds.hole_cards(exposed=[9]), "exposed"),
    (lambda: studodds.hole_cards(exposed=5), "exposed"),
    (lambda: studodds.edge_sort(ranks=5), "ranks"),
    (lambda: studodds.edge_sort(ranks=[13]), "ranks"),
    (lambda: studodds.collusion(partners="6", samples=10), "partners"),
    (lambda: studodds.collusion(partners=2.5, samples=10), "partners"),
    (lambda: studodds.collusion_table(partners="12", samples=10), "partners"),
    (lambda: studodds.collusion_table(partners=[1], burn_cards="no", samples=10), "burn_cards"),
    (lambda: studodds.draws_sample("docs/variants/oasis-online.toml", checkpoint=5), "checkpoint"),
    (lambda: studodds.draws_sample("docs/variants/oasis-online.toml", checkpoint="/nonexistent/ck.json"), "checkpoint"),
])
def test_the_api_names_the_parameter_of_a_wrong_value(call, parameter, monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(ParameterError) as e:
        call()
    assert e.value.parameter == parameter, e.value


def test_every_public_name_resolves():
    import inspect

    from studodds import api
    missing = [n for n in studodds.__all__ if getattr(studodds, n, None) is None]
    assert not missing
    functions = {n for n, f in vars(api).items() if inspect.isfunction(f) and f.__module__ == "studodds.api"
                 and not n.startswith("_") and f.__doc__ and n not in ("debug_build", "draws_bar", "variant_source")}
    assert functions <= set(studodds.__all__), functions - set(studodds.__all__)


# --- draws-sample checkpoints are input -----------------------------------------------------------

TWO = ONLINE.replace("oasis-online", "two").replace("fees = { 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5 }", "fees = { 1 = 1, 2 = 1 }")


@pytest.fixture()
def small_run(tmp_path, monkeypatch):
    """A finished two-shard uniform run of a two-card table (shards of 2 situations)."""
    from enumerate.draws import sample as sm
    from enumerate.rules.variant_file import parse_variant_text
    monkeypatch.setattr(sm, "SHARD", 2)
    v = parse_variant_text(TWO, "two.toml")
    ck = tmp_path / "ck.json"
    first = sm.sample_draws(v, TWO, 4, 3, Fraction(-1, 10), checkpoint=ck)

    def again():
        return sm.sample_draws(v, TWO, 4, 3, Fraction(-1, 10), checkpoint=ck)
    return ck, first, again


def _resealed(data: dict) -> str:
    from enumerate.draws.sample import _digest
    data["sha256"] = _digest(data["key"], data["shards"])
    return json.dumps(data)


@pytest.mark.parametrize("edit", ["value", "card", "index", "dropped", "reseal card", "reseal index",
                                  "reseal dropped", "no checksum", "[]", "null", "5", "shards list", "shards empty"])
def test_an_edited_checkpoint_is_refused_not_trusted(small_run, edit):
    """Any edit is caught by the checksum; one whose checksum was made to match again ("reseal")
    is caught when its cards or indices are not what the seed deals (a resealed value is a
    forgery no checksum can catch: docs/draws.md says so)."""
    ck, first, again = small_run
    data = json.loads(ck.read_text())
    shard = data["shards"]["0"]
    kind = edit.removeprefix("reseal ")
    if kind == "value":
        shard[0][4] = "7/1"
    elif kind == "card":
        shard[0][1][0] = next(c for c in range(52) if c not in shard[0][1] and c != shard[0][2])
    elif kind == "index":
        shard[1][0] = 99
    elif kind == "dropped":
        del shard[1]
    elif kind == "no checksum":
        del data["sha256"]
    text = {"[]": "[]", "null": "null", "5": "5", "shards list": json.dumps({**data, "shards": []}),
            "shards empty": _resealed({**data, "shards": {}})}.get(edit)
    if text is None:
        text = _resealed(data) if edit.startswith("reseal") else json.dumps(data)
    ck.write_text(text)
    if edit == "shards empty":                # a checkpoint of nothing, sealed: a fresh start, the same figures
        assert again().samples == first.samples
        return
    with pytest.raises(ParameterError, match="checkpoint") as e:
        again()
    assert str(ck) in str(e.value)


def test_a_checkpoint_that_is_a_fifo_or_a_device_is_refused_at_once(tmp_path):
    two = tmp_path / "two.toml"
    two.write_text(TWO)
    fifo = tmp_path / "ck.fifo"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero", "/dev/null"):
        refused(tmp_path, "draws-sample", str(two), "--situations", "16", "--checkpoint", str(path),
                needle="not a regular file")
    refused(tmp_path, "draws-sample", str(two), "--situations", "16", "--checkpoint", str(tmp_path),
            needle="--checkpoint")


# --- seen, now counted ----------------------------------------------------------------------------

def test_a_full_disk_without_a_file_name_names_the_temporary_folder():
    import errno
    import tempfile

    from studodds.cli import os_error_text
    text = os_error_text(OSError(errno.ENOSPC, "No space left on device"))
    assert tempfile.gettempdir() in text and "TMPDIR" in text and "\n" not in text
    assert os_error_text(OSError(errno.EACCES, "Permission denied", "/x/y")) == "studodds: error: /x/y: Permission denied"


def test_a_collusion_run_of_years_is_refused_and_one_of_hours_says_so(tmp_path, monkeypatch):
    """A request whose projected time is absurd (years) is refused before any work, saying what
    would answer it; one of hours is said up front and runs."""
    from enumerate.protection import collusion
    assert collusion.duration_text(30) == "30 seconds" and collusion.duration_text(9 * 3600) == "9.0 hours"
    assert "years" in collusion.duration_text(collusion.projected_seconds(10**15, 2))

    def stop(*args, **kwargs):                  # the warning comes first; stop before any counting
        raise KeyboardInterrupt
    from studodds import api
    monkeypatch.setattr(api, "count_table", stop)
    with pytest.raises(ParameterError, match=r"samples: 1,000,000,000,000,000 situations would take about .* years .*"
                                             r"ask for fewer .*--exact"):
        studodds.collusion("us-common", partners=1, samples=10**15, threads=2)
    with pytest.warns(UserWarning, match=r"1,000,000,000 situations take about .* hours"):
        with pytest.raises(KeyboardInterrupt):
            studodds.collusion("us-common", samples=10**9, threads=2)
    r = run_cli("collusion", "--samples", "1e15")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "years" in r.stderr and not r.stdout


def _server(reply: bytes | None):
    """A TCP server on the loopback that accepts and then stays silent (reply None) or sends
    ``reply`` (another protocol's answer); returns (address, stop)."""
    import socket
    import threading
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    held, done = [], threading.Event()

    def serve():
        while not done.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            if reply is not None:
                try:
                    conn.recv(65536)
                    conn.sendall(reply)
                except OSError:
                    pass
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()

    def stop():
        done.set()
        thread.join(5)
        for c in held:
            c.close()
        listener.close()
    return f"tcp://127.0.0.1:{listener.getsockname()[1]}", stop


@pytest.mark.slow
@pytest.mark.parametrize("reply", [None, b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 50],
                         ids=["silent", "http"])
def test_a_scheduler_that_does_not_answer_as_dask_is_refused_in_bounded_time(monkeypatch, reply):
    from enumerate.core import parallel
    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 3.0)
    address, stop = _server(reply)
    try:
        with pytest.raises(ParameterError, match="scheduler") as e:
            with parallel.dask_client(address):
                pass
    finally:
        stop()
    assert address in str(e.value) and "memory" not in str(e.value)


def test_a_second_sigterm_while_the_first_is_reported_is_ignored():
    """The first SIGTERM stops the run; from then on SIGTERM is ignored, so a second one cannot
    interrupt the report of the first with a traceback."""
    import signal

    from enumerate.core import interrupts
    previous = signal.getsignal(signal.SIGTERM)
    try:
        with pytest.raises(interrupts.Terminated):
            interrupts.raise_terminated(signal.SIGTERM, None)
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)
        interrupts.forget()                     # the handler recorded a SIGTERM: not for the next test


def test_the_public_names_are_written_once_for_the_run_and_once_for_type_checkers():
    """``__all__`` is made from the lazy table; the TYPE_CHECKING imports name exactly the same
    names, each from the module the table gives."""
    import ast
    from pathlib import Path

    from studodds import _LAZY
    tree = ast.parse(Path(studodds.__file__).read_text())
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    imported = {a.name: n.module for n in block.body if isinstance(n, ast.ImportFrom) and n.module != "typing"
                for a in n.names}
    assert imported == _LAZY
    assert sorted(studodds.__all__) == sorted([*_LAZY, "__version__"])


def test_the_package_namespace_shows_only_the_api():
    """``dir(studodds)`` lists the API, not the names the package uses to import it lazily."""
    shown = set(dir(studodds))
    assert shown == set(studodds.__all__)
    assert not shown & {"Any", "TYPE_CHECKING", "annotations", "import_module"}
    assert "analyze" in shown and "__version__" in shown
