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


def as_owner(*statements: tuple[str, Sequence[Any]] | str, triggers_off: Sequence[str] = ()) -> None:
    """Run ``statements`` as the tables' owner, committed; with ``triggers_off``, those tables' triggers
    are disabled around them (what only the owner, never the service, can do)."""
    sd = connection.settings_dict
    off = [f"ALTER TABLE {t} DISABLE TRIGGER USER" for t in triggers_off]
    on = [f"ALTER TABLE {t} ENABLE TRIGGER USER" for t in triggers_off]
    # foreign keys checked at once: a deferred check still pending would stop ALTER TABLE … ENABLE TRIGGER
    _run(owner_conninfo(sd, sd["NAME"]), ["SET CONSTRAINTS ALL IMMEDIATE", *off, *statements, *on])


def as_service(*statements: tuple[str, Sequence[Any]] | str) -> None:
    """Run ``statements`` as the service role, in a connection of its own, committed."""
    sd = connection.settings_dict
    _run({**privileged_conninfo(sd, sd["NAME"]), "user": sd["USER"]}, statements)
