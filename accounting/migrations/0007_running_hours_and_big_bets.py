"""The running figures by hour (the pit dashboard's win by hour) and the shifts' lists of big bets, filled
from the records already written (accounting.figures' definitions), then guarded: hourly rows sealed
with their table's shift and never deleted, big bets written once."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.core.dbtriggers import append_only_sql, changed, drop_append_only_sql, drop_guard_sql, guard_sql, run

HOURS = "accounting_tablehourfigures"
BIG = "accounting_bigbet"


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
        ("identity_fixed", changed(vendor, "table_id", "shift_id", "hour"),
         "running figures keep their table, shift and hour", "UPDATE"),
        ("never_deleted", "TRUE" if vendor == "postgresql" else "1", "running figures are never deleted", "DELETE"),
    ]


def backfill(apps, schema_editor):
    from accounting.figures import big_bets_from_records_sql, hour_of, running_hours_from_records_sql

    threshold = getattr(settings, "CROUPIER", {}).get("LARGE_BET", 500_000)
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(running_hours_from_records_sql(), params=[settings.TIME_ZONE, settings.TIME_ZONE])
        schema_editor.execute(big_bets_from_records_sql(), params=[threshold])
        return
    # the embedded database (SQLite): small, summed here
    Settlement, Bet = apps.get_model("tables", "Settlement"), apps.get_model("tables", "Bet")
    hours = {}
    for table_id, shift_id, at, handle, net in Settlement.objects.values_list(
            "round__table_id", "round__shift_id", "settled_at", "handle", "house_net").iterator():
        row = hours.setdefault((table_id, shift_id, hour_of(at)), [0, 0, 0])
        row[0], row[1], row[2] = row[0] + 1, row[1] + handle, row[2] + net
    apps.get_model("accounting", "TableHourFigures").objects.bulk_create([
        apps.get_model("accounting", "TableHourFigures")(table_id=t, shift_id=s, hour=h, rounds=r[0], handle=r[1],
                                                         rounds_win=r[2])
        for (t, s, h), r in hours.items()])
    big = apps.get_model("accounting", "BigBet")
    big.objects.bulk_create([big(bet_id=pk, table_id=t, shift_id=s, placed_at=at) for pk, t, s, at in
                             Bet.objects.filter(amount__gte=threshold).values_list(
                                 "pk", "round__table_id", "round__shift_id", "placed_at").iterator()])


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, condition, message, events in guards(vendor):
        run(schema_editor, guard_sql(HOURS, vendor, name=name, condition=condition, message=message, events=events))
    run(schema_editor, append_only_sql(BIG, vendor, what="big bets"))


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, _, _, events in guards(vendor):
        run(schema_editor, drop_guard_sql(HOURS, vendor, name=name, events=events))
    run(schema_editor, drop_append_only_sql(BIG, vendor))


class Migration(migrations.Migration):

    dependencies = [
        ('accounting', '0006_running_figures'),
        ('tables', '0006_merge_bet_withdrawal_and_seals'),
    ]

    operations = [
        migrations.CreateModel(
            name='BigBet',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('bet', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.bet')),
                ('placed_at', models.DateTimeField()),
                ('shift', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.shift')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.table')),
            ],
            options={
                'ordering': ['-placed_at', '-bet'],
                'indexes': [models.Index(fields=['shift', 'placed_at'], name='big_bets_by_shift')],
            },
        ),
        migrations.CreateModel(
            name='TableHourFigures',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('hour', models.DateTimeField(help_text="the clock hour the rounds settled in (its start, the casino's time zone)")),
                ('rounds', models.BigIntegerField(default=0)),
                ('handle', models.BigIntegerField(default=0)),
                ('rounds_win', models.BigIntegerField(default=0)),
                ('shift', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.shift')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.table')),
            ],
            options={
                'ordering': ['shift', 'hour', 'table'],
                'indexes': [models.Index(fields=['shift', 'hour'], name='hour_figures_by_shift')],
                'constraints': [models.UniqueConstraint(fields=('table', 'shift', 'hour'), name='one_hour_figures_per_table_shift')],
            },
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.RunPython(forwards, backwards),
    ]
