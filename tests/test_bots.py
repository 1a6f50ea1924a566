"""The bots (holdem.bots): legal decisions only, from the view only, reproducible."""

from __future__ import annotations

import doctest
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import holdem.bots
import holdem.bots.base
import holdem.bots.easy
import holdem.bots.hard
import holdem.bots.normal
import holdem.bots.preflop
import holdem.simulation
from holdem import (
    ActionKind,
    ConfigError,
    Decision,
    Hand,
    HandConfig,
    LegalActions,
    Phase,
    PlayerView,
    Structure,
    equity,
    format_cards,
    parse_cards,
)
from holdem.bots import BOTS, Bot, CallingStation, EasyBot, RandomBot, make_bot
from holdem.bots.preflop import EQUITY, STARTING_HANDS, starting_hand, strength
from holdem.table import CashGame, Tournament


@pytest.mark.parametrize(
    "module",
    [
        holdem.bots,
        holdem.bots.base,
        holdem.bots.easy,
        holdem.bots.hard,
        holdem.bots.normal,
        holdem.bots.preflop,
        holdem.simulation,
    ],
)
def test_the_examples_in_the_docs_run(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0


def test_the_examples_of_docs_bots_md_run() -> None:
    path = Path(__file__).resolve().parent.parent / "docs" / "bots.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_every_two_cards_have_a_starting_hand_and_a_strength() -> None:
    names = {starting_hand(pair) for pair in itertools.combinations(range(52), 2)}
    assert names == set(STARTING_HANDS) == set(EQUITY) and len(names) == 169
    assert max(EQUITY, key=EQUITY.__getitem__) == "AA"
    assert min(EQUITY, key=EQUITY.__getitem__) == "32o"
    for name in ("AKs", "T9s", "54s"):  # suited beats offsuit
        assert EQUITY[name] > EQUITY[name[:2] + "o"]
    assert EQUITY["55"] > EQUITY["A5s"] > EQUITY["A5o"]


def test_the_preflop_table_is_what_the_equity_engine_says() -> None:
    rng = random.Random(11)
    sample = ["AA", "72o", *rng.sample(STARTING_HANDS, 4)]
    for name in sample:
        cards = f"{name[0]}c{name[1]}{'c' if name[2:] == 's' else 'd'}"
        got = equity([cards, "random"], trials=100_000, seed=3).players[0].equity
        assert abs(got - EQUITY[name]) < 0.01, name


def deal_and_play(config: HandConfig, bots: list[Bot], seed: int) -> Hand:
    """A hand of ``config`` played to its end by ``bots`` (one per position),
    checking that every decision is on the menu."""
    hand = Hand(config, rng=seed)
    seats = config.seat_numbers
    while not hand.done:
        seat = hand.actor
        assert seat is not None
        legal = hand.legal_actions()
        assert legal is not None
        decision = bots[seats.index(seat)].decide(hand.view(seat), legal)
        assert decision in legal, (decision, legal)
        hand.act(decision, seat=seat)
    return hand


configs = st.builds(
    lambda n, stacks, blinds, ante, structure, button: HandConfig(
        stacks=tuple(stacks[:n]),
        button=button % n,
        small_blind=blinds // 2,
        big_blind=blinds,
        ante=ante,
        structure=structure,
    ),
    st.integers(2, 10),
    st.lists(st.integers(1, 3000), min_size=10, max_size=10),
    st.integers(2, 100),
    st.integers(0, 5),
    st.sampled_from(list(Structure)),
    st.integers(0, 9),
)


@settings(max_examples=150, deadline=None)
@given(configs, st.integers(0, 2**32), st.data())
def test_bots_never_take_an_illegal_decision(
    config: HandConfig, seed: int, data: st.DataObject
) -> None:
    levels = data.draw(st.lists(st.sampled_from(sorted(BOTS)), min_size=10, max_size=10))
    bots = [
        make_bot(level, seed=seed + i, **({"budget": 0.002} if level == "hard" else {}))
        for i, level in enumerate(levels[: config.players])
    ]
    for deal in range(5):
        hand = deal_and_play(config, bots, seed + deal)
        assert sum(hand.stacks) == sum(config.stacks)


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 12))
def test_a_decision_does_not_depend_on_the_other_players_cards(
    players: int, seed: int, steps: int
) -> None:
    """Two hands alike but for the other players' hole cards: the same
    actions (a random player's, who reads no cards: the same in any deal)
    lead to the same view of the player to act, and every bot decides the
    same there."""
    rng = random.Random(seed)
    config = HandConfig(stacks=(200,) * players, button=0, small_blind=1, big_blind=2)
    first = Hand(config, rng=seed)
    mover, moves = RandomBot(seed=seed), []
    for _ in range(steps):  # who acts after these actions does not depend on the cards
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
    others = [deck[7 + 2 * i : 9 + 2 * i] for i in range(2 * players - 2)]
    hands = []
    for deal in (others[: players - 1], others[players - 1 :]):
        hole = [*deal[:actor], own, *deal[actor:]]
        hand = Hand(config, hole_cards=[format_cards(h) for h in hole], board=format_cards(board))
        for move in moves:
            hand.act(move)
        assert hand.actor == actor
        hands.append(hand)
    views = [hand.view(actor) for hand in hands]
    assert views[0] == views[1] and views[0].hole_cards == tuple(own)
    legal = hands[0].legal_actions()
    assert legal is not None and legal == hands[1].legal_actions()
    for level in BOTS:
        assert make_bot(level, seed).decide(views[0], legal) == make_bot(level, seed).decide(
            views[1], legal
        ), level


def test_the_same_seeds_play_the_same_tournament() -> None:
    def run() -> object:
        players = {name: make_bot(level, seed=i) for i, (name, level) in
                   enumerate(zip("ABCDEF", ["easy", "easy", "random", "calling-station",
                                           "easy", "random"], strict=True))}  # fmt: skip
        game = Tournament(list(players), stack=400, rng=21)
        return game.run(players), game.table.hands_played, game.standings.eliminations

    assert run() == run()


def test_easy_bots_play_a_cash_session_to_the_end_with_every_chip() -> None:
    game = CashGame(small_blind=1, big_blind=2, max_hands=300, rng=4)
    bots = {seat: EasyBot(seed=seat) for seat in range(6)}
    for seat in range(6):
        game.join(seat, f"bot{seat}", 200)
    results = game.play(bots)
    assert sum(r.net for r in results.values()) == 0
    assert game.hands_played == 300


def test_a_calling_station_never_folds_to_a_bet_it_can_call() -> None:
    hand = Hand(HandConfig(stacks=(50, 400), button=0, small_blind=1, big_blind=2), rng=1)
    hand.act(Decision.all_in())  # seat 0 shoves 50
    legal = hand.legal_actions()
    assert legal is not None
    assert CallingStation().decide(hand.view(1), legal) == Decision.call()


def test_an_unknown_level_is_refused_naming_the_levels() -> None:
    with pytest.raises(ValueError, match="no bot level 'expert': one of random, calling-station"):
        make_bot("expert")
    assert strength([51, 50]) == EQUITY["AA"]


def test_the_normal_bot_reads_draws_the_board_and_its_position() -> None:
    from holdem import parse_cards
    from holdem.bots.normal import _flush_draw, _open_ended, _position, _wet

    def ranks(text: str) -> list[int]:
        return [c // 4 for c in parse_cards(text)]

    assert _open_ended(ranks("Th 9c"), ranks("8d 7s 2c"))
    assert not _open_ended(ranks("Ah Kc"), ranks("Qd Js 2c"))  # ace-high: one end only
    assert not _open_ended(ranks("2h 3c"), ranks("8d 7s 6c"))  # the run is the board's
    hole = tuple(parse_cards("As Ks"))
    assert _flush_draw(hole, tuple(parse_cards("2s 7s 9h")))
    assert not _flush_draw(hole, tuple(parse_cards("2s 7s 9s")))  # a made flush
    assert not _flush_draw(tuple(parse_cards("Ah Kd")), tuple(parse_cards("2s 7s 9s Qs")))
    assert _wet(tuple(parse_cards("9h 9c 2d"))) and _wet(tuple(parse_cards("9h 8h 2d")))
    assert _wet(tuple(parse_cards("9h Tc Jd"))) and not _wet(tuple(parse_cards("Kh 7c 2d")))
    hand = Hand(HandConfig(stacks=(200,) * 6, button=0, small_blind=1, big_blind=2), rng=1)
    view = hand.view(3)
    places = [_position(view, p) for p in range(6)]
    assert places == ["late", "small blind", "big blind", "early", "middle", "late"]


@pytest.mark.parametrize(("cards", "pushes"), [("As 5d", True), ("7c 2d", False)])
def test_the_normal_bot_pushes_or_folds_when_short(cards: str, pushes: bool) -> None:
    from holdem.bots import NormalBot

    hand = Hand(
        HandConfig(stacks=(20, 400, 400), button=0, small_blind=1, big_blind=2),
        hole_cards=[cards, "Kh Qh", "Jc Jd"],
    )
    legal = hand.legal_actions()
    assert legal is not None and hand.actor == 0  # the button, first to act, 10 big blinds
    decision = NormalBot(seed=3).decide(hand.view(0), legal)
    assert decision == (Decision.all_in() if pushes else Decision.fold())


def test_the_hard_bot_reads_ranges_from_the_public_actions() -> None:
    from holdem.bots import HardBot
    from holdem.bots.base import made_by_hole
    from holdem.bots.hard import RANKED, _made

    rng = random.Random(5)
    for _ in range(50):  # the C shortcut agrees with the plain reading
        board = rng.sample(range(52), rng.choice([3, 4, 5]))
        combos = [c for c in RANKED if c[0] not in board and c[1] not in board]
        assert _made(combos, board) == [made_by_hole(c, board) for c in combos]
    config = HandConfig(stacks=(400,) * 4, button=0, small_blind=1, big_blind=2)
    hand = Hand(config, hole_cards=["As Ah", "Kd Kc", "7c 2d", "9h 8h"], board="Qs Jd 3c 4h 5s")
    hand.act(Decision.raise_to(6))  # seat 3 (first to act) raises
    hand.act(Decision.call())  # seat 0 calls the raise
    hand.act(Decision.fold())
    hand.act(Decision.call())  # the big blind calls
    bot = HardBot(seed=1)  # (a player it knows nothing of: the book's guesses)
    view = hand.view(2)
    raiser, caller = bot.range_of(view, 3), bot.range_of(view, 0)
    # the raiser: their raising share (a guess of 18%); the caller: their
    # VPIP (35%) less the best hands they would have re-raised
    assert 0.17 < len(raiser.weights) / 1225 < 0.21 and 0.28 < len(caller.weights) / 1225 < 0.36
    assert raiser.weights[(51, 49)] == 1 and (47, 0) not in raiser.weights  # AsAd; 7s2c
    assert bot.range_of(view, 3) is raiser  # read once while nothing changes
    hand.act(Decision.bet(10))  # the big blind leads the flop Qs Jd 3c
    view = hand.view(3)
    lead = HardBot(seed=1).range_of(view, 2).weights
    (q, t), (a, nine) = parse_cards("Qh Th"), parse_cards("Ah 9c")
    qt, ak = (q, t), (a, nine)  # (high card first)
    # a bet keeps the made hands whole, the air at a weight for an unknown
    # player's aggression (the guess, 0.30: rarely a bluff)
    assert lead[qt] == 1 and lead[ak] == pytest.approx(holdem.bots.hard.MIN_AIR_BET)


def test_a_simulation_does_not_depend_on_the_number_of_processes() -> None:
    from holdem import simulate

    # 950 deals: chunks of 300 deals for 1 process, 200 for 2, 100 for 3
    seats = ["normal", "easy", "random"]
    one = simulate(seats, hands=950, seed=9, duplicate=True)
    two = simulate(seats, hands=950, seed=9, duplicate=True, jobs=2)
    three = simulate(seats, hands=950, seed=9, duplicate=True, jobs=3)
    assert one == two == three and one.hands == 2850
    assert sum(s.net for s in one.seats) == pytest.approx(0)
    assert sum(s.hands for s in one.seats) == 3 * 2850
    # duplicate: every bot played every position of every deal once
    assert {s.hands for s in one.bots.values()} == {2850}
    other = simulate(seats, hands=950, seed=10, duplicate=True)
    assert other != one


def test_a_simulation_reports_the_calling_station_as_it_plays() -> None:
    from holdem import simulate

    result = simulate(["calling-station", "calling-station"], hands=300, seed=1)
    station = result.bots["calling-station"]
    assert station.pfr == 0 and station.aggression == 0.0  # it never bets or raises
    assert station.vpip > 0.45  # it calls every small blind it posts (half the hands)
    with pytest.raises(ConfigError, match="no bot level 'shark'"):
        simulate(["shark", "easy"], hands=1)
    with pytest.raises(ConfigError, match="hands must be an integer of at least 1"):
        simulate(["easy", "easy"], hands=0)


def test_the_normal_bot_counts_the_boards_own_hand_as_nothing() -> None:
    from types import SimpleNamespace

    from holdem import parse_cards
    from holdem.bots import NormalBot

    bot = NormalBot(seed=1)
    for hole, board in (("8c 6d", "7s 7h 7d Kc 2h"), ("8c 6d", "As Ks Qs Js Ts"),
                        ("8c 6d", "Ah Kh Qd Jc Ts")):  # fmt: skip
        view = SimpleNamespace(hole_cards=tuple(parse_cards(hole)), board=tuple(parse_cards(board)))
        assert bot.estimate(view)[0] < 0.85, board  # type: ignore[arg-type]
    view = SimpleNamespace(
        hole_cards=tuple(parse_cards("Ac Ad")), board=tuple(parse_cards("As 7h 2d"))
    )
    assert bot.estimate(view)[0] == 0.85  # type: ignore[arg-type]


def test_the_hard_bot_reads_ranges_again_for_new_hole_cards_on_one_configuration() -> None:
    from holdem.bots import HardBot

    config = HandConfig(stacks=(200, 200), button=0, small_blind=1, big_blind=2)
    bot = HardBot(seed=1)
    for hole in ("As Ah", "Ks Kh"):  # a simulation deals hand after hand on one config
        hand = Hand(config, hole_cards=[hole, "7c 2d"], board="Qs Jd 3c 4h 5s")
        hand.act(Decision.call())
        hand.act(Decision.check())  # (the flop: ranges without the cards it sees)
        seen = {*hand.hole_cards(1), *hand.board}  # type: ignore[misc]
        read = bot.range_of(hand.view(1), 0)
        assert not any(seen & set(combo) for combo in read.weights), hole


def test_the_normal_bot_opens_wider_when_few_are_dealt_in() -> None:
    from holdem.bots import NormalBot
    from holdem.bots.preflop import strength

    cards = "Kc 5d"  # a middling hand: rated about 0.50
    assert 0.44 < strength(parse_cards(cards)) < 0.54
    heads_up = Hand(HandConfig(stacks=(200, 200), button=0, small_blind=1, big_blind=2),
                    hole_cards=[cards, "2c 2d"])  # fmt: skip
    legal = heads_up.legal_actions()
    assert legal is not None and heads_up.actor == 0  # the button, the small blind
    assert NormalBot(seed=1).decide(heads_up.view(0), legal).kind is ActionKind.RAISE
    six = Hand(HandConfig(stacks=(200,) * 6, button=0, small_blind=1, big_blind=2),
               hole_cards=["2c 2d", "3c 3d", "4c 4d", cards, "5c 5h", "6c 6d"])  # fmt: skip
    legal = six.legal_actions()
    assert legal is not None and six.actor == 3  # first to act, six-handed: early
    assert NormalBot(seed=1).decide(six.view(3), legal) == Decision.fold()


def test_the_normal_bot_bets_the_flop_after_raising_heads_up_two_times_in_three() -> None:
    from holdem.bots import NormalBot

    bets = 0
    for seed in range(300):
        hand = Hand(HandConfig(stacks=(200, 200), button=0, small_blind=1, big_blind=2),
                    hole_cards=["Ac 9d", "7h 6h"], board="Ks 2d 3c 8s Qh")  # fmt: skip
        hand.act(Decision.raise_to(6))  # the button raises
        hand.act(Decision.call())
        hand.act(Decision.check())  # the big blind checks the flop to the raiser
        legal = hand.legal_actions()
        assert legal is not None and hand.actor == 0
        bets += NormalBot(seed=seed).decide(hand.view(0), legal).kind is ActionKind.BET
    assert 170 < bets < 230  # (about 200: no made hand, no draw: only the continuation bet)


def test_the_hard_bot_bets_when_the_other_player_s_range_folds_enough() -> None:
    from holdem.bots import HardBot

    def spot(board: str, seed: int = 2) -> tuple[HardBot, PlayerView, LegalActions]:
        hand = Hand(HandConfig(stacks=(200, 200), button=0, small_blind=1, big_blind=2),
                    hole_cards=["9s 8s", "Ah Kh"], board=board)  # fmt: skip
        hand.act(Decision.raise_to(6))
        hand.act(Decision.call())  # the big blind called a raise
        hand.act(Decision.check())
        legal = hand.legal_actions()
        assert legal is not None
        return HardBot(seed=seed), hand.view(0), legal

    def bets(board: str) -> int:
        return sum(
            bot.decide(view, legal).kind is ActionKind.BET
            for bot, view, legal in (spot(board, seed) for seed in range(40))
        )

    bot, view, _ = spot("Kc 7d 2h 4s 4c")  # a dry flop: most of the caller's range missed
    air, _ = bot.split(view, 1)
    assert 0.45 < air < 0.75
    bot, view, _ = spot("Ac Kd Qh 4s 4c")  # it hits the caller's range: a bet folds less
    wet_air, _ = bot.split(view, 1)
    assert wet_air < 0.35
    # with nothing, it bets for the folds on the dry board, in measure; on
    # the board that hit the caller it checks
    assert 10 < bets("Kc 7d 2h 4s 4c") < 40 and bets("Ac Kd Qh 4s 4c") == 0


def test_tournaments_do_not_depend_on_the_number_of_processes_and_place_everyone() -> None:
    from holdem import simulate

    seats = ["normal", "easy", "random", "easy"]
    one = simulate(seats, tournaments=9, seed=4, duplicate=True, stack=30)
    two = simulate(seats, tournaments=9, seed=4, duplicate=True, stack=30, jobs=2)
    assert one == two and one.tournaments == 36
    # every player is placed in every tournament (ties share a place: "1224")
    assert sum(sum(p.places) for p in one.places) == 36 * 4
    assert sum(p.places[0] for p in one.places) == 36  # exactly one winner each
    easy = one.places_by_bot["easy"]
    assert easy.tournaments == 72 and sum(easy.places) == 72
    assert easy.win_rate == pytest.approx(easy.places[0] / 72)
    assert 1 <= easy.mean_place <= 4 and easy.hands > 0
    assert one.hands < sum(s.hands for s in one.seats)  # (each hand counted once)


class Exploding(Bot):
    """A bot with a bug: it raises at its 200th decision."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.count = 0

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        self.count += 1
        if self.count == 200:
            raise ZeroDivisionError("the bot divided by zero")
        return Decision.check() if legal.check else Decision.call()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failure_in_a_job_is_reported_with_the_hands_it_played(
    monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    from holdem import SimulationError, simulate

    monkeypatch.setitem(BOTS, "exploding", Exploding)  # (workers are forked: they see it)
    with pytest.raises(SimulationError, match=r"the hands \d+ to \d+ failed: ZeroDivisionError: "
                       "the bot divided by zero"):  # fmt: skip
        simulate(["exploding", "easy"], hands=2000, seed=1, jobs=jobs)
    with pytest.raises(SimulationError, match=r"the tournaments \d+ to \d+ failed"):
        simulate(["exploding", "easy"], tournaments=50, seed=1, jobs=jobs)


def test_the_hard_bot_s_ranges_take_starting_hands_whole() -> None:
    from holdem.bots.hard import top
    from holdem.bots.preflop import starting_hand

    for fraction in (0.07, 0.2, 0.25, 0.35, 0.7):
        counts: dict[str, int] = {}
        for combo in top(fraction):
            name = starting_hand(combo)
            counts[name] = counts.get(name, 0) + 1
        for name, count in counts.items():  # every suit of a hand, or none of it
            assert count == (6 if len(name) == 2 else 4 if name.endswith("s") else 12), name


def test_the_hard_bot_does_not_push_over_limpers_as_if_nobody_were_in() -> None:
    from holdem.bots import HardBot

    def decision(limp: bool) -> Decision:
        # the button has 10 big blinds; the player before it limps, or folds
        hand = Hand(HandConfig(stacks=(20, 400, 400, 400), button=0, small_blind=1, big_blind=2),
                    hole_cards=["Ah Kh", "2c 2d", "7c 5d", "9s 8s"])  # fmt: skip
        hand.act(Decision.call() if limp else Decision.fold())
        legal = hand.legal_actions()
        assert legal is not None and hand.actor == 0
        return HardBot(seed=1).decide(hand.view(0), legal)

    assert decision(limp=False) == Decision.all_in()  # nobody in: push or fold
    assert decision(limp=True) == Decision.raise_to(6)  # a limper in: a raise by its value


def test_a_tournament_that_does_not_end_is_given_up_not_played_for_ever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import holdem.simulation
    from holdem import SimulationError, simulate

    monkeypatch.setattr(holdem.simulation, "MOST_HANDS", 50)
    with pytest.raises(SimulationError, match="did not end in 50 hands"):
        simulate(["calling-station", "calling-station"], tournaments=1, schedule="1/2, stay")
    with pytest.raises(ConfigError, match="levels by minutes would make the result depend"):
        simulate(["easy", "easy"], tournaments=1, schedule="@5m, 10/20")
    with pytest.raises(ConfigError, match="no structure 'bogus'"):
        simulate(["easy", "easy"], hands=1, structure="bogus")


def test_the_normal_bot_meets_a_re_raise_with_narrower_ranges() -> None:
    """Six-handed, in the cutoff: a single raise before it is called with
    ace-nine; when it opened and the big blind re-raised, ace-nine folds,
    ace-king suited calls and queens raise again (it called re-raises with
    its calling range before, and lost to tight-aggressive players)."""
    from holdem.bots import NormalBot

    def facing(cards: str, reraise: bool) -> Decision:
        hand = Hand(HandConfig(stacks=(200,) * 6, button=0, small_blind=1, big_blind=2),
                    hole_cards=["2c 2d", "3c 3d", "Kd Ks", "4c 4d", "5c 5h", cards])  # fmt: skip
        if reraise:  # it opens; the button and the small blind fold; the big blind re-raises
            moves = [Decision.fold(), Decision.fold(), Decision.raise_to(6), Decision.fold(),
                     Decision.fold(), Decision.raise_to(18)]  # fmt: skip
        else:  # the first to act raises, the next folds
            moves = [Decision.raise_to(6), Decision.fold()]
        for move in moves:
            hand.act(move)
        legal = hand.legal_actions()
        assert legal is not None and hand.actor == 5
        return NormalBot(seed=1).decide(hand.view(5), legal)

    assert facing("Ah 9c", reraise=False) == Decision.call()  # a single raise: called
    assert facing("Ah 9c", reraise=True) == Decision.fold()
    assert facing("Ah Kh", reraise=True) == Decision.call()
    assert facing("Qh Qc", reraise=True).kind is ActionKind.RAISE
