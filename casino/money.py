"""Minor units as text: the one place the digits of an amount are written (integers in, strings out, no floats).

``accounting.money`` (reports, exports, the back-office screens) and ``tables.wording`` (the dealer's
screen, with the currency's symbol) both write amounts through :func:`money_formatter`.

>>> money_formatter(2)(123456), money_formatter(2)(-5), money_formatter(0)(7)
('1234.56', '-0.05', '7')
>>> money_formatter(2, grouping=True)(-123456789)
'-1,234,567.89'
"""

from __future__ import annotations

from collections.abc import Callable


def money_formatter(places: int, *, grouping: bool = False) -> Callable[[int], str]:
    """A function writing minor units with exactly ``places`` decimals, optionally with thousands
    separators. Made once per column by the report writers, which write millions."""
    scale = 10**places

    def text(minor: int) -> str:
        whole, part = divmod(-minor if minor < 0 else minor, scale)
        head = f"{whole:,}" if grouping else str(whole)
        sign = "-" if minor < 0 else ""
        return f"{sign}{head}.{part:0{places}d}" if places else f"{sign}{head}"

    return text
