"""The seats a player holds at room servers, remembered between runs of a
client: a seat's token by server, table code and player's name, in a file
that is the user's alone (``~/.config/holdem/seats.json``)."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from holdem.rooms.codes import normal_code

__all__ = ["keep_seat", "kept_seats", "seat_key", "seats_file"]


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
    """Keeps (or forgets, with None) the seat of ``key`` (:func:`seat_key`)."""
    data = kept_seats()
    if entry is None:
        data.pop(key, None)
    else:
        data[key] = entry
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
