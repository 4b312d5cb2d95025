"""Signatures: staff sign counts, slips and markers with their credential id (``StaffProfile.employee_id``)."""

from __future__ import annotations

from typing import Any

from casino.core.models import StaffProfile
from casino.core.roles import Role, has_role
from casino.errors import InvalidInput

ROLE_WORDS = {Role.DEALER: "a dealer", Role.PIT_MANAGER: "a pit manager (supervisor)", Role.ACCOUNTANT: "an accountant"}


def signer(credential: Any, *, field: str, roles: tuple[Role, ...] = ()) -> StaffProfile:
    """The active member of staff holding ``credential``; with ``roles``, one of them (admins hold all)."""
    if not isinstance(credential, str) or not credential.strip():
        raise InvalidInput(f"{field} must be a staff credential id", code="credential_required", field=field)
    profile = StaffProfile.objects.select_related("user").filter(employee_id=credential.strip()).first()
    if profile is None or not profile.user.is_active:
        raise InvalidInput(
            f"{field}: no active member of staff has the credential {credential.strip()!r}",
            code="unknown_credential",
            field=field,
        )
    if roles and not has_role(profile.user, *roles):
        wanted = " or ".join(ROLE_WORDS.get(r, r.value) for r in roles)
        raise InvalidInput(
            f"{field}: {profile.display_name} ({profile.employee_id}) is not {wanted}", code="signer_role", field=field
        )
    return profile


def distinct(*named: tuple[str, StaffProfile]) -> None:
    """Refuse one person signing twice where two (or three) independent signatures are required."""
    seen: dict[int, str] = {}
    for field, profile in named:
        if profile.pk in seen:
            raise InvalidInput(
                f"{field} and {seen[profile.pk]} must be two different people", code="same_signer", field=field
            )
        seen[profile.pk] = field
