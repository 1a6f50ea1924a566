"""The full screen's parts, each drawn from the :class:`TableModel`: the seats
around the table, the felt (board, pots, the hands shown), the player's
cards, the review of the last hands with the session's statistics."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from holdem import Card, describe, evaluate
from holdem.units import chips_text, signed_text

from ..model import SeatState, TableModel
from ..telling import Teller, ante_name

__all__ = ["Felt", "Hole", "Review", "SeatBox", "cards_text"]


def cards_text(teller: Teller, cards: Sequence[Card]) -> Text:
    """Cards as the Teller writes them (its suits and colours), for a widget."""
    return Text.from_ansi(teller.cards(cards)) if cards else Text("")


class SeatBox(Static):
    """One seat: name, stack, bet, the button and blinds, what it did last."""

    def draw(self, info: SeatState | None, model: TableModel, teller: Teller) -> None:
        self.set_classes("seat")
        if info is None:
            self.update(Text("empty seat", style="dim"))
            self.add_class("empty")
            return
        marks = [m for m, s in (("D", model.button), ("SB", model.small_blind_seat),
                                ("BB", model.big_blind_seat)) if s == info.seat]  # fmt: skip
        text = Text()
        name = "You" if info.seat == model.me else info.name
        text.append(name, style="bold")
        if info.label:
            text.append(f" ({info.label})", style="dim")
        if marks:
            text.append(f" {' '.join(marks)}", style="bold yellow")
        if info.stack or model.hand:
            text.append(f"\n{chips_text(info.stack, model.unit)}")
        else:  # (a room's lobby: no chips before the start)
            text.append("\nwaiting for the start", style="dim")
        if info.bet:
            text.append(f"  bet {chips_text(info.bet, model.unit)}", style="cyan")
        state = {"folded": "folded", "all_in": "ALL IN", "mucked": "mucked",
                 "protected": "timed out"}.get(info.status, info.last)  # fmt: skip
        if info.presence:
            state = {"away": "sitting out", "disconnected": "disconnected",
                     "out": "out"}.get(info.presence, info.presence)  # fmt: skip
        text.append(f"\n{state}", style="italic")
        if info.cards and (info.seat != model.me or info.status == "mucked"):
            text.append("\n")
            text.append_text(cards_text(teller, info.cards))
        self.update(text)
        if model.actor == info.seat and model.playing:
            self.add_class("turn")
        if info.seat == model.me:
            self.add_class("me")
        if info.status in ("folded", "mucked", "waiting") or info.presence:
            self.add_class("out")


class Felt(Static):
    """The middle of the table: the hand, the board, every pot, and at a
    showdown each hand shown with its best five and the kicker that decided."""

    def draw(self, model: TableModel, teller: Teller, waiting: str = "") -> None:
        """``waiting``: what it says before the first hand (a room's join code)."""
        text = Text()
        small, big, ante = model.blinds
        if model.hand:
            blinds = f"{chips_text(small, model.unit)}/{chips_text(big, model.unit)}"
            text.append(f"Hand #{model.hand} · blinds {blinds}", style="bold")
            if ante:
                text.append(f" {ante_name(model.big_blind_ante)} {chips_text(ante, model.unit)}")
            text.append("\n\n")
        else:
            text.append("Waiting for the next hand\n\n", style="dim")
            if waiting:
                text.append(f"{waiting}\n\n", style="bold")
        text.append("Board  ")
        text.append_text(cards_text(teller, model.board) if model.board else Text("—"))
        if model.second_board:  # (run twice, R10: both boards drawn)
            text.append("\nSecond run  ")
            text.append_text(cards_text(teller, model.second_board))
        text.append("\n")
        pots = model.pots
        for i, (chips, _) in enumerate(pots):
            name = "Pot" if len(pots) == 1 else "Main pot" if i == 0 else f"Side pot {i}"
            text.append(f"{name} {chips_text(chips, model.unit)}   ", style="bold green")
        if model.pot and len(pots) <= 1 and model.pot != sum(c for c, _ in pots):
            text.append(f"Pot {chips_text(model.pot, model.unit)}", style="bold green")
        for shown in model.shown:
            run = (" (first run)", " (second run)")[shown.run] if model.second_board else ""
            text.append(f"\n{'You' if shown.seat == model.me else shown.name}{run}: ")
            text.append_text(cards_text(teller, shown.best))
            text.append(f"  {shown.description}")
            if shown.kicker:
                text.append(f", {shown.kicker} kicker decided", style="yellow")
            if shown.won:
                text.append(f"  wins {chips_text(shown.won, model.unit)}", style="bold green")
        self.update(text)


class Hole(Static):
    """The player's own cards, and what they make with the board."""

    def draw(self, model: TableModel, teller: Teller) -> None:
        if model.me is None:
            self.update(Text("Watching (a spectator sees no hole cards)", style="dim"))
            return
        if not model.hole:
            self.update(Text("Your cards: —", style="dim"))
            return
        text = Text("Your cards  ", style="bold")
        text.append_text(cards_text(teller, model.hole))
        if len(model.board) >= 3:
            text.append(f"   {describe(evaluate([*model.hole, *model.board]))}")
        if len(model.second_board) >= 3:
            text.append(f" · second run: {describe(evaluate([*model.hole, *model.second_board]))}")
        self.update(text)


class Review(Static):
    """The last hands (your cards, the board, who won what) and the session's
    statistics (hands, net, showdowns won, VPIP and PFR)."""

    def draw(self, model: TableModel, teller: Teller) -> None:
        stats = model.stats
        text = Text("Session", style="bold")
        if model.me is not None:
            vpip, pfr = stats.percent(stats.vpip), stats.percent(stats.pfr)
            net = signed_text(stats.net, model.unit)
            text.append(f"\nhands {stats.hands}  net {net}\n")
            text.append(f"won at showdown {stats.showdowns_won}\nVPIP {vpip}  PFR {pfr}")
        text.append("\n\nLast hands", style="bold")
        for review in model.reviews:
            text.append(f"\n#{review.hand} ")
            if review.cards:
                text.append_text(cards_text(teller, review.cards))
                text.append(" ")
            for board in (review.board, review.second_board):  # (the second: run twice)
                if board:
                    text.append("[")
                    text.append_text(cards_text(teller, board))
                    text.append("] ")
            me = model.name(model.me)
            won = ", ".join(f"{'You' if n == me else n} {chips_text(c, model.unit)}"
                            for n, c in review.won)  # fmt: skip
            text.append(f"{won}")
            if review.net:
                style = "green" if review.net > 0 else "red"
                text.append(f" ({signed_text(review.net, model.unit)})", style=style)
        self.update(text)
