"""Atomic, self-checking storage of named numpy arrays.

File layout: the magic line ``STUDODDS-ARRAYS 2\\n``, an 8-byte little-endian header length, a
JSON header (caller's metadata, for each array its dtype, shape, offset and length, and the
CRC-32 of everything after the header), then the raw arrays.  CRC-32 detects truncation and
accidental corruption (every burst of up to 32 flipped bits) at memory speed.  Files are written
with :func:`enumerate.core.atomic.atomic_write_bytes`, so a reader never sees a half-written file.
Loaded arrays are read-only views of one private copy of the file, checked before use.
"""
from __future__ import annotations

import json
import os
import struct
import warnings
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from enumerate.core.atomic import atomic_write_bytes, remove_stale_temporaries

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
            data = f.read()          # one private copy: checked below, never changed after
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
        # read-only views of the bytes read (a memory map would change under the arrays if the
        # file were rewritten in place after the checksum vouched for it)
        out[name] = np.frombuffer(chunk, dtype=np.dtype(spec["dtype"])).reshape(spec["shape"])
    return out


class ArrayCache:
    """One cached result: named arrays in one checksummed file (:func:`save_arrays`) keyed by
    ``meta`` -- every input that changes them -- and, for a job that runs in chunks, a
    checkpoint file beside it that an interrupted run resumes from.

    Every cached array of studodds goes through this class: a valid file is used as is; a
    damaged one, or one made by other inputs, is reported with a one-line warning naming the
    file and recomputed; a file that cannot be written is a warning, never a lost answer.
    ``enabled=False`` (``--no-cache``) neither reads nor writes.
    """

    def __init__(self, path: Path, meta: dict[str, Any], what: str, *, enabled: bool = True) -> None:
        self.path = Path(path)
        self.meta = meta
        self.what = what
        self.enabled = enabled

    @property
    def checkpoint_path(self) -> Path:
        return self.path.with_name(self.path.stem + ".partial" + self.path.suffix)

    def load(self, names: tuple[str, ...] = ()) -> dict[str, np.ndarray] | None:
        """The cached arrays (holding at least ``names``), or None: caching is off, there is no
        file, or it is unusable (then with a warning)."""
        if not self.enabled:
            return None
        remove_stale_temporaries(self.path.parent)
        return self._read(self.path, names)

    def save(self, arrays: dict[str, np.ndarray]) -> None:
        """Store the finished result and drop the checkpoint."""
        if not self.enabled:
            return
        self._write(self.path, arrays)
        self.checkpoint_path.unlink(missing_ok=True)

    def load_checkpoint(self, names: tuple[str, ...] = ()) -> dict[str, np.ndarray] | None:
        """The arrays of the last checkpoint, or None (as :meth:`load`)."""
        return self._read(self.checkpoint_path, names) if self.enabled else None

    def save_checkpoint(self, arrays: dict[str, np.ndarray]) -> None:
        if self.enabled:
            self._write(self.checkpoint_path, arrays)

    def _read(self, path: Path, names: tuple[str, ...]) -> dict[str, np.ndarray] | None:
        try:
            arrays = load_arrays(path, self.meta)
        except CacheError as exc:
            if path.exists():
                warnings.warn(f"{self.what} cache {path} unusable ({exc}); rebuilding it", stacklevel=3)
            return None
        missing = [n for n in names if n not in arrays]
        if missing:
            warnings.warn(f"{self.what} cache {path} lacks arrays ({', '.join(missing)}); rebuilding it", stacklevel=3)
            return None
        return arrays

    def _write(self, path: Path, arrays: dict[str, np.ndarray]) -> None:
        try:
            save_arrays(path, self.meta, arrays)
        except OSError as exc:
            warnings.warn(f"could not write {self.what} cache {path}: {exc.strerror or exc}", stacklevel=3)
