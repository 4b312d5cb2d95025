"""The audit records' ``hash`` no longer has a unique index of its own on PostgreSQL.

Nothing looks a record up by its hash, and its uniqueness needs no index: a record's hash is the SHA-256 of
its canonical text, which holds its chain and seq, and ``(chain, seq)`` is unique (each partition's unique
index, and across months the chain's head row that every insert must follow, migration 0005). Two records
with one hash would be a SHA-256 collision. What the index cost: a random key, so every append touched a leaf
page of its own somewhere in a month's index (about 8 GB a month at a billion records a year) instead of the
end of it, with the reads and full-page WAL images that brings; measured on a million records, about two
points of a settled round's time (docs/audit.md, "Speed").

PostgreSQL: each partition's ``<partition>_hash_uniq`` index is dropped (those of archived months kept in
the archive schema too), and the function that makes a month's partition no longer makes one. SQLite (the
embedded mode, one writer, small) keeps its column's unique constraint: removing it would make SQLite
rebuild the table; the model says what the database guarantees everywhere.
"""

from django.db import migrations, models

from casino.core import partitions
from casino.core.dbtriggers import run

TABLE = "audit_auditrecord"
WITHOUT_HASH = partitions.Partitioned(table=TABLE, key="created_at", what="audit records", uniques=(("chain", "seq"),))
WITH_HASH = partitions.Partitioned(table=TABLE, key="created_at", what="audit records",
                                   uniques=(("chain", "seq"), ("hash",)))

# every month's partition, attached or archived
_PARTITIONS = ("SELECT n.nspname AS schema, c.relname AS part "
               "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
               f"WHERE c.relkind = 'r' AND c.relname ~ '^{TABLE}_[0-9]{{4}}_[0-9]{{2}}$' "
               f"AND n.nspname IN ('public', '{partitions.ARCHIVE_SCHEMA}')")

DROP = f"""DO $$
DECLARE p record;
BEGIN
  FOR p IN {_PARTITIONS} LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I.%I', p.schema, p.part || '_hash_uniq');
  END LOOP;
END $$;"""

CREATE = f"""DO $$
DECLARE p record;
BEGIN
  FOR p IN {_PARTITIONS} LOOP
    EXECUTE format('CREATE UNIQUE INDEX IF NOT EXISTS %I ON %I.%I (hash)', p.part || '_hash_uniq', p.schema, p.part);
  END LOOP;
END $$;"""


def _unindex(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        run(schema_editor, [*partitions.add_month_function_sql(WITHOUT_HASH), DROP])


def _reindex(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        run(schema_editor, [*partitions.add_month_function_sql(WITH_HASH), CREATE])


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0006_verification_full"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(model_name="auditrecord", name="hash", field=models.CharField(max_length=64)),
            ],
            database_operations=[migrations.RunPython(_unindex, _reindex)],
        ),
    ]
