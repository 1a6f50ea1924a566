"""The JSON-lines protocol: programs drive tables and sit at them, one JSON
object a line (``docs/protocol.md``).

:mod:`~holdem.protocol.messages` reads requests and writes replies, errors
and events; :class:`~holdem.protocol.engine.Engine` serves them (pure: the
loop that reads and writes lines is ``holdem engine``'s, in the CLI).
"""

from .engine import Engine
from .messages import (
    ERROR_CODES,
    MAX_LINE,
    REQUESTS,
    SOCKET_BUFFER,
    VERSION,
    Request,
    encode,
    read_request,
)

__all__ = [
    "ERROR_CODES",
    "MAX_LINE",
    "REQUESTS",
    "SOCKET_BUFFER",
    "VERSION",
    "Engine",
    "Request",
    "encode",
    "read_request",
]
