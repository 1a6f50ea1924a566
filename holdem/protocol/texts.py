"""The JSON text of a view, of a log's records and of a protocol message,
made at every decision: what a program's ``turn`` line carries
(:mod:`~holdem.protocol.programs`), and a server's ``turn`` and ``action``
events.

:func:`view_text` gives the same text as ``encode(view.to_dict(since))``,
and a record's the same as ``encode(record.to_dict())``, written in C
(``csrc/hd_json.c``) from the objects the engine built, a tenth of what
the dicts and the encoder cost (a test holds them to that over random
hands).  A view of a hand that is over, whose outcome only Python writes,
goes the slow way.  A hand's configuration is written once and kept
(:func:`config_text`, at most :data:`MOST_KEPT`).

>>> from holdem import Hand, HandConfig
>>> import json
>>> hand = Hand(HandConfig((100, 100), 0, 1, 2), rng=1)
>>> view = hand.view(hand.actor)
>>> view_text(view) == encode(view.to_dict())
True
"""

from __future__ import annotations

import json.encoder
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from .. import _engine
from ..actions import STATUS_NAMES, Action, ActionKind, Phase, Street
from ..cards import format_card
from ..config import HandConfig
from ..hand import Hand  # (the engine bound to its records first)
from ..pots import Outcome
from ..table.events import Event
from ..views import _VIEW_FIELDS, PlayerView
from .messages import encode

__all__ = [
    "MOST_KEPT",
    "action_line",
    "config_text",
    "event_line",
    "hole_cards_line",
    "message_text",
    "outcome_text",
    "plain",
    "records_text",
    "turn_line",
    "view_text",
]

#: The most configurations :func:`config_text` keeps before it forgets them.
MOST_KEPT = 4096

_engine.bind_json(
    PlayerView,
    _VIEW_FIELDS,
    tuple(format_card(c) for c in range(52)),
    STATUS_NAMES,
    tuple(kind.value for kind in ActionKind),
    tuple(phase.value for phase in Phase),
    tuple(street.label for street in Street),
)
_view_json = _engine.view_json
_record = _engine.record_json
_CONFIGS: dict[int, tuple[HandConfig, str]] = {}  # by id: the configuration kept beside its text
_ = Hand


def config_text(config: HandConfig) -> str:
    """The JSON of a configuration (kept by identity: a hand's decisions, and
    the tables of a server, each have theirs)."""
    kept = _CONFIGS.get(id(config))
    if kept is None or kept[0] is not config:
        if len(_CONFIGS) >= MOST_KEPT:
            _CONFIGS.clear()
        kept = _CONFIGS[id(config)] = (config, encode(config.to_dict()))
    return kept[1]


def records_text(log: tuple[Action, ...]) -> str:
    """The JSON list of a log's records."""
    return f"[{','.join(map(_record, log))}]"


def view_text(view: PlayerView, since: int = 0) -> str:
    """``encode(view.to_dict(since))``, written in C but for a hand that is over."""
    text = _view_json(view, since, "" if since else config_text(view.config))
    return encode(view.to_dict(since)) if text is None else text


def action_line(hand: int, record: Action, table: str) -> str:
    """The line of an ``action`` event (``table``: the table's id, quoted):
    ``message_text`` of ``{"event": "action", "hand": .., "action": .., "table": ..}``."""
    return f'{{"event":"action","hand":{hand},"action":{_record(record)},"table":{table}}}'


def hole_cards_line(hand: int, seat: int, cards: tuple[int, ...], table: str) -> str:
    """The line of a ``hole_cards`` event (``table``: the table's id, quoted):
    ``encode`` of ``{"event": "hole_cards", "hand": .., "seat": .., "cards":
    [names], "table": ..}``."""
    return (
        f'{{"event":"hole_cards","hand":{hand},"seat":{seat},"cards":{_card_list(cards)},'
        f'"table":{table}}}'
    )


def turn_line(
    hand: int,
    seat: int,
    view: PlayerView,
    table: str,
    seconds: float | None,
    since: int = 0,
    bank: float | None = None,
) -> str:
    """The line of a ``turn`` event (``table``: the table's id, quoted), as
    ``message_text`` writes its message; ``since``: its view a delta from
    that record on (:meth:`PlayerView.to_dict`); ``bank``: the seconds of
    the time bank in ``seconds``."""
    timed = "" if seconds is None else f',"seconds":{float(seconds)!r}'
    if seconds is not None and bank is not None:
        timed += f',"bank":{float(bank)!r}'
    return (
        f'{{"event":"turn","hand":{hand},"seat":{seat},"view":{view_text(view, since)},'
        f'"table":{table}{timed}}}'
    )


#: A pot's or a shown hand's field of the second run of a board run twice (R10).
_RUN = ',"run":1'


def outcome_text(outcome: Outcome) -> str:
    """``encode(outcome.to_dict())``, written field by field."""
    pots = ",".join([
        f'{{"amount":{p.amount},"eligible":{_ints(p.eligible)},"winners":{_ints(p.winners)},'
        f'"shares":{_ints(p.shares)}{_RUN if p.run else ""}}}'
        for p in outcome.pots
    ])  # fmt: skip
    shown = ",".join([
        f'{{"seat":{h.seat},"cards":{_card_list(h.cards)},"value":{h.value},'
        f'"description":{_quoted(h.description)}{_RUN if h.run else ""}}}'
        for h in outcome.shown
    ])  # fmt: skip
    return (
        f'{{"pots":[{pots}],"shown":[{shown}],"mucked":{_ints(outcome.mucked)},'
        f'"returned":{_ints(outcome.returned)},"net":{_ints(outcome.net)},'
        f'"stacks":{_ints(outcome.stacks)},"showdown":{"true" if outcome.showdown else "false"}}}'
    )


def _ints(values: tuple[int, ...]) -> str:
    return f"[{','.join(map(str, values))}]"


def _card_list(cards: tuple[int, ...]) -> str:
    return f"[{','.join([_CARD_TEXTS[c] for c in cards])}]"


def _texts(values: tuple[str, ...]) -> str:
    return f"[{','.join(map(_quoted, values))}]"


def _optional_int(value: int | None) -> str:
    return "null" if value is None else str(value)


_CARD_TEXTS = tuple(f'"{format_card(c)}"' for c in range(52))


def event_line(event: Event, table: str) -> str:
    """The line of a table's event (``table``: the table's id, quoted): the
    text of ``encode({**event.to_dict(), "table": ..})``, written by a writer
    of the event's type made from its fields (like its ``to_dict``)."""
    write = _EVENT_WRITERS.get(type(event))
    if write is None:
        write = _EVENT_WRITERS[type(event)] = _event_writer(type(event))
    return write(event, table)


def _event_writer(kind: type[Any]) -> Callable[[Any, str], str]:
    """A type's line writer, one f-string from its fields' types."""
    pieces: list[tuple[str, str]] = [(f'{{"event":"{kind.kind}"', "")]  # (text, then a value)
    for f in fields(kind):
        hint = str(f.type)
        value = _FIELD_WRITERS.get(hint)
        assert value is not None, hint  # (a new kind of field: say how it is written)
        pieces.append((f',"{f.name}":', value.format(f"e.{f.name}")))
    pieces.append((',"table":', "table"))
    body = "".join(
        text.replace("{", "{{").replace("}", "}}") + (f"{{{value}}}" if value else "")
        for text, value in pieces
    )
    scope: dict[str, Any] = {
        "_record": _record, "outcome_text": outcome_text, "_ints": _ints, "_texts": _texts,
        "_optional_int": _optional_int, "_quoted": _quoted,
    }  # fmt: skip
    exec(f"def write(e, table):\n    return f'{body}}}}}'\n", scope)
    write: Callable[[Any, str], str] = scope["write"]
    return write


#: How a field of each type is written (``{}``: the field).
_FIELD_WRITERS = {
    "int": "{}",
    "bool": '"true" if {} else "false"',
    "str": "_quoted({})",
    "int | None": "_optional_int({})",
    "tuple[int, ...]": "_ints({})",
    "tuple[str, ...]": "_texts({})",
    "Action": "_record({})",
    "Outcome": "outcome_text({})",
}
_EVENT_WRITERS: dict[type[Any], Callable[[Any, str], str]] = {}


def message_text(message: dict[str, Any]) -> str:
    """A message's line (without its end), its record (an ``action``) and view
    (a ``view``) written by their own writers: the same JSON as
    ``encode(plain(message))``.  (A served table writes the lines of its
    records and turns itself: :func:`action_line`, :func:`turn_line`.)"""
    view = message.get("view")
    record = message.get("action")
    if type(view) is not PlayerView and type(record) is not Action:
        return encode(message)
    parts = [encode({k: v for k, v in message.items() if k != "view" and k != "action"})[1:-1]]
    if type(view) is PlayerView:
        parts.append(f'"view":{view_text(view)}')
    if type(record) is Action:
        parts.append(f'"action":{_record(record)}')
    return "{" + ",".join(part for part in parts if part) + "}"


_quoted = json.encoder.encode_basestring_ascii


def plain(message: dict[str, Any]) -> dict[str, Any]:
    """A message with only JSON values: its record and view in their wire forms."""
    view = message.get("view")
    record = message.get("action")
    if type(view) is not PlayerView and type(record) is not Action:
        return message
    out = dict(message)
    if type(view) is PlayerView:
        out["view"] = view.to_dict()
    if type(record) is Action:
        out["action"] = record.to_dict()
    return out
