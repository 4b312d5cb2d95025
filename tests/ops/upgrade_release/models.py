from __future__ import annotations

from django.db import models


class ReleaseNote(models.Model):
    """The table the test release's migration adds (as a real release adds a table or a column)."""

    text = models.CharField(max_length=200)
    created_at = models.DateTimeField()

    class Meta:
        app_label = "upgrade_release"
