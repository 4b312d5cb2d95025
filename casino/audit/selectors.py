"""Reads of the audit trail (auditors and admins only; the views check the role)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Max, Q, QuerySet
from rest_framework.exceptions import ValidationError

from casino.audit.filters import AuditPageFilter, AuditRecordFilter
from casino.audit.models import AuditAlert, AuditCheckpoint, AuditRecord, AuditVerification, VerificationStatus


def audit_records(params: Mapping[str, Any]) -> tuple[QuerySet[AuditRecord], dict[str, str]]:
    """The records matching ``params`` (see :class:`AuditRecordFilter`) and the filters applied.

    Raises ``ValidationError`` (400, naming the field) on a filter that does not parse. With
    ``match=parts`` (the auditors' page's exports) text matches parts of codes, as on the page.
    """
    cls = AuditPageFilter if params.get("match") == "parts" else AuditRecordFilter
    filterset = cls(params, queryset=AuditRecord.objects.all())
    if not filterset.is_valid():
        raise ValidationError(filterset.errors)
    applied = {name: str(params[name]) for name in filterset.filters if params.get(name) not in (None, "")}
    return filterset.qs, applied


def latest_verification() -> AuditVerification | None:
    return AuditVerification.objects.filter(status=VerificationStatus.DONE).order_by("-finished_at", "-id").first()


def latest_checkpoints() -> list[AuditCheckpoint]:
    """The last signed checkpoint of each chain."""
    heads = AuditCheckpoint.objects.values("chain").annotate(top=Max("seq"))
    wanted = Q(pk__in=[])
    for head in heads:
        wanted |= Q(chain=head["chain"], seq=head["top"])
    return list(AuditCheckpoint.objects.filter(wanted).order_by("chain"))


def recent_alerts(limit: int = 20) -> list[AuditAlert]:
    return list(AuditAlert.objects.order_by("-id")[:limit])
