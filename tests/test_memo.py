"""Feature results kept per count table (enumerate.core.memo): each feature's own, made once,
gone with the table."""
import gc
import weakref

import numpy as np

from enumerate.core.engine import CountTable
from enumerate.core.memo import TableMemo


def _table():
    z = np.zeros((1, 47), dtype=np.uint32)
    return CountTable(0, np.zeros((1, 5), np.uint8), np.ones(1, np.int64), np.zeros(1, np.int16),
                      np.zeros((1, 47), np.uint8), z, z.copy(), z.copy())


class _Value:
    pass


def test_each_feature_keeps_its_own_entries_made_once():
    a, b = TableMemo("a"), TableMemo("b")
    t, u = _table(), _table()
    made = []
    assert a.get(t, 1, lambda: made.append("a") or "A") == "A"
    assert a.get(t, 1, lambda: made.append("again") or "X") == "A"
    assert b.get(t, 1, lambda: made.append("b") or "B") == "B"            # the same key, another feature
    assert a.find(u, 1) is None and a.find(t, 2) is None                  # another table, another key
    assert made == ["a", "b"] and repr(a) == "TableMemo('a')"


def test_entries_die_with_the_table():
    memo = TableMemo("values")
    t = _table()
    kept = memo.put(t, None, _Value())
    ref = weakref.ref(kept)
    del t, kept
    gc.collect()
    assert ref() is None
