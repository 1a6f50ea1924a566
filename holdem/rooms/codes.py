"""Join codes and seat tokens, and the counters that bound guessing and
flooding (``docs/rooms.md``, "Security and limits").

A join code names a private table to the friends it is shared with: eight
letters and digits from an alphabet without look-alikes (``7KQM-X2TP``),
about 40 bits, read back whatever the case and the dashes.  A seat token is
a player's proof of their seat, for coming back after a dropped connection:
32 URL-safe characters (192 bits).  Both come from :mod:`secrets`; the
store keeps only a token's SHA-256 (:func:`token_hash`), so that its file
gives nobody a seat.

>>> code = new_code()
>>> len(code), code[4], normal_code(code.lower().replace("-", " ")) == code
(9, '-', True)
>>> normal_code("not a code") is None
True
"""

from __future__ import annotations

import hashlib
import ipaddress
import mmap
import secrets
from collections import deque

__all__ = [
    "ALPHABET",
    "Guesses",
    "Rate",
    "Tally",
    "new_code",
    "new_token",
    "normal_code",
    "token_hash",
]

#: The characters of a join code: no 0/O, 1/I/L, nor U (read as V).
ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
_CODE_LENGTH = 8


def new_code() -> str:
    """A new join code, ``XXXX-XXXX``."""
    letters = "".join(secrets.choice(ALPHABET) for _ in range(_CODE_LENGTH))
    return f"{letters[:4]}-{letters[4:]}"


def normal_code(text: str) -> str | None:
    """The code as :func:`new_code` writes it, from what a person typed (any
    case, dashes or spaces anywhere); None when it cannot be a code."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    letters = "".join(ch for ch in text.upper() if ch not in "- ")
    if len(letters) != _CODE_LENGTH or any(ch not in ALPHABET for ch in letters):
        return None
    return f"{letters[:4]}-{letters[4:]}"


def new_token() -> str:
    """A new seat token (192 bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Guesses:
    """Failed guesses (a wrong join code, an unknown token) by address, in a
    sliding window: past ``most`` in ``seconds``, the address is refused
    until its oldest failure leaves the window.  An IPv6 address counts with
    its /64 network (one machine's addresses), and addresses whose failures
    are old are forgotten."""

    def __init__(self, most: int = 10, seconds: float = 60.0) -> None:
        self.most, self.seconds = most, seconds
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, address: str, now: float) -> deque[float]:
        address = _network(address)
        failures = self._failures.setdefault(address, deque())
        while failures and failures[0] <= now - self.seconds:
            failures.popleft()
        return failures

    def allowed(self, address: str, now: float) -> bool:
        """Whether the address may guess now."""
        failures = self._recent(address, now)
        if not failures:
            del self._failures[_network(address)]  # (the table of addresses stays small)
            return True
        return len(failures) < self.most

    def failed(self, address: str, now: float) -> None:
        """The address guessed wrong."""
        if len(self._failures) >= _MOST_ADDRESSES:  # (those with no recent failure go)
            for key in [k for k, f in self._failures.items() if f[-1] <= now - self.seconds]:
                del self._failures[key]
        self._recent(address, now).append(now)

    def wait(self, address: str, now: float) -> float:
        """Seconds until the address may guess again (0: now)."""
        failures = self._recent(address, now)
        if len(failures) < self.most:
            return 0.0
        return max(0.0, failures[0] + self.seconds - now)


#: Addresses with failures kept before the old ones are forgotten.
_MOST_ADDRESSES = 10_000


def _network(address: str) -> str:
    """The key of an address: an IPv6 one's /64 network, else itself."""
    if ":" not in address:
        return address
    try:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    except ValueError:
        return address


class Rate:
    """A token bucket: ``per_second`` messages a second, ``burst`` at once
    (``left``: as many allowed now, when it goes on from another's count:
    a connection handed from one worker to another).

    >>> rate = Rate(1, 2, now=0.0)
    >>> [rate.take(0.0) for _ in range(3)], rate.left(0.5)
    ([True, True, False], 0.5)
    >>> Rate(1, 2, now=7.0, left=0.5).take(7.0)
    False
    """

    __slots__ = ("_left", "_then", "burst", "per_second")

    def __init__(self, per_second: float, burst: float, now: float,
                 left: float | None = None) -> None:  # fmt: skip
        self.per_second, self.burst = per_second, burst
        self._left = burst if left is None else min(burst, left)
        self._then = now

    def left(self, now: float) -> float:
        """How many messages are allowed at once now (it counts none)."""
        return min(self.burst, self._left + (now - self._then) * self.per_second)

    def take(self, now: float) -> bool:
        """Whether one more message is allowed now (and counts it)."""
        left = self.left(now)
        self._then = now
        if left < 1:
            self._left = left
            return False
        self._left = left - 1
        return True


class Tally:
    """Counts that the worker processes of one server share (``holdem serve
    --workers N``): each worker writes its own (``slot``), and reads the
    total.  Made before the workers are forked (shared memory they inherit);
    each slot is one machine word, written and read whole.

    >>> tally = Tally(2)
    >>> tally.set(0, 3); tally.set(1, 4); tally.total()
    7
    """

    def __init__(self, slots: int) -> None:
        self._memory = mmap.mmap(-1, 8 * slots)  # (anonymous, shared with children)
        self._counts = memoryview(self._memory).cast("q")

    def set(self, slot: int, count: int) -> None:
        self._counts[slot] = count

    def total(self) -> int:
        return sum(self._counts)
