import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from holdem.config import HandConfig, Post, Structure

# CI machines are slow and noisy: no per-example deadline there.
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def log_fuzz_run(target: str, examples: int, seconds: float, failures: int) -> None:
    """Notes a long fuzz run's counts in the file ``HOLDEM_FUZZ_LOG`` names (if any)."""
    path = os.environ.get("HOLDEM_FUZZ_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{target}\t{examples} examples\t{seconds:.0f} s\t{failures} failures\n")


def with_ctrl_c() -> None:
    """``preexec_fn`` of a child that must answer Ctrl-C as a user's would.

    A shell starts background jobs with SIGINT ignored, children inherit that,
    and Python then leaves it so: a test run in the background (as CI may
    run it) would otherwise send signals nobody hears.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def hand_configs(
    max_players: int = 6, max_stack: int = 60, extras: bool = False
) -> st.SearchStrategy[HandConfig]:
    """Random hand configurations: 2 to ``max_players`` players, stacks of 1 to
    ``max_stack``, blinds 1/2, every structure, antes; with ``extras`` also
    big-blind antes, straddles, a live post with a dead blind, hand ids and
    table seat numbers."""

    def build(
        n: int,
        stacks: list[int],
        button: int,
        structure: Structure,
        ante: int,
        bba: bool,
        straddle: int,
        post: bool,
        hand_id: int | str | None,
        numbers: list[int],
    ) -> HandConfig:
        straddle = straddle if n >= 3 and structure is not Structure.FIXED_LIMIT else 0
        seat = (button + 4) % n
        posts = (Post(seat, 2), Post(seat, 1, dead=True)) if post and n >= 5 else ()
        return HandConfig(
            stacks=tuple(stacks[:n]),
            button=button % n,
            small_blind=1,
            big_blind=2,
            structure=structure,
            ante=ante,
            big_blind_ante=bba and ante > 0,
            straddle=straddle,
            posts=() if straddle else posts,
            hand_id=hand_id,
            seats=tuple(sorted(numbers[:n])) if len(numbers) >= n else (),
        )

    plain = st.just(False), st.just(0), st.just(False), st.none(), st.just([])
    more = (
        (st.booleans(), st.sampled_from([0, 0, 4]), st.booleans(),
         st.one_of(st.none(), st.integers(0, 10**9), st.text(max_size=8)),
         st.one_of(st.just([]), st.lists(st.integers(0, 99), unique=True, min_size=9,
                                         max_size=9)))
        if extras
        else plain
    )  # fmt: skip
    return st.builds(
        build,
        st.integers(2, max_players),
        st.lists(st.integers(1, max_stack), min_size=max_players, max_size=max_players),
        st.integers(0, max_players - 1),
        st.sampled_from(list(Structure)),
        st.sampled_from([0, 0, 1, 2] if extras else [0, 0, 1]),
        *more,
    )


@pytest.fixture
def terminals() -> Iterator[list[Any]]:
    """The terminals (``terminal_helpers.Terminal``) a test opens, each one
    ended at the end."""
    opened: list[Any] = []
    yield opened
    for terminal in opened:
        if terminal.process.poll() is None:
            os.killpg(terminal.process.pid, signal.SIGKILL)
            terminal.process.wait()
        with contextlib.suppress(OSError):  # (closed by end())
            os.close(terminal.main)


@pytest.fixture
def server(tmp_path: Any) -> Iterator[Any]:
    """``holdem serve`` on a free loopback port, its data in the test's
    folder (``rooms_helpers.Server``); stopped at the end."""
    from rooms_helpers import Server

    running = Server(tmp_path / "room").start()
    yield running
    running.stop()


@pytest.fixture
def joiners() -> Iterator[list[Any]]:
    """The ``holdem join`` runs a test starts (``rooms_helpers.Joiner``),
    each stopped at the end."""
    made: list[Any] = []
    yield made
    for joiner in made:
        joiner.stop()


@pytest.fixture
def browsers() -> Iterator[Callable[..., Any]]:
    """Makes headless Chromium browsers (``browsers()``; ``browsers(width=390)``
    for a phone's width: ``browser_helpers.chromium``), each a player of its
    own; all are quit when the test ends.  Skipped where there is no
    browser, failed there where the browser tests are required."""
    from browser_helpers import chromium, need_browser

    need_browser()
    made: list[Any] = []

    def make(**size: int) -> Any:
        driver = chromium(**size)
        made.append(driver)
        return driver

    yield make
    for driver in made:
        with contextlib.suppress(Exception):  # (one already gone: quit the others)
            driver.quit()
