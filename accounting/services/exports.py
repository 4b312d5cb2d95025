"""Report exports: audited when asked for; large ones written by a Celery job with progress."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounting.models import ExportStatus, ReportExport
from accounting.reports import WRITERS, Filters, get_report, parse_filters
from casino import task_names
from casino.audit.services import audit_export_logged
from casino.core.roles import Role, has_role
from casino.dbrouter import replica_down, replica_reads
from casino.errors import DomainError, Forbidden, InvalidInput, NotFound
from casino.outbox import enqueue

PROGRESS_EVERY_S = 0.5


def ensure_can_export(actor: Any) -> None:
    if not has_role(actor, Role.ACCOUNTANT):
        raise Forbidden(gettext("reports are exported by accountants"), code="accountant_required")


def audit_export(actor: Any, *, report: str, fmt: str, filters: Filters, rows: int | None = None) -> None:
    """One audit record per export, before any byte leaves."""
    audit_export_logged(actor, f"{report}.{fmt}", filters.as_json(), rows=rows)


@transaction.atomic
def export_request(*, actor: Any, report: str, fmt: str, filters: Any) -> ReportExport:
    """Queue an export; the job starts once this commits. ``filters``: as the report's query parameters."""
    ensure_can_export(actor)
    if fmt not in WRITERS:
        raise InvalidInput(gettext("format must be one of %(formats)s") % {"formats": ", ".join(WRITERS)},
                           code="bad_format", field="format")
    if not isinstance(filters, Filters):
        filters = parse_filters(report, filters if isinstance(filters, dict) else {})
    get_report(report, filters)  # an unknown report or a bad filter is refused now, not in the job
    export = ReportExport.objects.create(
        report=report, format=fmt, filters=filters.as_json(), requested_by=actor, created_at=timezone.now()
    )
    audit_export(actor, report=report, fmt=fmt, filters=filters)
    enqueue(task_names.REPORT_EXPORT, args=[export.pk])  # sent once this commits (casino.outbox)
    return export


def _set(export_id: int, **fields: Any) -> None:
    ReportExport.objects.filter(pk=export_id).update(**fields)


def export_run(*, export_id: int) -> ReportExport:
    """Write the file. Idempotent: a finished or failed export is returned as it is; a redelivered one
    (the worker died while running) starts over and overwrites nothing but its own temporary file."""
    claimed = ReportExport.objects.filter(pk=export_id, status__in=[ExportStatus.QUEUED, ExportStatus.RUNNING]).update(
        status=ExportStatus.RUNNING, started_at=timezone.now(), progress=0, rows_done=0
    )
    export = ReportExport.objects.filter(pk=export_id).first()
    if export is None:
        raise NotFound(gettext("no export %(export_id)s") % {"export_id": export_id}, code="unknown_export")
    if not claimed:
        return export
    try:
        with replica_reads() as replica:  # the report's rows from a replica when there is one (casino/dbrouter.py)
            try:
                return _write(export)
            except DatabaseError as exc:
                if replica is None:
                    raise
                replica_down(replica, exc)  # lost midway: the file is written again, from the primary
        return _write(export)
    except (DomainError, OSError, DatabaseError) as exc:
        _set(export.pk, status=ExportStatus.FAILED, error=str(exc)[:300], finished_at=timezone.now())
    export.refresh_from_db()
    return export


def _write(export: ReportExport) -> ReportExport:
    """Build the file (reads through the router: a replica inside ``replica_reads``; the export's own row is
    written on the primary and read back from it)."""
    report = get_report(export.report, parse_filters(export.report, export.filters))
    total = report.count()
    _set(export.pk, rows_total=total)
    last = [0.0]

    def progress(done: int) -> None:
        now = time.monotonic()
        if done >= 0 and now - last[0] >= PROGRESS_EVERY_S:
            last[0] = now
            _set(export.pk, rows_done=done, progress=min(99, done * 100 // max(total, 1)))

    folder = Path(settings.MEDIA_ROOT) / "exports" / "tmp"
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=folder, suffix=f".{export.format}", delete=True) as tmp:
        WRITERS[export.format](
            report, tmp, progress=progress, generated_by=export.requested_by.get_username(),
            generated_at=export.created_at,
        )
        tmp.flush()
        tmp.seek(0)
        stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
        name = default_storage.save(f"exports/{export.report}-{export.pk}-{stamp}.{export.format}", File(tmp))
    _set(export.pk, status=ExportStatus.DONE, file=name, progress=100, rows_done=total, finished_at=timezone.now())
    export.refresh_from_db(using="default")
    return export
