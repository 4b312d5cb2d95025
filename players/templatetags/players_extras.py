"""Template helpers for the players screens: time played, integrity flags in words."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

from django import template
from django.utils import timezone
from django.utils.translation import gettext

from casino.words import duration_words
from players import labels
from players.advantage import Advantage, chance_words, pit_advantage, player_advantage
from players.conf import knob
from tables.engines.errors import EngineError
from tables.engines.profile import Watch
from tables.engines.registry import get_engine
from tables.selectors import pit_tables

register = template.Library()



@register.filter
def played(seconds: Any) -> str:
    """Seconds at a table as ``1 h 05 min`` (or ``12 min``), in the reader's language (casino.words)."""
    try:
        return duration_words(int(seconds), from_minutes=True)
    except (TypeError, ValueError):
        return "—"


@register.filter
def flag_words(flags: Any) -> str:
    """Integrity or advantage flags in words (``players.labels``)."""
    return labels.flags(flags)


@register.filter
def flag_word(code: Any) -> str:
    """One flag in words (``players.labels``)."""
    return labels.flag(code)


@register.filter
def cash_direction(code: Any) -> str:
    """Cash in or out in words (``players.labels``)."""
    return labels.cash_direction(code)


@register.filter
def figure(value: Any) -> str:
    """A decimal figure (decisions per hour) in the reader's number format (``players.labels``)."""
    return labels.decimal_words(value)


@register.filter
def slip_status(code: Any) -> str:
    """A rating slip's status in words (``players.labels``)."""
    return labels.slip_status(code)


# -- advantage play (docs/game_protection.md) --------------------------------------------------------------
ADVANTAGE_HOURS = 24  # the pit's panel: the last day's play
PLAYER_ADVANTAGE_DAYS = 30  # a player's page: the last month's


@register.simple_tag(takes_context=True)
def advantage_for_pit(context: Any) -> list[Advantage]:
    """The rated players at the viewer's shoe tables in the last day, the flagged first."""
    request = context.get("request")
    if request is None:
        return []
    tables = list(pit_tables(request.user))
    return pit_advantage(tables, since=timezone.now() - dt.timedelta(hours=ADVANTAGE_HOURS))


@register.simple_tag
def advantage_for_player(player: Any) -> Advantage:
    return player_advantage(player, since=timezone.now() - dt.timedelta(days=PLAYER_ADVANTAGE_DAYS))


@register.filter
def chance(p: Any) -> str:
    """A p-value in words a pit reads: ``1 in 2,500``, or ``under 1 in a million``."""
    return chance_words(p)


@register.filter
def pct(value: Any, places: int = 2) -> str:
    """A fraction as a percentage: 0.0045 → ``0.45``."""
    try:
        return f"{float(value) * 100:.{int(places)}f}"
    except (TypeError, ValueError):
        return "—"


@register.simple_tag
def measured_edge_minimum() -> int:
    """The rounds a player needs at a game before the measured edge replaces the assumed one (players.conf)."""
    return knob("MEASURED_EDGE_MIN_ROUNDS")


@register.filter
def slip_edges(figures: Any) -> dict[str, Any]:
    """A slip's edges side by side for its row (players.rating): the assumed one, the measured one with its
    decisions, which one the theoretical win used, and why; percentages to two decimals."""
    skill = getattr(figures, "skill", None)
    edge = getattr(figures, "house_edge", None)
    if not skill:
        return {"assumed": pct(edge) if edge is not None else None, "measured": None}
    return {
        "assumed": pct(Fraction(skill["assumed_edge"])),
        "measured": pct(Fraction(skill["measured_edge"])),
        "decisions": skill["decisions"],
        "rounds": skill["rounds"],
        "min_rounds": skill["min_rounds"],
        "used": skill["used"],
        "theo_assumed": skill["theo_assumed"],
        "theo_measured": skill["theo_measured"],
    }


@register.filter
def decisions_costed(game: Any) -> bool:
    """Whether the game's recorded decisions are costed against basic strategy (the engine's profile: a game
    whose bets are followed against the count), so an open slip's measured skill is fixed at its close."""
    try:
        return bool(get_engine(str(game)).profile.watch == Watch.COUNT)
    except EngineError:
        return False


@register.filter
def lookup_p(values: Any, key: Any) -> Any:
    """``values[key]`` of a dict in a template (a dealer's p-value by the count's name)."""
    try:
        return values[key]
    except (KeyError, TypeError):
        return None


@register.filter
def side_bet_kinds(a: Any) -> list[tuple[str, Any]]:
    """A player's baccarat side bets against the cards left, each named in words: the pair bets, the tie bet."""
    found = [(gettext("pair bets"), getattr(a, "side_bets", None)), (gettext("tie bets"), getattr(a, "tie_bets", None))]
    return [(what, b) for what, b in found if b is not None]
