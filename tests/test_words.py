"""The words a player reads at the table (issue 29): every refusal names the
rule behind it (the fixed-limit bet, the pot limit, a capped or unopened
round, not "all you have" with chips behind), a call is told with the bet it
matches, and a tie for a pot too small to share is told as such, never as
"wins 0"."""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

from holdem import Decision, Hand, HandConfig, LegalActions, Structure
from holdem.cli.main import main
from holdem.clients import Refused, Teller, menu, read_command

#: A program for ``--bots cmd:``: it goes all in whenever it may, else calls or checks.
SHOVER = """\
from holdem import Decision
from holdem.protocol.player import play


def decide(view, legal):
    if legal.all_in is not None:
        return Decision.all_in()
    return Decision.check() if legal.check else Decision.call()


play(decide)
"""


def play(tmp_path: Path, args: list[str], typed: str) -> str:
    result = CliRunner().invoke(
        main,
        ["play", "--speed", "0", "--no-color", "--histories", str(tmp_path / "hands"), *args],
        input=typed,
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_a_fixed_limit_refusal_names_the_bet_not_the_stack(tmp_path: Path) -> None:
    # 1,000 chips at 10/20 fixed limit: a bet of 1,000 on the flop is refused for
    # the bet size (20), and so is going all in
    out = play(
        tmp_path,
        ["--game", "cash", "--structure", "fixed_limit", "--blinds", "10/20", "--stack", "1000",
         "--seats", "2", "--bots", "calling-station", "--seed", "3", "--hands", "1"],
        "r 40\nb 1000\na\nquit\n",
    )  # fmt: skip
    assert "that is all you have" not in out
    assert "a bet goes to exactly 20 in fixed limit (you typed 1,000)" in out
    assert "you cannot go all in now: in fixed limit a bet goes to exactly 20 (b)" in out


def test_a_pot_limit_refusal_names_the_pot_limit(tmp_path: Path) -> None:
    out = play(
        tmp_path,
        ["--game", "cash", "--structure", "pot_limit", "--seats", "2",
         "--bots", "calling-station", "--seed", "3", "--hands", "1"],
        "r 99999\na\nquit\n",
    )  # fmt: skip
    assert "that is all you have" not in out
    assert "a raise goes to 6 at most: the pot limit (you typed 99,999)" in out
    assert "you cannot go all in now: the pot limit lets a raise go to 6 at most (r max)" in out


def test_no_limit_still_says_the_stack_is_the_limit(tmp_path: Path) -> None:
    out = play(
        tmp_path,
        ["--game", "cash", "--seats", "2", "--bots", "calling-station", "--seed", "3",
         "--hands", "1"],
        "r 999\nquit\n",
    )  # fmt: skip
    assert "a raise goes to 200 at most: that is all you have (you typed 999)" in out


def test_a_call_of_an_all_in_is_one_choice_told_with_the_bet_it_matches(tmp_path: Path) -> None:
    bot = tmp_path / "shover.py"
    bot.write_text(SHOVER)
    out = play(
        tmp_path,
        ["--game", "cash", "--seats", "2", "--bots", f"cmd:{sys.executable} {bot}",
         "--seed", "3", "--hands", "1"],
        "c\nc\n",
    )  # fmt: skip
    assert "Ava raises to 200 and is all in" in out
    # the call is the all-in: one choice, not a call of 198 beside an all-in of 200
    assert "Your move: f fold · c call 198 (all in)\n" in out
    assert "a all in 200" not in out.split("Ava raises to 200")[1]
    assert "You call 198 (200 in all) and are all in" in out


def test_a_menu_keeps_all_in_apart_when_it_is_a_raise() -> None:
    legal = LegalActions(seat=0, fold=True, call=40, wager=None, all_in=300, bet=40)
    assert menu(legal, 20) == "f fold · c call 20 · a all in 300"
    short = LegalActions(seat=0, fold=True, call=25, all_in=25, bet=40)
    assert menu(short, 0) == "f fold · c call 25 (all in)"


def facing(hand: Hand) -> tuple[LegalActions, Hand]:
    legal = hand.legal_actions()
    assert legal is not None
    return legal, hand


def test_a_capped_round_is_named_when_a_raise_or_all_in_is_refused() -> None:
    config = HandConfig((1000, 1000, 1000), 0, 10, 20, structure=Structure.FIXED_LIMIT, raise_cap=1)
    hand = Hand(config, rng=1)
    hand.act(Decision.raise_to(40))  # (the big blind and one raise: capped)
    legal, _ = facing(hand)
    view = hand.view(hand.actor)
    said = read_command("r 60", legal, view.pot, view.bets[1], view)
    assert said == Refused(
        "you cannot raise now: the betting is capped (a bet and 1 raise) "
        "(call with c, or fold with f)"
    )
    said = read_command("a", legal, view.pot, view.bets[1], view)
    assert said == Refused(
        "you cannot go all in now: the betting is capped (a bet and 1 raise) "
        "(call with c, or fold with f)"
    )


def test_a_round_not_reopened_is_named() -> None:
    # seat 1 bets 100, seat 2 is all in for 120 (less than a full raise),
    # seat 0 calls: seat 1 faces 20 more and may not raise again
    config = HandConfig((1000, 1000, 130, 1000), 0, 5, 10)
    hand = Hand(config, rng=1)
    for decision in (Decision.call(), Decision.call(), Decision.call(), Decision.check()):
        hand.act(decision)  # (preflop: everybody in for 10)
    hand.act(Decision.bet(100))
    hand.act(Decision.all_in())
    hand.act(Decision.call())
    hand.act(Decision.call())
    legal, _ = facing(hand)
    assert legal.seat == 1 and legal.wager is None
    view = hand.view(1)
    said = read_command("r 500", legal, view.pot, view.bets[1], view)
    assert said == Refused(
        "you cannot raise now: you already acted and face only 20 more, less than a full "
        "raise of 100: the betting was not reopened (call with c, or fold with f)"
    )


def test_a_tie_for_a_pot_smaller_than_its_winners_is_not_told_as_wins_0() -> None:
    # the big blind's dead ante makes a side pot of 1 chip that two players tie for
    config = HandConfig((2, 2, 1), 0, 0, 1, ante=2, big_blind_ante=True, names=("Ann", "Ben", "Cy"))
    hand = Hand(config, rng=8869)
    hand.act(Decision.all_in())
    hand.act(Decision.call())
    lines: list[str] = []
    screen = Teller(0, color=False, symbols=False, write=lines.append)
    screen.names = {0: "Ann", 1: "Ben", 2: "Cy"}
    for record in hand.log:
        screen.action(record)
    said = "\n".join(lines)
    assert "wins 0" not in said
    assert "Ben wins 1 from side pot 1" in said
    assert (
        "You tie for side pot 1, but its 1 chip goes to Ben: chips that do not divide go one "
        "at a time to the first winners left of the button"
    ) in said


def test_the_turn_says_the_time_bank_apart_from_the_turn_s_own_seconds() -> None:
    hand = Hand(HandConfig((100, 100), 0, 1, 2), rng=3)
    view = hand.view(hand.actor)
    assert view.legal is not None
    lines: list[str] = []
    Teller(view.seat, color=False, symbols=False, write=lines.append).turn(view, view.legal, 50, 30)
    assert lines[-1].startswith("Your move (20s + time bank 30s): ")
    Teller(view.seat, color=False, symbols=False, write=lines.append).turn(view, view.legal, 12, 12)
    assert lines[-1].startswith("Your move (12s): ")  # (the turn's own time is spent)


def test_a_room_turn_tells_the_time_bank_s_part_of_its_seconds() -> None:
    from rooms_helpers import players

    from holdem.rooms import Room

    room = Room(seed=4, clock=lambda: 100.0)  # (a still clock: no second passes)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0,
                      timer={"seconds": 20, "time_bank": 45})  # fmt: skip
    ben.result("join", code=made["code"], name="Ben")
    ann.result("start", table=made["table"])
    turns = [m for p in (ann, ben) for m in p.stream if m.get("event") == "turn"]
    assert turns and all(t["bank"] == 45 and t["seconds"] == 65 for t in turns), turns[:1]
