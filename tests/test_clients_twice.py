"""A board run twice (R10) as the players' clients present it: the Teller's
lines (the second run told as such, the first board kept, each run's pot
halves and hand descriptions named), the table model (both boards, each
hand shown on each run's board) and the full screen that draws it; and
where a player asks for it: ``holdem play --run-it-twice`` with its
``twice`` word, and the engine protocol's tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from rich.text import Text

from holdem import HandConfig
from holdem.cards import parse_cards
from holdem.cli.main import main
from holdem.clients.fullscreen.widgets import Felt, Review
from holdem.clients.model import TableModel
from holdem.clients.telling import Teller
from holdem.hand import Hand
from holdem.histories import HandHistory, read_phh, validate
from holdem.protocol import Engine
from holdem.table import HandEnded, HandStarted

NAMES = ("Ann", "Ben", "Cat")


def run_twice_hand() -> Hand:
    """Ann (the small blind, 100), Ben (the big blind, 100) and Cat (the
    button, 40) all in preflop: a main pot of 120 and a side pot of 120, run
    twice; the second run gives Ben a set of kings."""
    config = HandConfig((100, 100, 40), 2, 1, 2, run_twice=(0, 1, 2))
    hand = Hand(config, hole_cards=["AsAd", "KsKd", "QsQd"], board="2c7d9hJc3s",
                second_board="Kh8c4h5d6h")  # fmt: skip
    hand.all_in()  # (Cat, the button, first)
    hand.all_in()
    hand.call()
    assert hand.done
    return hand


def started() -> HandStarted:
    return HandStarted(hand=4, button=2, small_blind_seat=0, big_blind_seat=1, seats=(0, 1, 2),
                       stacks=(100, 100, 40), names=NAMES, small_blind=1,
                       big_blind=2)  # fmt: skip


def ended(hand: Hand) -> HandEnded:
    outcome = hand.outcome
    assert outcome is not None
    return HandEnded(hand=4, outcome=outcome, seats=(0, 1, 2), stacks=outcome.stacks)


def test_r10_the_teller_tells_a_board_run_twice_run_by_run() -> None:
    hand = run_twice_hand()
    lines: list[str] = []
    teller = Teller(0, color=False, symbols=False, write=lines.append)
    teller.event(started())
    for record in hand.log:
        teller.action(record, hand.hole_cards(0))
    teller.event(ended(hand))
    assert lines[5:] == [
        "Your cards: As Ad",
        "Cat raises to 40 and is all in",
        "You raise to 100 and are all in",
        "Ben calls 98 (100 in all) and is all in",
        "*** FLOP *** [2c 7d 9h]",
        "*** TURN *** [2c 7d 9h Jc]",
        "*** RIVER *** [2c 7d 9h Jc 3s]",
        "*** SECOND FLOP *** [Kh 8c 4h]",
        "*** SECOND TURN *** [Kh 8c 4h 5d]",
        "*** SECOND RIVER *** [Kh 8c 4h 5d 6h]",
        "You show As Ad (first run: One Pair, Aces; second run: One Pair, Aces)",
        "Ben shows Ks Kd (first run: One Pair, Kings; second run: Three of a Kind, Kings)",
        "Cat shows Qs Qd (first run: One Pair, Queens; second run: One Pair, Queens)",
        "You win 60 from side pot 1, first run",
        "You win 60 from the main pot, first run",
        "Ben wins 60 from side pot 1, second run",
        "Ben wins 60 from the main pot, second run",
        "   stacks: You 120 · Ben 120 · Cat 0",
    ]
    # the next hand starts afresh: one board, "the pot"
    teller.event(started())
    assert teller.board == teller.second_board == ()


def test_r10_a_run_out_from_the_turn_keeps_the_flop_on_both_boards() -> None:
    config = HandConfig((100, 100), 0, 1, 2, run_twice=(0, 1))
    hand = Hand(config, hole_cards=["AsAd", "KsKd"], board="2c7d9hJc3s", second_board="2c7d9hKh6h")
    hand.call()
    hand.check()
    hand.all_in()  # (on the flop)
    hand.call()
    assert hand.done
    lines: list[str] = []
    teller = Teller(1, color=False, symbols=False, write=lines.append)
    teller.names.update({0: "Ann"})
    for record in hand.log:
        teller.action(record)
    assert lines[-8:] == [
        "*** TURN *** [2c 7d 9h Jc]",
        "*** RIVER *** [2c 7d 9h Jc 3s]",
        "*** SECOND TURN *** [2c 7d 9h Kh]",
        "*** SECOND RIVER *** [2c 7d 9h Kh 6h]",
        "You show Ks Kd (first run: One Pair, Kings; second run: Three of a Kind, Kings)",
        "Ann shows As Ad (first run: One Pair, Aces; second run: One Pair, Aces)",
        "Ann wins 100 from the pot, first run",
        "You win 100 from the pot, second run",
    ]


def test_r10_the_model_and_the_full_screen_hold_both_boards() -> None:
    hand = run_twice_hand()
    model = TableModel(me=0)
    model.event(started())
    for record in hand.log:
        model.action(record, hand.hole_cards(0))
    model.event(ended(hand))
    assert model.board == tuple(parse_cards("2c7d9hJc3s"))
    assert model.second_board == tuple(parse_cards("Kh8c4h5d6h"))
    shown = {(s.name, s.run): s for s in model.shown}
    assert len(shown) == 6
    assert shown["Ben", 1].description == "Three of a Kind, Kings"
    assert shown["Ben", 1].best == tuple(parse_cards("Ks Kh Kd 8c 6h"))
    assert (shown["Ann", 0].won, shown["Ann", 1].won) == (120, 0)
    assert (shown["Ben", 0].won, shown["Ben", 1].won) == (0, 120)
    review = model.reviews[0]
    assert review.board == model.board and review.second_board == model.second_board
    assert review.net == 20 and model.visible_cards() >= set(model.second_board)
    teller = Teller(0, color=False, symbols=False)
    drawn: list[Text] = []
    felt, last = Felt(), Review()
    felt.update = last.update = drawn.append  # type: ignore[method-assign]  # (no app to draw in)
    felt.draw(model, teller)
    text = drawn[-1].plain
    assert "Board  2c 7d 9h Jc 3s\nSecond run  Kh 8c 4h 5d 6h" in text
    assert "Ben (second run): Ks Kh Kd 8c 6h  Three of a Kind, Kings  wins 120" in text
    assert "You (first run): " in text
    last.draw(model, teller)
    assert "#4 As Ad [2c 7d 9h Jc 3s] [Kh 8c 4h 5d 6h] You 60, You 60" in drawn[-1].plain


def test_r10_holdem_play_runs_it_twice_until_the_player_says_no(tmp_path: Path) -> None:
    """``holdem play --run-it-twice``: the bots agree, and so does the player
    until ``twice off``, which holds from the next hand (the hand being
    played was dealt with the yes); every hand history written validates."""
    args = ["play", "--game", "cash", "--seats", "2", "--bots", "calling-station", "--seed", "1",
            "--speed", "0", "--run-it-twice", "--histories", str(tmp_path / "hands")]  # fmt: skip
    done = CliRunner().invoke(main, args, input="twice maybe\ntwice off\na\na\nq\n")
    assert done.exit_code == 0, done.output
    out = done.output
    assert "holdem play: a cash game at 1/2, run it twice, 2 seats" in out
    assert ("Not taken: 'twice maybe': 'twice off' says no to running it twice from the next "
            "hand, 'twice on' yes again.") in out  # fmt: skip
    assert "You said no to running it twice: from the next hand, the board is run once." in out
    first, second = out.split("── Hand #2")[0], out.split("── Hand #2")[1].split("── Hand #3")[0]
    assert "*** SECOND FLOP ***" in first and "You win 200 from the pot, second run" in first
    assert "*** RIVER ***" in second and "SECOND" not in second
    [path] = sorted((tmp_path / "hands").glob("*.phhs"))
    hands = [h for h in read_phh(path) if isinstance(h, HandHistory)]
    assert len(hands) >= 2 and all(validate(h) == [] for h in hands)
    assert "_second_run" in path.read_text(encoding="utf-8")
    # a table that does not run it twice says so
    done = CliRunner().invoke(main, [*args[:-3], "--histories", str(tmp_path / "more")],
                              input="twice off\nq\n")  # fmt: skip
    assert ("Not taken: this table does not run it twice (run_it_twice is off): holdem play "
            "--run-it-twice makes a table that does.") in done.output  # fmt: skip


def test_r10_the_engine_protocol_s_tables_run_it_twice_and_take_a_no() -> None:
    """The engine protocol's ``create_table`` takes ``run_it_twice``; the
    ``run_twice`` request says a seat's yes or no (its state says it); two
    client seats all in preflop play two boards, four records of the second
    run's deals and pots of ``run`` 1."""
    engine = Engine(clock=lambda: 0.0)
    me = engine.connect()
    ident = 0

    def ask(kind: str, **fields: object) -> list[dict[str, Any]]:
        nonlocal ident
        ident += 1
        line = json.dumps({"id": ident, "type": kind, **fields})
        return [m for _, m in engine.handle(me, line)]

    ask("hello", version=1)
    (made,) = ask("create_table", seed=3, small_blind=1, big_blind=2, run_it_twice=True,
                  players=[{"seat": 0, "name": "Ann", "chips": 100},
                           {"seat": 1, "name": "Ben", "chips": 100}])  # fmt: skip
    state = made["result"]
    assert state["run_it_twice"] is True and [s["run_twice"] for s in state["seats"]] == [True] * 2
    (said,) = ask("run_twice", table="t1", seat=1, agree=False)
    assert said["result"] == {"table": "t1", "seat": 1, "agree": False}
    (state,) = ask("state", table="t1")
    assert [s["run_twice"] for s in state["result"]["seats"]] == [True, False]
    ask("run_twice", table="t1", seat=1)  # (yes again: agree defaults to true)
    told = ask("start", table="t1")
    answered = 0
    while answered < len(turns := [m for m in told if m.get("event") == "turn"]):
        legal = turns[answered]["view"]["legal"]
        kind = "all_in" if legal["all_in"] is not None else "call"
        told += ask("act", table="t1", seat=turns[answered]["seat"], action={"kind": kind})
        answered += 1
    second = [m for m in told if m.get("event") == "action"
              and m["action"]["kind"] == "deal_board" and m["action"].get("run") == 1]  # fmt: skip
    assert [m["action"]["street"] for m in second] == ["flop", "turn", "river"]
    (ended,) = [m for m in told if m.get("event") == "hand_ended"]
    assert [p.get("run", 0) for p in ended["outcome"]["pots"]] == [0, 1]
    assert sum(ended["stacks"]) == 200
    ask("create_table", small_blind=1, big_blind=2,
                 players=[{"seat": 0, "name": "Cy", "chips": 100}])  # fmt: skip
    (refused,) = ask("run_twice", table="t2", seat=0, agree=False)
    assert refused["error"]["code"] == "table_error"
    assert "does not run it twice" in refused["error"]["message"]
