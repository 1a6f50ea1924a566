"""Review of the table package (issue 11): scenarios and properties checked
against RULES.md R3, R11-R13, each a rule the first version broke."""

from __future__ import annotations

import pytest

from holdem import Decision, LegalActions, PlayerView
from holdem.errors import TableError
from holdem.table import CashGame, Table


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
