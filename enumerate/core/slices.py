"""Slices of the (five-card hand, up card) classes, and sharded, resumable runs over them.

Two exact games are too large for one machine and are run slice by slice: the game with
switches of any number of cards (:mod:`enumerate.draws.exact`: the hand is the player's) and the
game of a player who sees a partner's hand (:mod:`enumerate.protection.seen_hand`: the hand is
the partner's).  Both walk the same classes: every canonical five-card hand (134,459 suit
classes, each weighted by its size) against each of the 47 up cards not in it -- 6,319,573
classes, 122,151,120 concrete (hand, up card) pairs.

A :class:`Slice` keeps the classes whose up card has one of some ranks and whose hand is in one
of some categories; :meth:`Slice.classes` lists them in a fixed order.  :func:`run_shards` cuts
them into shards, values the shards not yet stored -- on local threads or on a Dask cluster,
the result never depending on which -- and keeps each finished shard in a
:class:`ShardStore`: in memory, and in a checkpoint folder when one is named, one file a shard,
written atomically, with a SHA-256 over the run's key and its content, verified when read.
"""
from __future__ import annotations

import hashlib
import json
import re
import stat
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Generic, NoReturn, Protocol, TypeVar

import numpy as np

from enumerate.core.atomic import atomic_write_text
from enumerate.core.parallel import chunked_map
from enumerate.core.projection import Projection, announce
from evaluator.cards import RANKS
from evaluator.errors import ParameterError, StudoddsError
from evaluator.ranking import Category

#: Concrete (hand, up card) pairs, and their classes up to suits.
SITUATIONS = 122_151_120
CLASSES = 6_319_573
_RANK_OF = {r: i for i, r in enumerate(RANKS)}
#: The largest shard file read.
MAX_SHARD_BYTES = 1 << 22


def _parse_ranks(text: str) -> frozenset[int]:
    ranks: set[int] = set()
    for token in text.upper().replace("10", "T").split(","):
        token = token.strip()
        m = re.fullmatch(r"([2-9TJQKA])(?:\s*-\s*([2-9TJQKA]))?", token)
        if m is None:
            raise ParameterError("up", f"{token[:20]!r} is not a rank or a range of ranks such as 2-6 "
                                       "(ranks 2-9, T, J, Q, K, A, separated by commas; 'all' for every rank)")
        lo = _RANK_OF[m.group(1)]
        hi = _RANK_OF[m.group(2)] if m.group(2) else lo
        if hi < lo:
            raise ParameterError("up", f"{token!r} runs downwards: write the lower rank first, e.g. 2-6")
        ranks.update(range(lo, hi + 1))
    return frozenset(ranks)


def _parse_categories(text: str) -> frozenset[Category]:
    cats: set[Category] = set()
    for token in text.split(","):
        key = re.sub(r"[\s-]+", "_", token.strip().lower())
        try:
            cats.add(Category.from_key(key))
        except KeyError:
            raise ParameterError("hands", f"{token.strip()[:30]!r} is not a hand category: one of "
                                          + ", ".join(c.key for c in Category) + " (or 'all')") from None
    return frozenset(cats)


@dataclass(frozen=True)
class Slice:
    """The classes of a slice: up-card ranks (0 = deuce .. 12 = ace) and the five-card hand's
    categories."""

    up_ranks: frozenset[int] = frozenset(range(13))
    categories: frozenset[Category] = frozenset(Category)

    @classmethod
    def parse(cls, up: str | None = None, hands: str | None = None) -> "Slice":
        """The slice of ``up`` (ranks and ranges: "2-6,A") and ``hands`` (category keys:
        "full_house,four_of_a_kind"); None or "all" is every one.  ParameterError on bad text."""
        for name, text in (("up", up), ("hands", hands)):
            if text is not None and (not isinstance(text, str) or not text.strip() or len(text) > 300
                                     or not text.isprintable()):
                raise ParameterError(name, f"a comma-separated list, not {str(text)[:40]!r}")
        ranks = frozenset(range(13)) if up is None or up.strip().lower() == "all" else _parse_ranks(up)
        cats = frozenset(Category) if hands is None or hands.strip().lower() == "all" else _parse_categories(hands)
        return cls(ranks, cats)

    @property
    def whole_game(self) -> bool:
        return len(self.up_ranks) == 13 and len(self.categories) == len(Category)

    def key(self) -> dict[str, list[str]]:
        return {"up_ranks": [RANKS[r] for r in sorted(self.up_ranks)],
                "hands": [c.key for c in sorted(self.categories)]}

    def label(self, hand: str = "player hands") -> str:
        if self.whole_game:
            return "the whole game"
        parts = []
        if len(self.up_ranks) < 13:
            parts.append("up card " + ", ".join(RANKS[r] for r in sorted(self.up_ranks)))
        if len(self.categories) < len(Category):
            parts.append(f"{hand} " + ", ".join(c.label for c in sorted(self.categories)))
        return "; ".join(parts)

    def classes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(cards (N, 5) uint8 sorted, up (N,) uint8, weight (N,) int64): the slice's classes in
        their fixed order (canonical hands in colex order, each against its up cards in
        increasing order)."""
        from enumerate.core.engine import hand_tables  # lazy: the hand tables take a second to build
        from evaluator.ranking import CATEGORY_BY_STRENGTH  # lazy: with the hand tables
        t = hand_tables()
        hands = t.cards_by_index[t.canon_index]
        cats = CATEGORY_BY_STRENGTH[t.canon_strength]
        rows = np.flatnonzero(np.isin(cats, [int(c) for c in self.categories]))
        allowed = np.zeros(52, dtype=bool)
        for r in self.up_ranks:
            allowed[4 * r: 4 * r + 4] = True
        ok = np.broadcast_to(allowed, (rows.size, 52)).copy()
        ok[np.arange(rows.size)[:, None], hands[rows].astype(np.int64)] = False
        r_idx, up = np.nonzero(ok)
        rows_sel = rows[r_idx]
        return (np.ascontiguousarray(hands[rows_sel], dtype=np.uint8), up.astype(np.uint8),
                t.canon_weight[rows_sel].astype(np.int64))


def run_key(kind: str, variant_text: str, sl: Slice, shard: int, version: int) -> dict[str, Any]:
    """What a checkpoint is made for: the kind of run, the variant file, the slice, the shard
    size, the version of what a shard holds, the evaluator."""
    from enumerate.core.counts import evaluator_fingerprint  # lazy: reads the evaluator's tables
    return {"kind": kind, "variant_sha256": hashlib.sha256(variant_text.encode()).hexdigest(),
            "slice": sl.key(), "shard": shard, "version": version, "evaluator": evaluator_fingerprint()}


def read_fields(data: Any, fields: set[str], optional: frozenset[str] = frozenset()) -> float:
    """A stored shard's sums: ValueError unless ``data`` is an object of exactly ``fields`` (and
    optionally "seconds", a time, and any of ``optional``); returns the seconds (0.0 when absent)."""
    if not isinstance(data, dict) or not fields <= set(data) <= fields | optional | {"seconds"}:
        raise ValueError("a shard's sums have the wrong fields")
    seconds = data.get("seconds", 0.0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < 1e9:
        raise ValueError("its seconds are not a time")
    return float(seconds)


#: Counts a stored shard or kept whole game may hold are below this: the largest, a whole game's
#: return-table rows with the bought game, count situations x draws x dealer hole-card sets x
#: replacement shares (the house's Lunar Poker: 1.5e27 combinations, about 2**91).
COUNT_LIMIT = 1 << 128


def read_count(x: Any) -> int:
    """A count of a stored shard: a non-negative integer in range (ValueError if not)."""
    if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x >= COUNT_LIMIT:
        raise ValueError(f"a count out of range: {str(x)[:40]}")
    return x


def read_fraction(x: Any) -> Fraction:
    """An exact fraction of a stored shard, written "p/q" (ValueError if not)."""
    if not isinstance(x, str) or len(x) > 400 or not re.fullmatch(r"-?\d+(/\d+)?", x):
        raise ValueError(f"not an exact fraction: {str(x)[:40]}")
    return Fraction(x)


def classes_digest(cards: np.ndarray, up: np.ndarray, weight: np.ndarray) -> str:
    """SHA-256 of a shard's classes: what a stored shard must have been made from."""
    h = hashlib.sha256()
    for a in (np.ascontiguousarray(cards, dtype=np.uint8), np.ascontiguousarray(up, dtype=np.uint8),
              np.ascontiguousarray(weight, dtype=np.int64)):
        h.update(a.tobytes())
    return h.hexdigest()


def shard_digest(key: Any, index: int, sums: Any) -> str:
    """A shard file's SHA-256: over the run's key, the shard's index and its sums."""
    text = json.dumps({"key": key, "shard": index, "sums": sums}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class ShardStore:
    """Finished shards: in memory, and in a checkpoint folder when one is named (``run.json``
    with the run's key, ``shard-NNNNNNN.json`` per shard, each written atomically).

    A checkpoint is input, verified when read: the folder holds only these files; ``run.json``
    names this run (its ``key``: the command, the variant file, the slice, the shard size, the
    version, the evaluator); each shard file is a regular file of at most
    :data:`MAX_SHARD_BYTES` whose SHA-256 over the key and its content matches; and when a
    shard is used, its sums must parse, add up and be made from the classes that shard holds
    (:meth:`load`).  Anything else is refused with one line naming the file; nothing is
    silently trusted or dropped, and a folder holding other files is never written to.

    ``owned``: the folder is the program's own (a whole game's shards in the user cache), not a
    checkpoint the user named: what cannot be used there is said in one warning and removed --
    a damaged shard is valued again, a folder that is not this run's is emptied and counted
    anew -- as the count cache is rebuilt, instead of asking the user to delete a file."""

    PATTERN = re.compile(r"shard-(\d{7})\.json")

    def __init__(self, folder: Path | None, key: dict[str, Any], command: str, *, owned: bool = False) -> None:
        self.folder, self.key, self.command, self.owned = folder, key, command, owned
        self.raw: dict[int, Any] = {}
        if folder is None:
            return
        if owned:
            try:
                self._read_folder(folder, key, command)
            except ParameterError as exc:
                self._discard(exc.reason[:300], every=True)
            return
        self._read_folder(folder, key, command)

    @staticmethod
    def holds_run(folder: Path, key: dict[str, Any]) -> bool:
        """Whether ``folder`` is a checkpoint of the run ``key``: its ``run.json`` names that run
        (the rest of the folder is verified when it is read, by a store made on it)."""
        if folder.is_symlink() or not folder.is_dir():
            return False
        try:
            return bool(ShardStore._read(folder / "run.json") == key)
        except ParameterError:
            return False

    def _discard(self, reason: str, every: bool = False, index: int | None = None) -> None:
        """In a folder the program owns (the user cache): say what is wrong in one warning and
        remove what cannot be used -- one shard file (it is valued again), or every file of the
        run when the folder itself is not this run's -- instead of asking the user to."""
        assert self.folder is not None
        if every:
            self.raw.clear()
            doomed = [p for p in self.folder.iterdir() if not p.is_dir() or p.is_symlink()] \
                if self.folder.is_dir() and not self.folder.is_symlink() else []
            what = "its files were removed; the game is counted again"
        else:
            assert index is not None
            self.raw.pop(index, None)
            doomed = [self.folder / f"shard-{index:07d}.json"]
            what = "that shard is valued again"
        problem = re.sub(r": (remove (it|that file)|name a new folder|rerun with)[^:]*$", "", reason)   # advice for a user's folder
        warnings.warn(f"cache of {self.command}: {problem}: {what}", stacklevel=4)
        for path in doomed:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise ParameterError("cache", f"{path}: cannot be removed ({exc.strerror or exc}): make the cache "
                                              "folder writable, or run with --no-cache") from None

    def _read_folder(self, folder: Path, key: dict[str, Any], command: str) -> None:
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise ParameterError("checkpoint", f"{folder}: not a folder (a checkpoint of {command} is a folder): "
                                               "name a new or an earlier checkpoint folder")
        if not folder.exists():
            return
        names = sorted(p.name for p in folder.iterdir())
        if not names:
            return
        if "run.json" not in names:
            raise ParameterError("checkpoint", f"{folder}: not empty and not a checkpoint of {command} (no run.json): "
                                               "name a new folder")
        strange = [n for n in names if n != "run.json" and not self.PATTERN.fullmatch(n)]
        if strange:
            raise ParameterError("checkpoint", f"{folder}: holds {strange[0][:40]!r}, which no run of {command} "
                                               "writes: name a new folder")
        if self._read(folder / "run.json") != key:
            raise ParameterError("checkpoint", f"{folder}: made for another variant file, slice or version: name a "
                                               "new folder, or rerun with the same ones")
        for n in names:
            m = self.PATTERN.fullmatch(n)
            if m is None:
                continue
            index = int(m.group(1))
            try:
                data = self._read(folder / n)
                if (not isinstance(data, dict) or set(data) != {"shard", "sha256", "sums"} or data["shard"] != index
                        or data["sha256"] != shard_digest(key, index, data["sums"])):
                    raise ParameterError("checkpoint", f"{folder / n}: its checksum does not match its content "
                                                       "(edited or damaged): remove that file to value its shard again")
            except ParameterError as exc:
                if not self.owned:
                    raise
                self._discard(exc.reason, index=index)
                continue
            self.raw[index] = data["sums"]

    @staticmethod
    def _read(path: Path) -> Any:
        try:
            info = path.lstat()
            if not stat.S_ISREG(info.st_mode):
                raise ParameterError("checkpoint", f"{path}: not a regular file: remove it")
            if info.st_size > MAX_SHARD_BYTES:
                raise ParameterError("checkpoint", f"{path}: {info.st_size:,} bytes, more than a checkpoint file holds: "
                                                   "remove it")
            return json.loads(path.read_text(encoding="utf-8"))
        except ParameterError:
            raise
        except RecursionError:
            raise ParameterError("checkpoint", f"{path}: not a readable checkpoint file (nested too deeply)") from None
        except (OSError, ValueError) as exc:
            raise ParameterError("checkpoint", f"{path}: not a readable checkpoint file ({str(exc)[:80]}): "
                                               "remove it to value its shard again") from None

    def load(self, index: int, parse: Callable[[Any], S], digest: str) -> S | None:
        """Shard ``index`` if stored: ``parse(raw)`` (ValueError when it is not well formed or
        does not add up), whose ``digest`` must be ``digest`` (its classes')."""
        if index not in self.raw:
            return None
        where = self.folder / f"shard-{index:07d}.json" if self.folder is not None else Path("(memory)")
        try:
            sums = parse(self.raw[index])
        except (ValueError, ArithmeticError) as exc:
            problem = f"{where}: not a shard of this run ({exc}): remove it"
        else:
            if sums.digest == digest:
                return sums
            problem = f"{where}: holds other classes than shard {index} of this slice: remove it"
        if self.owned and self.folder is not None:
            self._discard(problem, index=index)
            return None
        raise ParameterError("checkpoint", problem)

    def save(self, index: int, data: Any) -> None:
        """Keep shard ``index``'s sums (their JSON form)."""
        self.raw[index] = data
        if self.folder is None:
            return
        if not (self.folder / "run.json").exists():
            self.folder.mkdir(parents=False, exist_ok=True)
            atomic_write_text(self.folder / "run.json", json.dumps(self.key, sort_keys=True) + "\n")
        atomic_write_text(self.folder / f"shard-{index:07d}.json",
                          json.dumps({"shard": index, "sha256": shard_digest(self.key, index, data), "sums": data}) + "\n")


class KeptSumsError(ValueError):
    """Kept sums -- the exact sums of a whole game that a certified table keeps, read back
    instead of counted again -- that cannot be used: edited, damaged, or not adding up."""


def _canonical_digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def sealed(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` with the SHA-256 of its canonical JSON added as ``sha256``: how a certified table
    keeps a whole game's sums, so that any edit of them is named when they are read back
    (:func:`unsealed`), not only the edits that break their sums."""
    return {**obj, "sha256": _canonical_digest(obj)}


def unsealed(data: Any) -> dict[str, Any]:
    """The object :func:`sealed` was given, after checking its SHA-256; KeptSumsError if it has
    none or it does not match."""
    if not isinstance(data, dict) or not isinstance(data.get("sha256"), str):
        raise KeptSumsError("it carries no checksum (sha256): not kept sums written by this version")
    body = {k: v for k, v in data.items() if k != "sha256"}
    if data["sha256"] != _canonical_digest(body):
        raise KeptSumsError("its checksum does not match its content (edited or damaged)")
    return body


def sums_do_not_add_up(message: str, store: ShardStore, resumed: bool) -> NoReturn:
    """A run's end-of-run self-check failed: with stored shards read, a shard was edited so that
    it still added up on its own -- a ParameterError naming the user's checkpoint, or, in the
    user cache (which the program owns), its shards removed so that the next run counts the
    game anew; otherwise a defect."""
    if resumed and store.owned and store.folder is not None:
        store._discard(message, every=True)
        raise StudoddsError(f"{message}: a cached shard of {store.command} was edited so that it still added up on its "
                            "own; the cached shards were removed: run the command again to count the game anew")
    if resumed:
        raise ParameterError("checkpoint", f"{message}: a stored shard was edited; rerun with a new checkpoint folder")
    raise AssertionError(f"{message}: a defect, please report it")


class Sums(Protocol):
    """What a shard's sums offer the runner."""

    digest: str

    def to_json(self) -> Any: ...


S = TypeVar("S", bound=Sums)


def run_shards(store: ShardStore, classes: tuple[np.ndarray, np.ndarray, np.ndarray], size: int,
               parse: Callable[[Any, np.ndarray], S], work: Callable[..., S], shared: tuple[Any, ...], *,
               scheduler: str | None, threads: int, progress: Callable[[int], None] | None,
               seconds_per_class: float | None = None, unit: str = "class") -> Iterator[S]:
    """Every shard's sums, in shard order: the stored ones verified (:meth:`ShardStore.load`),
    the others valued by ``work(*shared, cards, up, weight)`` -- on a pool of ``threads`` local
    threads (each shard on one OpenMP thread) or on the Dask ``scheduler`` -- and stored as each
    finishes.  ``parse(raw, weights)`` reads a stored shard.  ``seconds_per_class``: what one
    class (a ``unit``) costs, from which the classes left are announced before they are counted
    (:func:`enumerate.core.projection.announce`)."""
    cards, up, weight = classes
    n = up.shape[0]

    def part(i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lo, hi = i * size, min(n, (i + 1) * size)
        return cards[lo:hi], up[lo:hi], weight[lo:hi]

    def stored(i: int) -> S | None:
        c, u, w = part(i)
        return store.load(i, lambda raw: parse(raw, w), classes_digest(c, u, w))

    shards = range(-(-n // size))
    done: dict[int, S] = {}
    for i in shards:
        found = stored(i)
        if found is not None:
            done[i] = found
            if progress is not None:
                progress(part(i)[1].shape[0])
    todo = [i for i in shards if i not in done]
    if seconds_per_class is not None and scheduler is None:
        announce(progress, Projection("", sum(part(i)[1].shape[0] for i in todo), unit, seconds_per_class), threads)
    for i, sums in chunked_map(((i, part(i)) for i in todo), local=work, remote=work, shared=shared,
                               scheduler=scheduler, threads=threads, pool=True, ordered=False):
        store.save(i, sums.to_json())
        done[i] = sums
        if progress is not None:
            progress(part(i)[1].shape[0])
    for i in shards:
        yield done.pop(i)


G = TypeVar("G")


class GivenSums(Generic[G]):
    """Whole games given instead of counted, by the key of their rules: within :meth:`given` a
    whole-game run finds the sums a certified table keeps (read back by ``check``) with
    :meth:`get`, and checks them as it checks its own."""

    def __init__(self) -> None:
        self._by_key: dict[str, G] = {}

    @contextmanager
    def given(self, key: str, sums: G) -> Iterator[None]:
        self._by_key[key] = sums
        try:
            yield
        finally:
            self._by_key.pop(key, None)

    def get(self, key: str) -> G | None:
        return self._by_key.get(key)
