"""The slot floor's screens: machines with their last readings and hold, the progressives and bonus meters
with what the ledger owes, and (for pit managers) the forms to enter readings, hits and bonus meters.

Read-only pages; every change goes through the JSON API (``/api/slots/…``, static/slots/slots.js), so it
runs the same services, idempotency and audit.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from accounting.conf import int_knob
from accounting.reports.writers import WRITERS
from casino.core.roles import Role, has_role
from casino.errors import InvalidInput
from slots import selectors
from slots.models import Machine, MachineStatus, PaidBy, Progressive, ProgressiveScope
from slots.reports import REPORTS, SlotFilters

READERS = (Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR)


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "registration/forbidden.html", {"message": message}, status=403)


@login_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, *READERS):
        return _forbidden(request, gettext("the slot floor is for pit managers, accountants and auditors"))
    error = None
    try:
        filters = SlotFilters.parse(request.GET)
    except InvalidInput as exc:
        filters, error = SlotFilters(), exc.message
    rows = selectors.machine_hold(date_from=filters.date_from, date_to=filters.date_to, game=filters.game)
    machines = [r["machine"] for r in rows]
    last = selectors.last_readings(machines)
    for r in rows:
        r["last"] = last.get(r["machine"].pk)
    progressive_rows = selectors.progressive_liabilities()
    bonus_rows = selectors.bonus_liabilities()
    query = filters.as_json()
    reports = [
        {
            "title": r.title,
            "links": [
                (fmt.upper(), f"{reverse('slots-report', kwargs={'name': r.name})}?"
                 f"{urlencode({**{k: v for k, v in query.items() if k in r.filters_used}, 'format': fmt})}")
                for fmt in WRITERS
            ],
        }
        for r in REPORTS.values()
    ]
    return render(
        request,
        "slots/index.html",
        {
            "rows": rows,
            "progressives": progressive_rows,
            "bonus": bonus_rows,
            "total_liability": sum(r["liability"] for r in progressive_rows + bonus_rows),
            "filters": query,
            "error": error,
            "writer": has_role(request.user, Role.PIT_MANAGER),
            "exporter": has_role(request.user, Role.ACCOUNTANT),
            "reports": reports,
            "active_machines": [m for m in machines if m.status != MachineStatus.RETIRED],
            "all_progressives": Progressive.objects.order_by("code"),
            "paid_by": PaidBy.choices,
            "scopes": ProgressiveScope.choices,
            "digits": int_knob("MINOR_UNIT_DIGITS"),
        },
    )


@login_required
@require_GET
def machine(request: HttpRequest, pk: int) -> HttpResponse:
    if not has_role(request.user, *READERS):
        return _forbidden(request, gettext("the slot floor is for pit managers, accountants and auditors"))
    obj = get_object_or_404(Machine, pk=pk)
    hold = selectors.machine_hold(machine=obj.asset_number)[0]
    readings = obj.meter_readings.select_related("supervisor", "recorded_by").prefetch_related(
        "contributions__progressive").order_by("-seq")[:50]
    linked = obj.progressives.order_by("code")
    # a machine's own progressive that already has its machine takes no other
    linkable = Progressive.objects.exclude(pk__in=linked.values("pk")).exclude(
        scope=ProgressiveScope.MACHINE, machines__isnull=False).distinct().order_by("code")
    return render(
        request,
        "slots/machine.html",
        {
            "machine": obj,
            "hold": hold,
            "readings": readings,
            "progressives": linked,
            "linkable": linkable,
            "meters": obj.bonus_meters.select_related("machine").order_by("name"),
            "writer": has_role(request.user, Role.PIT_MANAGER) and obj.status != MachineStatus.RETIRED,
            "statuses": MachineStatus.choices,
            "paid_by": PaidBy.choices,
            "digits": int_knob("MINOR_UNIT_DIGITS"),
        },
    )
