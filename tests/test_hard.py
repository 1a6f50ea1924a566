"""The hard bot's models of its opponents (issue 32): what it counts, that it
reads nothing hidden, that its memory is bounded, and what a player would
check of its play against simple styles."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import (
    ActionKind,
    Decision,
    Hand,
    HandConfig,
    LegalActions,
    Phase,
    PlayerView,
    Street,
    format_cards,
    parse_cards,
)
from holdem.bots import Bot, CallingStation, HardBot, RandomBot
from holdem.bots.base import made_by_hole, passive, wager
from holdem.bots.opponents import MOST_PLAYERS, MOST_SHOWN, PRIORS, Book
from holdem.bots.preflop import EQUITY, starting_hand
from holdem.table import CashGame


class AllIn(Bot):
    """All in at every decision (a call when it may not raise)."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        return Decision.all_in() if legal.all_in is not None else passive(legal)


class Nit(Bot):
    """Raises aces, kings and queens; folds everything else (checks when free)."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        assert view.hole_cards is not None
        if starting_hand(view.hole_cards) in ("AA", "KK", "QQ") and legal.wager is not None:
            return wager(legal, 3 * max(view.current_bet, view.config.big_blind))
        return legal.check_or_fold() if view.street is Street.PREFLOP else passive(legal)


class FitOrFold(Bot):
    """Calls before the flop; after it bets and calls with a pair of its own
    or better, else checks or folds."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        assert view.hole_cards is not None
        if view.street is Street.PREFLOP:
            return passive(legal)
        if made_by_hole(view.hole_cards, view.board):
            if legal.wager is not None and legal.check:
                return wager(legal, view.pot // 2)
            return passive(legal)
        return legal.check_or_fold()


def trained(opponent: Bot, hands: int = 60, seed: int = 1) -> HardBot:
    """A hard bot that played ``hands`` heads-up hands with ``opponent``
    (each at 100 big blinds, rebought when busted), as "hard" against "them"."""
    bot = HardBot(seed=seed)
    game = CashGame(small_blind=1, big_blind=2, rng=seed)
    game.join(0, "hard", 200)
    game.join(1, "them", 200)
    players = {0: bot, 1: opponent}
    for _ in range(hands):
        game.play_hand(players)
        top_up(game, 2)
    return bot


def top_up(game: CashGame, players: int) -> None:
    """Every stack back to 100 big blinds."""
    for seat in range(players):
        place = game.table.seat(seat)
        assert place is not None
        if place.chips < 200:
            game.add_chips(seat, 200 - place.chips)


def spot(hole: str, button: int, moves: list[Decision], board: str = "") -> Hand:
    """A heads-up hand of "hard" (seat 0) and "them" (seat 1) after ``moves``."""
    config = HandConfig(stacks=(200, 200), button=button, small_blind=1, big_blind=2,
                        names=("hard", "them"))  # fmt: skip
    hand = Hand(config, hole_cards=[hole, "2c 2d" if "2c" not in hole else "3c 3d"],
                board=board or None)  # fmt: skip
    for move in moves:
        hand.act(move)
    return hand


def decide(bot: HardBot, hand: Hand) -> Decision:
    legal = hand.legal_actions()
    assert legal is not None and hand.actor == 0
    return copy.deepcopy(bot).decide(hand.view(0), legal)  # (the same bot for every spot)


# ------------------------------------------------------------ statistics


@dataclass
class Counts:
    acted: int = 0
    vpip: int = 0
    pfr: int = 0
    shoves: int = 0
    wagers: int = 0
    calls: int = 0
    checks: int = 0
    faced_pre: int = 0
    folded_pre: int = 0


class Scripted(Bot):
    """A player whose style is known: before the flop, hand after hand, it
    raises, calls (or checks), folds (or checks) and goes all in in turn;
    after the flop it bets every other time it may, else checks or calls.
    It counts what it did, as the hard bot should."""

    def __init__(self) -> None:
        super().__init__(0)
        self.counts = Counts()
        self.hand: object = None
        self.hands = 0
        self.decisions = 0
        self.flags: set[str] = set()

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        counts = self.counts
        if view.phase is Phase.SHOWDOWN:
            return Decision.show() if legal.show else Decision.muck()
        key = (id(view.config), view.hole_cards)
        if key != self.hand:
            self.hand, self.flags = key, set()
            self.hands += 1
        facing = (
            legal.call is not None
            and legal.call > view.bets[view.config.seat_numbers.index(view.seat)]
        )
        if view.street is Street.PREFLOP:
            if "acted" not in self.flags:
                counts.acted += 1
                self.flags.add("acted")
            if facing and view.current_bet > view.config.big_blind and "raised" not in self.flags:
                counts.faced_pre += 1
            mode = self.hands % 4 if "decided" not in self.flags else 1
            self.flags.add("decided")
            if mode == 0 and legal.wager is not None and legal.min_to != legal.max_to:
                decision = wager(legal, legal.min_to or 0)
            elif mode == 3 and legal.wager is not None:
                decision = Decision.all_in()
                if "shoved" not in self.flags:
                    counts.shoves += 1
                    self.flags.add("shoved")
            elif mode == 2 and facing:
                decision = Decision.fold()
                if view.current_bet > view.config.big_blind and "raised" not in self.flags:
                    counts.folded_pre += 1
            else:
                decision = passive(legal)
            if decision.kind in (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE,
                                 ActionKind.ALL_IN):  # fmt: skip
                if "vpip" not in self.flags:
                    counts.vpip += 1
                    self.flags.add("vpip")
                if decision.kind is not ActionKind.CALL and "raised" not in self.flags:
                    counts.pfr += 1
                    self.flags.add("raised")
            return decision
        self.decisions += 1
        if legal.wager is not None and self.decisions % 2 == 0:
            counts.wagers += 1
            return wager(legal, (legal.min_to or 0) + view.pot // 2)
        decision = passive(legal)
        if decision.kind is ActionKind.CHECK:
            counts.checks += 1
        elif decision.kind is ActionKind.CALL:
            counts.calls += 1
        return decision


def test_the_book_counts_what_a_scripted_player_did() -> None:
    """A player whose every decision is known: the hard bot's counts of it
    (from its views and the hands' ends) are the player's own."""
    script = Scripted()
    bot = trained(script, hands=120, seed=3)
    known = bot.book.players["name them"]
    counts = script.counts
    assert known.hands == 120 and known.acted == counts.acted > 60
    assert (known.vpip, known.pfr, known.shoves) == (counts.vpip, counts.pfr, counts.shoves)
    assert (known.wagers, known.calls, known.checks) == (counts.wagers, counts.calls,
                                                         counts.checks)  # fmt: skip
    assert (known.faced[0], known.folded[0]) == (counts.faced_pre, counts.folded_pre)
    assert counts.wagers > 10 and counts.calls + counts.checks > 10 and counts.shoves > 10
    # the figures: the counts, with the guess of PRIORS worth a few hands
    prior, weight = PRIORS["vpip"]
    assert known.share("vpip") == pytest.approx((counts.vpip + prior * weight)
                                                / (counts.acted + weight))  # fmt: skip
    assert 0.6 < known.share("vpip") < 0.9 and 0.3 < known.share("pfr") < 0.6


def test_a_hand_is_counted_once_told_its_end_or_not() -> None:
    """The end of a hand (Bot.observe) and the next hand's first turn both
    close the hand; it is counted once either way."""
    hand = spot("As Ah", 0, [Decision.raise_to(6), Decision.call(), Decision.check()],
                board="Kd 7c 2h 3s 9d")  # fmt: skip
    told, untold = Book(), Book()
    view = hand.view(0)
    told.read(view)
    told.read(view, over=True)
    untold.read(view)
    untold.read(spot("Ks Kh", 1, []).view(0))  # (the next hand begins)
    assert told.players["name them"] == untold.players["name them"]
    assert told.players["name them"].hands == 1 and told.players["name them"].checks == 1


# -------------------------------------------------------- hidden information


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 12))
def test_a_trained_hard_bot_s_decision_is_a_function_of_its_view(
    players: int, seed: int, steps: int
) -> None:
    """Two hands alike but for the other players' hidden cards give the same
    view, and a hard bot that has already played and learned (the same
    history) decides the same in both with the same seed."""
    rng = random.Random(seed)
    bot = HardBot(seed=seed)
    game = CashGame(small_blind=1, big_blind=2, rng=seed)
    for seat in range(players):
        game.join(seat, f"p{seat}", 200)
    others = {seat: RandomBot(seed=seed + seat) for seat in range(1, players)}
    for _ in range(8):  # a history: it learns about p1 ... from their play
        game.play_hand({0: bot, **others})
        top_up(game, players)
    assert bot.book.players
    config = HandConfig(stacks=(200,) * players, button=0, small_blind=1, big_blind=2,
                        names=tuple(f"p{seat}" for seat in range(players)))  # fmt: skip
    first = Hand(config, rng=seed)
    mover, moves = RandomBot(seed=seed), []
    for _ in range(steps):
        if first.done or first.phase is Phase.SHOWDOWN:
            break
        legal = first.legal_actions()
        assert legal is not None
        moves.append(mover.decide(first.view(first.actor), legal))
        first.act(moves[-1])
    actor = first.actor
    if first.done or actor is None or first.phase is Phase.SHOWDOWN:
        return
    deck = rng.sample(range(52), 5 + 4 * players)
    board, own = deck[:5], deck[5:7]
    hidden = [deck[7 + 2 * i : 9 + 2 * i] for i in range(2 * players - 2)]
    views, menus = [], []
    for deal in (hidden[: players - 1], hidden[players - 1 :]):
        hole = [*deal[:actor], own, *deal[actor:]]
        hand = Hand(config, hole_cards=[format_cards(h) for h in hole], board=format_cards(board))
        for move in moves:
            hand.act(move)
        views.append(hand.view(actor))
        menus.append(hand.legal_actions())
    assert views[0] == views[1] and menus[0] == menus[1] and menus[0] is not None
    decisions = [copy.deepcopy(bot).decide(view, menus[0]) for view in views]
    assert decisions[0] == decisions[1]


# ---------------------------------------------------------------- memory


def test_the_book_remembers_a_bounded_number_of_players_and_shown_hands() -> None:
    """A room's bot plays for weeks: it keeps the latest MOST_PLAYERS players,
    and of each the latest MOST_SHOWN hands shown."""
    book = Book()
    for n in range(MOST_PLAYERS + 40):  # a new player each hand, all shown down
        config = HandConfig(stacks=(200, 200), button=0, small_blind=1, big_blind=2,
                            names=("me", f"player {n}"))  # fmt: skip
        hand = Hand(config, rng=n)
        while not hand.done:
            legal = hand.legal_actions()
            assert legal is not None
            hand.act(Decision.show() if legal.show else passive(legal))
        book.read(hand.view(0), over=True)
    assert len(book.players) == MOST_PLAYERS
    assert (
        "name player 0" not in book.players and f"name player {MOST_PLAYERS + 39}" in book.players
    )
    config = HandConfig(stacks=(200, 200), button=0, small_blind=1, big_blind=2,
                        names=("me", "regular"))  # fmt: skip
    for n in range(MOST_SHOWN + 20):  # one player, shown down again and again
        hand = Hand(config, rng=n)
        while not hand.done:
            legal = hand.legal_actions()
            assert legal is not None
            hand.act(Decision.show() if legal.show else passive(legal))
        book.read(hand.view(0), over=True)
    regular = book.players["name regular"]
    assert regular.hands == MOST_SHOWN + 20 and len(regular.shown) == MOST_SHOWN
    assert len(book.players) == MOST_PLAYERS


def test_the_hard_bot_forgets_each_hand_s_ranges() -> None:
    bot = trained(CallingStation(), hands=30)
    assert len(bot._read) < 40  # (the last hand's readings only)


# ------------------------------------------------------- against styles


@pytest.mark.parametrize("name", ["A2o", "K8o", "QTo", "55", "J9s", "A7s"])
def test_against_an_all_in_player_it_calls_what_beats_the_price(name: str) -> None:
    """In the big blind facing an all in of 100 big blinds from a player who
    goes all in every hand, a call wins when the hand's equity against any
    hand beats 98 / 200: hands of 0.53 and more call."""
    assert EQUITY[name] >= 0.53
    bot = trained(AllIn())
    cards = {"A2o": "Ah 2s", "K8o": "Kh 8s", "QTo": "Qh Ts", "55": "5h 5s", "J9s": "Jh 9h",
             "A7s": "Ah 7h"}[name]  # fmt: skip
    assert decide(bot, spot(cards, 1, [Decision.all_in()])) == Decision.call()


@pytest.mark.parametrize("cards", ["7h 2s", "9h 3s", "Jh 2s", "8h 4s"])
def test_against_an_all_in_player_it_folds_what_does_not(cards: str) -> None:
    assert EQUITY[starting_hand(parse_cards(cards))] < 0.45
    bot = trained(AllIn())
    assert decide(bot, spot(cards, 1, [Decision.all_in()])) == Decision.fold()
    # on the button it does not open a hand it would fold to the all in that follows
    assert decide(bot, spot(cards, 0, [])) == Decision.fold()


def test_it_calls_an_all_in_player_s_raise_lighter_than_a_nit_s() -> None:
    """The same raise, by a player who raises every hand and by one who
    raises aces, kings and queens alone: it calls the first with ace-ten and
    folds it to the second."""
    move = [Decision.raise_to(6)]
    assert decide(trained(AllIn()), spot("Ah Ts", 1, [Decision.all_in()])) == Decision.call()
    nit = trained(Nit(), hands=120)
    assert decide(nit, spot("Ah Ts", 1, move)) == Decision.fold()


def test_it_steals_against_a_player_who_folds() -> None:
    """On the button with seven-deuce: a raise against a player who folds
    all but three hands, and a fold against one who goes all in."""
    assert decide(trained(Nit(), hands=120), spot("7h 2s", 0, [])).kind is ActionKind.RAISE
    assert decide(trained(AllIn()), spot("7h 2s", 0, [])) == Decision.fold()


def river(hole: str, seed: int, bot: HardBot) -> Decision:
    """Checked to it on the river of a pot raised before the flop and checked
    since; it is on the button."""
    hand = spot(hole, 0, [Decision.raise_to(6), Decision.call()], board="As Kd 8h 5c 3s")
    for _ in range(6):  # the three streets checked: the flop and turn by both, then them
        if hand.actor == 0 and hand.street is Street.RIVER:
            break
        hand.act(Decision.check())
    legal = hand.legal_actions()
    assert legal is not None and hand.actor == 0 and legal.check
    chooser = copy.deepcopy(bot)
    chooser.rng.seed(seed)
    return chooser.decide(hand.view(0), legal)


def test_against_a_calling_station_it_does_not_bluff_the_river_and_bets_thin() -> None:
    """A player who never folds: with air on the river (seven-deuce on
    A K 8 5 3, nothing) it checks at least 49 times in 50; with top pair
    and a weak kicker it bets for value nearly always."""
    bot = trained(CallingStation(), hands=50)
    air = sum(river("7h 2c", seed, bot).kind is ActionKind.BET for seed in range(50))
    assert air <= 1
    thin = sum(river("Ad 6c", seed, bot).kind is ActionKind.BET for seed in range(20))
    assert thin >= 18


def test_against_a_player_who_folds_it_bluffs_the_river_sometimes() -> None:
    """The same spot against a player who folds whatever missed: the air
    bets some of the time (for the folds), not always."""
    bot = trained(FitOrFold(), hands=120)
    air = sum(river("7h 2c", seed, bot).kind is ActionKind.BET for seed in range(60))
    assert 0 < air < 60


# ------------------------------------------------- told the hands' ends


class Watcher(Bot):
    """Calls; keeps the ends of hands it is told."""

    ends: ClassVar[list[PlayerView]] = []

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        return Decision.show() if legal.show else passive(legal)

    def observe(self, view: PlayerView) -> None:
        Watcher.ends.append(view)


def test_simulate_and_tables_tell_a_bot_each_hand_s_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand a learning bot was dealt in ends with its own view of the
    finished hand (its cards, the others' only where shown)."""
    import holdem.bots
    from holdem import simulate

    monkeypatch.setitem(holdem.bots.BOTS, "watcher", Watcher)
    Watcher.ends = []
    simulate(["watcher", "calling-station", "easy"], hands=30, seed=2)
    assert len(Watcher.ends) == 30 and all(v.phase is Phase.COMPLETE for v in Watcher.ends)
    Watcher.ends = []
    game = CashGame(small_blind=1, big_blind=2, rng=3)
    for seat in range(3):
        game.join(seat, f"p{seat}", 200)
    players = {0: Watcher(), 1: CallingStation(), 2: Watcher()}
    for _ in range(10):
        game.play_hand(players)
        top_up(game, 3)
    assert len(Watcher.ends) == 20
    assert {v.seat for v in Watcher.ends} == {0, 2}
    for view in Watcher.ends:
        assert view.outcome is not None and view.hole_cards is not None
        shown = {seat for seat, _ in view.shown}
        assert shown <= set(view.config.seat_numbers)


def test_the_engine_s_and_the_rooms_tables_tell_a_bot_each_hand_s_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tables of ``holdem engine`` and of the room server (both served by
    ``ServedTable``) tell a learning bot the end of every hand it was dealt
    in, its own view (a room's hard bot learned from its turns alone)."""
    import json

    import holdem.bots
    from holdem.protocol.engine import Engine

    monkeypatch.setitem(holdem.bots.BOTS, "watcher", Watcher)
    Watcher.ends = []
    engine = Engine()
    client = engine.connect()

    def ask(request: dict[str, object]) -> dict[str, object]:
        [(_, reply), *_] = engine.handle(client, json.dumps(request))
        return reply

    ask({"type": "hello", "version": 1})
    players = [{"seat": 0, "name": "w", "bot": "watcher"},
               {"seat": 1, "name": "c", "bot": "calling-station"},
               {"seat": 2, "name": "e", "bot": "easy"}]  # fmt: skip
    made = ask({"type": "create_table", "game": "cash", "seats": 3, "small_blind": 1,
                "big_blind": 2, "seed": 4, "players": players})  # fmt: skip
    table = made["result"]["table"]  # type: ignore[index]
    ask({"type": "start", "table": table, "hands": 12})
    for _ in range(100):
        if engine.tables[table].table.hands_played >= 12:
            break
        engine.handle(client, json.dumps({"type": "state", "table": table}))
        engine.tables[table].advance()
    assert engine.tables[table].table.hands_played == 12
    assert len(Watcher.ends) == 12
    assert all(v.phase is Phase.COMPLETE and v.seat == 0 for v in Watcher.ends)


def test_it_counts_the_all_in_players_still_to_act_and_not_the_folders() -> None:
    """Four-handed: the player before it goes all in, the small blind goes
    all in every hand, the big blind folds all but three hands. It calls
    with ace-nine: against the two all-in players' any two cards, with
    their chips in the pot (the folder counted as a hand in it, the call
    did not pay); with seven-deuce it folds."""
    names = ("hard", "maniac", "nit", "other maniac")
    bot = HardBot(seed=1)
    game = CashGame(small_blind=1, big_blind=2, rng=1)
    for seat, name in enumerate(names):
        game.join(seat, name, 200)
    players = {0: bot, 1: AllIn(), 2: Nit(), 3: AllIn()}
    for _ in range(40):
        game.play_hand(players)
        top_up(game, 4)

    def spot4(cards: str) -> Decision:
        config = HandConfig(stacks=(200,) * 4, button=0, small_blind=1, big_blind=2, names=names)
        hand = Hand(config, hole_cards=[cards, "3c 3d", "4c 4d", "5c 5d"])
        hand.act(Decision.all_in())  # seat 3, first to act
        legal = hand.legal_actions()
        assert legal is not None and hand.actor == 0
        return copy.deepcopy(bot).decide(hand.view(0), legal)

    assert spot4("Ah 9c") == Decision.call()
    assert spot4("7h 2c") == Decision.fold()
