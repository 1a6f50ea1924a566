"""Reading values back from their wire form (``from_dict``): one set of checks.

Every public value a program may exchange has ``to_dict()`` and
``from_dict()``.  The JSON shape is one for all of them: cards as lists of
two-character strings (``["As", "Kd"]``), amounts as integers, kinds as
snake_case tokens.  The readers here check one field at a time and raise
:class:`~holdem.errors.WireError` naming the field's path and what was there,
so a message from a program that gets one field wrong says which.

>>> reader = Fields({"kind": "raise", "to": 600}, "decision")
>>> reader.integer("to")
600
>>> reader.integer("missing")
Traceback (most recent call last):
...
holdem.errors.WireError: decision.missing: missing (an integer)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, TypeVar

from .cards import Card, parse_card
from .errors import InvalidCardError, WireError, quote

__all__ = ["Fields", "kept_reading", "schema"]


def schema() -> dict[str, Any]:
    """The JSON Schema of the wire forms (``holdem/schemas/wire.schema.json``):
    one ``$defs`` entry per shape (``Decision``, ``LegalActions``, ``Action``,
    ``HandConfig``, ``Outcome``, ...)."""
    import json
    from importlib.resources import files

    text = files("holdem").joinpath("schemas", "wire.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


E = TypeVar("E", bound=Enum)
T = TypeVar("T")
_MISSING = object()
#: The most readings a keep of :func:`kept_reading` holds before it is emptied.
MOST_KEPT = 4096


def kept_reading(keep: dict[Any, T], data: Any, read: Callable[[Any], T]) -> T:
    """``read(data)``, kept in ``keep`` for a flat object read again: a program
    reads the same records and menus many times.  An object is read again
    unless it has the same fields with the same values of the same types
    (``1`` is not ``true``), so what is kept is what ``read`` would give.
    Objects holding lists or objects are always read."""
    if type(data) is not dict:
        return read(data)
    try:
        key = (*data.items(), *map(type, data.values()))
        value = keep.get(key)
    except TypeError:  # (a list or an object inside: not kept)
        return read(data)
    if value is None:
        value = read(data)
        if len(keep) >= MOST_KEPT:
            keep.clear()
        keep[key] = value
    return value


class Fields:
    """The fields of one wire object (a dict), read with checks.

    ``where`` is the object's path in its message (``"view.legal"``); errors
    name ``where.field``.  Unknown fields are refused by :meth:`done`, so a
    misspelt field does not pass unnoticed.
    """

    __slots__ = ("_data", "_seen", "where")

    def __init__(self, data: object, where: str) -> None:
        if type(data) is not dict and not isinstance(data, Mapping):  # (a dict: at once)
            raise WireError(
                f"{where}: expected an object, not {_kind_of(data)}", field=where, value=data
            )
        self._data = data
        self._seen: set[str] = set()
        self.where = where

    def _get(self, name: str, what: str, default: object) -> Any:
        self._seen.add(name)
        value = self._data.get(name, _MISSING)
        if value is _MISSING:
            if default is not _MISSING:
                return default
            raise self.error(name, None, f"missing ({what})")
        return value

    def raw(self, name: str, what: str, *, default: Any = _MISSING) -> Any:
        """The field as it is (``what`` says what it should be, for the error
        when it is missing and has no default)."""
        return self._get(name, what, default)

    def error(self, name: str, value: object, why: str) -> WireError:
        path = f"{self.where}.{name}"
        return WireError(f"{path}: {why}", field=path, value=value)

    def integer(
        self,
        name: str,
        *,
        default: Any = _MISSING,
        minimum: int | None = 0,
        maximum: int | None = None,
        optional: bool = False,
    ) -> Any:
        """An int (not a bool) from ``minimum`` to ``maximum``; None allowed
        when ``optional``."""
        value = self._get(name, "an integer", default)
        if value is None and (optional or default is None):
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(name, value, f"expected an integer, not {_kind_of(value)}")
        if minimum is not None and value < minimum:
            raise self.error(name, value, f"{value} is below {minimum}")
        if maximum is not None and value > maximum:
            raise self.error(name, value, f"at most {maximum:,}")
        return value

    def boolean(self, name: str, *, default: Any = _MISSING) -> bool:
        value = self._get(name, "true or false", default)
        if not isinstance(value, bool):
            raise self.error(name, value, f"expected true or false, not {_kind_of(value)}")
        return value

    def text(self, name: str, *, default: Any = _MISSING, optional: bool = False) -> Any:
        value = self._get(name, "a string", default)
        if value is None and (optional or default is None):
            return None
        if not isinstance(value, str):
            raise self.error(name, value, f"expected a string, not {_kind_of(value)}")
        return value

    def token(
        self,
        name: str,
        enum: type[E],
        *,
        default: Any = _MISSING,
        optional: bool = False,
        choices: tuple[E, ...] | None = None,
    ) -> Any:
        """A member of ``enum`` (of ``choices``, when given) named by its value, a
        snake_case token."""
        allowed = _members(enum) if choices is None else choices
        self._seen.add(name)
        value = self._data.get(name, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise self.error(name, None, f"missing (one of {_names(allowed, optional)})")
            value = default
        if value is None and (optional or default is None):
            return None
        try:
            member = value if isinstance(value, enum) else enum(value)
        except ValueError:
            member = None
        if member not in allowed:
            names = _names(allowed, optional)
            raise self.error(name, value, f"{quote(value)} is not one of {names}")
        return member

    def cards(self, name: str, *, default: Any = _MISSING, optional: bool = False) -> Any:
        """A list of cards, each a two-character string (``["As", "Kd"]``)."""
        value = self._get(name, "a list of cards", default)
        if value is None and (optional or default is None):
            return None
        if not isinstance(value, list | tuple):
            raise self.error(name, value, f"expected a list of cards, not {_kind_of(value)}")
        out: list[Card] = []
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.error(f"{name}[{i}]", item, f"expected a card, not {_kind_of(item)}")
            try:
                card = parse_card(item)
            except InvalidCardError as exc:
                raise self.error(f"{name}[{i}]", item, str(exc)) from None
            if card in out:
                raise self.error(f"{name}[{i}]", item, f"{item} is there twice")
            out.append(card)
        return tuple(out)

    def integers(self, name: str, *, default: Any = _MISSING) -> tuple[int, ...]:
        """A list of non-negative integers."""
        value = self._get(name, "a list of integers", default)
        if not isinstance(value, list | tuple):
            raise self.error(name, value, f"expected a list of integers, not {_kind_of(value)}")
        for i, item in enumerate(value):
            if not isinstance(item, int) or isinstance(item, bool) or item < 0:
                raise self.error(f"{name}[{i}]", item, "expected an integer of at least 0")
        return tuple(value)

    def done(self) -> None:
        """Refuses fields this reader did not ask for."""
        if self._seen.issuperset(self._data):
            return
        extra = sorted(str(k) for k in self._data if k not in self._seen)
        if extra:
            raise self.error(extra[0], self._data[extra[0]], "unknown field")


def _kind_of(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    names = {
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }
    return names.get(type(value), type(value).__name__)


def _names(members: tuple[Enum, ...], optional: bool = False) -> str:
    values = [str(m.value) for m in members]
    names = ", ".join(values[:24]) + (", ..." if len(values) > 24 else "")
    return names + (" or null" if optional else "")


_MEMBERS: dict[type[Enum], tuple[Enum, ...]] = {}


def _members(enum: type[E]) -> tuple[E, ...]:
    """The members of an enum, kept (iterating an enum is slow)."""
    members = _MEMBERS.get(enum)
    if members is None:
        members = _MEMBERS[enum] = tuple(enum)
    return members  # type: ignore[return-value]
