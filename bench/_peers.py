"""The peer engines' own game loops, shared by the benchmarks that play them.

``bench_engine`` and ``bench_bots_peers`` both drive texasholdem with its
own agents and PyPokerEngine with players of its ``BasePokerPlayer``; the
loops and the players are here, once.  The peers are imported when a
function is called, so a benchmark runs without them.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import random
from collections.abc import Callable, Iterable
from typing import Any

from _common import emit

#: What texasholdem's agents return: an action type and a raise's total (or None).
TexasHoldemAgent = Callable[[Any], tuple[Any, Any]]
#: A PyPokerEngine decision: ``valid_actions`` (its fold, call and raise
#: entries) in, the action's name and amount out.
PokerDecision = Callable[[list[dict[str, Any]]], tuple[str, int]]


#: the module each engine is imported as
MODULES = {"holdem": "holdem", "texasholdem": "texasholdem",
           "PyPokerEngine": "pypokerengine", "pokerkit": "pokerkit"}  # fmt: skip


def installed(engines: Iterable[str]) -> list[str]:
    """The engines that can be imported, in order; a ``note`` line for each
    one that cannot (a benchmark runs without its peers)."""
    found = []
    for engine in engines:
        try:
            importlib.import_module(MODULES[engine])
        except ImportError:
            emit(note=f"{engine} is not installed: skipped", engine=engine)
            continue
        found.append(engine)
    return found


def arguments(description: str, repeat: int, argv: list[str] | None) -> argparse.Namespace:
    """The options of a benchmark against the peers: ``--quick`` (10x fewer
    hands) and ``--repeat`` (rounds, the best counts)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="a smoke run (10x fewer hands)")
    parser.add_argument("--repeat", type=int, default=repeat, help="rounds; the best counts")
    return parser.parse_args(argv)


def texasholdem_hands(
    hands: int,
    rng: random.Random,
    agent: TexasHoldemAgent,
    *,
    players: int,
    stack: int,
    blinds: tuple[int, int],
    reset: bool,
    after_hand: Callable[[Any], None] | None = None,
) -> int:
    """Plays ``hands`` complete hands of texasholdem, every player deciding
    with ``agent`` (its ``call_agent``, ``random_agent`` or a wrapper of one).

    With ``reset``, every player has ``stack`` chips again before each hand
    (texasholdem has no rebuy: the loop sets each player's chips), so every
    hand deals all ``players``; without it the stacks carry over, a player
    with no chips sits out, and a new game starts when one player is left
    (a ``start_hand`` that deals nothing is not counted).  texasholdem moves
    the button itself.  ``after_hand(game)`` is called after each hand.
    Returns the hands played.
    """
    from texasholdem import ActionType, TexasHoldEm

    random.seed(rng.getrandbits(32))  # texasholdem shuffles with the global RNG
    big, small = blinds[1], blinds[0]

    def new_game() -> Any:
        return TexasHoldEm(buyin=stack, big_blind=big, small_blind=small, max_players=players)

    game = new_game()
    raise_ = ActionType.RAISE
    done = 0
    while done < hands:
        if reset:
            for player in game.players:
                player.chips = stack
        elif not game.is_game_running():
            game = new_game()
        game.start_hand()
        if not game.is_game_running():  # one player left: no hand was played
            continue
        while game.is_hand_running():
            action, total = agent(game)
            if action == raise_:
                game.take_action(action, total=total)
            else:
                game.take_action(action)
        done += 1
        if after_hand is not None:
            after_hand(game)
    return done


# ------------------------------------------------------------ PyPokerEngine


def pypokerengine_call(valid_actions: list[dict[str, Any]]) -> tuple[str, int]:
    """Check or call: PyPokerEngine's call entry (a check is a call of 0)."""
    call = valid_actions[1]
    return call["action"], call["amount"]


def pypokerengine_random(rng: random.Random) -> PokerDecision:
    """A random legal player: fold, call (or check) or raise with equal
    chances (raise only when the engine offers it), a raise to a uniform
    amount between the engine's minimum and maximum (all-in), as
    texasholdem's ``random_agent`` draws from its moves."""

    def decide(valid_actions: list[dict[str, Any]]) -> tuple[str, int]:
        fold, call, raise_ = valid_actions
        low, high = raise_["amount"]["min"], raise_["amount"]["max"]
        pick = rng.randrange(3 if low != -1 else 2)  # -1: no raise allowed
        if pick == 2:
            return "raise", rng.randint(low, high)
        entry = call if pick else fold
        return entry["action"], entry["amount"]

    return decide


@functools.cache
def pypokerengine_player_class() -> type[Any]:
    """PyPokerEngine's player for the benchmarks: decides with a function, and
    counts the rounds (hands) it hears end.

    ``PokerPlayer(decide, played)``: ``decide`` a :data:`PokerDecision`;
    ``played`` a one-item list to count the hands in, or None (every player
    hears each result, so one of them counts).  Subclasses may watch the
    other messages.
    """
    from pypokerengine.players import BasePokerPlayer

    class PokerPlayer(BasePokerPlayer):  # type: ignore[misc]
        def __init__(self, decide: PokerDecision, played: list[int] | None = None) -> None:
            self.decide = decide
            self.played = played

        def declare_action(self, valid_actions: Any, hole_card: Any, round_state: Any) -> Any:
            return self.decide(valid_actions)

        def receive_game_start_message(self, game_info: Any) -> None:
            pass

        def receive_round_start_message(self, round_count: Any, hole: Any, seats: Any) -> None:
            pass

        def receive_street_start_message(self, street: Any, round_state: Any) -> None:
            pass

        def receive_game_update_message(self, action: Any, round_state: Any) -> None:
            pass

        def receive_round_result_message(self, winners: Any, info: Any, state: Any) -> None:
            if self.played is not None:
                self.played[0] += 1

    return PokerPlayer
