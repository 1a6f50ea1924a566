"""What happens at a table, as data: one record per change (issue 11, item 6).

A :class:`~holdem.table.Table` tells its subscribers (``table.subscribe(f)``)
each :data:`Event` as it happens: seats taken and freed, players sitting out
and back in, chips added, each hand's start, every action (blinds, deals,
decisions, awards), each hand's end, levels going up, players eliminated.
Every event has the wire form of the engine's values: ``to_dict()`` gives a
JSON object whose ``event`` field names it, and :func:`event_from_dict`
reads one back.

>>> SeatTaken(seat=3, name="Ann", chips=1500).to_dict()
{'event': 'seat_taken', 'seat': 3, 'name': 'Ann', 'chips': 1500}
>>> event_from_dict({'event': 'sat_out', 'seat': 3, 'name': 'Ann'})
SatOut(seat=3, name='Ann')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeAlias

from ..actions import Action
from ..pots import Outcome
from ..wire import Fields

__all__ = [
    "EVENT_TYPES",
    "ActionTaken",
    "CardsShown",
    "ChipsAdded",
    "Event",
    "HandEnded",
    "HandStarted",
    "LevelUp",
    "PlayerEliminated",
    "SatIn",
    "SatOut",
    "SeatFreed",
    "SeatTaken",
    "event_from_dict",
]


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """A player sat down with ``chips``."""

    kind: ClassVar[str] = "seat_taken"
    seat: int
    name: str
    chips: int


@dataclass(frozen=True, slots=True)
class SeatFreed:
    """A player left the seat with ``chips``: ``reason`` is ``left``,
    ``busted`` (a tournament player with no chips) or ``timeouts`` (timed out
    too often)."""

    kind: ClassVar[str] = "seat_freed"
    seat: int
    name: str
    chips: int
    reason: str


@dataclass(frozen=True, slots=True)
class SatOut:
    """A player sits out: not dealt in until they come back."""

    kind: ClassVar[str] = "sat_out"
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class SatIn:
    """A player comes back: ``how`` is ``playing`` (dealt in at once),
    ``waiting`` (for the big blind) or ``posting`` (posting what they owe)."""

    kind: ClassVar[str] = "sat_in"
    seat: int
    name: str
    how: str


@dataclass(frozen=True, slots=True)
class ChipsAdded:
    """Chips added to a stack between hands (a top-up or a rebuy); ``deferred``:
    asked for during a hand, so added before the next one."""

    kind: ClassVar[str] = "chips_added"
    seat: int
    name: str
    chips: int
    stack: int
    deferred: bool = False


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand is dealt: its number, the button's seat (not dealt in: a dead
    button), the blinds' seats (None: a dead small blind), the seats dealt in
    with their stacks, the names, and the blinds and ante of the level (the big blind's
    ante, or each player's)."""

    kind: ClassVar[str] = "hand_started"
    hand: int
    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    names: tuple[str, ...]
    small_blind: int
    big_blind: int
    ante: int = 0
    #: the ante is the big blind's, posted by the big blind alone (not each player's)
    big_blind_ante: bool = False


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """One record of the hand's log (a blind, a deal, a decision, an award)."""

    kind: ClassVar[str] = "action"
    hand: int
    action: Action


@dataclass(frozen=True, slots=True)
class HandEnded:
    """A hand is over: its outcome, the stacks after it by seat (the seats dealt
    in), and the rake taken (cash games)."""

    kind: ClassVar[str] = "hand_ended"
    hand: int
    outcome: Outcome
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    rake: int = 0


@dataclass(frozen=True, slots=True)
class CardsShown:
    """A player showed their cards after hand ``hand`` was over (R10: after
    folding, or after winning uncontested): the show's record, as the
    hand's log has it."""

    kind: ClassVar[str] = "cards_shown"
    hand: int
    seat: int
    name: str
    action: Action


@dataclass(frozen=True, slots=True)
class LevelUp:
    """The blinds go up (tournaments): level ``level`` (0 the first) from hand ``hand``."""

    kind: ClassVar[str] = "level_up"
    level: int
    hand: int
    small_blind: int
    big_blind: int
    ante: int = 0
    #: the ante is the big blind's (see :class:`HandStarted`)
    big_blind_ante: bool = False


@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """A tournament player has no chips left: out in ``place`` on hand ``hand``,
    by the players who won their last chips."""

    kind: ClassVar[str] = "player_eliminated"
    seat: int
    name: str
    place: int
    hand: int
    by: tuple[str, ...]


Event: TypeAlias = (
    SeatTaken
    | SeatFreed
    | SatOut
    | SatIn
    | ChipsAdded
    | HandStarted
    | ActionTaken
    | HandEnded
    | LevelUp
    | PlayerEliminated
    | CardsShown
)

#: Every type of event.
EVENT_TYPES: tuple[type[Any], ...] = (
    SeatTaken,
    SeatFreed,
    SatOut,
    SatIn,
    ChipsAdded,
    HandStarted,
    ActionTaken,
    HandEnded,
    LevelUp,
    PlayerEliminated,
    CardsShown,
)
_TYPES: dict[str, type[Any]] = {t.kind: t for t in EVENT_TYPES}


def _make_to_dict(cls: type[Any]) -> Callable[[Any], dict[str, Any]]:
    """The type's ``to_dict``: the wire form, ``event`` (the kind), then the
    fields in order (records in their own wire form, tuples as lists): one
    dict literal a type, made from its fields' types (a server writes an
    event for each of a hand's steps)."""
    items = [f'"event": {cls.kind!r}']
    for f in fields(cls):
        hint = str(f.type)
        if hint in ("Action", "Outcome"):
            value = f"self.{f.name}.to_dict()"
        elif hint.startswith("tuple["):
            value = f"list(self.{f.name})"
        else:
            assert hint in ("int", "str", "bool", "int | None"), hint  # (a new kind: say how)
            value = f"self.{f.name}"
        items.append(f"{f.name!r}: {value}")
    scope: dict[str, Any] = {}
    exec(f"def to_dict(self):\n    return {{{', '.join(items)}}}\n", scope)
    to_dict: Callable[[Any], dict[str, Any]] = scope["to_dict"]
    to_dict.__qualname__ = f"{cls.__qualname__}.to_dict"
    to_dict.__doc__ = "The wire form: ``event`` (the kind), then the fields."
    return to_dict


def _slot_init(cls: type[Any]) -> Callable[..., None]:
    """An ``__init__`` for a frozen slots dataclass that stores each field with
    its slot's setter: the same parameters as the generated one (by position or
    name, the same defaults), in about half the time (that one goes through
    ``object.__setattr__``); a table may tell thousands of events a second."""
    names = [f.name for f in fields(cls)]
    scope: dict[str, Any] = {}
    params = []
    for f in fields(cls):
        assert f.default_factory is MISSING  # (none here: they would need more)
        scope[f"set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            scope[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
    body = "".join(f"    set_{name}(self, {name})\n" for name in names)
    exec(f"def __init__(self, {', '.join(params)}):\n{body}", scope)
    init: Callable[..., None] = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


for _type in _TYPES.values():
    _type.to_dict = _make_to_dict(_type)
    _type.__init__ = _slot_init(_type)


def event_from_dict(data: Any) -> Event:
    """The event of a :meth:`to_dict` form (raises ``WireError`` naming the field)."""
    f = Fields(data, "event")
    kind = f.text("event")
    cls = _TYPES.get(kind)
    if cls is None:
        raise f.error("event", kind, f"unknown event {kind!r}: one of {', '.join(_TYPES)}")
    values: dict[str, Any] = {}
    for field_ in fields(cls):
        name, hint = field_.name, str(field_.type)
        given = {} if field_.default is MISSING else {"default": field_.default}
        if hint == "Action":
            values[name] = Action.from_dict(f.raw(name, "an action"))
        elif hint == "Outcome":
            values[name] = Outcome.from_dict(f.raw(name, "an outcome"))
        elif hint == "str":
            values[name] = f.text(name)
        elif hint == "tuple[str, ...]":
            values[name] = _texts(f, name)
        elif hint == "tuple[int, ...]":
            values[name] = f.integers(name)
        elif hint == "bool":
            values[name] = f.boolean(name, **given)
        elif hint == "int | None":
            values[name] = f.integer(name, optional=True)
        else:
            assert hint == "int", hint  # (a new kind of field needs its reader here)
            values[name] = f.integer(name, **given)
    f.done()
    event: Event = cls(**values)
    return event


def _texts(f: Fields, name: str) -> tuple[str, ...]:
    value = f.raw(name, "a list of strings")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise f.error(name, value, "expected a list of strings")
    return tuple(value)
