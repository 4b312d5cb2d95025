"""SQLite adds the language column (0010) by rebuilding ``core_staffprofile``, which drops the table's triggers:
the record of a signing PIN's change (0008) is put back. PostgreSQL adds a column in place and keeps it."""

from importlib import import_module

from django.db import migrations

PRIVILEGED = import_module("casino.core.migrations.0008_privileged_changes")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        PRIVILEGED._sqlite(schema_editor)  # every trigger of 0008, each dropped first if it stands


class Migration(migrations.Migration):
    dependencies = [("core", "0010_staff_language")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
