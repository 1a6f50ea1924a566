"""The web page's scripts against the Python they mirror, in a real headless
Chromium (``holdem/clients/web/page``): ``cards.js``'s evaluator against
:func:`holdem.evaluate`, :func:`holdem.describe`, :func:`holdem.best_five`
and :func:`holdem.deciding_kicker`; ``tell.js``'s lines against the
:class:`~holdem.clients.telling.Teller`'s and
:class:`~holdem.clients.room.RoomGame`'s for the same room's messages;
``model.js``'s table against :class:`~holdem.clients.model.TableModel`'s;
and the page itself loaded from a served folder without a console error.
One browser serves the whole module."""

from __future__ import annotations

import datetime
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, need_browser, wait_until
from rooms_helpers import FAST, Player, Server, play_out, players

from holdem import PlayerView, best_five, deciding_kicker, describe, evaluate
from holdem.cards import RANK_NAMES, format_cards
from holdem.clients import RoomGame, TableModel
from holdem.clients.lobby import _stakes, _structure
from holdem.clients.room import table_terms
from holdem.clients.telling import Teller, table_unit
from holdem.clients.web import PAGE
from holdem.rooms import Room
from holdem.rooms.lobby import _listed
from holdem.rooms.settings import table_settings
from holdem.table import Level, Schedule
from holdem.wire import Fields

#: The scripts of the page that hold no connection, in the order it loads them.
SCRIPTS = ("cards.js", "tell.js", "model.js")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module, on a blank page with the
    page's scripts loaded (``Holdem``)."""
    need_browser()
    driver = chromium()
    try:
        load_scripts(driver)
        yield driver
    finally:
        driver.quit()


def load_scripts(driver: Any) -> None:
    driver.get("about:blank")
    for name in SCRIPTS:
        driver.execute_script((PAGE / name).read_text(encoding="utf-8"))


# ---------------------------------------------------------------- the evaluator


#: Hands whose description or best five is easy to get wrong.
EDGES = [
    "As 2d 3c 4h 5s",  # the wheel
    "As 2s 3s 4s 5s",  # the steel wheel
    "As 2s 3s 4s 5s 6s",  # a six-high straight flush over the wheel
    "Ah Kh Qh Jh Th 9h 8h",  # the royal flush, a straight flush under it
    "Ad Kd Qd Jd Td",
    "2c 2d 7h 8s 9c Tc Jd",  # a board's straight plays over the pair in hand
    "Kc Kd Ks Kh 2c 3c Ad",  # quads with the ace kicker
    "Kc Kd Ks Kh Qc Qd Qh",  # quads, a queen kicker over the trips
    "9c 9d 9h 5s 5c 5d Ac",  # two trips: the full house of the higher
    "9c 9d 5h 5s 3c 3d Ac",  # three pairs: two pair, the ace kicker
    "9c 9d 5h 5s 3c 3d 4c",  # three pairs: the third pair's card kicks
    "2c 3d 4h 5s 6c 7d 8h",  # seven in a row: eight high
    "Ac Kc Qc Jc 9c 8c 7c",  # seven clubs: the best five
    "Ts Js Qs Ks As 9s 2d",  # the royal flush among six spades
    "6c 6d 6h 6s 5c 5d 5h",  # sixes: "Sixes"
    "2c 2d 2h 3c 3d",  # deuces full of treys
    "Ac Ad Kc Kd 7h 7s 2c",
    "5h 4h 3h 2h Ah Kh",  # a wheel of hearts beside the ace-high flush
]


def random_hands(rng: random.Random, count: int) -> list[list[str]]:
    """``count`` hands of 5, 6 and 7 cards, and each one's twin with one card
    changed (so that pairs of hands tie, or a kicker decides between them)."""
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    hands = []
    for i in range(count // 2):
        size = 5 + i % 3
        cards = rng.sample(deck, size + 1)
        hands.append(cards[:size])
        hands.append(cards[1 : size + 1] if i % 2 else [cards[size], *cards[1:size]])
    return hands


def test_cards_js_evaluates_as_holdem_does(browser: Any) -> None:
    hands = [edge.split() for edge in EDGES] + random_hands(random.Random(30), 6000)
    got = browser.execute_script(
        """
        const c = Holdem.cards;
        const hands = arguments[0];
        const values = hands.map((h) => c.evaluate(h));
        return hands.map((h, i) => {
          const next = values[i + 1] === undefined ? null : values[i + 1];
          const kicker = next === null ? null : c.decidingKicker(values[i], next);
          const order = next === null ? 0 : Math.sign(values[i] - next);
          return [c.describe(values[i]), c.bestFive(h).map(c.text).join(" "), c.category(values[i]),
                  order, kicker];
        });
        """,
        hands,
    )
    values = [evaluate(hand) for hand in hands]
    for i, hand in enumerate(hands):
        value = values[i]
        after = values[i + 1] if i + 1 < len(values) else None
        order = 0 if after is None else (value > after) - (value < after)
        kicker = None if after is None else deciding_kicker(value, after)
        want = [describe(value), format_cards(best_five(hand)), value >> 12, order, kicker]
        assert got[i] == want, f"{' '.join(hand)}: the page says {got[i]}, holdem {want}"
    said = {line[0] for line in got}
    assert {"Royal Flush", "Straight, Five high", "Straight Flush, Five high"} <= said
    assert any(k is not None for *_, k in got), "no pair of hands was decided by a kicker"
    assert len({RANK_NAMES[k] for *_, k in got if k is not None}) > 5


# ---------------------------------------------------------------- a room's streams
#
# A freezeout and a cash table played at an in-process room (people, bots, a
# spectator), every message each one was sent kept in order, and cut into
# segments: a segment begins with the reply that seats (or shows) the table,
# as a page begins when it is loaded.


class Viewer:
    """One page's view of a table: segments of (the reply it began with,
    whether it was a resume, the steps after it)."""

    def __init__(self, me: str) -> None:
        self.me = me
        self.segments: list[dict[str, Any]] = []
        self._player: Player | None = None
        self._taken = 0

    def begin(self, player: Player, joined: dict[str, Any], *, resumed: bool = False) -> None:
        self.collect()
        self._player, self._taken = player, len(player.stream)
        self.segments.append({"joined": joined, "resumed": resumed, "steps": []})

    def collect(self) -> None:
        """Takes the messages the player was sent since the last look."""
        player = self._player
        if player is None:
            return
        for message in player.stream[self._taken :]:
            step = {"message": {k: v for k, v in message.items() if not k.startswith("_")}}
            if message.get("event") == "turn":
                step["answered"] = not message.get("_skipped")
            self.segments[-1]["steps"].append(step)
        self._taken = len(player.stream)

    def named(self, name: str) -> None:
        """A spectator learns the name the server writes its chat under."""
        self.collect()
        self.segments[-1]["steps"].append({"name": name})


def route(room: Room, outgoing: list[tuple[int, str]], people: list[Player]) -> None:
    """Gives each player what the room's timers (or a disconnection) sent it."""
    for conn, line in outgoing:
        for player in people:
            if player.conn == conn:
                player.take([json.loads(line)])


def choose(turn: dict[str, Any], rng: random.Random, last: PlayerView | None) -> dict[str, Any]:
    """A move for a turn: a showdown's show or muck as the page makes it,
    else all in now and then (side pots), a raise, a check, a call or a fold."""
    from holdem.clients import show_or_muck

    legal = turn["view"]["legal"]
    if legal["show"] or legal["muck"]:
        view = PlayerView.from_dict(turn["view"], last if turn["view"]["log_start"] else None)
        assert view.legal is not None
        return show_or_muck(view, view.legal).to_dict()
    roll = rng.random()
    if legal["all_in"] is not None and roll < 0.08:
        return {"kind": "all_in"}
    if legal["wager"] is not None and roll < 0.2:
        return {"kind": legal["wager"], "to": legal["min_to"]}
    if legal["check"]:
        return {"kind": "check"}
    if legal["call"] is not None and roll < 0.8:
        return {"kind": "call"}
    return {"kind": "fold"}


class Game:
    """A room on a clock of the test's, its players answering their turns."""

    def __init__(self, seed: int) -> None:
        self.now = [1000.0]
        self.room = Room(seed=seed, clock=lambda: self.now[0])
        self.people: list[Player] = []
        self.rng = random.Random(seed)
        self.views: dict[int, PlayerView | None] = {}
        self.skip: dict[str, int] = {}  # name -> turns to let the timer play

    def join(self, count: int) -> list[Player]:
        made = players(self.room, count)
        self.people.extend(made)
        return made

    def play(self, until: Any, *, names: dict[int, str] | None = None, most: int = 4000,
             stall: bool = False) -> None:  # fmt: skip
        """Answers turns (and lets the timer play the turns ``skip`` says)
        until ``until()`` (``stall``: or until nothing more happens)."""
        names = names or {}
        for _ in range(most):
            if until():
                return
            pending = [(p, t) for p in self.people for t in p.turns()]
            if not pending:
                self.now[0] += 6  # (past a turn's 5 seconds: the timer plays it)
                told = self.room.tick()
                if not told and stall:
                    return
                route(self.room, told, self.people)
                continue
            for player, turn in pending:
                turn["_answered"] = True
                data = turn["view"]
                last = self.views.get(player.conn) if data["log_start"] else None
                self.views[player.conn] = PlayerView.from_dict(data, last)
                who = names.get(player.conn, "")
                if self.skip.get(who) and not (data["legal"]["show"] or data["legal"]["muck"]):
                    self.skip[who] -= 1
                    turn["_skipped"] = True
                    continue
                reply = player.ask("act", table=turn["table"], action=choose(turn, self.rng, last))
                assert "result" in reply or reply["error"]["code"] == "not_your_turn", reply
        pytest.fail("the game did not get there")


def spectator(watched: dict[str, Any]) -> dict[str, Any]:
    """A watch reply as the page begins a spectator's game with it (no seat)."""
    return {"table": watched["table"], "seat": -1, "token": "", "state": watched}


def events(player: Player, kind: str) -> list[dict[str, Any]]:
    return [m for m in player.stream if m.get("event") == kind]


def record_freezeout() -> dict[str, Viewer]:
    """A freezeout of Ann, Ben and two bots, watched by Eve, to its winner:
    chat (a line with an escape sequence, a spectator's), Ann's two
    timeouts (away, then back), Ben cut off and coming back (missed), Ben
    leaving, the blinds going up, eliminations, the places."""
    game = Game(seed=30)
    ann, ben, eve = game.join(3)
    viewers = {name: Viewer(name) for name in ("Ann", "Ben", "Eve")}
    made = ann.result("create_table", name="Ann", chat="everyone",
                      timer={"seconds": 5, "time_bank": 0}, **FAST)  # fmt: skip
    viewers["Ann"].begin(ann, {**made, "name": "Ann", "creator": True})
    joined = ben.result("join", code=made["code"], name="Ben")
    viewers["Ben"].begin(ben, {**joined, "name": "Ben"})
    watched = eve.result("watch", code=made["code"], name="Eve")
    viewers["Eve"].begin(eve, spectator(watched))
    ann.result("chat", table="t1", text="gl <b>all</b>")
    ann.result("add_bots", table="t1", level="easy")
    ann.result("start", table="t1")
    names = {ann.conn: "Ann", ben.conn: "Ben", eve.conn: "Eve"}
    game.skip["Ann"] = 2  # (two timeouts in a row: out of the deal)
    game.play(lambda: bool(events(ann, "away")), names=names)
    ann.result("back", table="t1")
    game.play(lambda: len(events(eve, "hand_ended")) >= 3, names=names)
    for ended in range(4, 12):  # (a player shows after the hand, having folded or won it
        # uncontested: R10; a hand shown down lets nobody, so the next is tried)
        replies = [p.ask("show", table="t1") for p in (ann, ben)]
        if any("result" in r for r in replies):
            break
        game.play(lambda e=ended: len(events(eve, "hand_ended")) >= e, names=names)
    assert events(eve, "cards_shown"), "nobody showed after a hand"
    ben.result("chat", table="t1", text="\x1b[2J brb\r")
    viewers["Eve"].named(eve.result("chat", table="t1", text="go Ann")["name"])
    route(game.room, game.room.disconnect(ben.conn), game.people)
    game.people.remove(ben)
    viewers["Ben"].collect()
    game.play(lambda: len(events(eve, "hand_ended")) >= 7, names=names)
    (again,) = game.join(1)
    resumed = again.result("resume", token=joined["token"])
    resumed["creator"] = resumed["state"].get("creator") == resumed["seat"]
    viewers["Ben"].begin(again, resumed, resumed=True)
    again.result("leave", table="t1")
    game.play(lambda: bool(events(eve, "table_finished")), names=names)
    for viewer in viewers.values():
        viewer.collect()
    return viewers


def record_cash() -> tuple[dict[str, Viewer], dict[str, Any]]:
    """A cash table of Ann, Ben and Cat with stacks of three sizes (side
    pots), watched by Eve: Cat busts and buys in again, Ben sits out and
    comes back, Ann tops up, Cat leaves, Ann closes the table (the
    results); and the table's state at its close."""
    game = Game(seed=31)
    ann, ben, cat, eve = game.join(4)
    viewers = {name: Viewer(name) for name in ("Ann", "Cat", "Eve")}
    made = ann.result("create_table", name="Ann", game="cash", small_blind=5, big_blind=10,
                      min_buy_in=100, max_buy_in=1000, buy_in=1000, pace=0, pause=0,
                      timer={"seconds": 5, "time_bank": 0})  # fmt: skip
    viewers["Ann"].begin(ann, {**made, "name": "Ann", "creator": True})
    ben.result("join", code=made["code"], name="Ben", buy_in=400)
    joined = cat.result("join", code=made["code"], name="Cat", buy_in=150)
    viewers["Cat"].begin(cat, {**joined, "name": "Cat"})
    watched = eve.result("watch", code=made["code"])
    viewers["Eve"].begin(eve, spectator(watched))
    ann.result("start", table="t1")
    busted = lambda: any(m["seat"] == 2 for m in events(cat, "sat_out"))  # noqa: E731
    game.play(busted)
    cat.result("add_chips", table="t1", chips=300)
    ben.result("sit_out", table="t1")
    ben.result("chat", table="t1", text="back soon")
    hands = len(events(eve, "hand_ended"))
    game.play(lambda: len(events(eve, "hand_ended")) >= hands + 2)
    if not next(s["chips"] for s in ben.result("state", table="t1")["seats"] if s["seat"] == 1):
        ben.result("add_chips", table="t1", chips=400)  # (busted before he sat out)
    ben.result("back", table="t1")
    stacks = {s["seat"]: s["chips"] for s in ann.result("state", table="t1")["seats"]}
    topped = next(p for p, seat in ((ann, 0), (ben, 1)) if 0 < stacks[seat] < 1000)
    topped.result("add_chips", table="t1", chips=1)  # (a top-up: during a hand, after it)
    game.play(lambda: len(events(eve, "hand_ended")) >= hands + 5)
    cat.result("leave", table="t1")
    game.play(lambda: len(events(eve, "hand_ended")) >= hands + 7, stall=True)
    ann.result("close", table="t1")
    game.play(lambda: bool(events(eve, "table_closed")))
    for viewer in viewers.values():
        viewer.collect()
    return viewers, eve.result("state", table="t1")


def record_twice() -> dict[str, Viewer]:
    """A cash table that runs it twice (R10) at a chip of 0.5 (R9: its blinds
    of 5 and 10 chips read 2.5/5): Ann with 200 chips, Ben and Cat with 400,
    everyone all in at hand 1 (a main pot and a side pot, each in halves,
    on two boards), then hands played on; watched by Eve."""
    game = Game(seed=48)
    ann, ben, cat, eve = game.join(4)
    viewers = {name: Viewer(name) for name in ("Ann", "Eve")}
    made = ann.result("create_table", name="Ann", game="cash", small_blind=5, big_blind=10,
                      min_buy_in=100, max_buy_in=400, buy_in=200, pace=0, pause=0,
                      timer={"seconds": 5, "time_bank": 0}, run_it_twice=True,
                      unit="0.5")  # fmt: skip
    viewers["Ann"].begin(ann, {**made, "name": "Ann", "creator": True})
    ben.result("join", code=made["code"], name="Ben", buy_in=400)
    cat.result("join", code=made["code"], name="Cat", buy_in=400)
    watched = eve.result("watch", code=made["code"])
    viewers["Eve"].begin(eve, spectator(watched))
    ann.result("start", table="t1")

    def all_in(player: Player, turn: dict[str, Any]) -> dict[str, Any]:
        legal = turn["view"]["legal"]
        if legal["all_in"] is not None:
            return {"kind": "all_in"}
        return {"kind": "call"} if legal["call"] is not None else {"kind": "check"}

    play_out([ann, ben, cat], decide=all_in, until=lambda: bool(events(eve, "hand_ended")))
    (first,) = events(eve, "hand_ended")
    assert [p.get("run", 0) for p in first["outcome"]["pots"]] == [0, 0, 1, 1]
    game.play(lambda: len(events(eve, "hand_ended")) >= 4, stall=True)
    for viewer in viewers.values():
        viewer.collect()
    return viewers


def record_protect() -> dict[str, Viewer]:
    """A heads-up cash table with disconnect protection (R13) at which Ann
    lets the timer play her turns until one is protected (she had chips in
    the pot: all in for them), then plays on; watched by Eve."""
    game = Game(seed=33)
    ann, ben, eve = game.join(3)
    viewers = {name: Viewer(name) for name in ("Ann", "Eve")}
    made = ann.result("create_table", name="Ann", game="cash", small_blind=5, big_blind=10,
                      min_buy_in=100, max_buy_in=1000, buy_in=1000, pace=0, pause=0,
                      timer={"seconds": 5, "time_bank": 0, "policy": "protect"})  # fmt: skip
    viewers["Ann"].begin(ann, {**made, "name": "Ann", "creator": True})
    ben.result("join", code=made["code"], name="Ben", buy_in=1000)
    watched = eve.result("watch", code=made["code"])
    viewers["Eve"].begin(eve, spectator(watched))
    ann.result("start", table="t1")
    names = {ann.conn: "Ann"}

    def protected() -> bool:
        kinds = [m["action"]["kind"] for m in events(eve, "action") if m["action"].get("seat") == 0]
        return "timeout" in kinds

    game.skip["Ann"] = 4
    game.play(protected, names=names)
    game.skip["Ann"] = 0
    hands = len(events(eve, "hand_ended"))
    game.play(lambda: len(events(eve, "hand_ended")) >= hands + 2, names=names)
    for viewer in viewers.values():
        viewer.collect()
    return viewers


@pytest.fixture(scope="module")
def streams() -> dict[str, Any]:
    """Every viewer's segments of both games (``freezeout Ann``, ``cash Eve``
    ...), and the cash table's state at its close."""
    freezeout = record_freezeout()
    cash, closed = record_cash()
    found = {f"freezeout {name}": v.segments for name, v in freezeout.items()}
    found |= {f"cash {name}": v.segments for name, v in cash.items()}
    found |= {f"twice {name}": v.segments for name, v in record_twice().items()}
    found |= {f"protect {name}": v.segments for name, v in record_protect().items()}
    return {"viewers": found, "closed": closed}


# ---------------------------------------------------------------- the teller and the model

#: The day the certificates are dated (both sides are given it).
TODAY = datetime.date(2030, 1, 2)
#: Where the page's words are not the terminal's, and why: each line
#: ``holdem join`` prints that names its keys or commands, and the page's.
WEB_WORDS = {
    # (the terminal's player types back; the page's presses its Back button)
    "You are out of the deal: two timeouts in a row. Type back (or any move) to be dealt in "
    "again.": "You are out of the deal: two timeouts in a row. Press Back to be dealt in again.",
    # (the terminal's player types rebuy or quit; the page's buttons are Rebuy and Leave)
    "You have no chips left: type rebuy to buy in again for 1,000 (rebuy N: from 100 to 1,000), "
    "or quit to leave with nothing.": "You have no chips left: press Rebuy to buy in again for "
    "1,000 (from 100 to 1,000), or Leave to go with nothing.",
    # (the same at a table of a chip of 0.5: its amounts in money, R9)
    "You have no chips left: type rebuy to buy in again for 200 (rebuy N: from 50 to 200), "
    "or quit to leave with nothing.": "You have no chips left: press Rebuy to buy in again for "
    "200 (from 50 to 200), or Leave to go with nothing.",
    # (the terminal names holdem join; a page is taken over by its link opened elsewhere too)
    "Your seat at table t1 was taken over by another client of yours (holdem join for the same "
    "name, or the same token): this one stops here, and the seat plays on there.": "Your seat at "
    "table t1 was taken over by another page or client of yours (its link opened again, or "
    "holdem join): this one stops here, and the seat plays on there.",
}


class _Today(datetime.date):
    @classmethod
    def today(cls) -> _Today:
        return cls(TODAY.year, TODAY.month, TODAY.day)


class _Client:
    """What RoomGame asks of its connection while it tells: a closed cash
    table's state (its results)."""

    def __init__(self, closed: dict[str, Any]) -> None:
        self.closed = closed
        self.hello: dict[str, Any] = {}

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        assert kind == "state", kind
        return self.closed


class _PageGame(RoomGame):
    """RoomGame's telling alone: the page draws a turn (no table printed)
    and acts on it itself."""

    def _show_turn(self, *args: Any) -> None:
        pass

    def _act(self, decision: Any) -> None:
        self.turn = None


def snapshot(model: TableModel) -> dict[str, Any]:
    """What a screen draws of the model, in JSON's types (the page's
    ``snapshot`` below says the same of model.js)."""
    texts = format_cards
    return {
        "hand": model.hand, "playing": model.playing, "button": model.button,
        "actor": model.actor, "board": texts(model.board), "hole": texts(model.hole),
        "second": texts(model.second_board),
        "pot": model.pot, "pots": [[chips, list(seats)] for chips, seats in model.pots],
        "seats": [[s.seat, s.name, s.label, s.stack, s.bet, s.put_in, s.status, s.presence,
                   texts(s.cards), s.last] for _, s in sorted(model.seats.items())],
        "shown": [[h.seat, h.name, texts(h.best), h.description, h.kicker, h.won, h.run]
                  for h in model.shown],
        "reviews": [[r.hand, r.net, [list(w) for w in r.won]] for r in model.reviews],
        "blinds": list(model.blinds), "big_blind_ante": model.big_blind_ante,
    }  # fmt: skip


def python_side(segments: list[dict[str, Any]],
                closed: dict[str, Any]) -> tuple[list[str], list[Any]]:  # fmt: skip
    """The lines holdem join's RoomGame says for a viewer's segments, and
    the TableModel after each message."""
    lines: list[str] = []
    snaps: list[Any] = []
    for segment in segments:
        joined = segment["joined"]
        teller = Teller(None, color=False, symbols=True, write=lines.append)
        game = _PageGame(_Client(closed), joined, teller, "")
        model = TableModel(None if game.watching else game.seat)
        model.state(joined["state"])
        view: PlayerView | None = None
        if segment["resumed"]:
            game.missed(joined)
        for step in segment["steps"]:
            if "name" in step:
                teller.my_name = step["name"]
                continue
            message = step["message"]
            model.message(message)
            game.tell(message)
            if message.get("event") == "turn" and message["seat"] == game.seat:
                data = message["view"]
                view = PlayerView.from_dict(data, view if data["log_start"] else None)
                assert view.legal is not None
                model.turn(view, view.legal, None, message.get("bank"))
                if step["answered"]:
                    game.turn = None
                    model.end_turn()
            snaps.append(snapshot(model))
    return lines, snaps


#: The page's side: tell.js and model.js fed the same segments.
PAGE_SIDE = """
const [segments, today] = arguments;
const lines = [];
const snaps = [];
const texts = (list) => list.map(Holdem.cards.text).join(" ");
function snapshot(model) {
  return {
    hand: model.hand, playing: model.playing, button: model.button, actor: model.actor,
    board: texts(model.board), hole: texts(model.hole), second: texts(model.secondBoard),
    pot: model.pot, pots: model.pots,
    seats: model.sorted().map((s) => [s.seat, s.name, s.label, s.stack, s.bet, s.putIn, s.status,
      s.presence, texts(s.cards), s.last]),
    shown: model.shown.map((h) => [h.seat, h.name, texts(h.best), h.description, h.kicker, h.won,
      h.run]),
    reviews: model.reviews.map((r) => [r.hand, r.net, r.won]),
    blinds: model.blinds, big_blind_ante: model.bigBlindAnte,
  };
}
for (const segment of segments) {
  const joined = segment.joined;
  const teller = new Holdem.Teller(null, { symbols: true, write: (line) => lines.push(line) });
  const game = new Holdem.RoomGame(joined, teller);
  game.today = new Date(today[0], today[1] - 1, today[2]);
  const model = new Holdem.TableModel(game.watching ? null : game.seat);
  model.state(joined.state);
  let view = null;
  if (segment.resumed) game.missed(joined);
  for (const step of segment.steps) {
    if ("name" in step) {
      teller.myName = step.name;
      continue;
    }
    const message = step.message;
    model.message(message);
    game.tell(message);
    if (game.wants === "results") {
      game.wants = null;
      game.cashResults(segment.closed.results);
    }
    if (message.event === "turn" && message.seat === game.seat) {
      view = Holdem.joinView(message.view, message.view.log_start ? view : null);
      model.turn(view, null, message.bank === undefined ? null : message.bank);
      if (step.answered) {
        game.acted();
        model.endTurn();
      }
    }
    snaps.push(snapshot(model));
  }
}
return [lines, snaps];
"""


def page_side(browser: Any, segments: list[dict[str, Any]],
              closed: dict[str, Any]) -> tuple[list[str], list[Any]]:  # fmt: skip
    given = [{**segment, "closed": closed} for segment in segments]
    lines, snaps = browser.execute_script(PAGE_SIDE, given, [TODAY.year, TODAY.month, TODAY.day])
    return lines, snaps


VIEWERS = ["freezeout Ann", "freezeout Ben", "freezeout Eve", "cash Ann", "cash Cat", "cash Eve",
           "twice Ann", "twice Eve", "protect Ann", "protect Eve"]  # fmt: skip


@pytest.mark.parametrize("viewer", VIEWERS)
def test_tell_js_says_the_lines_holdem_join_says(
    browser: Any, streams: dict[str, Any], viewer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("holdem.clients.room.datetime", type("_Dates", (), {"date": _Today}))
    segments = streams["viewers"][viewer]
    want, _ = python_side(segments, streams["closed"])
    got, _ = page_side(browser, segments, streams["closed"])
    for terminal, page in WEB_WORDS.items():  # (the notices begin with their hand)
        want = [line.replace(terminal, page) for line in want]
    for i, (said, wanted) in enumerate(zip(got, want, strict=False)):
        assert said == wanted, f"{viewer}, line {i}: the page says {said!r}, holdem join {wanted!r}"
    assert len(got) == len(want), f"{viewer}: {len(got)} lines on the page, {len(want)} in Python"


def test_r13_a_protected_timeout_is_said_as_one_not_as_a_check_or_fold(
    streams: dict[str, Any],
) -> None:
    """Out of time with chips in the pot at a table with disconnect
    protection, holdem join (and the page, which says its lines) tells the
    player that they are protected, all in for what they put in (R13): not
    that they check or fold."""
    lines, _ = python_side(streams["viewers"]["protect Ann"], streams["closed"])
    at = lines.index("You time out (protected)")
    assert lines[at - 1] == "Time is up: you are protected, all in for what you put in."


@pytest.mark.parametrize("viewer", VIEWERS)
def test_model_js_holds_the_table_the_table_model_holds(
    browser: Any, streams: dict[str, Any], viewer: str
) -> None:
    segments = streams["viewers"][viewer]
    _, want = python_side(segments, streams["closed"])
    _, got = page_side(browser, segments, streams["closed"])
    messages = [s["message"] for seg in segments for s in seg["steps"] if "message" in s]
    assert len(got) == len(want) == len(messages)
    for i, (drawn, held) in enumerate(zip(got, want, strict=True)):
        assert drawn == held, f"{viewer}, after {messages[i]}"


# ---------------------------------------------------------------- a table's terms

#: Chip units as a create_table request may give them (the server keeps each
#: as units.unit_text writes it): none, 1, decimals, trailing zeros, whole
#: ones, the smallest, and ones that make amounts past a double's 2^53.
UNITS = [None, "1", "0.5", "0.25", "2.50", "0.05", "25", "100", "0.000001", "1000000", "99999.99"]
#: Requests whose terms are easy to get wrong: the docs' examples, a big
#: blind ante, one level that stays, a level by hands in thousands, amounts
#: at the server's most.
TERMS_EDGES: list[dict[str, Any]] = [
    {"game": "cash", "unit": "0.5", "small_blind": 5, "big_blind": 10, "min_buy_in": 400,
     "max_buy_in": 1000, "run_it_twice": True},
    {},
    {"stack": 2000, "schedule": "@8h, 25/50/5, 50/100/10"},
    {"schedule": "@8h, 25/50/50bba, 50/100/100bba", "unit": "0.5"},
    {"schedule": "@10h, 10/20/5, stay", "run_it_twice": True},
    {"schedule": "@10h, 10/20, 20/40, stay"},
    {"schedule": "@1500h, 10/20"},
    {"game": "cash", "unit": "1000000", "small_blind": 10**10, "big_blind": 10**10,
     "min_buy_in": 10**12, "max_buy_in": 10**12},
    {"stack": 10**12, "unit": "99999.99", "schedule": "@5h, 99999999/10000000000000000"},
]  # fmt: skip


def random_terms_request(rng: random.Random) -> dict[str, Any]:
    """A create_table request of random terms: a cash table's blinds and
    buy-ins, or a freezeout's stack and schedule (levels by hands, antes,
    big blind antes, rising or staying after the last), a chip, run it twice."""
    amount = lambda most: rng.choice([1, rng.randint(1, 9), rng.randint(1, 10**4),  # noqa: E731
                                      rng.randint(1, most), most])  # fmt: skip
    request: dict[str, Any] = {"run_it_twice": rng.random() < 0.3}
    unit = rng.choice(UNITS)
    if unit is not None:
        request["unit"] = unit
    if rng.random() < 0.5:
        small = amount(10**10)
        low = amount(10**12)
        request.update(game="cash", small_blind=small, big_blind=rng.randint(small, 10**10),
                       min_buy_in=low, max_buy_in=rng.randint(low, 10**12))  # fmt: skip
        return request
    request["stack"] = amount(10**12)
    levels = []
    for _ in range(rng.choice([1, 1, 2, 5])):
        small = amount(10**9)
        big = rng.choice([small, 2 * small, rng.randint(small, 10**10)])
        ante = rng.choice([0, 0, small, big, amount(10**6)])
        levels.append(Level(small, big, ante, rng.random() < 0.3, hands=amount(5000)))
    request["schedule"] = Schedule(levels, rng.choice(["rise", "stay"])).to_dict()
    return request


def terms_settings(request: dict[str, Any]) -> dict[str, Any]:
    """A table's settings as the server's state gives them for a request."""
    settings = table_settings(Fields({"name": "Ann", **request}, "request"))
    return {k: v for k, v in settings.items() if k not in ("game", "public")}


def test_tell_js_says_a_table_s_terms_as_holdem_join_greets_with_them(browser: Any) -> None:
    """``tableTerms`` says what ``table_terms`` says, word for word, for the
    settings the server gives (cash tables and freezeouts, every kind of
    chip, run it twice, schedules that rise and stay, antes and big blind
    antes, amounts up to the server's most), and says nothing (null, as
    Python's None) where the settings do not say the terms."""
    rng = random.Random(49)
    requests = TERMS_EDGES + [random_terms_request(rng) for _ in range(3000)]
    given = [terms_settings(request) for request in requests]
    given += [{}, {"stack": 100}, {"schedule": {"levels": []}, "stack": 100},
              {"small_blind": 1, "big_blind": 2, "min_buy_in": 40}]  # fmt: skip
    got = browser.execute_script(
        "return arguments[0].map((s) => Holdem.tell.tableTerms(s));", given
    )
    for settings, said in zip(given, got, strict=True):
        teller = Teller(None, color=False)
        teller.unit = table_unit(settings)
        assert said == table_terms(teller, settings), settings
    assert got[:2] == [
        "Blinds 2.5/5; buy-in 200 to 500; in chips of 0.5; runs it twice where everyone left is "
        "all in and agrees.",
        "Stacks of 1,500; blinds 10/20 for 10 hands, then rising.",
    ]  # fmt: skip
    assert got[-4:] == [None] * 4
    said = "\n".join(filter(None, got))
    for words in ("big blind ante", " ante ", "never rising", "then rising", "in chips of 0.000001",
                  "runs it twice", "Blinds 10,000,000,000/"):  # fmt: skip
        assert words in said, words


def test_tell_js_says_a_listed_table_s_stakes_and_betting_as_holdem_join_list_does(
    browser: Any,
) -> None:
    """The lobby's list says each public table's stakes (a freezeout's
    blinds now, a big blind ante as one, and its stack) and its betting in
    the words of ``holdem join --list`` (its stakes and structure columns),
    for the tables ``list_tables`` gives: cash tables and freezeouts
    waiting, playing at a later level, or of another worker's (no blinds
    known), of every structure and chip."""
    rng = random.Random(50)
    tables = []
    for number, request in enumerate(TERMS_EDGES + [random_terms_request(rng) for _ in range(600)]):
        request["structure"] = rng.choice(["no_limit", "pot_limit", "fixed_limit"])
        settings = table_settings(Fields({"name": "Ann", **request}, "request"))
        begun = number >= len(TERMS_EDGES) and rng.random() < 0.5  # (the edges: waiting)
        level = None
        if begun and "schedule" in settings and rng.random() < 0.7:
            level = Schedule.from_dict(settings["schedule"]).level(rng.randint(0, 30))
        tables.append(_listed(f"t{number + 1}", settings["game"], "playing" if begun else "waiting",
                              settings, rng.randint(0, 6), begun=begun, hands=rng.randint(0, 99),
                              level=level, away=None))  # fmt: skip
    got = browser.execute_script(
        "return arguments[0].map((t) => [Holdem.tell.stakes(t), Holdem.tell.structure(t)]);", tables
    )
    want = [[_stakes(t), _structure(t)] for t in tables]
    for table, said, wanted in zip(tables, got, want, strict=True):
        assert said == wanted, table
    assert {s for _, s in got} == {"no limit", "pot limit", "fixed limit"}
    assert [s for s, _ in got[:3]] == ["2.5/5", "10/20, 1,500 stack", "25/50 ante 5, 2,000 stack"]
    assert any(s.startswith("-, ") for s, _ in got)  # (a freezeout of another worker's)
    assert any(" big blind ante " in s for s, _ in got)  # (the big blind's, not each player's)


# ---------------------------------------------------------------- the page itself


def test_the_page_loads_from_holdem_serve_without_a_console_error(
    browser: Any, tmp_path: Path
) -> None:
    """The lobby, a table's link and a spectator's link load from ``holdem
    serve --web`` (the CSP it sends: scripts and styles of the page's own
    files alone), talk to the server, and say a refusal in the page."""
    from selenium.webdriver.common.by import By

    server = Server(tmp_path / "room", "--web", "127.0.0.1:0").start()
    driver = browser
    driver.get_log("browser")  # (what the tests before said: not this page's)
    try:
        site = server.page

        def shown(selector: str) -> bool:
            return bool(driver.find_element(By.CSS_SELECTOR, selector).is_displayed())

        driver.get(f"{site}/")
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#tables li"), what="the lobby")
        assert shown("#create-form") and shown("#name") and not shown("#table")
        assert "No public table" in driver.find_element(By.CSS_SELECTOR, "#tables").text
        driver.get(f"{site}/t/AAAA-BBBB")
        wait_until(lambda: shown("#join-form"), what="the name asked")
        assert driver.find_element(By.CSS_SELECTOR, "#entry-title").text == "Table AAAA-BBBB"
        driver.find_element(By.CSS_SELECTOR, "#name").send_keys("Ann")
        driver.find_element(By.CSS_SELECTOR, "#join-button").click()
        wait_until(lambda: shown("#error"), what="the refusal")
        assert "no table has the code" in driver.find_element(By.CSS_SELECTOR, "#error").text
        driver.get(f"{site}/w/t9")
        wait_until(lambda: shown("#error"), what="the refusal to watch")
        assert "Cannot watch t9" in driver.find_element(By.CSS_SELECTOR, "#error").text
        assert driver.title == "holdem"
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        server.stop()
        load_scripts(driver)  # (the module's browser back on its blank page, for the others)


def test_the_page_writes_no_html_and_holds_nothing_inline() -> None:
    """What players send is put in as text (``textContent``), never parsed as
    HTML; and the page has no inline script, style or handler (the server's
    Content-Security-Policy refuses them: the page would break, not warn)."""
    writes_html = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(")
    for script in sorted(PAGE.glob("*.js")):
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            assert not writes_html.search(line), f"{script.name}:{number}: {line.strip()}"
    html = (PAGE / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script\b[^>]*>", html) == [
        f'<script src="/static/{name}" defer>' for name in (*SCRIPTS, "app.js")
    ]
    assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=", html)
