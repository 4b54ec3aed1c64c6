"""Floor 2, the counting core: exact dealer-outcome counts for every situation.

* ``_engine.pyx``: the count kernels (``nogil``, OpenMP ``prange``) over the evaluator's tables;
* :mod:`~enumerate.core.engine`: :class:`~enumerate.core.engine.CountTable`, the exact counts
  of every situation (player hand, up card) over the 163,185 dealer hole-card sets;
* :mod:`~enumerate.core.counts`: count tables on demand, from the checksummed on-disk cache
  (:mod:`~enumerate.core.array_store`, written atomically by :mod:`~enumerate.core.atomic`);
* :mod:`~enumerate.core.parallel`: how many threads every parallel step uses, and Dask;
* :mod:`~enumerate.core.jsonform`: the one JSON convention for exact values.

Nothing here knows a paytable: the rules enter above (:mod:`enumerate.rules`,
:mod:`enumerate.raise_value`).
"""
