"""Build the private Cython modules.

Everything about compiling lives here, in one place:

* ``DIRECTIVES``: the Cython compiler directives of every module (no ``# cython:`` headers in
  the ``.pyx`` files).  ``STUDODDS_DEBUG_BUILD=1`` switches on bounds, wrap-around and
  initialisation checks and builds with ``-O0 -g``; CI runs a sample of the tests that way.
* ``-mpopcnt`` on x86-64 when the compiler takes it (the exposure kernel counts card masks).
* OpenMP: a tiny C program is compiled and linked with ``-fopenmp`` first.  If that works,
  every module gets ``-fopenmp`` at compile *and* link time (without it at link time ``prange``
  silently runs on one thread).  If not, the build goes on serially with a warning, and
  ``studodds.openmp_enabled()`` reports False at run time.
"""
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import warnings

import Cython
import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("STUDODDS_DEBUG_BUILD", "") not in ("", "0")

DIRECTIVES = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,          # C semantics for / and %: every operand here is non-negative
}
OPTIMISE = ["-O0", "-g"] if DEBUG else ["-O3"]
#: Every compiled module, by floor: the evaluator, the count kernels, the aggregation kernel,
#: the game-protection kernels and the simulator (each beside the Python module that drives it).
MODULES = ["evaluator._eval", "enumerate.core._engine", "enumerate.analysis._aggregate",
           "enumerate.protection._exposure", "enumerate.protection._collusion", "enumerate.simulation._simulate",
           "enumerate.draws._hand", "enumerate.draws._game"]


def _compiles(flag: str, source: str) -> bool:
    """True if the C compiler builds and links ``source`` with ``flag``."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not shutil.which(cc[0]):
        return False
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write(source)
        result = subprocess.run([*cc, flag, src, "-o", os.path.join(tmp, "probe")], capture_output=True)
    return result.returncode == 0


def popcount_flags() -> list[str]:
    """["-mpopcnt"] on x86-64 when the compiler takes it (every x86-64 CPU since 2008 has the
    instruction; without it a 64-bit popcount is a dozen instructions).  STUDODDS_PORTABLE=1
    leaves it out."""
    import platform
    if os.environ.get("STUDODDS_PORTABLE", "") not in ("", "0"):
        return []
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    probe = "int main(int argc, char** argv) { return __builtin_popcountll((unsigned long long)argc) - 1; }\n"
    return ["-mpopcnt"] if _compiles("-mpopcnt", probe) else []


def openmp_flags() -> list[str]:
    """["-fopenmp"] if the C compiler builds and links an OpenMP program, else []."""
    if os.environ.get("STUDODDS_NO_OPENMP", "") not in ("", "0"):
        return []
    probe = "#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n"
    return ["-fopenmp"] if _compiles("-fopenmp", probe) else []


OPENMP = openmp_flags()
POPCOUNT = popcount_flags()
if not OPENMP:
    message = ("studodds: the C compiler does not support OpenMP (-fopenmp); building serial "
               "modules: results are identical, counting uses one core")
    warnings.warn(message, stacklevel=1)
    print(message, file=sys.stderr)


def extension(name: str) -> Extension:
    return Extension(
        name,
        [name.replace(".", "/") + ".pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
                       ("STUDODDS_CYTHON_VERSION", f'"{Cython.__version__}"')]
        + ([("STUDODDS_DEBUG_BUILD", "1")] if DEBUG else []),
        extra_compile_args=OPTIMISE + OPENMP + POPCOUNT,
        extra_link_args=OPENMP,
    )


#: the modules are compiled side by side, one per core (Cython's translation and the C compiler's
#: both); STUDODDS_BUILD_JOBS=N sets the number
JOBS = int(os.environ.get("STUDODDS_BUILD_JOBS") or os.cpu_count() or 1)

setup(
    ext_modules=cythonize([extension(m) for m in MODULES], compiler_directives=DIRECTIVES, nthreads=JOBS),
    options={"build_ext": {"parallel": JOBS}},
)
