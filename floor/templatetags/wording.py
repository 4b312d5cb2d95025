"""The dealer screen's words on the pit's screens: an engine's prompt and a bet type in the reader's language."""

from __future__ import annotations

from typing import Any

from django import template

from tables import wording

register = template.Library()


@register.filter
def prompt_words(step: dict[str, Any] | None, game: str = "") -> str:
    """``{{ row.next_step|prompt_words:game }}``: what the dealer is asked now (the step's message), in the
    reader's words."""
    return wording.prompt(step)


@register.filter
def bet_words(bet_type: str, game: str) -> str:
    """``{{ bet.type|bet_words:game }}``: ``player_pair`` → Player pair (閒對子 in Traditional Chinese)."""
    return wording.bet_label(str(game), str(bet_type))
