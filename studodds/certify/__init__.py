"""Certified odds tables, as library calls: :func:`batch` writes them, :func:`check` recomputes
committed ones and reports every difference.

A table is the folder ``<out>/<variant>/``: ``summary.json`` (every exact figure, the provenance),
``return_table.csv``, ``strategy.md``/``.csv``, ``report.md`` (``.html``, ``.pdf``, ``.xlsx`` as
asked), the ``variant.toml`` it was made from and, with protection levels, ``protection.json``;
``environment.json`` records the machine and date and is never compared.

Nothing half-written: a batch renders every table into a staging folder inside ``out`` first,
and only when all of them are complete -- and, with ``strict``, free of sanity warnings -- moves
each file into place with an atomic rename (``variant.toml`` last: it marks a complete table).
An error or an interruption leaves ``out`` as it was.

:func:`batch` returns a :class:`BatchResult` and :func:`check` a :class:`CheckResult`; their
``to_dict()`` is what ``studodds batch --json`` and ``studodds check --json`` print, and the
command line prints their ``text()`` otherwise.
"""
from studodds.certify.batch import BatchResult, WrittenTable, batch, report_formats, writable_folder
from studodds.certify.check import CheckResult, Difference, TableCheck, check
from studodds.certify.tables import FILES, FORMATS, RenderedTable, render, write

__all__ = ["FILES", "FORMATS", "BatchResult", "CheckResult", "Difference", "RenderedTable", "TableCheck",
           "WrittenTable", "batch", "check", "render", "report_formats", "writable_folder", "write"]
