"""Meter readings, progressive contributions and hits, and bonus-meter events are records: the database
refuses to UPDATE or DELETE them (a mistaken reading is followed by a corrected one, never rewritten)."""

from django.db import migrations

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run

TABLES = [
    ("slots_meterreading", "slot meter readings"),
    ("slots_progressivecontribution", "progressive contributions"),
    ("slots_progressivehit", "progressive hits"),
    ("slots_bonusmeterevent", "bonus-meter events"),
]


def forwards(apps, schema_editor):
    for table, what in TABLES:
        run(schema_editor, append_only_sql(table, schema_editor.connection.vendor, what=what))


def backwards(apps, schema_editor):
    for table, _ in TABLES:
        run(schema_editor, drop_append_only_sql(table, schema_editor.connection.vendor))


class Migration(migrations.Migration):
    dependencies = [("slots", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
