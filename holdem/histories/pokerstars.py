"""PokerStars text hand histories: a streaming reader and a writer.

:func:`read_pokerstars` turns PokerStars hand-history text (a file may hold
any number of hands) into :class:`~holdem.histories.HandHistory` records, one
hand at a time, and every hand it cannot read into a
:class:`~holdem.histories.Problem` naming the line; it never raises on bad
input.  :func:`write_pokerstars` and :func:`to_pokerstars` write records back
as PokerStars text.

Input details handled: a UTF-8 byte-order mark (also between hands), Windows
and old Mac line endings, files in Windows-1252, leading blanks, hands run
together on one line, thousands separators (``$1,646.95``), lines starting
with ``#`` before a hand (comments), chat and table noise, a header in another
language when the rest is English (docs/pokerstars.md lists the variants).

Each kind of line has its handler (a method of ``_HandParser``), found in the
tables at the end of the module by how the line starts or by the player's verb.

>>> text = '''PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 0:00:00 ET
... Table 'T' 6-max Seat #2 is the button
... Seat 1: alice ($2 in chips)
... Seat 2: bob ($2.50 in chips)
... bob: posts small blind $0.01
... alice: posts big blind $0.02
... *** HOLE CARDS ***
... bob: folds
... Uncalled bet ($0.01) returned to alice
... alice collected $0.02 from pot
... *** SUMMARY ***
... Total pot $0.02 | Rake $0'''
>>> [hand] = read_pokerstars_text(text)
>>> [p.name for p in hand.players], hand.blinds.blinds, hand.unit
(['alice', 'bob'], (2, 1), Decimal('0.01'))
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from ..cards import Card, format_cards, parse_cards
from ..errors import HoldemError, quote
from .inputs import MAX_HAND, Source, input_lines, input_name
from .model import (
    BET_RAISE,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DEAL_SECOND_BOARD,
    FOLD,
    MAX_AMOUNT,
    MAX_PLACES,
    MUCK,
    SECOND_RUN,
    SHOW,
    Blinds,
    Claims,
    HandHistory,
    Move,
    Player,
    Problem,
    decimal_places,
)

__all__ = ["read_pokerstars", "read_pokerstars_text"]

# ---------------------------------------------------------------- patterns

_AMT = r"[^\s\d()\[\]|/,.:+-]{0,3}\d[\d,]*(?:\.\d+)?"
_HEADER = re.compile(
    r"PokerStars (?:(?P<zoom>Zoom) |(?P<home>Home Game) )?(?P<kind>Hand|Game) #(?P<id>\d+):\s*"
)
#: A hand header in another language than English (``Mão PokerStars #1:``,
#: ``Main PokerStars n°1 :``): one word before or after ``PokerStars``, then the
#: hand's number.  Such a hand is read if the rest of it is English.
_FOREIGN_HEADER = re.compile(
    r"(?:(?P<before>[^\W\d_]+) PokerStars|PokerStars (?P<after>[^\W\d_]+)) ?"
    r"(?:#|n°|n\.º|n\.|Nr\.|№) ?(?P<id>\d+) ?:\s*"
)
_CLUB = re.compile(r"\{(?P<club>[^}]*)\}\s*")
_TOURNEY = re.compile(r"(?P<tzoom>Zoom )?Tournament #(?P<tid>\d+),\s*")
_GAME = re.compile(
    r"(?P<mixed>Mixed Hold'em \()?(?P<split>Split )?Hold'em "
    r"(?P<limit>No Limit|Pot Limit|Limit)(?P<plnl> Pre-Flop, No Limit Post-Flop)?(?(mixed)\))"
)
_OTHER_GAME = re.compile(
    r"Omaha|Stud|Razz|Draw|Badugi|Courchevel|6\+|Short Deck|HORSE|8-Game|Mixed|Triple|Single"
)
# from the first blank of a run only, so a long run of blanks costs linear time
_DATE = re.compile(r"(?<!\s)\s+-\s+(?=\d{4}/\d{1,2}/\d{1,2}|\d{1,2}/\d{1,2}/\d{4})")
_LEVEL = re.compile(
    r"^-\s+(?:Match Round (?P<round>\w+), )?Level (?P<level>\w+) "
    rf"\((?P<sb>{_AMT})/(?P<bb>{_AMT})\)$"
)
_STAKES = re.compile(
    rf"^\((?P<sb>{_AMT})/(?P<bb>{_AMT})(?: - (?P<cap>{_AMT}) Cap -)?\s*(?P<cur>[A-Z]{{3}})?\)$"
)
_TABLE = re.compile(
    r"^Table '(?P<table>.*)' (?:(?P<max>\d+)-max )?(?P<pm>\((?:Play Money|argent fictif)\) )?"
    r"Seat #(?P<button>\d+) is the button$"
)
_SEAT = re.compile(
    rf"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>{_AMT}) in chips"
    r"(?:, (?P<bounty>.+?) bounty)?\)(?: (?P<note>is sitting out|out of hand.*))?$"
)
_SUMMARY_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<rest>.*)$")
_ACTOR_MARK = re.compile(r"^\((?:button|small blind|big blind)\) ?")
_WON = re.compile(rf"(?:won|collected) \(?(?P<amt>{_AMT})\)?")
_WITH = re.compile(
    r" with (?P<desc>.+?)(?:, and (?:won|lost)\b.*)?"
    r"(?: \((?:cashed out|pot not awarded as player cashed out)\)\.?)?$"
)
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_STREET = re.compile(r"^\*\*\* (?P<name>[A-Z ]+?) \*\*\*\s*(?P<cards>.*)$")
_DEALT = re.compile(r"^Dealt to (?P<name>.+?)(?: \[(?P<cards>[^\]]*)\])?(?: \[(?P<new>[^\]]*)\])?$")
_UNCALLED = re.compile(rf"^Uncalled bet \((?P<amt>{_AMT})\) returned to (?P<name>.+)$")
_COLLECTED = re.compile(
    rf"^(?P<name>.+) collected (?P<amt>{_AMT}) from (?P<pot>pot|main pot|side pot(?:-\d+)?)$"
)
_TOTAL = re.compile(
    rf"^Total pot (?P<total>{_AMT})(?P<pots>(?: (?:Main|Side) pot(?:-\d+)? {_AMT}\.?)*)"
    rf"\s*\|\s*Rake (?P<rake>{_AMT})(?P<more>.*)$"
)
_POT_PART = re.compile(rf"(?:Main|Side) pot(?:-\d+)? (?P<amt>{_AMT})")
#: A summary seat line's end when the winner took PokerStars' all-in cash out.
_NOT_AWARDED = "(pot not awarded as player cashed out)"
#: Lines between the table line and the seats that are not seats.
_REBUY = re.compile(r" (?:re-buys and receives|takes the add-on and receives) .*$")
#: ``name : verb``, as French texts write it (before a space or a no-break space).
_SPACED_COLON = re.compile(r"[ \u00a0\u202f]: ")
_CHAT = re.compile(r'^.+? said, ".*$')
_NOISE = re.compile(
    r"(?: joins the table at seat #\d+| leaves the table| is disconnected| is connected"
    r"| has timed out(?: while (?:being )?disconnected)?| has returned| is sitting out"
    r"| sits out| will be allowed to play after the button"
    r"| was removed from the table for failing to post| finished the tournament.*"
    r"| wins the tournament.*| wins (?:the )?\S+ bounty for eliminating .*"
    r"| wins \S+ for eliminating .*| split the \S+ bounty for eliminating .*"
    r"| re-buys and receives .*| takes the add-on.*"
    r"| cashed out the hand for .*| is sitting out| has been disconnected.*"
    r"|: Table deposit .*|: sits out|: is sitting out|: is connected|: is disconnected"
    r"|: has returned|: has timed out)$"
)
#: The longest line a hand may have: real ones have at most a few hundred
#: characters, and a longer one would cost the patterns below too much time.
MAX_HAND_LINE = 2_000
_AMOUNTS_AFTER_VERB = {
    "calls": re.compile(
        rf"^calls (?P<amt>{_AMT})(?P<allin> and is all-in)?(?: and has reached the {_AMT} cap)?$"
    ),
    "bets": re.compile(
        rf"^bets (?P<amt>{_AMT})(?P<allin> and is all-in)?(?: and has reached the {_AMT} cap)?$"
    ),
    "raises": re.compile(
        rf"^raises (?P<by>{_AMT}) to (?P<amt>{_AMT})(?P<allin> and is all-in)?"
        rf"(?: and has reached the {_AMT} cap)?$"
    ),
    "posts": re.compile(
        rf"^posts (?P<what>small blind|big blind|small & big blinds|the ante) (?P<amt>{_AMT})"
        r"(?P<allin> and is all-in)?$"
    ),
}
_SHOWS = re.compile(r"^shows \[(?P<cards>[^\]]*)\](?: \((?P<desc>.*)\))?$")
_MUCKS = re.compile(r"^(?:mucks hand|mucks \[(?P<cards>[^\]]*)\]|doesn't show hand)$")
_FOLDS = re.compile(r"^folds(?: \[(?P<cards>[^\]]*)\])?$")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_THOUSANDS = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_DECIMAL_COMMA = re.compile(r"^\d+,\d{1,2}$")

_STREETS = ("FLOP", "TURN", "RIVER")
#: The date our writer gives a hand whose source states none (read back as none).
DEFAULT_DATE = "2000/01/01 0:00:00 ET"
#: The last line of a hand whose player names our writer escaped (names that
#: would not read back as they are: a no-break space, a control character ...):
#: in such a hand the reader decodes, in every name, a backslash and ``u`` and
#: four hex digits (``U`` and eight) as that character and two backslashes as
#: one.  PokerStars writes no such line: its names are read as they are written.
NAMES_ESCAPED = "Player names are escaped: \\uXXXX is the character of that code, \\\\ a backslash"
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(\\))")

_LIMITS = {"No Limit": "NT", "Limit": "FT", "Pot Limit": "PT"}
_LIMIT_TEXT = {v: k for k, v in _LIMITS.items()}


def unescape_name(text: str) -> str:
    """A name as written in a hand marked :data:`NAMES_ESCAPED`, decoded.

    >>> unescape_name("Ann\\\\u00a0Lee") == "Ann\\u00a0Lee", unescape_name("a\\\\\\\\b")
    (True, 'a\\\\b')
    """
    return _ESCAPE.sub(_unescaped, text)


def _unescaped(m: re.Match[str]) -> str:
    if m[3]:
        return "\\"
    code = int(m[1] or m[2], 16)
    return chr(code) if code <= 0x10FFFF else m.group()


class _Fail(Exception):
    """A hand that cannot be read; becomes a :class:`Problem`."""

    def __init__(self, line: int, message: str, severity: str = "error", code: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.severity = severity
        self.code = code or ("unsupported" if severity == "unsupported" else "format")


# ---------------------------------------------------------------- input lines


def _numbered_lines(lines: Iterable[str], first: int = 1) -> Iterator[tuple[int, str]]:
    """``(line number, text)``, stripped, with a hand header in mid-line split off."""
    for number, raw in enumerate(lines, first):
        text = raw.replace("\ufeff", "").strip()
        if "PokerStars" in text:
            m = _HEADER.search(text)
            if m is not None and m.start() > 0:
                yield number, text[: m.start()].rstrip()
                text = text[m.start() :]
        yield number, text


def _hand_chunks(
    lines: Iterable[str], first: int = 1
) -> Iterator[tuple[list[tuple[int, str]], int]]:
    """Groups lines into hands; yields ``(lines, 0)`` per hand, or ``([], line)``
    for a run of text outside any hand.  A hand of more than :data:`MAX_HAND`
    characters is cut there (and then fails to read)."""
    current: list[tuple[int, str]] | None = None
    after_blank = True
    stray = 0
    size = 0
    for number, text in _numbered_lines(lines, first):
        if is_hand_header(text):
            if current:
                yield current, 0
            current = [(number, text)]
            size = len(text)
            after_blank = False
            continue
        if not text:
            after_blank = True
            continue
        if text.startswith("#") and (current is None or after_blank):
            continue
        if text.startswith("*****") and text.endswith("*****") and len(text) >= 10:
            after_blank = True
            continue
        if current is None:
            if not stray:
                stray = number
                yield [], number
            continue
        size += len(text)
        if size <= MAX_HAND:
            current.append((number, text))
        elif current[-1][1] is not _TOO_LARGE:
            current.append((number, _TOO_LARGE))
    if current:
        yield current, 0


def is_hand_header(line: str) -> bool:
    """Whether a line starts a PokerStars hand: ``PokerStars Hand #1: ...``, or
    the same in another language (``Mão PokerStars #1: ...``)."""
    if line.startswith("PokerStars") and _HEADER.match(line):
        return True
    return "PokerStars" in line[:30] and _FOREIGN_HEADER.match(line) is not None


def starts_hand(line: str) -> bool:
    """Whether a line of a file, as read, begins a PokerStars hand (its header
    at the start of the line, after any byte-order mark and blanks)."""
    return "PokerStars" in line and is_hand_header(line.replace("\ufeff", "").strip())


def looks_like_pokerstars(text: str) -> bool:
    """Whether text (a file's start) holds a PokerStars hand header, in any language."""
    if _HEADER.search(text) is not None:
        return True
    return any(is_hand_header(line.strip()) for line in text.splitlines() if "PokerStars" in line)


#: Stands for the lines of a hand past :data:`MAX_HAND` characters.
_TOO_LARGE = f"(the hand goes on past {MAX_HAND:,} characters)"


# ---------------------------------------------------------------- reading


def read_pokerstars(
    source: Source, *, path: str | None = None, first_line: int = 1
) -> Iterator[HandHistory | Problem]:
    """Reads PokerStars hand histories, one hand at a time.

    :param source: a path (a ``str`` is always a path, never text: it does not
        guess), the file's bytes, an open stream or an iterable of lines
        (:func:`read_pokerstars_text` reads text in memory).
    :param path: the name to report in problems (defaults to the path given).
    :param first_line: the number of the first line (a piece of a larger file).
    :returns: per hand a :class:`HandHistory`, or a :class:`Problem` (severity
        ``"error"`` for a hand that cannot be read, ``"unsupported"`` for one
        the engine cannot represent); text outside any hand is a problem too.
    :raises OSError: the path cannot be opened.
    :raises HistoryFormatError: where the input stops being text (binary
        data, a line of over a megabyte: see :mod:`holdem.histories.inputs`), after the
        hands before it.
    """
    where = input_name(source, path)
    try:
        lines = input_lines(source, path=where, legacy="cp1252")
    except OSError as exc:
        if not (isinstance(source, str) and "\n" in source):
            raise
        raise type(exc)(
            exc.errno,
            f"{exc.strerror}: a str is a path (read text in memory with read_pokerstars_text)",
            where[:60],
        ) from None
    for chunk, stray in _hand_chunks(lines, first_line):
        if not chunk:
            yield Problem(where, stray, None, "error", "text outside a hand", "outside")
            continue
        yield _read_hand(chunk, where)


def read_pokerstars_text(text: str, *, path: str = "<text>") -> Iterator[HandHistory | Problem]:
    """:func:`read_pokerstars` for PokerStars text in memory (a ``str``, never a path).

    :raises TypeError: ``text`` is not a ``str`` (read a path, bytes or a stream
        with :func:`read_pokerstars`).
    """
    if not isinstance(text, str):
        raise TypeError(
            f"read_pokerstars_text reads text (a str), not {type(text).__name__}: "
            "read a path, bytes or a stream with read_pokerstars"
        )
    return read_pokerstars(io.StringIO(text, newline=None), path=path)


def _read_hand(lines: list[tuple[int, str]], path: str | None) -> HandHistory | Problem:
    parser = _HandParser(lines, path)
    try:
        return parser.parse()
    except _Fail as fail:
        message = fail.message
        if fail.severity == "error" and len(lines) > 1 and fail.line == lines[-1][0]:
            message += " (the hand is cut short here?)"
        return Problem(
            path or "<input>", fail.line, parser.hand_id, fail.severity, message, fail.code
        )
    except Exception as exc:  # a bug of ours: report it with the hand, go on
        where = f"reading line {parser.lineno}"
        return Problem.internal(path or "<input>", parser.lineno, parser.hand_id, where, exc)


@functools.lru_cache(maxsize=4096)
def _read_amount(text: str) -> tuple[Decimal, int, str] | str:
    """``(value, decimal places, currency symbol)`` of an amount, or why it is not one
    (hands repeat their amounts: the cache saves most of the work)."""
    m = _NUMBER.search(text)
    if m is None:
        return f"{quote(text)} is not an amount"
    digits = m.group()
    if "," in digits:
        if _THOUSANDS.match(digits):
            digits = digits.replace(",", "")
        elif _DECIMAL_COMMA.match(digits):
            digits = digits.replace(",", ".")
        else:
            return f"cannot read the amount {quote(text)}"
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return f"cannot read the amount {quote(text)}"
    if value >= MAX_AMOUNT:
        return f"the amount {quote(text)} is too large (at most 10^15)"
    places = decimal_places(value)
    if places > MAX_PLACES:
        return f"the amount {quote(text)} has more than {MAX_PLACES} decimal places"
    return value, places, text[: m.start()]


@dataclass(slots=True)
class _RawMove:
    kind: str
    actor: int | None
    to: Decimal | None
    cards: tuple[Card | None, ...]
    line: int
    all_in: bool = False
    stated: Decimal | None = None  # a call's amount, a raise's increment


@dataclass(slots=True)
class _Seat:
    seat: int
    name: str
    stack: Decimal
    line: int
    bounty: str | None = None
    note: str | None = None


@dataclass(slots=True)
class _Setup:
    """What the lines before the posts give: the header's, the table's and the seats'."""

    variant: str
    stakes: tuple[Decimal, Decimal]
    cap: Decimal | None
    first_line: int
    button: int = 0
    table_seen: bool = False
    seats: list[_Seat] = field(default_factory=list)
    body: list[tuple[int, str]] = field(default_factory=list)


#: A line handler: the parser and the line's text.
_Handler = Callable[["_HandParser", str], None]
#: An action handler: the parser, the acting player, the text after ``name: ``
#: and the whole line.
_ActionHandler = Callable[["_HandParser", int, str, str], None]


@dataclass(slots=True)
class _HandParser:
    """Reads one hand: each kind of line has its handler, found in the tables
    below the class by the line's start (or, for a player's line, its verb)."""

    lines: list[tuple[int, str]]
    path: str | None
    hand_id: str | None = None
    lineno: int = 0
    places: int = 0
    symbol: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    names: dict[str, int] = field(default_factory=dict)
    moves: list[_RawMove] = field(default_factory=list)
    hole_index: dict[int, int] = field(default_factory=dict)
    longest_name: int = 0
    #: the header's start when it is not English (``Mão PokerStars #1:``)
    foreign: str | None = None
    # the hand's setup (header, table, seats) and the players dealt in
    setup: _Setup | None = None
    ordered: list[_Seat] = field(default_factory=list)
    by_seat: dict[int, int] = field(default_factory=dict)
    n: int = 0
    # the posts
    antes: list[Decimal] = field(default_factory=list)
    blinds: list[Decimal] = field(default_factory=list)
    dead: list[Decimal] = field(default_factory=list)
    posts: list[Decimal] = field(default_factory=list)
    sb_seen: bool = False
    bb_seen: bool = False
    posted: set[tuple[int, str]] = field(default_factory=set)
    # the play: "posts", "preflop", "flop", "turn", "river", "showdown" or "summary"
    section: str = "posts"
    streets_seen: list[str] = field(default_factory=list)
    board: list[Card] = field(default_factory=list)
    #: a board run twice (R10): the second run's board, and which showdown is read
    second_board: list[Card] = field(default_factory=list)
    run: int = 0
    first_run: tuple[int, str] | None = None  # the first FIRST street's line, and text
    escaped: bool = False  # the names are escaped (NAMES_ESCAPED)
    # the claims
    returned: list[tuple[int, Decimal]] = field(default_factory=list)
    collected: list[tuple[int, Decimal, str]] = field(default_factory=list)
    claim_lines: dict[str, int] = field(default_factory=dict)
    described: dict[int, str] = field(default_factory=dict)
    winnings: dict[int, Decimal] = field(default_factory=dict)
    pots: list[Decimal] = field(default_factory=list)
    total: Decimal | None = None
    rake: Decimal | None = None
    summary_seats: bool = False
    #: winners whose pot went to PokerStars' all-in cash out: amount, line
    cashed_out: dict[int, tuple[Decimal, int]] = field(default_factory=dict)
    #: warnings and errors about a hand that reads
    notes: list[Problem] = field(default_factory=list)

    # -- amounts

    def amount(self, text: str) -> Decimal:
        """An amount as a Decimal; notes its decimals and currency symbol."""
        read = _read_amount(text)
        if isinstance(read, str):
            raise _Fail(self.lineno, read)
        value, places, symbol = read
        if symbol and not self.symbol:
            self.symbol = symbol
        if places > self.places:
            self.places = places
        return value

    def fail(self, message: str, severity: str = "error", code: str = "") -> _Fail:
        return _Fail(self.lineno, message, severity, code)

    # -- the hand

    def parse(self) -> HandHistory:
        try:
            return self.parse_english()
        except _Fail as fail:
            if self.foreign is None or fail.severity != "error":
                raise
            raise _Fail(
                fail.line,
                f"a hand in another language than English ({quote(self.foreign)}): "
                f"line {fail.line} cannot be read as English PokerStars text ({fail.message}); "
                "set the PokerStars client's hand history language to English",
                "unsupported",
                "language",
            ) from None

    def parse_english(self) -> HandHistory:
        for number, text in self.lines:
            if len(text) > MAX_HAND_LINE:
                raise _Fail(
                    number,
                    f"the line is longer than {MAX_HAND_LINE:,} characters: not PokerStars text",
                )
        it = iter(self.lines)
        first_line, header = next(it)
        self.lineno = first_line
        setup = self.setup = _Setup(*self.parse_header(header), first_line)
        body = setup.body
        for number, text in it:  # the table line, then the seat lines
            self.lineno = number
            if not setup.table_seen:
                self.table_line(setup, text)
            elif text.startswith("Seat ") and not body:
                self.seat_line(setup, number, text)
            elif not body and self.before_the_seats(setup, text):
                continue
            else:
                if self.foreign is not None:
                    text = _SPACED_COLON.sub(": ", text, count=1)
                body.append((number, text))
        if not setup.table_seen:
            raise self.fail("the hand ends after its header (no table line)")
        if not setup.seats:
            raise self.fail("no seat lines")
        self.fields["button_seat"] = setup.button
        self.deal_in(setup)
        for number, text in setup.body:
            self.lineno = number
            self.body_line(text)
        if not self.streets_seen and self.section == "posts" and not self.moves:
            self.lineno = setup.body[-1][0] if setup.body else first_line
            raise self.fail("the hand has no *** HOLE CARDS *** section (cut short?)")
        return self.record(setup)

    def parse_header(self, header: str) -> tuple[str, tuple[Decimal, Decimal], Decimal | None]:
        f = self.fields
        f["site"] = "PokerStars"
        m = _HEADER.match(header)
        if m is not None:
            self.hand_id = m["id"]
            f["hand_kind"] = m["kind"]
            if m["zoom"]:
                f["zoom"] = True
            if m["home"]:
                f["home_game"] = True
        else:
            foreign = _FOREIGN_HEADER.match(header)
            assert foreign is not None
            self.hand_id = foreign["id"]
            self.foreign = foreign.group().rstrip()
            f["hand_kind"] = "Hand"
            m = foreign
        rest = header[m.end() :]
        d = _DATE.search(rest)
        if d is not None:
            if rest[d.end() :] != DEFAULT_DATE:  # our writer's stand-in: no date
                f["date"] = rest[d.end() :]
            rest = rest[: d.start()]
        c = _CLUB.match(rest)
        if c is not None:
            f["club"] = c["club"]
            rest = rest[c.end() :]
        t = _TOURNEY.match(rest)
        g = _GAME.search(rest)
        if g is None:
            other = _OTHER_GAME.search(rest)
            game = rest if other is None else rest[other.start() :]
            raise self.fail(f"not Texas hold'em: {quote(game.strip())}", "unsupported", "game")
        if g["split"]:
            raise self.fail("Split Hold'em (two boards) is not supported", "unsupported", "game")
        if g["plnl"]:
            raise self.fail(
                "pot-limit preflop, no-limit after the flop is not supported",
                "unsupported",
                "game",
            )
        if g["mixed"]:
            f["game"] = g.group()
        if t is not None:
            f["tournament_id"] = t["tid"]
            if t["tzoom"]:
                f["zoom"] = True
            buy_in = rest[t.end() : g.start()].strip().rstrip("-").strip()
            f["buy_in"] = buy_in
        elif g.start() and rest[: g.start()].strip():
            raise self.fail(f"cannot read the header before the game: {quote(rest[: g.start()])}")
        tail = rest[g.end() :].strip()
        lv = _LEVEL.match(tail)
        cap: Decimal | None = None
        if lv is not None:
            if lv["round"]:
                f["match_round"] = lv["round"]
            f["level"] = lv["level"]
            sb, bb = lv["sb"], lv["bb"]
        else:
            st = _STAKES.match(tail)
            if st is None:
                raise self.fail(f"cannot read the stakes in the header: {quote(tail)}")
            sb, bb = st["sb"], st["bb"]
            if st["cur"]:
                f["currency"] = st["cur"]
            if st["cap"]:
                cap = self.amount(st["cap"])
        stakes = (self.amount(sb), self.amount(bb))
        return _LIMITS[g["limit"]], stakes, cap

    # -- the lines before the posts: the table line, then the seat lines

    def before_the_seats(self, setup: _Setup, text: str) -> bool:
        """Whether a line among the seat lines is one to skip: re-buys and add-ons
        (tournaments write them there), and before the first seat any other noise."""
        if _REBUY.search(text):
            return True
        noise = _NOISE.search(text) is not None or _CHAT.match(text) is not None
        return noise and not setup.seats

    def table_line(self, setup: _Setup, text: str) -> None:
        m = _TABLE.match(text)
        if m is None:
            raise self.fail(f"expected the table line (Table '...' ...), got {quote(text)}")
        setup.table_seen = True
        self.fields["table"] = m["table"]
        if m["max"]:
            self.fields["max_seats"] = int(m["max"])
        if m["pm"]:
            self.fields["play_money"] = True
        setup.button = int(m["button"])

    def seat_line(self, setup: _Setup, number: int, text: str) -> None:
        m = _SEAT.match(text)
        if m is None:
            raise self.fail(f"cannot read the seat line {quote(text)}")
        seat = int(m["seat"])
        if any(s.seat == seat for s in setup.seats):
            raise self.fail(f"seat {seat} is listed twice")
        setup.seats.append(
            _Seat(seat, m["name"], self.amount(m["stack"]), number, m["bounty"], m["note"])
        )

    def deal_in(self, setup: _Setup) -> None:
        """Finds the players dealt in, in the order of play, from the seats and the body."""
        f = self.fields
        seats, body = setup.seats, setup.body
        # a seat "is sitting out" is dealt in when it posts or acts (tournaments
        # deal sitting-out players in and fold them); "out of hand" never is
        marked = {s.name for s in seats if s.note}
        sitting_out = {s.name for s in seats if s.note and s.note != "is sitting out"}
        active: set[str] = set()
        seat_names = {s.name for s in seats}
        longest = self.longest_name = max(len(name) for name in seat_names)
        pre_deal_out: set[str] = set()
        in_posts = True
        for _, text in body:
            if text.startswith("*** "):
                in_posts = False
            if text.startswith("Dealt to "):
                m = _DEALT.match(text)
                if m is not None:
                    active.add(m["name"])
                continue
            end = longest + 2
            pos = text.find(": ", 0, end)
            while pos >= 0:
                seated = text[:pos]
                if seated in seat_names:
                    rest = text[pos + 2 :]
                    if rest.startswith(("sits out", "is sitting out")):
                        if in_posts:
                            pre_deal_out.add(seated)
                    else:
                        active.add(seated)
                    break
                pos = text.find(": ", pos + 1, end)
        sitting_out |= (marked | pre_deal_out) - active
        dealt_out = {s.seat for s in seats if s.note == "is sitting out" and s.name in active}
        if dealt_out:
            f["sitting_out_seats"] = sorted(dealt_out)
        dealt = sorted((s for s in seats if s.name not in sitting_out), key=lambda s: s.seat)
        if len(dealt) < 2:
            raise _Fail(setup.first_line, f"{len(dealt)} player(s) dealt in: a hand needs two")
        after = [s for s in dealt if s.seat > setup.button]
        ordered = self.ordered = after + [s for s in dealt if s.seat <= setup.button]
        if ordered[-1].seat != setup.button:
            f["dead_button"] = True
        out = [s for s in seats if s.name in sitting_out]
        if out:
            f["not_dealt"] = [[s.seat, s.name, s.stack, s.note or "is sitting out"] for s in out]
        bounties = [[s.seat, s.bounty] for s in seats if s.bounty]
        if bounties:
            f["bounties"] = bounties
        n = self.n = len(ordered)
        for i, s in enumerate(ordered):
            if s.name in self.names:
                raise _Fail(s.line, f"player name {quote(s.name)} is used twice")
            self.names[s.name] = i
        self.by_seat = {s.seat: i for i, s in enumerate(ordered)}
        zero = Decimal(0)
        self.antes, self.blinds, self.dead, self.posts = ([zero] * n for _ in range(4))

    # -- the body: posts, streets, actions, results, the summary

    def body_line(self, text: str) -> None:
        """Dispatches a line after the seats to its handler."""
        summary = self.section == "summary"
        if text.startswith(_SUMMARY_STARTS if summary else _PLAY_STARTS):
            for prefix, handler in _SUMMARY_LINES if summary else _PLAY_LINES:
                if text.startswith(prefix):
                    handler(self, text)
                    return
        if summary:
            self.other_summary_line(text)
            return
        actor, rest = self.split_actor(text)
        if actor is None:
            self.other_line(text)
            return
        _ACTIONS.get(rest.split(" ", 1)[0], _HandParser.other_action)(self, actor, rest, text)

    def street_line(self, text: str) -> None:
        """``*** HOLE CARDS ***``, ``*** FLOP *** [..]`` ..., ``*** SUMMARY ***``."""
        m = _STREET.match(text)
        if m is None:
            raise self.fail(f"cannot read the street line {quote(text)}")
        name, run = m["name"], 0
        if name.startswith(("FIRST ", "SECOND ", "THIRD ")):  # a board run twice (R10)
            which, name = name.split(" ", 1)
            if which == "THIRD":
                raise self.fail(
                    "run it three times (three boards) is not supported: the hand is not checked",
                    "unsupported",
                    "run_twice",
                )
            run = int(which == "SECOND")
            if not run and not self.first_run:
                self.first_run = (self.lineno, text)
        if name == "HOLE CARDS":
            self.deal_hole()
            self.section = "preflop"
        elif name in _STREETS:
            self.deal_hole()
            if run:
                self.second_run_cards(name, m["cards"], text)
            else:
                self.board_cards(name, m["cards"], text)
            self.section = name.lower()
        elif name in ("SHOW DOWN", "SHOWDOWN"):
            self.deal_hole()
            self.section = "showdown"
            self.run = run
        elif name == "SUMMARY":
            self.section = "summary"
        else:
            raise self.fail(f"unknown section {quote(text)}")

    def board_cards(self, name: str, cards: str, text: str) -> None:
        """The new board cards of a street line (the cards so far are repeated)."""
        board = self.board
        index = _STREETS.index(name)
        if name in self.streets_seen or len(self.streets_seen) != index:
            raise self.fail(f"*** {name} *** out of order")
        self.streets_seen.append(name)
        groups = _BRACKETS.findall(cards)
        want = (0, 3, 4)[index]
        try:
            parsed = [parse_cards(g) for g in groups]
        except HoldemError as exc:
            raise self.fail(f"bad board cards in {quote(text)}: {exc}") from None
        if index == 0:
            if len(groups) != 1 or len(parsed[0]) != 3:
                raise self.fail(f"the flop must be three cards: {quote(text)}")
            new = parsed[0]
        else:
            if len(groups) > 2:  # [flop] [turn] [river], as some converters write
                parsed = [[c for p in parsed[:-1] for c in p], parsed[-1]]
            if len(groups) < 2 or len(parsed[1]) != 1:
                raise self.fail(f"expected [board] [new card] in {quote(text)}")
            if parsed[0] != board[:want]:
                raise self.fail(
                    f"the board {format_cards(parsed[0])} does not match "
                    f"the cards dealt so far ({format_cards(board)})"
                )
            new = parsed[1]
        for c in new:
            if c in board:
                raise self.fail(f"the board card {format_cards([c])} is dealt twice")
        board.extend(new)
        self.moves.append(_RawMove(DEAL_BOARD, None, None, tuple(new), self.lineno))

    def second_run_cards(self, name: str, cards: str, text: str) -> None:
        """``*** SECOND FLOP/TURN/RIVER *** [..]``: the second run of a board run
        twice, after the whole first run; its board so far is repeated."""
        board, second = self.board, self.second_board
        index = _STREETS.index(name)
        want = (0, 3, 4)[index]
        if len(board) != 5:
            raise self.fail(f"{quote(text)} before the first run's river")
        if not second:
            second.extend(board[:want])  # (the cards both runs share)
        elif len(second) != want:
            raise self.fail(f"*** SECOND {name} *** out of order")
        groups = _BRACKETS.findall(cards)
        try:
            parsed = [parse_cards(g) for g in groups]
        except HoldemError as exc:
            raise self.fail(f"bad board cards in {quote(text)}: {exc}") from None
        if index == 0:
            if len(parsed) != 1 or len(parsed[0]) != 3:
                raise self.fail(f"the flop must be three cards: {quote(text)}")
            new = parsed[0]
        else:
            if len(parsed) != 2 or len(parsed[1]) != 1:
                raise self.fail(f"expected [board] [new card] in {quote(text)}")
            if parsed[0] != second:
                raise self.fail(
                    f"the second run's board {format_cards(parsed[0])} does not match "
                    f"its cards dealt so far ({format_cards(second)})"
                )
            new = parsed[1]
        for c in new:
            if c in second or c in board:
                raise self.fail(f"the board card {format_cards([c])} is dealt twice")
        second.extend(new)
        self.moves.append(_RawMove(DEAL_SECOND_BOARD, None, None, tuple(new), self.lineno))

    def dealt_line(self, text: str) -> None:
        """``Dealt to P [Ah Kd]``."""
        m = _DEALT.match(text)
        if m is None or m["name"] not in self.names:
            raise self.fail(f"cards dealt to someone not in the hand: {quote(text)}")
        self.deal_hole()
        shown = " ".join(x for x in (m["cards"], m["new"]) if x)
        self.fill_hole(self.names[m["name"]], shown, replace_line=True)

    def uncalled_line(self, text: str) -> None:
        """``Uncalled bet ($X) returned to P``."""
        m = _UNCALLED.match(text)
        if m is None or m["name"] not in self.names:
            raise self.fail(f"cannot read {quote(text)}")
        who = self.names[m["name"]]
        self.claim_lines.setdefault(f"returned.{len(self.returned)}", self.lineno)
        self.returned.append((who, self.amount(m["amt"])))

    def other_line(self, text: str) -> None:
        """A line that is not a dealt player's ``name: ...``: a collection, or noise."""
        m = _COLLECTED.match(text)
        if m is not None and m["name"] in self.names:
            self.claim_lines[f"collected.{len(self.collected)}"] = self.lineno
            pot = m["pot"] + SECOND_RUN * self.run
            self.collected.append((self.names[m["name"]], self.amount(m["amt"]), pot))
            return
        if _CHAT.match(text) or _NOISE.search(text) or text == "Betting is capped":
            return
        if text.endswith(" has reached the cap") or " wins " in text:
            return
        if text[:-1] in self.names and text.endswith(":") and self.lineno != self.lines[-1][0]:
            return  # "name: " and nothing else, as after an all-in call (not at a cut)
        m2 = re.match(r"^(.+?): (folds|checks|calls|bets|raises|posts|shows)\b", text)
        if m2 is not None:
            raise self.fail(f"{quote(m2[1])} acts but is not dealt in this hand")
        raise self.fail(f"cannot read the line {quote(text)}")

    # -- a dealt player's lines, by verb

    def post(self, actor: int, rest: str, text: str) -> None:
        """``posts small blind X``, ``posts big blind X``, ``posts the ante X``, ...
        (the first small and big blinds are the blinds, later ones dead or live posts)."""
        m = _AMOUNTS_AFTER_VERB["posts"].match(rest)
        if m is None:
            raise self.fail(f"cannot read the post {quote(text)}")
        if self.section != "posts":
            raise self.fail(f"a post after the cards are dealt: {quote(text)}")
        amt = self.amount(m["amt"])
        what = m["what"]
        kind_of_post = "ante" if what == "the ante" else "blind"
        if (actor, kind_of_post) in self.posted:
            raise self.fail(f"{quote(text.split(': ')[0])} posts a second {kind_of_post}")
        self.posted.add((actor, kind_of_post))
        if what == "the ante":
            self.antes[actor] += amt
        elif what == "small blind":
            if self.sb_seen or self.bb_seen:
                self.dead[actor] += amt
            else:
                self.blinds[actor] += amt
                self.sb_seen = True
        elif what == "big blind":
            if self.bb_seen:
                self.posts[actor] += amt
            else:
                self.blinds[actor] += amt
                self.bb_seen = True
        else:  # small & big blinds: the big blind live, the rest dead
            assert self.setup is not None
            live = min(amt, self.setup.stakes[1])
            self.posts[actor] += live
            self.dead[actor] += amt - live

    def not_before_the_cards(self, text: str) -> None:
        if self.section == "posts":
            raise self.fail(f"an action before *** HOLE CARDS ***: {quote(text)}")

    def wager(self, actor: int, rest: str, text: str) -> None:
        """``calls X``, ``bets X``, ``raises X to Y`` (and ``and is all-in``)."""
        self.not_before_the_cards(text)
        verb = rest.split(" ", 1)[0]
        m = _AMOUNTS_AFTER_VERB[verb].match(rest)
        if m is None:
            raise self.fail(f"cannot read {quote(text)}")
        self.deal_hole()
        amt = self.amount(m["amt"])
        kind = CHECK_CALL if verb == "calls" else BET_RAISE
        to = None if verb == "calls" else amt
        stated = amt if verb == "calls" else (self.amount(m["by"]) if verb == "raises" else None)
        self.moves.append(_RawMove(kind, actor, to, (), self.lineno, bool(m["allin"]), stated))

    def check(self, actor: int, rest: str, text: str) -> None:
        """``checks``."""
        self.not_before_the_cards(text)
        if rest != "checks":
            self.other_action(actor, rest, text)
            return
        self.deal_hole()
        self.moves.append(_RawMove(CHECK_CALL, actor, None, (), self.lineno))

    def fold(self, actor: int, rest: str, text: str) -> None:
        """``folds``, ``folds [cards]`` (also PokerStars' fold of a player sitting out
        who is all-in on a blind or the ante: replay judges it, ``site-fold``)."""
        self.not_before_the_cards(text)
        self.gives_up(FOLD, _FOLDS, actor, rest, text)

    def gives_up(
        self, kind: str | None, pattern: re.Pattern[str], actor: int, rest: str, text: str
    ) -> None:
        """A fold or a muck (``kind`` None: no move), with the cards it shows if any."""
        m = pattern.match(rest)
        if m is None:
            raise self.fail(f"cannot read {quote(text)}")
        self.deal_hole()
        if m["cards"]:
            self.fill_hole(actor, m["cards"])
        if kind is not None:
            self.moves.append(_RawMove(kind, actor, None, (), self.lineno))

    def show(self, actor: int, rest: str, text: str) -> None:
        """``shows [cards]``, ``shows [cards] (description)``."""
        m = _SHOWS.match(rest)
        if m is None:
            raise self.fail(f"cannot read {quote(text)}")
        self.deal_hole()
        cards = self.cards(m["cards"])
        self.fill_hole(actor, m["cards"])
        if self.run:
            return  # (the second run's showdown shows the hands again)
        two = (*cards, None, None)[: max(2, len(cards))]  # one card shown: (c, None)
        self.moves.append(_RawMove(SHOW, actor, None, two, self.lineno))
        if m["desc"]:
            self.described.setdefault(actor, m["desc"])
            self.claim_lines.setdefault(f"described.{actor}", self.lineno)

    def muck(self, actor: int, rest: str, text: str) -> None:
        """``mucks hand``, ``mucks [cards]``, ``doesn't show hand`` (said again at the
        second run's showdown: no new move)."""
        self.gives_up(None if self.run else MUCK, _MUCKS, actor, rest, text)

    def other_action(self, actor: int, rest: str, text: str) -> None:
        """Any other ``name: ...`` line: noise (``sits out``, chat), or unknown."""
        if _NOISE.search(text) or _CHAT.match(text):
            return
        raise self.fail(f"unknown action {quote(rest)} of {quote(text.split(': ')[0])}")

    # -- the summary

    def total_line(self, text: str) -> None:
        """``Total pot X [Main pot A. Side pot-1 B. ...] | Rake Y``."""
        m = _TOTAL.match(text)
        if m is None:
            raise self.fail(f"cannot read the total pot line {quote(text)}")
        self.total = self.amount(m["total"])
        self.rake = self.amount(m["rake"])
        self.pots = [self.amount(p["amt"]) for p in _POT_PART.finditer(m["pots"])]
        self.claim_lines["total_pot"] = self.claim_lines["rake"] = self.lineno
        if self.pots:
            self.claim_lines["pots"] = self.lineno

    def board_line(self, text: str) -> None:
        """``Board [..]``: the cards the street lines dealt, said again (checked);
        ``FIRST Board [..]``, ``SECOND Board [..]`` where the board was run twice."""
        b = _BRACKETS.search(text)
        try:
            said = parse_cards(b.group(1)) if b is not None else None
        except HoldemError:
            said = None
        dealt = self.second_board if text.startswith("SECOND ") else self.board
        if said != dealt:
            self.notes.append(
                Problem(
                    self.path or "<input>",
                    self.lineno,
                    self.hand_id,
                    "error",
                    f"the summary's board {quote(text[text.index('[') :] if b else text)} is not "
                    f"the board dealt [{format_cards(dealt)}]",
                    "board",
                )
            )

    def summary_seat(self, text: str) -> None:
        """``Seat N: P (button) showed [..] and won ($X) with ...``, ``... collected ($X)``."""
        self.summary_seats = True
        m = _SUMMARY_SEAT.match(text)
        if m is None:
            raise self.fail(f"cannot read the summary line {quote(text)}")
        seat = int(m["seat"])
        who = self.by_seat.get(seat)
        if who is None:
            raise self.fail(f"summary line for seat {seat}, which is not dealt in")
        name = self.ordered[who].name
        rest = m["rest"]
        if not rest.startswith(name):
            raise self.fail(f"summary line for seat {seat} does not name {quote(name)}")
        rest = rest[len(name) :].lstrip()
        while True:
            mark = _ACTOR_MARK.match(rest)
            if mark is None:
                break
            rest = rest[mark.end() :]
        won = [self.amount(w["amt"]) for w in _WON.finditer(rest)]
        if won:
            self.winnings[who] = sum(won, Decimal(0))
            self.claim_lines[f"winnings.{who}"] = self.lineno
            if rest.endswith(_NOT_AWARDED):
                self.cashed_out[who] = (self.winnings[who], self.lineno)
        if rest.startswith(("showed [", "mucked [")):
            b = _BRACKETS.search(rest)
            if b is not None:
                self.fill_hole(who, b.group(1))
        if self.second_board:  # a board run twice: the first board's result first
            rest = rest.split(", and ", 1)[0]
        w = _WITH.search(rest)
        if w is not None and rest.startswith("showed"):
            self.described[who] = w["desc"]
            self.claim_lines[f"described.{who}"] = self.lineno

    def run_twice_line(self, text: str) -> None:
        """``Hand was run twice`` (the street lines say how)."""
        if text != "Hand was run twice":
            self.other_summary_line(text)

    def names_escaped_line(self, text: str) -> None:
        """:data:`NAMES_ESCAPED`: our writer escaped the names of this hand."""
        if text != NAMES_ESCAPED:
            self.other_summary_line(text)
            return
        self.escaped = True

    def other_summary_line(self, text: str) -> None:
        if _CHAT.match(text) or _NOISE.search(text):
            return
        raise self.fail(f"cannot read the summary line {quote(text)}")

    # -- the record

    def cash_outs(self) -> None:
        """A winner who took PokerStars' all-in cash out has no collected line: the
        summary's amount (``(pot not awarded as player cashed out)``) stands for it."""
        has = {who for who, _, _ in self.collected}
        for who, (amount, line) in self.cashed_out.items():
            if who not in has:
                self.claim_lines[f"collected.{len(self.collected)}"] = line
                self.collected.append((who, amount, self.pot_name(amount)))

    def pot_name(self, amount: Decimal) -> str:
        """The pot of the summary's pots (net of the rake) that holds just ``amount``."""
        pots = self.pots
        if len(pots) > 1 and amount in pots:
            k = pots.index(amount)
            return "main pot" if k == 0 else "side pot" if len(pots) == 2 else f"side pot-{k}"
        return "pot"

    def summary_agrees(self) -> bool:
        """Whether the summary's amounts are the collected lines' (an error note for
        each player where not: then only the collected lines are checked)."""
        if not self.summary_seats or not self.collected:
            return True
        got: dict[int, Decimal] = {}
        first: dict[int, int] = {}
        for k, (who, amount, _) in enumerate(self.collected):
            got[who] = got.get(who, Decimal(0)) + amount
            first.setdefault(who, self.claim_lines[f"collected.{k}"])
        agree = True
        for who in range(self.n):
            said, taken = self.winnings.get(who, Decimal(0)), got.get(who, Decimal(0))
            if said == taken:
                continue
            agree = False
            at = self.claim_lines.get(f"winnings.{who}") or first[who]
            where = f" (line {first[who]})" if who in first else ""
            self.notes.append(
                Problem(
                    self.path or "<input>",
                    at,
                    self.hand_id,
                    "error",
                    f"the summary says {self.ordered[who].name} won {self.symbol}{said}, the "
                    f"collected lines{where} {self.symbol}{taken}: the file contradicts "
                    "itself (the summary is not checked further)",
                    "winnings",
                )
            )
        return agree

    def record(self, setup: _Setup) -> HandHistory:
        """The hand read, with its amounts in integers of the hand's unit."""
        if self.first_run is not None and not self.second_board:
            line, text = self.first_run
            raise _Fail(
                line, f"{quote(text)}: a first run of the board, but no second run (*** SECOND ...)"
            )
        self.cash_outs()
        summary = self.summary_seats and self.summary_agrees()
        f = self.fields
        stakes, cap, n = setup.stakes, setup.cap, self.n
        if cap is not None:
            f["cap"] = cap
        unit = Decimal(1).scaleb(-self.places)

        def chips(value: Decimal) -> int:
            return int(value.scaleb(self.places))

        name = unescape_name if self.escaped else str
        players = tuple(Player(name(s.name), chips(s.stack), s.seat) for s in self.ordered)
        if "cap" in f:
            f["cap"] = chips(f["cap"])
        if "not_dealt" in f:
            f["not_dealt"] = [[a, name(b), chips(c), d] for a, b, c, d in f["not_dealt"]]
        f["stakes"] = [chips(stakes[0]), chips(stakes[1])]
        if self.symbol:
            f["currency_symbol"] = self.symbol
        if setup.variant == "FT":
            limits = {"small_bet": chips(stakes[0]), "big_bet": chips(stakes[1])}
        else:
            limits = {"min_bet": chips(stakes[1])}
        blinds_model = Blinds(
            antes=tuple(chips(a) for a in self.antes),
            blinds=tuple(chips(b) for b in self.blinds),
            dead=tuple(chips(d) for d in self.dead) if any(self.dead) else (),
            posts=tuple(chips(p) for p in self.posts) if any(self.posts) else (),
            **limits,
        )
        moves = tuple(
            Move(
                m.kind,
                m.actor,
                None if m.to is None else chips(m.to),
                m.cards,
                m.line,
                None,
                m.all_in,
                None if m.stated is None else chips(m.stated),
            )
            for m in self.moves
        )
        claims = Claims(
            winnings=tuple(chips(self.winnings.get(i, Decimal(0))) for i in range(n))
            if summary
            else None,
            collected=tuple((p, chips(a), pot) for p, a, pot in self.collected) or None,
            returned=tuple((p, chips(a)) for p, a in self.returned) or None,
            total_pot=None if self.total is None else chips(self.total),
            rake=None if self.rake is None else chips(self.rake),
            described=tuple(sorted(self.described.items())),
            lines=self.claim_lines,
            pots=tuple(chips(p) for p in self.pots) or None,
        )
        return HandHistory(
            variant=setup.variant,
            players=players,
            blinds=blinds_model,
            moves=moves,
            claims=claims,
            unit=unit,
            hand_id=self.hand_id,
            source=self.path,
            line=setup.first_line,
            fields=f,
            tournament="tournament_id" in f,
            notes=tuple(self.notes),
        )

    # -- helpers

    def split_actor(self, text: str) -> tuple[int | None, str]:
        """``(player index, rest)`` for a line ``name: rest`` of a dealt player."""
        start = 0
        end = self.longest_name + 2  # no ': ' further in can end a name
        while True:
            pos = text.find(": ", start, end)
            if pos < 0:
                return None, text
            who = self.names.get(text[:pos])
            if who is not None:
                return who, text[pos + 2 :]
            start = pos + 1

    def cards(self, text: str) -> list[Card | None]:
        """Cards in brackets; ``XX`` or ``??`` for an unknown card."""
        try:
            if "X" in text or "?" in text:
                return [
                    None if t in ("XX", "??", "X", "?") else parse_cards(t)[0] for t in text.split()
                ]
            return list(parse_cards(text))
        except HoldemError as exc:
            raise self.fail(f"bad cards [{text}]: {exc}") from None

    def deal_hole(self) -> None:
        """Adds the hole-card deals (unknown cards) once, at the first sign of play."""
        if self.hole_index:
            return
        for i in range(self.n):
            self.hole_index[i] = len(self.moves)
            self.moves.append(_RawMove(DEAL_HOLE, i, None, (None, None), self.lineno))

    def fill_hole(self, player: int, text: str, replace_line: bool = False) -> None:
        """Records hole cards the file reveals (dealt, shown or mucked)."""
        cards = [c for c in self.cards(text) if c is not None]
        if not cards:
            return
        if len(cards) > 2:
            raise self.fail(f"{len(cards)} hole cards: [{text.strip()}]")
        index = self.hole_index.get(player)
        if index is None:
            return
        move = self.moves[index]
        known = [c for c in move.cards if c is not None]
        if set(cards) <= set(known):
            return
        if not set(known) <= set(cards):
            raise self.fail(
                f"cards [{text.strip()}] differ from the cards dealt ({format_cards(known)})"
            )
        move.cards = tuple(cards) + (None,) * (2 - len(cards))
        if replace_line:
            move.line = self.lineno


# ---------------------------------------------------------------- the line tables

#: Lines of the play (posts to showdown) by how they start; any other line is a
#: dealt player's ``name: verb ...`` (see :data:`_ACTIONS`) or
#: :meth:`_HandParser.other_line` (collections, noise).
_PLAY_LINES: tuple[tuple[str, _Handler], ...] = (
    ("*** ", _HandParser.street_line),
    ("Dealt to ", _HandParser.dealt_line),
    ("Uncalled bet ", _HandParser.uncalled_line),
)
#: Lines of the summary by how they start; any other is
#: :meth:`_HandParser.other_summary_line` (noise, or an error).
_SUMMARY_LINES: tuple[tuple[str, _Handler], ...] = (
    ("*** ", _HandParser.street_line),
    ("Total pot ", _HandParser.total_line),
    ("Board ", _HandParser.board_line),
    ("Board[", _HandParser.board_line),
    ("Seat ", _HandParser.summary_seat),
    ("Hand was run twice", _HandParser.run_twice_line),
    ("FIRST Board ", _HandParser.board_line),
    ("SECOND Board ", _HandParser.board_line),
    (NAMES_ESCAPED, _HandParser.names_escaped_line),
)
_PLAY_STARTS = tuple(prefix for prefix, _ in _PLAY_LINES)
_SUMMARY_STARTS = tuple(prefix for prefix, _ in _SUMMARY_LINES)
#: A dealt player's lines by their first word after ``name: ``; any other is
#: :meth:`_HandParser.other_action`.
_ACTIONS: dict[str, _ActionHandler] = {
    "posts": _HandParser.post,
    "calls": _HandParser.wager,
    "bets": _HandParser.wager,
    "raises": _HandParser.wager,
    "checks": _HandParser.check,
    "folds": _HandParser.fold,
    "shows": _HandParser.show,
    "mucks": _HandParser.muck,
    "doesn't": _HandParser.muck,
}
