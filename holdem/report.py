"""Players' statistics as text: the rows of a table, CSV and JSON records, and
one self-contained HTML page (``holdem stats --html``).

The page has no reference outside itself (no script, no style sheet, no
font, no image to fetch): its style is inline and its plots are SVG in the
page.  Every name and text from the files is escaped: a player named
``<script>`` is text.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from .stats import FIGURES, POSITIONS, Counts, PlayerStats, Stats

__all__ = ["COLUMNS", "cell", "html_page", "player_record", "plot_name", "ranked"]

#: The columns of the tables (text, HTML, CSV's order is :data:`holdem.stats.FIGURES`'s):
#: (figure, heading, what kind of number).
COLUMNS = (
    ("hands", "hands", "count"),
    ("net", "net", "money"),
    ("net_bb", "net bb", "bb"),
    ("bb_per_100", "bb/100", "bb"),
    ("ci95", "±95%", "width"),
    ("vpip", "VPIP", "share"),
    ("pfr", "PFR", "share"),
    ("three_bet", "3B", "share"),
    ("fold_to_three_bet", "F3B", "share"),
    ("cbet", "CB", "share"),
    ("fold_to_cbet", "FCB", "share"),
    ("aggression", "AF", "factor"),
    ("aggression_frequency", "AFq", "share"),
    ("wtsd", "WTSD", "share"),
    ("wsd", "W$SD", "share"),
    ("all_in_adjusted_bb_per_100", "EV bb/100", "bb"),
)


def table_cells(rows: Sequence[tuple[str, Counts]]) -> list[tuple[str, list[str]]]:
    """Each row's figures as a table shows them (:data:`COLUMNS`' order), the
    money of every row with the same decimals (:func:`money`)."""
    figures = [(name, counts.figures()) for name, counts in rows]
    places = max((_places(f[k]) for _, f in figures for k, _, kind in COLUMNS
                  if kind == "money" and f[k] is not None), default=0)  # fmt: skip
    return [(name, [cell(f[k], kind, places) for k, _, kind in COLUMNS])
            for name, f in figures]  # fmt: skip


def cell(value: Any, kind: str, places: int = 0) -> str:
    """A figure as a table shows it: ``-`` for a ratio of nothing; money with
    at least ``places`` decimals (:func:`money`)."""
    if value is None:
        return "-"
    if kind == "count":
        return f"{value:,}"
    if kind == "share":
        return f"{100 * value:.1f}%"
    if kind == "factor":
        return f"{value:.2f}"
    if kind == "width":
        return f"±{value:,.1f}"
    if kind == "money":
        return money(value, places)
    return f"{value:+,.1f}" if kind == "bb" else str(value)


def money(value: Decimal, places: int = 0) -> str:
    """An amount won or lost as a table shows it: signed, with the decimals it
    needs and at least ``places`` (a table gives its column's), whole amounts
    without, others with at least two, whatever the exponent the file's
    arithmetic left (``15.0`` of a chip of 0.5).

    >>> [money(Decimal(v)) for v in ("15.0", "-4.5", "1.35", "0.125", "-70864.0")]
    ['+15', '-4.50', '+1.35', '+0.125', '-70,864']
    >>> money(Decimal("-1.00"), 2)
    '-1.00'
    """
    return f"{value:+,.{max(places, _places(value))}f}"


def _places(value: Decimal) -> int:
    """The decimals :func:`money` gives an amount on its own."""
    if value == value.to_integral_value():
        return 0
    exponent = value.normalize().as_tuple().exponent
    return max(2, -exponent if isinstance(exponent, int) else 2)


def ranked(stats: Stats, names: Sequence[str] = ()) -> list[tuple[str, PlayerStats]]:
    """The players named (in that order), or all of them, most hands first."""
    if names:
        return [(name, stats.players[name]) for name in names]
    return sorted(stats.players.items(), key=lambda item: (-item[1].hands, item[0]))


def player_record(name: str, player: PlayerStats) -> dict[str, Any]:
    """A player's figures, their counts and each position's, for JSON."""

    def figures(counts: Counts) -> dict[str, Any]:
        out = {key: _plain(value) for key, value in counts.figures().items()}
        out["counts"] = {key: list(pair) for key, pair in counts.chances().items()}
        return out

    positions = {
        position: figures(player.positions[position])
        for position in POSITIONS
        if position in player.positions
    }
    return {"player": name, **figures(player.total()), "positions": positions}


def _plain(value: Any) -> Any:
    """A figure for JSON: money as a number, an infinite or missing ratio None."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def plot_name(name: str) -> str:
    """A player's name for a plot's text: matplotlib reads ``$...$`` as
    mathematics, so a dollar sign is written as one."""
    return name.replace("\\", "\\\\").replace("$", r"\$")


_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f3f3f3; }
figure { margin: 1em 0; }
figure svg { max-width: 100%; height: auto; }
dt { font-weight: bold; margin-top: 0.5em; }
.note { color: #555; }
"""


def html_page(
    stats: Stats,
    *,
    title: str,
    players: Sequence[tuple[str, PlayerStats]],
    detailed: Sequence[tuple[str, PlayerStats]] = (),
    plots: Sequence[tuple[str, str]] = (),
    notes: Sequence[str] = (),
) -> str:
    """One HTML page: the table of ``players``, the ``plots`` (each a heading
    and an SVG of :func:`holdem.plots.svg_text`), the figures by position of
    the ``detailed`` players, and what each figure means."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        f'<p class="note">{stats.hands:,} hands read; {stats.left_out:,} left out '
        "(they cannot be replayed: <code>holdem validate</code> names the "
        "problems). Amounts in big blinds are each hand's own.</p>",
        *(f'<p class="note">{e(note)}</p>' for note in notes),
        "<h2>Players</h2>",
        _table("player", [(name, p.total()) for name, p in players]),
    ]
    for heading, svg in plots:
        parts.append(f"<h2>{e(heading)}</h2><figure>{svg}</figure>")
    for name, player in detailed:
        rows = [(pos, player.positions[pos]) for pos in POSITIONS if pos in player.positions]
        parts.append(f"<h2>{e(name)} by position</h2>")
        parts.append(_table("position", rows))
    parts.append("<h2>What the figures are</h2><dl>")
    for key, heading, _ in COLUMNS:
        parts.append(f"<dt>{e(heading)}</dt><dd>{e(FIGURES[key])}</dd>")
    parts.append("</dl></body></html>")
    return "\n".join(parts) + "\n"


def _table(first: str, rows: Sequence[tuple[str, Counts]]) -> str:
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for _, h, _ in COLUMNS)
    lines = [f"<table><tr><th>{e(first)}</th>{head}</tr>"]
    for name, shown in table_cells(rows):
        cells = "".join(f"<td>{e(text)}</td>" for text in shown)
        lines.append(f"<tr><td>{e(name)}</td>{cells}</tr>")
    lines.append("</table>")
    return "\n".join(lines)
