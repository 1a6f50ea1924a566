"""Work on a Dask cluster (``pip install 'holdem-toolkit[cluster]'``).

:func:`~holdem.simulation.simulate`, :func:`~holdem.histories.validate_files`
and :func:`~holdem.equities.equity` take ``cluster``: the address of a
running Dask scheduler (``tcp://HOST:8786``), or ``local:N`` (a
``LocalCluster`` of N worker processes on this machine, on the loopback
only, started for the call and closed after it).  They cut the work into the
units their processes (threads) take (blocks of deals, files and pieces of
files, slices of the enumeration, chunks of Monte Carlo deals) and merge the
results in the units' order, so a result is the one of a single process for
the same seed and inputs.

- A worker lost mid-run: the scheduler runs its units again on another one;
  each unit's result is taken once, by its place in the order, so nothing is
  counted twice or lost.
- Ctrl-C (``KeyboardInterrupt``), a failed unit, or the caller reading no
  further: the units not taken are cancelled before it goes on up (a unit a
  worker is running finishes there, and its result is dropped).
- A scheduler that does not answer within :data:`CONNECT_SECONDS`:
  :class:`~holdem.errors.ClusterError`, saying where and why.

Dask's ``distributed`` is imported only here, and only when a cluster is
used: the package does not need it otherwise.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import pickle
import re
import signal
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from .errors import ClusterError, ConfigError

__all__ = [
    "CONNECT_SECONDS",
    "DASK_SETTINGS",
    "LOCAL",
    "MAX_LOCAL",
    "check_address",
    "connect",
    "ordered",
]

#: Seconds to reach a scheduler before giving up (Dask's own default is 30).
CONNECT_SECONDS = 5.0
#: The address of a cluster of worker processes on this machine: ``local:N``.
LOCAL = "local:"
#: The most worker processes of a ``local:N`` cluster.
MAX_LOCAL = 64
#: How to install what a cluster needs, for the messages.
INSTALL = "pip install 'holdem-toolkit[cluster]'"

#: Dask's settings for a cluster that runs long batch work: its own
#: watching of itself made rarer or off (a 10 ms profiler of every task, a
#: 20 ms tick of every event loop, the memory and system monitors at 100 and
#: 500 ms).  Left at Dask's defaults, an idle LocalCluster of 2 workers took
#: 2.9 s of CPU in 20 s here, 7% of a 2-core machine; with these, 0.3 s.  A
#: ``local:N`` cluster is started with them; docs/cluster.md gives them for
#: the workers and the scheduler of a cluster of hosts.
DASK_SETTINGS: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
}

_ADDRESS = re.compile(r"(tcp|tls|ucx|inproc)://[^\s/]+|local:\d+")
_R = TypeVar("_R")


def check_address(address: object) -> str:
    """``address`` if it is a cluster's: ``tcp://HOST:PORT`` (``tls://``
    too) or ``local:N`` with N from 1 to :data:`MAX_LOCAL`; otherwise
    :class:`~holdem.errors.ConfigError` naming the field ``cluster``."""
    if not isinstance(address, str) or not _ADDRESS.fullmatch(address):
        raise ConfigError(
            f"a cluster is tcp://HOST:PORT (a Dask scheduler) or local:N (N worker "
            f"processes here), not {address!r}",
            field="cluster",
            value=address,
        )
    if address.startswith(LOCAL) and not 1 <= int(address[len(LOCAL) :]) <= MAX_LOCAL:
        raise ConfigError(
            f"local:N takes 1 to {MAX_LOCAL} worker processes, not {address[len(LOCAL) :]}",
            field="cluster",
            value=address,
        )
    return address


@contextlib.contextmanager
def connect(address: str) -> Iterator[Any]:
    """A Dask client of the cluster at ``address`` (:func:`check_address`),
    closed on the way out (a ``local:N`` cluster with it, its workers
    stopped).  :class:`~holdem.errors.ClusterError` when Dask's
    ``distributed`` is not installed, or the scheduler cannot be reached."""
    check_address(address)
    dask = _distributed()
    local = None
    with contextlib.ExitStack() as stack:
        if address.startswith(LOCAL):
            # (on the loopback only, the dashboard too, on a port the system picks:
            # nothing listens outside; None would take 8787, or another on every address)
            stack.enter_context(importlib.import_module("dask").config.set(DASK_SETTINGS))
            with _ctrl_c_left_here():
                local = dask.LocalCluster(
                    n_workers=int(address[len(LOCAL) :]),
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address="127.0.0.1:0",
                    silence_logs=logging.CRITICAL,  # (a unit's failure comes back here)
                )
            stack.callback(local.close)
            client = dask.Client(local)
        else:
            try:
                client = dask.Client(address, timeout=CONNECT_SECONDS)
            except OSError as exc:  # (TimeoutError among them: Dask tries until then)
                timeout = isinstance(exc, TimeoutError) or str(exc).startswith("Timed out")
                why = str(exc).split("\n")[0] or type(exc).__name__
                if timeout:
                    why = f"no answer within {CONNECT_SECONDS:g} seconds"
                raise ClusterError(f"cannot reach the Dask scheduler at {address}: {why}") from None
        stack.callback(client.close)
        try:
            yield client
        except BaseException:  # (Ctrl-C, a failure: no use in waiting for their units)
            if local is not None:
                stack.callback(_stop_at_once, local)
            # (Dask logs the connections its workers' end cut, tracebacks and all,
            # and a fetch cut short leaves a task that fails as the client closes,
            # whose traceback asyncio prints: none of it says more than the error)
            asyncio_log = logging.getLogger("asyncio")
            asyncio_log.addFilter(_no_dask_exit)
            logging.disable(logging.CRITICAL)
            try:
                stack.close()
            finally:
                logging.disable(logging.NOTSET)
                asyncio_log.removeFilter(_no_dask_exit)
            raise


def _no_dask_exit(record: logging.LogRecord) -> bool:
    """False for asyncio's report of a Dask task that ended as its client closed."""
    return "AllExit" not in record.getMessage() and "AllExit" not in str(record.exc_info)


def _run_group(function: Callable[..., Any], group: bytes, *args: Any) -> bytes:
    """``function(group, *args)`` on a worker, the group of units and the
    result pickled (Dask goes through a task's arguments and result for data
    of its own, which takes seconds for thousands of small records: one bytes
    object it sends as it is), with the seconds the work took there."""
    units = pickle.loads(group)
    started = time.perf_counter()
    result = function(units, *args)
    seconds = time.perf_counter() - started
    return pickle.dumps((seconds, result), protocol=pickle.HIGHEST_PROTOCOL)


@contextlib.contextmanager
def _ctrl_c_left_here() -> Iterator[None]:
    """Within it, Ctrl-C (SIGINT) is ignored, and so it is for good by the
    worker processes started meanwhile, which inherit that: a terminal's
    Ctrl-C goes to its whole process group, and only this process is to
    answer it, stopping them (they would print tracebacks, cut short in the
    middle of starting).  A Ctrl-C while a local cluster starts (a few
    seconds) is not heard."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # (not the main thread: the signals left as they are)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _stop_at_once(local: Any) -> None:
    """Kills a local cluster's worker processes, which its ``close`` would wait
    for (seconds: their units run to the end); Dask's own attributes, so
    where they are not, ``close`` waits."""
    for nanny in list(getattr(local, "workers", {}).values()):
        process = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
        if isinstance(process, int):
            nanny.auto_restart = False  # (not started again by its nanny)
            with contextlib.suppress(OSError):
                os.kill(process, signal.SIGKILL)


def _distributed() -> Any:
    """Dask's ``distributed`` (:class:`~holdem.errors.ClusterError` if it is not installed)."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ClusterError(f"a cluster needs Dask's distributed: {INSTALL}") from None


def workers(client: Any) -> int:
    """The threads the cluster's workers have together (at least 1: units
    wait on a cluster without workers until some come)."""
    threads: int = sum(client.nthreads().values())
    return max(1, threads)


#: The seconds of work a cluster's task is given: consecutive units are
#: grouped until a group takes about this long on a worker (measured as they
#: come back).  A task costs a few milliseconds of the scheduler's and the
#: workers' time, on top of the round trips (bench/bench_cluster.py: tasks of
#: a tenth of a second took 17% more time than --jobs 2's processes).
GROUP_SECONDS = 1.0
#: The most units in a group, however quick they are (a second of exact
#: equity's slices of a preflop spot is some 15,000).
MOST_UNITS = 1 << 14


def ordered(
    client: Any,
    function: Callable[..., _R],
    units: Iterable[Any],
    *,
    args: tuple[Any, ...] = (),
    done: Callable[[int, int], None] | None = None,
    failed: Callable[[Sequence[Any], Exception], Exception] | None = None,
    seconds: float = GROUP_SECONDS,
    weight: Callable[[Any], float] | None = None,
    total: float | None = None,
) -> Generator[_R, None, None]:
    """``function(group, *args)`` for groups of consecutive units, run on the
    cluster, their results in the units' order (``args`` may hold futures of
    data sent to the workers once: ``client.scatter``).

    A group is a slice of ``units`` (of a sequence: a ``range`` gives
    ranges) or a list of them: one unit at first, then as much work as takes
    about ``seconds`` on a worker by the times of the groups done, and never
    more than half a worker's share of the work left (the workers end
    together).  The work is counted in units, or by ``weight(unit)`` when
    given (a file's bytes, say); the work left is known of a sequence, or
    from ``total``, the weight of all the units (without it, groups do not
    get smaller towards the end).  ``done(first, count)`` is told of the
    units ``first`` to ``first + count - 1`` as their group is done, in any
    order (a progress bar that follows the work).  A group that failed
    raises its exception here, in its turn (``failed(group, exc)``: the
    exception to raise instead); the groups not taken are cancelled whenever
    this stops (the module's notes)."""
    wait = _distributed().wait
    threads = workers(client)
    ahead = 2 * threads  # (a group at work on each worker, one waiting)
    held = 4 * ahead  # (the most groups out or back but not yet given, in order)
    sequence = units if isinstance(units, Sequence) and weight is None else None
    if sequence is not None:
        total = len(sequence)
    groups = _Groups(iter(units), weight or _one)
    sent, out = 0, 0.0  # (the units in groups sent, and their work)
    spent, measured = 0.0, 0.0  # (the seconds of the groups back, and their work)
    pending: deque[tuple[int, Sequence[Any], float, Any]] = deque()
    back: dict[int, _R] = {}  # (the results of groups done, by their first unit)
    try:
        while True:
            # (groups done out of order do not count: a slow one does not keep
            # the other workers waiting; up to ``held`` in all)
            while sum(not f.done() for *_, f in pending) < ahead and len(pending) < held:
                limit = _work(seconds, spent, measured)  # (a group's)
                if total is not None:
                    limit = min(limit, (total - out) / (2 * threads))
                group: Sequence[Any]
                if sequence is not None:
                    size = max(1, min(MOST_UNITS, int(limit)))
                    group = sequence[sent : sent + size]
                    work = float(len(group))
                else:
                    group, work = groups.take(limit)
                if not group:
                    break
                packed = pickle.dumps(group, protocol=pickle.HIGHEST_PROTOCOL)
                # (pure=False: a task of its own, never shared with another caller's)
                future = client.submit(_run_group, function, packed, *args, pure=False)
                pending.append((sent, group, work, future))
                sent, out = sent + len(group), out + work
            if not pending:
                return
            first, group, _, head = pending[0]
            if not head.done():
                wait([f for *_, f in pending if not f.done()], return_when="FIRST_COMPLETED")
            for number, members, work, future in pending:
                # (a failed group is left to raise in its turn)
                if number not in back and future.done() and future.status == "finished":
                    took, back[number] = pickle.loads(future.result())
                    spent, measured = spent + took, measured + work
                    if done is not None:
                        done(number, len(members))
            if first in back:
                pending.popleft()
                yield back.pop(first)
            elif head.done() and head.status != "finished":
                try:
                    head.result()
                except Exception as exc:
                    if failed is None:
                        raise
                    raise failed(group, exc) from exc
    finally:
        if pending:
            client.cancel([f for *_, f in pending], force=True)


def _one(unit: Any) -> float:
    return 1.0


class _Groups:
    """Groups of consecutive units from an iterator, of at most a given
    work: the unit that would take a group past it starts the next one."""

    def __init__(self, units: Iterator[Any], weight: Callable[[Any], float]) -> None:
        self.units = units
        self.weight = weight
        self.held: list[tuple[Any, float]] = []  # (the unit that starts the next group)

    def take(self, limit: float) -> tuple[list[Any], float]:
        """A group of at most ``limit`` work (or of one unit), and its work."""
        group: list[Any] = []
        work = 0.0
        while len(group) < MOST_UNITS:
            if self.held:
                unit, weight = self.held.pop()
            else:
                try:
                    unit = next(self.units)
                except StopIteration:
                    break
                weight = self.weight(unit)
            if group and work + weight > limit:
                self.held.append((unit, weight))
                break
            group.append(unit)
            work += weight
        return group, work


def _work(seconds: float, spent: float, measured: float) -> float:
    """The work of a group of about ``seconds``, when ``measured`` work took
    ``spent`` (one unit's before any is measured; no limit when it took no time)."""
    if not measured:
        return 1.0
    if spent <= 0:
        return float("inf")
    return seconds * measured / spent
