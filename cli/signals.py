"""SIGTERM, and SIGHUP (the terminal closed), taken as Ctrl-C is by the
commands that start processes or serve (``engine``, ``simulate``, ``play``):
the command stops the same way, what it started ended and its files closed,
then says ``holdem CMD: terminated`` (``hung up``) and exits with status 128
plus the signal's number: 143 (129); Ctrl-C's is 130."""

from __future__ import annotations

import contextlib
import functools
import signal
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["STOPS", "Terminated", "stopped_as_ctrl_c", "stops_raise"]

#: The signals taken as Ctrl-C, where the system has them.
STOPS: tuple[int, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)

_Command = TypeVar("_Command", bound=Callable[..., Any])


class Terminated(KeyboardInterrupt):
    """A signal of :data:`STOPS`, raised where the command is as Ctrl-C raises
    :class:`KeyboardInterrupt`, so that it takes the same way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def status(self) -> int:
        """The command's exit status: 128 + the signal's number."""
        return 128 + self.signum

    @property
    def says(self) -> str:
        """What the command's last line says happened."""
        return "hung up" if self.signum == getattr(signal, "SIGHUP", None) else "terminated"


@contextlib.contextmanager
def stops_raise() -> Iterator[None]:
    """Within it, a signal of :data:`STOPS` raises :class:`Terminated` (once:
    those that come on the way out are ignored, so that it is not cut
    short); after it, they do what they did before."""

    def terminate(signum: int, frame: object) -> None:
        for stop in STOPS:
            signal.signal(stop, signal.SIG_IGN)
        raise Terminated(signum)

    try:
        old = {stop: signal.signal(stop, terminate) for stop in STOPS}
    except ValueError:  # (not the main thread: the signals left as they are)
        yield
        return
    try:
        yield
    finally:
        for stop, handler in old.items():
            signal.signal(stop, handler)


def stopped_as_ctrl_c(command: _Command) -> _Command:
    """A command run within :func:`stops_raise`."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        with stops_raise():
            return command(*args, **kwargs)

    return run  # type: ignore[return-value]
