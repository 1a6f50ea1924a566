"""A hand dealt to some of a table's seats (issue 9, item 5): table seat numbers and
names travel with the hand, and stacks carry from hand to hand without renumbering."""

from __future__ import annotations

import random

import pytest

from holdem import Hand, HandConfig
from holdem.config import Post
from holdem.errors import ConfigError, IllegalActionError
from holdem.histories import read_phh_text, record, to_phh, validate


def table_hand(**kw: object) -> Hand:
    """Seats 1, 3 and 4 of a five-seat table have chips; the button's seat 2 is empty."""
    config = HandConfig.at_table(
        [0, 120, 0, 80, 200], button=2, small_blind=1, big_blind=2,
        names={1: "Ann", 3: "Bob", 4: "Cid"},
    )  # fmt: skip
    return Hand(config, **kw)  # type: ignore[arg-type]


def test_a_seat_with_no_chips_is_not_dealt_in_and_a_button_there_is_dead() -> None:
    config = table_hand(rng=1).config
    assert config.seats == (1, 3, 4) and config.stacks == (120, 80, 200)
    assert config.names == ("Ann", "Bob", "Cid")
    assert config.dead_button and config.seat_numbers[config.button] == 1
    # the first seat after the empty button seat posts the small blind (TDA dead button)
    assert [(k.value, config.seat_numbers[p]) for k, p, _ in config.forced_bets] == [
        ("small_blind", 3), ("big_blind", 4),
    ]  # fmt: skip
    with pytest.raises(ConfigError, match="a hand needs 2 to 10 seats with chips, got 1"):
        HandConfig.at_table([0, 50, 0], button=1, small_blind=1, big_blind=2)
    with pytest.raises(ConfigError, match="seat 2 is not dealt in"):
        HandConfig.at_table([0, 50, 0, 50], button=1, small_blind=1, big_blind=2,
                            posts=(Post(2, 2),))  # fmt: skip
    with pytest.raises(ConfigError, match="seats"):
        HandConfig(stacks=(10, 10), button=0, small_blind=1, big_blind=2, seats=(3, 1))


def test_records_menus_views_and_errors_speak_table_seats() -> None:
    hand = table_hand(rng=4)
    assert hand.actor == 1  # three-handed, the button's seat acts first: seat 1
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1
    with pytest.raises(IllegalActionError, match="illegal fold by seat 3: it is seat 1's turn"):
        hand.fold(seat=3)
    with pytest.raises(ConfigError, match="seat 2 is not at the table: seats are 1, 3, 4"):
        hand.hole_cards(2)
    hand.act("raise", 6, seat=1)
    view = hand.view(3)
    assert view.seat == 3 and view.actor == 3 and view.legal is not None
    assert view.hole_cards == hand.hole_cards(3)
    hand.fold(seat=3)
    hand.call(seat=4)
    while not hand.done:
        hand.check_or_call()
    seats = {a.seat for a in hand.log if a.seat is not None}
    assert seats == {1, 3, 4}
    outcome = hand.outcome
    assert outcome is not None
    assert all(set(pot.eligible) <= {1, 4} for pot in outcome.pots)
    assert {s.seat for s in outcome.shown} <= {1, 4}
    assert sum(hand.stacks_by_seat.values()) == 400


def test_the_same_hand_with_and_without_table_seats_plays_alike() -> None:
    plain = HandConfig(stacks=(120, 80, 200), button=0, small_blind=1, big_blind=2,
                       dead_button=True)  # fmt: skip
    rng_a, rng_b = random.Random(8), random.Random(8)
    a, b = Hand(plain, rng=5), table_hand(rng=5)
    number = dict(enumerate(b.config.seat_numbers))
    while not a.done:
        legal_a, legal_b = a.legal_actions(), b.legal_actions()
        assert legal_a is not None and legal_b is not None
        assert legal_b == legal_a._replace(seat=number[legal_a.seat])
        a.act(legal_a.sample(rng_a))
        b.act(legal_b.sample(rng_b))
    assert [r._replace(seat=None) for r in a.log] == [r._replace(seat=None) for r in b.log]
    assert [number.get(r.seat) if r.seat is not None else None for r in a.log] == [
        r.seat for r in b.log
    ]
    assert a.outcome is not None and b.outcome is not None
    assert a.outcome.net == b.outcome.net and a.stacks == b.stacks


def test_stacks_carry_from_hand_to_hand_until_one_player_is_left() -> None:
    """A six-seat table: each hand is dealt to the seats with chips, from the last
    hand's stacks by seat, the button moving to the next seat; busted seats drop out."""
    rng = random.Random(2)
    table = [0, 40, 40, 0, 40, 40]
    button = 1
    hands = 0
    while sum(1 for chips in table if chips) > 1:
        hand = Hand(HandConfig.at_table(table, button, small_blind=1, big_blind=2), rng=rng)
        dealt = set(hand.config.seats)
        assert dealt == {s for s, chips in enumerate(table) if chips}
        while not hand.done:
            legal = hand.legal_actions()
            assert legal is not None and legal.seat in dealt
            hand.act(legal.sample(rng))
        for seat, chips in hand.stacks_by_seat.items():
            table[seat] = chips
        assert sum(table) == 160
        button = (button + 1) % len(table)
        hands += 1
        assert hands < 2000
    assert sorted(table)[-1] == 160 and hands > 1


def test_written_histories_name_the_players_and_their_seats() -> None:
    hand = table_hand(rng=6)
    while not hand.done:
        hand.check_or_call()
    history = record(hand)
    assert [(p.name, p.seat) for p in history.players] == [("Bob", 4), ("Cid", 5), ("Ann", 2)]
    assert validate(history) == []
    import tomli_w

    [back] = read_phh_text(tomli_w.dumps(to_phh(history)))
    assert [p.name for p in back.players] == ["Bob", "Cid", "Ann"]  # type: ignore[union-attr]
