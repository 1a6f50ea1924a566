"""Benchmark of ``holdem.simulate`` against the peer engines' own bot loops.

Run it from the repository root::

    pip install -e '.[bench]' && python bench/bench_bots_peers.py

``--quick`` gives a smoke run of a few seconds.  In one run, the same two
6-max matches are played by each engine, every hand at 100 big blinds
(blinds 1/2, 200 chips each: every stack is restored before each hand) and
the button moving one seat a hand:

- ``random``: six random legal players;
- ``call``: six call-only players (check when possible, else call).

The engines, each with its own loop and its own players:

- holdem: ``holdem.simulate(["random"] * 6, hands=N)`` and
  ``simulate(["calling-station"] * 6, hands=N)``, the public API with its
  statistics (every hand starts at 100 big blinds there);
- texasholdem: its ``TexasHoldEm`` game with its ``random_agent`` and
  ``call_agent``, each player's chips set back to 200 before each hand;
- PyPokerEngine: its dealer (what ``start_poker`` builds from a
  ``setup_config``), built once, playing one round a game (``start_game(1)``),
  with ``BasePokerPlayer`` players; a game's rounds work on copies of the
  dealer's table, so each game starts again from 200 chips each, and the
  button is moved between games.  Hands are counted by the round results.

Each engine's random players draw from that engine's own menu, so their
hands differ in shape (holdem's menu has an all-in of its own, PyPokerEngine
offers no all-in below a full raise): bench/README.md gives the figures.

Before the timing, a check pass plays a few hundred hands of each engine
and case with the hands watched (``check`` lines): players dealt, chips
conserved, the starting stacks, the button, decisions, bets and raises,
all-ins and showdowns a hand, and PyPokerEngine's silent folds of refused
actions.  Each figure is the best of ``--repeat`` rounds; the rounds
interleave the engines, so a noisy neighbour slows them all alike.

Output: one JSON object a line: a ``header``, ``check`` lines, ``result``
lines (hands per second by engine and case) and ``ratio`` lines (holdem's
hands per second over each peer's).
"""

from __future__ import annotations

import gc
import os
import platform
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import cpu_model, emit, library_version, set_bench, warn
from _peers import (
    arguments,
    installed,
    pypokerengine_call,
    pypokerengine_player_class,
    pypokerengine_random,
    texasholdem_hands,
)

from holdem import simulate
from holdem.histories import BET_RAISE, CHECK_CALL, FOLD, HandHistory
from holdem.histories.phh import read_phh

set_bench("bots_peers")

SEED = 20261201
PLAYERS = 6
SB, BB = 1, 2
STACK = 100 * BB
KINDS = ("random", "call")
#: holdem's bots for each case
LEVELS = {"random": "random", "call": "calling-station"}
#: hands a round for each engine and case; ``--quick`` divides by 10
HANDS = {
    "holdem": {"random": 3_000, "call": 2_000},
    "texasholdem": {"random": 1_000, "call": 400},
    "PyPokerEngine": {"random": 150, "call": 60},
}
#: hands of the check pass
CHECK_HANDS = {"holdem": 300, "texasholdem": 300, "PyPokerEngine": 100}


class Shape:
    """What a check pass saw of an engine's hands, hand by hand."""

    def __init__(self) -> None:
        self.hands = self.dealt = self.decisions = self.wagers = 0
        self.all_ins = self.showdowns = self.refused = 0
        self.problems: list[str] = []
        self.button: int | None = None

    def decision(self, *, wager: bool, all_in: bool = False) -> None:
        self.decisions += 1
        self.wagers += wager
        self.all_ins += all_in

    def hand(
        self, *, dealt: int, in_at_end: int, chips: int, stacks_ok: bool, button: int,
        all_ins: int = 0,
    ) -> None:  # fmt: skip
        """A hand's end: players dealt, players not folded, the chips on the
        table after it, whether it started with every stack at 200, the
        button's seat (0 to 5), and the players all-in if not counted by
        :meth:`decision`."""
        self.hands += 1
        self.all_ins += all_ins
        self.dealt += dealt
        self.showdowns += in_at_end >= 2
        if dealt != PLAYERS:
            self.problem(f"hand {self.hands}: {dealt} players dealt")
        if chips != PLAYERS * STACK:
            self.problem(f"hand {self.hands}: {chips} chips after it, not {PLAYERS * STACK}")
        if not stacks_ok:
            self.problem(f"hand {self.hands}: not every stack was {STACK} at the start")
        if self.button is not None and button != (self.button + 1) % PLAYERS:
            self.problem(f"hand {self.hands}: the button went from {self.button} to {button}")
        self.button = button

    def problem(self, text: str) -> None:
        if len(self.problems) < 5:
            self.problems.append(text)

    def summary(self, wanted: int, counted: int) -> dict[str, Any]:
        n = max(1, self.hands)
        if counted != wanted or self.hands != wanted:
            self.problem(f"{wanted} hands asked for, {counted} counted, {self.hands} seen")
        if self.refused:
            self.problem(f"{self.refused} actions refused (played as folds)")
        return {
            "hands": self.hands,
            "dealt_per_hand": round(self.dealt / n, 2),
            "decisions_per_hand": round(self.decisions / n, 2),
            "wager_share": round(self.wagers / max(1, self.decisions), 3),
            "all_ins_per_hand": round(self.all_ins / n, 2),
            "showdown_share": round(self.showdowns / n, 3),
            "ok": not self.problems,
            "problems": self.problems,
        }


# ------------------------------------------------------------------ holdem


def holdem_run(hands: int, rng: random.Random, kind: str) -> int:
    """``hands`` hands through ``holdem.simulate``; the hands it counts."""
    result = simulate([LEVELS[kind]] * PLAYERS, hands=hands, seed=rng.getrandbits(32))
    if any(seat.hands != hands for seat in result.seats):
        warn(f"holdem {kind}: a seat did not play all {hands} hands")
    return result.hands


def holdem_check(hands: int, rng: random.Random, kind: str) -> tuple[int, Shape]:
    """The hands of :func:`holdem_run`, written as PHH by ``simulate``
    (``histories=``) and read back."""
    shape = Shape()
    with tempfile.TemporaryDirectory() as folder:
        result = simulate(
            [LEVELS[kind]] * PLAYERS, hands=hands, seed=rng.getrandbits(32), histories=folder
        )
        if abs(sum(seat.net for seat in result.seats)) > 1e-9:
            shape.problem("the seats' nets do not add up to 0")
        for path in sorted(Path(folder).glob("*.phhs")):
            for hand in read_phh(str(path)):
                if not isinstance(hand, HandHistory):
                    shape.problem(f"unreadable history: {hand}")
                    continue
                folds = 0
                for move in hand.moves:
                    if move.actor is None or move.kind not in (FOLD, CHECK_CALL, BET_RAISE):
                        continue
                    folds += move.kind == FOLD
                    shape.decision(wager=move.kind == BET_RAISE, all_in=move.all_in)
                stacks = [player.stack for player in hand.players]
                after = hand.claims.finishing_stacks or ()  # (None: a stack not written)
                shape.hand(
                    dealt=len(hand.players),
                    in_at_end=len(hand.players) - folds,
                    chips=sum(chips for chips in after if chips is not None),
                    stacks_ok=stacks == [STACK] * PLAYERS,
                    button=(hand.players[-1].seat or 0) - 1,  # PHH lists the button last
                )
    return result.hands, shape


# ------------------------------------------------------------- texasholdem


def texasholdem_run(hands: int, rng: random.Random, kind: str, shape: Shape | None = None) -> int:
    """``hands`` hands of texasholdem's own game loop and agents; with
    ``shape``, every decision and hand is watched."""
    from texasholdem import ActionType, PlayerState
    from texasholdem.agents import call_agent, random_agent

    agent: Callable[[Any], tuple[Any, Any]] = random_agent if kind == "random" else call_agent
    after_hand = None
    if shape is not None:
        watched, raise_, call = agent, ActionType.RAISE, ActionType.CALL

        def agent(game: Any) -> tuple[Any, Any]:
            action, total = watched(game)
            seat = game.current_player
            chips = game.players[seat].chips
            shape.decision(
                wager=action == raise_,
                all_in=(action == raise_ and total == game.player_bet_amount(seat) + chips)
                or (action == call and game.chips_to_call(seat) >= chips),
            )
            return action, total

        def after_hand(game: Any) -> None:
            dealt = list(game.hands)
            shape.hand(
                dealt=len(dealt),
                in_at_end=sum(game.players[s].state != PlayerState.OUT for s in dealt),
                chips=sum(player.chips for player in game.players),
                stacks_ok=set(game.hand_history.prehand.player_chips.values()) == {STACK},
                button=game.btn_loc,
            )

    return texasholdem_hands(
        hands, rng, agent, players=PLAYERS, stack=STACK, blinds=(SB, BB), reset=True,
        after_hand=after_hand,
    )  # fmt: skip


# ------------------------------------------------------------ PyPokerEngine


def pypokerengine_run(hands: int, rng: random.Random, kind: str, shape: Shape | None = None) -> int:
    """``hands`` hands of PyPokerEngine: its dealer made once as
    ``start_poker`` makes it, one round a game; the rounds its players hear
    end.  With ``shape``, the players watch every decision and hand."""
    from pypokerengine.api.game import setup_config
    from pypokerengine.engine.dealer import Dealer

    random.seed(rng.getrandbits(32))  # PyPokerEngine shuffles with the global RNG
    if kind == "call":
        decide = pypokerengine_call
    else:
        decide = pypokerengine_random(random.Random(rng.getrandbits(32)))
    player = pypokerengine_player_class() if shape is None else _watching_player(shape)
    played = [0]
    config = setup_config(max_round=1, initial_stack=STACK, small_blind_amount=SB)
    for i in range(PLAYERS):
        config.register_player(name=f"p{i}", algorithm=player(decide, played if i == 0 else None))
    # start_poker's set-up, once (start_poker makes a new dealer a game, here a hand)
    config.validation()
    dealer = Dealer(config.sb_amount, config.initial_stack, config.ante)
    dealer.set_verbose(0)
    dealer.set_blind_structure(config.blind_structure)
    for info in config.players_info:
        dealer.register_player(info["name"], info["algorithm"])
    for _ in range(hands):
        dealer.start_game(config.max_round)  # plays on copies: the dealer's table stays at 200
        dealer.table.shift_dealer_btn()
    return played[0]


def _watching_player(shape: Shape) -> Callable[..., Any]:
    """A PyPokerEngine player that reports to ``shape``: its decisions, its
    actions the engine refused (PyPokerEngine plays them as folds) and, for
    the player who counts hands, each hand's start and result (the players
    all-in: those whose state says so at the end)."""
    base = pypokerengine_player_class()

    class Watching(base):  # type: ignore[misc, valid-type]
        declared = "fold"  # the last action it declared
        dealt, start_ok = 0, False  # of the hand going on (for the player who counts)

        def declare_action(self, valid_actions: Any, hole_card: Any, round_state: Any) -> Any:
            action, amount = super().declare_action(valid_actions, hole_card, round_state)
            shape.decision(wager=action == "raise")
            self.declared = action
            return action, amount

        def receive_round_start_message(self, round_count: Any, hole: Any, seats: Any) -> None:
            if self.played is not None:  # the stacks after the blinds: 200, 199 and 198
                self.dealt = sum(s["state"] == "participating" for s in seats)
                stacks = sorted(s["stack"] for s in seats)
                self.start_ok = stacks == [STACK - BB, STACK - SB] + [STACK] * (PLAYERS - 2)

        def receive_game_update_message(self, action: Any, round_state: Any) -> None:
            # (the message repeats the action as declared: the seat's state tells)
            if action["player_uuid"] == self.uuid and self.declared != "fold":
                seat = next(s for s in round_state["seats"] if s["uuid"] == self.uuid)
                shape.refused += seat["state"] == "folded"

        def receive_round_result_message(self, winners: Any, info: Any, state: Any) -> None:
            super().receive_round_result_message(winners, info, state)
            if self.played is None:
                return
            seats = state["seats"]
            shape.hand(
                dealt=self.dealt,
                in_at_end=sum(s["state"] != "folded" for s in seats),
                chips=sum(s["stack"] for s in seats),
                stacks_ok=self.start_ok,
                button=state["dealer_btn"],
                all_ins=sum(s["state"] == "allin" for s in seats),
            )

    return Watching


RUNNERS: dict[str, Callable[[int, random.Random, str], int]] = {
    "holdem": holdem_run,
    "texasholdem": texasholdem_run,
    "PyPokerEngine": pypokerengine_run,
}
CHECKS: dict[str, Callable[[int, random.Random, str], tuple[int, Shape]]] = {
    "holdem": holdem_check,
    "texasholdem": lambda n, r, k: _watched(texasholdem_run, n, r, k),
    "PyPokerEngine": lambda n, r, k: _watched(pypokerengine_run, n, r, k),
}


def _watched(
    run: Callable[[int, random.Random, str, Shape], int], hands: int, rng: random.Random, kind: str
) -> tuple[int, Shape]:
    shape = Shape()
    return run(hands, rng, kind, shape), shape


def main(argv: list[str] | None = None) -> int:
    args = arguments(__doc__.splitlines()[0], 5, argv)
    scale = 10 if args.quick else 1
    engines = installed(RUNNERS)
    emit(header="bots_peers", python=platform.python_version(), cpu=cpu_model(),
         cpus=os.cpu_count(), holdem=library_version("holdem"),
         peers={e: library_version(e) for e in engines if e != "holdem"},
         players=PLAYERS, stack=STACK, blinds=[SB, BB], repeat=args.repeat,
         hands={e: {k: HANDS[e][k] // scale for k in KINDS} for e in engines})  # fmt: skip
    rng = random.Random(SEED)
    for kind in KINDS:
        for engine in engines:
            wanted = max(20, CHECK_HANDS[engine] // scale)
            counted, shape = CHECKS[engine](wanted, rng, kind)
            summary = shape.summary(wanted, counted)
            emit(check="hands", engine=engine, players=kind, **summary)
            if not summary["ok"]:
                warn(f"{engine} {kind}: {'; '.join(summary['problems'])}")
    best: dict[tuple[str, str], float] = {}
    hands_of: dict[tuple[str, str], int] = {}
    for _ in range(max(1, args.repeat)):
        for kind in KINDS:
            for engine in engines:
                gc.collect()
                start = time.perf_counter()
                played = RUNNERS[engine](HANDS[engine][kind] // scale, rng, kind)
                rate = played / (time.perf_counter() - start)
                if rate > best.get((engine, kind), 0.0):
                    best[(engine, kind)] = rate
                    hands_of[(engine, kind)] = played
    for (engine, kind), rate in best.items():
        emit(result="hands_per_second", engine=engine, players=kind,
             hands=hands_of[(engine, kind)], hands_per_sec=round(rate, 1),
             us_per_hand=round(1e6 / rate, 1))  # fmt: skip
    for kind in KINDS:
        mine = best.get(("holdem", kind))
        for engine in engines:
            peer = best.get((engine, kind))
            if engine != "holdem" and mine and peer:
                emit(ratio=f"holdem/{engine}", players=kind, value=round(mine / peer, 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
