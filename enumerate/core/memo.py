"""What a feature derives from a count table, kept while the table lives, typed by the feature.

A batch certifies many paytables on one count table, and much of what the analyses derive from
it does not depend on the paytable (a fixed strategy's sums, a threshold index, the dead-card
counts of the draws), or depends on it and is asked for again (a strategy chart, the draws'
action values).  Each feature declares its own :class:`TableMemo` -- its name, and the types of
its keys and values -- next to the code that fills it::

    _CHARTS: TableMemo[tuple[Fraction, Fraction, bytes], np.ndarray] = TableMemo("strategy charts")
    chart = _CHARTS.get(table, key, lambda: make_chart(...))

The entries live on the count table (in a slot only this module reads, keyed by the memo
object, never by a string another module could also write) and die with it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class TableMemo(Generic[K, V]):
    """One feature's results per count table (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"TableMemo({self.name!r})"

    def _entries(self, table: Any) -> dict[K, V]:
        slots: dict[TableMemo[Any, Any], dict[Any, Any]] = table._memos
        return slots.setdefault(self, {})

    def get(self, table: Any, key: K, make: Callable[[], V]) -> V:
        """The entry of ``key`` for ``table``, made by ``make()`` the first time."""
        entries = self._entries(table)
        if key not in entries:
            entries[key] = make()
        return entries[key]

    def find(self, table: Any, key: K) -> V | None:
        """The entry of ``key`` for ``table`` if there is one."""
        return self._entries(table).get(key)

    def put(self, table: Any, key: K, value: V) -> V:
        """Keep ``value`` as the entry of ``key`` for ``table``; returns it."""
        self._entries(table)[key] = value
        return value
