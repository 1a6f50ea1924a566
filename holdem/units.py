"""Chips and the table's money (RULES.md R9): every amount in the engine is a
whole number of chips; a table's chip unit is what one chip is worth in its
money, so that stakes may be written as decimals (a 5/10 fixed-limit game with
a 2.5 small blind has a chip of 0.5: its blinds are 5 and 10 chips).

Amounts cross between the two where people and files write them: the
command line's options and a player's typed bets (:func:`to_chips`), and every
line that shows an amount (:func:`chips_text`).  Inside, arithmetic is on
integers only.

>>> to_chips("2.5", Decimal("0.5")), chips_text(5, Decimal("0.5")), chips_text(1200)
(5, '2.5', '1,200')
>>> to_chips("2.3", Decimal("0.5"))
Traceback (most recent call last):
...
holdem.errors.ConfigError: 2.3 is not a whole number of chips of 0.5
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from .errors import ConfigError

__all__ = [
    "MAX_UNIT_PLACES",
    "ONE",
    "check_unit",
    "chips_text",
    "signed_text",
    "to_chips",
    "unit_text",
]

#: The chip unit of a table that declares none: a chip is worth 1.
ONE = Decimal(1)
#: A chip unit has at most this many decimal places (a millionth).
MAX_UNIT_PLACES = 6


def check_unit(value: object, field: str = "unit") -> Decimal:
    """A chip unit (what one chip is worth): a positive decimal of at most
    :data:`MAX_UNIT_PLACES` places, as a :class:`~decimal.Decimal`, from a
    Decimal, an int, a float or its text (``"0.5"``); else :class:`ConfigError`
    naming ``field``."""
    if isinstance(value, Decimal):
        unit = value
    elif isinstance(value, float):
        unit = Decimal(repr(value))
    elif isinstance(value, int | str) and not isinstance(value, bool):
        try:
            unit = Decimal(value)
        except InvalidOperation:
            unit = Decimal("NaN")
    else:
        raise ConfigError(
            f"{field}: a chip unit is a decimal number (0.5, '0.25', 1), not {value!r}",
            field=field,
            value=value,
        )
    if not unit.is_finite() or unit <= 0:
        raise ConfigError(
            f"{field}: a chip unit is a positive number, not {value!r}", field=field, value=value
        )
    if -unit.normalize().as_tuple().exponent > MAX_UNIT_PLACES:  # type: ignore[operator]
        raise ConfigError(
            f"{field}: a chip unit has at most {MAX_UNIT_PLACES} decimal places, not {value!r}",
            field=field,
            value=value,
        )
    return unit if unit != ONE else ONE


def to_chips(amount: object, unit: Decimal = ONE, field: str | None = None) -> int:
    """An amount of the table's money (an int, a Decimal, a float or text:
    ``"2.5"``, ``"1,000"``) as whole chips of ``unit``; :class:`ConfigError`
    when it is no amount, or not a whole number of chips (naming ``field``)."""
    where = f"{field}: " if field else ""
    try:
        if isinstance(amount, bool):
            raise InvalidOperation
        if isinstance(amount, str):
            value = Decimal(amount.strip().replace(",", "").replace("_", ""))
        elif isinstance(amount, float):
            value = Decimal(repr(amount))
        elif isinstance(amount, int | Decimal):
            value = Decimal(amount)
        else:
            raise InvalidOperation
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite():
        raise ConfigError(f"{where}{amount!r} is not an amount", field=field, value=amount)
    chips = value / unit
    if chips != chips.to_integral_value():
        raise ConfigError(
            f"{where}{_plain(value)} is not a whole number of chips of {unit_text(unit)}",
            field=field,
            value=amount,
        )
    return int(chips)


def chips_text(chips: int, unit: Decimal = ONE) -> str:
    """An amount as people read it, in the table's money: whole amounts with
    thousands separators and no decimals (``1,200``), the others with the
    unit's decimal places (``2.5`` for a chip of 0.5, ``2.50`` for one of 0.01)."""
    if unit is ONE:
        return f"{chips:,}"
    value = Decimal(chips) * unit
    if value == value.to_integral_value():
        return f"{int(value):,}"
    places = max(1, -unit.normalize().as_tuple().exponent)  # type: ignore[operator]
    return f"{value:,.{places}f}"


def signed_text(chips: int, unit: Decimal = ONE) -> str:
    """:func:`chips_text` with its sign, as a result reads: ``+1,200``, ``-2.5``, ``+0``."""
    text = chips_text(chips, unit)
    return text if text.startswith("-") else f"+{text}"


def unit_text(unit: Decimal) -> str:
    """A chip unit as it is written (``0.5``, ``1``, ``25``)."""
    return _plain(unit)


def _plain(value: Decimal) -> str:
    return f"{value.normalize():f}"
