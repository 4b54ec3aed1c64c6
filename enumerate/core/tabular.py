"""Results as data: every result with rows gets ``to_pandas()``, a short ``repr`` and an HTML
repr for notebooks, from one decorator (:func:`tabular`) instead of a method per class.

The DataFrame is made from the result's own ``to_dict()`` (the JSON convention of
:mod:`enumerate.core.jsonform`), so its columns carry the JSON's names:

* an exact figure ``{"exact": "p/q", "value": x}`` becomes two columns, ``<key>`` holding the
  exact :class:`fractions.Fraction` and ``<key>_float`` its float (for plotting and sorting);
* a nested object becomes columns ``<key>.<inner key>``; counts stay Python ints; a list stays
  one cell;
* the rows are those :func:`tabular` names: a key of ``to_dict()`` holding a list of objects
  (``"rows"``, ``"return_table"``, ...), or a function of the dict for a result whose table is
  assembled from several lists (it returns the records).

pandas is optional (studodds does not require it): without it ``to_pandas()`` raises a
StudoddsError saying what to install.
"""
from __future__ import annotations

import html
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from evaluator.errors import StudoddsError

T = TypeVar("T")
Rows = str | Callable[[dict[str, Any]], list[dict[str, Any]]]

#: rows shown by the notebook repr before "... N more"
HTML_ROWS = 12


def flatten(record: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """One row of the DataFrame from one JSON record (see the module docstring)."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and set(value) == {"exact", "value"}:
            out[name] = None if value["exact"] is None else Fraction(value["exact"])
            out[f"{name}_float"] = value["value"]
        elif isinstance(value, dict):
            out.update(flatten(value, f"{name}."))
        else:
            out[name] = value
    return out


def records_of(result: Any, rows: Rows) -> list[dict[str, Any]]:
    data = result.to_dict()
    found = rows(data) if callable(rows) else data.get(rows)
    return list(found or [])


def _pandas() -> Any:
    try:
        import pandas as pd  # optional: studodds does not require pandas
    except ImportError:
        raise StudoddsError("to_pandas needs pandas: pip install pandas") from None
    return pd


def frame(records: list[dict[str, Any]]) -> Any:
    """A pandas DataFrame of JSON records (see the module docstring)."""
    pd = _pandas()
    flat = [flatten(r) for r in records]
    columns = list(dict.fromkeys(k for r in flat for k in r))
    return pd.DataFrame(flat, columns=columns)


def _title(result: Any) -> str:
    data = result.to_dict()
    kind = data.get("kind", type(result).__name__)
    variant = data.get("variant")
    name = variant.get("name") if isinstance(variant, dict) else variant
    return f"{type(result).__name__} ({kind}{', ' + str(name) if name else ''})"


def tabular(rows: Rows, what: str = "rows") -> Callable[[type[T]], type[T]]:
    """Give a result class ``to_pandas()``, a short ``__repr__`` and ``_repr_html_`` (apply it
    above ``@dataclass``, which would otherwise write its own long repr)."""
    def decorate(cls: type[T]) -> type[T]:
        def to_pandas(self: Any) -> Any:
            return frame(records_of(self, rows))
        to_pandas.__doc__ = (f"The {what} as a pandas DataFrame (needs pandas): the JSON's column names, each exact "
                             "figure as a Fraction column with its float beside it (``<name>_float``); see "
                             ":mod:`enumerate.core.tabular`.")

        def __repr__(self: Any) -> str:
            n = len(records_of(self, rows))
            return f"<{_title(self)}: {n} {what}; .to_pandas() for the table, .to_dict() for every figure>"

        def _repr_html_(self: Any) -> str:
            records = records_of(self, rows)
            head = f"<p><b>{html.escape(_title(self))}</b>: {len(records)} {html.escape(what)}</p>"
            try:
                table = frame(records[:HTML_ROWS])
            except StudoddsError:
                return head
            floats = table[[c for c in table.columns if not isinstance(table[c].iloc[0] if len(table) else None,
                                                                        Fraction)]]
            more = f"<p>... {len(records) - HTML_ROWS} more</p>" if len(records) > HTML_ROWS else ""
            return head + floats.to_html(index=False, max_cols=12) + more

        cls.to_pandas = to_pandas  # type: ignore[attr-defined]
        cls.__repr__ = __repr__  # type: ignore[method-assign]
        cls._repr_html_ = _repr_html_  # type: ignore[attr-defined]
        return cls
    return decorate
