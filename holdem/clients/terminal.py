"""The terminal (or pipe) a player's line-mode client reads: :class:`Console`
waits for a line with a deadline (``holdem play``'s turns); :class:`Keyboard`
reads keys without blocking while a room's events arrive (``holdem join``);
:func:`quiet_ctrl_c` keeps ``^C`` off the prompt's line."""

from __future__ import annotations

import contextlib
import os
import select
import sys
import time
from collections.abc import Iterator
from typing import TextIO

import click

__all__ = ["Console", "Keyboard", "quiet_ctrl_c"]


class Console:
    """Reads the player's lines, with a deadline when the turn timer runs.

    On a real stream (a terminal, a pipe) it reads the file descriptor itself,
    so a deadline can interrupt the wait; elsewhere (a test runner's stream)
    it reads lines and leaves a late answer to the table's timer."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = sys.stdin if stream is None else stream
        try:
            self.fd: int | None = self.stream.fileno()
        except (OSError, ValueError, AttributeError):
            self.fd = None
        self._buffer = b""
        self._ended = False
        #: a terminal (POSIX: termios) whose input typed out of turn is dropped (:meth:`discard`)
        self.tty = self.fd is not None and os.isatty(self.fd) and os.name == "posix"

    def discard(self) -> list[str]:
        """On a terminal, drops what was typed before now and returns its whole
        lines (a line typed out of turn, or for a turn that has ended, is
        never taken as a later turn's move); elsewhere (a script's moves
        typed ahead) keeps it all and returns nothing."""
        if not self.tty or self.fd is None:
            return []
        import termios

        data, self._buffer = self._buffer, b""
        while not self._ended and select.select([self.fd], [], [], 0)[0]:
            chunk = os.read(self.fd, 4096)  # (a whole line: the terminal's line discipline)
            self._ended = not chunk
            data += chunk
        termios.tcflush(self.fd, termios.TCIFLUSH)  # (and a line half typed)
        lines = data.decode("utf-8", "replace").split("\n")
        return [line.strip() for line in lines if line.strip()]

    def read(self, deadline: float | None = None) -> str | None:
        """The next line (without its end); None when ``deadline`` (a
        ``time.monotonic`` reading) passed first.  EOFError at the end."""
        if self.fd is None:
            line = self.stream.readline()
            if not line:
                raise EOFError
            return line.rstrip("\r\n")
        while b"\n" not in self._buffer:
            if self._ended:
                if not self._buffer:
                    raise EOFError
                break
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                    return None
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self._ended = True
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")


class Keyboard:
    """The player's lines, read without blocking (a real stdin is needed).

    On a terminal the keys are read one by one (the terminal in cbreak mode
    while the game lasts: :meth:`raw`), so that the prompt can count the
    seconds down while the player types: :attr:`typing` is the line so far,
    echoed by :meth:`Game.countdown`'s redraws."""

    def __init__(self) -> None:
        try:
            self.fd = sys.stdin.fileno()
        except (OSError, ValueError, AttributeError):
            raise click.UsageError("stdin must be a terminal or a pipe") from None
        self.tty = os.isatty(self.fd)
        self._buffer = b""
        self.typing = ""  # (a terminal's line being typed)
        self.ended = False

    @contextlib.contextmanager
    def raw(self) -> Iterator[None]:
        """Keys as they are typed (a terminal; Ctrl-C still interrupts)."""
        if not self.tty:
            yield
            return
        import termios
        import tty

        saved = termios.tcgetattr(self.fd)
        try:
            tty.setcbreak(self.fd)
            yield
        finally:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, saved)

    def lines(self) -> list[str]:
        data = os.read(self.fd, 4096)
        if not data:
            self.ended = True
            data = b"\n" if self._buffer or self.typing else b""
        if self.tty:
            return self._keys(data.decode("utf-8", "replace"))
        self._buffer += data
        *whole, self._buffer = self._buffer.split(b"\n")
        return [line.decode("utf-8", "replace").strip() for line in whole]

    def _keys(self, text: str) -> list[str]:
        """The lines ended by these keys (a terminal's), the rest kept and echoed."""
        done = []
        for key in text:
            if key in "\r\n":
                done.append(self.typing.strip())
                self.typing = ""
                click.echo()
            elif key in "\x7f\x08":  # (backspace)
                if self.typing:
                    self.typing = self.typing[:-1]
                    click.echo("\b \b", nl=False)
            elif key == "\x04":  # (Ctrl-D: the end of input)
                self.ended = True
            elif key.isprintable():
                self.typing += key
                click.echo(key, nl=False)
        return done


@contextlib.contextmanager
def quiet_ctrl_c(fd: int | None) -> Iterator[None]:
    """On a terminal (``fd``), Ctrl-C drawn as nothing (no ``^C`` on the
    prompt's line, where it reads as typed); the terminal as it was after."""
    if fd is None or not os.isatty(fd) or os.name != "posix":  # (termios: POSIX only)
        yield
        return
    import termios

    saved = termios.tcgetattr(fd)
    quiet = [*saved[:3], saved[3] & ~termios.ECHOCTL, *saved[4:]]
    try:
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
