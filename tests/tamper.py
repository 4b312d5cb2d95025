"""SQL run by someone other than the application: the tables' owner (who holds the migrations' credentials and
can switch a table's triggers off) or the service role itself, in connections of their own.

The application runs as the service role (tests/dbbackend); these connections see only what is committed,
so the tests that use them run with ``transactional_db``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connection

from tests.dbbackend.base import owner_conninfo, privileged_conninfo


def _run(conninfo: dict[str, Any], statements: Sequence[tuple[str, Sequence[Any]] | str]) -> None:
    with psycopg.connect(**conninfo) as conn, conn.cursor() as cursor:
        for statement in statements:
            sql, params = (statement, None) if isinstance(statement, str) else statement
            cursor.execute(sql, params)
        conn.commit()


def _triggers(table: str, switch: str) -> list[str]:
    """``switch`` (ENABLE or DISABLE) the user triggers of ``table`` and, if it is partitioned (the audit records),
    of each partition: PostgreSQL switches the cloned row triggers with the table, not each partition's own."""
    return [f"ALTER TABLE {table} {switch} TRIGGER USER",
            f"""DO $$ DECLARE part regclass; BEGIN
                  FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = '{table}'::regclass LOOP
                    EXECUTE format('ALTER TABLE %s {switch} TRIGGER USER', part);
                  END LOOP; END $$"""]


def as_owner(*statements: tuple[str, Sequence[Any]] | str, triggers_off: Sequence[str] = ()) -> None:
    """Run ``statements`` as the tables' owner, committed; with ``triggers_off``, those tables' triggers
    are disabled around them (what only the owner, never the service, can do)."""
    sd = connection.settings_dict
    off = [statement for t in triggers_off for statement in _triggers(t, "DISABLE")]
    on = [statement for t in triggers_off for statement in _triggers(t, "ENABLE")]
    # foreign keys checked at once: a deferred check still pending would stop ALTER TABLE … ENABLE TRIGGER
    _run(owner_conninfo(sd, sd["NAME"]), ["SET CONSTRAINTS ALL IMMEDIATE", *off, *statements, *on])


def as_service(*statements: tuple[str, Sequence[Any]] | str) -> None:
    """Run ``statements`` as the service role, in a connection of its own, committed."""
    sd = connection.settings_dict
    _run({**privileged_conninfo(sd, sd["NAME"]), "user": sd["USER"]}, statements)
