"""Build the private Cython modules with -O3 and OpenMP (compile *and* link flags).

Without -fopenmp at link time `prange` silently runs on one thread, so both lists carry it.
"""
import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

OPENMP = ["-fopenmp"]
COMPILE = ["-O3"] + OPENMP
DIRECTIVES = {
    "language_level": "3",
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


def extension(name: str) -> Extension:
    return Extension(
        name,
        [name.replace(".", "/") + ".pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=COMPILE,
        extra_link_args=OPENMP,
    )


setup(
    ext_modules=cythonize(
        [extension("evaluator._eval"), extension("enumerate._engine"), extension("enumerate._aggregate")],
        compiler_directives=DIRECTIVES,
    ),
)
