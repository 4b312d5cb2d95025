"""The auditors' web page: filter the trail, read it, export it, see and run verification."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from casino.audit import selectors
from casino.audit.exports import change_rows, record_number
from casino.audit.filters import AuditPageFilter
from casino.audit.labels import action_words, chain_words, object_words, origin_words, role_words
from casino.audit.models import AuditRecord, AuditVerification
from casino.audit.record import json_text
from casino.audit.verification import audit_verification_request
from casino.core.models import StaffProfile
from casino.core.roles import Role, has_role

PAGE_SIZE = 25  # a page a person scrolls: each record shows its change as a few lines
CHOICES_LISTED = 200  # the pick-lists' length (the text still matches any part of any code)

# why a chain broke (casino/audit/chain.py, ``Break.reason``), in an auditor's words
REASON_WORDS = {
    "hash": gettext_lazy("a record no longer matches its seal: it was changed after it was written"),
    "missing": gettext_lazy("a record is missing"),
    "seq": gettext_lazy("the records are out of order"),
    "link": gettext_lazy("a record no longer links to the one before it"),
    "checkpoint": gettext_lazy("the chain differs from what a signed checkpoint vouched for"),
    "truncated": gettext_lazy("records at the end of the chain were removed"),
    "chain_missing": gettext_lazy("the whole chain is missing"),
    "checkpoint_forged": gettext_lazy("a checkpoint's signature is not valid"),
}


def _breaks_in_words(verification: AuditVerification | None) -> list[str]:
    """Each broken chain: which one, where, and why, in words."""
    if verification is None or verification.ok is not False:
        return []
    out = []
    for b in verification.breaks or []:
        if not b.get("chain"):
            out.append(str(b.get("message") or gettext("A chain does not verify.")))
            continue
        where = (gettext("at record number {seq}").format(seq=b["seq"]) if b.get("seq") is not None
                 else gettext("at its end"))
        record = gettext(" (record {id})").format(id=b["record_id"]) if b.get("record_id") else ""
        why = REASON_WORDS.get(str(b.get("reason")), gettext("it does not verify"))
        out.append(gettext("The chain “{chain}” is broken {where}{record}: {why}.").format(
            chain=chain_words(b["chain"]), where=where, record=record, why=why))
    return out


def _ensure_auditor(user: Any) -> None:
    if not has_role(user, Role.AUDITOR):
        raise PermissionDenied("the audit trail is for auditors")


def _refused(request: HttpRequest) -> HttpResponse:
    """The refusal as a page, like every other screen's (never the API's JSON)."""
    return render(request, "registration/forbidden.html",
                  {"message": gettext("The audit trail is for auditors.")}, status=403)


def _distinct(field: str) -> list[str]:
    values = AuditRecord.objects.order_by(field).values_list(field, flat=True).distinct()[:CHOICES_LISTED]
    return [v for v in values if v]


def _pick_lists() -> dict[str, list[tuple[str, str]]]:
    """The known values of the filters a person picks from, with their words."""
    roles = sorted(set(_distinct("actor_role")) | {r.value for r in Role})
    return {
        "action": sorted(((a, action_words(a)) for a in _distinct("action")), key=lambda pair: pair[1]),
        "object_type": sorted(((o, object_words(o)) for o in _distinct("object_type")), key=lambda pair: pair[1]),
        "actor_role": [(r, role_words(r)) for r in roles],
        "table_code": [(t, t) for t in _distinct("table_code")],
    }


def _json(value: Any) -> str:
    return "" if value is None else json_text(value)


@login_required
@require_GET
def audit_index(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.AUDITOR):
        return _refused(request)
    filterset = AuditPageFilter(request.GET, queryset=AuditRecord.objects.all())
    records = filterset.qs.order_by("-id") if filterset.is_valid() else AuditRecord.objects.none()
    page = Paginator(records, PAGE_SIZE).get_page(request.GET.get("page"))
    params = request.GET.copy()
    params.pop("page", None)
    names = dict(StaffProfile.objects.filter(
        user__username__in={r.actor_username for r in page.object_list if r.actor_username}
    ).values_list("user__username", "display_name"))
    rows = [{
        "record": r,
        "action": action_words(r.action),
        "object": object_words(r.object_type),
        "origin": origin_words(r.channel, r.device),
        "chain": chain_words(r.chain),
        "object_id": record_number(r.object_id),
        "role": role_words(r.actor_role),
        "who": names.get(r.actor_username) or r.actor_username or gettext("the system"),
        "changes": change_rows(r.before, r.after, r),
    } for r in page.object_list]
    asked = request.GET.get("verification", "")
    verification = selectors.latest_verification()
    requested = AuditVerification.objects.filter(pk=int(asked)).first() if asked.isdigit() else None
    params.pop("verification", None)
    return render(request, "audit/index.html", {
        "requested": requested, "requested_breaks": _breaks_in_words(requested),
        "breaks_in_words": _breaks_in_words(verification),
        "filter": filterset, "page": page, "rows": rows, "query": params.urlencode(), "values": filterset.data,
        "pick": _pick_lists(), "errors": filterset.errors if not filterset.is_valid() else {},
        "verification": verification,
        "checkpoints": [{"chain": chain_words(cp.chain), "seq": cp.seq, "created_at": cp.created_at}
                        for cp in selectors.latest_checkpoints()],
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
