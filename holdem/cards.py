"""Cards as plain integers, their text form, card sets and a seeded deck.

A :data:`Card` is an ``int`` in 0..51, ``rank * 4 + suit`` with ranks
2..A = 0..12 and suits c d h s = 0..3 (the table is in ``csrc/holdem.h``).
A :data:`CardSet` is an ``int`` bit mask with bit ``card`` set per card.

>>> parse_cards("AsKs")
[51, 47]
>>> format_cards(parse_cards("10d, a♠ 2c"))
'Td As 2c'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeAlias

from ._fastcall import deal_cards as _deal_cards
from .errors import HoldemError, InvalidCardError, quote

Card: TypeAlias = int
CardSet: TypeAlias = int

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)  # fmt: skip
FULL_DECK: CardSet = (1 << 52) - 1

_RANK_OF = {ch: i for i, ch in enumerate(RANKS)} | {ch.lower(): i for i, ch in enumerate(RANKS)}
_SUIT_OF = {
    "c": 0, "d": 1, "h": 2, "s": 3, "C": 0, "D": 1, "H": 2, "S": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}  # fmt: skip
_SEPARATORS = frozenset(" \t\r\n,;")
_VARIATION_SELECTOR = "\ufe0f"  # as in the emoji form "♠️"
_TEXT = tuple(r + s for r in RANKS for s in SUITS)
_CARD_OF_TEXT = {text: c for c, text in enumerate(_TEXT)}


def card(rank: int, suit: int) -> Card:
    """The card of a rank (0 = deuce .. 12 = ace) and a suit (0..3 = c d h s)."""
    return rank * 4 + suit


def rank_of(c: Card) -> int:
    """Rank of a card, 0 (deuce) to 12 (ace)."""
    return c >> 2


def suit_of(c: Card) -> int:
    """Suit of a card, 0..3 for clubs, diamonds, hearts, spades."""
    return c & 3


def format_card(c: Card) -> str:
    """Text form of one card: ``format_card(51) == 'As'``."""
    if not (isinstance(c, int) and 0 <= c < 52):
        raise _not_a_card(c)
    return _TEXT[c]


def _not_a_card(c: object) -> InvalidCardError:
    if isinstance(c, int) and not isinstance(c, bool):
        return InvalidCardError(f"card {quote(c)} is out of range 0..51", token=c)
    return InvalidCardError(f"{quote(c)} is not a card (an int 0..51)", token=c)


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Text form of several cards, joined by ``sep``."""
    return sep.join(format_card(c) for c in cards)


def _parse_text(text: str, position: int = 0) -> Iterator[Card]:
    """Yields the cards of a text; raises on bad text.

    ``position`` is the number of cards before this text in the request.
    """
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS or ch == _VARIATION_SELECTOR:
            i += 1
            continue
        position += 1
        start = i
        if text.startswith("10", i):
            rank, i = 8, i + 2
        elif ch in _RANK_OF:
            rank, i = _RANK_OF[ch], i + 1
        else:
            token = text[start : start + 2].rstrip("".join(_SEPARATORS))
            raise InvalidCardError(
                f"unknown card {quote(token)} at position {position}: "
                f"the rank must be one of {' '.join(RANKS)} (or 10)",
                token=token,
                position=position,
            )
        if i >= n or text[i] in _SEPARATORS:
            token = text[start:i]
            raise InvalidCardError(
                f"unknown card {quote(token)} at position {position}: the suit is missing "
                "(one of c d h s or ♣ ♦ ♥ ♠)",
                token=token,
                position=position,
            )
        suit = _SUIT_OF.get(text[i])
        if suit is None:
            token = text[start : i + 1]
            raise InvalidCardError(
                f"unknown card {quote(token)} at position {position}: "
                f"{quote(text[i])} is not a suit (one of c d h s or ♣ ♦ ♥ ♠)",
                token=token,
                position=position,
            )
        i += 1
        yield rank * 4 + suit


def parse_card(text: str) -> Card:
    """Parses one card: ``As``, ``td``, ``10d``, ``A♠``.

    >>> parse_card("Td") == parse_card("10d") == parse_card("t♦")
    True
    """
    if type(text) is str:
        known = _CARD_OF_TEXT.get(text)  # (the usual way: as format_card writes it)
        if known is not None:
            return known
    cards = parse_cards(text)
    if len(cards) != 1:
        raise InvalidCardError(f"expected one card, got {len(cards)} in {quote(text)}", token=text)
    return cards[0]


def parse_cards(cards: str | Iterable[Card | str], *, allow_duplicates: bool = False) -> list[Card]:
    """Parses a list of cards given as text or as card ints (or a mix).

    Text may be run together (``"AsKs"``) or separated by spaces or commas;
    ranks may be lower case or ``10``, suits letters or ``♣ ♦ ♥ ♠``.  Raises
    :class:`InvalidCardError` naming the token and its 1-based position,
    also for a card given twice (unless ``allow_duplicates``); ``TypeError``
    if ``cards`` is neither text nor iterable.

    >>> parse_cards(["As", 47, "qh"])
    [51, 47, 42]
    """
    out: list[Card] = []
    if isinstance(cards, str):
        out.extend(_parse_text(cards))
    else:
        try:
            items = iter(cards)
        except TypeError:
            raise TypeError(
                f"cards must be text or an iterable of cards, not {type(cards).__name__}"
            ) from None
        for item in items:
            if isinstance(item, str):
                out.extend(_parse_text(item, len(out)))
            elif isinstance(item, int) and not isinstance(item, bool):
                if not 0 <= item < 52:
                    raise InvalidCardError(
                        f"card {quote(item)} at position {len(out) + 1} is out of range 0..51",
                        token=item,
                        position=len(out) + 1,
                    )
                out.append(item)
            else:
                raise InvalidCardError(
                    f"card at position {len(out) + 1} is a {type(item).__name__}, "
                    "not a card (text like 'As' or an int 0..51)",
                    token=item,
                    position=len(out) + 1,
                )
    if not allow_duplicates:
        check_distinct(out)
    return out


def check_distinct(cards: list[Card]) -> None:
    """Raises :class:`InvalidCardError` if a card occurs twice in ``cards``."""
    seen: dict[Card, int] = {}
    for position, c in enumerate(cards, 1):
        first = seen.setdefault(c, position)
        if first != position:
            text = _TEXT[c] if isinstance(c, int) and 0 <= c < 52 else quote(c)
            raise InvalidCardError(
                f"duplicate card {text} (positions {first} and {position})",
                token=text,
                position=position,
            )


def mask_of(cards: Iterable[Card]) -> CardSet:
    """The :data:`CardSet` holding the given cards (ints 0..51)."""
    mask = 0
    for c in cards:
        if not (isinstance(c, int) and 0 <= c < 52):
            raise _not_a_card(c)
        mask |= 1 << c
    return mask


def cards_of(mask: CardSet) -> list[Card]:
    """The cards of a :data:`CardSet`, lowest first."""
    if not (isinstance(mask, int) and 0 <= mask <= FULL_DECK):
        raise InvalidCardError(f"{quote(mask)} is not a card set (52 bits)", token=mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def parse_hole(item: object, who: str = "a player") -> tuple[Card, Card] | None:
    """Two hole cards given as text (``"AsKs"``), ints or a pair of either; None for
    unknown ones (``None``, ``"??"``, ``"????"``, ``[None, None]``).

    >>> parse_hole("AsKs"), parse_hole("??"), parse_hole((51, 47))
    ((51, 47), None, (51, 47))
    """
    if item is None:
        return None
    if type(item) is tuple and len(item) == 2:  # already cards (replay): no parsing
        a, b = item
        if type(a) is int and type(b) is int and 0 <= a < 52 and 0 <= b < 52 and a != b:
            return (a, b)
    if isinstance(item, str) and item.replace("?", "").strip(" ,") == "" and "?" in item:
        return None
    if not isinstance(item, str | Sequence):
        raise InvalidCardError(f"hole cards of {who}: {item!r} is not a list of cards")
    if not isinstance(item, str) and all(c is None or c == "??" for c in item):
        return None
    cards = parse_cards(item)
    if len(cards) != 2:
        raise InvalidCardError(f"hole cards of {who}: expected 2 cards, got {len(cards)}")
    return cards[0], cards[1]


def parse_board(board: str | Iterable[Card | str] | None) -> list[Card]:
    """Board cards (at most five) as text or ints; None is no board.

    >>> parse_board("Qs Js Ts"), parse_board(None)
    ([43, 39, 35], [])
    """
    if board is None:
        return []
    if (
        type(board) is tuple
        and all(type(c) is int and 0 <= c < 52 for c in board)
        and len(set(board)) == len(board)
    ):
        cards = list(board)  # already cards (replay): no parsing
    else:
        cards = parse_cards(board)
    if len(cards) > 5:
        raise InvalidCardError(f"a board has at most 5 cards, got {len(cards)}")
    return cards


_BITS = tuple(m.bit_length() for m in range(53))
_ALL_CARDS = bytearray(range(52))  # each Deck starts from a copy


class Deck:
    """A deck of cards shuffled by a given random source.

    ``rng`` is a seed (same seed, same order), a :class:`random.Random`, or
    None for a fresh unpredictable order; ``exclude`` removes known cards.
    Cards are dealt from the front.  The shuffle is a forward Fisher-Yates
    shuffle done as the cards are dealt: each card dealt is drawn uniformly
    from those left, with unbiased draws (rejection on the fewest random bits
    that cover the count), so dealing a few cards costs a few draws.  It is
    the one shuffle of the package: ``Hand(config, rng=seed)`` deals from
    ``Deck(seed)``, so a seed means the same cards everywhere.

    >>> deck = Deck(7)
    >>> hand = deck.deal(2)
    >>> len(deck)
    50
    >>> Deck(7).deal(2) == hand
    True
    """

    __slots__ = ("_cards", "_drawn", "_fast", "_next", "_rng")

    def __init__(
        self,
        rng: int | random.Random | None = None,
        *,
        exclude: Iterable[Card | str] = (),
    ) -> None:
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        self._rng = rng
        # an exact random.Random draws in C; other generators (subclasses such as
        # SystemRandom) in Python (_draw)
        self._fast = type(rng) is random.Random
        self._drawn = 0  # the cards before this place are drawn (shuffled) already
        if exclude:
            excluded = mask_of(parse_cards(exclude, allow_duplicates=True))
            self._cards = bytearray(c for c in range(52) if not excluded >> c & 1)
        else:
            self._cards = _ALL_CARDS.copy()
        self._next = 0

    def shuffle(self) -> None:
        """Puts every card back; the cards are drawn afresh as they are dealt."""
        self._next = self._drawn = 0

    def deal(self, n: int = 1) -> list[Card]:
        """Takes the next ``n`` cards."""
        cards = self._cards
        start = self._next
        end = start + n
        if n < 0 or end > len(cards):
            raise HoldemError(f"cannot deal {n} cards: {len(self)} left in the deck")
        if self._fast:
            dealt = _deal_cards(cards, start, end, self._drawn, self._rng)
        else:
            if end > self._drawn:
                self._draw(end)
            dealt = list(cards[start:end])
        if end > self._drawn:
            self._drawn = end
        self._next = end
        return dealt

    def _draw(self, end: int) -> None:
        """Draws the cards up to ``end`` (the forward Fisher-Yates steps not yet done).

        For an exact :class:`random.Random`, ``_fastcall.deal_cards``
        (``csrc/hd_shuffle.c``) does the same steps in C: it takes the same
        words of the generator as this loop (each draw, rejected or not, takes
        one 32-bit word) and leaves it in the same state.
        """
        cards = self._cards
        if self._fast:
            _deal_cards(cards, end, end, self._drawn, self._rng)
        else:
            size = len(cards)
            getrandbits = self._rng.getrandbits
            for i in range(self._drawn, end):
                m = size - i
                bits = _BITS[m]
                j = getrandbits(bits)
                while j >= m:
                    j = getrandbits(bits)
                j += i
                cards[i], cards[j] = cards[j], cards[i]
        self._drawn = end

    def burn(self) -> Card:
        """Discards the next card face down and returns it."""
        return self.deal(1)[0]

    @property
    def order(self) -> tuple[Card, ...]:
        """The cards not yet dealt, in the order they will come (drawn now, so
        dealing them later gives the same cards)."""
        self._draw(len(self._cards))
        return tuple(self._cards[self._next :])

    def __len__(self) -> int:
        return len(self._cards) - self._next

    def __repr__(self) -> str:
        return f"<Deck: {len(self)} cards left>"
