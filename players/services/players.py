"""Players and their identity documents: created and changed by pit managers and compliance, audited."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.services import audit_log
from casino.core.roles import Role, has_role
from casino.errors import Conflict, Forbidden, InvalidInput
from players.models import DocumentKind, Player, PlayerDocument, PlayerStatus
from players.services.common import lock_player, text_of

EDITABLE = ("first_name", "last_name", "card_number", "birth_date", "status", "notes")


def ensure_player_admin(actor: Any) -> None:
    if not has_role(actor, Role.PIT_MANAGER, Role.COMPLIANCE):
        raise Forbidden(gettext("players are recorded by pit managers and compliance"), code="role_required")


def _clean(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("first_name", "last_name"):
        if name in values:
            out[name] = text_of(values[name], field=name, max_length=80)
    if "card_number" in values:
        card = text_of(values["card_number"], field="card_number", max_length=32)
        out["card_number"] = card or None
    if "notes" in values:
        out["notes"] = text_of(values["notes"], field="notes", max_length=4000)
    if "status" in values:
        if values["status"] not in PlayerStatus.values:
            raise InvalidInput(
                gettext("the status must be one of %(statuses)s") % {"statuses": ", ".join(str(s.label) for s in PlayerStatus)},
                code="bad_status", field="status",
            )
        out["status"] = values["status"]
    if "birth_date" in values:
        if values["birth_date"] is not None and not isinstance(values["birth_date"], dt.date):
            raise InvalidInput(gettext("the birth date must be a date"), code="bad_date", field="birth_date")
        out["birth_date"] = values["birth_date"]
    return out


def _snapshot(player: Player) -> dict[str, Any]:
    return {name: getattr(player, name) for name in EDITABLE}


def _card_free(card: str | None, exclude: int | None = None) -> None:
    if card and Player.objects.filter(card_number=card).exclude(pk=exclude).exists():  # type: ignore[misc]  # pk=None: a new player, nothing to leave out
        raise Conflict(gettext("the card %(card)s belongs to another player") % {"card": card}, code="card_in_use", field="card_number")


@transaction.atomic
def player_create(*, actor: Any, **values: Any) -> Player:
    """A new player (at least a first or last name); a card number is unique when given."""
    ensure_player_admin(actor)
    unknown = set(values) - set(EDITABLE)
    if unknown:
        raise InvalidInput(gettext("unknown field %(field)s") % {"field": sorted(unknown)[0]}, code="unknown_field", field=sorted(unknown)[0])
    data = _clean(values)
    if not data.get("first_name") and not data.get("last_name"):
        raise InvalidInput(gettext("a player needs a first or a last name"), code="name_required", field="last_name")
    _card_free(data.get("card_number"))
    now = timezone.now()
    try:
        with transaction.atomic():
            player = Player.objects.create(created_by=actor, created_at=now, updated_at=now, **data)
    except IntegrityError:  # the same card entered at the same moment elsewhere
        raise Conflict(gettext("the card belongs to another player"), code="card_in_use", field="card_number") from None
    audit_log(actor=actor, action="player.create", object_type="player", object_id=player.pk, after=_snapshot(player))
    return player


@transaction.atomic
def player_update(*, actor: Any, player_id: int, **values: Any) -> Player:
    """Change a player's names, card, status or notes (a ban or self-exclusion stops new slips)."""
    ensure_player_admin(actor)
    unknown = set(values) - set(EDITABLE)
    if unknown:
        raise InvalidInput(gettext("unknown field %(field)s") % {"field": sorted(unknown)[0]}, code="unknown_field", field=sorted(unknown)[0])
    player = lock_player(player_id)
    data = _clean(values)
    before = _snapshot(player)
    merged = {**before, **data}
    if not merged["first_name"] and not merged["last_name"]:
        raise InvalidInput(gettext("a player needs a first or a last name"), code="name_required", field="last_name")
    if "card_number" in data:
        _card_free(data["card_number"], exclude=player.pk)
    changed = {k: v for k, v in data.items() if before[k] != v}
    if not changed:
        return player
    Player.objects.filter(pk=player.pk).update(updated_at=timezone.now(), **changed)
    player.refresh_from_db()
    audit_log(
        actor=actor,
        action="player.update",
        object_type="player",
        object_id=player.pk,
        before={k: before[k] for k in changed},
        after={k: getattr(player, k) for k in changed},
    )
    return player


@transaction.atomic
def player_document_add(
    *, actor: Any, player_id: int, kind: Any, number: Any, issuer: Any, expires_on: dt.date | None = None
) -> PlayerDocument:
    """Record an identity document seen by staff (kind, number, issuer, expiry)."""
    ensure_player_admin(actor)
    player = lock_player(player_id)
    if kind not in DocumentKind.values:
        raise InvalidInput(gettext("the kind must be one of %(kinds)s") % {"kinds": ", ".join(str(k.label) for k in DocumentKind)}, code="bad_kind", field="kind")
    number = text_of(number, field="number", max_length=40)
    issuer = text_of(issuer, field="issuer", max_length=60)
    if not number:
        raise InvalidInput(gettext("a document needs its number"), code="number_required", field="number")
    if not issuer:
        raise InvalidInput(gettext("a document needs its issuing country or authority"), code="issuer_required", field="issuer")
    if PlayerDocument.objects.filter(kind=kind, issuer__iexact=issuer, number__iexact=number).exists():
        raise Conflict(gettext("this document is already recorded"), code="document_known", field="number")
    doc = PlayerDocument.objects.create(
        player=player,
        kind=kind,
        number=number,
        issuer=issuer,
        expires_on=expires_on,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    audit_log(
        actor=actor,
        action="player.document_add",
        object_type="player",
        object_id=player.pk,
        after={"document": doc.pk, "kind": kind, "issuer": issuer, "number": number, "expires_on": expires_on},
    )
    return doc
