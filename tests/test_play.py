"""``holdem play`` driven through its input, end to end: a whole tournament,
a cash session, typing mistakes, the timer, Ctrl-C, the hand histories
(issue 12, item 2)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import with_ctrl_c

from holdem import ActionKind, Decision, LegalActions, format_card
from holdem.cli.main import main
from holdem.clients import Console, Refused, menu, read_command
from holdem.histories import read_phh

SUITS = dict(zip("cdhs", "♣♦♥♠", strict=True))


def play(tmp_path: Path, args: list[str], typed: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        main,
        ["play", "--speed", "0", "--histories", str(tmp_path / "hands"), *args],
        input=typed,
    )
    return result.exit_code, result.output


def histories(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "hands").glob("*.phhs"))


def shown(card: int) -> str:
    """A card as the screen writes it (symbols, no colour: not a terminal)."""
    text = format_card(card)
    return text[0] + SUITS[text[1]]


def test_a_whole_tournament_with_scripted_input_ends_and_writes_valid_histories(
    tmp_path: Path,
) -> None:
    # the player calls everything: the freezeout must still end, with places
    code, out = play(tmp_path, ["--seats", "4", "--seed", "11", "--bots", "easy"], "c\n" * 3000)
    assert code == 0, out
    assert "Final places:" in out and "CERTIFICATE OF VICTORY" in out
    places = re.findall(r"^\s+(\d)(?:st|nd|rd|th)\s+(\w+)", out, re.M)
    assert sorted(int(p) for p, _ in places) == [1, 2, 3, 4]
    assert "You" in {name for _, name in places}  # (Hero, the default name, in the files)
    (path,) = histories(tmp_path)
    hands = [h for h in read_phh(path) if not hasattr(h, "severity")]
    last = int(re.search(r"chips each · (\d+) hands", out).group(1))  # type: ignore[union-attr]
    assert int(re.findall(r"── Hand #(\d+)", out)[-1]) < last  # the player went out first
    assert len(hands) == last  # every hand saved, the ones after the player went out too
    checked = CliRunner().invoke(main, ["validate", "--strict", str(path)])
    assert checked.exit_code == 0, checked.output
    assert f"OK ({last} hands)" in checked.output


def test_the_same_seed_and_input_play_the_same_game(tmp_path: Path) -> None:
    args = ["--seats", "3", "--seed", "5", "--bots", "normal,hard"]
    first = play(tmp_path / "a", args, "c\n" * 3000)[1]
    second = play(tmp_path / "b", args, "c\n" * 3000)[1]
    assert first.split("hands saved to")[0] == second.split("hands saved to")[0]


def test_the_screen_never_shows_a_card_the_player_may_not_see(tmp_path: Path) -> None:
    args = ["--game", "cash", "--hands", "60", "--seats", "5", "--seed", "3", "--bots", "mix"]
    code, out = play(tmp_path, args, "c\ny\n" * 1000)  # (y: buy in again when busted)
    assert code == 0, out
    (path,) = histories(tmp_path)
    texts = re.split(r"── Hand #\d+", out)[1:]
    hands = list(read_phh(path))
    assert len(texts) == len(hands) and len(hands) > 10
    checked = 0
    for text, hand in zip(texts, hands, strict=True):
        moves = hand.moves  # type: ignore[union-attr]
        shown_by = {m.actor for m in moves if m.kind == "show"}
        board = {c for m in moves if m.kind == "deal_board" for c in m.cards}
        for m in moves:
            if m.kind != "deal_hole" or m.actor in shown_by:
                continue
            if hand.players[m.actor].name == "Hero":  # type: ignore[union-attr]
                continue
            for card in set(m.cards) - board:
                assert shown(card) not in text, text
                checked += 1
    assert checked > 50


def test_mistyped_commands_get_their_reason_and_the_prompt_again(tmp_path: Path) -> None:
    typed = "hello\nr 1\nr 999999\nb\nk\nf\nquit\n"
    code, out = play(
        tmp_path,
        ["--game", "cash", "--seats", "2", "--seed", "2", "--bots", "calling-station"],
        typed,
    )
    assert code == 0, out
    assert "no command 'hello': type help for the list" in out
    assert "a raise goes to 4 at least (you typed 1)" in out
    assert "that is all you have (you typed 999,999)" in out
    assert "say how much: a raise goes to 4 to 200" in out
    assert "you cannot check: there is a bet of 2" in out
    assert "Session over after" in out


def test_a_cash_session_reports_results_that_add_up(tmp_path: Path) -> None:
    code, out = play(tmp_path, ["--game", "cash", "--seats", "4", "--hands", "12", "--seed", "8",
                                "--bots", "easy", "--pokerstars"], "c\n" * 500)  # fmt: skip
    assert code == 0, out
    assert "Session over after 12 hands:" in out
    nets = [
        int(n.replace(",", ""))
        for n in re.findall(r"^\s+\w+\s+[\d,]+\s+[\d,]+\s+([+-][\d,]+)\s+12$", out, re.M)
    ]
    assert len(nets) == 4 and sum(nets) == 0
    files = sorted(p.suffix for p in (tmp_path / "hands").iterdir())
    assert files == [".phhs", ".txt"]
    checked = CliRunner().invoke(main, ["validate", "--strict", str(tmp_path / "hands")])
    assert checked.exit_code == 0 and "24 hands" in checked.output, checked.output


def test_a_busted_cash_player_may_buy_in_again_or_stop(tmp_path: Path) -> None:
    args = ["--game", "cash", "--seats", "2", "--seed", "4", "--bots", "calling-station"]
    code, out = play(tmp_path, args, "a\n" * 40 + "n\n")
    assert code == 0, out
    assert "You have no chips left. Buy in again for 200? [y/n]" in out
    assert re.search(r"You\s+200\s+0\s+-200", out)


def test_quitting_a_tournament_shows_the_chips_and_keeps_the_hands(tmp_path: Path) -> None:
    code, out = play(tmp_path, ["--seats", "3", "--seed", "1"], "c\nc\nc\nquit\n")
    assert code == 0, out
    assert "You leave the table after this hand (checking or folding)." in out
    assert "You left the tournament. Chips now:" in out
    (path,) = histories(tmp_path)
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0


def test_another_session_never_writes_over_the_first(tmp_path: Path) -> None:
    args = ["--game", "cash", "--seats", "2", "--hands", "2", "--seed", "1"]
    play(tmp_path, args, "f\n" * 10)
    first = {p: p.read_text() for p in histories(tmp_path)}
    play(tmp_path, args, "f\n" * 10)
    assert len(histories(tmp_path)) == 2  # (in the same second, with the same seed: -2)
    for path, text in first.items():
        assert path.read_text() == text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "wizard"], "no bot level 'wizard'"),
        (["--seats", "4", "--bots", "easy,hard"], "2 levels for 3 bot seats"),
        (["--game", "cash", "--blinds", "2/1"], "the small blind must be positive"),
        (["--game", "cash", "--blinds", "x"], "write the blinds as SMALL/BIG"),
        (["--game", "cash", "--schedule", "10/20"], "--schedule is for tournaments"),
        (["--hands", "5"], "--hands and --blinds are for cash games"),
        (["--schedule", "10/x"], "the big blind 'x' is not a whole number"),
        (["--seats", "11"], "11 is not in the range 2<=x<=10"),
        (["--name", ""], "a name of 1 to 40 printable characters"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["play", "--histories", str(tmp_path), *args], input="")
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("holdem play: error: "), lines
    assert message in lines[0]
    assert not list(tmp_path.iterdir())  # nothing written


# ---------------------------------------------------------------- commands


def raise_menu(**kw: object) -> LegalActions:
    base: dict[str, object] = dict(seat=0, fold=True, call=40, wager=ActionKind.RAISE,
                                   min_to=80, max_to=1500, all_in=1500, bet=40)  # fmt: skip
    return LegalActions(**{**base, **kw})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "decision"),
    [
        ("f", Decision.fold()),
        ("FOLD", Decision.fold()),
        ("c", Decision.call()),
        ("r 300", Decision.raise_to(300)),
        ("raise 1,200", Decision.raise_to(1200)),
        ("r min", Decision.raise_to(80)),
        ("r max", Decision.all_in()),  # (all the chips: the same as all in)
        ("a", Decision.all_in()),
        ("all in", Decision.all_in()),
        ("r 1500", Decision.all_in()),
        # the pot: blinds 20/40 and a call of 40 before: 100; raise to 40 + (100 + 40) = 180
        ("r pot", Decision.raise_to(180)),
    ],
)
def test_typed_commands_become_decisions(line: str, decision: Decision) -> None:
    assert read_command(line, raise_menu(), pot=100, mine=0) == decision


def test_c_checks_when_there_is_nothing_to_call_and_fixed_limit_needs_no_amount() -> None:
    free = LegalActions(seat=0, check=True, wager=ActionKind.BET, min_to=20, max_to=20, all_in=300)
    assert read_command("c", free) == Decision.check()
    assert read_command("b", free) == Decision.bet(20)
    assert read_command("f", free) == Refused("you cannot fold now")
    assert read_command("r 20", free) == Decision.bet(20)  # the one word for either
    assert menu(free) == "k check · b bet 20 · a all in 300"


def test_words_that_are_not_decisions() -> None:
    legal = raise_menu()
    assert read_command("help", legal) == "help"
    assert read_command("?", legal) == "help"
    assert read_command("q", legal) == "quit"
    assert read_command("t", legal) == "table"
    assert read_command("", legal) == Refused("type a command (help lists them)")
    assert read_command("r ten", legal) == Refused(
        "'ten' is not an amount: a whole number of chips, min, max or pot"
    )
    assert read_command("c 40", legal) == Refused(
        "call takes no amount (bet and raise do: 'r 300')"
    )
    short = raise_menu(wager=None, min_to=None, max_to=None, all_in=60)
    assert read_command("r 60", short) == Refused("you can only go all in for 60 (a), call or fold")


# ---------------------------------------------------------------- time and Ctrl-C


def test_the_console_gives_up_at_the_deadline_and_reads_lines_after() -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r") as stream:
        console = Console(stream)
        assert console.read(time.monotonic() + 0.05) is None
        os.write(write_end, b"r 300\nf")
        assert console.read(time.monotonic() + 1) == "r 300"
        os.close(write_end)
        assert console.read() == "f"
        with pytest.raises(EOFError):
            console.read()


@pytest.mark.skipif(os.name == "nt", reason="select() on pipes and process groups are POSIX")
def test_the_timer_folds_for_a_silent_player_and_ctrl_c_keeps_the_hands(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "holdem", "play", "--game", "cash", "--seats", "2", "--seed", "3",
         "--timer", "0.2", "--speed", "0", "--histories", str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, preexec_fn=with_ctrl_c,
    )  # fmt: skip
    time.sleep(3)
    assert child.poll() is None
    os.killpg(child.pid, signal.SIGINT)
    try:
        out, err = child.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        raise
    assert child.returncode == 130
    assert err.decode().strip().splitlines() == ["holdem play: interrupted"]
    text = out.decode()
    assert "Time is up." in text
    saved = int(re.search(r"(\d+) hands? saved to", text).group(1))  # type: ignore[union-attr]
    assert saved >= 2
    checked = CliRunner().invoke(main, ["validate", "--strict", str(tmp_path)])
    assert checked.exit_code == 0 and f"OK ({saved} hands)" in checked.output, checked.output


def test_pot_limit_hands_are_kept_as_pokerstars_text(tmp_path: Path) -> None:
    code, out = play(tmp_path, ["--structure", "pot_limit", "--seats", "3", "--seed", "2"],
                     "c\n" * 2000)  # fmt: skip
    assert code == 0, out
    assert "Pot-limit hold'em has no PHH form" in out
    files = sorted(p.suffix for p in (tmp_path / "hands").iterdir())
    assert files == [".txt"]
    checked = CliRunner().invoke(main, ["validate", str(tmp_path / "hands")])
    assert checked.exit_code == 0, checked.output


def test_a_cash_session_with_nobody_left_to_play_ends_with_the_results(tmp_path: Path) -> None:
    code, out = play(tmp_path, ["--game", "cash", "--seats", "2", "--bots", "cmd:false"],
                     "c\n" * 50)  # fmt: skip
    assert code == 0, out
    assert "sits out" in out and "Session over after" in out
