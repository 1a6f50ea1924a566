"""Benchmark of the holdem hand state machine against other Python poker engines.

Run it from the repository root::

    pip install -e '.[bench]' && python bench/bench_engine.py

``--quick`` gives a smoke run of a few seconds.  Every engine plays
complete hands (forced bets, dealing, betting, showdown, pots awarded) of
6 players with 200 chips and blinds 1/2, in the same run, with the same
two kinds of players:

- ``call``: call-only players (check when possible, else call): every hand
  goes to a six-way showdown;
- ``random``: random legal players: fold, check-or-call or bet/raise with
  equal chances, a bet or raise to a uniform amount between the legal
  minimum and maximum;
- ``views`` (holdem only): the ``random`` players deciding from their own
  view: every decision builds ``hand.view(hand.actor)`` and draws from its
  ``legal``, as a bot or a remote program is served.

It also times ``hand.view()`` itself on mid-hand states (``us_per_call``
lines, with ``legal_actions()`` and one action as yardsticks).

Peers: texasholdem, PyPokerEngine (call-only), pokerkit.  Every engine
keeps the stacks from hand to hand as texasholdem does: a player with no
chips leaves, and the game starts again when one player is left; the
button moves every hand.  Each figure is the best of ``--repeat`` rounds; the rounds interleave the
engines, so a noisy neighbour slows them all alike.

Output: one JSON object a line on stdout: a result per engine and kind of
player, ratios against each peer, and a verdict per performance target.
"""

from __future__ import annotations

import gc
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from _common import emit, set_bench
from _peers import (
    arguments,
    installed,
    pypokerengine_call,
    pypokerengine_player_class,
    texasholdem_hands,
)

import holdem
from holdem.actions import ActionKind, LegalActions
from holdem.config import HandConfig
from holdem.hand import Hand

set_bench("engine")

SEED = 20240601
PLAYERS = 6
STACK = 200
SB, BB = 1, 2

#: the kinds of players, in the order each round runs them
KINDS = ("call", "random", "views")

#: hands per round for each engine and kind of players; ``--quick`` divides by 10
HANDS = {
    "holdem": {"call": 20_000, "random": 30_000, "views": 30_000},
    "texasholdem": {"call": 2_000, "random": 3_000},
    "PyPokerEngine": {"call": 300},
    "pokerkit": {"call": 150, "random": 400},
}

#: ``views`` hands/s over texasholdem's ``random`` hands/s in the same run, at
#: main before the views were made cheap (2204c5b, the best of four default
#: runs on 2026-11-30; bench/README.md): the ``views`` target is five times this
VIEWS_BEFORE = 2.17


# ------------------------------------------------------------------ holdem


class Table:
    """Seats, stacks and the button between hands, as the peers keep them.

    A player with no chips leaves; when fewer than two are left the game
    starts again with everybody at 200 (texasholdem's and PyPokerEngine's
    behaviour), and the button moves to the next seated player.
    """

    def __init__(self) -> None:
        self.stacks = [STACK] * PLAYERS
        self.button = PLAYERS - 1

    def next_hand(self) -> tuple[list[int], HandConfig]:
        seats = [s for s in range(PLAYERS) if self.stacks[s]]
        if len(seats) < 2:
            self.stacks = [STACK] * PLAYERS
            seats = list(range(PLAYERS))
        after = [s for s in seats if s > self.button]
        self.button = after[0] if after else seats[0]
        stacks = tuple(self.stacks[s] for s in seats)
        return seats, HandConfig(stacks, seats.index(self.button), SB, BB)

    def settle(self, seats: list[int], stacks: tuple[int, ...] | list[int]) -> None:
        for seat, chips in zip(seats, stacks, strict=True):
            self.stacks[seat] = chips


def holdem_call(hands: int, rng: random.Random) -> int:
    table = Table()
    for _ in range(hands):
        seats, config = table.next_hand()
        hand = Hand(config, rng=rng)
        while not hand.done:
            hand.check_or_call()
        table.settle(seats, hand.stacks)
    return hands


def _random_move(hand: Hand, legal: LegalActions, rng: random.Random) -> None:
    """Fold, check-or-call or bet/raise with equal chances, a bet or raise to a
    uniform amount between the legal minimum and maximum."""
    moves = ["fold", "check" if legal.check else "call"]
    if legal.wager is not None:
        moves.append("raise")
    move = rng.choice(moves)
    if move == "raise":
        assert legal.min_to is not None and legal.max_to is not None
        to = rng.randint(legal.min_to, legal.max_to)
        if legal.wager is ActionKind.RAISE:
            hand.raise_to(to)
        else:
            hand.bet(to)
    elif move == "check":
        hand.check()
    elif move == "call":
        hand.call()
    else:
        hand.fold()


def holdem_random(hands: int, rng: random.Random) -> int:
    table = Table()
    for _ in range(hands):
        seats, config = table.next_hand()
        hand = Hand(config, rng=rng)
        while not hand.done:
            legal = hand.legal_actions()
            assert legal is not None
            _random_move(hand, legal, rng)
        table.settle(seats, hand.stacks)
    return hands


def holdem_views(hands: int, rng: random.Random) -> int:
    """Self-play where every decision is made from the actor's own view.

    Each turn builds ``hand.view(hand.actor)`` (what a bot or a remote
    program receives) and draws from its ``legal`` as :func:`holdem_random`
    draws from ``legal_actions()`` (:func:`_random_move`).
    """
    table = Table()
    for _ in range(hands):
        seats, config = table.next_hand()
        hand = Hand(config, rng=rng)
        while not hand.done:
            legal = hand.view(hand.actor).legal
            assert legal is not None
            _random_move(hand, legal, rng)
        table.settle(seats, hand.stacks)
    return hands


def view_costs(states: int, repeat: int) -> dict[str, float]:
    """Microseconds per call, best of ``repeat``, over ``states`` mid-hand states.

    The states come from seeded random 6-player hands (the ``random``
    players), stopped at a random decision.  ``view``: ``hand.view(actor)``
    (with the legal actions); ``view_other``: the view of the next seat (no
    legal actions); ``view_all_fields``: a view of the actor and a read of
    every field of it; ``legal_actions``: ``hand.legal_actions()`` alone;
    ``action``: one ``check_or_call()`` on a copy of the state (with the
    dealer steps it triggers), the yardstick for "as much as one action".
    """
    rng = random.Random(SEED + 1)
    config = HandConfig((STACK,) * PLAYERS, PLAYERS - 1, SB, BB)
    hands: list[Hand] = []
    while len(hands) < states:
        hand = Hand(config, rng=rng)
        for _ in range(rng.randrange(12)):
            if hand.done:
                break
            legal = hand.legal_actions()
            assert legal is not None
            if legal.wager is not None and rng.random() < 0.2:
                assert legal.min_to is not None
                hand.act(legal.wager, legal.min_to)
            else:
                hand.check_or_call()
        if not hand.done:
            hands.append(hand)
    fields = ("seat", "hole_cards", "config", "phase", "street", "board", "stacks", "bets",
              "contributions", "statuses", "pot", "current_bet", "actor", "legal", "shown",
              "log", "outcome")  # fmt: skip

    def views() -> None:
        for hand in hands:
            hand.view(hand.actor)

    def views_other() -> None:
        for hand in hands:
            hand.view(((hand.actor or 0) + 1) % PLAYERS)

    def views_all() -> None:
        for hand in hands:
            view = hand.view(hand.actor)
            for name in fields:
                getattr(view, name)

    def legal() -> None:
        for hand in hands:
            hand.legal_actions()

    best: dict[str, float] = {}
    cases = {"view": views, "view_other": views_other, "view_all_fields": views_all,
             "legal_actions": legal}  # fmt: skip
    for _ in range(repeat):
        for name, run in cases.items():
            gc.collect()
            start = time.perf_counter()
            run()
            us = (time.perf_counter() - start) / len(hands) * 1e6
            best[name] = min(best.get(name, us), us)
        copies = [hand.copy() for hand in hands]
        gc.collect()
        start = time.perf_counter()
        for hand in copies:
            hand.check_or_call()
        us = (time.perf_counter() - start) / len(hands) * 1e6
        best["action"] = min(best.get("action", us), us)
    return best


# ------------------------------------------------------------- texasholdem


def texasholdem_run(hands: int, rng: random.Random, players: str) -> int:
    from texasholdem.agents import call_agent, random_agent

    agent = call_agent if players == "call" else random_agent
    return texasholdem_hands(
        hands, rng, agent, players=PLAYERS, stack=STACK, blinds=(SB, BB), reset=False
    )


# ------------------------------------------------------------ PyPokerEngine


def pypokerengine_run(hands: int, rng: random.Random) -> int:
    """Call-only players in PyPokerEngine's own game loop: games of as many
    rounds as hands are left, until ``hands`` rounds are played."""
    from pypokerengine.api.game import setup_config, start_poker

    random.seed(rng.getrandbits(32))  # PyPokerEngine shuffles with the global RNG
    player = pypokerengine_player_class()
    played = [0]
    while played[0] < hands:
        config = setup_config(
            max_round=hands - played[0], initial_stack=STACK, small_blind_amount=SB
        )
        for i in range(PLAYERS):
            config.register_player(
                name=f"p{i}", algorithm=player(pypokerengine_call, played if i == 0 else None)
            )
        start_poker(config, verbose=0)
    return played[0]


# ----------------------------------------------------------------- pokerkit


def pokerkit_run(hands: int, rng: random.Random, players: str) -> int:
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    random.seed(rng.getrandbits(32))  # pokerkit shuffles with the global RNG
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    table = Table()
    played = 0
    for _ in range(hands):
        seats, config = table.next_hand()
        n = len(seats)
        order = [(config.button + 1 + i) % n for i in range(n)]  # pokerkit: SB first
        state = NoLimitTexasHoldem.create_state(
            automations, True, 0, (SB, BB), BB,
            tuple(config.stacks[i] for i in order), n, mode=Mode.CASH_GAME,
        )  # fmt: skip
        try:
            play_pokerkit(state, rng, players)
        except AssertionError:  # pokerkit 0.7 trips on some random hands: not counted
            table = Table()
            continue
        played += 1
        after = list(config.stacks)
        for i, chips in zip(order, state.stacks, strict=True):
            after[i] = chips
        table.settle(seats, after)
    return played


def play_pokerkit(state: Any, rng: random.Random, players: str) -> None:
    while state.status:
        if players == "call":
            state.check_or_call()
            continue
        moves = ["fold", "call"]
        if state.can_complete_bet_or_raise_to():
            moves.append("raise")
        move = rng.choice(moves)
        if move == "raise":
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            state.complete_bet_or_raise_to(rng.randint(low, high))
        elif move == "fold" and state.can_fold():
            state.fold()
        else:
            state.check_or_call()


RUNNERS: dict[str, dict[str, Callable[[int, random.Random], int]]] = {
    "holdem": {"call": holdem_call, "random": holdem_random, "views": holdem_views},
    "texasholdem": {
        "call": lambda n, r: texasholdem_run(n, r, "call"),
        "random": lambda n, r: texasholdem_run(n, r, "random"),
    },
    "PyPokerEngine": {"call": pypokerengine_run},
    "pokerkit": {
        "call": lambda n, r: pokerkit_run(n, r, "call"),
        "random": lambda n, r: pokerkit_run(n, r, "random"),
    },
}
PIP_NAMES = {"holdem": "holdem", "texasholdem": "texasholdem",
             "PyPokerEngine": "PyPokerEngine", "pokerkit": "pokerkit"}  # fmt: skip


def version_of(engine: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(PIP_NAMES[engine])
    except PackageNotFoundError:
        return None


def main(argv: list[str] | None = None) -> int:
    args = arguments(__doc__.splitlines()[0], 3, argv)
    scale = 10 if args.quick else 1
    engines = installed(RUNNERS)
    emit(
        bench="engine",
        python=platform.python_version(),
        machine=platform.machine(),
        holdem=holdem.__version__,
        players=PLAYERS,
        stack=STACK,
        blinds=[SB, BB],
        peers={e: version_of(e) for e in engines if e != "holdem"},
    )
    best: dict[tuple[str, str], float] = {}
    hands_of: dict[tuple[str, str], int] = {}
    rng = random.Random(SEED)
    for _ in range(max(1, args.repeat)):
        for kind in KINDS:
            for engine in engines:
                runner = RUNNERS[engine].get(kind)
                if runner is None:
                    continue
                n = HANDS[engine][kind] // scale
                gc.collect()
                start = time.perf_counter()
                played = runner(n, rng)
                seconds = time.perf_counter() - start
                rate = played / seconds
                if rate > best.get((engine, kind), 0.0):
                    best[(engine, kind)] = rate
                    hands_of[(engine, kind)] = played
    costs = view_costs(2_000 // scale, max(3, args.repeat))
    for name, us in costs.items():
        emit(result="us_per_call", engine="holdem", call=name, value=round(us, 2))
    for (engine, kind), rate in best.items():
        emit(result="hands_per_second", engine=engine, players=kind,
             hands=hands_of[(engine, kind)], value=round(rate, 1))  # fmt: skip
    for kind in ("call", "random"):
        mine = best.get(("holdem", kind))
        for engine in engines:
            if engine == "holdem" or (engine, kind) not in best or mine is None:
                continue
            emit(
                ratio=f"holdem/{engine}", players=kind, value=round(mine / best[(engine, kind)], 1)
            )
    views = best.get(("holdem", "views"))
    if views is not None and ("holdem", "random") in best:
        emit(ratio="holdem views/holdem random", players="views",
             value=round(views / best[("holdem", "random")], 2))  # fmt: skip
    views_ratio = None
    if views is not None and ("texasholdem", "random") in best:
        views_ratio = views / best[("texasholdem", "random")]
        emit(ratio="holdem views/texasholdem random", players="views",
             value=round(views_ratio, 2))  # fmt: skip
    targets = [
        ("call-only >= 10,000 hands/s", best.get(("holdem", "call"), 0.0) >= 10_000),
    ]
    for kind in ("call", "random"):
        peer = best.get(("texasholdem", kind))
        if peer:
            ratio = best.get(("holdem", kind), 0.0) / peer
            targets.append((f"{kind} players >= 10x texasholdem", ratio >= 10))
    if views_ratio is not None and VIEWS_BEFORE:
        name = "views players >= 5x their figure at 2204c5b (against texasholdem random)"
        targets.append((name, views_ratio >= 5 * VIEWS_BEFORE))
    for name, met in targets:
        emit(target=name, met=met)
    return 0


if __name__ == "__main__":
    sys.exit(main())
