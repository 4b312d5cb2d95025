"""The auditors' web page: filter the trail, read it, export it, see and run verification."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from casino.audit import selectors
from casino.audit.filters import AuditRecordFilter
from casino.audit.models import AuditRecord, AuditVerification
from casino.audit.record import json_text
from casino.audit.verification import audit_verification_request
from casino.core.roles import Role, has_role

PAGE_SIZE = 100

# why a chain broke (casino/audit/chain.py, ``Break.reason``), in an auditor's words
REASON_WORDS = {
    "hash": "a record no longer matches its seal: it was changed after it was written",
    "missing": "a record is missing",
    "seq": "the records are out of order",
    "link": "a record no longer links to the one before it",
    "checkpoint": "the chain differs from what a signed checkpoint vouched for",
    "truncated": "records at the end of the chain were removed",
    "chain_missing": "the whole chain is missing",
    "checkpoint_forged": "a checkpoint's signature is not valid",
}


def _breaks_in_words(verification: AuditVerification | None) -> list[str]:
    """Each broken chain: which one, where, and why, in words."""
    if verification is None or verification.ok is not False:
        return []
    out = []
    for b in verification.breaks or []:
        if not b.get("chain"):
            out.append(str(b.get("message") or "A chain does not verify."))
            continue
        where = f"at record number {b['seq']}" if b.get("seq") is not None else "at its end"
        record = f" (record {b['record_id']})" if b.get("record_id") else ""
        why = REASON_WORDS.get(str(b.get("reason")), "it does not verify")
        out.append(f"The chain “{b['chain']}” is broken {where}{record}: {why}.")
    return out


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
    asked = request.GET.get("verification", "")
    verification = selectors.latest_verification()
    requested = AuditVerification.objects.filter(pk=int(asked)).first() if asked.isdigit() else None
    params.pop("verification", None)
    return render(request, "audit/index.html", {
        "requested": requested, "requested_breaks": _breaks_in_words(requested),
        "breaks_in_words": _breaks_in_words(verification),
        "filter": filterset, "page": page, "rows": rows, "query": params.urlencode(),
        "verification": verification, "checkpoints": selectors.latest_checkpoints(),
        "alerts": selectors.recent_alerts(10),
    })


@login_required
@require_POST
def audit_verify_now(request: HttpRequest) -> HttpResponse:
    _ensure_auditor(request.user)
    verification = audit_verification_request(actor=request.user, trigger="web")
    return HttpResponseRedirect(f"{reverse('audit-index')}?verification={verification.pk}#verify-result")


@login_required
@require_GET
def audit_verification_result(request: HttpRequest, pk: int) -> HttpResponse:
    """The result of one verification, polled by the page until the job has walked every chain."""
    _ensure_auditor(request.user)
    verification = get_object_or_404(AuditVerification, pk=pk)
    return render(request, "audit/_verification.html",
                  {"requested": verification, "requested_breaks": _breaks_in_words(verification)})
