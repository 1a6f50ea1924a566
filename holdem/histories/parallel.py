"""Validating many files, on one process or several.

:func:`validate_files` gives each file's report, in order.  A file over
:data:`SPLIT_BYTES` (and any stream) is read in pieces of whole hands
(:func:`~holdem.histories.files.split_file`), which the processes share;
smaller files go to them whole, in batches.  The reports are the same on any
number of processes, and on a Dask cluster's workers (``cluster``,
:mod:`holdem.cluster`), which take the same tasks: the batches of files they
read where they are (a file system the workers share), or sent to them as
bytes (``ship``); the pieces of the large files as text, as the processes.
:func:`map_files` does the same for other work on whole files and pieces
(``holdem stats``: :mod:`holdem.stats`)."""

from __future__ import annotations

import itertools
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from functools import partial
from typing import Any, NamedTuple, Protocol, Self, TypeVar

from ..cluster import check_address, connect, ordered
from ..errors import ConfigError
from .files import FileReport, Piece, detect_format, split_file, validate_file, validate_piece
from .inputs import Source, input_name

__all__ = ["MAX_JOBS", "SPLIT_BYTES", "Joinable", "map_files", "validate_files"]

#: The most worker processes.
MAX_JOBS = 64
#: Files larger than this are read in pieces of whole hands.
SPLIT_BYTES = 1 << 20
#: Small files a worker takes at a time (one task each would cost more in
#: messages than in work), and their most bytes together.
BATCH_FILES = 64
BATCH_BYTES = 1 << 18


def validate_files(
    sources: Sequence[Source],
    fmt: str | None = None,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    cluster: str | None = None,
    ship: bool = False,
) -> Iterator[FileReport]:
    """The report of each file (a path) or stream, in order, validated on
    ``jobs`` processes (at most :data:`MAX_JOBS`) or the workers of the Dask
    cluster at ``cluster`` (``tcp://HOST:8786`` or ``local:N``), which read
    the files named where they are, or are sent their bytes with ``ship``.
    ``progress(n)`` is told of every ``n`` bytes done.  A stream needs ``fmt``."""
    return map_files(sources, fmt, whole=validate_file, piece=validate_piece, jobs=jobs,
                     progress=progress, cluster=cluster, ship=ship)  # fmt: skip


class Joinable(Protocol):
    """What :func:`map_files` gives for a file or a piece of one: the results of
    a file's later pieces are added to its first piece's, then it is finished."""

    def add(self, part: Self) -> None: ...

    def finish(self) -> Self: ...


_R = TypeVar("_R", bound=Joinable)


def map_files(
    sources: Sequence[Source],
    fmt: str | None,
    *,
    whole: Callable[..., _R],
    piece: Callable[[Piece], _R],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    cluster: str | None = None,
    ship: bool = False,
) -> Iterator[_R]:
    """The result of each file (a path) or stream, in order: ``whole(path, fmt)``
    of a small file, or the results of ``piece(piece)`` of its pieces
    (:func:`~holdem.histories.files.split_file`: a file over
    :data:`SPLIT_BYTES`, a stream) joined in order, on ``jobs`` processes or a
    cluster's workers as :func:`validate_files` does (``whole`` and ``piece``
    are functions of a module, or partials of them: they go to the processes
    by name; with ``ship``, ``whole(data, fmt, name=path)`` reads a file's
    bytes)."""
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be 1 to {MAX_JOBS}, not {jobs}")
    tell = progress or (lambda n: None)
    if cluster is not None:
        check_address(cluster)
        if jobs != 1:
            raise ConfigError("a cluster takes the place of jobs: give one of them",
                              field="jobs", value=jobs)  # fmt: skip
        yield from _on_cluster(sources, fmt, (whole, piece), cluster, ship, tell)
        return
    if not any(not _is_path(s) or _size(s) > SPLIT_BYTES for s in sources):
        jobs = min(jobs, len(sources))  # no file is shared among processes
    if jobs <= 1:
        results: Iterator[_Result[_R]] = (
            result for task in _tasks(sources, fmt) for result in _run(task, fmt, whole, piece)
        )
        yield from _joined(results, tell)
        return
    import multiprocessing

    # the workers leave Ctrl-C to this process, which stops them at once
    pool = multiprocessing.Pool(jobs, initializer=_ignore_interrupts)
    try:
        work = (fmt, whole, piece)
        yield from _joined(_in_order(pool, _tasks(sources, fmt), work, ahead=4 * jobs), tell)
        pool.close()
    finally:
        stop_pool(pool)


def _on_cluster(
    sources: Sequence[Source],
    fmt: str | None,
    work: tuple[Callable[..., _R], Callable[[Piece], _R]],
    cluster: str,
    ship: bool,
    progress: Callable[[int], None],
) -> Iterator[_R]:
    """:func:`map_files` on a cluster's workers: the tasks of the processes
    (whole files shipped as bytes with ``ship``), in groups sized by their
    bytes (smaller towards the end, when all are files: their sizes are
    known), their results joined in order; the bar follows the tasks done,
    in any order."""
    sizes: dict[int, int] = {}  # (the bytes of each task out, for the bar as it is done)
    whole, piece = work
    total = sum(map(_size, sources)) if all(map(_is_path, sources)) else None

    def listed() -> Iterator[_Task]:
        for number, task in enumerate(_tasks(sources, fmt)):
            index, files = task
            if ship and not isinstance(files, Piece):
                task = index, [_shipped(str(path), fmt, whole) for path in files]
            sizes[number] = _task_bytes(task)
            yield task

    def done(first: int, count: int) -> None:
        progress(sum(sizes.pop(number) for number in range(first, first + count)))

    with connect(cluster) as client:
        results = ordered(client, partial(_run_tasks, fmt=fmt, whole=whole, piece=piece),
                          listed(), done=done, weight=_task_bytes, total=total)  # fmt: skip
        with closing(results):
            yield from _joined(itertools.chain.from_iterable(results), lambda n: None)


def _shipped(path: str, fmt: str | None, whole: Callable[..., Any]) -> Shipped:
    """A file to send to a worker: its name and bytes; or, where it cannot be
    read here (or has no format, so that it is not read), its result made
    here, with the words of the failure as met here."""
    size = _size(path)
    if (fmt or detect_format(path)) is not None:
        try:
            with open(path, "rb") as file:
                return Shipped(path, size, file.read())
        except OSError:
            pass
    return Shipped(path, size, None, whole(path, fmt))


class Shipped(NamedTuple):
    """A whole file sent to a cluster's worker (``ship``): its path, for the
    result and its format, its size for the bar (as the file's), and its
    bytes (None: it could not be read, or is not read, and ``done`` is its
    result, made where it is)."""

    path: str
    size: int
    data: bytes | None
    done: Any = None


def _task_bytes(task: _Task) -> int:
    """The bytes a task reads (as :func:`_run` counts them)."""
    work = task[1]
    if isinstance(work, Piece):
        return len(work.text) + 1
    return sum(item.size if isinstance(item, Shipped) else _size(item) for item in work)


#: What a task gives for each file or piece: (file index, whole file?, report, bytes).
_Result = tuple[int, bool, _R, int]
#: A task: the index of its (first) file, and its work: whole files
#: (consecutive from that index; their bytes, on a cluster with ``ship``),
#: or a piece of one file.
_Task = tuple[int, "list[str | Shipped] | Piece"]


def _is_path(source: Source) -> bool:
    return isinstance(source, str | os.PathLike)


def _joined(results: Iterator[_Result[_R]], progress: Callable[[int], None]) -> Iterator[_R]:
    """The files' reports from the results of their tasks, in order: the
    reports of a file's pieces joined."""
    report: _R | None = None
    at = -1  # the file the report is of
    for index, whole, part, size in results:
        progress(size)
        if index != at:
            if report is not None:
                yield report.finish()
            report, at = part, index
            if whole:
                yield report
                report = None
        else:
            assert report is not None
            report.add(part)
    if report is not None:
        yield report.finish()


def _tasks(sources: Sequence[Source], fmt: str | None) -> Iterator[_Task]:
    batch: list[str | Shipped] = []
    size = 0
    for index, source in enumerate(sources):
        pieces: Iterator[Piece] | None = None
        if isinstance(source, str | os.PathLike):
            path = str(os.fspath(source))
            length = _size(path)
            if length > SPLIT_BYTES and (fmt or detect_format(path)):
                pieces = split_file(path, fmt)
        else:  # a stream: read here, in pieces
            pieces = split_file(source, fmt, name=input_name(source))
        if pieces is None:
            if batch and (len(batch) >= BATCH_FILES or size + length > BATCH_BYTES):
                yield index - len(batch), batch
                batch, size = [], 0
            batch.append(path)
            size += length
            continue
        if batch:
            yield index - len(batch), batch
            batch, size = [], 0
        for piece in pieces:
            yield index, piece
    if batch:
        yield len(sources) - len(batch), batch


def _size(path: Any) -> int:
    try:
        return os.path.getsize(path)
    except (OSError, TypeError, ValueError):
        return 0  # validate_file says what is wrong


def _run(
    task: _Task,
    fmt: str | None,
    whole: Callable[..., _R],
    piece: Callable[[Piece], _R],
) -> list[_Result[_R]]:
    """(file index, whole file?, report, bytes) for each file or piece of the task."""
    index, work = task
    if isinstance(work, Piece):
        size = len(work.text) + 1  # characters: near enough
        return [(index, False, piece(work), size)]
    results: list[_Result[_R]] = []
    for k, item in enumerate(work):
        if not isinstance(item, Shipped):
            results.append((index + k, True, whole(item, fmt), _size(item)))
        elif item.data is None:
            results.append((index + k, True, item.done, item.size))
        else:  # (a file sent as bytes: the same result as of the file read where it is)
            made = whole(item.data, fmt or detect_format(item.path), name=item.path)
            results.append((index + k, True, made, item.size))
    return results


def _run_tasks(
    tasks: list[_Task],
    fmt: str | None,
    whole: Callable[..., _R],
    piece: Callable[[Piece], _R],
) -> list[_Result[_R]]:
    """:func:`_run` of each of a run of tasks (a cluster's group), in order."""
    return [result for task in tasks for result in _run(task, fmt, whole, piece)]


def _in_order(
    pool: Any, tasks: Iterator[_Task], work: tuple[Any, ...], ahead: int
) -> Iterator[_Result[Any]]:
    """The results of the tasks in order, at most ``ahead`` of them at work or
    waiting: a large file is read as fast as the workers take it (Pool.imap
    would read it all at once)."""
    waiting: deque[Any] = deque()
    for task in tasks:
        waiting.append(pool.apply_async(_run, (task, *work)))
        if len(waiting) >= ahead:
            yield from waiting.popleft().get()
    while waiting:
        yield from waiting.popleft().get()


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: Seconds a pool's workers have to end once told to (they stop their bot
#: programs on the way out, a second or two), before they are killed.
STOP_SECONDS = 10.0


def stop_pool(pool: Any) -> None:
    """Ends a ``multiprocessing.Pool``'s workers and never waits for ever.
    ``Pool.terminate()`` sends each worker SIGTERM and then waits for them
    without a bound; a worker the pool started again while it was ended (one
    left, and its place was filled) is never sent it, and waits on the pool's
    queue: the caller hung.  Here the workers still there after
    :data:`STOP_SECONDS` are killed."""
    import threading

    ending = threading.Thread(target=pool.terminate, daemon=True)  # (it joins them)
    ending.start()
    ending.join(STOP_SECONDS)
    if ending.is_alive():
        for worker in list(getattr(pool, "_pool", ())):  # (the pool's processes)
            if worker.exitcode is None:
                worker.kill()
        ending.join(STOP_SECONDS)
