"""Equities: exact reference values, Monte Carlo, weights, errors, threads."""

from __future__ import annotations

import pytest

import holdem.equities as equities_module
from holdem import InvalidCardError
from holdem.equities import EquityError, equity
from holdem.ranges import Range, RangeSyntaxError


def equities(result) -> list[float]:  # type: ignore[no-untyped-def]
    return [p.equity for p in result.players]


# Reference values measured with two independent libraries (issue #3).
def test_exact_heads_up_hands() -> None:
    result = equity(["AsKs", "QdQh"])
    assert result.method == "exact"
    assert result.deals == 1_712_304
    ak, qq = result.players
    assert round(ak.win * 1_712_304) == 787_966
    assert round(qq.win * 1_712_304) == 917_606
    assert round(ak.tie * 1_712_304) == 6_732
    assert ak.equity == pytest.approx(0.4621446, abs=5e-8)
    assert qq.equity == pytest.approx(0.5378554, abs=5e-8)


def test_exact_three_hands() -> None:
    result = equity(["AsKs", "QdQh", "JcTc"])
    assert result.deals == 1_370_754
    wins = [round(p.win * 1_370_754) for p in result.players]
    assert wins == [550_125, 561_712, 255_785]
    assert equities(result) == pytest.approx([0.4020918, 0.4105449, 0.1873633], abs=5e-8)


def test_exact_ranges() -> None:
    assert equities(equity(["AK", "QQ+"])) == pytest.approx([0.317900, 0.682100], abs=5e-7)


def test_exact_three_ranges() -> None:
    result = equity(["AK", "QQ+", "JTs"], exact=True)
    assert result.method == "exact"
    assert equities(result) == pytest.approx([0.275923, 0.535241, 0.188836], abs=5e-7)


@pytest.mark.parametrize(
    ("players", "board"),
    [
        (["AsKs", "QdQh"], ""),
        (["AK", "QQ+"], ""),
        (["AhKh", "QQ", "random"], "Kd7h2c"),
        (["8c8d", "AhKh"], "Kd7h2c5s"),
    ],
)
def test_monte_carlo_within_four_standard_errors(players: list[str], board: str) -> None:
    exact = equity(players, board=board, exact=True)
    mc = equity(players, board=board, trials=400_000, seed=11)
    assert mc.method == "monte carlo" and mc.deals == 400_000
    for e, m in zip(exact.players, mc.players, strict=True):
        assert 0 < m.stderr < 0.003
        assert abs(m.equity - e.equity) < 4 * m.stderr


def test_equities_sum_to_one_and_symmetric_spots_are_symmetric() -> None:
    for result in (
        equity(["AsKs", "AdKd"]),
        equity(["AK", "AK", "QQ"], board="2c7d9h", exact=True),
        equity(["random", "random"], trials=100_000, seed=2),
    ):
        assert sum(equities(result)) == pytest.approx(1.0, abs=1e-9)
    same = equity(["AsKs", "AdKd"])
    assert same.players[0].equity == pytest.approx(0.5, abs=1e-12)
    flipped = equity(["QdQh", "AsKs"])
    assert equities(flipped)[::-1] == pytest.approx(equities(equity(["AsKs", "QdQh"])), abs=1e-12)


def test_weights_act_as_the_hand_computed_example_says() -> None:
    # AsAd against KK at weight 1/4 and QQ at weight 1: the equity is the
    # weighted mean over the villain's combos of the exact combo equities.
    hero = "AsAd"
    villain = Range.parse("KK:0.25, QQ")
    total = 0.0
    weight = 0.0
    for combo, w in villain.items():
        r = equity([hero, list(combo)])
        total += w * r.players[0].equity
        weight += w
    result = equity([hero, villain])
    assert result.players[0].equity == pytest.approx(total / weight, abs=1e-12)
    # and the weight matters: against full KK + QQ the number differs
    assert equity([hero, "KK, QQ"]).players[0].equity != pytest.approx(total / weight)


@pytest.mark.parametrize("listed", [True, False])
def test_weights_in_monte_carlo_are_unbiased_with_collisions(
    listed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # overlapping ranges: whether deals are listed and drawn whole, or drawn
    # player by player with rejections, the draw must stay proportional
    exact = equity(["AA, KK:0.3", "AK, AA"], exact=True)
    if not listed:
        monkeypatch.setattr(equities_module, "_LIST_LIMIT", 0)
    mc = equity(["AA, KK:0.3", "AK, AA"], trials=300_000, seed=4)
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(m.equity - e.equity) < 4 * m.stderr


def test_same_seed_same_result_with_any_thread_count() -> None:
    one = equity(["AK", "QQ+"], trials=200_000, seed=9, threads=1)
    two = equity(["AK", "QQ+"], trials=200_000, seed=9, threads=2)
    assert one == two
    stop1 = equity(["AK", "QQ+"], stderr=0.002, seed=9, threads=1)
    stop2 = equity(["AK", "QQ+"], stderr=0.002, seed=9, threads=2)
    assert stop1 == stop2
    assert max(p.stderr for p in stop1.players) <= 0.002
    other = equity(["AK", "QQ+"], trials=200_000, seed=10)
    assert other != one
    exact2 = equity(["AK", "QQ+"], threads=2)
    assert equities(exact2) == pytest.approx(equities(equity(["AK", "QQ+"])), abs=1e-12)


def test_board_dead_cards_and_progress() -> None:
    seen: list[float] = []
    result = equity(["AsKs", "QdQh"], board="Kd7h2c", dead="Ac", progress=seen.append)
    assert result.deals == 946  # C(44, 2): 52 cards less 3 board, 4 hole, 1 dead
    assert seen and seen[-1] == pytest.approx(1.0)
    river = equity(["AsKs", "QdQh"], board="Kd7h2c9s3d")
    assert equities(river) == [1.0, 0.0]


@pytest.mark.parametrize(
    ("players", "kwargs", "error", "message"),
    [
        (["AsKs", "AsQd"], {}, InvalidCardError, r"duplicate card As \(player 1 and player 2\)"),
        (["AsKs", "QdQh"], {"board": "Qd7h2c"}, InvalidCardError, "the board and player 2"),
        (["AA", "AA", "AA"], {}, EquityError, "no legal deal"),
        (["AA", "KK"], {"board": "AsAhAd"}, EquityError, "player 1 .* no hand left"),
        (["AsKs"], {}, EquityError, "2 to 10 players"),
        (["AK", "QQ+x"], {}, RangeSyntaxError, "player 2: bad range token 'QQ\\+x'"),
        (["AK", "QQ"], {"board": "AsKs"}, InvalidCardError, "0, 3, 4 or 5 cards"),
        (["AK", "QQ"], {"board": "2c3c4c", "dead": "2c"}, InvalidCardError, "board and dead"),
        ([[51, 47, 43], "QQ"], {}, InvalidCardError, "player 1 has 3 cards"),
    ],
)
def test_errors(players: list[object], kwargs: dict[str, str], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        equity(players, **kwargs)  # type: ignore[arg-type]


def test_argument_errors() -> None:
    with pytest.raises(ValueError, match="exact=True takes no trials"):
        equity(["AK", "QQ"], exact=True, trials=10)
    with pytest.raises(ValueError, match="threads"):
        equity(["AK", "QQ"], threads=0)
