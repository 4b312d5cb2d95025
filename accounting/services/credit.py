"""Markers as credit: a player's credit line, approved by someone with the authority for its amount, and the
markers issued against it refused over the line (docs/accounting.md, "Markers as credit").

A line is never edited: each approval (a new line, a higher or a lower one) is a new, signed record and the
latest is the line in force. Who may approve what is a setting (``CREDIT_APPROVAL_LIMITS``: the most a pit
manager's or an accountant's signature approves; an admin's has no cap).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounting.conf import knob
from accounting.models import CreditLine
from accounting.money import money_words
from accounting.selectors import credit_line_in_force, owed_on_markers
from casino.audit.services import audit_log
from casino.core.roles import Role, roles_of
from casino.errors import Conflict, Forbidden, InvalidInput
from casino.signatures import signed_by, submitter_signs

APPROVERS = (Role.PIT_MANAGER, Role.ACCOUNTANT)


def approval_limit(user: Any) -> int | None:
    """The largest line ``user``'s signature approves (None: no cap, an admin)."""
    held = roles_of(user)
    if Role.ADMIN in held:
        return None
    limits = knob("CREDIT_APPROVAL_LIMITS")
    assert isinstance(limits, dict)
    return max((int(limits.get(r.value, 0)) for r in held), default=0)


def _player(player: Any) -> str:
    if not isinstance(player, str) or not player.strip():
        raise InvalidInput(gettext("player must name the player or their account"), code="player_required", field="player")
    return player.strip()[:120]


def credit_line_of(player: str) -> CreditLine | None:
    """The line in force: the player's latest approval (the name as on the markers, in any case)."""
    return credit_line_in_force(player)


def owed_by(player: str) -> int:
    """What the player owes on markers: issued, less paid, less written off."""
    return owed_on_markers(player)


@transaction.atomic
def credit_line_set(*, actor: Any, player: Any, limit: Any, approver: Any, reason: Any = "") -> CreditLine:
    """Approve a player's credit line (or change it): signed by the approver, a pit manager or an accountant whose
    authority covers the amount; the person submitting is the approver."""
    player = _player(player)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise InvalidInput(gettext("limit must be a whole number of minor units, 0 or more"), code="bad_amount", field="limit")
    signer = signed_by(approver, actor=actor, field="approver", roles=APPROVERS)
    submitter_signs(actor, signer)
    cap = approval_limit(signer.user)
    if cap is not None and limit > cap:
        raise Forbidden(
            gettext("approver: %(user)s approves credit lines up to %(cap)s; a line of %(limit)s needs someone with "
                    "that authority")
            % {"user": signer.user.get_username(), "cap": money_words(cap), "limit": money_words(limit)},
            code="over_approval_limit", field="approver")
    before = credit_line_of(player)
    line = CreditLine.objects.create(
        player=player, limit=limit, approver=signer, recorded_by=actor, approved_at=timezone.now(),
        reason=(reason.strip() if isinstance(reason, str) else "")[:1000],
    )
    audit_log(actor=actor, action="credit_line.approve", object_type="credit_line", object_id=line.pk,
              before={"limit": before.limit} if before else None,
              after={"player": player, "limit": limit, "approver": signer.employee_id})
    return line


def ensure_within_line(player: str, amount: int) -> None:
    """A marker is issued only within the player's line: refused over it, in words, naming what is owed. A player
    with no line may take no marker when ``MARKER_NEEDS_CREDIT_LINE`` is on (the default)."""
    line = credit_line_of(player)
    if line is None:
        if knob("MARKER_NEEDS_CREDIT_LINE"):
            raise Conflict(gettext("%(player)s has no credit line: one is approved before a marker is issued")
                % {"player": player},
                           code="no_credit_line", field="player")
        return
    CreditLine.objects.select_for_update().filter(pk=line.pk).first()  # one marker against a line at a time
    owed = owed_by(player)
    if owed + amount > line.limit:
        raise Conflict(
            gettext("%(player)s's credit line is %(limit)s and %(owed)s is owed: a marker of %(amount)s would be "
                    "%(over)s over it")
            % {"player": player, "limit": money_words(line.limit), "owed": money_words(owed),
               "amount": money_words(amount), "over": money_words(owed + amount - line.limit)},
            code="over_credit_line", field="amount")
