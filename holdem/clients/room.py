"""A player's game at a room server's table (``holdem join``): the server's
events told through the player's :class:`~holdem.clients.telling.Teller`,
the player's lines taken as moves at their turn (and only then) or as the
lobby's commands, the turn timer counted down."""

from __future__ import annotations

import datetime
import re
import select
import shlex
import time
from collections import deque
from pathlib import Path
from typing import Any

import click

from holdem import Action, ActionKind, Decision, LegalActions, PlayerView
from holdem.cards import parse_cards
from holdem.errors import ConfigError, ProtocolError
from holdem.table import CashResult, Schedule, TournamentResult, event_from_dict
from holdem.units import ONE, to_chips, unit_text

from .commands import HELP, TWICE_SAID, Refused, read_command, read_twice, show_or_muck
from .connection import RoomClient
from .hands import FORMS, read_hands, write_hands
from .local import cash_results, certificate, places
from .seats import end_seat, keep_seat
from .telling import Teller, ante_name, escaped, table_unit
from .terminal import Keyboard

__all__ = [
    "LOBBY_HELP",
    "WARNINGS",
    "WATCH_HELP",
    "RoomGame",
    "come_back_command",
    "greet",
    "greet_watcher",
    "play_room",
]

#: Seconds left at which the prompt says how long is left.
WARNINGS = (20, 10, 5)
#: The words of the table, not moves, that a turn takes too.
_ANY_TIME = frozenset({"add", "rebuy", "who", "sitout", "sit", "say", "mute", "unmute", "history",
                       "show", "twice"})  # fmt: skip
_LOBBY_WORDS = _ANY_TIME | {"start", "bots", "close", "back", "post", "help", "q", "quit", "exit"}
#: What ``back`` (and ``post``) did, by the seat's status in the reply: the
#: blinds rule of a cash table (R3) said as it holds for the player.
_BACK_SAID = {
    "playing": "You are dealt in again from the next hand.",
    "waiting": "You are back, waiting for the big blind: blinds passed you while you were "
    "out, and you are dealt in when the big blind reaches you. Type post to post them "
    "(the big blind live, the small blind dead) and be dealt in at the next hand.",
    "posting": "You post the blinds you missed and are dealt in at the next hand.",
}
LOBBY_HELP = """\
While the table waits for its players:
  start            begin the game (the table's creator)
  bots N [LEVEL]   fill N empty seats with bots (creator; LEVEL: easy, normal, hard, ...)
  who              the players so far
  close            close the table (the creator; after the hand being played)
  say TEXT         a line in the table's chat (mute NAME: not heard; unmute NAME)
  quit             leave the table"""
TABLE_HELP = """\
At the table, at any time:
  add N            add N chips to your stack (cash: up to the maximum buy-in)
  rebuy [N]        buy in again when you have no chips (cash: the maximum, or N)
  sitout           sit out from the next hand, your seat kept (sit out, too)
  back, post       be dealt in again after sitting out (post: post the blinds owed)
  who              the players
  show             show your cards of the last hand (having folded or won it uncontested)
  say TEXT         a line in the table's chat
  mute NAME        NAME's chat lines no longer reach you (unmute NAME: again)
  history [FILE] [--format pokerstars]
                   write the hands you played here (PHH; FILE: holdem-TABLE.phhs)"""
WATCH_HELP = """\
You are watching: the table's public events, no cards before they are shown.
  help             this help
  say TEXT         a line in the table's chat (where the table lets spectators write)
  mute NAME        NAME's chat lines no longer reach you (unmute NAME: again)
  history [FILE] [--format pokerstars]
                   write the table's hands so far (the cards shown; holdem-TABLE.phhs)
  q, quit          stop watching (Ctrl-C too)"""


class RoomGame:
    """One player's game at a room table: the teller, the turn, the lobby.

    The game's logic (the events told, turns numbered, views put together,
    moves and requests sent) and its line mode's output (:meth:`_show_turn`,
    :meth:`_prompt`, :meth:`_end_line`, :meth:`_drop_typing`,
    :meth:`countdown`) are apart: the full screen overrides the output."""

    def __init__(self, client: RoomClient, joined: dict[str, Any], teller: Teller,
                 key: str) -> None:  # fmt: skip
        self.client, self.teller, self.key = client, teller, key
        self.table: str = joined["table"]
        self.seat: int = joined["seat"]
        self.name: str = joined.get("name") or ""
        self.token: str = joined["token"]
        self.creator = bool(joined.get("creator"))
        self.turn: dict[str, Any] | None = None  # the turn being asked
        self.turns = 0  # the turns asked so far (the number of the one being asked)
        self.keyboard: Keyboard | None = None  # (a terminal's: the line being typed)
        #: its view (a turn's view is a delta of the seat's last one in the hand)
        self.view: PlayerView | None = None
        self.deadline: float | None = None
        self.bank: float | None = None  # (the time bank's seconds in the turn's, when told)
        self.warned: set[int] = set()
        self.own: tuple[int, ...] = ()
        self.over = False
        self.leaving = False
        self.replaced = False  # (another client of the player's took the seat up)
        self.away = False  # out of the deal (two timeouts in a row) until back
        self.watching = self.seat < 0  # (a spectator: no seat, public events only)
        self.chips: int | None = None  # (the stack after the last hand the seat was dealt)
        self.busted = False  # a cash seat with no chips, sitting out until a rebuy
        self.bell = False  # the terminal's bell rung at each turn
        teller.me = None if self.watching else self.seat
        teller.my_name = self.name
        self._state(joined["state"])

    def _state(self, state: dict[str, Any]) -> None:
        for info in state["seats"]:
            self.teller.names[info["seat"]] = info["name"]
            if info.get("bot"):
                self.teller.labels[info["seat"]] = info["bot"]
        self.started = state["status"] != "waiting"
        self.settings: dict[str, Any] = state.get("settings") or {}
        self.teller.unit = table_unit(self.settings)  # (amounts in the table's money, R9)

    @classmethod
    def spectator(cls, client: RoomClient, state: dict[str, Any], teller: Teller) -> RoomGame:
        """A spectator's game (``holdem watch``): the table's public events
        told, nothing to play; ``state``: the ``watch`` reply."""
        return cls(client, {"table": state["table"], "seat": -1, "token": "", "state": state},
                   teller, "")  # fmt: skip

    def remember(self) -> None:
        keep_seat(self.key, {"table": self.table, "token": self.token, "name": self.name})

    # ------------------------------------------------------------ events

    def tell(self, message: dict[str, Any]) -> None:
        kind = message.get("event")
        teller = self.teller
        if kind == "action":
            action = Action.from_dict(message["action"])
            timed_out = (ActionKind.CHECK, ActionKind.FOLD, ActionKind.TIMEOUT)
            if action.seat == self.seat and self.turn is not None and action.kind in timed_out:
                # (said before the move the timer made: a protected one, R13, is no check or fold)
                self._end_turn(timed_out=True, protected=action.kind is ActionKind.TIMEOUT)
            if action.kind is not ActionKind.DEAL_HOLE:
                teller.action(action)
        elif kind == "hole_cards" and message.get("seat") == self.seat:
            self.own = teller.hole = tuple(parse_cards(message["cards"]))
            teller.say(f"Your cards: {teller.cards(self.own)}", bold=True)
        elif kind == "turn" and message.get("seat") == self.seat:
            self._start_turn(message)
        elif kind == "player_joined":
            teller.names[message["seat"]] = message["name"]
            who = teller.names[message["seat"]]
            if message.get("bot"):
                teller.labels[message["seat"]] = message["bot"]
                who += f" ({teller.labels[message['seat']]} bot)"
            teller.notice(f"{who} sits at seat {message['seat'] + 1}", hand=message.get("hand"))
        elif kind == "player_left":
            teller.notice(f"{teller.named(message['name'])} leaves the table",
                          hand=message.get("hand"))  # fmt: skip
        elif kind == "chat":
            teller.chat(message["name"], message["text"], hand=message.get("hand"),
                        watching=message.get("seat") is None)  # fmt: skip
        elif kind == "table_finished":
            self._finished(message)
        elif kind == "table_closed":
            teller.say("The table's creator closed it.", bold=True)
            self.over = True
            if self.settings.get("small_blind") is not None:  # (cash: the session's results)
                state = self._ask("state", table=self.table)
                if state is not None and state.get("results"):
                    self._cash_results(state["results"])
        elif kind == "seat_taken_over":
            teller.say()
            teller.say(f"Your seat at table {self.table} was taken over by another client of "
                       "yours (holdem join for the same name, or the same token): this one "
                       "stops here, and the seat plays on there.", fg="red", bold=True)  # fmt: skip
            self.replaced = self.over = True
        elif kind == "seat_status" and message.get("seat") != self.seat:
            teller.notice(_seat_status(message, teller.named(message["name"])),
                          hand=message.get("hand"))  # fmt: skip
        elif kind == "seated":  # (a tournament begins: its players sit from seat 0)
            self.seat = message["seat"]
            teller.me = self.seat
        elif kind == "away" and message.get("seat") == self.seat:
            self.away = True
            teller.notice("You are out of the deal: two timeouts in a row. Type back (or any "
                          "move) to be dealt in again.", hand=message.get("hand"),
                          fg="red")  # fmt: skip
        elif kind == "creator":
            self.creator = message["seat"] == self.seat
            who = "You are" if self.creator else f"{teller.named(message['name'])} is"
            teller.notice(f"{who} the table's creator now.", hand=message.get("hand"))
        elif kind in ("seat_taken", "seat_freed", "sat_out", "sat_in", "chips_added",
                      "hand_started", "hand_ended", "level_up", "player_eliminated",
                      "cards_shown"):  # fmt: skip
            if kind == "hand_started":
                self.started = True
            data = {k: v for k, v in message.items() if k not in ("table", "full_information")}
            teller.event(event_from_dict(data))
            self._own_chips(kind, message)

    def _own_chips(self, kind: str, message: dict[str, Any]) -> None:
        """Follows the seat's stack; a cash player busted is told how to rebuy."""
        if kind == "hand_ended" and self.seat in message["seats"]:
            self.chips = message["stacks"][message["seats"].index(self.seat)]
        elif kind == "chips_added" and message["seat"] == self.seat:
            self.busted = False
        elif kind == "sat_out" and message["seat"] == self.seat and self.chips == 0:
            self.busted = True
            low, high = self.settings.get("min_buy_in"), self.settings.get("max_buy_in")
            if low is not None and high is not None:
                money = self.teller.money
                self.teller.say(f"You have no chips left: type rebuy to buy in again for "
                                f"{money(high)} (rebuy N: from {money(low)} to {money(high)}), "
                                "or quit to leave with nothing.", fg="yellow")  # fmt: skip

    def missed(self, joined: dict[str, Any]) -> None:
        """What happened while the player was away (a ``resume``'s ``missed``):
        the hands that ended, who came and went, and the stacks now."""
        teller = self.teller
        missed = [m for m in joined.get("missed") or () if isinstance(m, dict)]
        hands = [m["hand"] for m in missed if m.get("event") == "hand_ended"]
        if not hands:
            teller.say("Back in your seat: no hand ended while you were away.")
        elif len(hands) == 1:
            teller.say(f"Back in your seat: hand {hands[0]} ended while you were away.")
        else:
            teller.say(f"Back in your seat: {len(hands)} hands ended while you were away "
                       f"(hands {hands[0]} to {hands[-1]}).")  # fmt: skip
        if joined.get("missed_dropped"):
            teller.say(f"  ({joined['missed_dropped']:,} older events were not kept)")
        for message in missed:
            if message.get("event") in _MISSED_TOLD:
                self.tell(message)
        state = joined["state"]
        if any("chips" in info for info in state["seats"]):
            stacks = ", ".join(f"{teller.named(info['name'])} {teller.money(info['chips'])}"
                               for info in state["seats"])  # fmt: skip
            when = "as this hand began" if state.get("hand") else "now"
            teller.say(f"Stacks {when}: {stacks}")

    def _finished(self, message: dict[str, Any]) -> None:
        """The end of the table: a freezeout's places and its winner's
        certificate; a cash session's results."""
        teller = self.teller
        self.over = True
        result = message.get("result")
        if result is not None:
            ended = TournamentResult.from_dict(result)
            bots = {teller.names[seat]: level for seat, level in teller.labels.items()
                    if seat in teller.names}  # fmt: skip
            places(teller, ended, self.name, bots)
            label = f" ({bots[ended.winner]} bot)" if ended.winner in bots else ""
            stack = self.settings.get("stack")
            unit = " chips" if teller.unit is ONE else ""
            chips = f" · {teller.money(stack)}{unit} each" if stack else ""
            hands = f"{ended.hands} hand{'s' * (ended.hands != 1)}"
            certificate(teller, teller.named(ended.winner) + label, [
                f"{len(ended.places)} players{chips} · {hands}",
                f"table {self.table} · {datetime.date.today():%Y-%m-%d}",
            ])  # fmt: skip
        elif message.get("results") is not None:
            self._cash_results(message["results"])

    def _cash_results(self, results: dict[str, Any]) -> None:
        """A cash session's results (a ``results`` of the server's)."""
        cash_results(self.teller, self.teller.hand or 0, [
            CashResult(name=name, bought_in=r["bought_in"], cashed_out=r["cashed_out"],
                       hands=r["hands"])
            for name, r in results.items()
        ])  # fmt: skip

    # ------------------------------------------------------------ the turn

    def stamp(self) -> int | None:
        """The turn a line typed now is for: its number, or None out of turn."""
        return self.turns if self.turn is not None else None

    def _drop_typing(self, why: str, *, newline: bool) -> None:
        """Drops the line being typed on a terminal, and says so (``why``)."""
        keyboard = self.keyboard
        if keyboard is None or not keyboard.typing.strip():
            return
        line, keyboard.typing = keyboard.typing.strip(), ""
        if newline:
            click.echo()  # (the line being typed ends where it is)
        self.teller.say(f"Not taken: {line!r} ({why}).", fg="red")

    def _start_turn(self, message: dict[str, Any]) -> None:
        self.turns += 1
        self.turn = message
        seconds = message.get("seconds")
        self.deadline = None if seconds is None else time.monotonic() + float(seconds)
        self.bank = message.get("bank")
        self.warned = {w for w in WARNINGS if seconds is not None and w >= seconds}
        data = message["view"]
        view = PlayerView.from_dict(data, self.view if data.get("log_start") else None)
        self.view = view
        legal = view.legal
        assert legal is not None
        if legal.show or legal.muck:  # (the rooms' showdown: show, or muck a beaten hand)
            self._act(show_or_muck(view, legal))
            return
        self._show_turn(view, legal, seconds)

    # ------------------------------------------------------------ line mode
    # (what a terminal's line mode prints at a turn: a full screen draws its own)

    def _show_turn(self, view: PlayerView, legal: LegalActions, seconds: float | None) -> None:
        """The turn asked: a line half typed dropped, the table, the prompt."""
        self._drop_typing("typed before your turn", newline=True)
        if self.bell:
            click.echo("\a", nl=False)
        self.teller.turn(view, legal, seconds, self.bank)
        self._prompt()

    def _end_line(self) -> None:
        """Ends the prompt's line (before a line the game says at once)."""
        click.echo()

    def _prompt(self) -> None:
        left = ""
        if self.deadline is not None:
            left = f"({max(0.0, self.deadline - time.monotonic()):.0f}s) "
        click.echo(f"{left}> ", nl=False)

    def _end_turn(self, *, timed_out: bool, protected: bool = False) -> None:
        if timed_out:
            self._end_line()
            done = ("you are protected, all in for what you put in" if protected
                    else "you check or fold")  # fmt: skip
            self.teller.say(f"Time is up: {done}.", fg="red")
            self._drop_typing("typed for the turn that ended", newline=False)
        self.turn = None
        self.deadline = None

    def countdown(self, typing: str | None = None) -> float | None:
        """Says how long is left: on a terminal (``typing``: the line typed so
        far) the prompt again every second, elsewhere a line when a warning is
        due; the seconds to the next one."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if typing is not None:
            clock = f"({max(0.0, left):.0f}s)"
            if self.teller.color and left <= WARNINGS[-2]:
                clock = click.style(clock, fg="yellow")
            click.echo(f"\r\x1b[K{clock} > {typing}", nl=False)
            return max(0.05, min(1.0, left - int(left) + 0.01))
        for mark in WARNINGS:
            if left <= mark and mark not in self.warned:
                self.warned.add(mark)
                click.echo()
                self.teller.say(f"{mark} seconds left", fg="yellow")
                self._prompt()
        due = [left - mark for mark in WARNINGS if mark not in self.warned]
        return max(0.05, min(due)) if due else max(0.05, left + 1)

    def wants(self, line: str) -> bool:
        """Whether a line typed ahead is for now: at a turn, or a word of the lobby."""
        word = line.split()[0] if line.split() else ""
        return self.turn is not None or self.busted or word in _LOBBY_WORDS

    def typed(self, line: str, stamp: int | None) -> None:
        """A line the player typed, for the turn ``stamp`` (:meth:`stamp` when
        it was typed): a move typed out of turn, or for a turn that has
        ended, is not taken, and the player is told."""
        if line in ("q", "quit", "exit"):
            self.leave()
            return
        if self.watching:
            if line == "help":
                self.teller.say(WATCH_HELP)
            elif line.split()[:1] and line.split()[0] in _CHAT_WORDS:
                self._chat(line)
            elif line.split()[:1] == ["history"]:
                self._history(line)
            elif line:
                self.teller.say(f"Not taken: {line!r}: you are watching, with no seat "
                                "(q stops).", fg="red")  # fmt: skip
            return
        if self.away and self.turn is None and line and line.split()[0] not in _ANY_TIME:
            # (a move at a turn is one of the hand the player sat out during: theirs to play)
            self.away = False
            self._back(post=line == "post", away=True)
            if line in ("back", "post"):
                return
        if self.turn is None:
            self._lobby(line, late=stamp is not None)
            return
        if line.split()[:1] and line.split()[0] in _ANY_TIME:  # (not moves: taken at a turn too)
            self._lobby(line)
            self._prompt()
            return
        if stamp != self.turns:
            why = "typed before your turn" if stamp is None else "typed for a turn that has ended"
            if line:
                self.teller.say(f"Not taken: {line!r} ({why}).", fg="red")
            self._prompt()
            return
        view = self.view
        assert view is not None  # (read with the turn)
        legal = view.legal
        assert isinstance(legal, LegalActions)
        mine = view.bets[view.config.seat_numbers.index(self.seat)]
        command = read_command(line, legal, view.pot, mine, view)
        if isinstance(command, Decision):
            self._act(command)
        elif isinstance(command, Refused):
            self.teller.say(command.reason, fg="red")
            self._prompt()
        elif command == "help":
            self.teller.say(f"{HELP}\n{TABLE_HELP}")
            self._prompt()
        elif command == "table":
            left = None if self.deadline is None else self.deadline - time.monotonic()
            bank = None if left is None or self.bank is None else min(max(left, 0), self.bank)
            self.teller.turn(view, legal, left, bank)
            self._prompt()

    def _ask(self, kind: str, *, refused: str = "", **fields: Any) -> dict[str, Any] | None:
        """A request's result; None when it was refused (the reason said, after
        ``refused``: "Not said")."""
        try:
            return self.client.request(kind, **fields)
        except ProtocolError as exc:
            why = _REQUEST_FIELD.sub("", str(exc)) if refused else str(exc)
            self.teller.say(f"{refused}: {why}." if refused else why, fg="red")
        except TimeoutError as exc:
            self.teller.say(f"{exc}: the server is slow to answer", fg="red")
        return None

    def _back(self, *, post: bool = False, away: bool = False) -> None:
        """Back in the deal (``post``: the blinds owed posted to be dealt in at
        once; ``away``: the player was out of it), and how: at once, waiting
        for the big blind, or posting."""
        back = self._ask("back", table=self.table, post=post)
        if back is None:
            return
        status = back.get("status") or ""
        if status == "playing" and not away:
            self.teller.say("You are in the deal already.")
        else:
            self.teller.say(_BACK_SAID.get(status, "You are back in your seat."))

    def _act(self, decision: Decision) -> None:
        turn = self.turn
        self.turn, self.deadline = None, None
        try:
            done = self.client.request("act", table=self.table, action=decision.to_dict())
        except (ProtocolError, TimeoutError) as exc:
            self.teller.say(f"Not taken: {exc}", fg="red")
            code = getattr(exc, "code", None)
            if turn is not None and code not in ("not_your_turn", "no_hand"):
                self.turn = turn
                self._prompt()
            return
        if not done.get("in_time", True):
            self.teller.say("Too late: the timer checked or folded for you.", fg="red")

    def _lobby(self, line: str, *, late: bool = False) -> None:
        words = line.split()
        if not words:
            return
        if words[0] == "start":
            if self._ask("start", table=self.table) is not None:
                self.started = True
        elif words[0] == "bots" and len(words) in (2, 3) and words[1].isdigit():
            level = words[2] if len(words) == 3 else "normal"
            wanted = int(words[1])
            added = self._ask("add_bots", table=self.table, count=wanted, level=level)
            if added is not None and len(added["seats"]) < wanted:
                count = len(added["seats"])
                self.teller.say(f"{count} bot{'s' * (count != 1)} added, not {wanted}: the "
                                f"table had {count} empty seat{'s' * (count != 1)}.")  # fmt: skip
        elif words[0] == "close":
            closed = self._ask("close", table=self.table)
            if closed is not None and not closed["closed"]:
                self.teller.say("The table closes at the end of this hand.")
        elif words[0] in ("add", "rebuy"):
            self._chips(words)
        elif words[0] in _CHAT_WORDS:
            self._chat(line)
        elif words[0] == "history":
            self._history(line)
        elif words[0] in ("sitout", "sit") and self.started:
            if words in (["sitout"], ["sit", "out"]):
                self._sit_out()
            else:
                self.teller.say(f"Not taken: {line!r}: 'sitout' (or 'sit out') sits you out "
                                "from the next hand.", fg="red")  # fmt: skip
        elif words[0] in ("back", "post") and self.started:
            self._back(post=words[0] == "post")
        elif words == ["show"] and self.started:  # (cards_shown tells it, to everyone)
            self._ask("show", refused="Not shown", table=self.table)
        elif words[0] == "twice":
            self._twice(line)
        elif words[0] == "who":
            state = self._ask("state", table=self.table)
            if state is not None:
                self._state(state)
                _seats(self.teller, state)
        elif words[0] == "help":
            self.teller.say(LOBBY_HELP if not self.started else f"{HELP}\n{TABLE_HELP}")
        elif not self.started:
            self.teller.say(f"{line!r}? Type help for the commands.", fg="red")
        elif late:
            self.teller.say(f"Not taken: {line!r} (typed for a turn that has ended).", fg="red")
        else:
            self.teller.say(f"Not taken: {line!r}: it is not your turn.", fg="red")

    def _chat(self, line: str) -> None:
        """``say TEXT`` (a line in the table's chat: everyone there is told
        it, the player too), ``mute NAME``, ``unmute NAME``; a refusal said
        as the server says it (a flood: when to write again)."""
        word, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        say = self.teller.say
        if not rest:
            say(f"Not taken: {word} {'TEXT' if word == 'say' else 'NAME'}: {word} what?",
                fg="red")  # fmt: skip
            return
        if word == "say":
            most = self.client.hello.get("limits", {}).get("chat_chars")
            if isinstance(most, int) and len(rest) > most:
                say(f"Not said: a chat line is at most {most} characters, and this one has "
                    f"{len(rest):,}.", fg="red")  # fmt: skip
                return
            said = self._ask("chat", refused="Not said", table=self.table, text=rest)
            if said is not None and self.watching and isinstance(said.get("name"), str):
                self.teller.my_name = said["name"]  # (a spectator's own lines: You)
            return
        done = self._ask("mute", refused="Not taken", table=self.table, name=rest,
                         muted=word == "mute")  # fmt: skip
        if done is None:
            return
        who = self.teller.named(rest)
        if word == "mute":
            say(f"{who}'s chat lines no longer reach you (unmute {who}: they do again).")
        else:
            say(f"{who}'s chat lines reach you again.")

    def _history(self, line: str) -> None:
        """``history [FILE] [--format pokerstars]``: the hands the player
        played at this table (a watcher: every hand, the cards shown) written
        to FILE (``holdem-TABLE.phhs``, ``.txt``), and how many said."""
        usage = "history [FILE] [--format phh|pokerstars]"
        try:
            words = shlex.split(line)[1:]
        except ValueError as exc:
            self.teller.say(f"Not taken: {line!r}: {exc} ({usage}).", fg="red")
            return
        form, files = "phh", []
        while words:
            word = words.pop(0)
            if word.startswith("--format"):
                form = word.partition("=")[2] or (words.pop(0) if words else "")
            else:
                files.append(word)
        if form not in FORMS or len(files) > 1 or any(f.startswith("-") for f in files):
            self.teller.say(f"Not taken: {line!r}: {usage}.", fg="red")
            return
        path = Path(files[0] if files else f"holdem-{self.table}{FORMS[form]}")
        try:
            yours = read_hands(self.client, form, table=self.table)
        except ProtocolError as exc:
            self.teller.say(f"Not written: {_REQUEST_FIELD.sub('', str(exc))}.", fg="red")
            return
        whose = "of table" if self.watching else "of yours at table"
        if not yours.hands:
            self.teller.say(f"No hand {whose} {self.table} has finished yet: nothing written.")
            return
        try:
            write_hands(path, yours.text)
        except OSError as exc:
            self.teller.say(f"Not written: cannot write {path}: {exc.strerror or exc}.", fg="red")
            return
        count = len(yours.hands)
        cards = "the cards shown" if self.watching else "your cards and those shown"
        self.teller.say(f"{count:,} hand{'s' * (count != 1)} {whose} {self.table} written to "
                        f"{escaped(str(path))} ({_FORM_NAMES[form]}: {cards}).")  # fmt: skip

    def _twice(self, line: str) -> None:
        """``twice off`` (or ``no``): the player says no to running it twice
        (R10) from the next hand; ``twice on`` (``yes``): yes again; said as
        the server says it when the table does not run it twice."""
        agree = read_twice(line)
        if isinstance(agree, Refused):
            self.teller.say(agree.reason, fg="red")
            return
        said = self._ask("run_twice", refused="Not taken", table=self.table, agree=agree)
        if said is not None:
            self.teller.say(TWICE_SAID[said["agree"]])

    def _sit_out(self) -> None:
        """Out of the deal from the next hand (the server's ``sit_out``), the
        seat kept, until ``back``."""
        out = self._ask("sit_out", table=self.table)
        if out is not None:
            self.away = True  # (any line typed deals the player in again, as after timeouts)
            self.teller.say("You sit out from the next hand: your seat is kept, the blinds pass "
                            "you by. Type back (or any move) to be dealt in again.")  # fmt: skip

    def _chips(self, words: list[str]) -> None:
        """``add N`` (a top-up) or ``rebuy [N]`` (an empty stack bought in
        again, for the maximum buy-in unless N) at a cash table: refused here
        past the table's limits, with them and the stack (the chips_added
        event says what was added)."""
        say, money, unit = self.teller.say, self.teller.money, self.teller.unit
        usage = "'add N' adds N chips to your stack; 'rebuy' (or 'rebuy N') buys in again"
        if unit is not ONE:  # (a table of a chip unit: amounts in its money, R9)
            usage = (f"'add N' adds N to your stack, in the table's money (a whole number "
                     f"of chips of {unit_text(unit)}); 'rebuy' (or 'rebuy N') buys in "
                     "again")  # fmt: skip
        amount = words[1].replace(",", "") if len(words) == 2 else None
        try:
            typed = None if amount is None else to_chips(amount, unit)
        except ConfigError:
            typed = -1
        if len(words) > 2 or (typed is not None and typed < 0) or (
            words[0] == "add" and amount is None
        ):  # fmt: skip
            say(f"Not taken: {' '.join(words)!r}: {usage}.", fg="red")
            return
        state = self._ask("state", table=self.table)
        if state is None:
            return
        if state["game"] != "cash":
            say(f"Not taken: {words[0]}: nobody adds chips in a freezeout.", fg="red")
            return
        low, high = state["settings"]["min_buy_in"], state["settings"]["max_buy_in"]
        have = next((s["chips"] for s in state["seats"] if s["seat"] == self.seat), 0)
        chips = high if typed is None else typed
        room = f"add {money(high - have)} at most" if high > have else "there is no room to add"
        if words[0] == "rebuy" and have:
            say(f"Not taken: you have {money(have)}{' chips' * (unit is ONE)}: rebuy is for an "
                f"empty stack; add N tops it up to this table's maximum buy-in of {money(high)} "
                f"({room}).", fg="red")  # fmt: skip
        elif chips == 0:
            say(f"Not taken: {words[0]} 0 adds nothing.", fg="red")
        elif have + chips > high:
            say(f"Not taken: you have {money(have)} and this table's maximum buy-in is "
                f"{money(high)}: {room}.", fg="red")  # fmt: skip
        elif not have and chips < low:
            say(f"Not taken: a rebuy is a buy-in, from {money(low)} to {money(high)} at this "
                "table.", fg="red")  # fmt: skip
        else:
            self._ask("add_chips", table=self.table, chips=chips)

    def leave(self) -> None:
        """Leaves the table: a cash seat after the hand; a tournament stack plays
        on, checking or folding, until it is out."""
        if self.leaving:
            return
        self.leaving = True
        if self.watching:
            self.teller.say("You stop watching.")
            self.over = True
            return
        try:
            self.client.request("leave", table=self.table)
        except (ProtocolError, ConnectionError, TimeoutError) as exc:
            self.teller.say(f"leaving: {exc}", fg="red")
        end_seat(self.key)  # (its token kept: it reads the seat's hands)
        self.teller.say("You left the table.")
        self.over = True


#: The events a player back in a seat is told of again (the rest: the hands).
_MISSED_TOLD = frozenset({"player_joined", "player_left", "seat_status", "creator",
                          "player_eliminated", "level_up", "table_closed", "chat"})  # fmt: skip
#: How a line names each form of hand history.
_FORM_NAMES = {"phh": "PHH", "pokerstars": "PokerStars text"}
#: The words of the table's chat (a spectator's too).
_CHAT_WORDS = frozenset({"say", "mute", "unmute"})
#: The request's field a refusal names ("request.name: "): the player typed no request.
_REQUEST_FIELD = re.compile(r"^request\.\w+: ")


def _seat_status(message: dict[str, Any], name: str) -> str:
    """A ``seat_status`` event as the others at the table read it (``name``:
    the player's, as the teller shows it)."""
    status = message["status"]
    if status == "disconnected":
        return f"{name} is disconnected (the timer checks or folds for them until they are back)"
    if status == "away":
        why = message.get("reason") or "the timer"
        return f"{name} is out of the deal ({why}) until they are back"
    if status == "connected":
        return f"{name} is connected again"
    if status == "back":
        return f"{name} is dealt in again"
    return f"{name}: {status}"


def come_back_command(address: str, code: str, name: str) -> str:
    """The command that takes the player back to this seat."""
    words = ["holdem", "join", code, "--server", address, "--name", name]
    return " ".join(shlex.quote(word) for word in words)


def play_room(game: RoomGame, keyboard: Keyboard) -> None:
    """Tells the server's events and reads the player's lines until the game
    ends for the player.  From a terminal a line belongs to the turn it was
    typed at: typed out of turn, or for a turn that has ended before it was
    read (the server's next turn may come in the same moment), it is not
    taken and the player is told; from a pipe it waits for the next turn (a
    script's moves)."""
    client = game.client
    typed: deque[tuple[int | None, str]] = deque()  # (the turn each was typed for, the line)
    for message in client.poll(0):
        game.tell(message)
    while not game.over:
        wait = game.countdown(keyboard.typing if keyboard.tty else None)
        watched = [client.fileno()] + ([] if keyboard.ended else [keyboard.fd])
        ready = select.select(watched, [], [], wait)[0]
        if keyboard.fd in ready:
            stamp = game.stamp()
            typed.extend((stamp, line) for line in keyboard.lines())
        if client.fileno() in ready or client.events:
            for message in client.poll(0):
                game.tell(message)
        while typed and not game.over and (keyboard.tty or game.wants(typed[0][1])):
            stamp, line = typed.popleft()
            game.typed(line, stamp if keyboard.tty else game.stamp())  # (a pipe's: typed ahead)
            for message in client.poll(0):  # (what the move caused: a turn may follow)
                game.tell(message)
        if (keyboard.ended and not typed and not game.over and not game.watching
                and (game.turn or not game.started or game.busted)):  # fmt: skip
            game.teller.say("(input ended)")
            game.leave()


def lobby_felt(joined: dict[str, Any], address: str) -> str:
    """What the full screen's felt says to the creator of a table until its
    first hand (line mode's :func:`greet` says it as lines): the join code and
    how friends come in, the links to share where the server has a page."""
    code = joined["code"]
    text = f"Join code {code}: your friends type holdem join {code} --server {address}"
    if joined.get("link"):  # (a server with a page: --web)
        text += (f"\nor they open {escaped(joined['link'])} (spectators: "
                 f"{escaped(joined.get('watch_link') or '')})")  # fmt: skip
    return text + "\nType bots N LEVEL to fill seats, start when everyone is in."


def greet(game: RoomGame, joined: dict[str, Any], address: str, create: bool, again: str) -> None:
    teller = game.teller
    state = joined["state"]
    what = "freezeout" if state["game"] == "tournament" else "cash table"
    teller.say(f"holdem join: {teller.my_name} at seat {game.seat + 1} of a {what} "
               f"({game.table}) on {address}", bold=True)  # fmt: skip
    terms = table_terms(teller, state.get("settings") or {})
    if terms:
        teller.say(terms)
    if create:
        teller.say(f"Join code: {joined['code']}", fg="green", bold=True)
        teller.say(f"Your friends type: holdem join {joined['code']} --server {address}")
        if joined.get("link"):  # (a server with a page: --web)
            teller.say(f"Or they open: {escaped(joined['link'])} (spectators: "
                       f"{escaped(joined.get('watch_link') or '')})")  # fmt: skip
        teller.say("Type 'bots N LEVEL' to fill seats, 'start' when everyone is in.")
    elif "missed" in joined:
        game.missed(joined)
    elif state["status"] == "waiting":
        teller.say("Waiting for the creator to start the game...")
    teller.say(f"To come back to this seat: {escaped(again)}")
    _seats(teller, state)
    view = joined.get("view")
    if view and view.get("hole_cards"):
        game.own = teller.hole = tuple(parse_cards(view["hole_cards"]))
        teller.say(f"Your cards: {teller.cards(game.own)}", bold=True)


def greet_watcher(game: RoomGame, state: dict[str, Any], address: str) -> None:
    """What a spectator is told first: the table, its players and stacks."""
    teller = game.teller
    what = "freezeout" if state["game"] == "tournament" else "cash table"
    hands = state.get("hands_played") or 0
    played = f"{hands:,} hand{'s' * (hands != 1)} played"
    now = {"waiting": "waiting for its players", "finished": "over", "closed": "closed"}.get(
        state["status"], played
    )
    teller.say(f"holdem watch: a {what} ({state['table']}) on {address}, {now}", bold=True)
    terms = table_terms(teller, state.get("settings") or {})
    if terms:
        teller.say(terms)
    teller.say("Public information only: no cards before they are shown. q stops.")
    _seats(teller, state, chips=True)


def table_terms(teller: Teller, settings: dict[str, Any]) -> str | None:
    """A table's terms in a line, in its money (R9): a cash table's blinds and
    buy-ins, a freezeout's stacks and first level (its ante named as the
    hand's header names it; a level that is the whole schedule and stays
    never rises); its chip when not 1, and whether it runs it twice (R10).
    None when ``settings`` (a server's) do not say them.  The page says the
    same line (tell.js's ``tableTerms``, held to this by tests)."""
    money = teller.money
    try:
        if "schedule" in settings:
            schedule = Schedule.from_dict(settings["schedule"])
            first = schedule.levels[0]
            blinds = teller.blinds(first.small_blind, first.big_blind)
            if first.ante:
                blinds += f" {ante_name(first.big_blind_ante)} {money(first.ante)}"
            if len(schedule.levels) == 1 and schedule.after_last == "stay":
                rising = ", never rising"
            elif first.hands:
                rising = f" for {first.hands:,} hands, then rising"
            else:
                rising = ", then rising"
            text = f"Stacks of {money(settings['stack'])}; blinds {blinds}{rising}"
        else:
            text = (f"Blinds {teller.blinds(settings['small_blind'], settings['big_blind'])}; "
                    f"buy-in {money(settings['min_buy_in'])} to "
                    f"{money(settings['max_buy_in'])}")  # fmt: skip
    except (KeyError, TypeError, ValueError):  # (a WireError is a ValueError)
        return None
    if teller.unit != ONE:
        text += f"; in chips of {unit_text(teller.unit)}"
    if settings.get("run_it_twice"):
        text += "; runs it twice where everyone left is all in and agrees"
    return text + "."


def _seats(teller: Teller, state: dict[str, Any], *, chips: bool = False) -> None:
    """The seats of a table's ``state`` (the names as the teller took them
    in), one a line; ``chips``: with each stack."""
    for info in state["seats"]:
        seat = info["seat"]
        bot = f" ({teller.labels[seat]} bot)" if info.get("bot") else ""
        stack = f" {teller.money(info['chips'])}" if chips and "chips" in info else ""
        teller.say(f"  seat {seat + 1}: {teller.names[seat]}{bot}{stack}")
