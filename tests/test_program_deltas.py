"""A program's turns are deltas within a hand only (issue 32): its first turn
of every hand is whole (``log_start`` 0, with ``config``), also after a hand
in which it had no turn (a walk), and each delta read with the view before
it is the view the engine had; the same for a room's turns."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rooms_helpers import players

from holdem import Decision, Hand, HandConfig, LegalActions, PlayerView
from holdem.bots import make_bot
from holdem.protocol.programs import Program, Turns
from holdem.rooms import Room
from holdem.table import Decide

#: A program that checks or folds, and copies every line it reads to its stderr.
FOLDER = """\
import json, sys
for line in sys.stdin:
    sys.stderr.write(line)
    sys.stderr.flush()
    turn = json.loads(line)
    if turn.get("event") == "turn":
        kind = "check" if turn["view"]["legal"]["check"] else "fold"
        print(json.dumps({"id": turn["id"], "action": {"kind": kind}}), flush=True)
"""


def check_or_fold(view: PlayerView, legal: LegalActions) -> Decision:
    return legal.check_or_fold()


def test_a_program_s_first_turn_after_a_walk_is_whole(tmp_path: Path) -> None:
    """Heads-up, as ``holdem simulate`` deals (a configuration by button, the
    same object each time): the program folds its small blind, the other
    player folds its own (a walk: the program has no turn), and the program's
    next turn, in the third hand, holds the whole view again."""
    script, log = tmp_path / "folder.py", tmp_path / "lines.log"
    script.write_text(FOLDER)
    configs = [HandConfig(stacks=(200, 200), button=b, small_blind=1, big_blind=2) for b in (0, 1)]
    with Program([sys.executable, str(script)], budget=10, log=log) as program:
        seats: list[Decide] = [program, check_or_fold]
        for number in range(3):
            hand = Hand(configs[number % 2], rng=number)
            while not hand.done:
                seat, legal = hand.actor, hand.legal_actions()
                assert seat is not None and legal is not None
                hand.act(seats[seat](hand.view(seat), legal), seat=seat)
            assert hand.outcome is not None and len(hand.outcome.net) == 2
        assert program.failure is None and program.decisions == 2
    turns = [json.loads(line) for line in log.read_text().splitlines()][1:]  # (after hello)
    assert [t["view"]["log_start"] for t in turns] == [0, 0]
    assert all("config" in t["view"] and len(t["view"]["log"]) == 3 for t in turns)


class Fake:
    """A program's seat in process: its turn lines written as a program's
    (:class:`Turns`), read back as a program reads them, checked against the
    view the engine had; its decisions a bot's."""

    def __init__(self, bot: Decide) -> None:
        self.turns, self.bot = Turns(5.0), bot
        self.kept: PlayerView | None = None  # the view read back at the last turn
        self.hand = -1  # the number of the hand of that turn
        self.number = 0  # the hand being played (the test sets it)
        self.whole = self.deltas = 0

    def __call__(self, view: PlayerView, legal: LegalActions) -> Decision:
        line = json.loads(self.turns.line(self.whole + self.deltas + 1, view))
        data = line["view"]
        start = data["log_start"]
        if self.hand != self.number:  # (its first turn of the hand: whole)
            assert start == 0 and "config" in data, (self.number, data)
            self.whole += 1
        else:  # (a delta of exactly what it has)
            assert self.kept is not None and start == self.kept.log_length, (start, self.kept)
            assert "config" not in data
            self.deltas += 1
        read = PlayerView.from_dict(data, self.kept if start else None)
        assert read == view and read.to_dict() == view.to_dict()
        self.kept, self.hand = read, self.number
        return self.bot(view, legal)


@st.composite
def tables(draw: Any) -> tuple[list[HandConfig], list[int], set[int], list[str]]:
    """A table: the configurations its hands are dealt with (by button, and
    a few stacks of each: the same objects again and again, as a
    simulation's), the deals (indexes into them), the seats played by
    programs and each seat's bot (a program's decides for it)."""
    n = draw(st.integers(2, 6))
    stacks = draw(st.lists(st.tuples(*[st.integers(1, 600)] * n), min_size=1, max_size=3))
    configs = [
        HandConfig(stacks=s, button=b, small_blind=1, big_blind=2) for s in stacks for b in range(n)
    ]
    deals = draw(st.lists(st.integers(0, len(configs) - 1), min_size=1, max_size=12))
    level = st.sampled_from(["check-or-fold", "random", "calling-station", "easy", "normal"])
    seats = draw(st.lists(level, min_size=n, max_size=n))
    programs = draw(st.sets(st.integers(0, n - 1), min_size=1))
    return configs, deals, programs, seats


@settings(max_examples=60, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32))
def test_every_program_s_first_turn_of_a_hand_is_whole_and_its_deltas_read_back_exactly(
    table: tuple[list[HandConfig], list[int], set[int], list[str]], seed: int
) -> None:
    configs, deals, programs, levels = table
    rng = random.Random(seed)

    bots = [
        check_or_fold if level == "check-or-fold" else make_bot(level, seed=seed + p)
        for p, level in enumerate(levels)
    ]
    fakes = {p: Fake(bots[p]) for p in programs}
    seats = [fakes.get(p, bot) for p, bot in enumerate(bots)]
    for number, deal in enumerate(deals):
        for fake in fakes.values():
            fake.number = number
        hand = Hand(configs[deal], rng=rng.getrandbits(32))
        while not hand.done:
            seat = hand.actor
            assert seat is not None
            legal = hand.legal_actions()
            assert legal is not None
            hand.act(seats[seat](hand.view(seat), legal), seat=seat)


def test_a_room_s_first_turn_of_a_hand_is_whole_after_a_walk() -> None:
    """A room's turns are deltas within a hand only: heads-up, both players
    checking or folding (every other hand a walk: the big blind has no
    turn), each player's first turn of a hand is whole, and every turn read
    with the one before is the view the room gives when asked."""
    room = Room(seed=2)
    people = players(room, 2)
    made = people[0].result("create_table", name="p0", game="cash", pace=0, pause=0, seats=2)
    people[1].result("join", code=made["code"], name="p1")
    people[0].result("start", table=made["table"])
    kept: dict[int, tuple[int, PlayerView]] = {}
    hands: set[int] = set()
    for _ in range(40):
        pending = [(p, t) for p in people for t in p.turns()]
        if not pending:
            break
        person, turn = pending[0]
        turn["_answered"] = True
        data, number = turn["view"], turn["hand"]
        last = kept.get(person.conn)
        if last is None or last[0] != number:
            assert data["log_start"] == 0 and "config" in data, (number, data)
        read = PlayerView.from_dict(data, last[1] if last and data["log_start"] else None)
        assert read.to_dict() == person.result("view", table=made["table"])["view"]
        kept[person.conn] = (number, read)
        hands.add(number)
        legal = data["legal"]
        person.ask(
            "act", table=made["table"], action={"kind": "check" if legal["check"] else "fold"}
        )
    assert len(hands) > 10
