"""The command line: ``holdem eval``, errors, ``--json``, the installed script."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import holdem
from holdem.cli.main import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_eval_one_hand() -> None:
    code, out, err = run("eval", "AsKs", "QhJhTh9h2c")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "cards     As Ks Qh Jh Th 9h 2c"
    assert lines[1] == "hand      Straight, Ace high"
    assert lines[2] == "best five As Ks Qh Jh Th"
    assert lines[3] == "category  Straight (5 of 9)"
    assert lines[4] == f"value     {holdem.evaluate('AsKsQhJhTh9h2c')}"


def test_eval_one_hand_json() -> None:
    code, out, _ = run("eval", "--json", "As", "Ks", "Qh", "Jh", "Th")
    assert code == 0
    record = json.loads(out)
    assert record["hand"] == "Straight, Ace high"
    assert record["category"] == "straight"
    assert record["best_five"] == ["As", "Ks", "Qh", "Jh", "Th"]
    assert record["value"] == holdem.evaluate("AsKsQhJhTh")


def test_eval_board_ranks_players() -> None:
    code, out, err = run("eval", "--board", "QhJhTh", "AsKs", "9h8h", "2c2d")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "board  Qh Jh Th"
    assert "Straight Flush, Queen high  wins" in lines[3]
    assert lines[3].split()[:2] == ["1", "2"]  # place 1 is player 2 (9h8h)
    assert "Straight, Ace high" in lines[4]
    assert "One Pair, Twos" in lines[5]


def test_eval_board_split_json() -> None:
    code, out, _ = run("eval", "--json", "--board", "AsKsQsJsTs", "2c3d", "4h5h", "AcKd")
    assert code == 0
    result = json.loads(out)
    assert result["winners"] == [1, 2, 3]
    assert result["split"] is True
    assert all(p["hand"] == "Royal Flush" and p["place"] == 1 for p in result["players"])


def test_eval_board_split_text_names_the_split() -> None:
    code, out, _ = run("eval", "--board", "KcKdQcQd9s", "2c3d", "4h5h", "Ah3s")
    assert code == 0
    assert out.count("splits 2 ways") == 0
    assert "wins" in out  # Ah3s plays the ace kicker
    code, out, _ = run("eval", "--board", "KcKdQcQd9s", "2c3d", "4h5h")
    assert out.count("splits 2 ways") == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", "As", "Ax", "Kd", "Qd", "Jd"], "unknown card 'Ax' at position 2"),
        (["eval", "AsKs", "Ks", "Qd", "Jd", "Td"], "duplicate card Ks (positions 2 and 3)"),
        (["eval", "AsKs"], "a hand has 5 to 7 cards, got 2"),
        (
            ["eval", "--board", "QhJh9d", "AsKs", "QhTd"],
            "duplicate card Qh (the board and player 2)",
        ),
        (
            ["eval", "--board", "QhJh9d", "AsKs", "QxTd"],
            "player 2: unknown card 'Qx' at position 1",
        ),
        (["eval", "--board", "QhJh", "AsKs"], "player 1 (AsKs) has 2 cards and the board 2"),
        (["eval", "--board", "QhJh9d8d7d6d", "AsKs"], "the board has at most 5 cards, got 6"),
    ],
)
def test_eval_errors_are_one_line_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err
    assert "Traceback" not in err


def test_version_and_help() -> None:
    code, out, _ = run("--version")
    assert code == 0 and holdem.__version__ in out
    code, out, _ = run("eval", "--help")
    assert code == 0
    assert "holdem eval --board QhJhTh AsKs 9h8h 2c2d" in out
    code, out, _ = run("--help")
    assert code == 0 and "eval" in out


def installed_holdem() -> str:
    script = Path(sys.executable).parent / ("holdem.exe" if os.name == "nt" else "holdem")
    if not script.exists():
        pytest.skip("the holdem script is not installed next to this Python")
    return str(script)


def test_installed_command_runs() -> None:
    done = subprocess.run(
        [installed_holdem(), "eval", "--json", "AsKs", "QhJhTh9h2c"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hand"] == "Straight, Ace high"


def test_installed_command_bad_input() -> None:
    done = subprocess.run(
        [installed_holdem(), "eval", "As", "Ax", "Kd", "Qd", "Jd"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "holdem eval: error: unknown card 'Ax' at position 2: 'x' is not a suit "
        "(one of c d h s or ♣ ♦ ♥ ♠)"
    ]


@pytest.mark.parametrize("module", ["holdem", "holdem.cli"])
def test_python_dash_m(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", module, "eval", "2c3c4c5c6c"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Straight Flush, Six high" in done.stdout


def test_equity_exact_table() -> None:
    code, out, err = run("equity", "AsKs", "QdQh")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "board   (none)"
    assert lines[1].startswith("method  exact, 1,712,304 boards")
    assert lines[4].split() == ["1", "AsKs", "46.21%", "46.02%", "0.39%"]
    assert lines[5].split() == ["2", "QdQh", "53.79%", "53.59%", "0.39%"]


def test_equity_monte_carlo_json_is_reproducible() -> None:
    args = ("equity", "AK", "QQ+", "--trials", "100000", "--seed", "3", "--json")
    code, out, _ = run(*args)
    assert code == 0
    first = json.loads(out)
    assert first["method"] == "monte carlo" and first["deals"] == 100_000 and first["seed"] == 3
    assert sum(p["equity"] for p in first["players"]) == pytest.approx(1.0)
    _, again, _ = run(*args, "--threads", "2")
    assert json.loads(again)["players"] == first["players"]


def test_equity_board_dead_and_stderr() -> None:
    code, out, _ = run(
        "equity", "AsKs", "QdQh", "JcTc", "--board", "9c8d2h", "--dead", "2s", "--json"
    )
    assert code == 0
    result = json.loads(out)
    assert result["board"] == ["9c", "8d", "2h"] and result["dead"] == ["2s"]
    code, out, _ = run("equity", "AK", "QQ+", "--stderr", "0.002", "--seed", "1")
    assert code == 0 and "Monte Carlo" in out and "±" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["equity", "AsKs", "AsQd"], "duplicate card As (player 1 and player 2)"),
        (["equity", "QQ+,AKx", "AsKs"], "player 1: bad range token 'AKx' at column 5"),
        (["equity", "AA", "AA", "AA"], "no legal deal"),
        (["equity", "AK", "QQ", "--board", "Qx7d2c"], "unknown card 'Qx' at position 1"),
    ],
)
def test_equity_errors_are_one_line_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err


def test_equity_usage_errors() -> None:
    result = CliRunner().invoke(main, ["equity", "AK", "QQ", "--exact", "--trials", "5"])
    assert result.exit_code == 2
    assert "--exact takes no --trials" in result.stderr


def test_range_chart() -> None:
    code, out, _ = run("range", "QQ+,AKs,A5s-A2s", "--no-color")
    assert code == 0
    rows = out.splitlines()
    assert rows[0].split() == [
        "AA",
        "AKs",
        ".",
        ".",
        ".",
        ".",
        ".",
        ".",
        ".",
        "A5s",
        "A4s",
        "A3s",
        "A2s",
    ]
    assert rows[1].split()[:2] == [".", "KK"]
    assert "38 combos, 2.87% of all hands" in out
    assert "range: QQ+,AKs,A5s-A2s" in out


def test_range_partial_cells_and_json() -> None:
    code, out, _ = run("range", "AA:0.5,AhKh", "--no-color")
    assert code == 0
    assert out.splitlines()[0].split()[:2] == ["AA~", "AKs~"]
    code, out, _ = run("range", "40%(AKs,QQ),AA:0.5", "--json")
    record = json.loads(out)
    assert record["hands"] == {"AA": 0.5, "AKs": 0.4, "QQ": 0.4}
    assert record["combos"] == pytest.approx(7.0)
    code, _, err = run("range", "AKx")
    assert code == 2 and "bad range token 'AKx' at column 1" in err


def test_simulate_reports_each_seat_and_does_not_depend_on_the_jobs() -> None:
    code, out, err = run("simulate", "--seats", "easy,random", "--hands", "150", "--seed", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "150 hands, seed 3"
    assert lines[2].startswith("seat 1 easy") and lines[3].startswith("seat 2 random")
    # 950 deals: chunks of 300 deals for 1 process, 200 for 2
    args = ["simulate", "--seats", "normal,easy,easy", "--hands", "950", "--duplicate", "--json",
            "--seed", "0"]  # fmt: skip
    code, one, err = run(*args)
    assert code == 0, err
    code, two, err = run(*args, "--jobs", "2")
    assert code == 0, err
    assert json.loads(one) == json.loads(two)
    record = json.loads(one)
    assert record["hands"] == 2850 and set(record["bots"]) == {"normal", "easy"}
    assert record["bots"]["easy"]["hands"] == 5700  # two easy seats, every hand


def test_simulate_refuses_a_bad_seat_in_one_line() -> None:
    code, out, err = run("simulate", "--seats", "easy,shark", "--hands", "5")
    assert code == 2 and out == ""
    assert err == (
        "holdem simulate: error: no bot level 'shark': one of random, calling-station, easy, "
        "normal, hard, cmd:PROGRAM or py:FILE:NAME\n"
    )


def test_simulate_writes_histories_that_validate_accepts(tmp_path: Path) -> None:
    folder = tmp_path / "hands"
    code, out, err = run("simulate", "--seats", "hard,normal,easy", "--hands", "40",
                         "--duplicate", "--histories", str(folder))  # fmt: skip
    assert code == 0, err
    files = sorted(p.name for p in folder.iterdir())
    assert files and all(
        name.startswith("simulation-") and name.endswith(".phhs") for name in files
    )
    code, out, err = run("validate", str(folder))
    assert code == 0, out + err
    assert out.splitlines()[-1].endswith(" OK; 120 hands")  # 40 deals, 3 rotations each
    code, out, err = run("simulate", "--seats", "easy,easy", "--hands", "5",
                         "--histories", str(folder))  # fmt: skip
    assert code == 2 and "exists: write the histories to a new folder" in err


def test_simulate_tournaments_report_places_and_write_valid_histories(tmp_path: Path) -> None:
    folder = tmp_path / "cups"
    args = ["simulate", "--seats", "normal,easy,random", "--tournaments", "6", "--seed", "2",
            "--stack", "40", "--histories", str(folder)]  # fmt: skip
    code, out, err = run(*args)
    assert code == 0, err
    lines = out.splitlines()
    assert re.match(r"6 tournaments \([\d,]+ hands\), seed 2$", lines[0])
    assert lines[1].split()[-3:] == ["1st", "2nd", "3rd"]
    assert lines[2].startswith("seat 1 normal")
    firsts = [int(line.split()[-3]) for line in lines[2:5]]
    assert sum(firsts) == 6  # a winner a tournament
    hands = int(lines[0].split("(")[1].split()[0].replace(",", ""))
    code, out, err = run("validate", "--strict", str(folder))
    assert code == 0, out + err
    assert f"{hands} hands" in out
    code, out, err = run("simulate", "--seats", "normal,easy", "--tournaments", "4", "--json",
                         "--schedule", "10/20, 20/40, 50/100")  # fmt: skip
    record = json.loads(out)
    assert record["tournaments"] == 4 and len(record["places"]) == 2
    assert sum(p["places"][0] for p in record["places"]) == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "easy,easy"], "give --hands (a cash game) or --tournaments, one of them"),
        (["--seats", "easy,easy", "--hands", "5", "--tournaments", "2"], "one of them"),
        (["--seats", "easy,easy", "--hands", "5", "--schedule", "10/20"],
         "a schedule is for tournaments"),
        (["--seats", "easy,easy", "--tournaments", "2", "--schedule", "10/x"],
         "the big blind 'x' is not a whole number"),
        (["--seats", "easy,easy", "--hands", "2", "--structure", "pot_limit", "--histories", "x"],
         "PHH has no pot-limit hold'em"),
    ],
)  # fmt: skip
def test_simulate_usage_errors_are_one_line(args: list[str], message: str) -> None:
    code, out, err = run("simulate", *args)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and message in err, err


def test_a_crash_in_a_simulation_job_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_bots import Exploding

    from holdem.bots import BOTS

    monkeypatch.setitem(BOTS, "exploding", Exploding)
    code, out, err = run("simulate", "--seats", "exploding,easy", "--hands", "3000", "--jobs", "2")
    assert code == 2 and out == ""
    assert err.startswith("holdem simulate: error: the hands ") and len(err.splitlines()) == 1
    assert "failed: ZeroDivisionError: the bot divided by zero" in err


def test_eval_loads_neither_the_rooms_nor_the_clients() -> None:
    # (each command's module is imported when it runs: holdem eval starts fast,
    # without the room server, the clients or the full screen's toolkit)
    code = (
        "import sys\n"
        "from holdem.cli.main import main\n"
        "main(['eval', 'AsKs', 'QhJhTh9h2c'], standalone_mode=False)\n"
        "heavy = ('holdem.rooms', 'holdem.clients', 'holdem.protocol', 'textual', 'rich',\n"
        "         'sqlite3')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
