import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """Every test session gets its own empty cache folder (so CI exercises a cold count)."""
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
