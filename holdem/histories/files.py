"""Validating hand-history files: read every hand, replay it, report per file.

>>> report = validate_text('''
... variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'p2 cbr 1']
... ''', "phh")
>>> report.status, str(report.problems[0]).split(": ", 2)[2][:40]
('FAILED', 'p2 bets or raises to 1: illegal raise to')
"""

from __future__ import annotations

import io
import json
import os
import pickle
import tempfile
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, NamedTuple, TextIO

from ..errors import HistoryFormatError
from .inputs import Source, input_line_lists, input_name
from .model import HandHistory, Problem

__all__ = [
    "FORMATS",
    "FileReport",
    "Piece",
    "detect_format",
    "find_files",
    "read_hands",
    "split_file",
    "validate_file",
    "validate_piece",
    "validate_text",
]

#: Formats by name, and the file endings read as each.
FORMATS = {"phh": (".phh", ".phhs"), "pokerstars": (".txt",)}


def detect_format(path: str | os.PathLike[str]) -> str | None:
    """The format of a file by its ending (None: not a hand-history file)."""
    name = os.fspath(path).lower()
    for fmt, endings in FORMATS.items():
        if name.endswith(endings):
            return fmt
    return None


def _is_history(path: str) -> bool:
    """Whether a file found in a folder is a hand history (a .txt must look like one).

    Only regular files: a named pipe would block the reading of the folder.
    """
    fmt = detect_format(path)
    if fmt is None or not os.path.isfile(path):
        return False
    if fmt != "pokerstars":
        return True
    from .pokerstars import looks_like_pokerstars

    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            return looks_like_pokerstars(f.read(4096))
    except OSError:
        return True  # let validation report it


def find_files(paths: list[str]) -> tuple[list[str], list[str]]:
    """Hand-history files under ``paths`` (folders recursively), and paths not found.

    In folders, ``.phh`` and ``.phhs`` files are taken, and ``.txt`` files
    whose start looks like a PokerStars hand; a file named on its own is
    always taken.
    """
    files: list[str] = []
    missing: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs.sort()
                files.extend(
                    full
                    for full in (os.path.join(root, name) for name in sorted(names))
                    if _is_history(full)
                )
        elif os.path.exists(path):
            files.append(path)
        else:
            missing.append(path)
    return files, missing


def read_hands(
    source: Source, fmt: str | None = None, *, path: str | None = None, first_line: int = 1
) -> Iterator[HandHistory | Problem]:
    """The hands of a file, one at a time, in the format its name says or ``fmt``.

    ``source`` is a path or an open stream (see :mod:`holdem.histories.inputs`); the
    readers' ``*_text`` functions read text in memory.  ``first_line``: the
    number of the first line (a piece of a larger file).
    """
    if fmt is None and isinstance(source, str | os.PathLike):
        fmt = detect_format(source)
    if fmt == "phh":
        from .phh import read_phh

        return read_phh(source, path=path, first_line=first_line)
    if fmt == "pokerstars":
        from .pokerstars import read_pokerstars

        return read_pokerstars(source, path=path, first_line=first_line)
    raise _no_format(fmt, input_name(source, path))


def _no_format(fmt: str | None, where: str) -> HistoryFormatError:
    """The error for a format that is not one of ours, or none."""
    return HistoryFormatError(
        f"unknown hand-history format {fmt!r}: use one of {', '.join(FORMATS)}"
        if fmt
        else "cannot tell the format from the file name (.phh, .phhs, .txt): name it",
        path=where,
    )


#: Problems a report keeps in memory; the rest wait in a temporary file, so a
#: file of millions of hands, each with a warning, is validated in constant memory.
MAX_PROBLEMS_IN_MEMORY = 10_000


class Problems:
    """The problems of one file, in order: a sequence that keeps the first
    :data:`MAX_PROBLEMS_IN_MEMORY` in memory and the others in a temporary
    file (removed with the object, or at exit)."""

    def __init__(self, kept: Iterable[Problem] = ()) -> None:
        self._kept: list[Problem] = list(kept)
        self._spilled = 0
        self._spill: Any = None  # the open temporary file, once there is one
        self._path: str | None = None
        self._remove: weakref.finalize | None = None  # type: ignore[type-arg]
        #: how many problems there are of each severity
        self.severities: Counter[str] = Counter(p.severity for p in self._kept)

    @property
    def errors(self) -> int:
        return self.severities["error"]

    def append(self, problem: Problem) -> None:
        self.severities[problem.severity] += 1
        if len(self._kept) < MAX_PROBLEMS_IN_MEMORY:
            self._kept.append(problem)
            return
        if self._spill is None:
            fd, self._path = tempfile.mkstemp(prefix="holdem-problems-", suffix=".pickle")
            self._spill = os.fdopen(fd, "w+b")
            self._remove = weakref.finalize(self, _remove_file, self._spill, self._path)
        pickle.dump(problem, self._spill, protocol=pickle.HIGHEST_PROTOCOL)
        self._spilled += 1

    def extend(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self.append(problem)

    def __len__(self) -> int:
        return len(self._kept) + self._spilled

    def __bool__(self) -> bool:
        return bool(self._kept)

    def __iter__(self) -> Iterator[Problem]:
        yield from self._kept
        if self._spill is None:
            return
        self._spill.flush()
        assert self._path is not None
        with open(self._path, "rb") as spilled:
            for _ in range(self._spilled):
                yield pickle.load(spilled)

    def __getitem__(self, index: int) -> Problem:
        if not -len(self) <= index < len(self):
            raise IndexError("problem index out of range")
        index %= len(self)
        if index < len(self._kept):
            return self._kept[index]
        return next(islice(iter(self), index, None))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Problems | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{len(self)} problems>"

    def __reduce__(self) -> tuple[Any, ...]:
        # sent from a worker process to the parent: the parent takes the file over
        if self._remove is not None:
            self._spill.flush()
            self._remove.detach()
        return (_adopt, (self._kept, self._path, self._spilled, self.severities))


def _adopt(
    kept: list[Problem], path: str | None, spilled: int, severities: Counter[str]
) -> Problems:
    problems = Problems()
    problems._kept, problems._spilled, problems.severities = kept, spilled, severities
    if path is not None:
        problems._path = path
        problems._spill = open(path, "ab")  # noqa: SIM115 - closed with the object
        problems._remove = weakref.finalize(problems, _remove_file, problems._spill, path)
    return problems


def _remove_file(stream: Any, path: str) -> None:
    stream.close()
    with suppress(OSError):
        os.unlink(path)


@dataclass
class FileReport:
    """What validating one file found."""

    path: str
    hands: int = 0
    problems: Problems = field(default_factory=Problems)
    unreadable: str | None = None  # why the file could not be read (all of it, or from a line)

    @property
    def errors(self) -> int:
        return self.problems.errors

    @property
    def warnings(self) -> int:
        return len(self.problems) - self.problems.errors

    @property
    def status(self) -> str:
        """``OK``, ``OK with warnings``, ``FAILED`` or ``UNREADABLE``."""
        if self.unreadable is not None:
            return "UNREADABLE"
        if self.errors:
            return "FAILED"
        return "OK with warnings" if self.problems else "OK"

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (every problem in memory: see :meth:`write_json`)."""
        return {**self._head(), "problems": [p.to_dict() for p in self.problems]}

    def write_json(self, out: TextIO) -> None:
        """Writes :meth:`to_dict` as JSON, one problem at a time (constant memory)."""
        head = json.dumps(self._head())
        out.write(head[:-1] + ', "problems": [')
        for number, problem in enumerate(self.problems):
            out.write(", " * bool(number) + json.dumps(problem.to_dict()))
        out.write("]}")

    def add(self, part: FileReport) -> None:
        """Takes in the report of a later piece of the same file (:func:`validate_piece`)."""
        self.hands += part.hands
        self.problems.extend(part.problems)
        if part.unreadable is not None:
            self.unreadable = part.unreadable

    def finish(self) -> FileReport:
        """The warning ``empty`` for a readable file without a hand; returns the report."""
        if not self.hands and self.unreadable is None:
            self.problems.append(
                Problem(self.path, 0, None, "warning", "the file holds no hand", "empty")
            )
        return self

    def _head(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "status": self.status,
            "hands": self.hands,
            "errors": self.errors,
            "warnings": self.warnings,
            "unreadable": self.unreadable,
        }


def validate_file(path: Source, fmt: str | None = None, *, name: str | None = None) -> FileReport:
    """Reads and replays every hand of a file or stream; never raises for bad content.

    A file that cannot be opened, or that stops being text, is reported
    ``UNREADABLE`` (with the hands before that point checked); a file without
    a hand gets the warning ``empty``.
    """
    report = FileReport(input_name(path, name))
    try:
        _check_hands(read_hands(path, fmt, path=name), report)
    except HistoryFormatError as exc:
        report.unreadable = str(exc)
    except OSError as exc:
        report.unreadable = exc.strerror or str(exc)
    return report.finish()


def validate_text(text: str, fmt: str, *, path: str = "<text>") -> FileReport:
    """:func:`validate_file` for text in memory."""
    return validate_file(io.StringIO(text, newline=None), fmt, name=path)


#: Hands in a piece of a file that :func:`split_file` cuts.
PIECE_HANDS = 200


class Piece(NamedTuple):
    """Lines of one file that hold whole hands, from line ``first`` on (as one
    text: it goes to another process in one piece)."""

    name: str  # the file, for messages
    fmt: str
    first: int
    text: str
    #: why the file stops being readable after these lines (None: it does not)
    unreadable: str | None = None


def split_file(
    source: Source, fmt: str | None = None, *, name: str | None = None, hands: int = PIECE_HANDS
) -> Iterator[Piece]:
    """The lines of a file or stream in pieces of ``hands`` hands, cut only where
    a hand begins (a PHH table ``[n]``, a PokerStars header): one large file
    validated on several processes, each piece by :func:`validate_piece`, and
    the reports joined in order with :meth:`FileReport.add` give what
    :func:`validate_file` gives.  Never raises for bad content: where the input
    stops being readable, the last piece says why."""
    if fmt is None and isinstance(source, str | os.PathLike):
        fmt = detect_format(source)
    where = input_name(source, name)
    starts = _hand_starts(fmt, where)
    assert fmt is not None
    piece: list[str] = []
    first = 1  # the number of the piece's first line
    number = 0  # lines read
    count = 0  # hands begun in the piece
    last = 0  # where in the piece the last hand begins
    try:
        legacy = "cp1252" if fmt == "pokerstars" else None
        for lines in input_line_lists(source, path=where, legacy=legacy):
            begin = 0  # the lines before it are in the piece
            for i in starts(lines):
                count += 1
                if count > hands:
                    piece.extend(lines[begin:i])
                    yield Piece(where, fmt, first, "\n".join(piece))
                    piece, first, count, begin = [], number + i + 1, 1, i
                last = len(piece) + i - begin
            piece.extend(lines[begin:] if begin else lines)
            number += len(lines)
    except (HistoryFormatError, OSError) as exc:
        # the readers leave out the hand the input stops in: so does the piece
        # (PokerStars text before any hand is reported as it comes: it stays)
        why = str(exc) if isinstance(exc, HistoryFormatError) else exc.strerror or str(exc)
        kept = piece[:last] if count or fmt == "phh" else piece
        yield Piece(where, fmt, first, "\n".join(kept), why)
        return
    yield Piece(where, fmt, first, "\n".join(piece))


def _hand_starts(fmt: str | None, where: str) -> Callable[[list[str]], list[int]]:
    """Where hands begin in a list of lines of a format (by the readers' own test)."""
    if fmt == "phh":
        from .phh import starts_hand

        heads = ("[", " ", "\t")
        return lambda lines: [
            i for i, line in enumerate(lines) if line[:1] in heads and starts_hand(line)
        ]
    if fmt == "pokerstars":
        from .pokerstars import starts_hand as starts_pokerstars_hand

        return lambda lines: [
            i
            for i, line in enumerate(lines)
            if "PokerStars" in line and starts_pokerstars_hand(line)
        ]
    raise _no_format(fmt, where)


def validate_piece(piece: Piece) -> FileReport:
    """The report of one piece of a file (its lines numbered as in the file);
    join the pieces' reports with :meth:`FileReport.add`, then
    :meth:`FileReport.finish`."""
    report = FileReport(piece.name)
    try:
        # one chunk of text: the readers split it into the same lines at once
        # (a stream would be read and split a line at a time)
        text = [piece.text]
        _check_hands(read_hands(text, piece.fmt, path=piece.name, first_line=piece.first), report)
    except HistoryFormatError as exc:  # not expected: the lines were read once already
        report.unreadable = str(exc)
    report.unreadable = piece.unreadable or report.unreadable
    return report


def _check_hands(items: Iterable[HandHistory | Problem], report: FileReport) -> None:
    from .playback import validate

    for item in items:
        if isinstance(item, HandHistory) or item.code != "outside":  # text outside: no hand
            report.hands += 1
        if isinstance(item, Problem):
            report.problems.append(item)
            continue
        try:
            report.problems.extend(validate(item))
        except Exception as exc:  # a bug of ours: report it with the hand, go on
            report.problems.append(
                Problem.internal(
                    item.source or report.path, item.line, item.hand_id, "replaying", exc
                )
            )
