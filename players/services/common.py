"""What the players services share: locks (always table → slip → player), the gaming day, finding a player."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from casino.errors import Conflict, InvalidInput, NotFound
from players.labels import field_words
from players.models import Player, PlayerStatus, RatingSlip
from tables.models import Shift, Table
from tables.selectors import open_shift_for
from tables.services.locks import lock_table


def lock_slip(slip_id: Any) -> RatingSlip:
    """The slip's table first, then the slip (the order every table-level writer uses)."""
    if isinstance(slip_id, bool) or not isinstance(slip_id, int):
        raise NotFound(gettext("no rating slip %(id)s") % {"id": slip_id}, code="unknown_slip")
    table_id = RatingSlip.objects.filter(pk=slip_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFound(gettext("no rating slip %(id)s") % {"id": slip_id}, code="unknown_slip")
    lock_table(table_id)
    return (
        RatingSlip.objects.select_for_update(of=("self",))
        .select_related("table__pit", "player", "shift")
        .get(pk=slip_id)
    )


def lock_player(player_id: int) -> Player:
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(gettext("no player %(id)s") % {"id": player_id}, code="unknown_player", field="player")
    return player


def find_player(*, player_id: Any = None, card_number: Any = None, field: str = "player") -> Player | None:
    """The player named by id or by card number (one of them, or neither for anonymous play)."""
    if player_id is not None and card_number not in (None, ""):
        raise InvalidInput(gettext("give the player's id or card number, not both"), code="player_ambiguous", field=field)
    if player_id is not None:
        if isinstance(player_id, bool) or not isinstance(player_id, int):
            raise InvalidInput(gettext("the player must be a player's id"), code="bad_player", field=field)
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise NotFound(gettext("no player %(id)s") % {"id": player_id}, code="unknown_player", field=field)
        return player
    if card_number not in (None, ""):
        if not isinstance(card_number, str):
            raise InvalidInput(gettext("the card number must be text"), code="bad_card_number", field="card_number")
        player = Player.objects.filter(card_number=card_number.strip()).first()
        if player is None:
            raise NotFound(gettext("no player has the card %(card)s") % {"card": card_number.strip()}, code="unknown_card", field="card_number")
        return player
    return None


def ensure_may_play(player: Player | None) -> None:
    if player is not None and player.status != PlayerStatus.ACTIVE:
        raise Conflict(
            gettext("%(player)s is %(status)s: they may not be rated")
            % {"player": player.name, "status": player.get_status_display().lower()},
            code=f"player_{player.status}",
            field="player",
        )


def current_shift(actor: Any, table: Table | None) -> Shift:
    """The shift (and so the gaming day) of something happening now, at ``table`` if any: the one rule
    of :func:`tables.selectors.shift_at`."""
    return open_shift_for(actor=actor, table=table)


def amount_of(value: Any, *, field: str = "amount", allow_zero: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (value == 0 and not allow_zero):
        raise InvalidInput(
            (gettext("%(field)s must be a whole amount of money, 0 or more") if allow_zero
             else gettext("%(field)s must be a whole amount of money, more than 0")) % {"field": field_words(field)},
            code="bad_amount",
            field=field,
        )
    return value


def text_of(value: Any, *, field: str, max_length: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidInput(gettext("%(field)s must be text") % {"field": field_words(field)}, code="bad_text", field=field)
    value = value.strip()
    if len(value) > max_length:
        raise InvalidInput(gettext("%(field)s must be at most %(count)s characters")
                           % {"field": field_words(field), "count": max_length}, code="too_long", field=field)
    return value
