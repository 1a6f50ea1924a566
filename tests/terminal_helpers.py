"""A command of ours on a pseudo-terminal of its own, as a player's terminal
runs it: what it wrote, keys typed, Ctrl-C delivered to it (the tests of the
players' clients)."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time

from conftest import with_ctrl_c


def _controlling_terminal() -> None:
    """``preexec_fn``: the child's stdin (the pseudo-terminal) its controlling
    terminal, as a shell gives it, so that Ctrl-C typed there interrupts it."""
    import fcntl
    import termios

    with_ctrl_c()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A command on a pseudo-terminal of its own: what it wrote, and keys typed."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
        self.main, side = os.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "holdem", *args],
            stdin=side, stdout=side, stderr=side, env=env, close_fds=True,
            start_new_session=True, preexec_fn=_controlling_terminal,
        )  # fmt: skip
        os.close(side)
        self.seen = ""
        self._raw = b""

    def type(self, keys: str) -> None:
        os.write(self.main, keys.encode())

    def read(self, seconds: float) -> None:
        """Reads what the command writes for ``seconds`` (or until it ends)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([self.main], [], [], 0.05)[0]:
                try:
                    self._raw += os.read(self.main, 65536)
                except OSError:  # (the command ended: the terminal is gone)
                    return
                self.seen = self._raw.decode("utf-8", "replace")

    def wait_for(self, pattern: str, seconds: float = 30, start: int = 0) -> re.Match[str]:
        """The first match of ``pattern`` in what was written from ``start``."""
        end = time.monotonic() + seconds
        while True:
            found = re.compile(pattern).search(self.seen, start)
            if found:
                return found
            assert time.monotonic() < end, f"no {pattern!r} in: {self.seen[-1500:]!r}"
            self.read(0.1)

    def end(self, seconds: float = 20) -> int:
        """The exit status (the command killed if it is still running after
        ``seconds``); what it writes meanwhile is read as it comes (a
        pseudo-terminal holds little: unread, a command writing its last
        lines would wait, and be killed)."""
        deadline = time.monotonic() + seconds
        while self.process.poll() is None and time.monotonic() < deadline:
            self.read(0.1)
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        status = self.process.wait()
        self.read(0.2)
        os.close(self.main)
        return status
