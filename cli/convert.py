"""``holdem convert``: hand histories from one format to another, written safely."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any, TextIO

import click

from holdem.errors import HistoryFormatError, HoldemError
from holdem.histories import (
    FORMATS,
    HandHistory,
    Problem,
    Replay,
    detect_format,
    find_files,
    read_hands,
)

#: A hand to write, with its replay.
_Item = tuple[HandHistory, Replay]

STDIO = "-"
#: Sources larger than this get a progress bar (on a terminal).
_BAR_BYTES = 1 << 20


@click.command(
    "convert",
    epilog="""\b
Examples:
  holdem convert hand.phh --to pokerstars            to standard output
  holdem convert session.txt --to phh -o session.phhs
  holdem convert session.txt --to phh -o session.phhs --force
                                                    replace an existing file
  holdem convert ~/histories --to phh -o all.phhs   every file below a folder
  cat hand.phh | holdem convert - --from phh --to pokerstars
\b
Exit status: 0 every hand written, 1 some hands left out (each named on
stderr) or none in SOURCE, 2 input that cannot be read or a bad request,
130 interrupted.
""",
)
@click.argument("sources", metavar="SOURCE...", nargs=-1, required=True)
@click.option(
    "--to", "target", type=click.Choice(sorted(FORMATS)), required=True, help="The format to write."
)
@click.option(
    "--from",
    "fmt",
    type=click.Choice(sorted(FORMATS)),
    default=None,
    help="The format to read (default: by file ending; needed for standard input).",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=STDIO,
    help="Where to write (default: standard output).",
)
@click.option("--force", "-f", is_flag=True, help="Replace OUTPUT if it exists.")
@click.option(
    "--keep-invalid",
    is_flag=True,
    help="Also write hands that break the rules or cannot be replayed, as read.",
)
def convert_command(
    sources: tuple[str, ...],
    target: str,
    fmt: str | None,
    output: str,
    force: bool,
    keep_invalid: bool,
) -> None:
    """Convert hand-history files (PHH, PokerStars text) to PHH or PokerStars text.

    SOURCE is a file, a folder (every .phh, .phhs and PokerStars .txt file
    below it, in name order, as holdem validate takes them) or - for
    standard input; the hands of every SOURCE go to OUTPUT in the order
    given. Every hand is replayed first: hands that cannot be read, that
    break the rules, or that the target format cannot express are named on
    stderr with their line and left out (--keep-invalid writes rule-breaking
    hands as read). OUTPUT is written to a temporary file beside it and put
    in place only when the whole conversion succeeded: an interrupted or
    failed run leaves an existing OUTPUT as it was. An existing OUTPUT is
    replaced only with --force, and never when it is a SOURCE itself.
    """
    files = _sources(sources, fmt)
    if output != STDIO:
        for source, _ in files:
            _check_output(source, output, force)
    to_terminal = output == STDIO and sys.stdout.isatty()
    converted = _Converted(files, target, keep_invalid, to_terminal)
    with _safe_output(output) as sink:
        written = converted.write(sink.out, many=output.lower().endswith(".phhs"))
        sink.keep = written > 0
    if not written and not converted.skipped:
        none = (f"{files[0][0]} holds no hand" if len(files) == 1
                else f"none of the {len(files)} files holds a hand")  # fmt: skip
        click.echo(f"holdem convert: {none}: nothing written", err=True)
        sys.exit(1)
    if converted.skipped:
        noun = "hand" if converted.skipped == 1 else "hands"
        done = (
            f"{written} written" if written or output == STDIO else f"nothing written to {output}"
        )
        click.echo(f"holdem convert: {done}, {converted.skipped} {noun} left out", err=True)
        sys.exit(1)


def _sources(sources: tuple[str, ...], fmt: str | None) -> list[tuple[str, str]]:
    """The files to convert, each with its format (``fmt``, else by its
    ending): folders give the history files below them; a missing path, a
    folder with none, or a format that cannot be told is a usage error
    naming it."""
    if sources.count(STDIO) > 1:
        raise click.BadParameter("standard input ('-') is read once", param_hint="SOURCE")
    files: list[tuple[str, str]] = []
    for source in sources:
        if source == STDIO:
            if fmt is None:
                raise click.UsageError("give --from: the format of standard input cannot be told")
            files.append((STDIO, fmt))
            continue
        found, missing = find_files([source])
        if missing:
            raise click.BadParameter(f"{source}: no such file or folder", param_hint="SOURCE")
        if not found:
            raise click.BadParameter(f"{source}: no hand-history file in this folder (.phh, "
                                     ".phhs, PokerStars .txt)", param_hint="SOURCE")  # fmt: skip
        for path in found:
            told = fmt or detect_format(path)
            if told is None:
                raise click.UsageError(f"cannot tell the format of {path} by its ending (.phh, "
                                       ".phhs, .txt): give --from")  # fmt: skip
            files.append((path, told))
    return files


def _check_output(source: str, output: str, force: bool) -> None:
    """Refuses an output that would destroy data: the source, or an existing file."""
    if source != STDIO and (
        os.path.abspath(output) == os.path.abspath(source)
        or (os.path.exists(output) and os.path.samefile(output, source))
    ):
        raise click.BadParameter(
            f"{output} is the file being converted: write somewhere else", param_hint="--output"
        )
    if os.path.isdir(output):
        raise click.BadParameter(f"{output} is a folder", param_hint="--output")
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        raise click.BadParameter(f"no such folder: {folder}", param_hint="--output")
    if os.path.exists(output) and not force:
        raise click.BadParameter(
            f"{output} exists: add --force to replace it", param_hint="--output"
        )


class _Output:
    """Where the hands go; ``keep = False`` leaves OUTPUT as it was."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.keep = True


@contextmanager
def _safe_output(output: str) -> Iterator[_Output]:
    """Standard output, or a temporary file beside OUTPUT renamed over it at the end.

    If the body raises (bad input, Ctrl-C, a full disk) or sets ``keep`` to
    False, the temporary file is removed and OUTPUT is left as it was.
    """
    if output == STDIO:
        yield _Output(sys.stdout)
        return
    folder = os.path.dirname(os.path.abspath(output))
    fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(output)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            target = _Output(out)
            yield target
            out.flush()
            os.fsync(out.fileno())
        if target.keep:
            _copy_mode(output, temp)
            os.replace(temp, output)
            return
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise
    os.unlink(temp)


def _copy_mode(output: str, temp: str) -> None:
    """The replaced file's permissions, or the usual ones for a new file."""
    try:
        mode = os.stat(output).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temp, mode)


class _Converted:
    """The hands of the files (each path with its format) that go to the output,
    replayed; counts what is left out."""

    def __init__(
        self, files: list[tuple[str, str]], target: str, keep_invalid: bool, to_terminal: bool
    ) -> None:
        self.files, self.target, self.keep_invalid = files, target, keep_invalid
        self.to_terminal = to_terminal
        self.skipped = 0
        self.bar: Any = None

    def skip(self, why: object) -> None:
        if self.bar is not None:  # the message on its own line, the bar below it
            click.echo("\r\033[K", nl=False, err=True)
        click.echo(f"holdem convert: left out: {why}", err=True)
        self.skipped += 1

    def __iter__(self) -> Iterator[tuple[HandHistory, Replay]]:
        from holdem.histories import replay

        paths = [path for path, _ in self.files if path != STDIO]
        try:
            size = sum(os.path.getsize(path) for path in paths)
        except OSError as exc:
            raise HoldemError(f"cannot read {exc.filename}: {exc.strerror or exc}") from None
        # a bar on the terminal for a long conversion, when the hands go to a file
        shown = size > _BAR_BYTES and sys.stderr.isatty() and not self.to_terminal
        with click.progressbar(
            length=size, label="converting", file=sys.stderr, hidden=not shown, show_pos=False
        ) as bar:
            self.bar = bar if shown else None
            for path, fmt in self.files:
                if path == STDIO:
                    yield from self._replayed(sys.stdin.buffer, "<stdin>", fmt, replay)
                    continue
                try:
                    with open(path, "rb") as stream:
                        done = 0
                        for item in self._replayed(stream, path, fmt, replay):
                            bar.update(stream.tell() - done)
                            done = stream.tell()
                            yield item
                except OSError as exc:
                    raise HoldemError(f"cannot read {path}: {exc.strerror or exc}") from None

    def _replayed(
        self, stream: Any, name: str, fmt: str, replay: Any
    ) -> Iterator[tuple[HandHistory, Replay]]:
        """The hands of the stream that go to the output, with their replays."""
        for item in read_hands(stream, fmt, path=name):
            if isinstance(item, Problem):
                self.skip(item)
                continue
            result = replay(item)
            bad = [p for p in result.problems if p.severity != "warning"]
            if bad and not self.keep_invalid:
                self.skip(f"{bad[0]} (--keep-invalid writes such hands as read)")
            else:
                # (the PokerStars writer takes the results the source does not
                # state from this replay of the hand)
                yield item, result

    def write(self, out: TextIO, many: bool) -> int:
        """Writes every hand the target can express; returns how many were written."""
        from holdem.histories import PhhWriter, PokerStarsWriter

        hands = iter(self)
        if self.target == "phh":
            first = next(hands, None)
            second = next(hands, None)
            writer: PhhWriter | PokerStarsWriter = PhhWriter(out, many=many or second is not None)
            hands = _chain([h for h in (first, second) if h is not None], hands)
        else:
            writer = PokerStarsWriter(out)
        for hand, result in hands:
            try:
                if isinstance(writer, PokerStarsWriter):
                    writer.write(hand, replayed=result)
                else:
                    writer.write(hand)
            except HistoryFormatError as exc:
                self.skip(exc)
        return writer.count


def _chain(first: list[_Item], rest: Iterator[_Item]) -> Iterator[_Item]:
    yield from first
    yield from rest
