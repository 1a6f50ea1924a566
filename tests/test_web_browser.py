"""The page in a real browser (issue 30): headless Chromium (Debian's, through
selenium; tests/browser_helpers.py) against a ``holdem serve --web`` the
test starts, each player a browser of its own that acts only by clicking
the page's buttons (or pressing its keys).

One freezeout is played to its winner by two browser players and two bots,
watched by a third browser at the spectator's link; its tests read what it
left: the page's end, the chips, what the spectator's page showed at every
step, and every frame each page was sent against the stored hands.  The
other tests play a few hands of a heads-up table against a bot: a reload
mid-hand, a phone's width, the keys, the controls' names.  The lobby's
form makes the tables, its bots' pace and pause between hands set to 0 in
its *More settings* (1 and 3 seconds by default); the form's settings are
tested against what the server's table has.
"""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, frames, need_browser, wait_until
from rooms_helpers import Server, allowed_cards

from holdem.clients import listing
from holdem.rooms import Store
from holdem.table import Schedule

#: A card as the protocol writes it.
CARD = re.compile(r"[2-9TJQKA][cdhs]")
#: The name that would run a script if the page wrote names as HTML.
HOSTILE = "<img src=x onerror=alert(1)>"
#: A chat line that would too.
HOSTILE_CHAT = "<b>bold</b><script>alert(2)</script><img src=y onerror=alert(3)>"
#: The freezeout's stack and blinds (its form's fields): the blinds soon put
#: everyone all in, so it ends in a few hands.
STACK = 200
SCHEDULE = "@2h, 20/40, 50/100, 100/200"

#: The elements a name or chat line written as HTML would have made.
MADE_FROM_TEXT = """
return document.querySelectorAll(
  "#table img, #log img, #chat-lines img, #chat-lines script, #chat-lines b").length;
"""


#: What the page shows now, in one look (one command to the browser: each
#: takes a while): whether the end is shown, the actions offered (the shown,
#: enabled buttons of #actions), the cards face up and down in the seats,
#: the player's own cards and seat.
LOOK = """
const shown = (e) => Boolean(e) && !e.closest("[hidden]") && e.getClientRects().length > 0;
const all = (selector) => [...document.querySelectorAll(selector)];
const me = document.querySelector(".seat.me");
return {
  end: shown(document.querySelector("#end")),
  offered: shown(document.querySelector("#actions"))
    ? all("#actions button[data-action]").filter((b) => shown(b) && !b.disabled)
      .map((b) => b.dataset.action) : [],
  seat_cards: all("#seats .seat .cards .card[data-card]").map((e) => e.dataset.card),
  backs: all("#seats .seat .cards .card.back").length,
  hole: all("#hole .card[data-card]").map((e) => e.dataset.card),
  seat: me ? Number(me.dataset.seat) : null,
};
"""


@dataclass
class Page:
    """A browser at the page, with every frame it was sent (read as it goes)."""

    driver: Any
    name: str = ""
    received: list[dict[str, Any]] = field(default_factory=list)

    def read(self) -> list[dict[str, Any]]:
        """Every frame received so far (the new ones read from the browser's log)."""
        self.received.extend(frames(self.driver))
        return self.received

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def shown(self, selector: str) -> bool:
        """Whether an element is there and shown."""
        found = self.driver.find_elements("css selector", selector)
        return bool(found) and found[0].is_displayed()

    def text(self, selector: str) -> str:
        return str(self.js("const e = document.querySelector(arguments[0]);"
                           "return e ? e.textContent : '';", selector))  # fmt: skip

    def texts(self, selector: str) -> list[str]:
        return list(self.js("return [...document.querySelectorAll(arguments[0])]"
                            ".map((e) => e.textContent);", selector))  # fmt: skip

    def type(self, selector: str, text: str) -> None:
        box = self.driver.find_element("css selector", selector)
        box.clear()
        box.send_keys(text)

    def choose(self, selector: str, value: str) -> None:
        from selenium.webdriver.support.select import Select

        Select(self.driver.find_element("css selector", selector)).select_by_value(value)

    def click(self, selector: str) -> None:
        self.driver.find_element("css selector", selector).click()

    def look(self) -> dict[str, Any]:
        """What the page shows now (:data:`LOOK`)."""
        seen: dict[str, Any] = self.js(LOOK)
        return seen


def page_server(folder: Path) -> Server:
    """``holdem serve --web`` on loopback (both ports free ones)."""
    return Server(folder / "room", "--web", "127.0.0.1:0").start()


def open_lobby(page: Page, base: str) -> None:
    page.driver.get(base + "/")
    wait_until(lambda: page.shown("#lobby") and page.shown("#create-button"), what="the lobby")


def lobby_form(browsers: Any, server: Server, game: str | None = None) -> Page:
    """Ann's browser at the lobby, her name typed in the form (and its game chosen)."""
    page = Page(browsers(), "Ann")
    open_lobby(page, server.page)
    page.type("#name", "Ann")
    if game is not None:
        page.choose("#create-game", game)
    return page


def more_settings(page: Page) -> None:
    """Opens the form's *More settings* (a click on it, as a player does)."""
    if not page.js("return document.querySelector('#create-more').open"):
        page.click("#create-more summary")
    wait_until(lambda: page.shown("#create-pace"), what="the form's More settings")


def make_table(page: Page, *, game: str = "tournament", seats: int = 4, stack: int | None = None,
               schedule: str | None = None) -> str:  # fmt: skip
    """Makes a table with the lobby's form, as ``page.name``, its bots and
    hands without pauses: the link to share."""
    page.type("#name", page.name)
    page.choose("#create-game", game)
    page.type("#create-seats", str(seats))
    if stack is not None:
        page.type("#create-stack", str(stack))
    if schedule is not None:
        page.type("#create-schedule", schedule)
    more_settings(page)
    page.type("#create-pace", "0")
    page.type("#create-pause", "0")
    page.click("#create-button")
    wait_until(lambda: page.shown("#table") and page.look()["seat"] is not None,
               what="the table made")  # fmt: skip
    link = wait_until(lambda: page.js("const e = document.querySelector('#share-link');"
                                      "return e && (e.value || e.textContent);"),
                      what="the share link")  # fmt: skip
    return str(link).strip()


def join_by_link(page: Page, link: str) -> None:
    """Opens a table's link and sits down as ``page.name``."""
    page.driver.get(link)
    wait_until(lambda: page.shown("#join-button"), what="the name asked")
    page.type("#name", page.name)
    page.click("#join-button")
    wait_until(lambda: page.look()["seat"] is not None, what=f"{page.name} seated")


def add_bots(page: Page, count: int, level: str) -> None:
    page.type("#bot-count", str(count))
    page.choose("#bot-level", level)
    page.click("#add-bots")


def seats_taken(page: Page) -> int:
    return int(page.js("return document.querySelectorAll('#seats .seat:not(.empty)').length"))


def click_an_action(page: Page, offered: list[str], rng: random.Random, *,
                    all_in: float = 0.03) -> str | None:  # fmt: skip
    """On the player's turn (``offered``: the actions the page offers), clicks
    a legal button: check or call, now and then all in (folding when nothing
    else is offered); the action clicked."""
    if not offered:
        return None
    wanted = [k for k in ("check", "call") if k in offered]
    if "all_in" in offered and (rng.random() < all_in or not wanted):
        wanted = ["all_in"]
    kind = wanted[0] if wanted else "fold"
    try:
        page.click(f'#actions button[data-action="{kind}"]')
    except Exception:  # (the turn ended under the click: the next look says)
        return None
    return kind


def cards_anywhere(value: Any) -> Iterator[str]:
    """Every string of a message that is a card, under any key."""
    if isinstance(value, dict):
        for item in value.values():
            yield from cards_anywhere(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_anywhere(item)
    elif isinstance(value, str) and CARD.fullmatch(value):
        yield value


def hand_of_frame(message: dict[str, Any]) -> int | None:
    """The hand a frame is about: an event's ``hand``, or the hand of a
    reply's view or state (None: it names none)."""
    if isinstance(message.get("hand"), int):
        return int(message["hand"])
    found: list[int] = []

    def search(value: Any) -> None:
        if isinstance(value, dict):
            config = value.get("config")
            if isinstance(config, dict) and isinstance(config.get("hand_id"), int):
                found.append(config["hand_id"])
            for item in value.values():
                search(item)
        elif isinstance(value, list):
            for item in value:
                search(item)

    search(message)
    return found[0] if found else None


# ------------------------------------------------------------ a freezeout through the pages


@dataclass
class Played:
    """What the freezeout left: its pages (Ann and Ben playing, Eve watching),
    their seats, what was seen on the way, the end, and the stored hands."""

    table: str
    pages: dict[str, Page]
    seats: dict[str, int | None]
    names_seen: dict[str, str]  # (each page: the text of the seat of the hostile name)
    spectator_steps: int = 0
    spectator_backs: int = 0  # (the most face-down cards the spectator's seats showed at once)
    spectator_shown: int = 0  # (the most face-up ones: shown at a showdown)
    spectator_problems: list[str] = field(default_factory=list)
    clicks: dict[str, int] = field(default_factory=dict)
    places: dict[str, list[str]] = field(default_factory=dict)
    certificates: dict[str, str] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    elements: dict[str, int] = field(default_factory=dict)  # (made from a name or chat line)
    chat_lines: dict[str, list[str]] = field(default_factory=dict)
    log_lines: dict[str, list[str]] = field(default_factory=dict)
    alerts: dict[str, str | None] = field(default_factory=dict)
    hands: dict[int, dict[str, Any]] = field(default_factory=dict)


def look_as_spectator(played: Played, eve: Page, seen: dict[str, Any]) -> None:
    """One step of the spectator's watch (``seen``: its page's look): the
    cards its seats draw face up must all have been shown (the page looked
    at first, then the frames read: a card drawn came in a frame already
    received)."""
    drawn, backs, own = seen["seat_cards"], seen["backs"], seen["hole"]
    shows = [m["action"] for m in eve.read() if m.get("event") == "action"]
    shown = {c for a in shows if a.get("kind") == "show" for c in a.get("cards", ())}
    unshown = set(drawn) - shown
    if unshown or own:
        played.spectator_problems.append(f"step {played.spectator_steps}: drawn {drawn}, hole "
                                         f"{own}, shown so far {sorted(shown)}")  # fmt: skip
    played.spectator_steps += 1
    played.spectator_backs = max(played.spectator_backs, backs)
    played.spectator_shown = max(played.spectator_shown, len(drawn))


@pytest.fixture(scope="module")
def freezeout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """Ann makes a private freezeout in the lobby (stack 200, blinds rising
    every 3 hands), Ben (named :data:`HOSTILE`) opens her link and sits down,
    Eve opens the spectator's link; Ann says :data:`HOSTILE_CHAT`, adds two
    calling stations (bots that check or call: the players' all-ins end the
    game) and starts; Ann and Ben click until the pages show the end, Eve's
    page looked at after every round of clicks."""
    need_browser()
    from selenium.common.exceptions import NoAlertPresentException

    folder = tmp_path_factory.mktemp("freezeout")
    server = page_server(folder)
    drivers: list[Any] = []
    try:
        ann, ben, eve = (Page(chromium(), name) for name in ("Ann", HOSTILE, "Eve"))
        drivers += [ann.driver, ben.driver, eve.driver]
        open_lobby(ann, server.page)
        link = make_table(ann, stack=STACK, schedule=SCHEDULE)
        code = link.rsplit("/", 1)[1]
        assert link == f"{server.page}/t/{code}"
        join_by_link(ben, link)
        eve.driver.get(f"{server.page}/w/{code}")
        wait_until(lambda: eve.shown("#table") and eve.texts("#seats .seat .name").count(HOSTILE),
                   what="the spectator's table")  # fmt: skip
        ann.type("#chat-input", HOSTILE_CHAT)
        ann.click("#chat-send")
        add_bots(ann, 2, "calling-station")
        wait_until(lambda: seats_taken(ann) == 4, what="the bots seated")
        seats = {"Ann": ann.look()["seat"], "Ben": ben.look()["seat"], "Eve": None}
        names = {who: page.text(f'.seat[data-seat="{seats["Ben"]}"] .name')
                 for who, page in (("Ann", ann), ("Eve", eve))}  # fmt: skip
        table = next(m["result"]["table"] for m in ann.read()
                     if m.get("result", {}).get("code") == code)  # fmt: skip
        played = Played(table=table, pages={"Ann": ann, "Ben": ben, "Eve": eve}, seats=seats,
                        names_seen=names)  # fmt: skip
        ann.click("#start-button")
        rng = random.Random(30)
        deadline = time.monotonic() + 240
        ended = False
        while not ended:
            assert time.monotonic() < deadline, "the freezeout did not end in 4 minutes"
            ended = True
            for who, page in (("Ann", ann), ("Ben", ben)):
                seen = page.look()
                ended = ended and seen["end"]
                if click_an_action(page, seen["offered"], rng):
                    played.clicks[who] = played.clicks.get(who, 0) + 1
            seen = eve.look()
            ended = ended and seen["end"]
            look_as_spectator(played, eve, seen)
        for who, page in played.pages.items():
            wait_until(lambda p=page: len(p.texts("#places li")) == 4, what=f"{who}'s places")
            played.places[who] = page.texts("#places li")
            played.certificates[who] = page.text("#certificate")
            played.elements[who] = int(page.js(MADE_FROM_TEXT))
            played.chat_lines[who] = page.texts("#chat-lines li")
            played.log_lines[who] = page.texts("#log li")
            try:
                played.alerts[who] = page.driver.switch_to.alert.text
            except NoAlertPresentException:
                played.alerts[who] = None
            page.read()
        with server.client("test") as watcher:
            watcher.request("watch", code=code)
            played.state = watcher.request("state", table=table)
    finally:
        for driver in drivers:
            with contextlib.suppress(Exception):
                driver.quit()
        assert server.stop() in (0, 130)
    store = Store(server.data / "room.sqlite", read_only=True)
    try:
        played.hands = {s.number: s.record for s in store.hands(table)}
    finally:
        store.close()
    yield played


def test_two_browser_players_and_two_bots_play_a_private_freezeout_to_a_winner(
    freezeout: Played,
) -> None:
    """Made in the lobby, joined by the shared link, bots added and started in
    the page, every move a click on the page's buttons: the end shows the
    four places and the winner's certificate, on every page, and no chip was
    made or lost."""
    played = freezeout
    assert played.clicks.get("Ann", 0) > 0 and played.clicks.get("Ben", 0) > 0, played.clicks
    state = played.state
    assert state["status"] == "finished"
    chips = [s["chips"] for s in state["seats"]]
    assert sum(chips) == 4 * STACK, state["seats"]
    winner = next(s["name"] for s in state["seats"] if s["chips"] == 4 * STACK)
    for who, places in played.places.items():
        named = "You" if played.pages[who].name == winner else winner  # (the winner's own page)
        assert places[0].startswith("1st") and named in places[0], (who, places)
        assert named in played.certificates[who], (who, played.certificates[who])
    assert sorted(played.hands) == list(range(1, state["hands_played"] + 1))
    for number, record in played.hands.items():  # (the players still in hold every chip)
        assert sum(record["config"]["stacks"]) == 4 * STACK, number


def test_a_spectator_page_sees_no_hole_cards_until_shown(freezeout: Played) -> None:
    """At every step of the game the spectator's seats draw face up only
    cards that were shown, and it has no cards of its own; its frames hold
    no ``hole_cards`` and no card not on the board or shown (each hand's
    stored record says which)."""
    played = freezeout
    assert played.spectator_backs >= 4  # (it was looked at in hands: cards face down)
    assert not played.spectator_problems, played.spectator_problems[:5]
    eve = played.pages["Eve"].received
    assert not [m for m in eve if m.get("event") == "hole_cards"]
    checked = unseen_cards(eve, played.hands, None)
    assert checked == set(played.hands)  # (every hand of the game, watched from the start)


def test_a_player_named_with_html_is_shown_as_text(freezeout: Played) -> None:
    """Ben is named ``<img src=x onerror=alert(1)>`` and Ann's chat line holds
    HTML: every page shows both as text, none holds an element made from
    them, and no script of theirs ran (no alert)."""
    played = freezeout
    assert played.names_seen == {"Ann": HOSTILE, "Eve": HOSTILE}
    for who in played.pages:
        assert played.elements[who] == 0, who
        assert played.alerts[who] is None, (who, played.alerts[who])
        assert any(HOSTILE in line for line in played.log_lines[who]), who
        assert any(HOSTILE_CHAT in line for line in played.chat_lines[who]), (
            who, played.chat_lines[who])  # fmt: skip


def test_no_page_is_sent_another_players_unshown_cards_the_deck_or_the_burns(
    freezeout: Played,
) -> None:
    """Every frame each page received over the whole game (both players' and
    the spectator's), against the stored hands: a card in a frame, under any
    key, is the page's own hole card, on the board, or shown, in the hand
    the frame is about; every hand of the game is checked."""
    played = freezeout
    for who, page in played.pages.items():
        seat = played.seats[who]
        checked = unseen_cards(page.received, played.hands, seat)
        dealt = {n for n, r in played.hands.items()
                 if seat is None or seat in dealt_seats(r)}  # fmt: skip
        assert dealt <= checked, (who, sorted(dealt - checked))


def test_the_frames_check_finds_a_card_a_page_may_not_see() -> None:
    """The check of the frames above fails on each kind of leak: another
    seat's hole cards, a card of the deck (never dealt) in any field, and a
    card in a frame about no stored hand."""
    record = {"config": {"stacks": [100, 100], "hand_id": 1}, "hole_cards": [["As", "Kd"],
              ["7c", "2h"]], "board": ["Qs", "Jh", "3d"], "log": []}  # fmt: skip
    hands = {1: record}
    mine = {"event": "hole_cards", "hand": 1, "seat": 0, "cards": ["As", "Kd"]}
    assert unseen_cards([mine], hands, 0) == {1}
    for leak in ({"event": "hole_cards", "hand": 1, "seat": 1, "cards": ["7c", "2h"]},
                 {"event": "action", "hand": 1, "action": {"next": ["9s"]}},
                 {"id": 3, "result": {"view": {"board": ["Qs"]}}}):  # fmt: skip
        with pytest.raises(AssertionError):
            unseen_cards([mine, leak], hands, 0)
    with pytest.raises(AssertionError):
        unseen_cards([mine], hands, None)  # (a spectator: no hole cards at all)


def dealt_seats(record: dict[str, Any]) -> list[int]:
    config = record["config"]
    return list(config.get("seats") or range(len(config["stacks"])))


def unseen_cards(stream: list[dict[str, Any]], hands: dict[int, dict[str, Any]],
                 seat: int | None) -> set[int]:  # fmt: skip
    """Asserts that no frame of a page's stream holds a card the page may not
    see (``seat``: its seat; None: a spectator's) in the stored hand it is
    about (a frame with cards must be about one); the hands checked (those
    the frames were about)."""
    checked: set[int] = set()
    for message in stream:
        number = hand_of_frame(message)
        found = set(cards_anywhere(message))
        if found:
            assert number in hands, ("a frame with cards of no stored hand", message)
            leaked = found - allowed_cards(hands[number], seat)
            assert not leaked, (seat, leaked, message)
        if number in hands:
            checked.add(number)
    return checked


# ------------------------------------------------------------ a heads-up table: reload, phone, keys


def heads_up(page: Page, base: str) -> dict[str, Any]:
    """A cash table of two made in the lobby, a calling station added and the
    game started by the page: the page's look at the player's first turn."""
    open_lobby(page, base)
    make_table(page, game="cash", seats=2)
    add_bots(page, 1, "calling-station")
    wait_until(lambda: seats_taken(page) == 2, what="the bot seated")
    page.click("#start-button")
    return your_turn(page)


def your_turn(page: Page) -> dict[str, Any]:
    """The page's look once it offers the player actions (its cards drawn)."""
    seen: dict[str, Any] = wait_until(lambda: (s := page.look())["offered"] and s["hole"] and s,
                                      what="the player's turn")  # fmt: skip
    return seen


def acted(page: Page, kind: str, hand: int | None = None) -> dict[str, Any]:
    """The action event of the page's seat of that kind (in ``hand``), once
    the page was sent it."""

    def found() -> dict[str, Any] | None:
        for m in page.read():
            a = m.get("action") if m.get("event") == "action" else None
            if a and a.get("kind") == kind and a.get("seat") == page.look()["seat"] and (
                    hand is None or m.get("hand") == hand):  # fmt: skip
                return m
        return None

    message: dict[str, Any] = wait_until(found, what=f"the page's {kind} played")
    return message


def test_a_reload_mid_hand_comes_back_to_the_seat(tmp_path: Path, browsers: Any) -> None:
    """Reloaded at the player's turn, the page comes back to the same seat with
    the same hole cards (the seat's token kept in the browser's storage),
    its log beginning with the table's terms and then what was missed (as
    holdem join's greeting), offers the turn again, and the click plays it:
    the game goes on to the player's next turn."""
    server = page_server(tmp_path)
    try:
        ann = Page(browsers(), "Ann")
        before = heads_up(ann, server.page)
        hand = max(m["hand"] for m in ann.read() if m.get("event") == "hand_started")
        assert len(before["hole"]) == 2 and before["seat"] is not None
        stored = ann.js("return Object.keys(localStorage).filter((k) => k.startsWith("
                        "'holdem.seat.'))")  # fmt: skip
        assert len(stored) == 1
        ann.driver.refresh()
        after = your_turn(ann)
        assert (after["seat"], after["hole"]) == (before["seat"], before["hole"])
        terms, missed = log_lines(ann, 2)
        assert terms == "Blinds 1/2; buy-in 80 to 200." and missed.startswith("Back in your seat: ")
        kind = "check" if "check" in after["offered"] else "call"
        ann.click(f'#actions button[data-action="{kind}"]')
        played = acted(ann, kind, hand)
        wait_until(lambda: [m for m in ann.read()[ann.received.index(played):]
                            if m.get("event") == "turn" and m["seat"] == after["seat"]],
                   what="her next turn")  # fmt: skip
        your_turn(ann)  # (the game went on: the bot checked or called, and she may act)
    finally:
        assert server.stop() in (0, 130)


#: Whether the page scrolls sideways (wider than the window).
SIDEWAYS = "return document.documentElement.scrollWidth > window.innerWidth;"
#: Whether an element is there to be clicked: scrolled to, inside the
#: window's width, and what a tap at its middle would reach.
CLICKABLE = """
const e = arguments[0];
e.scrollIntoView({block: "center"});
const r = e.getBoundingClientRect();
const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= window.innerWidth
  && Boolean(hit) && (hit === e || e.contains(hit));
"""


def test_the_page_at_a_phones_width_has_no_sideways_scroll_and_its_actions_are_clickable(
    tmp_path: Path, browsers: Any
) -> None:
    """At 390 by 844 pixels the lobby (its form's More settings open, every
    field of a fixed-limit cash table shown) and the table fit the width,
    and at the player's turn every action button offered is on the screen,
    reachable by a tap at its middle, and a tap plays it."""
    server = page_server(tmp_path)
    try:
        ann = Page(browsers(width=390, height=844), "Ann")
        open_lobby(ann, server.page)
        assert ann.js("return window.innerWidth") <= 400
        assert not ann.js(SIDEWAYS), "the lobby scrolls sideways"
        ann.choose("#create-game", "cash")
        ann.choose("#create-structure", "fixed_limit")
        more_settings(ann)
        assert ann.shown("#create-heads-up-cap") and ann.shown("#create-protect")
        assert not ann.js(SIDEWAYS), "the lobby's More settings scroll sideways"
        seen = heads_up(ann, server.page)
        assert not ann.js(SIDEWAYS), "the table scrolls sideways"
        for kind in seen["offered"]:
            button = ann.driver.find_element("css selector",
                                             f'#actions button[data-action="{kind}"]')  # fmt: skip
            assert button.is_displayed() and ann.js(CLICKABLE, button), kind
        kind = "check" if "check" in seen["offered"] else "call"
        ann.click(f'#actions button[data-action="{kind}"]')
        acted(ann, kind)
        assert not ann.js(SIDEWAYS), "the table scrolls sideways"
    finally:
        assert server.stop() in (0, 130)


#: The buttons, fields and lists of the page that have no accessible name
#: (a label, aria-label or aria-labelledby, or a button's text), hidden ones
#: too: each described by its id or its first characters.
UNNAMED = """
const named = (e) => {
  const text = (t) => (t || "").trim();
  if (text(e.getAttribute("aria-label"))) return true;
  const by = e.getAttribute("aria-labelledby");
  if (by && by.split(/\\s+/).some((id) => text(document.getElementById(id)?.textContent))) {
    return true;
  }
  if (e.labels && [...e.labels].some((l) => text(l.textContent))) return true;
  return e.tagName === "BUTTON" && text(e.textContent) !== "";
};
return [...document.querySelectorAll("button, input, select, textarea")]
  .filter((e) => e.type !== "hidden" && !named(e))
  .map((e) => e.id || e.outerHTML.slice(0, 80));
"""


def test_keys_play_the_turn_and_every_control_has_a_name(tmp_path: Path, browsers: Any) -> None:
    """Every button and field of the page (the lobby's, the table's, the
    actions' once offered) has an accessible name, as the browser computes
    it for those shown; at the player's turn ``c`` checks or calls and ``f``
    folds, each said in the hand log."""
    from selenium.webdriver.common.action_chains import ActionChains

    server = page_server(tmp_path)
    try:
        ann = Page(browsers(), "Ann")
        open_lobby(ann, server.page)
        assert ann.js(UNNAMED) == []
        assert unnamed_shown(ann) == []
        seen = heads_up(ann, server.page)
        assert ann.js(UNNAMED) == []
        assert unnamed_shown(ann) == []
        # (a show after the hand is of the last hand ended: none yet, no button)
        assert not [t for t in ann.texts("#log li") if "stacks:" in t]
        assert not ann.driver.find_element("id", "show-cards").is_displayed()
        for key, said in (("c", r"^You (check|call)"), ("f", r"^You fold")):
            kind = {"c": "check" if "check" in seen["offered"] else "call", "f": "fold"}[key]
            if kind not in seen["offered"]:
                continue
            lines = len(ann.texts("#log li"))
            ann.js("document.activeElement && document.activeElement.blur()")
            ActionChains(ann.driver).send_keys(key).perform()
            acted(ann, kind)
            wait_until(lambda s=said, n=lines: [t for t in ann.texts("#log li")[n:]
                                                if re.search(s, t)],
                       what=f"the log to say {key!r} was played")  # fmt: skip
            seen = your_turn(ann)
        # (a hand Ann was dealt in has ended: she may show her cards of it)
        wait_until(lambda: [t for t in ann.texts("#log li") if "stacks:" in t],
                   what="a hand to end")  # fmt: skip
        wait_until(lambda: ann.driver.find_element("id", "show-cards").is_displayed(),
                   what="the button that shows the last hand's cards")  # fmt: skip
    finally:
        assert server.stop() in (0, 130)


def unnamed_shown(page: Page) -> list[str]:
    """The buttons and fields shown whose accessible name, as the browser
    computes it, is empty."""
    found = page.driver.find_elements("css selector", "button, input, select, textarea")
    return [e.get_attribute("id") or e.tag_name for e in found
            if e.is_displayed() and not (e.accessible_name or "").strip()]  # fmt: skip


def test_r10_r9_the_page_runs_it_twice_in_the_table_s_money(tmp_path: Path, browsers: Any) -> None:
    """At a cash table of 2.5/5 at a chip of 0.5 that runs it twice (made by
    a client of the room), the page's Run it twice control says no and yes
    again (the room's state follows), its amounts read in money, and an
    all-in preflop that both players agree to is drawn on two boards and
    told '*** SECOND FLOP ***'."""
    server = page_server(tmp_path)
    try:
        with server.client("Ann") as ann:
            made = ann.request("create_table", name="Ann", game="cash", small_blind=5,
                               big_blind=10, buy_in=400, max_buy_in=400, pace=0, pause=30,
                               run_it_twice=True, unit="0.5")  # fmt: skip
            # (a long pause after the hand: its two boards stay drawn until the test looks)
            ben = Page(browsers(), "Ben")
            join_by_link(ben, made["link"])
            wait_until(lambda: ben.shown("#run-twice"), what="the Run it twice control")
            assert ben.text("#run-twice") == "Run it twice: yes"
            ben.click("#run-twice")
            wait_until(lambda: ben.text("#run-twice") == "Run it twice: no", what="a no")
            seats = ann.request("state", table=made["table"])["seats"]
            assert [s["run_twice"] for s in seats] == [True, False]
            ben.click("#run-twice")
            wait_until(lambda: ben.text("#run-twice") == "Run it twice: yes", what="a yes")
            ann.request("start", table=made["table"])

            def ann_plays() -> None:
                """Ann checks or calls at her turns (the page goes all in)."""
                for message in ann.poll(0.1):
                    if message.get("event") == "turn" and message.get("seat") == 0:
                        legal = message["view"]["legal"]
                        kind = "call" if legal["call"] is not None else "check"
                        ann.request("act", table=made["table"], action={"kind": kind})

            seen = wait_until(lambda: ann_plays() or ((s := ben.look())["offered"] and s),
                              what="Ben's turn")  # fmt: skip
            assert ben.text("#hand-info") == "Hand #1 · blinds 2.5/5"
            assert ben.text('#actions button[data-action="all_in"]') == "All in 200"
            assert "all_in" in seen["offered"]
            ben.click('#actions button[data-action="all_in"]')

            def two_boards() -> bool:
                ann_plays()
                won = any(line.endswith(", second run") for line in ben.texts("#log li"))
                return won and ben.shown("#board2")

            wait_until(two_boards, what="the second run's pots won, its board drawn")
            assert len(ben.texts("#board2 .card[data-card]")) == 5
            log = ben.texts("#log li")
            assert any(line.startswith("*** SECOND FLOP *** [") for line in log), log
            # (Ben's own win reads "You win ...")
            assert any((" wins " in line or line.startswith("You win ")) and
                       line.endswith(", second run") for line in log), log  # fmt: skip
    finally:
        assert server.stop() in (0, 130)


def test_r9_r10_the_lobby_s_form_makes_a_table_in_money_that_runs_it_twice(
    tmp_path: Path, browsers: Any
) -> None:
    """The form's chip, blinds and buy-ins are typed in money and sent as
    chips (R9), with run it twice (R10); blinds that are no whole number of
    chips are refused on the page, naming the chip.  The table made, the
    log's first line says its terms, as holdem join --create's greeting
    does, before the line that says how to fill it."""
    server = page_server(tmp_path)
    try:
        page = lobby_form(browsers, server, "cash")
        page.type("#create-chip", "0.5")
        page.type("#create-blinds", "2.25/5")
        page.click("#create-button")
        wait_until(lambda: page.shown("#error"), what="the blinds refused")
        assert page.text("#error") == 'Blinds "2.25/5": each is a whole number of chips of 0.5.'
        assert not page.shown("#table")
        page.type("#create-blinds", "2.5/5")
        page.type("#create-min-buy-in", "50")
        page.type("#create-max-buy-in", "250.5")
        page.type("#create-buy-in", "200")
        page.click("#create-twice")
        page.click("#create-button")
        state = made_state(page, server)
        wanted = {"unit": "0.5", "small_blind": 5, "big_blind": 10, "min_buy_in": 100,
                  "max_buy_in": 501, "run_it_twice": True}  # fmt: skip
        assert {k: state["settings"][k] for k in wanted} == wanted
        assert state["seats"][0]["chips"] == 400
        assert log_lines(page, 2) == [
            "Blinds 2.5/5; buy-in 50 to 250.5; in chips of 0.5; runs it twice where everyone left "
            "is all in and agrees.",
            "Your table is made: share its link, add bots, and start when everyone is in.",
        ]  # fmt: skip
    finally:
        assert server.stop() in (0, 130)


# ------------------------------------------------------------ the form's settings


def made_state(page: Page, server: Server) -> dict[str, Any]:
    """The state of the table the page's form has just made, as the server
    holds it (a spectator's ``state``: its ``settings``, its seats)."""
    wait_until(lambda: page.shown("#table") and page.look()["seat"] is not None,
               what="the table made")  # fmt: skip
    code = page.js("return location.pathname").rsplit("/", 1)[1]
    with server.client("Eve") as eve:
        state: dict[str, Any] = eve.request("watch", code=code)
    return state


def test_r13_r12_the_form_makes_a_cash_table_with_protection_a_time_limit_pace_and_pause(
    tmp_path: Path, browsers: Any
) -> None:
    """A cash table made in the lobby with a session of 90 minutes (R12: sent
    as the server's seconds) and, in *More settings*, disconnect protection
    (R13), a bots' pace and a pause between hands has exactly those settings
    at the server, the others its defaults; a cap typed at fixed limit and
    left there when the betting went back to no limit is not sent (the
    server refuses a cap at a table of another structure)."""
    server = page_server(tmp_path)
    try:
        page = lobby_form(browsers, server, "cash")
        page.type("#create-minutes", "90")
        more_settings(page)
        page.choose("#create-structure", "fixed_limit")
        page.type("#create-raise-cap", "5")
        page.choose("#create-structure", "no_limit")
        page.click("#create-protect")
        page.type("#create-pace", "0.5")
        page.type("#create-pause", "2.5")
        page.click("#create-button")
        assert made_state(page, server)["settings"] == {
            "seats": 6, "structure": "no_limit", "pace": 0.5, "pause": 2.5,
            "timer": {"seconds": 30.0, "time_bank": 30.0, "policy": "protect"},
            "chat": "players", "show_after_hand": True, "aggressor_may_muck": False,
            "run_it_twice": False, "unit": "1", "small_blind": 1, "big_blind": 2,
            "min_buy_in": 80, "max_buy_in": 200, "max_hands": None, "max_seconds": 5400.0,
        }  # fmt: skip
    finally:
        assert server.stop() in (0, 130)


def test_r8_r10_the_form_makes_a_fixed_limit_freezeout_with_its_cap_and_showing_rules(
    tmp_path: Path, browsers: Any
) -> None:
    """A fixed-limit freezeout made in the lobby with *More settings*' cap (a
    bet and 4 raises, lifted in a round that begins with two: R8), no shows
    after the hand and the river's bettor allowed to muck (R10) has exactly
    those settings at the server, the others its defaults."""
    server = page_server(tmp_path)
    try:
        page = lobby_form(browsers, server)
        page.choose("#create-structure", "fixed_limit")
        more_settings(page)
        page.type("#create-raise-cap", "4")
        page.choose("#create-heads-up-cap", "round_start")
        page.click("#create-show")
        page.click("#create-muck")
        page.click("#create-button")
        assert made_state(page, server)["settings"] == {
            "seats": 6, "structure": "fixed_limit", "pace": 1.0, "pause": 3.0,
            "timer": {"seconds": 30.0, "time_bank": 30.0, "policy": "check_fold"},
            "chat": "players", "raise_cap": 4, "heads_up_cap": "round_start",
            "show_after_hand": False, "aggressor_may_muck": True, "run_it_twice": False,
            "unit": "1", "stack": 1500, "schedule": Schedule.default().to_dict(),
        }  # fmt: skip
    finally:
        assert server.stop() in (0, 130)


#: The settings of the form that are not for every table, by the id of
#: their field (``#create-NAME``).
SOME_TABLES = ("stack", "schedule", "chip", "minutes", "protect", "raise-cap", "heads-up-cap")


def test_the_form_shows_a_setting_only_for_the_game_and_betting_it_applies_to(
    tmp_path: Path, browsers: Any
) -> None:
    """*More settings* is closed at first.  A freezeout's form has its stack
    and schedule, a cash game's its chip, session minutes and disconnect
    protection; the cap's fields are there at fixed limit alone (each field
    with its label), and the cap is lifted as the game has it by default
    (never at a freezeout, once two are left at a cash game) until the
    player chooses."""
    server = page_server(tmp_path)
    try:
        page = Page(browsers(), "Ann")
        open_lobby(page, server.page)
        assert page.shown("#create-more summary") and not page.shown("#create-pace")
        more_settings(page)

        def shown() -> set[str]:
            fields = {n for n in SOME_TABLES if page.shown(f"#create-{n}")}
            labels = {n for n in SOME_TABLES if page.shown(f'label[for="create-{n}"]')}
            assert fields == labels
            return fields

        def lifted() -> str:
            return str(page.js("return document.querySelector('#create-heads-up-cap').value"))

        assert shown() == {"stack", "schedule"}
        page.choose("#create-structure", "fixed_limit")
        assert shown() == {"stack", "schedule", "raise-cap", "heads-up-cap"}
        assert lifted() == "never"
        page.choose("#create-game", "cash")
        assert shown() == {"chip", "minutes", "protect", "raise-cap", "heads-up-cap"}
        assert lifted() == "two_left"
        page.choose("#create-structure", "pot_limit")
        assert shown() == {"chip", "minutes", "protect"}
        page.choose("#create-structure", "fixed_limit")
        page.choose("#create-heads-up-cap", "round_start")
        page.choose("#create-game", "tournament")
        assert lifted() == "round_start"
        assert page.shown("#create-show") and page.shown("#create-muck")
    finally:
        assert server.stop() in (0, 130)


def test_a_setting_the_server_refuses_is_said_on_the_page_in_its_words(
    tmp_path: Path, browsers: Any
) -> None:
    """A pause between hands of 61 seconds (the server's most is 60) is sent
    as typed and refused as the server says it, no table made; 60 makes
    the table."""
    server = page_server(tmp_path)
    try:
        page = lobby_form(browsers, server)
        more_settings(page)
        page.type("#create-pause", "61")
        page.click("#create-button")
        wait_until(lambda: page.shown("#error"), what="the pause refused")
        assert page.text("#error") == ("The table was not made: request.pause: a number of "
                                       "seconds from 0 to 60, not 61")  # fmt: skip
        assert not page.shown("#table")
        page.type("#create-pause", "60")
        page.click("#create-button")
        assert made_state(page, server)["settings"]["pause"] == 60.0
    finally:
        assert server.stop() in (0, 130)


# ------------------------------------------------------------ a table's terms, the lobby's list

#: A cash table of 2.5/5 at a chip of 0.5 that runs it twice, as ``holdem
#: join`` greets with its terms.
CASH_TERMS = ("Blinds 2.5/5; buy-in 50 to 200; in chips of 0.5; runs it twice where everyone "
              "left is all in and agrees.")  # fmt: skip
#: A freezeout's, of stacks of 2,000 and a schedule with antes.
FREEZEOUT_TERMS = "Stacks of 2,000; blinds 25/50 ante 5 for 8 hands, then rising."


def log_lines(page: Page, count: int) -> list[str]:
    """The first ``count`` lines of the page's log, once it has them."""
    lines: list[str] = wait_until(lambda: (t := page.texts("#log li"))[count - 1:] and t,
                                  what=f"{count} lines in the log")  # fmt: skip
    return lines[:count]


def test_a_friend_who_opens_a_cash_table_s_link_is_told_its_terms_first(
    tmp_path: Path, browsers: Any
) -> None:
    """Ben opens the link of Ann's cash table of 2.5/5 at a chip of 0.5 that
    runs it twice (made by a client of the room) and sits down: the log's
    first line is the table's terms, as holdem join's greeting says them,
    before the first hand.  His connection lost and back, the log goes on
    with what he missed, the terms not said again."""
    server = page_server(tmp_path)
    try:
        with server.client("Ann") as ann:
            made = ann.request("create_table", name="Ann", game="cash", small_blind=5,
                               big_blind=10, min_buy_in=100, max_buy_in=400, buy_in=400,
                               run_it_twice=True, unit="0.5")  # fmt: skip
            ben = Page(browsers(), "Ben")
            join_by_link(ben, made["link"])
            assert log_lines(ben, 1) == [CASH_TERMS]
            assert not [line for line in ben.texts("#log li") if "Hand #" in line]
            ben.js("Holdem.app.page.conn.ws.close()")
            wait_until(lambda: [t for t in ben.texts("#log li") if t.startswith("Back in your ")],
                       what="the seat resumed")  # fmt: skip
            assert ben.texts("#log li").count(CASH_TERMS) == 1
    finally:
        assert server.stop() in (0, 130)


def test_a_spectator_of_a_freezeout_is_told_its_stacks_and_blinds(
    tmp_path: Path, browsers: Any
) -> None:
    """Eve opens the spectator's link of a freezeout of stacks of 2,000 whose
    first level is 25/50 with an ante of 5 for 8 hands: after the line that
    says she watches, the log says its stacks and blinds, as holdem watch's
    greeting does; Ann's seat says she waits for the start, not 0 chips (the
    full screen's words: no stack is dealt before it)."""
    server = page_server(tmp_path)
    try:
        with server.client("Ann") as ann:
            made = ann.request("create_table", name="Ann", stack=2000,
                               schedule="@8h, 25/50/5, 50/100/10")  # fmt: skip
            eve = Page(browsers(), "Eve")
            eve.driver.get(made["watch_link"])
            assert log_lines(eve, 2) == [
                f"Watching table {made['table']}: the public events only, no cards before they "
                "are shown.", FREEZEOUT_TERMS]  # fmt: skip
            seat = eve.driver.find_element("css selector", '#seats .seat[data-seat="0"]')
            assert seat.find_element("css selector", ".stack").text == "waiting for the start"
            assert seat.get_attribute("aria-label") == "Seat 1: Ann, waiting for the start"
    finally:
        assert server.stop() in (0, 130)


def test_a_big_blind_ante_is_named_as_one_above_the_board(tmp_path: Path, browsers: Any) -> None:
    """The hand's line over the board says a big blind ante as the log and
    holdem join do ("25/50 big blind ante 50"), not as an ante each player
    posts (it said "ante 50")."""
    server = page_server(tmp_path)
    try:
        with server.client("Ann") as ann:
            made = ann.request("create_table", name="Ann", stack=2000, pace=0, pause=0,
                               schedule="@8h, 25/50/50bba, 50/100/100bba")  # fmt: skip
            ann.request("add_bots", table=made["table"], level="calling-station", count=1)
            eve = Page(browsers(), "Eve")
            eve.driver.get(made["watch_link"])
            wait_until(lambda: eve.shown("#hand-info"), what="the felt")
            ann.request("start", table=made["table"])  # (Ann's turn waits: hand 1 stays)
            wait_until(lambda: eve.text("#hand-info").startswith("Hand #1"), what="hand 1")
            assert eve.text("#hand-info") == "Hand #1 · blinds 25/50 big blind ante 50"
    finally:
        assert server.stop() in (0, 130)


def test_the_lobby_lists_a_table_s_betting_as_holdem_join_list_does_and_join_tells_its_terms(
    tmp_path: Path, browsers: Any
) -> None:
    """The lobby's public tables say each one's stakes and betting in the
    words of ``holdem join --list`` (a pot-limit cash table in money that
    runs it twice, a fixed-limit freezeout with its stack); *Join* seats
    the player, whose log begins with the table's terms."""
    server = page_server(tmp_path)
    try:
        with server.client("Ann") as ann:
            cash = ann.request("create_table", name="Ann", game="cash", public=True,
                               structure="pot_limit", small_blind=5, big_blind=10,
                               min_buy_in=100, max_buy_in=400, buy_in=400, run_it_twice=True,
                               unit="0.5")  # fmt: skip
            ann.request("create_table", name="Ann", public=True, structure="fixed_limit",
                        stack=2000, schedule="@8h, 25/50/5, 50/100/10")  # fmt: skip
            words = listing(ann.request("list_tables")["tables"], "here")
            cat = Page(browsers(), "Cat")
            open_lobby(cat, server.page)
            listed = wait_until(lambda: (t := cat.texts("#tables li .what"))[1:] and t,
                                what="the two tables listed")  # fmt: skip
            assert listed == [
                "t1 · Cash · 2.5/5 · pot limit · runs it twice",
                "t2 · Freezeout · 25/50 ante 5, 2,000 stack · fixed limit",
            ]
            assert "2.5/5" in words[2] and "pot limit" in words[2]  # (holdem join --list's)
            assert "25/50 ante 5, 2,000 stack" in words[3] and "fixed limit" in words[3]
            cat.type("#name", "Cat")
            cat.click(f'#tables li[data-table="{cash["table"]}"] button')
            wait_until(lambda: cat.look()["seat"] is not None, what="Cat seated")
            assert log_lines(cat, 1) == [CASH_TERMS]
    finally:
        assert server.stop() in (0, 130)
