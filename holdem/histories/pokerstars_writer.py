"""PokerStars text hand histories: the writer.

:func:`write_pokerstars` and :func:`to_pokerstars` write
:class:`~holdem.histories.HandHistory` records as PokerStars text, which
:func:`~holdem.histories.read_pokerstars` reads back.

The betting is not worked out here: every hand is replayed through the rules
engine (:func:`~holdem.histories.playback.replay`), and the text states what
the engine did, posts, calls, all-in marks, uncalled bets, pots, winners and
the shown hands' values, except where the record states the result itself
(collected amounts, rake, hand descriptions ...), which is written as the
record has it.  A hand that does not replay (an invalid hand kept on purpose)
is written from its record alone: see :func:`to_pokerstars`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from itertools import zip_longest
from typing import Any, TextIO

from ..actions import Action
from ..actions import ActionKind as K
from ..cards import RANK_NAMES, Card, format_cards
from ..errors import HistoryFormatError, HoldemError, quote
from ..hand import Hand
from .model import (
    BET_RAISE,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DEAL_SECOND_BOARD,
    FOLD,
    MUCK,
    SECOND_RUN,
    SHOW,
    Claims,
    HandHistory,
    Move,
)
from .playback import Replay, completed_claims, replay, states
from .pokerstars import _GAME, _LIMIT_TEXT, _STREETS, DEFAULT_DATE, NAMES_ESCAPED

__all__ = ["PokerStarsWriter", "to_pokerstars", "write_pokerstars"]

#: The date written for a hand whose record gives none (PokerStars text states one).


class PokerStarsWriter:
    """Writes hands as PokerStars text to a stream, one at a time, separated by
    blank lines; :attr:`count` is the number written."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.count = 0

    def write(self, hand: HandHistory, *, replayed: Replay | None = None) -> None:
        """Writes one hand; a hand the format cannot express raises
        :class:`~holdem.errors.HistoryFormatError` and writes nothing.
        ``replayed``: see :func:`to_pokerstars`."""
        text = to_pokerstars(hand, replayed=replayed)
        if self.count:
            self.out.write("\n\n")
        self.out.write(text)
        self.count += 1


def write_pokerstars(hands: Iterable[HandHistory], out: TextIO) -> int:
    """Writes hands as PokerStars text, separated by blank lines; returns how many."""
    writer = PokerStarsWriter(out)
    for hand in hands:
        writer.write(hand)
    return writer.count


def to_pokerstars(hand: HandHistory, *, replayed: Replay | None = None) -> str:
    """One hand as PokerStars text (ending with a newline).

    ``replayed``: the hand's :func:`~holdem.histories.replay`, when the caller
    has it (a clean one is used, not done again).

    The hand is replayed: posts, call amounts, raise increments, all-in
    marks, uncalled bets, the pots (main and side), who collected what and
    the shown hands' descriptions are the engine's, unless the record states
    them (its ``stated`` amounts, its claims: collected, returned, total pot,
    side pots, rake, winnings, descriptions).  Where the record states
    winnings below what the rules award and no rake, the difference is the
    rake.  A hand that does not replay is written from the record alone:
    posts as set, calls of the difference to the street's highest bet,
    all-in only where the record says so, and uncalled bets, collected
    amounts, pots and the summary's results only as far as the record states
    them.

    Hands from other formats get ``Player1``.. for missing names, hand id 0
    (also for an id that is not a number: PokerStars numbers its hands),
    seats 1..n with the button last, table ``holdem`` and, without a date
    (PHH ``year``/``month``/``day``/``time``), :data:`DEFAULT_DATE`.  A show
    of cards nobody knows (PHH ``sm ????``) is left out.  A hand whose
    starting stacks are not all known cannot be written (PokerStars states
    every one): :class:`~holdem.errors.HistoryFormatError`.
    """
    hand.check_writable()
    play = _play_of(hand, _engine_of(hand, replayed))
    problem = _unwritable(hand, play)
    if problem:
        raise HistoryFormatError(
            f"{problem}: this hand cannot be written as PokerStars text",
            path=hand.source,
            line=hand.line,
        )
    lines = _Text(hand, play).lines()
    for line in lines:
        if "\n" in line or "\r" in line:
            raise HistoryFormatError(
                f"the line {quote(line)} would hold a line break: this hand cannot be written "
                "as PokerStars text",
                path=hand.source,
                line=hand.line,
            )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- what happened


@dataclass
class _Post:
    player: int
    kind: str  # ante, small, big, live, dead
    amount: int
    all_in: bool = False


@dataclass
class _Play:
    """What a hand's text states: the engine's replay where it gets, else the record."""

    posts: list[_Post]
    #: per move of the record: the engine's record of it (None: not a decision, or
    #: past where the engine got)
    actions: list[Action | None]
    #: per move: the bet to match before it (for a raise's increment)
    levels: list[int]
    #: after which move (index) the uncalled bets go back (None: before the results)
    returned_after: int | None
    #: the results the text states: the record's, completed from the engine's
    #: outcome where the record states none
    claims: Claims
    #: the hand descriptions, by player (the record's, else the engine's words)
    described: dict[int, str]
    #: a board run twice (R10): the descriptions on the second run's board (the engine's)
    described2: dict[int, str]
    showdown: bool
    stakes: tuple[int, int] | None  # the engine's small and big blind
    #: the engine played the forced bets (its posts are what was posted)
    engine: bool = False
    #: the engine played the whole hand (the results are its own)
    finished: bool = False


_DECISIONS = (K.FOLD, K.CHECK, K.CALL, K.BET, K.RAISE)
_POST_KINDS = {
    K.ANTE: "ante",
    K.SMALL_BLIND: "small",
    K.BIG_BLIND: "big",
    K.STRADDLE: "straddle",
    K.LIVE_POST: "live",
    K.DEAD_BLIND: "dead",
}


def _engine_of(hand: HandHistory, replayed: Replay | None = None) -> Hand | None:
    """The engine's hand after the record's moves: finished when the hand replays,
    else as far as it got (None when not even the setup is legal).  ``replayed``:
    the hand's replay, if the caller has it (used when it is clean: the claims
    it also checked do not change the play)."""
    result = replayed
    if result is None or result.history is not hand:
        result = replay(hand)  # (by the conventions its stated results need, if any)
    if not result.ok:
        result = replay(hand, check_claims=False)
    if result.ok and result.hand is not None and result.hand.outcome is not None:
        return result.hand
    last = None
    try:
        for state in states(hand):
            last = state
    except HoldemError:
        pass
    return last


def _play_of(hand: HandHistory, engine: Hand | None) -> _Play:
    """What the text states: the betting from the engine's log as far as it got (the
    rest from the record), the results from its outcome if it finished."""
    claims = hand.claims
    n = len(hand.players)
    outcome = engine.outcome if engine is not None else None
    log = engine.log if engine is not None else ()
    b = hand.blinds
    if outcome is not None:
        posts = [
            _Post(a.seat, _POST_KINDS[a.kind], a.amount, a.all_in)
            for a in log
            if a.kind in _POST_KINDS and a.seat is not None and a.amount
        ]
    else:
        posts = _record_posts(hand)
    level = max(b.blinds, default=0)
    if engine is not None:
        level = max(engine.config.big_blind, engine.config.straddle)
        if "posted_short_blind" in engine.config.rule_variants:  # PokerKit's reading
            level = max(
                (a.amount for a in log if a.kind in (K.BIG_BLIND, K.STRADDLE) and a.amount),
                default=level,
            )
    decisions = [i for i, a in enumerate(log) if a.kind in _DECISIONS]
    first_return = next((i for i, a in enumerate(log) if a.kind is K.RETURN), None)
    actions: list[Action | None] = []
    levels: list[int] = []
    returned_after: int | None = None
    excess = [0] * n
    taken = 0
    for index, move in enumerate(hand.moves):
        if move.kind == DEAL_BOARD:
            level = 0
        levels.append(level)
        action = None
        if move.kind in (FOLD, CHECK_CALL, BET_RAISE) and taken < len(decisions):
            at = decisions[taken]
            taken += 1
            action = log[at]
            if first_return is not None and at < first_return:
                returned_after = index
        actions.append(action)
        if action is not None and action.kind in (K.BET, K.RAISE):
            level = max(level, action.to)
        elif move.kind == BET_RAISE and move.to:
            if action is not None and move.actor is not None:
                # a raise nobody could call, replayed as a call: the excess comes back
                excess[move.actor] += move.to - action.to
            level = max(level, move.to)
    play = _Play(
        posts=posts,
        actions=actions,
        levels=levels,
        returned_after=returned_after,
        claims=claims,
        described=dict(claims.described),
        described2={
            s.seat: _stars_words(s.description) for s in (outcome.shown if outcome else ()) if s.run
        },
        showdown=False,
        stakes=(engine.config.small_blind, engine.config.big_blind) if engine else None,
        engine=outcome is not None,
    )
    if outcome is None or claims.total_pot is not None or claims.collected is not None:
        # the results as the record states them: a record that states the total pot
        # or who collected it (as PokerStars text does) states every result it has
        if not play.described:
            play.described2 = {}  # (the second run described where the first is)
        play.showdown = outcome.showdown if outcome is not None else False
        play.finished = outcome is not None
        return play
    play.finished = True
    play.showdown = outcome.showdown
    play.claims = completed_claims(hand, outcome, excess)
    if not play.described:
        for shown in outcome.shown:
            if not shown.run:
                play.described[shown.seat] = _stars_words(shown.description)
    return play


def _record_posts(hand: HandHistory) -> list[_Post]:
    """The forced bets as the record sets them, each at most what is left of the
    stack (for a hand the engine does not finish)."""
    b = hand.blinds
    n = len(hand.players)
    posts: list[_Post] = []
    spent = [0] * n

    def post(i: int, kind: str, amount: int) -> None:
        stack = hand.players[i].stack
        if stack is not None:
            amount = min(amount, stack - spent[i])
        if amount > 0:
            spent[i] += amount
            posts.append(_Post(i, kind, amount, stack is not None and spent[i] >= stack))

    for i, amount in enumerate(b.antes):
        if amount:
            post(i, "ante", amount)
    blinders = sorted((i for i in range(n) if b.blinds[i]), key=lambda i: (b.blinds[i], i))
    for rank, i in enumerate(blinders):
        post(i, "small" if rank == 0 and len(blinders) > 1 else "big", b.blinds[i])
    for i, amount in enumerate(b.posts):
        if amount:
            post(i, "live", amount)
    for i, amount in enumerate(b.dead):
        if amount:
            post(i, "dead", amount)
    return posts


# ---------------------------------------------------------------- what cannot be written

#: How lines of a hand start that are not a player's: a name cannot start so.
_LINE_STARTS = (
    "Seat ",
    "Dealt to ",
    "Uncalled bet ",
    "*** ",
    "Total pot ",
    "Board ",
    "PokerStars ",
)


def _unwritable(hand: HandHistory, play: _Play) -> str | None:
    """Why PokerStars text cannot say what the hand says (None: it can).

    Every stack is stated, and no two players have one name (a name that would
    not read back as it is is escaped: :func:`escape_name`).  PokerStars has
    no straddle, and deals the board three cards, then one and one.
    """
    b = hand.blinds
    if (
        (len(hand.players) > 2 and any(b.blinds[2:]))
        or (b.min_bet and max(b.blinds, default=0) > b.min_bet)
        or any(p.kind == "straddle" for p in play.posts)
    ):  # a third blind, or a blind above the big blind (the small one missing)
        return "a straddle (a third blind), which PokerStars text has no word for"
    unusual = (
        any(b.dead)
        or any(b.posts)
        or len(set(b.antes)) > 1
        or (len(hand.players) > 2 and not (b.blinds[0] and b.blinds[1]))
    )
    if unusual:
        stated = {
            (i, kind): amount
            for kind, row in (("ante", b.antes), ("blind", b.blinds), ("dead", b.dead))
            for i, amount in enumerate(row)
            if amount
        }
        for i, amount in enumerate(b.posts):
            if amount:
                stated[(i, "live")] = amount
        posted: dict[tuple[int, str], int] = {}
        for p in play.posts:
            kind = "blind" if p.kind in ("small", "big") else p.kind
            posted[(p.player, kind)] = posted.get((p.player, kind), 0) + p.amount
        if posted != stated:
            # PokerStars states what was posted: who posted which blind is then lost
            return (
                "a stack too short for its forced bets beside a missing blind, a dead blind, "
                "a live post or a big-blind ante"
            )
    extra = [d + p for d, p in zip_longest(b.dead, b.posts, fillvalue=0)]
    for i, (blind, more) in enumerate(zip(b.blinds, extra, strict=False)):
        if blind and more:
            return f"{hand.player_name(i)} posts a blind and another forced bet"
    boards = [len(m.cards) for m in hand.moves if m.kind == DEAL_BOARD]
    if boards != [3, 1, 1][: len(boards)]:
        return (
            f"a board dealt as {'+'.join(map(str, boards))} cards (PokerStars text deals a "
            "flop of three, then a turn and a river of one)"
        )
    dealt: dict[int, set[Card]] = {}
    for move in hand.moves:
        known = [c for c in move.cards if c is not None]
        if len(set(known)) != len(known):
            return f"{format_cards(known)} repeats a card (PokerStars text lists each card once)"
        if move.actor is None or len(known) != 2:
            continue
        if move.kind == DEAL_HOLE:
            dealt[move.actor] = set(known)
        elif move.kind == SHOW and dealt.get(move.actor, set(known)) != set(known):
            return (
                f"{hand.player_name(move.actor)} shows {format_cards(known)} but was dealt "
                f"{format_cards(sorted(dealt[move.actor], reverse=True))}"
            )
    seen: set[str] = set()
    for i, player in enumerate(hand.players):
        if player.stack is None:
            return f"{hand.player_name(i)}'s starting stack is unknown, and PokerStars states each"
        name = player.name or f"Player{i + 1}"
        if name in seen:
            return f"two players are named {quote(name)}"
        seen.add(name)
    return None


def _reads_back(name: str) -> bool:
    """Whether a name written as it is reads back as itself: a player is named at
    the start of a line (``name: folds``), so no spaces around it, no ``': '``
    or unprintable character in it (a control character, a no-break space), no
    start of another kind of line (``Seat 1``)."""
    return (
        name == name.strip()
        and ": " not in name
        and " [" not in name  # 'Dealt to NAME [cards]' would read the cards into the name
        and name.isprintable()
        and not name.startswith(_LINE_STARTS)
    )


def escape_name(name: str) -> str:
    """A name in the form the reader decodes in a hand marked
    :data:`~holdem.histories.pokerstars.NAMES_ESCAPED`: a backslash doubled;
    every unprintable character (a control character, a no-break space, a lone
    surrogate) and a space at either end as a backslash, ``u`` and four hex
    digits (``U`` and eight above the first plane); and so the colon of
    ``': '``, the bracket of ``' ['`` and the first character of a line's start
    (``Seat 1``).

    >>> print(escape_name("Ann\\u00a0Lee"), escape_name("Seat 9"), escape_name("a\\\\b: c"))
    Ann\\u00a0Lee \\u0053eat 9 a\\\\b\\u003a c
    """
    last = len(name) - 1
    text = "".join(
        "\\\\" if ch == "\\"
        else _code(ch) if not ch.isprintable() or (ch == " " and i in (0, last))
        else ch
        for i, ch in enumerate(name)
    )  # fmt: skip
    text = text.replace(": ", _code(":") + " ").replace(" [", " " + _code("["))
    if text.startswith(_LINE_STARTS):
        text = _code(text[0]) + text[1:]
    return text


def _code(ch: str) -> str:
    """A character as the escape the reader decodes (see :func:`escape_name`)."""
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


# ---------------------------------------------------------------- fields


def _is_text(value: object) -> bool:
    return isinstance(value, str)


def _is_flag(value: object) -> bool:
    return isinstance(value, bool)


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def _is_amount(value: object) -> bool:
    """Chips (an int), or an amount in the file's notation (a Decimal or its text)."""
    if _is_count(value):
        return True
    try:
        number = Decimal(value) if isinstance(value, Decimal | str) else None
    except InvalidOperation:
        return False
    return number is not None and number.is_finite() and number >= 0


def _matches(pattern: str) -> Any:
    compiled = re.compile(pattern)
    return lambda value: isinstance(value, str) and compiled.fullmatch(value) is not None


def _rows(*checks: Any) -> Any:
    def check(value: object) -> bool:
        return isinstance(value, list | tuple) and all(
            isinstance(row, list | tuple)
            and len(row) == len(checks)
            and all(ok(x) for ok, x in zip(checks, row, strict=True))
            for row in value
        )

    return check


#: The fields of a hand the writer uses, as the PokerStars reader keeps them,
#: each with a check of its value.  A hand from elsewhere (a PHH file's own
#: ``table`` or ``currency``) is written from PHH's fields instead (:func:`_phh_fields`).
_WRITER_FIELDS: dict[str, Any] = {
    "site": lambda value: value == "PokerStars",
    "hand_kind": lambda value: value in ("Hand", "Game"),
    "zoom": _is_flag,
    "home_game": _is_flag,
    "play_money": _is_flag,
    "club": _matches(r"[^}]*"),
    "game": _matches(_GAME.pattern),
    "tournament_id": _matches(r"\d+"),
    "buy_in": _is_text,
    "level": _matches(r"\w+"),
    "match_round": _matches(r"\w+"),
    "cap": _is_amount,
    "currency": _matches(r"[A-Z]{3}"),
    "currency_symbol": _matches(r"[^\s\d()\[\]|/,.:+-]{0,3}"),
    "date": _is_text,
    "table": _is_text,
    "max_seats": lambda value: type(value) is int and 2 <= value <= 10,
    "button_seat": lambda value: type(value) is int and value > 0,
    "stakes": lambda value: (
        isinstance(value, list | tuple) and len(value) == 2 and all(map(_is_amount, value))
    ),
    "bounties": _rows(_is_count, _is_text),
    "sitting_out_seats": lambda value: (
        isinstance(value, list | tuple) and all(map(_is_count, value))
    ),
    "not_dealt": _rows(_is_count, _is_text, _is_amount, _is_text),
}

#: Currency symbols of the codes a PHH file may give without one.
_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "$", "AUD": "$"}


def _writer_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields the writer may use: those the PokerStars reader made, checked,
    or those of PHH's that PokerStars text states (:func:`_phh_fields`)."""
    if fields.get("site") != "PokerStars":
        return _phh_fields(fields)
    return {k: v for k, v in fields.items() if k in _WRITER_FIELDS and _WRITER_FIELDS[k](v)}


def _phh_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """PHH's optional fields that PokerStars text has a place for: the table, the
    number of seats, the currency, the date (``year``, ``month``, ``day``,
    ``time``, ``time_zone_abbreviation``), a tournament's level, and its
    number (``_tournament_id``, as a PokerStars hand's goes to PHH)."""
    out: dict[str, Any] = {}
    table = fields.get("table")
    if isinstance(table, str | int) and not isinstance(table, bool):
        out["table"] = str(table)
    count = fields.get("seat_count")
    if type(count) is int and 2 <= count <= 10:
        out["max_seats"] = count
    currency = fields.get("currency")
    if isinstance(currency, str) and re.fullmatch(r"[A-Z]{3}", currency):
        out["currency"] = currency
    symbol = fields.get("currency_symbol")
    if isinstance(symbol, str) and _WRITER_FIELDS["currency_symbol"](symbol):
        out["currency_symbol"] = symbol
    elif isinstance(currency, str) and currency in _SYMBOLS:
        out["currency_symbol"] = _SYMBOLS[currency]
    day = _phh_date(fields)
    if day is not None:
        out["date"] = day
    level = fields.get("level")  # a tournament's level: "Level IV" in the header
    if (
        isinstance(level, str | int)
        and not isinstance(level, bool)
        and re.fullmatch(r"\w+", str(level))
    ):
        out["level"] = str(level)
    tournament = fields.get("tournament_id")
    if isinstance(tournament, str) and _WRITER_FIELDS["tournament_id"](tournament):
        out["tournament_id"] = tournament
    return out


def _phh_date(fields: dict[str, Any]) -> str | None:
    """PokerStars' ``2009/07/01 0:00:02 ET`` from PHH's date fields (None if incomplete)."""
    parts = [fields.get(k) for k in ("year", "month", "day")]
    if not all(type(x) is int for x in parts):
        return None
    try:
        when = date(*parts)  # type: ignore[arg-type]
    except ValueError:
        return None
    clock = fields.get("time")
    if isinstance(clock, datetime):
        clock = clock.time()
    if not isinstance(clock, time):
        clock = time(0)
    zone = fields.get("time_zone_abbreviation")
    if not (isinstance(zone, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9+-]{0,9}", zone)):
        # PHH: a time without a zone is UTC, unless the venue's city, region and country say
        located = all(isinstance(fields.get(k), str) for k in ("city", "region", "country"))
        zone = "" if located else "UTC"
    text = f"{when.year:04}/{when.month:02}/{when.day:02} {clock.hour}:{clock.minute:02}:"
    return f"{text}{clock.second:02} {zone}".rstrip()


# ---------------------------------------------------------------- the text


class _Text:
    """The lines of one hand, from its record and what happened (:class:`_Play`)."""

    def __init__(self, hand: HandHistory, play: _Play) -> None:
        self.hand = hand
        self.play = play
        self.f = _writer_fields(hand.fields)
        self.n = len(hand.players)
        names = [p.name or f"Player{i + 1}" for i, p in enumerate(hand.players)]
        aside = [str(row[1]) for row in self.f.get("not_dealt", [])]
        #: names that would not read back as they are: every name of the hand escaped,
        #: the hand marked so (NAMES_ESCAPED), and the reader decodes them
        self.escaped = not all(map(_reads_back, names + aside))
        self.names = [escape_name(n) for n in names] if self.escaped else names
        seats = [p.seat for p in hand.players]
        if any(s is None for s in seats) or len(set(seats)) != self.n:
            self.seats = list(range(1, self.n + 1))
        else:
            self.seats = [int(s) for s in seats if s is not None]
        self.symbol = str(self.f.get("currency_symbol", ""))
        self.hole = {
            m.actor: m.cards for m in hand.moves if m.kind == DEAL_HOLE and m.actor is not None
        }
        self.board = [
            c for m in hand.moves if m.kind == DEAL_BOARD for c in m.cards if c is not None
        ]
        #: a board run twice (R10): the second run's new cards, and where it begins
        self.second = [
            c for m in hand.moves if m.kind == DEAL_SECOND_BOARD for c in m.cards if c is not None
        ]
        self.run_from = 5 - len(self.second) if self.second else 5

    # -- amounts

    def amount(self, chips: int) -> str:
        """An amount as PokerStars writes it: whole, or with at least two decimals."""
        text = self.hand.to_text(chips)
        whole, dot, frac = text.partition(".")
        return f"{whole}.{frac.ljust(2, '0')}" if dot else text

    def money(self, chips: int) -> str:
        return f"{self.symbol}{self.amount(chips)}"

    def chips(self, value: Any) -> int:
        """A field's amount in chips: an int is chips, a Decimal or text the file's notation."""
        if isinstance(value, int):
            return value
        return int(Decimal(value) / self.hand.unit)

    def stakes(self) -> tuple[int, int]:
        st = self.f.get("stakes")
        if isinstance(st, list | tuple) and len(st) == 2:
            return self.chips(st[0]), self.chips(st[1])
        b = self.hand.blinds
        if self.hand.variant == "FT":
            return b.small_bet, b.big_bet
        if self.play.stakes is not None:
            return self.play.stakes
        positive = sorted(x for x in b.blinds if x > 0)
        bb = b.min_bet or (positive[-1] if positive else 0)
        sb = positive[0] if len(positive) > 1 else bb // 2
        return sb, bb

    # -- the parts

    def header(self) -> str:
        h, f = self.hand, self.f
        kind = f.get("hand_kind", "Hand")
        tournament = h.tournament or "tournament_id" in f
        prefix = "Zoom " if f.get("zoom") and not tournament else ""
        if f.get("home_game"):
            prefix = "Home Game "
        number = h.hand_id if h.hand_id and h.hand_id.isascii() and h.hand_id.isdigit() else 0
        parts = [f"PokerStars {prefix}{kind} #{number}: "]
        if "club" in f:
            parts.append(f"{{{f['club']}}} ")
        game = f.get("game") or f"Hold'em {_LIMIT_TEXT.get(h.variant, 'No Limit')}"
        sb, bb = self.stakes()
        if tournament:
            zoom = "Zoom " if f.get("zoom") else ""
            buy_in = f.get("buy_in", "")
            parts.append(f"{zoom}Tournament #{f.get('tournament_id', 0)}, ")
            blinds = f"({self.amount(sb)}/{self.amount(bb)})"
            if "level" in f:
                parts.append(f"{buy_in} " if buy_in else "")
                rnd = f"Match Round {f['match_round']}, " if "match_round" in f else ""
                parts.append(f"{game} - {rnd}Level {f['level']} {blinds}")
            else:
                parts.append(f"{buy_in} - " if buy_in else "")
                parts.append(f"{game} {blinds}")
        else:
            stakes = f"{self.money(sb)}/{self.money(bb)}"
            if "cap" in f:
                stakes += f" - {self.money(self.chips(f['cap']))} Cap -"
            if "currency" in f:
                stakes += f" {f['currency']}"
            parts.append(f" {game} ({stakes})")
        parts.append(f" - {f.get('date', DEFAULT_DATE)}")
        return "".join(parts)

    def lines(self) -> list[str]:
        h, f = self.hand, self.f
        out = [self.header()]
        button = f.get("button_seat", self.seats[-1] if self.seats else 1)
        size = f.get("max_seats")
        if size is None and "site" not in f:
            size = max(max(self.seats, default=2), self.n)
        table = f"Table '{f.get('table', 'holdem')}' "
        if size:
            table += f"{size}-max "
        if f.get("play_money"):
            table += "(Play Money) "
        out.append(f"{table}Seat #{button} is the button")
        seat_lines: list[tuple[int, str]] = []
        bounties = {int(s): str(b) for s, b in f.get("bounties", [])}
        out_seats = set(f.get("sitting_out_seats", []))
        for i, p in enumerate(h.players):
            seat = self.seats[i]
            bounty = f", {bounties[seat]} bounty" if seat in bounties else ""
            note = " is sitting out" if seat in out_seats else ""
            chips = self.money(p.stack or 0)
            seat_lines.append(
                (seat, f"Seat {seat}: {self.names[i]} ({chips} in chips{bounty}){note}")
            )
        for seat, name, stack, note in f.get("not_dealt", []):
            bounty = f", {bounties[seat]} bounty" if seat in bounties else ""
            chips = self.money(self.chips(stack))
            name = escape_name(name) if self.escaped else name
            seat_lines.append((int(seat), f"Seat {seat}: {name} ({chips} in chips{bounty}) {note}"))
        out.extend(text for _, text in sorted(seat_lines))
        out.extend(self.posts())
        out.extend(self.moves())
        out.extend(self.summary())
        if self.escaped:
            out.append(NAMES_ESCAPED)
        return out

    def posts(self) -> list[str]:
        """The forced bets: antes, the small blind, the big blind, then other posts
        (the reader tells blinds from dead and live posts by this order)."""
        rank = {"ante": 0, "small": 1, "big": 2, "live": 3, "dead": 3}
        posts = sorted(self.play.posts, key=lambda p: rank[p.kind])
        out: list[str] = []
        both = {p.player for p in posts if p.kind == "live"} & {
            p.player for p in posts if p.kind == "dead"
        }
        for p in posts:
            name = self.names[p.player]
            tail = " and is all-in" if p.all_in else ""
            if p.kind == "ante":
                out.append(f"{name}: posts the ante {self.money(p.amount)}{tail}")
            elif p.player in both:
                if p.kind == "live":
                    total = sum(
                        q.amount for q in posts if q.player == p.player and q.kind != "ante"
                    )
                    out.append(f"{name}: posts small & big blinds {self.money(total)}{tail}")
            else:
                what = "small blind" if p.kind in ("small", "dead") else "big blind"
                out.append(f"{name}: posts {what} {self.money(p.amount)}{tail}")
        return out

    def moves(self) -> list[str]:
        h, play = self.hand, self.play
        out = ["*** HOLE CARDS ***"]
        for i, cards in self.hole.items():
            known = [c for c in cards if c is not None]
            if known:
                out.append(f"Dealt to {self.names[i]} [{format_cards(known)}]")
        board: list[Card] = []
        second: list[Card] = []
        street = 0
        returned_done = False
        showdown_done = False
        showdown = "*** FIRST SHOW DOWN ***" if self.second else "*** SHOW DOWN ***"
        committed = [0] * self.n  # without an engine: each player's bet of the street
        for p in play.posts:
            if p.kind in ("small", "big", "live"):
                committed[p.player] += p.amount

        def uncalled() -> None:
            nonlocal returned_done
            if not returned_done:
                returned_done = True
                for who, amount in play.claims.returned or ():
                    out.append(f"Uncalled bet ({self.money(amount)}) returned to {self.names[who]}")

        for index, move in enumerate(h.moves):
            kind, who = move.kind, move.actor
            if kind == DEAL_HOLE:
                continue
            if kind == DEAL_BOARD:
                new = [c for c in move.cards if c is not None]
                first = "FIRST " if len(board) >= self.run_from else ""  # (run twice, R10)
                if street == 0 and len(new) == 3:
                    out.append(f"*** {first}FLOP *** [{format_cards(new)}]")
                else:
                    name = _STREETS[min(street, 2)]
                    out.append(
                        f"*** {first}{name} *** [{format_cards(board)}] [{format_cards(new)}]"
                    )
                board.extend(new)
                street += 1
                committed = [0] * self.n
                continue
            if kind == DEAL_SECOND_BOARD:
                new = [c for c in move.cards if c is not None]
                if not second:
                    second = board[: self.run_from]
                if not second and len(new) == 3:
                    out.append(f"*** SECOND FLOP *** [{format_cards(new)}]")
                else:
                    name = _STREETS[min(len(second) - 2, 2)]
                    out.append(
                        f"*** SECOND {name} *** [{format_cards(second)}] [{format_cards(new)}]"
                    )
                second = second + new
                continue
            if who is None:
                continue
            name = self.names[who]
            if kind in (SHOW, MUCK):
                if not showdown_done and (play.showdown or not play.finished):
                    uncalled()
                    out.append(showdown)
                    showdown_done = True
                out.extend(self.show(move, showdown_done))
                continue
            action = play.actions[index]
            level = play.levels[index]
            all_in = move.all_in or (action is not None and action.all_in)
            tail = " and is all-in" if all_in else ""
            cap = self.f.get("cap")
            if (
                all_in
                and not move.all_in
                and cap is not None
                and (h.players[who].stack or 0) > self.chips(cap)
            ):  # a cap game: all in for the hand at the cap, with chips left behind
                tail = f" and has reached the {self.money(self.chips(cap))} cap"
            if kind == FOLD:
                out.append(f"{name}: folds")
            elif kind == CHECK_CALL:
                if action is not None:
                    paid = action.amount if action.kind is K.CALL else 0
                else:
                    paid = max(level - committed[who], 0)
                committed[who] += paid
                if paid or move.stated is not None or all_in:
                    said = paid if move.stated is None else move.stated
                    out.append(f"{name}: calls {self.money(said)}{tail}")
                else:
                    out.append(f"{name}: checks")
            else:
                to = move.to or 0
                committed[who] = to
                if level == 0 and (action is None or action.kind is K.BET):
                    out.append(f"{name}: bets {self.money(to)}{tail}")
                else:
                    by = max(to - level, 0) if move.stated is None else move.stated
                    out.append(f"{name}: raises {self.money(by)} to {self.money(to)}{tail}")
            if play.returned_after == index:
                uncalled()
        uncalled()
        if play.showdown and not showdown_done:
            out.append(showdown)
        collected = play.claims.collected or ()
        for who, amount, pot in collected:
            if not pot.endswith(SECOND_RUN):
                out.append(f"{self.names[who]} collected {self.money(amount)} from {pot}")
        if self.second:  # the second run's showdown: the same hands, its own pots
            out.append("*** SECOND SHOW DOWN ***")
            for move in h.moves:
                if move.kind in (SHOW, MUCK) and move.actor is not None:
                    out.extend(self.show(move, True, run=1))
            for who, amount, pot in collected:
                if pot.endswith(SECOND_RUN):
                    pot = pot.removesuffix(SECOND_RUN)
                    out.append(f"{self.names[who]} collected {self.money(amount)} from {pot}")
        return out

    def known_cards(self, move: Move) -> list[Card]:
        """A show's cards, filled in from the deal where the show leaves them unknown."""
        cards = [c for c in move.cards if c is not None]
        for c in self.hole.get(move.actor, ()) if move.actor is not None else ():
            if c is not None and c not in cards and len(cards) < len(move.cards):
                cards.append(c)
        return cards

    def show(self, move: Move, at_showdown: bool, run: int = 0) -> list[str]:
        """A show or muck (``run`` 1: at the showdown of a board's second run)."""
        who = move.actor
        assert who is not None
        name = self.names[who]
        if move.kind == MUCK:
            return [f"{name}: mucks hand" if at_showdown else f"{name}: doesn't show hand"]
        cards = self.known_cards(move)
        if not cards:
            return []  # nothing known to show: PokerStars text has no unknown card
        desc = (self.play.described2 if run else self.play.described).get(who)
        tail = f" ({desc})" if desc else ""
        return [f"{name}: shows [{format_cards(cards)}]{tail}"]

    def result(self, won: int, desc: str | None) -> str:
        """``won ($X) with ...`` or ``lost with ...`` (a summary's result on one board)."""
        with_desc = f" with {desc}" if desc else ""
        return f"won ({self.money(won)}){with_desc}" if won else f"lost{with_desc}"

    def summary(self) -> list[str]:
        h, play = self.hand, self.play
        out = ["*** SUMMARY ***"]
        claims = play.claims
        if claims.total_pot is not None:
            pots = ""
            if claims.pots:
                pots = f" Main pot {self.money(claims.pots[0])}."
                if len(claims.pots) == 2:
                    pots += f" Side pot {self.money(claims.pots[1])}."
                else:
                    for k, amount in enumerate(claims.pots[1:], 1):
                        pots += f" Side pot-{k} {self.money(amount)}."
            rake = self.money(claims.rake or 0)
            out.append(f"Total pot {self.money(claims.total_pot)}{pots} | Rake {rake}")
        if self.second:
            second = self.board[: self.run_from] + self.second
            out.append("Hand was run twice")
            out.append(f"FIRST Board [{format_cards(self.board)}]")
            out.append(f"SECOND Board [{format_cards(second)}]")
        elif self.board:
            out.append(f"Board [{format_cards(self.board)}]")
        winnings = claims.winnings
        if winnings is None:
            return out
        by_run: dict[int, list[int]] = {}  # a board run twice: what each player won on each
        for who, amount, pot in claims.collected or ():
            by_run.setdefault(who, [0, 0])[pot.endswith(SECOND_RUN)] += amount
        shown: dict[int, list[Card]] = {}
        for m in h.moves:
            if m.kind == SHOW and m.actor is not None:
                shown[m.actor] = self.known_cards(m) or shown.get(m.actor, [])
        folded: dict[int, int] = {}
        street = 0
        for m in h.moves:
            if m.kind == DEAL_BOARD:
                street += 1
            elif m.kind == FOLD and m.actor is not None:
                folded[m.actor] = street
        button = self.f.get("button_seat", self.seats[-1] if self.seats else None)
        blinds = h.blinds.blinds
        positive = [x for x in blinds if x > 0]
        for i in sorted(range(self.n), key=lambda k: self.seats[k]):
            seat = self.seats[i]
            marks = " (button)" if seat == button else ""
            if i < len(blinds) and blinds[i]:
                small = min(positive)
                big = max(positive)
                marks += " (small blind)" if small != big and blinds[i] == small else " (big blind)"
            text = f"Seat {seat}: {self.names[i]}{marks}"
            amount = winnings[i] if i < len(winnings) else 0
            cards = shown.get(i)
            desc = play.described.get(i)
            with_desc = f" with {desc}" if desc else ""
            if i in folded:  # (cards shown after folding: said in the hand, R10)
                street = folded[i]
                text += (
                    f" folded on the {_STREETS[street - 1].title()}"
                    if street
                    else (" folded before Flop")
                )
            elif cards and self.second:
                on_first, on_second = by_run.get(i, [amount, 0])
                text += f" showed [{format_cards(cards)}] and {self.result(on_first, desc)}"
                text += f", and {self.result(on_second, play.described2.get(i))}"
            elif cards:
                result = f"won ({self.money(amount)})" if amount else "lost"
                text += f" showed [{format_cards(cards)}] and {result}{with_desc}"
            elif amount:
                text += f" collected ({self.money(amount)})"
            else:
                text += " mucked"
            out.append(text)
        return out


# ---------------------------------------------------------------- hand descriptions

_RANK_OF = {name: k for k, name in enumerate(RANK_NAMES)}
_WORDS = (
    ("Four of a Kind, ", "four of a kind, "),
    ("Full House, ", "a full house, "),
    ("Flush, ", "a flush, "),
    ("Three of a Kind, ", "three of a kind, "),
    ("Two Pair, ", "two pair, "),
    ("One Pair, ", "a pair of "),
    ("High Card, ", "high card "),
)


def _stars_words(description: str) -> str:
    """The engine's description of a hand in PokerStars' words:
    ``'One Pair, Kings'`` -> ``'a pair of Kings'``, ``'Straight, Nine high'`` ->
    ``'a straight, Five to Nine'``.

    >>> _stars_words("Straight Flush, Five high"), _stars_words("Royal Flush")
    ('a straight flush, Ace to Five', 'a Royal Flush')
    """
    if description == "Royal Flush":
        return "a Royal Flush"
    for start, words in (
        ("Straight Flush, ", "a straight flush, "),
        ("Straight, ", "a straight, "),
    ):
        if description.startswith(start):
            high = description[len(start) :].removesuffix(" high")
            top = _RANK_OF.get(high)
            if top is None:  # pragma: no cover - the evaluator names every rank
                return description
            low = RANK_NAMES[12] if top == 3 else RANK_NAMES[top - 4]  # a wheel starts at the ace
            return f"{words}{low} to {high}"
    for start, words in _WORDS:
        if description.startswith(start):
            return words + description[len(start) :]
    return description  # pragma: no cover - every category is above
