"""Fuzz targets for the equity calculator, the evaluator's entry points and
``holdem equity``: only the documented errors, sane results, no hang.

How to run them long: see ``test_fuzz_cards.py``.  Every example is kept
cheap (few Monte Carlo trials, exact enumeration only between exact hands),
so that thousands run in a minute.
"""

from __future__ import annotations

import math
from array import array
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_cards import (
    RANGE_WORDS,
    card_text,
    check_command,
    expect,
    huge_ints,
    run_fuzz,
    scalars,
)

from holdem.cards import format_card, parse_cards
from holdem.equities import MAX_SEED, EquityError, equity
from holdem.errors import HoldemError, InvalidCardError
from holdem.evaluator import (
    EvaluatorError,
    category,
    describe,
    evaluate,
    evaluate7,
    evaluate_many,
    value_counts,
)
from holdem.ranges import Range

pytestmark = pytest.mark.fuzz
np = pytest.importorskip("numpy")

garbage = st.one_of(scalars, st.lists(scalars, max_size=3), st.just(object()))


@st.composite
def deck_cards(draw: st.DrawFn, low: int, high: int) -> list[int]:
    return draw(st.permutations(range(52)))[: draw(st.integers(low, high))]


def hand_text(cards: list[int]) -> str:
    return "".join(map(format_card, cards))


@st.composite
def equity_case(draw: st.DrawFn) -> dict[str, Any]:
    """Arguments for equity(): each valid but at an edge, or garbage."""
    deck = draw(st.permutations(range(52)))
    n = draw(st.integers(0, 11))
    exact_hands = draw(st.booleans())
    players: list[Any] = []
    for i in range(n):
        hole = deck[2 * i : 2 * i + 2]
        if exact_hands:
            players.append(draw(st.sampled_from([hand_text(hole), hole, Range([tuple(hole)])])))
        else:
            players.append(
                draw(st.one_of(RANGE_WORDS, st.just("random"), st.just(hand_text(hole)), garbage))
            )
    rest = deck[2 * n :] if n <= 10 else deck
    board_size = draw(st.sampled_from([0, 3, 4, 5, 1, 6]))
    board: Any = rest[:board_size]
    dead: Any = rest[board_size : board_size + draw(st.integers(0, 48))]  # up to all the rest
    case: dict[str, Any] = {"players": players}
    case["board"] = draw(st.one_of(st.just(board), st.just(hand_text(board)), garbage))
    case["dead"] = draw(st.one_of(st.just(dead), st.just(hand_text(dead)), st.just(()), garbage))
    # exact enumeration only between exact hands: anything else is Monte Carlo, few trials
    if exact_hands and draw(st.booleans()):
        case["exact"] = draw(st.sampled_from([None, True]))
    else:
        case["exact"] = draw(st.one_of(st.sampled_from([False, None]), garbage))
        # never None: a valid stderr alone could ask for up to 10^10 deals
        not_none = garbage.filter(lambda value: value is not None)
        case["trials"] = draw(st.one_of(st.integers(1, 3000), st.integers(-2, 0), not_none))
        case["stderr"] = draw(
            st.one_of(st.none(), st.floats(0.01, 1), st.floats(allow_nan=True), garbage)
        )
    case["seed"] = draw(st.one_of(st.none(), st.integers(0, MAX_SEED), huge_ints, garbage))
    case["threads"] = draw(st.one_of(st.integers(1, 3), st.sampled_from([0, 64, 65]), garbage))
    if draw(st.booleans()):
        case["progress"] = draw(st.one_of(st.just(check_progress), garbage))
    return case


def check_progress(fraction: float) -> None:
    assert 0 <= fraction <= 1 + 1e-9


def test_fuzz_equity(pytestconfig: pytest.Config) -> None:
    @given(equity_case())
    def check(case: dict[str, Any]) -> None:
        result = expect(lambda: equity(**case), HoldemError, TypeError)
        if result is None:
            return
        assert len(result.players) == len(case["players"])
        assert sum(p.equity for p in result.players) == pytest.approx(1.0, abs=1e-9)
        for p in result.players:
            assert 0 <= p.equity <= 1 and 0 <= p.win <= 1 and 0 <= p.tie <= 1
            assert p.win + p.tie <= 1 + 1e-9 and p.stderr >= 0
        assert result.deals > 0
        if result.method == "monte carlo":
            assert result.deals <= case["trials"]  # never more than asked (trials are set)
            assert case.get("seed") is None or result.seed == case["seed"]
        else:
            assert result.method == "exact" and case.get("trials") is None

    run_fuzz(pytestconfig, check, examples=100)


def test_fuzz_evaluate(pytestconfig: pytest.Config) -> None:
    @given(
        st.one_of(deck_cards(0, 9), deck_cards(0, 9).map(tuple), deck_cards(0, 9).map(hand_text)),
        st.lists(st.one_of(st.integers(-2, 60), garbage), min_size=5, max_size=8),
        garbage,
    )
    def check(cards: Any, junk: list[Any], value: Any) -> None:
        v = expect(lambda: evaluate(cards), InvalidCardError, TypeError)
        if v is not None:
            assert 5 <= len(parse_cards(cards)) <= 7
            assert 1 <= category(v) <= 9 and describe(v)
        expect(lambda: evaluate(junk), InvalidCardError, TypeError)
        fast = expect(lambda: evaluate7(*junk[:7]), TypeError)
        assert fast is None or isinstance(fast, int)
        text = expect(lambda: describe(value), EvaluatorError)
        assert text is None or isinstance(text, str)

    run_fuzz(pytestconfig, check)


def card_buffers(data: bytes) -> st.SearchStrategy[Any]:
    as_array = np.frombuffer(data, dtype=np.uint8)
    makers = [
        lambda: data,
        lambda: bytearray(data),
        lambda: array("B", data),
        lambda: memoryview(data),
        lambda: as_array,
        lambda: as_array.copy()[::2],  # not contiguous
        lambda: as_array.astype(np.int64),  # 8-byte items
        lambda: data.decode("latin-1"),  # a str
        lambda: len(data),
        lambda: None,
    ]
    return st.sampled_from(makers).map(lambda make: make())


def out_buffers(n: int) -> st.SearchStrategy[Any]:
    makers = [
        lambda: None,
        lambda: array("H", bytes(2 * n)),
        lambda: array("H", bytes(2 * max(n - 1, 0))),  # one short
        lambda: np.zeros(n, dtype=np.uint16),
        lambda: np.zeros(2 * n, dtype=np.uint16)[::2],
        lambda: np.zeros(n, dtype=np.float64),
        lambda: np.zeros(n, dtype=np.int16),
        lambda: bytearray(2 * n),
        lambda: bytes(2 * n),
        lambda: memoryview(array("H", bytes(2 * n))).toreadonly(),
        lambda: "x" * n,
    ]
    return st.sampled_from(makers).map(lambda make: make())


@st.composite
def batch_case(draw: st.DrawFn) -> tuple[Any, Any, Any, Any, Any, bytes]:
    k = draw(st.sampled_from([5, 6, 7]))
    hands = draw(st.integers(0, 40))
    if draw(st.booleans()):  # valid hands
        data = b"".join(bytes(draw(st.permutations(range(52)))[:k]) for _ in range(hands))
    else:  # any bytes, any length
        data = draw(st.binary(max_size=7 * hands))
    buffer = draw(card_buffers(data))
    cards_per_hand = draw(st.one_of(st.just(k), st.integers(3, 8), garbage))
    out = draw(out_buffers(len(data) // k))
    check_flag = draw(st.one_of(st.booleans(), garbage))
    threads = draw(st.one_of(st.integers(1, 4), st.sampled_from([0, 64, 65]), garbage))
    return buffer, cards_per_hand, out, check_flag, threads, data


def test_fuzz_evaluate_many(pytestconfig: pytest.Config) -> None:
    @given(batch_case())
    def check(case: tuple[Any, Any, Any, Any, Any, bytes]) -> None:
        buffer, k, out, check_flag, threads, data = case
        errors = (TypeError, EvaluatorError, InvalidCardError)
        values = expect(
            lambda: evaluate_many(buffer, k, out=out, check=check_flag, threads=threads), *errors
        )
        if values is None:
            return
        n = len(data) // k
        assert len(values) >= n
        if check_flag:
            for i in range(n):
                assert values[i] == evaluate(list(data[i * k : i * k + k]))

    run_fuzz(pytestconfig, check)


def test_fuzz_value_counts(pytestconfig: pytest.Config) -> None:
    @given(
        st.one_of(st.integers(3, 8), garbage),
        st.one_of(deck_cards(2, 7), card_text, garbage),  # at least 2 fixed: a few ms at most
        st.one_of(deck_cards(0, 50), card_text, garbage),
    )
    def check(size: Any, fixed: Any, dead: Any) -> None:
        counts = expect(
            lambda: value_counts(size, fixed=fixed, dead=dead),
            EvaluatorError,
            InvalidCardError,
            TypeError,
        )
        if counts is None:
            return
        known = parse_cards(fixed) + parse_cards(dead)
        assert sum(counts.values()) == math.comb(52 - len(known), size - len(parse_cards(fixed)))
        assert all(1 <= category(v) <= 9 for v in counts)

    run_fuzz(pytestconfig, check, examples=100)


def test_fuzz_equity_command(pytestconfig: pytest.Config) -> None:
    numbers = st.one_of(
        st.sampled_from(["0", "1", "2", "64", "65", "-1", "nan", "inf", "1e5", "0.01", "", " "]),
        st.integers(-5, 2**65).map(str),
        card_text,
    )
    # valid trials stay small: 10^9 of them take a minute
    trials = st.one_of(
        st.integers(1, 2000), st.integers(-5, 0), st.integers(10**10 + 1, 2**65)
    ).map(str)

    @given(
        st.lists(st.one_of(RANGE_WORDS, card_text), min_size=0, max_size=4),
        st.dictionaries(
            st.sampled_from(["--board", "--dead", "--seed", "--threads", "--stderr"]),
            st.one_of(numbers, card_text),
            max_size=4,
        ),
        st.one_of(trials, card_text),
        st.booleans(),
    )
    def check(players: list[str], options: dict[str, str], trials: str, as_json: bool) -> None:
        args = ["equity", *players, "--trials", trials]
        for name, value in options.items():
            args += [name, value]
        check_command(args + ["--json"] * as_json)

    run_fuzz(pytestconfig, check, examples=100)


def test_equity_errors_are_holdem_and_value_errors() -> None:
    assert issubclass(EquityError, HoldemError) and issubclass(EquityError, ValueError)
    assert issubclass(EvaluatorError, HoldemError) and issubclass(EvaluatorError, ValueError)
