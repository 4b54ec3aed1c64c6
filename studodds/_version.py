"""The package version, read by the build (``[tool.setuptools.dynamic]``) and at run time
without importing :mod:`importlib.metadata` (start-up time)."""
__version__ = "0.3.0"
