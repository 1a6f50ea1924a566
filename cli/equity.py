"""``holdem equity``: how often hands or ranges win against each other."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from holdem.cards import format_cards, parse_cards
from holdem.equities import MAX_SEED, MAX_TRIALS, EquityResult, equity
from holdem.evaluator import MAX_THREADS

from .cluster import check_cluster, cluster_option


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[float], None] | None]:
    """A progress bar on stderr fed with fractions done, when stderr is a terminal."""
    if not enabled:
        yield None
        return
    with click.progressbar(length=1000, label="computing", file=sys.stderr) as bar:
        shown = 0

        def update(fraction: float) -> None:
            nonlocal shown
            target = int(fraction * 1000)
            if target > shown:
                bar.update(target - shown)
                shown = target

        yield update


def _percent(x: float) -> str:
    return f"{100 * x:.2f}%"


def _print_table(result: EquityResult) -> None:
    mc = result.method == "monte carlo"
    board = format_cards(result.board) or "(none)"
    click.echo(f"board   {board}" + (f"   dead {format_cards(result.dead)}" if result.dead else ""))
    if mc:
        click.echo(f"method  Monte Carlo, {result.deals:,} deals, seed {result.seed}")
    else:
        click.echo(f"method  exact, {result.deals:,} boards")
    click.echo()
    width = max(6, *(len(p.hand) for p in result.players))
    header = f"player  {'hand':<{width}}  {'equity':>7}  {'win':>7}  {'tie':>7}"
    click.echo(header + ("  stderr" if mc else ""))
    for number, p in enumerate(result.players, 1):
        line = f"{number:>6}  {p.hand:<{width}}  {_percent(p.equity):>7}  {_percent(p.win):>7}  "
        line += f"{_percent(p.tie):>7}"
        click.echo(line + (f"  ±{_percent(p.stderr)}" if mc else ""))


@click.command(
    "equity",
    epilog="""\b
Examples:
  holdem equity AsKs QdQh                   exact, all 1,712,304 boards
  holdem equity AsKs QdQh JcTc --board 9c8d2h
  holdem equity "QQ+,AKs" "random"          ranges (PokerStove syntax)
  holdem equity AK QQ+ --trials 1000000 --seed 7 --threads 2
  holdem equity AK QQ+ --stderr 0.0002 --json
  holdem equity "22+,A2s+" "random" random --exact --cluster local:2
See docs/ranges.md for the range syntax.
""",
)
@click.argument("players", nargs=-1, required=True)
@click.option("--board", "-b", default="", metavar="CARDS", help="Board cards (0, 3, 4 or 5).")
@click.option("--dead", "-d", default="", metavar="CARDS", help="Cards out of play (folded, seen).")
@click.option("--exact", "method", flag_value="exact", help="Enumerate every board (exact).")
# The library checks the rest (trials up to MAX_TRIALS, a finite stderr) and
# says why in one line; cli/main.py cuts any error line to a bounded length.
@click.option(
    "--trials",
    type=click.IntRange(min=1),
    help=f"Monte Carlo with this many deals (1 to {MAX_TRIALS:.0e}).",
)
@click.option(
    "--stderr",
    "target",
    type=click.FloatRange(min=0, min_open=True),
    help="Monte Carlo until each standard error is at most this, e.g. 0.001.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    help="Monte Carlo seed (0 to 2^64-1), to repeat a run.",
)
@click.option("--threads", "-t", type=click.IntRange(1, MAX_THREADS), default=1, show_default=True,
              help=f"Threads, 1 to {MAX_THREADS} (the same seed gives the same result with "
              "any number).")  # fmt: skip
@cluster_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def equity_command(
    players: tuple[str, ...],
    board: str,
    dead: str,
    method: str | None,
    trials: int | None,
    target: float | None,
    seed: int | None,
    threads: int,
    cluster: str | None,
    as_json: bool,
) -> None:
    """Equity of 2 to 10 players: each an exact hand (AsKs), a range
    (QQ+,AKs) or 'random'.

    Exact enumeration is used when it is cheap enough (or with --exact),
    otherwise Monte Carlo until the standard error is 0.05% (or as --trials
    and --stderr say). Equity is the expected share of the pot; win and tie
    are the shares of deals won alone and split.
    """
    if method == "exact" and (trials or target):
        raise click.UsageError("--exact takes no --trials or --stderr")
    check_cluster(cluster, "--threads", threads)
    exact = True if method == "exact" else (False if trials or target else None)
    with _progress(not as_json and sys.stderr.isatty()) as progress:
        result = equity(
            list(players),
            board=parse_cards(board),
            dead=parse_cards(dead),
            exact=exact,
            trials=trials,
            stderr=target,
            seed=seed,
            threads=threads,
            progress=progress,
            cluster=cluster,
        )
    if as_json:
        record = {
            "method": result.method,
            "deals": result.deals,
            "seed": result.seed,
            "board": format_cards(result.board).split(),
            "dead": format_cards(result.dead).split(),
            "players": [
                {"hand": p.hand, "equity": p.equity, "win": p.win, "tie": p.tie, "stderr": p.stderr}
                for p in result.players
            ],
        }
        click.echo(json.dumps(record))
        return
    _print_table(result)
