"""Writes holdem/data/heads_up_preflop.bin: the exact equity of every
heads-up all-in before the flop, one entry per class of matchups that are
the same up to a renaming of suits and an exchange of the two hands
(47,008), for ``holdem stats``' all-in adjusted winnings
(:mod:`holdem.stats`: an exact equity before the flop takes about 10 ms; a
look-up in this table microseconds).

Run it from the repository root (about ten minutes on one core)::

    python bench/heads_up_table.py

The file: little-endian pairs of unsigned 32-bit numbers, sorted by the
first: the matchup's key (:func:`holdem.stats.heads_up_key`: the four cards,
six bits each, the first hand's higher card first) and the first hand's
boards won twice over plus those tied (its equity times 2 * 1,712,304, the
boards of the five cards from the 48 left).
"""

from __future__ import annotations

import itertools
import struct
import sys
from pathlib import Path

from holdem.equities import equity
from holdem.stats import HEADS_UP_BOARDS, heads_up_key

OUT = Path(__file__).resolve().parent.parent / "holdem" / "data" / "heads_up_preflop.bin"


def main() -> None:
    combos = list(itertools.combinations(range(52), 2))
    table: dict[int, int] = {}
    for first in combos:
        for second in combos:
            if first > second or set(first) & set(second):
                continue
            key, swapped = heads_up_key(first, second)
            if key in table:
                continue
            cards = (first, second) if not swapped else (second, first)
            result = equity([list(cards[0]), list(cards[1])], exact=True)
            assert result.deals == HEADS_UP_BOARDS, result.deals
            table[key] = round(result.players[0].equity * 2 * HEADS_UP_BOARDS)
        print(f"{first}: {len(table)}", file=sys.stderr, flush=True)
    with open(OUT, "wb") as out:
        for key in sorted(table):
            out.write(struct.pack("<II", key, table[key]))


if __name__ == "__main__":
    main()
