"""The turn timer (RULES.md R13): a time budget for every decision, and what
the table does for a player who runs out of it.

Every decision has ``seconds`` to be made, plus what is left of the player's
time bank.  A player who runs out of time checks if checking is legal and
folds otherwise (``policy="check_fold"``).  With ``policy="protect"`` (a cash
room's disconnect protection) the player is instead treated as all-in for
what they have put in: they keep their claim on the pots formed so far and
the others go on betting into a side pot (the engine's protected timeout);
each player has ``protections_per_day`` of these in any rolling 24 hours
(default 2), after which the check-or-fold rule applies again; the room's
operator may reset a player's count (``resets``).  A protection is spent
only where it protects something: the table asks for one only for a player
with chips in the pot.  ``free_seat_after`` timeouts in a row (default 2;
None: never, as a private table may choose) take the player away from the
table: see :class:`~holdem.table.Table` for what becomes of the chips.

Time comes in as an argument: ``clock`` gives seconds (monotonic) and
``wall`` the seconds since the epoch the protections are counted by (they
outlast a restart), so tests need no sleeping.

>>> now = [0.0]
>>> timer = TurnTimer(TimerRules(seconds=10, time_bank=5), clock=lambda: now[0])
>>> timer.start("Ann")
>>> now[0] = 12.0  # two seconds of the bank used
>>> timer.stop("Ann"), timer.bank("Ann")
(True, 3.0)
>>> timer.start("Ann"); now[0] = 30.0
>>> timer.stop("Ann"), timer.bank("Ann")  # too late: a timeout, the bank is gone
(False, 0.0)
"""

from __future__ import annotations

import datetime
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter, itemgetter
from typing import Any, Literal

from ..actions import Decision, LegalActions
from ..errors import ConfigError, quote
from ..wire import Fields
from . import snapshot as snap
from .snapshot import Field

__all__ = ["PROTECTION_WINDOW", "TimerRules", "TurnTimer"]

TimeoutPolicy = Literal["check_fold", "protect"]

#: The seconds disconnect protections are counted over (R13: any rolling 24 hours).
PROTECTION_WINDOW = 86_400.0


@dataclass(frozen=True, slots=True)
class TimerRules:
    """How long a decision may take, and what a timeout does."""

    #: seconds for each decision
    seconds: float = 30.0
    #: extra seconds each player may spend over the session, as needed
    time_bank: float = 0.0
    policy: TimeoutPolicy = "check_fold"
    #: disconnect protections a player may use in any 24 hours (``policy="protect"``)
    protections_per_day: int = 2
    #: timeouts in a row that take the player away (None: never)
    free_seat_after: int | None = 2

    def __post_init__(self) -> None:
        for name in ("seconds", "time_bank"):  # (numbers a snapshot can write: no NaN, no inf)
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(f"{name} is a number of seconds, not {value!r}", field=name,
                                  value=value)  # fmt: skip
            if not math.isfinite(value):
                raise ConfigError(f"{name} must be a finite number of seconds, not {value!r}",
                                  field=name, value=value)  # fmt: skip
        if not self.seconds > 0:
            raise ConfigError(
                f"seconds must be positive, not {self.seconds!r}",
                field="seconds",
                value=self.seconds,
            )
        if self.time_bank < 0:
            raise ConfigError(
                f"time_bank must be 0 or more, not {self.time_bank!r}",
                field="time_bank",
                value=self.time_bank,
            )
        for name in ("protections_per_day", "free_seat_after"):
            value = getattr(self, name)
            if (value is not None or name == "protections_per_day") and (
                isinstance(value, bool) or not isinstance(value, int)
            ):
                raise ConfigError(f"{name} is a whole number, not {value!r}", field=name,
                                  value=value)  # fmt: skip
        if self.policy not in ("check_fold", "protect"):
            raise ConfigError(
                f"policy is 'check_fold' or 'protect', not {self.policy!r}",
                field="policy",
                value=self.policy,
            )
        if self.protections_per_day < 0:
            raise ConfigError(
                "protections_per_day must be 0 or more",
                field="protections_per_day",
                value=self.protections_per_day,
            )
        if self.free_seat_after is not None and self.free_seat_after < 1:
            raise ConfigError(
                "free_seat_after must be 1 or more (or None)",
                field="free_seat_after",
                value=self.free_seat_after,
            )

    def to_dict(self) -> dict[str, Any]:
        """The wire form: every field by name.

        >>> TimerRules(10, time_bank=5).to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'seconds': 10, 'time_bank': 5, 'policy': 'check_fold', 'protections_per_day': 2,
         'free_seat_after': 2}
        """
        return snap.write(self, _RULES_FIELDS)

    @classmethod
    def from_dict(cls, data: Any, where: str = "rules") -> TimerRules:
        """The rules of :meth:`to_dict`'s form (every field given)."""
        return cls(**snap.read(data, where, _RULES_FIELDS))


#: The fields of TimerRules's wire form: each read by its reader.
_RULES_FIELDS = tuple(
    Field(name, attrgetter(name), read)
    for name, read in (
        ("seconds", snap.number()),
        ("time_bank", snap.number()),
        ("policy", snap.choice(("check_fold", "protect"))),
        ("protections_per_day", snap.integer()),
        ("free_seat_after", snap.integer(minimum=1, optional=True)),
    )
)
assert [f.name for f in _RULES_FIELDS] == [f.name for f in fields(TimerRules)]


class TurnTimer:
    """The clocks of a table's players: per decision, their time banks, their
    timeouts in a row and the protections they used in the last 24 hours
    (players by name).

    ``resets(player)``: when the room's operator last reset the player's
    count of protections, on ``wall`` (None: never); those used before it
    do not count.  It is asked only when a protection could be spent."""

    def __init__(
        self,
        rules: TimerRules | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        resets: Callable[[str], float | None] | None = None,
    ) -> None:
        self.rules = rules or TimerRules()
        self._clock = clock
        self._wall = wall
        self._resets = resets
        self._started: dict[str, float] = {}
        self._bank: dict[str, float] = {}
        self._in_a_row: dict[str, int] = {}
        self._protected: dict[str, list[float]] = {}  # when each protection was used (wall)

    def bank(self, player: str) -> float:
        """Seconds left in the player's time bank."""
        return self._bank.get(player, self.rules.time_bank)

    def deadline(self, player: str) -> float | None:
        """When (on the clock) the player's decision under way times out."""
        started = self._started.get(player)
        return None if started is None else started + self.rules.seconds + self.bank(player)

    def start(self, player: str) -> None:
        """The player's turn begins."""
        self._started[player] = self._clock()

    def stop(self, player: str) -> bool:
        """The player's decision arrives: True if in time (the bank pays for
        the seconds over the budget), False if too late (the bank is spent)."""
        started = self._started.pop(player, None)
        if started is None:
            return True
        over = self._clock() - started - self.rules.seconds
        bank = self.bank(player)
        if over <= bank:
            self._bank[player] = bank - max(0.0, over)
            return True
        self._bank[player] = 0.0
        return False

    def timed_out(self, player: str) -> bool:
        """Whether the player's decision under way is past its deadline."""
        deadline = self.deadline(player)
        return deadline is not None and self._clock() > deadline

    def acted(self, player: str) -> None:
        """The player decided in time: their timeouts in a row start again."""
        self._in_a_row[player] = 0

    def timeout(self, player: str, legal: LegalActions, can_protect: bool = True) -> Decision:
        """What the player does who ran out of time (counted as a timeout):
        check when legal, else a protected timeout while they have protections
        left (``policy="protect"``; ``can_protect``: the hand allows one), else fold."""
        self._started.pop(player, None)
        self._in_a_row[player] = self._in_a_row.get(player, 0) + 1
        if legal.check:
            return Decision.check()
        if self.rules.policy == "protect" and can_protect:
            used = self._used(player)
            if len(used) < self.rules.protections_per_day:
                self._protected[player] = [*used, self._wall()]
                return Decision.timeout()
        return Decision.fold()

    def _used(self, player: str) -> list[float]:
        """When the player used the protections that count now: in the last
        24 hours, since the operator's last reset (the others are forgotten)."""
        times = self._protected.get(player)
        if not times:
            return []
        since = self._wall() - PROTECTION_WINDOW
        reset = None if self._resets is None else self._resets(player)
        counted = [at for at in times if at > since and (reset is None or at >= reset)]
        if len(counted) < len(times):
            if counted:
                self._protected[player] = counted
            else:
                del self._protected[player]
        return counted

    def in_a_row(self, player: str) -> int:
        """The player's timeouts since they last decided in time."""
        return self._in_a_row.get(player, 0)

    def protections_left(self, player: str) -> int:
        """Disconnect protections the player has left now (of the last 24 hours'
        ``protections_per_day``)."""
        return self.rules.protections_per_day - len(self._used(player))

    def must_leave(self, player: str) -> bool:
        """Whether the player timed out too often in a row (``free_seat_after``)."""
        limit = self.rules.free_seat_after
        return limit is not None and self.in_a_row(player) >= limit

    def snapshot(self) -> dict[str, Any]:
        """The rules and each player's clocks as JSON data: time banks,
        timeouts in a row, and when each disconnect protection that may still
        count was used (fields ``rules``, ``banks``, ``in_a_row``,
        ``protections``: ``{"player", "at"}``, seconds since the epoch; a
        snapshot of a timer that counted them by day, ``{"player", "day",
        "used"}``, reads as used at that day's start).  A decision
        under way is not kept: its start is a reading of this timer's clock,
        which a timer made again does not share.  :meth:`from_snapshot`
        makes the timer again.

        >>> now = [0.0]
        >>> timer = TurnTimer(TimerRules(seconds=10, time_bank=5), clock=lambda: now[0])
        >>> timer.start("Ann"); now[0] = 12.0
        >>> timer.stop("Ann")
        True
        >>> data = timer.snapshot()
        >>> data["banks"], TurnTimer.from_snapshot(data).bank("Ann")
        ({'Ann': 3.0}, 3.0)
        """
        return snap.write(self, _TIMER_FIELDS)

    @classmethod
    def from_snapshot(
        cls,
        data: Any,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        resets: Callable[[str], float | None] | None = None,
        where: str = "timer",
    ) -> TurnTimer:
        """The timer of a :meth:`snapshot`, its rules and players' clocks, on
        ``clock`` and ``wall``, with ``resets`` (checked: a field missing or
        of the wrong type raises :class:`~holdem.errors.WireError` naming it,
        rules out of bounds :class:`~holdem.errors.ConfigError`)."""
        values = snap.read(data, where, _TIMER_FIELDS)
        timer = cls(values["rules"], clock=clock, wall=wall, resets=resets)
        timer._load(values)
        return timer

    def restore(self, data: Any, *, where: str = "timer") -> None:
        """Takes the players' clocks of a :meth:`snapshot` (time banks,
        timeouts in a row, protections used), in place of its own; it keeps
        its rules and its clocks (the snapshot's rules are checked, not used)."""
        self._load(snap.read(data, where, _TIMER_FIELDS))

    def _load(self, values: dict[str, Any]) -> None:
        self._started = {}
        self._bank = values["banks"]
        self._in_a_row = values["in_a_row"]
        self._protected = values["protections"]


#: A disconnect protection used by a player (when: seconds since the epoch),
#: as a snapshot writes it.
_PROTECTION_FIELDS = (
    Field("player", itemgetter(0), snap.name),
    Field("at", itemgetter(1), snap.number()),
)
#: A day's protections used by a player, as a timer that counted them by the
#: calendar day wrote them (a snapshot of a server before the rolling 24 hours).
_DAY_FIELDS = (
    Field("player", itemgetter(0), snap.name),
    Field("day", itemgetter(1), lambda f, name: _day(f, name)),
    Field("used", itemgetter(2), snap.integer()),
)


def _day(f: Fields, name: str) -> datetime.date:
    text: str = f.text(name)
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise f.error(name, text, f"{quote(text)} is not a date (YYYY-MM-DD)") from None


def _protections(f: Fields, name: str) -> dict[str, list[float]]:
    """When each player used their protections; a day's count (the older
    form) as used at the start of that day, local time: they lapse when the
    day ends, as they did."""
    where = snap.path(f, name)
    used: dict[str, list[float]] = {}
    for i, item in enumerate(snap.items(f, name)):
        old = isinstance(item, dict) and "day" in item
        read = snap.read(item, f"{where}[{i}]", _DAY_FIELDS if old else _PROTECTION_FIELDS)
        if old:
            start = datetime.datetime.combine(read["day"], datetime.time()).timestamp()
            used.setdefault(read["player"], []).extend([start] * read["used"])
        else:
            used.setdefault(read["player"], []).append(read["at"])
    return {player: sorted(times) for player, times in used.items()}


#: The fields of a timer's snapshot.
_TIMER_FIELDS = (
    Field("rules", lambda t: t.rules.to_dict(), snap.record(TimerRules.from_dict)),
    Field("banks", lambda t: dict(t._bank), snap.by_name(snap.number())),
    Field("in_a_row", lambda t: dict(t._in_a_row), snap.by_name(snap.integer())),
    Field(
        "protections",
        lambda t: [
            snap.write((player, at), _PROTECTION_FIELDS)
            for player, times in t._protected.items()
            for at in times
            if at > t._wall() - PROTECTION_WINDOW  # (older ones count no more)
        ],
        _protections,
    ),
)
