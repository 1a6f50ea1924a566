"""The JSON text of a view, written from kept parts: what a program's ``turn``
line carries (:mod:`~holdem.protocol.programs`), made at every decision.

:func:`view_text` gives the same JSON as ``encode(view.to_dict(since))``
(the same keys and values; a test holds it to that over random hands), in
a fraction of the time: the parts that do not change within a hand or
between hands (the configuration, each record, a legal menu, the cards,
the statuses) are written once and kept, and the numbers are joined as
text.  The keeps are bounded: each is emptied when it grows past
:data:`MOST_KEPT` entries.

>>> from holdem import Hand, HandConfig
>>> import json
>>> hand = Hand(HandConfig((100, 100), 0, 1, 2), rng=1)
>>> view = hand.view(hand.actor)
>>> json.loads(view_text(view)) == view.to_dict()
True
"""

from __future__ import annotations

import json.encoder
from typing import Any

from ..actions import Action, LegalActions, Street
from ..cards import format_card
from ..config import HandConfig
from ..views import PlayerView
from .messages import encode

__all__ = ["MOST_KEPT", "config_text", "message_text", "plain", "records_text", "view_text"]

#: The most entries a keep holds before it is emptied.
MOST_KEPT = 4096

_CARDS = tuple(f'"{format_card(c)}"' for c in range(52))
_STREETS = {street: street.label for street in Street}
_BOOL = {True: "true", False: "false"}
_RECORDS: dict[int, tuple[Action, str]] = {}  # by id: the record kept beside its text
_NUMBERS: dict[tuple[int, ...], str] = {}
#: the joined text of a log, by its first record's id: (first, length, last, text)
_LOGS: dict[int, tuple[Action, int, Action, str]] = {}
_MENUS: dict[LegalActions, str] = {}
_STATUSES: dict[tuple[int, ...], str] = {}
_CONFIGS: dict[int, tuple[HandConfig, str]] = {}  # by id, as the records


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
    """The JSON list of a log's records (each written once, as :func:`view_text` does)."""
    return f"[{_log_text(log)}]"


def _log_text(log: tuple[Action, ...]) -> str:
    """The records of a log, written and joined: kept by the log's first
    record, so that a hand's next view adds only its new records (the views
    of a hand share their records)."""
    if not log:
        return ""
    first = log[0]
    kept = _LOGS.get(id(first))
    if kept is not None and kept[0] is first:
        _, count, last, text = kept
        if count <= len(log) and log[count - 1] is last:
            if count == len(log):
                return text
            text = f"{text},{','.join([_record(r) for r in log[count:]])}"
            _LOGS[id(first)] = (first, len(log), log[-1], text)
            return text
    text = ",".join([_record(r) for r in log])
    if len(_LOGS) >= MOST_KEPT:
        _LOGS.clear()
    _LOGS[id(first)] = (first, len(log), log[-1], text)
    return text


def _cards(cards: tuple[int, ...]) -> str:
    return "[" + ",".join([_CARDS[c] for c in cards]) + "]"


def _numbers(values: tuple[int, ...]) -> str:
    text = _NUMBERS.get(values)
    if text is None:
        if len(_NUMBERS) >= MOST_KEPT:
            _NUMBERS.clear()
        text = _NUMBERS[values] = "[" + ",".join(map(str, values)) + "]"
    return text


def _record(record: Action) -> str:
    # Records are kept by identity (hashing one hashes its enum, slowly): a
    # hand's log holds the same records from view to view.  The record is
    # kept too, so that its id is not another's while it is in the keep.
    kept = _RECORDS.get(id(record))
    if kept is None or kept[0] is not record:
        if len(_RECORDS) >= MOST_KEPT:
            _RECORDS.clear()
        kept = _RECORDS[id(record)] = (record, _write_record(record))
    return kept[1]


def _write_record(r: Action) -> str:
    """``encode(r.to_dict())``, written field by field (tokens need no escapes)."""
    text = f'{{"kind":"{r.kind.value}","street":"{_STREETS[r.street]}"'
    if r.seat is not None:
        text += f',"seat":{r.seat}'
    if r.amount:
        text += f',"amount":{r.amount}'
    if r.to:
        text += f',"to":{r.to}'
    if r.all_in:
        text += ',"all_in":true'
    if r.cards:
        text += f',"cards":{_cards(r.cards)}'
    if r.pot >= 0:
        text += f',"pot":{r.pot}'
    return text + "}"


def _menu(legal: LegalActions) -> str:
    """``encode(legal.to_dict())``, kept by value (a table's menus repeat)."""
    text = _MENUS.get(legal)
    if text is None:
        if len(_MENUS) >= MOST_KEPT:
            _MENUS.clear()
        wager = "null" if legal.wager is None else f'"{legal.wager.value}"'
        text = _MENUS[legal] = (
            f'{{"seat":{legal.seat},"fold":{_BOOL[legal.fold]},"check":{_BOOL[legal.check]},'
            f'"call":{_opt(legal.call)},"wager":{wager},"min_to":{_opt(legal.min_to)},'
            f'"max_to":{_opt(legal.max_to)},"all_in":{_opt(legal.all_in)},'
            f'"show":{_BOOL[legal.show]},"muck":{_BOOL[legal.muck]},"bet":{legal.bet}}}'
        )
    return text


def _opt(value: int | None) -> str:
    return "null" if value is None else str(value)


def view_text(view: PlayerView, since: int = 0) -> str:
    """``encode(view.to_dict(since))``, written from kept parts."""
    log = view.log_since(since)
    hole = view.hole_cards
    seat, actor, legal, outcome = view.seat, view.actor, view.legal, view.outcome
    codes = view._codes
    statuses = _STATUSES.get(codes)
    if statuses is None:
        if len(_STATUSES) >= MOST_KEPT:
            _STATUSES.clear()
        statuses = _STATUSES[codes] = "[" + ",".join(f'"{s}"' for s in view.statuses) + "]"
    records = _log_text(log)
    shown = view.shown
    parts = [
        '{"seat":',
        "null" if seat is None else str(seat),
        ',"hole_cards":',
        _cards(hole) if hole else "null",
        ',"phase":"',
        view.phase.value,
        '","street":"',
        view.street.label,
        '","board":',
        _cards(view.board),
        ',"stacks":',
        _numbers(view.stacks),
        ',"bets":',
        _numbers(view.bets),
        ',"contributions":',
        _numbers(view.contributions),
        ',"statuses":',
        statuses,
        ',"pot":',
        str(view.pot),
        ',"current_bet":',
        str(view.current_bet),
        ',"actor":',
        "null" if actor is None else str(actor),
        ',"legal":',
        "null" if legal is None else _menu(legal),
        ',"shown":',
        "[" + ",".join([f'{{"seat":{s},"cards":{_cards(c)}}}' for s, c in shown]) + "]"
        if shown
        else "[]",
        ',"outcome":',
        "null" if outcome is None else encode(outcome.to_dict()),
    ]
    if not since:
        parts += (',"config":', config_text(view.config))
    parts += (',"log_start":', str(since), ',"log":[', records, "]}")
    return "".join(parts)


def message_text(message: dict[str, Any]) -> str:
    """A message's line (without its end), its record (an ``action``) or view
    (a ``view``) written from kept parts: the same JSON as
    ``encode(plain(message))``."""
    view = message.get("view")
    record = message.get("action")
    if type(view) is not PlayerView and type(record) is not Action:
        return encode(message)
    keys = message.keys()
    if type(record) is Action and keys == _ACTION_KEYS:  # (the most common, then turns)
        table = _quoted(message["table"])
        return (
            f'{{"event":"action","hand":{message["hand"]},"action":{_record(record)},'
            f'"table":{table}}}'
        )
    if type(view) is PlayerView and keys in (_TURN_KEYS, _TIMED_TURN_KEYS):
        seconds = message.get("seconds")
        timed = "" if seconds is None else f',"seconds":{float(seconds)!r}'
        return (
            f'{{"event":"turn","hand":{message["hand"]},"seat":{message["seat"]},'
            f'"view":{view_text(view)},"table":{_quoted(message["table"])}{timed}}}'
        )
    parts = [encode({k: v for k, v in message.items() if k != "view" and k != "action"})[1:-1]]
    if type(view) is PlayerView:
        parts.append(f'"view":{view_text(view)}')
    if type(record) is Action:
        parts.append(f'"action":{_record(record)}')
    return "{" + ",".join(part for part in parts if part) + "}"


_ACTION_KEYS = {"event", "hand", "action", "table"}
_TURN_KEYS = {"event", "hand", "seat", "view", "table"}
_TIMED_TURN_KEYS = _TURN_KEYS | {"seconds"}
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
