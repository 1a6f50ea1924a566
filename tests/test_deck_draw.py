"""Deck's draws in C (holdem._fastcall.deal_cards, csrc/hd_shuffle.c) against the
Python algorithm: the same cards for every seed, the generator left in the same state."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem._fastcall import deal_cards
from holdem.cards import Deck
from holdem.errors import HoldemError


def reference_draw(cards: list[int] | bytearray, drawn: int, end: int, rng: random.Random) -> None:
    """The forward Fisher-Yates steps drawn..end-1 as Deck did them in Python
    before the C draws: j = getrandbits(m.bit_length()) drawn again while j >= m."""
    size = len(cards)
    for i in range(drawn, end):
        m = size - i
        j = rng.getrandbits(m.bit_length())
        while j >= m:
            j = rng.getrandbits(m.bit_length())
        cards[i], cards[i + j] = cards[i + j], cards[i]


class ReferenceDeck:
    """Deck as it was before the C draws: a forward Fisher-Yates shuffle done as
    cards are dealt."""

    def __init__(self, rng: random.Random, exclude: frozenset[int] = frozenset()) -> None:
        self.rng = rng
        self.cards = [c for c in range(52) if c not in exclude]
        self.drawn = self.next = 0

    def deal(self, n: int = 1) -> list[int]:
        end = self.next + n
        if n < 0 or end > len(self.cards):
            raise HoldemError("cannot deal")
        if end > self.drawn:
            reference_draw(self.cards, self.drawn, end, self.rng)
            self.drawn = end
        dealt = self.cards[self.next : end]
        self.next = end
        return dealt

    def burn(self) -> int:
        return self.deal(1)[0]

    @property
    def order(self) -> tuple[int, ...]:
        reference_draw(self.cards, self.drawn, len(self.cards), self.rng)
        self.drawn = len(self.cards)
        return tuple(self.cards[self.next :])

    def shuffle(self) -> None:
        self.drawn = self.next = 0


def advanced(seed: int, words: int) -> random.Random:
    """A generator of `seed` that has given `words` 32-bit words already (so that
    draws start anywhere in the Mersenne Twister's block of 624 words)."""
    rng = random.Random(seed)
    for _ in range(words):
        rng.getrandbits(32)
    return rng


def run(deck: Deck | ReferenceDeck, steps: list[tuple[str, int]]) -> list[object]:
    out: list[object] = []
    for op, n in steps:
        try:
            if op == "deal":
                out.append(deck.deal(n))
            elif op == "burn":
                out.append(deck.burn())
            elif op == "order":
                out.append(deck.order)
            else:
                deck.shuffle()
                out.append(len(deck.cards) if isinstance(deck, ReferenceDeck) else len(deck))
        except HoldemError:
            out.append("error")
    return out


STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("deal"), st.integers(0, 53)),
        st.tuples(st.sampled_from(["burn", "order", "shuffle"]), st.just(0)),
    ),
    max_size=12,
)


@settings(max_examples=400)
@given(
    seed=st.integers(0, 2**64),
    words=st.integers(0, 1300),
    exclude=st.frozensets(st.integers(0, 51), max_size=51),
    steps=STEPS,
)
def test_the_same_cards_and_generator_state_as_the_python_algorithm(
    seed: int, words: int, exclude: frozenset[int], steps: list[tuple[str, int]]
) -> None:
    rng, expected_rng = advanced(seed, words), advanced(seed, words)
    deck = Deck(rng, exclude=sorted(exclude))
    assert run(deck, steps) == run(ReferenceDeck(expected_rng, exclude), steps)
    assert rng.getstate() == expected_rng.getstate()
    assert rng.random() == expected_rng.random()


@pytest.mark.parametrize("pattern", ["deal 20", "deal 1 each", "order", "shuffle then deal"])
def test_many_seeds(pattern: str) -> None:
    for seed in range(600):
        rng, expected_rng = advanced(seed, seed % 700), advanced(seed, seed % 700)
        deck, reference = Deck(rng), ReferenceDeck(expected_rng)
        if pattern == "deal 20":
            assert deck.deal(20) == reference.deal(20)
        elif pattern == "deal 1 each":
            assert [deck.deal(1) for _ in range(52)] == [reference.deal(1) for _ in range(52)]
        elif pattern == "order":
            assert deck.deal(3) == reference.deal(3)
            assert deck.order == reference.order
        else:
            assert deck.deal(7) == reference.deal(7)
            deck.shuffle()
            reference.shuffle()
            assert deck.deal(30) == reference.deal(30)
        assert rng.random() == expected_rng.random(), seed


def test_a_seed_deals_what_it_dealt_before_the_c_draws() -> None:
    # cards dealt by the Python loop before deal_cards existed
    assert Deck(7).deal(20) == [
        20, 10, 27, 44, 7, 9, 40, 13, 31, 46, 4, 43, 25, 15, 19, 42, 1, 21, 33, 24,
    ]  # fmt: skip
    assert Deck(2026, exclude="AsKs 2c").deal(20) == [
        8, 22, 35, 36, 46, 12, 21, 5, 49, 45, 37, 9, 6, 10, 43, 31, 17, 23, 2, 29,
    ]  # fmt: skip
    rng = random.Random(99)
    deck = Deck(rng)
    assert deck.deal(9) == [25, 0, 14, 41, 15, 19, 21, 4, 13]
    deck.shuffle()
    assert deck.deal(3) == [16, 47, 26]
    assert rng.getrandbits(32) == 2279822770


def test_other_generators_draw_in_python() -> None:
    class Counting(random.Random):
        calls = 0

        def getrandbits(self, k: int) -> int:
            Counting.calls += 1
            return super().getrandbits(k)

    rng, expected_rng = Counting(5), random.Random(5)
    assert Deck(rng).deal(20) == ReferenceDeck(expected_rng).deal(20)
    assert Counting.calls >= 20  # one call a draw: the Python loop
    assert rng.random() == expected_rng.random()

    class Plain(random.Random):
        pass

    assert Deck(Plain(8)).order == Deck(8).order  # the same generator underneath
    assert sorted(Deck(random.SystemRandom()).deal(52)) == list(range(52))


def test_deal_cards_checks_its_arguments() -> None:
    cards = bytearray(range(52))
    with pytest.raises(TypeError, match=r"exact random\.Random"):
        deal_cards(cards, 0, 5, 0, random.SystemRandom())
    with pytest.raises(TypeError, match="bytearray"):
        deal_cards(list(range(52)), 0, 5, 0, random.Random(1))  # type: ignore[arg-type]
    for start, end, drawn in [(-1, 5, 0), (6, 5, 0), (0, 53, 0), (0, 5, 53), (0, 5, -1)]:
        with pytest.raises(ValueError, match="need 0 <= start"):
            deal_cards(cards, start, end, drawn, random.Random(1))
    assert cards == bytearray(range(52))
    assert deal_cards(cards, 2, 5, 52, random.Random(1)) == [2, 3, 4]  # drawn: no draws
    assert deal_cards(bytearray(), 0, 0, 0, random.Random(1)) == []


def test_a_python_getrandbits_on_random_random_is_called_word_by_word() -> None:
    # where random.Random's methods are not _random.Random's C ones, deal_cards
    # calls random.Random.getrandbits as the Python loop does (a fresh process:
    # the methods are looked up at the first deal)
    script = textwrap.dedent(
        """
        import random
        calls = []
        original = random.Random.getrandbits
        def getrandbits(self, k):
            calls.append(k)
            return original(self, k)
        random.Random.getrandbits = getrandbits
        from holdem.cards import Deck
        from test_deck_draw import ReferenceDeck
        rng = random.Random(3)
        dealt = Deck(rng).deal(20)
        assert len(calls) >= 20, calls
        random.Random.getrandbits = original
        expected_rng = random.Random(3)
        assert dealt == ReferenceDeck(expected_rng).deal(20), dealt
        assert rng.random() == expected_rng.random()
        print("ok")
        """
    )
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.stdout.strip() == "ok", done.stderr


def test_ctrl_c_while_dealing_raises_keyboard_interrupt() -> None:
    # a deal is a short C loop running no Python code: a SIGINT is seen when it
    # returns, and the deck and generator are as the Python loop leaves them
    if sys.platform == "win32":
        pytest.skip("POSIX signals")
    timer = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    rng, expected_rng = random.Random(17), random.Random(17)
    deals = 0
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            while time.perf_counter() - start < 10:
                Deck(rng).deal(20)
                deals += 1
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.perf_counter() - start < 1
    for _ in range(deals):
        ReferenceDeck(expected_rng).deal(20)
    # the interrupt came between two deals or before a deal's draws
    assert rng.getstate() in (expected_rng.getstate(), advanced_state(expected_rng))


def advanced_state(rng: random.Random) -> object:
    """The state after one more deal of 20 (if the interrupt came after its draws)."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    ReferenceDeck(copy).deal(20)
    return copy.getstate()


@pytest.mark.slow
def test_draws_of_more_than_26_bits_take_one_word_each() -> None:
    # a deck of 2**26 cards or more: the draws of more bits than random() gives
    # call getrandbits, one word each
    for size in (2**26 - 1, 2**26, 2**26 + 3):
        cards = bytearray(size)
        cards[::4099] = bytes(k % 251 for k in range(len(cards[::4099])))
        for start in (0, size - 40):
            end = min(start + 40, size)
            rng, expected_rng = random.Random(size + start), random.Random(size + start)
            mine, expected = bytearray(cards), bytearray(cards)
            assert deal_cards(mine, start, end, start, rng) == list(mine[start:end])
            reference_draw(expected, start, end, expected_rng)
            assert mine == expected and rng.random() == expected_rng.random()
