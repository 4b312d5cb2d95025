"""The slot floor's codes as a person reads them in a sentence: the fields a refusal names, a meter's figure.

A refusal says ``the denomination must be …`` and ``coin-in went backwards (€980.00 after €990.00)``, not
``denomination must be …`` or ``coin_in went backwards (98000 after 99000)``: money meters in the one money
format of the reader's language, counts with its thousands separator."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from casino.money import money_amount, number_words
from slots.models import MONEY_METERS

FIELDS = {
    "amount": _("the amount"), "asset_number": _("the asset number"), "code": _("the code"),
    "contribution_bp": _("the contribution rate"), "denomination": _("the denomination"),
    "expected_amount": _("the amount expected"), "expected_value": _("the value expected"), "game": _("the game"),
    "label": _("the label"), "location": _("the location"), "machines": _("the machines"), "name": _("the name"),
    "note": _("the note"), "paid_by": _("how it is paid"), "reason": _("the reason"),
    "reset_value": _("the reset value"), "scope": _("the scope"), "status": _("the status"),
    "target": _("the target"), "unit": _("the unit"), "value": _("the value"), "supervisor": _("the supervisor"),
    "coin_in": _("coin-in"), "coin_out": _("coin-out"), "jackpots": _("jackpots"), "games_played": _("games played"),
    "drop": _("the drop"),
}


def field_words(code: Any) -> str:
    """A field a refusal names (``coin_in``) as a sentence says it (``coin-in``)."""
    found = FIELDS.get(str(code))
    return str(found) if found is not None else str(code).replace("_", " ")


def count_words(value: int) -> str:
    """A count (credits, clicks, games) as the reader writes a whole number (``12,500``; ``12 500`` in Spanish)."""
    return number_words(int(value), 0)


def meter_words(meter: str, value: int) -> str:
    """A machine meter's reading: money for the money meters, a count for games played."""
    return money_amount(int(value)) if meter in MONEY_METERS else count_words(value)
