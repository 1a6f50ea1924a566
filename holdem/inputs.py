"""Text input for the hand-history readers: paths, streams, encodings, bounded lines.

Both readers take their lines from :func:`input_lines`, so a file is opened,
decoded and cut into lines the same way whatever its format:

- a ``str`` or :class:`os.PathLike` is always a **path** (text in memory goes
  through the readers' ``*_text`` functions, or an :class:`io.StringIO`);
  ``bytes`` are the content itself; a binary or text stream is read as it is
  (``sys.stdin.buffer`` for standard input);
- UTF-8, with or without a byte-order mark; UTF-16 and UTF-32 with one;
  ``legacy`` names an encoding for lines that are not UTF-8 (PokerStars
  clients wrote Windows-1252);
- ``\\n``, ``\\r\\n`` and old Mac ``\\r`` line endings;
- **bounded**: a line longer than :data:`MAX_LINE` characters, a NUL byte
  (binary data) or text that cannot be decoded raise
  :class:`~holdem.errors.HistoryFormatError` naming the line, after the lines
  before it were given; nothing reads a line of unbounded length into memory.

>>> list(input_lines(b"\\xef\\xbb\\xbfa\\r\\nb\\rc\\n"))
['a', 'b', 'c']
>>> list(input_lines(io.StringIO("x\\0y")))
Traceback (most recent call last):
...
holdem.errors.HistoryFormatError: <stream>:1:2: a NUL byte: this is binary data, not text
"""

from __future__ import annotations

import codecs
import io
import os
import re
from collections.abc import Iterable, Iterator
from functools import partial
from typing import IO, Any, TypeAlias

from .errors import HistoryFormatError

__all__ = ["MAX_HAND", "MAX_LINE", "Source", "input_lines", "input_name"]

#: The longest line read, in characters (bytes for UTF-8 input): 1 MiB.  A real
#: hand history's longest line is a few hundred characters.
MAX_LINE = 1 << 20

#: The largest hand read, in characters: 4 MiB (a real hand has a few thousand).
MAX_HAND = 1 << 22

#: What the readers take: a path, the content as bytes, an open stream, or
#: an iterable of lines.
Source: TypeAlias = "str | os.PathLike[str] | bytes | IO[str] | IO[bytes] | Iterable[str]"

_BREAK = re.compile(r"\r\n|\r|\n")

_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def input_name(source: Source, path: str | None = None) -> str:
    """The name to report for a source: ``path`` if given, else its file name."""
    if path is not None:
        return path
    if isinstance(source, str | os.PathLike):
        return os.fspath(source)
    if isinstance(source, bytes):
        return "<bytes>"
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else "<stream>"


def input_lines(
    source: Source, *, path: str | None = None, legacy: str | None = None
) -> Iterator[str]:
    """The lines of an input, without their line endings (see the module's notes).

    Raises :class:`OSError` if a path cannot be opened, and
    :class:`~holdem.errors.HistoryFormatError` where the input stops being
    readable text.
    """
    name = input_name(source, path)
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as f:
            yield from _binary_lines(f, name, legacy)
    elif isinstance(source, bytes | bytearray | memoryview):
        yield from _binary_lines(io.BytesIO(source), name, legacy)
    elif isinstance(source, io.TextIOBase):
        yield from _text_lines(source, name)
    elif _is_binary(source):
        yield from _binary_lines(source, name, legacy)
    else:
        yield from _text_lines(source, name)


def _is_binary(stream: Any) -> bool:
    if isinstance(stream, io.RawIOBase | io.BufferedIOBase):
        return True
    mode = getattr(stream, "mode", "")
    return isinstance(mode, str) and "b" in mode


class _Unreadable(Exception):
    """The next line cannot be read: the message, and the column where it goes wrong."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.column = column


_TOO_LONG = f"the line is longer than {MAX_LINE:,} characters: not a hand history"
_NUL = "a NUL byte: this is binary data, not text"
_LIMIT = MAX_LINE + 2  # a line of MAX_LINE characters and its ending


def _binary_lines(f: Any, name: str, legacy: str | None) -> Iterator[str]:
    if not hasattr(f, "peek") and isinstance(f, io.RawIOBase | io.BytesIO):
        f = io.BufferedReader(f)
    head = f.peek(4)[:4] if hasattr(f, "peek") else b""
    for bom, encoding in _WIDE_BOMS:
        if head.startswith(bom):
            yield from _text_lines(io.TextIOWrapper(f, encoding=encoding, newline=None), name)
            return
    if head.startswith(codecs.BOM_UTF8):
        f.read(3)
    yield from _split(_decoded(f, legacy), name)


def _decoded(f: Any, legacy: str | None) -> Iterator[str]:
    """Each line of a binary stream decoded (UTF-8, else ``legacy``), with its ending."""
    readline = f.readline
    first = True
    while raw := readline(_LIMIT):
        if b"\0" in raw:
            if first and _looks_wide(raw):
                raise _Unreadable(
                    "NUL bytes between the characters: UTF-16 or UTF-32 text without a "
                    "byte-order mark? Save it as UTF-8"
                )
            raise _Unreadable(_NUL, raw.index(0) + 1)
        if len(raw) == _LIMIT and raw[-1:] != b"\n":
            raise _Unreadable(_TOO_LONG)
        first = False
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            if legacy is None:
                column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
                message = f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8"
                raise _Unreadable(message, column) from None
            yield raw.decode(legacy, errors="replace")


def _looks_wide(raw: bytes) -> bool:
    """Whether a line looks like UTF-16 text (every other byte NUL, as in ASCII)."""
    halves = raw[0::2].strip(b"\0"), raw[1::2].strip(b"\0")
    return len(raw) >= 4 and any(halves) and not all(halves)


def _text_lines(f: Any, name: str) -> Iterator[str]:
    """Lines of a text stream (a bounded line at a time) or of an iterable of lines."""
    yield from _split(iter(partial(f.readline, _LIMIT), "") if hasattr(f, "readline") else f, name)


def _split(chunks: Iterable[str], name: str) -> Iterator[str]:
    """Lines without their endings, numbered for messages (a chunk may hold several)."""
    number = 0
    it = iter(chunks)
    while True:
        try:
            text = next(it)
        except StopIteration:
            return
        except _Unreadable as exc:
            raise _fail(name, number + 1, str(exc), exc.column) from None
        except UnicodeDecodeError as exc:  # a wide encoding gone wrong
            raise _fail(name, number + 1, f"not valid {exc.encoding} text: {exc.reason}") from None
        if not isinstance(text, str):
            raise TypeError(f"{name}: lines must be str, not {type(text).__name__}")
        number += 1
        if len(text) >= _LIMIT and (len(text) > _LIMIT or text[-1:] != "\n"):
            raise _fail(name, number, _TOO_LONG)
        body = text.rstrip("\r\n")
        if "\0" in body:
            raise _fail(name, number, _NUL, body.index("\0") + 1)
        if "\r" in body or "\n" in body:  # old Mac line endings, or a chunk of lines
            parts = _BREAK.split(body)
            yield from parts[:-1]
            number += len(parts) - 1
            yield parts[-1]
        else:
            yield body


def _fail(name: str, line: int, message: str, column: int = 0) -> HistoryFormatError:
    return HistoryFormatError(message, path=name, line=line, column=column)
