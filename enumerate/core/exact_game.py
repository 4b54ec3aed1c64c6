"""One exact whole-game protocol: a game counted over classes, shard by shard, and the sums a
certified table keeps of it.

Every exact game too long for one call -- the game with switches of any number of cards, the
game of a player who sees one other hand, one player on two boxes -- is the same computation:
a fixed list of *classes* (each a row of ``cards``, an up card or up rank, and a weight), cut in
order into shards; a *kernel* that values one shard into exact integer *sums*; sums that add,
go to JSON and back, and are verified when read; and an end-of-run *check* of the total against
something counted another way (the count table's plain game).  A game says those things once,
as a :class:`ShardedGame`; this module runs any of them:

* :func:`run` -- a slice of the game's classes on local threads or a Dask scheduler, resuming
  from a :class:`~enumerate.core.slices.ShardStore` (a user's checkpoint folder, or the user
  cache).  The sums are exact integers, so the total is the same integers however the work is
  split; the check runs at the end (a stored shard edited so that it still added up on its own
  is caught there, :func:`~enumerate.core.slices.sums_do_not_add_up`).
* :func:`whole_game` -- every class, its shards kept in the user cache under the game's name and
  the table's rules (:func:`rules_text`: without its name and description, so a table renamed
  reads the same shards) or in a checkpoint folder the user names (:func:`shards_in`: a whole
  game counted elsewhere with ``draws-exact``), or the sums a certified table keeps given instead (:func:`given`),
  checked as a run checks its own (:class:`~enumerate.core.slices.KeptSumsError` when they do
  not add up).
* :class:`KeptGame` -- a whole game a certified table keeps as sums: the file, the object's
  kind, and how the total goes to that object and back (:func:`kept_json`, :func:`read_kept`).

What the sums *mean* -- the return table, the raises, the figures a kind adds -- is the game's
own (its package); so is the kernel.  The variant is passed through untouched (this layer does
not read rules), so any object with ``to_dict()`` serves.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from enumerate.core.slices import KeptSumsError, ShardStore, Slice, classes_digest, run_key, run_shards, sums_do_not_add_up
from evaluator.errors import ParameterError

#: (cards (N, k) uint8, up (N,) uint8, weight (N,) int64): what a game is counted over.
Classes = tuple[np.ndarray, np.ndarray, np.ndarray]


class Sums(Protocol):
    """What a shard's sums offer: the digest of the classes they were made from, their
    core-seconds (not a figure), addition, and their JSON form."""

    digest: str
    seconds: float

    def add(self, other: Any) -> None: ...

    def to_json(self) -> Any: ...


S = TypeVar("S", bound=Sums)


@dataclass(frozen=True)
class ShardedGame(Generic[S]):
    """An exact game counted over classes (see the module docstring).

    ``work(*shared, cards, up, weight)`` values one shard on one OpenMP thread, where ``shared``
    is ``share(variant, counts, slice)`` (made once a run: the variant, and whatever the kernel
    reads besides); ``parse(raw, weights)`` reads a stored shard of classes of those weights
    (ValueError when it is not well formed or does not add up); ``check(variant, counts,
    classes, slice, total)`` says what does not add up in a total, or None."""

    #: the run's kind in a checkpoint's key ("draws_exact_ranks_checkpoint")
    key: str
    #: the command whose checkpoints these are (for messages)
    command: str
    #: what a class is called on a progress bar ("group", "class")
    unit: str
    #: classes per shard, and the version of what a shard holds (bump when it changes)
    shard: int
    version: int
    classes: Callable[[Slice], Classes]
    work: Callable[..., S]
    parse: Callable[[Any, np.ndarray], S]
    empty: Callable[[], S]
    #: core-seconds a class costs for a variant: what a run is projected from, never a figure
    cost: Callable[[Any], float]
    share: Callable[[Any, Any, Slice], tuple[Any, ...]] = field(default=lambda variant, counts, sl: (variant,))
    check: Callable[[Any, Any, Classes, Slice, S], str | None] | None = None
    #: whether a checkpoint is keyed by the table's rules (:func:`rules_text`) or by the variant
    #: file's text as given
    by_rules: bool = True
    #: what the hands of a slice's categories are (for messages: "player hands", "partner hands")
    hands: str = "player hands"
    #: whether the kernel reads the count table (``share`` gets it) besides any check
    reads_counts: bool = False


def rules_text(variant: Any) -> str:
    """What a whole game's sums depend on, as text (the key of its shards and of the sums given
    instead): the table's rules without its name and description, so that a table renamed or
    described anew reads the same sums."""
    rules = {k: v for k, v in variant.to_dict().items() if k not in ("name", "description")}
    return json.dumps(rules, sort_keys=True)


def checkpoint_key(game: ShardedGame[Any], variant: Any, variant_text: str, sl: Slice) -> dict[str, Any]:
    """What a checkpoint of ``game`` over ``sl`` is made for (:func:`enumerate.core.slices.run_key`)."""
    return run_key(game.key, rules_text(variant) if game.by_rules else variant_text, sl, game.shard, game.version)


R = TypeVar("R")


@dataclass(frozen=True)
class SliceRun(Generic[S, R]):
    """A run of a slice of ``game``, its checkpoint read and verified and its classes counted
    before any work (:func:`open_run`); :meth:`run` counts it and gives ``make(total, classes)``,
    the game's figures of the slice."""

    game: ShardedGame[S]
    variant: Any
    slice: Slice
    store: ShardStore
    listed: Classes
    make: Callable[[S, int], R]

    @property
    def classes(self) -> int:
        """The slice's classes (the progress bar's steps)."""
        return self.listed[1].shape[0]

    @property
    def needs_counts(self) -> bool:
        """Whether the run checks itself against the count table (pass it to :meth:`run`)."""
        return self.game.check is not None or self.game.reads_counts

    def run(self, counts: Any = None, *, scheduler: str | None = None, threads: int = 1,
            progress: Callable[[int], None] | None = None) -> R:
        if self.needs_counts and counts is None:
            raise ValueError("this game checks itself against the count table: pass counts")
        total, n = run(self.game, self.variant, self.slice, self.store, counts=counts, scheduler=scheduler,
                       threads=threads, progress=progress, classes=self.listed)
        return self.make(total, n)


def open_run(game: ShardedGame[S], variant: Any, variant_text: str, sl: Slice, checkpoint: Path | ShardStore | None,
             make: Callable[[S, int], R]) -> SliceRun[S, R]:
    """A run of the slice ``sl`` of ``game`` (:class:`SliceRun`): ``checkpoint``, a folder of
    finished shards (a rerun resumes), read and verified now (ParameterError naming what is
    wrong), and the slice's classes counted (ParameterError when it holds none)."""
    store = checkpoint if isinstance(checkpoint, ShardStore) else ShardStore(
        checkpoint, checkpoint_key(game, variant, variant_text, sl), game.command)
    listed = game.classes(sl)
    _not_empty(game, sl, listed)
    return SliceRun(game, variant, sl, store, listed, make)


def _not_empty(game: ShardedGame[Any], sl: Slice, classes: Classes) -> None:
    if classes[1].shape[0] == 0:
        raise ParameterError("up", f"the slice '{sl.label(game.hands)}' holds no situation: widen it")


def run(game: ShardedGame[S], variant: Any, sl: Slice, store: ShardStore, *, counts: Any = None,
        scheduler: str | None = None, threads: int = 1,
        progress: Callable[[int], None] | None = None, classes: Classes | None = None) -> tuple[S, int]:
    """(the exact total of every class of the slice ``sl``, the number of classes), shard by
    shard: the stored ones verified, the others valued on ``threads`` local threads or on the
    Dask ``scheduler`` and stored as each finishes; then the game's check of the total
    (``counts``: the count table it reads).  ``classes``: the slice's, when already listed.
    ParameterError when the slice holds no class."""
    if classes is None:
        classes = game.classes(sl)
        _not_empty(game, sl, classes)
    n = classes[1].shape[0]
    resumed = bool(store.raw)
    total = game.empty()
    for sums in run_shards(store, classes, game.shard, game.parse, game.work, game.share(variant, counts, sl),
                           scheduler=scheduler, threads=threads, progress=progress,
                           seconds_per_class=game.cost(variant), unit=game.unit):
        total.add(sums)
    if game.check is not None:
        problem = game.check(variant, counts, classes, sl, total)
        if problem is not None:
            sums_do_not_add_up(problem, store, resumed)
    return total, n


@dataclass(frozen=True)
class KeptGame(Generic[S]):
    """A whole game a certified table keeps as exact sums, so that ``check`` reads them back
    instead of counting for core-hours: ``game`` over every class, the ``file`` beside the
    table's figures holding an object of kind ``kind``, ``cache`` the folder of its shards in
    the user cache; ``to_kept(total, classes)`` is that object (without its seal) and
    ``from_kept(object)`` the total again (ValueError when it is not one); ``foreign(variant,
    total)`` what shows a total read back is not the game of ``variant``'s rules (a kept file of
    another table's, copied into this table's folder), or None."""

    game: ShardedGame[S]
    file: str
    kind: str
    cache: str
    to_kept: Callable[[S, int], dict[str, Any]]
    from_kept: Callable[[Any], S]
    #: what the whole game is, for messages ("the whole two-box game")
    title: str
    foreign: Callable[[Any, S], str | None] = field(default=lambda variant, total: None)


#: Whole games given instead of counted (:func:`given`), and checkpoint folders named for whole
#: games (:func:`shards_in`), each by :func:`_table_key`.
_GIVEN: dict[tuple[str, str], Any] = {}
_FOLDERS: dict[tuple[str, str], ShardStore] = {}


def _table_key(kept: KeptGame[Any], variant: Any) -> tuple[str, str]:
    """Which whole game of which table's rules an entry of _GIVEN or _FOLDERS is for."""
    return kept.file, rules_text(variant)


@contextmanager
def _registered(registry: dict[tuple[str, str], Any], key: tuple[str, str], value: Any) -> Iterator[None]:
    """``value`` under ``key`` in ``registry`` for the block."""
    registry[key] = value
    try:
        yield
    finally:
        registry.pop(key, None)


def given(kept: KeptGame[S], variant: Any, data: Any) -> contextlib.AbstractContextManager[None]:
    """Within the block the whole game of ``variant`` is read from the kept object ``data``
    (:func:`read_kept`; ValueError when it is not one) instead of counted; :func:`whole_game`
    checks it as a run checks its own."""
    return _registered(_GIVEN, _table_key(kept, variant), read_kept(kept, data))


def shards_in(kept: KeptGame[S], variant: Any, folder: Path) -> contextlib.AbstractContextManager[None]:
    """Within the block the whole game of ``variant`` keeps its shards in the user's checkpoint
    ``folder`` instead of the user cache: the folder a ``draws-exact`` run of the whole game
    wrote (the same key: the game, the table's rules, every class), so a run done elsewhere -- on
    a cluster, in shards over days -- is certified from its shards.  The folder is read and
    verified now, as any checkpoint (ParameterError naming what is wrong: another table's, an
    edited shard, a file no run writes); the shards it lacks are counted into it."""
    store = ShardStore(folder, checkpoint_key(kept.game, variant, "", Slice()), kept.game.command)
    return _registered(_FOLDERS, _table_key(kept, variant), store)


def is_checkpoint_of(kept: KeptGame[Any], variant: Any, folder: Path) -> bool:
    """Whether ``folder`` holds a run of the whole game of ``variant`` (its ``run.json`` has
    that run's key; :func:`shards_in` verifies the rest)."""
    return ShardStore.holds_run(folder, checkpoint_key(kept.game, variant, "", Slice()))


def cache_folder(kept: KeptGame[Any], variant: Any) -> Path:
    """Where the whole game of a table keeps its shards under the user cache (made if missing):
    a checkpoint like any other, verified when read, keyed by the run's key, so that an
    interrupted ``analyze`` or ``batch`` resumes and a later run reads what they counted."""
    from enumerate.core.array_store import cache_dir  # lazy: only the whole games use it
    key = checkpoint_key(kept.game, variant, "", Slice())
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:24]
    parent = cache_dir() / kept.cache
    parent.mkdir(parents=True, exist_ok=True)
    return parent / digest


def whole_game(kept: KeptGame[S], variant: Any, counts: Any, *, threads: int = 1,
               progress: Callable[[int], None] | None = None, use_cache: bool = True) -> tuple[S, int]:
    """(the exact total of every class of ``kept``'s game, the number of classes): the sums
    given by :func:`given`, checked as a run checks its own (KeptSumsError when they do not add
    up), or counted (:func:`run`), the shards kept in the checkpoint folder named by
    :func:`shards_in`, else in :func:`cache_folder` (``use_cache=False``: counted anew, in memory)."""
    game, sl, key = kept.game, Slice(), _table_key(kept, variant)
    found = _GIVEN.get(key)
    if found is not None:
        classes = game.classes(sl)
        foreign = kept.foreign(variant, found)
        if foreign is not None:
            raise KeptSumsError(f"another table's sums, not {kept.title} under these rules: {foreign}")
        problem = None if game.check is None else game.check(variant, counts, classes, sl, found)
        if problem is not None:
            raise KeptSumsError(f"they do not add up ({problem})")
        return found, classes[1].shape[0]
    store = _FOLDERS.get(key)
    if store is None:
        store = ShardStore(cache_folder(kept, variant) if use_cache else None, checkpoint_key(game, variant, "", sl),
                           game.command, owned=True)
    return run(game, variant, sl, store, counts=counts, threads=threads, progress=progress)


def kept_json(kept: KeptGame[S], total: S, classes: int) -> dict[str, Any]:
    """The object a certified table keeps of the whole game's ``total`` (over ``classes``): the
    game's own form of it, its digest that of every class of the whole game, its core-seconds
    left out (not a figure)."""
    return kept.to_kept(total, classes)


def read_kept(kept: KeptGame[S], data: Any) -> S:
    """The whole game's total from a kept object (:func:`kept_json`), verified as a stored shard
    is -- its kind, fields, version, every sum well formed and adding up to every situation --
    and its digest that of every class of the whole game (the rest is checked against the count
    table when used).  ValueError if it is not one."""
    if not isinstance(data, dict) or data.get("kind") != kept.kind:
        raise ValueError(f"not the sums of {kept.title}")
    sums = kept.from_kept(data)
    if sums.digest != classes_digest(*kept.game.classes(Slice())):
        raise ValueError("its digest is not that of the whole game's classes")
    return sums
