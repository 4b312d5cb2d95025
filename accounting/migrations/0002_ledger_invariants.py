"""The ledger's promises, kept by the database: balanced transactions, append-only postings."""

from django.db import migrations

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run

PG_BALANCE = [
    """CREATE OR REPLACE FUNCTION accounting_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE total bigint;
       BEGIN
         SELECT COALESCE(SUM(amount), 0) INTO total FROM accounting_entry WHERE transaction_id = NEW.transaction_id;
         IF total <> 0 THEN
           RAISE EXCEPTION 'ledger transaction % does not balance: entries sum to %', NEW.transaction_id, total
             USING ERRCODE = 'integrity_constraint_violation';
         END IF;
         RETURN NULL;
       END $$;""",
    # deferred: the entries of one transaction are inserted one by one; the sum is checked at commit
    """CREATE CONSTRAINT TRIGGER accounting_entry_balanced AFTER INSERT ON accounting_entry
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION accounting_entry_balanced();""",
]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        run(schema_editor, PG_BALANCE)
    run(schema_editor, append_only_sql("accounting_entry", vendor, what="ledger entries"))
    run(schema_editor, append_only_sql("accounting_ledgertransaction", vendor, what="ledger transactions"))


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    run(schema_editor, drop_append_only_sql("accounting_entry", vendor))
    run(schema_editor, drop_append_only_sql("accounting_ledgertransaction", vendor))
    if vendor == "postgresql":
        run(schema_editor, ["DROP TRIGGER IF EXISTS accounting_entry_balanced ON accounting_entry;",
                            "DROP FUNCTION IF EXISTS accounting_entry_balanced();"])


class Migration(migrations.Migration):
    dependencies = [("accounting", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
