"""Hand ranges: the PokerStove syntax, canonical text, weights, errors."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from holdem.cards import parse_cards
from holdem.cli.main import main
from holdem.errors import HoldemError, InvalidCardError
from holdem.ranges import ALL_COMBOS, Range, RangeError, RangeSyntaxError


def combos_of(text: str) -> set[tuple[int, int]]:
    return set(Range.parse(text))


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("QQ", 6),
        ("QQ+", 18),
        ("22-55", 24),
        ("55-22", 24),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("KTo+", 36),  # KTo KJo KQo
        ("T9s+", 4),  # the second rank is already one below the first
        ("A5s-A2s", 16),
        ("KTs-K7s", 16),
        ("AhKh", 1),
        ("random", 1326),
        ("any", 1326),
        ("QQ+,AKs", 22),
        ("QQ+ AKs", 22),
        ("qq+, aks", 22),
        ("1010", 6),
    ],
)
def test_token_sizes(text: str, count: int) -> None:
    assert len(Range.parse(text)) == count


def test_tokens_mean_what_players_mean() -> None:
    assert combos_of("KTo+") == combos_of("KTo,KJo,KQo")
    assert combos_of("AK") == combos_of("AKs,AKo")
    assert combos_of("A5s-A2s") == combos_of("A5s,A4s,A3s,A2s")
    assert combos_of("22-44") == combos_of("22,33,44")
    assert combos_of("QQ+") == combos_of("QQ,KK,AA")
    assert combos_of("AhKh") == {(50, 46)}
    # suited combos share a suit, offsuit ones do not
    assert all(a % 4 == b % 4 for a, b in combos_of("AKs"))
    assert all(a % 4 != b % 4 for a, b in combos_of("AKo"))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QQ+, AKs, A5s-A2s", "QQ+,AKs,A5s-A2s"),
        ("AKs,AKo", "AK"),
        ("KK,AA,QQ", "QQ+"),
        ("22,33,44", "44-22"),
        ("AKs,AQs,AJs", "AJs+"),
        ("AhKh", "AhKh"),
        ("AhKh,AsKs,AdKd,AcKc", "AKs"),
        ("random", "random"),
        ("AA:0.5", "AA:0.5"),
        ("40%(AKs, QQ)", "40%(QQ,AKs)"),
        ("random, AA:0.5", "KK-22,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32,AA:0.5"),
    ],
)
def test_canonical_short_form(text: str, canonical: str) -> None:
    r = Range.parse(text)
    assert str(r) == canonical
    assert Range.parse(str(r)) == r


@given(st.sets(st.sampled_from(ALL_COMBOS), min_size=1, max_size=60))
def test_any_set_of_combos_prints_back_to_itself(combos: set[tuple[int, int]]) -> None:
    r = Range(combos)
    assert Range.parse(str(r)) == r


@given(st.dictionaries(st.sampled_from(ALL_COMBOS[:200]), st.sampled_from([0.25, 0.5, 1.0]),
                       min_size=1, max_size=40))  # fmt: skip
def test_weighted_ranges_print_back_to_themselves(weights: dict[tuple[int, int], float]) -> None:
    r = Range(weights)
    assert Range.parse(str(r)) == r


def test_weights() -> None:
    r = Range.parse("40%(AKs, QQ), AA:0.5, KK")
    assert r.weight_of("AsKs") == 0.4
    assert r.weight_of("QhQd") == 0.4
    assert r.weight_of("AhAd") == 0.5
    assert r.weight_of("KhKd") == 1.0
    assert r.weight_of("2c2d") == 0.0
    assert r.combos == pytest.approx(0.4 * 10 + 0.5 * 6 + 6)
    # a later token overrides an earlier weight
    assert Range.parse("random, AA:0.5").weight_of("AsAh") == 0.5
    assert Range.parse("AA:0.5, AA").weight_of("AsAh") == 1.0


def test_without_removes_colliding_combos() -> None:
    r = Range.parse("AA, AKs").without(parse_cards("As"))
    assert len(r) == 3 + 3
    assert (51, 47) not in r


def test_grid_and_fraction() -> None:
    r = Range.parse("AA, AKs, AKo:0.5")
    grid = r.grid()
    assert grid[0][0] == 1.0  # AA
    assert grid[0][1] == 1.0  # AKs above the diagonal
    assert grid[1][0] == pytest.approx(0.5)  # AKo below it
    assert sum(map(sum, grid)) == pytest.approx(2.5)
    assert Range.parse("random").fraction == 1.0
    assert Range.parse("AA").fraction == pytest.approx(6 / 1326)


@pytest.mark.parametrize(
    ("text", "token", "column", "reason"),
    [
        ("QQ+, AKx", "AKx", 6, "expected a hand like"),
        ("AAs", "AAs", 1, "a pair cannot be suited"),
        ("QQ-AKs", "QQ-AKs", 1, "a span joins two pairs"),
        ("A5s-K2s", "A5s-K2s", 1, "a span joins"),
        ("40%(AKs", "40", 1, "not closed"),
        ("AA:2", "2", 4, "a weight must be in (0, 1]"),
        ("150%(AA)", "150", 1, "a weight must be"),
        ("AA:", ":", 3, "a weight must follow"),
        ("AA )", ")", 4, "unexpected symbol"),
        ("AsAs", "AsAs", 1, "expected a hand like"),
    ],
)
def test_errors_name_token_and_column(text: str, token: str, column: int, reason: str) -> None:
    with pytest.raises(RangeSyntaxError) as info:
        Range.parse(text)
    assert info.value.token == token
    assert info.value.column == column
    assert reason in str(info.value)
    assert f"at column {column}" in str(info.value)


def test_empty_range_is_an_error() -> None:
    with pytest.raises(RangeSyntaxError, match="empty"):
        Range.parse(" , ")


@given(st.text(alphabet="AKQJT98765432sohdc+-,:%() .0123456789x", max_size=16))
def test_garbage_only_raises_range_syntax_error(text: str) -> None:
    try:
        r = Range.parse(text)
    except RangeSyntaxError as exc:
        assert str(exc)
    else:
        assert len(r) > 0


def test_weight_of_and_contains_take_exactly_two_cards() -> None:
    r = Range.parse("AA:0.5,KQs")
    assert r.weight_of("AsAd") == 0.5
    assert r.weight_of((51, 49)) == r.weight_of((49, 51)) == r.weight_of(["As", "Ad"]) == 0.5
    assert r.weight_of("2c2d") == 0.0
    for bad, message in [
        ("AsAdAh", "a combo has 2 cards, got 3"),
        ((51, 49, 50), "a combo has 2 cards, got 3"),
        ("As", "a combo has 2 cards, got 1"),
        ((51, 51), "duplicate card As"),
        ((51, 60), "card 60 at position 2 is out of range"),
        ("AsXx", "unknown card 'Xx'"),
    ]:
        with pytest.raises(InvalidCardError, match=message):
            r.weight_of(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        r.weight_of(5)  # type: ignore[arg-type]
    # membership never raises: anything but a pair of card ints is not in it
    assert (51, 49) in r and (49, 51) in r
    for other in [(51, 49, 50), ("As", "Ad"), (51.0, 49), (True, 0), "AsAd", None, (10**30, 1)]:
        assert other not in r


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Range([(51, 49, 50)]), InvalidCardError, "a combo has 2 cards"),
        (lambda: Range([(51, 51)]), InvalidCardError, "duplicate card As"),
        (lambda: Range([(52, 1)]), InvalidCardError, "out of range"),
        (lambda: Range([5]), TypeError, "not int"),
        (lambda: Range({(51, 49): 2}), RangeError, r"weight 2 of a combo is not in \(0, 1\]"),
        (lambda: Range({(51, 49): math.nan}), RangeError, "not in"),
        (lambda: Range({(51, 49): 10**400}), RangeError, "not in"),  # float() overflows
        (lambda: Range({(51, 49): "1"}), TypeError, "must be a number"),
        (lambda: Range.parse(b"AA"), TypeError, "not bytes"),  # type: ignore[arg-type]
        (lambda: Range.parse("AA").without([99]), InvalidCardError, "out of range"),
    ],
)
def test_bad_combos_and_weights_raise_documented_errors(
    make: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make()
    assert error is TypeError or issubclass(error, HoldemError | ValueError)
    assert issubclass(RangeSyntaxError, RangeError)


def test_errors_quote_a_bounded_part_of_a_token() -> None:
    with pytest.raises(RangeSyntaxError) as info:
        Range.parse("AA," + "x" * 100_000)
    assert len(str(info.value)) < 200
    assert str(info.value).startswith("bad range token '" + "x" * 60 + "'... at column 4")
    assert info.value.token == "x" * 100_000
    result = CliRunner().invoke(main, ["range", "QQ+," + "\udcff" * 1000])
    assert result.exit_code == 2 and len(result.stderr) < 300
    assert "'" + "\\xff" * 15 + "'..." in result.stderr  # 60 characters of quote


def test_unicode_white_space_separates_tokens() -> None:
    # '\x85' (NEL) ended the tokenizer on an AssertionError (found by the fuzz target)
    assert Range.parse("QQ+\x85") == Range.parse("QQ+")
    assert Range.parse("AA\u3000KK") == Range.parse("AA,KK")
    with pytest.raises(RangeSyntaxError, match="empty"):
        Range.parse("\x85")
