"""Quick constructors for the table's frozen slots dataclasses.

A frozen dataclass's own ``__init__`` stores each field through
``object.__setattr__``; a table makes an event per action and records per
elimination, many thousands a second.  :func:`slot_init` gives a class an
``__init__`` with the same parameters that stores through the slots'
setters, and :func:`unchecked` makes records of values known to be good
without the class's checks (``__post_init__``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, TypeVar

_T = TypeVar("_T")


def slot_init(cls: type[Any]) -> Callable[..., None]:
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


def unchecked(cls: type[_T]) -> Callable[..., _T]:
    """A maker of ``cls`` records from their fields' values (by position),
    without ``cls``'s checks: for values the caller has checked or made."""
    init = slot_init(cls)
    new = object.__new__

    def make(*values: Any) -> _T:
        record: _T = new(cls)
        init(record, *values)
        return record

    return make
