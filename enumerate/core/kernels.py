"""The compiled modules, in one list: ``setup.py`` builds exactly these (it reads this file by
its path before anything is built, so the file imports nothing), and the version line,
:func:`studodds.openmp_enabled` and :func:`studodds.api.debug_build` ask every one of them how
it was compiled (each exports ``OPENMP`` and ``DEBUG_BUILD`` from ``evaluator/_buildinfo.pxd``).

By floor: the evaluator, the count kernels and the dead-card engine, the aggregation kernel, the game-protection
kernels, the simulator, the draws kernels, Russian Poker's bought game and its hole-card counts (each beside the
Python module that drives it).
"""

KERNELS = ("evaluator._eval", "enumerate.core._engine", "enumerate.core._dead", "enumerate.analysis._aggregate",
           "enumerate.protection._exposure", "enumerate.protection._collusion",
           "enumerate.boxes._seen_ranks", "enumerate.simulation._simulate",
           "enumerate.draws._hand", "enumerate.draws._game", "enumerate.draws._switch_ranks",
           "enumerate.russian._bought", "enumerate.russian._holes")
