"""The replay's fast path against its step-by-step path.

A replay by our rules plays the plain moves of a history in the engine's C loops
(``Hand._replayed``, ``HandCore._play_script``, ``_finish_script``) and builds the
outcome in C (``_make_outcome``); every move they do not play is played and worded in
Python as before.  ``playback._SCRIPTED = False`` replays with one Python call per move
and step.  The two must give the same hand (log, stacks, outcome), the same problems
and the same excess: on hands played on the engine and written as histories, and on
mutated files (the inputs of ``test_fuzz_histories``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_fuzz_histories import Case, Played, TempDir, any_inputs, hands_of, played

from holdem.hand import MUCKED, Hand
from holdem.histories import HandHistory, playback, read_phh_text, replay
from holdem.pots import Outcome, Pot, ShownHand


def quick(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))


@contextmanager
def stepwise() -> Iterator[None]:
    """Replays with one Python call per move and dealer step (the C loops unused)."""
    playback._SCRIPTED = False
    try:
        yield
    finally:
        playback._SCRIPTED = True


def outcome_in_python(hand: Hand) -> Outcome:
    """The outcome as ``Hand.outcome`` built it in Python before the C core did."""
    order, no, hole = hand._sd_order, hand._nos, hand._hole
    return Outcome(
        pots=tuple(
            Pot(amount, tuple(no[q] for q in eligible), tuple(no[q] for q in won), shares)
            for amount, eligible, won, shares in hand._awards
        ),
        shown=tuple(
            ShownHand(no[q], hole[q], hand._vals[q])  # type: ignore[arg-type]
            for q in order
            if hand._shown[q]
        ),
        mucked=tuple(no[q] for q in order if hand._status[q] == MUCKED),
        returned=tuple(hand._returned),
        net=tuple(s - start for s, start in zip(hand.stacks, hand.config.stacks, strict=True)),
        stacks=hand.stacks,
        showdown=bool(order),
    )


def state(hand: Hand | None) -> object:
    if hand is None:
        return None
    outcome = hand.outcome
    # (a board run twice: the rebuild in Python, older than run it twice, knows
    # one run only; the two replays are still compared whole below)
    if outcome is not None and not any(pot.run for pot in outcome.pots):
        rebuilt = outcome_in_python(hand)
        assert outcome == rebuilt and repr(outcome) == repr(rebuilt)
        assert hash(outcome) == hash(rebuilt)
    return (
        repr(hand),
        hand.log,
        hand.stacks,
        hand.board,
        hand.statuses,
        hand.phase,
        hand.actor,
        hand.pot,
        repr(outcome),
        [hand.hole_cards(seat) for seat in range(len(hand.stacks))],
    )


def check_same(history: HandHistory) -> None:
    fast = replay(history)
    fast_ours = replay(history, conventions=False)
    with stepwise():
        slow = replay(history)
        slow_ours = replay(history, conventions=False)
    for a, b in ((fast, slow), (fast_ours, slow_ours)):
        assert a.problems == b.problems
        assert a.excess == b.excess
        assert state(a.hand) == state(b.hand)


@quick(150)
@given(played())
def test_played_hands_replay_alike(case: Played) -> None:
    history = case.history()
    assume(history is not None)
    assert history is not None
    check_same(history)


@quick(150)
@given(any_inputs())
def test_mutated_files_replay_alike(case: Case) -> None:
    with TempDir.make() as folder:
        for history in hands_of(case, folder, limit=30):
            check_same(history)


HEAD = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 30]
"""


@pytest.mark.parametrize(
    "actions",
    [
        # plain: to the showdown, shown by the file and by default
        "'p3 cc', 'p1 cc', 'p2 cc', 'd db AcKcQc', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 2d', "
        "'p1 cc', 'p2 cc', 'p3 cc', 'd db 3d', 'p1 cc', 'p2 cbr 10', 'p3 cc', 'p1 f', "
        "'p2 sm 7h7s'",
        # all-in preflop: the board run out after the last move, every hand face up
        "'p3 cbr 30', 'p1 cc', 'p2 cc', 'd db AcKcQc', 'p1 cc', 'p2 cc', 'd db 2d', "
        "'p1 cc', 'p2 cc', 'd db 3d', 'p1 cc', 'p2 cc', 'p1 sm', 'p2 sm 7h7s'",
        # a muck when every hand is shown; shown cards that are not held
        "'p3 cbr 30', 'p1 cc', 'p2 cc', 'd db AcKcQc', 'p1 cc', 'p2 cc', 'd db 2d', "
        "'p1 cc', 'p2 cc', 'd db 3d', 'p1 cc', 'p2 cc', 'p3 sm 5s4s', 'p1 sm'",
        # the wrong player, a street dealt during the betting, a raise too small
        "'p1 cc', 'p3 cc'",
        "'p3 cc', 'd db AcKcQc'",
        "'p3 cbr 3'",
        # a raise nobody can call (replayed as a call), a board of the wrong size
        "'p3 cbr 30', 'p1 cbr 200', 'p2 f'",
        "'p3 cc', 'p1 cc', 'p2 cc', 'd db AcKc', 'p1 cc'",
        # the file ends while a player is to act; shows in another order
        "'p3 cc', 'p1 cc'",
        "'p3 cc', 'p1 cc', 'p2 cc', 'd db AcKcQc', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 2d', "
        "'p1 cc', 'p2 cc', 'p3 cc', 'd db 3d', 'p1 cc', 'p2 cc', 'p3 cc', 'p3 sm', "
        "'p2 sm', 'p1 sm'",
    ],
)
def test_hands_at_the_edges_of_the_fast_path(actions: str) -> None:
    deals = "'d dh p1 AhAd', 'd dh p2 7h7s', 'd dh p3 9c8c', "
    history = next(iter(read_phh_text(HEAD + f"actions = [{deals}{actions}]\n")))
    assert isinstance(history, HandHistory)
    check_same(history)


@quick(50)
@given(st.data())
def test_given_cards_the_checks_refuse_are_left_to_python(data: st.DataObject) -> None:
    """``_engine.script_cards`` hands back None for cards only Python may judge (then the
    replay words the error as before): a card twice, not a card, a board of six."""
    hole = [data.draw(st.sampled_from([(0, 1), (51, 50), (2, 2), (1, 3), (52, 4), (True, 5)]))]
    board = data.draw(st.lists(st.sampled_from([9, 10, 11, 12, 13, 0, None, -1]), max_size=6))
    moves = (
        ("deal_hole", 0, None, hole[0], 0, None, False, None),
        ("deal_board", None, None, tuple(board), 0, None, False, None),
    )
    from holdem import _engine
    from holdem.histories import MOVE_KINDS

    got = _engine.script_cards(moves, 2, MOVE_KINDS)
    known = [c for c in (*hole[0], *board) if c is not None]
    fine = (
        all(type(c) is int and 0 <= c < 52 for c in known)
        and len(set(known)) == len(known)
        and len([c for c in board if c is not None]) <= 5
    )
    assert (got is not None) == fine
    if got is not None:
        assert got[0] == [hole[0], None]
        slots = [got[1][i] for i in (1, 2, 3, 5, 7)]
        assert [c for c in slots if c is not None] == [c for c in board if c is not None]
