"""Cards (RULES R1): text forms, every parse error, card sets, the deck."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from collections.abc import Callable

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import holdem
import holdem.cards
import holdem.evaluator
from holdem.cards import (
    Deck,
    card,
    cards_of,
    format_card,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from holdem.cli.main import main
from holdem.config import HandConfig
from holdem.errors import ConfigError, HoldemError, InvalidCardError, quote
from holdem.hand import Hand


def test_r1_encoding_table() -> None:
    # card = rank * 4 + suit; ranks 2..A = 0..12, suits c d h s = 0..3
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("3c") == 4
    assert parse_card("Ac") == 48
    assert parse_card("As") == 51
    assert card(12, 3) == 51 and rank_of(51) == 12 and suit_of(51) == 3
    assert [format_card(c) for c in range(4)] == ["2c", "2d", "2h", "2s"]


@pytest.mark.parametrize(
    "text",
    ["Td", "10d", "td", "T♦", "10♦", "t♦", "TD", "T♢", "T♦\ufe0f"],
)
def test_r1_text_forms_of_one_card(text: str) -> None:
    assert parse_card(text) == parse_card("Td")


@pytest.mark.parametrize(
    "text", ["AsKs", "As Ks", "As,Ks", "As, Ks", " as ks ", "A♠K♠", "a♠ k♠", "As;Ks", "As\tKs\n"]
)
def test_r1_lists_run_together_or_separated(text: str) -> None:
    assert parse_cards(text) == [51, 47]


def test_r1_ten_run_together() -> None:
    assert format_cards(parse_cards("10d10cAs")) == "Td Tc As"


@given(st.lists(st.integers(0, 51), unique=True, max_size=20))
def test_format_then_parse_round_trips(cards: list[int]) -> None:
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, sep="")) == cards
    assert cards_of(mask_of(cards)) == sorted(cards)


@pytest.mark.parametrize(
    ("text", "message", "token", "position"),
    [
        ("As Ax", "unknown card 'Ax' at position 2: 'x' is not a suit", "Ax", 2),
        ("AsKx", "unknown card 'Kx' at position 2", "Kx", 2),
        ("Xs", "unknown card 'Xs' at position 1: the rank must be one of", "Xs", 1),
        ("1s", "unknown card '1s' at position 1: the rank must be", "1s", 1),
        ("As K", "unknown card 'K' at position 2: the suit is missing", "K", 2),
        ("AsK Qd", "unknown card 'K' at position 2: the suit is missing", "K", 2),
        ("As Ks Qd 11h", "unknown card '11' at position 4", "11", 4),
        ("As Ks Ks", r"duplicate card Ks \(positions 2 and 3\)", "Ks", 3),
        ("As 10s Ts", r"duplicate card Ts \(positions 2 and 3\)", "Ts", 3),
    ],
)
def test_r1_parse_errors_name_token_and_position(
    text: str, message: str, token: str, position: int
) -> None:
    with pytest.raises(InvalidCardError, match=message) as info:
        parse_cards(text)
    assert info.value.token == token
    assert info.value.position == position
    assert isinstance(info.value, ValueError) and isinstance(info.value, HoldemError)


def test_positions_count_across_list_items() -> None:
    with pytest.raises(InvalidCardError, match="'Qx' at position 3"):
        parse_cards(["AsKs", "Qx"])
    with pytest.raises(InvalidCardError, match="card 99 at position 2"):
        parse_cards(["As", 99])
    with pytest.raises(InvalidCardError, match="position 2 is a bool"):
        parse_cards([1, True])


def test_parse_card_wants_exactly_one() -> None:
    with pytest.raises(InvalidCardError, match="expected one card, got 2"):
        parse_card("AsKs")
    with pytest.raises(InvalidCardError, match="out of range"):
        format_card(52)


def test_errors_quote_a_bounded_and_readable_part_of_the_input() -> None:
    # bytes that were not UTF-8 reach us as surrogate escapes (os.fsdecode)
    with pytest.raises(InvalidCardError, match=r"unknown card '\\xff\\xfe' at position 1"):
        parse_cards("\udcff\udcfe")
    with pytest.raises(InvalidCardError, match=r"'\\xff' is not a suit"):
        parse_cards("A\udcff")
    with pytest.raises(InvalidCardError) as info:
        parse_card("As" + " " * 100_000 + "Kd")
    assert len(str(info.value)) < 100 and "..." in str(info.value)
    with pytest.raises(InvalidCardError) as info:
        parse_cards([10**100_000])  # str() of it would raise ValueError
    assert "out of range" in str(info.value) and len(str(info.value)) < 100
    assert quote("x" * 61) == "'" + "x" * 60 + "'..."
    assert quote("it's") == "'it\\'s'"
    assert quote(-(10**40)).startswith("an int of")


def test_cli_shows_bytes_that_are_not_utf8_readably() -> None:
    result = CliRunner().invoke(main, ["eval", "\udcff\udcfe"])
    assert result.exit_code == 2
    assert "unknown card '\\xff\\xfe'" in result.stderr
    long = CliRunner().invoke(main, ["eval", "A" * 100_000])
    assert long.exit_code == 2 and len(long.stderr) < 300


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: parse_cards(5), TypeError, "not int"),  # type: ignore[arg-type]
        (lambda: parse_cards(None), TypeError, "not NoneType"),  # type: ignore[arg-type]
        (lambda: format_card(-1), InvalidCardError, "out of range"),
        (lambda: format_card("As"), InvalidCardError, "is not a card"),  # type: ignore[arg-type]
        (lambda: mask_of([-1]), InvalidCardError, "out of range"),
        (lambda: mask_of([10**18]), InvalidCardError, "out of range"),
        (lambda: mask_of(["As"]), InvalidCardError, "is not a card"),  # type: ignore[list-item]
        (lambda: cards_of(-1), InvalidCardError, "not a card set"),  # looped forever
        (lambda: cards_of(1 << 52), InvalidCardError, "not a card set"),
    ],
)
def test_bad_card_ints_and_sets_raise_invalid_card_error(
    call: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()


@given(st.text(max_size=12))
def test_garbage_text_only_raises_invalid_card_error(text: str) -> None:
    try:
        cards = parse_cards(text)
    except InvalidCardError as exc:
        assert str(exc)
    else:
        assert all(0 <= c < 52 for c in cards)
        assert len(set(cards)) == len(cards)


def test_deck_is_reproducible_from_seed() -> None:
    assert Deck(42).deal(52) == Deck(42).deal(52)
    assert Deck(random.Random(42)).order == Deck(42).order
    assert Deck(1).order != Deck(2).order
    assert sorted(Deck(3).deal(52)) == list(range(52))


def test_deck_deal_burn_exclude() -> None:
    deck = Deck(5, exclude="AsKs")
    assert len(deck) == 50
    assert {51, 47}.isdisjoint(deck.order)
    first = deck.order[0]
    assert deck.burn() == first
    assert len(deck.deal(3)) == 3 and len(deck) == 46
    with pytest.raises(HoldemError, match="cannot deal 47 cards: 46 left"):
        deck.deal(47)
    deck.shuffle()
    assert len(deck) == 50


def test_deck_order_is_what_it_deals_next() -> None:
    deck = Deck(9)
    first = deck.deal(3)
    ahead = deck.order
    assert deck.deal(len(ahead)) == list(ahead) and first == Deck(9).deal(3)
    deck.shuffle()  # all cards back, drawn afresh: another order, the same cards
    assert sorted(deck.deal(52)) == list(range(52))


def test_a_seed_deals_the_same_cards_to_a_hand_and_from_a_deck() -> None:
    """R14: one shuffle. Hand(rng=seed) deals one card at a time round the table from
    the first seat left of the button, then burn, flop, burn, turn, burn, river."""
    from holdem.config import HandConfig
    from holdem.hand import Hand

    config = HandConfig(stacks=(100,) * 3, button=2, small_blind=1, big_blind=2)
    for seed in range(20):
        cards = Deck(seed).deal(6 + 8)
        hand = Hand(config, rng=seed, auto=False)
        assert [hand.hole_cards(s) for s in range(3)] == [None] * 3  # not dealt yet
        hand.run()
        assert [hand.hole_cards(s) for s in range(3)] == [
            (cards[0], cards[3]), (cards[1], cards[4]), (cards[2], cards[5]),
        ]  # fmt: skip
        again = Hand(config, deck=Deck(seed))
        assert [again.hole_cards(s) for s in range(3)] == [hand.hole_cards(s) for s in range(3)]
        while not again.done:
            again.check_or_call()
        assert again.board == tuple(cards[6 + i] for i in (1, 2, 3, 5, 7))
        assert again.burns == (cards[6], cards[10], cards[12])


def test_a_hand_deals_around_the_cards_it_is_given() -> None:
    from holdem.config import HandConfig
    from holdem.errors import ConfigError
    from holdem.hand import Hand

    config = HandConfig(stacks=(100,) * 2, button=1, small_blind=1, big_blind=2)
    deck = Deck(4)
    upcoming = deck.order
    given = [upcoming[0:2], upcoming[2:4]]  # the deck's first four cards, given: skipped
    hand = Hand(config, deck=deck, hole_cards=given)
    while not hand.done:
        hand.check_or_call()
    stub = upcoming[4:12]
    assert hand.board == (stub[1], stub[2], stub[3], stub[5], stub[7])
    assert hand.burns == (stub[0], stub[4], stub[6])
    with pytest.raises(ConfigError, match="give rng or deck, not both"):
        Hand(config, rng=1, deck=Deck(1))
    with pytest.raises(ConfigError, match=r"deck must be a holdem\.Deck"):
        Hand(config, deck=[1, 2, 3])  # type: ignore[arg-type]


def test_deck_shuffle_is_unbiased_in_every_position() -> None:
    """R14: over many shuffles every card lands in every position about equally often
    (chi-square over the 52 x 52 table of positions and cards, fixed seed)."""
    rng = random.Random(2026)
    shuffles = 10_400  # 200 expected per cell
    table = [[0] * 52 for _ in range(52)]
    for _ in range(shuffles):
        for position, dealt in enumerate(Deck(rng).order):
            table[position][dealt] += 1
    expected = shuffles / 52
    chi2 = sum((count - expected) ** 2 / expected for row in table for count in row)
    df = 51 * 51
    # Wilson-Hilferty: the chi-square quantile for p = 0.001 (z = 3.09)
    limit = df * (1 - 2 / (9 * df) + 3.09 * (2 / (9 * df)) ** 0.5) ** 3
    assert chi2 < limit, (chi2, limit)
    # and it is not too good to be true (p = 0.001 at the low end)
    assert chi2 > df * (1 - 2 / (9 * df) - 3.09 * (2 / (9 * df)) ** 0.5) ** 3


def test_deck_shuffle_is_unbiased() -> None:
    # each card lands in the first slot about equally often (chi-square test)
    rng = random.Random(11)
    trials = 26_000
    counts = Counter(Deck(rng).order[0] for _ in range(trials))
    expected = trials / 52
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in range(52))
    assert chi2 < 90  # 51 degrees of freedom: p < 0.001 above ~87.0 (fixed seed)


@pytest.mark.parametrize("module", [holdem, holdem.cards, holdem.evaluator])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def test_hole_cards_and_view_of_a_seat_not_at_the_table() -> None:
    # holdem/hand.py: hole_cards(-1) gave the last seat's cards, hole_cards(5) an IndexError
    hand = Hand(HandConfig(stacks=(100, 100, 100), button=0, small_blind=1, big_blind=2), rng=1)
    assert hand.hole_cards(2) is not None and hand.view(2).hole_cards == hand.hole_cards(2)
    for seat in (-1, 3, 10**30):
        for look in (hand.hole_cards, hand.view):
            with pytest.raises(ConfigError, match=r"seat .* is not at the table: seats are 0 to 2"):
                look(seat)
    with pytest.raises(ConfigError, match="seat -1 is not at the table") as info:
        hand.hole_cards(-1)
    assert isinstance(info.value, ValueError) and info.value.field == "seat"
    for seat in ("1", 1.0, True):
        with pytest.raises(TypeError, match="a seat is an int"):
            hand.hole_cards(seat)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="a seat is an int"):
            hand.view(seat)  # type: ignore[arg-type]
    assert hand.view(None).hole_cards is None
