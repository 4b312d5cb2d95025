"""A bet taken back or corrected before betting closes: a row written once beside the bet, never an edit."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.core.dbtriggers import append_only_sql, drop_append_only_sql, run

TABLE = "tables_betwithdrawal"


def forwards(apps, schema_editor):
    run(schema_editor, append_only_sql(TABLE, schema_editor.connection.vendor, what="bet withdrawals"))


def backwards(apps, schema_editor):
    run(schema_editor, drop_append_only_sql(TABLE, schema_editor.connection.vendor))


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0004_round_document"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="BetWithdrawal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("reason", models.CharField(max_length=200)),
                ("withdrawn_at", models.DateTimeField()),
                ("bet", models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name="withdrawal",
                                             to="tables.bet")),
                ("replaced_by", models.OneToOneField(blank=True, null=True,
                                                     on_delete=django.db.models.deletion.PROTECT,
                                                     related_name="replaces", to="tables.bet")),
                ("withdrawn_by", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                                   to=settings.AUTH_USER_MODEL)),
            ],
            options={"ordering": ["id"]},
        ),
        migrations.AddConstraint(
            model_name="betwithdrawal",
            constraint=models.CheckConstraint(condition=models.Q(("reason", ""), _negated=True),
                                              name="bet_withdrawal_has_reason"),
        ),
        migrations.AddConstraint(
            model_name="betwithdrawal",
            constraint=models.CheckConstraint(condition=models.Q(("replaced_by", models.F("bet")), _negated=True),
                                              name="bet_withdrawal_not_replaced_by_itself"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
