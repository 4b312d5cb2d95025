"""What the operations side keeps: when each background job last ran, succeeded and failed.

Not a financial record: one row per job name, updated in place (counters with ``F()``), so that
readiness, the metrics and the screens can tell a dead worker or a stalled beat without asking
the broker anything.
"""

from __future__ import annotations

from django.db import models


class JobHeartbeat(models.Model):
    """One background job (a Celery task name), or the ``worker`` and ``beat`` processes themselves.

    ``worker`` is written by the heartbeat task a worker executes; ``beat`` by the beat process
    each time it sends a scheduled job; every other row by the task of that name, on each run.
    """

    name = models.CharField(max_length=200, unique=True)
    first_seen_at = models.DateTimeField()
    last_started_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_failure_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")
    last_duration_ms = models.PositiveIntegerField(null=True, blank=True)
    runs = models.PositiveBigIntegerField(default=0)
    failures = models.PositiveBigIntegerField(default=0)
    host = models.CharField(max_length=200, blank=True, default="", help_text="the worker (or beat) that wrote last")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name}: last success {self.last_success_at or 'never'}"
