"""The database's own record of privileged changes (``core_privilegedchange``): triggers on a user's
``is_superuser``, ``is_staff`` and ``is_active``, a signing PIN's hash, a pit's managers and a progressive's
amount and reset value write a row for every change, whoever makes it. On PostgreSQL the triggers' function
runs as the owner (``SECURITY DEFINER``) and the service may only read the table (casino/core/dbroles.py,
``OWNER_WRITES``); the rows are append-only on both databases."""

from django.db import migrations, models

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql

LOG = "core_privilegedchange"
# (table, what identifies the row, [(column, how its value is written down)]); a PIN's hash is never copied
WATCHED_UPDATES = [
    ("auth_user", "id", [("is_superuser", "value"), ("is_staff", "value"), ("is_active", "value")]),
    ("core_staffprofile", "id", [("pin_hash", "secret")]),
    ("slots_progressive", "id", [("amount", "value"), ("reset_value", "value")]),
]
MANAGERS = "tables_pit_managers"  # a pit's managers: a row added, changed or removed


def _pg_value(row: str, column: str, how: str) -> str:
    if how == "secret":
        return f"CASE WHEN {row}.{column} = '' THEN 'none' ELSE 'a PIN' END"
    return f"{row}.{column}::text"


def _pg(schema_editor) -> None:
    run = schema_editor.execute
    insert = (f"INSERT INTO {LOG} (at, db_user, txid, \"table\", row_id, \"column\", before, after) "
              "VALUES (clock_timestamp(), session_user, txid_current(), TG_TABLE_NAME, {row_id}, {column}, {before}, "
              "{after});")
    for table, key, columns in WATCHED_UPDATES:
        body = []
        for column, how in columns:
            before, after = _pg_value("OLD", column, how), _pg_value("NEW", column, how)
            if how == "secret":
                after = f"CASE WHEN NEW.{column} = '' THEN 'none' ELSE 'a new PIN' END"
            body.append(f"IF NEW.{column} IS DISTINCT FROM OLD.{column} THEN "
                        + insert.format(row_id=f"OLD.{key}::text", column=f"'{column}'", before=before, after=after)
                        + " END IF;")
        fn = f"{table}_privileged_change"
        run(f"""CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql
                SECURITY DEFINER SET search_path = public, pg_temp AS $$
                BEGIN
                  {' '.join(body)}
                  RETURN NULL;
                END $$;""", params=None)
        run(f"DROP TRIGGER IF EXISTS {fn} ON {table};", params=None)
        run(f"CREATE TRIGGER {fn} AFTER UPDATE ON {table} FOR EACH ROW EXECUTE FUNCTION {fn}();", params=None)
    fn = f"{MANAGERS}_privileged_change"
    run(f"""CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql
            SECURITY DEFINER SET search_path = public, pg_temp AS $$
            BEGIN
              IF TG_OP IN ('DELETE', 'UPDATE') THEN
                {insert.format(row_id="OLD.pit_id::text", column="'manager'", before="OLD.user_id::text", after="''")}
              END IF;
              IF TG_OP IN ('INSERT', 'UPDATE') THEN
                {insert.format(row_id="NEW.pit_id::text", column="'manager'", before="''", after="NEW.user_id::text")}
              END IF;
              RETURN NULL;
            END $$;""", params=None)
    run(f"DROP TRIGGER IF EXISTS {fn} ON {MANAGERS};", params=None)
    run(f"CREATE TRIGGER {fn} AFTER INSERT OR UPDATE OR DELETE ON {MANAGERS} FOR EACH ROW EXECUTE FUNCTION {fn}();",
        params=None)


def _sqlite_value(row: str, column: str, how: str, *, new: bool = False) -> str:
    if how == "secret":
        return f"CASE WHEN {row}.{column} = '' THEN 'none' ELSE '{'a new PIN' if new else 'a PIN'}' END"
    return f"CAST({row}.{column} AS TEXT)"


def _sqlite(schema_editor) -> None:
    run = schema_editor.execute
    insert = (f"INSERT INTO {LOG} (at, db_user, txid, \"table\", row_id, \"column\", before, after) "
              "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now'), 'sqlite', NULL, '{table}', {row_id}, {column}, {before}, "
              "{after}")
    for table, key, columns in WATCHED_UPDATES:
        for column, how in columns:
            name = f"{table}_{column}_privileged_change"
            run(f"DROP TRIGGER IF EXISTS {name};", params=None)
            run(f"""CREATE TRIGGER {name} AFTER UPDATE OF {column} ON {table}
                    WHEN NEW.{column} IS NOT OLD.{column}
                    BEGIN {insert.format(table=table, row_id=f"CAST(OLD.{key} AS TEXT)", column=f"'{column}'",
                                         before=_sqlite_value("OLD", column, how),
                                         after=_sqlite_value("NEW", column, how, new=True))}; END;""", params=None)
    for event, row, before, after in (("INSERT", "NEW", "''", "CAST(NEW.user_id AS TEXT)"),
                                      ("DELETE", "OLD", "CAST(OLD.user_id AS TEXT)", "''")):
        name = f"{MANAGERS}_{event.lower()}_privileged_change"
        run(f"DROP TRIGGER IF EXISTS {name};", params=None)
        run(f"""CREATE TRIGGER {name} AFTER {event} ON {MANAGERS}
                BEGIN {insert.format(table=MANAGERS, row_id=f"CAST({row}.pit_id AS TEXT)", column="'manager'",
                                     before=before, after=after)}; END;""", params=None)
    run(f"DROP TRIGGER IF EXISTS {MANAGERS}_update_privileged_change;", params=None)
    run(f"""CREATE TRIGGER {MANAGERS}_update_privileged_change AFTER UPDATE ON {MANAGERS}
            BEGIN {insert.format(table=MANAGERS, row_id="CAST(NEW.pit_id AS TEXT)", column="'manager'",
                                 before="CAST(OLD.user_id AS TEXT)", after="CAST(NEW.user_id AS TEXT)")}; END;""",
        params=None)


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in append_only_sql(LOG, vendor, what="privileged change records"):
        schema_editor.execute(statement, params=None)
    if vendor == "postgresql":
        _pg(schema_editor)
    else:
        _sqlite(schema_editor)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        for table, _, _ in [*WATCHED_UPDATES, (MANAGERS, None, None)]:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_privileged_change ON {table};", params=None)
            schema_editor.execute(f"DROP FUNCTION IF EXISTS {table}_privileged_change();", params=None)
    else:
        for table, _, columns in WATCHED_UPDATES:
            for column, _ in columns:
                schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_{column}_privileged_change;", params=None)
        for event in ("insert", "update", "delete"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {MANAGERS}_{event}_privileged_change;", params=None)
    for statement in drop_append_only_sql(LOG, vendor):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0007_role_groups"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("tables", "0001_initial"),
        ("slots", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="PrivilegedChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("at", models.DateTimeField()),
                ("db_user", models.CharField(help_text="the database role of the session that made the change",
                                             max_length=63)),
                ("txid", models.BigIntegerField(blank=True, help_text="the PostgreSQL transaction that made it",
                                                null=True)),
                ("table", models.CharField(max_length=63)),
                ("row_id", models.CharField(max_length=64)),
                ("column", models.CharField(max_length=63)),
                ("before", models.TextField(blank=True, default="")),
                ("after", models.TextField(blank=True, default="")),
            ],
            options={"ordering": ["id"]},
        ),
        migrations.RunPython(forwards, backwards),
    ]
