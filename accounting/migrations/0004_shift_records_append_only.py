"""Counts, soft counts, table closes, marker payments and reconciliations are financial records:
the database refuses to UPDATE or DELETE them (a correction is a new record)."""

from django.db import migrations

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run

TABLES = [
    ("accounting_inventorycount", "inventory counts"),
    ("accounting_dropcount", "soft counts"),
    ("accounting_markerpayment", "marker payments"),
    ("accounting_tableshiftclose", "table shift closes"),
    ("accounting_shiftreconciliation", "reconciliations"),
    ("accounting_reconciliation", "reconciliations"),
]


def forwards(apps, schema_editor):
    for table, what in TABLES:
        run(schema_editor, append_only_sql(table, schema_editor.connection.vendor, what=what))


def backwards(apps, schema_editor):
    for table, _ in TABLES:
        run(schema_editor, drop_append_only_sql(table, schema_editor.connection.vendor))


class Migration(migrations.Migration):
    dependencies = [("accounting", "0003_shift_accounting")]
    operations = [migrations.RunPython(forwards, backwards)]
