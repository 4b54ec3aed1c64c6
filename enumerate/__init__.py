"""Everything that computes: exact counts, the rules of a table, exact analysis, the features.

The packages are floors; a module imports only from the floors below it (``lint-imports`` and
``tests/test_layers.py`` check it):

1. :mod:`evaluator` (beside this package): cards and hand strength, the compiled lookup tables;
2. :mod:`enumerate.core`: the count kernels and :class:`~enumerate.core.engine.CountTable`, the
   checksummed cache, threads, the JSON convention;
3. :mod:`enumerate.rules`: amounts, the qualifier, hand paytables, side-bet and progressive
   rules, variants, variant files and the built-in library;
4. :mod:`enumerate.raise_value`: the raise decision as an exact integer linear form;
5. :mod:`enumerate.analysis`: the base game under optimal or fixed strategies, the threshold
   index, strategies, per-hand EVs, distributions and certification figures;
6. the features, each independent of the others: :mod:`enumerate.sidebets`,
   :mod:`enumerate.progressive`, :mod:`enumerate.protection` (with its kernels) and
   :mod:`enumerate.design`;
7. :mod:`enumerate.game`: the full game of a variant (base game, rule variants, side bets) and
   the diff of two variants.

Nothing here prints or formats a report: that is the ``studodds`` package.  Import modules as
``from enumerate.analysis.base import analyze``; a bare ``import enumerate`` would shadow the
builtin.
"""

import importlib.util as _util
import os as _os

if _util.find_spec("enumerate.core._engine") is None or _util.find_spec("enumerate.analysis._aggregate") is None:
    raise ImportError(   # pragma: no cover - depends on how the package was run
        "studodds' compiled modules are missing: this is the uncompiled source tree at "
        f"{_os.path.dirname(_os.path.dirname(__file__))}. Run from another directory after "
        "`pip install .`, or build in place with `pip install -e .`.")
