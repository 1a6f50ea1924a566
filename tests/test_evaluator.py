"""The evaluator: exhaustive counts (RULES R2), the reference, known hands."""

from __future__ import annotations

import ctypes
import itertools
import os
import random
import signal
import subprocess
import sys
import threading
import time
from array import array
from collections import Counter

import pytest
from click.testing import CliRunner
from conftest import with_ctrl_c
from hypothesis import given
from hypothesis import strategies as st
from reference_eval import score

import holdem
from holdem import (
    Category,
    InvalidCardError,
    category,
    deciding_kicker,
    describe,
    evaluate,
    evaluate7,
)
from holdem._core import lib
from holdem.cards import RANK_NAMES, format_cards, parse_cards
from holdem.cli.main import main
from holdem.errors import HoldemError
from holdem.evaluator import (
    MAX_THREADS,
    EvaluatorError,
    _c_call,
    _StopFlag,
    best_five,
    evaluate_many,
    value_counts,
)

HD_STOP_EVERY = 4096  # csrc/hd_internal.h

# RULES.md R2, strongest category first
SEVEN_CARD_COUNTS = [41_584, 224_848, 3_473_184, 4_047_644, 6_180_020,
                     6_461_620, 31_433_400, 58_627_800, 23_294_460]  # fmt: skip
FIVE_CARD_COUNTS = [40, 624, 3_744, 5_108, 10_200, 54_912, 123_552, 1_098_240, 1_302_540]


def by_category(counts: dict[int, int]) -> list[int]:
    totals: Counter[Category] = Counter()
    for value, n in counts.items():
        totals[category(value)] += n
    return [totals[c] for c in sorted(Category, reverse=True)]


def test_r2_all_five_card_hands_category_counts_and_7462_values() -> None:
    counts = value_counts(5)
    assert sum(counts.values()) == 2_598_960
    assert by_category(counts) == FIVE_CARD_COUNTS
    assert len(counts) == 7462


def test_r2_all_seven_card_hands_category_counts() -> None:
    counts = value_counts(7)
    assert sum(counts.values()) == 133_784_560
    assert by_category(counts) == SEVEN_CARD_COUNTS
    # a best five of seven can never be, e.g., 7-5-4-3-2 high: 4,824 values occur
    assert len(counts) == 4824


def test_r2_values_are_dense_per_category() -> None:
    values = sorted(value_counts(5))
    per_category = Counter(v >> 12 for v in values)
    # distinct five-card hands per category, high card first
    assert [per_category[c] for c in Category] == [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
    for cat in Category:
        inside = [v & 0xFFF for v in values if v >> 12 == cat]
        assert inside == list(range(len(inside)))


def test_six_card_hands_total_and_fixed_cards() -> None:
    assert sum(value_counts(6).values()) == 20_358_520
    # every 7-card hand holding the royal flush in spades is that royal flush
    royal = value_counts(7, fixed="AsKsQsJsTs")
    assert royal == {evaluate("AsKsQsJsTs"): 1081}
    # dead cards leave the pool: 5 fixed + nothing to draw from = one hand
    assert sum(value_counts(5, fixed="2c3c4c5c7d", dead="As").values()) == 1


def test_value_counts_rejects_conflicts() -> None:
    with pytest.raises(InvalidCardError, match="both fixed and dead"):
        value_counts(7, fixed="AsKs", dead="Ks")
    with pytest.raises(InvalidCardError, match="do not fit"):
        value_counts(5, fixed="AsKsQsJsTs9s")
    with pytest.raises(ValueError, match="hand_size"):
        value_counts(8)


hands = st.integers(5, 7).flatmap(
    lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)
)


@given(hands, hands)
def test_agrees_with_reference_evaluator(a: list[int], b: list[int]) -> None:
    va, vb = evaluate(a), evaluate(b)
    ra, rb = score(a), score(b)
    assert category(va) == ra[0]
    assert category(vb) == rb[0]
    assert (va > vb) == (ra > rb)
    assert (va == vb) == (ra == rb)


def test_agrees_with_reference_on_near_ties() -> None:
    # random hands rarely tie; same ranks with other suits and kickers do
    rng = random.Random(2026)
    for _ in range(3000):
        ranks = [rng.randrange(13) for _ in range(7)]
        a = _with_suits(ranks, rng)
        b = _with_suits(ranks[:5] + [rng.randrange(13) for _ in range(2)], rng)
        if a is None or b is None:
            continue
        assert (evaluate(a) > evaluate(b)) == (score(a) > score(b)), (a, b)
        assert (evaluate(a) == evaluate(b)) == (score(a) == score(b)), (a, b)


def _with_suits(ranks: list[int], rng: random.Random) -> list[int] | None:
    cards: set[int] = set()
    for r in ranks:
        free = [r * 4 + s for s in range(4) if r * 4 + s not in cards]
        if not free:
            return None
        cards.add(rng.choice(free))
    return sorted(cards)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("6h2c3d4s5h Kc9d", "Ah2c3d4s5h Kc9d"),  # six-high straight beats the wheel
        ("5c4c3c2cAc", "KdKhKsKcQd"),  # steel wheel beats four of a kind
        ("AsKdQd7h4c", "AsKdQd6h4c"),  # fourth card decides
        ("AsKdQd7h4c", "AsKdQd7h3c"),  # fifth card decides
        ("9h9s9d5c5d 2c2d", "8h8s8d Ac Ad Ks Kd"),  # higher trips make the better full house
        ("AhAd KcKd 2s 3c 4h", "AhAd QcQd Ks 9s 8h"),  # two pair: second pair before kicker
        ("JcJd 8h 8s 7c 7d As", "JcJd 8h 8s 6c 6d Ks"),  # third pair only as kicker: Ace
        ("TsJsQsKsAs", "9s Ts Js Qs Ks"),  # royal flush beats king-high straight flush
        ("Ac Kc 9c 5c 3c", "Ad Qd Jd Td 8d"),  # flush: second card
        ("2c 2d 2h 3s 3d", "Ac Ad Kh Ks Qd"),  # any full house beats two pair
    ],
)
def test_known_hands_order(better: str, worse: str) -> None:
    assert evaluate(better) > evaluate(worse)


@pytest.mark.parametrize(
    ("cards", "text", "cat"),
    [
        ("Ah2c3d4s5h", "Straight, Five high", Category.STRAIGHT),
        ("5c4c3c2cAc", "Straight Flush, Five high", Category.STRAIGHT_FLUSH),
        ("AsKsQsJsTs", "Royal Flush", Category.STRAIGHT_FLUSH),
        ("KsKd9h9c2s", "Two Pair, Kings and Nines", Category.TWO_PAIR),
        ("6c6d6h6s Ad", "Four of a Kind, Sixes", Category.FOUR_OF_A_KIND),
        ("KcKdKs9h9c", "Full House, Kings full of Nines", Category.FULL_HOUSE),
        ("Ah Jh 8h 4h 2h", "Flush, Ace high", Category.FLUSH),
        ("7c7d7h Ks 2d", "Three of a Kind, Sevens", Category.THREE_OF_A_KIND),
        ("JcJd 9s 4h 2c", "One Pair, Jacks", Category.ONE_PAIR),
        ("Ac Qd 9s 4h 2c", "High Card, Ace", Category.HIGH_CARD),
    ],
)
def test_describe_and_category(cards: str, text: str, cat: Category) -> None:
    value = evaluate(cards)
    assert describe(value) == text
    assert category(value) is cat
    assert value >> 12 == cat


def test_describe_with_kickers_and_labels() -> None:
    assert (
        describe(evaluate("JcJd 9s 4h 2c"), kickers=True)
        == "One Pair, Jacks, Nine, Four, Two kickers"
    )
    assert describe(evaluate("6c6d6h6s Ad 2c"), kickers=True) == "Four of a Kind, Sixes, Ace kicker"
    assert Category.FOUR_OF_A_KIND.label == "Four of a Kind"
    assert Category.ONE_PAIR.label == "One Pair"
    with pytest.raises(HoldemError, match="not a hand value"):
        describe(0)
    with pytest.raises(HoldemError, match="not a hand value"):
        category(10 << 12)
    with pytest.raises(HoldemError, match="not a hand value"):
        category((1 << 12) + 1277)  # one past the last high-card value


def test_board_plays_and_split() -> None:
    board = "AsKsQsJsTs"
    assert evaluate(board + "2c3d") == evaluate(board + "4h5h")
    # a better kicker on the board makes both hands equal: split
    assert evaluate("KcKd QcQd 9s 2c3d") == evaluate("KcKd QcQd 9s 4h5h")
    # one player pairs the kicker
    assert evaluate("KcKd QcQd 9s Ah3d") > evaluate("KcKd QcQd 9s 4h5h")


def test_best_five() -> None:
    assert format_cards(best_five("9c 9d As Kh 9s 2c Ad")) == "9s 9d 9c As Ad"
    assert format_cards(best_five("Ah 2c 3d 4s 5h Kc Kd")) == "5h 4s 3d 2c Ah"
    assert format_cards(best_five("Qh 2h 7h 9h Kh Ah 3c")) == "Ah Kh Qh 9h 7h"
    five = best_five("AsKs QhJhTh 9h2c")
    assert evaluate(five) == evaluate("AsKs QhJhTh 9h2c")


def test_evaluate_accepts_ints_text_and_mixes() -> None:
    text = "As Ks Qh Jh Th 9h 2c"
    ints = parse_cards(text)
    expected = evaluate(text)
    assert evaluate(ints) == evaluate(tuple(ints)) == evaluate(iter(ints)) == expected
    assert evaluate(["As", 47, "Qh", "Jh", "Th", "9h", "2c"]) == expected
    assert evaluate7(*ints) == expected


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([51, 47, 43, 39, 35, 31, 52], "card 52 at position 7 is out of range"),
        ([51, 47, 43, 39, 35, 31, -1], "card -1 at position 7 is out of range"),
        ([51, 47, 43, 39, 35, 31, 51], r"duplicate card As \(positions 1 and 7\)"),
        ("AsKs", "a hand has 5 to 7 cards, got 2"),
        ("AsKsQsJsTs9s8s7s", "a hand has 5 to 7 cards, got 8"),
        ([51, 47, 43, 39, 35, 31, 1.5], "position 7 is a float"),
    ],
)
def test_evaluate_rejects_bad_hands(cards: object, message: str) -> None:
    with pytest.raises(InvalidCardError, match=message):
        evaluate(cards)  # type: ignore[arg-type]


def test_evaluate7_returns_zero_for_invalid_cards() -> None:
    assert evaluate7(51, 47, 43, 39, 35, 31, 51) == 0
    assert evaluate7(51, 47, 43, 39, 35, 31, 52) == 0
    assert evaluate7(51, 47, 43, 39, 35, 31, -1) == 0
    assert evaluate7(51, 47, 43, 39, 35, 31, 2**70) == 0
    assert evaluate7(51, 47, 43, 39, 35, 31, True) == 0
    with pytest.raises(TypeError, match="argument 7 is not an int"):
        evaluate7(51, 47, 43, 39, 35, 31, "2c")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 7 cards"):
        evaluate7(51, 47, 43)  # type: ignore[call-arg]


def test_evaluate_fast_path_falls_back_for_everything_else() -> None:
    # the C fast path takes exact lists/tuples of ints; the rest is parsed
    hand = [51, 47, 43, 39, 35]
    assert evaluate(hand) == evaluate(tuple(hand)) == evaluate("AsKsQsJsTs")
    assert evaluate(bytearray(hand)) == evaluate(hand)
    with pytest.raises(InvalidCardError, match="position 5 is a bool"):
        evaluate([51, 47, 43, 39, True])
    with pytest.raises(InvalidCardError, match="out of range"):
        evaluate([51, 47, 43, 39, 2**70])
    with pytest.raises(InvalidCardError, match="duplicate card As"):
        evaluate((51, 47, 43, 39, 51))


def random_hands(n: int, k: int, seed: int) -> bytes:
    rng = random.Random(seed)
    deck = list(range(52))
    out = bytearray()
    for _ in range(n):
        out += bytes(rng.sample(deck, k))
    return bytes(out)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_evaluate_many_matches_single_calls(k: int) -> None:
    data = random_hands(5000, k, seed=k)
    values = evaluate_many(data, k)
    assert isinstance(values, array)
    assert list(values) == [evaluate(list(data[i : i + k])) for i in range(0, len(data), k)]


def test_evaluate_many_numpy_out_and_threads() -> None:
    np = pytest.importorskip("numpy")
    data = np.frombuffer(random_hands(100_000, 7, seed=1), dtype=np.uint8).reshape(-1, 7)
    values = evaluate_many(data)
    assert values.dtype == np.uint16 and values.shape == (100_000,)
    assert values[17] == evaluate(data[17].tolist())
    threaded = evaluate_many(data, threads=2)
    assert (threaded == values).all()
    out = array("H", bytes(2 * 100_000))
    evaluate_many(data.tobytes(), out=out, check=False)
    assert out.tobytes() == values.tobytes()


def test_evaluate_many_errors_name_the_hand() -> None:
    good = bytes(random_hands(3, 7, seed=3))
    with pytest.raises(InvalidCardError, match="hand at index 3: duplicate card 3d at position 7"):
        evaluate_many(good + bytes([0, 1, 2, 3, 4, 5, 5]))
    with pytest.raises(
        InvalidCardError, match="hand at index 3: byte 60 at position 1 is not a card"
    ):
        evaluate_many(good + bytes([60, 1, 2, 3, 4, 5, 6]))
    with pytest.raises(ValueError, match="not a whole number of 7-card hands"):
        evaluate_many(good + b"\x01")
    with pytest.raises(ValueError, match="cards_per_hand"):
        evaluate_many(good, 4)
    with pytest.raises(ValueError, match="out holds 1 values"):
        evaluate_many(good, out=array("H", [0]))
    with pytest.raises(TypeError, match="one byte each"):
        evaluate_many(array("H", [1, 2, 3, 4, 5, 6, 7]))


def test_unchecked_garbage_never_crashes() -> None:
    # duplicates and bytes > 51 give meaningless values, but stay in bounds
    junk = bytes(random.Random(9).randrange(256) for _ in range(7 * 20_000))
    values = evaluate_many(junk, check=False)
    assert len(values) == 20_000
    sevens = bytes([51] * 7 + [200] * 7)
    assert len(evaluate_many(sevens, check=False)) == 2


def test_lookup_tables_fit_in_cache() -> None:
    # a few hundred KB at most (issue #2): the hot tables stay in L2
    assert lib.hd_table_bytes() <= 400 * 1024


def test_public_api_is_exported() -> None:
    for name in holdem.__all__:
        assert hasattr(holdem, name), name


# --- argument checks of the batch API -------------------------------------------------


def test_evaluate_many_wants_uint16_out() -> None:
    np = pytest.importorskip("numpy")
    hands = bytes(random_hands(4, 7, seed=5))
    want = list(evaluate_many(hands))
    for out in (array("H", [0] * 4), np.zeros(4, dtype=np.uint16), (ctypes.c_uint16 * 4)()):
        assert list(evaluate_many(hands, out=out)) == want
    for bad, message in [
        (np.zeros(4, dtype=np.float64), "unsigned 16-bit items .* not items of format 'd'"),
        (np.zeros(4, dtype=np.int16), "not items of format 'h'"),
        (np.zeros(4, dtype=np.float16), "not items of format 'e'"),
        (np.zeros(4, dtype=np.dtype(">u2" if sys.byteorder == "little" else "<u2")), "format"),
        (bytearray(8), "not items of format 'B'"),
        (array("I", [0] * 4), "not items of format 'I'"),
        (bytes(8), "not items of format 'B'"),
        (memoryview(array("H", [0] * 4)).toreadonly(), "out is read-only"),
        (np.zeros(8, dtype=np.uint16)[::2], "out must be contiguous"),
        ("0000", "out must be a buffer of uint16 .* not str"),
        (5, "not int"),
    ]:
        with pytest.raises(TypeError, match=message):
            evaluate_many(hands, out=bad)
    frozen = np.zeros(4, dtype=np.uint16)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="read-only"):
        evaluate_many(hands, out=frozen)
    with pytest.raises(EvaluatorError, match="out holds 3 values, 4 are needed"):
        evaluate_many(hands, out=array("H", [0] * 3))


def test_evaluate_many_rejects_bad_buffers_and_arguments() -> None:
    np = pytest.importorskip("numpy")
    hands = random_hands(4, 7, seed=6)
    for bad, message in [
        ("AsKsQsJsTs2c2d", "cards must be a buffer of bytes .* not str"),
        (7, "not int"),
        (None, "not NoneType"),
        (np.zeros((4, 14), dtype=np.uint8)[:, ::2], "contiguous"),
        (np.zeros(28, dtype=np.int64), "one byte each"),
    ]:
        with pytest.raises(TypeError, match=message):
            evaluate_many(bad)
    for kwargs, error, message in [
        ({"cards_per_hand": 4}, EvaluatorError, "cards_per_hand must be 5 to 7, got 4"),
        ({"cards_per_hand": "7"}, TypeError, "cards_per_hand must be an int, not str"),
        ({"cards_per_hand": 7.0}, TypeError, "not float"),
        ({"threads": 0}, EvaluatorError, "threads must be 1 to 64, got 0"),
        ({"threads": 65}, EvaluatorError, "threads must be 1 to 64"),
        ({"threads": 1.5}, TypeError, "threads must be an int, not float"),
        ({"threads": True}, TypeError, "not bool"),
    ]:
        with pytest.raises(error, match=message):
            evaluate_many(hands, **kwargs)  # type: ignore[arg-type]
    assert issubclass(EvaluatorError, HoldemError) and issubclass(EvaluatorError, ValueError)
    assert len(evaluate_many(b"")) == 0
    assert list(evaluate_many(np.frombuffer(hands, dtype=np.uint8), threads=np.int64(2))) == list(
        evaluate_many(hands)
    )


def test_evaluate_many_starts_no_more_threads_than_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures

    sizes: list[int] = []

    class Recording(concurrent.futures.ThreadPoolExecutor):
        def __init__(self, workers: int, **kwargs: object) -> None:
            sizes.append(workers)
            super().__init__(workers, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", Recording)
    data = bytes(range(7)) * (3 * 65_536)  # three parts of 65,536 hands at most
    start = time.perf_counter()
    values = evaluate_many(data, threads=MAX_THREADS)
    assert time.perf_counter() - start < 1  # 100,000 threads took 4 s and 200 MB
    assert sizes == [3] and len(values) == 3 * 65_536
    evaluate_many(data[: 7 * 1000], threads=MAX_THREADS)  # one part: no pool at all
    assert sizes == [3]


def test_value_counts_and_describe_raise_documented_errors() -> None:
    for size, error in [(8, EvaluatorError), (4, EvaluatorError), ("7", TypeError)]:
        with pytest.raises(error, match="hand_size"):
            value_counts(size)  # type: ignore[arg-type]
    fixed = parse_cards("AsKsQsJs")
    rest = [c for c in range(52) if c not in fixed]
    assert value_counts(7, fixed=fixed, dead=rest[3:]) == {evaluate(fixed + rest[:3]): 1}
    assert value_counts(7, fixed=fixed, dead=rest[2:]) == {}  # no hand can be made
    for bad in (0, 10 << 12, -1, "7462", None, 10**5000):
        with pytest.raises(EvaluatorError, match="is not a hand value") as info:
            describe(bad)  # type: ignore[arg-type]
        assert len(str(info.value)) < 80


# --- stopping: the C loops read a stop flag; Ctrl-C sets it ----------------------------


def test_c_loops_return_early_when_the_stop_flag_is_set() -> None:
    from holdem._core import ffi

    stop = ffi.new("int *", 1)
    hands = bytes(random_hands(100_000, 7, seed=7))
    out = ffi.new("uint16_t[]", 100_000)
    assert lib.hd_evaluate_batch(hands, 100_000, 7, out, stop) == 0
    assert lib.hd_evaluate_batch_checked(hands, 100_000, 7, out, stop) == lib.HD_STOPPED
    assert lib.hd_evaluate_batch(hands, 100_000, 7, out, ffi.NULL) == 100_000
    hist = ffi.new("uint64_t[]", lib.HD_VALUE_LIMIT)
    assert lib.hd_enumerate(b"", 0, bytes(range(52)), 52, 5, hist, stop) == 0
    assert lib.hd_enumerate(b"", 0, bytes(range(52)), 52, 5, hist, ffi.NULL) == 2_598_960
    wins, ties = ffi.new("uint64_t[2]"), ffi.new("uint64_t[22]")
    deck = bytes(c for c in range(52) if c not in (51, 47, 43, 42))
    holes = bytes([51, 47, 43, 42])
    assert lib.hd_equity_enumerate(holes, 2, b"", 0, deck, 48, 0, 48, wins, ties, stop) == 0
    full = lib.hd_equity_enumerate(holes, 2, b"", 0, deck, 48, 0, 48, wins, ties, ffi.NULL)
    assert full == 1_712_304
    weights = ffi.new("double[]", [1.0])
    deals = lib.hd_equity_montecarlo_deals(holes, weights, 1, 2, b"", 0, 0, 10**6, 1, wins,
                                           ties, stop)  # fmt: skip
    assert deals < HD_STOP_EVERY


def test_batch_enumeration_is_each_slice_on_its_own_and_stops_on_the_flag() -> None:
    from holdem._core import ffi

    # three slices of a flop (two of one deal, cut by first board card; one
    # of another), then the same on the river (one board each)
    for board in (bytes([0, 5, 10]), bytes([0, 5, 10, 15, 20])):
        deals = [bytes([51, 47, 43, 42]), bytes([51, 47, 43, 42]), bytes([50, 46, 39, 35])]
        cuts = [(0, 4), (4, 45), (0, 45)] if len(board) == 3 else [(0, 1)] * 3
        decks = [bytes(c for c in range(52) if c not in board + h) for h in deals]
        nd = len(decks[0])
        counts = ffi.new("uint64_t[]", 3)
        wins, ties = ffi.new("uint64_t[]", 6), ffi.new("uint64_t[]", 66)
        lo = ffi.new("uint32_t[]", [a for a, _ in cuts])
        hi = ffi.new("uint32_t[]", [b for _, b in cuts])
        args = (b"".join(deals), 2, board, len(board), b"".join(decks), nd, lo, hi, 3, counts,
                wins, ties)  # fmt: skip
        assert lib.hd_equity_enumerate_batch(*args, ffi.NULL) == 3
        for j, (h, d, (a, b)) in enumerate(zip(deals, decks, cuts, strict=True)):
            one_wins, one_ties = ffi.new("uint64_t[]", 2), ffi.new("uint64_t[]", 22)
            count = lib.hd_equity_enumerate(h, 2, board, len(board), d, nd, a, b, one_wins,
                                            one_ties, ffi.NULL)  # fmt: skip
            assert counts[j] == count > 0
            assert list(wins[2 * j : 2 * j + 2]) == list(one_wins)
            assert list(ties[22 * j : 22 * j + 22]) == list(one_ties)
        stop = ffi.new("int *", 1)
        counts[0] = 7
        assert lib.hd_equity_enumerate_batch(*args, stop) == 0
        assert counts[0] == 7  # (no slice begun)


def test_ctrl_c_stops_a_long_c_call_in_the_main_thread() -> None:
    # a real SIGINT while the main thread is in C: the flag stops the loop and
    # Python raises KeyboardInterrupt as soon as the call returns
    if sys.platform == "win32":
        pytest.skip("POSIX signals")
    stop = _StopFlag()
    hist = ffi_new_hist()
    timer = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    # as in a terminal, whatever the test runner inherited (a background job ignores it)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            for _ in range(1000):  # 0.3 s a call
                _c_call(stop, lib.hd_enumerate, b"", 0, bytes(range(52)), 52, 7, hist)
        # the C handler is gone again: the one found is back
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert stop  # set by the C handler, not just seen by Python between two calls
    assert time.perf_counter() - start < 1


def ffi_new_hist() -> object:
    from holdem._core import ffi

    return ffi.new("uint64_t[]", lib.HD_VALUE_LIMIT)


INTERRUPTED = """
import sys, threading, time
import holdem
from holdem.equities import equity
print("ready", flush=True)
start = time.perf_counter()
try:
    {work}
except KeyboardInterrupt:
    # a worker whose start the Ctrl-C cut short may take a moment to end
    while threading.active_count() > 1 and time.perf_counter() - start < 60:
        time.sleep(0.01)
    print(f"stopped {{threading.active_count()}} after {{time.perf_counter() - start:.3f}}")
    sys.exit(130)
print("finished", flush=True)
"""
EVALUATE_FOREVER = (
    "data = bytes(range(7)) * 4_000_000\n"
    "    while True: holdem.evaluate_many(data, threads={threads})"
)


def interrupt_after(args: list[str], delay: float = 0.5) -> tuple[int, str, str, float]:
    """Runs a command, sends it SIGINT once it is busy; its exit code,
    output and how long it took to end after the signal."""
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=with_ctrl_c
    )
    try:
        if args[1] == "-c":
            assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        time.sleep(delay)
        start = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        return proc.returncode, out, err, time.perf_counter() - start
    finally:
        proc.kill()


MANY_CLASSES = (  # (101,614 classes of 990 boards, a run of a thousand a C call)
    'while True: equity(["TT+,AJ+,KQ", "random"], board="9c8d2h", exact=True, threads={threads})'
)
CTRL_C_CASES = {
    "evaluate_many": EVALUATE_FOREVER.format(threads=1),
    "evaluate_many threads": EVALUATE_FOREVER.format(threads=2),
    "value_counts": "while True: holdem.value_counts(7)",
    "exact": 'equity(["AK", "QQ+", "JTs", "22"], exact=True)',
    "exact threads": 'equity(["AK", "QQ+", "JTs", "22"], exact=True, threads=2)',
    "exact many classes": MANY_CLASSES.format(threads=1),
    "exact many classes threads": MANY_CLASSES.format(threads=2),
    "monte carlo": 'equity(["AK", "QQ+"], trials=10**10)',
    "monte carlo threads": 'equity(["AK", "QQ+"], trials=10**10, threads=2)',
    "monte carlo rejections": 'equity(["AA,KK,QQ,JJ"] * 8, trials=10**9, threads=2)',
}


def check_stopped(code: int, out: str, err: str, seconds: float) -> None:
    assert code == 130, err
    assert out.startswith("stopped 1 ")  # no worker thread left behind
    assert seconds < 2


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("case", ["evaluate_many", "exact threads", "exact many classes threads"])
def test_ctrl_c_stops_within_a_second(case: str) -> None:
    code = INTERRUPTED.format(work=CTRL_C_CASES[case])
    check_stopped(*interrupt_after([sys.executable, "-c", code]))


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("case", sorted(CTRL_C_CASES))
def test_ctrl_c_stops_every_long_call_within_a_second(case: str) -> None:
    code = INTERRUPTED.format(work=CTRL_C_CASES[case])
    check_stopped(*interrupt_after([sys.executable, "-c", code]))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_the_equity_command() -> None:
    holdem_cli = [sys.executable, "-m", "holdem.cli", "equity", "AK", "QQ+"]
    # each takes 10 s or more, so the signal comes while the work is under way
    for extra in (["--trials", "10000000000"], ["--exact", "JTs", "22+", "--threads", "2"]):
        code, out, err, seconds = interrupt_after([*holdem_cli, *extra], delay=1.0)
        assert code == 130 and err.strip() == "holdem equity: interrupted"
        assert out == ""  # stopped, not finished
        assert seconds < 2


def test_cli_eval_with_a_board_takes_two_hole_cards_a_player() -> None:
    result = CliRunner().invoke(main, ["eval", "--board", "QhJhTh", "AsKs", "QsJs", "2c2d"])
    assert result.exit_code == 0 and "wins" in result.stdout
    for hole, count in [("AsKsQs", 3), ("As", 1), ("AsKsQsJs9s", 5)]:
        result = CliRunner().invoke(main, ["eval", "--board", "QhJhTh", hole, "2c2d"])
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr == (
            f"holdem eval: error: player 1 ({hole}) has {count} hole cards: "
            "with --board, each player has exactly 2\n"
        )
    result = CliRunner().invoke(main, ["eval", "--board", "", "AsKsQsJs9s", "2c2d3c4c5c"])
    assert result.exit_code == 2 and "has 5 hole cards" in result.stderr


@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
def test_best_five_is_the_best_of_the_seven_by_brute_force(cards: list[int]) -> None:
    five = best_five(cards)
    assert len(five) == 5 and set(five) <= set(cards)
    best = max(itertools.combinations(cards, 5), key=lambda c: evaluate(list(c)))
    assert evaluate(five) == evaluate(list(best)) == evaluate(cards)
    assert score(five) == score(cards)  # (the reference evaluator agrees)


@given(
    st.lists(st.integers(0, 51), min_size=9, max_size=9, unique=True),
)
def test_the_deciding_kicker_is_the_first_kicker_rank_that_differs(cards: list[int]) -> None:
    board, a, b = cards[:5], [*cards[5:7], *cards[:5]], [*cards[7:9], *cards[:5]]
    va, vb = evaluate(a), evaluate(b)
    if va < vb:
        a, b, va, vb = b, a, vb, va
    kicker = deciding_kicker(va, vb)
    sa, sb = score(a), score(b)  # (category, then the ranks as hands compare)
    same_made = sa[0] == sb[0] and sa[0] not in (5, 7, 9)  # (a straight, full house: no kickers)
    if kicker is None:
        assert va == vb or not same_made or _named(sa) != _named(sb)
        return
    assert va > vb and same_made and _named(sa) == _named(sb)
    first = next(x for x, y in zip(sa, sb, strict=True) if x != y)
    assert kicker == first - 2  # (the reference's ranks run 2..14)
    assert board  # (drawn from one deck: the board shared)


def _named(score: tuple[int, ...]) -> tuple[int, ...]:
    """The ranks a hand's name says (the reference's score): the rest are kickers."""
    named = {1: 1, 2: 1, 3: 2, 4: 1, 6: 1, 8: 1}  # (high card, pair, two pair, trips, flush, quads)
    return score[: 1 + named.get(score[0], 5)]


def test_deciding_kicker_known_answers() -> None:
    ace_king = evaluate("AsAd Kc 7h 5d 3c 2h")
    assert RANK_NAMES[deciding_kicker(ace_king, evaluate("AhAc Qd 7h 5d 3c 2h"))] == "King"
    # a board's kicker plays for both: a tie, nothing decides
    assert deciding_kicker(evaluate("AsAd 2c 3h Kd Qc Jh"), evaluate("AhAc 4d 3h Kd Qc Jh")) is None
    # the made hand decides, not a kicker
    assert deciding_kicker(evaluate("AsAd 2c 3h 9d"), evaluate("KhKc Qd 3h 9d")) is None
    two_pair = evaluate("KsKd 9h9c As"), evaluate("KhKc 9s9d Qs")
    assert RANK_NAMES[deciding_kicker(*two_pair)] == "Ace"
    assert deciding_kicker(evaluate("9c 9d Ts Js Qs Ks As"), evaluate("KsQsJsTs9s")) is None
