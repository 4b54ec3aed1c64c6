"""Atomic, self-checking storage of named numpy arrays.

File layout: the magic line ``STUDODDS-ARRAYS 3\\n``, an 8-byte little-endian header length, the
4-byte CRC-32 of the header, a JSON header (caller's metadata, for each array its dtype, shape,
offset and length, and the CRC-32 of everything after the header), then the raw arrays.  CRC-32
detects truncation and accidental corruption (every burst of up to 32 flipped bits) at memory
speed, in the header as in the arrays; the layout is checked against the body before any array
is made of it.  Files are written
with :func:`enumerate.core.atomic.atomic_write_bytes`, so a reader never sees a half-written file.
Loaded arrays are read-only views of one private copy of the file, checked before use.
"""
from __future__ import annotations

import hashlib
import json
import math
import mmap
import os
import queue
import struct
import threading
import warnings
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from enumerate.core.atomic import atomic_write_bytes, remove_stale_temporaries

#: The version of this file layout.  It is part of every cache file's name (:func:`keyed_path`,
#: :func:`format_tag`), so two versions of the package sharing one cache folder each keep their
#: own files instead of replacing each other's on every run.
FORMAT = 3
MAGIC = f"STUDODDS-ARRAYS {FORMAT}\n".encode()


def format_tag() -> str:
    """``f<FORMAT>``: the part of a cache file's name that names its layout."""
    return f"f{FORMAT}"


def keyed_path(prefix: str, meta: dict[str, Any]) -> Path:
    """``<cache folder>/<prefix>-f<FORMAT>-<16 hex digits of the SHA-256 of meta>.bin``: one file
    per set of inputs (``meta`` holds every input that changes the cached arrays,
    JSON-serialisable) and per file layout."""
    digest = hashlib.sha256(json.dumps(meta, sort_keys=True).encode()).hexdigest()[:16]
    return cache_dir() / f"{prefix}-{format_tag()}-{digest}.bin"


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
    atomic_write_bytes(path, [MAGIC, struct.pack("<QI", len(header), zlib.crc32(header)), header, *blobs])


#: Bytes read between two checksum steps: the reading thread fills the next chunk while the
#: caller checksums the last one (both release the GIL), so a warm load costs about one pass.
CHUNK = 8 << 20


def load_arrays(path: Path, expect_meta: dict[str, Any]) -> dict[str, np.ndarray]:
    """Read arrays stored by :func:`save_arrays`; raise CacheError unless the file is whole,
    its checksum matches and its metadata equals ``expect_meta``.

    The body is read into one private buffer (never a memory map: a file rewritten in place
    after the checksum vouched for it would change the arrays under the caller) and checksummed
    chunk by chunk while the next chunk is read; the arrays are read-only views of it."""
    try:
        with open(path, "rb", buffering=0) as f:
            head = _read_exact(f, len(MAGIC) + 12)
            if len(head) < len(MAGIC) + 12 or head[:len(MAGIC)] != MAGIC:
                raise CacheError("not a studodds cache file of this version")
            header_len, header_crc = struct.unpack("<QI", head[len(MAGIC):])
            if header_len > 1 << 24:
                raise CacheError("cache header is corrupted")
            raw = _read_exact(f, header_len)
            if zlib.crc32(raw) != header_crc:
                raise CacheError("cache header checksum does not match (truncated or corrupted)")
            try:
                header = json.loads(raw)
            except (ValueError, UnicodeDecodeError):
                raise CacheError("cache header is corrupted") from None
            if not isinstance(header, dict) or header.get("meta") != expect_meta:
                raise CacheError("cache was made by other inputs or another version")
            length = header.get("length")
            if not isinstance(length, int) or length < 0:
                raise CacheError("cache header is corrupted")
            body, crc = _read_checksummed(f, length)
            if f.read(1):
                raise CacheError("cache checksum does not match (truncated or corrupted)")
    except FileNotFoundError:
        raise CacheError("no cache file") from None
    except (OSError, ValueError) as exc:
        raise CacheError(f"cannot read cache: {getattr(exc, 'strerror', None) or exc}") from None
    if len(body) != length or crc != header.get("crc32"):
        raise CacheError("cache checksum does not match (truncated or corrupted)")
    body.flags.writeable = False
    try:
        return {name: _array(body, spec) for name, spec in header["arrays"].items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        raise CacheError("cache header is corrupted (an array's layout does not fit the file)") from None


def _array(body: np.ndarray, spec: dict[str, Any]) -> np.ndarray:
    """One array of the body as the header lays it out; ValueError unless the layout fits."""
    offset, length, shape = spec["offset"], spec["length"], spec["shape"]
    dtype = np.dtype(spec["dtype"])
    if (not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (offset, length, *shape))
            or offset + length > len(body) or math.prod(shape) * dtype.itemsize != length or dtype.hasobject):
        raise ValueError("layout")
    return body[offset:offset + length].view(dtype).reshape(shape)


def _read_exact(f: Any, n: int) -> bytes:
    """Up to n bytes (fewer only at the end of the file)."""
    parts, got = [], 0
    while got < n:
        part = f.read(n - got)
        if not part:
            break
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def _read_checksummed(f: Any, length: int) -> tuple[np.ndarray, int]:
    """(the next ``length`` bytes of f, or fewer at the end of the file; their CRC-32), reading
    chunk k + 1 in a helper thread while chunk k is checksummed here."""
    # Private anonymous memory, its pages made at once (MAP_POPULATE), never a map of the file.
    # Not np.empty: numpy asks for huge pages for a large array, and the compaction the kernel
    # may run to find them stalls a warm start by a few hundred milliseconds now and then.
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_POPULATE", 0)
    memory = mmap.mmap(-1, max(length, 1), flags=flags)
    buf = np.frombuffer(memory, dtype=np.uint8, count=length)
    view = memoryview(memory)
    done: queue.SimpleQueue[tuple[int, int] | BaseException | None] = queue.SimpleQueue()

    def reader() -> None:
        pos = 0
        try:
            while pos < length:
                n = f.readinto(view[pos:pos + CHUNK])
                if not n:
                    break
                done.put((pos, n))
                pos += n
        except BaseException as exc:                 # handed to the caller
            done.put(exc)
        done.put(None)

    thread = threading.Thread(target=reader, name="studodds-cache-read", daemon=True)
    thread.start()
    crc, got = 0, 0
    while (item := done.get()) is not None:
        if isinstance(item, BaseException):
            thread.join()
            raise item
        pos, n = item
        crc = zlib.crc32(view[pos:pos + n], crc)
        got = pos + n
    thread.join()
    return buf[:got], crc


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
