"""``studodds/schema.json`` generated from the result shapes where they are declared.

Every result shape declared as a TypedDict (:mod:`enumerate.core.shapes`; the return type of its
``to_dict``, so mypy holds the method to it) has its definition in the schema made from that
declaration; the definitions not declared yet are kept as written.  ``python -m
studodds.reports.schema`` rewrites the file; the tests fail when the committed file differs from
what this module makes of it.
"""
from __future__ import annotations

import copy
import importlib
import json
import pkgutil
import sys
from pathlib import Path
from typing import Any

from enumerate.core.shapes import definitions

#: The committed schema.
SCHEMA = Path(__file__).resolve().parent.parent / "schema.json"


def generated(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with the definition of every declared shape made from its declaration."""
    for module in pkgutil.walk_packages(importlib.import_module("enumerate").__path__, "enumerate."):
        importlib.import_module(module.name)         # every result type lives there: its shapes register
    out = copy.deepcopy(schema)
    for name, definition in definitions().items():
        if name not in out["$defs"]:
            raise KeyError(f"shape {name!r} has no place in the schema: add it to $defs and to a kind's object")
        out["$defs"][name] = definition
    return out


def text(schema: dict[str, Any]) -> str:
    """The schema as the committed file writes it."""
    return json.dumps(schema, indent=1) + "\n"


def main() -> int:
    """Rewrite the committed schema from the declared shapes; exit 0."""
    fresh = text(generated(json.loads(SCHEMA.read_text(encoding="utf-8"))))
    SCHEMA.write_text(fresh, encoding="utf-8")
    print(f"{SCHEMA}: {len(definitions())} definitions generated", file=sys.stderr)
    return 0


if __name__ == "__main__":   # pragma: no cover - the command is run by hand
    raise SystemExit(main())
