from __future__ import annotations

import datetime as dt
from typing import Any

from rest_framework import serializers

from casino.audit.models import AuditAlert, AuditCheckpoint, AuditRecord, AuditVerification


class HashedDateTimeField(serializers.DateTimeField):
    """The time exactly as hashed and signed (``isoformat()``, ``+00:00``), not DRF's ``Z`` form,
    so what the API shows can be hashed again as it is (docs/audit.md)."""

    def to_representation(self, value: dt.datetime) -> str:
        return value.isoformat()


class AuditRecordSerializer(serializers.ModelSerializer):
    created_at = HashedDateTimeField(read_only=True)

    class Meta:
        model = AuditRecord
        fields = ["id", "chain", "seq", "created_at", "actor", "actor_username", "actor_role", "client_addr",
                  "device", "channel", "action", "object_type", "object_id", "table_code", "before", "after",
                  "prev_hash", "hash", "request_id"]


class AuditVerificationSerializer(serializers.ModelSerializer):
    requested_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username",
                                                                                   read_only=True)

    class Meta:
        model = AuditVerification
        fields = ["id", "trigger", "requested_by", "requested_at", "status", "started_at", "finished_at", "ok",
                  "full", "chains", "records", "skipped", "checkpoints", "first_broken_record", "first_broken_chain",
                  "first_broken_seq", "first_broken_reason", "breaks", "warnings"]


class AuditCheckpointSerializer(serializers.ModelSerializer):
    hash = serializers.CharField(source="record_hash")
    signed_at = HashedDateTimeField(source="created_at", read_only=True)

    class Meta:
        model = AuditCheckpoint
        fields = ["id", "chain", "seq", "hash", "signed_at", "key_id", "signature"]


class AuditAlertSerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditAlert
        fields = ["id", "created_at", "kind", "chain", "seq", "record_id", "reason", "message", "verification"]
