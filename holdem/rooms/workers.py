"""A room server in several processes (``holdem serve --workers N``,
``docs/rooms.md``, "Workers"): one Python process serves on one CPU, so a
busy server shares its tables out between worker processes.

This process, the *supervisor*, makes the store ready (created, migrated),
listens on the port, makes each worker's inbox (:mod:`~holdem.rooms.handover`)
and the counts they share (their connections, :class:`~holdem.rooms.codes.Tally`;
each address's wrong codes and tokens, :class:`~holdem.rooms.codes.SharedGuesses`),
and forks the workers.  Each is a whole room server (a
:class:`~holdem.rooms.room.Room` on its own connection to the one SQLite
file, and a :class:`~holdem.rooms.server.RoomServer` on the listening
socket it inherited); worker ``k`` makes and serves the tables ``t<n>`` with
``(n - 1) % N == k``, and hands a connection that names another worker's
table on to it.  The supervisor says the server is ready once every worker
is, starts again a worker that dies (its tables resume from the store at
the start of the hand each was playing), and stops them all on SIGINT or
SIGTERM (each commits and closes its store).  A worker whose supervisor is
gone stops too.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import select
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ListenError
from .codes import SharedGuesses, Tally
from .core import Limits
from .handover import Channels, channels_for
from .room import Room
from .server import RoomServer, tune_collector
from .site import Site, link_base
from .store import Store

__all__ = ["listen", "serve_workers"]

#: Seconds a worker has to stop (commit, close) before it is killed.
STOP_SECONDS = 10.0
#: Seconds between a worker's looks at whether its supervisor is alive.
_PARENT_POLL = 1.0
#: A worker that dies sooner than this after it started is started again
#: after a wait that doubles up to _MOST_WAIT (a worker that cannot start
#: does not spin the CPU).
_SHORT_LIFE = 5.0
_MOST_WAIT = 30.0
#: The longest line a worker writes to its supervisor (one write, whole).
_NOTE_BYTES = 512


@dataclass(slots=True)
class _Worker:
    """A worker process as its supervisor knows it."""

    number: int
    pid: int = 0
    generation: int = 0  # the times it was started before
    started: float = 0.0
    quick_deaths: int = 0  # deaths in a row soon after starting
    due: float | None = None  # when it is to be started again
    resumed: int | None = None  # the tables it resumed (None: not ready)
    notes: list[str] = field(default_factory=list)


def listen(host: str, port: int) -> list[socket.socket]:
    """Listening TCP sockets on ``host:port``, as asyncio's ``create_server``
    makes them (one an address the host name has; port 0: a free port, the
    same for every address); :class:`ListenError` when it cannot."""
    sockets: list[socket.socket] = []
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)  # fmt: skip
        for family, kind, proto, _, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if port == 0 and len(sockets) > 1:  # (the port the first was given)
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            sock.bind(address)
            sock.listen(1024)
            sock.setblocking(False)
    except BaseException as exc:
        for sock in sockets:
            sock.close()
        if isinstance(exc, OSError):
            raise ListenError.at(host, port, exc) from None
        raise
    return sockets


def serve_workers(
    path: str | Path,
    host: str,
    port: int,
    *,
    workers: int,
    limits: Limits | None = None,
    ready: Callable[[int, int, str | None], object] | None = None,
    log: Callable[[str], object] | None = None,
    web: Site | None = None,
) -> None:
    """Serves the room of the store at ``path`` on ``host:port`` in
    ``workers`` processes until SIGINT (then :class:`KeyboardInterrupt`,
    once every worker has stopped) or SIGTERM.  ``ready(port, resumed,
    links)``: every worker serves, the tables resumed from the store
    counted, and the beginning of the tables' links when ``web`` (the page
    and its WebSocket, :mod:`~holdem.rooms.web`) is served too: each worker
    serves it on one listening socket;
    ``log``: a line for each worker started again.  :class:`ListenError`:
    the port cannot be had; :class:`RuntimeError`: a worker could not start."""
    Store(path).close()  # (the file made or migrated once, before the workers open it)
    listeners = listen(host, port)
    bound = int(listeners[0].getsockname()[1])
    try:
        pages = [] if web is None else listen(web.host, web.port)
    except ListenError:
        for sock in listeners:
            sock.close()
        raise
    supervisor = _Supervisor(Path(path), listeners, workers, limits or Limits(), log)
    supervisor.web, supervisor.pages = web, pages
    try:
        stopped = supervisor.start()
        if stopped is None:
            if ready is not None:
                links = None if web is None else link_base(web, pages[0].getsockname()[1])
                ready(bound, supervisor.resumed, links)
            stopped = supervisor.run()
    finally:
        supervisor.stop()
        for sock in [*listeners, *pages]:
            sock.close()
    if stopped == signal.SIGINT:
        raise KeyboardInterrupt


class _Supervisor:
    """Starts the workers, starts again those that die, stops them all."""

    def __init__(self, path: Path, listeners: list[socket.socket], count: int, limits: Limits,
                 log: Callable[[str], object] | None) -> None:  # fmt: skip
        self.path = path
        self.listeners = listeners
        self.limits = limits
        self.log = log or (lambda line: None)
        self.channels = channels_for(count)
        self.tally = Tally(count)
        self.guesses = SharedGuesses(limits.guesses, limits.guess_seconds)
        self.workers = [_Worker(k) for k in range(count)]
        self.notes_in, self.notes_out = os.pipe()  # (the workers' lines: ready, failed)
        self.wake_in, self.wake_out = os.pipe()  # (a signal arrived)
        for fd in (self.notes_in, self.wake_in, self.wake_out):
            os.set_blocking(fd, False)
        self.signals: list[int] = []
        self.stopping = False
        self.web: Site | None = None  # (the page served too, on its listening sockets)
        self.pages: list[socket.socket] = []
        self._text = b""
        self._old: dict[int, object] = {}

    @property
    def resumed(self) -> int:
        return sum(w.resumed or 0 for w in self.workers)

    # ------------------------------------------------------------ starting

    def start(self) -> int | None:
        """Starts every worker and waits until each serves (RuntimeError:
        one could not start); the signal that stopped it meanwhile, if any."""
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
            self._old[sig] = signal.signal(sig, self._on_signal)
        signal.set_wakeup_fd(self.wake_out, warn_on_full_buffer=False)
        for worker in self.workers:
            self._fork(worker)
        while any(w.resumed is None for w in self.workers):
            self._wait(None)
            stop = self._stop_signal()
            if stop is not None:
                return stop
            for worker in self.workers:
                if worker.pid == 0 and worker.resumed is None:
                    why = "; ".join(worker.notes) or "it stopped"
                    raise RuntimeError(f"worker {worker.number} could not start: {why}")
        return None

    def _fork(self, worker: _Worker) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # (the worker: it never returns)
            code = 1
            try:
                code = self._worker_main(worker)
            finally:
                os._exit(code)
        worker.pid = pid
        worker.started = time.monotonic()
        worker.due = None

    # ------------------------------------------------------------ supervising

    def run(self) -> int:
        """Supervises until a stop signal (SIGINT, SIGTERM): that signal."""
        while True:
            waits = [w.due for w in self.workers if w.due is not None]
            self._wait(None if not waits else max(0.0, min(waits) - time.monotonic()))
            stop = self._stop_signal()
            if stop is not None:
                return stop
            now = time.monotonic()
            for worker in self.workers:
                if worker.pid == 0 and worker.due is not None and worker.due <= now:
                    worker.generation += 1
                    worker.resumed = None
                    self._fork(worker)

    def _wait(self, timeout: float | None) -> None:
        """Waits for a worker's line or a signal; reads the lines, reaps the
        workers that ended (and plans their start again)."""
        with contextlib.suppress(InterruptedError):
            select.select([self.notes_in, self.wake_in], [], [], timeout)
        with contextlib.suppress(BlockingIOError):
            while os.read(self.wake_in, 512):
                pass
        if {signal.SIGINT, signal.SIGTERM} & set(self.signals):
            self.stopping = True  # (a Ctrl-C reaches the workers too: none is started again)
        self._read_notes()
        self._reap()

    def _on_signal(self, signum: int, frame: object) -> None:
        self.signals.append(signum)

    def _stop_signal(self) -> int | None:
        stops = [s for s in self.signals if s in (signal.SIGINT, signal.SIGTERM)]
        self.signals.clear()
        return stops[0] if stops else None

    def _read_notes(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(self.notes_in, 4096):
                self._text += chunk
        *lines, self._text = self._text.split(b"\n")
        for raw in lines:
            number, _, rest = raw.decode("utf-8", "replace").partition(" ")
            kind, _, what = rest.partition(" ")
            worker = self.workers[int(number)]
            if kind == "ready":
                worker.resumed = int(what)
            else:
                worker.notes.append(what)

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            worker = next((w for w in self.workers if w.pid == pid), None)
            if worker is None:
                continue
            worker.pid = 0
            self.tally.set(worker.number, 0)  # (its connections are gone with it)
            self._read_notes()
            if self.stopping or (worker.resumed is None and worker.generation == 0):
                continue  # (stopped; or it could not start: start() says so)
            lived = time.monotonic() - worker.started
            worker.quick_deaths = worker.quick_deaths + 1 if lived < _SHORT_LIFE else 0
            wait = 0.0 if not worker.quick_deaths else min(_MOST_WAIT, 2.0**worker.quick_deaths)
            worker.due = time.monotonic() + wait
            why = _ended(status)
            notes = f" ({'; '.join(worker.notes)})" if worker.notes else ""
            worker.notes.clear()
            again = "started again" if not wait else f"started again in {wait:g} s"
            self.log(f"worker {worker.number} (pid {pid}) {why}{notes}: {again}")

    # ------------------------------------------------------------ stopping

    def stop(self) -> None:
        """Stops every worker (SIGTERM: they commit and close; killed after
        :data:`STOP_SECONDS`), and puts the signals back as they were."""
        self.stopping = True
        for worker in self.workers:
            if worker.pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        while any(w.pid for w in self.workers) and time.monotonic() < deadline:
            self._wait(max(0.0, min(0.1, deadline - time.monotonic())))
        for worker in self.workers:
            if worker.pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(worker.pid, 0)
                worker.pid = 0
        signal.set_wakeup_fd(-1)
        for sig, old in self._old.items():
            signal.signal(sig, old)  # type: ignore[arg-type]
        for fd in (self.notes_in, self.notes_out, self.wake_in, self.wake_out):
            with contextlib.suppress(OSError):
                os.close(fd)
        for inbox, outbox in self.channels:
            inbox.close()
            outbox.close()

    # ------------------------------------------------------------ a worker

    def _worker_main(self, worker: _Worker) -> int:
        """The worker process: its room served until SIGINT, SIGTERM or its
        supervisor's end; its exit status."""
        parent = os.getppid()
        signal.set_wakeup_fd(-1)
        for sig in self._old:
            signal.signal(sig, signal.SIG_DFL)
        _die_with_parent()
        for fd in (self.notes_in, self.wake_in, self.wake_out):
            os.close(fd)
        k = worker.number
        for j, (inbox, outbox) in enumerate(self.channels):
            if j != k:
                inbox.close()  # (another worker's to read)
            else:
                outbox.close()  # (the others write to it)
        outboxes = {j: pair[1] for j, pair in enumerate(self.channels) if j != k}
        channels = Channels(self.channels[k][0], outboxes)
        if os.getppid() != parent:  # (the supervisor died before the line above)
            return 0
        try:
            store = Store(self.path)
        except Exception as exc:  # (the file cannot be opened: said to the supervisor)
            self._note(k, f"failed {type(exc).__name__}: {exc}")
            return 1
        try:
            room = Room(store, limits=self.limits, worker=k, workers=len(self.workers),
                        generation=worker.generation, tally=self.tally, guesses=self.guesses,
                        log=lambda line: self.log(f"worker {k}: {line}"))  # fmt: skip
            tune_collector()
            asyncio.run(self._serve(room, channels, k, parent))
        except Exception as exc:
            self._note(k, f"failed {type(exc).__name__}: {exc}")
            return 1
        finally:
            left = store.close()
            if left:
                self.log(f"worker {k}: {left} writes could not be stored before it stopped "
                         "(nobody was told what they hold)")  # fmt: skip
        return 0

    async def _serve(self, room: Room, channels: Channels, k: int, parent: int) -> None:
        server = RoomServer(room, channels)
        await server.start(sockets=self.listeners, web=self.web, web_sockets=self.pages or None)
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)

        def look() -> None:  # (the supervisor gone, the worker goes: no orphan)
            if os.getppid() != parent:
                stop.set()
            else:
                loop.call_later(_PARENT_POLL, look)

        loop.call_later(_PARENT_POLL, look)
        self._note(k, f"ready {len(room.tables)}")
        await server.serve_until(stop)

    def _note(self, k: int, text: str) -> None:
        """A line to the supervisor (one write: lines of workers do not mix)."""
        line = f"{k} {' '.join(text.split())}"[: _NOTE_BYTES - 1] + "\n"
        with contextlib.suppress(OSError):
            os.write(self.notes_out, line.encode("utf-8", "replace"))


def _ended(status: int) -> str:
    """How a process ended, from its wait status."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(sig).name}"
        return f"was killed by signal {sig}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"


def _die_with_parent() -> None:
    """Asks Linux to send this process SIGTERM when its parent dies (other
    systems: the worker's look at its parent every second does it)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # (PR_SET_PDEATHSIG)
