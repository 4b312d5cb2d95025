"""Times as a person reads them: in the casino's time zone (settings ``TIME_ZONE``), in the active
language's date format, on the 24-hour clock of a casino floor. The one place a moment becomes text on
the back office's screens (money: ``casino.money``)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.formats import date_format


def when_words(moment: dt.datetime | None, *, empty: str = "—") -> str:
    """``2026-11-27T10:27:32Z`` → ``Nov. 27, 2026, 10:27`` (English; the casino's time zone)."""
    if moment is None:
        return empty
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    return f"{date_format(local.date(), 'DATE_FORMAT')}, {local:%H:%M}"


def day_words(day: dt.date | None, *, empty: str = "—") -> str:
    """A calendar or gaming day in the active language's date format (``Nov. 27, 2026``)."""
    return empty if day is None else date_format(day, "DATE_FORMAT")


def shift_words(shift: object | None, *, empty: str = "—") -> str:
    """A shift as the casino names it: its gaming day and its name (``Nov. 27, 2026 · Day``), never
    ``2026-11-27 day``."""
    if shift is None or shift == "":
        return empty
    day = getattr(shift, "gaming_date", None)
    name = str(getattr(getattr(shift, "shift_type", None), "name", "") or "")
    if day is None:
        return str(shift)
    return f"{day_words(day)} · {name}" if name else day_words(day)
