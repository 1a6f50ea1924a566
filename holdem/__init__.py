"""holdem: a Texas Hold'em toolkit.

>>> import holdem
>>> holdem.describe(holdem.evaluate("AsKs QhJhTh 9h2c"))
'Straight, Ace high'

Cards are ints 0..51 (``rank * 4 + suit``, see :mod:`holdem.cards`); hand
values are ints, higher is better (see :mod:`holdem.evaluator`).
"""

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
from .equities import EquityError, EquityResult, PlayerEquity, equity
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
from .ranges import Range, RangeSyntaxError


def __getattr__(name: str) -> str:
    # importlib.metadata costs megabytes and tens of milliseconds: only on demand
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("holdem")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            return "0+unknown"
    raise AttributeError(f"module 'holdem' has no attribute {name!r}")


__all__ = [
    "Card",
    "CardSet",
    "Category",
    "Deck",
    "EquityError",
    "EquityResult",
    "HandValue",
    "HoldemError",
    "InvalidCardError",
    "PlayerEquity",
    "Range",
    "RangeSyntaxError",
    "__version__",
    "best_five",
    "cards_of",
    "category",
    "describe",
    "equity",
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
