"""A closed shift's assignments are sealed: who dealt which table in that shift is what signatures are bound
to (accounting/signing.py), so once the shift is closed none of its assignments is relieved, moved or
deleted, and none is added. The services refuse it in words first (tables/services/floor.py); the triggers
hold it for anyone connected, the service role included."""

from django.db import migrations

from casino.core.dbtriggers import drop_guard_sql, guard_sql, run

SHIFT_OF = "(SELECT status FROM tables_shift WHERE id = {row}.shift_id) = 'closed'"
GUARDS = [
    ("closed_shift_sealed", SHIFT_OF.format(row="OLD"), "the assignments of a closed shift are sealed",
     "UPDATE"),
    ("closed_shift_kept", SHIFT_OF.format(row="OLD"), "the assignments of a closed shift are sealed", "DELETE"),
    ("closed_shift_takes_none", SHIFT_OF.format(row="NEW"), "a closed shift takes no new assignment", "INSERT"),
    # an update cannot move an assignment into a closed shift either
    ("into_closed_shift", SHIFT_OF.format(row="NEW"), "a closed shift takes no new assignment", "UPDATE"),
]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, condition, message, events in GUARDS:
        run(schema_editor, guard_sql("tables_assignment", vendor, name=name, condition=condition, message=message,
                                     events=events))


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, _, _, events in GUARDS:
        run(schema_editor, drop_guard_sql("tables_assignment", vendor, name=name, events=events))


class Migration(migrations.Migration):
    dependencies = [("tables", "0007_void_refusal")]
    operations = [migrations.RunPython(forwards, backwards)]
