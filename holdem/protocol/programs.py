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
import select
import shlex
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from ..actions import Action, Decision, LegalActions
from ..config import HandConfig
from ..errors import ConfigError, WireError, quote
from ..views import PlayerView
from .messages import VERSION, Lines, encode
from .texts import view_text

__all__ = ["Program", "parse_command", "share_cpu"]

#: What a seat given as ``cmd:...`` starts with.
PREFIX = "cmd:"
#: Seconds a program has to stop when it is closed, before it is killed.
GRACE = 1.0
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
        self._seconds = repr(self.budget)  # (as a turn line writes it)
        self._config: HandConfig | None = None  # the configuration of the last turn sent
        self._sent: tuple[int, Action | None] = (0, None)  # its log's length, last record
        self._log: IO[bytes] | None = None
        if log is not None:
            self._log = open(log, "ab")  # noqa: SIM115 - kept open for the program's life
        try:
            self.process: subprocess.Popen[bytes] | None = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                stderr=self._log if self._log is not None else subprocess.DEVNULL,
            )
        except OSError as exc:
            self.process = None
            self.failure = f"could not start {quote(' '.join(self.args))}: {exc.strerror or exc}"
            return
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:  # (the engine never blocks on a program's pipe)
                os.set_blocking(stream.fileno(), False)
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
        self._send(self._turn_line(view), deadline)
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

    def _turn_line(self, view: PlayerView) -> bytes:
        """The ``turn`` line of a view: a delta (:meth:`PlayerView.to_dict`) when
        the program has the view before it in the same hand."""
        config, log = view.config, view.log
        since, last = self._sent
        if not (since and config is self._config and since <= len(log) and log[since - 1] == last):
            since = 0
        self._config = config
        self._sent = (len(log), log[-1]) if log else (0, None)
        return (
            f'{{"event":"turn","id":{self._turn},"seat":{view.seat},"seconds":{self._seconds},'
            f'"view":{view_text(view, since)}}}\n'
        ).encode("ascii")

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
        while not ready:
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                now = time.monotonic()
                if now < spin:
                    _yield()  # (a program on this CPU runs first)
                    continue
                if now >= deadline or not select.select([fd], [], [], deadline - now)[0]:
                    return None
                continue
            if not data:
                self._fail(self._gone("closed its output"))
                return None
            ready.extend(self._lines.feed(data))
        line = ready.pop(0)
        if line is None:
            self._fail("answered a line longer than the protocol allows")
        return line

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
        """Stops the program (its input closed; killed if it does not go)."""
        process, self.process = self.process, None
        if process is not None:
            for stream in (process.stdin, process.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
            try:
                process.wait(timeout=GRACE)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
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
