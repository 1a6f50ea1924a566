"""Benchmark of work on a Dask cluster against the same work on processes
(issue 33: the scheduling overhead under 5%).

Run it from the repository root::

    pip install -e '.[cluster]' && python bench/bench_cluster.py

It starts a LocalCluster of 2 worker processes (a thread each, on the
loopback) once, and runs each piece of work with ``--jobs 2`` (``threads=2``
for equity: its parallel units are threads) and on the cluster by its
address, as ``--cluster tcp://...`` does; the same cores either way:

- ``simulate``: a cash game of three bots (normal, easy, random);
- ``tournaments``: freezeouts of four bots;
- ``validate``: the PHH files that a simulation wrote (read where they are),
  and the same sent to the workers (``--ship``);
- ``equity_exact``: two wide ranges preflop, every board (5 billion deals);
- ``equity_monte_carlo``: a hand against a range, 800 million deals.

Each piece takes 15 to 25 s on ``--jobs 2`` here: the batch work a cluster
is for runs minutes to hours, and a run of a few seconds measures the
cluster's fixed costs (the connection, the first tasks), not its overhead.
The two ways run in turn, ``--rounds`` times (default 3), the first of the
pair alternating, and the ratio of a piece is the median of its rounds'
ratios: on a shared machine (a virtual one whose neighbours take its CPU:
``steal_seconds``) one run can take half as long again as the next, and
taking the two ways side by side cancels most of it.  Each round also
counts the CPU seconds of every process at work (this one, the pool's
processes, the workers and their nannies; the LocalCluster's scheduler runs
in this process): ``cpu_ratio``, which a neighbour's load does not move.

Output: one JSON object a line: a ``header`` (with the cluster's start-up
time, which a ``--cluster local:N`` run pays once and a running scheduler
does not), a ``round`` line per piece and round, a ``result`` line per
piece (``ratio``: the cluster's time over the processes', the median of the
rounds), and a ``target`` line: every overhead (ratio - 1) under 5%.
``--quick`` gives a smoke run (its ratios mean little).
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable

import psutil  # (Dask's distributed needs it: the cluster extra has it)
from _common import cpu_model, emit, library_version, set_bench

from holdem import equity, simulate
from holdem.histories import find_files, validate_files

set_bench("cluster")
#: The most overhead of the cluster over the processes (issue 33).
TARGET = 0.05


def cpu_seconds(cluster: bool) -> float:
    """The CPU seconds of this process and of its children that ended (the
    pool's), and with ``cluster`` of those alive (the workers, their nannies)."""
    me = psutil.Process()
    own = me.cpu_times()
    total = own.user + own.system + own.children_user + own.children_system
    if cluster:
        for child in me.children(recursive=True):
            try:
                times = child.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
    return total


def steal() -> float:
    """The seconds the machine's hypervisor gave to others (Linux; 0 elsewhere)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def timed(run: Callable[[], object], cluster: bool) -> tuple[float, float, float]:
    """The wall seconds, CPU seconds and stolen seconds of ``run()``."""
    cpu, stolen, started = cpu_seconds(cluster), steal(), time.perf_counter()
    run()
    wall = time.perf_counter() - started
    return wall, cpu_seconds(cluster) - cpu, steal() - stolen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each piece (default 3)")
    parser.add_argument("--only", help="the pieces to run, by name, comma-separated")
    args = parser.parse_args()
    scale = 0.02 if args.quick else 1.0
    rounds = 1 if args.quick else args.rounds
    import dask
    from distributed import Client, LocalCluster

    from holdem.cluster import DASK_SETTINGS

    # (as docs/cluster.md sets up a cluster: Dask's watching of itself rarer)
    dask.config.set(DASK_SETTINGS)
    started = time.perf_counter()
    local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address="127.0.0.1:0",
                         silence_logs=logging.CRITICAL)  # fmt: skip
    with Client(local) as client:
        client.wait_for_workers(2)
    start_up = time.perf_counter() - started
    address = local.scheduler_address
    emit(header=True, cpus=os.cpu_count(), cpu=cpu_model(), holdem=library_version("holdem"),
         distributed=library_version("distributed"), workers=2, start_up_seconds=start_up,
         rounds=rounds, quick=args.quick, load_average=os.getloadavg())  # fmt: skip
    hands = int(500_000 * scale)
    cups = int(6_000 * scale)
    trials = int(800_000_000 * scale)
    folder = tempfile.mkdtemp(prefix="bench-cluster-")
    bots = ["normal", "easy", "random"]
    cup_bots = ["easy", "random", "calling-station", "easy"]
    exact = ["22+,A2s+,K2s+,Q8s+,J8s+,T8s+,98s,A2o+,KTo+,QJo", "55+,A8s+,KQs,AJo+"]
    if args.quick:
        exact = ["AK,QQ+", "JJ-99,AQs"]
    work: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
        "simulate": (
            lambda: simulate(bots, hands=hands, seed=1, jobs=2),
            lambda: simulate(bots, hands=hands, seed=1, cluster=address),
        ),
        "tournaments": (
            lambda: simulate(cup_bots, tournaments=cups, seed=1, jobs=2),
            lambda: simulate(cup_bots, tournaments=cups, seed=1, cluster=address),
        ),
        "validate": (
            lambda: list(validate_files(files, jobs=2)),
            lambda: list(validate_files(files, cluster=address)),
        ),
        "validate_ship": (
            lambda: list(validate_files(files, jobs=2)),
            lambda: list(validate_files(files, cluster=address, ship=True)),
        ),
        "equity_exact": (
            lambda: equity(exact, exact=True, threads=2),
            lambda: equity(exact, exact=True, cluster=address),
        ),
        "equity_monte_carlo": (
            lambda: equity(["AKs", "QQ+,AK"], trials=trials, seed=1, threads=2),
            lambda: equity(["AKs", "QQ+,AK"], trials=trials, seed=1, cluster=address),
        ),
    }  # fmt: skip
    chosen = list(work) if args.only is None else args.only.split(",")
    files: list[str] = []
    if any(name.startswith("validate") for name in chosen):
        simulate(bots, hands=int(300_000 * scale), seed=1, jobs=2, histories=folder)
        files = [str(path) for path in find_files([folder])[0]]
    worst = 0.0
    for name in chosen:
        processes, cluster = work[name]
        # (a first run each way: the same result, and the workers' imports done)
        assert processes() == cluster() or name.startswith("validate")
        ratios, cpu_ratios, here, there = [], [], [], []
        for number in range(rounds):
            order = [False, True] if number % 2 == 0 else [True, False]
            measured = {way: timed(cluster if way else processes, way) for way in order}
            (wall_p, cpu_p, steal_p), (wall_c, cpu_c, steal_c) = measured[False], measured[True]
            here.append(wall_p)
            there.append(wall_c)
            ratios.append(wall_c / wall_p)
            cpu_ratios.append(cpu_c / cpu_p)
            emit(round=name, number=number + 1, processes_seconds=wall_p, cluster_seconds=wall_c,
                 ratio=wall_c / wall_p, processes_cpu_seconds=cpu_p, cluster_cpu_seconds=cpu_c,
                 cpu_ratio=cpu_c / cpu_p, steal_seconds=steal_p + steal_c)  # fmt: skip
        ratio = statistics.median(ratios)
        worst = max(worst, ratio - 1)
        emit(result=name, processes_seconds=statistics.median(here),
             cluster_seconds=statistics.median(there), ratio=ratio, overhead=ratio - 1,
             cpu_ratio=statistics.median(cpu_ratios), rounds=rounds)  # fmt: skip
    emit(target="cluster overhead under 5% against --jobs 2 on the same cores",
         worst_overhead=worst, met=worst < TARGET, load_average=os.getloadavg())  # fmt: skip
    local.close()
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
