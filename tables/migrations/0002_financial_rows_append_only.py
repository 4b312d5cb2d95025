"""Bets, settlements and settlement lines are financial records: never updated, never deleted."""

from django.db import migrations

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run

TABLES = [("tables_bet", "bets"), ("tables_settlement", "settlements"), ("tables_settlementline", "settlement lines")]


def forwards(apps, schema_editor):
    for table, what in TABLES:
        run(schema_editor, append_only_sql(table, schema_editor.connection.vendor, what=what))


def backwards(apps, schema_editor):
    for table, _ in TABLES:
        run(schema_editor, drop_append_only_sql(table, schema_editor.connection.vendor))


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
