"""Batch matches between bots: hands per second, and results you can trust.

:func:`simulate` plays ``hands`` hands between the bots of ``seats`` (level
names of :data:`holdem.bots.BOTS`), every hand at the same depth (each
player starts it with ``stack`` big blinds: a cash game without the drift of
stacks), the button moving one seat a hand. With ``duplicate`` each deal is
played once for every rotation of the bots around the table, with the same
cards by position, so that luck of the cards cancels out between the bots.

Every hand's cards and every bot's random choices come from seeds made
from ``seed`` and the hand's number alone, so the result for a given seed
does not depend on ``jobs`` (the processes the hands are shared among), nor
on a Dask cluster's workers that play them instead (``cluster``).
Without ``seed`` a secret one is drawn
(:func:`~holdem.protocol.programs.secret_seed`), which the result gives
(``seed``) for the run to be played again; a seed given is for runs among
trusted programs: a program seated (``cmd:``) could read it from its
caller's command line, and know every deal.

For each seat and each bot it reports the chips won in big blinds per 100
hands with a 95% confidence interval (of the deals: with duplicate dealing
the sum of a deal's rotations, in which the luck of the cards cancels; for a
bot in several seats, its seats together), VPIP (hands it put chips in before
the flop of its own will), PFR (raised before the flop), aggression (bets
and raises over calls after the flop) and showdowns (reached and won).

With ``tournaments`` instead of ``hands`` it plays freezeout tournaments
(:class:`~holdem.table.Tournament`, the default schedule or ``schedule``),
each player starting with ``stack`` big blinds of the first level, and
reports for each seat and bot its finishing places: how often 1st, 2nd ...,
the mean place, and the win rate with a 95% confidence interval.

>>> result = simulate(["easy", "random"], hands=200, seed=1)
>>> result.hands, [s.bot for s in result.seats]
(200, ['easy', 'random'])
>>> round(sum(s.net for s in result.seats), 6)
0.0
>>> cups = simulate(["easy", "random", "calling-station"], tournaments=20, seed=1)
>>> cups.tournaments, sum(p.places[0] for p in cups.places)  # one winner a tournament
(20, 20)
"""

from __future__ import annotations

import contextlib
import importlib.util
import math
import multiprocessing
import operator
import random
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .actions import ActionKind, Street
from .bots import BOTS, Bot, make_bot
from .bots.base import learns
from .cluster import check_address, connect, ordered
from .config import HandConfig, HeadsUpCap, Structure, _coerce_enum
from .errors import ConfigError, SimulationError
from .hand import Hand
from .histories.model import HandHistory
from .histories.parallel import MAX_JOBS, _ignore_interrupts, stop_pool
from .histories.phh import write_phh
from .histories.playback import record
from .protocol.programs import PREFIX, Program, parse_command, secret_seed, share_cpu, stop
from .table import Decide, Schedule, Tournament

__all__ = ["FILE_PREFIX", "PlaceResult", "SeatResult", "SimulationResult", "file_bot", "simulate"]

_VOLUNTARY = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)
_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE)
_CALL, _PREFLOP = ActionKind.CALL, Street.PREFLOP
#: deals a set of bots plays (their seeds are the block's): processes take
#: whole blocks, so the result does not depend on how many there are
BLOCK = 100
#: the most hands a simulated tournament may take before it is given up
MOST_HANDS = 100_000
#: What a seat played by a bot of a Python file starts with: ``py:FILE:NAME``
FILE_PREFIX = "py:"


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's (or one bot's, over its seats) results."""

    bot: str
    hands: int
    #: chips won, in big blinds, and per 100 hands with the half-width of a
    #: 95% confidence interval
    net: float
    bb_per_100: float
    ci95: float
    vpip: float
    pfr: float
    #: bets and raises over calls after the flop (inf: never called, but bet;
    #: 0: never bet nor raised)
    aggression: float
    showdowns: int
    showdowns_won: int
    #: bb/100 as the deals went: (hands so far, bb/100, the half-width of its
    #: 95% interval) at most :data:`CURVE_POINTS` deals apart, the last deal's
    #: the figures above (``holdem simulate --plot``)
    curve: tuple[tuple[int, float, float], ...] = ()


@dataclass(frozen=True, slots=True)
class PlaceResult:
    """One seat's (or one bot's, over its seats) finishing places in tournaments."""

    bot: str
    tournaments: int
    #: how often it finished 1st, 2nd, ... (a tie counts at the place shared)
    places: tuple[int, ...]
    mean_place: float
    #: the share of tournaments won, and the half-width of its 95% confidence interval
    win_rate: float
    ci95: float
    #: the hands it played, a tournament on average
    hands: float


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """What :func:`simulate` found: by seat, and by bot; with tournaments,
    the places by seat and by bot too (``tournaments`` played; the hands'
    results are then in big blinds of each hand's level)."""

    hands: int
    seats: tuple[SeatResult, ...]
    bots: dict[str, SeatResult]
    tournaments: int = 0
    places: tuple[PlaceResult, ...] = ()
    places_by_bot: dict[str, PlaceResult] = field(default_factory=dict)
    #: programs that sat out, by seat (from 0): why
    failures: dict[int, str] = field(default_factory=dict)
    #: the seed the cards and the bots followed (given, or drawn in secret)
    seed: int = 0
    #: by seat (from 0), for a bot of a file that can say it
    #: (``best_response``): the big blinds per 100 hands that the best
    #: response to it earns at this table, against it alone
    best_responses: dict[int, float] = field(default_factory=dict)


class _Tally:
    """One seat's counts over hands (added up across processes in order)."""

    __slots__ = (
        "aggressive",
        "calls",
        "dealt",
        "failures",
        "nets",
        "pfr",
        "places",
        "showdowns",
        "vpip",
        "won",
    )

    def __init__(self) -> None:
        self.vpip = self.pfr = self.aggressive = self.calls = 0
        self.showdowns = self.won = 0
        self.nets: list[float] = []
        #: tournaments: the place of each (in order), and the hands dealt to it
        self.places: list[int] = []
        self.dealt: list[int] = []
        self.failures: list[str] = []  # a program's reasons for sitting out

    def add(self, other: _Tally) -> None:
        """The same seat's later hands (and tournaments)."""
        self._counts(other)
        self.nets.extend(other.nets)
        self.places.extend(other.places)
        self.dealt.extend(other.dealt)

    def merge(self, other: _Tally) -> None:
        """Another seat's same hands (a bot's seats together): nets hand by hand
        (with tournaments, whose hands differ by seat, only the places)."""
        self._counts(other)
        if other.places:
            self.nets.extend(other.nets)
            self.places.extend(other.places)
            self.dealt.extend(other.dealt)
        elif self.nets:
            self.nets = [a + b for a, b in zip(self.nets, other.nets, strict=True)]
        else:
            self.nets = list(other.nets)

    def standing(self, bot: str, group: int = 1, seats: int = 1, players: int = 2) -> PlaceResult:
        """The places; a tournament's ``group`` rotations (duplicate) for each of
        ``seats`` seats are one sample for the win rate's interval (their
        places are in that order: seat by seat, each one tournament after
        another), as their cards are shared."""
        n = len(self.places)
        wins = [p == 1 for p in self.places]
        per_seat = n // seats if seats else 0
        samples = [
            sum(wins[s * per_seat + i + r] for s in range(seats) for r in range(group))
            for i in range(0, per_seat, group)
        ]
        d = len(samples)
        mean = sum(samples) / d if d else 0.0
        var = _variance(samples, mean)
        return PlaceResult(
            bot=bot,
            tournaments=n,
            places=tuple(self.places.count(p) for p in range(1, players + 1)),
            mean_place=sum(self.places) / n if n else 0.0,
            win_rate=sum(wins) / n if n else 0.0,
            ci95=1.96 * math.sqrt(var / d) / (group * seats) if d else 0.0,
            hands=sum(self.dealt) / n if n else 0.0,
        )

    def _counts(self, other: _Tally) -> None:
        self.failures.extend(other.failures)
        for name in ("vpip", "pfr", "aggressive", "calls", "showdowns", "won"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def result(self, bot: str, group: int = 1, seats: int = 1) -> SeatResult:
        """The results; ``nets`` hold ``group`` hands a deal (its rotations,
        with duplicate dealing) summed over ``seats`` seats (a bot's), and
        the confidence interval is the deals': their hands share the cards,
        so their luck is not independent (with duplicate dealing it cancels)."""
        if self.places:  # tournaments: hands differ by seat, each its own sample
            group = seats = 1
        nets = self.nets
        n = len(nets) * seats  # (the bot's hands: each entry is its seats' hand)
        net = math.fsum(nets)
        hands_a_deal = group * seats
        deals = (
            nets
            if group == 1
            else [math.fsum(nets[i : i + group]) for i in range(0, len(nets), group)]
        )
        d = len(deals)
        mean = net / d if d else 0.0
        var = _variance(deals, mean)
        curve = _curve(deals, hands_a_deal) if not self.places else ()
        return SeatResult(
            bot=bot,
            hands=n,
            net=net,
            bb_per_100=100 * net / n if n else 0.0,
            ci95=100 * 1.96 * math.sqrt(var / d) / hands_a_deal if d else 0.0,
            vpip=self.vpip / n if n else 0.0,
            pfr=self.pfr / n if n else 0.0,
            aggression=(
                self.aggressive / self.calls if self.calls else math.inf if self.aggressive else 0.0
            ),
            showdowns=self.showdowns,
            showdowns_won=self.won,
            curve=curve,
        )


#: The most points of a seat's :attr:`SeatResult.curve` (and the last deal's).
CURVE_POINTS = 500


def _curve(deals: Sequence[float], hands_a_deal: int) -> tuple[tuple[int, float, float], ...]:
    """bb/100 and the half-width of its 95% interval after each of a few deals
    (evenly spaced, the last always in), from the deals' results in big
    blinds; as :meth:`_Tally.result` gives them for all the deals (Welford's
    running variance, of the deals as samples)."""
    every = max(1, -(-len(deals) // CURVE_POINTS))
    points = []
    total = mean = m2 = 0.0
    for d, x in enumerate(deals, 1):
        total += x
        delta = x - mean
        mean += delta / d
        m2 += delta * (x - mean)
        if d % every == 0 or d == len(deals):
            hands = d * hands_a_deal
            ci = 100 * 1.96 * math.sqrt(m2 / (d - 1) / d) / hands_a_deal if d > 1 else 0.0
            points.append((hands, 100 * total / hands, ci))
    return tuple(points)


def _variance(samples: Sequence[float], mean: float) -> float:
    """The samples' variance (of a sample: over ``n - 1``), in two passes."""
    if len(samples) < 2:
        return 0.0
    deviations = [x - mean for x in samples]
    return math.fsum(map(operator.mul, deviations, deviations)) / (len(samples) - 1)


def simulate(
    seats: Sequence[str],
    *,
    hands: int | None = None,
    tournaments: int | None = None,
    seed: int | None = None,
    duplicate: bool = False,
    jobs: int = 1,
    stack: int = 100,
    structure: Structure | str = Structure.NO_LIMIT,
    schedule: Schedule | str | None = None,
    progress: Callable[[int], None] | None = None,
    histories: str | Path | None = None,
    seconds: float = 5.0,
    logs: str | Path | None = None,
    raise_cap: int = 3,
    heads_up_cap: HeadsUpCap | str | None = None,
    cluster: str | None = None,
) -> SimulationResult:
    """Plays ``hands`` hands (deals, with ``duplicate``: each played once per
    rotation), or ``tournaments`` freezeouts, between the bots of ``seats``
    (2 to 10 level names) and returns the results (the module's notes).
    ``progress`` is called with the number of deals (tournaments) done as
    the work goes.  ``schedule``: the tournaments' blinds (default
    :meth:`Schedule.default`; text as ``Schedule.parse`` reads it).
    ``seed``: the seed of the cards and the bots (None: a secret one, which
    the result's ``seed`` gives; the module's notes).
    ``histories``: a folder (made if missing, holding no histories of an
    earlier run) where every hand is written as PHH, ``simulation-NNNNNNN.phhs``
    files of up to 500 deals (or 5 tournaments) each, the players named by
    seat and bot.  A seat may be a program (``cmd:python mybot.py``,
    :mod:`holdem.protocol.programs`) with ``seconds`` a decision, its
    stderr to ``logs/seatN.log`` (a folder, made if missing; None: thrown
    away); one that fails sits out, and the result's ``failures`` say why.
    Fixed-limit: ``raise_cap`` raises after the bet, the cap lifted for two
    players by ``heads_up_cap`` (default None: ``two_left`` in the hands of
    a cash game, ``never`` in tournaments; R8).  ``cluster``: a Dask
    cluster's address (``tcp://HOST:8786`` or ``local:N``,
    :mod:`holdem.cluster`) that plays the chunks instead of ``jobs``
    processes, with the same result; its workers must see the files named
    (``histories``, ``logs``, a ``py:FILE`` bot) at the same paths."""
    levels = list(seats)
    seed = secret_seed() if seed is None else seed
    count = _check(levels, hands, tournaments, jobs, stack, seed)
    if cluster is not None:
        check_address(cluster)
        if jobs != 1:
            raise ConfigError("a cluster takes the place of jobs: give one of them",
                              field="jobs", value=jobs)  # fmt: skip
    structure = _structure(structure, histories)
    if isinstance(raise_cap, bool) or not isinstance(raise_cap, int) or raise_cap < 0:
        raise ConfigError(f"raise_cap must be an integer of at least 0, not {raise_cap!r}",
                          field="raise_cap", value=raise_cap)  # fmt: skip
    policy = None if heads_up_cap is None else _coerce_enum("heads_up_cap", heads_up_cap,
                                                            HeadsUpCap).value  # fmt: skip
    schedule = _schedule(schedule, tournaments)
    folder = _folder(histories)
    if logs is not None:
        Path(logs).mkdir(parents=True, exist_ok=True)
    task: _Task = (levels, seed, duplicate, stack, structure.value, folder,
                   None if schedule is None else str(schedule), float(seconds),
                   None if logs is None else str(logs), (raise_cap, policy))  # fmt: skip
    play = _play if hands is not None else _play_tournaments
    tallies = [_Tally() for _ in levels]
    block = BLOCK if hands is not None else 1
    with contextlib.ExitStack() as using:
        client = None if cluster is None else using.enter_context(connect(cluster))
        if client is not None:
            parts = _on_cluster(play, task, count, block, progress, client)
        else:
            parts = _chunks(play, task, _cut(count, block, jobs), jobs, progress)
        for part in parts:
            for tally, counted in zip(tallies, part, strict=True):
                tally.add(counted)  # (in the order of the hands, whatever the processes)
    group = len(levels) if duplicate else 1
    by_bot: dict[str, _Tally] = {}
    for level, tally in zip(levels, tallies, strict=True):
        by_bot.setdefault(level, _Tally()).merge(tally)
    seat_results = tuple(t.result(level, group) for level, t in zip(levels, tallies, strict=True))
    failures = {i: t.failures[0] for i, t in enumerate(tallies) if t.failures}
    bot_results = {
        level: t.result(level, group, levels.count(level)) for level, t in by_bot.items()
    }
    if hands is not None:
        return SimulationResult(
            hands=hands * group, seats=seat_results, bots=bot_results, failures=failures,
            seed=seed, best_responses=_best_responses(levels, stack, structure),
        )  # fmt: skip
    n = len(levels)
    # (the winner of each is dealt every hand of it)
    played = sum(map(max, zip(*(t.dealt for t in tallies), strict=True)))
    return SimulationResult(
        hands=played,
        seats=seat_results,
        bots=bot_results,
        tournaments=count * group,
        places=tuple(
            t.standing(level, group, 1, n) for level, t in zip(levels, tallies, strict=True)
        ),
        places_by_bot={
            level: t.standing(level, group, levels.count(level), n) for level, t in by_bot.items()
        },
        failures=failures,
        seed=seed,
    )


def file_bot(level: str) -> Callable[[int | None], Bot]:
    """The maker of the bot of a seat ``py:FILE:NAME``: ``NAME`` of the Python
    file ``FILE`` (loaded once a process), called with a seed it makes the
    bot (a :class:`~holdem.bots.Bot` class).  It may have ``best_response(
    seats, stack, structure)``: big blinds per 100 hands that the best
    response to it earns (``stack`` big blinds deep, ``seats`` players), or
    None.  :class:`ConfigError` names the file and why it cannot be used."""
    path, _, name = level[len(FILE_PREFIX) :].rpartition(":")
    if not path or not name:
        raise ConfigError(f"{level!r}: {FILE_PREFIX}FILE:NAME, the file and its bot's name",
                          field="seats", value=level)  # fmt: skip
    module = _FILES.get(path)
    if module is None:
        spec = importlib.util.spec_from_file_location(f"_holdem_bots_{len(_FILES)}", path)
        if spec is None or spec.loader is None:
            raise ConfigError(f"{path}: not a Python file", field="seats", value=level)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except OSError as exc:
            raise ConfigError(
                f"{path}: {exc.strerror or exc}", field="seats", value=level
            ) from None
        except Exception as exc:
            raise ConfigError(f"{path}: {type(exc).__name__}: {exc}", field="seats",
                              value=level) from None  # fmt: skip
        _FILES[path] = module
    maker = getattr(module, name, None)
    if not callable(maker):
        raise ConfigError(f"{path} has no bot {name!r}", field="seats", value=level)
    return maker  # type: ignore[no-any-return]


#: The Python files of bots loaded in this process, by their path.
_FILES: dict[str, Any] = {}


def _best_responses(levels: list[str], stack: int, structure: Structure) -> dict[int, float]:
    """What the best response to each file's bot that can say it earns
    (:func:`file_bot`), by seat."""
    out = {}
    for seat, level in enumerate(levels):
        if level.startswith(FILE_PREFIX):
            figure = getattr(file_bot(level), "best_response", None)
            value = None if figure is None else figure(len(levels), stack, structure)
            if value is not None:
                out[seat] = float(value)
    return out


def _check(
    levels: list[str], hands: int | None, tournaments: int | None, jobs: int, stack: int, seed: int
) -> int:
    """Refuses what :func:`simulate` cannot play (``ConfigError``, naming the
    setting); the hands (or tournaments) to play."""
    if not 2 <= len(levels) <= 10:
        raise ConfigError(f"2 to 10 seats, not {len(levels)}", field="seats", value=levels)
    for level in levels:
        if level.startswith(PREFIX):
            parse_command(level)  # (a program's command; a bad one is refused here)
        elif level.startswith(FILE_PREFIX):
            file_bot(level)  # (a file that cannot be read or has no such bot: refused here)
        elif level not in BOTS:
            raise ConfigError(
                f"no bot level {level!r}: one of {', '.join(BOTS)}, cmd:PROGRAM or "
                f"{FILE_PREFIX}FILE:NAME",
                field="seats",
                value=level,
            )
    if (hands is None) == (tournaments is None):
        raise ConfigError(
            "give hands (a cash game) or tournaments, not both or neither",
            field="hands" if hands is None else "tournaments",
            value=hands,
        )
    count = hands if hands is not None else tournaments
    for name, value, low, high in (
        ("hands" if hands is not None else "tournaments", count, 1, None),
        ("jobs", jobs, 1, MAX_JOBS),
        ("stack", stack, 1, None),
        ("seed", seed, 0, None),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ConfigError(
                f"{name} must be an integer of at least {low}", field=name, value=value
            )
        if high is not None and value > high:
            raise ConfigError(f"{name} must be at most {high}", field=name, value=value)
    assert count is not None
    return count


def _structure(structure: Structure | str, histories: str | Path | None) -> Structure:
    """The betting structure (:class:`ConfigError` for an unknown one, or for
    pot-limit hands to write: PHH has no pot-limit hold'em)."""
    try:
        known = Structure(structure)
    except ValueError:
        names = ", ".join(s.value for s in Structure)
        raise ConfigError(
            f"no structure {structure!r}: one of {names}", field="structure", value=structure
        ) from None
    if histories is not None and known is Structure.POT_LIMIT:
        raise ConfigError(
            "PHH has no pot-limit hold'em: the hands of a pot_limit match cannot be written",
            field="histories",
            value=str(histories),
        )
    return known


def _schedule(schedule: Schedule | str | None, tournaments: int | None) -> Schedule | None:
    """The tournaments' schedule, by hands (levels by minutes would let the
    machine's speed deal the blinds); none for hands of a cash game."""
    if isinstance(schedule, str):
        schedule = Schedule.parse(schedule)
    if schedule is None:
        return None
    if tournaments is None:
        raise ConfigError("a schedule is for tournaments", field="schedule", value=str(schedule))
    if schedule.by_minutes:
        raise ConfigError(
            "a simulation's schedule goes by hands: levels by minutes would make the "
            "result depend on the machine's speed",
            field="schedule",
            value=str(schedule),
        )
    return schedule


def _folder(histories: str | Path | None) -> str | None:
    """The folder of the hand histories, made if missing (and holding none)."""
    if histories is None:
        return None
    path = Path(histories)
    path.mkdir(parents=True, exist_ok=True)
    old = sorted(path.glob("simulation-*.phhs*"))
    if old:
        raise ConfigError(
            f"{old[0]} exists: write the histories to a new folder",
            field="histories",
            value=str(path),
        )
    return str(path)


def _cut(count: int, block: int, jobs: int) -> list[tuple[int, int]]:
    """The chunks of a match for ``jobs`` processes: whole blocks (the bots
    are seeded by block), a few per process."""
    blocks = -(-count // block)
    size = block * max(1, min(5, -(-blocks // (4 * jobs))))
    return [(start, min(count, start + size)) for start in range(0, count, size)]


def _on_cluster(
    play: Callable[[_Task, int, int], list[_Tally]],
    task: _Task,
    count: int,
    block: int,
    progress: Callable[[int], None] | None,
    client: Any,
) -> Iterator[list[_Tally]]:
    """The tallies of runs of whole blocks, in order, on a cluster's workers
    (:func:`~holdem.cluster.ordered` sizes the runs by their time); the
    progress follows the runs as they are done, in any order."""
    what = "hands" if play is _play else "tournaments"
    finished = 0

    def done(first: int, blocks: int) -> None:
        nonlocal finished
        finished += min(count, (first + blocks) * block) - first * block
        if progress is not None:
            progress(finished)

    def failed(blocks: Sequence[int], exc: Exception) -> Exception:
        return _failed(what, blocks[0] * block, min(count, (blocks[-1] + 1) * block), exc)

    runs = ordered(client, partial(_play_blocks, play, task, count, block),
                   range(-(-count // block)), done=done, failed=failed)  # fmt: skip
    with contextlib.closing(runs):
        yield from runs


def _chunks(
    play: Callable[[_Task, int, int], list[_Tally]],
    task: _Task,
    chunks: list[tuple[int, int]],
    jobs: int,
    progress: Callable[[int], None] | None,
) -> Iterator[list[_Tally]]:
    """The tallies of each chunk, in the order of the chunks, on ``jobs``
    processes; a failure in one of them goes on up here."""
    what = "hands" if play is _play else "tournaments"
    if jobs == 1:
        for start, end in chunks:
            try:
                part = play(task, start, end)
            except Exception as exc:
                raise _failed(what, start, end, exc) from exc
            yield part
            if progress is not None:
                progress(end)
        return
    # the workers leave Ctrl-C to this process, which stops them at once
    pool = multiprocessing.Pool(
        jobs, initializer=_start_worker, initargs=(multiprocessing.Value("i", 0),)
    )
    try:
        parts = pool.imap(partial(_play_chunk, play, task), chunks)
        for start, end in chunks:
            try:
                part = next(parts)  # (in the order of the chunks)
            except Exception as exc:
                raise _failed(what, start, end, exc) from exc
            yield part
            if progress is not None:
                progress(end)
        pool.close()
    finally:  # (done, Ctrl-C or a failed job: the failure goes on up)
        stop_pool(pool)


#: This process's number among the simulation's workers (0 in the caller's;
#: None in a cluster's worker, which plays on the CPUs it has).
_worker: int | None = 0
#: The signals that end a worker: SIGTERM, and SIGHUP (the terminal closed).
_ENDS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def _start_worker(counter: Any) -> None:
    """A worker begins: it leaves Ctrl-C to the caller, ends on SIGTERM (the
    caller stopping the match, or the system) or SIGHUP, and takes its
    number."""
    global _worker
    _ignore_interrupts()
    for signum in _ENDS:
        signal.signal(signum, _end_worker)
    with counter.get_lock():
        _worker = counter.value
        counter.value += 1


def _end_worker(signum: int, frame: object) -> None:
    """SIGTERM (SIGHUP) in a worker: it leaves quietly, the programs it plays
    with stopped on the way out (``_Players``), also from the middle of a
    hand (a second signal, the pool's SIGTERM, does not cut the way out
    short)."""
    for end in _ENDS:
        signal.signal(end, signal.SIG_IGN)
    raise SystemExit(128 + signum)


def _failed(what: str, start: int, end: int, exc: Exception) -> SimulationError:
    return SimulationError(f"the {what} {start + 1} to {end} failed: {type(exc).__name__}: {exc}")


#: What a simulation's processes are given: the levels, the seed, duplicate,
#: the stack, the structure's value, the folder of the hand histories, the
#: tournaments' schedule (text), a program's seconds a decision, the
#: folder of the programs' logs and the fixed-limit cap (the raises, and the
#: heads-up policy's value: None, the game's default).
_Task = tuple[
    list[str], int, bool, int, str, str | None, str | None, float, str | None,
    tuple[int, str | None],
]  # fmt: skip


def _play_chunk(
    play: Callable[[_Task, int, int], list[_Tally]], task: _Task, chunk: tuple[int, int]
) -> list[_Tally]:
    return play(task, *chunk)


def _play_blocks(
    play: Callable[[_Task, int, int], list[_Tally]],
    task: _Task,
    count: int,
    block: int,
    blocks: range,
) -> list[_Tally]:
    """A run of whole blocks on a cluster's worker (its programs not kept to
    one CPU: the worker's other tasks are not this match's)."""
    global _worker
    _worker = None
    return play(task, blocks[0] * block, min(count, (blocks[-1] + 1) * block))


def _play(task: _Task, start: int, end: int) -> list[_Tally]:
    """Deals ``start`` to ``end`` (whole blocks, but for the last) of a
    simulation: the seats' tallies."""
    return _chunk(_deals, task, start, end)


def _play_tournaments(task: _Task, start: int, end: int) -> list[_Tally]:
    """Tournaments ``start`` to ``end`` of a simulation: the seats' tallies
    (their places, and their hands)."""
    return _chunk(_tournaments, task, start, end)


def _chunk(
    body: Callable[[_Task, int, int, list[_Tally], _Players], None],
    task: _Task,
    start: int,
    end: int,
) -> list[_Tally]:
    levels, seconds, logs = task[0], task[7], task[8]
    tallies = [_Tally() for _ in levels]
    # a game of programs on one CPU, a CPU for each worker (share_cpu says why)
    programs = _worker is not None and any(level.startswith(PREFIX) for level in levels)
    with (
        share_cpu(_worker or 0) if programs else contextlib.nullcontext(),
        _Players(levels, seconds, tallies, logs) as make,
    ):
        body(task, start, end, tallies, make)
    return tallies


def _deals(task: _Task, start: int, end: int, tallies: list[_Tally], make: _Players) -> None:
    levels, seed, duplicate, stack, structure, folder, _, _, _, (raise_cap, policy) = task
    n = len(levels)
    big_blind = 2
    histories = []
    # a hand's configuration by its button (every hand starts at the same depth)
    configs = [
        HandConfig(
            stacks=(stack * big_blind,) * n,
            button=button,
            small_blind=1,
            big_blind=big_blind,
            structure=Structure(structure),
            raise_cap=raise_cap,
            heads_up_cap=HeadsUpCap.TWO_LEFT if policy is None else HeadsUpCap(policy),
        )
        for button in range(n)
    ]
    rotations = range(n) if duplicate else range(1)
    bots: list[list[Decide]] = []
    learners: list[list[tuple[int, Bot]]] = []
    for deal in range(start, end):
        if deal % BLOCK == 0:  # the bots of a block, seeded by it (chunks are blocks)
            block = deal // BLOCK
            bots = [
                [make((p + shift) % n, shift, _seed(seed, block, shift, p)) for p in range(n)]
                for shift in rotations
            ]
            # the bots told each hand's end (Bot.observe), by position
            learners = [[(p, b) for p, b in enumerate(players) if learns(b)] for players in bots]
        for shift in rotations:
            # position p holds the bot of seat (p + shift) % n; the cards by position
            # and the button are the deal's, whatever the rotation
            players = bots[shift]
            hand = Hand(configs[deal % n], rng=random.Random(_seed(seed, deal)))
            while not hand.done:
                seat = hand.actor
                assert seat is not None
                legal = hand.legal_actions()
                assert legal is not None
                hand.act(players[seat](hand.view(seat), legal), seat=seat)
            for p, bot in learners[shift]:
                bot.observe(hand.view(p))
            _count(hand, tallies, shift)
            if folder is not None:
                names = [_name(levels, (p + shift) % n) for p in range(n)]
                hand_id = f"{deal + 1}.{shift + 1}" if duplicate else str(deal + 1)
                histories.append(record(hand, names=names, hand_id=hand_id))
    if folder is not None:
        _write(Path(folder) / f"simulation-{start + 1:07}.phhs", histories)


def _tournaments(task: _Task, start: int, end: int, tallies: list[_Tally], make: _Players) -> None:
    levels, seed, duplicate, stack, structure, folder, schedule_text, _, _, cap = task
    n = len(levels)
    schedule = Schedule.default() if schedule_text is None else Schedule.parse(schedule_text)
    chips = stack * schedule.level(0).big_blind
    histories = []
    for number in range(start, end):
        for shift in range(n) if duplicate else range(1):
            # table seat p holds the bot of seat (p + shift) % n, seeded by the
            # tournament and its seat; the cards are the tournament's
            names = [_name(levels, (p + shift) % n) for p in range(n)]
            bots = {
                name: make((p + shift) % n, shift, _seed(seed, number, shift, p))
                for p, name in enumerate(names)
            }
            game = Tournament(names, stack=chips, schedule=schedule, structure=structure,
                              raise_cap=cap[0], heads_up_cap=cap[1],
                              rng=_seed(seed, number))  # fmt: skip
            dealt = [0] * n
            while not game.finished:
                if game.table.hands_played >= MOST_HANDS:  # (a schedule that stays)
                    raise SimulationError(
                        f"tournament {number + 1} did not end in {MOST_HANDS:,} hands "
                        "(a schedule whose blinds stop rising?)"
                    )
                result = game.play_hand(bots)
                hand = result.played
                _count(hand, tallies, shift)
                for p in hand.config.seat_numbers:
                    dealt[(p + shift) % n] += 1
                if folder is not None:
                    hand_id = f"{number + 1}.{shift + 1}.{result.hand}"
                    histories.append(record(hand, tournament=True, hand_id=hand_id))
            for placing in game.result().places:
                p = names.index(placing.player)
                tallies[(p + shift) % n].places.append(placing.place)
            for p in range(n):
                tallies[(p + shift) % n].dealt.append(dealt[(p + shift) % n])
    if folder is not None:
        _write(Path(folder) / f"simulation-t{start + 1:06}.phhs", histories)


def _name(levels: list[str], seat: int) -> str:
    """A player's name in the histories: its seat and its bot (or ``program``;
    a file's bot by its name)."""
    level = levels[seat]
    if level.startswith(FILE_PREFIX):
        level = level.rpartition(":")[2]
    return f"seat{seat + 1}-{'program' if level.startswith(PREFIX) else level}"


class _Players:
    """Makes the players of a chunk: a bot for each block or tournament (seeded
    by it), and for a program's seat the one program started for the chunk
    (kept, per seat and rotation: starting a program costs milliseconds);
    its reason for sitting out goes to the seat's tally at the end."""

    def __init__(
        self, levels: list[str], seconds: float, tallies: list[_Tally], logs: str | None
    ) -> None:
        self.levels, self.seconds, self.tallies, self.logs = levels, seconds, tallies, logs
        self.programs: dict[tuple[int, int], Program] = {}

    def __call__(self, seat: int, shift: int, seed: int) -> Decide:
        level = self.levels[seat]
        if level.startswith(FILE_PREFIX):
            return file_bot(level)(seed)
        if not level.startswith(PREFIX):
            return make_bot(level, seed=seed)
        program = self.programs.get((seat, shift))
        if program is None:
            log = None if self.logs is None else Path(self.logs) / f"seat{seat + 1}.log"
            program = Program(level, budget=self.seconds, name=f"seat{seat + 1}", log=log)
            self.programs[(seat, shift)] = program
        return program

    def __enter__(self) -> _Players:
        return self

    def __exit__(self, *exc: object) -> None:
        stop(self.programs.values())  # (all at once: one grace for all)
        for (seat, _), program in sorted(self.programs.items()):
            if program.failure is not None:
                self.tallies[seat].failures.append(program.failure)


def _seed(*numbers: int) -> int:
    """A seed made of numbers, the same in every process, run and version of
    Python: each number is mixed in by SplitMix64's finalizer (a fixed
    function, unlike ``hash``, which Python does not promise to keep)."""
    x = 0x9E3779B97F4A7C15
    for number in numbers:
        x = (x ^ (number & _MASK)) + 0x9E3779B97F4A7C15 & _MASK
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
        x = (x ^ (x >> 27)) * 0x94D049BB133111EB & _MASK
        x ^= x >> 31
    return x & 0xFFFFFFFFFFFF


_MASK = (1 << 64) - 1


def _write(path: Path, histories: list[HandHistory]) -> None:
    """Writes hand histories to a new file: whole or not at all (a temporary
    file beside it, renamed; an existing file is never replaced)."""
    part = path.with_name(path.name + ".part")
    with open(part, "x", encoding="utf-8") as out:
        write_phh(histories, out, many=True)
    if path.exists():
        part.unlink()
        raise FileExistsError(f"{path} exists: write the histories to a new folder")
    part.rename(path)


def _count(hand: Hand, tallies: list[_Tally], shift: int) -> None:
    """Adds a played hand to the tallies of the seats whose bots played it
    (table seat ``p`` holds the bot of seat ``(p + shift) % n``; one pass
    over its log), its results in its own big blinds."""
    n = len(tallies)
    outcome = hand.outcome
    assert outcome is not None
    config = hand.config
    seats = config.seat_numbers
    big_blind = config.big_blind
    voluntary, raised = [False] * n, [False] * n
    aggressive, calls = [0] * n, [0] * n
    for action in hand.log:
        p = action.seat
        if p is None:
            continue
        kind = action.kind
        if action.street is _PREFLOP:
            if kind in _VOLUNTARY:
                voluntary[p] = True
                raised[p] = raised[p] or kind in _AGGRESSIVE
        elif kind in _AGGRESSIVE:
            aggressive[p] += 1
        elif kind is _CALL:
            calls[p] += 1
    for position, p in enumerate(seats):
        tally = tallies[(p + shift) % n]
        tally.nets.append(outcome.net[position] / big_blind)
        tally.vpip += voluntary[p]
        tally.pfr += raised[p]
        tally.aggressive += aggressive[p]
        tally.calls += calls[p]
    if outcome.showdown:
        shown = {s.seat for s in outcome.shown} | set(outcome.mucked)
        for p in shown:
            tally = tallies[(p + shift) % n]
            tally.showdowns += 1
            tally.won += outcome.net[seats.index(p)] > 0
