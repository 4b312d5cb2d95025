"""SQL for the invariants the database itself enforces (append-only tables, balanced ledger).

Written for PostgreSQL (production and tests) and SQLite (the embedded default), so the same
guarantees hold wherever the service runs.
"""

from __future__ import annotations

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
            # TRUNCATE is refused too, except in a session that says it is the test suite's teardown
            # (pytest-django empties tables between transactional tests with TRUNCATE).
            f"""CREATE OR REPLACE FUNCTION {fn}_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF current_setting('croupier.test_teardown', true) = 'on' THEN RETURN NULL; END IF;
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


def run(schema_editor: BaseDatabaseSchemaEditor, statements: list[str]) -> None:
    for sql in statements:
        schema_editor.execute(sql, params=None)  # None: the SQL holds literal % (RAISE formats)
