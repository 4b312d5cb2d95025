"""Exact money and percentage text: integers in, strings out, one rounding rule, no floats.

The back office's money text: the screens (``floor.templatetags.croupier.money``), the reports' CSV, JSON,
XLSX and PDF writers and the services' messages write money through it, and it through ``casino.money``
(which the dealer's wording, ``tables.wording.money``, uses too).

>>> money_text(123456), money_text(-5), money_text(0)
('1234.56', '-0.05', '0.00')
>>> money_text(-123456789, grouping=True), money_text(99, grouping=True)
('-1,234,567.89', '0.99')
>>> hold_fraction(1250, 10000), percent_text(hold_fraction(1250, 10000))
(Fraction(1, 8), '12.50')
>>> percent_text(Fraction(1, 3)), percent_text(Fraction(-1, 3)), percent_text(Fraction(1, 8000))
('33.33', '-33.33', '0.01')
>>> percent_text(Fraction(1, 80000)), percent_text(None), percent_text(Fraction(1, 80000), places=4)
('0.00', '', '0.0013')

What a person reads (the screens, in the active language) is :func:`money_words`, :func:`percent_words`
and :func:`chips_words`; what a person types as money is read by :func:`money_parse` (``casino.money``).
The texts above without grouping are the exports' and the API's machine-readable figures.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction

from accounting.conf import int_knob, knob
from casino.money import MoneyInputError, money_amount, money_parse, number_words
from casino.money import money_formatter as formatter

__all__ = ["MoneyInputError", "chip_words", "chips_words", "money_parse", "money_words", "percent_number", "percent_words"]


def digits() -> int:
    return int_knob("MINOR_UNIT_DIGITS")


def currency() -> str:
    """The casino's currency (ISO 4217 code): every table plays in it; report headers name it."""
    return str(knob("CURRENCY"))


def money_formatter(places: int | None = None, *, grouping: bool = False) -> Callable[[int], str]:
    """A function writing minor units with exactly ``places`` decimals (the currency's by default),
    optionally with thousands separators (``casino.money``)."""
    return formatter(digits() if places is None else places, grouping=grouping)


def money_text(minor: int, places: int | None = None, *, grouping: bool = False) -> str:
    """``minor`` units as a decimal string with exactly ``places`` decimals (the currency's)."""
    return money_formatter(places, grouping=grouping)(minor)


def money_decimal(minor: int, places: int | None = None) -> Decimal:
    places = digits() if places is None else places
    return Decimal(minor).scaleb(-places)


def hold_fraction(win: int, drop: int) -> Fraction | None:
    """win / drop (or win / handle), exact; None when the divisor is 0 (undefined, not zero)."""
    if drop == 0:
        return None
    return Fraction(win, drop)


def round_half_away(value: Fraction) -> int:
    """The nearest integer; halves go away from zero (2.5 → 3, −2.5 → −3)."""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    if 2 * rest >= value.denominator:
        whole += 1
    return whole if value >= 0 else -whole


def _exact(value: Fraction | float) -> Fraction:
    # statistics (the statistical hold's interval) arrive as floats: their shortest decimal text
    return value if isinstance(value, Fraction) else Fraction(repr(float(value)))


def percent_text(value: Fraction | float | None, places: int = 2) -> str:
    """A fraction as a percentage with ``places`` decimals, rounded half away from zero."""
    if value is None:
        return ""
    scaled = round_half_away(_exact(value) * 100 * 10**places)
    return money_text(scaled, places)


def percent_decimal(value: Fraction | float | None, places: int = 2) -> Decimal | None:
    """The percentage as ``percent_text`` writes it, as a Decimal (12.50 for 1/8)."""
    if value is None:
        return None
    return Decimal(round_half_away(_exact(value) * 100 * 10**places)).scaleb(-places)


def money_words(minor: int, *, symbol: bool = True) -> str:
    """Money as a person reads it in the active language: ``250000`` → ``€2,500.00`` (``casino.money``)."""
    return money_amount(minor, places=digits(), symbol=symbol)


def percent_words(value: Fraction | float | None, places: int = 2) -> str:
    """A percentage as a person reads it: rounded as :func:`percent_text` (the tiles and the charts both),
    written with the active language's separators (``17/32`` → ``53.13 %``); a dash when undefined."""
    if value is None:
        return "—"
    return f"{number_words(round_half_away(_exact(value) * 100 * 10**places), places)} %"


def percent_number(value: Fraction | float | None, places: int = 2) -> str:
    """A percentage's number as a person reads it in a column headed "%": rounded as :func:`percent_text`,
    with the active language's separators (``1/8`` → ``12.50``, ``12,50`` in Spanish); empty when undefined."""
    if value is None:
        return ""
    return number_words(round_half_away(_exact(value) * 100 * 10**places), places)


def chip_words(denomination: int) -> str:
    """A chip's value: ``50000`` → ``€500``, ``250`` → ``€2.50`` (whole units without decimals)."""
    places = digits()
    if denomination % 10**places == 0:
        return money_amount(denomination // 10**places, places=0)
    return money_words(denomination)


def chips_words(denomination: int, count: int) -> str:
    """A count of chips of one value: ``(50000, 2)`` → ``2 × €500``."""
    return f"{count} × {chip_words(denomination)}"
