"""The one presentation of a table's events that every client of a player
shares (``holdem play``, ``holdem join``, the full screen): cards with
coloured suits, each event told as a line, the table when it is the
player's turn.  It tells what the player may know: the public events and the
cards the game hands it as the player's own (R14).  What a line says is
what a screen draws: the full screen shows these lines in its log.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal

import click

from holdem import Action, ActionKind, Card, LegalActions, PlayerView, Street, describe, evaluate
from holdem.cards import RANKS
from holdem.errors import ConfigError
from holdem.table import (
    CardsShown,
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    LevelUp,
    PlayerEliminated,
    SatOut,
    SeatFreed,
)
from holdem.units import ONE, check_unit, chips_text

from .commands import menu

__all__ = ["Teller", "ante_name", "escaped", "ordinal", "second_run", "table_unit"]

_SYMBOLS = "♣♦♥♠"
_LETTERS = "cdhs"
#: a four-colour deck: clubs green, diamonds blue, hearts red, spades plain
_COLOURS: tuple[str | None, ...] = ("green", "blue", "red", None)
_STREETS = {Street.FLOP: "FLOP", Street.TURN: "TURN", Street.RIVER: "RIVER"}
#: Where a board run twice (R10) begins its second run, by the street dealt first:
#: the board's cards before it are both runs'.
_RUN_FROM = {Street.FLOP: 0, Street.TURN: 3, Street.RIVER: 4}
_RUNS = ("first run", "second run")
_POSTS = {
    ActionKind.SMALL_BLIND: "posts the small blind",
    ActionKind.BIG_BLIND: "posts the big blind",
    ActionKind.ANTE: "posts an ante of",
    ActionKind.STRADDLE: "straddles",
    ActionKind.LIVE_POST: "posts",
    ActionKind.DEAD_BLIND: "posts dead",
}


_SECOND_PERSON = {"is": "are", "has": "have", "goes": "go"}
#: What a terminal could take as a command rather than text: the C0 and C1
#: controls and DEL (ESC begins every escape sequence), the line and
#: paragraph separators, and the marks that reorder text (bidi overrides).
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def escaped(text: str) -> str:
    r"""``text`` with every character a terminal would obey shown as text
    (``\x1b``, ``\r``, ``\u202e``): a name or a chat line can neither move
    the cursor nor change colours, and what it holds is seen.

    >>> print(escaped("Ann\x1b[2J\r"), escaped("Bé ♠"))
    Ann\x1b[2J\r Bé ♠
    """
    return _CONTROLS.sub(_escape, text)


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    special = {9: "\\t", 10: "\\n", 13: "\\r"}.get(code)
    return special or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


class _Names(dict[int, str]):
    """Names by seat, each taken in :func:`escaped` (the Teller's ``names``
    and ``labels``: what the server or a program says is shown as text)."""

    def __setitem__(self, seat: int, name: str) -> None:
        super().__setitem__(seat, escaped(name))

    def update(self, *given: Mapping[int, str] | Iterable[tuple[int, str]]) -> None:  # type: ignore[override]
        for items in given:
            for seat, name in items.items() if isinstance(items, Mapping) else items:
                self[seat] = name


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def second_run(board: Sequence[Card], second: Sequence[Card], a: Action) -> tuple[Card, ...]:
    """The second run's board (R10) once ``a``, a ``deal_board`` record of
    ``run`` 1, is dealt: ``second`` so far (or the cards of ``board``, the
    first run's, that come before the street it begins with) and its cards."""
    if not second:
        second = board[: _RUN_FROM.get(a.street, 0)]
    return (*second, *a.cards)


def table_unit(settings: Mapping[str, object]) -> Decimal:
    """The chip unit of a room's table by its ``settings`` (R9: its ``unit``,
    as text; a table that says none, or none a client reads, has chips of 1)."""
    try:
        return check_unit(settings.get("unit", "1"))
    except ConfigError:
        return ONE


def _unicode_ok(stream: object) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        _SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Teller:
    """Lines for one player (``me``, a table seat, or None: a spectator).
    ``color`` None colours only on a terminal; ``write`` takes each line."""

    def __init__(
        self,
        me: int | None,
        *,
        color: bool | None = None,
        symbols: bool | None = None,
        write: Callable[[str], None] | None = None,
    ) -> None:
        self.me = me
        self._my_name: str | None = None
        self.color = sys.stdout.isatty() if color is None else color
        self.symbols = _unicode_ok(sys.stdout) if symbols is None else symbols
        self._write = write
        self.names: dict[int, str] = _Names()
        self.labels: dict[int, str] = _Names()  # seat -> what shows after the name ("easy")
        self.board: tuple[Card, ...] = ()
        #: the second run's board, where the hand runs it twice (R10; else ())
        self.second_board: tuple[Card, ...] = ()
        self.hole: tuple[Card, ...] = ()  # the player's own cards in this hand (set when dealt)
        self._side = False  # a side pot was awarded in this hand
        self._per_run = 0  # a hand run twice: the pots of each run (its first award says)
        self._won: dict[int, list[tuple[int, int]]] = {}  # pot -> (seat, chips) of its winners
        self.marks: dict[int, str] = {}  # the hand's button and blinds by seat: "D", "SB, BB"
        self.hand: int | None = None  # the number of the hand begun last (None: none yet)
        #: the table's chip unit: amounts are told in its money (R9: a chip of 0.5
        #: makes 5 chips read 2.5)
        self.unit: Decimal = ONE

    @property
    def my_name(self) -> str | None:
        """The player's name at the table (set by the game; shown escaped)."""
        return self._my_name

    @my_name.setter
    def my_name(self, name: str | None) -> None:
        self._my_name = None if name is None else escaped(name)

    # ------------------------------------------------------------ output

    def money(self, chips: int) -> str:
        """An amount as the player reads it: in the table's money (``1,200``, ``2.5``)."""
        return chips_text(chips, self.unit)

    def blinds(self, small: int, big: int) -> str:
        """The blinds as the player reads them: ``10/20``, ``2.5/5``."""
        return f"{self.money(small)}/{self.money(big)}"

    def say(self, text: str = "", **style: object) -> None:
        line = click.style(text, **style) if style and self.color else text  # type: ignore[arg-type]
        if self._write is not None:
            self._write(line)
        else:
            click.echo(line, color=self.color)

    def card(self, card: Card) -> str:
        rank, suit = RANKS[card >> 2], card & 3
        if not self.symbols:
            return rank + _LETTERS[suit]
        text = rank + _SYMBOLS[suit]
        colour = _COLOURS[suit]
        if not self.color:
            return text
        return click.style(text, fg=colour, bold=True) if colour else click.style(text, bold=True)

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "the dealer"
        if seat == self.me:
            return "You"
        return self.names.get(seat, f"seat {seat + 1}")

    def named(self, name: str, *, you: str = "You") -> str:
        """A player by name as this teller calls them: the player, ``you``
        (never their name beside "You": the name is the histories'), shown
        escaped."""
        name = escaped(name)
        return you if self.my_name is not None and name == self.my_name else name

    def tell(self, seat: int | None, doing: str, *, notice: bool = False,
             hand: int | None = None, **style: object) -> None:  # fmt: skip
        """``Ann raises to 60``; for the player, ``You raise to 60`` (a
        ``notice``: with its hand, :meth:`notice`)."""
        if seat is not None and seat == self.me:
            verb, _, rest = doing.partition(" ")
            verb = _SECOND_PERSON.get(verb, verb[:-1] if verb.endswith("s") else verb)
            doing = " ".join(filter(None, (verb, rest.replace(" and is ", " and are "))))
        if notice:
            self.notice(f"{self.who(seat)} {doing}", hand=hand, **style)
        else:
            self.say(f"{self.who(seat)} {doing}", **style)

    def notice(self, text: str, *, hand: int | None = None, **style: object) -> None:
        """A notice of the table (a player comes, goes, is away or busts, the
        blinds go up) with the hand it belongs to: ``hand``, else the hand
        begun last (none before the first, the server's hand 0):
        ``[hand 12] Ben leaves the table``."""
        hand = hand or self.hand
        self.say(text if hand is None else f"[hand {hand}] {text}", **style)

    def chat(self, name: str, text: str, *, hand: int | None = None,
             watching: bool = False) -> None:  # fmt: skip
        """A line of the table's chat with the hand it was said at, shown as
        written (its control characters escaped): ``[hand 12] Ben: gl``; a
        spectator's ``Eve (watching): hi``; the player's own ``You: ...``."""
        who = self.named(name)
        who += " (watching)" if watching and who != "You" else ""
        self.notice(f"{who}: {escaped(text)}", hand=hand, fg="cyan")

    # ------------------------------------------------------------ events

    def event(self, event: Event) -> None:
        """Tells one table event (actions go through :meth:`action`)."""
        if isinstance(event, HandStarted):
            self.hand_started(event)
        elif isinstance(event, HandEnded):
            self.hand_ended(event)
        elif isinstance(event, LevelUp):
            named = ante_name(event.big_blind_ante)
            ante = f", {named} {self.money(event.ante)}" if event.ante else ""
            self.notice(
                f"Blinds go up: {self.blinds(event.small_blind, event.big_blind)}{ante} "
                f"(level {event.level + 1})",
                hand=event.hand,
                fg="yellow",
            )
        elif isinstance(event, PlayerEliminated):
            by = [self.named(n, you="you") for n in event.by]
            by_text = f", knocked out by {' and '.join(by)}" if by else ""
            self.tell(event.seat, f"is out in {ordinal(event.place)} place{by_text}", notice=True,
                      hand=event.hand, fg="magenta")  # fmt: skip
        elif isinstance(event, ChipsAdded):
            when = " (after this hand)" if event.deferred else ""
            chips = " chips" if self.unit is ONE else ""
            self.tell(event.seat, f"adds {self.money(event.chips)}{chips}{when}", notice=True)
        elif isinstance(event, SeatFreed) and event.reason != "busted":
            self.tell(event.seat, f"leaves the table with {self.money(event.chips)}", notice=True)
        elif isinstance(event, SatOut):
            self.tell(event.seat, "sits out", notice=True)
        elif isinstance(event, CardsShown):  # (after its hand: told with that hand's number)
            self.tell(event.seat, f"shows {self.cards(event.action.cards)} after the hand",
                      notice=True, hand=event.hand)  # fmt: skip

    def hand_started(self, e: HandStarted) -> None:
        self.board, self.second_board, self.hole, self._side = (), (), (), False
        self._per_run = 0
        self.hand = e.hand
        self._won = {}
        self.names.update(zip(e.seats, e.names, strict=True))
        ante = f" {ante_name(e.big_blind_ante)} {self.money(e.ante)}" if e.ante else ""
        self.say()
        self.say(
            f"── Hand #{e.hand} · blinds {self.blinds(e.small_blind, e.big_blind)}{ante} ──",
            bold=True,
        )
        self.marks = {}
        for mark, where in (("D", e.button), ("SB", e.small_blind_seat), ("BB", e.big_blind_seat)):
            if where is not None:
                self.marks[where] = f"{self.marks[where]}, {mark}" if where in self.marks else mark
        parts = []
        for seat, chips in zip(e.seats, e.stacks, strict=True):
            mark = f" ({self.marks[seat]})" if seat in self.marks else ""
            parts.append(f"{self.who(seat)} {self.money(chips)}{mark}")
        self.say("   " + " · ".join(parts))

    def action(self, a: Action, own: tuple[Card, ...] | None = None) -> None:
        """Tells one record of the hand's log; ``own``: the player's hole cards
        (shown at the deal)."""
        kind, who = a.kind, self.who(a.seat)
        if kind is ActionKind.DEAL_HOLE:
            if own:
                self.hole = tuple(own)
                self.say(f"Your cards: {self.cards(own)}", bold=True)
            return
        if kind is ActionKind.DEAL_BOARD:
            street = _STREETS.get(a.street, a.street.label)
            if a.run:  # (the second run's street, R10: the first board is kept)
                self.second_board = second_run(self.board, self.second_board, a)
                self.say(f"*** SECOND {street} *** [{self.cards(self.second_board)}]")
                return
            self.board = (*self.board, *a.cards)
            self.say(f"*** {street} *** [{self.cards(self.board)}]")
            return
        all_in = " and is all in" if a.all_in else ""
        if kind in _POSTS:
            self.tell(a.seat, f"{_POSTS[kind]} {self.money(a.amount)}{all_in}", dim=True)
        elif kind is ActionKind.FOLD:
            self.tell(a.seat, "folds", dim=a.seat != self.me)
        elif kind is ActionKind.CHECK:
            self.tell(a.seat, "checks")
        elif kind is ActionKind.CALL:
            # (the bet it matches said too when the caller had chips in: 'calls 480 (500 in all)')
            total = f" ({self.money(a.to)} in all)" if a.to > a.amount else ""
            self.tell(a.seat, f"calls {self.money(a.amount)}{total}{all_in}")
        elif kind is ActionKind.BET:
            self.tell(a.seat, f"bets {self.money(a.to)}{all_in}", bold=True)
        elif kind is ActionKind.RAISE:
            self.tell(a.seat, f"raises to {self.money(a.to)}{all_in}", bold=True)
        elif kind is ActionKind.TIMEOUT:
            self.tell(a.seat, "times out (protected)")
        elif kind is ActionKind.RETURN:
            self.say(f"{self.money(a.amount)} uncalled goes back to {who}", dim=True)
        elif kind is ActionKind.SHOW:
            self.tell(a.seat, f"shows {self._hand(a.cards)}")
        elif kind is ActionKind.MUCK:
            # (the player's own hand named: a muck is at once, and the cards are theirs to see)
            mine = f" {self._hand(self.hole)}" if a.seat == self.me and self.hole else ""
            self.tell(a.seat, f"mucks{mine}", dim=True)
        elif kind is ActionKind.WIN:
            pot = self._pot_name(a.pot)
            won = self._won.setdefault(a.pot, [])
            if a.amount or not won:
                won.append((a.seat if a.seat is not None else -1, a.amount))
                self.tell(a.seat, f"wins {self.money(a.amount)} from {pot}", fg="green", bold=True)
                return
            # a tie for a pot of fewer chips than winners: this one's share is none (R9)
            chips = sum(c for _, c in won)
            takers = " and ".join("you" if s == self.me else self.who(s) for s, c in won if c)
            self.tell(
                a.seat,
                f"ties for {pot}, but its {chips:,} chip{'s' * (chips != 1)}"
                f"{'' if self.unit is ONE else f' ({self.money(chips)})'} "
                f"{'go' if chips != 1 else 'goes'} to {takers}: chips that do not divide go "
                "one at a time to the first winners left of the button",
                fg="green",
            )

    def _pot_name(self, pot: int) -> str:
        """How a win names its pot (``pot``: its number in the outcome): the
        pot, the main pot, side pot 2; where the board ran twice, with its run
        (``the main pot, second run``: the second run's pots come after the
        first's, whose first award is its last side pot)."""
        run = ""
        if self.second_board:
            self._per_run = self._per_run or pot + 1
            number = pot % self._per_run
            run = f", {_RUNS[pot // self._per_run]}"
            side = self._per_run > 1
        else:
            # (side pots are awarded first: a hand that had one says "the main pot")
            self._side = side = self._side or pot > 0
            number = pot
        return (f"side pot {number}" if number > 0 else "the main pot" if side else "the pot") + run

    def _hand(self, cards: Sequence[Card]) -> str:
        """Hole cards and, with a board, what they make: ``A♣ K♦ (One Pair, Kings)``;
        with a board run twice, on each (``(first run: ...; second run: ...)``)."""
        made = ""
        if len(self.board) >= 3 and len(self.second_board) >= 3:
            first = describe(evaluate([*cards, *self.board]))
            second = describe(evaluate([*cards, *self.second_board]))
            made = f" ({_RUNS[0]}: {first}; {_RUNS[1]}: {second})"
        elif len(self.board) >= 3:
            made = f" ({describe(evaluate([*cards, *self.board]))})"
        return f"{self.cards(cards)}{made}"

    def hand_ended(self, e: HandEnded) -> None:
        parts = [
            f"{self.who(s)} {self.money(chips)}" for s, chips in zip(e.seats, e.stacks, strict=True)
        ]
        rake = f" (rake {self.money(e.rake)})" if e.rake else ""
        self.say("   stacks: " + " · ".join(parts) + rake, dim=True)

    # ------------------------------------------------------------ your turn

    def turn(self, view: PlayerView, legal: LegalActions, seconds: float | None = None,
             bank: float | None = None) -> None:  # fmt: skip
        """The table as the player sees it, and the menu; ``seconds`` left to
        decide, ``bank`` of them the time bank's."""
        seats = view.config.seat_numbers
        statuses = view.statuses
        self.say()
        board = f"[{self.cards(view.board)}]" if view.board else "(no cards yet)"
        self.say(f"Board {board} · pot {self.money(view.pot)}")
        names = [
            self.who(seat) + (f" ({self.labels[seat]})" if self.labels.get(seat) else "")
            for seat in seats
        ]
        width = max(16, *map(len, names))  # (the columns stay in line under long names)
        for i, seat in enumerate(seats):
            status = statuses[i]
            bet = f"bet {self.money(view.bets[i])}" if view.bets[i] else ""
            state = {"folded": "folded", "all_in": "all in", "mucked": "mucked"}.get(status, "")
            mark = ">" if seat == view.actor else " "
            role, chips = self.marks.get(seat, ""), view.stacks[i]
            line = f" {mark} {seat + 1:>2} {names[i]:<{width}} {role:<7} {self.money(chips):>9}  "
            line += f"{bet:<12}"
            line += f" {state}"
            self.say(line.rstrip(), dim=status in ("folded", "mucked"))
        if view.hole_cards:
            self.say(f"Your cards: {self.cards(view.hole_cards)}", bold=True)
        clock = f" ({seconds:.0f}s)" if seconds is not None else ""
        if seconds is not None and bank and seconds > bank:
            clock = f" ({seconds - bank:.0f}s + time bank {bank:.0f}s)"
        mine = view.bets[seats.index(view.seat)] if view.seat in seats else 0
        self.say(f"Your move{clock}: {menu(legal, mine, self.unit)}", fg="cyan", bold=True)


def ante_name(big_blind_ante: bool) -> str:
    """How a line names a level's ante: the big blind's, or each player's."""
    return "big blind ante" if big_blind_ante else "ante"
