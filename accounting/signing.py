"""Who may sign and write what: the signatures the accounting services take are bound to a role and to a
place, and every accounting write to the writer's pits (docs/accounting.md, "Signing").

* **The table's dealer** is a dealer assigned to that table in that shift (one relieved from it within the
  shift still is: they dealt it). Any other dealer is refused, in words naming the table.
* **The cage** is a cage cashier (the ``cashier`` role): a pit manager, an accountant or a dealer never signs
  for it.
* **Counters** are the count team (the ``count_team`` role).
* **Scope**: pit managers write for the tables of their pits; cashiers, the count team and accountants for
  the whole floor; another pit's record is answered as the reads answer it, as if it did not exist.

Every service checks its signers here, after proving who they are (casino/signatures.py), so the rule is
written once. Admins hold every role but are bound to places like anyone: an admin is never "the table's
dealer" unless assigned there.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from casino.core.models import StaffProfile
from casino.core.roles import Role, has_role
from casino.errors import Forbidden, NotFound
from casino.signatures import signed_by
from tables.access import manages_table
from tables.models import Assignment, Shift, Table

FLOOR_WIDE = (Role.CASHIER, Role.COUNT_TEAM, Role.ACCOUNTANT)  # write for every table (admins hold all roles)


def table_name(table: Table) -> str:
    return table.name or table.code


def table_dealer(given: Any, *, actor: Any, table: Table, shift: Shift, field: str = "dealer") -> StaffProfile:
    """The dealer who signs for ``table`` in ``shift``: a dealer assigned to it in that shift, relieved since
    or not. Anyone else is refused (403 ``not_the_tables_dealer``)."""
    return bind_table_dealer(signed_by(given, actor=actor, field=field, roles=(Role.DEALER,)), table=table,
                             shift=shift, field=field)


def bind_table_dealer(profile: StaffProfile, *, table: Table, shift: Shift, field: str = "dealer") -> StaffProfile:
    """:func:`table_dealer` for a dealer whose signature is already proved (two signers checked as two people
    first)."""
    if not Assignment.objects.filter(dealer_id=profile.user_id, table_id=table.pk, shift_id=shift.pk).exists():
        raise Forbidden(
            gettext("%(field)s: %(user)s is not the dealer at %(table)s in this shift: the dealer assigned to the table signs for it")
                % {"field": field, "user": profile.user.get_username(), "table": table_name(table)},
            code="not_the_tables_dealer", field=field,
        )
    return profile


def cage_cashier(given: Any, *, actor: Any, field: str = "signer") -> StaffProfile:
    """The cage's signature: a cage cashier (400 ``signer_role`` otherwise, naming the person)."""
    return signed_by(given, actor=actor, field=field, roles=(Role.CASHIER,))


def counter(given: Any, *, actor: Any, field: str) -> StaffProfile:
    """A counter of the soft count: a member of the count team."""
    return signed_by(given, actor=actor, field=field, roles=(Role.COUNT_TEAM,))


def floor_wide(user: Any) -> bool:
    """Cashiers, the count team, accountants and admins act for every table."""
    return has_role(user, *FLOOR_WIDE)


def writes_for(user: Any, table: Table) -> bool:
    return floor_wide(user) or manages_table(user, table)


def ensure_writes_table(user: Any, table: Table) -> None:
    """A pit manager writes only for the tables of their pits: another pit's table is answered as the reads
    answer it, as no table (404 ``unknown_table``)."""
    if not writes_for(user, table):
        raise NotFound(gettext("no table %(pk)s") % {"pk": table.pk}, code="unknown_table", field="table")


def ensure_writes_record(user: Any, table: Table, *, what: str, pk: Any, code: str) -> None:
    """The same for a record of a table (a marker, a slip): another pit's is "no marker 7", exactly as a
    number that does not exist, so nothing about it (what is left to pay…) is told."""
    if not writes_for(user, table):
        raise NotFound(gettext("no %(what)s %(pk)s") % {"what": what, "pk": pk}, code=code)


def ensure_cashier(user: Any, *, doing: str) -> None:
    if not has_role(user, Role.CASHIER):
        raise Forbidden(gettext("%(doing)s is the cage's: a cage cashier does it")
            % {"doing": doing}, code="cashier_required")
