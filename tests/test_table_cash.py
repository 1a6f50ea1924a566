"""Cash games (R12) and the turn timer (R13) at a table (issue 11)."""

from __future__ import annotations

import datetime

import pytest

from holdem import ActionKind, Decision, LegalActions, PlayerView
from holdem.errors import ConfigError, TableError
from holdem.table import CashGame, Ledger, Rake, Table, TimerRules, TurnTimer


def passive(view: PlayerView, legal: LegalActions) -> Decision:
    return Decision.check() if legal.check else Decision.call()


def folder(view: PlayerView, legal: LegalActions) -> Decision:
    return Decision.check() if legal.check else Decision.fold()


class Clock:
    """A clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# --- cash games -----------------------------------------------------------------------------


def test_a_top_up_during_a_hand_waits_for_the_next_hand() -> None:
    game = CashGame(small_blind=1, big_blind=2, rng=2)
    game.join(0, "Ann", 100)
    game.join(1, "Bob", 150)
    hand = game.table.start_hand()
    assert game.add_chips(0, 80) is False  # not in play in this hand
    assert hand.stacks_by_seat[0] + hand.contributions[0] == 100
    while not hand.done:
        game.table.act(folder(hand.view(hand.actor), hand.legal_actions()))  # type: ignore[arg-type]
    result = game.table.finish_hand()
    assert game.table.seats[0].chips == result.stacks[0] + 80
    assert game.add_chips(1, 10) is True  # between hands: at once
    assert game.results()["Ann"].bought_in == 180


def test_buy_ins_stay_within_the_table_limits() -> None:
    game = CashGame(small_blind=1, big_blind=2, min_buy_in=50, max_buy_in=200)
    with pytest.raises(
        TableError, match=r"Ann: a stack of 40 is outside this table's buy-in \(50 to 200\)"
    ):
        game.join(0, "Ann", 40)
    game.join(0, "Ann", 150)
    with pytest.raises(
        TableError, match="150 \\+ 60 chips is more than this table's maximum buy-in of 200"
    ):
        game.add_chips(0, 60)
    with pytest.raises(ConfigError, match="minimum must be positive and at most the maximum"):
        CashGame(small_blind=1, big_blind=2, min_buy_in=300, max_buy_in=200)
    for settings, said in (
        ({"min_buy_in": "40"}, "min_buy_in is a whole number, not '40'"),
        ({"max_hands": 1.5}, "max_hands is a whole number"),
        ({"max_hands": True}, "max_hands is a whole number"),
        ({"max_seconds": float("inf")}, "max_seconds is a finite number"),
    ):
        with pytest.raises(ConfigError, match=said) as err:  # (not a TypeError deep inside)
            CashGame(small_blind=1, big_blind=2, **settings)  # type: ignore[arg-type]
        assert err.value.field == next(iter(settings))


def test_rake_has_a_cap_and_no_flop_no_drop() -> None:
    game = CashGame(small_blind=10, big_blind=20, rake=Rake(10, cap=3), rng=5,
                    min_buy_in=100, max_buy_in=2000)  # fmt: skip
    game.join(0, "Ann", 1000)
    game.join(1, "Bob", 1000)
    no_flop = game.play_hand(folder)  # the button folds its small blind: no flop
    assert no_flop.rake == 0 and sum(no_flop.stacks.values()) == 2000
    to_showdown = game.play_hand(passive)  # 40 in the pot, 10%: 4, capped at 3
    assert to_showdown.rake == 3 and sum(to_showdown.stacks.values()) == 2000 - 3
    results = game.play(passive)
    assert sum(r.net for r in results.values()) == -3 * (game.hands_played - 1)
    assert Rake(5).of(1000, flop=True) == 50 and Rake(0.5).of(999, flop=True) == 4
    with pytest.raises(ConfigError, match="rake percent is 0 to 100"):
        Rake(120)


def test_sessions_end_after_their_hands_or_their_time() -> None:
    game = CashGame(small_blind=1, big_blind=2, max_hands=7, rng=1)
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        game.join(seat, name, 100)
    results = game.play(folder)
    assert game.hands_played == 7 and game.over
    assert sum(r.net for r in results.values()) == 0
    assert {r.hands for r in results.values()} == {7}
    assert not game.table.seats  # everyone left with their chips
    with pytest.raises(TableError, match="the session is over"):
        game.play_hand(folder)

    clock = Clock()
    timed = CashGame(small_blind=1, big_blind=2, max_seconds=60, clock=clock, rng=1)
    timed.join(0, "Ann", 100)
    timed.join(1, "Bob", 100)

    def slow(view: PlayerView, legal: LegalActions) -> Decision:
        clock.now += 7
        return folder(view, legal)

    timed.play(slow)
    assert timed.over and 5 <= timed.hands_played <= 10


# --- the turn timer ---------------------------------------------------------------------------


def timed_table(clock: Clock, rules: TimerRules, tournament: bool = False) -> Table:
    table = Table(seats=3, small_blind=1, big_blind=2, rng=4, button=0, tournament=tournament,
                  timer=TurnTimer(rules, clock=clock))  # fmt: skip
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        table.sit(seat, name, 100)
    return table


def test_a_late_decision_checks_when_it_can_and_folds_otherwise() -> None:
    clock = Clock()
    table = timed_table(clock, TimerRules(seconds=10, free_seat_after=None))

    def asleep(view: PlayerView, legal: LegalActions) -> Decision:
        if view.seat == 0:  # Ann, on the button, takes a minute to raise
            clock.now += 60
            return Decision.raise_to(legal.max_to or 0) if legal.wager else Decision.check()
        return passive(view, legal)

    result = table.play_hand(asleep)
    ann = [a for a in result.played.log if a.seat == 0 and a.kind not in (ActionKind.DEAL_HOLE,)]  # type: ignore[union-attr]
    assert ann[0].kind is ActionKind.FOLD  # preflop she faced the big blind: a fold
    assert table.timer is not None and table.timer.in_a_row("Ann") == 1
    table2 = timed_table(Clock(), TimerRules(seconds=10, free_seat_after=None))
    clock2 = table2.timer._clock  # type: ignore[union-attr]

    def big_blind_asleep(view: PlayerView, legal: LegalActions) -> Decision:
        if view.seat == 2:  # Cid in the big blind: checking is free when called
            clock2.now += 60  # type: ignore[attr-defined]
            return Decision.raise_to(legal.max_to or 0) if legal.wager else Decision.check()
        return passive(view, legal)

    result2 = table2.play_hand(big_blind_asleep)
    cid = [a for a in result2.played.log if a.seat == 2 and a.street.label == "preflop"]  # type: ignore[union-attr]
    assert cid[-1].kind is ActionKind.CHECK


def test_two_timeouts_in_a_row_free_a_cash_seat() -> None:
    clock = Clock()
    table = timed_table(clock, TimerRules(seconds=10))

    def gone(view: PlayerView, legal: LegalActions) -> Decision:
        if view.seat == 1:
            clock.now += 11
        return passive(view, legal)

    table.play_hand(gone)
    assert 1 in table.seats  # one timeout: still seated
    while 1 in table.seats:
        table.play_hand(gone)
    assert table.timer is not None and table.timer.must_leave("Bob")


def test_a_tournament_player_timed_out_stays_in_play_until_they_come_back() -> None:
    clock = Clock()
    table = timed_table(clock, TimerRules(seconds=10), tournament=True)
    asked: list[int] = []

    def gone(view: PlayerView, legal: LegalActions) -> Decision:
        asked.append(view.seat)
        if view.seat == 1:
            clock.now += 11
        return passive(view, legal)

    for _ in range(4):
        table.play_hand(gone)
    assert 1 in table.seats and 1 in table.away
    asked.clear()
    table.play_hand(gone)
    assert 1 not in asked  # taken away: the table checks or folds at once
    table.come_back(1)
    table.play_hand(gone)
    assert 1 in asked


def test_disconnect_protection_puts_the_player_all_in_for_what_they_put_in() -> None:
    clock = Clock()
    wall = [datetime.datetime(2026, 12, 1, 20, 0).timestamp()]
    rules = TimerRules(seconds=10, policy="protect", protections_per_day=1, free_seat_after=None)
    table = Table(seats=2, small_blind=1, big_blind=2, rng=4, button=0,
                  timer=TurnTimer(rules, clock=clock, wall=lambda: wall[0]))  # fmt: skip
    table.sit(0, "Ann", 100)
    table.sit(1, "Bob", 100)

    def ann_away(view: PlayerView, legal: LegalActions) -> Decision:
        if view.seat == 0 and legal.call is not None:  # facing a raise: she drops out
            clock.now += 11
        if view.seat == 1 and legal.wager is not None and legal.min_to is not None:
            return Decision(legal.wager, legal.min_to)
        return passive(view, legal)

    first = table.play_hand(ann_away)
    kinds = [a.kind for a in first.played.log if a.seat == 0]  # type: ignore[union-attr]
    assert ActionKind.TIMEOUT in kinds  # protected: she stays in for the pot so far
    second = table.play_hand(ann_away)  # no protection left in these 24 hours: a fold
    kinds = [a.kind for a in second.played.log if a.seat == 0]  # type: ignore[union-attr]
    assert ActionKind.TIMEOUT not in kinds and ActionKind.FOLD in kinds
    wall[0] += 86_400
    assert table.timer is not None and table.timer.protections_left("Ann") == 1


def test_the_time_bank_pays_for_slow_decisions_until_it_is_spent() -> None:
    clock = Clock()
    timer = TurnTimer(TimerRules(seconds=10, time_bank=15), clock=clock)
    timer.start("Ann")
    clock.now += 20
    assert timer.stop("Ann") and timer.bank("Ann") == 5
    timer.start("Ann")
    assert not timer.timed_out("Ann")
    clock.now += 16
    assert timer.timed_out("Ann") and not timer.stop("Ann") and timer.bank("Ann") == 0
    with pytest.raises(ConfigError, match="seconds must be positive"):
        TimerRules(seconds=0)
    # what a snapshot could not write (NaN, infinity) or a caller mistyped
    for fields, said in (
        ({"seconds": float("inf")}, "seconds must be a finite"),
        ({"time_bank": float("nan")}, "time_bank must be a finite"),
        ({"seconds": "30"}, "seconds is a number of seconds, not '30'"),
        ({"time_bank": True}, "time_bank is a number"),
        ({"protections_per_day": 1.5}, "protections_per_day is a whole number"),
        ({"free_seat_after": "2"}, "free_seat_after is a whole number"),
    ):
        with pytest.raises(ConfigError, match=said) as err:
            TimerRules(**fields)  # type: ignore[arg-type]
        assert err.value.field == next(iter(fields))
    assert TimerRules(free_seat_after=None).free_seat_after is None


def test_a_top_up_waiting_for_a_hand_won_fills_the_stack_only_to_the_maximum() -> None:
    game = CashGame(small_blind=1, big_blind=2, min_buy_in=50, max_buy_in=200, rng=2)
    game.join(0, "Ann", 150)
    game.join(1, "Bob", 150)
    hand = game.table.start_hand()
    assert game.add_chips(0, 50) is False  # 150 + 50: the maximum, if she wins nothing
    while not hand.done:  # Ann raises, Bob folds: Ann wins his big blind
        legal = hand.legal_actions()
        assert legal is not None and legal.min_to is not None
        if hand.actor == 0:
            game.table.act(Decision(legal.wager, legal.min_to) if legal.wager else Decision.check())
        else:
            game.table.act(Decision.check() if legal.check else Decision.fold())
    result = game.table.finish_hand()
    assert result.stacks[0] == 152
    assert game.table.seats[0].chips == 200  # the room left, not the 50 asked for
    assert game.results()["Ann"].bought_in == 150 + 200 - result.stacks[0]


def test_the_ledger_counts_chips_in_and_out_and_hands_however_they_are_played() -> None:
    game = CashGame(small_blind=1, big_blind=2, max_buy_in=200, rng=3)
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        game.join(seat, name, 100)
    game.play_hand(folder)
    hand = game.table.start_hand()  # a hand driven step by step: counted too
    assert game.add_chips(1, 50) is False  # (added after the hand)
    while not hand.done:
        game.table.act(Decision.fold() if not hand.legal_actions().check else Decision.check())  # type: ignore[union-attr]
    game.table.finish_hand()
    bob = game.table.stack(1)
    assert game.table.leave(2) is True
    ledger = game.table.ledger()
    assert ledger["Ann"] == Ledger(brought=100, taken=0, hands=2)
    assert ledger["Bob"].brought == 150 and ledger["Bob"].hands == 2
    assert ledger["Cid"].taken == game.results()["Cid"].cashed_out
    assert game.results()["Bob"].cashed_out == bob
    total_in = sum(entry.brought for entry in ledger.values())
    held = sum(seat.chips for seat in game.table.seats.values())
    assert total_in == held + sum(entry.taken for entry in ledger.values())


def test_a_top_up_asked_for_in_a_hand_that_busts_the_player_is_no_rebuy_below_the_minimum() -> None:
    game = CashGame(small_blind=1, big_blind=2, min_buy_in=80, max_buy_in=200, rng=1)
    game.join(0, "Ann", 150)
    game.join(1, "Bob", 200)
    hand = game.table.start_hand()
    assert game.add_chips(0, 50) is False  # waits for the hand's end
    while not hand.done:  # both all in
        legal = hand.legal_actions()
        assert legal is not None
        game.table.act(Decision.all_in() if legal.all_in else Decision.call())
    result = game.table.finish_hand()
    ann = game.table.seat(0)
    assert ann is not None
    assert result.busted == (0,)  # (these cards bust Ann)
    assert ann.chips == 0 and ann.status == "sitting_out"  # the 50 are not added
    assert game.results()["Ann"].bought_in == 150
    with pytest.raises(TableError, match="rebuy of 50 is below"):
        game.add_chips(0, 50)  # as a rebuy asked for between hands is refused
