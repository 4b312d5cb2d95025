"""A recount supersedes a count: a new inventory count or soft count linked to the one it replaces (the link is on
the recount, so the count it replaces stays sealed as migration 0004 left it), with a reason. The database
holds that a recount replaces a count of the same table, shift (and kind), and that a count is superseded
once (the link is one-to-one): the counts of a table shift form one chain, its latest the count in force.
The seal of a closed table shift (migration 0005) refuses a recount there as it refuses any count."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.core.dbtriggers import drop_guard_sql, guard_sql, run, sqlite_table_remake

GUARDS = [
    ("accounting_inventorycount", "recount_same_place",
     "NEW.supersedes_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM accounting_inventorycount o WHERE "
     "o.id = NEW.supersedes_id AND o.table_id = NEW.table_id AND o.shift_id = NEW.shift_id AND o.kind = NEW.kind)",
     "a recount supersedes a count of the same table, shift and kind"),
    ("accounting_dropcount", "recount_same_place",
     "NEW.supersedes_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM accounting_dropcount o WHERE "
     "o.id = NEW.supersedes_id AND o.table_id = NEW.table_id AND o.shift_id = NEW.shift_id)",
     "a soft count recount supersedes a soft count of the same table and shift"),
]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, name, condition, message in GUARDS:
        run(schema_editor, guard_sql(table, vendor, name=name, condition=condition, message=message, events="INSERT"))


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, name, _, _ in GUARDS:
        run(schema_editor, drop_guard_sql(table, vendor, name=name, events="INSERT"))


COUNT_BEFORE, COUNT_AFTER = sqlite_table_remake("accounting_inventorycount")
DROP_BEFORE, DROP_AFTER = sqlite_table_remake("accounting_dropcount")


class Migration(migrations.Migration):

    dependencies = [
        ('accounting', '0011_credit_line'),
        ('core', '0009_privileged_role_changes'),
        ('tables', '0008_sealed_assignments'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        COUNT_BEFORE,
        DROP_BEFORE,
        migrations.RemoveConstraint(
            model_name='dropcount',
            name='one_drop_count_per_table_shift',
        ),
        migrations.RemoveConstraint(
            model_name='inventorycount',
            name='one_count_per_table_shift_kind',
        ),
        migrations.AddField(
            model_name='dropcount',
            name='reason',
            field=models.TextField(blank=True, default='', help_text='why a recount was made (a recount only)'),
        ),
        migrations.AddField(
            model_name='dropcount',
            name='supersedes',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='superseded_by', to='accounting.dropcount'),
        ),
        migrations.AddField(
            model_name='inventorycount',
            name='reason',
            field=models.TextField(blank=True, default='', help_text='why a recount was made (a recount only)'),
        ),
        migrations.AddField(
            model_name='inventorycount',
            name='supersedes',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='superseded_by', to='accounting.inventorycount'),
        ),
        migrations.AddConstraint(
            model_name='dropcount',
            constraint=models.UniqueConstraint(condition=models.Q(('supersedes__isnull', True)), fields=('table', 'shift'), name='one_drop_count_per_table_shift'),
        ),
        migrations.AddConstraint(
            model_name='dropcount',
            constraint=models.CheckConstraint(condition=models.Q(('supersedes__isnull', True), models.Q(('reason', ''), _negated=True), _connector='OR'), name='drop_recount_has_reason'),
        ),
        migrations.AddConstraint(
            model_name='inventorycount',
            constraint=models.UniqueConstraint(condition=models.Q(('supersedes__isnull', True)), fields=('table', 'shift', 'kind'), name='one_count_per_table_shift_kind'),
        ),
        migrations.AddConstraint(
            model_name='inventorycount',
            constraint=models.CheckConstraint(condition=models.Q(('supersedes__isnull', True), models.Q(('reason', ''), _negated=True), _connector='OR'), name='count_recount_has_reason'),
        ),
        COUNT_AFTER,
        DROP_AFTER,
        migrations.RunPython(forwards, backwards),
    ]
