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
import errno
import io
import os
from collections.abc import Iterable, Iterator
from functools import partial
from itertools import chain
from typing import IO, Any, TypeAlias

from ..errors import HistoryFormatError

__all__ = ["MAX_HAND", "MAX_LINE", "Source", "input_line_lists", "input_lines", "input_name"]

#: The longest line read, in characters (bytes for UTF-8 input): 1 MiB.  A real
#: hand history's longest line is a few hundred characters.
MAX_LINE = 1 << 20

#: The largest hand read, in characters: 4 MiB (a real hand has a few thousand).
MAX_HAND = 1 << 22

#: What the readers take: a path, the content as bytes, an open stream, or
#: an iterable of lines.
Source: TypeAlias = "str | os.PathLike[str] | bytes | IO[str] | IO[bytes] | Iterable[str]"


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

    Raises :class:`OSError` if a path cannot be opened (at once), and
    :class:`~holdem.errors.HistoryFormatError` where the input stops being
    readable text.  A file it opens is closed when the lines run out (or the
    iterator is dropped).
    """
    return chain.from_iterable(input_line_lists(source, path=path, legacy=legacy))


def input_line_lists(
    source: Source, *, path: str | None = None, legacy: str | None = None
) -> Iterator[list[str]]:
    """:func:`input_lines` a list at a time (the lines of a block of the input:
    for work on many lines at once)."""
    name = input_name(source, path)
    if isinstance(source, str | os.PathLike):
        if "\0" in os.fspath(source):  # open() would say ValueError
            raise FileNotFoundError(errno.ENOENT, "no such file (the name holds a NUL)", name)
        return _binary_lines(open(source, "rb"), name, legacy, close=True)
    if isinstance(source, bytes | bytearray | memoryview):
        return _binary_lines(io.BytesIO(source), name, legacy)
    if not isinstance(source, io.TextIOBase) and _is_binary(source):
        return _binary_lines(source, name, legacy)
    return _text_lines(source, name)


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
_WIDE = (
    "NUL bytes between the characters: UTF-16 or UTF-32 text without a byte-order mark? "
    "Save it as UTF-8"
)
_LIMIT = MAX_LINE + 2  # a line of MAX_LINE characters and its ending
_BLOCK = 1 << 16  # bytes read at a time


def _binary_lines(
    f: Any, name: str, legacy: str | None, close: bool = False
) -> Iterator[list[str]]:
    """The lines of a binary stream, a list a time (few layers of generators: this
    is the hot path)."""
    if not hasattr(f, "peek") and isinstance(f, io.RawIOBase | io.BytesIO):
        f = io.BufferedReader(f)
    head = f.peek(4)[:4] if hasattr(f, "peek") else b""
    for bom, encoding in _WIDE_BOMS:
        if head.startswith(bom):
            text = io.TextIOWrapper(f, encoding=encoding, newline=None)
            return _closing(_text_lines(text, name), text if close else None)
    if head.startswith(codecs.BOM_UTF8):
        f.read(3)
    return _split(_decoded(f, legacy, close), name)


def _closing(lines: Iterator[list[str]], f: Any) -> Iterator[list[str]]:
    try:
        yield from lines
    finally:
        if f is not None:
            f.close()


def _decoded(f: Any, legacy: str | None, close: bool = False) -> Iterator[str]:
    """The text of a binary stream, in chunks of whole lines (the last may lack its ending).

    Read a block at a time (much faster than a line at a time); a line that
    grows past :data:`MAX_LINE` stops the reading.  ``close``: close the
    stream at the end.
    """
    tail = b""
    first = True
    try:
        while True:
            block = f.read(_BLOCK)
            data = tail + block if tail else block
            if not block:
                if data:
                    yield from _checked(data, legacy, first)
                return
            cut = _last_break(data)
            if cut < 0:
                if b"\0" in data:
                    yield from _checked(data, legacy, first)
                if len(data) >= _LIMIT:
                    raise _Unreadable(_TOO_LONG)
                tail = data
                continue
            tail = data[cut + 1 :]
            yield from _checked(data[: cut + 1], legacy, first)
            first = False
    finally:
        if close:
            f.close()


def _last_break(data: bytes) -> int:
    """Where the last line ending of a block ends (-1: none); never between \\r and \\n."""
    end = max(data.rfind(b"\n"), data.rfind(b"\r"))
    if end == len(data) - 1 and data[end] == 13:  # a \r whose \n may come in the next block
        end = max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end))
    return end


def _checked(data: bytes, legacy: str | None, first: bool) -> Iterator[str]:
    """The text of whole lines; the lines before a NUL byte or bad UTF-8, then the error."""
    at = data.find(b"\0")
    if at >= 0:
        start = max(data.rfind(b"\n", 0, at), data.rfind(b"\r", 0, at)) + 1
        if start:
            yield from _checked(data[:start], legacy, first)
        elif first and _looks_wide(data.split(b"\n", 1)[0]):
            raise _Unreadable(_WIDE)
        raise _Unreadable(_NUL, at - start + 1)
    try:
        yield data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if legacy is not None:  # line by line: only the lines that are not UTF-8
            yield "\n".join(_decode(line, legacy) for line in data.split(b"\n"))
            return
        start = max(data.rfind(b"\n", 0, exc.start), data.rfind(b"\r", 0, exc.start)) + 1
        if start:
            yield data[:start].decode("utf-8")
        column = len(data[start : exc.start].decode("utf-8")) + 1
        raise _Unreadable(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file as UTF-8", column
        ) from None


def _decode(line: bytes, legacy: str) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode(legacy, errors="replace")


def _looks_wide(raw: bytes) -> bool:
    """Whether a line looks like UTF-16 text (every other byte NUL, as in ASCII)."""
    halves = raw[0::2].strip(b"\0"), raw[1::2].strip(b"\0")
    return len(raw) >= 4 and any(halves) and not all(halves)


def _text_lines(f: Any, name: str) -> Iterator[list[str]]:
    """Lines of a text stream (a bounded line at a time) or of an iterable of lines."""
    return _split(iter(partial(f.readline, _LIMIT), "") if hasattr(f, "readline") else f, name)


def _split(chunks: Iterable[str], name: str) -> Iterator[list[str]]:
    """The lines of each chunk of text, without their endings, numbered for messages.

    A chunk holds one or more lines (all but the last of the input end with
    ``\\n``, ``\\r\\n`` or ``\\r``).
    """
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
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()
        if "\0" in text or (len(text) > MAX_LINE and max(map(len, lines)) > MAX_LINE):
            for i, line in enumerate(lines, number + 1):
                if "\0" in line:
                    raise _fail(name, i, _NUL, line.index("\0") + 1)
                if len(line) > MAX_LINE:
                    raise _fail(name, i, _TOO_LONG)
        number += len(lines)
        yield lines


def _fail(name: str, line: int, message: str, column: int = 0) -> HistoryFormatError:
    return HistoryFormatError(message, path=name, line=line, column=column)
