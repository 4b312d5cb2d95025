"""An alert is acknowledged, then resolved, each once: who, when and a note, written once and then fixed.

What the alert says (its cause) never changes (accounting/migrations/0005); an acknowledged alert keeps
its acknowledgement; a resolution comes after the acknowledgement and, once written, fixes the alert.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.core.dbtriggers import sqlite_table_remake, changed, drop_guard_sql, guard_sql, run

ACK = ("acknowledged_by_id", "acknowledged_at", "ack_note")
RESOLUTION = ("resolved_by_id", "resolved_at", "resolve_note")


def guards(vendor):
    return [
        ("accounting_alert", "acknowledged_once", f"OLD.acknowledged_at IS NOT NULL AND {changed(vendor, *ACK)}",
         "an alert is acknowledged once and its acknowledgement then fixed"),
        ("accounting_alert", "resolved_once", "OLD.resolved_at IS NOT NULL", "a resolved alert is fixed"),
        ("accounting_alert", "resolved_after_ack",
         f"OLD.acknowledged_at IS NULL AND {changed(vendor, *RESOLUTION)}",
         "an alert is resolved after it is acknowledged"),
    ]


KEEP, RESTORE = sqlite_table_remake("accounting_alert")  # SQLite rebuilds the table for the new columns


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, name, condition, message in guards(vendor):
        run(schema_editor, guard_sql(table, vendor, name=name, condition=condition, message=message))


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, name, _, _ in guards(vendor):
        run(schema_editor, drop_guard_sql(table, vendor, name=name))
    run(schema_editor, guard_sql("accounting_alert", vendor, name="acknowledged_once",
                                 condition="OLD.acknowledged_at IS NOT NULL",
                                 message="an alert is acknowledged once and then fixed"))


class Migration(migrations.Migration):
    dependencies = [
        ("accounting", "0006_marker_write_off"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]
    operations = [
        KEEP,
        migrations.AddField(
            model_name="alert",
            name="resolved_by",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="+", to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(model_name="alert", name="resolved_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.AddField(model_name="alert", name="resolve_note", field=models.CharField(blank=True, max_length=300)),
        migrations.AddConstraint(
            model_name="alert",
            constraint=models.CheckConstraint(
                condition=models.Q(resolved_by__isnull=True, resolved_at__isnull=True)
                | models.Q(resolved_by__isnull=False, resolved_at__isnull=False, acknowledged_at__isnull=False),
                name="alert_resolution_has_who_when_after_ack",
            ),
        ),
        RESTORE,
        migrations.RunPython(forwards, backwards),
    ]
