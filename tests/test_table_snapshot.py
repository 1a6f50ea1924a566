"""Snapshots: a table, a cash game or a tournament between hands as JSON data,
and the same game made again from it (Table.snapshot / from_snapshot).

The main property: a game made again from the JSON round trip of its
snapshot, dealing from the same new random generator as the original
(``reseed``), plays the same hands as the original given the same decisions:
the same results, logs, configurations and events, to the same end."""

from __future__ import annotations

import copy
import datetime
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import ActionKind, Decision, Hand, HandConfig, LegalActions, PlayerView
from holdem.errors import ConfigError, HoldemError, TableError, WireError
from holdem.table import (
    CashGame,
    Event,
    HandResult,
    Rake,
    Schedule,
    SeatFreed,
    Standings,
    Table,
    TimerRules,
    Tournament,
    TurnTimer,
)

Game = Table | CashGame | Tournament
KINDS = ("table", "tournament_table", "cash", "tournament")
#: The wall clock's seconds the protections are counted by (R13: any 24 hours).
NOW = datetime.datetime(2024, 6, 1, 12, 0).timestamp()
ROOT = {Table: "table", CashGame: "cash_game", Tournament: "tournament"}


class Clock:
    """A clock the test moves (the game's and the timer's)."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def table_of(game: Game) -> Table:
    return game if isinstance(game, Table) else game.table


def round_trip(data: dict[str, Any]) -> dict[str, Any]:
    """The JSON round trip of a snapshot (refusing NaN and infinities)."""
    text = json.dumps(data, allow_nan=False)
    back: dict[str, Any] = json.loads(text)
    assert back == data  # only JSON types: no tuples, no int keys
    return back


# --- games and a driver that plays them at random -----------------------------------------


def new_game(kind: str, seats: int, seed: int) -> tuple[Game, Clock]:
    """A random game of ``kind`` at ``seats`` seats, and its clock."""
    rng = random.Random(seed)
    clock = Clock()
    timer = None
    if rng.random() < 0.6:
        rules = TimerRules(
            seconds=10,
            time_bank=rng.choice([0, 5, 20]),
            policy=rng.choice(["check_fold", "protect"]),
            protections_per_day=rng.choice([0, 1, 2]),
            free_seat_after=rng.choice([None, 1, 2, 3]),
        )
        timer = TurnTimer(rules, clock=clock, wall=lambda: NOW)
    policy = rng.choice(["dead", "moving"])
    game: Game
    if kind == "tournament":
        players = rng.randint(2, seats)
        schedule = rng.choice([None, Schedule.parse("@4h, 10/20, 20/40/5, 30/60/60bba"),
                               Schedule.parse("@2m, 10/20, 25/50, stay")])  # fmt: skip
        game = Tournament([f"T{i}" for i in range(players)], stack=rng.choice([60, 200, 800]),
                          seats=seats, schedule=schedule, button_policy=policy,  # type: ignore[arg-type]
                          button=rng.randrange(players), timer=timer, clock=clock,
                          rng=rng.getrandbits(32))  # fmt: skip
        return game, clock
    if kind == "cash":
        game = CashGame(seats, small_blind=1, big_blind=2, min_buy_in=20, max_buy_in=300,
                        rake=rng.choice([None, Rake(5, cap=3), Rake(Fraction(10, 3))]),
                        button_policy=policy, max_hands=rng.choice([None, 500]),  # type: ignore[arg-type]
                        max_seconds=rng.choice([None, 10**7]), clock=clock, timer=timer,
                        rng=rng.getrandbits(32))  # fmt: skip
        for seat in range(seats):
            if rng.random() < 0.8:
                game.join(seat, f"S{seat}", rng.randint(20, 300))
        return game, clock
    sb, bb, ante = rng.choice([(1, 2, 0), (5, 10, 1), (2, 5, 0)])
    game = Table(seats, small_blind=sb, big_blind=bb, ante=ante, button_policy=policy,  # type: ignore[arg-type]
                 tournament=kind == "tournament_table", rng=rng.getrandbits(32),
                 button=rng.choice([None, rng.randrange(seats)]), timer=timer,
                 rake=rng.choice([None, Rake(5, cap=3)]) if kind == "table" else None)  # fmt: skip
    for seat in range(seats):
        if rng.random() < 0.8:
            game.sit(seat, f"S{seat}", rng.randint(1, 300))
    return game, clock


class Driver:
    """Plays a game hand after hand with random decisions, random changes
    between hands (cash: seats taken and freed, sit-outs and comebacks,
    top-ups and rebuys; tournaments: comebacks) and during them, some hands
    by ``play_hand`` and some decision by decision (``act``, ``time_out``).
    Everything comes from ``rng``: two drivers of equal games and rngs play
    the same."""

    def __init__(self, game: Game, clock: Clock, rng: random.Random) -> None:
        self.game, self.table, self.clock, self.rng = game, table_of(game), clock, rng
        self.seen: Counter[str] = Counter()  # what happened (coverage)
        self.rake = 0

    @property
    def cash(self) -> bool:
        return not self.table.tournament

    def over(self) -> bool:
        game = self.game
        if isinstance(game, Tournament):
            return game.finished
        if isinstance(game, CashGame) and game.over:
            return True
        return not self.table.can_deal() and not self.cash

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        """A random legal decision, taking a random time (some come too late)."""
        rng = self.rng
        self.clock.now += rng.choice([0, 1, 4, 9, 14, 40])
        roll = rng.random()
        if legal.all_in is not None and roll < 0.05:
            return Decision.all_in()
        if legal.wager is not None and legal.min_to is not None and roll < 0.2:
            assert legal.max_to is not None
            return Decision(legal.wager, rng.randint(legal.min_to, legal.max_to))
        if legal.call is not None and roll < 0.6:
            return Decision.call()
        return legal.check_or_fold()

    def round(self) -> HandResult | None:
        """Changes between hands, then a hand (None: none could be dealt)."""
        self.between()
        if self.over() or not self.table.can_deal():
            return None
        game = self.game
        if isinstance(game, Tournament) and game.schedule.by_minutes:
            self.clock.now += self.rng.choice([0, 20, 45])  # (the levels by minutes go up)
        whole = self.rng.random() < 0.5  # (else decision by decision)
        result = game.play_hand(self.decide) if whole else self.step_by_step()  # type: ignore[arg-type]
        self.note(result)
        return result

    def step_by_step(self) -> HandResult:
        """A hand decision by decision, as a caller keeping the clock does, with
        requests during it (they wait for its end)."""
        game, table, rng = self.game, self.table, self.rng
        hand = table.start_hand() if isinstance(game, Table) else game.start_hand()
        while not hand.done:
            seat = hand.actor
            legal = hand.legal_actions()
            assert seat is not None and legal is not None
            if seat in table.away:
                table.act(legal.check_or_fold())
            elif rng.random() < 0.12:
                table.time_out()
                self.seen["time_out"] += 1
            else:
                table.act(self.decide(hand.view(seat), legal))
            if self.cash and rng.random() < 0.08:
                self.request_during_hand()
        return game.finish_hand() if isinstance(game, Tournament) else table.finish_hand()

    def request_during_hand(self) -> None:
        seat = self.rng.choice(sorted(self.table.seats))
        what = self.rng.choice(["leave", "sit_out", "add_chips"])
        try:
            if what == "add_chips":
                done = self.add_chips(seat, self.rng.randint(1, 100))
            else:
                done = getattr(self.table, what)(seat)
        except TableError:
            return
        if not done:
            self.seen["deferred"] += 1

    def add_chips(self, seat: int, chips: int) -> bool:
        game = self.game
        if isinstance(game, CashGame):
            return game.add_chips(seat, chips)
        return self.table.add_chips(seat, chips)

    def between(self) -> None:
        table, rng = self.table, self.rng
        for seat in sorted(table.away):
            if rng.random() < 0.3:
                table.come_back(seat)
        if not self.cash:
            return
        for seat in range(table.max_seats):
            state, roll = table.seat(seat), rng.random()
            if state is None:
                if roll < 0.1:
                    self.sit(seat, rng.randint(20, 300), post=rng.random() < 0.5)
            elif roll < 0.03:
                table.leave(seat)
            elif not state.chips:
                if roll < 0.5:
                    self.add_chips(seat, rng.randint(20, 200))  # a rebuy
                    self.seen["rebuy"] += 1
            elif roll < 0.09 and state.status == "playing":
                table.sit_out(seat)
            elif roll < 0.3 and state.status == "sitting_out":
                table.sit_in(seat, post=rng.random() < 0.5)
            elif roll < 0.33 and state.chips < 250:
                self.add_chips(seat, rng.randint(1, 300 - state.chips))

    def sit(self, seat: int, chips: int, *, post: bool) -> None:
        name = f"P{self.table.hands_played}.{seat}"  # (a name nobody at the table has)
        if isinstance(self.game, CashGame):
            self.game.join(seat, name, chips, post=post)
        else:
            self.table.sit(seat, name, chips, post=post)

    def note(self, result: HandResult) -> None:
        table, seen = self.table, self.seen
        self.rake += result.rake
        seen["hands"] += 1
        seen["busts"] += bool(result.busted)
        seen["dead_button"] += not result.plan.dealt_button
        seen["missed"] += any(s.missed_big or s.missed_small for s in table.seats.values())
        seen["sitting_out"] += any(s.status == "sitting_out" for s in table.seats.values())
        seen["away"] += bool(table.away)
        seen["protected"] += any(a.kind is ActionKind.TIMEOUT for a in result.played.log)
        timer = table.timer
        if timer is not None:
            seen["timeouts"] += any(timer.in_a_row(s.name) for s in table.seats.values())


def record(result: HandResult | None) -> Any:
    """Everything of a played hand that two equal games must share."""
    if result is None:
        return None
    played = result.played
    return (result._replace(played=None), played.config, played.log, played.board,
            played.outcome)  # fmt: skip


def restore(game: Game, data: dict[str, Any], seed: int, clock: Clock) -> Game:
    """``game``'s kind made again from ``data``, dealing from Random(seed), its
    clocks on ``clock`` (a timer of the snapshot's rules on it)."""
    table_data = data if isinstance(game, Table) else data["table"]
    timer = None
    if table_data["timer"] is not None:
        rules = TimerRules.from_dict(table_data["timer"]["rules"])
        timer = TurnTimer(rules, clock=clock, wall=lambda: NOW)
    rng = random.Random(seed)
    if isinstance(game, Table):
        return Table.from_snapshot(data, rng=rng, timer=timer)
    return type(game).from_snapshot(data, rng=rng, timer=timer, clock=clock)


def chips_out_of_play(table: Table) -> int:
    """Chips brought to the table that are not on it nor taken away: the rake."""
    ledger = table.ledger().values()
    on_table = sum(s.chips for s in table.seats.values())
    return sum(e.brought for e in ledger) - sum(e.taken for e in ledger) - on_table


def play_on(game: Game, clock: Clock, seed: int, hands: int) -> Driver:
    driver = Driver(game, clock, random.Random(seed))
    for _ in range(hands):
        if driver.over():
            break
        driver.round()
    return driver


def assert_entries_written_as_their_fields_say(table: Table) -> None:
    """A snapshot's players and ledger are written at once (a literal each), as
    the generic writer of their fields writes them."""
    from holdem.table import snapshot as snap
    from holdem.table.table import _LEDGER_FIELDS, _PLAYER_FIELDS

    data = table.snapshot()
    assert data["players"] == [
        snap.write((seat, table._seats[seat]), _PLAYER_FIELDS) for seat in sorted(table._seats)
    ]
    assert data["ledger"] == [snap.write(e, _LEDGER_FIELDS) for e in table.ledger().items()]
    assert [list(entry) for entry in data["players"]] == [
        [f.name for f in _PLAYER_FIELDS] for _ in data["players"]
    ]


def resumed_plays_the_same(
    kind: str, seats: int, seed: int, before: int, after: int
) -> Counter[str]:
    """The main property, for one game: what its driver saw."""
    game, clock = new_game(kind, seats, seed)
    first = play_on(game, clock, seed + 1, before)
    data = round_trip(game.snapshot())
    assert_entries_written_as_their_fields_say(table_of(game))
    clock2 = Clock(clock.now)
    again = restore(game, data, seed + 2, clock2)
    assert type(again) is type(game)
    assert again.snapshot() == data  # (the state made again is the state)
    table_of(game).reseed(random.Random(seed + 2))
    events: tuple[list[Event], list[Event]] = ([], [])
    table_of(game).subscribe(events[0].append)
    table_of(again).subscribe(events[1].append)
    one = Driver(game, clock, random.Random(seed + 3))
    two = Driver(again, clock2, random.Random(seed + 3))
    out_before = chips_out_of_play(table_of(again))
    for _ in range(after):
        if one.over():
            assert two.over()
            break
        assert record(one.round()) == record(two.round())
    assert events[0] == events[1]
    assert game.snapshot() == again.snapshot()
    if isinstance(game, Tournament):
        assert game.finished == again.finished  # type: ignore[union-attr]
        if game.finished:
            assert game.result() == again.result()  # type: ignore[union-attr]
    # chips: none made or lost (the rake aside)
    assert chips_out_of_play(table_of(game)) == first.rake + one.rake
    assert chips_out_of_play(table_of(again)) - out_before == two.rake
    if isinstance(game, CashGame):
        assert game.results() == again.results()  # type: ignore[union-attr]
    return first.seen + one.seen


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(KINDS),
    st.integers(2, 10),
    st.integers(0, 2**32),
    st.integers(0, 30),
    st.integers(1, 25),
)
def test_a_game_made_again_from_its_snapshot_plays_the_same_hands(
    kind: str, seats: int, seed: int, before: int, after: int
) -> None:
    resumed_plays_the_same(kind, seats, seed, before, after)


def test_the_random_games_see_everything_a_snapshot_must_carry() -> None:
    """The property's games meet what the snapshot carries: missed blinds,
    sit-outs, busts, rebuys, timeouts (late, told, protected), players away,
    requests deferred during a hand, dead buttons."""
    seen: Counter[str] = Counter()
    for seed in range(40):
        kind, seats = KINDS[seed % 4], 2 + seed % 9
        seen += resumed_plays_the_same(kind, seats, seed * 7919, 20, 20)
    wanted = ["missed", "sitting_out", "busts", "rebuy", "timeouts", "time_out", "protected",
              "away", "deferred", "dead_button"]  # fmt: skip
    assert all(seen[what] for what in wanted), seen


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32), st.integers(0, 60))
def test_a_tournament_made_again_mid_way_ends_with_the_same_result(
    seats: int, seed: int, before: int
) -> None:
    game, clock = new_game("tournament", seats, seed)
    assert isinstance(game, Tournament)
    play_on(game, clock, seed + 1, before)
    clock2 = Clock(clock.now)
    again = restore(game, round_trip(game.snapshot()), seed, clock2)
    assert isinstance(again, Tournament)
    game.table.reseed(seed)
    one, two = Driver(game, clock, random.Random(seed)), Driver(again, clock2, random.Random(seed))
    while not game.finished:
        assert record(one.round()) == record(two.round())
        assert game.table.hands_played < 3000
    assert again.finished and game.result() == again.result()
    assert game.level_index == again.level_index


# --- between hands only ------------------------------------------------------------------


def folder(view: PlayerView, legal: LegalActions) -> Decision:
    return legal.check_or_fold()


def test_a_snapshot_is_taken_between_hands_only() -> None:
    games: list[Game] = [new_game(kind, 4, 3)[0] for kind in KINDS]
    for game in games:
        before = game.snapshot()  # before the first hand
        table = table_of(game)
        hand = table.start_hand() if isinstance(game, Table) else game.start_hand()
        with pytest.raises(TableError, match="a hand is being played"):
            game.snapshot()
        while not hand.done:
            legal = hand.legal_actions()
            assert legal is not None
            table.act(legal.check_or_fold())
        with pytest.raises(TableError, match="a hand is being played"):
            game.snapshot()  # (over, but not finished: the stacks not carried yet)
        game.finish_hand() if isinstance(game, Tournament) else table.finish_hand()
        after = game.snapshot()
        table_after = after if isinstance(game, Table) else after["table"]
        table_before = before if isinstance(game, Table) else before["table"]
        assert table_after["hands_played"] == table_before["hands_played"] + 1


def test_changes_asked_during_a_hand_are_done_when_a_snapshot_can_be_taken() -> None:
    game = CashGame(small_blind=1, big_blind=2, min_buy_in=50, max_buy_in=300, rng=4)
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        game.join(seat, name, 100)
    hand = game.start_hand()
    assert game.add_chips(0, 50) is False and game.leave(1) is False
    assert game.table.sit_out(2) is False
    while not hand.done:
        legal = hand.legal_actions()
        assert legal is not None
        game.table.act(legal.check_or_fold())
    game.table.finish_hand()
    again = CashGame.from_snapshot(round_trip(game.snapshot()), rng=1)
    assert again.table.seats == game.table.seats and 1 not in again.table.seats
    assert again.table.seats[2].status == "sitting_out"
    assert again.results() == game.results()
    assert again.results()["Ann"].bought_in == 150 and again.results()["Bob"].hands == 1


# --- what a snapshot holds ---------------------------------------------------------------


def test_a_table_snapshot_names_its_fields() -> None:
    table = Table(seats=6, small_blind=1, big_blind=2, rng=7, rake=Rake(5, cap=3))
    for seat, name in ((0, "Ann"), (2, "Bob"), (3, "Cid")):
        table.sit(seat, name, 200)
    data = table.snapshot()
    assert list(data) == ["version", "seats", "blinds", "structure", "raise_cap",
                          "heads_up_cap", "show_after_hand", "aggressor_may_muck",
                          "button_policy", "tournament", "rake", "button", "positions",
                          "hands_played", "players", "away", "ledger", "timer",
                          "timeout_counts", "run_it_twice", "twice_declined", "unit"]  # fmt: skip
    assert data["positions"] is None and data["hands_played"] == 0
    table.play_hand(folder)
    data = table.snapshot()
    assert data["positions"] == {"button": 0, "small_blind": 2, "big_blind": 3}
    assert data["players"][1] == {"seat": 2, "name": "Bob", "chips": data["players"][1]["chips"],
                                  "status": "playing", "missed_small": False,
                                  "missed_big": False, "new": False}  # fmt: skip
    assert data["ledger"][0] == {"name": "Ann", "brought": 200, "taken": 0, "hands": 1}
    assert data["rake"] == {"percent": 5, "cap": 3}


def test_a_table_made_again_without_a_timer_gets_one_of_the_snapshots_rules() -> None:
    clock = Clock()
    rules = TimerRules(seconds=10, time_bank=30, policy="protect", protections_per_day=1)
    table = Table(seats=3, small_blind=1, big_blind=2, rng=1,
                  timer=TurnTimer(rules, clock=clock, wall=lambda: NOW))  # fmt: skip
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        table.sit(seat, name, 100)

    def slow(view: PlayerView, legal: LegalActions) -> Decision:
        clock.now += 25  # 15 seconds of the bank
        return Decision.all_in() if legal.all_in is not None else legal.check_or_fold()

    table.play_hand(slow)
    again = Table.from_snapshot(round_trip(table.snapshot()))
    assert again.timer is not None and again.timer.rules == rules
    for name in ("Ann", "Bob", "Cid"):
        assert again.timer.bank(name) == table.timer.bank(name)  # type: ignore[union-attr]
    assert any(again.timer.bank(name) < 30 for name in ("Ann", "Bob", "Cid"))


def test_a_timer_snapshot_keeps_banks_timeouts_and_when_protections_were_used() -> None:
    clock, wall = Clock(), [NOW]
    timer = TurnTimer(TimerRules(10, time_bank=5, policy="protect"), clock=clock,
                      wall=lambda: wall[0])  # fmt: skip
    legal = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2),
                 rng=1).legal_actions()  # fmt: skip
    assert legal is not None and not legal.check  # (a timeout does not check)
    timer.start("Ann")
    clock.now = 12.0
    assert timer.stop("Ann") and timer.bank("Ann") == 3.0
    assert timer.timeout("Bob", legal) == Decision.timeout()
    wall[0] = NOW + 86_400  # (24 hours later: that one counts no more)
    assert timer.timeout("Bob", legal) == Decision.timeout()
    assert timer.timeout("Bob", legal) == Decision.timeout()
    data = round_trip(timer.snapshot())
    assert data["protections"] == [{"player": "Bob", "at": NOW + 86_400}] * 2
    again = TurnTimer.from_snapshot(data, clock=clock, wall=lambda: wall[0])
    assert again.snapshot() == data
    assert again.protections_left("Bob") == 0 and again.in_a_row("Bob") == 3
    assert again.bank("Ann") == 3.0 and again.bank("Cid") == 5.0
    other = TurnTimer(TimerRules(20), clock=clock)
    other.restore(data)  # the players' clocks, its own rules
    assert other.rules == TimerRules(20) and other.in_a_row("Bob") == 3


@pytest.mark.parametrize(
    "rake", [Rake(5, cap=3), Rake(2.5), Rake(Fraction(10, 3), cap=0), Rake(Fraction(4)), Rake(0.1)]
)
def test_a_rake_reads_back_from_its_wire_form(rake: Rake) -> None:
    again = Rake.from_dict(round_trip(rake.to_dict()))
    assert again.rate == rake.rate and again.cap == rake.cap


def test_standings_read_back_and_their_places_are_checked() -> None:
    standings = Standings(["ann", "bob", "cid", "dan"])
    standings.record_hand(3, {"bob": 40, "cid": 40}, ["bob", "cid"], {"bob": ("ann",)})
    standings.record_hand(9, {}, [], {})
    data = round_trip(standings.to_dict())
    again = Standings.from_dict(data)
    assert again.to_dict() == data and again.remaining == ("ann", "dan")
    assert again.last_hand == 9
    wrong = copy.deepcopy(data)
    wrong["out"][1]["place"] = 4  # a tie shares the better place
    with pytest.raises(ConfigError, match=r"standings\.out") as info:
        Standings.from_dict(wrong)
    assert info.value.field == "standings.out"
    wrong = copy.deepcopy(data)
    wrong["out"][0]["elimination"]["eliminated_by"] = ["cid"]  # out too on that hand
    with pytest.raises(ConfigError, match=r"standings\.out: .*'cid' won 'bob'"):
        Standings.from_dict(wrong)
    wrong["out"][0]["elimination"]["eliminated_by"] = ["bob"]
    with pytest.raises(ConfigError) as info:
        Standings.from_dict(wrong)
    assert info.value.field == "standings.out[0].elimination.eliminated_by"
    wrong = copy.deepcopy(data)
    wrong["hands"] = 2
    with pytest.raises(ConfigError, match=r"standings\.hands"):
        Standings.from_dict(wrong)


# --- malformed snapshots -----------------------------------------------------------------


#: Seeds of played games with a timer, three players or more, five hands
#: played or more (a cash game with a rake; a tournament with players out, at
#: its second level or later)
SEEDS = {"table": 1, "tournament_table": 1, "cash": 1, "tournament": 3}


def played_snapshot(kind: str, seed: int = 5, hands: int = 12) -> tuple[Game, dict[str, Any]]:
    game, clock = new_game(kind, 6, seed)
    play_on(game, clock, seed, hands)
    return game, round_trip(game.snapshot())


def load(kind: str, data: Any) -> Game:
    if kind in ("table", "tournament_table"):
        return Table.from_snapshot(data, rng=1)
    if kind == "cash":
        return CashGame.from_snapshot(data, rng=1, clock=Clock())
    return Tournament.from_snapshot(data, rng=1, clock=Clock())


def changed(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    change(data)
    return data


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Sets the field at a dotted ``path`` (list items by number)."""
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]

    def change(data: Any) -> None:
        for part in parents:
            data = data[part]
        if value is _DELETE:
            del data[last]
        else:
            data[last] = value

    return change


_DELETE = object()

#: (kind, the field changed, its new value, the error, the field it names)
MALFORMED = [
    ("table", "seats", _DELETE, WireError, "table.seats"),
    ("table", "seats", "6", WireError, "table.seats"),
    ("table", "seats", 11, WireError, "table.seats"),
    ("table", "version", 2, WireError, "table.version"),
    ("table", "extra", 1, WireError, "table.extra"),
    ("table", "players.0.seat", 7, ConfigError, "table.players[0].seat"),
    ("table", "players.0.chips", -5, WireError, "table.players[0].chips"),
    ("table", "players.0.chips", 1.5, WireError, "table.players[0].chips"),
    ("table", "players.0.status", "asleep", WireError, "table.players[0].status"),
    ("table", "players.0.name", " ", WireError, "table.players[0].name"),
    ("table", "players.0.missed_big", _DELETE, WireError, "table.players[0].missed_big"),
    ("table", "players", {}, WireError, "table.players"),
    ("table", "positions.button", 6, ConfigError, "table.positions.button"),
    ("table", "positions", None, ConfigError, "table.positions"),
    ("table", "hands_played", -1, WireError, "table.hands_played"),
    ("table", "blinds.small_blind", 500, ConfigError, "table.blinds.small_blind"),
    ("table", "blinds", [], WireError, "table.blinds"),
    ("table", "structure", "no_limits", WireError, "table.structure"),
    ("table", "button_policy", "live", WireError, "table.button_policy"),
    ("table", "raise_cap", -1, WireError, "table.raise_cap"),
    ("table", "heads_up_cap", "sometimes", WireError, "table.heads_up_cap"),
    ("table", "show_after_hand", "yes", WireError, "table.show_after_hand"),
    ("table", "rake", {"percent": 120, "cap": None}, ConfigError, "table.rake.percent"),
    ("table", "rake", {"percent": "x", "cap": None}, WireError, "table.rake.percent"),
    ("table", "away", [9], ConfigError, "table.away[0]"),
    ("table", "ledger", [], ConfigError, "table.players[0].name"),
    ("table", "ledger.0.brought", None, WireError, "table.ledger[0].brought"),
    ("table", "timer", {"rules": {}}, WireError, "table.timer.rules.seconds"),
    ("table", "timer.rules.seconds", 0, ConfigError, "table.timer.rules.seconds"),
    ("table", "timer.banks", {"Ann": -1}, WireError, "table.timer.banks.Ann"),
    ("table", "timer.protections", [{"player": "A", "day": "June", "used": 1}], WireError,
     "table.timer.protections[0].day"),
    ("tournament_table", "players.0.chips", 0, ConfigError, "table.players[0].chips"),
    ("cash", "min_buy_in", 400, ConfigError, "cash_game.min_buy_in"),
    ("cash", "max_hands", 0, WireError, "cash_game.max_hands"),
    ("cash", "seconds", float("nan"), WireError, "cash_game.seconds"),
    ("cash", "table.tournament", True, ConfigError, "cash_game.table.tournament"),
    ("cash", "table", None, WireError, "cash_game.table"),
    ("tournament", "stack", 0, WireError, "tournament.stack"),
    ("tournament", "level", 3, ConfigError, "tournament.level"),
    ("tournament", "schedule.levels", [], ConfigError, "tournament.schedule.levels"),
    ("tournament", "standings.players", ["T0"], ConfigError, "tournament.standings.players"),
    ("tournament", "standings.hands", 10**6, ConfigError, "tournament.standings.hands"),
    ("tournament", "table.tournament", False, ConfigError, "tournament.table.tournament"),
    ("tournament", "table.players.0.name", "Zed", ConfigError,
     "tournament.table.players[0].name"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "path", "value", "error", "field"), MALFORMED)
def test_a_malformed_snapshot_is_refused_naming_the_field(
    kind: str, path: str, value: Any, error: type[Exception], field: str
) -> None:
    _, data = played_snapshot(kind, seed=SEEDS[kind])
    load(kind, data)  # (as it was: good)
    with pytest.raises(error) as info:
        load(kind, changed(data, _set(path, value)))
    assert info.value.field == field, info.value  # type: ignore[attr-defined]
    assert field in str(info.value)


def test_a_tournament_snapshot_seats_the_players_still_in_at_their_seats() -> None:
    _, data = played_snapshot("tournament", seed=SEEDS["tournament"])
    players = data["table"]["players"]
    players[0]["name"], players[1]["name"] = players[1]["name"], players[0]["name"]
    with pytest.raises(ConfigError, match="the players still in, at their seats") as info:
        load("tournament", data)
    assert info.value.field == "tournament.table.players"
    _, data = played_snapshot("tournament", seed=SEEDS["tournament"])
    out = data["standings"]["out"][0]["player"]
    data["table"]["players"][0]["name"] = out  # (in the ledger: they played)
    with pytest.raises(ConfigError, match="the players still in, at their seats"):
        load("tournament", data)


def test_the_malformed_cases_find_the_fields_they_change() -> None:
    """(The cases of the test above change fields that are there.)"""
    for kind, path, value, _, _ in MALFORMED:
        _, data = played_snapshot(kind, seed=SEEDS[kind])
        if path == "extra" or value is _DELETE:
            continue
        node: Any = data
        for part in path.split("."):
            node = node[int(part)] if part.isdigit() else node[part]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
NEAR = st.sampled_from([-1, 0, 1, 2, 5, 9, 10, 99, 10**17, "", "playing", [], {}, None, True])


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every node of a JSON value below it."""
    if isinstance(value, dict | list):
        items = value.items() if isinstance(value, dict) else enumerate(value)
    else:
        items = iter(())
    for key, item in items:
        yield (*prefix, key)
        yield from paths(item, (*prefix, key))


#: Snapshots of played games, by kind and seed, to mutate
SNAPSHOTS = {(kind, seed): played_snapshot(kind, seed=seed)[1] for kind in KINDS
             for seed in (5, SEEDS[kind])}  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(sorted(SNAPSHOTS)), st.data())
def test_a_mutated_snapshot_is_refused_by_a_wire_or_config_error_or_plays(
    choice: tuple[str, int], data: st.DataObject
) -> None:
    kind = choice[0]
    snapshot = copy.deepcopy(SNAPSHOTS[choice])
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(paths(snapshot))))
        parent: Any = snapshot
        for key in path[:-1]:
            parent = parent[key]
        how = data.draw(st.sampled_from(["delete", "replace", "near", "add", "twice"]))
        if how == "delete":
            del parent[path[-1]]
        elif how == "add" and isinstance(parent, dict):
            parent[data.draw(st.text(max_size=4))] = data.draw(JSON)
        elif how == "twice" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
        else:
            parent[path[-1]] = data.draw(NEAR if how == "near" else JSON)
    root = "table" if kind.endswith("table") else ROOT[CashGame if kind == "cash" else Tournament]
    try:
        game = load(kind, snapshot)
    except (ConfigError, WireError) as exc:
        assert exc.field is not None and exc.field.split(".")[0].split("[")[0] == root, exc
        assert exc.field in str(exc)
        return
    # accepted: a game that can be used
    round_trip(game.snapshot())
    table = table_of(game)
    try:
        if table.can_deal() and not (isinstance(game, Tournament) and game.finished):
            game.play_hand(folder)
            round_trip(game.snapshot())
    except HoldemError:
        pass  # (a game the data made may refuse to play: the session is over ...)


# --- the modules' examples ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["snapshot", "timer", "standings"])
def test_the_examples_of_the_snapshot_code_run(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(f"holdem.table.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_freed_seats_and_events_are_not_in_a_snapshot_but_told_again_as_they_happen() -> None:
    """Subscribers are not part of a snapshot: a table made again tells its
    events to the subscribers it is given."""
    table = Table(seats=3, small_blind=1, big_blind=2, rng=2)
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        table.sit(seat, name, 100)
    seen: list[Event] = []
    table.subscribe(seen.append)
    table.play_hand(folder)
    again = Table.from_snapshot(round_trip(table.snapshot()), rng=3)
    told: list[Event] = []
    again.subscribe(told.append, kinds=[SeatFreed])
    again.leave(0)
    assert told == [SeatFreed(seat=0, name="Ann", chips=again.ledger()["Ann"].taken, reason="left")]
