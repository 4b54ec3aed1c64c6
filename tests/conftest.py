import os
import shutil

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """Every test run gets its own empty cache folder (so CI exercises a cold count), one folder
    for all of the run's xdist workers: caches are written atomically and verified when read, so
    what one worker has counted (a count table, a whole game with draws) the other reads instead
    of counting it again.  A test that needs a cold cache makes its own folder."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        path = tmp_path_factory.getbasetemp().parent / "cache"      # the run's folder, not the worker's
        path.mkdir(exist_ok=True)
    else:
        path = tmp_path_factory.mktemp("cache")
    old = os.environ.get("STUDODDS_CACHE_DIR")
    os.environ["STUDODDS_CACHE_DIR"] = str(path)
    # batches in tests write the text formats; tests/test_reports.py asks for pdf and xlsx itself
    os.environ.setdefault("STUDODDS_FORMATS", "md,html")
    yield path
    if old is None:
        os.environ.pop("STUDODDS_CACHE_DIR", None)
    else:
        os.environ["STUDODDS_CACHE_DIR"] = old


@pytest.fixture(autouse=True)
def _environment_restored():
    """Each test leaves the environment as it found it.  (Dask's LocalCluster with worker
    processes sets OMP_NUM_THREADS=1 in the parent process; left in place it made every later
    parallel step in the session run on one thread.)"""
    saved = dict(os.environ)
    yield
    if dict(os.environ) != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture
def own_cache(_private_cache, tmp_path, monkeypatch):
    """A copy of the run's cache folder (its count tables, fingerprint memos and whole games with
    draws) that this test alone uses: a test that damages cache files does it here, never in the
    folder the other worker may be reading."""
    own = tmp_path / "own-cache"
    own.mkdir()
    for f in _private_cache.iterdir():
        if f.is_file() and f.name.startswith(("counts-", "evaluator-", "draws-")):
            shutil.copy2(f, own / f.name)
    monkeypatch.setenv("STUDODDS_CACHE_DIR", str(own))
    return own


@pytest.fixture(scope="session")
def whole_draws_games(_private_cache):
    """The whole games of the built-in tables with draws (about a minute of counting, both),
    counted once for the run and kept in its cache: the first worker to ask counts them under a
    lock, the other then reads them (each read verified).  The subprocesses of the docs and of
    `check results/` read them from the cache instead of counting them again."""
    import fcntl

    from studodds import api
    with open(_private_cache / "whole-draws-games.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return {name: api.analyze(name) for name in ("oasis-one-card", "sixth-card")}


@pytest.fixture(scope="session")
def us_counts(_private_cache):
    """The full count table for the Ace/King qualifier (computed once per session)."""
    from enumerate.core.counts import load_or_compute
    from enumerate.rules.qualifier import Qualifier
    return load_or_compute(Qualifier.ace_king().threshold)


def pytest_sessionfinish(session):
    """On an xdist worker: hand this worker's fuzzing counts to the controller."""
    from fuzzstats import COUNTS
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["fuzz_counts"] = dict(COUNTS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """On the xdist controller: add up the workers' fuzzing counts for the summary."""
    from fuzzstats import COUNTS
    for name, n in getattr(node, "workeroutput", {}).get("fuzz_counts", {}).items():
        COUNTS[name] = COUNTS.get(name, 0) + n


def pytest_terminal_summary(terminalreporter):
    from fuzzstats import COUNTS
    if COUNTS:
        terminalreporter.write_line("fuzzing cases tried: " + ", ".join(f"{k} {v:,}" for k, v in sorted(COUNTS.items())))
