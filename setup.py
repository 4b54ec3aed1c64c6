"""Build the private Cython modules.

Everything about compiling lives here, in one place:

* ``DIRECTIVES``: the Cython compiler directives of every module (no ``# cython:`` headers in
  the ``.pyx`` files).  ``STUDODDS_DEBUG_BUILD=1`` switches on bounds, wrap-around and
  initialisation checks and builds with ``-O0 -g``; CI runs a sample of the tests that way.
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
MODULES = ["evaluator._eval", "enumerate._engine", "enumerate._aggregate"]


def openmp_flags() -> list[str]:
    """["-fopenmp"] if the C compiler builds and links an OpenMP program, else []."""
    if os.environ.get("STUDODDS_NO_OPENMP", "") not in ("", "0"):
        return []
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not shutil.which(cc[0]):
        return []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "omp.c")
        with open(src, "w") as f:
            f.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n")
        result = subprocess.run([*cc, "-fopenmp", src, "-o", os.path.join(tmp, "omp")],
                                capture_output=True)
    return ["-fopenmp"] if result.returncode == 0 else []


OPENMP = openmp_flags()
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
        extra_compile_args=OPTIMISE + OPENMP,
        extra_link_args=OPENMP,
    )


setup(
    ext_modules=cythonize([extension(m) for m in MODULES], compiler_directives=DIRECTIVES),
)
