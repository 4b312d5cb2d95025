"""Each member of staff picks the language their screens speak (docs/languages.md)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("core", "0009_privileged_role_changes")]

    operations = [
        migrations.AddField(
            model_name="staffprofile",
            name="language",
            field=models.CharField(blank=True, default="", max_length=16,
                                   help_text="the language this person's screens speak (settings.LANGUAGES); "
                                             "empty: the browser's"),
        ),
    ]
