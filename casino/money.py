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
from typing import Any

from django.conf import settings
from django.utils.formats import get_format
from django.utils.translation import get_language, gettext, ngettext


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


# --- the one format a person reads, by the active language ------------------------------------------------

# the symbol written with an amount of the house currency; a currency without one is written with its code
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "HKD": "HK$", "MOP": "MOP$", "SGD": "S$", "AUD": "A$",
           "CAD": "C$", "NZD": "NZ$", "INR": "₹", "KRW": "₩", "PHP": "₱", "CNY": "CN¥", "ILS": "₪", "TRY": "₺"}
# languages that write the currency after the amount ("1.234,50 €"); the others before it ("€1,234.50")
SYMBOL_AFTER = frozenset({"es", "fr", "de", "it", "pt", "pl", "el", "ca", "nl", "cs", "sk", "ru", "uk", "ro", "hu"})
# what separates thousands when the language's formats give no separator (Django's Chinese formats group by
# four without one; Macau, Hong Kong and the mainland write money with commas by three)
FALLBACK_GROUP = (",", 3)
SPACES = "\u00a0\u202f\u2009 "


def _house() -> tuple[str, int]:
    croupier: dict[str, Any] = settings.CROUPIER
    return str(croupier["CURRENCY"]), int(croupier["MINOR_UNIT_DIGITS"])


def separators() -> tuple[str, str, int]:
    """(decimal separator, thousands separator, group size) of the active language."""
    decimal = str(get_format("DECIMAL_SEPARATOR"))
    group, size = str(get_format("THOUSAND_SEPARATOR")), int(get_format("NUMBER_GROUPING") or 3)
    if not group or group == decimal:
        group, size = FALLBACK_GROUP
    return decimal, group, size


def number_words(minor: int, places: int) -> str:
    """``minor`` hundredths (``places`` = 2) as the active language writes a number: thousands grouped, its
    decimal separator (``123456, 2`` → ``1,234.56`` in English, ``1 234,56`` in Spanish)."""
    decimal, group, size = separators()
    whole, part = divmod(abs(int(minor)), 10**places)
    digits = str(whole)
    head = len(digits) % size or size
    grouped = group.join([digits[:head], *(digits[i:i + size] for i in range(head, len(digits), size))])
    sign = "-" if minor < 0 else ""
    return f"{sign}{grouped}{decimal}{part:0{places}d}" if places else f"{sign}{grouped}"


def money_amount(minor: int, *, places: int | None = None, symbol: bool = True) -> str:
    """Minor units as a person reads money in the active language: grouped, with the house currency
    (``250000`` → ``€2,500.00`` in English, ``2 500,00 €`` in Spanish; ``2,500.00 CHF`` for a currency
    without a symbol). ``symbol=False`` writes the number alone (a column headed with the currency)."""
    code, digits = _house()
    number = number_words(abs(int(minor)), digits if places is None else places)
    sign = "-" if minor < 0 else ""
    if not symbol:
        return f"{sign}{number}"
    mark = SYMBOLS.get(code, "")
    if not mark:
        return f"{sign}{number} {code}"
    if (get_language() or "en").split("-")[0] in SYMBOL_AFTER:
        return f"{sign}{number}\u00a0{mark}"  # never wrapped away from its amount
    return f"{sign}{mark}{number}"


class MoneyInputError(ValueError):
    """Typed money that is not an amount, or not one amount only: ``message`` says why, in words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def money_parse(text: object, *, places: int | None = None) -> int:
    """What a person typed as money, in minor units, exactly; refused in words when it is not an amount or
    when it could be read two ways. Accepts what :func:`money_amount` writes, in the active language or
    with the other common separators (``1,000.00``, ``€1,000.00``, ``1.000,00 €``, ``1000``, ``25,5``); the
    house currency's symbol or code may come before or after. A lone separator followed by exactly three
    digits is a thousands separator unless it is the language's decimal separator, then the input is
    refused as ambiguous ("1.000" in English: a thousand, or one?)."""
    code, digits = _house()
    places = digits if places is None else places
    raw = str(text if text is not None else "").strip()
    if not raw:
        raise MoneyInputError(gettext("Type an amount."))
    body = raw.replace("\u2212", "-")
    sign = 1
    if body.startswith("-"):
        sign, body = -1, body[1:].strip()
    for mark in sorted({SYMBOLS.get(code, ""), code, code.lower()} - {""}, key=len, reverse=True):
        if body.startswith(mark):
            body = body[len(mark):]
        elif body.endswith(mark):
            body = body[:-len(mark)]
    body = body.strip()
    if body.startswith("-") and sign == 1:
        sign, body = -1, body[1:]
    for space in SPACES:
        body = body.replace(space, "")
    if not body or any(ch not in "0123456789.," for ch in body) or not body[0].isdigit() or not body[-1].isdigit():
        raise MoneyInputError(gettext("“%(text)s” is not an amount: write it like %(example)s.")
                              % {"text": raw, "example": money_amount(123456)})
    decimal, _group, _size = separators()
    seps = [ch for ch in body if ch in ".,"]
    whole, part = body, ""
    if seps:
        last = body.rfind(seps[-1])
        if len(set(seps)) == 2 or seps.count(seps[-1]) == 1:
            tail = body[last + 1:]
            lone = len(seps) == 1
            if lone and len(tail) == 3 and seps[-1] != decimal:
                whole = body  # "1,000" in English, "1.000" in Spanish: a thousand
            elif lone and len(tail) == 3 and places < 3:
                thousands = int(body[:last] + tail) * 10**places
                raise MoneyInputError(gettext("“%(text)s” could be read two ways: write %(thousands)s, or the "
                                              "amount with at most %(places)d decimals.")
                                      % {"text": raw, "thousands": money_amount(thousands), "places": places})
            else:
                whole, part = body[:last], tail
        group_seps = [ch for ch in whole if ch in ".,"]
        if group_seps:
            groups = whole.replace(group_seps[0], ",").split(",")
            if len(set(group_seps)) > 1 or not 1 <= len(groups[0]) <= 3 or any(len(g) != 3 for g in groups[1:]):
                raise MoneyInputError(gettext("“%(text)s” is not an amount: its thousands are not in threes "
                                              "(write it like %(example)s).") % {"text": raw, "example": money_amount(123456)})
            whole = "".join(groups)
    if len(part) > places:
        raise MoneyInputError(ngettext("“%(text)s” has more decimals than the currency: at most %(places)d.",
                                       "“%(text)s” has more decimals than the currency: at most %(places)d.",
                                       places) % {"text": raw, "places": places})
    if len(whole) > 15:
        raise MoneyInputError(gettext("“%(text)s” is too large an amount.") % {"text": raw})
    return sign * (int(whole) * 10**places + (int(part.ljust(places, "0")) if part else 0))


def format_conf(*, places: int | None = None) -> dict[str, object]:
    """The one format as the screens' JavaScript needs it (static/croupier/money.js): the same separators,
    symbol and decimals as :func:`money_amount`, for totals shown while a person types."""
    code, digits = _house()
    decimal, group, size = separators()
    return {"decimal": decimal, "group": group, "size": size, "symbol": SYMBOLS.get(code, ""), "code": code,
            "after": (get_language() or "en").split("-")[0] in SYMBOL_AFTER,
            "digits": digits if places is None else places}
