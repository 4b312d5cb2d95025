"""Row locks, always taken through here and always in the same order (table before round)
so that two services never wait on each other in opposite orders."""

from __future__ import annotations

from django.db.models import Subquery

from casino.errors import NotFound
from tables.models import Round, Table


def lock_table(table_id: int) -> Table:
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:  # an id from a request: a clear 404, never a DoesNotExist 500
        raise NotFound(f"no table {table_id}", code="unknown_table", field="table")
    return table


def lock_round(round_id: int) -> Round:
    # the round's table first, found and locked in one statement
    table = Table.objects.select_for_update().filter(
        pk=Subquery(Round.objects.filter(pk=round_id).values("table_id")[:1])).first()
    if table is None:
        raise NotFound(f"no round {round_id}", code="unknown_round")
    # of=("self",): lock the round only; locking the joined shift row too would make every table's
    # rounds wait for each other on the one open shift
    # the dealer rides along for the answer the API builds from this instance
    return Round.objects.select_for_update(of=("self",)).select_related("table", "shift", "dealer").get(pk=round_id)
