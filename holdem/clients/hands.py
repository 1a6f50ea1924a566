"""A player's hands at a room table as one hand-history text (``holdem
join``'s ``history``, ``holdem history``): the server's ``hands`` lists
them, its ``history`` writes them, a request's most at a time, waiting when
the server's rate of hands read says so (``docs/rooms.md``, "Your hands").
The text holds the player's own hole cards and the cards that were shown,
never another's that were not."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holdem.errors import ProtocolError

from .connection import RoomClient

__all__ = ["FORMS", "YourHands", "read_hands", "write_hands"]

#: The forms a history is written in, and the ending of a file of each.
FORMS = {"phh": ".phhs", "pokerstars": ".txt"}
#: A PHH set's header of a hand (``[3]``): the one line that is only a number
#: in brackets (the hands' fields are written inline).
_HEADER = re.compile(r"^\[\d+\]$", re.M)


@dataclass(frozen=True)
class YourHands:
    """The hands a seat's player played at a table, as one text."""

    table: str
    seat: int | None  # (None: a watcher's, the cards shown alone)
    form: str  # phh, pokerstars
    hands: tuple[dict[str, Any], ...]  # each ``hand``, ``finished``, ``net``, oldest first
    text: str

    @property
    def numbers(self) -> list[int]:
        return [int(h["hand"]) for h in self.hands]


def read_hands(client: RoomClient, form: str, *, table: str | None = None,
               tokens: Sequence[str] = (),
               sleep: Callable[[float], None] | None = None) -> YourHands:  # fmt: skip
    """The hands of the seat the connection holds at ``table``, or of the
    seats of ``tokens`` (a player's seats at one table, one after another:
    each a token the server gave, that seat's hands read), in ``form``.
    A refusal raises :class:`~holdem.errors.ProtocolError` (a token that
    reads nothing: ``token_expired``)."""
    whose: list[dict[str, Any]] = [{"token": t} for t in tokens] if tokens else [{"table": table}]
    limits = client.hello.get("limits") or {}
    most = int(limits.get("history_hands") or 100)
    rate = float(limits.get("hands_per_second") or 50)
    listed: list[dict[str, Any]] = []
    texts: list[str] = []
    ident, seat = table or "", None
    for fields in whose:
        hands: list[dict[str, Any]] = []
        before: dict[str, Any] = {}
        while True:  # (the latest 1,000 a request: older ones before the first)
            got = client.request("hands", **fields, **before)
            ident, seat = got["table"], got["seat"]
            hands[:0] = got["hands"]
            if not got.get("more") or not got["hands"]:
                break
            before = {"before": got["hands"][0]["hand"]}
        numbers = [int(h["hand"]) for h in hands]
        for start in range(0, len(numbers), most):
            batch = numbers[start : start + most]
            while True:
                try:
                    texts.append(client.request("history", **fields, hands=batch,
                                                format=form)["text"])  # fmt: skip
                    break
                except ProtocolError as exc:
                    if exc.code != "rate_limited":
                        raise
                    (sleep or time.sleep)(len(batch) / rate)  # (it refills `rate` a second)
        listed.extend(hands)
    return YourHands(table=ident, seat=seat, form=form, hands=tuple(listed),
                     text=_joined(texts, form))  # fmt: skip


def _joined(texts: list[str], form: str) -> str:
    """Texts of hands as one: PokerStars hands one after another, a blank line
    between; PHH sets as one set, its hands numbered again from 1."""
    texts = [t for t in texts if t.strip()]
    if form == "pokerstars":
        return "\n\n".join(t.rstrip("\n") for t in texts) + "\n" if texts else ""
    count = iter(range(1, 1 << 62))
    return _HEADER.sub(lambda _: f"[{next(count)}]", "".join(texts))


def write_hands(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` whole or not at all: a file beside it put in
    its place at the end (an ``OSError`` leaves the path as it was)."""
    fd, part = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.chmod(part, 0o644 & ~_umask())
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
