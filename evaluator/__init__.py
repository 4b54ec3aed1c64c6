"""Cards, hand ranking and the lookup-table evaluator of studodds."""

try:
    from evaluator import _eval as _compiled  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on how the package was run
    import os as _os

    raise ImportError(
        "studodds' compiled modules are missing: this is the uncompiled source tree at "
        f"{_os.path.dirname(_os.path.dirname(__file__))}. Run from another directory after "
        "`pip install .`, or build in place with `pip install -e .`."
    ) from exc
