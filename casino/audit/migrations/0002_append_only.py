from django.db import migrations

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run


def forwards(apps, schema_editor):
    run(schema_editor, append_only_sql("audit_auditrecord", schema_editor.connection.vendor, what="audit records"))


def backwards(apps, schema_editor):
    run(schema_editor, drop_append_only_sql("audit_auditrecord", schema_editor.connection.vendor))


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
