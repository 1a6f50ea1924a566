"""PHH, the Poker Hand History format (TOML): reading and writing.

The spec (v0.0.2) is in ``../shared/corpus/phh/SPEC/``.  A ``.phh`` file
holds one hand; a ``.phhs`` file many, as TOML tables ``[1]``, ``[2]`` ...
Both are read one hand at a time, so a file of a million hands streams.

>>> hand = next(read_phh_text('''
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [0.25, 0.50, 0]
... min_bet = 0.50
... starting_stacks = [40, 42.95, 17.85]
... actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 AsKs', 'p3 cbr 1.50', 'p1 f', 'p2 f']
... '''))
>>> hand.unit, [p.stack for p in hand.players], hand.moves[3].to
(Decimal('0.01'), [4000, 4295, 1785], 150)

Amounts are read as decimals (never floats) and stored as integers in the
hand's smallest unit; writing gives the file's notation back.  Player order
is PHH's: from the small blind to the button.  Heads-up, PHH lists the
blinds as ``[small, big]`` but the first player posts the big blind (the
button posts the small one): the model stores what each player posts.
"""

from __future__ import annotations

import datetime
import io
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator
from datetime import time as local_time
from decimal import Decimal, InvalidOperation
from functools import partial
from typing import Any, TextIO

from .._fastcall import build_phh, read_toml
from ..cards import RANKS, SUITS, Card
from ..config import MAX_PLAYERS
from ..errors import HistoryFormatError, quote
from .inputs import MAX_HAND, Source, input_lines, input_name
from .model import (
    BET_RAISE,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DEAL_SECOND_BOARD,
    FOLD,
    MAX_AMOUNT,
    MAX_PLACES,
    MUCK,
    SHOW,
    Blinds,
    Claims,
    HandHistory,
    Move,
    Player,
    Problem,
    decimal_places,
    poster_folds,
)

__all__ = ["PhhWriter", "date_fields", "read_phh", "read_phh_text", "to_phh", "write_phh"]

#: Arrays and tables nested deeper than this are refused (PHH's are 2 deep).
MAX_DEPTH = 32

#: Variants this project replays; other PHH variants are reported as unsupported.
VARIANTS = {"NT": "no-limit Texas hold'em", "FT": "fixed-limit Texas hold'em"}
_OTHER_VARIANTS = {
    "NS": "no-limit short-deck hold'em",
    "PO": "pot-limit Omaha",
    "FO/8": "fixed-limit Omaha hi/lo",
    "F7S": "seven card stud",
    "F7S/8": "seven card stud hi/lo",
    "FR": "razz",
    "N2L1D": "deuce-to-seven single draw",
    "F2L3D": "deuce-to-seven triple draw",
    "FB": "badugi",
}
_REQUIRED = {
    "NT": ("antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions"),
    "FT": ("antes", "blinds_or_straddles", "small_bet", "big_bet", "starting_stacks", "actions"),
}
#: Bet sizes of the other variants: in a hand of this variant, a field of the file's own.
_BET_KEYS = {"NT": ("small_bet", "big_bet"), "FT": ("min_bet",)}
#: Fields the model holds itself (the others are kept in ``fields``).
_MODEL_FIELDS = {
    "variant",
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
    "players",
    "seats",
    "finishing_stacks",
    "winnings",
    "hand",
}
_CLAIMS = ("finishing_stacks", "winnings")


def _table_name(line: str) -> str | None:
    """The name of a top-level table header ``[name]`` (a comment may follow), else None.

    The name is a bare key (``[1]``, ``[hand-2]``) or one quoted key
    (``["hand 2"]``): a line that holds an array (``[2, 1, "pot"]``, inside an
    array written over several lines) is no header.  Plain string work, no
    regular expression: a long line of brackets and spaces must not take
    quadratic time.
    """
    text = line.strip()
    end = text.find("]")
    if not text.startswith("[") or text.startswith("[[") or end < 0:
        return None
    rest = text[end + 1 :].lstrip()
    name = text[1:end].strip()
    if (rest and not rest.startswith("#")) or not name:
        return None
    if name[0] in "'\"" and len(name) >= 2 and name[-1] == name[0]:
        inner = name[1:-1]
        return None if name[0] in inner else inner
    return name if name.isascii() and name.replace("_", "a").replace("-", "a").isalnum() else None


def starts_hand(line: str) -> bool:
    """Whether a line of a PHH file begins a hand of a set: a table header ``[n]``."""
    return line[:1] in ("[", " ", "\t") and _table_name(line) is not None


def read_phh(
    source: Source, *, path: str | None = None, first_line: int = 1
) -> Iterator[HandHistory | Problem]:
    """Reads a PHH (``.phh``) or PHH-set (``.phhs``) file, one hand at a time.

    ``source`` is a path (a ``str`` is always a path), the file's bytes, or an
    open stream (:func:`read_phh_text` reads text in memory).  Yields a
    :class:`HandHistory` per hand, or a :class:`Problem` for a hand that
    cannot be read (then goes on).  Raises :class:`OSError` if the path cannot
    be opened, and :class:`~holdem.errors.HistoryFormatError` where the input
    stops being text (binary data, a line of over a megabyte: see
    :mod:`holdem.histories.inputs`), after the hands before it.
    ``first_line``: the number of the first line (a piece of a larger file).
    """
    name = input_name(source, path)
    yield from _read_lines(input_lines(source, path=name), name, first_line)


def read_phh_text(text: str, *, path: str = "<text>") -> Iterator[HandHistory | Problem]:
    """:func:`read_phh` for PHH text in memory."""
    return read_phh(io.StringIO(text, newline=None), path=path)


def _read_lines(
    numbered: Iterable[str], path: str, first_line: int = 1
) -> Iterator[HandHistory | Problem]:
    """Cuts the text into hands at top-level table headers and reads each."""
    lines: list[str] = []
    size = 0  # characters of the hand so far
    first = 0  # the first line of the hand that is not blank or a comment
    name: str | None = None
    seen_table = False
    start = first_line
    for number, line in enumerate(numbered, first_line):
        if number == first_line:
            line = line.lstrip("\ufeff")
        head = line[:1]
        if head == "[" or head == " " or head == "\t":
            table = _table_name(line)
            if table is not None:
                if seen_table or first:
                    yield _read_hand(lines, start, first or start, path, name, size)
                seen_table = True
                name = table
                lines = []
                size = 0
                start = number + 1
                first = 0
                continue
        if not first and head != "#" and line.strip() and not line.lstrip().startswith("#"):
            first = number
        size += len(line) + 1
        if size <= MAX_HAND:
            lines.append(line)
    if seen_table or first:
        yield _read_hand(lines, start, first or start, path, name, size)


_KEY = re.compile(r"\s*([A-Za-z0-9_-]+)\s*=\s*")
_HUGE = re.compile(r"\d{1000}")


def _whole(text: str) -> bool:
    """Whether text is a whole number of ASCII digits that fits a machine word.

    (``str.isdigit`` also takes ``'²'``, which ``int`` refuses; longer numbers
    go through ``Decimal`` and the amount checks.)
    """
    return text.isascii() and text.isdigit() and len(text) < 19


def _amount_error(value: Any) -> str | None:
    """What is wrong with an amount of a file, or None (whole or up to 6 decimal places)."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        return f"{quote(value)} is not a number"
    if isinstance(value, Decimal) and not value.is_finite():
        return f"{value} is not a finite amount"
    if value < 0:
        return f"{quote(value)} is negative"
    if value >= MAX_AMOUNT:
        return f"{quote(value)} is too large (amounts are below 10^15)"
    if isinstance(value, Decimal) and decimal_places(value) > MAX_PLACES:
        return f"{quote(value)} has more than {MAX_PLACES} decimal places (not supported)"
    return None


def _decimal(text: str) -> Decimal:
    """A number of the file that is no int (a point, an exponent, inf, nan)."""
    try:
        return Decimal(text)
    except InvalidOperation:  # an exponent of many digits
        raise _OutOfRange(text) from None


class _OutOfRange(ValueError):
    """A number whose exponent is too large for any amount."""


def _read_hand(
    lines: list[str], start: int, line: int, path: str, name: str | None, size: int
) -> HandHistory | Problem:
    """One hand from its lines (``start``: the number of the first; ``line``: where
    it begins; ``size``: its length in characters)."""
    if size > MAX_HAND:
        return Problem(
            path,
            line,
            name,
            "error",
            f"the hand is longer than {MAX_HAND:,} characters: not read",
            "too-large",
        )
    try:
        # the plain TOML of PHH files, read in C; None: anything else, for tomllib
        # arrays nest at most MAX_DEPTH - 1 deep: the hand's table is the first level
        fast = read_toml(lines, start, _decimal, local_time.fromisoformat, MAX_DEPTH - 1)
    except ValueError:
        fast = None  # a time or number out of range: tomllib says where
    if fast is not None:
        data, action_lines, key_lines = fast
    else:
        try:
            data = tomllib.loads("\n".join(lines), parse_float=_decimal)
            deep = _too_deep(data)
        except RecursionError:
            deep = True
        except tomllib.TOMLDecodeError as exc:
            m = re.search(r"line (\d+), column (\d+)", str(exc))
            at = start + int(m.group(1)) - 1 if m else line
            message = str(exc).split(" (at line")[0]
            return Problem(path, at, name, "error", f"not valid TOML: {message}", "toml")
        except _OutOfRange as exc:
            at = next((start + i for i, t in enumerate(lines) if str(exc) in t), line)
            message = f"the number {exc} is out of range (amounts are below 10^15)"
            return Problem(path, at, name, "error", message, "toml")
        except ValueError:  # Python refuses to read an integer of thousands of digits
            at = next((start + i for i, t in enumerate(lines) if _HUGE.search(t)), line)
            message = "a number of thousands of digits is too large (amounts are below 10^15)"
            return Problem(path, at, name, "error", message, "toml")
        if deep:
            return Problem(
                path,
                line,
                name,
                "error",
                f"values nested more than {MAX_DEPTH} deep (PHH values are flat arrays)",
                "too-deep",
            )
        action_lines = _action_lines(lines, start)
        key_lines = {}
        for offset, raw in enumerate(lines):
            km = _KEY.match(raw)
            if km and km.group(1) in data and km.group(1) not in key_lines:
                key_lines[km.group(1)] = start + offset
    try:
        return _build(data, action_lines, key_lines, line, path, name)
    except HistoryFormatError as exc:
        return Problem(path, exc.line or line, _hand_id(data, name), "error", exc.reason, "format")
    except _Unsupported as exc:
        return Problem(path, line, _hand_id(data, name), "unsupported", str(exc), "unsupported")
    except Exception as exc:  # a bug of ours: report it with the hand, go on
        return Problem.internal(path, line, _hand_id(data, name), "reading", exc)


def _too_deep(data: dict[str, Any]) -> bool:
    """Whether arrays or tables nest more than :data:`MAX_DEPTH` deep (the table is 1)."""
    todo: list[tuple[Any, int]] = [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            return True
        children = value.values() if isinstance(value, dict) else value
        todo.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


class _Unsupported(Exception):
    """A hand of a kind this project does not replay."""


def _hand_id(data: dict[str, Any], name: str | None) -> str | None:
    hand = data.get("hand")
    if isinstance(hand, (str, int)) and not isinstance(hand, bool):
        return str(hand)
    return name


def _action_lines(lines: list[str], start: int) -> list[int]:
    """The line of each string of the ``actions`` array, in order (for messages)."""
    begin = next((i for i, raw in enumerate(lines) if re.match(r"\s*actions\s*=", raw)), None)
    out: list[int] = []
    if begin is None:
        return out
    depth = 0
    for offset in range(begin, len(lines)):
        code = lines[offset]
        i = code.index("=") + 1 if offset == begin else 0
        while i < len(code):
            ch = code[i]
            if ch in "'\"":
                end = i + 1
                while end < len(code) and code[end] != ch:
                    end += 2 if ch == '"' and code[end] == "\\" else 1
                out.append(start + offset)
                i = end + 1
                continue
            if ch == "#":
                break
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    return out
            i += 1
    return out


def _build(
    data: dict[str, Any],
    action_lines: list[int],
    key_lines: dict[str, int],
    line: int,
    path: str,
    name: str | None,
) -> HandHistory:
    """The hand of a file's TOML data (``line``: where it begins)."""
    plain = build_phh(data, action_lines, line, _PLAIN)
    if plain is not None:  # the usual hand, built in C as _Reading builds it
        variant, players, antes, blinds, small_bet, big_bet, min_bet, moves, stacks, won = plain
        return HandHistory(
            variant=variant,
            players=players,
            blinds=Blinds(
                antes=antes, blinds=blinds, small_bet=small_bet, big_bet=big_bet, min_bet=min_bet
            ),
            moves=moves,
            claims=Claims(
                finishing_stacks=stacks,
                winnings=won,
                lines={k: key_lines[k] for k in _CLAIMS if k in key_lines},
            ),
            unit=_ONE,
            hand_id=_hand_id(data, name),
            source=path,
            line=line,
            fields=_fields_of(data, variant),
            tournament=data.get("_tournament") is True,
        )
    return _build_in_python(data, action_lines, key_lines, line, path, name)


def _build_in_python(
    data: dict[str, Any],
    action_lines: list[int],
    key_lines: dict[str, int],
    line: int,
    path: str,
    name: str | None,
) -> HandHistory:
    """:func:`_build` for any hand: checked and worded field by field."""
    r = _Reading(data, key_lines, line, path, name)
    variant, n, actions = r.shape()
    parsed = _parsed(actions)
    r.find_unit(variant, parsed)
    names = data.get("players") or [None] * n
    seats = data.get("seats") or [None] * n
    players = tuple(
        Player(
            name=str(names[i]) if names[i] is not None and names[i] != "" else None,
            stack=r.stack(data["starting_stacks"][i]),
            seat=seats[i] if isinstance(seats[i], int) else None,
        )
        for i in range(n)
    )
    antes = [r.chips(v) for v in data["antes"]]  # whole decimals (1.0) become ints too
    blinds = [r.chips(v) for v in data["blinds_or_straddles"]]
    if n == 2:  # PHH lists heads-up forced bets as (small, big): the button posts the small one
        antes.reverse()
        blinds.reverse()
    bets = {key: r.chips(data[key]) for key in _bet_keys(variant) if key in data}
    notes: list[Problem] = []
    moves = r.moves(actions, parsed, action_lines, n, notes)
    dead = r.per_player("_dead_blinds")
    posts = r.per_player("_posts")
    idle = _idle_posters(moves, posts)
    for i in range(n):
        antes[i] -= dead[i] + (posts[i] if i in idle else 0)
        if antes[i] < 0:
            raise r.fail(
                f"_dead_blinds and _posts: {players[i].name or f'p{i + 1}'} posts more dead "
                "chips than the antes hold",
                key="_dead_blinds" if "_dead_blinds" in data else "_posts",
            )
    if data.get("ante_trimming_status") is True and len(set(data["antes"])) > 1:
        notes.append(
            r.problem(
                "ante_trimming_status = true with antes that are not uniform (the spec "
                "asks for false with a big-blind ante): ignored",
                "ante-trimming",
            )
        )
    pot_limit = data.get("_pot_limit")
    if pot_limit is not None and (pot_limit is not True or variant != "NT"):
        raise r.fail(
            f"_pot_limit: true with variant NT only, not {quote(pot_limit)}", key="_pot_limit"
        )
    return HandHistory(
        variant="PT" if pot_limit else variant,
        players=players,
        blinds=Blinds(
            antes=tuple(antes),
            blinds=tuple(blinds),
            dead=tuple(dead) if any(dead) else (),
            posts=tuple(posts) if any(posts) else (),
            small_bet=bets.get("small_bet", 0),
            big_bet=bets.get("big_bet", 0),
            min_bet=bets.get("min_bet", 0),
        ),
        moves=tuple(moves),
        claims=r.claims(),
        unit=r.unit,
        hand_id=r.hand_id,
        source=path,
        line=line,
        fields=_fields_of(data, variant),
        tournament=data.get("_tournament") is True,
        chip=r.chip,
        notes=tuple(notes),
    )


_ONE = Decimal(1)


def _bet_keys(variant: str) -> tuple[str, ...]:
    """The bet sizes of a variant (another variant's are the file's own fields)."""
    return ("small_bet", "big_bet") if variant == "FT" else ("min_bet",)


def _parsed(actions: list[str]) -> list[Any]:
    """The actions parsed (None: malformed), through a cache: most recur."""
    cache = _PARSED
    if len(cache) > 50_000:
        cache.clear()
    parsed = []
    for text in actions:
        item = cache.get(text)
        if item is None:
            item = cache[text] = _parse_action(text)
        parsed.append(item)
    return parsed


class _Reading:
    """One hand's TOML data on its way into the model: where it is (for
    errors), and how its amounts read (the unit, set by :meth:`find_unit`)."""

    def __init__(
        self,
        data: dict[str, Any],
        key_lines: dict[str, int],
        line: int,
        path: str,
        name: str | None,
    ) -> None:
        self.data, self.key_lines, self.line, self.path = data, key_lines, line, path
        self.hand_id = _hand_id(data, name)
        self.places = 0
        self.unit = Decimal(1)
        self.chip = 1
        self.n = 0

    def fail(self, message: str, at: int | None = None, key: str | None = None) -> Exception:
        where = self.key_lines.get(key or "", self.line if at is None else at)
        return HistoryFormatError(message, path=self.path, line=where)

    def problem(self, message: str, code: str, at: int | None = None) -> Problem:
        return Problem(
            self.path, self.line if at is None else at, self.hand_id, "warning", message, code
        )

    # -- the shape of the data

    def shape(self) -> tuple[str, int, list[str]]:
        """The variant, the number of players and the actions, checked."""
        data, fail = self.data, self.fail
        variant = data.get("variant")
        if not isinstance(variant, str):
            raise fail(
                "the required field 'variant' is missing"
                if variant is None
                else f"variant must be a string, not {quote(variant)}"
            )
        if variant in _OTHER_VARIANTS:
            raise _Unsupported(
                f"variant {variant} ({_OTHER_VARIANTS[variant]}) is not Texas hold'em"
            )
        if variant not in VARIANTS:
            raise fail(f"unknown variant {quote(variant)} (hold'em codes: NT, FT)")
        for key in _REQUIRED[variant]:
            if key not in data:
                raise fail(f"the required field {key!r} is missing for variant {variant}")
        stacks = data["starting_stacks"]
        if not isinstance(stacks, list) or not stacks:
            raise fail("starting_stacks must be a non-empty array")
        n = self.n = len(stacks)
        if not 2 <= n <= MAX_PLAYERS:
            raise fail(
                f"{n} player{'s' * (n != 1)}: a hold'em table has 2 to {MAX_PLAYERS} seats (R3)",
                key="starting_stacks",
            )
        for key in (
            "antes", "blinds_or_straddles", "players", "seats", "finishing_stacks", "winnings",
        ):  # fmt: skip
            value = data.get(key)
            if value is not None and (not isinstance(value, list) or len(value) != n):
                raise fail(
                    f"{key} must be an array of {n} values (one per player), not {quote(value)}",
                    key=key,
                )
        actions = data["actions"]
        if not isinstance(actions, list) or not set(map(type, actions)) <= {str}:
            raise fail("actions must be an array of strings")
        return variant, n, actions

    # -- amounts

    def find_unit(self, variant: str, parsed: list[Any]) -> None:
        """The smallest unit the hand's amounts use, and the play's chip."""
        data, fail = self.data, self.fail
        numbers: list[tuple[str, Any]] = []
        for key in (
            "antes",
            "blinds_or_straddles",
            "starting_stacks",
            "finishing_stacks",
            "winnings",
        ):
            values = data.get(key)
            if not values:
                continue
            if set(map(type, values)) == {int}:  # the usual case: whole chips
                if min(values) < 0 or max(values) >= MAX_AMOUNT:
                    bad = min(values) if min(values) < 0 else max(values)
                    raise fail(f"{key}: {_amount_error(bad)}", key=key)
                continue
            numbers.extend((key, v) for v in values)
        numbers.extend((key, data[key]) for key in _bet_keys(variant) if key in data)
        numbers.extend(("actions", a[2]) for a in parsed if a is not None and a[2] is not None)
        places = play_places = 0
        for key, value in numbers:
            if type(value) is int and 0 <= value < MAX_AMOUNT:
                continue
            if (
                isinstance(value, Decimal)
                and value.is_infinite()
                and value > 0
                and key in ("starting_stacks", "finishing_stacks")
            ):
                continue  # inf: unknown
            problem = _amount_error(value)
            if problem:
                raise fail(f"{key}: {problem}", key=key)
            if isinstance(value, Decimal):
                here = decimal_places(value)
                places = max(places, here)
                if key not in _CLAIMS:
                    play_places = max(play_places, here)
        chip = 10 ** (places - play_places)
        if "_unit" in data:  # our writer's: amounts that are all whole tens of the unit
            given = data["_unit"]
            if (
                _amount_error(given)
                or not 0 < given <= 1
                or Decimal(given) != Decimal(1).scaleb(Decimal(given).adjusted())
            ):
                raise fail(f"_unit must be 1, 0.1, 0.01 ... (not {quote(given)})", key="_unit")
            places = max(places, -Decimal(given).adjusted())
            chip = 10 ** (places - play_places)
        if "_chip" in data:
            given = data["_chip"]
            if type(given) is not int or given < 1 or given >= MAX_AMOUNT:
                raise fail(
                    f"_chip must be a positive whole number (not {quote(given)})", key="_chip"
                )
            chip = given
        self.places, self.chip, self.unit = places, chip, Decimal(1).scaleb(-places)

    def chips(self, value: Any) -> int:
        if self.places == 0 and type(value) is int:
            return value
        return int((Decimal(value) / self.unit).to_integral_exact())

    def stack(self, value: Any) -> int | None:
        if self.places == 0 and type(value) is int:  # the usual case: whole chips
            return value
        return None if isinstance(value, Decimal) and not value.is_finite() else self.chips(value)

    def user_chips(self, key: str, value: Any) -> int:
        """An amount of one of our user fields (not counted in the unit: a multiple of it)."""
        problem = _amount_error(value)
        if problem is None and (Decimal(value) / self.unit) % 1:
            problem = f"{quote(value)} is finer than the hand's unit {self.unit}"
        if problem:
            raise self.fail(f"{key}: {problem}", key=key)
        return self.chips(value)

    def user_rows(self, key: str, shape: str, actions: int = 0) -> list[tuple[Any, ...]]:
        """Rows ``[player or action number, amount or text, ...]`` of a user field:
        ``shape`` is ``p`` (a player) or ``a`` (an action), then ``c`` (chips) or
        ``t`` (text) for each other column."""
        rows = self.data.get(key)
        if rows is None:
            return []
        if not isinstance(rows, list):
            raise self.fail(f"{key} must be an array, not {quote(rows)}", key=key)
        out = []
        limit = self.n if shape[0] == "p" else actions
        for row in rows:
            row = row if isinstance(row, list) else [row]
            ok = len(row) == len(shape) and type(row[0]) is int and 1 <= row[0] <= limit
            if ok:
                values: list[Any] = [row[0] - 1]
                for kind, value in zip(shape[1:], row[1:], strict=True):
                    if kind == "t":
                        ok = ok and isinstance(value, str)
                        values.append(value)
                    else:
                        values.append(self.user_chips(key, value))
                out.append(tuple(values))
            if not ok:
                raise self.fail(f"{key}: bad row {quote(row)}", key=key)
        return out

    def per_player(self, key: str) -> list[int]:
        values = self.data.get(key)
        if values is None:
            return [0] * self.n
        if not isinstance(values, list) or len(values) != self.n:
            raise self.fail(f"{key} must be an array of {self.n} values (one per player)", key=key)
        return _heads_up([self.user_chips(key, v) for v in values])

    # -- moves

    def moves(
        self,
        actions: list[str],
        parsed: list[Any],
        action_lines: list[int],
        n: int,
        notes: list[Problem],
    ) -> list[Move]:
        """The moves of the actions, with what our user fields add to them, in
        the model's order."""
        data, fail = self.data, self.fail
        moves = []
        known = len(action_lines)
        chips = self.chips
        for index, item in enumerate(parsed):
            at = action_lines[index] if index < known else self.line
            if item is None:
                text = actions[index]
                raise fail(f"action {quote(text)}: {_explain(text)}", at)
            kind, actor, amount, cards, comment = item
            if actor is not None and not 0 <= actor < n:
                raise fail(
                    f"action {quote(actions[index])}: there is no player p{actor + 1} "
                    f"({n} players)",
                    at,
                )
            if kind in _OTHER_KINDS:
                if kind == "noop":
                    continue
                raise _Unsupported(
                    f"action {quote(actions[index])} "
                    f"({'draw' if kind == 'sd' else 'bring-in'}) belongs to another variant"
                )
            to = None if amount is None else chips(amount)
            moves.append(_move((kind, actor, to, cards, at, comment, False, None)))
        if len(moves) < len(actions):  # comment-only actions: the numbers count the moves
            numbered = [i for i, item in enumerate(parsed) if item is None or item[0] != "noop"]
            renumber: dict[int, int] | None = {i: k for k, i in enumerate(numbered)}
        else:
            renumber = None

        def move_of(index: int) -> int:  # a 0-based action number: its move, or -1
            k = index if renumber is None else renumber.get(index, -1)
            return k if 0 <= k < len(moves) else -1

        for index in _numbers(data, "_all_in", fail):
            k = move_of(index - 1)
            if k < 0:
                raise fail(f"_all_in: no action {quote(index)}", key="_all_in")
            moves[k] = moves[k]._replace(all_in=True)
        for index in _numbers(data, "_mucked", fail):
            k = move_of(index - 1)
            if k < 0 or moves[k].kind != SHOW:
                raise fail(f"_mucked: action {quote(index)} is not a show", key="_mucked")
            moves[k] = moves[k]._replace(kind=MUCK, cards=())
        for index, amount in self.user_rows("_stated", "ac", len(actions)):
            k = move_of(index)
            if k < 0:
                raise fail(f"_stated: no action {index + 1}", key="_stated")
            moves[k] = moves[k]._replace(stated=amount)
        raised = self.user_rows("_uncallable_raises", "ac", len(actions))
        _undo_pokerkit_plays(moves, renumber, raised, data.get("_all_in_calls"), fail)
        site = data.get("_site_folds", [])
        at = self.key_lines.get("_site_folds", self.line)
        if not isinstance(site, list):
            raise fail(f"_site_folds must be an array, not {quote(site)}", key="_site_folds")
        for row in reversed(site):  # (the last first: each number counts the actions)
            ok = isinstance(row, list) and len(row) == 2 and all(type(x) is int for x in row)
            if not ok or not 1 <= row[0] <= n or not 1 <= row[1] <= len(actions) + 1:
                raise fail(f"_site_folds: bad row {quote(row)}", key="_site_folds")
            k = len(moves) if row[1] == len(actions) + 1 else move_of(row[1] - 1)
            moves.insert(k, Move(FOLD, row[0] - 1, line=at))
        moves = _model_order(
            moves,
            n,
            lambda move, message: notes.append(
                self.problem(message, "uncontested-muck", move.line)
            ),
        )
        second = data.get("_second_run", [])
        if not isinstance(second, list) or not set(map(type, second)) <= {str}:
            raise fail("_second_run must be an array of strings", key="_second_run")
        runs: list[Move] = []
        for text in second:
            item = _parse_action(text)
            if item is None or item[0] != DEAL_BOARD:
                raise fail(
                    f"_second_run: {quote(text)} is not a deal of the board", key="_second_run"
                )
            at = self.key_lines.get("_second_run", self.line)
            runs.append(Move(DEAL_SECOND_BOARD, None, None, item[3], at, item[4]))
        if runs:  # (after the first run's board)
            last = max((k for k, m in enumerate(moves) if m.kind == DEAL_BOARD), default=-1)
            moves[last + 1 : last + 1] = runs
        after = data.get("_after_hand") or []
        if not isinstance(after, list) or not set(map(type, after)) <= {str}:
            raise fail("_after_hand must be an array of strings", key="_after_hand")
        for text in after:
            item = _parse_action(text)
            if item is None or item[0] not in (SHOW, MUCK) or not 0 <= (item[1] or 0) < n:
                raise fail(f"_after_hand: {quote(text)} is not a show or muck", key="_after_hand")
            at = self.key_lines.get("_after_hand", self.line)
            moves.append(Move(item[0], item[1], None, item[3], at, item[4]))
        return moves

    # -- claims

    def claims(self) -> Claims:
        """What the file states about the result."""
        data = self.data
        return Claims(
            finishing_stacks=tuple(self.stack(v) for v in data["finishing_stacks"])
            if "finishing_stacks" in data
            else None,
            winnings=tuple(self.chips(v) for v in data["winnings"]) if "winnings" in data else None,
            collected=tuple(self.user_rows("_collected", "pct")) if "_collected" in data else None,
            returned=tuple(self.user_rows("_returned", "pc")) if "_returned" in data else None,
            total_pot=self.user_chips("_total_pot", data["_total_pot"])
            if "_total_pot" in data
            else None,
            rake=self.user_chips("_rake", data["_rake"]) if "_rake" in data else None,
            described=tuple(self.user_rows("_described", "pt")),
            lines={k: self.key_lines[k] for k in _CLAIMS if k in self.key_lines},
            pots=tuple(self.user_chips("_pots", v) for v in data["_pots"])
            if isinstance(data.get("_pots"), list)
            else None,
        )


#: Parsed actions that are no move of a hold'em hand: a comment alone, and the
#: draws and bring-ins of other variants.
_OTHER_KINDS = frozenset({"noop", "sd", "pb"})

#: A Move of all its fields, in order: ``Move(...)`` fills in its defaults in a
#: Python call, and this is once per action of every hand read.
_move: Callable[[tuple[Any, ...]], Move] = partial(tuple.__new__, Move)


def _numbers(data: dict[str, Any], key: str, fail: Any) -> list[int]:
    """A user field that lists action numbers (1-based), checked to be one."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise fail(f"{key} must be an array of action numbers, not {quote(value)}", key=key)
    return value


def _undo_pokerkit_plays(
    moves: list[Move],
    renumber: dict[int, int] | None,
    raised: list[tuple[Any, ...]],
    called: Any,
    fail: Any,
) -> None:
    """The moves as the source has them, where our writer wrote them as PokerKit
    plays them (:func:`_as_pokerkit_plays`): ``raised``, the rows of
    ``_uncallable_raises`` (a call that is a raise to the amount), and ``called``,
    the value of ``_all_in_calls`` (action numbers of raises that are calls).
    ``renumber``: move indices by action index, when comment-only actions are left
    out; ``fail(message, key=...)``: the error to raise."""

    def index_of(key: str, number: Any, kind: str) -> int:
        k = -1
        if type(number) is int:
            k = number - 1 if renumber is None else renumber.get(number - 1, -1)
        if not 0 <= k < len(moves) or moves[k].kind != kind:
            what = "a call" if kind == CHECK_CALL else "a bet or raise"
            raise fail(f"{key}: action {quote(number)} is not {what}", key=key)
        return k

    for index, to in raised:
        k = index_of("_uncallable_raises", index + 1, CHECK_CALL)
        moves[k] = moves[k]._replace(kind=BET_RAISE, to=to)
    if called is None:
        return
    if not isinstance(called, list):
        raise fail(f"_all_in_calls must be an array, not {quote(called)}", key="_all_in_calls")
    for number in called:
        k = index_of("_all_in_calls", number, BET_RAISE)
        moves[k] = moves[k]._replace(kind=CHECK_CALL, to=None)


def _fields_of(data: dict[str, Any], variant: str) -> dict[str, Any]:
    """The fields of a file the model does not hold itself, by the model's names:
    a user field ``_name`` is kept as ``name`` (our writer adds the underscore),
    ``seat_count`` as ``max_seats``; the day and time our writer derives from a
    ``_date`` are left out (the date is kept)."""
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key in USER_FIELDS or (key in _MODEL_FIELDS and key not in _BET_KEYS[variant]):
            continue
        name = key
        if key.startswith("_") and not key.startswith("__") and key[1:] not in data:
            name = key[1:]
        elif key in _MODEL_NAMES and _MODEL_NAMES[key] not in data:
            name = _MODEL_NAMES[key]
        fields[name] = value
    date = fields.get("date")
    if isinstance(date, str):
        for key, value in _date_fields(date).items():
            if key in fields and fields[key] == value and f"_{key}" not in data:
                del fields[key]
    return fields


def _model_order(moves: list[Move], n: int, warn: Any) -> list[Move]:
    """The moves in the model's order: an all-in's shows after the whole board, as
    the showdown comes (PHH writes them when the betting ends, as PokerKit wants).
    ``warn(move, message)`` is called for a muck of the player who won uncontested
    (PokerKit refuses it)."""
    folded: set[int | None] = set()
    for move in moves:
        if move.kind == FOLD:
            folded.add(move.actor)
        elif move.kind == MUCK and len(folded) == n - 1 and move.actor not in folded:
            warn(
                move,
                f"p{(move.actor or 0) + 1} sm: a muck by the player who won uncontested "
                "(PokerKit refuses it; our writer keeps it in _after_hand)",
            )
    last = len(moves) - 1  # the last betting move or deal of hole cards
    while last >= 0 and moves[last].kind not in _PLAY_KINDS:
        last -= 1
    tail = moves[last + 1 :]
    boards = [m for m in tail if m.kind == DEAL_BOARD]
    if boards and len(boards) < len(tail):
        moves[last + 1 :] = boards + [m for m in tail if m.kind != DEAL_BOARD]
    return moves


_PLAY_KINDS = frozenset({FOLD, CHECK_CALL, BET_RAISE, DEAL_HOLE})


#: Parsed actions by text: most betting actions ('p3 f', 'p1 cc') recur from hand to hand.
_PARSED: dict[str, Any] = {}
_CARD_OF = {r + u: i * 4 + j for i, r in enumerate(RANKS) for j, u in enumerate(SUITS)}
_CARD_OF["??"] = None  # type: ignore[assignment]


def _parse_action(
    text: str,
) -> tuple[str, int | None, Any, tuple[Card | None, ...], str | None] | None:
    """(kind, actor, amount, cards, comment) of one PHH action, or None if malformed."""
    comment = None
    if "#" in text:
        text, _, comment = text.partition("#")
        comment = comment.strip()
    args = text.split()
    if not args:
        return ("noop", None, None, (), comment)
    who = args[0]
    verb = args[1] if len(args) > 1 else ""
    if who == "d":
        if verb == "db" and len(args) == 3:
            cards = _cards(args[2])
            if cards is None or None in cards or not 1 <= len(cards) <= 3:
                return None
            return (DEAL_BOARD, None, None, cards, comment)
        if verb == "dh" and len(args) == 4:
            player = args[2]
            cards = _cards(args[3])
            if player[:1] != "p" or not _whole(player[1:]) or cards is None or len(cards) != 2:
                return None
            return (DEAL_HOLE, int(player[1:]) - 1, None, cards, comment)
        return None
    if who[:1] != "p" or not _whole(who[1:]) or int(who[1:]) < 1:
        return None
    actor = int(who[1:]) - 1
    n = len(args)
    if verb == "f" and n == 2:
        return (FOLD, actor, None, (), comment)
    if verb == "cc" and n == 2:
        return (CHECK_CALL, actor, None, (), comment)
    if verb == "cbr" and n == 3:
        raw = args[2]
        if _whole(raw):
            return (BET_RAISE, actor, int(raw), (), comment)
        try:
            amount = Decimal(raw)
        except InvalidOperation:
            return None
        return (BET_RAISE, actor, amount, (), comment) if amount.is_finite() else None
    if verb == "sm":
        if n == 2:
            return (MUCK, actor, None, (), comment)
        if n == 3 and args[2] == "-":
            return (SHOW, actor, None, (None, None), comment)
        cards = _cards(args[2]) if n == 3 else None
        if cards is None or len(cards) != 2:
            return None
        return (SHOW, actor, None, cards, comment)
    if verb in ("sd", "pb"):
        return (verb, actor, None, (), comment)
    return None


def _explain(text: str) -> str:
    args = text.partition("#")[0].split()
    who = args[0] if args else ""
    if len(args) < 2 or not (who == "d" or (who[:1] == "p" and _whole(who[1:]))):
        return (
            "not an action: expected 'd db CARDS', 'd dh pN CARDS', "
            "or 'pN f|cc|cbr AMOUNT|sm [CARDS]'"
        )
    verb, rest = args[1], " ".join(args[2:])
    if who == "d" and verb not in ("db", "dh"):
        return f"unknown dealer action {quote(verb)} (db or dh)"
    if who != "d" and verb not in ("f", "cc", "cbr", "sm", "sd", "pb"):
        return f"unknown player action {quote(verb)} (f, cc, cbr or sm)"
    return (
        f"bad arguments {quote(rest)} for {quote(verb)}"
        if rest
        else f"{quote(verb)} needs arguments"
    )


def _cards(text: str) -> tuple[Card | None, ...] | None:
    """Run-together PHH cards (``AsKd``, ``????``); None if malformed."""
    get = _CARD_OF.get
    out = []
    for i in range(0, len(text), 2):
        card = get(text[i : i + 2], -1)
        if card == -1:
            return None
        out.append(card)
    return tuple(out) if len(text) % 2 == 0 else None


# --- writing -------------------------------------------------------------


def _card_text(cards: Iterable[Card | None]) -> str:
    return "".join("??" if c is None else RANKS[c >> 2] + SUITS[c & 3] for c in cards)


def _number(hand: HandHistory, chips: int | None) -> Any:
    if chips is None:
        return Decimal("inf")
    if hand.unit == 1:
        return chips
    return Decimal(hand.to_text(chips))


def to_phh(hand: HandHistory) -> dict[str, Any]:
    """The PHH fields of a hand, as a dict ready for a TOML writer.

    What PokerKit replays goes in the spec's fields; what the model holds beyond
    them goes in user-defined fields (``_`` first, see :data:`USER_FIELDS`), so
    :func:`read_phh` gives the same :class:`HandHistory` back.  A hand PHH
    cannot express raises :class:`~holdem.errors.HistoryFormatError`.
    """
    hand.check_writable()
    n = len(hand.players)
    if hand.variant not in VARIANTS and hand.variant != "PT":
        raise HistoryFormatError(
            f"PHH has no code for variant {hand.variant}: this hand cannot be written",
            path=hand.source,
            line=hand.line,
        )
    b = hand.blinds
    dead = _per_player(b.dead, n)
    posts = _per_player(b.posts, n)
    # (the second run of a board run twice: PHH has no notation for it, PokerKit runs
    # the board once; it follows the first run, after every fold of the hand)
    second = [m for m in hand.moves if m.kind == DEAL_SECOND_BOARD]
    played = tuple(m for m in hand.moves if m.kind != DEAL_SECOND_BOARD)
    written, after, mucked, site = _written_moves(played, n, frozenset(poster_folds(hand)))
    written, raised, called = _as_pokerkit_plays(hand, written)
    # dead chips (a dead blind, a live post that was never played on) are antes to
    # PokerKit; a live post played on is carried by the poster's call or raise
    idle = _idle_posters(written, posts)
    antes = [
        a + dead[i] + (posts[i] if i in idle else 0) for i, a in enumerate(_per_player(b.antes, n))
    ]
    blinds = list(b.blinds)
    # pot-limit hold'em has no PHH code: NT, whose rules allow every bet of it
    out: dict[str, Any] = {"variant": "NT" if hand.variant == "PT" else hand.variant}
    out["antes"] = [_number(hand, a) for a in _heads_up(antes)]
    out["blinds_or_straddles"] = [_number(hand, x) for x in _heads_up(blinds)]
    if hand.variant == "FT":
        out["small_bet"] = _number(hand, b.small_bet)
        out["big_bet"] = _number(hand, b.big_bet)
    else:
        out["min_bet"] = _number(hand, b.min_bet)
    out["starting_stacks"] = [_number(hand, p.stack) for p in hand.players]
    out["actions"] = [_action_text(hand, m) for m in written]
    if hand.hand_id is not None:
        whole = _whole(hand.hand_id) and str(int(hand.hand_id)) == hand.hand_id
        out["hand"] = int(hand.hand_id) if whole else hand.hand_id
    if any(p.name for p in hand.players):
        out["players"] = [p.name or "" for p in hand.players]
    if all(p.seat is not None for p in hand.players):
        out["seats"] = [p.seat for p in hand.players]
    c = hand.claims
    if c.finishing_stacks is not None:
        out["finishing_stacks"] = [_number(hand, s) for s in c.finishing_stacks]
    if c.winnings is not None:
        out["winnings"] = [_number(hand, w) for w in c.winnings]
    for key, value in hand.fields.items():
        if _is_toml_value(value):
            out.setdefault(_field_name(key, value), value)
    if isinstance(hand.fields.get("date"), str):
        for key, value in _date_fields(hand.fields["date"]).items():
            out.setdefault(key, value)
    # the model's own fields that PHH has none for
    user: dict[str, Any] = {}
    if any(dead):
        user["_dead_blinds"] = [_number(hand, x) for x in _heads_up(dead)]
    if any(posts):
        user["_posts"] = [_number(hand, x) for x in _heads_up(posts)]
    if after:
        user["_after_hand"] = [_action_text(hand, m) for m in after]
    if mucked:
        user["_mucked"] = mucked
    if site:
        user["_site_folds"] = site
    if second:
        user["_second_run"] = [_action_text(hand, m) for m in second]
    all_in = [i + 1 for i, m in enumerate(written) if m.all_in]
    if all_in:
        user["_all_in"] = all_in
    stated = [
        [i + 1, _number(hand, m.stated)] for i, m in enumerate(written) if m.stated is not None
    ]
    if stated:
        user["_stated"] = stated
    if raised:
        user["_uncallable_raises"] = [[i + 1, _number(hand, to)] for i, to in raised]
    if called:
        user["_all_in_calls"] = [i + 1 for i in called]
    if hand.tournament:
        user["_tournament"] = True
    if hand.variant == "PT":
        user["_pot_limit"] = True
    if c.collected is not None:
        user["_collected"] = [[i + 1, _number(hand, x), pot] for i, x, pot in c.collected]
    if c.returned is not None:
        user["_returned"] = [[i + 1, _number(hand, x)] for i, x in c.returned]
    if c.pots is not None:
        user["_pots"] = [_number(hand, x) for x in c.pots]
    if c.total_pot is not None:
        user["_total_pot"] = _number(hand, c.total_pot)
    if c.rake is not None:
        user["_rake"] = _number(hand, c.rake)
    if c.described:
        user["_described"] = [[i + 1, text] for i, text in c.described]
    places, play = _places(out, _BET_KEYS["FT" if hand.variant == "NT" else "NT"])
    unit_places = max(0, -hand.unit.adjusted())
    if unit_places != places:
        # amounts that are all whole tens of the unit (whole dollars in cents)
        user["_unit"] = Decimal(1).scaleb(-unit_places)
        places = unit_places
    if hand.chip != 10 ** (places - play):
        user["_chip"] = hand.chip
    out.update(user)
    return out


#: The user-defined fields that hold the model's own data (read back by
#: :func:`read_phh`; any other ``_name`` field is kept in ``fields["name"]``).
USER_FIELDS = {
    "_dead_blinds": "dead blinds, per player: chips PokerKit sees in the antes",
    "_posts": "extra live posts, per player (not in the blinds; see docs/histories.md)",
    "_after_hand": "shows and mucks after the hand was won uncontested, and shows after "
    "folding (PokerKit refuses them)",
    "_all_in": "the actions (1-based) the source says are all-in",
    "_mucked": "the actions (1-based) written as shows that the source has as mucks (all-in)",
    "_site_folds": "[player, action]: a fold of a player all-in on their forced bets (PokerStars "
    "folds one sitting out; PokerKit refuses it), before that action",
    "_second_run": "the deals of the second run of a board run twice (R10), after the first's "
    "(PokerKit runs the board once)",
    "_stated": "[action, amount]: the call or raise-by amount the source states",
    "_uncallable_raises": "[action, amount]: a raise nobody could call, written as the call "
    "the rules replay (PokerKit refuses the raise); the amount it raised to",
    "_all_in_calls": "the actions written as all-in raises that are calls (past a short big "
    "blind: PokerKit asks for less)",
    "_tournament": "a tournament hand",
    "_pot_limit": "pot-limit hold'em, which PHH has no code for: written as NT (a pot-limit "
    "hand's bets, each at most the pot, are no-limit bets too: PokerKit replays them)",
    "_collected": "[player, amount, pot]: who collected what, from which pot",
    "_returned": "[player, amount]: uncalled bets returned",
    "_pots": "the pots the source lists, main pot first",
    "_total_pot": "the total pot the source states",
    "_rake": "the rake the source states",
    "_described": "[player, text]: the hands as the source describes them",
    "_unit": "the unit of the amounts, when they do not show it (whole dollars in cents)",
    "_chip": "the smallest amount the play uses, in units, when the amounts do not show it",
}
#: The spec's optional fields (spec v0.0.2): written under their own name when
#: the value has the spec's type, else with an underscore.
_SPEC_OPTIONAL = {
    "author": str, "event": str, "url": str, "venue": str, "address": str, "city": str,
    "region": str, "postal_code": str, "country": str, "time": None, "time_zone": str,
    "time_zone_abbreviation": str, "day": int, "month": int, "year": int, "level": int,
    "seat_count": int, "table": (str, int), "currency": str, "currency_symbol": str,
    "ante_trimming_status": bool, "time_limit": None, "time_banks": list, "bring_in": None,
    "small_bet": None, "big_bet": None, "min_bet": None,
}  # fmt: skip
#: Model fields (as the PokerStars reader names them) with a spec field of another name.
_SPEC_NAMES = {"max_seats": "seat_count"}
_MODEL_NAMES = {v: k for k, v in _SPEC_NAMES.items()}

#: What csrc/hd_phh.c needs to build a plain hand: the model's types and move
#: kinds, the user fields that change the model (a hand with one of them is
#: left to _Reading), the most players and the bound of amounts.
_PLAIN = (
    Move,
    Player,
    (DEAL_HOLE, DEAL_BOARD, FOLD, CHECK_CALL, BET_RAISE, SHOW, MUCK),
    tuple(key for key in USER_FIELDS if key != "_tournament"),
    MAX_PLAYERS,
    MAX_AMOUNT,
)


def _field_name(key: str, value: Any) -> str:
    """The PHH name of a field the model keeps: the spec's, or ``_key`` for a user field."""
    name = _SPEC_NAMES.get(key, key)
    if name in _SPEC_OPTIONAL:
        kind = _SPEC_OPTIONAL[name]
        if kind is None or (isinstance(value, kind) and (kind is bool) == isinstance(value, bool)):
            return name
    return key if key.startswith("_") else f"_{key}"


_DATE = re.compile(
    r"(\d{4})/(\d{1,2})/(\d{1,2})\s*-?\s*(\d{1,2}):(\d{2}):(\d{2})(?:\s*\(?(ET)\)?)?"
)


def date_fields(moment: datetime.datetime) -> dict[str, Any]:
    """PHH's date fields of a moment, for :func:`~holdem.histories.record`'s
    ``fields``: ``year``, ``month``, ``day`` and ``time`` in UTC, with
    ``time_zone`` ``"UTC"`` (a zone PokerKit reads; PokerStars text writes
    the date with ``UTC``)."""
    moment = moment.astimezone(datetime.UTC)
    return {"year": moment.year, "month": moment.month, "day": moment.day,
            "time": moment.time().replace(microsecond=0, tzinfo=None),
            "time_zone": "UTC"}  # fmt: skip


def _date_fields(text: str) -> dict[str, Any]:
    """The spec's date fields of a PokerStars date (``2010/07/03 14:46:30 CET [2010/07/03
    8:46:30 ET]``): day, month, year, and the time where its zone is known (ET)."""
    from datetime import time as local_time

    found = list(_DATE.finditer(text))
    if not found:
        return {}
    et = [m for m in found if m[7]]
    m = (et or found)[-1]
    year, month, day, hour, minute, second = map(int, m.groups()[:6])
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 60):
        return {}
    out: dict[str, Any] = {"year": year, "month": month, "day": day}
    if et:
        out["time"] = local_time(hour, minute, second)
        out["time_zone"] = "America/New_York"
    return out


def _per_player(values: tuple[int, ...], n: int) -> list[int]:
    return list(values) + [0] * (n - len(values))


def _heads_up(values: list[int]) -> list[int]:
    """Per-player forced bets in PHH's order: heads-up, ``[small, big]`` (the
    first player posts the big blind)."""
    return values[::-1] if len(values) == 2 else values


def _betting(kind: str) -> bool:
    return kind in (FOLD, CHECK_CALL, BET_RAISE)


def _idle_posters(moves: Iterable[Move], posts: list[int]) -> set[int]:
    """The players with a live post whose first decision preflop is a fold, or who
    make none (all-in by the post): their post is dead money."""
    idle = {i for i, amount in enumerate(posts) if amount}
    if not idle:
        return idle
    decided = set()
    for move in moves:
        if move.kind == DEAL_BOARD:
            break
        if _betting(move.kind) and move.actor not in decided:
            decided.add(move.actor)
            if move.kind != FOLD:
                idle.discard(move.actor)
    return idle


def _written_moves(
    moves: tuple[Move, ...], n: int, site: frozenset[int] = frozenset()
) -> tuple[list[Move], list[Move], list[int], list[list[int]]]:
    """The moves in the order PokerKit replays them, and those it refuses.

    After an all-in the hands are shown when the betting ends, before the rest
    of the board (the model, like PokerStars and the engine, has them at the
    end); a player who won uncontested can show but not muck, and a player
    who folded cannot show (R10's show after the hand): those go after the
    hand, with the shows that follow them (in their order).
    end); a player who won uncontested can show but not muck.  The folds of
    players all-in on their forced bets (``site``: their indices) are left out,
    as ``[player, action]`` rows: the player (1-based) folds before that
    action (1-based; one past the last: at the end).
    """
    folded: set[int | None] = set()
    kept: list[Move] = []
    after: list[Move] = []
    left_out: list[list[int]] = []
    for k, move in enumerate(moves):
        if k in site:
            folded.add(move.actor)
            left_out.append([(move.actor or 0) + 1, len(kept) + 1])
            continue
        if move.kind == FOLD:
            folded.add(move.actor)
        elif (
            after
            or (move.kind == MUCK and len(folded) == n - 1 and move.actor not in folded)
            or (move.kind == SHOW and move.actor in folded)
        ):
            after.append(move)
            continue
        kept.append(move)
    last = max(
        (i for i, m in enumerate(kept) if _betting(m.kind) or m.kind == DEAL_HOLE), default=-1
    )
    tail = kept[last + 1 :]
    boards = [m for m in tail if m.kind == DEAL_BOARD]
    if boards and len(boards) < len(tail):
        # a muck there is shown all the same (R10), and PokerKit fails on it: written
        # as a show of the dealt cards (its number in ``_mucked``), or after the board
        # when they are unknown (PokerKit then takes the hand as mucked)
        known = {m.actor: m.cards for m in kept if m.kind == DEAL_HOLE and None not in m.cards}
        late = [m for m in tail if m.kind == MUCK and m.actor not in known]
        showdown = [m for m in tail if m.kind != DEAL_BOARD and m not in late]
        mucked = [last + 2 + i for i, m in enumerate(showdown) if m.kind == MUCK]
        shows = [
            m._replace(kind=SHOW, cards=known[m.actor]) if m.kind == MUCK else m for m in showdown
        ]
        kept[last + 1 :] = shows + boards + late
        return kept, after, mucked, left_out
    return kept, after, [], left_out


def _as_pokerkit_plays(
    hand: HandHistory, written: list[Move]
) -> tuple[list[Move], list[tuple[int, int]], list[int]]:
    """The moves as PokerKit replays them to the rules' stacks, where it plays them
    otherwise: ``(moves, raised, called)``.

    - A raise nobody can call more than: PokerKit refuses it, the rules replay a
      call (``uncallable-raise``), so it is written as a call; ``raised`` has
      ``(index, to)`` for each.  Not when PokerKit's call would put in less
      (past a short big blind): PokerKit may take that raise, as the others can
      call more than its bet to call.
    - An all-in call past a big blind posted short: PokerKit asks for the posted
      blind only, the rules for the full one (R6), so the call is written as an
      all-in raise to what the rules put in, which PokerKit takes; ``called`` has
      the index of each.  A call of the full blind that is not all-in cannot be
      written so (PokerKit's smallest raise is a big blind above the short one):
      it stays a call.

    Only hands that may hold either are replayed (:func:`_may_play_otherwise`).
    """
    if not _may_play_otherwise(hand):
        return written, [], []
    from ..actions import ActionKind as K  # the engine: only when writing such a hand
    from .playback import replay

    result = replay(hand, check_claims=False)
    engine = result.hand
    if not result.ok or engine is None:
        return written, [], []
    log = [a for a in engine.log if a.kind in (K.FOLD, K.CHECK, K.CALL, K.BET, K.RAISE)]
    if len(log) != sum(_betting(m.kind) for m in written):
        return written, [], []
    out = list(written)
    raised: list[tuple[int, int]] = []
    called: list[int] = []
    decisions = iter(log)
    level = max(_posted_blinds(hand, _dead_chips(hand)), default=0)  # PokerKit's bet to call
    for index, move in enumerate(written):
        if move.kind == DEAL_BOARD:
            level = 0
        if not _betting(move.kind):
            continue
        action = next(decisions)
        if move.kind == BET_RAISE and action.kind is K.CALL and action.to <= level:
            out[index] = move._replace(kind=CHECK_CALL, to=None)
            raised.append((index, move.to or 0))
        elif move.kind == CHECK_CALL and action.to > level and action.all_in:
            out[index] = move._replace(kind=BET_RAISE, to=action.to)
            called.append(index)
        if out[index].kind == BET_RAISE:
            level = max(level, out[index].to or 0)
    return out, raised, called


def _may_play_otherwise(hand: HandHistory) -> bool:
    """Whether the rules may play a move otherwise than PokerKit (a cheap test, so
    that most hands are written without a replay): the big blind is posted short,
    or a player raises when every other player in the hand started with no more
    than the dead chips they posted and the largest bets made so far (so the
    raise may be one nobody can call more than)."""
    b = hand.blinds
    n = len(hand.players)
    dead = _dead_chips(hand)
    posted = _posted_blinds(hand, dead)
    if max(posted, default=0) < (b.small_bet if hand.variant == "FT" else b.min_bet):
        return True
    # what each player can put in the bets of the hand (None: unknown)
    room = [None if p.stack is None else p.stack - dead[q] for q, p in enumerate(hand.players)]
    level = max((*b.blinds, *b.posts), default=0)  # the largest bet of the street
    most = level  # the largest bets of every street so far, added up
    folded = [False] * n
    for move in hand.moves:
        kind = move.kind
        if kind == DEAL_BOARD:
            level = 0
        elif kind == FOLD:
            folded[move.actor or 0] = True
        elif kind == BET_RAISE:
            if all(
                r is not None and r <= most
                for q, r in enumerate(room)
                if q != move.actor and not folded[q]
            ):
                return True
            to = move.to or 0
            if to > level:
                most += to - level
                level = to
    return False


def _posted_blinds(hand: HandHistory, dead: list[int]) -> list[int]:
    """The blinds as PokerKit posts them: what is left of each after the antes
    and dead blinds (``dead``, per player: :func:`_dead_chips`)."""
    return [
        blind if p.stack is None else min(blind, max(0, p.stack - dead[q]))
        for q, (blind, p) in enumerate(zip(hand.blinds.blinds, hand.players, strict=False))
    ]


def _dead_chips(hand: HandHistory) -> list[int]:
    """The antes and dead blinds of each player."""
    b = hand.blinds
    dead = _per_player(b.antes, len(hand.players))
    for q, d in enumerate(b.dead):
        dead[q] += d
    return dead


def _places(out: dict[str, Any], bet_keys: tuple[str, ...]) -> tuple[int, int]:
    """The decimal places :func:`read_phh` finds in these fields: of every amount,
    and of the amounts of the play (not the claims)."""
    places = play = 0
    for key in ("antes", "blinds_or_straddles", "starting_stacks", *_CLAIMS, *bet_keys):
        values = out.get(key)
        for value in values if isinstance(values, list) else [values]:
            if isinstance(value, Decimal) and value.is_finite():
                here = decimal_places(value)
                places = max(places, here)
                if key not in _CLAIMS:
                    play = max(play, here)
    for text in out["actions"]:
        parts = text.split()
        if len(parts) > 2 and parts[1] == "cbr":
            here = decimal_places(Decimal(parts[2]))
            places, play = max(places, here), max(play, here)
    return places, play


def _is_toml_value(value: Any) -> bool:
    return isinstance(value, (str, int, float, Decimal, bool, list, dict)) or hasattr(
        value, "isoformat"
    )


def _action_text(hand: HandHistory, move: Move) -> str:
    who = "d" if move.actor is None else f"p{move.actor + 1}"
    if move.kind == DEAL_HOLE:
        text = f"d dh p{(move.actor or 0) + 1} {_card_text(move.cards)}"
    elif move.kind == DEAL_BOARD or move.kind == DEAL_SECOND_BOARD:
        text = f"d db {_card_text(move.cards)}"
    elif move.kind == FOLD:
        text = f"{who} f"
    elif move.kind == CHECK_CALL:
        text = f"{who} cc"
    elif move.kind == BET_RAISE:
        text = f"{who} cbr {hand.to_text(move.to or 0)}"
    elif move.kind == SHOW:
        # unknown cards as ``????``: PokerKit fails on ``sm -`` when the dealt ones are unknown
        text = f"{who} sm {_card_text(move.cards)}"
    elif move.kind == MUCK:
        text = f"{who} sm"
    else:  # pragma: no cover - the model has no other kinds
        raise ValueError(f"unknown move kind {move.kind!r}")
    return f"{text} # {move.comment}" if move.comment else text


class PhhWriter:
    """Writes hands as PHH to a stream, one at a time; :attr:`count` is the number written.

    ``many`` writes a PHH set (``.phhs``: tables ``[1]``, ``[2]`` ...);
    otherwise one hand, as a ``.phh`` file holds.
    """

    def __init__(self, out: TextIO, *, many: bool) -> None:
        self.out = out
        self.many = many
        self.count = 0

    def write(self, hand: HandHistory) -> None:
        """Writes one hand; a hand PHH cannot express raises
        :class:`~holdem.errors.HistoryFormatError` and writes nothing."""

        if self.count and not self.many:
            raise HistoryFormatError(
                "a .phh file holds one hand: write the hands as a set (many=True)",
                path=hand.source,
                line=hand.line,
            )
        body = _toml(to_phh(hand))
        self.count += 1
        self.out.write(f"[{self.count}]\n{body}\n" if self.many else body)


def _toml(fields: dict[str, Any]) -> str:
    """TOML text of a hand's fields, one line each.  Arrays and tables are written
    inline (``key = [1, 2]``, ``key = {a = 1}``): a ``[key]`` header would start
    another hand of a set."""
    return "".join(f"{_toml_key(k)} = {_inline(v)}\n" for k, v in fields.items())


def _inline(value: Any) -> str:
    """One value as inline TOML (tables and arrays on one line)."""
    if isinstance(value, dict):
        items = ", ".join(f"{_toml_key(k)} = {_inline(v)}" for k, v in value.items())
        return f"{{{items}}}" if items else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if type(value) is int or (type(value) is Decimal and value.is_finite()):
        return str(value)
    import tomli_w

    return tomli_w.dumps({"v": value}, multiline_strings=False)[len("v = ") :].rstrip("\n")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _inline(key)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def write_phh(hands: Iterable[HandHistory], out: TextIO, *, many: bool | None = None) -> int:
    """Writes hands as PHH; as a ``.phhs`` set (``[1]``, ``[2]`` ...) when ``many``.

    ``many=None`` writes a set unless exactly one hand is given (the hands are
    then read before anything is written).  Returns the number of hands written.
    """
    items = list(hands) if many is None else hands
    writer = PhhWriter(out, many=len(items) != 1 if many is None else many)  # type: ignore[arg-type]
    for hand in items:
        writer.write(hand)
    return writer.count
