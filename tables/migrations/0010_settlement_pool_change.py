"""A settlement stores its round's pool change (carry out − carry in of the pot or pools it carried, the
engine's ``RoundResult.pool_change``), written with the settlement when the round settles: the figures sum the
column instead of reading every stored answer's pool in SQL.

Settlements are append-only (migration 0002): the settlements already written get their pool change here, from
their stored answer through the same definition (``tables.engines.result.pool_change_of``), with the append-only
triggers lifted for that one statement per value and put back at once, in this migration's transaction. Only
settlements that carry a pool change (pot and pool games; the others' change is 0, the column's value for the
rows already there). The partial index on settlements with a pool, which only that SQL read, goes."""

from django.db import migrations, models

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run, sqlite_table_remake
from tables.engines.result import RoundResult

TABLE = "tables_settlement"


def backfill(apps, schema_editor):
    Settlement = apps.get_model("tables", "Settlement")
    by_change: dict[int, list[int]] = {}
    carried = Settlement.objects.filter(document__has_key="pool").values_list("pk", "document")
    for pk, document in carried.iterator(chunk_size=2_000):
        change = RoundResult.of_json(document).pool_change
        if change:
            by_change.setdefault(change, []).append(pk)
    if not by_change:
        return
    vendor = schema_editor.connection.vendor
    run(schema_editor, drop_append_only_sql(TABLE, vendor))
    for change, pks in by_change.items():
        for start in range(0, len(pks), 5_000):
            Settlement.objects.filter(pk__in=pks[start:start + 5_000]).update(pool_change=change)
    run(schema_editor, append_only_sql(TABLE, vendor, what="settlements"))


BEFORE, AFTER = sqlite_table_remake(TABLE)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0009_shoes"),
    ]

    operations = [
        BEFORE,
        migrations.AddField(
            model_name="settlement",
            name="pool_change",
            field=models.BigIntegerField(
                default=0,
                help_text="carry out − carry in of the pot or pools the round carried (RoundResult.pool_change)",
            ),
            preserve_default=False,
        ),
        AFTER,
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=False),
        migrations.RemoveIndex(model_name="settlement", name="settlement_with_pool"),
    ]
