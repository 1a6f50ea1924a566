"""``holdem simulate``: batch matches between bots."""

from __future__ import annotations

import json
import math
import sys

import click

from holdem.bots import BOTS
from holdem.config import Structure
from holdem.histories import MAX_JOBS
from holdem.simulation import SeatResult, simulate


def _row(name: str, r: SeatResult) -> str:
    aggression = "inf" if math.isinf(r.aggression) else f"{r.aggression:.2f}"
    won = f"{r.showdowns_won}/{r.showdowns}"
    return (
        f"{name:<20} {r.hands:>8,} {r.bb_per_100:>+10.1f} ±{r.ci95:<8.1f} "
        f"{100 * r.vpip:>5.1f}% {100 * r.pfr:>5.1f}% {aggression:>6} {won:>13}"
    )


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
Bot levels: {", ".join(BOTS)}.
\b
Examples:
  holdem simulate --seats easy,random --hands 10000
  holdem simulate --seats hard,normal,easy --hands 2000 --duplicate --jobs 2
  holdem simulate --seats normal,normal,easy,easy,random,random --hands 5000 --json
  holdem simulate --seats hard,easy --hands 500 --histories hands/ && holdem validate hands/
See docs/bots.md for what each bot does and what the figures mean.
""",
)
@click.option("--seats", required=True, metavar="LEVEL,LEVEL,...",
              help="The bot of each seat, 2 to 10, comma-separated.")  # fmt: skip
@click.option("--hands", type=click.IntRange(min=1), required=True,
              help="Hands (deals, with --duplicate) to play.")  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the cards and the bots: the same seed, the same match.")  # fmt: skip
@click.option("--duplicate", is_flag=True,
              help="Play each deal once for every rotation of the bots (less luck).")  # fmt: skip
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True,
              help="Processes (the result does not depend on it).")  # fmt: skip
@click.option("--stack", type=click.IntRange(min=1), default=100, show_default=True,
              help="Big blinds each player starts every hand with.")  # fmt: skip
@click.option("--structure", type=click.Choice([s.value for s in Structure]),
              default=Structure.NO_LIMIT.value, show_default=True,
              help="Betting structure.")  # fmt: skip
@click.option("--histories", type=click.Path(file_okay=False), metavar="DIR",
              help="Write every hand to DIR as PHH (made if missing; not over an "
              "earlier run).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def simulate_command(
    seats: str,
    hands: int,
    seed: int,
    duplicate: bool,
    jobs: int,
    stack: int,
    structure: str,
    histories: str | None,
    as_json: bool,
) -> None:
    """Plays hands between bots and reports, by seat and by bot, big blinds
    won per 100 hands with a 95% confidence interval, VPIP, PFR, aggression
    (bets and raises over calls after the flop) and showdowns won/reached.
    """
    levels = [level.strip() for level in seats.split(",") if level.strip()]
    shown = not as_json and sys.stderr.isatty()
    with click.progressbar(length=hands, label="playing", file=sys.stderr, hidden=not shown) as bar:
        done = 0

        def progress(now: int) -> None:
            nonlocal done
            bar.update(now - done)
            done = now

        result = simulate(
            levels,
            hands=hands,
            seed=seed,
            duplicate=duplicate,
            jobs=jobs,
            stack=stack,
            structure=structure,
            progress=progress,
            histories=histories,
        )
    if as_json:
        record = {
            "hands": result.hands,
            "seed": seed,
            "duplicate": duplicate,
            "seats": [_record(r) for r in result.seats],
            "bots": {name: _record(r) for name, r in result.bots.items()},
        }
        click.echo(json.dumps(record))
        return
    header = (
        f"{'':<20} {'hands':>8} {'bb/100':>10} {'95% CI':<9} {'VPIP':>6} {'PFR':>6} "
        f"{'AF':>6} {'showdowns won':>13}"
    )
    click.echo(f"{result.hands:,} hands, seed {seed}" + (", duplicate" if duplicate else ""))
    click.echo(header)
    for number, r in enumerate(result.seats, 1):
        click.echo(_row(f"seat {number} {r.bot}", r))
    if len(result.bots) < len(result.seats):
        click.echo()
        for name, r in result.bots.items():
            click.echo(_row(name, r))
