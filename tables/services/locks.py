"""Row locks, always taken through here and always in the same order (table before round)
so that two services never wait on each other in opposite orders.

Every dealer request locks its round, so :func:`lock_round` is written in SQL once
(casino/core/sql.py) rather than built by the ORM each time.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext

from casino.core import sql
from casino.errors import NotFound
from tables.access import assignment_of, assignment_statement, deals_by_assignment, remember_assignment
from tables.models import Round, Shift, Table

ANSWER_USER_FIELDS = ("id", "username")  # what an answer shows of the round's dealer


def lock_table(table_id: int, *, actor: Any = None) -> Table:
    """The table, locked; for an ``actor`` who deals by their assignment, that assignment is read in the same
    round trip (remembered for the request's ``ensure_can_deal``, as :func:`lock_round` does)."""
    statements = [f"SELECT {sql.columns(Table, 't')} FROM {sql.table(Table)} t WHERE t.id = %s{sql.for_update()}"]
    params: list[Any] = [table_id]
    dealer = actor is not None and deals_by_assignment(actor)
    if dealer:
        statement, assignment_params = assignment_statement()
        statements.append(statement)
        params += assignment_params(actor.pk, table_id)
    rows = sql.fetch_each(statements, params)
    if rows[0] is None:  # an id from a request: a clear 404, never a DoesNotExist 500
        raise NotFound(gettext("no table %(table)s") % {"table": table_id}, code="unknown_table", field="table")
    table = sql.instance(Table, rows[0])
    if dealer:
        remember_assignment(actor, table.pk, assignment_of(rows[1]))
    return table


def lock_round(round_id: int, *, actor: Any = None) -> Round:
    """The round, locked after its table; the table and the dealer (id and username) come with it.
    The round's shift comes with it too (a settlement posts in it). Only the round's row is locked by the second
    statement: locking the joined dealer would make nothing safer, and locking the shift would make every table's
    rounds wait on the one shift.

    One round trip: the two locks (in that order: the statements run one after the other) and, for an
    ``actor`` who deals by their assignment, the assignment that lets them act (remembered for the
    request's ``ensure_can_deal``) go to PostgreSQL in one query string."""
    user = get_user_model()
    statements = [
        f"SELECT {sql.columns(Table, 't')} FROM {sql.table(Table)} t "
        f"WHERE t.id = (SELECT r.table_id FROM {sql.table(Round)} r WHERE r.id = %s){sql.for_update()}",
        f"SELECT {sql.columns(Round, 'r')}, {sql.columns(user, 'u', ANSWER_USER_FIELDS)}, {sql.columns(Shift, 's')} "
        f"FROM {sql.table(Round)} r JOIN {sql.table(user)} u ON u.id = r.dealer_id "
        f"JOIN {sql.table(Shift)} s ON s.id = r.shift_id WHERE r.id = %s{sql.for_update(of='r')}",
    ]
    params: list[Any] = [round_id, round_id]
    dealer = actor is not None and deals_by_assignment(actor)
    if dealer:
        statement, assignment_params = assignment_statement(f"(SELECT r.table_id FROM {sql.table(Round)} r WHERE r.id = %s)")
        statements.append(statement)
        params += assignment_params(actor.pk, round_id)
    rows = sql.fetch_each(statements, params)
    if rows[0] is None:
        raise NotFound(gettext("no round %(round)s") % {"round": round_id}, code="unknown_round")
    table = sql.instance(Table, rows[0])
    row = rows[1]
    if row is None:  # gone between the two statements: rounds are never deleted, but say it clearly
        raise NotFound(gettext("no round %(round)s") % {"round": round_id}, code="unknown_round")
    rnd = sql.instance(Round, row)
    rnd.table = table
    rnd.dealer = sql.instance(user, row, sql.width(Round), ANSWER_USER_FIELDS)
    rnd.shift = sql.instance(Shift, row, sql.width(Round) + sql.width(user, ANSWER_USER_FIELDS))
    if dealer:
        remember_assignment(actor, table.pk, assignment_of(rows[2]))
    return rnd
