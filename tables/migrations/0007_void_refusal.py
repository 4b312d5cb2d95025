"""A requested void may be refused, with a reason, by a pit manager other than the requester: the request
stays on record beside the refusal, and the refusal is written once and never rewritten."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.core.dbtriggers import sqlite_table_remake, changed, drop_guard_sql, guard_sql, run

KEEP, RESTORE = sqlite_table_remake("tables_round")  # SQLite rebuilds the table for the new columns
REFUSAL = ("void_refused_by_id", "void_refused_at", "void_refusal_reason")


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    run(schema_editor, guard_sql("tables_round", vendor, name="void_refusal_once",
                                 condition=f"OLD.void_refused_at IS NOT NULL AND {changed(vendor, *REFUSAL)}",
                                 message="a round void refusal is made once and never rewritten"))


def backwards(apps, schema_editor):
    run(schema_editor, drop_guard_sql("tables_round", schema_editor.connection.vendor, name="void_refusal_once"))


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_merge_bet_withdrawal_and_seals"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]
    operations = [
        KEEP,
        migrations.AddField(
            model_name="round",
            name="void_refused_by",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="+", to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(model_name="round", name="void_refused_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.AddField(model_name="round", name="void_refusal_reason", field=models.TextField(blank=True)),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(void_refused_at__isnull=True, void_refused_by__isnull=True, void_refusal_reason="")
                | (models.Q(void_refused_at__isnull=False, void_refused_by__isnull=False,
                            void_requested_by__isnull=False)
                   & ~models.Q(void_refusal_reason="") & ~models.Q(status="voided")),
                name="void_refusal_has_who_when_and_reason",
            ),
        ),
        RESTORE,
        migrations.RunPython(forwards, backwards),
    ]
