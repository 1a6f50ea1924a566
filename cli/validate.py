"""``holdem validate``: replay hand-history files and check every number."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter

import click

from holdem.histories import FORMATS, MAX_JOBS, SPLIT_BYTES, FileReport, find_files, validate_files

from .cluster import check_cluster, check_ship, cluster_option, ship_option

EXIT_PROBLEMS = 1
EXIT_UNUSABLE = 2
STDIN = "-"


def history_files(
    paths: tuple[str, ...], fmt: str | None, command: str
) -> tuple[list[str], list[str], int]:
    """The files of ``paths`` (folders give the history files below them; ``-``
    standard input, which needs ``fmt``), the paths not found (each said on
    stderr) and the files' bytes in all; none to read is an exit with
    status 2."""
    files, missing = find_files([p for p in paths if p != STDIN])
    if STDIN in paths:
        if fmt is None:
            raise click.UsageError("give --format to read standard input ('-')")
        files.insert(0, STDIN)
    for path in missing:
        click.echo(f"{command}: error: {path}: no such file or folder", err=True)
    if not files:
        if not missing:
            click.echo(f"{command}: error: no hand-history files found (.phh, .phhs, .txt)",
                       err=True)  # fmt: skip
        sys.exit(EXIT_UNUSABLE)
    total = sum(os.path.getsize(path) for path in files if path != STDIN and os.path.isfile(path))
    return files, missing, total


@click.command(
    "validate",
    epilog="""\b
Examples:
  holdem validate hands.phh                  one file
  holdem validate ~/histories --jobs 2       every .phh, .phhs and .txt below a folder
  holdem validate session.txt --strict       warnings fail too
  holdem validate corpus/ --json > report.json
  cat hands.txt | holdem validate - --format pokerstars
  holdem validate /shared/corpus --cluster tcp://10.0.0.5:8786
\b
Exit status: 0 all clean, 1 problems found, 2 input that cannot be read
(a missing file, binary data, a line of over a megabyte), 130 interrupted.
""",
)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(FORMATS)),
    default=None,
    help="Read every file as this format (default: by file ending).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Warnings count as problems (exit status 1), among them hands consistent "
    "only by another engine's or site's convention (pokerkit-..., pokerstars-...).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, MAX_JOBS),
    default=1,
    show_default=True,
    help=f"Processes validating at once (at most {MAX_JOBS}): files of over 1 MiB and "
    "standard input are shared among them in pieces of whole hands, smaller files go whole.",
)
@cluster_option
@ship_option
@click.option("--quiet", "-q", is_flag=True, help="Only problems and the summary.")
def validate_command(
    paths: tuple[str, ...],
    fmt: str | None,
    strict: bool,
    as_json: bool,
    jobs: int,
    cluster: str | None,
    ship: bool,
    quiet: bool,
) -> None:
    """Validate hand histories (PHH .phh/.phhs, PokerStars .txt).

    Every hand is replayed through the rules engine: an illegal action is
    reported with its line, and every number the file claims (pots, collected
    amounts, uncalled bets, rake, finishing stacks, winnings, shown hands) is
    compared with what the rules give. A hand consistent only by a known
    convention of another engine or site (PokerKit, PokerStars) passes with a
    warning naming it. Each file is reported OK, OK with warnings or FAILED,
    then each problem as 'path:line: hand ID: message'.
    """
    check_cluster(cluster, "--jobs", jobs)
    check_ship(ship, cluster)
    files, missing, total = history_files(paths, fmt, "holdem validate")
    # a bar on the terminal for long work, and the reports after it, not through it
    show_bar = (
        not as_json
        and sys.stderr.isatty()
        and STDIN not in files
        and (len(files) > 1 or total > SPLIT_BYTES)
    )
    held: list[FileReport] = []
    totals: Counter[str] = Counter()
    severities: Counter[str] = Counter()
    hands = 0
    if as_json:
        sys.stdout.write('{"files": [')
    with click.progressbar(
        length=max(total, 1),
        label="validating",
        file=sys.stderr,
        hidden=not show_bar,
        show_pos=False,
    ) as bar:
        sources = [sys.stdin.buffer if path == STDIN else path for path in files]
        for report in validate_files(
            sources, fmt, jobs=jobs, progress=bar.update, cluster=cluster, ship=ship
        ):
            totals[report.status] += 1
            severities.update(report.problems.severities)
            hands += report.hands
            if as_json:
                sys.stdout.write(", " * (sum(totals.values()) > 1))
                report.write_json(sys.stdout)
            elif show_bar:
                held.append(report)
            else:
                _print_report(report, quiet)
    for report in held:
        _print_report(report, quiet)
    files_done = sum(totals.values())
    if as_json:
        summary = {"files": files_done, "hands": hands, **totals, **severities}
        sys.stdout.write(f'], "summary": {json.dumps(summary)}}}\n')
    else:
        parts = [
            f"{totals[s]} {s}"
            for s in ("OK", "OK with warnings", "FAILED", "UNREADABLE")
            if totals[s]
        ]
        kinds = ", ".join(
            f"{severities[s]} {s}{'s' * (severities[s] != 1 and s != 'unsupported')}"
            for s in ("error", "warning", "unsupported")
            if severities[s]
        )
        click.echo(
            f"{files_done} file{'s' * (files_done != 1)}: {', '.join(parts)}; "
            f"{hands} hand{'s' * (hands != 1)}" + (f"; {kinds}" if kinds else "")
        )
    if missing or totals["UNREADABLE"]:
        sys.exit(EXIT_UNUSABLE)
    if totals["FAILED"] or (strict and totals["OK with warnings"]):
        sys.exit(EXIT_PROBLEMS)


def _print_report(report: FileReport, quiet: bool) -> None:
    if report.unreadable is not None:
        # and what the hands before that point gave
        click.echo(f"{report.path}: UNREADABLE: {report.unreadable}")
        for problem in report.problems:
            click.echo(f"  {problem}")
        return
    detail = f"{report.hands} hand{'s' * (report.hands != 1)}"
    if report.errors:
        detail += f", {report.errors} error{'s' * (report.errors != 1)}"
    if report.warnings:
        detail += f", {report.warnings} warning{'s' * (report.warnings != 1)}"
    if not quiet or report.problems:
        click.echo(f"{report.path}: {report.status} ({detail})")
    for problem in report.problems:
        click.echo(f"  {problem}")
