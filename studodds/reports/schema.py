"""``studodds/schema.json``, generated whole from the result shapes where they are declared.

Every result's JSON shape is a TypedDict registered with :func:`enumerate.core.shapes.shape`
beside the result type (and the return type of its ``to_dict``, so mypy holds the method to
it); :func:`schema` imports every module of ``enumerate`` and ``studodds`` (where the result
types and the commands' own objects live), writes each shape's definition, and lists the
shapes registered as documents -- what a command prints or a results file holds, told apart by
``kind`` -- as the objects the schema accepts.  Nothing in the file is written by hand.
``python -m studodds.reports.schema`` rewrites it; the tests fail when the committed file
differs from what this module makes.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from pathlib import Path
from typing import Any

from enumerate.core.shapes import SHAPES, definitions

#: The committed schema.
SCHEMA = Path(__file__).resolve().parent.parent / "schema.json"

#: What the schema says of itself.
HEADER = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "studodds/schema.json",
    "title": "studodds machine-readable output",
    "description": "Every --json output of the studodds command line and every summary.json is one of these "
                   "objects, told apart by \"kind\". An exact rational is {\"exact\": \"p/q\", \"value\": float}; "
                   "counts are integers; keys are snake_case, hand categories as in variant files.",
}

#: The packages whose modules declare shapes.
PACKAGES = ("enumerate", "studodds")


def load_declarations() -> None:
    """Import every module of :data:`PACKAGES` (its shapes register as it is imported)."""
    for package in PACKAGES:
        for module in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
            if not module.name.endswith(".__main__"):           # running it is not declaring
                importlib.import_module(module.name)


def schema() -> dict[str, Any]:
    """The whole schema: :data:`HEADER`, the documents, and every declared definition by name."""
    load_declarations()
    documents = sorted(name for name, cls in SHAPES.items() if getattr(cls, "__shape_document__", False))
    return {**HEADER, "oneOf": [{"$ref": f"#/$defs/{name}"} for name in documents],
            "$defs": dict(sorted(definitions().items()))}


def text(data: dict[str, Any]) -> str:
    """The schema as the committed file writes it."""
    return json.dumps(data, indent=1) + "\n"


def main() -> int:
    """Rewrite the committed schema from the declared shapes; exit 0."""
    data = schema()
    SCHEMA.write_text(text(data), encoding="utf-8")
    print(f"{SCHEMA}: {len(data['$defs'])} definitions, {len(data['oneOf'])} documents", file=sys.stderr)
    return 0


if __name__ == "__main__":   # pragma: no cover - the command is run by hand
    raise SystemExit(main())
