from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditRecord(models.Model):
    """One state change: who, when, from where, what, before and after; hash-chained.

    Records form one chain per ``chain`` key ("table:<code>" for a table's rounds and bets,
    "casino" for everything else), each carrying the SHA-256 of its canonical content and the
    previous record's hash. The database refuses UPDATE and DELETE (trigger in migration 0002).
    """

    chain = models.CharField(max_length=64)
    seq = models.PositiveBigIntegerField()
    created_at = models.DateTimeField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+")
    actor_username = models.CharField(max_length=150, blank=True)
    actor_role = models.CharField(max_length=32)
    client_addr = models.CharField(max_length=64, blank=True)
    device = models.CharField(max_length=64, blank=True)
    channel = models.CharField(max_length=16)
    action = models.CharField(max_length=64)
    object_type = models.CharField(max_length=64)
    object_id = models.CharField(max_length=64)
    table_code = models.CharField(max_length=32, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    prev_hash = models.CharField(max_length=64)
    # Unique without an index of its own: it hashes the chain and seq, and (chain, seq) is unique (migration 0007).
    hash = models.CharField(max_length=64)
    # The request (or job) that made the change, as in its log line and error bodies (casino/ops/requests.py).
    # Hashed when not empty; records written before it existed hash without it (docs/audit.md).
    request_id = models.CharField(max_length=64, blank=True, default="", db_default="")

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["chain", "seq"], name="audit_chain_seq_unique")]
        indexes = [
            models.Index(fields=["object_type", "object_id"]),
            models.Index(fields=["table_code", "created_at"]),
            models.Index(fields=["actor", "created_at"]),
            models.Index(fields=["created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.chain}#{self.seq} {self.action} {self.object_type}:{self.object_id}"


class VerificationStatus(models.TextChoices):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"


class AuditVerification(models.Model):
    """One walk of every chain: who asked, when, and what it found (``ok`` once done)."""

    trigger = models.CharField(max_length=16)  # beat, api, web, command
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+")
    requested_at = models.DateTimeField()
    status = models.CharField(max_length=8, choices=VerificationStatus.choices, default=VerificationStatus.PENDING)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ok = models.BooleanField(null=True, blank=True)
    chains = models.PositiveIntegerField(default=0)
    records = models.PositiveBigIntegerField(default=0)
    checkpoints = models.PositiveIntegerField(default=0, help_text="signed checkpoints the chains were held to")
    # Incremental (the default): each chain walked from its latest signed checkpoint; full: from its first record.
    full = models.BooleanField(default=False, db_default=True)
    skipped = models.PositiveBigIntegerField(default=0, help_text="records before the checkpoints a walk began at, "
                                                                  "vouched for by those checkpoints, not read")
    # Not a database foreign key: the record a break points at may be exactly the one an attacker removed.
    first_broken_record = models.ForeignKey(AuditRecord, null=True, blank=True, on_delete=models.DO_NOTHING,
                                            db_constraint=False, related_name="+")
    first_broken_chain = models.CharField(max_length=64, blank=True)
    first_broken_seq = models.PositiveBigIntegerField(null=True, blank=True)
    first_broken_reason = models.CharField(max_length=32, blank=True)
    breaks = models.JSONField(default=list, blank=True, help_text="the first break of every broken chain")
    warnings = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(status=VerificationStatus.DONE, ok__isnull=False, finished_at__isnull=False)
                           | (~models.Q(status=VerificationStatus.DONE) & models.Q(ok__isnull=True))),
                name="audit_verification_ok_iff_done",
            ),
        ]

    def __str__(self) -> str:
        state = self.status if self.ok is None else ("ok" if self.ok else "BROKEN")
        return f"verification #{self.pk} {state}"


class AuditCheckpoint(models.Model):
    """A chain's head (last seq and hash) at a moment, signed with HMAC-SHA256 (see ``signing``).

    An attacker with database access can rewrite records and recompute every hash after them,
    but cannot sign a new checkpoint without the key, which lives outside the database.
    Append-only, like the records.
    """

    chain = models.CharField(max_length=64)
    seq = models.PositiveBigIntegerField()
    record_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField()
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=64)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["chain", "seq"], name="audit_checkpoint_chain_seq_unique")]

    def __str__(self) -> str:
        return f"checkpoint {self.chain}#{self.seq}"


class AuditAlert(models.Model):
    """A broken chain found by a verification or a checkpoint run. Raised once per break (fingerprint).

    Kept in the audit app on purpose: alerts of the audit trail must not depend on another area's
    models, and another area (accounting variances) has its own.
    """

    created_at = models.DateTimeField()
    kind = models.CharField(max_length=32)  # chain_broken, checkpoint_invalid
    chain = models.CharField(max_length=64)
    seq = models.PositiveBigIntegerField(null=True, blank=True)
    record_id = models.BigIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=32)
    message = models.TextField()
    verification = models.ForeignKey(AuditVerification, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="alerts")
    fingerprint = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"alert {self.kind} {self.chain}#{self.seq}"


class ChainHead(models.Model):
    """Each chain's last record (seq and hash), kept by the database itself on PostgreSQL.

    The records are partitioned by month there (docs/scaling.md, "Partitioning"), and a unique index of a
    partitioned table must hold the partition key: ``(chain, seq)`` can only be unique within a month. This
    row makes it unique across months: a trigger on every insert of a record moves its chain's head from
    ``seq - 1`` (with the record's ``prev_hash`` as its hash) to the new record, or refuses the insert; a
    chain's first record must be seq 1. The service may read it, never write it (the trigger runs as the
    owner). SQLite's records are one plain table with a real unique constraint; this table stays empty there.
    """

    chain = models.CharField(max_length=64, primary_key=True)
    seq = models.PositiveBigIntegerField()
    hash = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"{self.chain} head #{self.seq}"


class ArchiveKind(models.TextChoices):
    ARCHIVED = "archived"
    RESTORED = "restored"


class AuditArchive(models.Model):
    """A month of audit records taken out of the live table into the archive schema, or put back.

    Append-only: archiving writes an ``archived`` row, restoring an ``restored`` one; a month's state is its
    latest row. The ``archived`` row is the month's manifest: how many records, the SHA-256 of their hashes in
    (chain, seq) order, each chain's head before the month (``starts``, where verifying the archived month
    begins) and at its end (``heads``, where verifying the live records begins), signed with the checkpoint
    key so a rewritten manifest is found (casino/audit/archive.py).
    """

    month = models.DateField(help_text="the first day of the month")
    kind = models.CharField(max_length=8, choices=ArchiveKind.choices)
    at = models.DateTimeField()
    by = models.CharField(max_length=150, blank=True, help_text="the operating-system or database user")
    schema = models.CharField(max_length=63)
    table = models.CharField(max_length=63)
    records = models.PositiveBigIntegerField(default=0)
    checksum = models.CharField(max_length=64)
    starts = models.JSONField(default=dict, help_text="chain -> [seq, hash] before the month")
    heads = models.JSONField(default=dict, help_text="chain -> [seq, hash] at the month's end")
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=64)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.month:%Y-%m} {self.kind}"
