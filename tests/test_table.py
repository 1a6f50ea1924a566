"""Tables across hands (issue 11): the button and the blinds (R3), seating,
sitting out and missed blinds, new players, chips carried from hand to hand."""

from __future__ import annotations

import inspect
import itertools
import json
import random
from dataclasses import MISSING, FrozenInstanceError, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import ActionKind, Decision, LegalActions, PlayerView
from holdem.errors import ConfigError, TableError, WireError
from holdem.table import (
    ActionTaken,
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    Positions,
    Rake,
    Seat,
    Table,
    event_from_dict,
    plan_hand,
)
from holdem.table.events import EVENT_TYPES
from holdem.wire import schema


def passive(view: PlayerView, legal: LegalActions) -> Decision:
    """Checks or calls: every hand goes to the showdown."""
    return Decision.check() if legal.check else Decision.call()


def folder(view: PlayerView, legal: LegalActions) -> Decision:
    """Checks when free, else folds: the blinds win (or the big blind checks)."""
    return Decision.check() if legal.check else Decision.fold()


def random_player(rng: random.Random) -> object:
    """A player choosing uniformly among its legal decisions (amounts included)."""

    def decide(view: PlayerView, legal: LegalActions) -> Decision:
        options: list[Decision] = []
        if legal.fold:
            options.append(Decision.fold())
        if legal.check:
            options.append(Decision.check())
        if legal.call is not None:
            options.append(Decision.call())
        if legal.wager is not None and legal.min_to is not None and legal.max_to is not None:
            to = rng.randint(legal.min_to, legal.max_to)
            options.append(Decision(legal.wager, to))
        if legal.all_in is not None:
            options.append(Decision.all_in())
        return rng.choice(options)

    return decide


def forced(result_hand: object) -> list[tuple[ActionKind, int | None, int]]:
    """The forced bets of a played hand: (kind, table seat, amount)."""
    blinds = (ActionKind.SMALL_BLIND, ActionKind.BIG_BLIND, ActionKind.LIVE_POST,
              ActionKind.DEAD_BLIND, ActionKind.ANTE)  # fmt: skip
    return [(a.kind, a.seat, a.amount) for a in result_hand.log if a.kind in blinds]  # type: ignore[attr-defined]


def gone(table: Table, seat: int) -> None:
    """The player of ``seat`` leaves the table between hands, whatever the rules
    (a bust arranged for a scenario)."""
    del table._seats[seat]
    table._plans.changed(seat)


def set_chips(table: Table, seat: int, chips: int) -> None:
    """A stack arranged for a scenario, between hands."""
    table._seats[seat].chips = chips
    table._plans.changed(seat)


def between(seat: int, start: int, end: int) -> bool:
    """Whether ``seat`` is strictly between ``start`` and ``end`` going clockwise."""
    return start < seat < end if start < end else seat > start or seat < end


def table_of(names: list[str | None], chips: int = 100, button: int = 0, **kw: object) -> Table:
    """A table with a player (of ``chips``) on each seat that has a name."""
    table = Table(seats=len(names), small_blind=1, big_blind=2, rng=3, button=button, **kw)  # type: ignore[arg-type]
    for seat, name in enumerate(names):
        if name:
            table.sit(seat, name, chips)
    return table


# --- the dead button (TDA) ------------------------------------------------------------


def test_a_bust_in_the_small_blind_seat_leaves_the_button_dead() -> None:
    table = table_of(["Ann", "Bob", "Cid", "Dee"])
    first = table.play_hand(folder)
    assert (first.plan.button, first.plan.small_blind, first.plan.big_blind) == (0, 1, 2)
    gone(table, 1)  # Bob, the small blind, goes out
    second = table.play_hand(folder)
    assert second.plan.button == 1 and not second.plan.dealt_button  # on Bob's empty seat
    assert forced(second.played) == [(ActionKind.SMALL_BLIND, 2, 1), (ActionKind.BIG_BLIND, 3, 2)]
    third = table.play_hand(folder)  # the button moves on to the old small blind
    assert (third.plan.button, third.plan.small_blind, third.plan.big_blind) == (2, 3, 0)


def test_a_bust_of_the_big_blind_leaves_the_small_blind_dead() -> None:
    table = table_of(["Ann", "Bob", "Cid", "Dee"])
    table.play_hand(folder)  # button 0, blinds 1 and 2
    gone(table, 2)  # Cid, the big blind, goes out
    second = table.play_hand(folder)
    # the big blind moves forward one player; nobody posts the small blind
    assert (second.plan.button, second.plan.small_blind, second.plan.big_blind) == (1, None, 3)
    assert forced(second.played) == [(ActionKind.BIG_BLIND, 3, 2)]
    assert second.plan.positions.small_blind == 2  # the next button goes to the empty seat
    third = table.play_hand(folder)
    assert (third.plan.button, third.plan.small_blind, third.plan.big_blind) == (2, 3, 0)


def test_from_three_players_to_two_nobody_posts_the_big_blind_twice() -> None:
    for out in (0, 1, 2):  # the button, the small blind or the big blind goes out
        table = table_of(["Ann", "Bob", "Cid"])
        first = table.play_hand(folder)
        assert first.plan.big_blind == 2
        gone(table, out)
        second = table.play_hand(folder)
        assert second.plan.heads_up
        assert second.plan.big_blind != 2, out  # Cid had it
        # heads-up the button posts the small blind and acts first before the flop
        assert second.plan.button == second.plan.small_blind
        preflop = [a for a in second.played.log if a.kind is ActionKind.FOLD]  # type: ignore[union-attr]
        assert not preflop or preflop[0].seat == second.plan.button


def test_heads_up_the_blinds_alternate() -> None:
    table = table_of(["Ann", "Bob"])
    bigs = [table.play_hand(folder).plan.big_blind for _ in range(6)]
    assert bigs == [1, 0, 1, 0, 1, 0]


def test_a_short_big_blind_all_in_heads_up() -> None:
    table = table_of(["Ann", "Bob"])
    table.play_hand(folder)  # Bob posts the big blind; Ann folds her small blind
    set_chips(table, 0, 1)  # Ann has one chip left: her big blind is all-in
    result = table.play_hand(passive)
    assert result.plan.big_blind == 0
    assert forced(result.played)[1] == (ActionKind.BIG_BLIND, 0, 1)
    assert sum(result.stacks.values()) == 1 + result.started[1]
    assert result.busted in ((), (0,))
    if result.busted:  # a cash player keeps the seat, sitting out, until a rebuy
        assert table.seats[0].chips == 0 and table.seats[0].status == "sitting_out"
        assert not table.can_deal()
        table.add_chips(0, 50)
        assert table.seats[0].status == "playing" and table.can_deal()


# --- cash: sitting out, missed blinds, new players ---------------------------------------


def test_a_player_who_misses_the_blinds_posts_them_to_come_back() -> None:
    table = table_of(["Ann", "Bob", "Cid", "Dee", "Eve"])
    table.play_hand(folder)  # button 0, blinds 1 and 2
    table.sit_out(4)
    table.play_hand(folder)  # button 1, blinds 2 and 3
    third = table.play_hand(folder)  # the big blind passes Eve (seat 4): she owes it
    assert third.plan.big_blind == 0 and 4 not in third.plan.dealt
    assert table.seats[4].missed_big
    table.sit_in(4, post=True)
    fourth = table.play_hand(folder)  # button 3, blinds 0 and 1: Eve is in between, she waits
    assert (fourth.plan.button, fourth.plan.big_blind) == (3, 1) and 4 not in fourth.plan.dealt
    fifth = table.play_hand(folder)  # button 0, blinds 1 and 2: Eve posts 2 live + 1 dead
    assert 4 in fifth.plan.dealt
    posts = [f for f in forced(fifth.played) if f[1] == 4]
    assert posts == [(ActionKind.LIVE_POST, 4, 2), (ActionKind.DEAD_BLIND, 4, 1)]
    assert not table.seats[4].missed_big and table.seats[4].status == "playing"


def test_a_player_who_misses_the_blinds_may_wait_for_the_big_blind() -> None:
    table = table_of(["Ann", "Bob", "Cid", "Dee", "Eve"])
    table.play_hand(folder)
    table.sit_out(4)
    table.play_hand(folder)
    table.play_hand(folder)  # the big blind passes Eve
    table.sit_in(4)  # no post: she waits for the big blind
    dealt_in = []
    for _ in range(5):
        result = table.play_hand(folder)
        dealt_in.append(4 in result.plan.dealt)
        if dealt_in[-1]:
            assert result.plan.big_blind == 4
            assert [f for f in forced(result.played) if f[1] == 4] == [(ActionKind.BIG_BLIND, 4, 2)]
            break
    assert dealt_in[-1] and not any(dealt_in[:-1])


def test_a_new_player_may_post_a_big_blind_to_play_at_once() -> None:
    table = table_of(["Ann", None, "Cid", "Dee", "Eve"])
    first = table.play_hand(folder)  # button 0, blinds 2 and 3
    assert (first.plan.button, first.plan.small_blind, first.plan.big_blind) == (0, 2, 3)
    table.sit(1, "Bob", 100, post=True)  # seat 1: after the next big blind (4), before 2
    second = table.play_hand(folder)  # button 2, blinds 3 and 4
    assert 1 in second.plan.dealt
    assert [f for f in forced(second.played) if f[1] == 1] == [(ActionKind.LIVE_POST, 1, 2)]
    assert table.seats[1].status == "playing"


def test_a_new_player_between_the_button_and_the_big_blind_waits() -> None:
    table = table_of(["Ann", None, "Cid", "Dee", "Eve"], button=4)
    first = table.play_hand(folder)  # button 4, blinds 0 and 2
    assert (first.plan.button, first.plan.small_blind, first.plan.big_blind) == (4, 0, 2)
    table.sit(1, "Bob", 100, post=True)
    second = table.play_hand(folder)  # button 0, blinds 2 and 3: seat 1 is in between
    assert (second.plan.button, second.plan.big_blind) == (0, 3) and 1 not in second.plan.dealt
    third = table.play_hand(folder)  # button 2, blinds 3 and 4: the button has passed
    assert 1 in third.plan.dealt
    assert [f for f in forced(third.played) if f[1] == 1] == [(ActionKind.LIVE_POST, 1, 2)]


def test_a_new_player_who_waits_comes_in_on_the_big_blind() -> None:
    table = table_of(["Ann", None, "Cid", "Dee", "Eve"])
    table.play_hand(folder)  # button 0, blinds 2 and 3
    table.sit(1, "Bob", 100)  # waits for the big blind
    bigs = []
    for _ in range(3):
        result = table.play_hand(folder)
        bigs.append(result.plan.big_blind)
        assert (1 in result.plan.dealt) == (result.plan.big_blind == 1)
    assert bigs == [4, 0, 1]
    assert 1 in table.play_hand(folder).plan.dealt  # and plays from then on


def test_changes_asked_during_a_hand_wait_for_its_end() -> None:
    table = table_of(["Ann", "Bob", "Cid"])
    hand = table.start_hand()
    assert table.add_chips(1, 50) is False  # not in play in this hand
    assert hand.stacks_by_seat[1] + hand.contributions[1] == 100
    with pytest.raises(TableError, match="finish it first"):
        table.start_hand()
    while not hand.done:
        table.act(folder(hand.view(hand.actor), hand.legal_actions()))  # type: ignore[arg-type]
    result = table.finish_hand()
    assert table.seats[1].chips == result.stacks[1] + 50


@pytest.mark.parametrize("new_seat", [1, 3, 5])
def test_a_moving_button_makes_nobody_post_the_big_blind_twice_when_a_player_sits_down(
    new_seat: int,
) -> None:
    for hands_before in range(1, 5):
        table = Table(6, small_blind=1, big_blind=2, button_policy="moving", rng=1)
        started: list[HandStarted] = []
        table.subscribe(started.append, kinds=[HandStarted])  # type: ignore[arg-type]
        for seat, name in ((0, "Ann"), (2, "Bob"), (4, "Cid")):
            table.sit(seat, name, 200)
        for number in range(hands_before + 4):
            if number == hands_before:
                table.sit(new_seat, "Dee", 200)
            table.play_hand(passive)
        names = [dict(zip(e.seats, e.names, strict=True)) for e in started]
        big = [n[e.big_blind_seat] for n, e in zip(names, started, strict=True)]
        assert all(a != b for a, b in itertools.pairwise(big)), (new_seat, hands_before, big)
        first = started[hands_before]  # (Dee waits while she sits where the blinds go now)
        if _between_seats(new_seat, started[hands_before - 1].button,
                          started[hands_before - 1].big_blind_seat):  # fmt: skip
            assert new_seat not in first.seats
        assert first.button != new_seat


def _between_seats(seat: int, start: int, end: int) -> bool:
    return start < seat < end if start < end else seat > start or seat < end


def test_a_player_waiting_for_the_big_blind_may_choose_to_post_instead() -> None:
    table = Table(6, small_blind=1, big_blind=2, rng=3)
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve"]):
        table.sit(seat, name, 200)
    table.sit_out(4)
    while not table.seats[4].missed_big:  # (the big blind passes Eve while she is away)
        table.play_hand(passive)
    table.sit_in(4)
    assert table.seats[4].status == "waiting"
    table.sit_in(4, post=True)  # (she would rather post than wait)
    assert table.seats[4].status == "posting"
    for _ in range(6):
        result = table.play_hand(passive)
        if 4 in result.plan.dealt:
            break
    assert (4, "big") in result.plan.posts and result.plan.big_blind != 4
    with pytest.raises(TableError, match="Eve is not sitting out"):
        table.sit_in(4)


def test_bad_requests_are_refused_with_the_reason() -> None:
    table = table_of(["Ann", None, None])
    with pytest.raises(TableError, match="seat 0 is taken by Ann"):
        table.sit(0, "Bob", 100)
    with pytest.raises(TableError, match="seats are 0 to 2"):
        table.sit(5, "Bob", 100)
    with pytest.raises(TableError, match="Ann is already at the table"):
        table.sit(1, "Ann", 100)
    with pytest.raises(TableError, match="chips must be a positive integer"):
        table.sit(1, "Bob", 0)
    with pytest.raises(TableError, match="fewer than two players"):
        table.start_hand()
    with pytest.raises(TableError, match="seat 2 is empty"):
        table.leave(2)
    with pytest.raises(ConfigError, match="2 to 10 seats"):
        Table(seats=11, small_blind=1, big_blind=2)
    with pytest.raises(ConfigError):
        Table(seats=6, small_blind=5, big_blind=2)
    for button in (6, -1, True, "0"):  # (refused at once, not at the first hand)
        with pytest.raises(ConfigError, match=r"button: a seat of the table \(0 to 5\)") as err:
            Table(seats=6, small_blind=1, big_blind=2, button=button)  # type: ignore[arg-type]
        assert err.value.field == "button"


def test_every_event_reads_back_from_its_wire_form() -> None:
    events: list[Event] = []
    table = Table(seats=3, small_blind=1, big_blind=2, rng=1)
    table.subscribe(events.append)
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        table.sit(seat, name, 50)
    for _ in range(3):
        table.play_hand(passive)
    kinds = {type(e) for e in events}
    assert {HandStarted, ActionTaken, HandEnded} <= kinds
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(
        {"$ref": "#/$defs/Event", "$defs": schema()["$defs"]}
    )
    for event in events:
        data = json.loads(json.dumps(event.to_dict()))
        assert event_from_dict(data) == event
        assert not list(validator.iter_errors(data)), data
    with pytest.raises(WireError, match="unknown event 'seat_lost'"):
        event_from_dict({"event": "seat_lost", "seat": 1})
    with pytest.raises(WireError, match=r"event\.chips"):
        event_from_dict({"event": "seat_taken", "seat": 1, "name": "Ann", "chips": "many"})


def test_events_are_made_as_frozen_dataclasses_are() -> None:
    """The events' quicker __init__ takes the same arguments as the dataclass's
    own (by position or name, the same defaults) and the event stays frozen."""
    for cls in EVENT_TYPES:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        assert [(p.name, p.default) for p in params] == [
            (f.name, inspect.Parameter.empty if f.default is MISSING else f.default)
            for f in fields(cls)
        ]
        values = {f.name: f"v{i}" for i, f in enumerate(fields(cls))}
        by_name, by_position = cls(**values), cls(*values.values())
        assert by_name == by_position and hash(by_name) == hash(by_position)
        assert {name: getattr(by_name, name) for name in values} == values
        with pytest.raises(FrozenInstanceError):
            setattr(by_name, fields(cls)[0].name, 3)
        with pytest.raises(TypeError):
            cls()
    assert ChipsAdded(seat=1, name="Ann", chips=5, stack=9).deferred is False


# --- random sessions ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32), st.sampled_from(["dead", "moving"]))
def test_random_cash_sessions_keep_the_rules(seats: int, seed: int, policy: str) -> None:
    rng = random.Random(seed)
    table = Table(seats=seats, small_blind=1, big_blind=2, rng=rng, button_policy=policy,  # type: ignore[arg-type]
                  rake=Rake(5, cap=3))  # fmt: skip
    raked = 0
    names = iter(f"P{i}" for i in range(1000))
    chips_in = 0
    chips_out = 0

    def on(event: Event) -> None:
        nonlocal chips_out
        if type(event).__name__ == "SeatFreed":
            chips_out += event.chips  # type: ignore[union-attr]

    table.subscribe(on)
    for seat in range(seats):
        if rng.random() < 0.8:
            table.sit(seat, next(names), rng.randint(1, 300))
            chips_in += table.seats[seat].chips
    decide = random_player(rng)
    last = None
    big_blind_player = ""
    for _ in range(60):
        # between hands: joins, leaves, sit-outs, comebacks, top-ups
        for seat in range(seats):
            roll = rng.random()
            state = table.seats.get(seat)
            if state is None and roll < 0.1:
                table.sit(seat, next(names), rng.randint(1, 300), post=rng.random() < 0.5)
                chips_in += table.seats[seat].chips
            elif state is not None and roll < 0.03:
                table.leave(seat)
            elif state is not None and roll < 0.08 and state.status == "playing":
                table.sit_out(seat)
            elif state is not None and roll < 0.15 and state.status == "sitting_out":
                if state.chips:
                    table.sit_in(seat, post=rng.random() < 0.5)
                else:
                    with pytest.raises(TableError, match="no chips: a rebuy"):
                        table.sit_in(seat)
            elif state is not None and roll < 0.17:
                added = rng.randint(1, 100)
                table.add_chips(seat, added)
                chips_in += added
        # the plan the table remembers is the one the policy gives
        known = table._plans.next(table._seats)
        fresh = plan_hand(table.seats, table.positions, policy=policy)  # type: ignore[arg-type]
        assert (known and known.plan) == fresh
        if not table.can_deal():
            continue
        result = table.play_hand(decide)  # type: ignore[arg-type]
        bigs = [f for f in forced(result.played) if f[0] is ActionKind.BIG_BLIND]
        assert len(bigs) == 1 and bigs[0][1] == result.plan.big_blind
        assert result.plan.big_blind in result.plan.dealt
        raked += result.rake
        if last is not None:
            before, now = last.plan.positions, result.plan
            if policy == "dead":
                # the button moves forward (or stays), never past the last big
                # blind (heads-up it goes to the player who is not the big
                # blind), and nobody posts the big blind twice in a row
                assert (
                    now.heads_up
                    or now.button in (before.button, before.big_blind)
                    or between(now.button, before.button, before.big_blind)
                )
                assert now.big_blind != before.big_blind
            else:  # to the next player dealt in (heads-up: not the last big blind),
                # unless too few of the last hand's players are left (the big blind moves on)
                nxt = min((s for s in now.dealt if s > before.button), default=now.dealt[0])
                moved_on = now.big_blind == min(
                    (s for s in now.dealt if s > before.big_blind), default=now.dealt[0]
                )
                assert now.button == nxt or (now.heads_up and now.big_blind == nxt) or moved_on
            # nobody posts the big blind twice in a row (R3), under either policy
            dealt_names = dict(zip(now.dealt, result.played.config.names or (), strict=True))
            assert dealt_names[now.big_blind] != big_blind_player
        last = result
        big_blind_player = dict(zip(result.plan.dealt, result.played.config.names or (),
                                    strict=True))[result.plan.big_blind]  # fmt: skip
        on_table = sum(s.chips for s in table.seats.values())
        assert on_table + chips_out + raked == chips_in


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32))
def test_plans_name_dealt_seats_and_one_big_blind(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    state = {
        s: Seat(
            f"P{s}",
            rng.randint(0, 5),
            rng.choice(["playing", "sitting_out", "waiting", "posting"]),
            missed_big=rng.random() < 0.2,
            missed_small=rng.random() < 0.2,
        )
        for s in range(seats)
        if rng.random() < 0.8
    }
    plan = plan_hand(state, None)
    for _ in range(30):
        if plan is None:
            break
        assert plan.big_blind in plan.dealt and len(plan.dealt) >= 2
        assert plan.small_blind is None or plan.small_blind in plan.dealt
        assert plan.small_blind != plan.big_blind
        assert all(state[s].chips > 0 for s in plan.dealt)
        plan = plan_hand(state, plan.positions)


@pytest.mark.parametrize("name", ["seating", "table", "cash", "tournament", "timer", "events"])
def test_the_examples_of_the_table_modules_run(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(f"holdem.table.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_back_from_heads_up_a_player_who_paid_no_blind_does_not_take_the_button() -> None:
    # heads-up last hand: Ann (seat 0) on the button and small blind, Cid (seat 2)
    # in the big blind; Bob, between them at seat 1, is back and owes nothing
    seats = {s: Seat(name, 100) for s, name in ((0, "Ann"), (1, "Bob"), (2, "Cid"))}
    last = Positions(button=0, small_blind=0, big_blind=2)
    plan = plan_hand(seats, last)
    assert plan is not None
    # the big blind moves on to Ann; Bob would be the button without having
    # paid a blind (R3): he waits a hand, and the game stays heads-up
    assert (plan.dealt, plan.big_blind, plan.button) == ((0, 2), 0, 2)
    after = plan_hand(seats, plan.positions)
    assert after is not None  # then the big blind reaches Bob
    assert (after.dealt, after.button, after.small_blind, after.big_blind) == ((0, 1, 2), 2, 0, 1)


def test_leaving_twice_during_a_hand_frees_the_seat_once() -> None:
    from holdem.table import SeatFreed

    table = Table(seats=3, small_blind=1, big_blind=2, rng=1)
    for seat in range(3):
        table.sit(seat, f"p{seat}", 100)
    freed: list[object] = []
    table.subscribe(freed.append, kinds=[SeatFreed])
    hand = table.start_hand()
    assert table.leave(0) is False and table.leave(0) is False
    while not hand.done:
        legal = hand.legal_actions()
        assert legal is not None
        table.act(Decision.check() if legal.check else Decision.call())
    table.finish_hand()
    assert len(freed) == 1 and 0 not in table.seats
