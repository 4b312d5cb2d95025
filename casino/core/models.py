from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db import models


class StaffProfile(models.Model):
    """A member of staff as they appear on what they sign: their employee id (printed, never a secret)
    and their signing PIN, kept hashed like a password (casino/signatures.py)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="staff")
    employee_id = models.CharField(max_length=32, unique=True)
    display_name = models.CharField(max_length=120)
    pin_hash = models.CharField(max_length=128, blank=True, default="",
                                help_text="the signing PIN, hashed (Django's password hashers); empty: no PIN set")
    language = models.CharField(max_length=16, blank=True, default="",
                                help_text="the language this person's screens speak (settings.LANGUAGES); "
                                          "empty: the browser's")

    def __str__(self) -> str:
        return f"{self.display_name} ({self.employee_id})"


class RenderedJson:
    """A JSON document already written out (the bytes an API answer was rendered to), stored as it is."""

    __slots__ = ("text",)

    def __init__(self, content: bytes) -> None:
        self.text = content.decode()


class StoredAsRendered(json.JSONEncoder):
    """A JSON field's encoder that writes a :class:`RenderedJson` as its text, not encoding it again."""

    def encode(self, o: Any) -> str:
        return o.text if isinstance(o, RenderedJson) else super().encode(o)


class IdempotencyRecord(models.Model):
    """The first successful response to a write carrying an ``Idempotency-Key``.

    Written in the same transaction as the write itself, so a retry either finds it (and gets
    the same response back) or the write never happened.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    key = models.CharField(max_length=128)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=300)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    # the answer as it was sent, its text written once (casino/idempotency.py); read back as JSON
    response_body = models.JSONField(encoder=StoredAsRendered)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique_per_user")]


class OutboxStatus(models.TextChoices):
    PENDING = "pending", "pending"
    SENT = "sent", "sent"


class Outbox(models.Model):
    """A Celery job written in the transaction that asks for it, sent to the broker once it commits.

    PostgreSQL is the record: if the broker (Redis) is down when the change commits, the row stays
    ``pending`` and the relay (``casino.outbox.relay_outbox``: beat, the next enqueue, the
    ``relay_outbox`` command) sends it when the broker is back. Rows are sent under
    ``SELECT … FOR UPDATE SKIP LOCKED`` and marked with a conditional update, so two relays never
    send the same row twice; the Celery task id is fixed at enqueue time.
    """

    task_name = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    kwargs = models.JSONField(default=dict)
    task_id = models.UUIDField(unique=True)
    # Equal keys collapse while pending: asking twice for the same job before it is sent sends it once.
    dedupe_key = models.CharField(max_length=200, null=True, blank=True)
    status = models.CharField(max_length=8, choices=OutboxStatus.choices, default=OutboxStatus.PENDING)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True, default="")
    # The id of the request that asked for the job: sent with it whenever it is sent (relayed after an outage
    # too), so the job's log line and audit records name the request's id.
    request_id = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["dedupe_key"], condition=models.Q(status="pending"),
                                    name="outbox_pending_dedupe_key_unique"),
            models.CheckConstraint(condition=models.Q(status="pending", sent_at__isnull=True)
                                   | models.Q(status="sent", sent_at__isnull=False), name="outbox_sent_has_time"),
        ]
        indexes = [models.Index(fields=["id"], condition=models.Q(status="pending"), name="outbox_pending_idx")]

    def __str__(self) -> str:
        return f"{self.task_name} ({self.status})"


class LoginThrottle(models.Model):
    """Failed attempts of one kind counted together, and the growing lockout they lead to (casino/auth.py):
    sign-ins per username from one address ("user:<username>|<address>") and per address ("addr:<address>");
    signatures per requester and signer ("sign:<requester>><signer>") and per requester ("signby:<requester>").

    Kept in the database rather than the cache so a lockout holds across every web process and
    survives a Redis outage. Not a financial record: a success clears its row, a supervisor may too.
    """

    key = models.CharField(max_length=200, unique=True)
    failures = models.PositiveIntegerField(default=0)
    window_started_at = models.DateTimeField()
    last_failure_at = models.DateTimeField(null=True, blank=True)
    locked_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.failures}"


class PrivilegedChange(models.Model):
    """The database's own record of a change to what grants power or money outside the records: a user's
    ``is_superuser``, ``is_staff`` or ``is_active``, a signing PIN's hash, a pit's managers, a progressive's
    amount or reset value (docs/operations.md, "Database roles").

    Written by triggers that run as the tables' owner (``SECURITY DEFINER``), whatever wrote the change: the
    services or the service role's own SQL. The service may read these rows and nothing else (no INSERT, no
    UPDATE, no DELETE; the rows are append-only), so no change of those columns by the service goes unrecorded.
    A PIN's hash is never copied: only whether there was one, and that it changed.
    """

    at = models.DateTimeField()
    db_user = models.CharField(max_length=63, help_text="the database role of the session that made the change")
    txid = models.BigIntegerField(null=True, blank=True, help_text="the PostgreSQL transaction that made it")
    table = models.CharField(max_length=63)
    row_id = models.CharField(max_length=64)
    column = models.CharField(max_length=63)
    before = models.TextField(blank=True, default="")
    after = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.table}#{self.row_id}.{self.column}: {self.before} → {self.after}"
