"""``holdem simulate``: batch matches between bots."""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import click

from holdem.bots import BOTS
from holdem.config import Structure
from holdem.histories import MAX_JOBS
from holdem.protocol.programs import PREFIX
from holdem.simulation import FILE_PREFIX, PlaceResult, SeatResult, simulate

from .cluster import check_cluster, cluster_option
from .play import cap_options, check_cap
from .signals import stopped_as_ctrl_c


def _row(name: str, r: SeatResult) -> str:
    aggression = "inf" if math.isinf(r.aggression) else f"{r.aggression:.2f}"
    won = f"{r.showdowns_won}/{r.showdowns}"
    return (
        f"{name:<20} {r.hands:>8,} {r.bb_per_100:>+10.1f} ±{r.ci95:<8.1f} "
        f"{100 * r.vpip:>5.1f}% {100 * r.pfr:>5.1f}% {aggression:>6} {won:>13}"
    )


def _place_row(name: str, r: PlaceResult) -> str:
    places = " ".join(f"{count:>4}" for count in r.places)
    return (
        f"{name:<20} {r.tournaments:>6,} {100 * r.win_rate:>6.1f}% ±{100 * r.ci95:<5.1f} "
        f"{r.mean_place:>6.2f} {r.hands:>7.1f}  {places}"
    )


def _place_record(r: PlaceResult) -> dict[str, object]:
    return {
        "bot": r.bot,
        "tournaments": r.tournaments,
        "places": list(r.places),
        "mean_place": r.mean_place,
        "win_rate": r.win_rate,
        "ci95": r.ci95,
        "hands": r.hands,
    }


def _record(r: SeatResult) -> dict[str, object]:
    return {
        "bot": r.bot,
        "hands": r.hands,
        "net_bb": r.net,
        "bb_per_100": r.bb_per_100,
        "ci95": r.ci95,
        "vpip": r.vpip,
        "pfr": r.pfr,
        "aggression": None if math.isinf(r.aggression) else r.aggression,
        "showdowns": r.showdowns,
        "showdowns_won": r.showdowns_won,
    }


@click.command(
    "simulate",
    epilog=f"""\b
Bot levels: {", ".join(BOTS)}; or cmd:PROGRAM, a program playing by
docs/protocol.md ("Programs as players"); or py:FILE:NAME, the bot NAME
of a Python file (bench/gauntlet.py's, docs/bots.md, "The gauntlet").
\b
Examples:
  holdem simulate --seats easy,random --hands 10000
  holdem simulate --seats hard,normal,easy --hands 2000 --duplicate --jobs 2
  holdem simulate --seats normal,normal,easy,easy,random,random --hands 5000 --json
  holdem simulate --seats hard,easy --hands 500 --histories hands/ && holdem validate hands/
  holdem simulate --seats hard,normal,easy,random --tournaments 200 --jobs 2
  holdem simulate --seats hard,py:bench/gauntlet.py:Maniac --hands 2000 --duplicate
  holdem simulate --seats hard,easy --hands 20000 --plot bb100.png
  holdem simulate --seats hard,normal --hands 1000000 --cluster tcp://10.0.0.5:8786
See docs/bots.md for what each bot does and what the figures mean.
""",
)
@click.option("--seats", required=True, metavar="LEVEL,LEVEL,...",
              help="The bot of each seat, 2 to 10, comma-separated (a level, or "
              "cmd:PROGRAM).")  # fmt: skip
@click.option("--hands", type=click.IntRange(min=1),
              help="Hands (deals, with --duplicate) of a cash game to play.")  # fmt: skip
@click.option("--tournaments", type=click.IntRange(min=1),
              help="Freezeout tournaments to play instead (places and win rates).")  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the cards and the bots: the same seed, the same match (default: a "
              "secret one, printed with the results). For trusted programs only: a cmd: "
              "program can read it from this command line, and know every deal.")  # fmt: skip
@click.option("--duplicate", is_flag=True,
              help="Play each deal once for every rotation of the bots (less luck).")  # fmt: skip
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True,
              help="Processes (the result does not depend on it).")  # fmt: skip
@click.option("--stack", type=click.IntRange(min=1), default=100, show_default=True,
              help="Big blinds each player starts every hand with (a tournament: "
              "of its first level).")  # fmt: skip
@click.option("--schedule", metavar="TEXT",
              help="The tournaments' blinds, e.g. '10/20, 15/30, 25/50/5' (default: 10/20 "
              "rising about 25% every 10 hands).")  # fmt: skip
@click.option("--structure", type=click.Choice([s.value for s in Structure]),
              default=Structure.NO_LIMIT.value, show_default=True,
              help="Betting structure.")  # fmt: skip
@cap_options
@click.option("--histories", type=click.Path(file_okay=False), metavar="DIR",
              help="Write every hand to DIR as PHH (made if missing; not over an "
              "earlier run).")  # fmt: skip
@click.option("--seconds", type=click.FloatRange(min=0, max=86_400, min_open=True), default=5.0,
              show_default=True,
              help="A program's seconds a decision (seats given as cmd:PROGRAM).")  # fmt: skip
@click.option("--logs", type=click.Path(file_okay=False), metavar="DIR",
              help="Where the programs' stderr goes (DIR/seatN.log; default: "
              "nowhere).")  # fmt: skip
@cluster_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--plot", "plot_path", metavar="FILE",
              help="Draw each seat's bb/100 as the hands go, with its 95% band, to FILE "
              "(.png or .svg; needs pip install 'holdem-toolkit[plots]').")  # fmt: skip
@stopped_as_ctrl_c
def simulate_command(
    seats: str,
    hands: int | None,
    tournaments: int | None,
    seed: int | None,
    duplicate: bool,
    jobs: int,
    stack: int,
    schedule: str | None,
    structure: str,
    raise_cap: int | None,
    heads_up_cap: str | None,
    histories: str | None,
    seconds: float,
    logs: str | None,
    cluster: str | None,
    as_json: bool,
    plot_path: str | None,
) -> None:
    """Plays hands (or freezeout tournaments) between bots and reports, by
    seat and by bot, big blinds won per 100 hands with a 95% confidence
    interval, VPIP, PFR, aggression (bets and raises over calls after the
    flop) and showdowns won/reached; for tournaments, the places, the mean
    place and the win rate with its 95% confidence interval.
    """
    if (hands is None) == (tournaments is None):
        raise click.UsageError("give --hands (a cash game) or --tournaments, one of them")
    cap = check_cap(structure, raise_cap, heads_up_cap)
    if plot_path is not None:
        if tournaments is not None:
            raise click.UsageError(
                "--plot draws a cash game's bb/100 as the hands go: give --hands, not --tournaments"
            )
        from holdem.plots import check_plot_path

        check_plot_path(plot_path)  # (before the hands are played)
    check_cluster(cluster, "--jobs", jobs)
    levels = [level.strip() for level in seats.split(",") if level.strip()]
    shown = not as_json and sys.stderr.isatty()
    length: int = hands if hands is not None else tournaments or 0
    # the rate shown beside the bar: hands (tournaments) a second so far
    per_step = len(levels) if duplicate else 1  # (a deal or a tournament is played this often)
    unit = "hands" if hands is not None else "tournaments"
    begun = time.monotonic()
    with click.progressbar(
        length=length,
        label="playing",
        file=sys.stderr,
        hidden=not shown,
        item_show_func=lambda rate: rate,
    ) as bar:
        done = 0

        def progress(now: int) -> None:
            nonlocal done
            seconds = max(1e-9, time.monotonic() - begun)
            bar.update(now - done, f"{now * per_step / seconds:,.1f} {unit}/s")
            done = now

        result = simulate(
            levels,
            hands=hands,
            tournaments=tournaments,
            schedule=schedule,
            seed=seed,
            duplicate=duplicate,
            jobs=jobs,
            stack=stack,
            structure=structure,
            progress=progress,
            histories=histories,
            seconds=seconds,
            logs=logs,
            cluster=cluster,
            **cap,
        )
    if plot_path is not None:
        from holdem.plots import save, simulation_figure

        seats_drawn = [
            (f"seat {number} {_label(r.bot)}", r.curve) for number, r in enumerate(result.seats, 1)
        ]
        save(simulation_figure(seats_drawn), plot_path)
    if as_json:
        record: dict[str, object] = {
            "hands": result.hands,
            "seed": result.seed,
            "duplicate": duplicate,
            "seats": [_record(r) for r in result.seats],
            "bots": {name: _record(r) for name, r in result.bots.items()},
        }
        record["failures"] = {str(seat + 1): why for seat, why in result.failures.items()}
        record["best_responses"] = {str(s + 1): bb for s, bb in result.best_responses.items()}
        if tournaments is not None:
            record["tournaments"] = result.tournaments
            record["places"] = [_place_record(r) for r in result.places]
            record["places_by_bot"] = {n: _place_record(r) for n, r in result.places_by_bot.items()}
        click.echo(json.dumps(record))
        return
    if tournaments is not None:
        count = len(levels)
        played = f"{_dealt(tournaments, 'deals of cards', len(levels))}; " if duplicate else ""
        click.echo(f"{result.tournaments:,} tournaments ({played}{result.hands:,} hands), "
                   f"seed {result.seed}")  # fmt: skip
        places = " ".join(
            f"{n:>4}" for n in ("1st", "2nd", "3rd", *(f"{i}th" for i in range(4, 11)))[:count]
        )
        click.echo(
            f"{'':<20} {'played':>6} {'won':>7} {'95% CI':<6} {'place':>6} {'hands':>7}  {places}"
        )
        _rows(_place_row, result.places, result.places_by_bot)
        click.echo()
    header = (
        f"{'':<20} {'hands':>8} {'bb/100':>10} {'95% CI':<9} {'VPIP':>6} {'PFR':>6} "
        f"{'AF':>6} {'showdowns won':>13}"
    )
    if tournaments is None:
        played = f" ({_dealt(hands, 'deals', len(levels))})" if duplicate else ""
        click.echo(f"{result.hands:,} hands{played}, seed {result.seed}")
    else:
        click.echo("Their hands (bb/100 in each hand's own big blinds):")
    click.echo(header)
    _rows(_row, result.seats, result.bots)
    for seat, why in result.failures.items():
        click.echo(f"seat {seat + 1} (a program) sat out: {why}")
    for seat, bb in result.best_responses.items():
        click.echo(f"the best response to seat {seat + 1} {_label(levels[seat])} earns "
                   f"{bb:+.1f} bb/100 (the most any player can win against it here)")  # fmt: skip


def _dealt(count: int | None, what: str, seats: int) -> str:
    """What ``--duplicate`` played, for the results' first line: ``20 deals,
    each played once for each of the 3 seatings of the bots``."""
    return f"{count or 0:,} {what}, each played once for each of the {seats} seatings of the bots"


def _rows(row: Callable[[str, Any], str], seats: Sequence[Any], bots: dict[str, Any]) -> None:
    """A row for each seat, then for each bot that sat in several."""
    for number, r in enumerate(seats, 1):
        click.echo(row(f"seat {number} {_label(r.bot)}", r))
    if len(bots) < len(seats):
        click.echo()
        for name, r in bots.items():
            click.echo(row(_label(name), r))


def _label(level: str) -> str:
    """A seat's bot as the tables show it: a program (``cmd:...``) as ``program``,
    a file's bot (``py:FILE:NAME``) by its name."""
    if level.startswith(FILE_PREFIX):
        return level.rpartition(":")[2]
    return "program" if level.startswith(PREFIX) else level
