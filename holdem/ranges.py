"""Hand ranges in the PokerStove / Equilab syntax players know.

A :class:`Range` is a set of hole-card combos, each with a weight in (0, 1].

>>> r = Range.parse("QQ+, AKs, A5s-A2s")
>>> len(r), str(r)
(38, 'QQ+,AKs,A5s-A2s')
>>> Range.parse("40%(AKs, QQ), AA:0.5").weight_of("AhAs")
0.5

Tokens, separated by commas or spaces:

==================  =====================================================
``QQ``              a pair (6 combos)
``QQ+`` ``22-55``   that pair and every higher one; a span of pairs
``AKs`` ``AKo``     suited (4 combos), offsuit (12)
``AK``              both (16)
``KTo+`` ``T9s+``   raise the second rank up to one below the first:
                    ``KTo+`` is KTo, KJo, KQo
``A5s-A2s``         a span of second ranks under the same first rank
``AhKh``            one exact combo
``random``          any two cards (``any`` also works)
``AA:0.5``          a token with a weight
``40%(AKs, QQ)``    a weight for a group of tokens
==================  =====================================================

Ranks may be lower case; a later token overrides the weight an earlier one
gave the same combo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from math import inf
from numbers import Real
from typing import TypeAlias

from .cards import RANKS, Card, format_card, parse_cards
from .errors import HoldemError, InvalidCardError, RangeError, RangeSyntaxError, quote

Combo: TypeAlias = tuple[Card, Card]
"""Two hole cards, the higher card int first."""

ALL_COMBOS: tuple[Combo, ...] = tuple(
    (a, b) for a in range(51, -1, -1) for b in range(a - 1, -1, -1)
)
_ALL_COMBOS_LIST = list(ALL_COMBOS)  # what "random" means, shared (never changed)


def _combo(a: Card, b: Card) -> Combo:
    return (a, b) if a > b else (b, a)


def _rank_combos(high: int, low: int, kind: str) -> list[Combo]:
    """Combos of two ranks: kind 's' suited, 'o' offsuit, '' both (or a pair)."""
    out = []
    for s1 in range(4):
        for s2 in range(4):
            a, b = high * 4 + s1, low * 4 + s2
            if a == b or (high == low and s1 > s2):
                continue
            if (kind == "s" and s1 != s2) or (kind == "o" and s1 == s2):
                continue
            out.append(_combo(a, b))
    return out


_TOKEN = re.compile(r"\s*([^\s,():%]+|[(),:%])")
_HAND = re.compile(r"^(10|[2-9tjqka])(10|[2-9tjqka])([so]?)(\+?)$", re.I)
_SPAN = re.compile(
    r"^(10|[2-9tjqka])(10|[2-9tjqka])([so]?)-(10|[2-9tjqka])(10|[2-9tjqka])([so]?)$", re.I
)


def _rank(text: str) -> int:
    return 8 if text == "10" else RANKS.index(text.upper())


@dataclass(frozen=True)
class _Tok:
    text: str
    column: int  # 1-based


def _tokenize(text: str) -> list[_Tok]:
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos] in " \t\r\n,":
            pos += 1
            continue
        m = _TOKEN.match(text, pos)
        if m is None:  # only Unicode white space (\x85, \u3000 ...) is left
            break
        tokens.append(_Tok(m.group(1), m.start(1) + 1))
        pos = m.end()
    return tokens


def _token_combos(tok: _Tok) -> list[Combo]:
    """The combos of one range token."""
    text = tok.text
    if text.lower() in ("random", "any"):
        return _ALL_COMBOS_LIST
    m = _HAND.match(text)
    if m:
        r1, r2, kind, plus = _rank(m[1]), _rank(m[2]), m[3].lower(), m[4]
        high, low = max(r1, r2), min(r1, r2)
        if high == low:
            if kind:
                raise _error(tok, "a pair cannot be suited or offsuit")
            tops = range(high, 13) if plus else [high]
            return [c for r in tops for c in _rank_combos(r, r, "")]
        lows = range(low, high) if plus else [low]
        return [c for r in lows for c in _rank_combos(high, r, kind)]
    m = _SPAN.match(text)
    if m:
        a1, a2, ak = _rank(m[1]), _rank(m[2]), m[3].lower()
        b1, b2, bk = _rank(m[4]), _rank(m[5]), m[6].lower()
        if a1 == a2 and b1 == b2 and not ak and not bk:  # 22-55
            lo, hi = sorted((a1, b1))
            return [c for r in range(lo, hi + 1) for c in _rank_combos(r, r, "")]
        if a1 == b1 and ak == bk and a2 != a1 and b2 != b1 and max(a2, b2) < a1:
            lo, hi = sorted((a2, b2))
            return [c for r in range(lo, hi + 1) for c in _rank_combos(a1, r, ak)]
        raise _error(
            tok,
            "a span joins two pairs (22-55) or two hands with the same first rank "
            "and suitedness (A5s-A2s)",
        )
    try:
        cards = parse_cards(text)
    except HoldemError:
        cards = []
    if len(cards) == 2:
        return [_combo(*cards)]
    raise _error(tok, "expected a hand like QQ, AKs, KTo+, A5s-A2s, AhKh or random")


def _error(tok: _Tok, why: str) -> RangeSyntaxError:
    return RangeSyntaxError(
        f"bad range token {quote(tok.text)} at column {tok.column}: {why}",
        token=tok.text,
        column=tok.column,
    )


def _parse_weight(tok: _Tok, text: str, percent: bool) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if percent:
        value /= 100
    if not 0 < value <= 1:
        raise _error(tok, "a weight must be in (0, 1], or a percentage in (0, 100]")
    return value


class Range:
    """A weighted set of hole-card combos (immutable).

    Build one with :meth:`parse`, or from a mapping ``{(card, card): weight}``.
    """

    __slots__ = ("_weights",)

    def __init__(self, weights: Mapping[Combo, float] | Iterable[Combo] = ()) -> None:
        """Raises :class:`~holdem.errors.InvalidCardError` for a combo that is not
        two distinct card ints, :class:`RangeError` for a weight outside (0, 1]
        and ``TypeError`` for a weight that is not a number."""
        items = weights.items() if isinstance(weights, Mapping) else ((c, 1.0) for c in weights)
        self._weights: dict[Combo, float] = {}
        for combo, w in items:
            a, b = _combo_cards(combo)
            if isinstance(w, bool) or not isinstance(w, Real):
                raise TypeError(f"the weight of a combo must be a number, not {type(w).__name__}")
            try:
                weight = float(w)
            except OverflowError:  # an int too large for a float
                weight = inf
            if not 0 < weight <= 1:
                raise RangeError(f"weight {quote(w)} of a combo is not in (0, 1]")
            self._weights[_combo(a, b)] = weight

    @classmethod
    def parse(cls, text: str) -> Range:
        """Reads a range; raises :class:`RangeSyntaxError` naming the bad token
        (``TypeError`` if ``text`` is not a str)."""
        if not isinstance(text, str):
            raise TypeError(f"a range is read from a str, not {type(text).__name__}")
        tokens = _tokenize(text)
        weights: dict[Combo, float] = {}
        i = 0

        def expect(symbol: str, after: _Tok) -> None:
            nonlocal i
            if i >= len(tokens) or tokens[i].text != symbol:
                raise _error(after, f"expected {symbol!r} after it")
            i += 1

        while i < len(tokens):
            tok = tokens[i]
            i += 1
            if i < len(tokens) and tokens[i].text == "%":  # 40%(AKs, QQ)
                weight = _parse_weight(tok, tok.text, percent=True)
                i += 1
                expect("(", tokens[i - 1])
                start = i
                while i < len(tokens) and tokens[i].text != ")":
                    i += 1
                if i >= len(tokens):
                    raise _error(tok, "the group is not closed with ')'")
                group = tokens[start:i]
                i += 1
                if not group:
                    raise _error(tok, "the group is empty")
                for inner in group:
                    if inner.text in "(%:":
                        raise _error(inner, "groups cannot be nested or weighted inside")
                    weights.update(dict.fromkeys(_token_combos(inner), weight))
                continue
            if tok.text in "(),:%":
                raise _error(tok, "unexpected symbol")
            combos = _token_combos(tok)
            weight = 1.0
            if i < len(tokens) and tokens[i].text == ":":  # AA:0.5
                if i + 1 >= len(tokens):
                    raise _error(tokens[i], "a weight must follow ':'")
                weight = _parse_weight(tokens[i + 1], tokens[i + 1].text, percent=False)
                i += 2
            weights.update(dict.fromkeys(combos, weight))
        if not weights:
            raise RangeSyntaxError("the range is empty", token=text, column=1)
        return cls(weights)

    # --- queries -------------------------------------------------------

    def __len__(self) -> int:
        return len(self._weights)

    def __iter__(self) -> Iterator[Combo]:
        return iter(sorted(self._weights, reverse=True))

    def __contains__(self, combo: object) -> bool:
        if not (isinstance(combo, tuple) and len(combo) == 2):
            return False
        a, b = combo
        if isinstance(a, bool) or isinstance(b, bool):
            return False
        return isinstance(a, int) and isinstance(b, int) and _combo(a, b) in self._weights

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Range) and self._weights == other._weights

    def __hash__(self) -> int:
        return hash(frozenset(self._weights.items()))

    def items(self) -> list[tuple[Combo, float]]:
        """(combo, weight) pairs, strongest-looking first (by card ints)."""
        return sorted(self._weights.items(), reverse=True)

    def weight_of(self, combo: str | Combo) -> float:
        """The weight of a combo (0.0 if it is not in the range): text such as
        ``"AhAs"`` or two card ints.  Raises
        :class:`~holdem.errors.InvalidCardError` if it is not two distinct cards."""
        return self._weights.get(_combo(*_combo_cards(combo)), 0.0)

    @property
    def combos(self) -> float:
        """The number of combos, each counted by its weight."""
        return sum(self._weights.values())

    @property
    def fraction(self) -> float:
        """The share of all 1,326 starting hands, counted by weight."""
        return self.combos / len(ALL_COMBOS)

    def without(self, cards: Iterable[Card | str]) -> Range:
        """The range minus the combos that hold one of ``cards``."""
        gone = set(parse_cards(cards, allow_duplicates=True))
        return Range(
            {c: w for c, w in self._weights.items() if c[0] not in gone and c[1] not in gone}
        )

    def grid(self) -> list[list[float]]:
        """13x13 grid of the share (by weight) of each starting hand held.

        Row and column 0 are aces; above the diagonal suited hands, below it
        offsuit ones, as in the usual range charts.
        """
        cells = [[0.0] * 13 for _ in range(13)]
        for (a, b), w in self._weights.items():
            ra, rb = 12 - (a >> 2), 12 - (b >> 2)
            if ra == rb:
                cells[ra][rb] += w
            elif (a & 3) == (b & 3):
                cells[min(ra, rb)][max(ra, rb)] += w
            else:
                cells[max(ra, rb)][min(ra, rb)] += w
        # combos in a cell: 6 for a pair, 4 suited (above), 12 offsuit (below)
        return [
            [w / (6 if i == j else 4 if i < j else 12) for j, w in enumerate(row)]
            for i, row in enumerate(cells)
        ]

    # --- text ----------------------------------------------------------

    def __str__(self) -> str:
        by_weight: dict[float, list[Combo]] = {}
        for c, w in self._weights.items():
            by_weight.setdefault(w, []).append(c)
        parts = []
        for w in sorted(by_weight, reverse=True):
            tokens = _short_form(set(by_weight[w]))
            if w == 1:
                parts.extend(tokens)
            elif len(tokens) == 1:
                parts.append(f"{tokens[0]}:{w:g}")
            else:
                parts.append(f"{w * 100:g}%({','.join(tokens)})")
        return ",".join(parts)

    def __repr__(self) -> str:
        return f"Range.parse({str(self)!r})"


def _combo_cards(combo: object) -> tuple[Card, Card]:
    """The two cards of a combo given as text or as two cards; raises
    :class:`~holdem.errors.InvalidCardError` (``TypeError`` if not iterable)."""
    if isinstance(combo, tuple) and len(combo) == 2:
        a, b = combo
        # the common case, without parsing
        if type(a) is int and type(b) is int and 0 <= a < 52 and 0 <= b < 52 and a != b:
            return a, b
    cards = parse_cards(combo)  # type: ignore[arg-type]
    if len(cards) != 2:
        raise InvalidCardError(f"a combo has 2 cards, got {len(cards)}")
    return cards[0], cards[1]


def _short_form(combos: set[Combo]) -> list[str]:
    """The shortest usual tokens for a set of combos (all of one weight)."""
    if len(combos) == len(ALL_COMBOS):
        return ["random"]
    out: list[str] = []
    left = set(combos)
    # whole pairs, from the top
    pairs = [r for r in range(12, -1, -1) if set(_rank_combos(r, r, "")) <= left]
    for run in _runs(pairs):
        left -= {c for r in run for c in _rank_combos(r, r, "")}
        top, bottom = RANKS[run[0]] * 2, RANKS[run[-1]] * 2
        if run[0] == 12 and len(run) > 1:
            out.append(bottom + "+")
        elif len(run) > 1:
            out.append(f"{top}-{bottom}")
        else:
            out.append(top)
    for high in range(12, 0, -1):
        suited = {r for r in range(high) if set(_rank_combos(high, r, "s")) <= left}
        offsuit = {r for r in range(high) if set(_rank_combos(high, r, "o")) <= left}
        for kind, lows in (
            ("", suited & offsuit),
            ("s", suited - offsuit),
            ("o", offsuit - suited),
        ):
            for run in _runs(sorted(lows, reverse=True)):
                left -= {c for r in run for c in _rank_combos(high, r, kind)}
                name = RANKS[high]
                if run[0] == high - 1 and len(run) > 1:
                    out.append(f"{name}{RANKS[run[-1]]}{kind}+")
                elif len(run) > 1:
                    out.append(f"{name}{RANKS[run[0]]}{kind}-{name}{RANKS[run[-1]]}{kind}")
                else:
                    out.append(f"{name}{RANKS[run[0]]}{kind}")
    out.extend(format_card(a) + format_card(b) for a, b in sorted(left, reverse=True))
    return out


def _runs(ranks: list[int]) -> list[list[int]]:
    """Splits descending ranks into runs of consecutive ones."""
    runs: list[list[int]] = []
    for r in ranks:
        if runs and runs[-1][-1] == r + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return runs


__all__ = ["ALL_COMBOS", "Combo", "Range", "RangeError", "RangeSyntaxError"]
