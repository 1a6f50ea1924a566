"""Cash games (RULES.md R12): fixed blinds, buy-ins between a minimum and a
maximum, chips added and players leaving only between hands, sessions limited
by hands or time, an optional rake, and each player's result.

>>> from holdem import Decision
>>> game = CashGame(small_blind=1, big_blind=2, max_hands=5, rng=1)
>>> for seat, name in enumerate(["Ann", "Bob", "Cid"]):
...     game.join(seat, name, 200)
>>> results = game.play(lambda view, legal: Decision.check() if legal.check else Decision.fold())
>>> game.hands_played, sum(r.net for r in results.values())
(5, 0)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter
from typing import Any

from ..config import HeadsUpCap, Structure
from ..errors import ConfigError, TableError
from ..hand import Hand
from ..units import ONE
from . import snapshot as snap
from .seating import ButtonPolicy
from .snapshot import Field
from .table import Decide, HandResult, Rake, Table
from .timer import TurnTimer

__all__ = ["CashGame", "CashResult"]


@dataclass(frozen=True, slots=True)
class CashResult:
    """One player's session: chips bought in, chips taken away (or held now),
    and the difference."""

    name: str
    bought_in: int
    cashed_out: int
    hands: int

    @property
    def net(self) -> int:
        return self.cashed_out - self.bought_in


class CashGame:
    """A cash table: ``small_blind``/``big_blind`` fixed, buy-ins from
    ``min_buy_in`` to ``max_buy_in`` (default 40 and 100 big blinds), the
    session over after ``max_hands`` hands or ``max_seconds`` seconds on
    ``clock`` (None: no limit).  Fixed-limit: ``raise_cap`` raises after the
    bet, lifted for two players by ``heads_up_cap`` (default None: ``two_left``;
    ``never``: the cap always applies, R8).  The other options are
    :class:`Table`'s (the chip unit ``unit`` too: every amount, buy-ins included,
    is in chips)."""

    def __init__(
        self,
        seats: int = 6,
        *,
        small_blind: int,
        big_blind: int,
        min_buy_in: int | None = None,
        max_buy_in: int | None = None,
        rake: Rake | None = None,
        structure: Structure | str = Structure.NO_LIMIT,
        button_policy: ButtonPolicy = "dead",
        max_hands: int | None = None,
        max_seconds: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        timer: TurnTimer | None = None,
        rng: int | random.Random | None = None,
        raise_cap: int = 3,
        heads_up_cap: HeadsUpCap | str | None = None,
        show_after_hand: bool = True,
        aggressor_may_muck: bool = False,
        run_it_twice: bool = False,
        unit: Decimal | str | int = ONE,
    ) -> None:
        table = Table(
            seats,
            small_blind=small_blind,
            big_blind=big_blind,
            structure=structure,
            button_policy=button_policy,
            rake=rake,
            timer=timer,
            rng=rng,
            raise_cap=raise_cap,
            heads_up_cap=heads_up_cap,
            show_after_hand=show_after_hand,
            aggressor_may_muck=aggressor_may_muck,
            run_it_twice=run_it_twice,
            unit=unit,
        )
        self._setup(table, min_buy_in, max_buy_in, max_hands, max_seconds, clock, None)

    def _setup(
        self,
        table: Table,
        min_buy_in: int | None,
        max_buy_in: int | None,
        max_hands: int | None,
        max_seconds: float | None,
        clock: Callable[[], float],
        began: float | None,
    ) -> None:
        """The game's state (checked): a new one's, or one made from a snapshot."""
        self.table = table
        big_blind = table.blinds.big_blind
        for name, value, whole in (("min_buy_in", min_buy_in, True),
                                   ("max_buy_in", max_buy_in, True),
                                   ("max_hands", max_hands, True),
                                   ("max_seconds", max_seconds, False)):  # fmt: skip
            if value is None:
                continue
            kinds = int if whole else int | float
            if (
                isinstance(value, bool)
                or not isinstance(value, kinds)
                or (not whole and not math.isfinite(value))
            ):
                what = "a whole number" if whole else "a finite number of seconds"
                raise ConfigError(f"{name} is {what}, not {value!r}", field=name, value=value)
        self.min_buy_in = 40 * big_blind if min_buy_in is None else min_buy_in
        self.max_buy_in = 100 * big_blind if max_buy_in is None else max_buy_in
        if not 0 < self.min_buy_in <= self.max_buy_in:
            raise ConfigError(
                f"buy-ins from {self.min_buy_in} to {self.max_buy_in}: the minimum must be "
                "positive and at most the maximum",
                field="min_buy_in",
                value=self.min_buy_in,
            )
        for name, limit in (("max_hands", max_hands), ("max_seconds", max_seconds)):
            if limit is not None and not limit > 0:
                raise ConfigError(
                    f"{name} must be positive, not {limit!r}", field=name, value=limit
                )
        self.max_hands = max_hands
        self.max_seconds = max_seconds
        self._clock = clock
        self._began = began  # (on the clock: None before the first hand)
        # chips added during the hand being played (by seat), and that hand's number
        self._pending: dict[int, int] = {}
        self._pending_hand = 0

    @property
    def hands_played(self) -> int:
        return self.table.hands_played

    def join(self, seat: int, name: str, buy_in: int, *, post: bool = False) -> None:
        """A player sits down with ``buy_in`` chips (within the table's limits)."""
        self._check_buy_in(name, buy_in)
        self.table.sit(seat, name, buy_in, post=post)

    def _check_buy_in(self, name: str, chips: int) -> None:
        if isinstance(chips, bool) or not isinstance(chips, int):
            raise TableError(f"{name}: a buy-in is a whole number of chips, not {chips!r}")
        if not self.min_buy_in <= chips <= self.max_buy_in:
            raise TableError(
                f"{name}: a stack of {chips} is outside this table's buy-in "
                f"({self.min_buy_in} to {self.max_buy_in})"
            )

    def add_chips(self, seat: int, chips: int) -> bool:
        """A top-up (or a rebuy) of ``chips``, the stack at most the maximum
        buy-in: at once between hands (True); during a hand the player is in,
        before the next one (False: the chips are not in play in this hand)."""
        table = self.table
        stack = table.stack(seat)  # (an empty seat: TableError)
        pending = 0  # added during the hand being played, not yet on the stack
        if table.hand is not None:
            if self._pending_hand != table.hands_played:
                self._pending, self._pending_hand = {}, table.hands_played
            pending = self._pending.get(seat, 0)
        if (
            type(chips) is int or (isinstance(chips, int) and not isinstance(chips, bool))
        ) and chips > 0:
            total = stack + pending + chips
            if total > self.max_buy_in:
                name = table.seats[seat].name
                waiting = f" (+ {pending} added after this hand)" if pending else ""
                raise TableError(
                    f"{name}: {stack}{waiting} + {chips} chips is more than this "
                    f"table's maximum buy-in of {self.max_buy_in}",
                    seat=seat,
                )
            if not stack + pending and chips < self.min_buy_in:  # a rebuy is a buy-in (R12)
                raise TableError(
                    f"{table.seats[seat].name}: a rebuy of {chips} is below this table's "
                    f"minimum buy-in of {self.min_buy_in}",
                    seat=seat,
                )
        now = table.add_chips(seat, chips, most=self.max_buy_in, least=self.min_buy_in)
        if not now:
            self._pending[seat] = pending + chips
        return now

    def leave(self, seat: int) -> bool:
        """The player leaves with their chips (after the hand they are in)."""
        return self.table.leave(seat)

    @property
    def over(self) -> bool:
        """Whether the session has reached its limit of hands or time."""
        if self.max_hands is not None and self.hands_played >= self.max_hands:
            return True
        return (
            self.max_seconds is not None
            and self._began is not None
            and self._clock() - self._began >= self.max_seconds
        )

    def play_hand(self, players: Decide | Mapping[int, Decide]) -> HandResult:
        """Plays one hand (see :meth:`Table.play_hand`)."""
        self._before_hand()
        return self.table.play_hand(players)

    def start_hand(self) -> Hand:
        """Deals one hand for a caller that drives each decision itself (see
        :meth:`Table.start_hand`); ``table.finish_hand()`` ends it."""
        self._before_hand()
        return self.table.start_hand()

    def _before_hand(self) -> None:
        if self.over:
            raise TableError("the session is over")
        if self._began is None:
            self._began = self._clock()

    def play(self, players: Decide | Mapping[int, Decide]) -> dict[str, CashResult]:
        """Plays until the session is over or fewer than two players can be
        dealt in; then everyone leaves with their chips.  The results by name."""
        while not self.over and self.table.can_deal():
            self.play_hand(players)
        for seat in list(self.table.seats):
            self.table.leave(seat)
        return self.results()

    # ---------------------------------------------------------------- snapshots

    def snapshot(self) -> dict[str, Any]:
        """The game between hands as JSON data: the buy-in limits
        (``min_buy_in``, ``max_buy_in``), the session's (``max_hands``,
        ``max_seconds``), the ``seconds`` played (None before the first
        hand) and the ``table`` (:meth:`Table.snapshot`: the players, and
        the ledger :meth:`results` reads).  During a hand it raises
        :class:`~holdem.errors.TableError`.  Top-ups asked for during a
        hand are on the stacks when it is over (:meth:`Table.finish_hand`):
        a snapshot has none waiting.  :meth:`from_snapshot` makes the game
        again; the time it was not running does not count."""
        return snap.write(self, _CASH_FIELDS)

    @classmethod
    def from_snapshot(
        cls,
        data: Any,
        *,
        rng: int | random.Random | None = None,
        timer: TurnTimer | None = None,
        clock: Callable[[], float] = time.monotonic,
        where: str = "cash_game",
    ) -> CashGame:
        """The game of a :meth:`snapshot`, dealing from ``rng``, its session
        time on ``clock`` (from the seconds it had played), ``timer`` as in
        :meth:`Table.from_snapshot`; the data checked as there."""
        v = snap.read(data, where, _CASH_FIELDS)
        if v["table"].get("tournament") is True:  # (before its players are read as one's)
            field = f"{where}.table.tournament"
            raise ConfigError(f"{field}: a cash game's table is not a tournament's", field=field)
        table = Table.from_snapshot(v["table"], rng=rng, timer=timer, where=f"{where}.table")
        seconds: float | None = v["seconds"]
        game = cls.__new__(cls)
        began = None if seconds is None else clock() - seconds
        limits = (v["min_buy_in"], v["max_buy_in"], v["max_hands"], v["max_seconds"])
        try:
            game._setup(table, *limits, clock, began)
        except ConfigError as exc:
            raise snap.located(where, exc) from None
        return game

    def _seconds(self) -> float | None:
        """The seconds played on the clock since the first hand (None before it)."""
        return None if self._began is None else self._clock() - self._began

    def results(self) -> dict[str, CashResult]:
        """Each player's session so far (chips still on the table count as theirs)."""
        held: dict[str, int] = {s.name: s.chips for s in self.table.seats.values()}
        return {
            name: CashResult(
                name=name,
                bought_in=ledger.brought,
                cashed_out=ledger.taken + held.get(name, 0),
                hands=ledger.hands,
            )
            for name, ledger in self.table.ledger().items()
        }


#: The fields of a cash game's snapshot (CashGame.snapshot, .from_snapshot).
_CASH_FIELDS = (
    Field("version", lambda g: snap.SNAPSHOT_VERSION, snap.version),
    Field("min_buy_in", attrgetter("min_buy_in"), snap.integer(minimum=1)),
    Field("max_buy_in", attrgetter("max_buy_in"), snap.integer(minimum=1)),
    Field("max_hands", attrgetter("max_hands"), snap.integer(minimum=1, optional=True)),
    Field("max_seconds", attrgetter("max_seconds"), snap.number(optional=True)),
    Field("seconds", lambda g: g._seconds(), snap.number(optional=True)),
    Field("table", lambda g: g.table.snapshot(), snap.raw_object()),
)
