"""The one bounded map over a Dask cluster: every item once, in order when asked, and never more
than ``in_flight`` tasks submitted and not yet taken (memory does not grow with the items)."""
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
