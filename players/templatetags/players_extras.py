"""Template helpers for the players screens: time played, integrity flags in words."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()

FLAG_WORDS = {
    "no_rounds_at_table": "no rounds at the table",
    "no_bets_at_seat": "no bets recorded at the seat",
    "average_bet_mismatch": "estimate far from measured",
    "overlapping_slip": "overlaps another slip",
    "bets_while_paused": "bets while paused",
}


@register.filter
def played(seconds: Any) -> str:
    """Seconds as ``1 h 05 min`` (or ``12 min``)."""
    try:
        minutes = int(seconds) // 60
    except (TypeError, ValueError):
        return "—"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


@register.filter
def flag_words(flags: Any) -> str:
    return ", ".join(FLAG_WORDS.get(str(f), str(f)) for f in flags or ())
