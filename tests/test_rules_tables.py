"""RULES.md at tables, hand after hand (issue 31): the fixed-limit cap of a
tournament, a cash game and a room that states no heads-up exception, at a
table and in ``holdem engine``'s tables (R8); disconnect protections counted
over any 24 hours and spent only where they protect something (R13); cards
shown after the hand, and the river aggressor's show (R10)."""

from __future__ import annotations

import datetime
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from holdem import Decision, Hand, HandConfig, LegalActions, PlayerView
from holdem.actions import ActionKind, Street
from holdem.cli.main import main
from holdem.config import HeadsUpCap
from holdem.errors import ConfigError, TableError
from holdem.histories import BET_RAISE, DEAL_BOARD, read_hands, record
from holdem.protocol.engine import Engine
from holdem.table import (
    CardsShown,
    CashGame,
    Event,
    HandResult,
    Table,
    TimerRules,
    Tournament,
    TurnTimer,
)

_WAGERS = (ActionKind.BET, ActionKind.RAISE)


def raiser(view: PlayerView, legal: LegalActions) -> Decision:
    """Bets or raises whenever it may, else calls: a heads-up war of raises."""
    if legal.wager is not None and legal.min_to is not None:
        return Decision(legal.wager, legal.min_to)
    return Decision.check() if legal.check else Decision.call()


def most_raises(result: HandResult) -> int:
    """The most bets and raises of one betting round of a hand (preflop the
    big blind counts as the bet, as the cap counts it)."""
    counts = {street: 0 for street in Street}
    for action in result.played.log:
        if action.kind in _WAGERS:
            counts[action.street] += 1
    counts[Street.PREFLOP] += 1  # (the big blind)
    return max(counts.values())


def test_r08_heads_up_tournament_keeps_the_cap() -> None:
    """R8: in tournaments the cap (a bet and three raises) applies heads-up
    too; before, a fixed-limit freezeout of two raised without end."""
    game = Tournament(["Ann", "Bob"], stack=100_000, structure="fixed_limit", rng=3)
    for _ in range(3):
        result = game.play_hand(raiser)
        assert most_raises(result) == 4  # a bet and three raises, each round
        assert result.played.config.heads_up_cap is HeadsUpCap.NEVER


def test_r08_a_tournament_of_the_wsop_caps_at_a_bet_and_four_raises() -> None:
    game = Tournament(["Ann", "Bob", "Cid"], stack=100_000, structure="fixed_limit",
                      raise_cap=4, rng=3)  # fmt: skip
    assert most_raises(game.play_hand(raiser)) == 5


def test_r08_heads_up_cash_follows_its_policy_and_a_room_may_cap_always() -> None:
    """R8: a cash game lifts the cap once two are left (the default, Robert's
    Rules); a table whose room states no heads-up exception caps always."""

    def cash(**options: object) -> CashGame:
        game = CashGame(2, small_blind=5, big_blind=10, structure="fixed_limit",
                        max_buy_in=100_000, rng=5, **options)  # type: ignore[arg-type]  # fmt: skip
        game.join(0, "Ann", 100_000)
        game.join(1, "Bob", 100_000)
        return game

    uncapped = cash().play_hand(raiser)
    assert most_raises(uncapped) > 4  # (raised until a stack ran out)
    for policy in ("never", HeadsUpCap.NEVER):
        assert most_raises(cash(heads_up_cap=policy).play_hand(raiser)) == 4
    # the policy of a round that starts heads-up: uncapped too
    assert most_raises(cash(heads_up_cap="round_start").play_hand(raiser)) > 4


def test_r08_a_table_keeps_its_cap_across_a_snapshot() -> None:
    table = Table(2, small_blind=5, big_blind=10, structure="fixed_limit",
                  heads_up_cap="never", raise_cap=4, rng=1)  # fmt: skip
    table.sit(0, "Ann", 100_000)
    table.sit(1, "Bob", 100_000)
    data = json.loads(json.dumps(table.snapshot()))
    assert (data["raise_cap"], data["heads_up_cap"]) == (4, "never")
    again = Table.from_snapshot(data, rng=1)
    assert (again.raise_cap, again.heads_up_cap) == (4, HeadsUpCap.NEVER)
    assert most_raises(again.play_hand(raiser)) == 5
    # a snapshot of a server before the options: the game's defaults
    del data["raise_cap"], data["heads_up_cap"]
    assert Table.from_snapshot(data).heads_up_cap is HeadsUpCap.TWO_LEFT
    data["tournament"] = True
    assert Table.from_snapshot(data).heads_up_cap is HeadsUpCap.NEVER


def test_r08_bad_cap_options_are_refused_naming_them() -> None:
    with pytest.raises(ConfigError, match="heads_up_cap"):
        Table(2, small_blind=1, big_blind=2, heads_up_cap="sometimes")
    with pytest.raises(ConfigError, match="raise_cap"):
        CashGame(2, small_blind=1, big_blind=2, raise_cap=-1)


def engine_raises(**create: object) -> int:
    """The most bets and raises of a round of hand 1 at a ``holdem engine``
    table of two seats this client plays, made with ``create``, every turn
    raised when the menu allows it."""
    engine = Engine()
    me = engine.connect()
    engine.handle(me, json.dumps({"type": "hello", "version": 1}))
    out = engine.handle(me, json.dumps({"type": "create_table", "structure": "fixed_limit",
                                        **create}))  # fmt: skip
    table = out[0][1]["result"]["table"]
    messages = engine.handle(me, json.dumps({"type": "start", "table": table}))
    counts: dict[str, int] = {"preflop": 1}  # (the big blind is the bet)
    while messages:
        more = []
        for _, message in messages:
            if message.get("event") == "action" and message["action"]["kind"] in ("bet", "raise"):
                street = message["action"]["street"]
                counts[street] = counts.get(street, 0) + 1
            if message.get("event") == "turn":
                legal = message["view"]["legal"]
                action = (
                    {"kind": legal["wager"], "to": legal["min_to"]}
                    if legal["wager"] is not None
                    else {"kind": "check" if legal["check"] else "call"}
                )
                more += engine.handle(me, json.dumps({"type": "act", "table": table,
                                                      "seat": message["seat"],
                                                      "action": action}))  # fmt: skip
        messages = more
    return max(counts.values())


def test_r08_holdem_engine_s_tables_take_the_cap() -> None:
    tournament = {"game": "tournament", "stack": 100_000,
                  "players": [{"name": "Ann"}, {"name": "Bob"}]}  # fmt: skip
    assert engine_raises(**tournament) == 4
    assert engine_raises(**tournament, raise_cap=4) == 5
    cash = {"small_blind": 5, "big_blind": 10, "max_buy_in": 1000, "seats": 2,
            "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]}  # fmt: skip
    assert engine_raises(**cash) > 4
    assert engine_raises(**cash, heads_up_cap="never") == 4


RAISER = f"cmd:{sys.executable} {Path(__file__).parent / 'data' / 'programs' / 'raiser.py'}"


def history_raises(folder: Path) -> int:
    """The most bets and raises of one betting round in the hands written to
    ``folder`` (preflop the big blind counts as the bet)."""
    most = 0
    for path in sorted(folder.iterdir()):
        for hand in read_hands(path):
            counts = [1]
            for move in hand.moves:
                if move.kind == DEAL_BOARD:
                    counts.append(0)
                elif move.kind == BET_RAISE:
                    counts[-1] += 1
            most = max(most, *counts)
    return most


def test_r08_holdem_simulate_caps_a_heads_up_freezeout_and_takes_the_policy(
    tmp_path: Path,
) -> None:
    """R8 from the command line: two programs that raise whenever they may
    play a fixed-limit freezeout capped at a bet and three raises; cash hands
    are uncapped heads-up unless ``--heads-up-cap never``."""
    runs = {
        "freezeout": ["--tournaments", "1"],
        "cash": ["--hands", "2"],
        "cash capped": ["--hands", "2", "--heads-up-cap", "never"],
        "freezeout of 4": ["--tournaments", "1", "--raise-cap", "4"],
    }
    most = {}
    for name, options in runs.items():
        folder = tmp_path / name.replace(" ", "-")
        args = ["simulate", "--seats", f"{RAISER},{RAISER}", "--structure", "fixed_limit",
                "--seed", "1", "--stack", "20", "--histories", str(folder), *options]  # fmt: skip
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        most[name] = history_raises(folder)
    assert most == {"freezeout": 4, "cash": most["cash"], "cash capped": 4, "freezeout of 4": 5}
    assert most["cash"] > 4


def test_r08_cap_options_at_a_table_that_is_not_fixed_limit_are_refused() -> None:
    for command in (["play"], ["simulate", "--seats", "easy,easy", "--hands", "1"],
                    ["join", "--create"]):  # fmt: skip
        result = CliRunner().invoke(main, [*command, "--heads-up-cap", "never"])
        assert result.exit_code == 2
        assert (
            "--heads-up-cap is for fixed-limit tables (--structure fixed_limit): a no_limit "
            "table has no cap" in result.output
        )


class Clock:
    """A clock the test moves (seconds)."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _facing_a_bet() -> LegalActions:
    """A menu with a call and no check (a timeout there folds or is protected)."""
    menu = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2),
                rng=1).legal_actions()  # fmt: skip
    assert menu is not None and not menu.check
    return menu


def test_r13_protections_are_counted_over_any_24_hours_not_by_the_calendar_day() -> None:
    """R13: two protections in any rolling 24 hours.  Counted by the calendar
    day, two at 23:50 and two more at 00:10 gave a player four in twenty
    minutes."""
    evening = datetime.datetime(2026, 3, 1, 23, 50).timestamp()
    wall = Clock(evening)
    timer = TurnTimer(TimerRules(10, policy="protect"), clock=Clock(), wall=wall)
    legal = _facing_a_bet()
    assert [timer.timeout("Ann", legal) for _ in range(3)] == [
        Decision.timeout(), Decision.timeout(), Decision.fold(),
    ]  # fmt: skip
    wall.now = evening + 20 * 60  # 00:10, the next day
    assert timer.protections_left("Ann") == 0
    assert timer.timeout("Ann", legal) == Decision.fold()
    wall.now = evening + 86_400 + 1  # 24 hours after the first two
    assert timer.protections_left("Ann") == 2
    assert timer.timeout("Ann", legal) == Decision.timeout()
    assert timer.protections_left("Ann") == 1 and timer.protections_left("Bob") == 2


def test_r13_an_operator_s_reset_gives_the_protections_back() -> None:
    wall = Clock(1_000_000.0)
    resets: dict[str, float] = {}
    timer = TurnTimer(TimerRules(10, policy="protect"), clock=Clock(), wall=wall,
                      resets=resets.get)  # fmt: skip
    legal = _facing_a_bet()
    timer.timeout("Ann", legal), timer.timeout("Ann", legal)
    assert timer.protections_left("Ann") == 0
    wall.now += 60
    resets["Ann"] = wall.now
    assert timer.protections_left("Ann") == 2
    assert timer.timeout("Ann", legal) == Decision.timeout()
    assert timer.protections_left("Ann") == 1


def test_r13_a_snapshot_keeps_when_each_protection_was_used() -> None:
    wall = Clock(2_000_000.0)
    timer = TurnTimer(TimerRules(10, policy="protect"), clock=Clock(), wall=wall)
    timer.timeout("Bob", _facing_a_bet())
    data = json.loads(json.dumps(timer.snapshot()))
    assert data["protections"] == [{"player": "Bob", "at": 2_000_000.0}]
    again = TurnTimer.from_snapshot(data, wall=wall)
    assert again.protections_left("Bob") == 1 and again.snapshot() == data
    wall.now += 86_400
    assert again.protections_left("Bob") == 2 and again.snapshot()["protections"] == []
    # a snapshot of a timer that counted by the calendar day: used at its start
    day = datetime.date(2026, 3, 1)
    data["protections"] = [{"player": "Bob", "day": day.isoformat(), "used": 2}]
    start = datetime.datetime.combine(day, datetime.time()).timestamp()
    for now, left in ((start + 3600, 0), (start + 86_400 + 1, 2)):
        assert TurnTimer.from_snapshot(data, wall=Clock(now)).protections_left("Bob") == left


def test_r13_no_protection_is_spent_by_a_player_with_nothing_in_the_pot() -> None:
    """R13: a protection is spent only where it protects something.  The
    button, who has put nothing in, times out facing the big blind: it folds
    and keeps its protections (before, it spent one); the big blind, who has
    chips in, times out facing a raise and is protected."""
    clock = Clock()
    rules = TimerRules(seconds=10, policy="protect", free_seat_after=None)
    table = Table(3, small_blind=1, big_blind=2, rng=2, button=0,
                  timer=TurnTimer(rules, clock=clock, wall=Clock(5_000_000.0)))  # fmt: skip
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        table.sit(seat, name, 100)
    assert table.timer is not None

    def player(view: PlayerView, legal: LegalActions) -> Decision:
        if view.seat == 1:
            return Decision.raise_to(6)  # (the small blind raises)
        clock.now += 11  # (the button, then the big blind, drop out)
        return Decision.check() if legal.check else Decision.call()

    result = table.play_hand(player)
    by = {seat: [a.kind for a in result.played.log if a.seat == seat] for seat in (0, 2)}
    assert ActionKind.FOLD in by[0] and ActionKind.TIMEOUT not in by[0]
    assert ActionKind.TIMEOUT in by[2]
    assert table.timer.protections_left("Ann") == 2
    assert table.timer.protections_left("Cid") == 1


def folder_then_raiser(view: PlayerView, legal: LegalActions) -> Decision:
    """Seat 0 folds, seat 1 raises, the others fold: seat 1 wins uncontested."""
    if view.seat == 1 and legal.wager is not None and legal.min_to is not None:
        return Decision(legal.wager, legal.min_to)
    return Decision.check() if legal.check else Decision.fold()


def test_r10_a_table_lets_a_player_show_after_folding_or_winning_uncontested() -> None:
    """R10: after the hand a player who folded, or who won uncontested, may show
    their cards where the table allows it (the default); the show is told
    (``cards_shown``) and is in the hand's history."""
    table = Table(3, small_blind=1, big_blind=2, rng=5, button=0)
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        table.sit(seat, name, 100)
    told: list[Event] = []
    table.subscribe(told.append, kinds=[CardsShown])
    with pytest.raises(TableError, match="no hand has ended here since the table was made"):
        table.show_cards(0)
    result = table.play_hand(folder_then_raiser)
    assert result.outcome.net[0] == 0 and result.outcome.net[1] > 0
    for seat in (0, 1):  # (the folder, then the winner)
        record = table.show_cards(seat)
        assert record.cards == result.played.hole_cards(seat)
    assert [(e.hand, e.seat, e.name, e.action.cards) for e in told] == [  # type: ignore[union-attr]
        (1, 0, "Ann", result.played.hole_cards(0)), (1, 1, "Bob", result.played.hole_cards(1)),
    ]  # fmt: skip
    assert [e.to_dict()["event"] for e in told] == ["cards_shown"] * 2
    history = record_of(result)
    # (the history's players from the small blind: Bob first, Ann last)
    assert [(m.kind, m.actor, m.cards) for m in history.moves[-2:]] == [
        ("show", 2, result.played.hole_cards(0)), ("show", 0, result.played.hole_cards(1)),
    ]  # fmt: skip
    with pytest.raises(TableError, match="their cards are shown already"):
        table.show_cards(1)
    closed = Table(3, small_blind=1, big_blind=2, rng=5, show_after_hand=False)
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        closed.sit(seat, name, 100)
    closed.play_hand(folder_then_raiser)
    with pytest.raises(TableError, match="does not let players show their cards after the hand"):
        closed.show_cards(0)
    again = Table.from_snapshot(json.loads(json.dumps(closed.snapshot())))
    assert (again.show_after_hand, again.aggressor_may_muck) == (False, False)


def record_of(result: HandResult) -> Any:
    """A hand's history as a player reads it: the cards shown, no others."""
    return record(result.played, show_all=False)


def test_r10_a_table_s_hands_carry_its_reading_of_the_river_aggressor_s_muck() -> None:
    for option in (False, True):
        table = Table(2, small_blind=1, big_blind=2, rng=1, aggressor_may_muck=option)
        table.sit(0, "Ann", 100)
        table.sit(1, "Bob", 100)
        assert table.play_hand(raiser).played.config.aggressor_may_muck is option


def test_r10_cards_shown_after_the_hand_go_into_both_histories() -> None:
    """R10: the shows after the hand are in the hand's history, PHH (``sm``:
    the uncontested winner's in ``actions``, which PokerKit replays; the
    folder's, which PokerKit refuses, in ``_after_hand``) and PokerStars text
    (``shows`` lines; the folder's summary says the fold), and each reads
    back with them, clean."""
    import io

    from holdem.histories import (
        PhhWriter,
        PokerStarsWriter,
        read_phh_text,
        read_pokerstars_text,
        validate,
    )

    table = Table(3, small_blind=1, big_blind=2, rng=5, button=0)
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        table.sit(seat, name, 100)
    result = table.play_hand(folder_then_raiser)
    table.show_cards(0)
    table.show_cards(1)
    history = record(result.played, show_all=False, hand_id="1")
    shows = [(m.kind, m.actor, m.cards) for m in history.moves if m.kind == "show"]
    phh, stars = io.StringIO(), io.StringIO()
    PhhWriter(phh, many=False).write(history)
    PokerStarsWriter(stars).write(history)
    assert '_after_hand = ["p3 sm ' in phh.getvalue()  # (Ann, who folded)
    assert "Ann: shows [" in stars.getvalue() and "Bob: shows [" in stars.getvalue()
    assert "Seat 1: Ann (button) folded before Flop" in stars.getvalue()
    for text, read in ((phh.getvalue(), read_phh_text), (stars.getvalue(), read_pokerstars_text)):
        [back] = list(read(text))
        assert validate(back) == []
        assert [(m.kind, m.actor, m.cards) for m in back.moves if m.kind == "show"] == shows
    pokerkit = pytest.importorskip("pokerkit")
    only_winner = Table(3, small_blind=1, big_blind=2, rng=5, button=0)
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        only_winner.sit(seat, name, 100)
    won = only_winner.play_hand(folder_then_raiser)
    only_winner.show_cards(1)
    for hand in (result, won):
        out, written = io.StringIO(), record(hand.played, show_all=False)
        PhhWriter(out, many=False).write(written)
        states = list(pokerkit.HandHistory.loads(out.getvalue()))
        assert tuple(int(s) for s in states[-1].stacks) == written.claims.finishing_stacks


def test_r10_holdem_engine_s_show_request_shows_a_seat_s_cards_after_the_hand() -> None:
    """R10 in ``holdem engine``: ``show`` (table, seat) after the hand tells
    every client of the table ``cards_shown``; a table made with
    ``"show_after_hand": false`` refuses it, saying why."""
    for allowed in (True, False):
        engine = Engine()
        me, other = engine.connect(), engine.connect()
        for client in (me, other):
            engine.handle(client, json.dumps({"type": "hello", "version": 1}))
        players = [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]
        out = engine.handle(me, json.dumps({"type": "create_table", "small_blind": 1,
                                            "big_blind": 2, "seats": 2, "players": players,
                                            "show_after_hand": allowed, "seed": 3}))  # fmt: skip
        table = out[0][1]["result"]["table"]
        engine.handle(other, json.dumps({"type": "watch", "table": table}))
        messages = engine.handle(me, json.dumps({"type": "start", "table": table}))
        turn = next(m for _, m in messages if m.get("event") == "turn")
        engine.handle(me, json.dumps({"type": "act", "table": table, "seat": turn["seat"],
                                      "action": {"kind": "fold"}}))  # fmt: skip
        shown = engine.handle(me, json.dumps({"id": 5, "type": "show", "table": table,
                                              "seat": turn["seat"]}))  # fmt: skip
        reply = shown[0][1]
        if not allowed:
            assert reply["error"]["code"] == "table_error"
            refusal = f"table {table}: this table does not let players show their cards after"
            assert reply["error"]["message"] == f"{refusal} the hand"
            continue
        assert reply["result"]["seat"] == turn["seat"] and reply["result"]["hand"] == 1
        told = [(client, m) for client, m in shown[1:] if m.get("event") == "cards_shown"]
        assert {client for client, _ in told} == {me, other}
        assert all(m["action"]["cards"] == reply["result"]["cards"] for _, m in told)


def test_r10_holdem_play_s_show_word_shows_your_cards_of_the_last_hand(tmp_path: Path) -> None:
    """R10 in ``holdem play``: ``show`` at your turn shows your cards of the
    last hand (you folded it) to the table; before any hand is over it says
    why not."""
    result = CliRunner().invoke(
        main,
        ["play", "--speed", "0", "--histories", str(tmp_path / "hands"), "--seats", "3",
         "--seed", "4", "--bots", "calling-station", "--game", "cash", "--hands", "2"],
        input="show\nf\nshow\nf\nf\nf\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Not shown: no hand has ended here since the table was made" in out
    cards = re.search(r"Your cards: (\S+ \S+)", out)
    assert cards is not None
    assert f"[hand 1] You show {cards.group(1)} after the hand" in out
