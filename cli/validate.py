"""``holdem validate``: replay hand-history files and check every number."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterator
from typing import Any

import click

from holdem.histories import (
    FORMATS,
    FileReport,
    Piece,
    detect_format,
    find_files,
    split_file,
    validate_file,
    validate_piece,
)

EXIT_PROBLEMS = 1
EXIT_UNUSABLE = 2
STDIN = "-"


#: The most worker processes --jobs starts.
MAX_JOBS = 64


#: Files larger than this are cut into pieces of whole hands for --jobs.
SPLIT_BYTES = 1 << 20


def _reports(
    files: list[str], fmt: str | None, jobs: int, progress: Callable[[int], None]
) -> Iterator[FileReport]:
    """Reports in file order, each large file (and standard input) read in
    pieces of whole hands; on ``jobs`` processes, which share the pieces and
    take the smaller files whole.  ``progress(n)`` is told of every ``n``
    bytes done."""
    if not any(path == STDIN or _size(path) > SPLIT_BYTES for path in files):
        jobs = min(jobs, len(files))  # no file is shared among processes
    if jobs <= 1:
        results: Iterator[tuple[int, bool, FileReport, int]] = (
            result for task in _tasks(files, fmt) for result in _run(task, fmt)
        )
        yield from _joined(results, progress)
        return
    import multiprocessing

    # the workers leave Ctrl-C to this process, which stops them at once
    pool = multiprocessing.Pool(jobs, initializer=_ignore_interrupts)
    try:
        yield from _joined(_in_order(pool, _tasks(files, fmt), fmt, ahead=4 * jobs), progress)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _joined(
    results: Iterator[tuple[int, bool, FileReport, int]], progress: Callable[[int], None]
) -> Iterator[FileReport]:
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


#: Small files a worker takes at a time (one task each would cost more in
#: messages than in work), and their most bytes together.
BATCH_FILES = 64
BATCH_BYTES = 1 << 18

#: A task: the index of its (first) file, and its work: whole files
#: (consecutive from that index), or a piece of one file.
_Task = tuple[int, "list[str] | Piece"]


def _tasks(files: list[str], fmt: str | None) -> Iterator[_Task]:
    batch: list[str] = []
    size = 0
    for index, path in enumerate(files):
        if path == STDIN:
            pieces: Iterator[Piece] | None = split_file(sys.stdin.buffer, fmt, name="<stdin>")
        else:
            length = _size(path)
            pieces = None
            if length > SPLIT_BYTES and (fmt or detect_format(path)):
                pieces = split_file(path, fmt)
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
        yield len(files) - len(batch), batch


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # validate_file says what is wrong


def _run(task: _Task, fmt: str | None) -> list[tuple[int, bool, FileReport, int]]:
    """(file index, whole file?, report, bytes) for each file or piece of the task."""
    index, work = task
    if isinstance(work, Piece):
        size = sum(len(line) + 1 for line in work.lines)  # characters: near enough
        return [(index, False, validate_piece(work), size)]
    return [(index + k, True, validate_file(path, fmt), _size(path)) for k, path in enumerate(work)]


def _in_order(
    pool: Any, tasks: Iterator[_Task], fmt: str | None, ahead: int
) -> Iterator[tuple[int, bool, FileReport, int]]:
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


@click.command(
    "validate",
    epilog="""\b
Examples:
  holdem validate hands.phh                  one file
  holdem validate ~/histories --jobs 2       every .phh, .phhs and .txt below a folder
  holdem validate session.txt --strict       warnings fail too
  holdem validate corpus/ --json > report.json
  cat hands.txt | holdem validate - --format pokerstars
\b
Exit status: 0 all clean, 1 problems found, 2 input that cannot be read
(a missing file, binary data, a line of over a megabyte), 130 interrupted.
""",
)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(FORMATS)),
    default=None,
    help="Read every file as this format (default: by file ending).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Warnings count as problems (exit status 1), among them hands consistent "
    "only by another engine's or site's convention (pokerkit-..., pokerstars-...).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, MAX_JOBS),
    default=1,
    show_default=True,
    help=f"Processes validating at once (at most {MAX_JOBS}): files of over 1 MiB and "
    "standard input are shared among them in pieces of whole hands, smaller files go whole.",
)
@click.option("--quiet", "-q", is_flag=True, help="Only problems and the summary.")
def validate_command(
    paths: tuple[str, ...], fmt: str | None, strict: bool, as_json: bool, jobs: int, quiet: bool
) -> None:
    """Validate hand histories (PHH .phh/.phhs, PokerStars .txt).

    Every hand is replayed through the rules engine: an illegal action is
    reported with its line, and every number the file claims (pots, collected
    amounts, uncalled bets, rake, finishing stacks, winnings, shown hands) is
    compared with what the rules give. A hand consistent only by a known
    convention of another engine or site (PokerKit, PokerStars) passes with a
    warning naming it. Each file is reported OK, OK with warnings or FAILED,
    then each problem as 'path:line: hand ID: message'.
    """
    files, missing = find_files([p for p in paths if p != STDIN])
    if STDIN in paths:
        if fmt is None:
            raise click.UsageError("give --format to read standard input ('-')")
        files.insert(0, STDIN)
    for path in missing:
        click.echo(f"holdem validate: error: {path}: no such file or folder", err=True)
    if not files:
        if not missing:
            click.echo(
                "holdem validate: error: no hand-history files found (.phh, .phhs, .txt)", err=True
            )
        sys.exit(EXIT_UNUSABLE)
    # a bar on the terminal for long work, and the reports after it, not through it
    total = sum(_size(path) for path in files if path != STDIN)
    show_bar = (
        not as_json
        and sys.stderr.isatty()
        and STDIN not in files
        and (len(files) > 1 or total > SPLIT_BYTES)
    )
    held: list[FileReport] = []
    totals: Counter[str] = Counter()
    severities: Counter[str] = Counter()
    hands = 0
    if as_json:
        sys.stdout.write('{"files": [')
    with click.progressbar(
        length=max(total, 1),
        label="validating",
        file=sys.stderr,
        hidden=not show_bar,
        show_pos=False,
    ) as bar:
        for report in _reports(files, fmt, jobs, bar.update):
            totals[report.status] += 1
            severities.update(report.problems.severities)
            hands += report.hands
            if as_json:
                sys.stdout.write(", " * (sum(totals.values()) > 1))
                report.write_json(sys.stdout)
            elif show_bar:
                held.append(report)
            else:
                _print_report(report, quiet)
    for report in held:
        _print_report(report, quiet)
    files_done = sum(totals.values())
    if as_json:
        summary = {"files": files_done, "hands": hands, **totals, **severities}
        sys.stdout.write(f'], "summary": {json.dumps(summary)}}}\n')
    else:
        parts = [
            f"{totals[s]} {s}"
            for s in ("OK", "OK with warnings", "FAILED", "UNREADABLE")
            if totals[s]
        ]
        kinds = ", ".join(
            f"{severities[s]} {s}{'s' * (severities[s] != 1 and s != 'unsupported')}"
            for s in ("error", "warning", "unsupported")
            if severities[s]
        )
        click.echo(
            f"{files_done} file{'s' * (files_done != 1)}: {', '.join(parts)}; "
            f"{hands} hand{'s' * (hands != 1)}" + (f"; {kinds}" if kinds else "")
        )
    if missing or totals["UNREADABLE"]:
        sys.exit(EXIT_UNUSABLE)
    if totals["FAILED"] or (strict and totals["OK with warnings"]):
        sys.exit(EXIT_PROBLEMS)


def _print_report(report: FileReport, quiet: bool) -> None:
    if report.unreadable is not None:
        # and what the hands before that point gave
        click.echo(f"{report.path}: UNREADABLE: {report.unreadable}")
        for problem in report.problems:
            click.echo(f"  {problem}")
        return
    detail = f"{report.hands} hand{'s' * (report.hands != 1)}"
    if report.errors:
        detail += f", {report.errors} error{'s' * (report.errors != 1)}"
    if report.warnings:
        detail += f", {report.warnings} warning{'s' * (report.warnings != 1)}"
    if not quiet or report.problems:
        click.echo(f"{report.path}: {report.status} ({detail})")
    for problem in report.problems:
        click.echo(f"  {problem}")
