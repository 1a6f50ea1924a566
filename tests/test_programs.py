"""Programs as players (issue 13, item 4): a seat played by a program over
JSON lines; programs that hang, crash, answer garbage or exit at once leave
the table running and the chips conserved; a tournament of program bots ends
as the same bots in-process do."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from holdem.bots import make_bot
from holdem.cli.main import main
from holdem.errors import ConfigError
from holdem.protocol.programs import Program, parse_command
from holdem.table import CashGame, Tournament

PROGRAMS = Path(__file__).parent / "data" / "programs"


def misbehaving(how: str, budget: float = 0.3, log: Path | None = None) -> Program:
    return Program([sys.executable, str(PROGRAMS / "misbehave.py"), how], budget=budget, log=log)


def cash_with(program: Program, hands: int = 6) -> CashGame:
    game = CashGame(seats=3, small_blind=1, big_blind=2, max_hands=hands, rng=4)
    for seat in range(3):
        game.join(seat, f"p{seat}", 200)
    players = {0: program, 1: make_bot("easy", seed=1), 2: make_bot("calling-station")}
    game.play(players)
    return game


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("crash", "exited with status 3"),
        ("exit", "closed its input|exited with status 0|closed its output"),
        ("garbage", "answered 'I fold, I think': not JSON"),
        ("illegal", "answered raise to 1, which the rules do not allow now"),
        ("close", "closed its output"),
    ],
)
def test_a_program_that_fails_sits_out_and_the_game_goes_on(how: str, reason: str) -> None:
    import re

    with misbehaving(how) as program:
        game = cash_with(program)
        assert program.failure is not None and re.search(reason, program.failure), program.failure
        assert program.process is None  # stopped
    results = game.results()
    assert game.hands_played == 6
    assert sum(r.net for r in results.values()) == 0  # the chips are all there


def test_a_program_that_hangs_checks_or_folds_each_time_and_is_asked_again() -> None:
    begun = time.monotonic()
    with misbehaving("hang", budget=0.2) as program:
        game = cash_with(program, hands=2)
        assert program.failure is None and program.timeouts >= 2 and program.decisions == 0
    assert time.monotonic() - begun < 10
    assert sum(r.net for r in game.results().values()) == 0


def test_a_program_that_never_reads_its_input_never_blocks_the_engine() -> None:
    # Each turn times out; once its input pipe is full, the engine stops writing
    # to it (it would wait forever) and the program sits out.
    begun = time.monotonic()
    with misbehaving("deaf", budget=0.02) as program:
        game = cash_with(program, hands=150)
        assert program.failure == "stopped reading its input"
    assert game.hands_played == 150
    assert sum(r.net for r in game.results().values()) == 0
    assert time.monotonic() - begun < 30


def test_a_late_answer_is_not_taken_for_the_next_turn() -> None:
    with misbehaving("late", budget=0.25) as program:
        cash_with(program, hands=3)
        assert program.failure is None
        assert program.timeouts >= 1  # late every time: its answers come after the deadline
        assert program.decisions == 0  # and none of them was taken for a later turn


def test_a_program_s_stderr_goes_to_its_log(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    with misbehaving("noisy", budget=5, log=log) as program:
        cash_with(program, hands=3)
        assert program.failure is None and program.decisions > 0
    assert "thinking about 1" in log.read_text()


def test_a_program_that_cannot_start_sits_out_with_the_reason() -> None:
    program = Program(["/no/such/program"])
    assert program.failure is not None and "could not start '/no/such/program'" in program.failure
    cash_with(program, hands=2)


def test_commands_are_read_like_a_shell() -> None:
    assert parse_command("cmd:python 'my bot.py' --fast") == ["python", "my bot.py", "--fast"]
    with pytest.raises(ConfigError, match="no command after cmd:"):
        parse_command("cmd:  ")
    with pytest.raises(ConfigError, match="No closing quotation"):
        parse_command("cmd:python 'bot.py")


def test_a_tournament_of_program_bots_ends_as_the_same_bots_in_process() -> None:
    levels = ["easy", "normal", "random", "calling-station"]
    names = [f"{level}-{i}" for i, level in enumerate(levels)]

    def run(programs: bool) -> object:
        players: dict[str, object] = {}
        for i, (name, level) in enumerate(zip(names, levels, strict=True)):
            if programs:
                command = [sys.executable, str(PROGRAMS / "builtin_bot.py"), level, str(i)]
                players[name] = Program(command, budget=30)
            else:
                players[name] = make_bot(level, seed=i)
        try:
            return Tournament(names, stack=400, rng=8).run(players)  # type: ignore[arg-type]
        finally:
            for player in players.values():
                if isinstance(player, Program):
                    assert player.failure is None, player.failure
                    player.close()

    assert run(programs=True) == run(programs=False)


def test_a_short_match_of_program_bots_plays_as_in_process() -> None:
    """The same check as the slow tournament, on a few hands: the views a
    program rebuilds from the lines (deltas included) are the bot's own."""

    def run(programs: bool) -> list[int]:
        game = CashGame(seats=3, small_blind=1, big_blind=2, max_hands=15, rng=2)
        players = {}
        for seat, level in enumerate(["easy", "normal", "random"]):
            game.join(seat, level, 200)
            if programs:
                command = [sys.executable, str(PROGRAMS / "builtin_bot.py"), level, str(seat)]
                players[seat] = Program(command, budget=30)
            else:
                players[seat] = make_bot(level, seed=seat)  # type: ignore[assignment]
        game.play(players)  # type: ignore[arg-type]
        for player in players.values():
            if isinstance(player, Program):
                assert player.failure is None and player.timeouts == 0, player.failure
                player.close()
        return [r.net for r in game.results().values()]

    assert run(programs=True) == run(programs=False)


def test_holdem_play_seats_programs_and_tells_who_sits_out(tmp_path: Path) -> None:
    good = f"cmd:{sys.executable} {PROGRAMS / 'builtin_bot.py'} easy 1"
    bad = f"cmd:{sys.executable} {PROGRAMS / 'misbehave.py'} crash"
    result = CliRunner().invoke(
        main,
        ["play", "--game", "cash", "--seats", "3", "--hands", "4", "--speed", "0", "--seed", "2",
         "--bots", f"{good},{bad}", "--histories", str(tmp_path)],
        input="c\n" * 100,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "(a program) sits out: exited with status 3" in result.output
    assert "Session over after 4 hands" in result.output
    logs = sorted(p.name for p in tmp_path.glob("*.log"))
    assert len(logs) == 2


def test_the_lines_a_program_reads_fit_the_protocol_s_schema(tmp_path: Path) -> None:
    import json

    jsonschema = pytest.importorskip("jsonschema")
    from holdem.protocol.schema import schema

    defs = schema()["$defs"]
    log = tmp_path / "lines.log"
    with misbehaving("record", budget=5, log=log) as program:
        cash_with(program, hands=8)
        assert program.failure is None
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["event"] == "hello" and len(lines) > 5
    assert any(line.get("view", {}).get("log_start", 0) > 0 for line in lines)  # deltas sent
    for line in lines:
        name = "ProgramHello" if line["event"] == "hello" else "ProgramTurn"
        validator = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": defs})
        errors = list(validator.iter_errors(line))
        assert not errors, errors[0].message


def test_simulate_seats_programs_and_reports_the_ones_that_sit_out(tmp_path: Path) -> None:
    from holdem import simulate

    station = f"cmd:{sys.executable} {PROGRAMS / 'builtin_bot.py'} calling-station 0"
    crash = f"cmd:{sys.executable} {PROGRAMS / 'misbehave.py'} crash"
    # a program without chance plays the same on 1 and on 2 processes
    one = simulate([station, "easy", crash], hands=250, seed=3)
    two = simulate([station, "easy", crash], hands=250, seed=3, jobs=2)
    assert one == two
    assert one.failures == {2: "exited with status 3"}
    assert one.seats[0].pfr == 0 and one.seats[0].vpip > 0.3  # it plays as a calling station
    assert one.seats[2].vpip == 0  # sat out: it checked or folded from its first turn
    assert sum(s.net for s in one.seats) == pytest.approx(0)
    cups = simulate([station, "easy"], tournaments=2, seed=1)
    assert cups.tournaments == 2 and not cups.failures
    noisy = f"cmd:{sys.executable} {PROGRAMS / 'misbehave.py'} noisy"
    simulate(["easy", noisy], hands=20, seed=1, logs=tmp_path / "logs", jobs=2)
    assert "thinking about 1" in (tmp_path / "logs" / "seat2.log").read_text()


EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.skipif(not EXAMPLES.exists(), reason="examples/ is not beside the tests")
@pytest.mark.skipif(sys.platform == "win32", reason="the shell example needs sh")
def test_the_example_bots_play_as_written() -> None:
    from holdem import simulate

    python_bot = f"cmd:{sys.executable} {EXAMPLES / 'caller_bot.py'}"
    shell_bot = f"cmd:sh {EXAMPLES / 'caller_bot.sh'}"
    result = simulate([python_bot, shell_bot, "easy"], hands=60, seed=2, seconds=20)
    assert result.failures == {}
    shell = result.seats[1]
    assert shell.pfr == 0 and shell.vpip > 0.3  # it checks or calls, always
    assert sum(s.net for s in result.seats) == pytest.approx(0)


@pytest.mark.skipif(not hasattr(__import__("os"), "sched_setaffinity"), reason="Linux only")
def test_a_game_of_programs_can_share_one_cpu_and_gives_the_cpus_back() -> None:
    import os

    from holdem.protocol.programs import share_cpu

    allowed = os.sched_getaffinity(0)
    with share_cpu(1) as cpu:
        assert cpu == sorted(allowed)[1 % len(allowed)]
        assert os.sched_getaffinity(0) == {cpu}
        with misbehaving("record", budget=5) as program:
            assert program.process is not None
            assert os.sched_getaffinity(program.process.pid) == {cpu}  # (inherited)
            game = cash_with(program, hands=3)
            assert program.failure is None
    assert os.sched_getaffinity(0) == allowed
    assert sum(r.net for r in game.results().values()) == 0
