"""Validating many files, on one process or several.

:func:`validate_files` gives each file's report, in order.  A file over
:data:`SPLIT_BYTES` (and any stream) is read in pieces of whole hands
(:func:`~holdem.histories.files.split_file`), which the processes share;
smaller files go to them whole, in batches.  The reports are the same on any
number of processes, and on a Dask cluster's workers (``cluster``,
:mod:`holdem.cluster`), which take the same tasks: the batches of files they
read where they are (a file system the workers share), or sent to them as
bytes (``ship``); the pieces of the large files as text, as the processes.
"""

from __future__ import annotations

import itertools
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from functools import partial
from typing import Any, NamedTuple

from ..cluster import check_address, connect, ordered, workers
from ..errors import ConfigError
from .files import FileReport, Piece, detect_format, split_file, validate_file, validate_piece
from .inputs import Source, input_name

__all__ = ["MAX_JOBS", "SPLIT_BYTES", "validate_files"]

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
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be 1 to {MAX_JOBS}, not {jobs}")
    tell = progress or (lambda n: None)
    if cluster is not None:
        check_address(cluster)
        if jobs != 1:
            raise ConfigError("a cluster takes the place of jobs: give one of them",
                              field="jobs", value=jobs)  # fmt: skip
        yield from _on_cluster(sources, fmt, cluster, ship, tell)
        return
    if not any(not _is_path(s) or _size(s) > SPLIT_BYTES for s in sources):
        jobs = min(jobs, len(sources))  # no file is shared among processes
    if jobs <= 1:
        results: Iterator[_Result] = (
            result for task in _tasks(sources, fmt) for result in _run(task, fmt)
        )
        yield from _joined(results, tell)
        return
    import multiprocessing

    # the workers leave Ctrl-C to this process, which stops them at once
    pool = multiprocessing.Pool(jobs, initializer=_ignore_interrupts)
    try:
        yield from _joined(_in_order(pool, _tasks(sources, fmt), fmt, ahead=4 * jobs), tell)
        pool.close()
    finally:
        stop_pool(pool)


def _on_cluster(
    sources: Sequence[Source],
    fmt: str | None,
    cluster: str,
    ship: bool,
    progress: Callable[[int], None],
) -> Iterator[FileReport]:
    """:func:`validate_files` on a cluster's workers: the tasks of the
    processes (whole files shipped as bytes with ``ship``), their results
    joined in order; the bar follows the tasks done, in any order."""
    sizes: dict[int, int] = {}  # (the bytes of each task out, for the bar as it is done)

    def listed() -> Iterator[_Task]:
        for number, task in enumerate(_tasks(sources, fmt)):
            index, work = task
            if ship and not isinstance(work, Piece):
                task = index, [_shipped(str(path), fmt) for path in work]
            sizes[number] = _task_bytes(task)
            yield task

    with connect(cluster) as client:
        results = ordered(client, partial(_run, fmt=fmt), listed(),
                          ahead=4 * workers(client),
                          done=lambda number: progress(sizes.pop(number)))  # fmt: skip
        with closing(results):
            yield from _joined(itertools.chain.from_iterable(results), lambda n: None)


def _shipped(path: str, fmt: str | None) -> Shipped:
    """A file to send to a worker: its name and bytes, or why it cannot be read
    (:func:`validate_file`'s words; a file of no format is not read, as there)."""
    size = _size(path)
    if (fmt or detect_format(path)) is None:
        return Shipped(path, size, b"")
    try:
        with open(path, "rb") as file:
            return Shipped(path, size, file.read())
    except OSError as exc:
        return Shipped(path, size, None, exc.strerror or str(exc))


class Shipped(NamedTuple):
    """A whole file sent to a cluster's worker (``ship``): its path, for the
    report and its format, its size for the bar (as the file's), and its
    bytes (None: it could not be read, and ``why`` says why)."""

    path: str
    size: int
    data: bytes | None
    why: str | None = None


def _task_bytes(task: _Task) -> int:
    """The bytes a task validates (as :func:`_run` counts them)."""
    work = task[1]
    if isinstance(work, Piece):
        return len(work.text) + 1
    return sum(item.size if isinstance(item, Shipped) else _size(item) for item in work)


#: What a task gives for each file or piece: (file index, whole file?, report, bytes).
_Result = tuple[int, bool, FileReport, int]
#: A task: the index of its (first) file, and its work: whole files
#: (consecutive from that index; their bytes, on a cluster with ``ship``),
#: or a piece of one file.
_Task = tuple[int, "list[str | Shipped] | Piece"]


def _is_path(source: Source) -> bool:
    return isinstance(source, str | os.PathLike)


def _joined(results: Iterator[_Result], progress: Callable[[int], None]) -> Iterator[FileReport]:
    """The files' reports from the results of their tasks, in order: the
    reports of a file's pieces joined."""
    report: FileReport | None = None
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


def _run(task: _Task, fmt: str | None) -> list[_Result]:
    """(file index, whole file?, report, bytes) for each file or piece of the task."""
    index, work = task
    if isinstance(work, Piece):
        size = len(work.text) + 1  # characters: near enough
        return [(index, False, validate_piece(work), size)]
    results: list[_Result] = []
    for k, item in enumerate(work):
        if isinstance(item, Shipped):
            results.append((index + k, True, _validate_shipped(item, fmt), item.size))
        else:
            results.append((index + k, True, validate_file(item, fmt), _size(item)))
    return results


def _validate_shipped(file: Shipped, fmt: str | None) -> FileReport:
    """:func:`validate_file` of a file sent as bytes: the same report as of
    the file read where it is."""
    if file.data is None:
        return FileReport(file.path, unreadable=file.why).finish()
    return validate_file(file.data, fmt or detect_format(file.path), name=file.path)


def _in_order(pool: Any, tasks: Iterator[_Task], fmt: str | None, ahead: int) -> Iterator[_Result]:
    """The results of the tasks in order, at most ``ahead`` of them at work or
    waiting: a large file is read as fast as the workers take it (Pool.imap
    would read it all at once)."""
    waiting: deque[Any] = deque()
    for task in tasks:
        waiting.append(pool.apply_async(_run, (task, fmt)))
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
