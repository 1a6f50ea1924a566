"""Review of the table package (issue 11): scenarios and properties checked
against RULES.md R3, R11-R13, each a rule the first version broke."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import ActionKind, Decision, LegalActions, PlayerView
from holdem.errors import TableError
from holdem.table import CashGame, HandResult, Rake, Table, Tournament
from holdem.table.table import Decide
from holdem.table.timer import TimerRules, TurnTimer


def folder(view: PlayerView, legal: LegalActions) -> Decision:
    """Checks when free, else folds."""
    return Decision.check() if legal.check else Decision.fold()


def table_of(names: list[str | None], chips: int = 100, button: int = 0) -> Table:
    table = Table(seats=len(names), small_blind=1, big_blind=2, rng=3, button=button)
    for seat, name in enumerate(names):
        if name:
            table.sit(seat, name, chips)
    return table


# --- R3: a player must have paid their blinds before they can take the button ------------


def test_the_first_hands_blinds_passing_a_player_sitting_out_are_owed() -> None:
    # The first hand's button on seat 0; Bob (1) and Cid (2) sit out: the small
    # blind goes to Ann... no: to Dee (3), the big blind to Eve (4).  They skipped
    # Bob (the small blind's seat) and Cid (the big blind's).
    table = table_of(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"])
    table.sit_out(1)
    table.sit_out(2)
    first = table.play_hand(folder).plan
    assert (first.button, first.small_blind, first.big_blind) == (0, 3, 4)
    assert table.seats[1].missed_small and not table.seats[1].missed_big
    assert table.seats[2].missed_big
    # Cid comes back without posting: he waits for the big blind, he does not
    # take the button (the first version dealt him in on the button)
    table.sit_in(2)
    second = table.play_hand(folder).plan
    assert 2 not in second.dealt
    assert (second.button, second.small_blind, second.big_blind) == (3, 4, 5)


def test_a_player_who_sat_out_after_the_big_blind_owes_the_small_one_going_heads_up() -> None:
    # Hand 1: Ann button, Bob small blind, Cid big blind.  Cid sits out: the
    # table is heads-up, and the small blind Cid would have posted passes him.
    table = table_of(["Ann", "Bob", "Cid"])
    first = table.play_hand(folder).plan
    assert (first.button, first.small_blind, first.big_blind) == (0, 1, 2)
    table.sit_out(2)
    second = table.play_hand(folder).plan
    assert second.dealt == (0, 1) and second.big_blind == 0
    assert table.seats[2].missed_small
    # Cid comes back: he owes the small blind, so he waits (or posts it); the
    # first version dealt him in at once, on the button
    table.sit_in(2)
    third = table.play_hand(folder).plan
    assert 2 not in third.dealt or third.button != 2
    assert third.big_blind == 1


# --- R12: buy-ins, top-ups and rebuys stay within the table's limits ---------------------


def shover(view: PlayerView, legal: LegalActions) -> Decision:
    if legal.all_in is not None:
        return Decision.all_in()
    return Decision.check() if legal.check else Decision.call()


def test_a_rebuy_after_a_bust_is_at_least_the_minimum_buy_in() -> None:
    game = CashGame(small_blind=1, big_blind=2, min_buy_in=80, max_buy_in=200, rng=1)
    game.join(0, "Ann", 80)
    game.join(1, "Bob", 80)
    while all(s.chips for s in game.table.seats.values()):
        game.play_hand(shover)
    bust = next(seat for seat, s in game.table.seats.items() if not s.chips)
    with pytest.raises(TableError, match="minimum buy-in"):
        game.add_chips(bust, 1)  # the first version seated a stack of 1
    assert game.add_chips(bust, 80)
    assert game.table.seats[bust].chips == 80


def test_top_ups_asked_during_a_hand_add_up_against_the_maximum() -> None:
    game = CashGame(small_blind=1, big_blind=2, min_buy_in=80, max_buy_in=200, rng=1)
    game.join(0, "Ann", 100)
    game.join(1, "Bob", 100)
    hand = game.table.start_hand()
    assert game.add_chips(0, 100) is False  # deferred: 100 + 100 is the maximum
    with pytest.raises(TableError, match="maximum buy-in"):
        game.add_chips(0, 100)  # the first version let the stack reach 300
    while not hand.done:
        legal = hand.legal_actions()
        assert legal is not None
        game.table.act(folder(hand.view(hand.actor), legal))  # type: ignore[arg-type]
    game.table.finish_hand()
    assert game.table.seats[0].chips <= 200 + 2  # (at most the blinds won on top)
    assert game.results()["Ann"].bought_in == 200


# --- R13: timeouts told by a caller that keeps the clock itself -------------------------


def test_two_timeouts_told_through_time_out_free_a_cash_seat() -> None:
    # A network room drives the hand itself: start_hand, act, time_out,
    # finish_hand.  Two timeouts in a row must free the seat as they do in
    # play_hand (R13); the table only looks at the timeouts in play_hand.
    table = Table(seats=3, small_blind=1, big_blind=2, rng=3, button=1,  # Ann: big blind
                  timer=TurnTimer(TimerRules()))  # fmt: skip
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        table.sit(seat, name, 100)
    hand = table.start_hand()
    while not hand.done:
        if table.seats[hand.actor].name == "Ann":  # type: ignore[index]
            table.time_out()  # (she checks when she can: she stays to the river)
        else:  # the others check or call: Ann acts on every street
            legal = hand.legal_actions()
            assert legal is not None
            table.act(Decision.check() if legal.check else Decision.call())
    assert table.timer is not None and table.timer.in_a_row("Ann") >= 2
    assert any(s.name == "Ann" for s in table.seats.values())  # (only between hands)
    table.finish_hand()
    assert all(s.name != "Ann" for s in table.seats.values())


# --- properties: random freezeouts and random cash sessions ------------------------------


def random_player(rng: random.Random) -> Decide:
    def decide(view: PlayerView, legal: LegalActions) -> Decision:
        roll = rng.random()  # (all-ins rare: long games, many busts one at a time)
        if legal.all_in is not None and roll < 0.04:
            return Decision.all_in()
        if legal.call is not None and roll < 0.5:
            return Decision.call()
        return Decision.check() if legal.check else Decision.fold()

    return decide


def next_after(seat: int, seats: list[int]) -> int:
    """The first of ``seats`` clockwise after ``seat``."""
    return min((s for s in seats if s > seat), default=min(seats))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32))
def test_random_freezeouts_keep_the_dead_button_rules_and_end(players: int, seed: int) -> None:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    game = Tournament(names, stack=rng.choice([100, 300, 1500]), rng=rng)
    total = sum(s.chips for s in game.table.seats.values())
    decide = random_player(rng)
    last: HandResult | None = None
    while not game.finished:
        with_chips = sorted(game.table.seats)
        result = game.play_hand(decide)
        plan = result.plan
        assert plan.dealt == tuple(with_chips)  # everyone with chips is dealt in (R11)
        if plan.heads_up:  # the button posts the small blind (R3)
            assert plan.button == plan.small_blind
        if last is not None:
            # the big blind moves forward exactly one player (TDA): nobody posts
            # it twice in a row, nobody skips it
            assert plan.big_blind == next_after(last.plan.big_blind, with_chips)
            if not plan.heads_up and not last.plan.heads_up:
                # the small blind where the big blind was, the button where the
                # small blind was (either may be dead)
                assert plan.positions.small_blind == last.plan.big_blind
                assert plan.button == last.plan.positions.small_blind
        assert sum(s.chips for s in game.table.seats.values()) == total
        last = result
        assert result.hand < 5000
    outcome = game.result()
    assert len(outcome.places) == players
    for placing in outcome.places[1:]:
        assert placing.elimination is not None and placing.elimination.eliminated_by


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32))
def test_random_cash_sessions_keep_the_blinds_and_the_chips(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    game = CashGame(seats, small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=300,
                    rake=Rake(5, cap=3), rng=rng)  # fmt: skip
    table = game.table
    names = iter(f"P{i}" for i in range(1000))
    for seat in range(seats):
        if rng.random() < 0.8:
            game.join(seat, next(names), rng.randint(40, 300))
    decide = random_player(rng)
    paid = {s.name for s in table.seats.values()}  # (the first hand's players need not post)
    raked = 0
    last: HandResult | None = None
    for _ in range(60):
        for seat in rng.sample(range(seats), seats):  # between hands, in a random order
            state = table.seats.get(seat)
            if state is None:
                if rng.random() < 0.1:
                    game.join(seat, next(names), rng.randint(40, 300), post=rng.random() < 0.5)
                continue
            change = rng.choices(["leave", "toggle", "stay"], weights=[3, 10, 87])[0]
            if change == "leave":
                game.leave(seat)
            elif change == "toggle" and state.status == "playing":
                table.sit_out(seat)
            elif change == "toggle" and state.status == "sitting_out" and state.chips:
                table.sit_in(seat, post=rng.random() < 0.5)
            elif change == "toggle" and state.status == "sitting_out":
                game.add_chips(seat, 40)  # a rebuy
        if not table.can_deal():
            continue
        before = dict(table.seats)
        result = game.play_hand(decide)
        plan = result.plan
        raked += result.rake
        for seat in plan.dealt:  # a player waiting for the big blind comes in on it
            assert before[seat].status != "waiting" or seat == plan.big_blind
        if last is not None:
            present = [s for s, p in before.items() if p.chips and p.status != "sitting_out"]
            assert plan.big_blind == next_after(last.plan.big_blind, present)
            if not plan.heads_up and plan.button in plan.dealt:
                # a player has paid their blinds before they take the button (R3)
                assert before[plan.button].name in paid
        for action in result.played.log:
            if action.kind in (ActionKind.SMALL_BLIND, ActionKind.BIG_BLIND,
                               ActionKind.LIVE_POST) and action.seat is not None:  # fmt: skip
                paid.add(before[action.seat].name)
        last = result
    results = game.results()
    assert sum(r.net for r in results.values()) == -raked
