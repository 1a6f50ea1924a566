"""Equities: exact reference values, Monte Carlo, weights, errors, threads."""

from __future__ import annotations

import math
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import holdem.equities as equities_module
from holdem import InvalidCardError, parse_cards
from holdem.cli.main import main
from holdem.equities import EXACT_MAX, MAX_SEED, MAX_TRIALS, EquityError, equity
from holdem.evaluator import MAX_THREADS
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


# Exact results of many classes of deals, to the last bit, as the code before
# runs of slices gave them (one C call and one sum a class): runs, threads and
# the totals' order of work change none of the sums.  The river and turn spots
# have ties of three, whose shares are summed term by term.
@pytest.mark.parametrize(
    ("players", "board", "deals", "shares"),
    [
        (["QQ+,AKs:0.3", "random"], "9c8d2h", 23_544_180,
         ["0x1.9e43fd3b1ca41p-1", "0x1.86f00b138d256p-3"]),
        (["AK,KQ", "random", "QQ,JJ"], "TcJdQhKs9c", 97_524,
         ["0x1.6cc4f0078f514p-1", "0x1.9230f36e78ea4p-3", "0x1.757698e6940e8p-4"]),
        (["AK,KQ", "random", "QQ,JJ"], "TcJdQh9s", 5_721_408,
         ["0x1.79a2579357aa5p-1", "0x1.3206570f62e30p-5", "0x1.ccf50beec8b51p-3"]),
    ],
    ids=["flop-heads-up", "river-three-way", "turn-three-way"],
)  # fmt: skip
def test_exact_many_classes_same_bits_on_one_and_two_threads(
    players: list[str], board: str, deals: int, shares: list[str]
) -> None:
    one = equity(players, board=board, exact=True, threads=1)
    two = equity(players, board=board, exact=True, threads=2)
    assert one == two
    assert one.deals == deals
    assert [p.equity.hex() for p in one.players] == shares


def test_exact_many_small_classes_take_a_c_call_a_run_not_a_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 23,781 classes of 990 boards (tens of microseconds each): one C call
    # and one thread task each made two threads 3.6 times slower than one
    calls: list[object] = []
    real = equities_module._c_call

    def counted(stop, fn, *args):  # type: ignore[no-untyped-def]
        calls.append(fn)
        return real(stop, fn, *args)

    monkeypatch.setattr(equities_module, "_c_call", counted)
    seen: list[float] = []
    result = equity(["QQ+,AKs", "random"], board="9c8d2h", exact=True, threads=2,
                    progress=seen.append)  # fmt: skip
    # 47 million evaluations in runs of a few milliseconds each (about 2 million)
    assert result.deals == 23_544_180
    assert 10 <= len(calls) <= 50
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) == len(calls)


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
    with pytest.raises(EquityError, match="exact=True takes no trials"):
        equity(["AK", "QQ"], exact=True, trials=10)
    with pytest.raises(EquityError, match="threads"):
        equity(["AK", "QQ"], threads=0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"stderr": math.nan}, "stderr must be a positive number, got nan"),
        ({"stderr": math.inf}, "stderr must be a positive number"),
        ({"stderr": -0.1}, "stderr must be a positive number"),
        ({"stderr": 0}, "stderr must be a positive number"),
        ({"stderr": 10**400}, "stderr must be a positive number"),  # float() overflows
        ({"threads": 0}, "threads must be 1 to 64, got 0"),
        ({"threads": 100_000}, "threads must be 1 to 64, got 100000"),
        ({"trials": 0}, "trials must be 1 to 10000000000"),
        ({"trials": MAX_TRIALS + 1}, "trials must be 1 to 10000000000, got 10000000001"),
        ({"seed": -1}, "seed must be 0 to 18446744073709551615, got -1"),
        ({"seed": 2**64}, "seed must be 0 to 18446744073709551615"),  # wrapped silently
        ({"seed": 10**5000}, "got an int of 16610 bits"),
    ],
)
def test_bad_argument_values_are_equity_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(EquityError, match=message) as info:
        equity(["AK", "QQ"], **kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"threads": 1.5},  # accepted (as 1) before
        {"threads": True},
        {"trials": True},  # accepted (as 1) before
        {"trials": 10.0},
        {"seed": 1.5},
        {"seed": "7"},
        {"stderr": "0.01"},
        {"stderr": True},
        {"exact": "yes"},
        {"progress": 5},
    ],
)
def test_arguments_of_a_wrong_type_are_type_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(TypeError):
        equity(["AK", "QQ"], **kwargs)  # type: ignore[arg-type]


def test_players_of_a_wrong_type_are_type_errors() -> None:
    with pytest.raises(TypeError, match="not one str"):
        equity("AsKs")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a list, not int"):
        equity(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="player 2 is bytes"):
        equity(["AK", b"QQ"])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        equity(["AK", None])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        equity(["AK", "QQ"], board=5)  # type: ignore[arg-type]


def test_seeds_use_all_64_bits_and_no_more() -> None:
    top = equity(["AK", "QQ"], trials=1000, seed=MAX_SEED)
    assert top.seed == MAX_SEED
    assert top != equity(["AK", "QQ"], trials=1000, seed=MAX_SEED - 1)
    assert equity(["AK", "QQ"], trials=1000, seed=0).deals == 1000


# 44 dead cards: with the hands and the board, the deck is empty (issue: the
# Monte Carlo looped forever looking for a board card, exact divided by zero).
FULL_DEAD = (
    "2d 2h 2s 3d 3h 3s 4d 4h 4s 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s 9c 9d 9h 9s "
    "Tc Td Th Ts Jc Jd Jh Js Qc Qs Kc Kd Kh Ac Ad Ah"
)
NO_CARD_LEFT = (
    "the board needs 1 more card but only 0 are left once the hands, board and dead cards "
    "are taken out"
)


@pytest.mark.parametrize("kwargs", [{}, {"exact": True}, {"trials": 10}, {"stderr": 0.01}])
def test_no_card_left_for_the_board_is_an_error(kwargs: dict[str, object]) -> None:
    with pytest.raises(EquityError, match=NO_CARD_LEFT):
        equity(["AsKs", "QdQh"], board="2c3c4c5c", dead=FULL_DEAD, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(EquityError, match="the board needs 5 more cards but only 4 are left"):
        equity(["random", "random"], dead=FULL_DEAD, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(EquityError, match="5 players need 10 hole cards but only 8 are left"):
        equity(["random"] * 5, dead=FULL_DEAD, **kwargs)  # type: ignore[arg-type]


def test_the_last_cards_of_the_deck_can_complete_the_board() -> None:
    dead = FULL_DEAD.replace("Ah", "")  # Ah is the one board card left
    exact = equity(["AsKs", "QdQh"], board="2c3c4c5c", dead=dead)
    assert exact.deals == 1 and equities(exact) == [0.5, 0.5]  # the wheel on the board
    mc = equity(["AsKs", "QdQh"], board="2c3c4c5c", dead=dead, trials=5000, seed=3)
    assert mc.deals == 5000 and equities(mc) == [0.5, 0.5]


def test_cli_no_card_left_is_one_line_and_ends(tmp_path: Path) -> None:
    # a subprocess, so that a regression fails on the timeout instead of hanging the suite
    for extra in (["--trials", "10"], []):
        done = subprocess.run(
            [sys.executable, "-m", "holdem.cli", "equity", "AsKs", "QdQh", "--board", "2c3c4c5c",
             "--dead", FULL_DEAD, *extra],
            capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 2
        assert done.stderr == f"holdem equity: error: {NO_CARD_LEFT}\n"


def test_c_monte_carlo_never_spins_without_a_card_to_draw() -> None:
    # C assumes valid input, but returns at once when no board card is left
    from holdem._core import ffi, lib

    dead = (1 << 52) - 1 - (1 << 51) - (1 << 47) - (1 << 43) - (1 << 42)  # all but AsKs, QdQh
    wins, ties, rejected = ffi.new("uint64_t[2]"), ffi.new("uint64_t[22]"), ffi.new("uint64_t *")
    combos, start = bytes([51, 47, 43, 42]), ffi.new("uint32_t[]", [0, 1, 2])
    weights = ffi.new("double[]", [1.0, 1.0])
    args = (board := b"", 0, dead, 100, 1)
    assert board == b""
    done = lib.hd_equity_montecarlo(combos, weights, start, 2, *args, 10, wins, ties, rejected,
                                    ffi.NULL)  # fmt: skip
    assert done == 0
    deals = lib.hd_equity_montecarlo_deals(combos, weights, 1, 2, *args, wins, ties, ffi.NULL)
    assert deals == 0
    # and zero or broken weights give no deal rather than undefined behaviour
    zero = ffi.new("double[]", [0.0, 0.0])
    assert lib.hd_equity_montecarlo_deals(combos, zero, 1, 2, b"", 0, 0, 100, 1, wins, ties,
                                          ffi.NULL) == 0  # fmt: skip
    nan = ffi.new("double[]", [math.nan])
    assert lib.hd_equity_montecarlo_deals(combos, nan, 1, 2, b"", 0, 0, 100, 1, wins, ties,
                                          ffi.NULL) == 0  # fmt: skip


def test_weights_whose_products_underflow_still_give_an_answer() -> None:
    # deal weights are products of combo weights: 1e-200 * 1e-200 is 0.0 in a
    # float, which divided by zero; each player's weights are now scaled to a top of 1
    tiny = equity(["KK:1e-200", "QQ:1e-200"])
    assert equities(tiny) == pytest.approx(equities(equity(["KK", "QQ"])), abs=1e-12)
    mixed = equity(["AA:1e-200,KK:1e-300", "AA:1e-300,KK:1e-200"], board="2c3d4h")
    assert sum(equities(mixed)) == pytest.approx(1.0)


def test_threads_are_capped_and_never_more_than_the_chunks_of_work() -> None:
    baseline = threading.active_count()
    seen: list[int] = []

    def progress(_: float) -> None:
        seen.append(threading.active_count())

    # one board to score, one chunk of deals, 990 boards (a run of 12 slices,
    # not worth a thread): no thread is started for them
    equity(["AsKs", "QdQh"], board="2c3c4c5c6d", threads=MAX_THREADS, progress=progress)
    equity(["AK", "QQ"], trials=1000, threads=MAX_THREADS, progress=progress)
    equity(["AsKs", "QdQh"], board="2c3d4h", threads=MAX_THREADS, progress=progress)
    assert max(seen) == baseline
    # 12 tasks (4 first board cards each, 1.7 million boards): at most 12 threads
    seen.clear()
    result = equity(["AsKs", "QdQh"], threads=MAX_THREADS, progress=progress)
    assert baseline < max(seen) <= baseline + 12
    assert result == equity(["AsKs", "QdQh"])
    assert threading.active_count() == baseline


def test_exact_enumeration_has_a_documented_ceiling() -> None:
    # listed deals, but some 2e10 hand evaluations after merging suit symmetries
    with pytest.raises(EquityError, match=r"exact enumeration would take .* more than the limit"):
        equity(["AK", "QQ", "JJ", "TT", "99", "88"], exact=True)
    assert EXACT_MAX == 100 * equities_module.EXACT_LIMIT


def test_legal_deal_search_is_bounded() -> None:
    # 9 players cannot all hold a pair of AA-JJ (16 cards): found at once by counting
    start = time.perf_counter()
    with pytest.raises(EquityError, match="no legal deal"):
        equity(["AA,KK,QQ,JJ"] * 9, trials=100)
    assert time.perf_counter() - start < 2
    ranges = [Range.parse("AA,KK,QQ,JJ")] * 9 + [Range.parse("random")]
    assert equities_module._has_legal_deal(ranges) is False
    ranges = [Range.parse("AA,KK,QQ,JJ,TT")] * 9 + [Range.parse("random")]
    assert equities_module._has_legal_deal(ranges) is True


def test_worker_threads_stop_when_the_caller_is_interrupted() -> None:
    baseline = threading.active_count()

    def interrupt(_: float) -> None:
        raise KeyboardInterrupt

    for kwargs in ({"exact": True}, {"trials": 10**9}):
        start = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            equity(["AK", "QQ+", "JTs", "22"], threads=2, progress=interrupt, **kwargs)  # type: ignore[arg-type]
        assert time.perf_counter() - start < 2
        assert threading.active_count() == baseline


def run_cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--threads", "0"], "0 is not in the range 1<=x<=64"),
        (["--threads", "65"], "65 is not in the range 1<=x<=64"),
        (["--trials", "0"], "0 is not in the range x>=1"),
        (["--trials", "10000000001"], "trials must be 1 to 10000000000, got 10000000001"),
        (["--seed", "-1"], "-1 is not in the range 0<=x<=18446744073709551615"),
        (["--seed", str(2**64)], "is not in the range 0<=x<=18446744073709551615"),
        (["--seed", "9" * 100_000], "is not a valid integer"),
        (["--stderr", "nan"], "stderr must be a positive number, got nan"),  # was a traceback
        (["--stderr", "inf"], "stderr must be a positive number, got inf"),
        (["--stderr", "-1"], "-1.0 is not in the range x>0"),
    ],
)
def test_cli_bad_numbers_are_one_line_errors(args: list[str], message: str) -> None:
    code, out, err = run_cli("equity", "AK", "QQ", *args)
    assert code == 2 and out == ""
    assert message in err and len(err) < 500 and err.count("\n") == 1
    assert "Traceback" not in err


def test_cli_equity_takes_the_whole_seed_range() -> None:
    code, out, _ = run_cli("equity", "AK", "QQ", "--trials", "1000", "--seed", str(MAX_SEED))
    assert code == 0 and f"seed {MAX_SEED}" in out


# --- the bots' quick path (holdem.equities.share) ---


@pytest.mark.parametrize(
    ("hole", "others", "board"),
    [("AsAh", ["random"], ""), ("7c2d", ["random"] * 3, ""), ("AsKs", ["QQ+,AKo"], "Qs7d2c"),
     ("JcTc", ["random", "22+"], "9c8d2h3s")],
)  # fmt: skip
def test_share_agrees_with_equity(hole: str, others: list[str], board: str) -> None:
    """The quick path deals what holdem.equity deals: the same figure within
    a few standard errors (40,000 deals: about 0.0025), the hole's cards and
    the board's taken out of the ranges by drawing again."""
    packed = [
        equities_module.RANDOM
        if o == "random"
        else equities_module.Packed(dict(Range.parse(o).items()))
        for o in others
    ]
    quick = equities_module.share(parse_cards(hole), packed, parse_cards(board), 40_000, seed=3)
    slow = equity([hole, *others], board=board, trials=200_000, seed=3).players[0].equity
    assert quick == pytest.approx(slow, abs=0.012)


def test_share_is_the_seed_s() -> None:
    hole, board = parse_cards("AdKd"), parse_cards("Qd7d2c")
    runs = [
        equities_module.share(hole, [equities_module.RANDOM] * 2, board, 500, seed=s)
        for s in (1, 1, 2)
    ]
    assert runs[0] == runs[1] != runs[2]
