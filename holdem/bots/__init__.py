"""Bots: players that decide from a player's view and its legal decisions.

Every bot is an object with one method, ``decide(view, legal) -> Decision``
(and is callable the same way, so it sits at a table as a player), and is
reproducible from its seed.  :data:`BOTS` names them by level: ``random``
(any legal decision), ``calling-station`` (checks or calls, always),
``easy`` (the strength of its own cards, with simple thresholds) and
``normal`` (ranges by position, push or fold when short, pot odds and the
board's texture) and ``hard`` (it models the other players from what it
has seen of them, narrows their ranges by those figures and their actions,
and decides by expected value, within a time budget).  Writing one:
``docs/bots.md``.

>>> from holdem.table import Tournament
>>> players = {name: make_bot("easy", seed=i) for i, name in enumerate("ABCD")}
>>> result = Tournament(list(players), stack=500, rng=7).run(players)
>>> result.winner in players
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Bot, CallingStation, RandomBot
from .easy import EasyBot
from .hard import HardBot
from .normal import NormalBot

__all__ = [
    "BOTS",
    "Bot",
    "CallingStation",
    "EasyBot",
    "HardBot",
    "NormalBot",
    "RandomBot",
    "make_bot",
]

#: The bots by level name.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "calling-station": CallingStation,
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
}


def make_bot(level: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot of ``level`` (a name of :data:`BOTS`), seeded with ``seed``;
    ``options`` go to its class (``budget=`` for ``hard``)."""
    try:
        make = BOTS[level]
    except KeyError:
        raise ValueError(f"no bot level {level!r}: one of {', '.join(BOTS)}") from None
    return make(seed, **options)
