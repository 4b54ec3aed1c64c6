"""studodds: the exhaustive engine, variants, analysis, reports and command line.

Import it as ``from enumerate import ...``; a bare ``import enumerate`` would shadow the builtin.
"""
from importlib import metadata as _metadata

try:
    __version__ = _metadata.version("studodds")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from an unbuilt tree
    __version__ = "0+unknown"
