"""Plots of players' winnings and of simulations (``pip install 'holdem-toolkit[plots]'``).

matplotlib is imported by the functions that draw, never with this module,
and without a window or global state (a ``Figure`` and its Agg canvas):
``holdem stats --plot``, ``holdem stats --html`` and ``holdem simulate
--plot`` are the only commands that load it.  A file's suffix says its
format (:data:`FORMATS`); a missing matplotlib is a :class:`PlotError` that
names the extra to install.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from typing import Any

from .errors import HoldemError

__all__ = [
    "DPI",
    "FORMATS",
    "PANEL_HEIGHT",
    "WIDTH",
    "PlotError",
    "check_plot_path",
    "save",
    "simulation_figure",
    "svg_text",
    "winnings_figure",
]

#: The formats a plot is written in, by the file's suffix.
FORMATS = {".png": "png", ".svg": "svg"}
#: A plot's width in pixels (of a PNG; an SVG's in points), and the height of
#: one player's panel of the winnings (a simulation's plot is one panel);
#: the pixels an inch.
WIDTH, PANEL_HEIGHT, DPI = 1000, 400, 100


class PlotError(HoldemError):
    """A plot cannot be drawn: matplotlib is missing, or the file's suffix
    names no format of :data:`FORMATS`."""


def check_plot_path(path: str | os.PathLike[str], what: str = "--plot") -> str:
    """The format of a plot file by its suffix, and whether matplotlib is
    there (both checked before the work the plot shows is done)."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    fmt = FORMATS.get(suffix)
    if fmt is None:
        raise PlotError(
            f"{what} {os.fspath(path)}: a plot is written as PNG or SVG, by the file's "
            f"suffix (.png, .svg), not {suffix or 'a name without one'}"
        )
    _matplotlib()
    return fmt


def _matplotlib() -> Any:
    """matplotlib's Figure class (PlotError when it is not installed)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError(
            "plots need matplotlib, which is not installed: pip install 'holdem-toolkit[plots]'"
        ) from None
    return Figure


#: A point of a player's winnings: the hands so far, then the actual, all-in
#: adjusted, showdown and non-showdown winnings, in big blinds
#: (:meth:`holdem.stats.Series.curve`).
WinningsPoint = tuple[int, float, float, float, float]

_LINES = (
    (1, "winnings", "tab:green", "-"),
    (2, "all-in adjusted", "tab:orange", "--"),
    (3, "showdown", "tab:blue", "-"),
    (4, "non-showdown", "tab:red", "-"),
)


def winnings_figure(players: Sequence[tuple[str, Sequence[WinningsPoint]]]) -> Any:
    """A figure of each player's winnings over their hands: a panel a player
    (:data:`WIDTH` by :data:`PANEL_HEIGHT` pixels each), four lines a panel."""
    Figure = _matplotlib()
    count = max(1, len(players))
    figure = Figure(figsize=(WIDTH / DPI, count * PANEL_HEIGHT / DPI), dpi=DPI)
    axes = figure.subplots(count, 1, squeeze=False)[:, 0]
    for ax, (name, points) in zip(axes, players, strict=False):
        hands = [p[0] for p in points]
        for k, label, colour, style in _LINES:
            ax.plot(hands, [p[k] for p in points], style, color=colour, label=label, linewidth=1.4)
        ax.axhline(0, color="0.6", linewidth=0.8)
        last = points[-1][0] if points else 0
        ax.set_title(f"{name}: {last:,} hands", loc="left", fontsize=11)
        ax.set_xlabel("hands")
        ax.set_ylabel("big blinds won")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best", fontsize=9)
    figure.tight_layout()
    return figure


#: A point of a seat's results as the deals go: the hands so far, bb/100 and
#: the half-width of its 95% interval (:attr:`holdem.simulation.SeatResult.curve`).
SimulationPoint = tuple[int, float, float]


def simulation_figure(seats: Sequence[tuple[str, Sequence[SimulationPoint]]]) -> Any:
    """A figure of each seat's bb/100 as the hands go, with its 95% band
    (:data:`WIDTH` by :data:`PANEL_HEIGHT` pixels)."""
    Figure = _matplotlib()
    figure = Figure(figsize=(WIDTH / DPI, PANEL_HEIGHT / DPI), dpi=DPI)
    ax = figure.subplots()
    for name, points in seats:
        hands = [p[0] for p in points]
        rate = [p[1] for p in points]
        (line,) = ax.plot(hands, rate, label=name, linewidth=1.4)
        ax.fill_between(
            hands,
            [r - w for r, w in zip(rate, (p[2] for p in points), strict=True)],
            [r + w for r, w in zip(rate, (p[2] for p in points), strict=True)],
            color=line.get_color(),
            alpha=0.15,
            linewidth=0,
        )
    ax.axhline(0, color="0.6", linewidth=0.8)
    ax.set_xlabel("hands")
    ax.set_ylabel("bb/100 (95% band)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right", fontsize=9)
    figure.tight_layout()
    return figure


def save(figure: Any, path: str | os.PathLike[str]) -> None:
    """Writes a figure to a file, PNG or SVG by its suffix."""
    fmt = check_plot_path(path)
    with open(path, "wb") as out:
        figure.savefig(out, format=fmt, dpi=DPI)


def svg_text(figure: Any) -> str:
    """A figure as SVG text (for a page: no file, no reference outside it)."""
    out = io.StringIO()
    # (no metadata: its addresses of matplotlib and of the RDF vocabularies are not wanted)
    none = {"Creator": None, "Date": None, "Format": None, "Type": None}
    figure.savefig(out, format="svg", metadata=none)
    text = out.getvalue()
    return text[text.find("<svg") :]  # (the XML declaration and doctype left out)
