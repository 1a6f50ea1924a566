"""One hand's rules (RULES.md R3-R10, R13, R14): one test per rule, golden scenarios."""

from __future__ import annotations

import pytest

from holdem.actions import ActionKind, Street
from holdem.cards import parse_cards
from holdem.config import HandConfig, HeadsUpCap, Post, Structure
from holdem.errors import ConfigError, HoldemError, IllegalActionError
from holdem.hand import Hand, Phase

# ------------------------------------------------------------------ helpers


def deal(n: int, known: dict[int, str] | None = None, board: str = "") -> list[str | None]:
    """Hole cards for n seats: the ``known`` ones, the rest filled with unused cards."""
    known = known or {}
    used = set(parse_cards(board))
    for text in known.values():
        used.update(parse_cards(text))
    free = iter(c for c in range(52) if c not in used)
    hole: list[str | None] = []
    for seat in range(n):
        if seat in known:
            hole.append(known[seat])
        else:
            a, b = next(free), next(free)
            hole.append(_txt(a) + _txt(b))
    return hole


def _txt(c: int) -> str:
    return "23456789TJQKA"[c >> 2] + "cdhs"[c & 3]


def play(hand: Hand, script: str) -> None:
    """Plays ``seat action [to]`` steps separated by commas, e.g. ``"3 raise 600, 4 fold"``."""
    for step in filter(None, (s.strip() for s in script.split(","))):
        words = step.split()
        seat, kind = int(words[0]), words[1]
        to = int(words[2]) if len(words) > 2 else None
        hand.act(kind, to, seat=seat)


def conserved(hand: Hand) -> bool:
    return sum(hand.stacks) + hand.pot == sum(hand.config.stacks)


def cfg(
    stacks: list[int] | tuple[int, ...], button: int = 0, sb: int = 1, bb: int = 2, **kw: object
) -> HandConfig:
    return HandConfig(stacks=tuple(stacks), button=button, small_blind=sb, big_blind=bb, **kw)  # type: ignore[arg-type]


# ------------------------------------------------- Appendix A (real room)

# 8 players, blinds 100/200; button 0, SB 1, BB 2, UTG 3, then 4..7; BTN is seat 0.
UTG, BTN, SB, BB = 3, 0, 1, 2


def appendix_hand(known: dict[int, str] | None = None, board: str = "2c7d9hJdKs") -> Hand:
    config = cfg([20_000] * 8, button=0, sb=100, bb=200)
    hand = Hand(config, hole_cards=deal(8, known, board), board=board)
    with pytest.raises(IllegalActionError, match=r"minimum raise is to 400 \(preflop\)"):
        hand.raise_to(399, seat=UTG)
    play(hand, "3 raise 600")
    # the note of the appendix: after a raise to 600 the next raise is to at least 1,000
    assert hand.legal_actions().min_to == 1000  # type: ignore[union-attr]
    play(hand, "4 fold, 5 fold, 6 fold, 7 fold, 0 call, 1 fold, 2 call")
    assert hand.street is Street.FLOP
    assert hand.actor == BB  # BB acts first after the flop (SB folded)
    play(hand, "2 check, 3 bet 1000, 0 call, 2 fold")
    assert hand.street is Street.TURN
    return hand


def test_appendix_a_hand_1_wins_without_showing() -> None:
    hand = appendix_hand()
    play(hand, "3 bet 2000, 0 fold")
    out = hand.outcome
    assert out is not None and not out.showdown and out.shown == ()
    assert out.returned[UTG] == 2000  # the uncalled turn bet (R9)
    assert out.pots[0].amount == 600 * 3 + 100 + 2000
    assert out.net[UTG] == 3900 - 1600
    assert out.net[BTN] == -1600 and out.net[BB] == -600 and out.net[SB] == -100
    assert sum(out.net) == 0


@pytest.mark.parametrize(
    ("utg", "btn", "winners", "btn_shows"),
    [
        ("AhAd", "KhKd", (BTN,), True),  # BTN better: must show to win
        ("AhAd", "QhQd", (UTG,), False),  # BTN cannot win: mucks
    ],
)
def test_appendix_a_hand_2_river_aggressor_shows_first(
    utg: str, btn: str, winners: tuple[int, ...], btn_shows: bool
) -> None:
    hand = appendix_hand({UTG: utg, BTN: btn})
    play(hand, "3 bet 2000, 0 call, 3 bet 3000, 0 call")
    out = hand.outcome
    assert out is not None and out.showdown
    assert out.shown[0].seat == UTG  # last aggressor on the river shows first (R10)
    assert [h.seat for h in out.shown] == ([UTG, BTN] if btn_shows else [UTG])
    assert out.mucked == (() if btn_shows else (BTN,))
    assert out.pots[0].winners == winners
    assert out.pots[0].amount == 1900 + 2000 + 4000 + 6000


def test_appendix_a_hand_2_identical_hands_split() -> None:
    board = "TcJdQhKsAd"  # everybody plays the board
    hand = appendix_hand({UTG: "2c3c", BTN: "4h5h"}, board=board)
    play(hand, "3 bet 2000, 0 call, 3 bet 3000, 0 call")
    out = hand.outcome
    assert out is not None
    assert out.pots[0].winners == (UTG, BTN)  # clockwise from the first seat left of the button
    assert out.pots[0].shares == (6950, 6950)
    assert out.shown[0].description == "Straight, Ace high"


def test_appendix_a_hand_3_river_bettor_shows_first() -> None:
    hand = appendix_hand({UTG: "AhAd", BTN: "9c9d"})  # BTN has trips
    play(hand, "3 bet 2000, 0 raise 6000, 3 call")
    assert hand.street is Street.RIVER
    play(hand, "3 check, 0 bet 10000, 3 call")
    out = hand.outcome
    assert out is not None
    assert out.shown[0].seat == BTN  # the last aggressor shows first
    assert out.mucked == (UTG,)  # UTG cannot win: mucks
    assert out.pots[0].winners == (BTN,)
    assert (
        out.net[BTN] == 1900 - 600 + 2000 + 12_000 + 20_000 - 0 - 1000 - 6000 - 10_000 + 600 - 600
    )


def test_appendix_a_hand_3_better_caller_must_show_to_win() -> None:
    hand = appendix_hand({UTG: "KhKd", BTN: "AhAd"})  # UTG has trips
    play(hand, "3 bet 2000, 0 raise 6000, 3 call, 3 check, 0 bet 10000, 3 call")
    out = hand.outcome
    assert out is not None
    assert [h.seat for h in out.shown] == [BTN, UTG]
    assert out.pots[0].winners == (UTG,)
    assert out.shown[1].description == "Three of a Kind, Kings"


# ---------------------------------------------------- R3 seats and blinds


def test_r3_blinds_left_of_button_and_uneven_blinds() -> None:
    hand = Hand(cfg([1000] * 4, button=2, sb=10, bb=25), rng=1)
    posts = [(a.kind, a.seat, a.amount) for a in hand.log[:2]]
    assert posts == [(ActionKind.SMALL_BLIND, 3, 10), (ActionKind.BIG_BLIND, 0, 25)]
    assert hand.actor == 1  # left of the big blind


def test_r3_r4_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    hand = Hand(cfg([100, 100], button=1), rng=2)
    assert [(a.kind, a.seat) for a in hand.log[:2]] == [
        (ActionKind.SMALL_BLIND, 1),
        (ActionKind.BIG_BLIND, 0),
    ]
    assert hand.actor == 1  # the button acts first preflop
    play(hand, "1 call")
    assert hand.actor == 0  # the big blind's option
    play(hand, "0 check")
    assert hand.street is Street.FLOP and hand.actor == 0  # BB first after the flop
    play(hand, "0 check")
    assert hand.actor == 1  # the button last


def test_r3_missing_small_blind_first_left_of_button_posts_big_blind() -> None:
    config = cfg([100] * 4, button=0, missing_small_blind=True)
    assert config.small_blind_seat is None and config.big_blind_seat == 1
    hand = Hand(config, rng=3)
    assert [(a.kind, a.seat, a.amount) for a in hand.log[:1]] == [(ActionKind.BIG_BLIND, 1, 2)]
    assert hand.pot == 2 and hand.actor == 2
    play(hand, "2 call, 3 call, 0 call, 1 check")
    assert hand.street is Street.FLOP and hand.actor == 1


def test_r3_dead_button_first_left_of_it_acts_first_postflop() -> None:
    # seats 0..3; the button is on an empty seat after seat 3: seat 0 is SB
    config = cfg([100] * 4, button=3, dead_button=True)
    hand = Hand(config, rng=4)
    assert config.small_blind_seat == 0 and config.big_blind_seat == 1
    play(hand, "2 call, 3 call, 0 call, 1 check")
    assert hand.actor == 0


def test_r3_dead_blind_and_new_players_live_post() -> None:
    # seat 4 comes back after missing blinds: big blind live, small blind dead;
    # seat 3 is a new player posting a live big blind.
    posts = (Post(seat=4, amount=2), Post(seat=4, amount=1, dead=True), Post(seat=3, amount=2))
    hand = Hand(cfg([100] * 6, button=0, posts=posts), rng=5)
    assert hand.pot == 1 + 2 + 2 + 1 + 2
    assert hand.bets == (0, 1, 2, 2, 2, 0)  # the dead blind is not part of seat 4's bet
    assert hand.contributions[4] == 3
    assert hand.actor == 3
    legal = hand.legal_actions()
    assert legal is not None and legal.check and legal.call is None  # the live post counts
    play(hand, "3 check, 4 check, 5 call, 0 call, 1 call, 2 check")
    assert hand.street is Street.FLOP
    assert hand.pot == 6 * 2 + 1


def test_r3_live_post_keeps_the_option_when_action_returns_unraised() -> None:
    hand = Hand(cfg([100] * 5, button=0, posts=(Post(seat=4, amount=2),)), rng=6)
    play(hand, "3 call")
    assert hand.actor == 4
    assert hand.legal_actions().wager is ActionKind.RAISE  # type: ignore[union-attr]
    play(hand, "4 raise 6")
    assert hand.actor == 0


def test_r3_straddle_acts_last_preflop_and_counts_as_big_blind() -> None:
    hand = Hand(cfg([1000] * 5, button=0, straddle=4), rng=7)
    assert hand.config.straddle_seat == 3
    assert hand.actor == 4 and hand.current_bet == 4
    legal = hand.legal_actions()
    assert legal is not None and legal.call == 4 and legal.min_to == 8
    play(hand, "4 call, 0 call, 1 call, 2 call")
    assert hand.actor == 3 and hand.can_check()  # the straddle's option


def test_r3_config_errors_name_field_and_value() -> None:
    with pytest.raises(ConfigError, match=r"invalid button=5: must be a seat 0\.\.2") as err:
        cfg([10] * 3, button=5)
    assert err.value.field == "button" and err.value.value == 5
    with pytest.raises(ConfigError, match="stacks"):
        cfg([10, 0, 10])
    with pytest.raises(ConfigError, match=r"invalid stacks=.*2 to 10 players, got 11"):
        cfg([10] * 11)
    with pytest.raises(ConfigError, match="big_blind"):
        cfg([10] * 3, bb=0)
    with pytest.raises(ConfigError, match="small_blind=5: is larger"):
        cfg([10] * 3, sb=5, bb=2)
    with pytest.raises(ConfigError, match="structure='no limit'"):
        cfg([10] * 3, structure="no limit")
    with pytest.raises(ConfigError, match="straddle"):
        cfg([10] * 3, straddle=3)
    with pytest.raises(ConfigError, match="small_bet"):
        cfg([10] * 3, structure=Structure.FIXED_LIMIT, small_bet=4)
    with pytest.raises(ConfigError, match="posts"):
        cfg([10] * 3, posts=(Post(seat=2, amount=2),))  # seat 2 is the big blind
    with pytest.raises(ConfigError, match="heads_up_cap"):
        cfg([10] * 3, heads_up_cap="sometimes")
    assert cfg([10] * 3, structure="pot-limit").structure is Structure.POT_LIMIT


# ------------------------------------------------------- R4 order, option


def test_r4_big_blind_option_check_or_raise() -> None:
    hand = Hand(cfg([100] * 3, button=0), rng=8)
    play(hand, "0 call, 1 call")
    assert hand.actor == 2
    legal = hand.legal_actions()
    assert legal is not None and legal.check and legal.wager is ActionKind.RAISE
    assert legal.min_to == 4
    play(hand, "2 raise 8")
    assert hand.actor == 0 and hand.street is Street.PREFLOP  # the limpers act again
    play(hand, "0 call, 1 call")
    assert hand.street is Street.FLOP and hand.actor == 1


def test_r4_postflop_starts_with_first_active_left_of_button() -> None:
    hand = Hand(cfg([100] * 4, button=0), rng=9)
    play(hand, "3 call, 0 call, 1 fold, 2 check")
    assert hand.street is Street.FLOP and hand.actor == 2


def test_r4_run_out_when_no_more_betting_is_possible() -> None:
    hand = Hand(cfg([50, 100, 100], button=0), rng=10)
    play(hand, "0 all-in, 1 call, 2 fold")
    # one player can still act and has matched: no more betting, the board runs out
    assert hand.done
    assert len(hand.board) == 5
    out = hand.outcome
    assert out is not None and {h.seat for h in out.shown} == {0, 1}  # face up (R10)


def test_r4_single_player_who_can_act_must_still_call_an_all_in() -> None:
    hand = Hand(cfg([100, 100, 40], button=0), rng=11)
    play(hand, "0 fold, 1 call, 2 check")
    play(hand, "1 check, 2 all-in")
    assert hand.actor == 1
    legal = hand.legal_actions()
    assert legal is not None and legal.call == 38 and legal.wager is None
    play(hand, "1 call")
    assert hand.done


# ---------------------------------------------------------- R5 actions


def test_r5_check_only_without_a_bet_and_all_in_always_allowed() -> None:
    hand = Hand(cfg([100, 100, 3], button=0), rng=12)
    with pytest.raises(IllegalActionError, match=r"illegal check by seat 0: there is a bet of 2"):
        hand.check()
    play(hand, "0 call, 1 call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2
    assert legal.check and legal.all_in == 3 and legal.wager is None  # all-in for less
    play(hand, "2 all-in")
    assert hand.log[-1].kind is ActionKind.RAISE and hand.log[-1].all_in


def test_r5_legal_actions_amounts_are_to_amounts() -> None:
    hand = Hand(cfg([200, 200, 200], button=0, sb=5, bb=10), rng=13)
    play(hand, "0 raise 30")
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.call, legal.min_to, legal.max_to, legal.all_in) == (
        1,
        30,
        50,
        200,
        200,
    )
    # the protected timeout is a referee's step, not on the player's menu (issue 9)
    assert str(legal) == "seat 1: fold, call to 30, raise to 50..200, all-in to 200"
    with pytest.raises(IllegalActionError, match=r"illegal bet to 60 by seat 1: the big blind"):
        hand.bet(60)
    with pytest.raises(IllegalActionError, match="has only 195 chips"):
        hand.raise_to(201)
    with pytest.raises(IllegalActionError, match="it is seat 1's turn"):
        hand.call(seat=2)


def test_r5_dealer_steps_one_at_a_time() -> None:
    hand = Hand(cfg([100] * 3, button=0), rng=14, auto=False)
    assert hand.phase is Phase.POSTING and hand.pending is ActionKind.SMALL_BLIND
    with pytest.raises(IllegalActionError, match="the cards are not dealt yet"):
        hand.call()
    kinds = [hand.step().kind for _ in range(3)]  # type: ignore[union-attr]
    assert kinds == [ActionKind.SMALL_BLIND, ActionKind.BIG_BLIND, ActionKind.DEAL_HOLE]
    assert hand.phase is Phase.BETTING and not hand.can_step()
    with pytest.raises(IllegalActionError, match="no dealer step"):
        hand.step()
    play(hand, "0 call, 1 call, 2 check")
    assert hand.phase is Phase.BOARD and hand.pending is ActionKind.DEAL_BOARD
    record = hand.step()
    assert record is not None and record.street is Street.FLOP and len(record.cards) == 3
    assert len(hand.burns) == 1


# ---------------------------------------------------- R6 no-limit sizes


def test_r6_minimum_bet_is_one_big_blind_maximum_the_stack() -> None:
    hand = Hand(cfg([500] * 2, button=0, sb=50, bb=100), rng=15)
    play(hand, "0 call, 1 check")
    legal = hand.legal_actions()
    assert legal is not None and legal.wager is ActionKind.BET
    assert (legal.min_to, legal.max_to) == (100, 400)
    with pytest.raises(
        IllegalActionError, match=r"illegal bet to 99 by seat 1: minimum bet is to 100 \(flop\)"
    ):
        hand.bet(99)


def test_r6_minimum_raise_is_last_full_increment() -> None:
    hand = Hand(cfg([10_000] * 4, button=0, sb=100, bb=200), rng=16)
    play(hand, "3 raise 600")
    with pytest.raises(IllegalActionError, match="minimum raise is to 1000"):
        hand.raise_to(999)
    play(hand, "0 raise 1000, 1 fold")
    assert hand.legal_actions().min_to == 1400  # type: ignore[union-attr]


def test_r06_a_re_raise_after_a_raise_to_200_at_50_100_is_to_300_not_the_rooms_400() -> None:
    """R6's named reading: one room's text (KKPoker) gives the minimum
    re-raise after a raise to 200 at 50/100 as a total of 400; the increment
    rule (TDA, Robert's Rules) gives 300, and is the one played."""
    hand = Hand(cfg([10_000] * 3, button=0, sb=50, bb=100), rng=5)
    play(hand, "0 raise 200")
    legal = hand.legal_actions()
    assert legal is not None and legal.min_to == 300
    hand.raise_to(300)  # (the room's wording would refuse it)
    assert hand.legal_actions().min_to == 400  # type: ignore[union-attr]


def test_r6_short_all_in_big_blind_must_be_called_in_full() -> None:
    hand = Hand(cfg([1000, 1000, 50, 1000], button=0, sb=50, bb=100), rng=17)
    assert hand.log[1].all_in and hand.log[1].amount == 50
    assert hand.current_bet == 100
    legal = hand.legal_actions()
    assert legal is not None and legal.call == 100 and legal.min_to == 200
    play(hand, "3 call, 0 call, 1 call")
    assert hand.street is Street.FLOP
    assert hand.contributions == (100, 100, 50, 100)


def test_r6_all_in_for_less_than_minimum_bet() -> None:
    hand = Hand(cfg([1000, 130, 1000], button=0, sb=50, bb=100), rng=18)
    play(hand, "0 call, 1 call, 2 check")
    play(hand, "1 bet 30")  # all-in for less than the minimum bet
    assert hand.log[-1].all_in
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2
    assert legal.call == 30 and legal.min_to == 130  # a full bet on top


# ------------------------------------------------- R7 incomplete raises


def wsop_96a(e_all_in: bool = True, e_stack: int = 1_800) -> Hand:
    # A..E are seats 0..4, button 4; everybody limps, then on the flop:
    # A bets 500, B raises to 1,000, C calls, D all-in 1,300, E all-in 1,700.
    stacks = [10_000, 10_000, 10_000, 1_400, e_stack]
    hand = Hand(cfg(stacks, button=4, sb=50, bb=100), rng=19)
    play(hand, "2 call, 3 call, 4 call, 0 call, 1 check")
    play(hand, "0 bet 500, 1 raise 1000, 2 call, 3 all-in")
    if e_all_in:
        play(hand, "4 all-in")
    return hand


def test_r7_wsop_96a_two_short_all_ins_add_up_to_a_full_raise() -> None:
    hand = wsop_96a()
    assert [a.to for a in hand.log[-2:]] == [1300, 1700]
    assert hand.actor == 0
    play(hand, "0 call")
    for seat in (1, 2):  # B and C may raise again, to at least 2,200
        legal = hand.legal_actions()
        assert legal is not None and legal.seat == seat
        assert legal.wager is ActionKind.RAISE and legal.min_to == 2200
        with pytest.raises(IllegalActionError, match=r"minimum raise is to 2200 \(flop\)"):
            hand.raise_to(2199)
        play(hand, f"{seat} call")


def test_r7_incomplete_all_in_does_not_reopen() -> None:
    hand = wsop_96a(e_all_in=False)
    play(hand, "4 call, 0 call")  # A had not acted since B's full raise: A could raise
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1
    assert legal.call == 1300 and legal.wager is None and legal.all_in is None
    with pytest.raises(
        IllegalActionError, match="faces only 300 more, less than a full raise of 500"
    ):
        hand.raise_to(1800)


def test_r7_players_who_had_not_acted_keep_all_options() -> None:
    hand = wsop_96a(e_all_in=False, e_stack=10_000)
    legal = hand.legal_actions()  # E has not acted yet
    assert legal is not None and legal.seat == 4 and legal.wager is ActionKind.RAISE
    assert legal.min_to == 1800  # the last full raise (500) on top of 1,300


def test_r7_full_raise_all_in_after_short_ones_reopens_by_itself() -> None:
    stacks = [10_000, 800, 1_300, 10_000]
    hand = Hand(cfg(stacks, button=3, sb=50, bb=100), rng=20)
    play(hand, "2 call, 3 call, 0 call, 1 check")
    play(hand, "0 bet 500, 1 all-in")  # short: 700, +200
    play(hand, "2 all-in")  # full: 1,200, +500
    play(hand, "3 call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0
    assert legal.wager is ActionKind.RAISE and legal.min_to == 1700


def test_r7_short_all_ins_before_a_full_raise_do_not_count_after_it() -> None:
    # A bets 100, B all-in 190 (+90), C all-in 290 (+100, full), A calls,
    # D all-in 350 (+60): A faces 60 since acting: no raise, although
    # 90 + 60 would add up to a full raise.
    stacks = [10_000, 210, 310, 370, 10_000]
    hand = Hand(cfg(stacks, button=4, sb=10, bb=20), rng=21)
    play(hand, "2 call, 3 call, 4 call, 0 call, 1 check")
    play(hand, "0 bet 100, 1 all-in, 2 all-in, 3 all-in")
    assert [a.to for a in hand.log[-3:]] == [190, 290, 350]
    play(hand, "4 call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0
    assert legal.wager is ActionKind.RAISE  # A acted at 100: faces 250 >= 100
    play(hand, "0 call")
    assert hand.street is Street.TURN
    # same with A calling 290 before D's all-in
    hand = Hand(cfg(stacks, button=4, sb=10, bb=20), rng=21)
    play(hand, "2 call, 3 call, 4 call, 0 call, 1 check")
    play(hand, "0 bet 100, 1 all-in, 2 all-in, 3 fold, 4 call, 0 call")
    assert hand.street is Street.TURN


def test_r7_short_all_in_raises_then_reraise_after_it() -> None:
    stacks = [10_000, 10_000, 10_000, 1_000]
    hand = Hand(cfg(stacks, button=0, sb=100, bb=200), rng=22)
    play(hand, "3 all-in")  # 1000: a full raise (+800)
    assert hand.legal_actions().min_to == 1800  # type: ignore[union-attr]


def test_r7_fixed_limit_half_bet_rule() -> None:
    fl = {"structure": Structure.FIXED_LIMIT}
    # all-in of at least half a bet counts as a raise and reopens
    hand = Hand(cfg([1000, 1000, 1000, 27], button=3, sb=5, bb=10, **fl), rng=23)
    play(hand, "2 call, 3 call, 0 call, 1 check")  # the button limps (7 left)
    play(hand, "0 bet 10, 1 call, 2 call, 3 all-in")  # 17: +7 >= 5
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0
    assert legal.wager is ActionKind.RAISE and legal.min_to == legal.max_to == 27
    # less than half a bet does not reopen; players yet to act may complete
    hand = Hand(cfg([1000, 1000, 1000, 24], button=3, sb=5, bb=10, **fl), rng=23)
    play(hand, "2 call, 3 call, 0 call, 1 check")
    play(hand, "0 bet 10, 1 call, 2 call, 3 all-in")  # 14: +4 < 5
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.wager is None and legal.call == 14
    hand = Hand(cfg([1000, 1000, 1000, 14], button=2, sb=5, bb=10, **fl), rng=23)
    # button 2: SB 3, BB 0, UTG 1; postflop order 3, 0, 1, 2
    play(hand, "1 call, 2 call, 3 call, 0 check")
    play(hand, "3 bet 4")  # all-in, less than half a bet
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.min_to == 10  # complete the bet
    play(hand, "0 call, 1 call, 2 raise 10")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.min_to == 20  # reopened by a full bet


# ---------------------------------------------------- R8 fixed-limit


def fl_config(n: int, **kw: object) -> HandConfig:
    return cfg([10_000] * n, button=0, sb=5, bb=10, structure=Structure.FIXED_LIMIT, **kw)


def test_r8_fixed_limit_bets_are_exactly_one_unit() -> None:
    hand = Hand(fl_config(3), rng=24)
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (20, 20)
    with pytest.raises(IllegalActionError, match="fixed-limit is to exactly 20"):
        hand.raise_to(25)
    play(hand, "0 call, 1 call, 2 check, 1 bet 10, 2 call, 0 call")
    assert hand.street is Street.TURN
    assert hand.legal_actions().min_to == 20  # type: ignore[union-attr]  # big bet


def test_r8_cap_bet_and_three_raises_four_players() -> None:
    hand = Hand(fl_config(4), rng=25)
    # preflop: the big blind is the bet; raises to 20, 30, 40 reach the cap
    play(hand, "3 raise 20, 0 raise 30, 1 raise 40")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.wager is None and legal.call == 40
    with pytest.raises(IllegalActionError, match=r"capped \(a bet and 3 raises\)"):
        hand.raise_to(50)
    play(hand, "2 call, 3 call, 0 call")
    assert hand.street is Street.FLOP
    play(hand, "1 bet 10, 2 raise 20, 3 raise 30, 0 raise 40")
    assert hand.legal_actions().wager is None  # type: ignore[union-attr]


def test_r8_cap_bet_and_four_raises_option() -> None:
    hand = Hand(fl_config(4, raise_cap=4), rng=26)
    play(hand, "3 raise 20, 0 raise 30, 1 raise 40")
    assert hand.legal_actions().min_to == 50  # type: ignore[union-attr]
    play(hand, "2 raise 50")
    assert hand.legal_actions().wager is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("policy", "heads_up_from_start_uncapped", "two_left_uncapped"),
    [
        (HeadsUpCap.NEVER, False, False),
        (HeadsUpCap.ROUND_START, True, False),
        (HeadsUpCap.TWO_LEFT, True, True),
    ],
)
def test_r8_cap_heads_up_policies(
    policy: HeadsUpCap, heads_up_from_start_uncapped: bool, two_left_uncapped: bool
) -> None:
    # two players from the start
    hand = Hand(
        cfg([10_000] * 2, button=0, sb=5, bb=10, structure="fixed-limit", heads_up_cap=policy),
        rng=27,
    )
    play(hand, "0 raise 20, 1 raise 30, 0 raise 40")
    assert (hand.legal_actions().wager is not None) == heads_up_from_start_uncapped  # type: ignore[union-attr]
    # three players, one folds before the cap: two left
    hand = Hand(
        cfg([10_000] * 3, button=0, sb=5, bb=10, structure="fixed-limit", heads_up_cap=policy),
        rng=27,
    )
    play(hand, "0 fold, 1 raise 20, 2 raise 30, 1 raise 40")
    assert (hand.legal_actions().wager is not None) == two_left_uncapped  # type: ignore[union-attr]
    # capped while three were in: stays capped after a fold
    hand = Hand(
        cfg([10_000] * 3, button=0, sb=5, bb=10, structure="fixed-limit", heads_up_cap=policy),
        rng=27,
    )
    play(hand, "0 raise 20, 1 raise 30, 2 raise 40, 0 fold")
    assert hand.legal_actions().wager is None  # type: ignore[union-attr]


# ---------------------------------------------------------- pot-limit


def test_r6_pot_limit_maximum() -> None:
    hand = Hand(cfg([1000] * 3, button=0, structure="pot-limit"), rng=28)
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (4, 7)  # 3 + call 2 = 5 on top
    assert legal.all_in is None  # more than the pot
    with pytest.raises(IllegalActionError, match=r"maximum raise is to 7 \(pot-limit\)"):
        hand.raise_to(8)
    play(hand, "0 raise 7, 1 call, 2 call")
    assert hand.pot == 21
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (2, 21)
    play(hand, "1 bet 10")
    assert hand.legal_actions().max_to == 10 + 31 + 10  # type: ignore[union-attr]


# --------------------------------------------------------------- R9 pots


def test_r9_all_in_100_against_two_300_main_and_side_pot() -> None:
    hand = Hand(cfg([100, 1000, 1000], button=0, sb=10, bb=20), rng=29)
    play(hand, "0 all-in, 1 raise 300, 2 call")
    play(hand, "1 check, 2 check, 1 check, 2 check, 1 check, 2 check")
    out = hand.outcome
    assert out is not None
    assert [(p.amount, p.eligible) for p in out.pots] == [(300, (0, 1, 2)), (400, (1, 2))]
    assert conserved(hand) and sum(out.stacks) == 2100


def test_r9_uncalled_bet_is_returned() -> None:
    hand = Hand(cfg([1000] * 3, button=0, sb=10, bb=20), rng=30)
    play(hand, "0 raise 100, 1 fold, 2 raise 300, 0 fold")
    out = hand.outcome
    assert out is not None
    assert out.returned == (0, 0, 200)
    assert hand.log[-2].kind is ActionKind.RETURN and hand.log[-2].amount == 200
    assert out.net == (-100, -10, 110)


def test_r9_three_all_ins_of_different_sizes_with_a_fold() -> None:
    known = {0: "AsAh", 1: "KsKh", 2: "QsQh", 3: "JsJh", 4: "2c3d"}
    board = "7c8d9sTh4c"  # J-high straight on board for QQ? no: 7-8-9-T plus J = straight for JJ
    stacks = [100, 200, 300, 1000, 1000]
    hand = Hand(cfg(stacks, button=4, sb=10, bb=20), hole_cards=deal(5, known, board), board=board)
    # button 4: SB 0, BB 1, UTG 2
    play(hand, "2 all-in, 3 call, 4 call, 0 all-in, 1 all-in, 3 bet 100, 4 fold")
    out = hand.outcome
    assert out is not None
    # contributions: 0:100, 1:200, 2:300, 3:300, 4:300 (folded)
    assert [(p.amount, p.eligible) for p in out.pots] == [
        (500, (0, 1, 2, 3)),
        (400, (1, 2, 3)),
        (300, (2, 3)),
    ]
    # seat 3 (JJ) makes the straight J-high: wins everything
    assert all(p.winners == (3,) for p in out.pots)
    awards = [a.pot for a in hand.log if a.kind is ActionKind.WIN]
    assert awards == [2, 1, 0]  # last-formed side pot first
    assert out.net == (-100, -200, -300, 900, -300)


def test_r9_odd_chips_three_way_split_clockwise_from_left_of_button() -> None:
    board = "TsJsQsKsAs"  # everybody plays the royal flush
    hand = Hand(cfg([100] * 4, button=0), hole_cards=deal(4, {}, board), board=board)
    play(hand, "3 call, 0 call, 1 fold, 2 check")  # pot 7: 3 x 2 + the dead small blind
    for _ in range(3):
        play(hand, "2 check, 3 check, 0 check")
    out = hand.outcome
    assert out is not None
    pot = out.pots[0]
    assert pot.amount == 7 and pot.winners == (2, 3, 0) and pot.shares == (3, 2, 2)
    assert out.shown[0].description == "Royal Flush"
    hand = Hand(cfg([100] * 4, button=2), hole_cards=deal(4, {}, board), board=board)
    # button 2: SB 3, BB 0, UTG 1; pot 9 = 4 + 4 + the dead small blind
    play(hand, "1 raise 4, 2 fold, 3 fold, 0 call")
    for _ in range(3):
        play(hand, "0 check, 1 check")
    out = hand.outcome
    assert out is not None
    assert out.pots[0].winners == (0, 1) and out.pots[0].shares == (5, 4)


def test_r9_chip_conservation_after_every_step() -> None:
    hand = Hand(cfg([100, 250, 75, 400], button=1, sb=5, bb=10, ante=1), rng=31, auto=False)
    while not hand.done:
        assert conserved(hand)
        if hand.phase is Phase.BETTING:
            legal = hand.legal_actions()
            assert legal is not None
            if legal.all_in is not None:
                hand.all_in()
            elif legal.call is not None:
                hand.call()
            else:
                hand.check()
        else:
            hand.step()
    assert conserved(hand) and sum(hand.stacks) == 825


def test_r9_antes_and_big_blind_ante() -> None:
    hand = Hand(cfg([100] * 3, button=0, ante=1), rng=32)
    assert [a.kind for a in hand.log[:5]] == [ActionKind.ANTE] * 3 + [
        ActionKind.SMALL_BLIND,
        ActionKind.BIG_BLIND,
    ]
    assert hand.pot == 6 and hand.bets == (0, 1, 2)
    hand = Hand(cfg([100, 100, 3], button=0, ante=2, big_blind_ante=True), rng=33)
    # the big blind comes first when the stack does not cover both (TDA)
    assert [(a.kind, a.amount) for a in hand.log[1:3]] == [
        (ActionKind.BIG_BLIND, 2),
        (ActionKind.ANTE, 1),
    ]
    assert hand.current_bet == 2


# ---------------------------------------------------------- R10 showdown


def test_r10_no_bet_on_river_first_left_of_button_shows_first() -> None:
    board = "2c7d9hJdKs"
    hand = Hand(cfg([100] * 3, button=0), hole_cards=deal(3, {0: "AhAd"}, board), board=board)
    play(hand, "0 call, 1 call, 2 check")
    for _ in range(3):
        play(hand, "1 check, 2 check, 0 check")
    out = hand.outcome
    assert out is not None and out.shown[0].seat == 1


def test_r10_show_or_muck_step_by_step_and_unknown_cards() -> None:
    board = "2c7d9hJdKs"
    hand = Hand(cfg([100] * 2, button=0), hole_cards=["AhAd", None], board=board, auto=False)
    hand.run()
    play(hand, "0 call, 1 check")
    for _ in range(3):
        hand.run()
        play(hand, "1 check, 0 check")
    assert hand.phase is Phase.SHOWDOWN and hand.actor == 1
    assert not hand.can_step()  # seat 1's cards are unknown
    with pytest.raises(IllegalActionError, match="unknown"):
        hand.step()
    with pytest.raises(IllegalActionError, match="already in play"):
        hand.show("AhKh")
    hand.show("KhKd")
    assert hand.actor == 0 and hand.legal_actions().muck  # type: ignore[union-attr]
    hand.muck()
    hand.run()
    out = hand.outcome
    assert out is not None and out.pots[0].winners == (1,) and out.mucked == (0,)
    assert out.shown[0].description == "Three of a Kind, Kings"


def test_r10_all_in_hands_are_face_up() -> None:
    board = "2c7d9hJdKs"
    hand = Hand(cfg([50, 100], button=0), hole_cards=["3c4c", "AhAd"], board=board, auto=False)
    hand.run()
    play(hand, "0 all-in, 1 call")
    hand.run()
    assert hand.done
    out = hand.outcome
    assert out is not None and {h.seat for h in out.shown} == {0, 1}  # the loser shows too


def test_r10_missing_board_cards_raise() -> None:
    hand = Hand(cfg([100] * 2, button=0), hole_cards=["AhAd", "KhKd"], board="2c7d9h")
    play(hand, "0 call")
    with pytest.raises(HoldemError, match="the turn is needed"):
        play(hand, "1 check, 1 check, 0 check")


# ----------------------------------------------------- R13 timeouts


def test_r13_protected_timeout_stays_in_for_what_was_put_in() -> None:
    known = {0: "AhAd", 1: "2c3d", 2: "KhKd"}
    board = "4s7c9hJdQs"
    hand = Hand(
        cfg([1000] * 3, button=0, sb=10, bb=20), hole_cards=deal(3, known, board), board=board
    )
    play(hand, "0 raise 60, 1 call, 2 call")
    play(hand, "1 bet 100")
    play(hand, "2 call")
    play(hand, "0 timeout")  # disconnected: in for 60, no more betting
    assert hand.statuses[0] == "protected" and hand.street is Street.TURN
    play(hand, "1 bet 300, 2 call, 1 check, 2 check")
    out = hand.outcome
    assert out is not None
    assert [(p.amount, p.eligible) for p in out.pots] == [(180, (0, 1, 2)), (800, (1, 2))]
    assert out.pots[0].winners == (0,) and out.pots[1].winners == (2,)
    assert out.stacks == (1000 - 60 + 180, 1000 - 460, 1000 - 460 + 800)


# ------------------------------------------------------------ R14 views


def test_r14_view_shows_own_cards_only() -> None:
    hand = Hand(cfg([100] * 3, button=0), rng=34)
    own = hand.hole_cards(1)
    view = hand.view(1)
    assert view.hole_cards == own and view.legal is None
    others = {c for s in (0, 2) for c in hand.hole_cards(s) or ()}
    text = repr(view) + str(view.to_dict())
    for c in others:
        assert _txt(c) not in str(view.to_dict())
    assert "burn" not in text
    assert hand.view(0).legal is not None
    spectator = hand.view(None)
    assert spectator.hole_cards is None


def test_illegal_actions_after_the_hand() -> None:
    hand = Hand(cfg([100] * 2, button=0), rng=35)
    play(hand, "0 fold")
    assert hand.done and hand.legal_actions() is None
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.check()
    with pytest.raises(IllegalActionError, match="unknown action"):
        hand.act("dance")


def test_r9_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    """A big-blind ante is posted for the table: it goes to the main pot and
    gives its poster no side pot of their own (WSOP 2023 #43, hand 68)."""
    cfg = HandConfig(
        stacks=(2_275_000, 3_575_000, 2_675_000, 3_125_000, 18_050_000),
        button=4, small_blind=75_000, big_blind=150_000, ante=225_000, big_blind_ante=True,
    )  # fmt: skip
    hand = Hand(cfg, hole_cards=["8d3s", "9d9c", "6c5h", "Js4h", "AcKc"], board="2c8cTh Ah 6d")
    hand.fold()
    hand.fold()
    hand.raise_to(300_000)
    hand.fold()
    hand.all_in()  # the big blind: raise to 3,350,000, every chip
    hand.call()
    assert hand.done
    outcome = hand.outcome
    assert outcome is not None
    assert [(p.amount, p.eligible) for p in outcome.pots] == [(7_000_000, (1, 4))]
    assert outcome.stacks == (2_200_000, 0, 2_675_000, 3_125_000, 21_700_000)


# ------------------------------------- forced bets count what was posted (R3, R6, R9)


def test_r6_heads_up_short_big_blind_nobody_can_put_in_more() -> None:
    """Blinds 50/100, the big blind all-in for 27: the button has 50 in, more than
    anybody can match, so it has no decision; 23 come back and the board runs out."""
    hand = Hand(cfg([27_730, 27], button=0, sb=50, bb=100), rng=3)
    assert hand.done and hand.log[1].all_in and hand.log[1].amount == 27
    returned = [a for a in hand.log if a.kind is ActionKind.RETURN]
    assert [(a.seat, a.amount) for a in returned] == [(0, 23)]
    assert hand.contributions == (0, 0) and conserved(hand)
    assert sorted(hand.outcome.net) in ([-27, 27], [-27 + 13, 27 - 13], [0, 0])  # type: ignore[union-attr]


def test_r6_short_big_blind_everyone_else_all_in_below_it() -> None:
    """Three-handed, stacks 30 (button), 1000 (small blind 50), 27 (big blind, short):
    after the button's all-in for 30 nobody can match more than 30; the small blind
    has 50 in, so the betting is over and 20 come back."""
    hand = Hand(cfg([30, 1000, 27], button=0, sb=50, bb=100), rng=5)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.call == 30 and legal.wager is None
    hand.call()
    assert hand.phase is not Phase.BETTING
    returned = [(a.seat, a.amount) for a in hand.log if a.kind is ActionKind.RETURN]
    assert returned[0] == (1, 20)
    assert hand.done and conserved(hand)


def test_r6_short_big_blind_called_for_less_when_the_others_cannot_reach_it() -> None:
    """Blinds 1/2: the small blind all-in for 1, the big blind all-in for 1, the next
    player has 3 and the last 1: nobody else can put in 2, so the call is to 1."""
    hand = Hand(cfg([1, 1, 3, 1], button=3, sb=1, bb=2), rng=9)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.call == 1 and legal.wager is None
    hand.call()
    legal = hand.legal_actions()  # seat 3 can be called by seat 2's 3 chips: the full 2
    assert legal is not None and legal.seat == 3 and legal.call == 1 and legal.all_in == 1
    assert hand.current_bet == 2


def test_r6_short_big_blind_nominal_call_applies_only_while_others_can_match() -> None:
    """The first caller calls the full 100 (test above); with both others folded, the
    small blind's 50 match all the big blind could post: no decision is left."""
    hand = Hand(cfg([1000, 1000, 50, 1000], button=0, sb=50, bb=100), rng=17)
    assert hand.current_bet == 100
    play(hand, "3 fold, 0 fold")
    assert hand.done and hand.contributions == (0, 0, 0, 0)
    assert not [a for a in hand.log if a.kind is ActionKind.RETURN]
    assert sorted(hand.outcome.net) in ([-50, 0, 0, 50], [0, 0, 0, 0])  # type: ignore[union-attr]


def test_r3_unposted_straddle_sets_no_bet() -> None:
    """Blinds 1/2, ante 1, straddle 4: the straddler's only chip goes on the ante. The
    bet is the big blind's 2; all fold to the big blind, who plays the straddler for
    the antes: the straddler can win at most 1 from each opponent (+3)."""
    hand = Hand(cfg([100, 100, 100, 1], button=0, ante=1, straddle=4), rng=11)
    assert hand.current_bet == 2
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.call == 2 and legal.min_to == 4
    play(hand, "0 fold, 1 fold")
    assert hand.done
    net = hand.outcome.net  # type: ignore[union-attr]
    assert net[3] in (3, -1) and net[0] == -1 and net[1] == -2
    assert sum(net) == 0


def test_r3_straddle_all_in_for_one_chip_is_no_bet_above_the_big_blind() -> None:
    hand = Hand(cfg([100, 100, 100, 1], button=0, straddle=4), rng=12)
    assert hand.log[2].kind is ActionKind.STRADDLE and hand.log[2].amount == 1
    assert hand.current_bet == 2
    play(hand, "0 fold, 1 fold")
    net = hand.outcome.net  # type: ignore[union-attr]
    assert net[3] in (2, -1) and sum(net) == 0  # R9: at most 1 from each of two


def test_r3_short_straddle_above_the_big_blind_is_the_bet_it_posted() -> None:
    hand = Hand(cfg([100, 100, 100, 3], button=0, straddle=4), rng=13)
    assert hand.current_bet == 3
    legal = hand.legal_actions()  # an incomplete straddle: the full raise is the big blind
    assert legal is not None and legal.call == 3 and legal.min_to == 5


def test_r9_all_in_on_a_dead_blind_can_win_from_each_what_it_put_in() -> None:
    """A dead blind is its poster's money in the pots: all-in on it, seat 3's trip
    aces win 1 from each opponent; the rest goes to the best of the others."""
    posts = (Post(3, 1, dead=True),)
    hand = Hand(
        cfg([100, 100, 100, 1], button=0, posts=posts),
        hole_cards=["7c2d", "8c3d", "9c4d", "AsAh"],
        board="AdKd9h5s3c",
    )
    play(hand, "0 call, 1 call, 2 check")
    for _ in range(3):
        play(hand, "1 check, 2 check, 0 check")
    assert hand.done
    outcome = hand.outcome
    assert outcome is not None
    assert [(p.amount, p.eligible) for p in outcome.pots] == [(4, (0, 1, 2, 3)), (3, (0, 1, 2))]
    assert outcome.net == (-2, -2, 1, 3)


def _to_river_showdown(config: HandConfig, river_bet: bool) -> Hand:
    """A hand of three played step by step to the showdown: calls and checks to
    the river, where seat 1 bets (``river_bet``) and both others call."""
    hand = Hand(config, rng=7, auto=False)
    hand.run()
    while hand.phase is not Phase.SHOWDOWN:
        if hand.phase is not Phase.BETTING:
            hand.step()
        elif hand.street is Street.RIVER and river_bet and hand.current_bet == 0:
            hand.bet(2, seat=1) if hand.actor == 1 else hand.check()
        else:
            hand.check_or_call()
    return hand


def test_r10_the_river_aggressor_once_called_shows_first_and_may_not_muck() -> None:
    """R10 (TDA; seed rooms): the last to bet or raise on the river, once
    called, must show; the others may muck; with no bet there, whoever shows
    first may muck too; a room that lets that player muck relaxes it."""
    hand = _to_river_showdown(cfg([100] * 3), river_bet=True)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.show and not legal.muck
    refusal = (r"illegal muck by seat 1: the last to bet or raise on the river was called: "
               r"they show first, and may not muck \(R10\)")  # fmt: skip
    with pytest.raises(IllegalActionError, match=refusal):
        hand.muck()
    hand.show()
    assert hand.can_muck()  # (a caller who cannot win may muck)
    checked = _to_river_showdown(cfg([100] * 3), river_bet=False)
    assert checked.can_muck()  # (nobody bet on the river: no obligation)
    relaxed = _to_river_showdown(cfg([100] * 3, aggressor_may_muck=True), river_bet=True)
    assert relaxed.actor == 1 and relaxed.can_muck()
    relaxed.muck()
    assert relaxed.statuses[1] == "mucked"


def test_r10_a_player_shows_after_folding_or_winning_uncontested() -> None:
    """R10: after the hand a player who folded, or who won uncontested, may show
    their cards; the show is a record of the log (the hand's history), the
    outcome is unchanged; nobody shows twice, nor a hand mucked at a showdown."""
    hand = Hand(cfg([100] * 3), rng=3)
    assert not hand.can_show(seat=0)  # (during the hand: nothing to show yet)
    play(hand, "0 fold, 1 raise 6, 2 fold")
    outcome = hand.outcome
    record = hand.show(seat=1)  # the uncontested winner
    assert record.kind is ActionKind.SHOW and record.seat == 1
    assert record.cards == hand.hole_cards(1) and hand.log[-1] == record
    hand.push("show", seat=0)  # a player who folded (undone by pop, as any decision)
    assert hand.log[-1].seat == 0
    hand.pop()
    assert hand.log[-1] == record
    assert hand.show(seat=2).cards == hand.hole_cards(2)
    assert hand.outcome is outcome
    with pytest.raises(IllegalActionError, match="their cards are shown already"):
        hand.show(seat=1)
    with pytest.raises(IllegalActionError, match="names the seat"):
        hand.show()
    with pytest.raises(IllegalActionError, match="seat 7: no player of the hand sits there"):
        hand.show(seat=7)
    showdown = Hand(cfg([100] * 3), hole_cards=["2c3d", "AsAh", "7c8d"], board="AdKd9h5s4c",
                    auto=False)  # fmt: skip
    showdown.run()
    while not showdown.done:
        if showdown.phase is Phase.SHOWDOWN:
            showdown.show() if showdown.actor == 1 else showdown.muck()
        elif showdown.phase is Phase.BETTING:
            showdown.check_or_call()
        else:
            showdown.step()
    mucked = [s for s in (0, 2) if showdown.statuses[s] == "mucked"]
    assert mucked
    with pytest.raises(IllegalActionError, match="mucked at the showdown: a mucked hand is dead"):
        showdown.show(seat=mucked[0])
