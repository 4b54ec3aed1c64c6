"""How many threads the parallel (OpenMP) steps use, and whether they can use more than one.

The thread count is resolved once, where a call enters -- :meth:`enumerate.core.run.Run.of`,
on entry to each function of :mod:`studodds.api` and to ``batch`` and ``check``; nothing else
calls :func:`resolve_threads` -- and passed down as an int to every parallel step -- counting,
aggregation, the vectorised evaluator -- as scikit-learn passes ``n_threads``.  It is:

1. an explicit ``threads=`` argument (the command line's ``--threads``), else
2. ``$STUDODDS_THREADS``, else ``$OMP_NUM_THREADS``, else
3. the CPUs this process may run on (its affinity mask, not the machine's core count).

A lower function called directly without a count runs on one thread (``threads: int = 1``).

Results never depend on the thread count (every thread sums into its own slice); only speed does.
"""
from __future__ import annotations

import itertools
import os
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

from enumerate.core.interrupts import raise_if_received
from evaluator.errors import ParameterError

T = TypeVar("T")
#: The most threads any step starts: OpenMP cannot create tens of thousands (libgomp gives up,
#: or the process runs out of stack), and no machine this runs on has more cores.
MAX_THREADS = 256


def available_cpus() -> int:
    """CPUs this process may run on (sched_getaffinity where the platform has it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):        # pragma: no cover - non-Linux platforms
        return os.cpu_count() or 1


def default_threads() -> int:
    """Threads when nothing was asked for: $STUDODDS_THREADS, $OMP_NUM_THREADS, or the CPUs
    available to this process."""
    for var in ("STUDODDS_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(var, "").strip()
        if value.isdigit() and int(value) > 0:
            if len(value) > 6 or int(value) > MAX_THREADS:
                raise ParameterError("threads", f"${var}={value[:20]} asks for more than {MAX_THREADS} threads: "
                                                f"set it to at most {MAX_THREADS}, or unset it")
            return int(value)
    return min(available_cpus(), MAX_THREADS)


def check_threads(threads: int | None) -> int | None:
    """``threads`` itself if it is None or a whole number from 1 to :data:`MAX_THREADS`;
    ParameterError otherwise."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise ParameterError("threads", f"must be a whole number from 1 to {MAX_THREADS}, got {threads!r:.40}")
    if not 1 <= threads <= MAX_THREADS:
        raise ParameterError("threads", f"must be from 1 to {MAX_THREADS}, got {threads}")
    return threads


def resolve_threads(threads: int | None = None) -> int:
    """The thread count a parallel step uses (see the module docstring for the order)."""
    explicit = check_threads(threads)
    return explicit if explicit is not None else default_threads()


def interruptible(kernel: Callable[[np.ndarray], T]) -> T:
    """``kernel(cancel)`` -- a compiled kernel that polls ``cancel[0]`` (see
    ``enumerate/core/_cancel.pxd``) -- run on a helper thread, so that this thread stays free to
    take SIGINT and SIGTERM at once: then the kernel is asked to stop, is waited for (it returns
    within milliseconds), and the signal's exception is raised here.  The kernel's own
    exceptions are raised here too."""
    raise_if_received()                     # a signal whose first raise was lost: do not start
    cancel = np.zeros(1, dtype=np.int32)
    result: list[T] = []
    error: list[BaseException] = []

    def work() -> None:
        try:
            result.append(kernel(cancel))
        except BaseException as exc:       # handed to the caller's thread below
            error.append(exc)

    helper = threading.Thread(target=work, name="studodds-kernel", daemon=True)
    helper.start()
    try:
        while helper.is_alive():
            helper.join(0.05)
    except BaseException:
        cancel[0] = 1
        helper.join()
        raise
    if error:
        raise error[0]
    return result[0]


@contextmanager
def dask_client(address: str) -> Iterator[Any]:
    """A Dask ``distributed.Client`` connected to the scheduler at ``address`` (closed on exit);
    StudoddsError when the dask extra is missing or the scheduler cannot be reached."""
    try:
        from distributed import Client  # optional heavy dependency: the dask extra
    except ImportError:
        raise ParameterError("scheduler", "needs Dask's distributed: pip install 'studodds[dask]'") from None
    if not isinstance(address, str) or not address.strip() or len(address) > 500 or not address.isprintable():
        raise ParameterError("scheduler", f"{str(address)[:60]!r} is not a scheduler address such as tcp://host:8786")
    _refused_at_once(address)
    client = _connect(Client, address)
    try:
        yield client
    finally:
        client.close()


#: Seconds to wait for a Dask scheduler's answer: a server that accepts the connection and never
#: answers (or is not a Dask scheduler at all) is refused after this, never waited on for ever.
CONNECT_SECONDS = 20.0


def _refused_at_once(address: str) -> None:
    """A TCP address where nothing listens is refused at once (distributed retries a refused
    connection until its own timeout, ten seconds in which nothing can change); anything else --
    no answer, a name that does not resolve, another transport -- is left to :func:`_connect`."""
    host, sep, port = address.removeprefix("tcp://").rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536 or "://" in host:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=2.0).close()
    except ConnectionRefusedError:
        raise ParameterError("scheduler", f"nothing listens at {address} (connection refused): start a scheduler "
                                          "there with 'dask scheduler', or check the address and port") from None
    except (OSError, ValueError):
        return


def _connect(client_type: Any, address: str) -> Any:
    """``client_type(address)``, bounded: the connection is made on a helper thread (distributed's
    own timeout covers the TCP connect, not a server that accepts and stays silent); what goes
    wrong is a ParameterError naming the address and what to check."""
    done: list[Any] = []
    error: list[BaseException] = []

    def connect() -> None:
        try:
            done.append(client_type(address, timeout="10s"))
        except BaseException as exc:         # handed to the caller's thread below
            error.append(exc)

    helper = threading.Thread(target=connect, name="studodds-dask-connect", daemon=True)
    helper.start()
    helper.join(CONNECT_SECONDS)
    if helper.is_alive():
        raise ParameterError("scheduler", f"no answer from {address} within {CONNECT_SECONDS:.0f} s: is a Dask scheduler "
                                          "running there? (start one with 'dask scheduler')")
    if not error:
        return done[0]
    exc = error[0]
    if isinstance(exc, (OSError, TimeoutError)):
        raise ParameterError("scheduler", f"cannot reach the Dask scheduler at {address}: {exc}") from None
    if isinstance(exc, (ValueError, TypeError)):      # a malformed address, as distributed words it
        raise ParameterError("scheduler", f"{address!r} is not a scheduler address such as tcp://host:8786 "
                                          f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
    if isinstance(exc, (MemoryError, EOFError)) or type(exc).__module__.startswith(("distributed", "msgpack")):
        # a server that speaks another protocol (an HTTP server: its reply read as a frame length)
        raise ParameterError("scheduler", f"{address} answered, but not as a Dask scheduler "
                                          f"({type(exc).__name__}): check the address and port") from None
    raise exc


def _in_order(submit: Callable[[tuple[Any, ...]], Any], items: Iterable[tuple[Any, tuple[Any, ...]]],
              in_flight: int) -> Iterator[tuple[Any, Any]]:
    """``(tag, submit(args).result())`` for every ``(tag, args)`` of ``items``, in item order,
    with at most ``in_flight`` submitted and not yet taken (a Dask or a thread-pool future)."""
    pending = iter(items)
    running = deque((tag, submit(args)) for tag, args in itertools.islice(pending, in_flight))
    while running:
        tag, future = running.popleft()
        result = future.result()
        for more_tag, more in itertools.islice(pending, 1):
            running.append((more_tag, submit(more)))
        yield tag, result


def dask_map(client: Any, func: Callable[..., T], items: Iterable[tuple[Any, tuple[Any, ...]]], *,
             in_flight: int = 64, ordered: bool = True) -> Iterator[tuple[Any, T]]:
    """``(tag, func(*args))`` for every ``(tag, args)`` of ``items``, computed on the Dask
    ``client`` with at most ``in_flight`` tasks submitted at once (so memory does not grow with
    the number of items), in the order of ``items`` (``ordered``: what a result that depends on
    the order needs, such as the progressive meter) or as they finish.  The tag stays here: it
    names the item for the caller.  The one bounded loop over a cluster that the simulator,
    collusion, the design search and the draws sample use."""
    def submit(args: tuple[Any, ...]) -> Any:
        return client.submit(func, *args, pure=False)
    if ordered:
        yield from _in_order(submit, items, in_flight)
        return
    pending = iter(items)
    from distributed import as_completed  # optional heavy dependency: the dask extra
    tags = {submit(args): tag for tag, args in itertools.islice(pending, in_flight)}
    running_set = as_completed(list(tags))
    for future in running_set:
        tag = tags.pop(future)
        result = future.result()
        for more_tag, more in itertools.islice(pending, 1):
            f = submit(more)
            tags[f] = more_tag
            running_set.add(f)
        yield tag, result


def chunked_map(items: Iterable[tuple[Any, tuple[Any, ...]]], *, local: Callable[..., T], remote: Callable[..., T],
                scheduler: str | None, threads: int = 1, shared: tuple[Any, ...] = (), pool: bool = False,
                in_flight: int = 64, ordered: bool = True) -> Iterator[tuple[Any, T]]:
    """``(tag, result)`` for every ``(tag, args)`` of ``items``, the one way the simulator,
    collusion, the design search and the draws sample run their chunks:

    * on this machine (``scheduler`` None), in item order: ``local(*shared, *args, threads)``
      one item after another, each on ``threads`` OpenMP threads -- or, with ``pool``,
      ``local(*shared, *args)`` on a pool of ``threads`` Python threads (for numpy work that
      releases the GIL), at most ``in_flight`` items started ahead;
    * on the Dask cluster at ``scheduler``: ``remote(*shared, *args)`` on its workers, each of
      ``shared`` sent to every worker once, through :func:`dask_map` (``in_flight``, ``ordered``).

    The result of a run never depends on where it ran; only its speed does."""
    if scheduler is not None:
        with dask_client(scheduler) as client:
            sent = tuple(client.scatter(x, broadcast=True) for x in shared)
            yield from dask_map(client, remote, ((tag, (*sent, *args)) for tag, args in items),
                                in_flight=in_flight, ordered=ordered)
        return
    if not pool or threads <= 1:
        for tag, args in items:
            yield tag, (local(*shared, *args) if pool else local(*shared, *args, threads))
        return
    executor = ThreadPoolExecutor(threads)
    try:
        yield from _in_order(lambda args: executor.submit(local, *shared, *args), items, in_flight)
    finally:                                   # interrupted: drop the items not started
        executor.shutdown(wait=True, cancel_futures=True)
