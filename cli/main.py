"""The ``holdem`` command group, and the error contract of every command.

Whatever goes wrong ends as one line on stderr, never a traceback:

- bad input (a :class:`~holdem.errors.HoldemError`, a usage error such as
  ``--trials 0``): ``holdem CMD: error: ...`` and exit status 2;
- Ctrl-C: ``holdem CMD: interrupted`` and exit status 130 (128 + SIGINT);
  SIGTERM (SIGHUP) to ``engine``, ``simulate`` or ``play``: the same way out,
  ``holdem CMD: terminated`` (``hung up``) and exit status 143 (129), 128 +
  the signal's number (``signals``);
- output that cannot be written (a full disk): exit status 2; a closed pipe
  (``holdem validate ... | head``) ends the command quietly.

Commands exit 1 themselves when they found problems in what they checked.
``docs/errors.md`` describes it for users.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from contextlib import suppress
from typing import Any, NoReturn

import click

from holdem import DISTRIBUTION
from holdem.errors import HoldemError

from .signals import Terminated

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
#: The longest error line printed, in characters (an argument can be megabytes).
MAX_MESSAGE = 400


#: The commands, in the order the help lists them, by the module of cli/ that
#: holds each (imported when the command runs: ``holdem eval`` does not load
#: the room server, the clients or the terminal UI).
COMMANDS = {
    "eval": "eval",
    "equity": "equity",
    "range": "range",
    "validate": "validate",
    "stats": "stats",
    "convert": "convert",
    "simulate": "simulate",
    "play": "play",
    "engine": "engine",
    "serve": "serve",
    "join": "join",
    "watch": "watch",
    "history": "history",
}


class HoldemGroup(click.Group):
    """Runs a subcommand under the error contract of the module's notes; each
    command's module is imported when it is asked for (:data:`COMMANDS`)."""

    command_path = "holdem"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*COMMANDS, *(name for name in super().list_commands(ctx) if name not in COMMANDS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return super().get_command(ctx, cmd_name)
        loaded = importlib.import_module(f"{__package__}.{module}")
        command: click.Command = getattr(loaded, f"{module}_command")
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        self.command_path = f"{ctx.command_path} {name}"
        return name, command, rest

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HoldemError as exc:
            _fail(self.command_path, str(exc))

    def main(  # type: ignore[override]
        self, args: Any = None, prog_name: str | None = None, **extra: Any
    ) -> Any:
        if extra.get("standalone_mode") is False:
            return super().main(args, prog_name, **extra)
        extra["standalone_mode"] = False
        self.command_path = self.name or "holdem"
        _tolerant_output()
        try:
            code = super().main(args, prog_name, **extra)
            sys.stdout.flush()  # a full disk shows here, not after exit
        except click.exceptions.NoArgsIsHelpError as exc:  # plain 'holdem': the help
            exc.show()
            code = exc.exit_code
        except click.ClickException as exc:
            ctx = getattr(exc, "ctx", None)
            where = ctx.command_path if ctx is not None else self.command_path
            message = _sentence(exc.format_message())
            if isinstance(exc, click.UsageError) and ctx is not None:
                message += f" (see '{ctx.command_path} --help')"
            _fail(where, message, exc.exit_code)
        except (click.Abort, KeyboardInterrupt) as exc:
            stop = exc if isinstance(exc, Terminated) else exc.__cause__  # (click's Abort: from it)
            if isinstance(stop, Terminated):
                click.echo(f"{self.command_path}: {stop.says}", err=True)
                code = stop.status
            else:
                click.echo(f"{self.command_path}: interrupted", err=True)
                code = EXIT_INTERRUPTED
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # the reader went away: stop quietly
                _silence_stdout()
                code = 1
            else:
                _silence_stdout()
                # (a file named: read or written, the system's reason says; else the output)
                what = f"{exc.filename}" if exc.filename else "cannot write the output"
                _fail(self.command_path, f"{what}: {exc.strerror or exc}")
        sys.exit(code or 0)


def _fail(where: str, message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """One line on stderr, then the exit status."""
    line = " ".join(message.split("\n"))
    if len(line) > MAX_MESSAGE:
        line = f"{line[: MAX_MESSAGE // 2]} ... {line[-MAX_MESSAGE // 4 :]}"
    click.echo(f"{where}: error: {line}", err=True)
    sys.exit(code)


def _sentence(text: str) -> str:
    """click's 'Invalid value ...: x.' as 'invalid value ...: x'."""
    text = text.strip().rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _tolerant_output() -> None:
    """Lets output hold names that are not valid UTF-8 (file names from the disk)."""
    for stream, errors in ((sys.stdout, "surrogateescape"), (sys.stderr, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with suppress(ValueError, OSError):  # a stream already in use
                reconfigure(errors=errors)


def _silence_stdout() -> None:
    """Points stdout at the null device, so the flush at exit does not fail again."""
    with suppress(OSError, ValueError, AttributeError):  # not a real file (a test runner's)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@click.group("holdem", cls=HoldemGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name=DISTRIBUTION, prog_name="holdem")
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
      holdem stats histories/ --player Hero --plot winnings.png
      holdem simulate --seats hard,normal,easy --hands 2000 --duplicate
      holdem play --seats 6 --bots mix
      holdem engine < requests.jsonl
      holdem serve --listen 127.0.0.1:7777
      holdem join CODE --server 127.0.0.1:7777
      holdem watch CODE --server 127.0.0.1:7777
      holdem history CODE --server 127.0.0.1:7777 -o hands.phhs

    \b
    Exit status: 0 done (serve stopped by SIGTERM too), 1 problems found
    (validate, convert, serve --check), 2 bad input or usage, 130 interrupted
    (Ctrl-C), 143 terminated (SIGTERM; 129 SIGHUP: engine, simulate, play).
    Errors are one line on stderr.
    Run 'holdem COMMAND --help' for the options of each command.
    """
