"""Hand histories: reading, writing, replaying and validating them.

One model for every format (:mod:`.model`: :class:`HandHistory`, its
players, moves and claims, and the :class:`Problem` found in them); a reader
and a writer per format (:mod:`.phh`, :mod:`.pokerstars` and
:mod:`.pokerstars_writer`); :mod:`.playback`, which plays a record through the
rules engine and checks every number it states; and :mod:`.files` (with :mod:`.parallel`),
which find, read and validate whole files.

>>> from holdem.histories import read_phh_text, validate
>>> hand = next(read_phh_text('''
... variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'p2 f']
... '''))
>>> validate(hand)
[]

The names below are imported on first use, so that reading a file does not
load the rules engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .files import (
        FORMATS,
        FileReport,
        Piece,
        detect_format,
        find_files,
        read_hands,
        split_file,
        validate_file,
        validate_piece,
        validate_text,
    )
    from .model import (
        BET_RAISE,
        CHECK_CALL,
        DEAL_BOARD,
        DEAL_HOLE,
        DEAL_SECOND_BOARD,
        FOLD,
        MAX_AMOUNT,
        MAX_PLACES,
        MOVE_KINDS,
        MUCK,
        SECOND_RUN,
        SHOW,
        Blinds,
        Claims,
        HandHistory,
        Move,
        Player,
        Problem,
        decimal_places,
    )
    from .parallel import MAX_JOBS, SPLIT_BYTES, Joinable, map_files, validate_files
    from .phh import PhhWriter, date_fields, read_phh, read_phh_text, to_phh, write_phh
    from .playback import (
        Replay,
        completed_claims,
        record,
        replay,
        states,
        validate,
        with_results,
    )
    from .pokerstars import read_pokerstars, read_pokerstars_text
    from .pokerstars_writer import PokerStarsWriter, to_pokerstars, write_pokerstars

_EXPORTS = {
    "files": (
        "FORMATS",
        "FileReport",
        "Piece",
        "detect_format",
        "find_files",
        "read_hands",
        "split_file",
        "validate_file",
        "validate_piece",
        "validate_text",
    ),
    "model": (
        "BET_RAISE",
        "CHECK_CALL",
        "DEAL_BOARD",
        "DEAL_HOLE",
        "DEAL_SECOND_BOARD",
        "FOLD",
        "MAX_AMOUNT",
        "MAX_PLACES",
        "MOVE_KINDS",
        "MUCK",
        "SECOND_RUN",
        "SHOW",
        "Blinds",
        "Claims",
        "HandHistory",
        "Move",
        "Player",
        "Problem",
        "decimal_places",
    ),
    "parallel": ("MAX_JOBS", "SPLIT_BYTES", "Joinable", "map_files", "validate_files"),
    "phh": ("PhhWriter", "date_fields", "read_phh", "read_phh_text", "to_phh", "write_phh"),
    "pokerstars": ("read_pokerstars", "read_pokerstars_text"),
    "pokerstars_writer": ("PokerStarsWriter", "to_pokerstars", "write_pokerstars"),
    "playback": (
        "Replay",
        "completed_claims",
        "record",
        "replay",
        "states",
        "validate",
        "with_results",
    ),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
assert len(_MODULE_OF) == sum(map(len, _EXPORTS.values()))  # each name from one module


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'holdem.histories' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "BET_RAISE",
    "CHECK_CALL",
    "DEAL_BOARD",
    "DEAL_HOLE",
    "DEAL_SECOND_BOARD",
    "FOLD",
    "FORMATS",
    "MAX_AMOUNT",
    "MAX_JOBS",
    "MAX_PLACES",
    "MOVE_KINDS",
    "MUCK",
    "SECOND_RUN",
    "SHOW",
    "SPLIT_BYTES",
    "Blinds",
    "Claims",
    "FileReport",
    "HandHistory",
    "Joinable",
    "Move",
    "PhhWriter",
    "Piece",
    "Player",
    "PokerStarsWriter",
    "Problem",
    "Replay",
    "completed_claims",
    "date_fields",
    "decimal_places",
    "detect_format",
    "find_files",
    "map_files",
    "read_hands",
    "read_phh",
    "read_phh_text",
    "read_pokerstars",
    "read_pokerstars_text",
    "record",
    "replay",
    "split_file",
    "states",
    "to_phh",
    "to_pokerstars",
    "validate",
    "validate_file",
    "validate_files",
    "validate_piece",
    "validate_text",
    "with_results",
    "write_phh",
    "write_pokerstars",
]
