"""Atomic, self-checking storage of named numpy arrays.

File layout: the magic line ``STUDODDS-ARRAYS 1\\n``, an 8-byte little-endian header length, a
JSON header (caller's metadata, and for each array its dtype, shape, offset, length), then the
raw arrays; the header ends with the SHA-256 of everything after it.  Writes go to a temporary
file in the same folder that is renamed into place, so a reader never sees a half-written file.
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

MAGIC = b"STUDODDS-ARRAYS 1\n"


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
    digest = hashlib.sha256()
    for name, array in arrays.items():
        blob = np.ascontiguousarray(array).tobytes()
        layout[name] = {"dtype": array.dtype.str, "shape": list(array.shape),
                        "offset": offset, "length": len(blob)}
        digest.update(blob)
        blobs.append(blob)
        offset += len(blob)
    header = json.dumps({"meta": meta, "arrays": layout, "sha256": digest.hexdigest()},
                        sort_keys=True).encode()
    atomic_write_bytes(path, [MAGIC, struct.pack("<Q", len(header)), header, *blobs])


def load_arrays(path: Path, expect_meta: dict[str, Any]) -> dict[str, np.ndarray]:
    """Read arrays stored by :func:`save_arrays`; raise CacheError unless the file is whole,
    its checksum matches and its metadata equals ``expect_meta``."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise CacheError("no cache file") from None
    except OSError as exc:
        raise CacheError(f"cannot read cache: {exc.strerror}") from None
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 8:
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
    if hashlib.sha256(body).hexdigest() != header.get("sha256"):
        raise CacheError("cache checksum does not match (truncated or corrupted)")
    out = {}
    for name, spec in header["arrays"].items():
        chunk = body[spec["offset"]:spec["offset"] + spec["length"]]
        out[name] = np.frombuffer(chunk, dtype=np.dtype(spec["dtype"])).reshape(spec["shape"])
    return out
