"""Writing a program that plays a seat, in Python: :func:`play` reads the
engine's lines, hands each turn's view and menu to a decide function, and
answers with its decision (``docs/protocol.md``, "Programs as players").

A whole bot (``examples/caller_bot.py``)::

    from holdem import Decision
    from holdem.protocol.player import play

    def decide(view, legal):
        return Decision.check() if legal.check else Decision.call()

    play(decide)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import IO, Any

from ..actions import Decision, LegalActions
from ..views import PlayerView

__all__ = ["play"]


def play(
    decide: Callable[[PlayerView, LegalActions], Decision],
    *,
    input: IO[bytes] | IO[str] | None = None,
    output: IO[str] | None = None,
) -> None:
    """Plays until the engine closes the input: each ``turn`` line read from
    ``input`` (default stdin) is answered on ``output`` (default stdout) with
    ``decide(view, legal)``.  A view whose log is a delta is completed from
    the one before."""
    source: Any = sys.stdin.buffer if input is None else input
    sink: Any = sys.stdout if output is None else output
    previous: PlayerView | None = None
    for line in source:
        message = json.loads(line)
        if message.get("event") != "turn":
            continue
        data = message["view"]
        view = PlayerView.from_dict(data, previous if data.get("log_start") else None)
        previous = view
        legal = view.legal
        if legal is None:  # pragma: no cover - the engine sends a turn with a menu
            continue
        decision = decide(view, legal)
        sink.write(json.dumps({"id": message.get("id"), "action": decision.to_dict()}) + "\n")
        sink.flush()
