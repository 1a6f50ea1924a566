"""``holdem range``: a range as the usual 13x13 chart."""

from __future__ import annotations

import json
import sys

import click

from holdem.cards import RANKS
from holdem.ranges import Range

_ORDER = RANKS[::-1]  # A K Q ... 2: row and column 0 are aces


def _label(row: int, col: int) -> str:
    a, b = _ORDER[min(row, col)], _ORDER[max(row, col)]
    if row == col:
        return a + b
    return a + b + ("s" if row < col else "o")


def _cell(text: str, weight: float, color: bool) -> str:
    if weight <= 0:
        return click.style(f"{'.':<5}", dim=True) if color else f"{'.':<5}"
    if not color:
        return f"{text + ('~' if weight < 0.999 else ''):<5}"
    if weight >= 0.999:
        return click.style(f"{text:<5}", fg="black", bg="green")
    return click.style(f"{text:<5}", fg="black", bg="yellow")


@click.command(
    "range",
    epilog="""\b
Examples:
  holdem range "QQ+,AKs,A5s-A2s"
  holdem range "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"
  holdem range "40%(AKs,QQ),AA:0.5" --json
""",
)
@click.argument("text")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the chart.")
@click.option("--color/--no-color", default=None, help="Colour the chart (default: on a terminal).")
def range_command(text: str, as_json: bool, color: bool | None) -> None:
    """Show a hand range (PokerStove syntax) as a 13x13 chart.

    Pairs run down the diagonal, suited hands above it and offsuit hands
    below. Cells partly in the range (by weight or by combos) are yellow on
    a terminal and marked '~' otherwise. Then: the number of combos (each
    counted by its weight), the share of all 1,326 starting hands, and the
    range in its shortest form.
    """
    r = Range.parse(text)
    grid = r.grid()
    if as_json:
        hands = {
            _label(i, j): round(grid[i][j], 6)
            for i in range(13)
            for j in range(13)
            if grid[i][j] > 0
        }
        record = {
            "range": str(r),
            "combos": r.combos,
            "fraction": r.fraction,
            "hands": hands,
            "grid": [[round(w, 6) for w in row] for row in grid],
        }
        click.echo(json.dumps(record))
        return
    if color is None:
        color = sys.stdout.isatty()
    for i in range(13):
        row = "".join(_cell(_label(i, j), grid[i][j], color) for j in range(13))
        click.echo(row.rstrip(), color=color)
    click.echo()
    click.echo(f"{r.combos:g} combos, {100 * r.fraction:.2f}% of all hands")
    click.echo(f"range: {r}")
