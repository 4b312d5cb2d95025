"""A marker's write-off: what was left to pay, signed by an accountant and a second person; append-only."""


import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run


def forwards(apps, schema_editor):
    run(schema_editor, append_only_sql("accounting_markerwriteoff", schema_editor.connection.vendor,
                                       what="marker write-offs"))


def backwards(apps, schema_editor):
    run(schema_editor, drop_append_only_sql("accounting_markerwriteoff", schema_editor.connection.vendor))


class Migration(migrations.Migration):

    dependencies = [
        ('accounting', '0005_sealed_shifts_slips_markers_alerts'),
        ('core', '0005_no_guard_switch'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='MarkerWriteOff',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('amount', models.BigIntegerField(help_text='what was left to pay, minor units')),
                ('reason', models.TextField()),
                ('written_off_at', models.DateTimeField()),
                ('accountant_signer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='core.staffprofile')),
                ('marker', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='write_off', to='accounting.marker')),
                ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('second_signer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='core.staffprofile')),
            ],
            options={
                'ordering': ['id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='marker_write_off_positive'), models.CheckConstraint(condition=models.Q(('reason', ''), _negated=True), name='marker_write_off_has_reason'), models.CheckConstraint(condition=models.Q(('accountant_signer', models.F('second_signer')), _negated=True), name='marker_write_off_two_different_signers')],
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
