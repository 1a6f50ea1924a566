"""Blind schedules of a tournament: levels by hands or by minutes (RULES.md R11).

A :class:`Level` is the forced bets of a stretch of the tournament (small
blind, big blind, ante) and how long it lasts: a number of hands or of
minutes.  A :class:`Schedule` is the levels in order, plus what happens
after the last one: by default the blinds go on rising, so that every
tournament ends.

The default schedule (R11) starts at 10/20 and rises every 10 hands:

>>> schedule = Schedule.default()
>>> [str(level) for level in schedule.first(6)]
['10/20@10h', '12/24@10h', '15/30@10h', '20/40@10h', '25/50@10h', '30/60@10h']
>>> schedule.level_at(hands_played=25, seconds=0.0)
(2, Level(small_blind=15, big_blind=30, ante=0, big_blind_ante=False, hands=10, minutes=None))

**Clean amounts and the rise rule.**  Every amount the schedule makes up
is a *clean* amount: ``1 2 3 4 5 6 8``, then ``10 12 15 20 25 30 40 50 60
80`` times a power of ten (``100 120 150 200 250 ...``): Renard's most
rounded series of preferred numbers (R''10: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5,
6, 8), ten to a decade, in whole chips, the amounts tournament structure
sheets are made of (``1,000/2,000``, ``1,200/2,400``, ``1,500/3,000``).
One level up, the small blind moves to the next clean amount above it,
and the big blind of a level whose big blind is twice its small blind
(every level of the default schedule) is twice the new small blind: R11
wants the big blind always exactly twice the small one (``12/24``,
``80/160``).  A step is 20% to 33% (25.9% on average: ten steps make
exactly ten times as much), which is R11's "about 25%", and the amounts
stay ones a dealer can post with few chips.  The big blind of a level of
another ratio (a custom ``10/25``) moves to the next clean amount on its
own.  An ante moves to the next clean amount, or stays the big blind when
it was the big blind (a big-blind ante's usual size: ``75/150/150bba``,
then ``80/160/160bba``); an ante of 0 stays 0.  An amount that is not
clean (a custom level's 75) first goes to the next clean amount above it
(80).  Amounts stop at ``8 * 10**16``, the largest clean amount the
engine takes (:data:`holdem.config.MAX_CHIPS`), a big blind twice the
small one at ``4 * 10**16 / 8 * 10**16``, about 160 levels up.  The
default schedule is just one level, 10/20 for 10 hands, and this rule.

After the last level of a custom schedule the same rule goes on, one
step per level, each level as long as the last one, unless the schedule
says ``after_last="stay"``.  Rising is the default because a freezeout
must end: with fixed blinds two careful players can trade small pots
forever, while rising blinds force the short stacks all in, and each
all-in can knock a player out (the big blind of a default schedule passes
any stack of ``s`` chips within ``10 * len(str(s))`` levels).

**Levels by hands or by minutes.**  A schedule's levels are all by hands
or all by minutes; a mix is refused: the level of a tournament is found
from the hands played and the time run (:meth:`Schedule.level_at`), and
those two numbers do not say when a level of the other kind ended.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any, Literal

from ..config import _TOO_MANY, MAX_CHIPS, _fail, _is_int
from ..errors import ConfigError, quote
from ..wire import Fields

__all__ = [
    "DEFAULT_HANDS",
    "AfterLast",
    "Level",
    "Schedule",
    "clean_amounts",
    "rise",
]

#: What a schedule does after its last level: go on rising, or stay there.
AfterLast = Literal["rise", "stay"]
_AFTER_LAST = ("rise", "stay")

#: Hands per level when a schedule's text gives no length (R11).
DEFAULT_HANDS = 10

#: Clean amounts below 10: the integers of the series 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8.
_SMALL = (1, 2, 3, 4, 5, 6, 8)
#: One decade of clean amounts from 10 on; the next decade is ten times these.
_DECADE = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)
#: Index of the largest clean amount below MAX_CHIPS (8 * 10**16) in the series.
_TOP = len(_SMALL) + 10 * 15 + 9
#: The largest small blind whose double is a big blind the engine takes.
_TOP_HALF = 4 * 10**16


def _clean(index: int) -> int:
    """The clean amount number ``index`` (0: 1 chip), at most the top one."""
    index = min(index, _TOP)
    if index < len(_SMALL):
        return _SMALL[index]
    decade, step = divmod(index - len(_SMALL), 10)
    scale: int = 10**decade
    return _DECADE[step] * scale


def _index_above(amount: int) -> int:
    """The index of the smallest clean amount above ``amount`` (an int >= 0)."""
    if amount < 10:
        return next((i for i, c in enumerate(_SMALL) if c > amount), len(_SMALL))
    decade = len(str(amount)) - 2  # 10**(decade+1) <= amount < 10**(decade+2)
    scale: int = 10**decade
    step = next((i for i, c in enumerate(_DECADE) if c * scale > amount), 10)
    return len(_SMALL) + 10 * decade + step


def rise(amount: int, steps: int = 1) -> int:
    """``amount`` raised ``steps`` levels by the rise rule (the module's docs).

    >>> rise(10), rise(20), rise(25, 3), rise(75), rise(0), rise(100, 10)
    (12, 25, 50, 80, 0, 1000)
    """
    if amount <= 0 or steps <= 0:
        return amount
    return max(amount, _clean(_index_above(amount) + steps - 1))


def clean_amounts(up_to: int) -> tuple[int, ...]:
    """The clean amounts from 1 to ``up_to``.

    >>> clean_amounts(130)
    (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120)
    """
    out: list[int] = []
    index = 0
    while index <= _TOP and _clean(index) <= up_to:
        out.append(_clean(index))
        index += 1
    return tuple(out)


def _chips(name: str, value: object, least: int) -> None:
    if not _is_int(value) or value < least:  # type: ignore[operator]
        raise _fail(name, value, f"must be an integer of at least {least}")
    if value >= MAX_CHIPS:  # type: ignore[operator]
        raise _fail(name, value, _TOO_MANY)


def _text_number(value: float) -> str:
    """A number of minutes as the text form writes it: ``15``, ``7.5``."""
    return format(Decimal(repr(float(value))).normalize(), "f")


@dataclass(frozen=True, slots=True)
class Level:
    """The forced bets of one level of a tournament, and how long it lasts.

    :param small_blind: the small blind (at least 1 chip).
    :param big_blind: the big blind (at least the small blind).
    :param ante: each player's ante, or with ``big_blind_ante`` the one
        ante the big blind posts for the table; ``0`` for none.
    :param big_blind_ante: the ante is a big-blind ante (:class:`HandConfig`'s
        field of that name).
    :param hands: the level lasts this many hands, or
    :param minutes: it lasts this many minutes (stored as a float).  A
        level of a :class:`Schedule` has exactly one of the two; a level
        on its own may have neither.

    Invalid values raise :class:`~holdem.errors.ConfigError` naming the field:

    >>> Level(25, 50, 5, hands=10)
    Level(small_blind=25, big_blind=50, ante=5, big_blind_ante=False, hands=10, minutes=None)
    >>> Level(30, 20)
    Traceback (most recent call last):
    ...
    holdem.errors.ConfigError: invalid small_blind=30: must be at most the big blind (20)
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    hands: int | None = None
    minutes: float | None = None

    def __post_init__(self) -> None:
        _chips("small_blind", self.small_blind, 1)
        _chips("big_blind", self.big_blind, 1)
        if self.small_blind > self.big_blind:
            raise _fail(
                "small_blind", self.small_blind, f"must be at most the big blind ({self.big_blind})"
            )
        _chips("ante", self.ante, 0)
        if not isinstance(self.big_blind_ante, bool):
            raise _fail("big_blind_ante", self.big_blind_ante, "must be True or False")
        if self.hands is not None and (not _is_int(self.hands) or self.hands < 1):
            raise _fail("hands", self.hands, "must be an integer of at least 1, or None")
        minutes = self.minutes
        if minutes is not None:
            if not isinstance(minutes, int | float) or isinstance(minutes, bool):
                raise _fail("minutes", minutes, "must be a number of minutes, or None")
            if not (math.isfinite(minutes) and minutes > 0):
                raise _fail("minutes", minutes, "must be a number above 0, or None")
            if self.hands is not None:
                raise _fail(
                    "minutes",
                    minutes,
                    f"a level lasts hands or minutes, not both (hands={self.hands})",
                )
            object.__setattr__(self, "minutes", float(minutes))

    @property
    def length(self) -> int | float | None:
        """How long the level lasts: hands, or seconds for a level by minutes."""
        if self.hands is not None:
            return self.hands
        return None if self.minutes is None else self.minutes * 60.0

    def raised(self, steps: int = 1) -> Level:
        """This level ``steps`` steps up by the rise rule (the module's docs),
        as long as this one: a big blind twice the small one stays twice it,
        an ante the size of the big blind stays its size.

        >>> str(Level(25, 50, 5, minutes=15).raised()), str(Level(75, 150, 150, True).raised(2))
        ('30/60/6@15m', '100/200/200bba')
        >>> str(Level(10, 25).raised()), str(Level(80, 160).raised(2))
        ('12/30', '120/240')
        """
        small, big = self.small_blind, self.big_blind
        if big == 2 * small:
            small = max(small, min(rise(small, steps), _TOP_HALF))
            raised = 2 * small
        else:
            small, raised = rise(small, steps), rise(big, steps)
        ante = raised if self.ante == big and self.ante else rise(self.ante, steps)
        return Level(small, raised, ante, self.big_blind_ante, self.hands, self.minutes)

    def format(self, *, length: bool = True) -> str:
        """The level in :meth:`Schedule.parse`'s text form (without its
        length when ``length`` is false); ``str(level)`` is this."""
        text = f"{self.small_blind}/{self.big_blind}"
        if self.ante or self.big_blind_ante:
            text += f"/{self.ante}" + ("bba" if self.big_blind_ante else "")
        if length:
            text += _length_text(self)
        return text

    def __str__(self) -> str:
        return self.format()

    @classmethod
    def parse(cls, text: str) -> Level:
        """One level of :meth:`Schedule.parse`'s text form; without a length
        it has none.

        >>> level = Level.parse("100/200/200bba @20m")
        >>> level.ante, level.big_blind_ante, level.hands, level.minutes
        (200, True, None, 20.0)
        """
        level, length = _parse_level(text, f"invalid level {quote(text)}")
        return level if length is None else _with_length(level, length)

    def to_dict(self) -> dict[str, Any]:
        """The wire form: every field by name, a missing length as null.

        >>> Level(10, 20, hands=10).to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'small_blind': 10, 'big_blind': 20, 'ante': 0, 'big_blind_ante': False,
         'hands': 10, 'minutes': None}
        """
        return {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "big_blind_ante": self.big_blind_ante,
            "hands": self.hands,
            "minutes": self.minutes,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "level") -> Level:
        """The level of :meth:`to_dict`'s form.  Left-out fields take their
        defaults; a field of the wrong type raises :class:`~holdem.errors.WireError`,
        a value the rules refuse :class:`~holdem.errors.ConfigError`."""
        f = Fields(data, where)
        minutes = f.raw("minutes", "a number of minutes or null", default=None)
        if minutes is not None and (
            not isinstance(minutes, int | float) or isinstance(minutes, bool)
        ):
            raise f.error("minutes", minutes, "expected a number of minutes or null")
        fields: dict[str, Any] = dict(
            small_blind=f.integer("small_blind"),
            big_blind=f.integer("big_blind"),
            ante=f.integer("ante", default=0),
            big_blind_ante=f.boolean("big_blind_ante", default=False),
            hands=f.integer("hands", default=None, optional=True),
            minutes=minutes,
        )
        f.done()  # the shape first: an unknown field is a wire error
        return cls(**fields)


def _length_text(level: Level) -> str:
    if level.hands is not None:
        return f"@{level.hands}h"
    if level.minutes is not None:
        return f"@{_text_number(level.minutes)}m"
    return ""


#: A length in the text form: hands (``10h``) or minutes (``15m``, ``7.5m``).
_LENGTH = re.compile(r"(\d+)\s*(h)|(\d+(?:\.\d+)?)\s*(m)", re.IGNORECASE)
_AMOUNT = re.compile(r"\d+")
_ANTE = re.compile(r"(\d+)\s*(bba)?", re.IGNORECASE)
_LEVEL_EXAMPLE = "write a level as small/big blind[/ante], e.g. '15/30' or '25/50/5'"

#: A length: ("hands", n) or ("minutes", x).
_Length = tuple[Literal["hands", "minutes"], float]


def _parse_length(text: str, where: str) -> _Length:
    match = _LENGTH.fullmatch(text.strip())
    if match is None:
        raise ConfigError(
            f"{where}: the length {quote(text.strip())} is not a number of hands ('10h') "
            "or of minutes ('15m')",
            field="schedule",
            value=text,
        )
    length: _Length = (
        ("hands", int(match.group(1)))
        if match.group(1) is not None
        else ("minutes", float(match.group(3)))
    )
    if not (0 < length[1] < math.inf):
        raise ConfigError(
            f"{where}: the length {quote(text.strip())} must be more than 0",
            field="schedule",
            value=text,
        )
    return length


def _with_length(level: Level, length: _Length) -> Level:
    kind, amount = length
    if kind == "hands":
        return Level(
            level.small_blind, level.big_blind, level.ante, level.big_blind_ante, int(amount)
        )
    return Level(
        level.small_blind, level.big_blind, level.ante, level.big_blind_ante, minutes=amount
    )


def _parse_level(text: str, where: str) -> tuple[Level, _Length | None]:
    """A level's blinds and ante, and its own length if it gives one."""
    blinds, at, length_text = text.partition("@")
    length = _parse_length(length_text, where) if at else None
    parts = [part.strip() for part in blinds.split("/")]
    if not 2 <= len(parts) <= 3:
        raise ConfigError(f"{where}: {_LEVEL_EXAMPLE}", field="schedule", value=text)
    names = ("small blind", "big blind")
    amounts: list[int] = []
    for name, part in zip(names, parts, strict=False):
        if _AMOUNT.fullmatch(part) is None:
            raise ConfigError(
                f"{where}: the {name} {quote(part)} is not a whole number of chips "
                f"({_LEVEL_EXAMPLE})",
                field="schedule",
                value=text,
            )
        amounts.append(int(part))
    ante, big_blind_ante = 0, False
    if len(parts) == 3:
        match = _ANTE.fullmatch(parts[2])
        if match is None:
            raise ConfigError(
                f"{where}: the ante {quote(parts[2])} is not a whole number of chips "
                "(or a big-blind ante such as '50bba')",
                field="schedule",
                value=text,
            )
        ante, big_blind_ante = int(match.group(1)), match.group(2) is not None
    try:
        level = Level(amounts[0], amounts[1], ante, big_blind_ante)
    except ConfigError as exc:
        reason = str(exc).removeprefix("invalid ")
        raise ConfigError(f"{where}: {reason}", field="schedule", value=text) from None
    return level, length


@dataclass(frozen=True, slots=True, init=False)
class Schedule:
    """A tournament's blind levels, and what happens after the last one.

    :param levels: one :class:`Level` or more, each with a length; all by
        hands or all by minutes.
    :param after_last: ``"rise"`` (the default): after the last level the
        blinds go on rising by the rise rule, one step per level, each
        level as long as the last one (so every tournament ends; the
        module's docs say why); ``"stay"``: the last level lasts for ever.

    Level ``i`` exists for every ``i >= 0`` (:meth:`level`); with
    ``"stay"`` the levels after the last are the last.

    >>> schedule = Schedule.parse("10/20, 15/30, 25/50/5")
    >>> str(schedule.level(3)), schedule.by_minutes
    ('30/60/6@10h', False)
    """

    levels: tuple[Level, ...]
    after_last: AfterLast
    #: Where each level of ``levels`` ends: hands, or seconds for levels by minutes.
    _ends: tuple[float, ...] = field(repr=False, compare=False)

    def __init__(self, levels: Sequence[Level], after_last: AfterLast = "rise") -> None:
        if isinstance(levels, Level) or not isinstance(levels, Sequence):
            raise _fail("levels", levels, "must be a sequence of levels")
        levels = tuple(levels)
        if not levels:
            raise _fail("levels", levels, "a schedule needs at least one level")
        kinds: list[str] = []
        for i, level in enumerate(levels):
            if not isinstance(level, Level):
                raise _fail("levels", level, f"level {i + 1} is not a Level")
            if level.hands is None and level.minutes is None:
                raise _fail(
                    "levels", level, f"level {i + 1} has no length: give it hands or minutes"
                )
            kinds.append("hands" if level.hands is not None else "minutes")
        if len(set(kinds)) > 1:
            first = kinds[0]
            other = next(i for i, kind in enumerate(kinds) if kind != first)
            raise _fail(
                "levels",
                levels[other],
                f"levels by hands and by minutes cannot be mixed: level 1 is by {first}, "
                f"level {other + 1} by {kinds[other]} (the hands played and the time run "
                "do not say when a level of the other kind ended)",
            )
        if after_last not in _AFTER_LAST:
            raise _fail("after_last", after_last, "must be 'rise' or 'stay'")
        ends: list[float] = []
        total = 0.0
        for level in levels:
            assert level.length is not None
            total += level.length
            ends.append(total)
        object.__setattr__(self, "levels", levels)
        object.__setattr__(self, "after_last", after_last)
        object.__setattr__(self, "_ends", tuple(ends))

    @classmethod
    def default(cls) -> Schedule:
        """R11's schedule: 10/20, rising one step every 10 hands, for ever, the
        big blind always twice the small one.

        >>> Schedule.default() == Schedule([Level(10, 20, hands=10)], after_last="rise")
        True
        """
        return _DEFAULT  # (immutable: one for every tournament)

    @property
    def by_minutes(self) -> bool:
        """The levels last minutes (else hands)."""
        return self.levels[0].minutes is not None

    def level(self, index: int) -> Level:
        """Level ``index`` (from 0), also past the last given level.

        >>> Schedule.default().level(10)
        Level(small_blind=100, big_blind=200, ante=0, big_blind_ante=False, hands=10, minutes=None)
        """
        if not _is_int(index) or index < 0:
            raise _fail("index", index, "must be an integer of at least 0")
        given = len(self.levels)
        if index < given:
            return self.levels[index]
        last = self.levels[-1]
        return last if self.after_last == "stay" else _raised(last, index - given + 1)

    def first(self, count: int) -> tuple[Level, ...]:
        """Levels 0 to ``count - 1``."""
        return tuple(self.level(i) for i in range(count))

    def level_at(self, hands_played: int, seconds: float = 0.0) -> tuple[int, Level]:
        """The level (its index from 0, and the level) of the next hand of a
        tournament that has played ``hands_played`` hands in ``seconds``
        seconds.

        Levels by hands count ``hands_played``; levels by minutes count
        ``seconds`` (from an injected clock: the schedule reads no time).
        A level that ends at exactly that count is over.  A level changes
        between hands: the caller asks before dealing each hand.

        >>> timed = Schedule.parse("@15m, 10/20, 15/30")
        >>> [timed.level_at(40, seconds)[0] for seconds in (0.0, 899.5, 900.0, 1800.0)]
        [0, 0, 1, 2]
        >>> str(timed.level_at(40, 1800.0)[1])
        '20/40@15m'
        """
        if not _is_int(hands_played) or hands_played < 0:
            raise _fail("hands_played", hands_played, "must be an integer of at least 0")
        if (
            not isinstance(seconds, int | float)
            or isinstance(seconds, bool)
            or not (math.isfinite(seconds) and seconds >= 0)
        ):
            raise _fail("seconds", seconds, "must be a number of seconds of at least 0")
        count: float = seconds if self.by_minutes else hands_played
        index = bisect_right(self._ends, count)
        given = len(self.levels)
        if index >= given:
            if self.after_last == "stay":
                index = given - 1
            else:
                length = self.levels[-1].length
                assert length is not None
                index = given + int((count - self._ends[-1]) // length)
        return index, self.level(index)

    def end_of(self, index: int) -> float:
        """Where level ``index`` ends: the hands played (or, by minutes, the
        seconds run) from which :meth:`level_at` gives a later level; ``inf``
        for the last level of a schedule that stays there.

        >>> Schedule.parse("10/20@5h, 20/40@8h").end_of(1), Schedule.default().end_of(3)
        (13.0, 40.0)
        """
        if not _is_int(index) or index < 0:
            raise _fail("index", index, "must be an integer of at least 0")
        ends, given = self._ends, len(self.levels)
        if index < given - 1 or (index < given and self.after_last == "rise"):
            return ends[index]
        if self.after_last == "stay":
            return math.inf
        length = self.levels[-1].length
        assert length is not None
        return ends[-1] + (index - given + 1) * length

    def format(self) -> str:
        """The schedule in :meth:`parse`'s text form; ``str(schedule)`` is this.

        >>> str(Schedule.default()), Schedule.parse("10/20@15m, 20/40@20m, stay").format()
        ('10/20@10h', '10/20@15m, 20/40@20m, stay')
        """
        lengths = {_length_text(level) for level in self.levels}
        if len(self.levels) > 1 and len(lengths) == 1:
            parts = [lengths.pop()] + [level.format(length=False) for level in self.levels]
        else:
            parts = [level.format() for level in self.levels]
        if self.after_last == "stay":
            parts.append("stay")
        return ", ".join(parts)

    def __str__(self) -> str:
        return self.format()

    @classmethod
    def parse(cls, text: str) -> Schedule:
        """A schedule from its short text form (for the command line).

        The form is items separated by commas:

        - a level, ``SB/BB`` or ``SB/BB/ANTE`` in whole chips
          (``25/50/5``); an ante written ``50bba`` is a big-blind ante
          (``100/200/200bba``); a level may end with its own length,
          ``@10h`` (10 hands) or ``@15m`` (15 minutes; ``@7.5m`` too);
          ``h`` is hands, never hours;
        - ``@10h`` or ``@15m`` alone: the length of every level that does
          not give its own (without one anywhere: 10 hands);
        - last, ``stay`` or ``rise``: what happens after the last level
          (default ``rise``, see :class:`Schedule`).

        Spaces around items and numbers do not matter, letters are read
        in either case.

        >>> str(Schedule.parse("10/20, 15/30, 25/50/5"))
        '@10h, 10/20, 15/30, 25/50/5'
        >>> str(Schedule.parse("@20m, 100/200, 150/300/300bba, 200/400/400bba@30m, stay"))
        '100/200@20m, 150/300/300bba@20m, 200/400/400bba@30m, stay'
        >>> Schedule.parse("10/20, 15/x")
        Traceback (most recent call last):
        ...
        holdem.errors.ConfigError: invalid schedule: level 2 '15/x': the big blind 'x' is not ...
        """
        if not isinstance(text, str):
            raise _fail("schedule", text, "must be text such as '10/20, 15/30, 25/50/5'")
        items = [item.strip() for item in text.split(",")]
        if items == [""]:
            raise ConfigError(
                "invalid schedule: it is empty; give levels such as '10/20, 15/30, 25/50/5'",
                field="schedule",
                value=text,
            )
        parsed: list[tuple[Level, _Length | None]] = []
        default: _Length | None = None
        after_last: AfterLast = "rise"
        for position, item in enumerate(items, 1):
            word = item.lower()
            if word in _AFTER_LAST:
                if position != len(items):
                    raise ConfigError(
                        f"invalid schedule: {quote(item)} (what happens after the last "
                        f"level) must be the last item, not item {position}",
                        field="schedule",
                        value=text,
                    )
                after_last = "rise" if word == "rise" else "stay"
            elif item.startswith("@"):
                if default is not None:
                    raise ConfigError(
                        f"invalid schedule: two lengths for every level ({quote(item)} is "
                        "the second); give one, and write a level's own length after it "
                        "('25/50@20m')",
                        field="schedule",
                        value=text,
                    )
                default = _parse_length(item[1:], f"invalid schedule: item {position}")
            elif not item:
                raise ConfigError(
                    f"invalid schedule: item {position} is empty (two commas in a row, "
                    "or one at an end?)",
                    field="schedule",
                    value=text,
                )
            else:
                where = f"invalid schedule: level {len(parsed) + 1} {quote(item)}"
                parsed.append(_parse_level(item, where))
        if not parsed:
            raise ConfigError(
                f"invalid schedule: {quote(text)} has no levels; give levels such as "
                "'10/20, 15/30, 25/50/5'",
                field="schedule",
                value=text,
            )
        fallback: _Length = default or ("hands", DEFAULT_HANDS)
        levels = [_with_length(level, length or fallback) for level, length in parsed]
        try:
            return cls(levels, after_last)
        except ConfigError as exc:
            reason = str(exc).partition(": ")[2]
            raise ConfigError(f"invalid schedule: {reason}", field="schedule", value=text) from None

    def to_dict(self) -> dict[str, Any]:
        """The wire form: the levels, and ``after_last``.

        >>> Schedule.default().to_dict()["after_last"]
        'rise'
        """
        return {
            "levels": [level.to_dict() for level in self.levels],
            "after_last": self.after_last,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "schedule") -> Schedule:
        """The schedule of :meth:`to_dict`'s form (``after_last`` may be left
        out: ``"rise"``).  A field of the wrong type raises
        :class:`~holdem.errors.WireError`, a value the rules refuse
        :class:`~holdem.errors.ConfigError`."""
        f = Fields(data, where)
        raw = f.raw("levels", "a list of levels")
        if not isinstance(raw, list):
            raise f.error("levels", raw, "expected a list of levels")
        levels = [Level.from_dict(item, f"{where}.levels[{i}]") for i, item in enumerate(raw)]
        after_last = f.raw("after_last", "'rise' or 'stay'", default="rise")
        if after_last not in _AFTER_LAST:
            raise f.error("after_last", after_last, f"{quote(after_last)} is not one of rise, stay")
        f.done()
        return cls(levels, after_last)


#: The default schedule (see Schedule.default)
_DEFAULT = Schedule((Level(10, 20, hands=DEFAULT_HANDS),))


@lru_cache(maxsize=1024)
def _raised(level: Level, steps: int) -> Level:
    """``level.raised(steps)``, remembered: a tournament asks for its level every hand."""
    return level.raised(steps)
