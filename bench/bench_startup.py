"""Start-up time of ``holdem eval`` (issue 29): the full-screen table's
toolkit (Textual) must not be loaded by commands that do not draw it.

Run it from the repository root::

    pip install -e . && python bench/bench_startup.py [--runs 20]

Measured, in one run: the wall-clock time of ``holdem eval AsKs7d2c3h``
started as a new process (``python -m holdem``), the median and the best of
``--runs`` runs after one warm-up run; the import time of ``holdem.cli.main``
as ``python -X importtime`` tells it (its cumulative microseconds, median of
the runs); and whether ``textual`` (or ``rich``) was among the modules that
command imported.  One JSON object a line.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from _common import emit, machine, set_bench

set_bench("startup")

EVAL = [sys.executable, "-m", "holdem", "eval", "AsKs7d2c3h"]


def wall(runs: int) -> list[float]:
    """Seconds of each run of ``holdem eval`` (one warm-up run first)."""
    subprocess.run(EVAL, check=True, capture_output=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(EVAL, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def import_time(runs: int) -> tuple[list[int], set[str]]:
    """The cumulative import time of ``holdem.cli.main`` in microseconds, per
    run, and the top-level packages imported on the way."""
    micros, packages = [], set()
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import holdem.cli.main"],
            check=True,
            capture_output=True,
            text=True,
        )
        for line in done.stderr.splitlines():
            if not line.startswith("import time:") or "|" not in line:
                continue
            _, cumulative, name = (part.strip() for part in line[12:].split("|"))
            if not cumulative.isdigit():
                continue  # (the header line)
            packages.add(name.split(".")[0])
            if name == "holdem.cli.main":
                micros.append(int(cumulative))
    return micros, packages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    emit(**machine(), runs=args.runs)
    times = wall(args.runs)
    emit(
        measure="holdem eval wall clock",
        median_ms=round(1000 * statistics.median(times), 1),
        best_ms=round(1000 * min(times), 1),
    )
    micros, packages = import_time(args.runs)
    emit(
        measure="import holdem.cli.main (python -X importtime, cumulative)",
        median_ms=round(statistics.median(micros) / 1000, 1),
        best_ms=round(min(micros) / 1000, 1),
        textual_imported="textual" in packages,
        rich_imported="rich" in packages,
    )


if __name__ == "__main__":
    main()
