"""Markers as credit: a player's credit line, each approval a new record; append-only."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run


def forwards(apps, schema_editor):
    run(schema_editor, append_only_sql("accounting_creditline", schema_editor.connection.vendor,
                                       what="credit line approvals"))


def backwards(apps, schema_editor):
    run(schema_editor, drop_append_only_sql("accounting_creditline", schema_editor.connection.vendor))


class Migration(migrations.Migration):

    dependencies = [
        ('accounting', '0010_ledger_unshifted_by_time'),
        ('core', '0007_role_groups'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CreditLine',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('player', models.CharField(db_index=True, help_text="the player's name or account, as on markers", max_length=120)),
                ('limit', models.BigIntegerField(help_text='minor units')),
                ('approved_at', models.DateTimeField()),
                ('reason', models.TextField(blank=True, default='')),
                ('approver', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='core.staffprofile')),
                ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['player', 'approved_at', 'id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('limit__gte', 0)), name='credit_line_limit_not_negative')],
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
