"""The exceptions of holdem: one hierarchy, with builtin mix-ins.

Catch :class:`HoldemError` for anything holdem raises on bad input; the
leaves also derive from the builtin a caller would expect (``ValueError``).
"""

from __future__ import annotations

import os


class HoldemError(Exception):
    """Base class of every error holdem raises on purpose."""


class InvalidCardError(HoldemError, ValueError):
    """A card, or a list of cards, that cannot be used.

    ``token`` is the offending text (or number), ``position`` its 1-based
    place among the cards of the request, when known.
    """

    def __init__(self, message: str, *, token: object = None, position: int | None = None):
        super().__init__(message)
        self.token = token
        self.position = position


class ConfigError(HoldemError, ValueError):
    """A configuration that cannot be used (of a hand, a table, a game).

    ``field`` names the offending setting and ``value`` is what was given.
    """

    def __init__(self, message: str, *, field: str | None = None, value: object = None):
        super().__init__(message)
        self.field = field
        self.value = value


class IllegalActionError(HoldemError, ValueError):
    """An action the rules do not allow now, with the reason in the message.

    ``seat`` is the player who tried it (None for a dealer step) and
    ``action`` the name of the action (``"raise"``, ``"check"``, ...).
    """

    def __init__(self, message: str, *, seat: int | None = None, action: str | None = None):
        super().__init__(message)
        self.seat = seat
        self.action = action


class EvaluatorError(HoldemError, ValueError):
    """An argument of the evaluator with a value it cannot use (not a hand
    value, a bad hand size or thread count, an ``out`` buffer too small)."""


class RangeError(HoldemError, ValueError):
    """A range that cannot be built: a weight outside (0, 1], or unreadable text."""


class RangeSyntaxError(RangeError):
    """A range text that cannot be read; names the token and its column."""

    def __init__(self, message: str, *, token: str, column: int) -> None:
        super().__init__(message)
        self.token = token
        self.column = column


class EquityError(HoldemError, ValueError):
    """An equity question that has no answer (no legal deal, too few cards
    left), or an argument of :func:`~holdem.equities.equity` it cannot use."""


class HistoryFormatError(HoldemError, ValueError):
    """A hand history that cannot be read: names the file, line and column."""

    def __init__(
        self, message: str, *, path: str | None = None, line: int = 0, column: int = 0
    ) -> None:
        where = f"{path or '<input>'}:{line}" + (f":{column}" if column else "")
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line
        self.column = column
        self.reason = message


#: Longest stretch of the user's input a message quotes, in characters.
QUOTE_LIMIT = 60


class TableError(HoldemError, ValueError):
    """A table request that cannot be done (now): a seat that is taken or
    empty, a buy-in out of bounds, a change while a hand is in progress.

    ``seat`` names the seat concerned, when there is one.
    """

    def __init__(self, message: str, *, seat: int | None = None):
        super().__init__(message)
        self.seat = seat


class WireError(HoldemError, ValueError):
    """A value's wire form (``from_dict``, a JSON message) is not what it should be.

    ``field`` is the path of the offending field (``"legal.min_to"``), ``value``
    what was there.
    """

    def __init__(self, message: str, *, field: str | None = None, value: object = None):
        super().__init__(message)
        self.field = field
        self.value = value


class SimulationError(HoldemError, RuntimeError):
    """A part of a simulation failed (a bot raised, a worker process died):
    the message says which hands or tournaments, and what went wrong."""


class ClusterError(HoldemError, ConnectionError):
    """A Dask cluster that cannot be used (:mod:`holdem.cluster`): its scheduler
    not reached in time (the message says where and why), or Dask's
    ``distributed`` not installed."""


class ListenError(HoldemError, OSError):
    """A server cannot listen where it was asked (``HOST:PORT: the system's
    reason``: the port taken, an address not this machine's)."""

    @classmethod
    def at(cls, host: str | None, port: int, exc: OSError) -> ListenError:
        # (a name's lookup says its own reason; asyncio's bind error wraps it)
        plain = exc.errno is not None and exc.errno > 0
        why = os.strerror(exc.errno) if plain else exc.strerror or str(exc)  # type: ignore[arg-type]
        return cls(f"{host or '*'}:{port}: {why}")


class StoreError(HoldemError, ValueError):
    """A room's data file that cannot be used (``PATH: why``): not a room's
    data file, damaged, or of a schema this holdem does not write."""


class ProtocolError(HoldemError, ValueError):
    """A request of the JSON-lines protocol that cannot be served.

    ``code`` is one of the stable codes of :data:`holdem.protocol.ERROR_CODES`
    (``"illegal_action"``, ``"not_your_turn"`` ...); ``field`` names the
    offending field of the request, when there is one.
    """

    def __init__(self, code: str, message: str, *, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.field = field


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    r"""A short, readable quote of some input, for an error message.

    Messages quote what the user gave, and a line of a megabyte must not
    become a message of a megabyte: text is quoted as by ``repr``, at most
    ``limit`` characters of it (``...`` marks a cut); bytes that were not
    UTF-8 (a command line passes them on as surrogate escapes) show as
    ``\xff``.  An int shows in full unless it is huge; anything else as a cut
    ``repr``.

    >>> print(quote("Ax"), quote("\udcff\udcfe"), quote("Q" * 50, limit=5))
    'Ax' '\xff\xfe' 'QQQQQ'...
    >>> quote(10**100)
    'an int of 333 bits'
    """
    if isinstance(value, str):
        pieces: list[str] = []
        size = 0
        for ch in value:
            piece = _quote_char(ch)
            size += len(piece)
            if size > limit:
                return "'" + "".join(pieces) + "'..."
            pieces.append(piece)
        return "'" + "".join(pieces) + "'"
    if isinstance(value, int) and not isinstance(value, bool):
        # str() of an int of thousands of digits is slow, or refused
        return str(value) if value.bit_length() <= 128 else f"an int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__} object>"
    return text[:limit] + ("..." if len(text) > limit else "")


def _quote_char(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return "\\'" if ch == "'" else repr(ch)[1:-1]
