"""Benchmark of hand-history validation: holdem against pokerkit on the Pluribus hands.

Run it from the repository root::

    pip install -e '.[bench]' && python bench/bench_histories.py

``--quick`` gives a smoke run on 500 files.  The corpus is the 10,000
Pluribus hands, one hand a PHH file, under
``/work/shared/corpus/phh/pluribus`` (``--corpus`` for another folder); when
it is missing the script says so in a ``note`` line and exits.

What is timed, in the same run:

- ``holdem validate_file``: ``for path in files: validate_file(path)`` in
  this process, pinned to one core: read the PHH file, replay the hand
  through holdem's rules engine and check every number the file states;
- ``holdem validate --jobs 1`` and ``--jobs 2``: the command as a
  subprocess on the corpus folder, wall time (interpreter start, imports
  and finding the files included), not pinned;
- the same command on one PHH set of ``--set-hands`` hands (100,000: the
  corpus files written ten times over as tables ``[1]``, ``[2]`` ... of one
  ``.phhs`` file, in a temporary folder): the issue's ``--jobs 2`` target is
  measured there, where the processes share one file in pieces of hands;
- ``pokerkit``: ``HandHistory.load`` on each file opened in binary mode,
  then ``for state in hh: pass`` (every state of the replay), pinned to
  one core.  pokerkit is slow, so by default it replays an evenly spaced
  subset of ``--pokerkit-files`` files (2,000); holdem's ``validate_file``
  is also timed on the same subset, and the target ratio compares those two.

Each figure is the best of ``--repeat`` rounds (default 3); a round runs
every case once, so a noisy neighbour slows them all alike.  The files are
read once before timing so that every case finds them in the page cache.
The garbage collector stays on (as in real use), collected before each case.

Output: one JSON object a line on stdout: a ``header``, ``note`` lines,
results (``hands``, ``seconds``, ``hands_per_sec``), ``check`` lines (what
holdem found in the files: OK, warnings, errors), ``ratio`` lines
(``speedup``: pokerkit time / holdem time for the same hands) and a
``target`` line per project target with ``met``.  ``--profile N`` adds
``profile`` lines: the functions taking the most time (cProfile, own time)
while validating N files.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import platform
import pstats
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import cpu_model, emit, library_version, note, set_bench, warn

from holdem.histories import FileReport, validate_file

set_bench("histories")

CORPUS = Path("/work/shared/corpus/phh/pluribus")
EXPECTED_FILES = 10_000
EXPECTED_SPLIT_CHIP_WARNINGS = 8  # pots the files split into half chips
QUICK_FILES = 500

#: the issue's targets
TARGET_SPEEDUP = 5.0  # validate_file on one core against pokerkit's replay
TARGET_JOBS2_RATE = 20_000.0  # hands per second, `holdem validate --jobs 2` on the set
SET_HANDS = 100_000
QUICK_SET_HANDS = 5_000


# --------------------------------------------------------------------- output


# ---------------------------------------------------------------- environment


class Affinity:
    """Pins this process to one core for the in-process cases, unpins for subprocesses."""

    def __init__(self, enabled: bool) -> None:
        self.allowed: set[int] | None = None
        self.cpu: int | None = None
        if enabled and hasattr(os, "sched_setaffinity"):
            try:
                self.allowed = os.sched_getaffinity(0)
                self.cpu = max(self.allowed)
            except OSError:
                self.allowed = None

    def pin(self) -> None:
        if self.cpu is not None:
            os.sched_setaffinity(0, {self.cpu})

    def unpin(self) -> None:
        """Back to every allowed CPU (a subprocess inherits the affinity)."""
        if self.allowed is not None:
            os.sched_setaffinity(0, self.allowed)


def holdem_commit() -> str | None:
    """The git commit of the holdem tree imported (``+dirty``: holdem/, cli/ or csrc/ changed)."""
    import holdem

    root = Path(holdem.__file__).resolve().parent.parent
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", "holdem", "cli", "csrc"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+dirty" if dirty else "")


def holdem_command() -> list[str]:
    """The ``holdem`` script next to this interpreter, else ``python -m holdem.cli``."""
    script = Path(sys.executable).parent / "holdem"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "holdem.cli"]


def spread(files: Sequence[str], n: int) -> list[str]:
    """``n`` files evenly spaced through ``files`` (all of them if n is 0 or too big)."""
    if n <= 0 or n >= len(files):
        return list(files)
    return [files[i * len(files) // n] for i in range(n)]


# ----------------------------------------------------------------- the cases


@dataclass
class Findings:
    """What holdem's validation reported on the files."""

    files: int = 0
    hands: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    severities: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)


def run_holdem(files: Sequence[str]) -> tuple[float, Findings]:
    """``validate_file`` on every file; the time and what it found."""
    flagged: list[FileReport] = []
    hands = 0
    gc.collect()
    start = time.perf_counter()
    for path in files:
        report = validate_file(path)
        hands += report.hands
        if report.problems or report.unreadable is not None:
            flagged.append(report)
    seconds = time.perf_counter() - start
    found = Findings(files=len(files), hands=hands)
    found.statuses["OK"] = len(files) - len(flagged)
    for report in flagged:
        found.statuses[report.status] += 1
        for problem in report.problems:
            found.severities[problem.severity] += 1
            found.codes[f"{problem.severity}:{problem.code or '?'}"] += 1
    return seconds, found


def run_pokerkit(files: Sequence[str]) -> tuple[float, int, list[str]]:
    """pokerkit's load and replay of every file; the time, hands replayed, failures."""
    from pokerkit import HandHistory

    hands = 0
    failures: list[str] = []
    gc.collect()
    start = time.perf_counter()
    for path in files:
        try:
            with open(path, "rb") as f:
                hh = HandHistory.load(f)
            for _state in hh:
                pass
            hands += 1
        except Exception as exc:  # counted and reported, not fatal
            failures.append(f"{path}: {type(exc).__name__}: {exc}")
    return time.perf_counter() - start, hands, failures


_SUMMARY = re.compile(r"^(\d+) files?: .*; (\d+) hands?(?:; (.*))?$", re.MULTILINE)


@dataclass
class CommandRun:
    seconds: float
    returncode: int
    files: int | None
    hands: int | None
    problems: str  # the summary's problem counts, e.g. "8 warnings"
    stderr: str


def write_set(files: Sequence[str], hands: int, path: str) -> None:
    """A PHH set of ``hands`` hands: the files' hands in turn, as tables [1], [2] ..."""
    texts = [Path(f).read_text(encoding="utf-8").strip() for f in files]
    with open(path, "w", encoding="utf-8") as out:
        for number in range(1, hands + 1):
            out.write(f"[{number}]\n{texts[(number - 1) % len(texts)]}\n\n")


def run_command(command: list[str], jobs: int, targets: list[str]) -> CommandRun:
    """``holdem validate --jobs N -q`` on the targets; wall time and its summary line."""
    argv = [*command, "validate", "--jobs", str(jobs), "-q", *targets]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    matches = list(_SUMMARY.finditer(done.stdout))
    match = matches[-1] if matches else None
    return CommandRun(
        seconds=seconds,
        returncode=done.returncode,
        files=int(match.group(1)) if match else None,
        hands=int(match.group(2)) if match else None,
        problems=(match.group(3) or "") if match else "",
        stderr=done.stderr.strip()[-500:],
    )


# ------------------------------------------------------------------ reporting


def emit_result(case: str, method: str, hands: int, seconds: float, **extra: Any) -> None:
    emit(
        case=case,
        method=method,
        hands=hands,
        seconds=round(seconds, 4),
        hands_per_sec=round(hands / seconds, 1),
        us_per_hand=round(seconds / hands * 1e6, 1),
        **extra,
    )


def check(name: str, ok: bool, detail: str) -> None:
    emit(check=name, ok=ok, detail=detail)
    if not ok:
        warn(f"check failed: {name}: {detail}")


def emit_profile(files: Sequence[str], top: int = 20) -> None:
    """cProfile of ``validate_file`` on the files: the functions with the most own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for path in files:
        validate_file(path)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = sorted(
        stats.stats.items(),  # type: ignore[attr-defined]
        key=lambda item: item[1][2],
        reverse=True,
    )
    note(
        f"profile: validate_file on {len(files)} files, {total:.3f} s under cProfile "
        f"({total / len(files) * 1e6:.0f} us a hand with the profiler's overhead)"
    )
    for (filename, line, name), (_cc, ncalls, tottime, cumtime, _callers) in rows[:top]:
        where = filename if filename == "~" else f"{Path(filename).name}:{line}"
        emit(
            profile=f"{where}({name})",
            calls_per_hand=round(ncalls / len(files), 1),
            tottime=round(tottime, 4),
            tottime_share=round(tottime / total, 3),
            cumtime=round(cumtime, 4),
        )


# ----------------------------------------------------------------------- main


def best_of(rounds: int, run: Callable[[], float]) -> float:
    return min(run() for _ in range(rounds))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of .phh files")
    parser.add_argument(
        "--files", type=int, default=0, help="evenly spaced files to use (0: all; --quick: 500)"
    )
    parser.add_argument(
        "--pokerkit-files",
        type=int,
        default=2_000,
        help="evenly spaced files pokerkit replays (0: the same as holdem); default 2000",
    )
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best counts")
    parser.add_argument("--quick", action="store_true", help=f"smoke run on {QUICK_FILES} files")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    parser.add_argument("--no-command", action="store_true", help="skip `holdem validate`")
    parser.add_argument(
        "--set-hands",
        type=int,
        default=None,
        help=f"hands of the PHH set the command validates ({SET_HANDS:,}; --quick: "
        f"{QUICK_SET_HANDS:,}; 0: none)",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="also profile validate_file on N evenly spaced files",
    )
    args = parser.parse_args(argv)
    repeat = max(1, args.repeat)

    corpus: Path = args.corpus
    all_files = sorted(str(p) for p in corpus.glob("**/*.phh")) if corpus.is_dir() else []
    emit(
        header="hand-history validation",
        python=platform.python_version(),
        implementation=platform.python_implementation(),
        cpu=cpu_model(),
        cpus=os.cpu_count(),
        holdem=library_version("holdem"),
        holdem_commit=holdem_commit(),
        pokerkit=library_version("pokerkit"),
        corpus=str(corpus),
        corpus_files=len(all_files),
    )
    if not all_files:
        note(f"skipped: no .phh files under {corpus} (the Pluribus corpus is not here)")
        return 0
    if len(all_files) != EXPECTED_FILES:
        note(f"{len(all_files)} files under {corpus}, not the {EXPECTED_FILES:,} expected")

    n_files = QUICK_FILES if args.quick and not args.files else args.files
    files = spread(all_files, n_files)
    whole_corpus = len(files) == len(all_files)
    have_pokerkit = library_version("pokerkit") is not None
    pk_files = spread(files, args.pokerkit_files) if have_pokerkit else []
    if not have_pokerkit:
        note("pokerkit is not installed: its case and the ratio target are skipped")
    elif len(pk_files) < len(files):
        note(
            f"pokerkit replays {len(pk_files)} of the {len(files)} files (evenly spaced); "
            f"holdem validate_file is timed on the same {len(pk_files)} for the ratio"
        )

    # read every file once so that each case finds them in the page cache
    for path in files:
        with open(path, "rb") as f:
            f.read()

    affinity = Affinity(enabled=not args.no_pin)
    if affinity.cpu is not None:
        note(f"in-process cases pinned to CPU {affinity.cpu}; the command runs on every CPU")
    else:
        note("not pinned (--no-pin, or no os.sched_setaffinity)")

    set_hands = args.set_hands
    if set_hands is None:
        set_hands = QUICK_SET_HANDS if args.quick else SET_HANDS
    scratch = tempfile.TemporaryDirectory(prefix="bench-histories-")
    set_path = os.path.join(scratch.name, "set.phhs")
    if set_hands and not args.no_command:
        write_set(files, set_hands, set_path)
        note(f"the PHH set: {set_hands:,} hands from the corpus files, one .phhs file")

    command = holdem_command()
    # the command gets the folder itself when it validates the whole corpus
    targets = [str(corpus)] if whole_corpus else files
    where = "<corpus folder>" if whole_corpus else "<the files>"
    note(f"command: {' '.join(command)} validate --jobs N -q {where}")

    # warm-up: imports, lazy tables, the first calls of each code path
    affinity.pin()
    run_holdem(files[:50])
    if have_pokerkit:
        run_pokerkit(pk_files[:10])

    holdem_times: list[float] = []
    subset_times: list[float] = []
    pokerkit_times: list[float] = []
    command_runs: dict[int, list[CommandRun]] = {1: [], 2: []}
    set_runs: dict[int, list[CommandRun]] = {1: [], 2: []}
    found = Findings()
    pk_hands = 0
    pk_failures: list[str] = []
    for _ in range(repeat):
        affinity.pin()
        seconds, found = run_holdem(files)
        holdem_times.append(seconds)
        if have_pokerkit:
            if len(pk_files) < len(files):
                subset_times.append(run_holdem(pk_files)[0])
            seconds, pk_hands, pk_failures = run_pokerkit(pk_files)
            pokerkit_times.append(seconds)
        affinity.unpin()
        if not args.no_command:
            for jobs in (1, 2):
                command_runs[jobs].append(run_command(command, jobs, targets))
                if set_hands:
                    set_runs[jobs].append(run_command(command, jobs, [set_path]))
    affinity.unpin()
    scratch.cleanup()

    # ----- results
    ours = min(holdem_times)
    emit_result("holdem", "validate_file, in-process, one core", found.hands, ours)
    ours_same = ours
    if subset_times:
        ours_same = min(subset_times)
        emit_result(
            "holdem",
            "validate_file, in-process, one core (pokerkit's subset)",
            len(pk_files),
            ours_same,
        )

    # a run counts only if it finished and validated every hand: a crash is fast
    def finished(run: CommandRun) -> bool:
        return run.returncode in (0, 1) and run.hands == found.hands

    completed = {jobs: [r for r in runs if finished(r)] for jobs, runs in command_runs.items()}
    best_runs: dict[int, CommandRun] = {}
    for jobs, runs in completed.items():
        if not runs:
            continue
        run = min(runs, key=lambda r: r.seconds)
        best_runs[jobs] = run
        emit_result(
            "holdem",
            f"holdem validate --jobs {jobs} -q (subprocess, wall time)",
            len(files),
            run.seconds,
            runs=len(runs),
        )
    pk = min(pokerkit_times) if pokerkit_times else None
    if pk is not None:
        emit_result(
            "pokerkit",
            "HandHistory.load + iterate states, in-process, one core",
            pk_hands,
            pk,
            scaled_seconds_all_files=round(pk / max(pk_hands, 1) * len(files), 2),
        )
        if pk_failures:
            warn(f"pokerkit failed on {len(pk_failures)} files, e.g. {pk_failures[0]}")

    # ----- what holdem found
    detail = (
        f"{found.files} files, {found.hands} hands: "
        + ", ".join(f"{n} {s}" for s, n in sorted(found.statuses.items()))
        + (f"; problems: {dict(found.codes)}" if found.codes else "; no problems")
    )
    check("every file read, one hand each", found.hands == found.files, detail)
    check("no errors", not found.severities["error"] and "UNREADABLE" not in found.statuses, detail)
    if whole_corpus and len(all_files) == EXPECTED_FILES:
        splits = found.codes["warning:split-chip"]
        check(
            f"{EXPECTED_SPLIT_CHIP_WARNINGS} split-chip warnings and nothing else",
            splits == EXPECTED_SPLIT_CHIP_WARNINGS and sum(found.codes.values()) == splits,
            detail,
        )
    for jobs, runs in command_runs.items():
        if not runs:
            continue
        failed = [r for r in runs if not finished(r)]
        shown = failed[0] if failed else best_runs[jobs]
        check(
            f"holdem validate --jobs {jobs} agrees",
            not failed and shown.returncode == 0 and shown.files == found.files,
            f"{len(runs) - len(failed)} of {len(runs)} runs completed; "
            f"{'a failed' if failed else 'the best'} run: exit status {shown.returncode}, "
            f"{shown.files} files, {shown.hands} hands"
            + (f", {shown.problems}" if shown.problems else "")
            + (f"; stderr: {shown.stderr}" if shown.stderr else ""),
        )

    # ----- ratios and targets
    per_hand = ours / found.hands
    if pk is not None and pk_hands:
        pk_per_hand = pk / pk_hands
        same = pk_per_hand / (ours_same / len(pk_files))
        emit(ratio="validate_file vs pokerkit, same files, one core", speedup=round(same, 2))
        if subset_times:
            emit(
                ratio="validate_file on all files vs pokerkit per hand, one core",
                speedup=round(pk_per_hand / per_hand, 2),
            )
        for jobs, run in best_runs.items():
            emit(
                ratio=f"holdem validate --jobs {jobs} vs pokerkit one core, per hand",
                speedup=round(pk_per_hand / (run.seconds / len(files)), 2),
            )
        emit(
            target=f"validate_file at least {TARGET_SPEEDUP:g}x faster than pokerkit "
            "(same files, one core)",
            value=round(same, 2),
            met=same >= TARGET_SPEEDUP,
        )
    if 1 in best_runs and 2 in best_runs:
        emit(
            ratio="holdem validate --jobs 2 vs --jobs 1",
            speedup=round(best_runs[1].seconds / best_runs[2].seconds, 2),
        )
    best_set: dict[int, CommandRun] = {}
    for jobs, runs in set_runs.items():
        done = [r for r in runs if r.returncode in (0, 1) and r.hands == set_hands]
        if runs:
            check(
                f"holdem validate --jobs {jobs} reads every hand of the set",
                len(done) == len(runs),
                f"{len(done)} of {len(runs)} runs completed"
                + (f"; stderr: {runs[0].stderr}" if runs[0].stderr else ""),
            )
        if done:
            best_set[jobs] = min(done, key=lambda r: r.seconds)
            emit_result(
                "holdem",
                f"holdem validate --jobs {jobs} -q, one PHH set (subprocess, wall time)",
                set_hands,
                best_set[jobs].seconds,
                runs=len(done),
            )
    if 1 in best_set and 2 in best_set:
        emit(
            ratio="holdem validate --jobs 2 vs --jobs 1, one PHH set",
            speedup=round(best_set[1].seconds / best_set[2].seconds, 2),
        )
    target = (
        f"holdem validate --jobs 2 at least {TARGET_JOBS2_RATE:,.0f} hands/s "
        f"over a {SET_HANDS:,}-hand PHH set"
    )
    if 2 in best_set:
        rate = set_hands / best_set[2].seconds
        emit(target=target, value=round(rate, 1), met=rate >= TARGET_JOBS2_RATE)
        if set_hands != SET_HANDS:
            note("the set is smaller than the target's: its fixed start-up cost weighs more")
    elif set_runs[2]:
        emit(target=target, value=None, met=False, why="no run of the command completed")

    if args.profile:
        affinity.pin()
        emit_profile(spread(files, args.profile))
        affinity.unpin()
    return 0


if __name__ == "__main__":
    sys.exit(main())
