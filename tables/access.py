"""Who may act on which table. Used by services (the rule) and by API permissions (early 403)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from casino.context import current
from casino.core import sql
from casino.core.roles import Role, has_role, roles_of
from casino.errors import Forbidden
from tables.models import Assignment, Shift, ShiftStatus, Table


def current_assignment(user: Any, table: Table) -> Assignment | None:
    # The API checks it before the service does: one query per request, remembered for that request
    # only (the request's context object is part of the key; jobs and commands never reuse it).
    ctx = current()
    memo = user.__dict__.get("_croupier_assignment")
    if memo is not None and memo[0] is ctx and memo[1] == table.pk:
        return memo[2]
    assignment = _assignment_now(user.pk, table.pk)
    remember_assignment(user, table.pk, assignment)
    return assignment


def remember_assignment(user: Any, table_id: int, assignment: Assignment | None) -> None:
    """What :func:`current_assignment` answers for ``user`` at the table for the rest of this request (a
    service that read it with its locks, ``tables.services.locks.lock_round``)."""
    ctx = current()
    if ctx.channel in ("api", "web"):
        user.__dict__["_croupier_assignment"] = (ctx, table_id, assignment)


def assignment_statement(table: str = "%s") -> tuple[str, Any]:
    """The statement that reads a dealer's assignment now (``table``: the table's id, or an expression
    that gives it) and the function that makes its parameters from the dealer's id (then the table's,
    for the default ``%s``): every dealer request asks, so it is written once (casino/core/sql.py)."""
    statement = (
        f"SELECT {sql.columns(Assignment, 'a')}, {sql.columns(Shift, 's')} "
        f"FROM {sql.table(Assignment)} a JOIN {sql.table(Shift)} s ON s.id = a.shift_id "
        f"WHERE a.dealer_id = %s AND a.table_id = {table} AND a.starts_at <= %s AND a.ends_at > %s "
        "AND a.relieved_at IS NULL AND s.status = %s ORDER BY a.starts_at DESC LIMIT 1")

    def params(user_id: int, *table_params: Any) -> list[Any]:
        now = sql.moment(timezone.now())
        return [user_id, *table_params, now, now, ShiftStatus.OPEN.value]

    return statement, params


def assignment_of(row: Any) -> Assignment | None:
    """The assignment (its shift with it) of a row of :func:`assignment_statement`, or None."""
    if row is None:
        return None
    assignment = sql.instance(Assignment, row)
    assignment.shift = sql.instance(Shift, row, sql.width(Assignment))
    return assignment


def deals_by_assignment(user: Any) -> bool:
    """Whether :func:`ensure_can_deal` lets ``user`` act by their assignment (a dealer, not a manager of
    every pit): then a service may read the assignment with its locks."""
    return not has_role(user) and Role.DEALER in roles_of(user) and Role.PIT_MANAGER not in roles_of(user)


def _assignment_now(user_id: int, table_id: int) -> Assignment | None:
    """The dealer's assignment to the table now, in an open shift, its shift with it."""
    statement, params = assignment_statement()
    return assignment_of(sql.fetch_one(statement, params(user_id, table_id)))


def manages_table(user: Any, table: Table) -> bool:
    if has_role(user):  # admin
        return True
    return Role.PIT_MANAGER in roles_of(user) and table.pit.managers.filter(pk=user.pk).exists()


def can_view_table(user: Any, table: Table) -> bool:
    if has_role(user, Role.ACCOUNTANT, Role.AUDITOR) or manages_table(user, table):
        return True
    return Role.DEALER in roles_of(user) and current_assignment(user, table) is not None


def ensure_can_deal(user: Any, table: Table) -> None:
    """Dealers act on the table they are assigned to, during that assignment; managers on their pits."""
    if manages_table(user, table):
        return
    if Role.DEALER in roles_of(user):
        if current_assignment(user, table) is None:
            raise Forbidden(gettext("you are not assigned to table %(table)s now") % {"table": table.code}, code="not_assigned")
        return
    raise Forbidden(gettext("only the table's dealer or its pit manager may do this"), code="role_required")


def ensure_manages(user: Any, table: Table) -> None:
    if not manages_table(user, table):
        raise Forbidden(gettext("only a pit manager of %(pit)s may do this") % {"pit": table.pit.name}, code="pit_manager_required")


def runs_the_day(user: Any) -> bool:
    """Who opens the next shift and rolls the tables: a shift manager (or an admin),
    and pit managers too unless the setting ``DAY_RUN_BY`` is ``"shift_manager"`` (docs/accounting.md,
    "The gaming day")."""
    if has_role(user, Role.SHIFT_MANAGER):
        return True
    by = getattr(settings, "CROUPIER", {}).get("DAY_RUN_BY", "pit_manager")
    return by == "pit_manager" and Role.PIT_MANAGER in roles_of(user)


def ensure_runs_the_day(user: Any) -> None:
    if not runs_the_day(user):
        raise Forbidden(gettext("only a shift manager may do this"), code="shift_manager_required")


def runs_the_day_at(user: Any, table: Table) -> bool:
    """A shift manager runs every table; a pit manager (when allowed to run the day) the tables of their pits."""
    if has_role(user, Role.SHIFT_MANAGER):
        return True
    return runs_the_day(user) and manages_table(user, table)
