"""Signatures: a person proving it is them, at the moment they sign (docs/accounting.md, "Signatures").

A signature names a member of staff by username and proves it with their password or their signing
PIN; the person signed in signs with their session (nothing asked again). An employee id is printed
on slips and reports and is never a secret: it proves nothing and is not accepted as a signature.

Given as ``{"username": "…", "password": "…"}``, ``{"username": "…", "pin": "…"}`` or, for the
person signed in, ``{"username": "<their own>"}``. A wrong password or PIN is refused
(:class:`SignatureRefused`, 403) and counted per requester and signer, apart from sign-in
(casino/auth.py): a dealer typing wrong supervisor passwords slows that dealer down and never locks
the supervisor out. Who signs what, and what a second signature means: docs/accounting.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy, ngettext

from casino.audit.services import audit_log
from casino.auth import retry_after, signature_failure_record, signature_locked_until, signature_success_record
from casino.core.models import StaffProfile
from casino.core.roles import Role, has_role
from casino.errors import DomainError, Forbidden, InvalidInput

ROLE_WORDS = {Role.DEALER: gettext_lazy("a dealer"), Role.PIT_MANAGER: gettext_lazy("a pit manager (supervisor)"),
              Role.ACCOUNTANT: gettext_lazy("an accountant"), Role.CASHIER: gettext_lazy("a cage cashier"),
              Role.COUNT_TEAM: gettext_lazy("a member of the count team")}
PIN_PATTERN = re.compile(r"^\d{4,12}$")


class SignatureRefused(Forbidden):
    """A wrong password or PIN. The count of failures is written once the refused request has rolled back
    (casino/exceptions.py calls :meth:`after_rollback`), so a refusal never writes anything else."""

    def __init__(self, message: str, *, requester: Any, signer: str, field: str) -> None:
        super().__init__(message, code="signature_refused", field=field)
        self.requester, self.signer = requester, signer

    def after_rollback(self) -> None:
        with transaction.atomic():
            signature_failure_record(requester=self.requester, signer=self.signer, field=self.field or "")


class SignatureLocked(DomainError):
    status = 429
    default_code = "signature_locked"

    def __init__(self, message: str, *, field: str, seconds: int) -> None:
        super().__init__(message, field=field)
        self.retry_after = seconds


def _who(profile: StaffProfile) -> str:
    return f"{profile.display_name} ({profile.user.get_username()})"


def signed_by(given: Any, *, actor: Any, field: str, roles: tuple[Role, ...] = ()) -> StaffProfile:
    """The member of staff who signs ``field``, once they have proved it is them; with ``roles``, one of
    them (admins hold all). ``actor`` is the person signed in: they sign with their session."""
    if not isinstance(given, Mapping) or not isinstance(given.get("username"), str) or not given["username"].strip():
        raise InvalidInput(gettext("%(field)s must name who signs: a username, and a password or a PIN") % {"field": field},
                           code="signature_required", field=field)
    username = given["username"].strip()
    password, pin = given.get("password"), given.get("pin")
    if password not in (None, "") and pin not in (None, ""):
        raise InvalidInput(gettext("%(field)s: sign with a password or a PIN, not both") % {"field": field}, code="bad_signature", field=field)
    secret = password if password not in (None, "") else pin
    is_actor = getattr(actor, "pk", None) is not None and username == actor.get_username()
    profile = StaffProfile.objects.select_related("user").filter(user__username=username).first()
    if secret in (None, ""):
        if not is_actor:
            raise InvalidInput(gettext("%(field)s: %(username)s signs with their password or PIN (only the person signed in signs without one)") % {"field": field, "username": username}, code="signature_secret_required", field=field)
        if profile is None:
            raise InvalidInput(gettext("%(field)s: %(username)s has no staff profile to sign with") % {"field": field, "username": username}, code="unknown_signer",
                               field=field)
    else:
        until = signature_locked_until(requester=actor, signer=username)
        if until is not None:
            seconds = retry_after(until)
            minutes = max(1, seconds // 60)
            raise SignatureLocked(ngettext("%(field)s: too many wrong passwords or PINs for %(username)s from this "
                                           "account: try again in %(minutes)d minute, or ask a supervisor to unlock it",
                                           "%(field)s: too many wrong passwords or PINs for %(username)s from this "
                                           "account: try again in %(minutes)d minutes, or ask a supervisor to unlock it",
                                           minutes) % {"field": field, "username": username, "minutes": minutes},
                                  field=field, seconds=seconds)
        if not isinstance(secret, str) or not _proves(profile, password=password, pin=pin):
            raise SignatureRefused(gettext("%(field)s: the password or PIN of %(username)s is wrong")
                                   % {"field": field, "username": username}, requester=actor,
                                   signer=username, field=field)
        signature_success_record(requester=actor, signer=username)
    assert profile is not None
    if not profile.user.is_active:
        raise InvalidInput(gettext("%(field)s: %(username)s may no longer sign") % {"field": field, "username": username}, code="inactive_signer", field=field)
    if roles and not has_role(profile.user, *roles):
        wanted = gettext(" or ").join(str(ROLE_WORDS.get(r, r.value)) for r in roles)
        raise InvalidInput(gettext("%(field)s: %(profile)s is not %(wanted)s") % {"field": field, "profile": _who(profile), "wanted": wanted}, code="signer_role", field=field)
    return profile


def _proves(profile: StaffProfile | None, *, password: Any, pin: Any) -> bool:
    if profile is None:
        make_password(str(password or pin))  # as slow as a real check: no telling who exists by the time taken
        return False
    if password not in (None, ""):
        return profile.user.check_password(password)
    return bool(profile.pin_hash) and check_password(pin, profile.pin_hash)


def distinct(*named: tuple[str, StaffProfile]) -> None:
    """Refuse one person signing twice where two (or three) independent signatures are required: people,
    not the words that name them, are compared."""
    seen: dict[int, str] = {}
    for field, profile in named:
        if profile.user_id in seen:
            raise InvalidInput(
                gettext("%(field)s and %(user_id)s must be two different people") % {"field": field, "user_id": seen[profile.user_id]}, code="same_signer", field=field
            )
        seen[profile.user_id] = field


def submitter_signs(actor: Any, *signers: StaffProfile | None) -> None:
    """The person signed in is always one of the people who sign what they submit: nobody records a
    document signed by others alone."""
    if not any(s is not None and s.user_id == actor.pk for s in signers):
        raise Forbidden(gettext("you must be one of the people who sign this"), code="submitter_not_signer")


# -- the signing PIN --------------------------------------------------------------------------------


def pin_check(pin: Any, *, field: str = "pin") -> str:
    if not isinstance(pin, str) or not PIN_PATTERN.match(pin):
        raise InvalidInput(gettext("%(field)s must be 4 to 12 digits") % {"field": field}, code="bad_pin", field=field)
    if len(set(pin)) == 1 or pin in "0123456789012" or pin in "9876543210987":
        raise InvalidInput(gettext("%(field)s is too easy to guess (one digit repeated, or a run)") % {"field": field}, code="weak_pin", field=field)
    return pin


@transaction.atomic
def staff_pin_set(*, actor: Any, password: Any, pin: Any) -> StaffProfile:
    """The person signed in sets their own signing PIN, proving it is them with their password."""
    if not isinstance(password, str) or not password:
        raise InvalidInput(gettext("password: your password proves it is you setting your PIN"), code="password_required",
                           field="password")
    profile = signed_by({"username": actor.get_username(), "password": password}, actor=actor, field="password")
    pin = pin_check(pin)
    had = bool(profile.pin_hash)
    StaffProfile.objects.filter(pk=profile.pk).update(pin_hash=make_password(pin))
    profile.refresh_from_db()
    audit_log(actor=actor, action="staff.pin_set", object_type="staff", object_id=profile.pk,
              before={"pin": had}, after={"pin": True})
    return profile
