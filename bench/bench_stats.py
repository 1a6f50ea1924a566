"""Benchmark of ``holdem stats`` against ``holdem validate`` over the same files.

Run it from the repository root::

    pip install -e '.[test]' && python bench/bench_stats.py

The files are the conformance corpus's PHH and PokerStars folders
(``/work/shared/corpus/phh`` and ``.../pokerstars``, ``--corpus`` for
another root), as both commands find them; when they are missing the script
says so in a ``note`` line and exits.

What is timed, in the same run:

- in this process, one core: ``for report in validate_files(files)`` (read
  every hand, replay it, check every number the file states) against
  ``Stats().merge(report.stats) for report in stats_files(files)`` (read,
  replay, count every figure, the all-in equities included), and the same
  with ``series=True`` (what ``--plot`` and ``--html`` keep);
- the same two on one PHH set of the corpus's Pluribus hands (10,000 hands
  in one ``.phhs`` file, written to a temporary folder: read in pieces of
  200 hands, as a large file is);
- the commands as subprocesses, wall time (interpreter start, imports and
  finding the files included): ``holdem validate -q`` against ``holdem
  stats``, each with ``--jobs 1`` and ``--jobs 2``.

Each figure is the best of ``--repeat`` rounds (default 3); a round runs
every case once.  The files are read once before timing (the page cache).
Each case has its wall time (``seconds``) and its CPU time (``cpu``: this
process's, or the command's as the system counts a child's): on a machine
shared with other work the CPU time varies less.

Output: one JSON object a line: a ``header``, results (``hands``,
``seconds``, ``cpu``, ``hands_per_sec``), ``ratio`` lines (stats' time over
validate's for the same files, wall and CPU) and the ``target`` line: the
issue's goal, stats within 2x of validate (a ratio of at most 2), in
process on one core, judged by CPU time (the wall time's ratio beside it:
on the shared 2-core machine of these runs the best of three wall times
still moves by a third from run to run).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import emit, machine, note, set_bench

from holdem.histories import HandHistory, find_files, read_hands, validate_files, write_phh
from holdem.stats import Stats, stats_files

set_bench("stats")

CORPUS = Path("/work/shared/corpus")
TARGET_RATIO = 2.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-command", action="store_true", help="skip the subprocess runs")
    args = parser.parse_args()
    folders = [str(args.corpus / "phh"), str(args.corpus / "pokerstars")]
    if not all(os.path.isdir(f) for f in folders):
        note(f"no corpus at {args.corpus} (phh/ and pokerstars/): nothing to time")
        return
    files, _ = find_files(folders)
    for path in files:  # (into the page cache)
        Path(path).read_bytes()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    emit(header=True, files=len(files), commit=commit, **machine())
    folder = tempfile.TemporaryDirectory(prefix="bench-stats-")
    one = os.path.join(folder.name, "pluribus.phhs")
    pluribus = [p for p in files if "/pluribus/" in p]
    with open(one, "w", encoding="utf-8") as out:
        write_phh([h for p in pluribus for h in read_hands(p) if isinstance(h, HandHistory)], out,
                  many=True)  # fmt: skip
    cases = {
        "validate_files": lambda: _validate(files),
        "stats_files": lambda: _stats(files, series=False),
        "stats_files, series": lambda: _stats(files, series=True),
        "validate_files, one set": lambda: _validate([one]),
        "stats_files, one set": lambda: _stats([one], series=False),
    }
    if not args.no_command:
        for jobs in (1, 2):
            cases[f"holdem validate --jobs {jobs}"] = lambda j=jobs: _command(
                "validate", "-q", *folders, "--jobs", str(j)
            )
            cases[f"holdem stats --jobs {jobs}"] = lambda j=jobs: _command(
                "stats", *folders, "--jobs", str(j)
            )
    best: dict[str, float] = {}
    cpu: dict[str, float] = {}
    hands: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, case in cases.items():
            gc.collect()
            start, used = time.perf_counter(), _cpu()
            count = case()
            seconds, used = time.perf_counter() - start, _cpu() - used
            if name not in best or seconds < best[name]:
                best[name], hands[name] = seconds, count
            cpu[name] = min(cpu.get(name, used), used)
    folder.cleanup()
    read = hands["validate_files"]
    for name, seconds in best.items():
        n = hands[name] or read
        emit(case=name, hands=n, seconds=round(seconds, 3), cpu=round(cpu[name], 3),
             hands_per_sec=round(n / seconds))  # fmt: skip
    for ours, theirs in (
        ("stats_files", "validate_files"),
        ("stats_files, series", "validate_files"),
        ("stats_files, one set", "validate_files, one set"),
        *(
            (f"holdem stats --jobs {j}", f"holdem validate --jobs {j}")
            for j in (1, 2)
            if not args.no_command
        ),
    ):
        emit(
            ratio=f"{ours} / {theirs}",
            time_ratio=round(best[ours] / best[theirs], 3),
            cpu_ratio=round(cpu[ours] / cpu[theirs], 3),
        )
    ratio = cpu["stats_files"] / cpu["validate_files"]
    emit(
        target=f"stats within {TARGET_RATIO:g}x of validate, in process, one core (CPU time)",
        time_ratio=round(best["stats_files"] / best["validate_files"], 3),
        cpu_ratio=round(ratio, 3),
        met=ratio <= TARGET_RATIO,
    )


def _cpu() -> float:
    """CPU seconds of this process and of its children that ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _validate(files: list[str]) -> int:
    return sum(report.hands for report in validate_files(files))


def _stats(files: list[str], *, series: bool) -> int:
    total = Stats(series=series)
    for report in stats_files(files, series=series):
        total.merge(report.stats)
    return total.hands


def _command(*args: str) -> int:
    """Runs a command; the hands it read are the in-process cases' (0 here: filled in)."""
    script = shutil.which("holdem", path=os.path.dirname(sys.executable))
    argv = [script] if script else [sys.executable, "-m", "holdem"]
    done = subprocess.run([*argv, *args], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # (validate says 1 for the corpus's broken hands)
        raise SystemExit(f"{' '.join(args)}: exit status {done.returncode}: {done.stderr}")
    return 0


if __name__ == "__main__":
    main()
