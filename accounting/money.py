"""Exact money and percentage text: integers in, strings out, one rounding rule, no floats.

>>> money_text(123456), money_text(-5), money_text(0)
('1234.56', '-0.05', '0.00')
>>> hold_fraction(1250, 10000), percent_text(hold_fraction(1250, 10000))
(Fraction(1, 8), '12.50')
>>> percent_text(Fraction(1, 3)), percent_text(Fraction(-1, 3)), percent_text(Fraction(1, 8000))
('33.33', '-33.33', '0.01')
>>> percent_text(Fraction(1, 80000)), percent_text(None)
('0.00', '')
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from accounting.conf import int_knob


def digits() -> int:
    return int_knob("MINOR_UNIT_DIGITS")


def money_text(minor: int, places: int | None = None) -> str:
    """``minor`` units as a decimal string with exactly ``places`` decimals (the currency's)."""
    places = digits() if places is None else places
    sign = "-" if minor < 0 else ""
    whole, part = divmod(abs(minor), 10**places)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def money_decimal(minor: int, places: int | None = None) -> Decimal:
    places = digits() if places is None else places
    return Decimal(minor).scaleb(-places)


def hold_fraction(win: int, drop: int) -> Fraction | None:
    """Hold = win / drop, exact; None when nothing was dropped (hold is undefined, not zero)."""
    if drop == 0:
        return None
    return Fraction(win, drop)


def round_half_away(value: Fraction) -> int:
    """The nearest integer; halves go away from zero (2.5 → 3, −2.5 → −3)."""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    if 2 * rest >= value.denominator:
        whole += 1
    return whole if value >= 0 else -whole


def percent_text(value: Fraction | None, places: int = 2) -> str:
    """A fraction as a percentage with ``places`` decimals, rounded half away from zero."""
    if value is None:
        return ""
    scaled = round_half_away(value * 100 * 10**places)
    return money_text(scaled, places)


def percent_decimal(value: Fraction | None, places: int = 2) -> Decimal | None:
    if value is None:
        return None
    return Decimal(round_half_away(value * 100 * 10**places)).scaleb(-places)
