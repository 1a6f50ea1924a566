"""PokerStars text hand histories: the writer.

:func:`write_pokerstars` and :func:`to_pokerstars` write
:class:`~holdem.histories.HandHistory` records as PokerStars text, which
:func:`~holdem.histories.read_pokerstars` reads back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from itertools import zip_longest
from typing import Any, TextIO

from ..cards import Card, format_cards
from ..errors import HistoryFormatError, quote
from .model import (
    BET_RAISE,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    FOLD,
    MUCK,
    SHOW,
    Blinds,
    HandHistory,
)
from .pokerstars import _GAME, _LIMIT_TEXT, _STREETS

__all__ = ["PokerStarsWriter", "to_pokerstars", "write_pokerstars"]


class PokerStarsWriter:
    """Writes hands as PokerStars text to a stream, one at a time, separated by
    blank lines; :attr:`count` is the number written."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.count = 0

    def write(self, hand: HandHistory) -> None:
        """Writes one hand; a hand the format cannot express raises
        :class:`~holdem.errors.HistoryFormatError` and writes nothing."""
        text = to_pokerstars(hand)
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


def to_pokerstars(hand: HandHistory) -> str:
    """One hand as PokerStars text (ending with a newline).

    Hands from other formats get ``Player1``.. for missing names, hand id 0
    (also for an id that is not a number: PokerStars numbers its hands),
    seats 1..n with the button last, and a made-up table and date.  A hand
    whose starting stacks are not all known cannot be written (PokerStars
    states every one): :class:`~holdem.errors.HistoryFormatError`.
    """
    hand.check_writable()
    problem = _unwritable(hand)
    if problem:
        raise HistoryFormatError(
            f"{problem}: this hand cannot be written as PokerStars text",
            path=hand.source,
            line=hand.line,
        )
    lines = _Writer(hand).lines()
    for line in lines:
        if "\n" in line or "\r" in line:
            raise HistoryFormatError(
                f"the line {quote(line)} would hold a line break: this hand cannot be written "
                "as PokerStars text",
                path=hand.source,
                line=hand.line,
            )
    return "\n".join(lines) + "\n"


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


def _unwritable(hand: HandHistory) -> str | None:
    """Why PokerStars text cannot say what the hand says (None: it can).

    Every stack is stated, and a player is named at the start of a line
    (``name: folds``), so a name must read back as itself: no spaces around
    it, no ``': '`` or control character in it, no start of another kind of
    line (``Seat 1``), and no two players of the same name.  PokerStars
    has no straddle.
    """
    b = hand.blinds
    if (len(hand.players) > 2 and any(b.blinds[2:])) or (
        b.min_bet and max(b.blinds, default=0) > b.min_bet
    ):  # a third blind, or a blind above the big blind (the small one missing)
        return "a straddle (a third blind), which PokerStars text has no word for"
    unusual = (
        any(b.dead)
        or any(b.posts)
        or len(set(b.antes)) > 1
        or (len(hand.players) > 2 and not (b.blinds[0] and b.blinds[1]))
    )
    if unusual and _posted(hand) != b:
        # PokerStars states what was posted: who posted which blind is then lost
        return (
            "a stack too short for its forced bets beside a missing blind, a dead blind, "
            "a live post or a big-blind ante"
        )
    extra = [d + p for d, p in zip_longest(b.dead, b.posts, fillvalue=0)]
    for i, (blind, more) in enumerate(zip(b.blinds, extra, strict=False)):
        if blind and more:
            return f"{hand.player_name(i)} posts a blind and another forced bet"
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
        if (
            name != name.strip()
            or ": " in name
            or not name.isprintable()
            or name.startswith(_LINE_STARTS)
        ):
            return f"the player name {quote(name)} would not read back"
        if name in seen:
            return f"two players are named {quote(name)}"
        seen.add(name)
    return None


def _is_text(value: object) -> bool:
    return isinstance(value, str)


def _is_flag(value: object) -> bool:
    return isinstance(value, bool)


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


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
#: ``table`` or ``currency``) is written with the defaults instead.
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
    "cap": _is_count,
    "currency": _matches(r"[A-Z]{3}"),
    "currency_symbol": _matches(r"[^\s\d()\[\]|/,.:+-]{0,3}"),
    "date": _is_text,
    "table": _is_text,
    "max_seats": lambda value: type(value) is int and 2 <= value <= 10,
    "button_seat": lambda value: type(value) is int and value > 0,
    "stakes": lambda value: (
        isinstance(value, list | tuple) and len(value) == 2 and all(map(_is_count, value))
    ),
    "bounties": _rows(_is_count, _is_text),
    "sitting_out_seats": lambda value: (
        isinstance(value, list | tuple) and all(map(_is_count, value))
    ),
    "not_dealt": _rows(_is_count, _is_text, _is_count, _is_text),
}


def _writer_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields the writer may use: those the PokerStars reader made, checked."""
    if fields.get("site") != "PokerStars":
        return {}
    return {k: v for k, v in fields.items() if k in _WRITER_FIELDS and _WRITER_FIELDS[k](v)}


def _posted(hand: HandHistory) -> Blinds:
    """The forced bets as posted: PokerStars states what a short stack could put in
    (the ante first, then the blind), where other formats state the blinds as set."""
    b = hand.blinds
    n = len(hand.players)
    rows = [list(x) + [0] * (n - len(x)) for x in (b.antes, b.blinds, b.dead, b.posts)]
    for i, player in enumerate(hand.players):
        left = player.stack
        for row in rows:
            if left is not None:
                row[i] = min(row[i], left)
                left -= row[i]
    antes, blinds, dead, posts = (
        tuple(row) if given else ()
        for row, given in zip(rows, (b.antes, b.blinds, b.dead, b.posts), strict=True)
    )
    return replace(b, antes=antes, blinds=blinds, dead=dead, posts=posts)


class _Writer:
    def __init__(self, hand: HandHistory) -> None:
        self.hand = hand
        self.posted = _posted(hand)
        self.f = _writer_fields(hand.fields)
        self.n = len(hand.players)
        self.names = [p.name or f"Player{i + 1}" for i, p in enumerate(hand.players)]
        seats = [p.seat for p in hand.players]
        if any(s is None for s in seats) or len(set(seats)) != self.n:
            self.seats = list(range(1, self.n + 1))
        else:
            self.seats = [int(s) for s in seats if s is not None]
        self.symbol = str(self.f.get("currency_symbol", ""))
        self.board: list[Card] = []
        self.returned: list[tuple[int, int]] = []
        self.collected: tuple[tuple[int, int, str], ...] = ()
        self.folded = [False] * self.n
        self.fold_street = [0] * self.n
        self.pot = 0  # what the players put in and left in, once play() has run

    def money(self, amount: int) -> str:
        return f"{self.symbol}{self.hand.to_text(amount)}"

    def chips_text(self, amount: int) -> str:
        """Stacks and header amounts (tournament chips have no symbol)."""
        return self.money(amount)

    def stakes(self) -> tuple[int, int]:
        st = self.f.get("stakes")
        if isinstance(st, list | tuple) and len(st) == 2:
            return int(st[0]), int(st[1])
        b = self.hand.blinds
        if self.hand.variant == "FT":
            return b.small_bet, b.big_bet
        positive = sorted(x for x in b.blinds if x > 0)
        bb = b.min_bet or (positive[-1] if positive else 0)
        sb = positive[0] if len(positive) > 1 else bb // 2
        return sb, bb

    def header(self) -> str:
        h, f = self.hand, self.f
        kind = f.get("hand_kind", "Hand")
        prefix = "Zoom " if f.get("zoom") and not h.tournament else ""
        if f.get("home_game"):
            prefix = "Home Game "
        number = h.hand_id if h.hand_id and h.hand_id.isascii() and h.hand_id.isdigit() else 0
        parts = [f"PokerStars {prefix}{kind} #{number}: "]
        if "club" in f:
            parts.append(f"{{{f['club']}}} ")
        game = f.get("game") or f"Hold'em {_LIMIT_TEXT.get(h.variant, 'No Limit')}"
        sb, bb = self.stakes()
        if h.tournament:
            zoom = "Zoom " if f.get("zoom") else ""
            buy_in = f.get("buy_in", "")
            parts.append(f"{zoom}Tournament #{f.get('tournament_id', 0)}, ")
            if "level" in f:
                parts.append(f"{buy_in} " if buy_in else "")
                rnd = f"Match Round {f['match_round']}, " if "match_round" in f else ""
                parts.append(f"{game} - {rnd}Level {f['level']} ({h.to_text(sb)}/{h.to_text(bb)})")
            else:
                parts.append(f"{buy_in} - " if buy_in else "")
                parts.append(f"{game} ({h.to_text(sb)}/{h.to_text(bb)})")
        else:
            stakes = f"{self.money(sb)}/{self.money(bb)}"
            if "cap" in f:
                stakes += f" - {self.money(int(f['cap']))} Cap -"
            if "currency" in f:
                stakes += f" {f['currency']}"
            parts.append(f" {game} ({stakes})")
        parts.append(f" - {f.get('date', '2000/01/01 0:00:00 ET')}")
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
            stack = p.stack if p.stack is not None else 0
            seat = self.seats[i]
            bounty = f", {bounties[seat]} bounty" if seat in bounties else ""
            note = " is sitting out" if seat in out_seats else ""
            chips = self.money(stack)
            seat_lines.append(
                (seat, f"Seat {seat}: {self.names[i]} ({chips} in chips{bounty}){note}")
            )
        for seat, name, stack, note in f.get("not_dealt", []):
            bounty = f", {bounties[seat]} bounty" if seat in bounties else ""
            seat_lines.append(
                (
                    int(seat),
                    f"Seat {seat}: {name} ({self.money(int(stack))} in chips{bounty}) {note}",
                )
            )
        out.extend(text for _, text in sorted(seat_lines))
        out.extend(self.posts())
        out.extend(self.play())
        out.extend(self.summary())
        return out

    def posts(self) -> list[str]:
        b = self.posted  # the amounts; who posts which blind is by the blinds as set
        nominal = self.hand.blinds
        out: list[str] = []
        stacks = self.stacks_left()
        for i in range(self.n):
            if b.antes[i]:
                # an ante that takes the whole stack leaves no blind to post
                allin = stacks[i] if i >= len(b.blinds) or not b.blinds[i] else ""
                out.append(f"{self.names[i]}: posts the ante {self.money(b.antes[i])}{allin}")
        order = sorted(range(self.n), key=lambda i: nominal.blinds[i])
        # the small blind first, then the big blind (the smaller blind of two is the small one)
        blinders = [i for i in order if nominal.blinds[i] > 0]
        if len(blinders) == 2 and nominal.blinds[blinders[0]] == nominal.blinds[blinders[1]]:
            blinders.sort()
        for rank, i in enumerate(blinders):
            what = "small blind" if rank == 0 and len(blinders) > 1 else "big blind"
            if b.blinds[i]:  # PokerStars writes no post of nothing
                out.append(f"{self.names[i]}: posts {what} {self.money(b.blinds[i])}{stacks[i]}")
        for i in range(self.n):
            live = b.posts[i] if i < len(b.posts) else 0
            dead = b.dead[i] if i < len(b.dead) else 0
            if live and dead:
                out.append(f"{self.names[i]}: posts small & big blinds {self.money(live + dead)}")
            elif live:
                out.append(f"{self.names[i]}: posts big blind {self.money(live)}")
            elif dead:
                out.append(f"{self.names[i]}: posts small blind {self.money(dead)}")
        return out

    def stacks_left(self) -> list[str]:
        """`` and is all-in`` for blinds that take a whole stack (else '')."""
        b = self.posted
        out = []
        for i, p in enumerate(self.hand.players):
            spent = sum(x[i] for x in (b.antes, b.blinds, b.dead, b.posts) if i < len(x))
            out.append(" and is all-in" if p.stack is not None and spent >= p.stack > 0 else "")
        return out

    def play(self) -> list[str]:
        h = self.hand
        b = self.posted
        n = self.n
        out: list[str] = []
        committed = [
            (b.blinds[i] if i < len(b.blinds) else 0) + (b.posts[i] if i < len(b.posts) else 0)
            for i in range(n)
        ]
        left: list[float | int] = []
        for i, p in enumerate(h.players):
            spent = committed[i] + sum(x[i] for x in (b.antes, b.dead) if i < len(x))
            left.append(float("inf") if p.stack is None else p.stack - spent)
        folded = [False] * n
        fold_street = [0] * n
        board: list[Card] = []
        street = 0
        hole_done = False
        showdown = False
        pot = sum(b.antes) + sum(b.blinds) + sum(b.dead) + sum(b.posts)  # all put in
        # preflop, a big blind posted short is still called in full (R6)
        level = max(h.blinds.blinds, default=0)
        returned = list(h.claims.returned or ())
        guess = h.claims.returned is None and "site" not in self.f  # not read from PokerStars
        returned_written = False
        # PokerStars text says when a player is all-in; other formats may not
        guess_all_in = "site" not in self.f

        def guess_returned() -> None:
            """At the end of a betting round: the part of its top bet nobody matched
            goes back to the bettor (the source does not say)."""
            if guess and not returned_written and n > 1:
                second, top = sorted(committed)[-2:]
                if top > second:
                    returned.append((committed.index(top), top - second))
                    write_returned()

        def write_returned() -> None:
            nonlocal returned_written
            if returned_written:
                return
            returned_written = True
            self.returned = returned
            for who, amount in returned:
                out.append(f"Uncalled bet ({self.money(amount)}) returned to {self.names[who]}")

        def bet_for(who: int) -> int:
            """The bet ``who`` must match: preflop, a big blind posted short is still
            matched in full while another player can put it in (R3, R6)."""
            top = max(committed)
            if street or top >= level:
                return top
            reach = max(
                (committed[r] + max(left[r], 0) for r in range(n) if r != who and not folded[r]),
                default=0,
            )
            return int(max(top, min(level, reach)))

        for move in h.moves:
            kind, who = move.kind, move.actor
            if kind == DEAL_HOLE:
                if not hole_done:
                    out.append("*** HOLE CARDS ***")
                    hole_done = True
                known = [c for c in move.cards if c is not None]
                if known and who is not None:
                    out.append(f"Dealt to {self.names[who]} [{format_cards(known)}]")
                continue
            if not hole_done:
                out.append("*** HOLE CARDS ***")
                hole_done = True
            if kind == DEAL_BOARD:
                guess_returned()  # the betting round is over
                if street == 0 and len(move.cards) == 3:
                    cards = [c for c in move.cards if c is not None]
                    out.append(f"*** FLOP *** [{format_cards(cards)}]")
                else:
                    name = _STREETS[min(street, 2)]
                    cards = [c for c in move.cards if c is not None]
                    out.append(f"*** {name} *** [{format_cards(board)}] [{format_cards(cards)}]")
                board.extend(c for c in move.cards if c is not None)
                street += 1
                committed = [0] * n
                continue
            if who is None:
                continue
            name = self.names[who]
            if kind == FOLD:
                folded[who] = True
                fold_street[who] = street
                out.append(f"{name}: folds")
            elif kind == CHECK_CALL:
                top = bet_for(who)
                pay = 0
                allin = move.all_in  # kept however odd, as the file set it
                calling = committed[who] < top
                if calling:
                    # a stack too small for what it has paid already: trust the moves
                    owed = top - committed[who]
                    pay = int(min(owed, left[who]) if left[who] > 0 else owed)
                    committed[who] += pay
                    pot += pay
                    left[who] -= pay
                    allin = move.all_in or (guess_all_in and left[who] <= 0)
                if not calling and move.stated is None and not allin:
                    out.append(f"{name}: checks")
                else:
                    said = pay if move.stated is None else move.stated
                    out.append(f"{name}: calls {self.money(said)}{' and is all-in' * allin}")
            elif kind == BET_RAISE:
                to = move.to or 0
                top = bet_for(who)
                pay = to - committed[who]
                pot += pay
                left[who] -= pay
                committed[who] = to
                allin = move.all_in or (guess_all_in and left[who] <= 0)
                tail = " and is all-in" if allin else ""
                if top == 0:
                    out.append(f"{name}: bets {self.money(to)}{tail}")
                else:
                    by = max(to - top, 0) if move.stated is None else move.stated
                    out.append(f"{name}: raises {self.money(by)} to {self.money(to)}{tail}")
            elif kind in (SHOW, MUCK):
                guess_returned()
                write_returned()
                if not showdown and folded.count(False) > 1:
                    out.append("*** SHOW DOWN ***")
                    showdown = True
                if kind == SHOW:
                    shown = " ".join("XX" if c is None else format_cards([c]) for c in move.cards)
                    desc = dict(h.claims.described).get(who)
                    tail = f" ({desc})" if desc else ""
                    out.append(f"{name}: shows [{shown}]{tail}")
                else:
                    out.append(f"{name}: mucks hand" if showdown else f"{name}: doesn't show hand")
        if not hole_done:
            out.append("*** HOLE CARDS ***")
        guess_returned()
        write_returned()
        self.pot = pot - sum(amount for _, amount in returned)
        collected = h.claims.collected
        if collected is None and "site" not in self.f and folded.count(False) == 1:
            collected = ((folded.index(False), self.pot, "pot"),)
        self.collected = collected or ()
        for who, amount, pot_name in self.collected:
            out.append(f"{self.names[who]} collected {self.money(amount)} from {pot_name}")
        self.board = board
        self.folded = folded
        self.fold_street = fold_street
        return out

    def summary(self) -> list[str]:
        h, c = self.hand, self.hand.claims
        out = ["*** SUMMARY ***"]
        total = c.total_pot
        if total is None and "site" not in self.f:
            total = self.pot
        if total is not None:
            pots = ""
            if c.pots:
                pots = f" Main pot {self.money(c.pots[0])}."
                if len(c.pots) == 2:
                    pots += f" Side pot {self.money(c.pots[1])}."
                else:
                    for k, amount in enumerate(c.pots[1:], 1):
                        pots += f" Side pot-{k} {self.money(amount)}."
            out.append(f"Total pot {self.money(total)}{pots} | Rake {self.money(c.rake or 0)}")
        if self.board:
            out.append(f"Board [{format_cards(self.board)}]")
        winnings = c.winnings
        if winnings is None and "site" not in self.f:
            won = [0] * self.n
            for who, amount, _ in self.collected:
                won[who] += amount
            winnings = tuple(won)
        if winnings is None:
            return out
        described = dict(c.described)
        shown = {m.actor for m in h.moves if m.kind == SHOW}
        holes = {m.actor: m.cards for m in h.moves if m.kind == DEAL_HOLE}
        button = self.f.get("button_seat")
        for i in sorted(range(self.n), key=lambda k: self.seats[k]):
            seat = self.seats[i]
            marks = " (button)" if seat == button else ""
            if h.blinds.blinds[i : i + 1] and h.blinds.blinds[i]:
                small = min(x for x in h.blinds.blinds if x > 0)
                big = max(h.blinds.blinds)
                if small != big and h.blinds.blinds[i] == small:
                    marks += " (small blind)"
                else:
                    marks += " (big blind)"
            text = f"Seat {seat}: {self.names[i]}{marks}"
            amount = winnings[i] if i < len(winnings) else 0
            cards = [x for x in holes.get(i, ()) if x is not None]
            desc = described.get(i)
            with_desc = f" with {desc}" if desc else ""
            if (i in shown and cards) or desc:
                cards_text = format_cards(cards) if cards else "XX XX"
                if amount:
                    text += f" showed [{cards_text}] and won ({self.money(amount)}){with_desc}"
                else:
                    text += f" showed [{cards_text}] and lost{with_desc}"
            elif amount:
                text += f" collected ({self.money(amount)})"
            elif self.folded[i]:
                street = self.fold_street[i]
                text += (
                    f" folded on the {_STREETS[street - 1].title()}"
                    if street
                    else (" folded before Flop")
                )
            else:
                text += " mucked"
            out.append(text)
        return out
