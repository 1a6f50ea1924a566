"""The JSON Schema of the protocol's messages, built on the wire forms' schema
(``holdem/schemas/wire.schema.json``): requests, replies, events, and the
lines a program playing a seat reads and writes.

:func:`build` makes it; ``holdem/schemas/protocol.schema.json`` is what it
makes, checked in for programs in other languages (a test holds the two
equal: ``python -m holdem.protocol.schema`` writes the file again).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from ..wire import schema as wire_schema
from .messages import ERROR_CODES, MAX_DEPTH, REQUESTS

__all__ = ["build", "schema"]

_ID = {"description": "echoed in the reply", "oneOf": [
    {"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1},
    {"type": "string", "maxLength": 200},
]}  # fmt: skip
_TABLE = {"type": "string", "description": "a table's id (`t1`, `t2` ...)"}
_SEAT = {"$ref": "#/$defs/seat"}
_NAME = {"type": "string"}
_CHIPS = {"type": "integer", "minimum": 1}
_LEVEL = {"type": "string", "description": "a bot level: random, calling-station, easy, ..."}
_SECONDS = {"type": "number", "minimum": 0, "maximum": 86_400}


def _object(description: str, required: dict[str, Any], optional: dict[str, Any] | None = None,
            ) -> dict[str, Any]:  # fmt: skip
    return {
        "type": "object",
        "description": description,
        "properties": {**required, **(optional or {})},
        "required": list(required),
        "additionalProperties": False,
    }


def _request(kind: str, description: str, required: dict[str, Any],
             optional: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    return _object(
        description, {"type": {"const": kind}, **required}, {"id": _ID, **(optional or {})}
    )


def _requests() -> dict[str, dict[str, Any]]:
    table = {"table": _TABLE}
    seat = {"table": _TABLE, "seat": _SEAT}
    cash_player = _object("a player of a cash table", {"seat": _SEAT, "name": _NAME},
                          {"chips": _CHIPS, "bot": _LEVEL})  # fmt: skip
    tournament_player = _object("a player of a tournament, in seat order", {"name": _NAME},
                                {"bot": _LEVEL})  # fmt: skip
    timer = _object("the turn timer of the clients' seats", {"seconds": {"type": "number",
                    "exclusiveMinimum": 0, "maximum": 86_400}}, {"time_bank": _SECONDS,
                    "policy": {"enum": ["check_fold", "protect"]}})  # fmt: skip
    blinds = {"type": "integer", "minimum": 0}
    return {
        "hello": _request(
            "hello", "the first request", {"version": {"type": "integer"}}, {"client": _NAME}
        ),
        "create_table": _request(
            "create_table",
            "makes a table (cash: blinds and buy-ins; tournament: stack and schedule)",
            {},
            {
                "game": {"enum": ["cash", "tournament"]},
                "seed": {"type": ["integer", "null"], "minimum": 0},
                "structure": {"$ref": "#/$defs/structure"},
                "full_information": {"type": "boolean"},
                "timer": timer,
                "players": {
                    "type": "array",
                    "maxItems": 10,
                    "items": {"oneOf": [cash_player, tournament_player]},
                },
                "seats": {"type": ["integer", "null"], "minimum": 2, "maximum": 10},
                "small_blind": blinds,
                "big_blind": {"type": "integer", "minimum": 1},
                "min_buy_in": {"type": ["integer", "null"], "minimum": 1},
                "max_buy_in": {"type": ["integer", "null"], "minimum": 1},
                "max_hands": {"type": ["integer", "null"], "minimum": 1},
                "stack": _CHIPS,
                "schedule": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/Schedule"}]},
                "raise_cap": {"type": "integer", "minimum": 0},
                "heads_up_cap": {"$ref": "#/$defs/heads_up_cap"},
                "show_after_hand": {"type": "boolean"},
                "aggressor_may_muck": {"type": "boolean"},
                "run_it_twice": {"type": "boolean"},
                "unit": {
                    "type": "string",
                    "pattern": "^[0-9]+(\\.[0-9]{1,6})?$",
                    "description": "the chip unit (R9): what one chip is worth; every "
                    "amount stays whole chips (default 1)",
                },
            },
        ),
        "sit": _request(
            "sit",
            "a player sits down at a cash table",
            {**seat, "name": _NAME, "chips": _CHIPS},
            {"bot": _LEVEL},
        ),
        "leave": _request("leave", "a player leaves a cash table", seat),
        "watch": _request("watch", "the client is told the table's public events", table),
        "start": _request(
            "start", "plays hands", table, {"hands": {"type": "integer", "minimum": 1}}
        ),
        "act": _request(
            "act",
            "the decision of a client's seat",
            {**seat, "action": {"$ref": "#/$defs/Decision"}},
        ),
        "state": _request("state", "the table's public state", table),
        "view": _request("view", "a seat's view", seat),
        "legal": _request("legal", "a seat's legal actions", seat),
        "show": _request(
            "show", "a seat's player shows their cards of the last finished hand (R10)", seat
        ),
        "run_twice": _request(
            "run_twice",
            "whether a seat's player agrees to run it twice from the next hand (R10)",
            seat,
            {"agree": {"type": "boolean"}},
        ),
        "history": _request(
            "history",
            "a finished hand's history",
            {**table, "hand": {"type": "integer", "minimum": 1}},
            {"format": {"enum": ["phh", "pokerstars"]}},
        ),
        "close": _request("close", "closes the table", table),
    }


def _events(wire: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The table's events as the protocol sends them (with the table's id),
    and the protocol's own."""
    extra = {"table": _TABLE, "full_information": {"const": True}}
    events: dict[str, dict[str, Any]] = {}
    for name, shape in wire.items():
        if name.startswith("Event_"):
            told = copy.deepcopy(shape)
            told["properties"].update(extra)
            told["required"] = [*told["required"], "table"]
            events[name] = told
    hand = {"hand": {"type": "integer"}, "seat": _SEAT}
    own = {
        "hole_cards": ({**hand, "cards": {"$ref": "#/$defs/cards"}},
                       "a seat's cards, to the client playing it"),
        "turn": ({**hand, "view": {"$ref": "#/$defs/PlayerView"}},
                 "a client's seat must act: its view, with the menu"),
        "run_stopped": ({"hands_left": {"type": "integer"}, "reason": {"type": "string"}},
                        "a start ended early"),
        "table_finished": ({}, "the tournament or the session is over"),
        "table_closed": ({}, "the table was closed"),
    }  # fmt: skip
    for kind, (fields, description) in own.items():
        optional = dict(extra)
        if kind == "turn":
            optional["seconds"] = _SECONDS
            optional["bank"] = {**_SECONDS, "description": "the time bank's part of seconds"}
        if kind == "table_finished":
            optional["result"] = {"oneOf": [{"$ref": "#/$defs/TournamentResult"}, {"type": "null"}]}
            optional["results"] = {"type": "object", "additionalProperties": _object(
                "a cash player's session", {"bought_in": {"type": "integer"},
                "cashed_out": {"type": "integer"}, "net": {"type": "integer"},
                "hands": {"type": "integer"}})}  # fmt: skip
        events[f"Event_{kind}"] = _object(description, {"event": {"const": kind}, **fields,
                                                        "table": _TABLE}, optional)  # fmt: skip
    return events


def _program_lines() -> dict[str, dict[str, Any]]:
    return {
        "ProgramHello": _object(
            "the first line a program playing a seat reads",
            {
                "event": {"const": "hello"},
                "protocol": {"const": "holdem"},
                "version": {"type": "integer"},
                "name": {"type": ["string", "null"]},
                "seconds": _SECONDS,
            },
        ),
        "ProgramTurn": _object(
            "its seat must act: the view (its log a delta within a hand) and the menu",
            {
                "event": {"const": "turn"},
                "id": {"type": "integer"},
                "seat": {"type": ["integer", "null"]},
                "seconds": _SECONDS,
                "view": {"$ref": "#/$defs/PlayerView"},
            },
        ),
        "ProgramAnswer": {
            "type": "object",
            "description": "a program's answer to a turn (other fields are ignored)",
            "properties": {
                "id": {"type": ["integer", "null"]},
                "action": {"$ref": "#/$defs/Decision"},
            },
            "required": ["action"],
        },
    }


def build() -> dict[str, Any]:
    """The protocol's schema: ``$defs`` ``Request``, ``Reply``, ``Event`` (and
    one entry per request and event), the program lines, and every shape of
    the wire forms."""
    wire = wire_schema()["$defs"]
    requests = _requests()
    events = _events(wire)
    error = _object(
        "a request refused",
        {
            "code": {"enum": list(ERROR_CODES)},
            "message": {"type": "string"},
            "field": {"type": ["string", "null"]},
        },
    )
    defs = {k: v for k, v in wire.items() if not k.startswith("Event")}
    defs.update({f"Request_{k}": v for k, v in requests.items()})
    defs["Request"] = {"description": f"a request: `type` is one of {', '.join(REQUESTS)}",
                       "oneOf": [{"$ref": f"#/$defs/Request_{k}"} for k in requests]}  # fmt: skip
    defs["Reply"] = {"description": "the reply to a request", "oneOf": [
        _object("a request served", {"id": {"oneOf": [_ID, {"type": "null"}]},
                "result": {"type": "object"}}),
        _object("a request refused", {"id": {"oneOf": [_ID, {"type": "null"}]}, "error": error}),
    ]}  # fmt: skip
    defs.update(events)
    defs["Event"] = {"description": "an event: `event` names it, `table` the table",
                     "oneOf": [{"$ref": f"#/$defs/{k}"} for k in events]}  # fmt: skip
    defs["Message"] = {"description": "any line the engine writes",
                       "oneOf": [{"$ref": "#/$defs/Reply"}, {"$ref": "#/$defs/Event"}]}  # fmt: skip
    defs.update(_program_lines())
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://holdem.invalid/schemas/protocol.schema.json",
        "title": "holdem JSON-lines protocol",
        "description": "Generated by holdem.protocol.schema (do not edit): the messages of "
        f"docs/protocol.md, one JSON object a line, nesting at most {MAX_DEPTH} deep.",
        "$defs": defs,
    }


def schema() -> dict[str, Any]:
    """The checked-in schema (``holdem/schemas/protocol.schema.json``)."""
    from importlib.resources import files

    text = files("holdem").joinpath("schemas", "protocol.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _write() -> None:  # pragma: no cover - run by hand after a change
    path = Path(__file__).parent.parent / "schemas" / "protocol.schema.json"
    path.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    _write()
