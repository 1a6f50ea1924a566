"""Run it twice (RULES.md R10): the hand engine, the table option, and hand
histories that run the board twice (PokerStars' ``*** FIRST FLOP ***`` ...
``*** SECOND SHOW DOWN ***``, PHH's ``_second_run``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from holdem import Decision
from holdem.actions import Action, ActionKind
from holdem.cards import parse_cards
from holdem.config import HandConfig
from holdem.errors import ConfigError, InvalidCardError, TableError, WireError
from holdem.hand import Hand
from holdem.histories import (
    DEAL_SECOND_BOARD,
    SECOND_RUN,
    HandHistory,
    read_phh_text,
    read_pokerstars_text,
    record,
    replay,
    to_pokerstars,
    validate,
    validate_file,
    write_phh,
)
from holdem.protocol.texts import records_text
from holdem.table import Table

VARIANTS = Path(__file__).parent / "data" / "pokerstars" / "variants"
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pokerstars"


def all_in_preflop(config: HandConfig, **cards: object) -> Hand:
    """The hand with everybody all-in preflop (calls of the first all-in)."""
    hand = Hand(config, **cards)  # type: ignore[arg-type]
    hand.all_in()
    while not hand.done:
        hand.call()
    return hand


# ---------------------------------------------------------------- the engine


def test_r10_all_in_before_the_river_and_all_agree_the_board_runs_twice() -> None:
    config = HandConfig((100, 100), 0, 1, 2, run_twice=(0, 1))
    hand = all_in_preflop(
        config,
        hole_cards=["AsAd", "KsKd"],
        board="2c7d9hJc3s",
        second_board="Kh8c4h5d6h",  # (the second run gives the kings a set)
    )
    assert hand.board == tuple(parse_cards("2c7d9hJc3s"))
    assert hand.second_board == tuple(parse_cards("Kh8c4h5d6h"))
    outcome = hand.outcome
    assert outcome is not None
    # each pot in two halves, each won on its own board
    assert [(p.amount, p.winners, p.run) for p in outcome.pots] == [(100, (0,), 0), (100, (1,), 1)]
    assert outcome.stacks == (100, 100)
    assert [(s.seat, s.run) for s in outcome.shown] == [(0, 0), (1, 0), (0, 1), (1, 1)]
    second = [a for a in hand.log if a.kind is ActionKind.DEAL_BOARD and a.run == 1]
    assert [a.street.label for a in second] == ["flop", "turn", "river"]
    assert str(second[0]) == "flop (second run): Kh 8c 4h"


def test_r10_the_second_run_s_streets_are_named_run_on_the_wire_as_its_pots_are() -> None:
    """One word for the second run: its deal_board records carry "run": 1 as
    its pots and shown hands do (the C writer and to_dict alike); the
    records once written with "pot": 1 (hands a room kept) read the same."""
    config = HandConfig((100, 100), 0, 1, 2, run_twice=(0, 1))
    hand = all_in_preflop(config, hole_cards=["AsAd", "KsKd"], board="2c7d9hJc3s",
                          second_board="Kh8c4h5d6h")  # fmt: skip
    boards = [a.to_dict() for a in hand.log if a.kind is ActionKind.DEAL_BOARD]
    assert [(b["street"], b.get("run")) for b in boards] == [
        ("flop", None), ("turn", None), ("river", None), ("flop", 1), ("turn", 1), ("river", 1)
    ]  # fmt: skip
    assert all("pot" not in b for b in boards)
    written = json.loads(records_text(tuple(hand.log)))  # (the C writer's)
    assert written == [a.to_dict() for a in hand.log]
    assert [Action.from_dict(d) for d in written] == list(hand.log)
    second_flop = next(a for a in hand.log if a.run and a.street.label == "flop")
    old = {"kind": "deal_board", "street": "flop", "cards": ["Kh", "8c", "4h"], "pot": 1}
    assert Action.from_dict(old) == second_flop == Action.from_dict({**old, "pot": -1, "run": 1})
    with pytest.raises(WireError, match="run"):
        Action.from_dict({**old, "run": 2})


def test_r10_the_odd_chip_goes_to_the_first_run() -> None:
    # a pot of 201: 101 on the first board, 100 on the second
    config = HandConfig((100, 100, 1), 2, 1, 2, run_twice=(0, 1, 2))
    hand = Hand(config, hole_cards=["AsAd", "KsKd", "QsQd"], board="2c7d9hJc3s",
                second_board="Kh8c4h5d6h")  # fmt: skip
    hand.call()  # (the button, all-in for 1)
    hand.all_in()
    hand.call()
    outcome = hand.outcome
    assert outcome is not None
    # a main pot of 3 (2 and 1) and a side pot of 198 (99 and 99)
    assert [(p.amount, p.run) for p in outcome.pots] == [(2, 0), (99, 0), (1, 1), (99, 1)]
    assert sum(outcome.stacks) == 201


def test_r10_the_board_runs_once_unless_every_player_left_agrees() -> None:
    config = HandConfig((100, 100, 100), 2, 1, 2, run_twice=(0, 1))  # the button says no
    hand = all_in_preflop(config, rng=3)
    assert hand.second_board == () and len(hand.outcome.pots) == 1  # type: ignore[union-attr]
    # nobody agrees: the default
    hand = all_in_preflop(HandConfig((100, 100), 0, 1, 2), rng=3)
    assert hand.second_board == ()


def test_r10_a_player_left_with_chips_has_matched_and_agrees_the_board_runs_twice() -> None:
    # the big stack calls an all-in and has chips behind: no more betting
    config = HandConfig((300, 100), 0, 1, 2, run_twice=(0, 1))
    hand = Hand(config, rng=8)
    hand.raise_to(100)  # (not all-in: 200 behind)
    hand.call()  # the big blind all-in for 100
    assert hand.done and len(hand.second_board) == 5


def test_r10_no_second_run_while_betting_goes_on_or_from_the_river() -> None:
    config = HandConfig((100, 100, 100), 2, 1, 2, run_twice=(0, 1, 2))
    hand = Hand(config, rng=4)
    while not hand.done:  # everybody checks and calls to the river: nobody all-in
        hand.check_or_call()
    assert hand.second_board == ()
    # all-in on the river: nothing is left to run twice
    hand = Hand(config, rng=4)
    while hand.street.label != "river":
        hand.check_or_call()
    hand.all_in()
    hand.call()
    hand.call()
    assert hand.done and hand.second_board == ()


def test_r10_run_twice_is_checked_and_dealt_from_the_hands_deck() -> None:
    with pytest.raises(ConfigError, match="run_twice"):
        HandConfig((100, 100), 0, 1, 2, run_twice=(2,))
    with pytest.raises(ConfigError, match="nobody runs it twice"):
        Hand(HandConfig((100, 100), 0, 1, 2), rng=1, second_board="2c3c4c5c6c")
    with pytest.raises(InvalidCardError, match="Ks"):  # a hole card on the second board
        Hand(HandConfig((100, 100), 0, 1, 2, run_twice=(0, 1)), hole_cards=["AsAd", "KsKd"],
             board="2c7d9hJc3s", second_board="Ks8c4h5d6h")  # fmt: skip
    with pytest.raises(InvalidCardError, match="9h"):  # a first-run card dealt again
        Hand(HandConfig((100, 100), 0, 1, 2, run_twice=(0, 1)), hole_cards=["AsAd", "KsKd"],
             board="2c7d9hJc3s", second_board="2c7d3h9h6h")  # fmt: skip
    # the same seed deals the same first run as without it, and a second run of other cards
    once = all_in_preflop(HandConfig((100, 100), 0, 1, 2), rng=11)
    twice = all_in_preflop(HandConfig((100, 100), 0, 1, 2, run_twice=(0, 1)), rng=11)
    assert twice.board == once.board
    holes = {c for seat in (0, 1) for c in twice.hole_cards(seat) or ()}
    assert not set(twice.second_board) & (set(twice.board) | holes)
    wire = HandConfig((100, 100), 0, 1, 2, run_twice=(0, 1))
    assert HandConfig.from_dict(wire.to_dict()) == wire


# ---------------------------------------------------------------- the table


def test_r10_table_option_run_it_twice_off_by_default_and_each_player_may_say_no() -> None:
    def shove(view: object, legal: object) -> Decision:
        return Decision.all_in() if legal.all_in else Decision.call()  # type: ignore[attr-defined]

    plain = Table(seats=2, small_blind=1, big_blind=2, rng=3)
    assert plain.run_it_twice is False
    plain.sit(0, "Ann", 100)
    plain.sit(1, "Bob", 100)
    assert plain.play_hand(shove).played.second_board == ()
    with pytest.raises(TableError, match="does not run it twice"):
        plain.agree_to_run_twice(0, False)

    table = Table(seats=3, small_blind=1, big_blind=2, rng=3, run_it_twice=True)
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        table.sit(seat, name, 100)
    result = table.play_hand(shove)
    assert len(result.played.second_board) == 5
    assert sum(result.stacks.values()) == 300
    table.agree_to_run_twice(1, False)
    data = table.snapshot()
    assert (data["run_it_twice"], data["twice_declined"]) == (True, [1])
    again = Table.from_snapshot(data, rng=5)
    assert again.snapshot() == data
    # a snapshot of before the option: off, nobody said no
    old = {k: v for k, v in data.items() if k not in ("run_it_twice", "twice_declined")}
    assert Table.from_snapshot(old, rng=5).run_it_twice is False
    # one player says no: the board runs once
    table = Table(seats=2, small_blind=1, big_blind=2, rng=3, run_it_twice=True)
    table.sit(0, "Ann", 100)
    table.sit(1, "Bob", 100)
    table.agree_to_run_twice(1, False)
    assert table.play_hand(shove).played.second_board == ()


# ---------------------------------------------------------------- hand histories


def stars(name: str) -> str:
    return (VARIANTS / name).read_text(encoding="utf-8")


def test_r10_pokerstars_hands_run_twice_read_and_are_checked() -> None:
    report = validate_file(str(VARIANTS / "run_twice_then_a_hand.txt"))
    assert (report.status, report.hands, report.problems) == ("OK", 2, [])
    hand = next(h for h in read_pokerstars_text(stars("run_twice_then_a_hand.txt")))
    assert isinstance(hand, HandHistory)
    assert [m.kind for m in hand.moves].count(DEAL_SECOND_BOARD) == 3
    assert hand.claims.collected == (
        (0, 99, "pot"),
        (1, 99, "pot"),
        (0, 99, "pot" + SECOND_RUN),
        (1, 99, "pot" + SECOND_RUN),
    )
    # the second run's pot to one player alone: the rules split it (a tie on each board)
    wrong = stars("run_twice_then_a_hand.txt").replace(
        "*** SECOND SHOW DOWN ***\nben: shows [Ad Ks] (three of a kind, Sixes)\n"
        "ann: shows [Kh Ac] (three of a kind, Sixes)\nben collected $99 from pot\n"
        "ann collected $99 from pot",
        "*** SECOND SHOW DOWN ***\nben: shows [Ad Ks] (three of a kind, Sixes)\n"
        "ann: shows [Kh Ac] (three of a kind, Sixes)\nben collected $198 from pot",
    )
    wrong = wrong.replace(
        "won ($99) with a pair of Queens, and won ($99) with three of a kind, Sixes\n"
        "Seat 2: ben",
        "won ($99) with a pair of Queens, and lost with three of a kind, Sixes\nSeat 2: ben",
    ).replace("and won ($99) with three of a kind, Sixes\n\n", "and won ($198) with three of "
              "a kind, Sixes\n\n")  # fmt: skip
    assert wrong != stars("run_twice_then_a_hand.txt")
    bad = next(iter(read_pokerstars_text(wrong)))
    assert isinstance(bad, HandHistory)
    assert [p.code for p in validate(bad) if p.severity == "error"][:1] == ["collected"]


def test_r10_a_second_run_where_the_rules_run_the_board_once_is_an_error() -> None:
    # ann all-in, two players behind with chips: the betting goes on after the flop
    text = """PokerStars Hand #3103: Hold'em No Limit ($1/$2 USD) - 2021/03/04 21:02:00 ET
Table 'Ruchbah' 6-max Seat #1 is the button
Seat 1: ann ($200 in chips)
Seat 2: ben ($300 in chips)
Seat 3: cy ($300 in chips)
ben: posts small blind $1
cy: posts big blind $2
*** HOLE CARDS ***
ann: raises $198 to $200 and is all-in
ben: calls $199
cy: calls $198
*** FIRST FLOP *** [Qd Qs 4h]
*** FIRST TURN *** [Qd Qs 4h] [Ts]
*** FIRST RIVER *** [Qd Qs 4h Ts] [7s]
*** SECOND FLOP *** [6s 8h 6h]
*** SECOND TURN *** [6s 8h 6h] [Td]
*** SECOND RIVER *** [6s 8h 6h Td] [6c]
*** FIRST SHOW DOWN ***
"""
    [hand] = read_pokerstars_text(text)
    assert isinstance(hand, HandHistory)
    [error] = [p for p in replay(hand).problems if p.severity == "error"]
    assert error.code == "order" and "the betting is not over" in error.message
    # the betting over, a second run the rules do not deal: the river was bet on
    late = text.replace("*** FIRST FLOP ***", "*** FLOP ***").replace(
        "*** FIRST TURN ***", "*** TURN ***"
    )
    [hand] = read_pokerstars_text(late)
    assert isinstance(hand, HandHistory)
    assert [p.code for p in replay(hand).problems if p.severity == "error"][:1] == ["order"]


def test_r10_hands_run_twice_read_back_from_both_writers() -> None:
    [hand] = [h for h in read_pokerstars_text(stars("run_twice_then_a_hand.txt"))][:1]
    assert isinstance(hand, HandHistory)
    [back] = read_pokerstars_text(to_pokerstars(hand))
    assert isinstance(back, HandHistory)
    assert back.moves == tuple(m._replace(line=b.line) for m, b in zip(hand.moves, back.moves,
                                                                       strict=True))  # fmt: skip
    assert back.claims.collected == hand.claims.collected
    out = io.StringIO()
    write_phh([hand], out, many=False)
    assert "_second_run = [" in out.getvalue()
    [again] = read_phh_text(out.getvalue())
    assert isinstance(again, HandHistory)
    assert [m._replace(line=0) for m in again.moves] == [m._replace(line=0) for m in hand.moves]
    assert validate(again) == []


def test_r10_a_hand_run_twice_at_a_table_is_recorded_and_validates() -> None:
    config = HandConfig((100, 100, 300), 2, 1, 2, run_twice=(0, 1, 2))
    hand = Hand(config, rng=5)
    hand.raise_to(100)
    hand.call()
    hand.call()
    history = record(hand, names=["Ann", "Bob", "Cy"])
    assert validate(history) == []
    text = to_pokerstars(history)
    for line in ("*** FIRST FLOP ***", "*** SECOND RIVER ***", "*** SECOND SHOW DOWN ***",
                 "Hand was run twice", "SECOND Board ["):  # fmt: skip
        assert line in text
    [back] = read_pokerstars_text(text)
    assert isinstance(back, HandHistory) and validate(back) == []


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the corpus is absent ({CORPUS})")
def test_r10_the_corpus_hands_run_twice_validate() -> None:
    found = sorted(CORPUS.rglob("*RunItTwice*.txt"))
    assert len(found) == 2
    for path in found:
        report = validate_file(str(path))
        assert report.hands == 1 and all(p.severity == "warning" for p in report.problems)
