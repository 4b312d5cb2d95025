"""The players area's codes as a person reads them: the one place each is worded (screens, reports, exports).

A rating slip's status (``paused``), an integrity flag (``average_bet_mismatch``), an advantage-play flag
(``bets_follow_count``) or where an average bet came from (``estimate``) never reaches a reader: its label
does, in the active language. The stored choices (statuses, kinds, directions) carry their own translated
labels (``players.models``); :func:`slip_status` reads them for a bare code."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounting.money import round_half_away
from casino.money import number_words
from players.models import CashDirection, SlipStatus

# integrity flags of a slip's rating (players.rating)
RATING_FLAGS = {
    "no_rounds_at_table": _("no rounds at the table"),
    "no_bets_at_seat": _("no bets recorded at the seat"),
    "average_bet_mismatch": _("estimate far from measured"),
    "overlapping_slip": _("overlaps another slip"),
    "bets_while_paused": _("bets while paused"),
}
# advantage-play flags (players.advantage): what the pit watches for
ADVANTAGE_FLAGS = {
    "bets_follow_count": _("bets follow the count"),
    "back_counting": _("enters high, leaves low"),
    "pair_bets_at_positive_ev": _("pair bets where the cards favour them"),
    "tie_bets_at_positive_ev": _("tie bets where the cards favour them"),
}
# where a rating's average bet came from
AVERAGE_BET_SOURCES = {
    "measured": pgettext_lazy("average bet", "measured"),
    "estimate": pgettext_lazy("average bet", "floor estimate"),
    "none": pgettext_lazy("average bet", "none"),
}

# the fields a refusal names (``amount must be …``), as a sentence says them
FIELDS = {
    "amount": _("the amount"), "estimated_average_bet": _("the estimated average bet"),
    "walk_with": _("what the player walks with"), "first_name": _("the first name"), "last_name": _("the last name"),
    "card_number": _("the card number"), "notes": _("the notes"), "note": _("the note"),
    "number": _("the document number"), "issuer": _("the issuer"), "description": _("the description"),
}


def _words(code: Any) -> str:
    text = str(code or "").replace("_", " ").strip()
    return text


def slip_status(code: Any) -> str:
    """A rating slip's status (``paused``) as read (``Paused``)."""
    try:
        return str(SlipStatus(str(code)).label)
    except ValueError:
        return _words(code)


def flag(code: Any) -> str:
    """One flag, rating or advantage, in words."""
    found = RATING_FLAGS.get(str(code)) or ADVANTAGE_FLAGS.get(str(code))
    return str(found) if found is not None else _words(code)


def flags(codes: Iterable[Any] | None) -> str:
    """Flags in words, comma separated (empty for none)."""
    return ", ".join(flag(c) for c in codes or ())


def cash_direction(code: Any) -> str:
    """Cash ``in`` or ``out`` as read (``Cash in``)."""
    try:
        return str(CashDirection(str(code)).label)
    except ValueError:
        return _words(code)


def decimal_words(value: Any, places: int = 2) -> str:
    """A decimal figure (decisions per hour: ``"1568.33"``) as the reader's language writes it
    (``1,568.33``; ``1 568,33`` in Spanish); a dash for none."""
    if value is None or value == "":
        return "—"
    exact = Fraction(str(value))
    return number_words(round_half_away(exact * 10**places), places)


def average_bet_source(code: Any) -> str:
    found = AVERAGE_BET_SOURCES.get(str(code))
    return str(found) if found is not None else _words(code)


def field_words(code: Any) -> str:
    """A field a refusal names (``walk_with``) as a sentence says it (``what the player walks with``)."""
    found = FIELDS.get(str(code))
    return str(found) if found is not None else _words(code)
