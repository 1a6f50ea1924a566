"""Snapshots: what a table (or a game) carries from one hand to the next, as
JSON data, and the readers that check it coming back (``docs/tables.md``,
"Snapshots").

Each kind of snapshot is one list of :class:`Field`: a field's name, how its
value is written from the object, and how it is read back and checked.  The
same list writes the snapshot (:func:`write`) and reads it (:func:`read`), so
a field cannot be written and forgotten on the way back.  A reader raises
:class:`~holdem.errors.WireError` naming the field's path for a value of the
wrong type (or a missing or unknown field); the classes' own checks raise
:class:`~holdem.errors.ConfigError` for a value the rules refuse.

>>> fields = (Field("seat", lambda p: p[0], integer(maximum=9)),
...           Field("name", lambda p: p[1], name))
>>> write((3, "Ann"), fields)
{'seat': 3, 'name': 'Ann'}
>>> read({"seat": 3, "name": "Ann"}, "player", fields)
{'seat': 3, 'name': 'Ann'}
>>> read({"seat": 12, "name": "Ann"}, "player", fields)
Traceback (most recent call last):
...
holdem.errors.WireError: player.seat: 12 is above 9
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from typing import Any, NamedTuple

from ..errors import ConfigError, WireError, quote
from ..wire import Fields

__all__ = ["SNAPSHOT_VERSION", "Field", "read", "write"]

#: The version of the snapshots' form (the ``version`` field of each).
SNAPSHOT_VERSION = 1

#: A field's reader: ``read(fields, name)`` gives the field's value, checked.
Reader = Callable[[Fields, str], Any]


class Field(NamedTuple):
    """One field of a snapshot: its ``name``, its JSON value from the object
    (``get``) and its reader (``read``)."""

    name: str
    get: Callable[[Any], Any]
    read: Reader


def write(obj: Any, fields: Sequence[Field]) -> dict[str, Any]:
    """The snapshot of ``obj``: each field's value, in the fields' order."""
    return {field.name: field.get(obj) for field in fields}


def read(data: object, where: str, fields: Sequence[Field]) -> dict[str, Any]:
    """Each field of the snapshot ``data`` (an object at path ``where``) read
    and checked, by name; a missing or unknown field is refused."""
    f = Fields(data, where)
    values = {field.name: field.read(f, field.name) for field in fields}
    f.done()
    return values


def path(f: Fields, name: str) -> str:
    """The path of field ``name`` of the object ``f`` reads."""
    return f"{f.where}.{name}"


# ------------------------------------------------------------------ readers


def version(f: Fields, name: str) -> int:
    """The form's version: this module's :data:`SNAPSHOT_VERSION` only."""
    value = f.raw(name, f"the snapshot's version, {SNAPSHOT_VERSION}")
    if type(value) is not int or value != SNAPSHOT_VERSION:
        raise f.error(name, value, f"{quote(value)} is not a version this code reads "
                      f"({SNAPSHOT_VERSION})")  # fmt: skip
    return value


def integer(*, minimum: int = 0, maximum: int | None = None, optional: bool = False) -> Reader:
    """An int from ``minimum`` to ``maximum`` (None when ``optional``)."""

    def reader(f: Fields, name: str) -> int | None:
        value: int | None = f.integer(name, minimum=minimum, optional=optional)
        if value is not None and maximum is not None and value > maximum:
            raise f.error(name, value, f"{value} is above {maximum}")
        return value

    return reader


def number(*, optional: bool = False) -> Reader:
    """A finite number of at least 0 (an int or a float), as a float."""

    def reader(f: Fields, name: str) -> float | None:
        value = f.raw(name, "a number" + (" or null" if optional else ""))
        if value is None and optional:
            return None
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise f.error(name, value, "expected a number" + (" or null" if optional else ""))
        if not (math.isfinite(value) and value >= 0):
            raise f.error(name, value, f"{value!r} is not a finite number of at least 0")
        return float(value)

    return reader


def boolean(f: Fields, name: str) -> bool:
    return f.boolean(name)


def name(f: Fields, name: str) -> str:
    """A player's name: a string that is not blank."""
    value: str = f.text(name)
    if not value.strip():
        raise f.error(name, value, "a player's name is not blank")
    return value


def choice(choices: Collection[str]) -> Reader:
    """One of the strings ``choices``."""

    def reader(f: Fields, name: str) -> str:
        value: str = f.text(name)
        if value not in choices:
            raise f.error(name, value, f"{quote(value)} is not one of {', '.join(choices)}")
        return value

    return reader


def raw_object(*, optional: bool = False) -> Reader:
    """An object, read further by its owner (None when ``optional``)."""

    def reader(f: Fields, name: str) -> Any:
        value = f.raw(name, "an object" + (" or null" if optional else ""))
        if value is None and optional:
            return None
        if not isinstance(value, dict):
            raise f.error(name, value, "expected an object" + (" or null" if optional else ""))
        return value

    return reader


def record(from_dict: Callable[[Any, str], Any], *, optional: bool = False) -> Reader:
    """An object read by ``from_dict(data, where)`` (None when ``optional``);
    a :class:`~holdem.errors.ConfigError` it raises names the field by its path."""
    check = raw_object(optional=optional)

    def reader(f: Fields, name: str) -> Any:
        value = check(f, name)
        if value is None:
            return None
        where = path(f, name)
        try:
            return from_dict(value, where)
        except ConfigError as exc:
            raise located(where, exc) from None

    return reader


def located(where: str, exc: ConfigError) -> ConfigError:
    """``exc`` naming its field by its path from ``where`` (the path of the
    object whose field it names), if it does not already."""
    field = exc.field
    if field is not None and (field == where or field.startswith((f"{where}.", f"{where}["))):
        return exc
    field = where if field is None else f"{where}.{field}"
    return ConfigError(f"{field}: {exc}", field=field, value=exc.value)


def records(fields: Sequence[Field]) -> Reader:
    """A list of objects, each read by :func:`read` with ``fields``."""

    def reader(f: Fields, name: str) -> list[dict[str, Any]]:
        return [
            read(item, f"{path(f, name)}[{i}]", fields) for i, item in enumerate(items(f, name))
        ]

    return reader


def items(f: Fields, name: str) -> list[Any]:
    """A list, as it is."""
    value = f.raw(name, "a list")
    if not isinstance(value, list):
        raise f.error(name, value, "expected a list")
    return value


def by_name(value_reader: Reader) -> Reader:
    """An object whose keys are players' names and whose values each read by
    ``value_reader``; a dict of them."""

    def reader(f: Fields, key: str) -> dict[str, Any]:
        value = f.raw(key, "an object by player")
        if not isinstance(value, dict):
            raise f.error(key, value, "expected an object by player")
        inner = Fields(value, path(f, key))
        for player in value:
            if not isinstance(player, str) or not player.strip():
                raise inner.error(str(player), player, "a player's name is not blank")
        return {player: value_reader(inner, player) for player in value}

    return reader


def unique(values: Sequence[Any], where: str, what: str) -> None:
    """Refuses a value that is there twice (``what``: the values' name)."""
    seen: set[Any] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise WireError(
                f"{where}[{i}]: {what} {quote(value)} is there twice", field=where, value=value
            )
        seen.add(value)
