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

import io
import re
import tomllib
from collections.abc import Iterable, Iterator
from datetime import time as local_time
from decimal import Decimal, InvalidOperation
from typing import Any, TextIO

from .._fastcall import read_toml
from ..cards import RANKS, SUITS, Card
from ..config import MAX_PLAYERS
from ..errors import HistoryFormatError, quote
from .inputs import MAX_HAND, Source, input_lines, input_name
from .model import (
    BET_RAISE,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
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
)

__all__ = ["PhhWriter", "read_phh", "read_phh_text", "to_phh", "write_phh"]

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

    Plain string work, no regular expression: a long line of brackets and
    spaces must not take quadratic time.
    """
    text = line.strip()
    end = text.find("]")
    if not text.startswith("[") or text.startswith("[[") or end < 0:
        return None
    rest = text[end + 1 :].lstrip()
    name = text[1:end].strip()
    if (rest and not rest.startswith("#")) or not name or "[" in name or "." in name:
        return None
    return name.strip("'\"")


def read_phh(source: Source, *, path: str | None = None) -> Iterator[HandHistory | Problem]:
    """Reads a PHH (``.phh``) or PHH-set (``.phhs``) file, one hand at a time.

    ``source`` is a path (a ``str`` is always a path), the file's bytes, or an
    open stream (:func:`read_phh_text` reads text in memory).  Yields a
    :class:`HandHistory` per hand, or a :class:`Problem` for a hand that
    cannot be read (then goes on).  Raises :class:`OSError` if the path cannot
    be opened, and :class:`~holdem.errors.HistoryFormatError` where the input
    stops being text (binary data, a line of over a megabyte: see
    :mod:`holdem.histories.inputs`), after the hands before it.
    """
    name = input_name(source, path)
    yield from _read_lines(input_lines(source, path=name), name)


def read_phh_text(text: str, *, path: str = "<text>") -> Iterator[HandHistory | Problem]:
    """:func:`read_phh` for PHH text in memory."""
    return read_phh(io.StringIO(text, newline=None), path=path)


def _read_lines(numbered: Iterable[str], path: str) -> Iterator[HandHistory | Problem]:
    """Cuts the text into hands at top-level table headers and reads each."""
    lines: list[str] = []
    size = 0  # characters of the hand so far
    start = 1
    first = 0  # the first line of the hand that is not blank or a comment
    name: str | None = None
    seen_table = False
    for number, line in enumerate(numbered, 1):
        if number == 1:
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
        fast = read_toml(lines, start, _decimal, local_time.fromisoformat, MAX_DEPTH)
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
    def fail(message: str, at: int = line, key: str | None = None) -> HistoryFormatError:
        return HistoryFormatError(message, path=path, line=key_lines.get(key or "", at))

    variant = data.get("variant")
    if not isinstance(variant, str):
        raise fail(
            "the required field 'variant' is missing"
            if variant is None
            else f"variant must be a string, not {quote(variant)}"
        )
    if variant in _OTHER_VARIANTS:
        raise _Unsupported(f"variant {variant} ({_OTHER_VARIANTS[variant]}) is not Texas hold'em")
    if variant not in VARIANTS:
        raise fail(f"unknown variant {quote(variant)} (hold'em codes: NT, FT)")
    for key in _REQUIRED[variant]:
        if key not in data:
            raise fail(f"the required field {key!r} is missing for variant {variant}")
    stacks_raw = data["starting_stacks"]
    if not isinstance(stacks_raw, list) or not stacks_raw:
        raise fail("starting_stacks must be a non-empty array")
    n = len(stacks_raw)
    if not 2 <= n <= MAX_PLAYERS:
        raise fail(
            f"{n} player{'s' * (n != 1)}: a hold'em table has 2 to {MAX_PLAYERS} seats (R3)",
            key="starting_stacks",
        )
    for key in ("antes", "blinds_or_straddles", "players", "seats", "finishing_stacks", "winnings"):
        value = data.get(key)
        if value is not None and (not isinstance(value, list) or len(value) != n):
            raise fail(
                f"{key} must be an array of {n} values (one per player), not {quote(value)}",
                key=key,
            )
    actions = data["actions"]
    if not isinstance(actions, list) or not set(map(type, actions)) <= {str}:
        raise fail("actions must be an array of strings")

    # every amount, to find the smallest unit the hand uses
    numbers: list[tuple[str, Any]] = []
    for key in ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings"):
        values = data.get(key)
        if not values:
            continue
        if set(map(type, values)) == {int}:  # the usual case: whole chips
            if min(values) < 0 or max(values) >= MAX_AMOUNT:
                bad = min(values) if min(values) < 0 else max(values)
                raise fail(f"{key}: {_amount_error(bad)}", key=key)
            continue
        numbers.extend((key, v) for v in values)
    # the bet sizes of the variant (another variant's are the file's own fields)
    bet_keys = ("small_bet", "big_bet") if variant == "FT" else ("min_bet",)
    for key in bet_keys:
        if key in data:
            numbers.append((key, data[key]))
    cache = _PARSED
    if len(cache) > 50_000:
        cache.clear()
    parsed = []
    for text in actions:
        item = cache.get(text)
        if item is None:
            item = cache[text] = _parse_action(text)
        parsed.append(item)
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
    unit = Decimal(1).scaleb(-places)

    def chips(value: Any) -> int:
        if places == 0 and type(value) is int:
            return value
        return int((Decimal(value) / unit).to_integral_exact())

    def stack(value: Any) -> int | None:
        return None if isinstance(value, Decimal) and not value.is_finite() else chips(value)

    names = data.get("players") or [None] * n
    seats = data.get("seats") or [None] * n
    players = tuple(
        Player(
            name=str(names[i]) if names[i] is not None else None,
            stack=stack(stacks_raw[i]),
            seat=seats[i] if isinstance(seats[i], int) else None,
        )
        for i in range(n)
    )
    antes = [chips(v) for v in data["antes"]]  # whole decimals (1.0) become ints too
    blinds = [chips(v) for v in data["blinds_or_straddles"]]
    if n == 2:  # PHH lists heads-up forced bets as (small, big): the button posts the small one
        antes.reverse()
        blinds.reverse()
    structure_bets = {key: chips(data[key]) for key in bet_keys if key in data}

    moves = []
    for index, (text, item) in enumerate(zip(actions, parsed, strict=True)):
        at = action_lines[index] if index < len(action_lines) else line
        if item is None:
            raise fail(f"action {quote(text)}: {_explain(text)}", at)
        kind, actor, amount, cards, comment = item
        if actor is not None and not 0 <= actor < n:
            raise fail(f"action {quote(text)}: there is no player p{actor + 1} ({n} players)", at)
        if kind in ("sd", "pb"):
            raise _Unsupported(
                f"action {quote(text)} ({'draw' if kind == 'sd' else 'bring-in'}) "
                "belongs to another variant"
            )
        if kind == "noop":
            continue
        moves.append(
            Move(kind, actor, chips(amount) if amount is not None else None, cards, at, comment)
        )
    claims = Claims(
        finishing_stacks=tuple(stack(v) for v in data["finishing_stacks"])
        if "finishing_stacks" in data
        else None,
        winnings=tuple(chips(v) for v in data["winnings"]) if "winnings" in data else None,
        lines={k: key_lines[k] for k in _CLAIMS if k in key_lines},
    )
    fields = {k: v for k, v in data.items() if k not in _MODEL_FIELDS or k in _BET_KEYS[variant]}
    notes = []
    if data.get("ante_trimming_status") is True and len(set(data["antes"])) > 1:
        notes.append(
            Problem(
                path,
                line,
                _hand_id(data, name),
                "warning",
                "ante_trimming_status = true with antes that are not uniform (the spec "
                "asks for false with a big-blind ante): ignored",
                "ante-trimming",
            )
        )
    return HandHistory(
        variant=variant,
        players=players,
        blinds=Blinds(
            antes=tuple(antes),
            blinds=tuple(blinds),
            small_bet=structure_bets.get("small_bet", 0),
            big_bet=structure_bets.get("big_bet", 0),
            min_bet=structure_bets.get("min_bet", 0),
        ),
        moves=tuple(moves),
        claims=claims,
        unit=unit,
        hand_id=_hand_id(data, name),
        source=path,
        line=line,
        fields=fields,
        chip=10 ** (places - play_places),
        notes=tuple(notes),
    )


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

    A hand PHH cannot express raises :class:`~holdem.errors.HistoryFormatError`.
    """
    hand.check_writable()
    n = len(hand.players)
    antes, blinds = list(hand.blinds.antes), list(hand.blinds.blinds)
    if n == 2:
        antes.reverse()
        blinds.reverse()
    if hand.variant not in VARIANTS:
        raise HistoryFormatError(
            f"PHH has no code for variant {hand.variant} (pot-limit hold'em): this hand "
            "cannot be written",
            path=hand.source,
            line=hand.line,
        )
    if any(hand.blinds.dead) or any(hand.blinds.posts):
        raise HistoryFormatError(
            "PHH has no field for dead blinds or extra live posts: this hand cannot be written",
            path=hand.source,
            line=hand.line,
        )
    out: dict[str, Any] = {"variant": hand.variant}
    out["antes"] = [_number(hand, a) for a in antes]
    out["blinds_or_straddles"] = [_number(hand, b) for b in blinds]
    if hand.variant == "FT":
        out["small_bet"] = _number(hand, hand.blinds.small_bet)
        out["big_bet"] = _number(hand, hand.blinds.big_bet)
    else:
        out["min_bet"] = _number(hand, hand.blinds.min_bet)
    out["starting_stacks"] = [_number(hand, p.stack) for p in hand.players]
    out["actions"] = [_action_text(hand, m) for m in hand.moves]
    if hand.hand_id is not None and "hand" not in hand.fields:
        out["hand"] = int(hand.hand_id) if _whole(hand.hand_id) else hand.hand_id
    if any(p.name for p in hand.players):
        out["players"] = [p.name or f"p{i + 1}" for i, p in enumerate(hand.players)]
    if all(p.seat is not None for p in hand.players):
        out["seats"] = [p.seat for p in hand.players]
    if hand.claims.finishing_stacks is not None:
        out["finishing_stacks"] = [_number(hand, s) for s in hand.claims.finishing_stacks]
    if hand.claims.winnings is not None:
        out["winnings"] = [_number(hand, w) for w in hand.claims.winnings]
    out.update({k: v for k, v in hand.fields.items() if _is_toml_value(v)})
    return out


def _is_toml_value(value: Any) -> bool:
    return isinstance(value, (str, int, float, Decimal, bool, list, dict)) or hasattr(
        value, "isoformat"
    )


def _action_text(hand: HandHistory, move: Move) -> str:
    who = "d" if move.actor is None else f"p{move.actor + 1}"
    if move.kind == DEAL_HOLE:
        text = f"d dh p{(move.actor or 0) + 1} {_card_text(move.cards)}"
    elif move.kind == DEAL_BOARD:
        text = f"d db {_card_text(move.cards)}"
    elif move.kind == FOLD:
        text = f"{who} f"
    elif move.kind == CHECK_CALL:
        text = f"{who} cc"
    elif move.kind == BET_RAISE:
        text = f"{who} cbr {hand.to_text(move.to or 0)}"
    elif move.kind == SHOW:
        text = f"{who} sm {'-' if all(c is None for c in move.cards) else _card_text(move.cards)}"
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
    """TOML text of a hand's fields.  A field that is a table is written inline
    (``key = {a = 1}``): a ``[key]`` header would start another hand of a set."""
    import tomli_w

    tables = {k: v for k, v in fields.items() if isinstance(v, dict)}
    body = tomli_w.dumps(
        {k: v for k, v in fields.items() if k not in tables}, multiline_strings=False
    )
    return body + "".join(f"{_toml_key(k)} = {_inline(v)}\n" for k, v in tables.items())


def _inline(value: Any) -> str:
    """One value as inline TOML (tables and arrays on one line)."""
    if isinstance(value, dict):
        items = ", ".join(f"{_toml_key(k)} = {_inline(v)}" for k, v in value.items())
        return f"{{{items}}}" if items else "{}"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
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
