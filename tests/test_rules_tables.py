"""RULES.md at tables, hand after hand (issue 31): the fixed-limit cap of a
tournament, a cash game and a room that states no heads-up exception, at a
table and in ``holdem engine``'s tables (R8)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from holdem import Decision, LegalActions, PlayerView
from holdem.actions import ActionKind, Street
from holdem.cli.main import main
from holdem.config import HeadsUpCap
from holdem.errors import ConfigError
from holdem.histories import BET_RAISE, DEAL_BOARD, read_hands
from holdem.protocol.engine import Engine
from holdem.table import CashGame, HandResult, Table, Tournament

_WAGERS = (ActionKind.BET, ActionKind.RAISE)


def raiser(view: PlayerView, legal: LegalActions) -> Decision:
    """Bets or raises whenever it may, else calls: a heads-up war of raises."""
    if legal.wager is not None and legal.min_to is not None:
        return Decision(legal.wager, legal.min_to)
    return Decision.check() if legal.check else Decision.call()


def most_raises(result: HandResult) -> int:
    """The most bets and raises of one betting round of a hand (preflop the
    big blind counts as the bet, as the cap counts it)."""
    counts = {street: 0 for street in Street}
    for action in result.played.log:
        if action.kind in _WAGERS:
            counts[action.street] += 1
    counts[Street.PREFLOP] += 1  # (the big blind)
    return max(counts.values())


def test_r08_heads_up_tournament_keeps_the_cap() -> None:
    """R8: in tournaments the cap (a bet and three raises) applies heads-up
    too; before, a fixed-limit freezeout of two raised without end."""
    game = Tournament(["Ann", "Bob"], stack=100_000, structure="fixed_limit", rng=3)
    for _ in range(3):
        result = game.play_hand(raiser)
        assert most_raises(result) == 4  # a bet and three raises, each round
        assert result.played.config.heads_up_cap is HeadsUpCap.NEVER


def test_r08_a_tournament_of_the_wsop_caps_at_a_bet_and_four_raises() -> None:
    game = Tournament(["Ann", "Bob", "Cid"], stack=100_000, structure="fixed_limit",
                      raise_cap=4, rng=3)  # fmt: skip
    assert most_raises(game.play_hand(raiser)) == 5


def test_r08_heads_up_cash_follows_its_policy_and_a_room_may_cap_always() -> None:
    """R8: a cash game lifts the cap once two are left (the default, Robert's
    Rules); a table whose room states no heads-up exception caps always."""

    def cash(**options: object) -> CashGame:
        game = CashGame(2, small_blind=5, big_blind=10, structure="fixed_limit",
                        max_buy_in=100_000, rng=5, **options)  # type: ignore[arg-type]  # fmt: skip
        game.join(0, "Ann", 100_000)
        game.join(1, "Bob", 100_000)
        return game

    uncapped = cash().play_hand(raiser)
    assert most_raises(uncapped) > 4  # (raised until a stack ran out)
    for policy in ("never", HeadsUpCap.NEVER):
        assert most_raises(cash(heads_up_cap=policy).play_hand(raiser)) == 4
    # the policy of a round that starts heads-up: uncapped too
    assert most_raises(cash(heads_up_cap="round_start").play_hand(raiser)) > 4


def test_r08_a_table_keeps_its_cap_across_a_snapshot() -> None:
    table = Table(2, small_blind=5, big_blind=10, structure="fixed_limit",
                  heads_up_cap="never", raise_cap=4, rng=1)  # fmt: skip
    table.sit(0, "Ann", 100_000)
    table.sit(1, "Bob", 100_000)
    data = json.loads(json.dumps(table.snapshot()))
    assert (data["raise_cap"], data["heads_up_cap"]) == (4, "never")
    again = Table.from_snapshot(data, rng=1)
    assert (again.raise_cap, again.heads_up_cap) == (4, HeadsUpCap.NEVER)
    assert most_raises(again.play_hand(raiser)) == 5
    # a snapshot of a server before the options: the game's defaults
    del data["raise_cap"], data["heads_up_cap"]
    assert Table.from_snapshot(data).heads_up_cap is HeadsUpCap.TWO_LEFT
    data["tournament"] = True
    assert Table.from_snapshot(data).heads_up_cap is HeadsUpCap.NEVER


def test_r08_bad_cap_options_are_refused_naming_them() -> None:
    with pytest.raises(ConfigError, match="heads_up_cap"):
        Table(2, small_blind=1, big_blind=2, heads_up_cap="sometimes")
    with pytest.raises(ConfigError, match="raise_cap"):
        CashGame(2, small_blind=1, big_blind=2, raise_cap=-1)


def engine_raises(**create: object) -> int:
    """The most bets and raises of a round of hand 1 at a ``holdem engine``
    table of two seats this client plays, made with ``create``, every turn
    raised when the menu allows it."""
    engine = Engine()
    me = engine.connect()
    engine.handle(me, json.dumps({"type": "hello", "version": 1}))
    out = engine.handle(me, json.dumps({"type": "create_table", "structure": "fixed_limit",
                                        **create}))  # fmt: skip
    table = out[0][1]["result"]["table"]
    messages = engine.handle(me, json.dumps({"type": "start", "table": table}))
    counts: dict[str, int] = {"preflop": 1}  # (the big blind is the bet)
    while messages:
        more = []
        for _, message in messages:
            if message.get("event") == "action" and message["action"]["kind"] in ("bet", "raise"):
                street = message["action"]["street"]
                counts[street] = counts.get(street, 0) + 1
            if message.get("event") == "turn":
                legal = message["view"]["legal"]
                action = (
                    {"kind": legal["wager"], "to": legal["min_to"]}
                    if legal["wager"] is not None
                    else {"kind": "check" if legal["check"] else "call"}
                )
                more += engine.handle(me, json.dumps({"type": "act", "table": table,
                                                      "seat": message["seat"],
                                                      "action": action}))  # fmt: skip
        messages = more
    return max(counts.values())


def test_r08_holdem_engine_s_tables_take_the_cap() -> None:
    tournament = {"game": "tournament", "stack": 100_000,
                  "players": [{"name": "Ann"}, {"name": "Bob"}]}  # fmt: skip
    assert engine_raises(**tournament) == 4
    assert engine_raises(**tournament, raise_cap=4) == 5
    cash = {"small_blind": 5, "big_blind": 10, "max_buy_in": 1000, "seats": 2,
            "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]}  # fmt: skip
    assert engine_raises(**cash) > 4
    assert engine_raises(**cash, heads_up_cap="never") == 4


RAISER = f"cmd:{sys.executable} {Path(__file__).parent / 'data' / 'programs' / 'raiser.py'}"


def history_raises(folder: Path) -> int:
    """The most bets and raises of one betting round in the hands written to
    ``folder`` (preflop the big blind counts as the bet)."""
    most = 0
    for path in sorted(folder.iterdir()):
        for hand in read_hands(path):
            counts = [1]
            for move in hand.moves:
                if move.kind == DEAL_BOARD:
                    counts.append(0)
                elif move.kind == BET_RAISE:
                    counts[-1] += 1
            most = max(most, *counts)
    return most


def test_r08_holdem_simulate_caps_a_heads_up_freezeout_and_takes_the_policy(
    tmp_path: Path,
) -> None:
    """R8 from the command line: two programs that raise whenever they may
    play a fixed-limit freezeout capped at a bet and three raises; cash hands
    are uncapped heads-up unless ``--heads-up-cap never``."""
    runs = {
        "freezeout": ["--tournaments", "1"],
        "cash": ["--hands", "2"],
        "cash capped": ["--hands", "2", "--heads-up-cap", "never"],
        "freezeout of 4": ["--tournaments", "1", "--raise-cap", "4"],
    }
    most = {}
    for name, options in runs.items():
        folder = tmp_path / name.replace(" ", "-")
        args = ["simulate", "--seats", f"{RAISER},{RAISER}", "--structure", "fixed_limit",
                "--seed", "1", "--stack", "20", "--histories", str(folder), *options]  # fmt: skip
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        most[name] = history_raises(folder)
    assert most == {"freezeout": 4, "cash": most["cash"], "cash capped": 4, "freezeout of 4": 5}
    assert most["cash"] > 4


def test_r08_cap_options_at_a_table_that_is_not_fixed_limit_are_refused() -> None:
    for command in (["play"], ["simulate", "--seats", "easy,easy", "--hands", "1"],
                    ["join", "--create"]):  # fmt: skip
        result = CliRunner().invoke(main, [*command, "--heads-up-cap", "never"])
        assert result.exit_code == 2
        assert (
            "--heads-up-cap is for fixed-limit tables (--structure fixed_limit): a no_limit "
            "table has no cap" in result.output
        )
