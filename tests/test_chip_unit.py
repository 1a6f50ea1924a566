"""Fractional stakes by a declared chip unit (RULES.md R9): a 5/10 fixed-limit
game with a 2.5 small blind has a chip of 0.5.  Every amount inside is whole
chips; the unit is declared by the hand's and the table's configuration, by
``holdem play --chip``, by the protocol's ``create_table``, and both history
formats write and read the decimal amounts."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from holdem import Decision, PlayerView
from holdem.cli.main import main
from holdem.clients import Refused, read_command
from holdem.config import HandConfig, Structure
from holdem.errors import ConfigError
from holdem.hand import Hand
from holdem.histories import (
    HandHistory,
    read_phh,
    read_phh_text,
    read_pokerstars_text,
    record,
    to_pokerstars,
    validate,
    write_phh,
)
from holdem.protocol import Engine, encode
from holdem.table import CashGame, Table
from holdem.units import check_unit, chips_text, signed_text, to_chips

HALF = Decimal("0.5")


def caller(view: PlayerView, legal: object) -> Decision:
    return Decision.check() if legal.check else Decision.call()  # type: ignore[attr-defined]


def test_r9_amounts_cross_between_money_and_whole_chips() -> None:
    assert [to_chips(x, HALF) for x in ("2.5", 5, Decimal("7.5"), 2.5, "1,000")] == [
        5, 10, 15, 5, 2000,
    ]  # fmt: skip
    with pytest.raises(ConfigError, match=r"2\.3 is not a whole number of chips of 0\.5"):
        to_chips("2.3", HALF)
    with pytest.raises(ConfigError, match="is not an amount"):
        to_chips("two", HALF)
    assert [chips_text(n, HALF) for n in (5, 10, 2001)] == ["2.5", "5", "1,000.5"]
    assert chips_text(1200) == "1,200" and chips_text(250, Decimal("0.01")) == "2.50"
    assert [signed_text(n, HALF) for n in (5, -5, 0)] == ["+2.5", "-2.5", "+0"]
    assert check_unit("0.5") == HALF and check_unit(0.25) == Decimal("0.25")
    for bad in ("0", "-1", "x", "0.0000001", True):
        with pytest.raises(ConfigError, match="unit"):
            check_unit(bad)


def test_r9_a_hand_at_a_chip_of_half_plays_in_whole_chips() -> None:
    # fixed limit 5/10 with a 2.5 small blind: 5 and 10 chips of 0.5
    config = HandConfig((200, 200, 200), 2, 5, 10, Structure.FIXED_LIMIT, unit=HALF)
    bets = (config.small_blind, config.big_blind, config.small_bet, config.big_bet)
    assert bets == (5, 10, 10, 20)
    hand = Hand(config, rng=3)
    assert hand.current_bet == 10 and sum(hand.stacks) + hand.pot == 600
    wire = config.to_dict()
    assert wire["unit"] == "0.5" and HandConfig.from_dict(wire) == config
    assert "unit" not in HandConfig((200, 200), 0, 1, 2).to_dict()  # (1: the wire as it was)
    with pytest.raises(ConfigError, match="unit"):
        HandConfig((200, 200), 0, 1, 2, unit=Decimal(0))


def test_r9_a_table_with_a_chip_unit_writes_both_history_formats_in_its_money() -> None:
    table = Table(seats=3, small_blind=5, big_blind=10, structure="fixed_limit", rng=2,
                  unit="0.5")  # fmt: skip
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        table.sit(seat, name, 200)
    result = table.play_hand(caller)
    assert result.played.config.unit == HALF
    again = Table.from_snapshot(table.snapshot(), rng=1)
    assert again.unit == HALF and table.snapshot()["unit"] == "0.5"
    history = record(result.played)
    # a history counts in tenths: a chip of 0.5 is 5 of them
    assert (history.unit, history.chip) == (Decimal("0.1"), 5)
    assert history.blinds.blinds == (25, 50, 0) and validate(history) == []
    out = io.StringIO()
    write_phh([history], out, many=False)
    assert "blinds_or_straddles = [2.5, 5, 0]" in out.getvalue()
    assert "starting_stacks = [100, 100, 100]" in out.getvalue()
    [back] = read_phh_text(out.getvalue())
    assert isinstance(back, HandHistory) and validate(back) == []
    text = to_pokerstars(history)
    assert "Hold'em Limit (5/10)" in text.splitlines()[0]  # (a limit header: the bets)
    assert "posts small blind 2.50" in text
    [stars] = read_pokerstars_text(text)
    assert isinstance(stars, HandHistory) and validate(stars) == []
    game = CashGame(3, small_blind=5, big_blind=10, unit="0.5")
    assert game.table.unit == HALF


def test_r9_a_phh_file_with_2_5_blinds_reads_in_tenths() -> None:
    text = """variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [2.5, 5, 0]
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'd dh p3 7c2d', 'p3 f', 'p1 cc', 'p2 cbr 10', 'p1 cc',
           'd db 2c3c4h', 'p1 cc', 'p2 cc', 'd db 9s', 'p1 cbr 10', 'p2 f']
finishing_stacks = [110, 90, 100]
"""
    [hand] = read_phh_text(text)
    assert isinstance(hand, HandHistory)
    assert (hand.unit, hand.blinds.blinds) == (Decimal("0.1"), (25, 50, 0))
    assert hand.blinds.small_bet == 50
    assert validate(hand) == []
    assert "posts small blind 2.50" in to_pokerstars(hand)


def test_r9_holdem_play_takes_decimal_blinds_with_a_declared_chip(tmp_path: Path) -> None:
    args = ["play", "--game", "cash", "--structure", "fixed_limit", "--blinds", "2.5/5",
            "--chip", "0.5", "--seats", "3", "--seed", "3", "--speed", "0",
            "--histories", str(tmp_path / "hands")]  # fmt: skip
    done = CliRunner().invoke(main, args, input="c\n" * 40 + "q\n")
    assert done.exit_code == 0, done.output
    out = done.output
    assert "a cash game at 2.5/5 (a chip is 0.5)" in out
    assert "── Hand #1 · blinds 2.5/5 ──" in out and "posts the small blind 2.5" in out
    assert "c call 5 · r raise to 10" in out
    [path] = sorted((tmp_path / "hands").glob("*.phhs"))
    hands = [h for h in read_phh(path) if isinstance(h, HandHistory)]
    assert hands and all(validate(h) == [] for h in hands)
    assert "blinds_or_straddles = [2.5, 5, 0]" in path.read_text(encoding="utf-8")
    # refusals name the option and the real limit
    bad = CliRunner().invoke(main, ["play", "--game", "cash", "--blinds", "2.5/5"])
    assert bad.exit_code == 2
    assert "2.5 is not a whole number of chips of 1: declare the chip, e.g. --chip" in bad.output
    bad = CliRunner().invoke(main, ["play", "--chip", "0.5"])
    assert bad.exit_code == 2 and "--chip is for cash games" in bad.output
    bad = CliRunner().invoke(main, ["play", "--game", "cash", "--blinds", "2.3/5", "--chip", "0.5"])
    assert bad.exit_code == 2 and "2.3 is not a whole number of chips of 0.5" in bad.output


def test_r9_a_player_types_amounts_in_the_tables_money() -> None:
    hand = Hand(HandConfig((200, 200), 0, 1, 2, unit=HALF), rng=1)
    view = hand.view(hand.actor)
    legal = hand.legal_actions()
    assert legal is not None
    decision = read_command("r 7.5", legal, view.pot, view.bets[0], view)
    assert decision == Decision.raise_to(15)
    refused = read_command("r 7.3", legal, view.pot, view.bets[0], view)
    assert isinstance(refused, Refused) and "a whole number of 0.5s" in refused.reason
    refused = read_command("r 0.5", legal, view.pot, view.bets[0], view)
    assert isinstance(refused, Refused) and "goes to 2 at least (you typed 0.5)" in refused.reason


def test_r9_the_protocol_creates_a_table_with_a_chip_unit() -> None:
    engine = Engine()
    client = engine.connect()

    def ask(request: dict[str, object]) -> dict[str, object]:
        [(_, reply), *_] = engine.handle(client, encode(request))
        return reply

    ask({"type": "hello", "version": 1})
    made = ask({"type": "create_table", "id": 1, "game": "cash", "small_blind": 5,
                "big_blind": 10, "unit": "0.5", "seed": 1})  # fmt: skip
    result = made["result"]
    assert isinstance(result, dict) and result["unit"] == "0.5"
    assert result["blinds"]["small_blind"] == 5  # (amounts stay whole chips)
    assert engine.tables["t1"].table.unit == HALF
    for bad, field in (("0", "unit"), (0.5, "unit")):
        refused = ask({"type": "create_table", "id": 2, "game": "cash", "small_blind": 5,
                       "big_blind": 10, "unit": bad})  # fmt: skip
        error = refused["error"]
        assert isinstance(error, dict) and error["field"] == field, refused


def test_r9_a_table_at_a_chip_of_half_keeps_it_beside_a_table_of_the_same_chips_at_one() -> None:
    """Tables of a process share the plans of their hands: a table whose
    blinds are the same chips as another's, at another chip unit, still deals
    hands of its own unit (it dealt the other table's configuration, a chip
    of 1, and its histories were written in chips)."""
    for unit in ("1", "0.5"):
        table = Table(2, small_blind=5, big_blind=10, rng=1, unit=unit)
        table.sit(0, "Ann", 1000)
        table.sit(1, "Ben", 1000)
        hand = table.start_hand()
        assert hand.config.unit == Decimal(unit)
        while not hand.done:
            hand.act(Decision.fold())
        table.finish_hand()
        again = table.start_hand()  # (the table's next hand: its own plans' configuration)
        assert again.config.unit == Decimal(unit)
