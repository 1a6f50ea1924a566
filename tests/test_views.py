"""Player views (RULES.md R14): snapshots that stay exact and hold nothing hidden.

``hand.view(seat)`` is built cheaply (tuples of the small lists, lazy
``statuses`` and ``shown``).  These tests rebuild every view the slow way,
from the hand's public properties at the moment the view was taken, and
check field by field that the view still says exactly that after the hand
has moved on or been undone with ``pop()``; and that no view of a seat
holds another seat's unshown hole cards anywhere, private storage included.
"""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hand_stateful import choose, configs

from holdem import PlayerView
from holdem.actions import Action, ActionKind
from holdem.cards import format_card
from holdem.config import HandConfig
from holdem.hand import Hand, Phase
from holdem.views import _ViewSlots

FIELDS = (
    "seat", "hole_cards", "config", "phase", "street", "board", "stacks", "bets",
    "contributions", "statuses", "pot", "current_bet", "actor", "legal", "shown", "log",
    "outcome",
)  # fmt: skip


def slow_view(hand: Hand, seat: int | None) -> dict[str, Any]:
    """What the view of ``seat`` must say, from the hand's public properties
    (the way views were built before they were made cheap)."""
    log = hand.log
    actor = hand.actor
    return {
        "seat": seat,
        "hole_cards": hand.hole_cards(seat) if seat is not None else None,
        "config": hand.config,
        "phase": hand.phase,
        "street": hand.street,
        "board": hand.board,
        "stacks": hand.stacks,
        "bets": hand.bets,
        "contributions": hand.contributions,
        "statuses": hand.statuses,
        "pot": hand.pot,
        "current_bet": hand.current_bet,
        "actor": actor,
        "legal": hand.legal_actions() if actor is not None and actor == seat else None,
        "shown": tuple(
            (a.seat, a.cards) for a in log if a.kind is ActionKind.SHOW and a.seat is not None
        ),
        "log": log,
        "outcome": hand.outcome,
    }


def slow_dict(ref: dict[str, Any]) -> dict[str, Any]:
    """``to_dict()`` of a view, from :func:`slow_view` (the wire form)."""

    def cards(c: Any) -> list[str]:
        return [format_card(x) for x in c or ()]

    return {
        "seat": ref["seat"],
        "hole_cards": cards(ref["hole_cards"]) if ref["hole_cards"] else None,
        "config": ref["config"].to_dict(),
        "phase": ref["phase"].value,
        "street": ref["street"].label,
        "board": cards(ref["board"]),
        "stacks": list(ref["stacks"]),
        "bets": list(ref["bets"]),
        "contributions": list(ref["contributions"]),
        "statuses": list(ref["statuses"]),
        "pot": ref["pot"],
        "current_bet": ref["current_bet"],
        "actor": ref["actor"],
        "legal": ref["legal"].to_dict() if ref["legal"] is not None else None,
        "shown": [{"seat": s, "cards": cards(c)} for s, c in ref["shown"]],
        "log_start": 0,
        "log": [a.to_dict() for a in ref["log"]],
        "outcome": ref["outcome"].to_dict() if ref["outcome"] is not None else None,
    }


def slow_repr(ref: dict[str, Any]) -> str:
    return "PlayerView(" + ", ".join(f"{k}={ref[k]!r}" for k in FIELDS) + ")"


class Taken:
    """A view, what it must say, and what its seat may know when it was taken."""

    def __init__(self, hand: Hand, seat: int | None, rnd: random.Random) -> None:
        self.view = hand.view(seat)
        self.ref = slow_view(hand, seat)
        self.dict = slow_dict(self.ref)
        self.repr = slow_repr(self.ref)
        n = hand.config.players
        shown = {a.seat for a in hand.log if a.kind is ActionKind.SHOW}
        allowed = set(hand.board)
        for s in range(n):
            if s == seat or s in shown:
                allowed.update(hand.hole_cards(s) or ())
        self.allowed = allowed
        self.hidden = {
            c for s in range(n) if s != seat and s not in shown for c in (hand.hole_cards(s) or ())
        } | {c for c in hand.burns if c is not None}
        assert not self.hidden & allowed
        # some views are read at once (their lazy parts filled now), others only later
        if rnd.random() < 0.5:
            self.check(rnd, full=False)

    def check(self, rnd: random.Random, full: bool = True) -> None:
        view, ref = self.view, self.ref
        for name in rnd.sample(FIELDS, len(FIELDS)):  # lazy parts read in any order
            assert getattr(view, name) == ref[name], name
        assert view.log_length == len(ref["log"])
        if not full:
            return
        k = rnd.randint(0, len(ref["log"]))
        assert view.log_since(k) == ref["log"][k:]
        assert view.log_since(0) == ref["log"] and view.log_since(len(ref["log"])) == ()
        assert view.to_dict() == self.dict
        assert repr(view) == self.repr
        assert view == copy.copy(view) and hash(view) == hash(pickle.loads(pickle.dumps(view)))
        self.check_private()

    def check_private(self) -> None:
        """No card the seat may not know, anywhere in the view (R14)."""
        seen = cards_in(self.view)
        assert seen <= self.allowed
        assert not seen & self.hidden
        words = set(str(self.view.to_dict()).replace("'", " ").replace(",", " ").split())
        assert not words & {format_card(c) for c in self.hidden}


def cards_in(view: PlayerView) -> set[int]:
    """Every card in a view's storage, the lazy caches included."""
    cards: set[int] = set()
    known = {
        "seat", "config", "phase", "street", "stacks", "bets", "contributions", "current_bet",
        "actor", "legal", "_codes", "_statuses",
    }  # fmt: skip
    for name in _ViewSlots.__slots__:
        value = object.__getattribute__(view, name)
        if name in known or value is None:
            continue
        if name in ("hole_cards", "board"):
            cards.update(value)
        elif name == "log":
            for a in value:
                cards.update(a.cards)
        elif name == "_shown":
            for _, shown in value:
                cards.update(shown)
        elif name == "outcome":
            for h in value.shown:
                cards.update(h.cards)
        else:  # a new slot: say here whether it can hold cards
            raise AssertionError(f"unknown slot {name} of PlayerView")
    return cards


@settings(max_examples=100, deadline=None)
@given(
    config=configs(),
    seed=st.integers(0, 2**32 - 1),
    auto=st.booleans(),
    data=st.data(),
)
def test_views_stay_exact_snapshots_through_play_and_undo(
    config: HandConfig, seed: int, auto: bool, data: st.DataObject
) -> None:
    hand = Hand(config, rng=seed, auto=auto)
    rnd = random.Random(seed)
    n = config.players
    taken: list[Taken] = []
    pushes = 0
    for _ in range(data.draw(st.integers(0, 60), label="steps")):
        seats = {None, rnd.randrange(n), hand.actor}
        taken += [Taken(hand, seat, rnd) for seat in seats]
        moves = []
        if hand.actor is not None:
            moves += ["push", "act"]
        if hand.can_step():
            moves.append("step")
        if pushes:
            moves.append("pop")
        if not moves:
            break
        move = data.draw(st.sampled_from(moves), label="move")
        if move == "pop":
            hand.pop()
            pushes -= 1
            for t in taken:  # undoing must not change what an earlier view says
                t.check(rnd, full=False)
        elif move == "step":
            hand.step()
        else:
            legal = hand.legal_actions()
            assert legal is not None
            kind, to = choose(legal, rnd)
            if move == "push":
                hand.push(kind, to)
                pushes += 1
            else:
                hand.act(kind, to)
    taken += [Taken(hand, seat, rnd) for seat in [None, *range(n)]]
    for t in taken:
        t.check(rnd)


def play_out(hand: Hand, rnd: random.Random) -> None:
    while not hand.done:
        legal = hand.legal_actions()
        if legal is None:
            hand.step()
        else:
            kind, to = choose(legal, rnd)
            hand.act(kind, to)


@settings(max_examples=60, deadline=None)
@given(config=configs(), seed=st.integers(0, 2**32 - 1), auto=st.booleans())
def test_explored_futures_leave_nothing_in_old_views(
    config: HandConfig, seed: int, auto: bool
) -> None:
    """A referee searches to the end of the hand with push/pop (showdowns
    included), taking views on the way, and undoes it all: every view still
    says what it said, and views taken before hold no card shown only in
    the search."""
    hand = Hand(config, rng=seed, auto=auto)
    rnd = random.Random(seed)
    everyone = [None, *range(config.players)]
    taken = [Taken(hand, seat, rnd) for seat in everyone]
    depth = 0
    while not hand.done:
        legal = hand.legal_actions()
        if legal is None:
            hand.step()  # dealer steps with auto=False: undone with the push before them
            taken.append(Taken(hand, rnd.choice(everyone), rnd))
            continue
        if legal.show or legal.muck:
            assert hand.phase is Phase.SHOWDOWN
        kind, to = choose(legal, rnd)
        hand.push(kind, to)
        depth += 1
        taken += [Taken(hand, seat, rnd) for seat in {None, hand.actor, rnd.choice(everyone)}]
    for _ in range(depth):
        hand.pop()
    for t in taken:
        t.check(rnd)


# ---------------------------------------------------------------- examples


def heads_up() -> Hand:
    cfg = HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2)
    return Hand(cfg, hole_cards=["AsKs", "7c2d"], board="QsJsTs2h3h")


def test_a_view_is_frozen() -> None:
    view = heads_up().view(0)
    with pytest.raises(FrozenInstanceError):
        view.stacks = (1, 2)  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        view._statuses = ("folded", "folded")  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del view.seat  # type: ignore[misc]
    with pytest.raises(AttributeError):
        view.extra = 1  # type: ignore[attr-defined]


def test_an_old_view_keeps_its_moment() -> None:
    hand = heads_up()
    before = hand.view(1)
    hand.push("call")
    hand.push("check")
    during = hand.view(None)
    assert during.street.label == "flop" and len(during.board) == 3
    hand.pop()
    hand.pop()
    hand.raise_to(10)
    after = hand.view(1)
    assert before.actor == 0 and before.legal is None and before.board == ()
    assert before.stacks == (99, 98) and before.statuses == ("active", "active")
    assert [a.kind for a in before.log][-1] is ActionKind.DEAL_HOLE
    assert len(during.log) == 6 and during.statuses == ("active", "active")
    assert after.actor == 1 and after.legal is not None and after.legal.call == 10
    assert before != after and before == pickle.loads(pickle.dumps(before))


def test_log_since_sends_only_the_new_records() -> None:
    hand = heads_up()
    first = hand.view(1)
    received: list[Action] = list(first.log_since(0))
    assert len(received) == first.log_length == 3
    hand.call()
    hand.check()
    later = hand.view(1)
    new = later.log_since(len(received))
    assert [a.kind for a in new] == [ActionKind.CALL, ActionKind.CHECK, ActionKind.DEAL_BOARD]
    received += new
    assert tuple(received) == later.log and later.log_length == 6
    assert later.log_since(later.log_length) == ()
    for bad in (-1, 7):
        with pytest.raises(ValueError, match=r"outside 0\.\.6"):
            later.log_since(bad)
    with pytest.raises(TypeError):
        later.log_since(True)
    with pytest.raises(TypeError):
        later.log_since("1")  # type: ignore[arg-type]


def test_shown_cards_and_outcome_at_showdown() -> None:
    hand = heads_up()
    hand.call()
    for _ in range(3 * 2 + 2):
        if hand.done:
            break
        hand.check()
    assert hand.done
    view = hand.view(1)
    assert view.phase is Phase.COMPLETE and view.pot == 0
    assert view.shown == slow_view(hand, 1)["shown"] and view.shown[0][0] == 1
    assert view.outcome == hand.outcome
    spectator = hand.view(None)
    assert spectator.hole_cards is None and spectator.shown == view.shown


def test_views_compare_by_value_and_match_like_records() -> None:
    hand = heads_up()
    a, b = hand.view(0), hand.view(0)
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != hand.view(1) and a != hand.view(None) and a != "view"
    assert copy.deepcopy(a) == a
    match a:
        case PlayerView(seat, hole, _, phase):
            assert seat == 0 and hole == hand.hole_cards(0) and phase is Phase.BETTING
        case _:
            raise AssertionError("no match")
