"""SQL for the invariants the database itself enforces (append-only tables, guarded updates, balanced ledger).

Written for PostgreSQL (production and tests) and SQLite (the embedded default), so the same
guarantees hold wherever the service runs. No guard has a switch: no setting, session variable or
flag turns one off. Only the tables' owner (migrations) could drop or disable a trigger, and the
service never connects as the owner (casino/core/dbroles.py, docs/operations.md).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def append_only_sql(table: str, vendor: str, *, what: str) -> list[str]:
    """Triggers that refuse UPDATE and DELETE (and TRUNCATE on PostgreSQL) of ``table``."""
    if vendor == "postgresql":
        fn = f"{table}_append_only"
        return [
            f"""CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  RAISE EXCEPTION '{what} are append-only: % refused on {table}', TG_OP
                    USING ERRCODE = 'integrity_constraint_violation';
                END $$;""",
            # TRUNCATE is refused too, whoever asks
            f"""CREATE OR REPLACE FUNCTION {fn}_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  RAISE EXCEPTION '{what} are append-only: TRUNCATE refused on {table}'
                    USING ERRCODE = 'integrity_constraint_violation';
                END $$;""",
            f"CREATE TRIGGER {fn}_row BEFORE UPDATE OR DELETE ON {table} FOR EACH ROW EXECUTE FUNCTION {fn}();",
            f"CREATE TRIGGER {fn}_truncate BEFORE TRUNCATE ON {table} FOR EACH STATEMENT EXECUTE FUNCTION {fn}_truncate();",
        ]
    return [
        f"""CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
            BEGIN SELECT RAISE(ABORT, '{what} are append-only: UPDATE refused on {table}'); END;""",
        f"""CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
            BEGIN SELECT RAISE(ABORT, '{what} are append-only: DELETE refused on {table}'); END;""",
    ]


def drop_append_only_sql(table: str, vendor: str) -> list[str]:
    if vendor == "postgresql":
        fn = f"{table}_append_only"
        return [f"DROP TRIGGER IF EXISTS {fn}_row ON {table};", f"DROP TRIGGER IF EXISTS {fn}_truncate ON {table};",
                f"DROP FUNCTION IF EXISTS {fn}();", f"DROP FUNCTION IF EXISTS {fn}_truncate();"]
    return [f"DROP TRIGGER IF EXISTS {table}_no_update;", f"DROP TRIGGER IF EXISTS {table}_no_delete;"]


def changed(vendor: str, *columns: str) -> str:
    """SQL true when an UPDATE changes any of ``columns`` (NULL-safe)."""
    op = "IS DISTINCT FROM" if vendor == "postgresql" else "IS NOT"
    return "(" + " OR ".join(f"NEW.{c} {op} OLD.{c}" for c in columns) + ")"


def guard_sql(table: str, vendor: str, *, name: str, condition: str, message: str,
              events: str = "UPDATE") -> list[str]:
    """A row trigger on ``table`` that refuses ``events`` (e.g. ``"INSERT"``, ``"UPDATE"``) when ``condition``
    holds (SQL over NEW/OLD in the vendor's dialect). ``message`` must hold no quote."""
    trigger = f"{table}_{name}"
    if vendor == "postgresql":
        return [
            f"""CREATE OR REPLACE FUNCTION {trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF {condition} THEN
                    RAISE EXCEPTION '{message}: % refused on {table}', TG_OP
                      USING ERRCODE = 'integrity_constraint_violation';
                  END IF;
                  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
                  RETURN NEW;
                END $$;""",
            f"DROP TRIGGER IF EXISTS {trigger} ON {table};",
            f"CREATE TRIGGER {trigger} BEFORE {events.replace(',', ' OR ')} ON {table} FOR EACH ROW "
            f"EXECUTE FUNCTION {trigger}();",
        ]
    return [
        f"DROP TRIGGER IF EXISTS {trigger}_{event.strip().lower()};" for event in events.split(",")
    ] + [
        f"""CREATE TRIGGER {trigger}_{event.strip().lower()} BEFORE {event.strip()} ON {table} FOR EACH ROW
            WHEN {condition} BEGIN SELECT RAISE(ABORT, '{message}: {event.strip()} refused on {table}'); END;"""
        for event in events.split(",")
    ]


def drop_guard_sql(table: str, vendor: str, *, name: str, events: str = "UPDATE") -> list[str]:
    trigger = f"{table}_{name}"
    if vendor == "postgresql":
        return [f"DROP TRIGGER IF EXISTS {trigger} ON {table};", f"DROP FUNCTION IF EXISTS {trigger}();"]
    return [f"DROP TRIGGER IF EXISTS {trigger}_{event.strip().lower()};" for event in events.split(",")]


def never_deleted_sql(table: str, vendor: str, *, what: str) -> list[str]:
    """Refuse DELETE (and, on PostgreSQL, TRUNCATE) of ``table``: rows whose updates other guards govern."""
    statements = guard_sql(table, vendor, name="never_deleted", condition="TRUE" if vendor == "postgresql" else "1",
                           message=f"{what} are never deleted", events="DELETE")
    if vendor == "postgresql":
        fn = f"{table}_never_truncated"
        statements += [
            f"""CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  RAISE EXCEPTION '{what} are never deleted: TRUNCATE refused on {table}'
                    USING ERRCODE = 'integrity_constraint_violation';
                END $$;""",
            f"DROP TRIGGER IF EXISTS {fn} ON {table};",
            f"CREATE TRIGGER {fn} BEFORE TRUNCATE ON {table} FOR EACH STATEMENT EXECUTE FUNCTION {fn}();",
        ]
    return statements


def drop_never_deleted_sql(table: str, vendor: str) -> list[str]:
    statements = drop_guard_sql(table, vendor, name="never_deleted", events="DELETE")
    if vendor == "postgresql":
        fn = f"{table}_never_truncated"
        statements += [f"DROP TRIGGER IF EXISTS {fn} ON {table};", f"DROP FUNCTION IF EXISTS {fn}();"]
    return statements


def run(schema_editor: BaseDatabaseSchemaEditor, statements: list[str]) -> None:
    for sql in statements:
        schema_editor.execute(sql, params=None)  # None: the SQL holds literal % (RAISE formats)


def sqlite_table_remake(table: str) -> tuple[Any, Any]:
    """Two migration operations to put around the operations that make SQLite rebuild ``table`` (a column it
    cannot ALTER in, a constraint): the first keeps the table's own triggers and lets the rename at the end
    of the rebuild pass the triggers of other tables that name it (``legacy_alter_table``); the second
    puts the table's triggers back (dropping the old table dropped them). Nothing on PostgreSQL."""
    kept: list[str] = []

    def before(apps: Any, schema_editor: BaseDatabaseSchemaEditor) -> None:
        if schema_editor.connection.vendor != "sqlite":
            return
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [table])
            kept[:] = [row[0] for row in cursor.fetchall()]
            cursor.execute("PRAGMA legacy_alter_table = ON")

    def after(apps: Any, schema_editor: BaseDatabaseSchemaEditor) -> None:
        if schema_editor.connection.vendor != "sqlite":
            return
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("PRAGMA legacy_alter_table = OFF")
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [table])
            present = {row[0] for row in cursor.fetchall()}
        for sql in kept:
            name = sql.split()[2]  # CREATE TRIGGER <name> …
            if name not in present:
                schema_editor.execute(sql, params=None)

    return (migrations.RunPython(before, migrations.RunPython.noop, elidable=False),
            migrations.RunPython(after, migrations.RunPython.noop, elidable=False))
