"""``holdem stats``: players' statistics from hand-history files, plots and a report."""

from __future__ import annotations

import csv
import json
import sys

import click

from holdem.histories import FORMATS, MAX_JOBS, SPLIT_BYTES
from holdem.report import COLUMNS, html_page, player_record, plot_name, ranked, table_cells
from holdem.stats import FIGURES, POSITIONS, Counts, PlayerStats, Stats, stats_files

from .cluster import check_cluster, check_ship, cluster_option, ship_option
from .validate import history_files

EXIT_UNUSABLE = 2
STDIN = "-"
#: Players a plot (and the page's tables by position) shows without --player:
#: those with the most hands.
PLOTTED = 4


@click.command(
    "stats",
    epilog="""\b
Examples:
  holdem stats session.txt                   every player of a file
  holdem stats ~/histories --player Hero     one player, and by position
  holdem stats hands/ --jobs 2 --csv > players.csv
  holdem stats hands.phhs --plot winnings.png --player Hero
  holdem stats hands/ --html report.html     one page: the tables and the plot
  holdem stats /shared/hands --cluster tcp://10.0.0.5:8786
\b
Reads what holdem validate reads (PHH .phh/.phhs, PokerStars .txt, folders,
a room's export). docs/stats.md defines each figure. Exit status: 0, or 2
for input that cannot be read (the other files are counted), 130 interrupted.
""",
)
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(sorted(FORMATS)), default=None,
              help="Read every file as this format (default: by file ending).")  # fmt: skip
@click.option("--player", "names", multiple=True, metavar="NAME",
              help="Only this player (again for more), and their figures by position.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--csv", "as_csv", is_flag=True,
              help="Print CSV: a row a player, and a row a player and position.")  # fmt: skip
@click.option("--plot", "plot_path", metavar="FILE",
              help="Draw the winnings over the hands to FILE (.png or .svg; needs "
              "pip install 'holdem-toolkit[plots]').")  # fmt: skip
@click.option("--html", "html_path", metavar="FILE",
              help="Write one self-contained HTML page: the tables and the plot.")  # fmt: skip
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True,
              help=f"Processes counting at once (at most {MAX_JOBS}), as holdem validate "
              "shares the files.")  # fmt: skip
@cluster_option
@ship_option
def stats_command(
    paths: tuple[str, ...],
    fmt: str | None,
    names: tuple[str, ...],
    as_json: bool,
    as_csv: bool,
    plot_path: str | None,
    html_path: str | None,
    jobs: int,
    cluster: str | None,
    ship: bool,
) -> None:
    """Players' statistics from hand histories, as trackers count them.

    Every hand is replayed by the rules (as holdem validate replays it) and
    counted for each player: hands, net won in the files' money and in big
    blinds, bb/100 with its 95% interval, VPIP, PFR, 3-bet, fold to 3-bet,
    c-bet, fold to c-bet, aggression factor and frequency, went to showdown
    (WTSD) and won at showdown (W$SD), by position; and the all-in adjusted
    winnings (EV bb/100: each all-in's pots shared by the equities when the
    last chip went in). Hands that cannot be replayed are left out, counted.
    """
    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    check_cluster(cluster, "--jobs", jobs)
    check_ship(ship, cluster)
    names = tuple(dict.fromkeys(names))  # (a name given twice is shown once)
    plots = [p for p in (plot_path, html_path) if p is not None]
    if plot_path is not None:
        from holdem.plots import check_plot_path

        check_plot_path(plot_path)
    if html_path is not None:
        from holdem.plots import check_plot_path

        check_plot_path("page.svg", "--html")  # (matplotlib draws the page's plot)
    files, missing, total = history_files(paths, fmt, "holdem stats")
    show_bar = (
        sys.stderr.isatty() and STDIN not in files and (len(files) > 1 or total > SPLIT_BYTES)
    )
    stats = Stats(series=bool(plots))
    unreadable: list[str] = []
    with click.progressbar(
        length=max(total, 1), label="counting", file=sys.stderr, hidden=not show_bar, show_pos=False
    ) as bar:
        sources = [sys.stdin.buffer if path == STDIN else path for path in files]
        reports = stats_files(sources, fmt, jobs=jobs, series=bool(plots), progress=bar.update,
                              cluster=cluster, ship=ship)  # fmt: skip
        for report in reports:
            stats.merge(report.stats)
            if report.unreadable is not None:
                unreadable.append(f"{report.path}: {report.unreadable}")
    for name in names:
        if name not in stats.players:
            known = ", ".join(repr(n) for n, _ in ranked(stats)[:5])
            raise click.UsageError(
                f"--player {name!r}: no such player in the {stats.hands - stats.left_out:,} "
                f"hands counted" + (f" (those with the most hands: {known})" if known else "")
            )
    players = ranked(stats, names)
    shown = players if names else players[:PLOTTED]
    if plots:
        from holdem.plots import save, svg_text, winnings_figure

        curves = [(plot_name(name), p.series.curve()) for name, p in shown if p.series]
        figure = winnings_figure(curves)
        if plot_path is not None:
            save(figure, plot_path)
        if html_path is not None:
            read = ", ".join(files[:5]) + (", ..." if len(files) > 5 else "")
            page = html_page(
                stats,
                title="Hand statistics",
                players=players,
                detailed=shown,
                plots=[("Winnings over the hands (big blinds)", svg_text(figure))],
                notes=[f"{len(files):,} file{'s' * (len(files) != 1)}: {read}"],
            )
            with open(html_path, "w", encoding="utf-8") as out:
                out.write(page)
    if as_json:
        record = {
            "hands": stats.hands,
            "left_out": stats.left_out,
            "unknown_all_ins": stats.unknown_all_ins,
            "problems": [p.to_dict() for p in stats.problems],
            "unreadable": unreadable,
            "players": [player_record(name, p) for name, p in players],
        }
        click.echo(json.dumps(record))
    elif as_csv:
        _write_csv(players)
    else:
        _print_text(stats, players, bool(names))
    for line in unreadable:
        click.echo(f"holdem stats: error: {line}", err=True)
    if missing or unreadable:
        sys.exit(EXIT_UNUSABLE)


def _write_csv(players: list[tuple[str, PlayerStats]]) -> None:
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["player", "position", *FIGURES])
    for name, player in players:
        rows = [("all", player.total())]
        rows += [(pos, player.positions[pos]) for pos in POSITIONS if pos in player.positions]
        for position, counts in rows:
            figures = counts.figures()
            out.writerow([name, position, *("" if v is None else v for v in figures.values())])


def _print_text(stats: Stats, players: list[tuple[str, PlayerStats]], by_position: bool) -> None:
    counted = stats.hands - stats.left_out
    line = f"{counted:,} hand{'s' * (counted != 1)}"
    if stats.left_out:
        first = stats.problems[0] if stats.problems else None
        line += (
            f"; {stats.left_out:,} left out: they cannot be replayed (holdem "
            f"validate names the problems{f'; the first: {first}' if first else ''})"
        )
    click.echo(line)
    width = max([6, *(len(name) for name, _ in players)])
    _print_table("player", width, [(name, p.total()) for name, p in players])
    if by_position:
        for name, player in players:
            click.echo()
            click.echo(f"{name} by position")
            rows = [(pos, player.positions[pos]) for pos in POSITIONS if pos in player.positions]
            _print_table("position", max(8, width), rows)
    if stats.unknown_all_ins:
        click.echo(
            f"{stats.unknown_all_ins:,} all-in hand{'s' * (stats.unknown_all_ins != 1)} not "
            "adjusted: a player's cards are not in the file"
        )


def _print_table(first: str, width: int, rows: list[tuple[str, Counts]]) -> None:
    widths = {"count": 7, "money": 12, "bb": 9, "width": 9, "share": 6, "factor": 5}
    head = " ".join(f"{h:>{widths[kind]}}" for _, h, kind in COLUMNS)
    click.echo(f"{first:<{width}} {head}")
    kinds = [kind for _, _, kind in COLUMNS]
    for name, shown in table_cells(rows):
        cells = " ".join(f"{text:>{widths[kind]}}" for text, kind in zip(shown, kinds, strict=True))
        click.echo(f"{name:<{width}} {cells}")
