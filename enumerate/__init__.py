"""Everything that computes: exact counts, the rules of a table, exact analysis.

The pipeline, one module per step:

* ``engine`` (over the Cython kernels in ``_engine.pyx``) counts, for every situation (player
  hand, dealer up card), the dealer hole-card sets where the dealer does not qualify, loses,
  ties or wins; ``counts`` caches those tables on disk (``array_store``, ``atomic``);
* ``rules`` turns variant files into a :class:`~enumerate.rules.variant.Variant`;
* ``analysis`` (with the aggregation kernel ``_aggregate.pyx`` and its named columns ``stats``)
  gives the exact return table and figures of a variant; ``threshold_index`` does the same for
  many paytables fast; ``strategies``, ``ev``, ``ev_table``, ``situation``, ``paydiff`` and
  ``selfcheck`` answer the other questions; ``progressive`` analyses the side bet.

Nothing here prints or formats a report: that is the ``studodds`` package.  Import modules as
``from enumerate.analysis import analyze``; a bare ``import enumerate`` would shadow the builtin.
"""

import importlib.util as _util
import os as _os

if _util.find_spec("enumerate._engine") is None or _util.find_spec("enumerate._aggregate") is None:
    raise ImportError(   # pragma: no cover - depends on how the package was run
        "studodds' compiled modules are missing: this is the uncompiled source tree at "
        f"{_os.path.dirname(_os.path.dirname(__file__))}. Run from another directory after "
        "`pip install .`, or build in place with `pip install -e .`.")
