"""The C core under the calls a program may make that the rules tests do not:
arguments by keyword, int subclasses, a seat whose comparison acts on the hand,
limits of the configuration (found by a review of csrc/hd_engine.c)."""

from __future__ import annotations

from enum import IntEnum

import pytest

from holdem.config import HandConfig, Post
from holdem.errors import ConfigError, IllegalActionError
from holdem.hand import Hand

CFG = HandConfig((200, 200, 200), 0, 1, 2)


def test_amounts_and_seats_by_keyword() -> None:
    hand = Hand(CFG, rng=1)
    record = hand.raise_to(to=6, seat=0)
    assert (record.seat, record.to) == (0, 6)
    assert hand.call(seat=1).to == 6
    with pytest.raises(TypeError, match="unexpected or repeated keyword"):
        hand.raise_to(20, to=20)
    with pytest.raises(TypeError, match="missing its argument 'to'"):
        hand.bet()


def test_an_int_subclass_is_an_amount() -> None:
    class Six(IntEnum):
        SIX = 6

    hand = Hand(CFG, rng=1)
    record = hand.raise_to(Six.SIX)
    assert record.to == 6 and type(record.to) is int
    with pytest.raises(IllegalActionError, match="must be an integer"):
        Hand(CFG, rng=1).raise_to(True)


def test_a_seat_that_acts_while_it_is_compared_is_refused() -> None:
    hand = Hand(HandConfig((200, 200), 0, 1, 2), rng=1)

    class Sneaky:
        def __eq__(self, other: object) -> bool:
            hand.fold()  # ends the hand while the engine asks whose turn it is
            return True

        __hash__ = object.__hash__

    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.check_or_call(Sneaky())  # type: ignore[arg-type]
    assert hand.done and [a.kind.value for a in hand.log].count("fold") == 1
    assert hand.outcome is not None and sum(hand.outcome.net) == 0


def test_at_most_two_posts_a_player() -> None:
    posts = tuple(Post(i % 3, 1, dead=True) for i in range(7))
    with pytest.raises(ConfigError, match="at most 2 posts a player") as caught:
        HandConfig((200, 200, 200), 0, 1, 2, posts=posts)
    assert caught.value.field == "posts"
    hand = Hand(HandConfig((200, 200, 200), 0, 1, 2, posts=posts[:6]), rng=1)
    assert sum(a.amount for a in hand.log if a.kind.value == "dead_blind") == 6


@pytest.mark.parametrize(("auto", "runs"), [("yes", True), (2, True), (0.0, False), (None, False)])
def test_auto_is_read_for_its_truth(auto: object, runs: bool) -> None:
    hand = Hand(CFG, rng=1, auto=auto)  # type: ignore[arg-type]
    assert (hand.phase.value == "betting") is runs
