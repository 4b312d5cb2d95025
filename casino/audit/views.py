"""The auditors' web page: filter the trail, read it, export it, see and run verification."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from casino.audit import selectors
from casino.audit.filters import AuditRecordFilter
from casino.audit.models import AuditRecord
from casino.audit.record import json_text
from casino.audit.verification import audit_verification_request
from casino.core.roles import Role, has_role

PAGE_SIZE = 100


def _ensure_auditor(user: Any) -> None:
    if not has_role(user, Role.AUDITOR):
        raise PermissionDenied("the audit trail is for auditors")


def _json(value: Any) -> str:
    return "" if value is None else json_text(value)


@login_required
@require_GET
def audit_index(request: HttpRequest) -> HttpResponse:
    _ensure_auditor(request.user)
    filterset = AuditRecordFilter(request.GET, queryset=AuditRecord.objects.all())
    records = filterset.qs.order_by("-id") if filterset.is_valid() else AuditRecord.objects.none()
    page = Paginator(records, PAGE_SIZE).get_page(request.GET.get("page"))
    params = request.GET.copy()
    params.pop("page", None)
    rows = [{"record": r, "before": _json(r.before), "after": _json(r.after)} for r in page.object_list]
    return render(request, "audit/index.html", {
        "filter": filterset, "page": page, "rows": rows, "query": params.urlencode(),
        "verification": selectors.latest_verification(), "checkpoints": selectors.latest_checkpoints(),
        "alerts": selectors.recent_alerts(10),
    })


@login_required
@require_POST
def audit_verify_now(request: HttpRequest) -> HttpResponse:
    _ensure_auditor(request.user)
    audit_verification_request(actor=request.user, trigger="web")
    return HttpResponseRedirect(reverse("audit-index"))
