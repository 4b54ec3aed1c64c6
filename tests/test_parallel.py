"""The one bounded map over a Dask cluster: every item once, in order when asked, and never more
than ``in_flight`` tasks submitted and not yet taken (memory does not grow with the items)."""
import pytest

from enumerate.core.parallel import dask_map


class _Future:
    def __init__(self, client, value):
        self.client, self.value = client, value

    def result(self):
        self.client.outstanding -= 1
        return self.value


class _Client:
    """Runs each task at once; counts the tasks submitted and not yet taken."""

    def __init__(self):
        self.outstanding = self.most = 0

    def submit(self, func, *args, pure=True):
        assert pure is False                      # every task is run, never deduplicated
        self.outstanding += 1
        self.most = max(self.most, self.outstanding)
        return _Future(self, func(*args))


def test_the_ordered_map_keeps_the_order_and_its_bound():
    client = _Client()
    out = list(dask_map(client, lambda a, b: a * b, ((f"item {i}", (i, 3)) for i in range(100)), in_flight=7))
    assert out == [(f"item {i}", 3 * i) for i in range(100)]
    assert client.most == 7 and client.outstanding == 0


def test_the_unordered_map_takes_every_item_once():
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        out = list(dask_map(client, pow, ((i, (i, 2)) for i in range(40)), in_flight=5, ordered=False))
    assert sorted(tag for tag, _ in out) == list(range(40))
    assert all(tag * tag == r for tag, r in out)


@pytest.mark.slow
def test_the_thread_count_is_resolved_once_and_reaches_every_step(monkeypatch, tmp_path):
    """Every API call and batch resolve ``threads`` once and pass the int down: with it given, no
    step below asks for the default (which here fails)."""
    import studodds
    from enumerate.core import parallel
    from studodds.certify.batch import batch

    def default():
        raise AssertionError("a step resolved the default thread count")
    monkeypatch.setattr(parallel, "default_threads", default)
    calls = [lambda: studodds.analyze("us-common", threads=1), lambda: studodds.analyze("envy-bonus", threads=1),
             lambda: studodds.analyze("max-payout", threads=1), lambda: studodds.hand("As Kd Jh 8c 3s", threads=1),
             lambda: studodds.hand("As Kd Jh 8c 3s", up="7d", variant="oasis-one-card", threads=1),
             lambda: studodds.strategies("us-common", threads=1),
             lambda: studodds.simulate("us-common", games=10_000, threads=1),
             lambda: studodds.progressive(threads=1), lambda: studodds.diff("us-common", "uk-casino-stud", threads=1),
             lambda: studodds.hole_cards("us-common", [-1, 0], threads=1), lambda: studodds.edge_sort("us-common", threads=1),
             lambda: studodds.collusion("us-common", 1, samples=20, threads=1),
             lambda: studodds.sensitivity("us-common", threads=1),
             lambda: studodds.solve("us-common", "house_edge=3%", "full_house=6..8", threads=1),
             lambda: studodds.search("us-common", "full_house=6..8", threads=1),
             lambda: batch(["us-common", "envy-bonus"], out=tmp_path / "t", formats=["md"], threads=1)]
    for call in calls:
        call()
    with pytest.raises(AssertionError, match="resolved the default"):       # the probe itself works
        studodds.analyze("us-common")


def test_the_chunked_map_runs_locally_in_item_order_with_the_thread_count():
    from enumerate.core.parallel import chunked_map
    calls = []

    def local(shared, x, threads):
        calls.append((shared, x, threads))
        return x * x

    items = [(f"t{x}", (x,)) for x in range(7)]
    out = list(chunked_map(iter(items), local=local, remote=None, scheduler=None, threads=3, shared=("s",)))
    assert out == [(f"t{x}", x * x) for x in range(7)] and calls == [("s", x, 3) for x in range(7)]


def test_the_pooled_chunked_map_keeps_item_order_and_a_bounded_lead():
    import threading
    import time

    from enumerate.core.parallel import chunked_map
    started, lock = [], threading.Lock()

    def local(x):
        with lock:
            started.append(x)
        time.sleep(0.001 * (x % 3))                   # finish out of order
        return -x

    taken = []
    for tag, value in chunked_map(((x, (x,)) for x in range(40)), local=local, remote=None, scheduler=None,
                                  threads=4, pool=True, in_flight=5):
        with lock:
            assert len(started) <= tag + 1 + 5        # never more than in_flight started ahead of the taker
        taken.append((tag, value))
    assert taken == [(x, -x) for x in range(40)] and sorted(started) == list(range(40))
