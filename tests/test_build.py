"""The build cache of setup.py: a module is kept under a key of every input that changes it,
and a damaged entry is never used (it is compiled again)."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def setup_py():
    spec = importlib.util.spec_from_file_location("studodds_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)          # not __main__: nothing is built
    return module


def test_a_cached_module_is_verified_when_read(setup_py, tmp_path):
    built = tmp_path / "module.so"
    built.write_bytes(b"\x7fELF a module")
    key = "ab" * 32
    setup_py._store(str(tmp_path / "cache"), key, str(built))
    assert setup_py._cached(str(tmp_path / "cache"), key) == built.read_bytes()
    assert setup_py._cached(str(tmp_path / "cache"), "cd" * 32) is None
    so = tmp_path / "cache" / f"{key}.so"
    damaged = bytearray(so.read_bytes())
    damaged[3] ^= 1
    so.write_bytes(bytes(damaged))
    assert setup_py._cached(str(tmp_path / "cache"), key) is None, "a flipped bit is compiled again"
    (tmp_path / "cache" / f"{key}.sha256").write_bytes(b"\xff\xfe")
    assert setup_py._cached(str(tmp_path / "cache"), key) is None
    assert setup_py._cached(None, key) is None
    assert not [p for p in (tmp_path / "cache").iterdir() if p.name.endswith(".studodds-tmp")]


def test_the_key_covers_the_flags_the_compiler_and_the_sources(setup_py, monkeypatch):
    ext = setup_py.extension("evaluator._eval")
    key = setup_py.module_key(ext, "gcc 12")
    assert len(key) == 64 and key == setup_py.module_key(setup_py.extension("evaluator._eval"), "gcc 12")
    assert setup_py.module_key(ext, "gcc 13") != key
    ext.extra_compile_args = [*ext.extra_compile_args, "-O0"]
    assert setup_py.module_key(ext, "gcc 12") != key
    assert setup_py.module_key(setup_py.extension("enumerate.core._engine"), "gcc 12") != key
    real = setup_py._read
    monkeypatch.setattr(setup_py, "_read", lambda p: real(p) + (b"# edited" if p.endswith("_eval.pxd") else b""))
    assert setup_py.module_key(setup_py.extension("evaluator._eval"), "gcc 12") != key


@pytest.mark.parametrize("value,off", [("0", True), ("off", True), ("1", False), ("", False)])
def test_the_cache_can_be_switched_off(setup_py, monkeypatch, tmp_path, value, off):
    monkeypatch.setenv("STUDODDS_BUILD_CACHE", value)
    monkeypatch.setenv("STUDODDS_CACHE_DIR", str(tmp_path))
    assert setup_py.build_cache_dir() == (None if off else str(tmp_path / "build"))


def test_one_list_of_kernels_for_the_build_and_the_run(setup_py):
    """setup.py builds exactly the kernels of enumerate/core/kernels.py, and every one of them
    says how it was compiled (what the version line and openmp_enabled() read)."""
    import importlib

    import studodds
    from enumerate.core.kernels import KERNELS
    assert setup_py.MODULES == list(KERNELS)
    for name in KERNELS:
        module = importlib.import_module(name)
        assert isinstance(module.OPENMP, bool) and isinstance(module.DEBUG_BUILD, bool), name
    assert studodds.openmp_enabled() == all(importlib.import_module(n).OPENMP for n in KERNELS)
