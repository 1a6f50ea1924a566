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

import json
import os
import select
import shlex
import subprocess
import time
from pathlib import Path
from typing import IO, Any

from ..actions import Action, Decision, LegalActions
from ..errors import ConfigError, WireError, quote
from ..views import PlayerView
from .messages import VERSION, Lines, encode

__all__ = ["Program", "parse_command"]

#: What a seat given as ``cmd:...`` starts with.
PREFIX = "cmd:"
#: Seconds a program has to stop when it is closed, before it is killed.
GRACE = 1.0
#: The most seconds a decision may be given: a day.
MAX_SECONDS = 86_400


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
        self._sent_log: tuple[Action, ...] = ()  # the log the program has, this hand
        self._log: IO[bytes] | None = None
        if log is not None:
            self._log = open(log, "ab")  # noqa: SIM115 - kept open for the program's life
        try:
            self.process: subprocess.Popen[bytes] | None = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log if self._log is not None else subprocess.DEVNULL,
            )
        except OSError as exc:
            self.process = None
            self.failure = f"could not start {quote(' '.join(self.args))}: {exc.strerror or exc}"
            return
        self._send({"event": "hello", "protocol": "holdem", "version": VERSION,
                    "name": name, "seconds": budget})  # fmt: skip

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
        self._send({"event": "turn", "id": self._turn, "seat": view.seat,
                    "seconds": self.budget, "view": self._view(view)})  # fmt: skip
        if self.failure is not None:
            return fallback
        deadline = time.monotonic() + self.budget
        while True:
            line = self._read(deadline)
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

    def _view(self, view: PlayerView) -> dict[str, Any]:
        """The view's wire form; its log as a delta when the program has the
        start of it (the same hand)."""
        sent = self._sent_log
        log = view.log
        since = 0
        if sent and len(log) >= len(sent) and log[: len(sent)] == sent:
            since = len(sent)
        self._sent_log = log
        return view.to_dict(since)

    def _decision(self, line: bytes, legal: LegalActions) -> Decision | None:
        """The decision of an answer; None for a stale answer (an earlier turn's)
        or a bad one (then :attr:`failure` says why)."""
        try:
            answer = json.loads(line)
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

    def _send(self, message: dict[str, Any]) -> None:
        process = self.process
        if process is None or process.stdin is None:
            return
        try:
            process.stdin.write(encode(message).encode("ascii") + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._fail(self._gone("closed its input"))

    def _read(self, deadline: float) -> bytes | None:
        """The next line of the program's output; None at the deadline or when
        it is gone (then :attr:`failure` says so)."""
        process = self.process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        while not self._ready:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            data = os.read(fd, 65536)
            if not data:
                self._fail(self._gone("closed its output"))
                return None
            self._ready.extend(self._lines.feed(data))
        line = self._ready.pop(0)
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
