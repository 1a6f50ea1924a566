"""Freezeout tournaments at a table (R11, issue 11): levels going up,
eliminations placed by the chips they started the hand with, one winner."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_table import set_chips

from holdem import Decision, LegalActions, PlayerView
from holdem.errors import TableError
from holdem.table import (
    Event,
    HandStarted,
    LevelUp,
    PlayerEliminated,
    Schedule,
    Standings,
    Tournament,
    event_from_dict,
)


def shover(view: PlayerView, legal: LegalActions) -> Decision:
    """All-in whenever possible: players go out fast, often several at once."""
    if legal.all_in is not None:
        return Decision.all_in()
    return Decision.check() if legal.check else Decision.call()


def random_player(rng: random.Random):  # type: ignore[no-untyped-def]
    def decide(view: PlayerView, legal: LegalActions) -> Decision:
        options = []
        if legal.fold and not legal.check:
            options.append(Decision.fold())
        options.append(Decision.check() if legal.check else Decision.call())
        if legal.wager is not None and legal.min_to is not None and legal.max_to is not None:
            options.append(Decision(legal.wager, rng.randint(legal.min_to, legal.max_to)))
        return rng.choice(options)

    return decide


def test_players_out_in_one_hand_are_placed_by_the_chips_they_started_with() -> None:
    seen = set()  # deals where two players go out in one hand: with a tie, and without
    for seed in range(300):
        game = Tournament(["Ann", "Bob", "Cid", "Dee"], stack=100, rng=seed)
        events: list[Event] = []
        game.subscribe(events.append)
        for seat, chips in ((0, 40), (1, 100), (2, 100), (3, 160)):
            set_chips(game.table, seat, chips)
        result = game.play_hand(shover)
        if len(result.busted) != 2:
            continue
        out = [e for e in events if isinstance(e, PlayerEliminated)]
        first, second = sorted(out, key=lambda e: e.place)
        started = {e.name: result.started[e.seat] for e in out}
        if started[first.name] == started[second.name]:
            assert first.place == second.place == 3  # a tie shares the better place
            seen.add("tie")
        else:
            assert started[first.name] > started[second.name]
            assert (first.place, second.place) == (3, 4)
            seen.add("ahead")
        assert all(e.hand == 1 and e.by for e in out)
        if len(seen) == 2:
            break
    else:
        pytest.fail(f"two players out in one hand, but only: {sorted(seen)}")


def test_a_default_freezeout_ends_with_one_winner_and_every_place() -> None:
    events: list[Event] = []
    game = Tournament([f"P{i}" for i in range(6)], stack=1500, rng=9)
    game.subscribe(events.append)
    result = game.run(random_player(random.Random(9)), max_hands=5000)
    assert sorted(p.player for p in result.places) == [f"P{i}" for i in range(6)]
    assert result.places[0].player == result.winner and result.places[0].place == 1
    assert game.table.seats[next(iter(game.table.seats))].chips == 6 * 1500
    levels = [e for e in events if isinstance(e, LevelUp)]
    assert levels and [e.level for e in levels] == list(range(1, len(levels) + 1))
    assert levels[0].hand == 11  # the default schedule: a level every 10 hands
    out = [e for e in events if isinstance(e, PlayerEliminated)]
    assert len(out) == 5 and all(e.by for e in out)
    with pytest.raises(TableError, match="the tournament is over"):
        game.play_hand(shover)


def test_a_custom_schedule_by_hands_with_antes() -> None:
    game = Tournament(["Ann", "Bob", "Cid"], stack=500, rng=2,
                      schedule=Schedule.parse("10/20/2@3h, 20/40/5@3h"))  # fmt: skip
    assert game.table.blinds.hands == 3  # (the first level's length told as the later ones')
    blinds = []
    for _ in range(8):
        if game.finished:
            break
        result = game.play_hand(random_player(random.Random(1)))
        blinds.append((result.blinds.small_blind, result.blinds.big_blind, result.blinds.ante))
    assert len(blinds) >= 6 and blinds[:3] == [(10, 20, 2)] * 3
    assert blinds[3:6] == [(20, 40, 5)] * 3


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32))
def test_random_freezeouts_end_with_a_full_consistent_placing(players: int, seed: int) -> None:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    stack = rng.choice([40, 200, 1000])
    game = Tournament(names, stack=stack, rng=rng)
    decide = random_player(rng) if rng.random() < 0.5 else shover
    while not game.finished:
        result = game.play_hand(decide)
        assert sum(result.stacks.values()) == sum(result.started.values())
        assert sum(s.chips for s in game.table.seats.values()) == players * stack
        assert result.hand < 3000
    placing = game.result()
    assert len(placing.places) == players and placing.places[0].place == 1
    assert [p.place for p in placing.places] == sorted(p.place for p in placing.places)
    assert {p.player for p in placing.places} == set(names)
    # the tournament places its own busts without record_hand's checks of its
    # arguments: record_hand, given the same busts, places them the same
    again_standings = Standings(names)
    for hand, out in itertools.groupby(game.standings.eliminations, lambda e: e.hand_number):
        group = list(out)
        again_standings.record_hand(
            hand,
            {e.player: e.started_with for e in group},
            [e.player for e in group],
            {e.player: e.eliminated_by for e in group},
        )
    assert again_standings.result() == placing


def test_a_tournament_driven_decision_by_decision_plays_as_play_hand_does() -> None:
    """start_hand/finish_hand (a caller keeping each decision, as the protocol
    does) give the same game, events and places as play_hand."""
    from holdem.bots import make_bot

    def run(stepwise: bool) -> tuple[object, list[dict[str, object]]]:
        names = ["Ann", "Bob", "Cid", "Dee"]
        game = Tournament(names, stack=400, rng=9)
        events: list[dict[str, object]] = []
        game.subscribe(lambda e: events.append(e.to_dict()))
        bots = {name: make_bot("easy", seed=i) for i, name in enumerate(names)}
        by_seat = {seat: bots[name] for seat, name in enumerate(names)}
        while not game.finished:
            if not stepwise:
                game.play_hand(bots)
                continue
            hand = game.start_hand()
            while not hand.done:
                seat = hand.actor
                assert seat is not None
                legal = hand.legal_actions()
                assert legal is not None
                game.table.act(by_seat[seat](hand.view(seat), legal))
            game.finish_hand()
        return game.result(), events

    assert run(stepwise=True) == run(stepwise=False)
    over = Tournament(["A", "B"], stack=100, rng=1)
    over.run(shover)
    with pytest.raises(TableError, match="the tournament is over"):
        over.start_hand()


def test_a_big_blind_ante_is_told_as_one_in_the_events() -> None:
    events: list[Event] = []
    game = Tournament(["Ann", "Bob", "Cid"], stack=5000, rng=3,
                      schedule=Schedule.parse("10/20@1h, 20/40/40bba@5h"))  # fmt: skip
    game.subscribe(events.append)
    for _ in range(3):
        game.play_hand(random_player(random.Random(2)))
    started = [e for e in events if isinstance(e, HandStarted)]
    assert [(e.ante, e.big_blind_ante) for e in started] == [(0, False), (40, True), (40, True)]
    (level,) = [e for e in events if isinstance(e, LevelUp)]
    assert (level.ante, level.big_blind_ante) == (40, True)
    assert level.to_dict()["big_blind_ante"] is True
    assert event_from_dict(started[1].to_dict()) == started[1]
