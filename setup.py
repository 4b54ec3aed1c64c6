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
* The modules are translated and compiled side by side, one per core (``STUDODDS_BUILD_JOBS``).
* **The build cache**: each compiled module is kept under the user cache folder
  (``$STUDODDS_CACHE_DIR/build``, else ``$XDG_CACHE_HOME/studodds/build``, else
  ``~/.cache/studodds/build``), named by the SHA-256 of every input that changes it: the
  ``.pyx`` and every ``.pxd`` of the project, the Cython and numpy versions, the directives,
  the compile and link flags, the compiler's ``--version``, the Python version and ABI.  A
  second install of the same source on the same machine (``pip install .`` then
  ``pip install ".[test]"``, which pip builds anew from the source each time) copies the
  modules instead of compiling them again.  A cached module is checked against the SHA-256
  stored beside it when read, and compiled again if it does not match; entries are written
  atomically.  ``STUDODDS_BUILD_CACHE=0`` neither reads nor writes it.
"""
import os
import runpy
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
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("STUDODDS_DEBUG_BUILD", "") not in ("", "0")

DIRECTIVES = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,          # C semantics for / and %: every operand here is non-negative
}
OPTIMISE = ["-O0", "-g"] if DEBUG else ["-O3"]
#: Every compiled module: the one list in enumerate/core/kernels.py, read by its path (nothing is
#: built yet, so the package cannot be imported).
MODULES = list(runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "enumerate", "core",
                                           "kernels.py"))["KERNELS"])


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


def build_cache_dir() -> str | None:
    """The build cache folder (see the module docstring), None when switched off."""
    if os.environ.get("STUDODDS_BUILD_CACHE", "1").strip().lower() in ("0", "off", "no", "false"):
        return None
    base = os.environ.get("STUDODDS_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "studodds")
    return os.path.join(base, "build")


def _compiler_identity() -> str:
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    try:
        return subprocess.run([*cc, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown compiler"


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def module_key(ext: Extension, compiler: str) -> str:
    """The SHA-256 of every input that changes the compiled module ``ext``."""
    import hashlib
    import json
    h = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))
    pxds = sorted(os.path.relpath(os.path.join(d, f), here) for d, _, fs in os.walk(here)
                  for f in fs if f.endswith(".pxd") and "build" not in os.path.relpath(d, here).split(os.sep))
    for path in [ext.name.replace(".", "/") + ".pyx", *pxds]:
        h.update(path.encode() + b"\0" + _read(os.path.join(here, path)) + b"\0")
    h.update(json.dumps({"name": ext.name, "cython": Cython.__version__, "numpy": numpy.__version__,
                         "directives": DIRECTIVES, "compile": ext.extra_compile_args, "link": ext.extra_link_args,
                         "macros": ext.define_macros, "compiler": compiler, "python": sys.version,
                         "abi": sysconfig.get_config_var("EXT_SUFFIX"), "platform": sysconfig.get_platform()},
                        sort_keys=True, default=str).encode())
    return h.hexdigest()


def _cached(folder: str | None, key: str) -> bytes | None:
    """The cached module of ``key``, verified against the SHA-256 stored beside it; None if
    absent or damaged."""
    import hashlib
    if folder is None:
        return None
    try:
        data = _read(os.path.join(folder, key + ".so"))
        stored = _read(os.path.join(folder, key + ".sha256")).decode().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return data if hashlib.sha256(data).hexdigest() == stored else None


def _store(folder: str | None, key: str, path: str) -> None:
    """Keep the built module of ``key`` (atomically; a cache that cannot be written is skipped)."""
    import hashlib
    if folder is None:
        return
    try:
        os.makedirs(folder, exist_ok=True)
        data = _read(path)
        for suffix, content in ((".so", data), (".sha256", hashlib.sha256(data).hexdigest().encode())):
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{key}.", suffix=".studodds-tmp")
            with os.fdopen(fd, "wb") as f:
                f.write(content)
            os.replace(tmp, os.path.join(folder, key + suffix))
    except OSError as exc:
        print(f"studodds: build cache not written ({exc})", file=sys.stderr)


class CachedBuildExt(build_ext):
    """build_ext that copies a module from the build cache when its key is there (``hits``:
    name -> verified bytes), and keeps each module it compiles."""

    folder: str | None = None
    keys: dict[str, str] = {}
    hits: dict[str, bytes] = {}

    def build_extension(self, ext: Extension) -> None:
        target = self.get_ext_fullpath(ext.name)
        if ext.name in self.hits:
            os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
            with open(target, "wb") as f:
                f.write(self.hits[ext.name])
            print(f"studodds: {ext.name} from the build cache ({self.keys[ext.name][:12]})")
            return
        super().build_extension(ext)
        _store(self.folder, self.keys[ext.name], target)


def main() -> None:
    extensions = [extension(m) for m in MODULES]
    compiler = _compiler_identity()
    CachedBuildExt.folder = build_cache_dir()
    CachedBuildExt.keys = {ext.name: module_key(ext, compiler) for ext in extensions}
    CachedBuildExt.hits = {ext.name: data for ext in extensions
                           if (data := _cached(CachedBuildExt.folder, CachedBuildExt.keys[ext.name])) is not None}
    # only the modules not in the cache are translated by Cython (the others keep their .pyx
    # source, which CachedBuildExt never compiles)
    misses = [ext for ext in extensions if ext.name not in CachedBuildExt.hits]
    setup(
        ext_modules=(cythonize(misses, compiler_directives=DIRECTIVES, nthreads=JOBS) if misses else [])
        + [ext for ext in extensions if ext.name in CachedBuildExt.hits],
        cmdclass={"build_ext": CachedBuildExt},
        options={"build_ext": {"parallel": JOBS}},
    )


if __name__ == "__main__":          # as pip and setuptools run it; tests import the helpers
    main()
