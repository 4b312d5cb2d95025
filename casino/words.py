"""Times as a person reads them: in the casino's time zone (settings ``TIME_ZONE``), in the active
language's date format, on the 24-hour clock of a casino floor. The one place a moment becomes text on
the back office's screens (money: ``casino.money``)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext


def when_words(moment: dt.datetime | None, *, empty: str = "—", seconds: bool = False) -> str:
    """``2026-11-27T10:27:32Z`` → ``Nov. 27, 2026, 10:27`` (English; the casino's time zone); with
    ``seconds`` (an audit record's moment) ``Nov. 27, 2026, 10:27:32``."""
    if moment is None:
        return empty
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    return f"{date_format(local.date(), 'DATE_FORMAT')}, {local:%H:%M:%S}" if seconds else \
        f"{date_format(local.date(), 'DATE_FORMAT')}, {local:%H:%M}"


def day_words(day: dt.date | None, *, empty: str = "—") -> str:
    """A calendar or gaming day in the active language's date format (``Nov. 27, 2026``)."""
    return empty if day is None else date_format(day, "DATE_FORMAT")


def short_day_words(day: dt.date | None, *, empty: str = "—") -> str:
    """A day in the active language's short date format, for a table's cell (``11/27/2026``, ``27/11/2026`` in
    Spanish, ``2026年11月27日`` in Chinese)."""
    return empty if day is None else date_format(day, "SHORT_DATE_FORMAT")


def short_when_words(moment: dt.datetime | None, *, seconds: bool = True, empty: str = "—") -> str:
    """A moment for a table's cell: the casino's time zone, the short date format, the 24-hour clock
    (``27/11/2026 10:27:32`` in Spanish)."""
    if moment is None:
        return empty
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    return f"{short_day_words(local.date())} {local:%H:%M:%S}" if seconds else \
        f"{short_day_words(local.date())} {local:%H:%M}"


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


def duration_words(seconds: float, *, from_minutes: bool = False) -> str:
    """A length of time as a person reads it, in the reader's language: ``45 s``, ``40 min``, ``2 h 05 min``,
    ``3 days``. With ``from_minutes`` (time at a table) no seconds are shown and hours start at 60 minutes;
    otherwise (how late a job is) seconds up to 90 s and minutes up to 90 min, as a clock is read.

    >>> duration_words(45), duration_words(2400), duration_words(7500), duration_words(3 * 86400)
    ('45 s', '40 min', '2 h 05 min', '3 days')
    >>> duration_words(3900, from_minutes=True), duration_words(30, from_minutes=True)
    ('1 h 05 min', '0 min')
    """
    total = max(0, int(seconds))
    if not from_minutes and total < 90:
        return gettext("%(seconds)s s") % {"seconds": total}
    minutes = total // 60
    if minutes < (60 if from_minutes else 90):
        return gettext("%(minutes)s min") % {"minutes": minutes}
    hours, minutes = divmod(minutes, 60)
    if hours < 48 or from_minutes:
        if not minutes:
            return gettext("%(hours)s h") % {"hours": hours}
        return gettext("%(hours)s h %(minutes)02d min") % {"hours": hours, "minutes": minutes}
    days = hours // 24
    return ngettext("%(days)s day", "%(days)s days", days) % {"days": days}
