"""Eliminations, places and the result of a freezeout (issue 11, item 3; RULES.md
R11): players out on one hand placed by the chips they started it with, ties,
the winner, who knocked whom out, and the wire forms."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_wire import check  # validates data against $defs/<shape> of the schema

from holdem import Hand, HandConfig
from holdem.errors import ConfigError, IllegalActionError, WireError
from holdem.pots import Outcome, Pot
from holdem.table import standings as standings_module
from holdem.table.standings import (
    Elimination,
    Placing,
    Standings,
    TournamentResult,
    eliminators,
)


def test_docstring_examples() -> None:
    result = doctest.testmod(standings_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def places(result: TournamentResult) -> list[tuple[int, str]]:
    return [(p.place, p.player) for p in result.places]


def test_r11_players_out_on_one_hand_are_placed_by_their_starting_chips() -> None:
    standings = Standings(["ann", "bob", "cid", "dan", "eve"])
    out = standings.record_hand(
        4,
        {"ann": 900, "bob": 150, "cid": 400, "dan": 50, "eve": 1000},
        ["dan", "bob", "cid"],
        {"bob": ("eve",), "cid": ("eve", "ann"), "dan": ("eve",)},
    )
    assert [(p.place, p.player) for p in out] == [(3, "cid"), (4, "bob"), (5, "dan")]
    assert out[0].elimination == Elimination("cid", 4, 400, ("eve", "ann"))
    assert standings.remaining == ("ann", "eve") and not standings.finished
    standings.record_hand(5, {"ann": 1000, "eve": 1500}, [], {})
    standings.record_hand(9, {"ann": 1000, "eve": 1500}, ["ann"], {"ann": ("eve",)})
    assert standings.finished
    result = standings.result()
    assert places(result) == [(1, "eve"), (2, "ann"), (3, "cid"), (4, "bob"), (5, "dan")]
    assert result.winner == "eve" and result.hands == 9
    assert result.places[0].elimination is None
    assert result.place_of("ann").elimination == Elimination("ann", 9, 1000, ("eve",))
    assert [e.player for e in standings.eliminations] == ["dan", "bob", "cid", "ann"]


def test_r11_equal_starting_chips_tie_and_use_up_the_places_they_cover() -> None:
    standings = Standings(["p1", "p2", "p3", "p4", "p5", "p6"])
    standings.record_hand(2, {"p6": 10}, ["p6"], {})  # 6th
    out = standings.record_hand(3, {"p2": 200, "p3": 200, "p4": 200}, ["p4", "p2", "p3"], {})
    # three players out together with equal stacks share 3rd; nobody is 4th or 5th
    assert [(p.place, p.player) for p in out] == [(3, "p2"), (3, "p3"), (3, "p4")]
    standings.record_hand(8, {"p1": 700, "p5": 700}, ["p1"], {"p1": ["p5"]})
    assert places(standings.result()) == [
        (1, "p5"), (2, "p1"), (3, "p2"), (3, "p3"), (3, "p4"), (6, "p6"),
    ]  # fmt: skip


def test_r11_a_tie_below_a_bigger_stack_in_the_same_hand() -> None:
    standings = Standings(["a", "b", "c", "d", "e"])
    out = standings.record_hand(1, {"a": 100, "b": 300, "c": 100}, ["a", "b", "c"], {})
    assert [(p.place, p.player) for p in out] == [(3, "b"), (4, "a"), (4, "c")]


def test_heads_up_the_last_bust_decides_the_winner() -> None:
    standings = Standings(["7", "3"])  # seat numbers as ids
    assert not standings.finished
    with pytest.raises(ConfigError, match="not over: 2 players"):
        standings.result()
    (second,) = standings.record_hand(1, {"7": 20, "3": 380}, ["7"], {"7": ("3",)})
    assert second == Placing(2, "7", Elimination("7", 1, 20, ("3",)))
    assert places(standings.result()) == [(1, "3"), (2, "7")]


@pytest.mark.parametrize(
    ("call", "field", "message"),
    [
        (lambda s: s.record_hand(1, {"zed": 5}, ["zed"], {}), "busted", "'zed' is not a player"),
        (lambda s: s.record_hand(1, {"a": 5}, ["a", "a"], {}), "busted", "there twice"),
        (lambda s: s.record_hand(1, {}, ["a"], {}), "started", "no starting chips for 'a'"),
        (lambda s: s.record_hand(1, {"a": 0}, ["a"], {}), "started_with", "at least 1"),
        (
            lambda s: s.record_hand(1, {p: 5 for p in "abc"}, ["a", "b", "c"], {}),
            "busted",
            "not everybody can go out",
        ),
        (lambda s: s.record_hand(0, {}, [], {}), "hand_number", "above the last hand"),
        (lambda s: s.record_hand(1, {"a": 5}, "a", {}), "busted", "sequence"),
        (lambda s: s.record_hand(1, {"a": 5}, ["a"], {"a": ("a",)}), "by", "has none after"),
        (lambda s: s.record_hand(1, {"a": 5}, ["a"], {"a": ("q",)}), "by", "has none after"),
        (lambda s: s.record_hand(1, {"a": 5}, ["a"], {"b": ("c",)}), "by", "did not go out"),
        (lambda s: s.record_hand(1, {"a": 5}, ["a"], {"a": "b"}), "by", "sequence"),
    ],
)
def test_a_wrong_record_is_refused_naming_the_argument(call: Any, field: str, message: str) -> None:
    standings = Standings(["a", "b", "c"])
    with pytest.raises(ConfigError, match=message) as caught:
        call(standings)
    assert caught.value.field == field
    assert standings.remaining == ("a", "b", "c")  # nothing half recorded


def test_hands_are_recorded_in_order_and_not_after_the_end() -> None:
    standings = Standings(["a", "b", "c"])
    standings.record_hand(5, {"a": 5}, ["a"], {})
    with pytest.raises(ConfigError, match="'a' is out already"):
        standings.record_hand(6, {"a": 5}, ["a"], {})
    with pytest.raises(ConfigError, match=r"above the last hand recorded \(5\)"):
        standings.record_hand(5, {}, [], {})
    standings.record_hand(6, {"b": 5}, ["b"], {})
    with pytest.raises(ConfigError, match="the tournament is over"):
        standings.record_hand(7, {}, [], {})


@pytest.mark.parametrize("players", [[], ["a"], ["a", "a"], ["a", ""], "ab", ["a", 2]])
def test_bad_players_are_refused(players: Any) -> None:
    with pytest.raises(ConfigError, match="players"):
        Standings(players)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[str], list[tuple[dict[str, int], list[str]]]]:
    """Players, and the hands where somebody went out: starting chips, busted."""
    players = [f"p{i}" for i in range(draw(st.integers(2, 10)))]
    remaining = list(players)
    hands = []
    while len(remaining) > 1:
        busted = draw(
            st.lists(st.sampled_from(remaining), min_size=1, max_size=len(remaining) - 1,
                     unique=True)
        )  # fmt: skip
        started = {p: draw(st.sampled_from([1, 5, 5, 40, 300])) for p in busted}
        hands.append((started, busted))
        remaining = [p for p in remaining if p not in busted]
    return players, hands


@given(tournaments(), st.integers(0, 3))
def test_random_bust_orders_give_a_full_consistent_placing(
    tournament: tuple[list[str], list[tuple[dict[str, int], list[str]]]], gap: int
) -> None:
    players, hands = tournament
    standings = Standings(players)
    number = 0
    bust_hand: dict[str, int] = {}
    for started, busted in hands:
        number += 1 + gap
        standings.record_hand(number, started, busted, {})
        bust_hand.update(dict.fromkeys(busted, number))
    assert standings.finished
    result = standings.result()
    # each player exactly once, the winner unique and first
    assert sorted(p.player for p in result.places) == sorted(players)
    assert [p.place for p in result.places].count(1) == 1
    (winner,) = set(players) - set(bust_hand)
    assert result.winner == winner == result.places[0].player and result.hands == number
    # places 1..n, used as ties allow: the first of a tie is one more than those before it
    n = len(players)
    for i, placing in enumerate(result.places):
        assert 1 <= placing.place <= n
        assert placing.place == i + 1 or placing.place == result.places[i - 1].place
    # out later = better place; out on the same hand: more chips = better, equal = tie
    for a in result.places[1:]:
        for b in result.places[1:]:
            ea, eb = a.elimination, b.elimination
            assert ea is not None and eb is not None
            if ea.hand_number > eb.hand_number:
                assert a.place < b.place
            elif ea.hand_number == eb.hand_number:
                assert (a.place < b.place) == (ea.started_with > eb.started_with)
                assert (a.place == b.place) == (ea.started_with == eb.started_with)
    # the wire form round-trips and fits the schema
    data = json.loads(json.dumps(result.to_dict()))
    assert TournamentResult.from_dict(data) == result
    check("TournamentResult", data)


def play_all_in(config: HandConfig, rng: int) -> Hand:
    """Everybody goes all in, or calls or checks when that is not allowed."""
    hand = Hand(config, rng=rng)
    while not hand.done:
        for kind in ("all_in", "call", "check"):
            try:
                hand.act(kind)
                break
            except IllegalActionError:
                continue
    return hand


def test_eliminators_of_a_played_hand_highest_pot_first() -> None:
    config = HandConfig.at_table([50, 0, 100, 200, 100], button=0, small_blind=1, big_blind=2)
    outcome = play_all_in(config, rng=4).outcome
    assert outcome is not None
    # seat 0 won the main pot (all four in it), seat 4 the side pot of seats 2, 3, 4
    assert [(pot.eligible, pot.winners) for pot in outcome.pots] == [
        ((0, 2, 3, 4), (0,)), ((2, 3, 4), (4,)),
    ]  # fmt: skip
    assert eliminators(outcome, 2) == (4, 0) and eliminators(outcome, 3) == (4, 0)


def test_eliminators_skip_an_empty_share_and_pots_out_of_reach() -> None:
    pots = (
        Pot(3, (0, 1, 2), (2, 1), (2, 1)),
        Pot(1, (1, 2), (2, 1), (1, 0)),  # an odd chip: seat 1 got none of it
        Pot(50, (2, 3), (3,), (50,)),  # seat 0 and 1 are not in it
    )
    outcome = Outcome(pots, (), (), (0,) * 4, (0,) * 4, (0,) * 4, True)
    assert eliminators(outcome, 0) == (2, 1)
    assert eliminators(outcome, 1) == (2,)
    assert eliminators(outcome, 9) == ()


def test_the_wire_forms_refuse_inconsistent_results() -> None:
    win = Placing(1, "a")
    out_b = Placing(2, "b", Elimination("b", 3, 10, ("a",)))
    out_c = Placing(2, "c", Elimination("c", 3, 10, ("a",)))
    TournamentResult((win, out_b, out_c), "a", 3)
    bad = [
        ((out_b, win), "a", 3, "winner"),  # the winner is not first
        ((win, out_b), "b", 3, "winner"),
        ((win, Placing(3, "b", out_b.elimination)), "a", 3, "places"),  # place 2 skipped
        ((win, out_b, Placing(3, "c", out_c.elimination)), "a", 3, "places"),  # not a tie
        ((win, out_b, Placing(4, "c", out_c.elimination)), "a", 3, "places"),
        ((win, Placing(2, "b")), "a", 3, "places"),  # out, but no elimination
        ((win, out_b, out_b), "a", 3, "places"),  # twice
        ((win,), "a", 3, "places"),
        ((win, out_b), "a", 2, "hands"),  # b went out on hand 3
        ((win, Placing(2, "b", Elimination("b", 2, 10)), out_c), "a", 3, "places"),  # later
        ((win, out_b, Placing(3, "c", Elimination("c", 3, 11))), "a", 3, "places"),  # more
    ]
    for places_, winner, hands, field in bad:
        with pytest.raises(ConfigError) as caught:
            TournamentResult(places_, winner, hands)
        assert caught.value.field == field
    with pytest.raises(ConfigError, match="it is the elimination of 'b', not of 'c'"):
        Placing(2, "c", out_b.elimination)
    with pytest.raises(ConfigError, match="eliminated_by"):
        Elimination("b", 3, 10, ("b",))
    with pytest.raises(ConfigError, match="eliminated_by"):
        Elimination("b", 3, 10, "a")  # type: ignore[arg-type]
    with pytest.raises(WireError, match=r"result\.places\[1\]\.elimination\.hand_number"):
        TournamentResult.from_dict(
            {"places": [win.to_dict(), {"place": 2, "player": "b", "elimination": {
                "player": "b", "hand_number": "3", "started_with": 10}}],
             "winner": "a", "hands": 3}
        )  # fmt: skip
    with pytest.raises(WireError, match=r"result\.mvp: unknown field"):
        TournamentResult.from_dict({"places": [], "winner": "a", "hands": 3, "mvp": "a"})
    for shape, value in (("Elimination", out_b.elimination), ("Placing", out_b)):
        assert value is not None
        check(shape, value.to_dict())
        assert type(value).from_dict(value.to_dict()) == value
