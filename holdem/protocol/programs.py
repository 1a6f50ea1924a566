"""Programs as players: a seat played by a program in any language, started
by the engine and spoken to in JSON lines on its stdin and stdout
(``docs/protocol.md``, "Programs as players").

When the seat must act, the program is sent a ``turn`` line: the seat's view
(its legal menu inside), the seconds it has, and an ``id``.  It answers one
line, ``{"id": 17, "action": {"kind": "call"}}`` (the ``id`` may be left
out).  A program that does not answer in time checks or folds for that
decision (R13) and is asked again at its next turn.  One that exits, closes
its output, answers something that is not a decision or an illegal one sits
out: from then on it checks or folds, and :attr:`Program.failure` says why.
Showdowns are not asked: its hand is shown.
Its stderr goes to a log file of the caller's choosing.

Whatever it writes, a decision takes at most its seconds, and a program that
exits is seen to, even when a process it started holds its output open.  It
runs in a process group of its own, with an environment of a few named
variables (:data:`ENVIRONMENT`: nothing else of the engine's); when it is
closed (:func:`stop`) that group is ended, the processes it left behind
with it.  Deals that programs play are seeded with :func:`secret_seed`
unless the caller asks for a seed.

>>> import sys
>>> from holdem import Hand, HandConfig
>>> code = '''
... import json, sys
... for line in sys.stdin:
...     turn = json.loads(line)
...     if turn.get("event") == "turn":
...         legal = turn["view"]["legal"]
...         kind = "check" if legal["check"] else "call"
...         print(json.dumps({"id": turn["id"], "action": {"kind": kind}}), flush=True)
... '''
>>> with Program([sys.executable, "-c", code], budget=10) as caller:
...     hand = Hand(HandConfig((100, 100), 0, 1, 2), rng=1)
...     while not hand.done:
...         _ = hand.act(caller(hand.view(hand.actor), hand.legal_actions()))
...     caller.failure is None, caller.decisions > 0
(True, True)
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from ..actions import Action, Decision, LegalActions
from ..errors import ConfigError, WireError, quote
from ..views import PlayerView
from .messages import VERSION, Lines, encode
from .texts import view_text

__all__ = [
    "ENVIRONMENT", "Program", "Turns", "environment", "parse_command", "secret_seed", "share_cpu",
    "stop",
]  # fmt: skip

#: What a seat given as ``cmd:...`` starts with.
PREFIX = "cmd:"
#: Seconds a program has to leave once its input is closed, before its process
#: group is sent SIGTERM; and then before it is sent SIGKILL.
GRACE = 1.0
#: The variables of the engine's environment a program is given (with those
#: whose names begin ``LC_``, its language settings); nothing else of it
#: reaches the program.
ENVIRONMENT = (
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "PYTHONPATH",
    "SYSTEMROOT", "PATHEXT", "COMSPEC", "TEMP", "TMP", "USERPROFILE",
)  # fmt: skip
#: Bits of a seed drawn by :func:`secret_seed`.
SEED_BITS = 53
#: Seconds between looks at whether a program has exited, where the system
#: cannot say so at once (no ``os.pidfd_open``).
EXIT_POLL = 0.05
#: The most seconds a decision may be given: a day.
MAX_SECONDS = 86_400
#: Seconds the engine polls a program's output after sending a turn, yielding
#: the CPU between polls, before it sleeps until the answer comes
#: (:meth:`Program._read`).
SPIN = 0.0005

_yield = getattr(os, "sched_yield", lambda: None)


@contextlib.contextmanager
def share_cpu(index: int = 0) -> Iterator[int | None]:
    """Within it, this process and the programs it starts run on one CPU (the
    ``index``-th of those it may use, modulo their number); after it, on
    those it had.  Gives the CPU, or None where CPUs cannot be chosen.

    A game of programs is played one decision at a time, so its processes
    never need two CPUs at once; on one they hand each turn over without
    waking another CPU, which on a virtual machine costs more than a
    call-only turn (``bench/bench_protocol.py``: about 1.4x to 2x the
    hands a second).  :func:`holdem.simulate` plays each process's share of
    a match of programs this way, a CPU for each process.
    """
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    allowed = os.sched_getaffinity(0)
    cpu = sorted(allowed)[index % len(allowed)]
    os.sched_setaffinity(0, {cpu})
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, allowed)


def environment() -> dict[str, str]:
    """The environment a program starts with: this process's variables named
    in :data:`ENVIRONMENT` or beginning ``LC_``, and no other."""
    return {
        name: value
        for name, value in os.environ.items()
        if name in ENVIRONMENT or name.startswith("LC_")
    }


def secret_seed() -> int:
    """A seed for deals that programs play, drawn from the system's secrets
    (:data:`SEED_BITS` bits: too many to try one by one, and a whole number
    that every JSON reader keeps exactly).  Tell it only where no program
    reads it while it plays: not on a command line, in an environment or
    in the name of a file it could see."""
    return secrets.randbits(SEED_BITS)


def parse_command(text: str) -> list[str]:
    """The argument list of a seat such as ``cmd:python mybot.py``
    (shell-like quoting; :class:`~holdem.errors.ConfigError` when empty or
    unbalanced)."""
    body = text[len(PREFIX) :] if text.startswith(PREFIX) else text
    try:
        args = shlex.split(body)
    except ValueError as exc:
        raise ConfigError(f"{quote(text)}: {exc}", field="seat", value=text) from None
    if not args:
        raise ConfigError(f"{quote(text)}: no command after {PREFIX}", field="seat", value=text)
    return args


class Turns:
    """The ``turn`` lines of one program, ``seconds`` a decision: each view a
    delta (:meth:`PlayerView.to_dict`) of the one sent before it when that
    one was of the same hand, else whole (``log_start`` 0, with ``config``).

    The same hand is known by the last record sent: a hand's records are
    objects of its own (the engine makes each one as it logs it), and the
    one kept here can be at its place only in the log of the hand that made
    it.  Equal values prove nothing: a deal's configuration object and the
    first records of its log (the blinds, the deal) recur in other hands,
    and a program that had no turn in a hand (a walk) would be sent the
    next hand's first turn as a delta of the one before.
    """

    __slots__ = ("_seconds", "_sent")

    def __init__(self, seconds: float) -> None:
        self._seconds = repr(float(seconds))  # (as a turn line writes it)
        self._sent: tuple[int, Action | None] = (0, None)  # its log's length, last record

    def line(self, turn: int, view: PlayerView) -> bytes:
        """The line of turn number ``turn`` (its ``id``): ``view``, a delta of
        the last one sent when that was of the same hand."""
        log = view.log
        since, last = self._sent
        if not (since and since <= len(log) and log[since - 1] is last):
            since = 0
        self._sent = (len(log), log[-1]) if log else (0, None)
        return (
            f'{{"event":"turn","id":{turn},"seat":{view.seat},"seconds":{self._seconds},'
            f'"view":{view_text(view, since)}}}\n'
        ).encode("ascii")


class Program:
    """A player that is a program: ``command`` (an argument list, or a
    ``cmd:`` text), ``budget`` seconds a decision, its stderr to ``log`` (a
    path; None: discarded).  Callable as a bot: ``program(view, legal)``."""

    def __init__(
        self,
        command: str | list[str],
        *,
        budget: float = 5.0,
        log: str | Path | None = None,
        name: str | None = None,
    ) -> None:
        self.args = parse_command(command) if isinstance(command, str) else list(command)
        if (
            isinstance(budget, bool)
            or not isinstance(budget, int | float)
            or not (0 < budget <= MAX_SECONDS)
        ):
            raise ConfigError(
                f"a program's seconds a decision: more than 0, at most {MAX_SECONDS:,}, "
                f"not {budget!r}",
                field="seconds",
                value=budget,
            )
        self.budget = float(budget)
        self.name = name
        self.failure: str | None = None  # why it sits out, once it does
        self.timeouts = 0
        self.decisions = 0
        self._turn = 0
        self._lines = Lines()
        self._ready: list[bytes | None] = []
        self._turns = Turns(self.budget)
        self._log: IO[bytes] | None = None
        self._exit_fd: int | None = None  # readable once the program has exited
        if log is not None:
            self._log = open(log, "ab")  # noqa: SIM115 - kept open for the program's life
        try:
            self.process: subprocess.Popen[bytes] | None = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                stderr=self._log if self._log is not None else subprocess.DEVNULL,
                env=environment(),
                # its own process group (stop ends what it started), in this session:
                # to the terminal a background job, which cannot read the player's keys
                process_group=0,
            )
        except OSError as exc:
            self.process = None
            self.failure = f"could not start {quote(' '.join(self.args))}: {exc.strerror or exc}"
            return
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:  # (the engine never blocks on a program's pipe)
                os.set_blocking(stream.fileno(), False)
        if hasattr(os, "pidfd_open"):
            with contextlib.suppress(OSError):  # (a system without: its exit is polled)
                self._exit_fd = os.pidfd_open(self.process.pid)
        hello = {"event": "hello", "protocol": "holdem", "version": VERSION, "name": name,
                 "seconds": self.budget}  # fmt: skip
        self._send((encode(hello) + "\n").encode("ascii"), time.monotonic() + self.budget)

    # ------------------------------------------------------------ deciding

    def __call__(self, view: PlayerView, legal: LegalActions) -> Decision:
        return self.decide(view, legal)

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        """The program's decision; check or fold when it has none in time or
        sits out."""
        if legal.show or legal.muck:  # (showdowns are not asked: the hand is shown)
            return Decision.show() if legal.show else Decision.muck()
        fallback = legal.check_or_fold()
        if self.failure is not None:
            return fallback
        self._turn += 1
        start = time.monotonic()
        deadline = start + self.budget
        self._send(self._turns.line(self._turn, view), deadline)
        if self.failure is not None:
            return fallback
        spin = start + SPIN
        while True:
            line = self._read(deadline, spin)
            if line is None:
                if self.failure is None:
                    self.timeouts += 1
                return fallback
            decision = self._decision(line, legal)
            if decision is not None:
                self.decisions += 1
                return decision
            if self.failure is not None:
                return fallback
            if time.monotonic() >= deadline:  # (stale answers, however many, until the end)
                self.timeouts += 1
                return fallback

    def _decision(self, line: bytes, legal: LegalActions) -> Decision | None:
        """The decision of an answer; None for a stale answer (an earlier turn's)
        or a bad one (then :attr:`failure` says why)."""
        try:
            answer = json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            self._fail(f"answered {quote(line.decode('utf-8', 'replace'))}: not JSON")
            return None
        if not isinstance(answer, dict) or "action" not in answer:
            text = quote(line.decode("utf-8", "replace"))
            self._fail(f'answered {text}: not {{"action": ...}}')
            return None
        ident = answer.get("id")
        if ident is not None and (type(ident) is not int or ident != self._turn):
            return None  # an answer that came too late for an earlier turn
        try:
            decision = Decision.from_dict(answer["action"])
        except WireError as exc:
            self._fail(f"answered a decision that is not one: {exc}")
            return None
        if not legal.__contains__(decision):  # (mypy reads `in` as a NamedTuple's)
            self._fail(f"answered {decision}, which the rules do not allow now ({legal})")
            return None
        return decision

    # ------------------------------------------------------------ the pipes

    def _send(self, line: bytes, deadline: float) -> None:
        """Writes a line to the program; one that does not read its input until
        the deadline fails (its pipe is full: the engine never waits on it)."""
        process = self.process
        if process is None or process.stdin is None:
            return
        fd = process.stdin.fileno()
        try:
            while line:
                try:
                    line = line[os.write(fd, line) :]
                except BlockingIOError:
                    left = deadline - time.monotonic()
                    if left <= 0 or not select.select([], [fd], [], left)[1]:
                        self._fail("stopped reading its input")
                        return
        except OSError:  # (BrokenPipeError: it is gone)
            self._fail(self._gone("closed its input"))

    def _read(self, deadline: float, spin: float = 0.0) -> bytes | None:
        """The next line of the program's output; None at the deadline or when
        it is gone (then :attr:`failure` says so).  Until ``spin`` the output
        is polled, not waited on: a quick answer is read without the wake-up
        of a sleeping process (some 10 to 30 µs)."""
        process = self.process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        ready = self._ready
        exited = False  # (seen to: what it wrote before is read, then it is gone)
        while not ready:
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                if exited:
                    self._fail(self._gone("exited"))
                    return None
                now = time.monotonic()
                if now < spin:
                    _yield()  # (a program on this CPU runs first)
                    continue
                if now >= deadline:
                    return None
                exited = not self._wait(fd, deadline - now)
                continue
            if not data:
                self._fail(self._gone("closed its output"))
                return None
            ready.extend(self._lines.feed(data))
            if not ready and time.monotonic() >= deadline:  # (a line that never ends)
                return None
        line = ready.pop(0)
        if line is None:
            self._fail("answered a line longer than the protocol allows")
        return line

    def _wait(self, fd: int, seconds: float) -> bool:
        """Waits at most ``seconds`` for output on ``fd``; False when the program
        has exited instead (its output may be held open by a process it
        started, which would never close it)."""
        exit_fd = self._exit_fd
        if exit_fd is not None:
            readable = select.select([fd, exit_fd], [], [], seconds)[0]
            return fd in readable or exit_fd not in readable
        select.select([fd], [], [], min(seconds, EXIT_POLL))
        process = self.process
        return process is not None and process.poll() is None

    def _gone(self, what: str) -> str:
        process = self.process
        if process is not None:
            try:
                code = process.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                return what
            return f"exited with status {code}" if code >= 0 else f"was killed by signal {-code}"
        return what

    def _fail(self, reason: str) -> None:
        if self.failure is None:
            self.failure = reason
        self.close()

    # ------------------------------------------------------------ the end

    def close(self) -> None:
        """Stops the program and whatever it started (:func:`stop`)."""
        stop([self])

    def _hang_up(self) -> None:
        """Closes the program's input and output: its sign to leave."""
        process = self.process
        if process is not None:
            for stream in (process.stdin, process.stdout):
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()

    def _running(self) -> bool:
        """Whether the program, or a process of its group, runs still."""
        process = self.process
        if process is None:
            return False
        return process.poll() is None or (hasattr(os, "killpg") and _group_runs(process.pid))

    def _signal(self, kill: bool = False) -> None:
        """Sends SIGTERM (``kill``: SIGKILL) to the program's process group
        (where there are no groups, ends the program alone)."""
        process = self.process
        if process is None:
            return
        if hasattr(os, "killpg"):  # (the group's id is the program's)
            with contextlib.suppress(ProcessLookupError, PermissionError):  # (none of it left)
                os.killpg(process.pid, signal.SIGKILL if kill else signal.SIGTERM)
        if process.poll() is None:  # (the program itself too: it may have left its group)
            with contextlib.suppress(ProcessLookupError):
                if kill:
                    process.kill()
                else:
                    process.terminate()

    def _release(self) -> None:
        """What the program held, let go once it has ended."""
        process, self.process = self.process, None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):  # (killed: it is reaped late)
                process.wait(GRACE)
        if self._exit_fd is not None:
            os.close(self._exit_fd)
            self._exit_fd = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Program:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "process", None) is not None:
            self.close()


def stop(programs: Iterable[Program]) -> None:
    """Stops programs, all at once (one :data:`GRACE` for all): each one's
    input closed, its sign to leave; :data:`GRACE` seconds later SIGTERM to
    the process group of each still running (or that left processes of its
    group running); :data:`GRACE` seconds after that, SIGKILL to what is
    left.  A process that made a group or a session of its own (``setsid``)
    is no longer of the group, and is not stopped.  Stopping a program again does
    nothing; one whose stopping is cut short (Ctrl-C, SIGTERM) is killed."""
    running = [p for p in programs if p.process is not None]
    try:
        for program in running:
            program._hang_up()
        end = time.monotonic() + GRACE
        for program in running:  # (each program given until the end to leave)
            assert program.process is not None
            with contextlib.suppress(subprocess.TimeoutExpired):
                program.process.wait(max(0.0, end - time.monotonic()))
        for program in running:  # (a group left empty is told nothing)
            program._signal()
        left = [p for p in running if p._running()]
        end = time.monotonic() + GRACE
        while left and time.monotonic() < end:
            time.sleep(0.01)
            left = [p for p in left if p._running()]
    except BaseException:
        left = running  # (no time for graces: the way out goes on at once)
        raise
    finally:
        for program in left:
            program._signal(kill=True)
        for program in running:
            program._release()


def _group_runs(group: int) -> bool:
    """Whether a process of the process group ``group`` runs still (one that
    exited and waits to be reaped by its parent, a zombie, does not)."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        names = os.listdir("/proc")
    except OSError:  # (no /proc: the system knows of one)
        return True
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                text = stat.read()
        except OSError:  # (it ended meanwhile)
            continue
        fields = text[text.rfind(b")") + 2 :].split()  # state, parent, group, ...
        if len(fields) > 2 and int(fields[2]) == group and fields[0] not in (b"Z", b"X"):
            return True
    return False
