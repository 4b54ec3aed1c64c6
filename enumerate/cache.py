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


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: Path, chunks) -> None:
    """Write the byte chunks to ``path`` through a temporary file and an atomic rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())   # mkstemp makes 0600; give the usual file mode
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


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
