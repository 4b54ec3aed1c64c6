"""Atomic, self-checking storage of named numpy arrays.

File layout: the magic line ``STUDODDS-ARRAYS 2\\n``, an 8-byte little-endian header length, a
JSON header (caller's metadata, for each array its dtype, shape, offset and length, and the
CRC-32 of everything after the header), then the raw arrays.  CRC-32 detects truncation and
accidental corruption (every burst of up to 32 flipped bits) at memory speed.  Writes go to a temporary
file in the same folder that is renamed into place, so a reader never sees a half-written file.
"""
from __future__ import annotations

import json
import mmap
import os
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

MAGIC = b"STUDODDS-ARRAYS 2\n"


class CacheError(Exception):
    """A cache file is missing, truncated, corrupted or was made by other inputs."""


def cache_dir() -> Path:
    """$STUDODDS_CACHE_DIR, else $XDG_CACHE_HOME/studodds, else ~/.cache/studodds."""
    explicit = os.environ.get("STUDODDS_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "studodds"


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
            f.unlink()
            removed += 1
        except OSError:
            pass
    return removed


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


def atomic_write_bytes(path: Path, chunks) -> None:
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


def save_arrays(path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    """Store ``arrays`` with ``meta`` (JSON-serialisable) atomically at ``path``."""
    layout, blobs, offset = {}, [], 0
    crc = 0
    for name, array in arrays.items():
        blob = np.ascontiguousarray(array).tobytes()
        layout[name] = {"dtype": array.dtype.str, "shape": list(array.shape),
                        "offset": offset, "length": len(blob)}
        crc = zlib.crc32(blob, crc)
        blobs.append(blob)
        offset += len(blob)
    header = json.dumps({"meta": meta, "arrays": layout, "crc32": crc, "length": offset},
                        sort_keys=True).encode()
    atomic_write_bytes(path, [MAGIC, struct.pack("<Q", len(header)), header, *blobs])


def load_arrays(path: Path, expect_meta: dict[str, Any]) -> dict[str, np.ndarray]:
    """Read arrays stored by :func:`save_arrays`; raise CacheError unless the file is whole,
    its checksum matches and its metadata equals ``expect_meta``."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
    except FileNotFoundError:
        raise CacheError("no cache file") from None
    except (OSError, ValueError) as exc:
        raise CacheError(f"cannot read cache: {getattr(exc, 'strerror', None) or exc}") from None
    if len(data) < len(MAGIC) + 8 or data[:len(MAGIC)] != MAGIC:
        raise CacheError("not a studodds cache file")
    start = len(MAGIC) + 8
    (header_len,) = struct.unpack("<Q", data[len(MAGIC):start])
    try:
        header = json.loads(data[start:start + header_len])
    except (ValueError, UnicodeDecodeError):
        raise CacheError("cache header is corrupted") from None
    if not isinstance(header, dict) or header.get("meta") != expect_meta:
        raise CacheError("cache was made by other inputs or another version")
    body = memoryview(data)[start + header_len:]
    if len(body) != header.get("length") or zlib.crc32(body) != header.get("crc32"):
        raise CacheError("cache checksum does not match (truncated or corrupted)")
    out = {}
    for name, spec in header["arrays"].items():
        chunk = body[spec["offset"]:spec["offset"] + spec["length"]]
        out[name] = np.frombuffer(chunk, dtype=np.dtype(spec["dtype"])).reshape(spec["shape"])
    return out
