"""Deal entries, tournament entries, prizes paid and rake are records: the database refuses to UPDATE
or DELETE them (a correction is a new entry that supersedes, a refund a reversing transaction)."""

from django.db import migrations

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run

TABLES = [
    ("cardroom_sheetdeal", "score-sheet deal entries"),
    ("cardroom_tournamententry", "tournament entries"),
    ("cardroom_tournamentpayout", "tournament prizes"),
    ("cardroom_sheetrake", "card-room rake records"),
]


def forwards(apps, schema_editor):
    for table, what in TABLES:
        run(schema_editor, append_only_sql(table, schema_editor.connection.vendor, what=what))


def backwards(apps, schema_editor):
    for table, _ in TABLES:
        run(schema_editor, drop_append_only_sql(table, schema_editor.connection.vendor))


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
