"""holdem: a Texas Hold'em toolkit.

>>> import holdem
>>> holdem.describe(holdem.evaluate("AsKs QhJhTh 9h2c"))
'Straight, Ace high'

Cards are ints 0..51 (``rank * 4 + suit``, see :mod:`holdem.cards`); hand
values are ints, higher is better (see :mod:`holdem.evaluator`).
"""

from importlib.metadata import PackageNotFoundError, version

from .cards import (
    Card,
    CardSet,
    Deck,
    cards_of,
    format_card,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
)
from .errors import HoldemError, InvalidCardError
from .evaluator import (
    Category,
    HandValue,
    best_five,
    category,
    describe,
    evaluate,
    evaluate7,
    evaluate_many,
    value_counts,
)

try:
    __version__ = version("holdem")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "Card",
    "CardSet",
    "Category",
    "Deck",
    "HandValue",
    "HoldemError",
    "InvalidCardError",
    "__version__",
    "best_five",
    "cards_of",
    "category",
    "describe",
    "evaluate",
    "evaluate7",
    "evaluate_many",
    "format_card",
    "format_cards",
    "mask_of",
    "parse_card",
    "parse_cards",
    "value_counts",
]
