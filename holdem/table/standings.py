"""Who went out when, and the places of a freezeout (RULES.md R11).

Players are named by an id the table chooses (``player: str``): a name, or
a seat number written as text; the ids of one tournament are distinct.

**Places.**  A player who goes out takes the worst place still free: with
``n`` players, the first out is ``n``-th.  Players who go out in the same
hand are placed by the chips they started that hand with: more chips, the
better place (R11, as in the TDA rules: players out on the same hand
finish in the order of their chips at the start of that hand).  Equal chips tie:
the tied players share the best of the places they cover, and the places
they cover are used up, the "1224" ranking of sports and card rooms: of
four players, two going out together with equal stacks are both 3rd, and
nobody is 4th (by TDA practice they also share the prize money of 3rd and
4th).  The last player with chips is 1st.

>>> standings = Standings(["ann", "bob", "cid", "dan"])
>>> _ = standings.record_hand(7, {"bob": 300, "cid": 300}, ["bob", "cid"], {"bob": ("ann",)})
>>> [(p.place, p.player) for p in standings.record_hand(12, {"dan": 80}, ["dan"], {})]
[(2, 'dan')]
>>> result = standings.result()
>>> [(p.place, p.player) for p in result.places], result.winner, result.hands
([(1, 'ann'), (2, 'dan'), (3, 'bob'), (3, 'cid')], 'ann', 12)

**Who knocked a player out** (:func:`eliminators`): the players who won
the chips the player lost, that is the winners of every pot the player
could win (they cannot win a pot above their own all-in, and their chips
are in each pot up to it).  The last side pot (the highest one the player
was in) comes first, as pots are awarded (R9); within a pot the winners
come in the pot's order (clockwise from the first seat left of the
button).  A winner who got no chip of a split pot (an odd chip too few to
share) did not win any of them and is left out of that pot's list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from ..config import _is_int
from ..errors import ConfigError, quote
from ..pots import Outcome
from ..wire import Fields
from .snapshot import located

__all__ = ["Elimination", "Placing", "Standings", "TournamentResult", "eliminators"]


def _fail(name: str, value: object, why: str) -> ConfigError:
    return ConfigError(f"invalid {name}={quote(value)}: {why}", field=name, value=value)


def _check_player(name: str, value: object) -> None:
    if not value or (type(value) is not str and not isinstance(value, str)):
        raise _fail(name, value, "a player is a non-empty string (an id the table chooses)")


def eliminators(outcome: Outcome, seat: int) -> tuple[int, ...]:
    """The seats that won the chips of ``seat``, a player who went out in the
    hand of ``outcome``: the winners of the pots ``seat`` was eligible for,
    the last (highest) pot first, each seat once (the module's docs).

    Seat 0 all in for 100, seat 1 for 200, seats 2 and 3 put in 300 each;
    seat 3 wins the main pot, seat 2 both side pots:

    >>> from holdem.pots import Pot
    >>> pots = (Pot(400, (0, 1, 2, 3), (3,), (400,)), Pot(300, (1, 2, 3), (2,), (300,)),
    ...         Pot(200, (2, 3), (2,), (200,)))
    >>> outcome = Outcome(pots, (), (), (0,) * 4, (-100, -200, 200, 100), (0, 0, 800, 400), True)
    >>> eliminators(outcome, 0), eliminators(outcome, 1)
    ((3,), (2, 3))
    """
    out: list[int] = []
    for pot in reversed(outcome.pots):
        if seat not in pot.eligible:
            continue
        shares = pot.shares if len(pot.shares) == len(pot.winners) else (1,) * len(pot.winners)
        for winner, share in zip(pot.winners, shares, strict=True):
            if share > 0 and winner != seat and winner not in out:
                out.append(winner)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Elimination:
    """How a player went out of a tournament.

    :param player: the player's id.
    :param hand_number: the hand they went out on (hands count from 1).
    :param started_with: their chips at the start of that hand (they are
        placed by it, R11).
    :param eliminated_by: the players who won their chips
        (:func:`eliminators`'s order); may be empty when not known.
    """

    player: str
    hand_number: int
    started_with: int
    eliminated_by: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_player("player", self.player)
        if not _is_int(self.hand_number) or self.hand_number < 1:
            raise _fail("hand_number", self.hand_number, "must be an integer of at least 1")
        if not _is_int(self.started_with) or self.started_with < 1:
            raise _fail(
                "started_with",
                self.started_with,
                "must be an integer of at least 1 (a player who goes out had chips)",
            )
        by = self.eliminated_by
        if type(by) is not tuple and (isinstance(by, str) or not isinstance(by, Sequence)):
            raise _fail("eliminated_by", by, "must be a sequence of player ids")
        object.__setattr__(self, "eliminated_by", tuple(by))
        for name in self.eliminated_by:
            _check_player("eliminated_by", name)
        if self.player in self.eliminated_by or len(set(self.eliminated_by)) < len(by):
            raise _fail("eliminated_by", by, f"must name each player once, and not {self.player!r}")

    def to_dict(self) -> dict[str, Any]:
        """The wire form, every field by name."""
        return {
            "player": self.player,
            "hand_number": self.hand_number,
            "started_with": self.started_with,
            "eliminated_by": list(self.eliminated_by),
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "elimination") -> Elimination:
        """The elimination of :meth:`to_dict`'s form (``eliminated_by`` may be
        left out: none)."""
        f = Fields(data, where)
        by = f.raw("eliminated_by", "a list of player ids", default=[])
        if not isinstance(by, list) or not all(isinstance(name, str) for name in by):
            raise f.error("eliminated_by", by, "expected a list of player ids (strings)")
        fields: dict[str, Any] = dict(
            player=f.text("player"),
            hand_number=f.integer("hand_number"),
            started_with=f.integer("started_with"),
            eliminated_by=tuple(by),
        )
        f.done()  # the shape first: an unknown field is a wire error
        return cls(**fields)


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's place in a tournament's result: 1 is the winner, tied
    players share a place (the module's docs).

    :param place: the place, from 1.
    :param player: the player's id.
    :param elimination: how they went out; None for the winner.
    """

    place: int
    player: str
    elimination: Elimination | None = None

    def __post_init__(self) -> None:
        if not _is_int(self.place) or self.place < 1:
            raise _fail("place", self.place, "must be an integer of at least 1")
        _check_player("player", self.player)
        if self.elimination is not None:
            if not isinstance(self.elimination, Elimination):
                raise _fail("elimination", self.elimination, "must be an Elimination or None")
            if self.elimination.player != self.player:
                raise _fail(
                    "elimination",
                    self.elimination,
                    f"it is the elimination of {self.elimination.player!r}, not of {self.player!r}",
                )

    def to_dict(self) -> dict[str, Any]:
        """The wire form: ``elimination`` null for the winner."""
        return {
            "place": self.place,
            "player": self.player,
            "elimination": None if self.elimination is None else self.elimination.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "placing") -> Placing:
        """The placing of :meth:`to_dict`'s form."""
        f = Fields(data, where)
        raw = f.raw("elimination", "an elimination or null", default=None)
        fields: dict[str, Any] = dict(
            place=f.integer("place"),
            player=f.text("player"),
            elimination=None if raw is None else _elimination(raw, f"{where}.elimination"),
        )
        f.done()  # the shape first: an unknown field is a wire error
        return cls(**fields)


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """The result of a tournament: every player's place, the winner first.

    :param places: one :class:`Placing` per player, best place first (tied
        players in the order the table seated them).
    :param winner: the player in 1st place.
    :param hands: the number of hands played (the winner's last opponent
        went out on this one).

    The places must be consistent: the winner alone is 1st and has no
    elimination, every other player has one, each place is what the "1224"
    ranking gives (the place of the first of a tie is one more than the
    number of players before it), and the order is R11's (out later is
    better; out on the same hand, more chips is better, equal chips tie).
    """

    places: tuple[Placing, ...]
    winner: str
    hands: int

    def __post_init__(self) -> None:
        places = self.places
        if isinstance(places, Placing) or not isinstance(places, Sequence):
            raise _fail("places", places, "must be a sequence of placings")
        places = tuple(places)
        object.__setattr__(self, "places", places)
        if len(places) < 2:
            raise _fail("places", places, "a tournament has 2 players or more")
        if not all(isinstance(p, Placing) for p in places):
            raise _fail("places", places, "must be a sequence of placings")
        players = [p.player for p in places]
        if len(set(players)) < len(players):
            raise _fail("places", places, "a player has two places")
        _check_player("winner", self.winner)
        first = places[0]
        if first.player != self.winner or first.place != 1 or first.elimination is not None:
            raise _fail(
                "winner",
                self.winner,
                f"the winner must come first, in 1st place, without an elimination "
                f"(first is {first.player!r} in place {first.place})",
            )
        for i, placing in enumerate(places[1:], 1):
            expected = places[i - 1].place if placing.place == places[i - 1].place else i + 1
            if placing.place != expected or placing.place == 1:
                raise _fail(
                    "places",
                    placing,
                    f"{placing.player!r} cannot be in place {placing.place} "
                    f"after {i} players (ties share the best place they cover)",
                )
            if placing.elimination is None:
                raise _fail("places", placing, f"{placing.player!r} has no elimination")
            if i > 1:
                _check_order(places[i - 1], placing)
        if not _is_int(self.hands) or self.hands < 1:
            raise _fail("hands", self.hands, "must be an integer of at least 1")
        last = max(p.elimination.hand_number for p in places if p.elimination is not None)
        if last > self.hands:
            raise _fail("hands", self.hands, f"a player went out on hand {last}")

    def place_of(self, player: str) -> Placing:
        """The placing of ``player``."""
        for placing in self.places:
            if placing.player == player:
                return placing
        raise _fail("player", player, "did not play in this tournament")

    def to_dict(self) -> dict[str, Any]:
        """The wire form: the placings (:meth:`Placing.to_dict`), winner and hands.

        >>> standings = Standings(["ann", "bob"])
        >>> _ = standings.record_hand(3, {"ann": 60, "bob": 40}, ["bob"], {"bob": ["ann"]})
        >>> standings.result().to_dict()["places"][1]  # doctest: +NORMALIZE_WHITESPACE
        {'place': 2, 'player': 'bob', 'elimination': {'player': 'bob', 'hand_number': 3,
         'started_with': 40, 'eliminated_by': ['ann']}}
        """
        return {
            "places": [placing.to_dict() for placing in self.places],
            "winner": self.winner,
            "hands": self.hands,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "result") -> TournamentResult:
        """The result of :meth:`to_dict`'s form."""
        f = Fields(data, where)
        raw = f.raw("places", "a list of placings")
        if not isinstance(raw, list):
            raise f.error("places", raw, "expected a list of placings")
        fields: dict[str, Any] = dict(
            places=tuple(
                Placing.from_dict(item, f"{where}.places[{i}]") for i, item in enumerate(raw)
            ),
            winner=f.text("winner"),
            hands=f.integer("hands"),
        )
        f.done()  # the shape first: an unknown field is a wire error
        return cls(**fields)


def _placing(data: Any, where: str) -> Placing:
    """A placing read from ``where``, whose errors name their field by its path."""
    try:
        return Placing.from_dict(data, where)
    except ConfigError as exc:
        raise located(where, exc) from None


def _elimination(data: Any, where: str) -> Elimination:
    """An elimination read from ``where``, whose errors name their field by its path."""
    try:
        return Elimination.from_dict(data, where)
    except ConfigError as exc:
        raise located(where, exc) from None


def _check_order(before: Placing, after: Placing) -> None:
    """R11 between two neighbours of a result: out later is better; out on the
    same hand, more chips is better and equal chips tie."""
    e, f = before.elimination, after.elimination
    assert e is not None and f is not None
    key_before, key_after = (e.hand_number, e.started_with), (f.hand_number, f.started_with)
    if key_after > key_before or (key_after == key_before) != (after.place == before.place):
        raise _fail(
            "places",
            after,
            f"{after.player!r} (out on hand {f.hand_number} with {f.started_with} chips) "
            f"cannot be {after.place} after {before.player!r} (out on hand "
            f"{e.hand_number} with {e.started_with}) in place {before.place}",
        )


class Standings:
    """The record of a freezeout as it is played: who is out, on which hand,
    by whom, and in what place (the table keeps one per tournament).

    :param players: the players' ids, in seat order (ties are listed in
        this order), 2 or more, distinct.

    After each hand the table calls :meth:`record_hand` with the players
    who went out on it (a hand where nobody did may be left out); when one
    player is left, :attr:`finished` is true and :meth:`result` gives the
    :class:`TournamentResult`.  Mistakes (an unknown player, one already
    out, hands out of order, everybody out) raise
    :class:`~holdem.errors.ConfigError` naming the argument.
    """

    __slots__ = ("_hands", "_out", "_players", "_remaining", "_seat_order")

    def __init__(self, players: Sequence[str]) -> None:
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise _fail("players", players, "must be a sequence of player ids")
        for player in players:
            _check_player("players", player)
        if len(players) < 2 or len(set(players)) < len(players):
            raise _fail("players", players, "a tournament needs 2 or more distinct players")
        self._players = tuple(players)
        self._seat_order = {p: i for i, p in enumerate(self._players)}
        self._remaining = list(players)
        #: Placings of the players out, best place first.
        self._out: list[Placing] = []
        self._hands = 0

    @property
    def players(self) -> tuple[str, ...]:
        """Every player, in seat order."""
        return self._players

    @property
    def remaining(self) -> tuple[str, ...]:
        """The players still in, in seat order."""
        return tuple(self._remaining)

    @property
    def eliminations(self) -> tuple[Elimination, ...]:
        """The players out so far, in the order they went out (of one hand:
        the worse place first)."""
        return tuple(p.elimination for p in reversed(self._out) if p.elimination is not None)

    @property
    def last_hand(self) -> int:
        """The last hand recorded (0: none yet)."""
        return self._hands

    @property
    def finished(self) -> bool:
        """One player is left: the tournament is over."""
        return len(self._remaining) == 1

    def record_hand(
        self,
        hand_number: int,
        started: Mapping[str, int],
        busted: Sequence[str],
        by: Mapping[str, Sequence[str]],
    ) -> tuple[Placing, ...]:
        """Records hand ``hand_number`` (from 1, increasing): ``busted`` went
        out on it, ``started[p]`` is the chips ``p`` started it with (needed
        for every player in ``busted``), ``by[p]`` the players who won
        ``p``'s chips (left out: not known; only busted players may have an
        entry).  Returns the busted players'
        placings, best place first.
        """
        if not _is_int(hand_number) or hand_number <= self._hands:
            raise _fail(
                "hand_number",
                hand_number,
                f"must be an integer above the last hand recorded ({self._hands})",
            )
        if self.finished:
            raise _fail("hand_number", hand_number, "the tournament is over")
        if type(busted) not in (list, tuple) and (
            isinstance(busted, str) or not isinstance(busted, Sequence)
        ):
            raise _fail("busted", busted, "must be a sequence of player ids")
        busted = tuple(busted)
        for player in busted:
            if player not in self._remaining:
                why = "is out already" if player in self._players else "is not a player"
                raise _fail("busted", busted, f"{player!r} {why}")
        if len(set(busted)) < len(busted):
            raise _fail("busted", busted, "a player is there twice")
        left = [p for p in self._remaining if p not in busted]
        if busted and not left:
            raise _fail("busted", busted, "somebody keeps the chips: not everybody can go out")
        stray = next((p for p in by if p not in busted), None)
        if stray is not None:
            raise _fail("by", dict(by), f"{stray!r} did not go out on hand {hand_number}")
        for player in busted:
            if isinstance(by.get(player, ()), str):
                raise _fail("by", dict(by), f"by[{player!r}] must be a sequence of player ids")
            if player not in started:
                raise _fail("started", dict(started), f"no starting chips for {player!r}")
            for name in by.get(player, ()):
                if name not in left:
                    raise _fail(
                        "by", dict(by), f"{name!r} won {player!r}'s chips but has none after"
                    )
        out = [(player, started[player], tuple(by.get(player, ()))) for player in busted]
        return self._record(hand_number, out)

    def _record(
        self,
        hand_number: int,
        out: Sequence[tuple[str, int, tuple[str, ...]]],
    ) -> tuple[Placing, ...]:
        """:meth:`record_hand` after its checks of the arguments (a tournament
        skips them for its own results): ``out`` the players busted with the
        chips they started with and who won them."""
        if not out:
            self._hands = hand_number
            return ()
        busted = {player for player, _, _ in out}
        left = [p for p in self._remaining if p not in busted]
        eliminations = [Elimination(p, hand_number, c, by) for p, c, by in out]
        best = len(left) + 1  # the best place the busted players cover
        seat_order = self._seat_order
        eliminations.sort(key=lambda e: (-e.started_with, seat_order[e.player]))
        placings = []
        for e in eliminations:
            ahead = sum(1 for other in eliminations if other.started_with > e.started_with)
            placings.append(Placing(best + ahead, e.player, e))
        self._out[:0] = placings
        self._remaining = left
        self._hands = hand_number
        return tuple(placings)

    def to_dict(self) -> dict[str, Any]:
        """The record so far as JSON data: the ``players`` (in seat order),
        the placings of the players ``out`` (best place first) and the last
        hand recorded (``hands``).

        >>> standings = Standings(["ann", "bob", "cid"])
        >>> _ = standings.record_hand(4, {"cid": 50}, ["cid"], {"cid": ("ann",)})
        >>> Standings.from_dict(standings.to_dict()).to_dict() == standings.to_dict()
        True
        """
        return {
            "players": list(self._players),
            "out": [placing.to_dict() for placing in self._out],
            "hands": self._hands,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "standings") -> Standings:
        """The standings of :meth:`to_dict`'s form.  The eliminations are
        recorded again, hand by hand, and must give the places written: a
        record that :meth:`record_hand` would refuse, or places that do not
        follow R11 from the eliminations, raise
        :class:`~holdem.errors.ConfigError` naming the field."""
        f = Fields(data, where)
        players = f.raw("players", "a list of player ids")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise f.error("players", players, "expected a list of player ids (strings)")
        raw = f.raw("out", "a list of placings")
        if not isinstance(raw, list):
            raise f.error("out", raw, "expected a list of placings")
        out = [_placing(item, f"{where}.out[{i}]") for i, item in enumerate(raw)]
        hands = f.integer("hands")
        f.done()
        standings = cls(players)
        try:
            standings._replay(out)
        except ConfigError as exc:
            raise ConfigError(f"{where}.out: {exc}", field=f"{where}.out", value=raw) from None
        if hands < standings._hands:
            raise ConfigError(
                f"{where}.hands: {hands} is before hand {standings._hands}, when a player went out",
                field=f"{where}.hands",
                value=hands,
            )
        standings._hands = hands
        return standings

    def _replay(self, out: Sequence[Placing]) -> None:
        """Records again the eliminations of ``out`` (placings, best place
        first), each hand's together, and checks the places they give."""
        eliminations = [placing.elimination for placing in out]
        if None in eliminations:
            raise _fail("out", out, "a player out has an elimination (only the winner has none)")
        by_hand: dict[int, list[Elimination]] = {}
        for e in sorted(eliminations, key=attrgetter("hand_number")):
            assert e is not None
            by_hand.setdefault(e.hand_number, []).append(e)
        for hand_number, group in by_hand.items():
            self.record_hand(
                hand_number,
                {e.player: e.started_with for e in group},
                [e.player for e in group],
                {e.player: e.eliminated_by for e in group},
            )
        if self._out != list(out):
            raise _fail("out", out, "the places are not those R11 gives the eliminations")

    def result(self) -> TournamentResult:
        """The result of the finished tournament (raises
        :class:`~holdem.errors.ConfigError` before it is)."""
        if not self.finished:
            raise ConfigError(
                f"the tournament is not over: {len(self._remaining)} players still have chips",
                field="standings",
                value=self.remaining,
            )
        winner = self._remaining[0]
        return TournamentResult((Placing(1, winner), *self._out), winner, self._hands)
