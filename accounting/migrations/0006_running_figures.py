"""The running figures: one row per table and shift (accounting.models.TableFigures), filled from the
records already written (the same definitions, set-based: accounting.figures.running_from_records_sql),
then guarded like the records they sum: sealed with the table's shift (no new row, no change once the
table or the casino's shift is closed), their table and shift fixed, never deleted."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.core.dbtriggers import changed, drop_guard_sql, drop_never_deleted_sql, guard_sql, never_deleted_sql, run

TABLE = "accounting_tablefigures"


def sealed(vendor, table, shift):
    if vendor == "postgresql":
        return f"croupier_table_shift_sealed({table}, {shift})"
    return (f"(EXISTS (SELECT 1 FROM accounting_tableshiftclose c WHERE c.table_id = {table} AND c.shift_id = {shift})"
            f" OR EXISTS (SELECT 1 FROM tables_shift s WHERE s.id = {shift} AND s.status = 'closed'))")


def guards(vendor):
    message = "the figures of a closed table shift are sealed"
    return [
        ("shift_open", sealed(vendor, "NEW.table_id", "NEW.shift_id"), message, "INSERT"),
        ("shift_open_update", sealed(vendor, "OLD.table_id", "OLD.shift_id"), message, "UPDATE"),
        ("identity_fixed", changed(vendor, "table_id", "shift_id"), "running figures keep their table and shift",
         "UPDATE"),
    ]


def pool_change_sql(vendor):
    """A settlement ``s``'s pool change as this schema held it (before tables 0010 stored it as a column):
    carry out − carry in of the pool in its stored answer, 0 without one."""
    if vendor == "postgresql":
        return ("COALESCE((s.document -> 'pool' ->> 'carry_out')::bigint, 0) "
                "- COALESCE((s.document -> 'pool' ->> 'carry_in')::bigint, 0)")
    return ("COALESCE(CAST(json_extract(s.document, '$.pool.carry_out') AS INTEGER), 0) "
            "- COALESCE(CAST(json_extract(s.document, '$.pool.carry_in') AS INTEGER), 0)")


def backfill(apps, schema_editor):
    from accounting.figures import running_from_records_sql

    threshold = getattr(settings, "CROUPIER", {}).get("LARGE_BET", 500_000)
    vendor = schema_editor.connection.vendor
    schema_editor.execute(running_from_records_sql(vendor, recounts=False, pool=pool_change_sql(vendor)),
                          params=[threshold])


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, condition, message, events in guards(vendor):
        run(schema_editor, guard_sql(TABLE, vendor, name=name, condition=condition, message=message, events=events))
    run(schema_editor, never_deleted_sql(TABLE, vendor, what="running figures"))


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, _, _, events in guards(vendor):
        run(schema_editor, drop_guard_sql(TABLE, vendor, name=name, events=events))
    run(schema_editor, drop_never_deleted_sql(TABLE, vendor))


class Migration(migrations.Migration):

    dependencies = [
        ('accounting', '0005_sealed_shifts_slips_markers_alerts'),
        ('tables', '0006_merge_bet_withdrawal_and_seals'),
    ]

    operations = [
        migrations.CreateModel(
            name='TableFigures',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rounds', models.BigIntegerField(default=0, help_text='settled rounds')),
                ('handle', models.BigIntegerField(default=0)),
                ('rounds_win', models.BigIntegerField(default=0, help_text='Σ settlement house_net')),
                ('commission', models.BigIntegerField(default=0)),
                ('rake', models.BigIntegerField(default=0)),
                ('pool_change', models.BigIntegerField(default=0, help_text='Σ (carry_out − carry_in) of pots and pools')),
                ('fills', models.BigIntegerField(default=0, help_text='received fill slips')),
                ('credits', models.BigIntegerField(default=0, help_text='received credit slips')),
                ('marker_payments', models.BigIntegerField(default=0, help_text='paid in chips at this table')),
                ('markers_issued', models.BigIntegerField(default=0)),
                ('big_bets', models.BigIntegerField(default=0, help_text='bets at or above the large-bet threshold, not taken back')),
                ('opener', models.BigIntegerField(blank=True, help_text="opening inventory count's total", null=True)),
                ('closer', models.BigIntegerField(blank=True, help_text="closing inventory count's total", null=True)),
                ('drop', models.BigIntegerField(blank=True, help_text="the soft count's total", null=True)),
                ('shift', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.shift')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.table')),
            ],
            options={
                'ordering': ['shift', 'table'],
                'constraints': [models.UniqueConstraint(fields=('table', 'shift'), name='one_running_figures_per_table_shift')],
            },
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.RunPython(forwards, backwards),
    ]
