"""Freezeout tournaments (RULES.md R11): one table, everyone starting with the
same stack, blinds rising by a schedule, players with no chips eliminated and
placed, the last player with chips the winner.

>>> from holdem import Decision
>>> game = Tournament(["Ann", "Bob", "Cid"], stack=200, rng=4)
>>> result = game.run(lambda view, legal: Decision.all_in() if legal.all_in else Decision.check())
>>> result.winner in ("Ann", "Bob", "Cid"), [p.place for p in result.places]
(True, [1, 2, 2])
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from operator import attrgetter
from types import FunctionType
from typing import Any

from ..config import MAX_CHIPS, HeadsUpCap, Structure
from ..errors import ConfigError, TableError
from ..hand import Hand
from ..units import ONE
from . import snapshot as snap
from .events import Event, LevelUp, PlayerEliminated
from .schedule import Level, Schedule
from .seating import ButtonPolicy
from .snapshot import Field
from .standings import Placing, Standings, TournamentResult, eliminators
from .table import Decide, HandResult, Table
from .timer import TurnTimer

__all__ = ["Tournament"]


class Tournament:
    """A freezeout at one table of ``seats`` seats (default: one per player),
    the players seated in the order given from seat 0, each with ``stack``
    chips; the blinds by ``schedule`` (default :meth:`Schedule.default`: 10/20
    rising about 25% every 10 hands), by hands played or by ``clock``'s
    seconds.  Players are named by their names (distinct).  Fixed-limit:
    ``raise_cap`` raises after the bet, a cap that applies heads-up too
    (``heads_up_cap``, default None: ``never``, R8); the other options are
    :class:`Table`'s (``unit``, the chip unit, too: the stack and the blinds
    are in chips)."""

    def __init__(
        self,
        players: Sequence[str],
        *,
        stack: int = 1500,
        seats: int | None = None,
        schedule: Schedule | None = None,
        structure: Structure | str = Structure.NO_LIMIT,
        button_policy: ButtonPolicy = "dead",
        button: int | None = None,
        timer: TurnTimer | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: int | random.Random | None = None,
        raise_cap: int = 3,
        heads_up_cap: HeadsUpCap | str | None = None,
        show_after_hand: bool = True,
        aggressor_may_muck: bool = False,
        run_it_twice: bool = False,
        unit: Decimal | str | int = ONE,
    ) -> None:
        names = list(players)
        standings = Standings(names)  # checks the names
        schedule = schedule if schedule is not None else Schedule.default()
        level_index, level = schedule.level_at(0, 0.0)
        table = Table(
            len(names) if seats is None else seats,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            big_blind_ante=level.big_blind_ante,
            structure=structure,
            button_policy=button_policy,
            tournament=True,
            rng=rng,
            button=button,
            timer=timer,
            raise_cap=raise_cap,
            heads_up_cap=heads_up_cap,
            show_after_hand=show_after_hand,
            aggressor_may_muck=aggressor_may_muck,
            run_it_twice=run_it_twice,
            unit=unit,
        )
        if len(names) > table.max_seats:
            raise ConfigError(
                f"{len(names)} players at a table of {table.max_seats} seats",
                field="seats",
                value=seats,
            )
        table.set_blinds(level)  # (the schedule's own level: with its length)
        for seat, name in enumerate(names):
            table.sit(seat, name, stack)
        self._setup(standings, schedule, stack, table, level_index, clock, None)

    def _setup(
        self,
        standings: Standings,
        schedule: Schedule,
        stack: int,
        table: Table,
        level_index: int,
        clock: Callable[[], float],
        began: float | None,
    ) -> None:
        """The tournament's state: a new one's, or one made from a snapshot."""
        self.standings = standings
        self.schedule = schedule
        #: the chips everyone started with
        self.stack = stack
        self.table = table
        #: the level of the last hand dealt (of the first hand, before it)
        self.level_index = level_index
        self._level_end = schedule.end_of(level_index)
        self._clock = clock
        self._began = began  # (on the clock: None before the first hand)
        self._names = dict(enumerate(standings.players))  # (seated in order from seat 0)
        self._seat_of = {name: seat for seat, name in self._names.items()}

    @property
    def level(self) -> Level:
        """The level the next hand is played at."""
        return self.schedule.level(self.level_index)

    @property
    def finished(self) -> bool:
        """One player has every chip (asked every hand: kept, not worked out)."""
        return self.standings.finished

    def subscribe(self, listener: Callable[[Event], None]) -> None:
        """Calls ``listener(event)`` for every event of the tournament's table."""
        self.table.subscribe(listener)

    def _raise_blinds(self) -> None:
        schedule = self.schedule
        seconds = 0.0 if self._began is None else self._clock() - self._began
        index, level = schedule.level_at(self.table.hands_played, seconds)
        if index != self.level_index:
            self.level_index = index
            self._level_end = schedule.end_of(index)
            self.table.set_blinds(level)
            if self.table.wants(LevelUp):
                self.table.emit(
                    LevelUp(
                        level=index,
                        hand=self.table.hands_played + 1,
                        small_blind=level.small_blind,
                        big_blind=level.big_blind,
                        ante=level.ante,
                        big_blind_ante=level.big_blind_ante,
                    )
                )

    def play_hand(self, players: Decide | Mapping[str, Decide]) -> HandResult:
        """Plays the next hand at the current level: each decision asked of
        ``players`` (one for everybody, or one per name).  Players left with
        no chips are eliminated and placed."""
        self._before_hand()
        by_seat: Decide | Mapping[int, Decide]
        if type(players) is not FunctionType and isinstance(players, Mapping):
            by_seat = {seat: players[name] for seat, name in self._names.items()}
        else:
            by_seat = players
        result = self.table.play_hand(by_seat)
        if result.busted:
            self._after_hand(result)
        return result

    def start_hand(self) -> Hand:
        """Deals the next hand at the current level, for a caller that drives
        each decision itself (``table.act``, ``table.time_out``); then
        :meth:`finish_hand`."""
        self._before_hand()
        return self.table.start_hand()

    def finish_hand(self) -> HandResult:
        """Ends the hand :meth:`start_hand` dealt (it must be over): players
        left with no chips are eliminated and placed."""
        result = self.table.finish_hand()
        if result.busted:
            self._after_hand(result)
        return result

    def _before_hand(self) -> None:
        if self.standings.finished:
            raise TableError("the tournament is over")
        if self._began is None:
            self._began = self._clock()
        if self.schedule.by_minutes or self.table.hands_played >= self._level_end:
            self._raise_blinds()

    def _after_hand(self, result: HandResult) -> None:
        placed = self._eliminate(result)
        if not self.table.wants(PlayerEliminated):
            return
        seat_of = self._seat_of
        for placing in placed:
            out = placing.elimination
            assert out is not None
            self.table.emit(
                PlayerEliminated(
                    seat=seat_of[placing.player],
                    name=placing.player,
                    place=placing.place,
                    hand=out.hand_number,
                    by=out.eliminated_by,
                )
            )

    def _eliminate(self, result: HandResult) -> tuple[Placing, ...]:
        """Places the players the hand busted (the table's own result: good)."""
        names, outcome, dealt, before = (
            self._names,
            result.outcome,
            result.plan.dealt,
            result.chips_before,
        )
        placed = self.standings._record(
            result.hand,
            [
                (
                    names[s],
                    before[dealt.index(s)],
                    tuple([names[w] for w in eliminators(outcome, s)]),
                )
                for s in result.busted
            ],
        )
        return placed

    def run(
        self, players: Decide | Mapping[str, Decide], *, max_hands: int | None = None
    ) -> TournamentResult:
        """Plays until one player has every chip (or ``max_hands`` more hands,
        then :class:`~holdem.errors.TableError`); the result."""
        played = 0
        while not self.finished:
            if max_hands is not None and played >= max_hands:
                raise TableError(f"the tournament did not end in {max_hands} hands")
            self.play_hand(players)
            played += 1
        return self.result()

    def result(self) -> TournamentResult:
        """The places, each player's elimination (hand, by whom) and the winner."""
        return self.standings.result()

    # ---------------------------------------------------------------- snapshots

    def snapshot(self) -> dict[str, Any]:
        """The tournament between hands as JSON data: the starting ``stack``,
        the ``schedule``, the ``level`` reached (its index) and the
        ``seconds`` played (None before the first hand), the ``standings``
        (the players, the places of those out and their eliminations) and
        the ``table`` (:meth:`Table.snapshot`).  During a hand it raises
        :class:`~holdem.errors.TableError`.  :meth:`from_snapshot` makes the
        tournament again; the time it was not running does not count."""
        return snap.write(self, _TOURNAMENT_FIELDS)

    @classmethod
    def from_snapshot(
        cls,
        data: Any,
        *,
        rng: int | random.Random | None = None,
        timer: TurnTimer | None = None,
        clock: Callable[[], float] = time.monotonic,
        where: str = "tournament",
    ) -> Tournament:
        """The tournament of a :meth:`snapshot`, dealing from ``rng``, its
        levels by minutes on ``clock`` (from the seconds it had played),
        ``timer`` as in :meth:`Table.from_snapshot`.  Given the same ``rng``
        and decisions it plays on as the tournament the snapshot was taken
        of would have, to the same result.  A snapshot whose parts do not
        agree (the players seated are not those still in, at their seats;
        the table's blinds are not the level's) raises
        :class:`~holdem.errors.ConfigError` naming the field, as a field
        of the wrong type raises :class:`~holdem.errors.WireError`."""
        v = snap.read(data, where, _TOURNAMENT_FIELDS)
        table = Table.from_snapshot(v["table"], rng=rng, timer=timer, where=f"{where}.table")
        standings: Standings = v["standings"]
        _check_resumed(table, standings, v["schedule"].level(v["level"]), where)
        seconds: float | None = v["seconds"]
        game = cls.__new__(cls)
        began = None if seconds is None else clock() - seconds
        game._setup(standings, v["schedule"], v["stack"], table, v["level"], clock, began)
        return game

    def _seconds(self) -> float | None:
        """The seconds played on the clock since the first hand (None before it)."""
        return None if self._began is None else self._clock() - self._began


def _check_resumed(table: Table, standings: Standings, level: Level, where: str) -> None:
    """Refuses a tournament's snapshot whose parts do not agree."""
    if not table.tournament:
        raise _refused(f"{where}.table.tournament", False, "a tournament's table is one")
    players = standings.players
    if len(players) > table.max_seats:
        raise _refused(
            f"{where}.standings.players",
            players,
            f"{len(players)} players at a table of {table.max_seats} seats",
        )
    seated = {seat: s.name for seat, s in table.seats.items()}
    remaining = set(standings.remaining)
    expected = {seat: name for seat, name in enumerate(players) if name in remaining}
    if seated != expected:
        raise _refused(
            f"{where}.table.players",
            seated,
            f"the players still in, at their seats, are {expected}, not {seated}",
        )
    b = table.blinds
    if (b.small_blind, b.big_blind, b.ante, b.big_blind_ante) != (
        level.small_blind,
        level.big_blind,
        level.ante,
        level.big_blind_ante,
    ):
        raise _refused(
            f"{where}.level", level, f"the table's blinds {b} are not the level's, {level}"
        )
    if standings.last_hand > table.hands_played:
        raise _refused(
            f"{where}.standings.hands",
            table.hands_played,
            f"a player went out after the {table.hands_played} hands the table played",
        )


def _refused(field: str, value: object, why: str) -> ConfigError:
    return ConfigError(f"{field}: {why}", field=field, value=value)


#: The fields of a tournament's snapshot (Tournament.snapshot, .from_snapshot).
_TOURNAMENT_FIELDS = (
    Field("version", lambda g: snap.SNAPSHOT_VERSION, snap.version),
    Field("stack", attrgetter("stack"), snap.integer(minimum=1, maximum=MAX_CHIPS - 1)),
    Field("schedule", lambda g: g.schedule.to_dict(), snap.record(Schedule.from_dict)),
    Field("level", attrgetter("level_index"), snap.integer()),
    Field("seconds", lambda g: g._seconds(), snap.number(optional=True)),
    Field("standings", lambda g: g.standings.to_dict(), snap.record(Standings.from_dict)),
    Field("table", lambda g: g.table.snapshot(), snap.raw_object()),
)
