"""The exceptions of holdem: one hierarchy, with builtin mix-ins.

Catch :class:`HoldemError` for anything holdem raises on bad input; the
leaves also derive from the builtin a caller would expect (``ValueError``).
"""

from __future__ import annotations


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


#: Longest stretch of the user's input quoted in a message.
QUOTE_LIMIT = 120


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of a piece of input, cut in the middle past ``limit`` characters.

    Messages quote what the user gave; a line of a megabyte must not become
    a message of a megabyte.

    >>> quote("As Kx")
    "'As Kx'"
    >>> quote("x" * 100, 20)
    "'xxxxxxxx...xxxxxxxx' (100 characters)"
    """
    s = text if isinstance(text, str) else str(text)
    if len(s) <= limit:
        return repr(s)
    half = max(1, (limit - 3) // 2)
    return f"{s[:half] + '...' + s[-half:]!r} ({len(s):,} characters)"
