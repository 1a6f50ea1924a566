"""The seats a player holds at room servers, remembered between runs of a
client: a seat's token by server, table code and player's name, in a file
that is the user's alone (``~/.config/holdem/seats.json``).  A seat that
ended (its player left, the table finished) keeps its token, marked
``ended``: it no longer takes the player back, and still reads the seat's
hands (``holdem history``); a new seat at the same table keeps the tokens
of the ended ones before it in ``earlier``."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from holdem.rooms.codes import normal_code

__all__ = ["end_seat", "keep_seat", "kept_seats", "reading_tokens", "seat_key", "seats_file"]


def seats_file() -> Path:
    """Where the tokens of the seats this user holds are kept."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "holdem" / "seats.json"


def kept_seats() -> dict[str, Any]:
    """The seats kept, by :func:`seat_key` (none when the file cannot be read)."""
    try:
        data = json.loads(seats_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def seat_key(address: str, code: str, name: str) -> str:
    """What a seat is remembered by: the server, the table's code and the
    player's name (two players on one login each keep their own)."""
    return f"{address}/{normal_code(code) or code}/{name}"


def keep_seat(key: str, entry: dict[str, Any] | None) -> None:
    """Keeps (or forgets, with None) the seat of ``key`` (:func:`seat_key`):
    a new seat's entry keeps the tokens that read the player's earlier seats
    at the table (:func:`reading_tokens`; not one a ``resume`` replaced)."""
    data = kept_seats()
    old = data.get(key)
    if entry is None:
        data.pop(key, None)
    elif isinstance(old, dict) and old.get("token") != entry.get("token"):
        earlier = reading_tokens(old) if old.get("ended") else reading_tokens(old)[:-1]
        data[key] = {**entry, "earlier": earlier} if earlier else entry
    else:
        data[key] = entry
    _write(data)


def end_seat(key: str) -> None:
    """Marks the seat of ``key`` ended: it takes the player back no more, and
    its token is kept to read the seat's hands."""
    data = kept_seats()
    entry = data.get(key)
    if isinstance(entry, dict):
        data[key] = {**entry, "ended": True}
        _write(data)


def reading_tokens(entry: object) -> list[str]:
    """The tokens of a kept entry that read the player's hands at its table,
    the earliest seat's first (the seat's own last)."""
    if not isinstance(entry, dict):
        return []
    earlier = entry.get("earlier")
    tokens = [t for t in earlier if isinstance(t, str)] if isinstance(earlier, list) else []
    return tokens + ([entry["token"]] if isinstance(entry.get("token"), str) else [])


def _write(data: dict[str, Any]) -> None:
    """The seats kept, written whole (or the file left as it was)."""
    path = seats_file()
    part = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # (a token is a seat: the user's alone from the start; the file whole
        # or as it was, never half written)
        with contextlib.suppress(FileNotFoundError):
            part.unlink()
        with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w",
                  encoding="utf-8") as out:  # fmt: skip
            out.write(json.dumps(data, indent=1))
        part.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink()
