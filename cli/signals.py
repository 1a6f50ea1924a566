"""SIGTERM taken as Ctrl-C is, by the commands that start processes or serve
(``engine``, ``simulate``, ``play``): the command stops the same way, what it
started ended and its files closed, then says ``holdem CMD: terminated`` and
exits with status 143 (128 + SIGTERM; Ctrl-C's is 130)."""

from __future__ import annotations

import contextlib
import functools
import signal
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["EXIT_TERMINATED", "Terminated", "sigterm_as_ctrl_c", "terminated_as_interrupted"]

EXIT_TERMINATED = 128 + signal.SIGTERM

_Command = TypeVar("_Command", bound=Callable[..., Any])


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the command is as Ctrl-C raises
    :class:`KeyboardInterrupt`, so that it takes the same way out."""


@contextlib.contextmanager
def terminated_as_interrupted() -> Iterator[None]:
    """Within it, SIGTERM raises :class:`Terminated` (once: another SIGTERM
    on the way out is ignored, so that the way out is not cut short); after
    it, SIGTERM does what it did before."""

    def terminate(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated

    try:
        old = signal.signal(signal.SIGTERM, terminate)
    except ValueError:  # (not the main thread: SIGTERM left as it is)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def sigterm_as_ctrl_c(command: _Command) -> _Command:
    """A command run within :func:`terminated_as_interrupted`."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        with terminated_as_interrupted():
            return command(*args, **kwargs)

    return run  # type: ignore[return-value]
