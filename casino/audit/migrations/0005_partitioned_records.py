"""The audit records partitioned by month on PostgreSQL; each chain's head kept by the database; archived months.

PostgreSQL: ``audit_auditrecord`` is rebuilt as a table partitioned by range of ``created_at`` (one partition
per calendar month in the casino's time zone, made by ``audit_auditrecord_add_month``,
casino/core/partitions.py), its rows copied over in (chain, seq) order, the old table dropped. What the old
table's global unique constraints said is now said by:

* ``(chain, seq)`` and ``hash``: unique indexes of each partition (a partitioned table's unique index must
  hold the partition key), plus ``audit_chainhead``: a BEFORE INSERT trigger (cloned onto every partition)
  moves the chain's head row from ``seq - 1`` to the new record, and refuses a record that does not follow
  its chain's head (a repeated or skipped seq, or a ``prev_hash`` that is not the head's hash) in any month;
* the primary key is ``(id, created_at)``; ids still come from one sequence, so ``id`` stays unique;
* nothing pointed at the records with a database foreign key (a verification's first broken record is
  deliberately not one), so no foreign key had to be replaced.

The append-only trigger is recreated on the partitioned parent (PostgreSQL clones it onto every partition,
present and future) and its TRUNCATE trigger on the parent and on each partition. SQLite keeps its plain
table (its append-only triggers, lost when SQLite rebuilt the table for migration 0004, are put back);
``audit_chainhead`` stays empty there.
"""

import datetime as dt

from django.conf import settings
from django.db import migrations, models

from casino.core import partitions
from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run

RECORDS = partitions.Partitioned(table="audit_auditrecord", key="created_at", what="audit records",
                                 uniques=(("chain", "seq"), ("hash",)))
MONTHS_AHEAD = 3

# Django's names for the model's indexes (migration 0001), kept so the model state and the database agree
INDEXES = [
    ("audit_audit_object__15cb14_idx", "object_type, object_id"),
    ("audit_audit_table_c_604b62_idx", "table_code, created_at"),
    ("audit_audit_actor_i_5e0549_idx", "actor_id, created_at"),
    ("audit_audit_created_4c37de_idx", "created_at"),
]

CHAIN_HEAD = [
    """CREATE OR REPLACE FUNCTION audit_auditrecord_chain_head() RETURNS trigger
       LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
       BEGIN
         UPDATE audit_chainhead SET seq = NEW.seq, hash = NEW.hash
          WHERE chain = NEW.chain AND seq = NEW.seq - 1 AND hash = NEW.prev_hash;
         IF NOT FOUND THEN
           IF NEW.seq = 1 AND NEW.prev_hash = repeat('0', 64)
              AND NOT EXISTS (SELECT 1 FROM audit_chainhead WHERE chain = NEW.chain) THEN
             INSERT INTO audit_chainhead (chain, seq, hash) VALUES (NEW.chain, NEW.seq, NEW.hash);
           ELSE
             RAISE EXCEPTION 'audit record %#% does not follow its chain''s head: refused', NEW.chain, NEW.seq
               USING ERRCODE = 'unique_violation';
           END IF;
         END IF;
         RETURN NEW;
       END $$;""",
    "CREATE TRIGGER audit_auditrecord_chain_head BEFORE INSERT ON audit_auditrecord FOR EACH ROW "
    "EXECUTE FUNCTION audit_auditrecord_chain_head();",
    # the head moves forward one record at a time, and is never removed
    """CREATE OR REPLACE FUNCTION audit_chainhead_forward() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP <> 'UPDATE' OR NEW.chain <> OLD.chain OR NEW.seq <> OLD.seq + 1 THEN
           RAISE EXCEPTION 'a chain''s head only moves forward one record: % refused on audit_chainhead', TG_OP
             USING ERRCODE = 'integrity_constraint_violation';
         END IF;
         RETURN NEW;
       END $$;""",
    "CREATE TRIGGER audit_chainhead_forward BEFORE UPDATE OR DELETE ON audit_chainhead FOR EACH ROW "
    "EXECUTE FUNCTION audit_chainhead_forward();",
    """CREATE OR REPLACE FUNCTION audit_chainhead_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         RAISE EXCEPTION 'a chain''s head is never removed: TRUNCATE refused on audit_chainhead'
           USING ERRCODE = 'integrity_constraint_violation';
       END $$;""",
    "CREATE TRIGGER audit_chainhead_truncate BEFORE TRUNCATE ON audit_chainhead FOR EACH STATEMENT "
    "EXECUTE FUNCTION audit_chainhead_truncate();",
]


# Each chain's records numbered 1, 2, 3… with each prev_hash the hash before it (the genesis first): what the head
# trigger checks of a record as it is inserted, checked of the copied rows all at once.
CHAINS_UNBROKEN = """DO $$
DECLARE broken record;
BEGIN
  SELECT chain, seq INTO broken FROM (
    SELECT chain, seq, prev_hash, row_number() OVER w AS n, lag(hash, 1, repeat('0', 64)) OVER w AS before
      FROM audit_auditrecord WINDOW w AS (PARTITION BY chain ORDER BY seq)) x
   WHERE seq <> n OR prev_hash <> before LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'audit record %#% does not follow its chain''s head: refused', broken.chain, broken.seq
      USING ERRCODE = 'unique_violation';
  END IF;
END $$;"""


def _partition(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        # SQLite: migration 0004's new column made SQLite rebuild the table, which dropped its append-only
        # triggers; they are put back here (dropped first if a database still has them)
        run(schema_editor, [*drop_append_only_sql("audit_auditrecord", "sqlite"),
                            *append_only_sql("audit_auditrecord", "sqlite", what="audit records")])
        return
    tz = settings.TIME_ZONE or "UTC"
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT min(created_at) FROM audit_auditrecord")
        oldest = cursor.fetchone()[0]
    now = dt.datetime.now(partitions.zone())
    # from the oldest record's month, and at least last month (the demo plays the shifts before the current one)
    last_month = partitions.month_start(partitions.month_start(now) - dt.timedelta(days=1))
    first = min(partitions.month_start(oldest), last_month) if oldest is not None else last_month
    last = partitions.months(now.date(), now.date())[0]
    for _ in range(MONTHS_AHEAD):
        last = partitions.next_month(last)
    user_table = schema_editor.connection.ops.quote_name(apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table)
    run(schema_editor, [
        # the old table's triggers, indexes and constraints go with it when it is dropped below
        "ALTER TABLE audit_auditrecord RENAME TO audit_auditrecord_unpartitioned",
        # the same columns, defaults and id sequence (a new identity, set after the old one's last id below)
        "CREATE TABLE audit_auditrecord (LIKE audit_auditrecord_unpartitioned INCLUDING DEFAULTS INCLUDING IDENTITY) "
        "PARTITION BY RANGE (created_at)",
        # the same functions as before (CREATE OR REPLACE), now on the partitioned parent
        *append_only_sql("audit_auditrecord", "postgresql", what="audit records"),
        *partitions.add_month_function_sql(RECORDS),
    ])
    with schema_editor.connection.cursor() as cursor:
        for month in partitions.months(first, last):
            cursor.execute("SELECT audit_auditrecord_add_month(%s, %s)", [month, tz])
    run(schema_editor, [
        # rows in chain order (each chain's records side by side for the verification's walk), before the head
        # trigger exists: one statement moving a chain's head row once per record would leave a chain of row
        # versions nothing can prune before it commits, and walk it on every move (quadratic in a chain's length)
        "INSERT INTO audit_auditrecord SELECT * FROM audit_auditrecord_unpartitioned ORDER BY chain, seq",
        # what the trigger would have checked of each record, in one pass: a broken chain stops here (fix first)
        CHAINS_UNBROKEN,
        "INSERT INTO audit_chainhead (chain, seq, hash) "
        "SELECT DISTINCT ON (chain) chain, seq, hash FROM audit_auditrecord ORDER BY chain, seq DESC",
        *CHAIN_HEAD,
        "SELECT setval(pg_get_serial_sequence('audit_auditrecord', 'id'), "
        "GREATEST((SELECT max(id) FROM audit_auditrecord_unpartitioned), 1))",
        "DROP TABLE audit_auditrecord_unpartitioned",
        "ALTER TABLE audit_auditrecord ADD CONSTRAINT audit_auditrecord_pkey PRIMARY KEY (id, created_at)",
        "ALTER TABLE audit_auditrecord ADD CONSTRAINT audit_auditrecord_actor_id_fk FOREIGN KEY (actor_id) "
        f"REFERENCES {user_table} (id) DEFERRABLE INITIALLY DEFERRED",
        *(f"CREATE INDEX {name} ON audit_auditrecord ({cols})" for name, cols in INDEXES),
    ])


def _unpartition(apps, schema_editor):
    """Back to one plain table (every partition still attached: restore archived months first)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    user_table = schema_editor.connection.ops.quote_name(apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table)
    run(schema_editor, [
        "ALTER TABLE audit_auditrecord RENAME TO audit_auditrecord_partitioned",
        "CREATE TABLE audit_auditrecord (LIKE audit_auditrecord_partitioned INCLUDING DEFAULTS INCLUDING IDENTITY)",
        "INSERT INTO audit_auditrecord SELECT * FROM audit_auditrecord_partitioned ORDER BY id",
        "SELECT setval(pg_get_serial_sequence('audit_auditrecord', 'id'), "
        "GREATEST((SELECT max(id) FROM audit_auditrecord_partitioned), 1))",
        "DROP TABLE audit_auditrecord_partitioned CASCADE",
        "DROP FUNCTION IF EXISTS audit_auditrecord_chain_head()",
        "DROP TRIGGER IF EXISTS audit_chainhead_forward ON audit_chainhead",
        "DROP TRIGGER IF EXISTS audit_chainhead_truncate ON audit_chainhead",
        "DROP FUNCTION IF EXISTS audit_chainhead_forward()",
        "DROP FUNCTION IF EXISTS audit_chainhead_truncate()",
        *partitions.drop_add_month_function_sql(RECORDS),
        "ALTER TABLE audit_auditrecord ADD CONSTRAINT audit_auditrecord_pkey PRIMARY KEY (id)",
        "ALTER TABLE audit_auditrecord ADD CONSTRAINT audit_chain_seq_unique UNIQUE (chain, seq)",
        "ALTER TABLE audit_auditrecord ADD CONSTRAINT audit_auditrecord_hash_key UNIQUE (hash)",
        "ALTER TABLE audit_auditrecord ADD CONSTRAINT audit_auditrecord_actor_id_fk FOREIGN KEY (actor_id) "
        f"REFERENCES {user_table} (id) DEFERRABLE INITIALLY DEFERRED",
        *(f"CREATE INDEX {name} ON audit_auditrecord ({cols})" for name, cols in INDEXES),
        *append_only_sql("audit_auditrecord", "postgresql", what="audit records"),
    ])


def _archive_append_only(apps, schema_editor):
    run(schema_editor, append_only_sql("audit_auditarchive", schema_editor.connection.vendor,
                                       what="audit archive manifests"))


def _drop_archive_append_only(apps, schema_editor):
    run(schema_editor, drop_append_only_sql("audit_auditarchive", schema_editor.connection.vendor))


class Migration(migrations.Migration):

    dependencies = [
        ("audit", "0004_record_request_id"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ChainHead",
            fields=[
                ("chain", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("seq", models.PositiveBigIntegerField()),
                ("hash", models.CharField(max_length=64)),
            ],
        ),
        migrations.CreateModel(
            name="AuditArchive",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("month", models.DateField(help_text="the first day of the month")),
                ("kind", models.CharField(choices=[("archived", "Archived"), ("restored", "Restored")], max_length=8)),
                ("at", models.DateTimeField()),
                ("by", models.CharField(blank=True, help_text="the operating-system or database user", max_length=150)),
                ("schema", models.CharField(max_length=63)),
                ("table", models.CharField(max_length=63)),
                ("records", models.PositiveBigIntegerField(default=0)),
                ("checksum", models.CharField(max_length=64)),
                ("starts", models.JSONField(default=dict, help_text="chain -> [seq, hash] before the month")),
                ("heads", models.JSONField(default=dict, help_text="chain -> [seq, hash] at the month's end")),
                ("key_id", models.CharField(max_length=16)),
                ("signature", models.CharField(max_length=64)),
            ],
            options={"ordering": ["-id"]},
        ),
        migrations.RunPython(_archive_append_only, _drop_archive_append_only),
        migrations.RunPython(_partition, _unpartition),
    ]
