"""``holdem convert``: hand histories from one format to another."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from holdem.errors import HistoryFormatError
from holdem.history import HandHistory, Problem
from holdem.validate import FORMATS, detect_format, read_hands


@click.command(
    "convert",
    epilog="""\b
Examples:
  holdem convert hand.phh --to pokerstars            to stdout
  holdem convert session.txt --to phh -o session.phhs
""",
)
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--to", "target", type=click.Choice(sorted(FORMATS)), required=True, help="The format to write."
)
@click.option(
    "--from",
    "fmt",
    type=click.Choice(sorted(FORMATS)),
    default=None,
    help="The format to read (default: by file ending).",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Where to write (default: standard output).",
)
def convert_command(source: str, target: str, fmt: str | None, output: str | None) -> None:
    """Convert a hand-history file to PHH or PokerStars text.

    Hands that cannot be read, or that the target format cannot express, are
    reported on stderr (with their line) and left out; the exit status is
    then 1.
    """
    fmt = fmt or detect_format(source)
    if fmt is None:
        raise click.UsageError(f"cannot tell the format of {source}: give --from")
    skipped = 0
    out: TextIO = open(output, "w", encoding="utf-8") if output else sys.stdout  # noqa: SIM115
    try:
        hands: list[HandHistory] = []
        for item in read_hands(source, fmt):
            if isinstance(item, Problem):
                click.echo(f"holdem convert: skipped: {item}", err=True)
                skipped += 1
            else:
                hands.append(item)
        skipped += _write(hands, target, out)
    finally:
        if output:
            out.close()
    if skipped:
        sys.exit(1)


def _write(hands: list[HandHistory], target: str, out: TextIO) -> int:
    """Writes the hands it can; returns how many it could not."""
    skipped = 0
    if target == "phh":
        from holdem.phh import to_phh, write_phh

        good = []
        for hand in hands:
            try:
                to_phh(hand)
            except HistoryFormatError as exc:
                click.echo(f"holdem convert: skipped: {exc}", err=True)
                skipped += 1
            else:
                good.append(hand)
        write_phh(good, out)
    else:
        from holdem.pokerstars import write_pokerstars
        from holdem.replay import with_results

        # PokerStars states who collected what: fill in what the source leaves out
        write_pokerstars([with_results(hand) for hand in hands], out)
    return skipped
