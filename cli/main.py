"""The ``holdem`` command group: errors become one line and exit code 2."""

from __future__ import annotations

from typing import Any

import click

from holdem.errors import HoldemError

from .convert import convert_command
from .equity import equity_command
from .eval import eval_command
from .range import range_command
from .validate import validate_command

EXIT_BAD_INPUT = 2


class HoldemGroup(click.Group):
    """Runs a subcommand; a :class:`HoldemError` ends it with one line on stderr."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HoldemError as exc:
            name = ctx.invoked_subcommand or ctx.info_name
            click.echo(f"holdem {name}: error: {exc}", err=True)
            ctx.exit(EXIT_BAD_INPUT)


@click.group(cls=HoldemGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="holdem", prog_name="holdem")
def main() -> None:
    """Texas Hold'em from the command line.

    \b
    Cards are written rank then suit: As Kd Th 9c 2s (also 10d, a♠).
    Lists may run together (AsKs) or be split by spaces or commas.

    \b
    Examples:
      holdem eval AsKs QhJhTh9h2c
      holdem eval --board QhJhTh AsKs 9h8h 2c2d
      holdem eval --json AsKs QhJhTh9h2c
      holdem equity AsKs QdQh
      holdem equity "QQ+,AKs" random --board 9c8d2h
      holdem range "QQ+,AKs,A5s-A2s"
      holdem validate hands.phhs histories/ --jobs 2
      holdem convert hand.phh --to pokerstars

    Run 'holdem COMMAND --help' for the options of each command.
    """


main.add_command(eval_command, "eval")
main.add_command(equity_command, "equity")
main.add_command(range_command, "range")
main.add_command(validate_command, "validate")
main.add_command(convert_command, "convert")
