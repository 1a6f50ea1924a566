"""The settings of a room's new table (``create_table``), read and checked,
with their defaults (``docs/rooms.md``): the store keeps them, and a table
is made again from them."""

from __future__ import annotations

from typing import Any

from ..config import Structure
from ..errors import ConfigError, ProtocolError, quote
from ..protocol.messages import read_cap, read_seconds, read_showing, read_timer, read_unit
from ..table import Schedule
from ..units import unit_text
from ..wire import Fields

__all__ = [
    "CHAT",
    "MOST_BLIND",
    "MOST_CHIPS",
    "MOST_HANDS",
    "MOST_PAUSE",
    "MOST_SECONDS",
    "MOST_TIMER",
    "bot_name",
    "check_buy_in",
    "free_name",
    "player_name",
    "table_settings",
]

#: The most chips of a stack, a buy-in or chips added at a room's table (a
#: trillion: ten seats of it, won and bought again, stay far below
#: :data:`holdem.config.MAX_CHIPS`), and of a cash table's blind (a
#: hundredth of it: the default buy-ins, up to 100 big blinds, fit).
MOST_CHIPS = 10**12
MOST_BLIND = MOST_CHIPS // 100
#: The longest cash session a table may be made for: in hands, in seconds (30 days).
MOST_HANDS = 10**6
MOST_SECONDS = 30 * 86_400
#: The longest pause of a table's bots a move (``pace``) and between hands (``pause``).
MOST_PAUSE = 60
#: The most seconds of a table's timer: a decision's, and a player's time bank.
MOST_TIMER = 3600
#: Who writes in a table's chat (``create_table``'s ``chat``): its players
#: (the default: spectators read), everyone, or nobody.
CHAT = ("players", "everyone", "off")


def player_name(text: str, where: str) -> str:
    """A player's name as typed, checked (1 to 40 printable characters)."""
    name = text.strip()
    if not name or len(name) > 40 or not name.isprintable():
        raise ProtocolError("invalid_field", f"request.{where}: 1 to 40 printable characters, "
                            f"not {quote(text)}", field=where)  # fmt: skip
    return name


def bot_name(level: str, taken: set[str]) -> str:
    """A name for a new bot of ``level`` that no one at the table has."""
    return free_name({"calling-station": "Station"}.get(level, level.capitalize()), taken)


def free_name(base: str, taken: set[str]) -> str:
    """``base`` and the lowest number that makes a name no one has (``Easy 2``)."""
    number = 1
    while f"{base} {number}" in taken:
        number += 1
    return f"{base} {number}"


def check_buy_in(settings: dict[str, Any], buy_in: int | None) -> None:
    """Refuses a buy-in outside a cash table's limits (or at a tournament)."""
    if buy_in is None:
        return
    if settings["game"] != "cash":
        raise ProtocolError("invalid_field", "request.buy_in: only at a cash table",
                            field="buy_in")  # fmt: skip
    low, high = settings["min_buy_in"], settings["max_buy_in"]
    if not low <= buy_in <= high:
        raise ProtocolError("invalid_field", f"request.buy_in: from {low} to {high}, "
                            f"not {buy_in}", field="buy_in")  # fmt: skip


def table_settings(f: Fields) -> dict[str, Any]:
    """A new table's settings, checked and with their defaults (the store
    keeps them, and a table is made again from them)."""
    game = f.text("game", default="tournament")
    if game not in ("tournament", "cash"):
        raise ProtocolError("invalid_field", f"request.game: 'tournament' or 'cash', "
                            f"not {quote(game)}", field="game")  # fmt: skip
    settings: dict[str, Any] = {
        "game": game,
        "public": f.boolean("public", default=False),
        "seats": f.integer("seats", default=6, minimum=2),
        "structure": f.token("structure", Structure, default=Structure.NO_LIMIT).value,
        "pace": read_seconds(f, "pace", default=1.0, most=MOST_PAUSE),
        "pause": read_seconds(f, "pause", default=3.0, most=MOST_PAUSE),
        "timer": read_timer(
            f.raw("timer", "a timer", default={}), seconds=30.0, time_bank=30.0, most=MOST_TIMER
        ),
    }
    chat = f.text("chat", default="players")
    if chat not in CHAT:
        raise ProtocolError("invalid_field", f"request.chat: one of {', '.join(CHAT)}, not "
                            f"{quote(chat)}", field="chat")  # fmt: skip
    settings["chat"] = chat
    # (a fixed-limit table's cap: R8)
    settings.update(read_cap(f, Structure(settings["structure"]), tournament=game == "tournament"))
    # (shows after the hand, the river aggressor's muck and run it twice: R10; the chip
    # unit, R9, as its text: every amount stays chips)
    settings.update(read_showing(f))
    try:
        settings["unit"] = unit_text(read_unit(f))
    except ConfigError as exc:
        raise ProtocolError("bad_config", str(exc), field="unit") from None
    if settings["seats"] > 10:
        raise ProtocolError("invalid_field", "request.seats: 2 to 10", field="seats")
    if game == "tournament" and settings["timer"]["policy"] == "protect":
        raise ProtocolError("bad_config", "disconnect protection is a cash table's (R13): a "
                            "tournament's timer checks or folds", field="timer.policy")  # fmt: skip
    if game == "tournament":
        settings["stack"] = f.integer("stack", default=1500, minimum=1, maximum=MOST_CHIPS)
        raw = f.raw("schedule", "a schedule", default=None)
        try:
            schedule = (
                Schedule.default()
                if raw is None
                else Schedule.parse(raw)
                if isinstance(raw, str)
                else Schedule.from_dict(raw)
            )
        except ConfigError as exc:
            raise ProtocolError("bad_config", str(exc), field="schedule") from None
        if schedule.by_minutes:
            raise ProtocolError("bad_config", "a room's schedule goes by hands (a server that "
                                "restarts cannot keep the minutes)", field="schedule")  # fmt: skip
        settings["schedule"] = schedule.to_dict()
    else:
        for name, default in (("small_blind", 1), ("big_blind", 2)):
            settings[name] = f.integer(name, default=default, minimum=1, maximum=MOST_BLIND)
        for name in ("min_buy_in", "max_buy_in"):
            settings[name] = f.integer(name, default=None, optional=True, minimum=1,
                                       maximum=MOST_CHIPS)  # fmt: skip
        # (the session's limits: over after so many hands, or seconds from its first hand)
        settings["max_hands"] = f.integer("max_hands", default=None, optional=True, minimum=1,
                                          maximum=MOST_HANDS)  # fmt: skip
        settings["max_seconds"] = (
            None
            if f.raw("max_seconds", "seconds", default=None) is None
            else read_seconds(f, "max_seconds", most=MOST_SECONDS)
        )
        if settings["max_seconds"] == 0:
            raise ProtocolError("invalid_field", "request.max_seconds: more than 0",
                                field="max_seconds")  # fmt: skip
        if settings["small_blind"] > settings["big_blind"]:
            raise ProtocolError("bad_config", "the small blind is at most the big blind",
                                field="small_blind")  # fmt: skip
        low, high = settings["min_buy_in"], settings["max_buy_in"]
        if low is not None and high is not None and low > high:
            raise ProtocolError("bad_config", "min_buy_in is at most max_buy_in",
                                field="min_buy_in")  # fmt: skip
    return settings
