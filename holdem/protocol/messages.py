"""The JSON-lines protocol's messages: a line in, a request out; replies,
errors and events out as lines (``docs/protocol.md``).

Every message is one JSON object on one line of UTF-8.  A request names its
``type`` and may carry an ``id`` (an integer or a string), which its reply
echoes.  A reply holds ``result`` (the request was served) or ``error``
(``{"code", "message", "field"}``, a code of :data:`ERROR_CODES`); an event
holds ``event``.

>>> request = read_request(b'{"id": 7, "type": "legal", "table": "t1", "seat": 2}')
>>> request.id, request.type, request.fields.integer("seat")
(7, 'legal', 2)
>>> read_request(b'{"id": 8, "type": "fly"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
holdem.errors.ProtocolError: no request 'fly': one of hello, create_table, sit, leave, ...
>>> encode({"id": 7, "result": {"seat": 2}})
'{"id":7,"result":{"seat":2}}'
"""

from __future__ import annotations

import json
import json.encoder
import json.scanner
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..config import MAX_CHIPS, HeadsUpCap, Structure
from ..errors import ProtocolError, WireError, quote
from ..units import check_unit
from ..wire import Fields

__all__ = [
    "ERROR_CODES",
    "MAX_LINE",
    "MAX_SECONDS",
    "REQUESTS",
    "SOCKET_BUFFER",
    "VERSION",
    "Lines",
    "Request",
    "answer",
    "encode",
    "error_reply",
    "internal_error",
    "parse_line",
    "quick_object",
    "read_request",
    "read_seconds",
    "read_timer",
    "reply",
    "request_id",
    "wire_error",
]

#: The protocol's version; ``hello`` agrees on it.
VERSION = 1
#: The longest line read, in bytes (its end included).
MAX_LINE = 1 << 20
#: How deep a request's objects and lists may nest.
MAX_DEPTH = 32
#: Bytes a server asks the kernel to hold for a client's output (beyond them,
#: its own queue, which it bounds: the engine's and the room server's).
SOCKET_BUFFER = 128 * 1024

#: The requests, in the order ``docs/protocol.md`` describes them.
REQUESTS = (
    "hello",
    "create_table",
    "sit",
    "leave",
    "watch",
    "start",
    "act",
    "state",
    "view",
    "legal",
    "show",
    "run_twice",
    "history",
    "close",
)

#: Every error code, and what it means.  Stable: a code is never renamed.
ERROR_CODES: dict[str, str] = {
    "malformed_json": f"the line is not a JSON object in UTF-8 (or nests deeper than {MAX_DEPTH})",
    "line_too_long": f"the line is longer than {MAX_LINE:,} bytes",
    "unknown_request": "the request's type is not one of the protocol's",
    "missing_field": "a field the request needs is not there",
    "invalid_field": "a field has the wrong type or a value out of bounds",
    "unknown_field": "the request has a field it does not take (a misspelling?)",
    "hello_first": "the first request must be hello",
    "unsupported_version": "hello asked for a version this engine does not speak",
    "unknown_table": "no table has that id (or it was closed)",
    "unknown_seat": "the seat is empty, or not on the table",
    "seat_taken": "the seat is taken",
    "not_your_seat": "this client does not play that seat",
    "not_your_turn": "the seat is not the one to act",
    "illegal_action": "the rules do not allow that action now",
    "no_hand": "no hand is being played",
    "hand_in_progress": "the request must wait for the end of the hand",
    "game_over": "the tournament or the session is over",
    "bad_config": "the table cannot be made as asked",
    "table_error": "the table refuses the request (the message says why)",
    "limit": "a limit of the engine is reached (tables, seats, hands kept)",
    "internal_error": "the engine failed on this request; it goes on serving",
    # a room server's (holdem serve, docs/rooms.md)
    "unknown_code": "no table has that join code",
    "unknown_token": "the seat token is not one this server gave",
    "token_expired": "the seat token no longer gives its seat (replaced, left, over)",
    "token_in_use": "the seat is connected from another address",
    "rate_limited": "too many lines a second, or too many wrong guesses: wait and try again",
    "chat_flood": "too many chat lines in a short time: the message says when to write again",
    "too_many_connections": "the server, or this address, has as many connections as it takes",
    "name_taken": "a player of that name is at the table",
    "table_full": "every seat of the table is taken",
    "game_started": "the tournament has begun: nobody joins it now",
    "not_creator": "only the table's creator may do that",
    "other_worker": "another worker process serves that table: open a new connection for it",
    "store_unavailable": "the server cannot store the games now (a full disk): try again soon",
    "table_stopped": "the server could not store the table's game: it waits for a restart",
    "idle": "the connection said no hello in time, or sent nothing for long and holds no "
    "table: the server closes it",
}


@dataclass(frozen=True, slots=True)
class Request:
    """A request read from a line: its ``id`` (None if it has none), its
    ``type`` and the reader of its other fields."""

    id: int | str | None
    type: str
    fields: Fields


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


# (one decoder for every line: json.loads with options makes one a call)
_DECODE = json.JSONDecoder(parse_constant=_reject_constant).decode
# (the C scanner where there is one: json.loads but its Python wrapper)
_SCAN = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # (typeshed)


def _depth(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests at most ``limit`` objects and lists deep."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return True


def read_request(
    line: bytes | str | dict[str, Any], requests: tuple[str, ...] = REQUESTS
) -> Request:
    """The request of one line (or of the object :func:`parse_line` read from
    it), of a type of ``requests`` (a server's own list: the engine's by
    default); :class:`~holdem.errors.ProtocolError` with the code of what is
    wrong."""
    data = line if isinstance(line, dict) else parse_line(line)
    check_id(data)
    f = Fields(data, "request")
    try:
        f.raw("id", "an integer or a string", default=None)
        kind = f.text("type")
    except WireError as exc:
        raise wire_error(exc) from None
    if kind not in requests:
        raise ProtocolError(
            "unknown_request",
            f"no request {quote(kind)}: one of {', '.join(requests)}",
            field="type",
        )
    return Request(id=request_id(data), type=kind, fields=f)


#: The most seconds a request's timer gives a decision, or a time bank: a day.
MAX_SECONDS = 86_400


def read_seconds(f: Fields, name: str, *, default: Any = None, most: float = MAX_SECONDS) -> float:
    """A field of seconds from 0 to ``most`` (``default`` when it is not there;
    None: it must be)."""
    value = f.raw(name, "seconds") if default is None else f.raw(name, "seconds", default=default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= most:
        raise ProtocolError(
            "invalid_field",
            f"{f.where}.{name}: a number of seconds from 0 to {most:,}, not {quote(value)}",
            field=f"{f.where}.{name}".removeprefix("request."),
        )
    return float(value)


def read_timer(
    data: Any, *, seconds: float | None, time_bank: float, most: float = MAX_SECONDS
) -> dict[str, Any]:
    """A request's ``timer`` (``seconds`` a decision, more than 0; the
    ``time_bank``; the ``policy``, ``check_fold`` or ``protect``), checked,
    with the defaults given (``seconds`` None: it must be there)."""
    t = Fields(data, "request.timer")
    out = {
        "seconds": read_seconds(t, "seconds", default=seconds, most=most),
        "time_bank": read_seconds(t, "time_bank", default=time_bank, most=most),
        "policy": t.text("policy", default="check_fold"),
    }
    t.done()
    if not out["seconds"] > 0:
        raise ProtocolError("invalid_field", "request.timer.seconds: more than 0",
                            field="timer.seconds")  # fmt: skip
    if out["policy"] not in ("check_fold", "protect"):
        raise ProtocolError("invalid_field", "request.timer.policy: 'check_fold' or 'protect', "
                            f"not {quote(out['policy'])}", field="timer.policy")  # fmt: skip
    return out


def read_cap(f: Fields, structure: Structure, *, tournament: bool) -> dict[str, Any]:
    """A new table's fixed-limit cap (R8): ``raise_cap``, the raises after the
    bet (3), and ``heads_up_cap``, when two players lift it (``never`` at a
    tournament, ``two_left`` at a cash table), as wire values; none at a
    table of another structure, which refuses them (``bad_config``)."""
    if structure is not Structure.FIXED_LIMIT:
        for name in ("raise_cap", "heads_up_cap"):
            if f.raw(name, "", default=None) is not None:
                raise ProtocolError("bad_config", f"{f.where}.{name}: only a fixed-limit table "
                                    f"(structure fixed_limit) has a cap, not a "
                                    f"{structure.value} one", field=name)  # fmt: skip
        return {}
    policy = HeadsUpCap.NEVER if tournament else HeadsUpCap.TWO_LEFT
    return {
        "raise_cap": f.integer("raise_cap", default=3, maximum=MAX_CHIPS - 1),
        "heads_up_cap": f.token("heads_up_cap", HeadsUpCap, default=policy).value,
    }


def read_showing(f: Fields) -> dict[str, Any]:
    """A new table's options of R10: ``show_after_hand`` (players may show
    their cards after the hand; default true), ``aggressor_may_muck`` (the
    river's last aggressor, called, may muck; default false) and
    ``run_it_twice`` (the board run twice where every player left, all in,
    agrees; default false)."""
    return {
        "show_after_hand": f.boolean("show_after_hand", default=True),
        "aggressor_may_muck": f.boolean("aggressor_may_muck", default=False),
        "run_it_twice": f.boolean("run_it_twice", default=False),
    }


def read_unit(f: Fields) -> Decimal:
    """A new table's chip unit (R9): what a chip is worth, as text (``"0.5"``);
    1 when left out (:class:`~holdem.errors.ConfigError` for text that is no
    unit).  Every amount of the protocol stays a whole number of chips."""
    text = f.raw("unit", 'a chip unit, e.g. "0.5"', default="1")
    if not isinstance(text, str):
        raise f.error("unit", text, 'expected a chip unit as text, e.g. "0.5"')
    return check_unit(text, "unit")


def answer(
    line: bytes | str,
    serve: Callable[[Request], dict[str, Any]],
    requests: tuple[str, ...] = REQUESTS,
) -> dict[str, Any]:
    """The reply to one line: ``serve(request)``'s result, or the error that
    stopped it.  A bug in ``serve`` is answered ``internal_error``: the
    server goes on."""
    ident: int | str | None = None
    try:
        data = parse_line(line)
        ident = request_id(data)
        return reply(ident, serve(read_request(data, requests)))
    except ProtocolError as exc:
        return error_reply(ident, exc)
    except WireError as exc:
        return error_reply(ident, wire_error(exc))
    except Exception as exc:  # a bug: said, and the server goes on
        return error_reply(ident, internal_error(exc))


def quick_object(line: bytes | str) -> Any:
    """The value of a line that is one JSON object (UTF-8) and nothing more,
    read by the C scanner alone (no checks of depth or length: a caller that
    then reads every field it takes); None for anything else, which
    :func:`parse_line` reads and says what is wrong with."""
    try:
        text = line.decode() if isinstance(line, bytes) else line
        if not text.startswith("{"):
            return None
        value, end = _SCAN(text, 0)
    except (StopIteration, ValueError, RecursionError):
        return None
    if end != len(text) and text[end:].strip():
        return None
    return value


def internal_error(exc: Exception) -> ProtocolError:
    """The error a bug in serving a request is answered with (the server goes on)."""
    return ProtocolError("internal_error", f"{type(exc).__name__}: {exc}")


def parse_line(line: bytes | str) -> dict[str, Any]:
    """The JSON object of one line; :class:`~holdem.errors.ProtocolError`
    (``malformed_json``, ``line_too_long``) when it is not one."""
    if len(line) > MAX_LINE:
        raise ProtocolError("line_too_long", f"a line of {len(line):,} bytes: at most {MAX_LINE:,}")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError(
                "malformed_json", f"the line is not UTF-8 (byte {exc.start + 1})"
            ) from None
    try:
        data = _DECODE(line)
    except RecursionError:
        raise ProtocolError("malformed_json", "the line nests too deep") from None
    except ValueError as exc:  # (JSONDecodeError, and ints of too many digits)
        raise ProtocolError("malformed_json", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed_json", "a request is a JSON object ({...})")
    if (line.count("[") + line.count("{") > MAX_DEPTH) and not _depth(data):
        raise ProtocolError("malformed_json", f"the request nests deeper than {MAX_DEPTH}")
    return data


def request_id(data: dict[str, Any]) -> int | str | None:
    """The ``id`` of a request object, or None when it has none or a bad one
    (a reply must echo it: it is read before anything can fail)."""
    ident = data.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        return None
    if isinstance(ident, int) and not -(2**63) <= ident < 2**63:
        return None
    if isinstance(ident, str) and len(ident) > 200:
        return None
    return ident


def check_id(data: dict[str, Any]) -> None:
    """Refuses an ``id`` that is there but not an integer or a short string."""
    if "id" in data and data["id"] is not None and request_id(data) is None:
        raise ProtocolError(
            "invalid_field",
            "request.id: an integer (64 bits) or a string of at most 200 characters, "
            f"not {json.dumps(data['id'])[:100]}",
            field="id",
        )


def wire_error(exc: WireError) -> ProtocolError:
    """:class:`~holdem.errors.WireError` (a field of a request) as the
    protocol's error: missing, unknown or invalid."""
    path = exc.field or ""
    field = path.removeprefix("request.")
    message = str(exc)
    if message.startswith(f"{path}: missing"):
        code = "missing_field"
    elif message.endswith("unknown field"):
        code = "unknown_field"
    else:
        code = "invalid_field"
    return ProtocolError(code, message, field=field or None)


def encode(message: dict[str, Any]) -> str:
    """One message as its line (without the line end): compact JSON, ASCII
    (a name's accents escaped), so any reader takes it."""
    if _C_ENCODE is not None:
        return "".join(_C_ENCODE(message, 0))
    return _ENCODE(message)


def _not_json(value: object) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON")


# One encoder for every message (json.dumps with options makes one a call);
# CPython's C encoder made once, where there is one.
_ENCODE = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
_C_MAKE = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODE = (
    None
    if _C_MAKE is None
    else _C_MAKE(
        None, _not_json, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, False
    )
)


def reply(ident: int | str | None, result: dict[str, Any]) -> dict[str, Any]:
    """The reply to a request served."""
    return {"id": ident, "result": result}


def error_reply(ident: int | str | None, error: ProtocolError) -> dict[str, Any]:
    """The reply to a request refused."""
    return {
        "id": ident,
        "error": {"code": error.code, "message": str(error), "field": error.field},
    }


class Lines:
    """Splits a byte stream into lines of at most :data:`MAX_LINE` bytes.

    :meth:`feed` takes what was read and returns the whole lines in it; a
    line too long comes out as None (in its place, once), and the rest of it
    is skipped up to its end, so one bad line costs no memory and does not
    end the stream.

    >>> lines = Lines()
    >>> lines.feed(b'{"a": 1}\\n{"b"'), lines.feed(b': 2}\\n')
    ([b'{"a": 1}'], [b'{"b": 2}'])
    """

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._part = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | None]:
        out: list[bytes | None] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            if self._skipping:
                self._skipping = False
            elif len(self._part) + end - start > self.limit:
                out.append(None)
            else:
                self._part += data[start:end]
                out.append(bytes(self._part).rstrip(b"\r"))
            self._part.clear()
            start = end + 1
        if not self._skipping:
            self._part += data[start:]
            if len(self._part) > self.limit:
                self._part.clear()
                self._skipping = True
                out.append(None)
        return out

    def end(self) -> list[bytes | None]:
        """The last line, when the stream ends without a line end."""
        part, skipping = self.take_rest()
        return [] if skipping or not part.strip() else [part]

    def take_rest(self) -> tuple[bytes, bool]:
        """The line begun, and whether the rest of a line too long is being
        skipped; this reader then holds nothing (a room server's connection
        handed on to another worker takes them along).

        >>> lines = Lines()
        >>> lines.feed(b'{"a": 1}\\n{"b"'), lines.take_rest()
        ([b'{"a": 1}'], (b'{"b"', False))
        """
        rest = (bytes(self._part), self._skipping)
        self._part.clear()
        self._skipping = False
        return rest

    def restore(self, part: bytes, skipping: bool) -> None:
        """Goes on from another reader's :meth:`take_rest`."""
        self._part[:] = part
        self._skipping = skipping
