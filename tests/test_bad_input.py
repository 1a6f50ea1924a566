"""Bad input never loses a file, hangs or shows a traceback (hand histories and the CLI).

One test per finding of the hardening review, named after what a user would
check; the fuzz targets in ``test_fuzz_*.py`` look for more of the same.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import with_ctrl_c

from holdem.cli.main import main
from holdem.errors import HistoryFormatError
from holdem.histories import (
    HandHistory,
    Problem,
    read_phh,
    read_phh_text,
    read_pokerstars,
    read_pokerstars_text,
    validate_file,
    validate_text,
)

PHH = Path(__file__).parent / "data" / "phh"
STARS = Path(__file__).parent / "data" / "pokerstars"
GOOD = (PHH / "ok_showdown.phh").read_text(encoding="utf-8")
HAND_1001 = (STARS / "cash_two_hands.txt").read_text(encoding="utf-8").split("\n\n\n\n")[0]


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def one_error_line(err: str) -> str:
    """The one line a failing command prints (and never a traceback)."""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------- convert keeps files


def test_convert_onto_its_own_input_is_refused_and_the_input_kept(tmp_path: Path) -> None:
    same = tmp_path / "same.phh"
    same.write_text(GOOD, encoding="utf-8")
    for output in (str(same), str(tmp_path / "." / "same.phh")):
        code, _, err = run("convert", str(same), "--to", "phh", "-o", output, "--force")
        assert code == 2
        assert "is the file being converted" in one_error_line(err)
    assert same.read_text(encoding="utf-8") == GOOD


def test_an_existing_output_is_replaced_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("keep me", encoding="utf-8")
    code, _, err = run(
        "convert", str(PHH / "ok_showdown.phh"), "--to", "pokerstars", "-o", str(out)
    )
    assert code == 2 and "exists: add --force" in one_error_line(err)
    assert out.read_text(encoding="utf-8") == "keep me"
    code, _, err = run(
        "convert", str(PHH / "ok_showdown.phh"), "--to", "pokerstars", "-o", str(out), "--force"
    )
    assert code == 0, err
    assert out.read_text(encoding="utf-8").startswith("PokerStars Hand #")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\x01\xff binary", "a NUL byte"),
        (b"variant = 'NT'\nantes = [\xff]\n", "not UTF-8 text (byte 0xff)"),
    ],
)
def test_a_failed_conversion_leaves_the_old_output(
    tmp_path: Path, content: bytes, message: str
) -> None:
    source = tmp_path / "broken.phh"
    source.write_bytes(content)
    out = tmp_path / "out.txt"
    out.write_text("the old output", encoding="utf-8")
    code, _, err = run("convert", str(source), "--to", "pokerstars", "-o", str(out), "--force")
    assert code == 2
    assert message in one_error_line(err)
    assert out.read_text(encoding="utf-8") == "the old output"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.phh", "out.txt"]  # no temp


def test_nothing_converted_leaves_the_old_output(tmp_path: Path) -> None:
    out = tmp_path / "out.phh"
    out.write_text("the old output", encoding="utf-8")
    code, _, err = run("convert", str(PHH / "bad_toml.phh"), "--to", "phh", "-o", str(out), "-f")
    assert code == 1 and "nothing written" in err
    assert out.read_text(encoding="utf-8") == "the old output"


def test_a_hand_that_breaks_the_rules_is_left_out_unless_kept() -> None:
    code, out, err = run("convert", str(PHH / "bad_turn_order.phh"), "--to", "pokerstars")
    assert code == 1 and out == ""
    assert "left out" in err and "it is p3's turn" in err and "--keep-invalid" in err
    code, out, err = run(
        "convert", str(PHH / "bad_turn_order.phh"), "--to", "phh", "--keep-invalid"
    )
    assert code == 0, err
    assert "'p1 f'" in out.replace('"', "'")


def test_unknown_stacks_are_not_written_as_zero_chips(tmp_path: Path) -> None:
    source = tmp_path / "inf.phh"
    source.write_text(
        GOOD.replace("starting_stacks = [200, 200, 200]", "starting_stacks = [inf, 200, 200]")
    )
    assert validate_file(str(source)).status == "OK"
    code, out, err = run("convert", str(source), "--to", "pokerstars")
    assert code == 1 and "(0 in chips)" not in out
    assert "starting stack is unknown" in err
    code, out, err = run("convert", str(source), "--to", "phh")  # PHH can say 'inf'
    assert code == 0 and "inf," in out


def test_output_folder_that_does_not_exist() -> None:
    code, _, err = run(
        "convert", str(PHH / "ok_showdown.phh"), "--to", "phh", "-o", "/nonexistent/dir/x"
    )
    assert code == 2 and "no such folder" in one_error_line(err)


def test_convert_streams_a_set_and_reads_standard_input(tmp_path: Path) -> None:
    two = tmp_path / "two.phhs"
    two.write_text(f"[1]\n{GOOD}\n[2]\n{GOOD}", encoding="utf-8")
    code, out, err = run("convert", str(two), "--to", "phh")
    assert code == 0, err
    assert out.startswith("[1]\n") and "\n[2]\n" in out
    code, out, err = run("convert", "-", "--from", "phh", "--to", "pokerstars", stdin=GOOD.encode())
    assert code == 0, err
    assert out.startswith("PokerStars Hand #0:")
    code, _, err = run("convert", "-", "--to", "phh", stdin=GOOD.encode())
    assert code == 2 and "give --from" in one_error_line(err)


# ---------------------------------------------------------------- bounded reading


def test_a_line_without_end_is_not_read_into_memory(tmp_path: Path) -> None:
    endless = tmp_path / "endless.phh"
    endless.write_bytes(b"x" * (3 << 20))  # 3 MiB, no newline
    report = validate_file(str(endless))
    assert report.status == "UNREADABLE"
    assert "longer than 1,048,576 characters" in str(report.unreadable)
    code, out, _ = run("validate", str(endless))
    assert code == 2 and "UNREADABLE" in out


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_validate_dev_zero_stops_at_once() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "validate", "/dev/zero", "--format", "phh"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "binary data" in done.stdout and "Traceback" not in done.stderr


def test_values_nested_thousands_deep(tmp_path: Path) -> None:
    deep = "variant = 'NT'\nx = " + "[" * 3000 + "]" * 3000 + "\n"
    for text in (deep, deep.replace("x = ", "a.b = 1\nx = ")):  # the fast reader and tomllib
        [problem] = read_phh_text(text)
        assert isinstance(problem, Problem) and "nested more than 32 deep" in problem.message
    path = tmp_path / "deep.phh"
    path.write_text(deep, encoding="utf-8")
    for command in (["validate", str(path)], ["convert", str(path), "--to", "phh"]):
        code, out, err = run(*command)
        assert code == 1 and "Traceback" not in err
        assert "nested more than 32 deep" in out + err


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("nan", "NaN is not a finite amount"),
        ("1e999999999", "too large"),
        ("1" * 5000, "too large"),
        ("-5", "is negative"),
        ("1.0000001", "more than 6 decimal places"),
        ("1e-999999999", "more than 6 decimal places"),
    ],
)
@pytest.mark.parametrize("dotted", [False, True], ids=["fast", "tomllib"])
def test_bad_numbers_are_problems_with_their_line(value: str, message: str, dotted: bool) -> None:
    text = GOOD.replace(
        "finishing_stacks = [114, 286, 200]", f"finishing_stacks = [114, {value}, 200]"
    )
    if dotted:  # a dotted key sends the hand to tomllib
        text = text.replace("min_bet = 2", "min_bet = 2\nx.y = 1")
    [item] = read_phh_text(text)
    assert isinstance(item, Problem), item
    assert (
        message in item.message
        and item.line
        == text.splitlines().index(
            next(line for line in text.splitlines() if line.startswith("finishing_stacks"))
        )
        + 1
    )
    assert len(item.message) < 300


def test_control_characters_in_toml_strings_are_refused() -> None:
    text = GOOD.replace("'p2 cc',", "'p2\x01cc',", 1)
    [problem] = read_phh_text(text)
    assert isinstance(problem, Problem) and "not valid TOML" in problem.message


@pytest.mark.parametrize("players", [1, 11])
def test_a_hand_needs_2_to_10_players(players: int) -> None:
    zeros = ", ".join(["0"] * players)
    text = (
        f"variant = 'NT'\nantes = [{zeros}]\nblinds_or_straddles = [{zeros}]\nmin_bet = 2\n"
        f"starting_stacks = [{', '.join(['100'] * players)}]\nactions = []\n"
    )
    report = validate_text(text, "phh")
    assert report.status == "FAILED"
    assert "a hold'em table has 2 to 10 seats" in report.problems[0].message


def test_an_empty_history_file_is_not_plain_ok(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    report = validate_file(str(empty))
    assert report.status == "OK with warnings"
    assert [p.code for p in report.problems] == ["empty"]
    code, _, _ = run("validate", "--strict", str(empty))
    assert code == 1


def test_utf16_pokerstars_files_are_read(tmp_path: Path) -> None:
    for encoding in ("utf-16", "utf-16-le"):
        path = tmp_path / f"{encoding}.txt"
        path.write_bytes(HAND_1001.encode(encoding))
        report = validate_file(str(path))
        if encoding == "utf-16":  # with a byte-order mark: read as any other file
            assert report.status == "OK", [str(p) for p in report.problems]
        else:  # without one: a word about the encoding
            assert report.status == "UNREADABLE"
            assert "UTF-16" in str(report.unreadable)


# ---------------------------------------------------------------- paths are paths


def test_a_file_named_like_toml_is_a_path(tmp_path: Path) -> None:
    odd = tmp_path / "x=1.phh"
    odd.write_text(GOOD, encoding="utf-8")
    [hand] = read_phh(str(odd))
    assert isinstance(hand, HandHistory)
    with pytest.raises(FileNotFoundError):
        list(read_phh("variant"))  # a str is always a path, never text


@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="no /dev/stdin")
@pytest.mark.parametrize(("fmt", "text"), [("phh", GOOD), ("pokerstars", HAND_1001)])
def test_dev_stdin_and_dash_read_standard_input(fmt: str, text: str) -> None:
    for path in ("/dev/stdin", "-"):
        done = subprocess.run(
            [sys.executable, "-m", "holdem", "validate", path, "--format", fmt],
            input=text, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert ": OK (1 hand)" in done.stdout


def test_readers_take_streams_bytes_and_text() -> None:
    assert isinstance(next(read_pokerstars(HAND_1001.encode("utf-8"))), HandHistory)
    assert isinstance(next(read_pokerstars_text(HAND_1001)), HandHistory)
    assert isinstance(next(read_phh(GOOD.encode("utf-8"))), HandHistory)
    with pytest.raises(HistoryFormatError, match="NUL"):
        list(read_phh(b"variant = 'NT'\x00"))


# ---------------------------------------------------------------- numbers a file states


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("bob:2: calls $3", "bob:2: calls $0", "bob:2 calls 0: the call puts in 3"),
        ("bob:2: calls $3", "bob:2: calls $3" + "0" * 54, "too large"),
        ("[cat]: raises $3 to $4.50", "[cat]: raises $9 to $4.50", "raises 9 to 4.50"),
        ("bob:2: calls $3", "bob:2: calls $3 and is all-in", "the file says all-in"),
    ],
)
def test_pokerstars_call_and_raise_amounts_are_checked(old: str, new: str, message: str) -> None:
    assert validate_text(HAND_1001, "pokerstars").status == "OK"
    report = validate_text(HAND_1001.replace(old, new), "pokerstars")
    assert report.status == "FAILED"
    assert any(message in p.message for p in report.problems), [str(p) for p in report.problems]


@pytest.mark.parametrize(
    "path", sorted(STARS.glob("*.txt")) + sorted(PHH.glob("ok_*")), ids=lambda p: p.name
)
def test_the_valid_fixtures_validate_clean(path: Path) -> None:
    report = validate_file(str(path))
    assert report.status == "OK", [str(p) for p in report.problems]


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["equity", "AsKs", "QdQh", "--trials", "0"], "'--trials': 0 is not in the range x>=1"),
        (["equity", "AsKs", "QdQh", "--threads", "0"], "0 is not in the range"),
        (["validate", "x.phh", "--jobs", "0"], "0 is not in the range 1<=x<=64"),
        (["validate", "x.phh", "--jobs", "1000"], "1000 is not in the range 1<=x<=64"),
        (["equity", "AsKs", "QdQh", "--seed", "9" * 5000], "is not a valid integer"),
        (["nosuch"], "no such command 'nosuch'"),
    ],
)
def test_usage_errors_are_one_short_line(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert line.startswith(
        f"holdem {args[0]}: error: " if args[0] != "nosuch" else "holdem: error: "
    )
    assert message in line and len(line) <= 500


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_disk_is_one_line() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "holdem", "validate", str(PHH / "ok_showdown.phh")],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 2
    assert (
        one_error_line(done.stderr)
        == "holdem validate: error: cannot write the output: No space left on device"
    )


def _endless_hands(limit: float) -> bytes:
    return (HAND_1001 + "\n\n\n").encode() * int(limit)


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child is POSIX")
@pytest.mark.parametrize("command", ["validate", "convert"])
def test_ctrl_c_stops_reading_at_once(tmp_path: Path, command: str) -> None:
    out = tmp_path / "out.phhs"
    out.write_text("the old output", encoding="utf-8")
    args = {
        "validate": ["validate", "-", "--format", "pokerstars"],
        "convert": ["convert", "-", "--from", "pokerstars", "--to", "phh", "-o", str(out), "-f"],
    }[command]
    child = subprocess.Popen(
        [sys.executable, "-m", "holdem", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=with_ctrl_c,
    )  # fmt: skip
    assert child.stdin is not None
    chunk = _endless_hands(200)
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:  # the input never ends: it is read while we write
        child.stdin.write(chunk)
    child.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    try:
        _, err = child.communicate(timeout=10)
    except (BrokenPipeError, subprocess.TimeoutExpired):
        child.kill()
        raise
    assert time.monotonic() - stopped < 2
    assert child.returncode == 130
    assert one_error_line(err.decode()) == f"holdem {command}: interrupted"
    assert out.read_text(encoding="utf-8") == "the old output"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.phhs"]


def interrupt_group(args: list[str]) -> tuple[bytes, str]:
    """Runs ``holdem ARGS`` in its own process group, Ctrl-C's it (the whole
    group, as a terminal does) after 1.5 s, and checks that it stops within
    2 s with status 130: its stdout and its one error line."""
    child = subprocess.Popen(
        [sys.executable, "-m", "holdem", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=with_ctrl_c,
    )  # fmt: skip
    time.sleep(1.5)
    assert child.poll() is None, "finished before it could be interrupted"
    os.killpg(child.pid, signal.SIGINT)
    stopped = time.monotonic()
    try:
        out, err = child.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        raise
    assert time.monotonic() - stopped < 2
    assert child.returncode == 130
    return out, one_error_line(err.decode())


@pytest.mark.skipif(os.name == "nt", reason="process groups are POSIX")
def test_ctrl_c_stops_parallel_validation_and_its_workers(tmp_path: Path) -> None:
    many = "".join(f"[{i}]\n{GOOD}\n" for i in range(1, 4001))
    for k in range(40):  # 160,000 hands: many seconds of work on 2 processes
        (tmp_path / f"set{k:02}.phhs").write_text(many, encoding="utf-8")
    _, line = interrupt_group(["validate", str(tmp_path), "--jobs", "2"])
    assert line == "holdem validate: interrupted"


@pytest.mark.skipif(os.name == "nt", reason="process groups are POSIX")
def test_ctrl_c_stops_a_simulation_and_its_workers() -> None:
    args = ["simulate", "--seats", "hard,normal,easy", "--hands", "100000", "--jobs", "2"]
    out, line = interrupt_group(args)
    assert out == b"" and line == "holdem simulate: interrupted"


# ---------------------------------------------------------------- found by the fuzz targets


@pytest.mark.parametrize(
    "text",
    [
        GOOD + "[ " + " " * 20_000 + "x\n",  # a table header that does not close
        "PokerStars Hand #1: Hold'em No Limit (1/2)" + " " * 50_000 + "-\n",  # no date
        "*" * 300_000 + "\n",  # a separator that never ends
    ],
    ids=["phh-table-header", "pokerstars-date", "pokerstars-separator"],
)
def test_long_lines_take_linear_time(text: str) -> None:
    fmt = "phh" if text.startswith("#") else "pokerstars"
    started = time.monotonic()
    validate_text(text, fmt)
    assert time.monotonic() - started < 2


def test_a_pokerstars_line_of_many_colons_is_refused_quickly() -> None:
    text = HAND_1001.replace("eve: folds", "eve: " + ": " * 100_000 + "folds")
    started = time.monotonic()
    report = validate_text(text, "pokerstars")
    assert time.monotonic() - started < 2
    assert any("longer than 2,000 characters" in p.message for p in report.problems)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("'p3 f'", "'p² f'", "not an action"),  # '²'.isdigit() is True, int('²') fails
        ("'p1 cbr 10'", "'p1 cbr ²'", "bad arguments '²' for 'cbr'"),
        ("'p3 f'", "'p3 f " + "x" * 10_000 + "'", "xxx'..."),  # quoted in part, not whole
    ],
)
def test_odd_actions_are_short_problems(old: str, new: str, message: str) -> None:
    [problem] = read_phh_text(GOOD.replace(old, new))
    assert isinstance(problem, Problem) and message in problem.message
    assert len(problem.message) < 400


def test_whole_decimal_blinds_are_chips() -> None:
    text = GOOD.replace("blinds_or_straddles = [1, 2, 0]", "blinds_or_straddles = [1.0, 2.0, 0]")
    assert validate_text(text, "phh").status == "OK"


def test_a_path_with_a_nul_is_a_missing_file() -> None:
    with pytest.raises(FileNotFoundError):
        list(read_phh("abc\0"))


def test_pokerstars_writer_ignores_fields_it_did_not_make() -> None:
    from holdem.histories import to_pokerstars

    text = GOOD.replace(
        "_source =",
        "site = 'PokerStars'\nstakes = ['a', 'b']\nnot_dealt = [1]\nbounties = 5\n"
        "max_seats = -1\n_source =",
    )
    [hand] = read_phh_text(text)
    assert isinstance(hand, HandHistory)
    written = to_pokerstars(hand)
    assert validate_text(written, "pokerstars").status == "OK"


def test_a_single_shown_card_writes_as_phh() -> None:
    from holdem.histories import write_phh

    shown = HAND_1001.replace("[cat]: doesn't show hand", "[cat]: shows [Ah]")
    [hand] = read_pokerstars_text(shown)
    assert isinstance(hand, HandHistory)
    out = io.StringIO()
    write_phh([hand], out)
    assert "'p4 sm Ah??'" in out.getvalue().replace('"', "'")
    [back] = read_phh_text(out.getvalue())
    assert isinstance(back, HandHistory)


def test_a_straddle_is_not_written_as_pokerstars_text() -> None:
    from holdem import Hand, HandConfig
    from holdem.histories import record, to_pokerstars

    hand = Hand(
        HandConfig(stacks=(100,) * 4, button=0, small_blind=1, big_blind=2, straddle=4), rng=3
    )
    while not hand.done:
        hand.check_or_call()
    with pytest.raises(HistoryFormatError, match="straddle"):
        to_pokerstars(record(hand))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_named_pipe_in_a_folder_does_not_block_validation(tmp_path: Path) -> None:
    (tmp_path / "hand.phh").write_text(GOOD, encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.txt")
    os.mkfifo(tmp_path / "pipe.phh")
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "validate", str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 file: 1 OK" in done.stdout


def test_r9_record_writes_any_chip_in_a_power_of_ten_of_the_money() -> None:
    from decimal import Decimal

    from holdem import ConfigError, Hand, HandConfig
    from holdem.histories import record, validate

    hand = Hand(HandConfig(stacks=(300, 300), button=0, small_blind=1, big_blind=2), rng=1)
    while not hand.done:
        hand.check_or_call()
    assert record(hand, unit=Decimal("0.01")).unit == Decimal("0.01")
    # a chip of 0.5 is 5 tenths, one of 100 a hundred units: files state amounts
    for unit, (ten, chip) in (("0.5", ("0.1", 5)), ("100", ("1", 100))):
        history = record(hand, unit=Decimal(unit))
        assert (history.unit, history.chip) == (Decimal(ten), chip)
        assert history.players[0].stack == 300 * chip and validate(history) == []
    for unit in ("0", "-1", "0.0000001"):
        with pytest.raises(ConfigError, match="unit"):
            record(hand, unit=Decimal(unit))


def _played(stacks: tuple[int, ...], **config: object) -> HandHistory:
    """A hand of calling stations on the engine, recorded."""
    from holdem import Hand, HandConfig
    from holdem.histories import record

    hand = Hand(HandConfig(stacks=stacks, button=0, **config), rng=0)  # type: ignore[arg-type]
    while not hand.done:
        hand.check_or_call()
    return record(hand)


@pytest.mark.parametrize(
    ("stacks", "config"),
    [
        ((2, 1), {"small_blind": 1, "big_blind": 2}),  # heads-up, the big blind short
        ((40, 3), {"small_blind": 2, "big_blind": 5, "ante": 1}),  # short after the ante
        (
            (40, 40, 1),
            {
                "small_blind": 5,
                "big_blind": 10,
                "ante": 10,
                "big_blind_ante": True,
                "missing_small_blind": True,
            },
        ),
    ],
    ids=["short-big-blind", "short-after-ante", "missing-small-big-blind-ante"],
)
def test_recorded_hands_validate_and_round_trip(
    stacks: tuple[int, ...], config: dict[str, object]
) -> None:
    from holdem.histories import to_pokerstars, validate, with_results, write_phh

    history = _played(stacks, **config)
    assert validate(history) == []
    [back] = read_pokerstars_text(to_pokerstars(with_results(history)))
    assert isinstance(back, HandHistory) and validate(back) == []
    out = io.StringIO()
    write_phh([history], out)
    [again] = read_phh_text(out.getvalue())
    assert isinstance(again, HandHistory) and validate(again) == []


@pytest.mark.parametrize("name", ["Seat 1", "a\x00b", "Total pot 5", " x"])
def test_names_that_would_not_read_back_as_they_are_are_written_so_they_do(name: str) -> None:
    """A name the PokerStars text would read otherwise (one that looks like a
    line of the hand, a control character, a space first) is written in a
    form its reader takes back exactly (issue 31, item 8: they were refused,
    and the hand left out)."""
    from dataclasses import replace

    from holdem.histories import read_pokerstars_text, to_pokerstars, validate

    history = _played((100, 100), small_blind=1, big_blind=2)
    players = (history.players[0]._replace(name=name), history.players[1])
    [back] = read_pokerstars_text(to_pokerstars(replace(history, players=players)))
    assert isinstance(back, HandHistory) and validate(back) == []
    assert back.players[0].name == name


def test_amounts_the_readers_refuse_are_not_written() -> None:
    from holdem.histories import to_phh, to_pokerstars

    history = _played((1, 10**16), small_blind=1, big_blind=10)
    for write in (to_phh, to_pokerstars):
        with pytest.raises(HistoryFormatError, match="too large to write"):
            write(history)  # type: ignore[operator]


def test_a_move_by_a_player_the_hand_lacks_is_not_written() -> None:
    from dataclasses import replace

    from holdem.histories import FOLD, Move, to_phh, to_pokerstars

    history = _played((100, 100), small_blind=1, big_blind=2)
    history = replace(history, moves=(*history.moves, Move(FOLD, 2)))
    for write in (to_phh, to_pokerstars):
        with pytest.raises(HistoryFormatError, match="is by player index 2, but the hand has 2"):
            write(history)  # type: ignore[operator]


def test_a_hand_whose_cards_repeat_in_one_line_is_not_written_as_pokerstars() -> None:
    """The PokerStars reader refuses ``Dealt to Bill [9c 9c]``: the writer does not
    write it (found by the fuzz run)."""
    from holdem.histories import to_pokerstars

    text = (
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\nactions = ['d dh p1 9c9c', 'd dh p2 6h5c', 'p2 f']\n"
    )
    [hand] = read_phh_text(text)
    assert isinstance(hand, HandHistory)
    with pytest.raises(HistoryFormatError, match="9c 9c repeats a card"):
        to_pokerstars(hand)


def test_a_hand_that_shows_other_cards_than_it_dealt_is_not_written_as_pokerstars() -> None:
    """The PokerStars reader refuses a show of other cards than those dealt to the
    player: the writer does not write such a hand (found by the fuzz run)."""
    from holdem.histories import to_pokerstars

    text = (
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\nactions = ['d dh p1 As3s', 'd dh p2 6h5c', 'p2 cc',"
        " 'p1 cc', 'd db 7s6c4c', 'p1 cc', 'p2 cc', 'd db 3c', 'p1 cc', 'p2 cc', 'd db Qd',"
        " 'p1 cc', 'p2 cc', 'p1 sm 3d3s', 'p2 sm 6h5c']\n"
    )
    [hand] = read_phh_text(text)
    assert isinstance(hand, HandHistory)
    with pytest.raises(HistoryFormatError, match="p1 shows 3d 3s but was dealt As 3s"):
        to_pokerstars(hand)


def test_converting_a_file_without_hands_writes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.phh"
    empty.write_bytes(b"# nothing here\n")
    out = tmp_path / "old.phhs"
    out.write_text("the old output", encoding="utf-8")
    code, _, err = run("convert", str(empty), "--to", "phh", "-o", str(out), "--force")
    assert code == 1 and "holds no hand: nothing written" in err
    assert out.read_text(encoding="utf-8") == "the old output"


def test_bet_sizes_of_another_variant_are_the_files_own_fields() -> None:
    from holdem.histories import write_phh

    text = GOOD.replace("min_bet = 2", "min_bet = 2\nbig_bet = 1")  # an FT field in an NT hand
    [hand] = read_phh_text(text)
    assert isinstance(hand, HandHistory) and hand.fields["big_bet"] == 1
    out = io.StringIO()
    write_phh([hand], out)
    [back] = read_phh_text(out.getvalue())
    assert isinstance(back, HandHistory) and back.fields["big_bet"] == 1


def test_short_big_blind_heads_up_keeps_its_blind_names_in_pokerstars_text() -> None:
    from holdem.histories import to_pokerstars, validate, with_results

    history = _played((3, 1), small_blind=2, big_blind=5)  # the big blind has 1 chip
    text = to_pokerstars(with_results(history))
    assert "Player1: posts big blind 1 and is all-in" in text
    assert "Player2: posts small blind 2" in text
    [back] = read_pokerstars_text(text)
    assert isinstance(back, HandHistory) and validate(back) == []


#: Wrong values of every kind, for the fields a writer fills in.
WRONG_VALUES = (
    "5", "'x'", "true", "12:00:00", "-1", "0.5", "1e30", "[]", "['x']", "[[]]", "[-1]",
    "[99]", "[1.5]", "[[1, 'x']]", "[[99, 1]]", "[[1, 2, 3, 4]]", "[1, 2, 3]", "{a = 1}",
    "[true]", "[[1, -5, 'pot']]", "[[1, 1.0000001]]",
)  # fmt: skip


@pytest.mark.parametrize("value", WRONG_VALUES)
def test_wrong_values_of_our_user_fields_and_the_spec_fields_are_errors_not_tracebacks(
    value: str,
) -> None:
    from holdem.histories import to_pokerstars, validate_text
    from holdem.histories.phh import _SPEC_OPTIONAL, USER_FIELDS

    good = (PHH / "ok_showdown.phh").read_text(encoding="utf-8")
    for key in [*USER_FIELDS, *_SPEC_OPTIONAL, "hand", "players", "seats"]:
        text = f"{good}\n{key} = {value}\n"
        report = validate_text(text, "phh")
        codes = {p.code for p in report.problems}
        assert "internal" not in codes, (key, value, [str(p) for p in report.problems])
        # what reads and replays also writes, or is refused with a clear error
        for hand in read_phh_text(text):
            if isinstance(hand, HandHistory):
                with contextlib.suppress(HistoryFormatError):
                    to_pokerstars(hand)


def test_an_unreadable_file_still_lists_the_problems_of_the_hands_before(tmp_path: Path) -> None:
    bad = (PHH / "bad_min_raise.phh").read_text(encoding="utf-8")
    path = tmp_path / "set.phhs"
    path.write_bytes(f"[1]\n{bad}\n[2]\n".encode() + b"\x00\xff binary")
    code, out, _ = run("validate", str(path))
    assert code == 2
    lines = out.splitlines()
    assert "UNREADABLE" in lines[0]
    assert "minimum raise is to 4" in lines[1]  # the summary's count has its line
    assert lines[-1].endswith("1 error")


def test_a_bug_of_ours_is_reported_with_the_hand_and_the_others_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from holdem.histories import phh, playback, pokerstars

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("planted")

    good = (PHH / "ok_showdown.phh").read_text(encoding="utf-8")
    two = f"[1]\n{good}\n[2]\n{good}\n"
    for target, name, doing in (
        (phh, "_build", "reading"),
        (playback, "validate", "replaying"),
    ):
        with monkeypatch.context() as patch:
            patch.setattr(target, name, broken)
            report = validate_text(two, "phh")
        assert report.hands == 2 and [p.code for p in report.problems] == ["internal"] * 2
        assert (
            f"internal error while {doing} (RuntimeError: 'planted')" in report.problems[0].message
        )
    stars = (Path(__file__).parent / "data" / "pokerstars" / "cash_two_hands.txt").read_text(
        encoding="utf-8"
    )
    with monkeypatch.context() as patch:
        patch.setattr(pokerstars._HandParser, "parse", broken)
        report = validate_text(stars, "pokerstars")
    assert report.hands == 2 and [p.code for p in report.problems] == ["internal"] * 2
    assert "internal error while reading line" in report.problems[0].message
