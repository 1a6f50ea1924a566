"""holdem: a Texas Hold'em toolkit.

>>> import holdem
>>> holdem.describe(holdem.evaluate("AsKs QhJhTh 9h2c"))
'Straight, Ace high'

Cards are ints 0..51 (``rank * 4 + suit``, see :mod:`holdem.cards`); hand
values are ints, higher is better (see :mod:`holdem.evaluator`).
"""

from typing import TYPE_CHECKING, Any

try:
    from . import _core, _engine, _fastcall  # noqa: F401  (the compiled parts)
except ImportError as _exc:  # pragma: no cover - a source tree without its build
    raise ImportError(
        "holdem's C extension is not built (holdem/_core, _engine or _fastcall is "
        "missing): install with 'pip install .' or, in a source checkout, "
        "'pip install -e .' (needs a C compiler)"
    ) from _exc

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
from .errors import (
    ClusterError,
    ConfigError,
    EquityError,
    EvaluatorError,
    HistoryFormatError,
    HoldemError,
    IllegalActionError,
    InvalidCardError,
    ProtocolError,
    RangeError,
    RangeSyntaxError,
    SimulationError,
    TableError,
    WireError,
)
from .evaluator import (
    Category,
    HandValue,
    best_five,
    category,
    deciding_kicker,
    describe,
    evaluate,
    evaluate7,
    evaluate_many,
    value_counts,
)

#: The name the package is installed by (``pip install holdem-toolkit``): the
#: import name and the command are ``holdem``.
DISTRIBUTION = "holdem-toolkit"

if TYPE_CHECKING:
    from .actions import Action, ActionKind, Choice, Decision, LegalActions, Street
    from .config import HandConfig, HeadsUpCap, Post, Structure
    from .equities import EquityResult, PlayerEquity, equity
    from .hand import Hand, Phase
    from .pots import Outcome, Pot, ShownHand
    from .ranges import Range
    from .sampling import sample_hand
    from .simulation import SimulationResult, simulate
    from .views import PlayerView

# The evaluator is imported at once; the rest on first use, so that
# `import holdem` (and a command such as `holdem eval`) stays light.
_LAZY = {
    "actions": ("Action", "ActionKind", "Choice", "Decision", "LegalActions", "Street"),
    "config": ("HandConfig", "HeadsUpCap", "Post", "Structure"),
    "equities": ("EquityResult", "PlayerEquity", "equity"),
    "hand": ("Hand", "Phase"),
    "pots": ("Outcome", "Pot", "ShownHand"),
    "ranges": ("Range",),
    "sampling": ("sample_hand",),
    "simulation": ("SimulationResult", "simulate"),
    "views": ("PlayerView",),
}
_LAZY_MODULE = {name: module for module, names in _LAZY.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _LAZY_MODULE.get(name)
    if module is not None:
        from importlib import import_module

        value = getattr(import_module(f".{module}", __name__), name)
        globals()[name] = value
        return value
    # importlib.metadata costs megabytes and tens of milliseconds: only on demand
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version(DISTRIBUTION)
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            found = "0+unknown"
        globals()[name] = found  # (read once: a room server says it in every hello)
        return found
    raise AttributeError(f"module 'holdem' has no attribute {name!r}")


__all__ = [
    "Action",
    "ActionKind",
    "Card",
    "CardSet",
    "Category",
    "Choice",
    "ClusterError",
    "ConfigError",
    "Decision",
    "Deck",
    "EquityError",
    "EquityResult",
    "EvaluatorError",
    "Hand",
    "HandConfig",
    "HandValue",
    "HeadsUpCap",
    "HistoryFormatError",
    "HoldemError",
    "IllegalActionError",
    "InvalidCardError",
    "LegalActions",
    "Outcome",
    "Phase",
    "PlayerEquity",
    "PlayerView",
    "Post",
    "Pot",
    "ProtocolError",
    "Range",
    "RangeError",
    "RangeSyntaxError",
    "ShownHand",
    "SimulationError",
    "SimulationResult",
    "Street",
    "Structure",
    "TableError",
    "WireError",
    "__version__",
    "best_five",
    "cards_of",
    "category",
    "deciding_kicker",
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
    "sample_hand",
    "simulate",
    "value_counts",
]
