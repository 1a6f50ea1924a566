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

from typing import Any

from ..actions import Action, LegalActions
from ..cards import format_card
from ..config import HandConfig
from ..views import PlayerView
from .messages import encode

__all__ = ["MOST_KEPT", "view_text"]

#: The most entries a keep holds before it is emptied.
MOST_KEPT = 4096

_CARDS = tuple(f'"{format_card(c)}"' for c in range(52))
_RECORDS: dict[int, tuple[Action, str]] = {}  # by id: the record kept beside its text
_NUMBERS: dict[tuple[int, ...], str] = {}
_MENUS: dict[LegalActions, str] = {}
_STATUSES: dict[tuple[int, ...], str] = {}
_CONFIG: list[Any] = [None, ""]  # the last configuration written, and its text


def _kept(keep: dict[Any, str], key: Any, make: Any) -> str:
    text = keep.get(key)
    if text is None:
        if len(keep) >= MOST_KEPT:
            keep.clear()
        text = keep[key] = encode(make())
    return text


def config_text(config: HandConfig) -> str:
    """The JSON of a configuration (the last one is kept: a table plays many
    decisions, then many hands, with one)."""
    if _CONFIG[0] is not config:
        _CONFIG[:] = [config, encode(config.to_dict())]
    return str(_CONFIG[1])


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
        kept = _RECORDS[id(record)] = (record, encode(record.to_dict()))
    return kept[1]


def view_text(view: PlayerView, since: int = 0) -> str:
    """``encode(view.to_dict(since))``, written from kept parts."""
    log = view.log_since(since)
    hole = view.hole_cards
    seat, actor, legal, outcome = view.seat, view.actor, view.legal, view.outcome
    codes = view._codes
    statuses = _STATUSES.get(codes)
    if statuses is None:
        statuses = _kept(_STATUSES, codes, lambda: list(view.statuses))
    records = ",".join([_record(r) for r in log])
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
        "null" if legal is None else (_MENUS.get(legal) or _kept(_MENUS, legal, legal.to_dict)),
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
