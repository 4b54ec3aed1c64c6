"""Atomic file writing: a file is either its old version or its new one, never half of each.

Writes go to a temporary file in the destination folder (named ``.<name>.<pid>.<random>`` with
the suffix :data:`TMP_SUFFIX`), are flushed to disk, and are renamed over the destination.  A
writer killed with SIGKILL cannot clean up; :func:`remove_stale_temporaries` removes the
temporaries of writers that no longer run (it reads their PID from the name).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import errno as codes
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from enumerate.core.interrupts import raise_if_received

TMP_SUFFIX = ".studodds-tmp"


def remove_stale_temporaries(folder: Path) -> int:
    """Delete temporary files in ``folder`` left by writers that no longer run (a process
    killed with SIGKILL cannot clean up); returns how many were removed."""
    removed = 0
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return 0
    for f in entries:
        if not (f.name.startswith(".") and f.name.endswith(TMP_SUFFIX)):
            continue
        parts = f.name.split(".")
        pid = next((int(x) for x in parts if x.isdigit()), None)
        if pid is not None and pid != os.getpid() and _alive(pid):
            continue
        try:
            if f.is_dir() and not f.is_symlink():
                shutil.rmtree(f)
            else:
                f.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def temporary_folder(parent: Path, name: str) -> Path:
    """A new hidden folder in ``parent`` named like a temporary file (``.<name>.<pid>.<random>``
    plus :data:`TMP_SUFFIX`), so that a writer killed before removing it leaves a folder that
    :func:`remove_stale_temporaries` recognises."""
    return Path(tempfile.mkdtemp(dir=parent, prefix=f".{name}.{os.getpid()}.", suffix=TMP_SUFFIX))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: Path, chunks: Iterable[bytes]) -> None:
    """Write the byte chunks to ``path`` through a temporary file and an atomic rename.

    On any failure (disk full, interrupt, bad folder) the temporary file is removed and the
    previous ``path``, if any, is left as it was; I/O errors name ``path``."""
    path = Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=TMP_SUFFIX)
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())   # mkstemp makes 0600; give the usual file mode
        raise_if_received()                 # an interrupted process commits nothing more
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def atomic_write_text(path: Path, text: str) -> None:
    """Write UTF-8 text to ``path`` atomically."""
    atomic_write_bytes(path, [text.encode("utf-8")])




def _renameat2_exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one system call (Linux's renameat2 with RENAME_EXCHANGE); False where
    the C library or the file system does not offer it."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (codes.ENOSYS, codes.EINVAL, codes.ENOTSUP, codes.EOPNOTSUPP):
        return False
    raise OSError(errno, os.strerror(errno), str(b))


def replace_folder(new: Path, target: Path) -> None:
    """Put the complete folder ``new`` at ``target`` (same file system), replacing whatever
    folder is there: one rename when ``target`` does not exist, else an atomic exchange of the
    two folders (the old one is then removed from where ``new`` was).  Where the system cannot
    exchange, the old folder is renamed aside first: for the instant between the two renames
    ``target`` is missing, never half old and half new."""
    new, target = Path(new), Path(target)
    raise_if_received()                     # an interrupted process commits nothing more
    if not target.exists():
        os.rename(new, target)
        return
    if _renameat2_exchange(new, target):
        shutil.rmtree(new, ignore_errors=True)
        return
    aside = temporary_folder(target.parent, f"{target.name}.replaced")
    os.rmdir(aside)
    os.rename(target, aside)
    os.rename(new, target)
    shutil.rmtree(aside, ignore_errors=True)
