"""The pit's alert resolution and the running figures were built side by side: one graph again."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounting", "0007_alert_resolution"),
        ("accounting", "0008_merge_20261126_0942"),
    ]

    operations = []
