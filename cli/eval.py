"""``holdem eval``: the value of one hand, or a showdown on a board."""

from __future__ import annotations

import json
from typing import Any

import click

from holdem.cards import Card, format_card, parse_cards
from holdem.errors import InvalidCardError, quote
from holdem.evaluator import HandValue, best_five, category, describe, evaluate


def _hand_record(cards: list[Card]) -> dict[str, Any]:
    value = evaluate(cards)
    return {
        "cards": [format_card(c) for c in cards],
        "hand": describe(value),
        "hand_with_kickers": describe(value, kickers=True),
        "category": category(value).name.lower(),
        "category_rank": int(category(value)),
        "best_five": [format_card(c) for c in best_five(cards)],
        "value": value,
    }


def _single(words: tuple[str, ...], as_json: bool) -> None:
    cards = parse_cards(list(words))
    if not 5 <= len(cards) <= 7:
        raise InvalidCardError(
            f"a hand has 5 to 7 cards, got {len(cards)}"
            + (" (to compare players' hole cards, give the board with --board)" * (len(cards) < 5))
        )
    record = _hand_record(cards)
    if as_json:
        click.echo(json.dumps(record))
        return
    width = 10
    click.echo(f"{'cards':<{width}}{' '.join(record['cards'])}")
    click.echo(f"{'hand':<{width}}{record['hand_with_kickers']}")
    click.echo(f"{'best five':<{width}}{' '.join(record['best_five'])}")
    label = category(record["value"]).label
    click.echo(f"{'category':<{width}}{label} ({record['category_rank']} of 9)")
    click.echo(f"{'value':<{width}}{record['value']}")


def _showdown(board_text: str, words: tuple[str, ...], as_json: bool) -> None:
    board = parse_cards(board_text)
    if len(board) > 5:
        raise InvalidCardError(f"the board has at most 5 cards, got {len(board)}")
    players = []
    for number, word in enumerate(words, 1):
        try:
            hole = parse_cards(word)
        except InvalidCardError as exc:
            raise InvalidCardError(f"player {number}: {exc}", token=exc.token) from None
        shown = "".join(map(format_card, hole[:20])) + "..." * (len(hole) > 20)
        if len(hole) != 2:
            raise InvalidCardError(
                f"player {number} ({shown or quote(word)}) has {len(hole)} hole cards: "
                "with --board, each player has exactly 2"
            )
        if len(board) < 3:
            raise InvalidCardError(
                f"player {number} ({shown}) has 2 cards and the board {len(board)}: "
                "a hand needs 5 to 7 cards in all (give 3 to 5 with --board)"
            )
        players.append(hole)
    _check_no_shared_cards(board, players)
    records = []
    for number, hole in enumerate(players, 1):
        record = _hand_record(board + hole)
        record["player"] = number
        record["hole"] = [format_card(c) for c in hole]
        records.append(record)
    values: list[HandValue] = sorted({r["value"] for r in records}, reverse=True)
    best = values[0]
    winners = [r["player"] for r in records if r["value"] == best]
    for r in records:
        r["place"] = values.index(r["value"]) + 1
        r["winner"] = r["value"] == best
    records.sort(key=lambda r: (r["place"], r["player"]))
    if as_json:
        result = {
            "board": [format_card(c) for c in board],
            "players": records,
            "winners": winners,
            "split": len(winners) > 1,
        }
        click.echo(json.dumps(result))
        return
    click.echo(f"board  {' '.join(format_card(c) for c in board) or '(none)'}")
    click.echo()
    hole_width = max(4, *(len(" ".join(r["hole"])) for r in records))
    click.echo(f"place  player  {'hole':<{hole_width}}  best five       hand")
    for r in records:
        mark = ""
        if r["winner"]:
            mark = "  wins" if len(winners) == 1 else f"  splits {len(winners)} ways"
        click.echo(
            f"{r['place']:>5}  {r['player']:>6}  {' '.join(r['hole']):<{hole_width}}  "
            f"{' '.join(r['best_five']):<14}  {r['hand_with_kickers']}{mark}"
        )


def _check_no_shared_cards(board: list[Card], players: list[list[Card]]) -> None:
    owner: dict[Card, str] = {c: "the board" for c in board}
    for number, hole in enumerate(players, 1):
        for c in hole:
            if c in owner:
                raise InvalidCardError(
                    f"duplicate card {format_card(c)} ({owner[c]} and player {number})",
                    token=format_card(c),
                )
            owner[c] = f"player {number}"


@click.command(
    "eval",
    epilog="""\b
Examples:
  holdem eval AsKs QhJhTh9h2c             one hand of 5 to 7 cards
  holdem eval As Ks Qh Jh Th 9h 2c        the same, one card per word
  holdem eval --board QhJhTh AsKs 9h8h 2c2d
                                          three players on a flop: who wins
  holdem eval --board 5h6h7hKc2d 8h9h 8c9c --json
                                          the result as JSON for scripts
""",
)
@click.argument("cards", nargs=-1, required=True)
@click.option("--board", "-b", metavar="CARDS", help="Community cards (3 to 5); then each "
              "CARDS argument is one player's two hole cards.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def eval_command(cards: tuple[str, ...], board: str | None, as_json: bool) -> None:
    """Evaluate a poker hand, or rank several players' hands on a board.

    Without --board, all CARDS together form one hand of 5 to 7 cards: its
    category, a description, the best five cards and its value (a number,
    higher is better, equal values tie).

    With --board, each CARDS argument is one player's two hole cards: every
    player's best hand is shown, ranked, with the winner (or the split) marked.
    """
    if board is None:
        _single(cards, as_json)
    else:
        _showdown(board, cards, as_json)
