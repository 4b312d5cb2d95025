"""Buy-ins, cash transactions, ratings and cash transaction report lines are records: the database
refuses to UPDATE or DELETE them. A closed rating slip, and an ended pause, cannot change either, and
no slip or pause is ever deleted (a wrong slip is closed with a note)."""

from django.db import migrations

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run

TABLES = [
    ("players_cashtransaction", "cash transactions"),
    ("players_buyin", "buy-ins"),
    ("players_sliprating", "ratings"),
    ("players_cashtransactionreport", "cash transaction report lines"),
]
# (table, the condition on OLD under which an UPDATE is refused, what)
FROZEN = [
    ("players_ratingslip", "OLD.status = 'closed'", "a closed rating slip"),
    ("players_slippause", "OLD.ended_at IS NOT NULL", "an ended pause"),
]


def _frozen_sql(table, condition, what, vendor):
    if vendor == "postgresql":
        fn = f"{table}_frozen"
        return [
            f"""CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF TG_OP = 'DELETE' THEN
                    RAISE EXCEPTION 'rows of {table} are never deleted' USING ERRCODE = 'integrity_constraint_violation';
                  END IF;
                  IF {condition} THEN
                    RAISE EXCEPTION '{what} cannot change: UPDATE refused on {table}'
                      USING ERRCODE = 'integrity_constraint_violation';
                  END IF;
                  RETURN NEW;
                END $$;""",
            f"CREATE TRIGGER {fn}_row BEFORE UPDATE OR DELETE ON {table} FOR EACH ROW EXECUTE FUNCTION {fn}();",
        ]
    return [
        f"""CREATE TRIGGER {table}_frozen_update BEFORE UPDATE ON {table} WHEN {condition}
            BEGIN SELECT RAISE(ABORT, '{what} cannot change: UPDATE refused on {table}'); END;""",
        f"""CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
            BEGIN SELECT RAISE(ABORT, 'rows of {table} are never deleted'); END;""",
    ]


def _drop_frozen_sql(table, vendor):
    if vendor == "postgresql":
        fn = f"{table}_frozen"
        return [f"DROP TRIGGER IF EXISTS {fn}_row ON {table};", f"DROP FUNCTION IF EXISTS {fn}();"]
    return [f"DROP TRIGGER IF EXISTS {table}_frozen_update;", f"DROP TRIGGER IF EXISTS {table}_no_delete;"]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, what in TABLES:
        run(schema_editor, append_only_sql(table, vendor, what=what))
    for table, condition, what in FROZEN:
        run(schema_editor, _frozen_sql(table, condition, what, vendor))


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, _ in TABLES:
        run(schema_editor, drop_append_only_sql(table, vendor))
    for table, _, _ in FROZEN:
        run(schema_editor, _drop_frozen_sql(table, vendor))


class Migration(migrations.Migration):
    dependencies = [("players", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
