"""Row locks, always taken through here and always in the same order (table before round)
so that two services never wait on each other in opposite orders.

Every dealer request locks its round, so :func:`lock_round` is written in SQL once
(casino/core/sql.py) rather than built by the ORM each time.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from casino.core import sql
from casino.errors import NotFound
from tables.models import Round, Table

ANSWER_USER_FIELDS = ("id", "username")  # what an answer shows of the round's dealer


def lock_table(table_id: int) -> Table:
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:  # an id from a request: a clear 404, never a DoesNotExist 500
        raise NotFound(f"no table {table_id}", code="unknown_table", field="table")
    return table


def lock_round(round_id: int) -> Round:
    """The round, locked after its table; the table and the dealer (id and username) come with it.
    Only the round's row is locked by the second statement: locking the joined dealer would make
    nothing safer, and locking the shift would make every table's rounds wait on the one shift."""
    user = get_user_model()
    row = sql.fetch_one(
        f"SELECT {sql.columns(Table, 't')} FROM {sql.table(Table)} t "
        f"WHERE t.id = (SELECT r.table_id FROM {sql.table(Round)} r WHERE r.id = %s){sql.for_update()}",
        [round_id])
    if row is None:
        raise NotFound(f"no round {round_id}", code="unknown_round")
    table = sql.instance(Table, row)
    row = sql.fetch_one(
        f"SELECT {sql.columns(Round, 'r')}, {sql.columns(user, 'u', ANSWER_USER_FIELDS)} "
        f"FROM {sql.table(Round)} r JOIN {sql.table(user)} u ON u.id = r.dealer_id "
        f"WHERE r.id = %s{sql.for_update(of='r')}",
        [round_id])
    if row is None:  # gone between the two statements: rounds are never deleted, but say it clearly
        raise NotFound(f"no round {round_id}", code="unknown_round")
    rnd = sql.instance(Round, row)
    rnd.table = table
    rnd.dealer = sql.instance(user, row, sql.width(Round), ANSWER_USER_FIELDS)
    return rnd
