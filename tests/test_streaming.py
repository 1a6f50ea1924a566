"""Large inputs: ``holdem validate`` and ``holdem convert`` work in constant memory.

A generated file of many hands (every tenth one breaking the rules, so that
the problems pile up too) is validated and converted in a child process, and
its peak memory is compared with a run over a small file of the same hands.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from holdem.histories import FileReport, validate_file, validate_text
from holdem.histories import files as files_module

GOOD = """variant = 'NT'
antes = [5, 5, 5, 5]
blinds_or_straddles = [10, 20, 0, 0]
min_bet = 20
starting_stacks = [1000, 1000, 15, 1000]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 AsAh', 'd dh p4 KsKh', 'p3 cc', 'p4 cbr 60', \
'p1 f', 'p2 f', 'd db 2c3c4d', 'd db 9h', 'd db Td', 'p4 sm KsKh', 'p3 sm AsAh']
finishing_stacks = [985, 975, 60, 995]
"""
# p2 raises to less than the big blind: an error, reported with its line
BAD = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'p2 cbr 1']
"""


def write_set(path: Path, hands: int) -> Path:
    """A PHH set of ``hands`` hands, every tenth one illegal, written as it goes."""
    with path.open("w", encoding="utf-8") as out:
        for number in range(1, hands + 1):
            out.write(f"[{number}]\n{BAD if number % 10 == 0 else GOOD}\n")
    return path


PEAK = """
import resource, sys
from holdem.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print(code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def peak_kib(*args: str) -> tuple[int, int]:
    """Runs ``holdem ARGS`` in a child; its exit status and peak memory in KiB."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    code, peak = done.stderr.strip().splitlines()[-1].split()
    return int(code), int(peak)


JSON = (("validate", "--json"), 1)  # (command, exit status): the illegal hands are reported
TEXT = (("validate",), 1)
CONVERT = (("convert", "--to", "pokerstars", "--keep-invalid"), 0)


def flat_memory(
    tmp_path: Path, small: int, large: int, commands: tuple[tuple[tuple[str, ...], int], ...]
) -> None:
    few = write_set(tmp_path / "few.phhs", small)
    many = write_set(tmp_path / "many.phhs", large)
    for command, status in commands:
        base_code, base = peak_kib(*command, str(few))
        code, peak = peak_kib(*command, str(many))
        assert code == base_code == status
        # the same peak, give or take what the allocator keeps (the hands
        # read alone would take tens of megabytes if they were all kept)
        assert peak - base < 4 * 1024, (command, base, peak)


def test_validate_and_convert_keep_memory_flat(tmp_path: Path) -> None:
    flat_memory(tmp_path, 500, 10_000, (JSON, TEXT, CONVERT))


@pytest.mark.slow
def test_validate_and_convert_keep_memory_flat_over_a_million_hands(tmp_path: Path) -> None:
    # about 380 MB of PHH, 100,000 problems (ten times what is kept in memory)
    flat_memory(tmp_path, 10_000, 1_000_000, (JSON, CONVERT))


def test_problems_beyond_the_memory_limit_wait_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_set(tmp_path / "set.phhs", 200)
    everything = validate_file(str(path))
    assert len(everything.problems) == 20
    monkeypatch.setattr(files_module, "MAX_PROBLEMS_IN_MEMORY", 3)
    report = validate_file(str(path))
    assert len(report.problems) == 20 and report.errors == 20 and report.status == "FAILED"
    assert list(report.problems) == list(everything.problems)
    assert report.problems[-1] == everything.problems[-1]
    assert report.problems[5].line == everything.problems[5].line
    assert report.to_dict() == everything.to_dict()
    # a worker process sends its report to the parent: the file goes with it
    copy: FileReport = pickle.loads(pickle.dumps(report))
    assert list(copy.problems) == list(everything.problems)
    spill = Path(copy.problems._path or "")
    del report
    assert spill.exists()  # the sender let go of it
    del copy
    assert not spill.exists()  # the receiver removed it


def test_json_report_is_written_one_problem_at_a_time(tmp_path: Path) -> None:
    import io

    report = validate_text(BAD, "phh", path="bad.phh")
    out = io.StringIO()
    report.write_json(out)
    assert json.loads(out.getvalue()) == report.to_dict()
    assert report.to_dict()["problems"][0]["code"] == "illegal"


# --- one large file on several processes ---------------------------------------


def joined(report: FileReport) -> dict[str, object]:
    return report.to_dict()


def in_pieces(source: str, fmt: str | None = None, hands: int = 3) -> FileReport:
    from holdem.histories import split_file, validate_piece

    pieces = list(split_file(source, fmt, hands=hands))
    report = validate_piece(pieces[0])
    for piece in pieces[1:]:
        report.add(validate_piece(piece))
    return report.finish()


def test_a_file_in_pieces_gives_the_report_of_the_whole(tmp_path: Path) -> None:
    from holdem.histories import split_file

    path = write_set(tmp_path / "set.phhs", 25)
    assert len(list(split_file(str(path), hands=3))) == 9
    whole = validate_file(str(path))
    assert whole.errors == 2
    assert joined(in_pieces(str(path))) == joined(whole)


def test_pokerstars_files_in_pieces_give_the_reports_of_the_whole(tmp_path: Path) -> None:
    data = Path(__file__).parent / "data" / "pokerstars"
    files = sorted(data.rglob("*.txt"))
    assert len(files) > 10
    for path in files:
        assert joined(in_pieces(str(path), "pokerstars", hands=1)) == joined(
            validate_file(str(path), "pokerstars")
        ), path
    # all of them in one file: messages that name other lines name the same ones
    together = tmp_path / "all.txt"
    together.write_text("\n\n".join(f.read_text(encoding="utf-8") for f in files), encoding="utf-8")
    whole = validate_file(str(together), "pokerstars")
    assert any("line" in p.message for p in whole.problems)
    for hands in (1, 2, 5):
        assert joined(in_pieces(str(together), "pokerstars", hands=hands)) == joined(whole)
    # text before any hand, then binary data
    stray = tmp_path / "stray.txt"
    stray.write_bytes(b"hello there\n" + together.read_bytes()[:3000] + b"\n\x00\xff\xfe")
    assert joined(in_pieces(str(stray), "pokerstars", hands=1)) == joined(
        validate_file(str(stray), "pokerstars")
    )


def test_a_file_in_pieces_that_stops_being_text_or_holds_no_hand(tmp_path: Path) -> None:
    broken = tmp_path / "broken.phhs"
    broken.write_bytes(write_set(tmp_path / "a.phhs", 7).read_bytes() + b"[8]\n\xff\xfe\x00\x00")
    whole = validate_file(str(broken))
    assert whole.status == "UNREADABLE" and whole.hands == 7
    assert joined(in_pieces(str(broken))) == joined(whole)
    empty = tmp_path / "empty.phhs"
    empty.write_text("# nothing here\n", encoding="utf-8")
    assert joined(in_pieces(str(empty))) == joined(validate_file(str(empty)))
    assert [p.code for p in validate_file(str(empty)).problems] == ["empty"]


def test_validate_jobs_shares_one_large_file_among_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from holdem.cli.main import main
    from holdem.histories import parallel

    path = write_set(tmp_path / "set.phhs", 450)
    small = write_set(tmp_path / "small.phhs", 5)
    monkeypatch.setattr(parallel, "SPLIT_BYTES", 10_000)  # set.phhs is cut, small.phhs is not
    pieces = [task for task in parallel._tasks([str(path), str(small)], None)]
    assert len(pieces) == 4  # 450 hands in pieces of 200, then small.phhs whole
    outputs = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(
            main, ["validate", "--json", "--jobs", jobs, str(path), str(small)]
        )
        assert result.exit_code == 1, result.output
        outputs.append(json.loads(result.stdout))
    assert outputs[0] == outputs[1]
    assert outputs[1]["summary"]["hands"] == 455 and outputs[1]["summary"]["error"] == 45


def test_validate_files_gives_the_same_reports_on_one_process_or_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from holdem.histories import parallel, validate_files

    monkeypatch.setattr(parallel, "SPLIT_BYTES", 10_000)
    big = write_set(tmp_path / "big.phhs", 300)
    small = write_set(tmp_path / "small.phhs", 3)
    done: list[int] = []

    def reports(jobs: int) -> list[dict[str, object]]:
        stream = io.BytesIO(big.read_bytes())  # a stream is read in pieces too
        found = validate_files(
            [str(big), stream, str(small)], "phh", jobs=jobs, progress=done.append
        )
        return [joined(r) for r in found]

    one, two = reports(1), reports(2)
    assert one == two
    assert [r["hands"] for r in one] == [300, 300, 3]
    assert [r["errors"] for r in one] == [30, 30, 0]
    assert sum(done) >= 2 * big.stat().st_size  # the bytes done, told as they are
    with pytest.raises(ValueError, match="jobs must be 1 to 64"):
        next(validate_files([str(small)], jobs=0))
