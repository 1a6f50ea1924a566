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
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import HistoryFormatError, quote
from .inputs import Source, input_name
from .model import HandHistory, Problem

__all__ = [
    "FORMATS",
    "FileReport",
    "detect_format",
    "find_files",
    "read_hands",
    "validate_file",
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
    source: Source, fmt: str | None = None, *, path: str | None = None
) -> Iterator[HandHistory | Problem]:
    """The hands of a file, one at a time, in the format its name says or ``fmt``.

    ``source`` is a path or an open stream (see :mod:`holdem.histories.inputs`); the
    readers' ``*_text`` functions read text in memory.
    """
    if fmt is None and isinstance(source, str | os.PathLike):
        fmt = detect_format(source)
    if fmt == "phh":
        from .phh import read_phh

        return read_phh(source, path=path)
    if fmt == "pokerstars":
        from .pokerstars import read_pokerstars

        return read_pokerstars(source, path=path)
    raise HistoryFormatError(
        f"unknown hand-history format {fmt!r}: use one of {', '.join(FORMATS)}"
        if fmt
        else "cannot tell the format from the file name (.phh, .phhs, .txt): name it",
        path=input_name(source, path),
    )


@dataclass
class FileReport:
    """What validating one file found."""

    path: str
    hands: int = 0
    problems: list[Problem] = field(default_factory=list)
    unreadable: str | None = None  # why the file could not be read (all of it, or from a line)

    @property
    def errors(self) -> int:
        return sum(p.severity == "error" for p in self.problems)

    @property
    def warnings(self) -> int:
        return sum(p.severity != "error" for p in self.problems)

    @property
    def status(self) -> str:
        """``OK``, ``OK with warnings``, ``FAILED`` or ``UNREADABLE``."""
        if self.unreadable is not None:
            return "UNREADABLE"
        if self.errors:
            return "FAILED"
        return "OK with warnings" if self.problems else "OK"

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "path": self.path,
            "status": self.status,
            "hands": self.hands,
            "errors": self.errors,
            "warnings": self.warnings,
            "unreadable": self.unreadable,
            "problems": [p.to_dict() for p in self.problems],
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
    if not report.hands and report.unreadable is None:
        report.problems.append(
            Problem(report.path, 0, None, "warning", "the file holds no hand", "empty")
        )
    return report


def validate_text(text: str, fmt: str, *, path: str = "<text>") -> FileReport:
    """:func:`validate_file` for text in memory."""
    return validate_file(io.StringIO(text, newline=None), fmt, name=path)


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
                Problem(
                    item.source or report.path,
                    item.line,
                    item.hand_id,
                    "error",
                    f"internal error while replaying ({type(exc).__name__}: {quote(str(exc))}); "
                    "please report it with this hand",
                    "internal",
                )
            )
