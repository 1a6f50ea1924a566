"""simulate, validate and equity on a Dask cluster (holdem.cluster,
docs/cluster.md): the same results as one process, a worker killed mid-run,
Ctrl-C, a scheduler that cannot be reached.

One LocalCluster of 2 worker processes on the loopback serves the module;
the commands reach it by its address, as they would a cluster's scheduler.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

from conftest import with_ctrl_c  # noqa: E402

import holdem.cluster  # noqa: E402
from holdem.equities import equity  # noqa: E402
from holdem.errors import ClusterError  # noqa: E402
from holdem.histories import find_files, validate_files  # noqa: E402
from holdem.histories import parallel as histories_parallel  # noqa: E402
from holdem.simulation import simulate  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
ROOT = DATA.parent.parent
#: Seconds any wait of these tests may take before it fails (generous: CI is slow).
PATIENCE = 120.0


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A LocalCluster of 2 worker processes, on the loopback only (its
    dashboard too: None would take 8787, ':0' every address)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL,
    ) as local:  # fmt: skip
        yield local


@pytest.fixture(scope="module")
def client(cluster: Any) -> Iterator[Any]:
    """The tests' own client of the cluster, to look at it and kill its workers."""
    with distributed.Client(cluster) as own:
        yield own


def holdem_run(*args: str, timeout: float = PATIENCE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "holdem", *args],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
    )  # fmt: skip


def wait_until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < deadline, f"waited {PATIENCE:g} s for {what}"
        time.sleep(0.05)


def tasks_on(client: Any) -> int:
    """The tasks the scheduler holds (of any client)."""
    return int(client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))


# ---------------------------------------------------------------- the same results


def test_simulate_on_a_cluster_is_the_one_process_result(cluster: Any) -> None:
    seats = ["easy", "random", "calling-station"]
    told: list[int] = []
    here = simulate(seats, hands=1_250, seed=11, duplicate=True)
    there = simulate(seats, hands=1_250, seed=11, duplicate=True,
                     cluster=cluster.scheduler_address, progress=told.append)  # fmt: skip
    assert there == here
    # the progress follows the units as they are done, up to every deal
    assert told == sorted(told) and len(set(told)) == len(told) and told[-1] == 1_250


def test_simulated_tournaments_on_a_cluster_are_the_one_process_result(cluster: Any) -> None:
    seats = ["easy", "random", "calling-station"]
    here = simulate(seats, tournaments=24, seed=5, duplicate=True)
    there = simulate(seats, tournaments=24, seed=5, duplicate=True,
                     cluster=cluster.scheduler_address)  # fmt: skip
    assert there == here and there.tournaments == 72


def test_holdem_simulate_cluster_prints_what_jobs_1_prints(cluster: Any) -> None:
    args = ["simulate", "--seats", "easy,random", "--hands", "800", "--seed", "3", "--json"]
    one = holdem_run(*args, "--jobs", "1")
    many = holdem_run(*args, "--cluster", cluster.scheduler_address)
    assert one.returncode == many.returncode == 0, many.stderr
    assert json.loads(many.stdout) == json.loads(one.stdout)
    assert many.stderr == ""


def test_units_go_in_groups_sized_by_their_time_in_order(cluster: Any, client: Any) -> None:
    """Quick units are sent in groups that grow to about the seconds asked,
    and shrink again at the end (the workers end together); the results come
    in the units' order, and each unit is told done once."""

    def slow(group: Any) -> list[tuple[int, int]]:
        time.sleep(0.01 * len(group))  # (each unit: 10 ms of work)
        return [(unit, len(group)) for unit in group]

    told: list[int] = []
    groups = list(holdem.cluster.ordered(client, slow, range(300), seconds=0.2,
                                         done=lambda first, count: told.extend(
                                             range(first, first + count))))  # fmt: skip
    units = [unit for group in groups for unit, _ in group]
    sizes = [size for group in groups for _, size in group[:1]]
    assert units == list(range(300)) and sorted(told) == units
    assert sizes[0] == 1 and 12 <= max(sizes) <= 30  # (20 units: 0.2 s)
    assert sizes[-1] <= 4  # (the last ones small: half a worker's share of what is left)


def test_units_of_an_iterator_go_in_groups_by_their_weight_smaller_at_the_end(
    client: Any,
) -> None:
    """Units that come one by one (files found as they are read) and weigh
    differently (their bytes): groups are sized by weight, not by count,
    and made smaller towards the end when the total weight is known."""
    weights = [1 + unit % 4 for unit in range(200)]  # (a unit's work: 4 ms each)

    def slow(group: Any) -> list[tuple[int, int]]:
        work = sum(weights[unit] for unit in group)
        time.sleep(0.004 * work)
        return [(unit, work) for unit in group]

    work = holdem.cluster.ordered(client, slow, iter(range(200)), seconds=0.2,
                                  weight=weights.__getitem__, total=sum(weights))  # fmt: skip
    groups = list(work)
    units = [unit for group in groups for unit, _ in group]
    works = [work for group in groups for _, work in group[:1]]
    assert units == list(range(200))
    assert works[0] == 1 and 25 <= max(works) <= 75  # (one unit, then about 50: 0.2 s)
    assert works[-1] <= 8  # (half a worker's share of what is left)


def test_a_slow_group_holds_back_the_results_after_it_not_the_work(client: Any) -> None:
    """While the first group takes long, the other worker goes on with new
    groups (the results wait for their turn): a slow group once kept the
    groups done after it counted as at work, and the other worker idle."""

    def work(group: Any) -> list[int]:
        time.sleep(1.5 if 0 in group else 0.01 * len(group))
        return list(group)

    told: list[int] = []
    results = holdem.cluster.ordered(client, work, range(300), seconds=0.2,
                                     done=lambda first, count: told.append(first))  # fmt: skip
    assert [unit for group in results for unit in group] == list(range(300))
    before = told[: told.index(0)]  # (the groups done while the first was at work)
    assert len(before) > 4, f"groups done while the first one was at work: {before}"


def test_a_failed_group_raises_in_its_turn_named_by_its_units(client: Any) -> None:
    def fails_at_7(group: Any) -> list[int]:
        if 7 in group:
            raise ValueError("unit 7 is bad")
        return list(group)

    got: list[int] = []

    def failed(group: Any, exc: Exception) -> Exception:
        return RuntimeError(f"units {group[0]} to {group[-1]}: {exc}")

    with pytest.raises(RuntimeError, match=r"units \d+ to \d+: unit 7 is bad") as raised:
        for results in holdem.cluster.ordered(client, fails_at_7, list(range(40)), failed=failed):
            got.extend(results)
    first, last = map(int, re.findall(r"\d+", str(raised.value))[:2])
    assert first <= 7 <= last and got == list(range(first))  # (the units before it, in order)


def test_a_local_cluster_runs_with_the_settings_the_docs_give_for_hosts() -> None:
    """``local:N`` starts its workers with Dask's watching of itself rarer
    (:data:`holdem.cluster.DASK_SETTINGS`), and docs/cluster.md's YAML for a
    cluster of hosts holds the same settings."""
    yaml = pytest.importorskip("yaml")
    text = (ROOT / "docs" / "cluster.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, re.S)
    assert block, "docs/cluster.md has no YAML settings"

    def flat(tree: dict[str, Any], path: str = "") -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in tree.items():
            name = f"{path}.{key}" if path else key
            out.update(flat(value, name) if isinstance(value, dict) else {name: value})
        return out

    assert flat(yaml.safe_load(block.group(1))) == holdem.cluster.DASK_SETTINGS
    with holdem.cluster.connect("local:1") as own:
        seen = own.run(lambda: {k: dask.config.get(k) for k in holdem.cluster.DASK_SETTINGS})
    assert list(seen.values()) == [holdem.cluster.DASK_SETTINGS]


def _report(report: Any) -> tuple[Any, ...]:
    return (report.path, report.status, report.hands, report.problems, report.unreadable)


@pytest.mark.parametrize("ship", [False, True], ids=["read-in-place", "shipped"])
def test_validate_on_a_cluster_is_the_one_process_result(
    cluster: Any, ship: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, _ = find_files([str(DATA / "phh"), str(DATA / "pokerstars")])
    # a file cut into pieces (as over 1 MiB), one that cannot be read, one gone
    big = tmp_path / "big.txt"
    big.write_bytes((DATA / "pokerstars" / "cash_two_hands.txt").read_bytes() * 30)
    monkeypatch.setattr(histories_parallel, "SPLIT_BYTES", 10_000)
    locked = tmp_path / "locked.phh"
    locked.write_text("x")
    sources = [*files, str(big), str(tmp_path / "gone.phh"), str(tmp_path)]
    here = [_report(r) for r in validate_files(sources)]
    done: list[int] = []
    there = [
        _report(r)
        for r in validate_files(
            sources, cluster=cluster.scheduler_address, ship=ship, progress=done.append
        )
    ]
    assert there == here
    assert here[-3][2] == 60 and here[-2][1] == here[-1][1] == "UNREADABLE"
    # every byte counted once on the bar, as the processes count them
    counted: list[int] = []
    list(validate_files(sources, progress=counted.append))
    assert sum(done) == sum(counted)


def test_holdem_validate_cluster_ship_prints_what_jobs_1_prints(cluster: Any) -> None:
    args = ["validate", str(DATA / "phh"), str(DATA / "pokerstars"), "--json"]
    one = holdem_run(*args)
    many = holdem_run(*args, "--cluster", cluster.scheduler_address, "--ship")
    assert one.returncode == many.returncode == 1  # (the data holds broken files)
    assert json.loads(many.stdout) == json.loads(one.stdout)


@pytest.mark.parametrize("ship", [[], ["--ship"]], ids=["read-in-place", "shipped"])
def test_holdem_stats_cluster_prints_what_jobs_1_prints(
    cluster: Any, ship: list[str], tmp_path: Path
) -> None:
    folder = tmp_path / "hands"
    simulate(["normal", "easy", "random"], hands=600, seed=4, histories=folder)
    args = ["stats", str(folder), str(DATA / "pokerstars"), "--json"]
    one = holdem_run(*args)
    many = holdem_run(*args, "--cluster", cluster.scheduler_address, *ship)
    assert one.returncode == many.returncode, many.stderr
    record = json.loads(many.stdout)
    assert record == json.loads(one.stdout) and record["hands"] > 600


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": ["AsKs", "QdQh"]},  # exact, one class cut by the first board card
        {"players": ["QQ+,AKs", "random"], "board": "9c8d2h"},  # exact, many classes
        {"players": ["AK", "QQ+"], "trials": 400_000, "seed": 7},  # Monte Carlo, legal deals
        {"players": ["AK", "random", "22+"], "trials": 300_000, "seed": 3},  # rejections
        {"players": ["AK", "QQ+"], "stderr": 0.002, "seed": 9},  # until a standard error
    ],
    ids=["exact-hands", "exact-ranges", "mc-deals", "mc-combos", "mc-stderr"],
)
def test_equity_on_a_cluster_is_the_one_thread_result(cluster: Any, kwargs: dict[str, Any]) -> None:
    players = kwargs.pop("players")
    here = equity(players, **kwargs)
    there = equity(players, cluster=cluster.scheduler_address, **kwargs)
    assert there == here


def test_holdem_equity_cluster_prints_what_one_thread_prints(cluster: Any) -> None:
    args = ["equity", "AK", "QQ+", "--trials", "200000", "--seed", "4", "--json"]
    one = holdem_run(*args)
    many = holdem_run(*args, "--cluster", cluster.scheduler_address)
    assert one.returncode == many.returncode == 0, many.stderr
    assert json.loads(many.stdout) == json.loads(one.stdout)


# ---------------------------------------------------------------- faults


def test_a_worker_killed_mid_run_loses_nothing_and_counts_nothing_twice(
    cluster: Any, client: Any
) -> None:
    seats = ["normal", "easy", "random"]
    here = simulate(seats, hands=2_400, seed=21)
    pids = client.run(os.getpid)
    result: list[Any] = []
    told: list[int] = []

    def play() -> None:
        address = cluster.scheduler_address
        result.append(simulate(seats, hands=2_400, seed=21, cluster=address, progress=told.append))

    run = threading.Thread(target=play)
    run.start()
    try:
        # a worker in the middle of a unit, once some units are done
        wait_until(lambda: bool(told), "a unit done")
        busy: list[str] = []

        def found() -> bool:
            busy[:] = [w for w, keys in client.processing().items() if keys and w in pids]
            return bool(busy) or not run.is_alive()

        wait_until(found, "a worker at work")
        assert run.is_alive(), "the run ended before a worker could be killed"
        os.kill(pids[busy[0]], signal.SIGKILL)
    finally:
        run.join(PATIENCE)
    assert not run.is_alive()
    assert result == [here]
    assert told[-1] == 2_400 and told == sorted(told)
    # the nanny starts the worker again, for the tests after this one
    wait_until(lambda: len(client.nthreads()) == 2, "the worker back")


@pytest.mark.skipif(os.name == "nt", reason="process groups are POSIX")
def test_ctrl_c_cancels_the_units_and_exits_130(cluster: Any, client: Any) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "holdem", "simulate", "--seats", "hard,normal,easy",
         "--hands", "200000", "--cluster", cluster.scheduler_address],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=with_ctrl_c, cwd=ROOT,
    )  # fmt: skip
    try:
        wait_until(
            lambda: child.poll() is not None or any(client.processing().values()),
            "the units at work",
        )
        assert child.poll() is None, child.communicate()
        os.killpg(child.pid, signal.SIGINT)  # (the whole group, as a terminal does)
        out, err = child.communicate(timeout=PATIENCE)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    assert child.returncode == 130
    assert "Traceback" not in err.decode()
    assert err.decode().strip().splitlines() == ["holdem simulate: interrupted"]
    assert out == b""
    # its units are gone from the scheduler: cancelled, not left to run
    wait_until(lambda: tasks_on(client) == 0, "the units cancelled")


@pytest.mark.skipif(os.name == "nt", reason="process groups are POSIX")
def test_ctrl_c_stops_a_local_cluster_and_its_workers() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "holdem", "simulate", "--seats", "hard,normal,easy",
         "--hands", "200000", "--cluster", "local:2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=with_ctrl_c, cwd=ROOT,
    )  # fmt: skip
    try:
        # the workers at work: a second of CPU each (Ctrl-C is not heard while the
        # cluster starts; the workers started then ignore it for good)
        wait_until(
            lambda: len(_busy(child.pid)) == 2 or child.poll() is not None, "the workers at work"
        )
        # Ctrl-C to the whole group, as a terminal does (again only if it was not heard)
        deadline = time.monotonic() + PATIENCE
        while child.poll() is None and time.monotonic() < deadline:
            os.killpg(child.pid, signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(timeout=15)  # (its workers killed, not waited for)
        _, err = child.communicate(timeout=PATIENCE)
        wait_until(lambda: not _group(child.pid), "the workers gone")
    finally:
        if child.poll() is None or _group(child.pid):
            os.killpg(child.pid, signal.SIGKILL)
    assert child.returncode == 130
    assert err.decode().strip().splitlines() == ["holdem simulate: interrupted"], err.decode()


def _busy(pgid: int) -> list[int]:
    """The worker processes of a process group that used a second of CPU."""
    ticks = os.sysconf("SC_CLK_TCK")
    busy = []
    for pid in _group(pgid, "spawn_main"):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            if int(fields[11]) + int(fields[12]) >= ticks:  # (utime and stime)
                busy.append(pid)
    return busy


def _group(pgid: int, running: str = "") -> list[int]:
    """The live processes of a process group (Linux's /proc), those whose
    command line holds ``running``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
                command = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z" and running in command:
                found.append(int(entry.name))
    return found


def _closed_port() -> int:
    """A loopback port nobody listens on (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_an_unreachable_scheduler_is_a_cluster_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(holdem.cluster, "CONNECT_SECONDS", 1.0)
    address = f"tcp://127.0.0.1:{_closed_port()}"
    started = time.monotonic()
    with pytest.raises(ClusterError, match=f"cannot reach the Dask scheduler at {address}: "):
        simulate(["easy", "random"], hands=10, seed=1, cluster=address)
    assert time.monotonic() - started < 10


@pytest.mark.slow
def test_holdem_with_an_unreachable_scheduler_says_so_in_one_line() -> None:
    address = f"tcp://127.0.0.1:{_closed_port()}"
    for args in (
        ["simulate", "--seats", "easy,random", "--hands", "10"],
        ["validate", str(DATA / "phh")],
        ["equity", "AsKs", "QdQh"],
    ):
        done = holdem_run(*args, "--cluster", address)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == (
            f"holdem {args[0]}: error: cannot reach the Dask scheduler at {address}: "
            f"no answer within {holdem.cluster.CONNECT_SECONDS:g} seconds\n"
        )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["simulate", "--seats", "easy,random", "--hands", "10", "--jobs", "2"],
         "--cluster takes the place of --jobs: give one of them"),
        (["equity", "AsKs", "QdQh", "--threads", "2"],
         "--cluster takes the place of --threads: give one of them"),
        (["validate", str(DATA / "phh"), "--jobs", "2"],
         "--cluster takes the place of --jobs: give one of them"),
    ],
    ids=["simulate", "equity", "validate"],
)  # fmt: skip
def test_a_cluster_with_jobs_or_threads_is_a_usage_error(args: list[str], says: str) -> None:
    done = holdem_run(*args, "--cluster", "local:2")
    assert done.returncode == 2
    assert done.stderr.startswith(f"holdem {args[0]}: error: {says}")


def test_bad_cluster_addresses_are_refused_by_name() -> None:
    done = holdem_run("equity", "AsKs", "QdQh", "--cluster", "8786")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "invalid value for '--cluster': a cluster is tcp://HOST:PORT" in done.stderr
    done = holdem_run("validate", str(DATA / "phh"), "--ship")
    assert done.returncode == 2
    assert "--ship sends the files to a cluster's workers: give --cluster" in done.stderr
    with pytest.raises(ValueError, match="local:N takes 1 to 64 worker processes, not 0"):
        holdem.cluster.check_address("local:0")


def test_without_dask_a_cluster_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = holdem.cluster.importlib.import_module

    def without_dask(name: str, *args: Any) -> Any:
        if name == "distributed":
            raise ModuleNotFoundError("No module named 'distributed'")
        return real(name, *args)

    monkeypatch.setattr(holdem.cluster.importlib, "import_module", without_dask)
    with pytest.raises(ClusterError, match=r"pip install 'holdem-toolkit\[cluster\]'"):
        equity(["AsKs", "QdQh"], cluster="local:2")
