"""A sheet's winner is a side, and a partnership side's name is its players' names joined with " & ":
up to three names of 40 characters and two joins (126), not 40. Widening a varchar in PostgreSQL only
changes the catalogue: no row is rewritten."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0002_records_append_only")]

    operations = [
        migrations.AlterField(
            model_name="scoresheet",
            name="winner",
            field=models.CharField(
                blank=True, help_text="the winning side: a player or a partnership", max_length=126
            ),
        ),
    ]
