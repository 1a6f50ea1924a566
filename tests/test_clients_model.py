"""The full screen's model of a table (``holdem.clients.model``): fed the
events of real seeded games, it shows what the table is (stacks, bets, pots,
board, whose turn) and holds no card the player may not see."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rooms_helpers import players

from holdem import Decision, HandConfig, LegalActions, PlayerView
from holdem.bots import make_bot
from holdem.cards import parse_cards
from holdem.clients.model import TableModel
from holdem.hand import Hand
from holdem.pots import build_pots
from holdem.rooms import Room
from holdem.table import ActionTaken, Event, HandEnded, HandStarted, Tournament


class Watched:
    """A seeded freezeout of bots, the model of seat ``me`` fed its events as
    ``holdem play`` feeds them (the player's own cards at the deal), and the
    checks each event is given."""

    def __init__(self, seed: int, players: int = 4, me: int | None = 0) -> None:
        names = ["Hero", "Ava", "Ben", "Cleo", "Dev", "Eli"][:players]
        self.event = Tournament(names, stack=600, rng=seed)
        self.table = self.event.table
        self.model = TableModel(me)
        self.me = me
        self.bots = {n: make_bot("easy", seed=seed + i) for i, n in enumerate(names)}
        self.checks: list[Any] = []
        self.table.subscribe(self._tell)

    def _tell(self, event: Event) -> None:
        own = None
        hand = self.table.hand
        me = self.me
        if isinstance(event, ActionTaken) and hand is not None and me in hand.config.seat_numbers:
            own = hand.view(me).hole_cards
        self.model.event(event, own)
        for check in self.checks:
            check(event)

    def play(self, hands: int) -> None:
        for _ in range(hands):
            if self.event.finished:
                break
            self.event.play_hand(self.bots)


def test_the_model_follows_the_table_stacks_bets_pots_board_and_turn() -> None:
    watched = Watched(seed=1, players=5)
    model, table = watched.model, watched.table
    seen = {"turns": 0, "side_pots": 0}

    def check() -> None:
        """At each decision (every event before it told): the model is the table."""
        hand = table.hand
        assert hand is not None
        view = hand.view(hand.config.seat_numbers[0])  # (public: one seat's is every seat's)
        for i, seat in enumerate(view.config.seat_numbers):
            info = model.seats[seat]
            assert (info.stack, info.bet, info.put_in) == (
                view.stacks[i],
                view.bets[i],
                view.contributions[i],
            ), seat
        assert model.board == view.board
        assert model.pot == view.pot
        statuses = view.statuses
        expected = build_pots(
            view.contributions,
            [s in ("active", "all_in", "protected") for s in statuses],
            [s in ("all_in", "protected") or view.stacks[i] == 0 for i, s in enumerate(statuses)],
        )
        seats = view.config.seat_numbers
        assert model.pots == [(c, tuple(seats[i] for i in w)) for c, w in expected]
        seen["turns"] += 1
        assert model.actor == hand.actor

    for name, bot in list(watched.bots.items()):
        watched.bots[name] = _checked(bot, check)
    watched.checks.append(lambda _: seen.update(side_pots=seen["side_pots"] + len(model.pots[1:])))
    watched.play(40)
    assert seen["turns"] > 100  # (the checks ran)
    assert seen["side_pots"]  # (an all in with a side pot was among them)
    assert model.stats.hands >= 1
    assert len(model.reviews) == min(10, model.hand)


def _checked(bot: Any, check: Any) -> Any:
    def decide(view: PlayerView, legal: LegalActions) -> Decision:
        check()
        return bot(view, legal)  # type: ignore[no-any-return]

    return decide


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), me=st.sampled_from([0, 2, None]), players=st.integers(2, 6))
def test_the_model_never_holds_a_card_the_seat_may_not_see(
    seed: int, me: int | None, players: int
) -> None:
    me = me if me is None or me < players else 0
    watched = Watched(seed=seed, players=players, me=me)
    model, table = watched.model, watched.table
    shown: set[int] = set()

    def check(event: Event) -> None:
        hand = table.hand
        if isinstance(event, HandStarted):
            shown.clear()
        if isinstance(event, ActionTaken) and event.action.cards:
            shown.update(event.action.cards)  # (the board, and hands shown: public)
        if hand is None:
            return
        mine = set(model.hole)
        if me is not None and me in hand.config.seat_numbers:
            assert mine <= set(hand.view(me).hole_cards or ())
        else:
            assert not mine
        assert model.visible_cards() <= shown | mine
        for seat in hand.config.seat_numbers:
            hole = set(hand.view(seat).hole_cards or ())
            if seat != me:
                assert not (model.visible_cards() & hole) - shown, (seat, event)

    watched.checks.append(check)
    watched.play(12)


def test_a_showdown_shows_the_best_five_and_the_kicker_that_decided() -> None:
    config = HandConfig(stacks=(1000, 1000), small_blind=5, big_blind=10, button=0)
    hand = Hand(config, hole_cards=["AsKc", "AhQd"], board="Ad 7h 5d 3c 2h")
    model = TableModel(me=0)
    model.event(HandStarted(hand=1, button=0, small_blind_seat=0, big_blind_seat=1,
                            seats=(0, 1), stacks=(1000, 1000), names=("Hero", "Ben"),
                            small_blind=5, big_blind=10))  # fmt: skip
    fed = 0

    def feed() -> None:
        nonlocal fed
        for record in hand.log[fed:]:
            model.action(record, hand.view(0).hole_cards)
        fed = len(hand.log)

    while not hand.done:
        feed()
        legal = hand.legal_actions()
        hand.act(Decision.check() if legal.check else Decision.call())
    feed()
    outcome = hand.outcome
    assert outcome is not None
    model.event(HandEnded(hand=1, outcome=outcome, seats=(0, 1), stacks=outcome.stacks))
    by_name = {s.name: s for s in model.shown}
    assert by_name["Hero"].best == tuple(parse_cards("As Ad Kc 7h 5d"))
    assert by_name["Hero"].description == "One Pair, Aces"
    assert by_name["Hero"].kicker == "King"
    assert by_name["Hero"].won == 20
    assert by_name.get("Ben") is None or by_name["Ben"].kicker is None
    review = model.reviews[0]
    assert review.cards == tuple(parse_cards("AsKc"))
    assert review.won == (("Hero", 20),) and review.net == 10
    assert model.stats.showdowns_won == 1 and model.stats.hands == 1


def test_pot_odds_at_the_players_turn() -> None:
    model = TableModel(me=0)
    model.event(HandStarted(hand=1, button=1, small_blind_seat=1, big_blind_seat=0,
                            seats=(0, 1), stacks=(1000, 1000), names=("Hero", "Ben"),
                            small_blind=5, big_blind=10))  # fmt: skip
    config = HandConfig(stacks=(1000, 1000), small_blind=5, big_blind=10, button=1)
    hand = Hand(config, rng=3)
    hand.act(Decision.raise_to(40))
    for record in hand.log:
        model.action(record, hand.view(0).hole_cards)
    view: PlayerView = hand.view(0)
    legal = hand.legal_actions()
    assert isinstance(legal, LegalActions)
    model.turn(view, legal, None)
    assert model.to_call() == 30
    assert model.pot_odds() == (30, 80)  # (40 + 10 in, and the 30 of the call)
    model.end_turn()
    assert model.pot_odds() is None


def test_a_room_freezeout_seated_again_at_its_start_keeps_each_player_at_one_seat() -> None:
    """A room's lobby with a gap (Ben left seat 2) seats its freezeout again
    from seat 0: the lobby's seat of a player moved is gone (Cleo was shown
    twice, at her lobby seat and her table seat)."""
    model = TableModel(None)
    model.state({"seats": [{"seat": 0, "name": "Ann"}, {"seat": 2, "name": "Cleo"}]})
    model.message({"event": "hand_started", "table": "t1", "hand": 1, "button": 0,
                   "small_blind_seat": 0, "big_blind_seat": 1, "seats": [0, 1],
                   "stacks": [1500, 1500], "names": ["Ann", "Cleo"], "small_blind": 10,
                   "big_blind": 20})  # fmt: skip
    assert {seat: info.name for seat, info in model.seats.items()} == {0: "Ann", 1: "Cleo"}


def test_the_model_holds_names_as_text_a_screen_draws() -> None:
    """A name a server sends that a terminal would obey (ESC, a carriage
    return) is held escaped, as the Teller's lines show it: the full screen's
    seats draw text, never a command."""
    model = TableModel(None)
    model.state({"seats": [{"seat": 0, "name": "Ann\x1b[2J"},
                           {"seat": 1, "name": "Ben\r", "bot": "easy\x1b]0;t\x07"}]})  # fmt: skip
    model.message({"event": "player_joined", "table": "t1", "seat": 2, "name": "Cid\x9b1m"})
    names = {seat: (info.name, info.label) for seat, info in model.seats.items()}
    assert names == {0: ("Ann\\x1b[2J", ""), 1: ("Ben\\r", "easy\\x1b]0;t\\x07"),
                     2: ("Cid\\x9b1m", "")}  # fmt: skip


def test_a_cash_seat_that_busted_and_buys_in_again_is_not_drawn_sitting_out() -> None:
    """A cash player who loses every chip sits out (``sat_out``); a rebuy
    deals them in again, and the room tells only ``chips_added``: the seat
    was drawn "sitting out" while it played on."""
    room = Room(seed=5)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", small_blind=5, big_blind=10,
                      min_buy_in=100, max_buy_in=1000, pace=0, pause=0)  # fmt: skip
    ben.result("join", code=made["code"], name="Ben", buy_in=100)
    ann.result("start", table="t1")
    for _ in range(200):  # (both go all in, or call it, until one has no chips)
        if any(m.get("event") == "sat_out" for m in ann.stream):
            break
        for player, turn in [(p, t) for p in (ann, ben) for t in p.turns()]:
            turn["_answered"] = True
            shove = turn["view"]["legal"]["all_in"] is not None
            player.ask("act", table="t1", action={"kind": "all_in" if shove else "call"})
    (out,) = [m for m in ann.stream if m.get("event") == "sat_out"]
    model = TableModel(0)
    model.state(made["state"])
    for message in ann.stream:
        model.message(message)
    assert model.seats[out["seat"]].presence == "away"
    told = len(ann.stream)
    (ann if out["seat"] == 0 else ben).result("add_chips", table="t1", chips=500)
    rebuy = ann.stream[told]
    assert rebuy["event"] == "chips_added", rebuy
    model.message(rebuy)
    assert (model.seats[out["seat"]].presence, model.seats[out["seat"]].stack) == ("", 500)
    for message in ann.stream[told + 1 :]:  # (the next hand deals the seat in)
        model.message(message)
    assert model.seats[out["seat"]].presence == ""
