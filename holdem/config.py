"""The configuration of one hand: structure, seats, stacks and forced bets.

A :class:`HandConfig` says everything the rules engine needs to know before
the cards are dealt (RULES.md R3, R6, R8).  Players are numbered 0..n-1 in
clockwise seat order ("seat" in messages means this number); ``button`` is
the seat that has the dealer button.  Chip amounts are integers in the
smallest unit.

>>> cfg = HandConfig(stacks=(200, 200, 200), button=0, small_blind=1, big_blind=2)
>>> cfg.small_blind_seat, cfg.big_blind_seat
(1, 2)
>>> [(kind.value, seat, amount) for kind, seat, amount in cfg.forced_bets]
[('small_blind', 1, 1), ('big_blind', 2, 2)]

Table-level rules (moving the button, missed blinds, tournaments) live
elsewhere; a hand only needs to be told, per hand, what they decided:
dead blinds and a new player's live post (:class:`Post`), a missing small
blind, a dead button.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import Enum
from itertools import pairwise
from typing import Any

from . import _engine
from .actions import ActionKind
from .errors import ConfigError
from .units import ONE, check_unit, unit_text
from .wire import Fields

__all__ = [
    "MAX_CHIPS",
    "MAX_PLAYERS",
    "MAX_TABLE_SEATS",
    "RULE_VARIANTS",
    "HandConfig",
    "HeadsUpCap",
    "Post",
    "Structure",
]

#: Most players one hand can have (RULES.md R3).
MAX_PLAYERS = 10
#: Table seats are numbered 0 to MAX_TABLE_SEATS - 1.
MAX_TABLE_SEATS = 100
#: Stacks, blinds, antes, straddles, posts, fixed-limit bets and the raise cap
#: are below this: the engine counts chips in 64-bit integers, with room for
#: ten such stacks in one pot.
MAX_CHIPS = 10**17

_ANTE = ActionKind.ANTE
_SMALL_BLIND = ActionKind.SMALL_BLIND
_BIG_BLIND = ActionKind.BIG_BLIND
_STRADDLE = ActionKind.STRADDLE
_LIVE_POST = ActionKind.LIVE_POST
_DEAD_BLIND = ActionKind.DEAD_BLIND


class Structure(Enum):
    """Betting structure (RULES.md R6, R8)."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


class HeadsUpCap(Enum):
    """When the fixed-limit raise cap is lifted because only two players are left.

    "Left" means in the hand and not all-in (Robert's Rules: the cap
    applies to pots of three or more players who are not all-in).
    """

    #: The cap always applies (tournaments; the WSOP tournament rule).
    NEVER = "never"
    #: No cap on a betting round that starts with only two such players (WSOP cash).
    ROUND_START = "round_start"
    #: No cap as soon as only two are left, unless the round was already
    #: capped while more were in (Robert's Rules; the default).
    TWO_LEFT = "two_left"


@dataclass(frozen=True, slots=True)
class Post:
    """An extra forced bet of one seat for this hand (cash-game rules, R3).

    ``dead=False`` is a live post (a new player's big blind, or the live
    big blind of a player coming back after missing blinds): it counts
    toward the player's bet in the preflop round, and the player keeps the
    option to raise when the action comes back unraised.  ``dead=True`` is
    a dead blind: straight into the pot, not part of the player's bet.

    >>> Post(seat=4, amount=2), Post(seat=4, amount=1, dead=True)
    (Post(seat=4, amount=2, dead=False), Post(seat=4, amount=1, dead=True))
    """

    seat: int
    amount: int
    dead: bool = False


_FIXED_LIMIT = Structure.FIXED_LIMIT

#: Rule variants a configuration may ask for (``HandConfig.rule_variants``):
#: other engines' and sites' readings of the rules, played to check their hand
#: histories (:mod:`holdem.histories.conventions`).  Name: (the engine's bit,
#: what it changes).  Without them the engine plays RULES.md as docs/rules.md reads it.
RULE_VARIANTS: dict[str, tuple[int, str]] = {
    "posted_short_blind": (
        1,
        "a big blind posted all-in for less: the largest blind posted is the bet to "
        "call, and raises count from it by a big blind (R6 calls the full blind)",
    ),
    "blind_outside_cap": (
        2,
        "fixed-limit: the big blind is not one of the capped bets preflop, so one "
        "more raise is allowed there (R8 counts it as the bet)",
    ),
    "no_half_bet_rule": (
        4,
        "fixed-limit: an all-in raise of less than half a bet counts toward the cap "
        "and the next raise is a bet above it; it reopens nothing (R7: it does not count)",
    ),
    "short_all_in_min_raise": (
        8,
        "no-limit and pot-limit: after an all-in raise of less than a full raise, the "
        "minimum raise is to the all-in plus its own increment (R6: plus the last full raise)",
    ),
    "dead_antes": (
        16,
        "antes and other dead chips are posted before the blinds and are dead money: "
        "they go to the main pot, which every player in the hand can win (R3: they are "
        "their poster's money)",
    ),
    "straddle_raised_by_big_blind": (
        32,
        "a straddle is raised by a big blind: the minimum raise over it is the straddle "
        "plus the big blind (R3: it counts as the big blind of the hand)",
    ),
}
_TOO_MANY = "amounts are below 10**17 chips (holdem.config.MAX_CHIPS)"

#: A configuration's fixed-limit bets and derived fields, as ``_DERIVED`` keeps them.
_Derived = tuple[
    int, int, tuple[int, ...], int | None, int, int | None, tuple[tuple[ActionKind, int, int], ...]
]
#: The _Derived of plain configurations checked before, by HandConfig._plain_key
#: (immutable values: configurations share them).  Cleared when full.
_DERIVED: dict[tuple[Any, ...], _Derived] = {}
_DERIVED_MAX = 1024
_NO_ITEMS = ()


def _is_int(value: object) -> bool:
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def _fail(name: str, value: object, why: str) -> ConfigError:
    return ConfigError(f"invalid {name}={value!r}: {why}", field=name, value=value)


def _coerce_enum(name: str, value: Any, enum: type[Enum]) -> Any:
    if isinstance(value, enum):
        return value
    try:
        return enum(value.replace("-", "_") if isinstance(value, str) else value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in enum)
        raise _fail(name, value, f"must be one of {choices}") from None


@dataclass(frozen=True, slots=True, init=False)
class HandConfig:
    """Everything about one hand that is fixed before the deal.

    :param stacks: chips of each player in clockwise seat order (2 to 10
        players, each at least one chip).
    :param button: the seat with the dealer button.  With a dead button
        (``dead_button=True``, TDA), give the last seat before the empty
        button seat: the first seat after it is then the first left of the
        button, as a live button there would make it.
    :param small_blind: the small blind; ``0`` for a game without one.
    :param big_blind: the big blind (also the no-limit minimum bet).
    :param structure: :class:`Structure` (or its value, e.g. ``"pot_limit"``).
    :param ante: an ante; every player posts it, or with
        ``big_blind_ante`` only the big blind does (after the blind: the
        blind comes first when the stack does not cover both, TDA).
    :param straddle: a live straddle posted by the player left of the big
        blind (at least two big blinds; 3+ players, not in fixed-limit).
        It counts as the big blind of the hand for the minimum raise.
    :param missing_small_blind: this hand has no small blind (its seat is
        empty): the first player left of the button posts the big blind.
    :param posts: extra :class:`Post` s (live posts, dead blinds).
    :param small_bet: fixed-limit bet on preflop and flop; default and
        only allowed value: the big blind.
    :param big_bet: fixed-limit bet on turn and river (default 2 small bets).
    :param raise_cap: fixed-limit raises allowed after the bet (default 3;
        the WSOP uses 4).
    :param heads_up_cap: :class:`HeadsUpCap` policy.
    :param hand_id: an identifier quoted in error messages.
    :param seats: the table seat number of each player, in the order of
        ``stacks`` (increasing, 0 to 99); the hand then uses these numbers in
        everything it shows and takes: records, legal actions, views, errors
        and ``seat=`` arguments.  Without it the players are seats 0..n-1.
        The other fields (``button``, ``Post.seat``) count positions in
        ``stacks``; :meth:`at_table` takes table seats for all of them.
    :param names: the players' names (or None), in the order of ``stacks``.
    :param rule_variants: names from :data:`RULE_VARIANTS`: another engine's
        or site's reading of a rule, to replay its hand histories (default:
        none, the rules as RULES.md gives them).
    :param aggressor_may_muck: the last to bet or raise on the river, once
        called, may muck at the showdown (a room that allows it); by default
        they show first and may not (R10).
    :param unit: the chip unit (R9): what one chip is worth in the table's
        money (a :class:`~decimal.Decimal`, default 1).  Every amount here is a
        whole number of chips; the unit only says how they read as money (a
        5/10 game with a 2.5 small blind: ``unit=Decimal("0.5")``, blinds 5
        and 10 chips; :func:`holdem.units.to_chips` converts).
    :param run_twice: the players (positions in ``stacks``) who agree to run
        it twice (R10): when every player left in the hand agrees and is all-in
        before the river (at most one of them has chips and has matched), the
        rest of the board is dealt twice and each pot split in two halves, each
        won on its own board.  Default: nobody.

    Invalid values raise :class:`~holdem.errors.ConfigError` naming the field:

    >>> HandConfig(stacks=(100,), button=0, small_blind=1, big_blind=2)
    Traceback (most recent call last):
    ...
    holdem.errors.ConfigError: invalid stacks=(100,): a hand needs 2 to 10 players, got 1
    """

    stacks: tuple[int, ...]
    button: int
    small_blind: int
    big_blind: int
    structure: Structure = Structure.NO_LIMIT
    ante: int = 0
    big_blind_ante: bool = False
    straddle: int = 0
    missing_small_blind: bool = False
    dead_button: bool = False
    posts: tuple[Post, ...] = ()
    small_bet: int = 0
    big_bet: int = 0
    raise_cap: int = 3
    heads_up_cap: HeadsUpCap = HeadsUpCap.TWO_LEFT
    hand_id: int | str | None = None
    seats: tuple[int, ...] = ()
    names: tuple[str | None, ...] = ()
    rule_variants: tuple[str, ...] = ()
    aggressor_may_muck: bool = False
    run_twice: tuple[int, ...] = ()
    unit: Decimal = ONE
    #: The table seat number of each player, in the order of ``stacks``
    #: (``seats``, or 0..n-1 when it is not given).  Derived.
    seat_numbers: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: Seat that posts the small blind (None: none this hand).  Derived.
    small_blind_seat: int | None = field(init=False, repr=False, compare=False)
    #: Seat that posts the big blind.  Derived.
    big_blind_seat: int = field(init=False, repr=False, compare=False)
    #: Seat that posts the straddle (None: no straddle).  Derived.
    straddle_seat: int | None = field(init=False, repr=False, compare=False)
    #: The forced bets in posting order: ``(kind, seat, amount)``, nominal
    #: amounts (a short stack posts what it has).  Derived.
    forced_bets: tuple[tuple[ActionKind, int, int], ...] = field(
        init=False, repr=False, compare=False
    )

    def __init__(
        self,
        stacks: tuple[int, ...],
        button: int,
        small_blind: int,
        big_blind: int,
        structure: Structure = Structure.NO_LIMIT,
        ante: int = 0,
        big_blind_ante: bool = False,
        straddle: int = 0,
        missing_small_blind: bool = False,
        dead_button: bool = False,
        posts: tuple[Post, ...] = (),
        small_bet: int = 0,
        big_bet: int = 0,
        raise_cap: int = 3,
        heads_up_cap: HeadsUpCap = HeadsUpCap.TWO_LEFT,
        hand_id: int | str | None = None,
        seats: tuple[int, ...] = (),
        names: tuple[str | None, ...] = (),
        rule_variants: tuple[str, ...] = (),
        aggressor_may_muck: bool = False,
        run_twice: tuple[int, ...] = (),
        unit: Decimal = ONE,
    ) -> None:
        # The dataclass's own __init__ (the same parameters: a test checks) would
        # store each field with object.__setattr__; the slots' setters take half
        # the time, and a table builds a HandConfig for every hand.
        _set_stacks(self, stacks)
        _set_button(self, button)
        _set_small_blind(self, small_blind)
        _set_big_blind(self, big_blind)
        _set_structure(self, structure)
        _set_ante(self, ante)
        _set_big_blind_ante(self, big_blind_ante)
        _set_straddle(self, straddle)
        _set_missing_small_blind(self, missing_small_blind)
        _set_dead_button(self, dead_button)
        _set_posts(self, posts)
        _set_small_bet(self, small_bet)
        _set_big_bet(self, big_bet)
        _set_raise_cap(self, raise_cap)
        _set_heads_up_cap(self, heads_up_cap)
        _set_hand_id(self, hand_id)
        _set_seats(self, seats)
        _set_names(self, names)
        _set_rule_variants(self, rule_variants)
        _set_aggressor_may_muck(self, aggressor_may_muck)
        _set_run_twice(self, run_twice)
        _set_unit(self, unit)
        # A plain configuration (see _plain_key) like one checked before takes
        # that one's derived fields; any other is checked (and refused) in full.
        key = self._plain_key()
        known = _DERIVED.get(key) if key is not None else None
        if known is not None:
            self._set_derived(known)
            return
        self._check_and_derive()
        if key is not None:
            if len(_DERIVED) >= _DERIVED_MAX:
                _DERIVED.clear()
            _DERIVED[key] = self._derived()

    def _plain_key(self) -> tuple[Any, ...] | None:
        """The key of this configuration's derived fields in ``_DERIVED``, or None
        when it is not a plain one.  Plain: the stacks a tuple of ints of at least
        1 and every other number an int (not a subclass: their values are keys),
        the flags bools, the enums members, and no rule variants.  Beside
        the stacks, checked here, the key holds all that :meth:`_check_and_derive`
        reads of a plain configuration: one it passed, it passes again.  A hand at
        a table (seats, names, posts) is plain too when those are tuples of
        exact ints, strings (or None) and posts of them: they are in its key."""
        stacks = self.stacks
        if (
            type(stacks) is not tuple
            or self.rule_variants is not _NO_ITEMS
            or self.run_twice is not _NO_ITEMS
            or self.unit is not ONE
        ):
            return None
        posts, seats, names = self.posts, self.seats, self.names
        # () is one object: other empty ones are not plain
        table = posts is not _NO_ITEMS or seats is not _NO_ITEMS or names is not _NO_ITEMS
        if table and not _plain_table(posts, seats, names):
            return None
        button, small_blind, big_blind = self.button, self.small_blind, self.big_blind
        ante, straddle, raise_cap = self.ante, self.straddle, self.raise_cap
        small_bet, big_bet, structure = self.small_bet, self.big_bet, self.structure
        big_blind_ante, missing_small_blind = self.big_blind_ante, self.missing_small_blind
        if not (
            type(button) is type(small_blind) is type(big_blind) is int
            and type(ante) is type(straddle) is type(raise_cap) is int
            and type(small_bet) is type(big_bet) is int
            and type(big_blind_ante) is type(missing_small_blind) is bool
            and type(self.aggressor_may_muck) is bool
            and type(structure) is Structure
            and type(self.heads_up_cap) is HeadsUpCap
        ):
            return None
        for chips in stacks:
            if type(chips) is not int or not 1 <= chips < MAX_CHIPS:
                return None
        return (
            len(stacks),
            button,
            small_blind,
            big_blind,
            ante,
            straddle,
            raise_cap,
            small_bet,
            big_bet,
            big_blind_ante,
            missing_small_blind,
            structure._value_,  # a member's hash is Enum.__hash__, in Python
            *((seats, names, posts) if table else ()),
        )

    def _derived(self) -> _Derived:
        return (
            self.small_bet,
            self.big_bet,
            self.seat_numbers,
            self.small_blind_seat,
            self.big_blind_seat,
            self.straddle_seat,
            self.forced_bets,
        )

    def _set_derived(self, derived: _Derived) -> None:
        small_bet, big_bet, seat_numbers, small_seat, big_seat, straddle_seat, forced = derived
        if self.structure is _FIXED_LIMIT:  # its bets may default to the big blind's
            _set_small_bet(self, small_bet)
            _set_big_bet(self, big_bet)
        _set_seat_numbers(self, seat_numbers)
        _set_small_blind_seat(self, small_seat)
        _set_big_blind_seat(self, big_seat)
        _set_straddle_seat(self, straddle_seat)
        _set_forced_bets(self, forced)

    def _check_and_derive(self) -> None:
        """Checks every field, puts the ones given in another form in their own
        (tuples, enum members, fixed-limit bets) and sets the derived fields.
        All it reads of a plain configuration must be in :meth:`_plain_key`."""
        put = object.__setattr__
        stacks = self.stacks
        if not isinstance(stacks, tuple):
            try:
                stacks = tuple(stacks)
            except TypeError:
                raise _fail("stacks", stacks, "must be a sequence of chip counts") from None
            put(self, "stacks", stacks)
        n = len(stacks)
        if not 2 <= n <= MAX_PLAYERS:
            raise _fail("stacks", stacks, f"a hand needs 2 to {MAX_PLAYERS} players, got {n}")
        for seat, chips in enumerate(stacks):
            if (type(chips) is not int and not _is_int(chips)) or chips < 1:
                raise _fail(
                    "stacks",
                    stacks,
                    f"seat {seat} has {chips!r}: stacks are integers of at least 1",
                )
            if chips >= MAX_CHIPS:
                raise _fail("stacks", stacks, f"seat {seat} has {chips}: {_TOO_MANY}")
        if type(self.structure) is not Structure:
            put(self, "structure", _coerce_enum("structure", self.structure, Structure))
        if type(self.heads_up_cap) is not HeadsUpCap:
            put(self, "heads_up_cap", _coerce_enum("heads_up_cap", self.heads_up_cap, HeadsUpCap))
        if not _is_int(self.button) or not 0 <= self.button < n:
            raise _fail("button", self.button, f"must be a seat 0..{n - 1}")
        for name, value in (
            ("small_blind", self.small_blind),
            ("ante", self.ante),
            ("straddle", self.straddle),
            ("small_bet", self.small_bet),
            ("big_bet", self.big_bet),
        ):
            if (type(value) is not int and not _is_int(value)) or value < 0:
                raise _fail(name, value, "must be an integer of at least 0")
        if not _is_int(self.big_blind) or self.big_blind < 1:
            raise _fail("big_blind", self.big_blind, "must be an integer of at least 1")
        if self.small_blind > self.big_blind:
            raise _fail(
                "small_blind", self.small_blind, f"is larger than the big blind {self.big_blind}"
            )
        if not _is_int(self.raise_cap) or self.raise_cap < 0:
            raise _fail("raise_cap", self.raise_cap, "must be an integer of at least 0")
        for name in ("big_blind", "small_blind", "ante", "straddle", "small_bet", "big_bet",
                     "raise_cap"):  # fmt: skip
            if getattr(self, name) >= MAX_CHIPS:
                raise _fail(name, getattr(self, name), _TOO_MANY)
        if self.big_blind_ante and not self.ante:
            raise _fail("big_blind_ante", True, "needs an ante amount (ante > 0)")
        if type(self.aggressor_may_muck) is not bool:  # (read for its truth, as the flags)
            put(self, "aggressor_may_muck", bool(self.aggressor_may_muck))
        self._check_limits()
        self._check_seats(n)
        if self.rule_variants is not _NO_ITEMS:
            self._check_rule_variants()
        if self.run_twice is not _NO_ITEMS:
            self._check_run_twice(n)
        if self.unit is not ONE:
            put(self, "unit", check_unit(self.unit))
        sb_seat, bb_seat, straddle_seat = self._blind_seats(n)
        put(self, "small_blind_seat", sb_seat)
        put(self, "big_blind_seat", bb_seat)
        put(self, "straddle_seat", straddle_seat)
        posts = self.posts
        if not isinstance(posts, tuple):
            posts = tuple(posts)
            put(self, "posts", posts)
        if posts:
            self._check_posts(n, sb_seat, bb_seat, straddle_seat)
        put(self, "forced_bets", self._forced(n, sb_seat, bb_seat, straddle_seat))

    def to_dict(self) -> dict[str, Any]:
        """The wire form: every field by name, enums as their snake_case values.

        >>> config = HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2)
        >>> config.to_dict()["structure"], HandConfig.from_dict(config.to_dict()) == config
        ('no_limit', True)
        """
        return {
            "stacks": list(self.stacks),
            "button": self.button,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "structure": self.structure.value,
            "ante": self.ante,
            "big_blind_ante": self.big_blind_ante,
            "straddle": self.straddle,
            "missing_small_blind": self.missing_small_blind,
            "dead_button": self.dead_button,
            "posts": [
                {"seat": post.seat, "amount": post.amount, "dead": post.dead} for post in self.posts
            ],
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "raise_cap": self.raise_cap,
            "heads_up_cap": self.heads_up_cap.value,
            "hand_id": self.hand_id,
            "seats": list(self.seats),
            "names": list(self.names),
            "rule_variants": list(self.rule_variants),
            "aggressor_may_muck": self.aggressor_may_muck,
            "run_twice": list(self.run_twice),
            # (left out at a chip of 1: the wire form as it was)
            **({"unit": unit_text(self.unit)} if self.unit != ONE else {}),
        }

    @classmethod
    def from_dict(cls, data: Any) -> HandConfig:
        """The configuration of :meth:`to_dict`'s form.  Fields left out take their
        defaults; a field of the wrong type raises :class:`~holdem.errors.WireError`,
        a value the rules refuse :class:`~holdem.errors.ConfigError` (both name it)."""
        f = Fields(data, "config")
        posts = []
        raw_posts = f.raw("posts", "a list of posts", default=[])
        if not isinstance(raw_posts, list):
            raise f.error("posts", raw_posts, "expected a list of posts")
        for i, item in enumerate(raw_posts):
            p = Fields(item, f"config.posts[{i}]")
            posts.append(
                Post(p.integer("seat"), p.integer("amount"), p.boolean("dead", default=False))
            )
            p.done()
        hand_id = f.raw("hand_id", "an integer, a string or null", default=None)
        if hand_id is not None and (
            not isinstance(hand_id, int | str) or hand_id is True or hand_id is False
        ):
            raise f.error("hand_id", hand_id, "expected an integer, a string or null")
        config = cls(
            stacks=f.integers("stacks"),
            button=f.integer("button"),
            small_blind=f.integer("small_blind"),
            big_blind=f.integer("big_blind"),
            structure=f.token("structure", Structure, default=Structure.NO_LIMIT),
            ante=f.integer("ante", default=0),
            big_blind_ante=f.boolean("big_blind_ante", default=False),
            straddle=f.integer("straddle", default=0),
            missing_small_blind=f.boolean("missing_small_blind", default=False),
            dead_button=f.boolean("dead_button", default=False),
            posts=tuple(posts),
            small_bet=f.integer("small_bet", default=0),
            big_bet=f.integer("big_bet", default=0),
            raise_cap=f.integer("raise_cap", default=3),
            heads_up_cap=f.token("heads_up_cap", HeadsUpCap, default=HeadsUpCap.TWO_LEFT),
            hand_id=hand_id,
            seats=f.integers("seats", default=()),
            names=_names_of(f),
            rule_variants=_rule_variants_of(f),
            aggressor_may_muck=f.boolean("aggressor_may_muck", default=False),
            run_twice=f.integers("run_twice", default=()),
            unit=_unit_of(f),
        )
        f.done()
        return config

    def _check_rule_variants(self) -> None:
        variants = self.rule_variants
        if isinstance(variants, str) or not isinstance(variants, Sequence):
            raise _fail("rule_variants", variants, "must be a sequence of rule variant names")
        variants = tuple(variants)
        for name in variants:
            if not isinstance(name, str) or name not in RULE_VARIANTS:
                known = ", ".join(RULE_VARIANTS)
                raise _fail("rule_variants", variants, f"unknown rule variant {name!r} ({known})")
        if len(set(variants)) != len(variants):
            raise _fail("rule_variants", variants, "a rule variant is named twice")
        object.__setattr__(self, "rule_variants", variants)

    def _check_run_twice(self, n: int) -> None:
        agree = self.run_twice
        if not isinstance(agree, tuple):
            try:
                agree = tuple(agree)
            except TypeError:
                raise _fail("run_twice", agree, "must be a sequence of positions") from None
        if not all(_is_int(p) and 0 <= p < n for p in agree):
            raise _fail("run_twice", agree, f"positions are 0..{n - 1}")
        if len(set(agree)) != len(agree):
            raise _fail("run_twice", agree, "a position is named twice")
        object.__setattr__(self, "run_twice", agree)

    @property
    def rule_bits(self) -> int:
        """The engine's bits of :attr:`rule_variants` (0: the rules as they are)."""
        bits = 0
        for name in self.rule_variants:
            bits |= RULE_VARIANTS[name][0]
        return bits

    def _check_seats(self, n: int) -> None:
        put = object.__setattr__
        seats, names = self.seats, self.names
        if not isinstance(seats, tuple):
            seats = tuple(seats)
            put(self, "seats", seats)
        if not isinstance(names, tuple):
            names = tuple(names)
            put(self, "names", names)
        if seats:
            if len(seats) != n:
                raise _fail("seats", seats, f"one table seat for each of the {n} players")
            if not all(_is_int(s) and 0 <= s < MAX_TABLE_SEATS for s in seats):
                raise _fail("seats", seats, f"table seats are integers 0 to {MAX_TABLE_SEATS - 1}")
            if any(a >= b for a, b in pairwise(seats)):
                raise _fail("seats", seats, "must increase, in the order of the stacks")
        put(self, "seat_numbers", seats or tuple(range(n)))
        if names:
            if len(names) != n:
                raise _fail("names", names, f"one name (or None) for each of the {n} players")
            if not all(name is None or isinstance(name, str) for name in names):
                raise _fail("names", names, "names are strings (or None)")

    @classmethod
    def at_table(
        cls,
        stacks: Sequence[int] | Mapping[int, int],
        button: int,
        *,
        names: Sequence[str | None] | Mapping[int, str] | None = None,
        posts: Sequence[Post] = (),
        **rules: Any,
    ) -> HandConfig:
        """A hand at a table, everything by table seat: ``stacks`` per seat (a list
        indexed by seat, or a mapping seat to chips), ``button`` the button's
        seat, ``names`` per seat and ``posts`` on table seats (``run_twice`` too,
        if given: the seats not dealt in are left out).  A seat with no chips is
        not dealt in; a button on such a seat is a dead button (TDA).

        >>> config = HandConfig.at_table([0, 120, 0, 80, 200], button=2, small_blind=1,
        ...                              big_blind=2)
        >>> config.seats, config.stacks, config.dead_button
        ((1, 3, 4), (120, 80, 200), True)
        """
        by_seat = dict(stacks) if isinstance(stacks, Mapping) else dict(enumerate(stacks))
        for seat, chips in by_seat.items():
            if not _is_int(seat) or not 0 <= seat < MAX_TABLE_SEATS:
                raise _fail("stacks", stacks, f"table seats are 0 to {MAX_TABLE_SEATS - 1}")
            if not _is_int(chips) or chips < 0:
                raise _fail("stacks", stacks, f"seat {seat} has {chips!r}: chips are 0 or more")
        seats = tuple(sorted(s for s, chips in by_seat.items() if chips))
        if not 2 <= len(seats) <= MAX_PLAYERS:
            raise _fail(
                "stacks",
                stacks,
                f"a hand needs 2 to {MAX_PLAYERS} seats with chips, got {len(seats)}",
            )
        if not _is_int(button):
            raise _fail("button", button, "must be a table seat")
        dead = button not in seats
        before = [s for s in seats if s < button] if dead else [button]
        position = seats.index(before[-1]) if before else len(seats) - 1
        named = dict(names) if isinstance(names, Mapping) else dict(enumerate(names or ()))
        moved = []
        for post in posts:
            if post.seat not in seats:
                raise _fail("posts", post, f"seat {post.seat} is not dealt in")
            moved.append(Post(seats.index(post.seat), post.amount, post.dead))
        if "run_twice" in rules:  # (table seats, as the posts)
            rules["run_twice"] = tuple(seats.index(s) for s in rules["run_twice"] if s in seats)
        return cls(
            stacks=tuple(by_seat[s] for s in seats),
            button=position,
            seats=seats,
            names=tuple(named.get(s) for s in seats) if named else (),
            dead_button=dead or bool(rules.pop("dead_button", False)),
            posts=tuple(moved),
            **rules,
        )

    def _check_limits(self) -> None:
        if self.structure is not _FIXED_LIMIT:
            for name in ("small_bet", "big_bet"):
                if getattr(self, name):
                    raise _fail(name, getattr(self, name), "is only for fixed-limit")
            return
        small = self.small_bet or self.big_blind
        if small != self.big_blind:
            raise _fail(
                "small_bet",
                self.small_bet,
                f"must equal the big blind {self.big_blind} in fixed-limit",
            )
        put = object.__setattr__
        put(self, "small_bet", small)
        big = self.big_bet or 2 * small
        if big < small:
            raise _fail("big_bet", self.big_bet, f"is smaller than the small bet {small}")
        put(self, "big_bet", big)
        if self.straddle:
            raise _fail("straddle", self.straddle, "straddles are not played in fixed-limit")

    def _blind_seats(self, n: int) -> tuple[int | None, int, int | None]:
        b = self.button
        if self.missing_small_blind or not self.small_blind:
            sb_seat = None
            bb_seat = (b + 1) % n
        elif n == 2:
            sb_seat, bb_seat = b, (b + 1) % n
        else:
            sb_seat, bb_seat = (b + 1) % n, (b + 2) % n
        straddle_seat = None
        if self.straddle:
            if self.straddle < 2 * self.big_blind:
                raise _fail(
                    "straddle",
                    self.straddle,
                    f"must be at least two big blinds ({2 * self.big_blind})",
                )
            straddle_seat = (bb_seat + 1) % n
            if straddle_seat in (sb_seat, bb_seat) or n < 3:
                raise _fail("straddle", self.straddle, "a straddle needs at least 3 players")
        return sb_seat, bb_seat, straddle_seat

    def _check_posts(
        self, n: int, sb_seat: int | None, bb_seat: int, straddle_seat: int | None
    ) -> None:
        live_seats: set[int] = set()
        if len(self.posts) > 2 * n:  # a live post and a dead blind each, at most
            raise _fail("posts", self.posts, f"at most 2 posts a player ({2 * n} here)")
        for post in self.posts:
            if not isinstance(post, Post):
                raise _fail("posts", self.posts, f"{post!r} is not a Post")
            if not _is_int(post.seat) or not 0 <= post.seat < n:
                raise _fail("posts", post, f"seat must be 0..{n - 1}")
            if not _is_int(post.amount) or post.amount < 1:
                raise _fail("posts", post, "amount must be an integer of at least 1")
            if post.amount >= MAX_CHIPS:
                raise _fail("posts", post, f"amount: {_TOO_MANY}")
            if post.dead:
                continue
            if post.seat in (sb_seat, bb_seat, straddle_seat):
                raise _fail("posts", post, f"seat {post.seat} already posts a blind")
            if post.seat in live_seats:
                raise _fail("posts", post, f"seat {post.seat} has two live posts")
            if post.amount > self.big_blind:
                raise _fail("posts", post, f"a live post is at most the big blind {self.big_blind}")
            live_seats.add(post.seat)

    def _forced(
        self, n: int, sb_seat: int | None, bb_seat: int, straddle_seat: int | None
    ) -> tuple[tuple[ActionKind, int, int], ...]:
        out: list[tuple[ActionKind, int, int]] = []
        if "dead_antes" in self.rule_variants:
            # (a rule variant: every dead chip before the blinds, as PokerKit posts its antes)
            if self.ante:
                first = self.button + 1
                seats = (bb_seat,) if self.big_blind_ante else range(first, first + n)
                out.extend((_ANTE, seat % n, self.ante) for seat in seats)
            out.extend((_DEAD_BLIND, p.seat, p.amount) for p in self.posts if p.dead)
            if sb_seat is not None:
                out.append((_SMALL_BLIND, sb_seat, self.small_blind))
            out.append((_BIG_BLIND, bb_seat, self.big_blind))
            if straddle_seat is not None:
                out.append((_STRADDLE, straddle_seat, self.straddle))
            out.extend((_LIVE_POST, p.seat, p.amount) for p in self.posts if not p.dead)
            return tuple(out)
        if self.ante and not self.big_blind_ante:
            first = self.button + 1
            out.extend((_ANTE, (first + i) % n, self.ante) for i in range(n))
        if sb_seat is not None:
            out.append((_SMALL_BLIND, sb_seat, self.small_blind))
        out.append((_BIG_BLIND, bb_seat, self.big_blind))
        if self.ante and self.big_blind_ante:
            out.append((_ANTE, bb_seat, self.ante))
        if straddle_seat is not None:
            out.append((_STRADDLE, straddle_seat, self.straddle))
        if self.posts:
            out.extend((_LIVE_POST, p.seat, p.amount) for p in self.posts if not p.dead)
            out.extend((_DEAD_BLIND, p.seat, p.amount) for p in self.posts if p.dead)
        return tuple(out)

    @property
    def players(self) -> int:
        """Number of players dealt in."""
        return len(self.stacks)

    def restacked(self, stacks: tuple[int, ...], hand_id: int | str | None = None) -> HandConfig:
        """This configuration with other ``stacks`` (as many players) and
        ``hand_id``: a table's next hand, dealt at the same places and blinds.
        Only the stacks are checked (the rest was when this configuration was
        made), which makes it several times faster than a new
        :class:`HandConfig`; stacks that are not a tuple of plain ints are
        checked and refused (:class:`~holdem.errors.ConfigError`) as a new
        configuration checks them.

        >>> config = HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2)
        >>> config.restacked((150, 50), hand_id=2).stacks
        (150, 50)
        """
        config: HandConfig | None = _engine.restack(self, stacks, hand_id)
        if config is None:  # (another type, or stacks to check and word)
            return replace(self, stacks=stacks, hand_id=hand_id)
        return config


def _plain_table(posts: Any, seats: Any, names: Any) -> bool:
    """Whether a configuration's posts, seats and names can be part of a key of
    ``_DERIVED``: tuples of exact ints, of strings or None, and of posts made of
    exact ints and bools (their values are the key)."""
    if not (type(posts) is tuple and type(seats) is tuple and type(names) is tuple):
        return False
    return (
        set(map(type, seats)) <= _INT
        and set(map(type, names)) <= _NAME
        and all(
            type(p) is Post
            and type(p.seat) is int
            and type(p.amount) is int
            and type(p.dead) is bool
            for p in posts
        )
    )


_INT = {int}
_NAME = {str, type(None)}


def _slot_setter(name: str) -> Callable[[HandConfig, Any], None]:
    """The setter of one of HandConfig's slots: it stores past the frozen
    dataclass's __setattr__, as object.__setattr__ would, in about half the time."""
    setter: Callable[[HandConfig, Any], None] = HandConfig.__dict__[name].__set__
    return setter


_set_stacks = _slot_setter("stacks")
_set_button = _slot_setter("button")
_set_small_blind = _slot_setter("small_blind")
_set_big_blind = _slot_setter("big_blind")
_set_structure = _slot_setter("structure")
_set_ante = _slot_setter("ante")
_set_big_blind_ante = _slot_setter("big_blind_ante")
_set_straddle = _slot_setter("straddle")
_set_missing_small_blind = _slot_setter("missing_small_blind")
_set_dead_button = _slot_setter("dead_button")
_set_posts = _slot_setter("posts")
_set_small_bet = _slot_setter("small_bet")
_set_big_bet = _slot_setter("big_bet")
_set_raise_cap = _slot_setter("raise_cap")
_set_heads_up_cap = _slot_setter("heads_up_cap")
_set_hand_id = _slot_setter("hand_id")
_set_seats = _slot_setter("seats")
_set_names = _slot_setter("names")
_set_rule_variants = _slot_setter("rule_variants")
_set_aggressor_may_muck = _slot_setter("aggressor_may_muck")
_set_run_twice = _slot_setter("run_twice")
_set_unit = _slot_setter("unit")
_set_seat_numbers = _slot_setter("seat_numbers")
_set_small_blind_seat = _slot_setter("small_blind_seat")
_set_big_blind_seat = _slot_setter("big_blind_seat")
_set_straddle_seat = _slot_setter("straddle_seat")
_set_forced_bets = _slot_setter("forced_bets")


def _names_of(f: Fields) -> tuple[str | None, ...]:
    names = f.raw("names", "a list of names (or null)", default=[])
    if not isinstance(names, list) or not all(n is None or isinstance(n, str) for n in names):
        raise f.error("names", names, "expected a list of names (strings or null)")
    return tuple(names)


def _unit_of(f: Fields) -> Decimal:
    """The wire form's chip unit: text (``"0.5"``) or a number; 1 when left out."""
    unit = f.raw("unit", "a chip unit", default="1")
    if isinstance(unit, bool) or not isinstance(unit, int | float | str):
        raise f.error("unit", unit, 'expected a chip unit: a decimal as text, e.g. "0.5"')
    try:
        return check_unit(unit, "config.unit")
    except ConfigError as exc:
        raise f.error("unit", unit, str(exc).partition(": ")[2]) from None


def _rule_variants_of(f: Fields) -> tuple[str, ...]:
    variants = f.raw("rule_variants", "a list of rule variant names", default=[])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise f.error("rule_variants", variants, "expected a list of rule variant names")
    return tuple(variants)


#: HandConfig's slots as restack() takes them: the stacks, the hand id, then
#: every other (a slot it did not know would be left unset: so all of them)
_engine.bind_config(
    HandConfig,
    ("stacks", "hand_id", *(s for s in HandConfig.__slots__ if s not in ("stacks", "hand_id"))),
    MAX_CHIPS,
)
