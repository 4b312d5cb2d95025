"""Integer money arithmetic: commissions, rakes and ratios with explicit rounding.

Amounts are integers in minor units or chips. A rate is given in basis points (1/100 of a
per cent: 500 = 5 %), so no float ever touches money.

>>> percent_of(2500, 500, Rounding.DOWN)
125
>>> percent_of(13, 1000, Rounding.UP)
2
>>> pay_ratio(15, 3, 2, Rounding.DOWN)
22
"""

from __future__ import annotations

from enum import StrEnum


class Rounding(StrEnum):
    """Where the odd fraction of a chip goes."""

    DOWN = "down"  # toward zero: the bettor keeps the fraction of a commission
    UP = "up"  # away from zero: the house takes the whole chip
    HALF_UP = "half_up"  # nearest, halves away from zero
    HALF_EVEN = "half_even"  # nearest, halves to even (banker's rounding)


def _check_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer amount, got {type(value).__name__}")
    return value


def divide(numerator: int, denominator: int, rounding: Rounding) -> int:
    """numerator / denominator for non-negative integers, rounded as told."""
    _check_int(numerator, "numerator")
    _check_int(denominator, "denominator")
    if numerator < 0 or denominator <= 0:
        raise ValueError("divide() takes a non-negative numerator and a positive denominator")
    quotient, remainder = divmod(numerator, denominator)
    if remainder == 0:
        return quotient
    if rounding is Rounding.DOWN:
        return quotient
    if rounding is Rounding.UP:
        return quotient + 1
    twice = remainder * 2
    if twice > denominator:
        return quotient + 1
    if twice < denominator:
        return quotient
    if rounding is Rounding.HALF_UP:
        return quotient + 1
    return quotient + (quotient % 2)


def percent_of(amount: int, basis_points: int, rounding: Rounding, unit: int = 1) -> int:
    """``basis_points``/10000 of ``amount``, rounded as told to a whole number of ``unit`` (a chip: what a
    dealer can hand over; 1, the minor unit, by default).

    >>> percent_of(2500, 500, Rounding.DOWN, 100), percent_of(2500, 500, Rounding.UP, 100)
    (100, 200)
    """
    unit = _check_int(unit, "unit")
    if unit < 1:
        raise ValueError("unit must be 1 or more")
    return unit * divide(_check_int(amount, "amount") * _check_int(basis_points, "basis_points"), 10_000 * unit,
                         rounding)


def pay_ratio(amount: int, numerator: int, denominator: int, rounding: Rounding) -> int:
    """What a bet of ``amount`` wins at ``numerator``:``denominator`` (e.g. 3:2)."""
    return divide(_check_int(amount, "amount") * numerator, denominator, rounding)
