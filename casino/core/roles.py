"""Staff roles. A role is a Django group of the same name; a superuser is an admin.

dealer: deals the table they are assigned to, during that assignment only.
pit_manager: runs the pits they manage (tables, shifts, assignments, voids, counts).
shift_manager: held with pit_manager: runs the gaming day over every pit (opens the next shift, rolls every
  table, reopens a table's close); with the setting DAY_RUN_BY = "pit_manager" pit managers may too.
accountant: reads everything financial and exports reports.
cashier: the cage (fill bank): issues fills and receives credits for every table, takes marker payments at the
    cage; signs for the cage, never as a table's dealer or a pit's supervisor.
count_team: counts the drop boxes (the soft count) of every table, each count signed by two of them.
auditor: reads the audit trail.
compliance: reads the cash transaction log and its reports (players/, docs/players.md).
admin: everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext_lazy as _


class Role(StrEnum):
    DEALER = "dealer"
    PIT_MANAGER = "pit_manager"
    SHIFT_MANAGER = "shift_manager"
    ACCOUNTANT = "accountant"
    AUDITOR = "auditor"
    COMPLIANCE = "compliance"
    CASHIER = "cashier"
    COUNT_TEAM = "count_team"
    ADMIN = "admin"


# each role as a person reads it (the screens, the audit trail): the one place a role's code is worded
ROLE_LABELS = {
    Role.DEALER: _("Dealer"),
    Role.PIT_MANAGER: _("Pit manager"),
    Role.SHIFT_MANAGER: _("Shift manager"),
    Role.ACCOUNTANT: _("Accountant"),
    Role.AUDITOR: _("Auditor"),
    Role.COMPLIANCE: _("Compliance officer"),
    Role.CASHIER: _("Cashier"),
    Role.COUNT_TEAM: _("Count team"),
    Role.ADMIN: _("Administrator"),
}


def role_label(code: object) -> str:
    """A role's code (``pit_manager``) as a person reads it (``Pit manager``); an unknown code unchanged."""
    try:
        return str(ROLE_LABELS[Role(str(code))])
    except ValueError:
        return str(code or "")


def roles_of(user: AbstractBaseUser | AnonymousUser | None) -> frozenset[Role]:
    """The user's roles, cached on the user object for the request."""
    if user is None or not user.is_authenticated or not user.is_active:
        return frozenset()
    cached = getattr(user, "_croupier_roles", None)
    if cached is None:
        cached = remember_roles(user, user.groups.values_list("name", flat=True))  # type: ignore[attr-defined]  # the project's user model has groups (PermissionsMixin)
    return cached


def remember_roles(user: AbstractBaseUser, group_names: Iterable[str | None]) -> frozenset[Role]:
    """Cache the roles of ``user`` (for this request) from the names of its groups, read by the caller:
    the API's token check reads them with the token, in one query."""
    names = set(group_names)
    roles = frozenset(r for r in Role if r.value in names)
    if user.is_superuser:  # type: ignore[attr-defined]  # PermissionsMixin, as above
        roles |= {Role.ADMIN}
    user._croupier_roles = roles  # type: ignore[attr-defined]
    return roles


def has_role(user: AbstractBaseUser | AnonymousUser | None, *roles: Role) -> bool:
    held = roles_of(user)
    return Role.ADMIN in held or any(r in held for r in roles)


def primary_role(user: AbstractBaseUser | AnonymousUser | None) -> str:
    """The role named in audit records: the most powerful one held."""
    held = roles_of(user)
    for role in (Role.ADMIN, Role.SHIFT_MANAGER, Role.PIT_MANAGER, Role.ACCOUNTANT, Role.CASHIER, Role.COUNT_TEAM,
                 Role.COMPLIANCE, Role.AUDITOR, Role.DEALER):
        if role in held:
            return role.value
    return "system" if user is None else "none"
