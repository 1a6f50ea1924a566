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
    "SharedGuesses",
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


class SharedGuesses:
    """:class:`Guesses` that the worker processes of one server share
    (``holdem serve --workers N``): an address is refused its guesses by
    every worker once it failed ``most`` times in ``seconds`` at any of
    them.  Made before the workers are forked (shared memory they inherit,
    as :class:`Tally`), on a clock all of them share (``time.monotonic``).

    Each address (an IPv6 one by its /64 network) has a slot of its last
    ``most`` failures, found by a hash of it among a few next to each other;
    an address with no recent failure gives its slot up, and when every slot
    it may take holds recent ones, the one whose last failure is oldest is
    forgotten (``slots`` of them: a guesser of more addresses than that at
    once may be counted short).  Two workers writing one slot at the same
    instant may lose a failure.

    >>> guesses = SharedGuesses(most=2, seconds=60)
    >>> guesses.failed("10.0.0.1", 0.0); guesses.allowed("10.0.0.1", 1.0)
    True
    >>> guesses.failed("10.0.0.1", 2.0); guesses.allowed("10.0.0.1", 3.0)
    False
    >>> guesses.wait("10.0.0.1", 3.0), guesses.allowed("10.0.0.2", 3.0)
    (57.0, True)
    """

    def __init__(self, most: int = 10, seconds: float = 60.0, slots: int = 4096) -> None:
        self.most, self.seconds, self.slots = most, seconds, slots
        self._keys_memory = mmap.mmap(-1, 8 * slots)  # (anonymous, shared with children)
        self._keys = memoryview(self._keys_memory).cast("q")
        self._times_memory = mmap.mmap(-1, 8 * slots * most)
        self._times = memoryview(self._times_memory).cast("d")
        for at in range(slots * most):
            self._times[at] = _NEVER

    def allowed(self, address: str, now: float) -> bool:
        """Whether the address may guess now."""
        return len(self._recent(address, now)) < self.most

    def failed(self, address: str, now: float) -> None:
        """The address guessed wrong (its oldest failure kept gives way)."""
        key = _key(address)
        slot = self._find(key)
        if slot is None:
            slot = self._claim(key)
        times, first = self._times, slot * self.most
        oldest = min(range(first, first + self.most), key=times.__getitem__)
        times[oldest] = now

    def wait(self, address: str, now: float) -> float:
        """Seconds until the address may guess again (0: now)."""
        recent = self._recent(address, now)
        if len(recent) < self.most:
            return 0.0
        return max(0.0, min(recent) + self.seconds - now)

    def _recent(self, address: str, now: float) -> list[float]:
        slot = self._find(_key(address))
        if slot is None:
            return []
        first = slot * self.most
        return [t for t in self._times[first : first + self.most] if t > now - self.seconds]

    def _near(self, key: int) -> range:
        start = key % self.slots
        return range(start, start + min(_PROBES, self.slots))

    def _find(self, key: int) -> int | None:
        """The slot of an address's key (None: it has none)."""
        for at in self._near(key):
            slot = at % self.slots
            if self._keys[slot] == key:
                return slot
        return None

    def _claim(self, key: int) -> int:
        """A slot for an address that has none: the one near it whose last
        failure is oldest (one never used, or given up: else that address
        is forgotten)."""
        times, most = self._times, self.most
        slots = [at % self.slots for at in self._near(key)]
        latest = {s: max(times[s * most : (s + 1) * most]) for s in slots}
        slot = min(slots, key=latest.__getitem__)
        self._keys[slot] = key
        for at in range(slot * most, (slot + 1) * most):
            times[at] = _NEVER
        return slot


#: A failure that never was (the shared slots are filled with it).
_NEVER = float("-inf")
#: The slots an address may have, next to the one its hash names.
_PROBES = 8


def _key(address: str) -> int:
    """An address's key in :class:`SharedGuesses`: a hash of its network,
    the same in every process (never 0: an empty slot's)."""
    digest = hashlib.blake2b(_network(address).encode("utf-8", "replace"), digest_size=8)
    return int.from_bytes(digest.digest(), "little", signed=True) or 1


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

    def take(self, now: float, count: float = 1) -> bool:
        """Whether ``count`` more messages are allowed now (and counts them)."""
        left = self.left(now)
        self._then = now
        if left < count:
            self._left = left
            return False
        self._left = left - count
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
